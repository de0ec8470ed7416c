"""Where games register themselves: their envs, rules engines and bots, by import path.

Each game package's ``__init__`` registers its names here and imports nothing else, so
importing ``envs`` never loads a game's data: a game is loaded when one of its envs or bots
is first used, and one game's broken data file never breaks another game.

::

    register_env("heroica_v0", module="envs.heroica.heroica_v0", game="envs.heroica.rules:HeroicaGame")
    register_bots("heroica", {"heuristic": "envs.heroica.bots.heuristic:HeuristicBot"})
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EnvEntry:
    name: str  # "heroica_v0"
    module: str  # the env module: env(**options), its docstring is the env's page
    game: str  # "module:Class" of the rules engine


ENVS: dict[str, EnvEntry] = {}
BOTS: dict[str, dict[str, str]] = {}  # game name -> bot name -> "module:Class"


def register_env(name: str, module: str, game: str) -> None:
    if name in ENVS and ENVS[name] != EnvEntry(name, module, game):
        raise ValueError(f"env {name!r} is registered twice")
    ENVS[name] = EnvEntry(name, module, game)


def register_bots(game_name: str, bots: dict[str, str]) -> None:
    BOTS.setdefault(game_name, {}).update(bots)


def load(path: str) -> Any:
    """The object at ``"package.module:attribute"``, importing the module."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)
