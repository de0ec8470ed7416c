"""Heroica pieces as data: heroes, monsters, weapons, items (``pieces.yaml``), validated on load.

Every problem is a :class:`~envs.core.scenario.ScenarioError` naming the file, the line, the
field and what is wrong. Every number has a declared range (the constants below): the engine
keeps them in int8 / int32 arrays and sums them into ``max_decisions``, so an unbounded value
would overflow there instead of failing here with its line.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from envs.core.scenario import load_yaml, validate

PIECES_FILE = Path(__file__).with_name("pieces.yaml")

# Declared ranges. HE-3.4 Health 4, HE-8.1 strengths 1-3, HE-12.1 prices 3 / 2, HE-7.3 range
# 4: the maxima leave room for variants while keeping every count far from overflow.
MAX_HEALTH = 20  # a Hero's Health; a monster's strength and a heal never need more
MAX_GOLD = 100  # a price, a resale value
MAX_RANGE = 64  # squares a ranged skill reaches (a padded board is rarely larger)
MAX_STEPS = 20  # steps an item adds to a move
MAX_SKILL_GOLD = 10  # gold a skill takes per defeated monster
MAX_KINDS = 16  # heroes, monsters or weapons: weapons are bits of an int32 bitset, piece
# codes fit int8
# The item kinds a pieces file may define (the keys of ``items:``).
ItemKind = Literal["life_potion", "speed_potion", "torch", "scepter"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Skill(_Strict):
    """A Shield-only skill (HE-7.1, HE-12.2): ``effect`` names an effect registered in
    ``envs.heroica.skills.HOOKS`` (checked against the registry by ``skills.check_skills``)."""

    timing: Literal["melee", "ranged"]
    effect: str
    range: int | None = Field(default=None, ge=1, le=MAX_RANGE)
    straight: bool = False
    gold: int = Field(default=0, ge=0, le=MAX_SKILL_GOLD)
    amount: int = Field(default=0, ge=0, le=MAX_HEALTH)


class HeroSpec(_Strict):
    name: str
    skill: Skill


class MonsterSpec(_Strict):
    name: str
    symbol: str = Field(min_length=1, max_length=1)
    strength: int = Field(ge=1, le=MAX_HEALTH)


class WeaponSpec(_Strict):
    name: str
    price: int = Field(ge=0, le=MAX_GOLD)
    resale: int = Field(ge=0, le=MAX_GOLD)
    skill: Skill


class ItemSpec(_Strict):
    name: str
    symbol: str = Field(min_length=1, max_length=1)
    heal: int = Field(default=0, ge=0, le=MAX_HEALTH)
    steps: int = Field(default=0, ge=0, le=MAX_STEPS)
    resale: int = Field(default=0, ge=0, le=MAX_GOLD)


class ObstacleSpec(_Strict):
    name: str
    symbol: str = Field(min_length=1, max_length=1)


class Pieces(_Strict):
    heroes: dict[str, HeroSpec] = Field(min_length=1, max_length=MAX_KINDS)
    monsters: dict[str, MonsterSpec] = Field(min_length=1, max_length=MAX_KINDS)
    weapons: dict[str, WeaponSpec] = Field(max_length=MAX_KINDS)
    items: dict[ItemKind, ItemSpec]
    obstacles: dict[Literal["rocks", "chest"], ObstacleSpec]
    health: int = Field(ge=1, le=MAX_HEALTH)


def load_pieces_file(path: Path) -> Pieces:
    """Read and validate ``path`` (UTF-8 YAML); the skills' effect names are checked by the
    engine."""
    data, lines = load_yaml(Path(path))
    pieces = validate(Pieces, data, lines.source, lines)
    symbols = {("monsters", k): m.symbol for k, m in pieces.monsters.items()}
    symbols.update({("items", k): i.symbol for k, i in pieces.items.items()})
    symbols.update({("obstacles", k): o.symbol for k, o in pieces.obstacles.items()})
    seen: dict[str, tuple[str, str]] = {}
    for where, symbol in symbols.items():
        if symbol in "#.S" or symbol in seen:
            clash = "a map character of its own" if symbol in "#.S" else ".".join(seen[symbol])
            raise lines.error(where + ("symbol",), f"map symbol {symbol!r} is already {clash}")
        seen[symbol] = where
    return pieces


@cache
def default_pieces() -> Pieces:
    return load_pieces_file(PIECES_FILE)
