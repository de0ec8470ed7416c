"""Heroica's options, declared once (:mod:`envs.core.options`): the env docstring's options
table, the docs' table and every check and error message come from these fields. Checks that
need the pieces (how many heroes exist, which ids) stay in
:class:`~envs.heroica.game.HeroicaBase`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike
from typing import ClassVar

from envs.core.options import (
    BoardSize,
    Boolean,
    CheckedByGame,
    DataRefs,
    Integer,
    Options,
    Strings,
    option,
)
from envs.heroica.data.mission import Mission


@dataclass(frozen=True)
class HeroicaOptions(Options):
    owner: ClassVar[str] = "heroica_v0"

    mission: str | PathLike[str] | Mission | Sequence[str | PathLike[str] | Mission] = option(
        "fork",
        "mission id (envs.heroica.data.mission.list_missions()) or a path to a mission "
        "file; a list plays Epic Heroica",
        DataRefs("mission", Mission, many=True),
        rule="HE-18",
    )
    num_players: int = option(
        2,
        "agents, Monster Player included (2 to the heroes there are, one more with battle)",
        CheckedByGame(),
    )
    heroes: tuple[str, ...] | None = option(
        None,
        "hero ids per Hero seat (barbarian, wizard, thief, ...); None: in seat order",
        Strings("hero", none_means="the pieces' heroes in order"),
        shown_default="seat order",
    )
    battle: bool = option(
        False, "Battle Heroica: the last agent controls the monsters", Boolean(), rule="HE-20"
    )
    max_rounds: int = option(100, "rounds per mission before it ends without a winner", Integer())
    board_size: tuple[int, int] = option(
        (16, 16), "padded (H, W) of observations and action cells", BoardSize()
    )
    pieces: str | PathLike[str] | None = option(
        None,
        "path to an alternative pieces.yaml (heroes, monsters, weapons, skills)",
        DataRefs("pieces", ids=False, none_means="the shipped pieces"),
    )
    store_gold: int | None = option(
        None,
        "None: unlimited Store gold; an int plays the finite mode (takers get "
        "min(owed, stock), sales need stock)",
        Integer(least=0, none_means="unlimited"),
        rule="HE-12.6",
    )
