"""heroarena environments. ``make(name, **options)`` builds any registered PettingZoo env.

>>> from envs import make
>>> env = make("heroica_v0", mission="fork", num_players=2)
"""

from __future__ import annotations

import importlib
from typing import Any

# name -> module providing env(**options); modules import lazily so one game's data
# problems never break another game.
REGISTRY: dict[str, str] = {
    "heroica_v0": "envs.heroica.heroica_v0",
    "heroscape_v0": "envs.heroscape.heroscape_v0",
}


def env_names() -> list[str]:
    return sorted(REGISTRY)


def make(name: str, **options: Any):
    """Create a registered env (a PettingZoo AECEnv) with game and env options."""
    if name not in REGISTRY:
        raise ValueError(f"unknown env {name!r}; registered: {env_names()}")
    module = importlib.import_module(REGISTRY[name])
    return module.env(**options)
