"""heroarena environments. Every registered env is a module, as in PettingZoo::

    from envs import heroica_v0, heroscape_v0
    env = heroica_v0.env(mission="fork", num_players=2)

    from envs import make                 # or by name
    env = make("heroscape_v0", scenario="skirmish")

Game packages (``envs/<game>/``) register their envs and bots in ``envs.registry`` when this
package is imported; their modules and data load on first use, so one game's data problem
never breaks another game.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any

from .registry import ENVS

_NOT_GAMES = {"core"}
PACKAGE_ERRORS: dict[str, Exception] = {}
"""Game packages whose registration failed, with the error (``make`` reports them)."""

for _info in pkgutil.iter_modules(__path__):
    if _info.ispkg and _info.name not in _NOT_GAMES:
        try:
            importlib.import_module(f"{__name__}.{_info.name}")
        except Exception as exc:  # noqa: BLE001 - reported by make(), never fatal for others
            PACKAGE_ERRORS[_info.name] = exc


def env_names() -> list[str]:
    return sorted(ENVS)


def env_module(name: str) -> ModuleType:
    """The module of a registered env (``env(**options)``, its documentation page)."""
    if name not in ENVS:
        broken = "".join(
            f"; package envs.{p} failed to register: {e!r}" for p, e in PACKAGE_ERRORS.items()
        )
        raise ValueError(f"unknown env {name!r}; registered: {env_names()}{broken}")
    return importlib.import_module(ENVS[name].module)


def make(name: str, **options: Any):
    """Create a registered env (a PettingZoo AECEnv) with game and env options."""
    return env_module(name).env(**options)


def __getattr__(name: str) -> ModuleType:
    if name in ENVS:
        return env_module(name)
    raise AttributeError(f"module 'envs' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + env_names())
