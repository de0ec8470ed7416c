"""HeroClix team abilities as data: ``teams.yaml`` (envs/heroclix/RULES.md TA, TA-*).

A figure's ``team`` (its team symbol, HC-3.9) is one of the ids below; an unknown id is an
error naming the figure file, line and field. With the env option ``team_abilities`` (off by
default, R-13) a figure of a team with an ``effect`` has that effect among its powers (the
hook registry keys of :mod:`.team_powers`); the wild card (Minions of Doom) has the effects
of every team of its force.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

import pydantic

from envs.core.scenario import STRICT_MODEL, load_yaml, validate

TEAMS_FILE = Path(__file__).with_name("teams.yaml")
WILD_CARD = "team_wild_card"


class _TeamRow(pydantic.BaseModel):
    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=r"^[a-z][a-z0-9_]*$")
    ability: str = pydantic.Field(pattern=r"^TA-[A-Z]+$")
    name: str
    effect: str | None
    text: str


class _TeamsFile(pydantic.BaseModel):
    model_config = STRICT_MODEL

    teams: list[_TeamRow]


@dataclass(frozen=True)
class Team:
    id: str
    ability: str  # the spec's id, TA-AVG ...
    name: str
    effect: str | None  # the effect's registry key, None when the ability does nothing
    text: str


@cache
def teams() -> Mapping[str, Team]:
    data, lines = load_yaml(TEAMS_FILE)
    rows = validate(_TeamsFile, data, str(TEAMS_FILE), lines).teams
    table = {row.id: Team(row.id, row.ability, row.name, row.effect, row.text) for row in rows}
    if len(table) != len(rows):
        raise ValueError(f"{TEAMS_FILE}: a team id is listed twice")
    return MappingProxyType(table)


def team_effects() -> frozenset[str]:
    return frozenset(t.effect for t in teams().values() if t.effect)
