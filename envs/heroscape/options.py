"""Heroscape's options, declared once (:mod:`envs.core.options`): the env docstring's options
table, the docs' table and every check and error message come from these fields. Checks that
need the battlefield (its size, a zone to hold) stay in
:class:`~envs.heroscape.game.HeroscapeBase`.
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from typing import ClassVar

from envs.core.options import (
    BoardSize,
    DataRefs,
    Integer,
    OneOf,
    Options,
    PositiveNumber,
    option,
)
from envs.heroscape.data.scenario_file import Scenario


@dataclass(frozen=True)
class HeroscapeOptions(Options):
    owner: ClassVar[str] = "heroscape_v0"

    scenario: str | PathLike[str] | Scenario = option(
        "skirmish",
        "scenario id (envs.heroscape.data.scenario_file.list_scenarios()) or path",
        DataRefs("scenario", Scenario),
    )
    board_size: tuple[int, int] = option(
        (16, 20), "padded (H, W) of observations and action cells", BoardSize()
    )
    round_cap: int | None = option(
        None, "rounds before a draw", Integer(none_means="the scenario's"), shown_default="scenario"
    )
    victory: str | None = option(
        None, '"eliminate" or "hold"', OneOf((None, "eliminate", "hold")), shown_default="scenario"
    )
    hold_rounds: int | None = option(
        None,
        "consecutive rounds to hold the objective",
        Integer(none_means="the scenario's"),
        shown_default="scenario",
    )
    level_height: float = option(
        1.0 / 6.0,
        "scale: one level in hex spacings",
        PositiveNumber(),
        rule="HS-10.4",
        shown_default="1/6",
    )
    figure_radius: float = option(
        0.3,
        "radius of a figure's cylinder, in hex spacings",
        PositiveNumber(below=0.5),
        rule="HS-10.4",
    )
