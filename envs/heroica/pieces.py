"""Heroica pieces as data: heroes, monsters, weapons, items (``pieces.yaml``), validated on load."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

PIECES_FILE = Path(__file__).with_name("pieces.yaml")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Skill(_Strict):
    """A Shield-only skill (HE-7.1, HE-12.2): ``effect`` names an effect registered in
    ``envs.heroica.skills.HOOKS`` (checked against the registry by ``skills.check_skills``)."""

    timing: Literal["melee", "ranged"]
    effect: str
    range: int | None = Field(default=None, ge=1)
    straight: bool = False
    gold: int = Field(default=0, ge=0)
    amount: int = Field(default=0, ge=0)


class HeroSpec(_Strict):
    name: str
    skill: Skill


class MonsterSpec(_Strict):
    name: str
    symbol: str = Field(min_length=1, max_length=1)
    strength: int = Field(ge=1)


class WeaponSpec(_Strict):
    name: str
    price: int = Field(ge=0)
    resale: int = Field(ge=0)
    skill: Skill


class ItemSpec(_Strict):
    name: str
    symbol: str = Field(min_length=1, max_length=1)
    heal: int = 0
    steps: int = 0
    resale: int = 0


class ObstacleSpec(_Strict):
    name: str
    symbol: str = Field(min_length=1, max_length=1)


class Pieces(_Strict):
    heroes: dict[str, HeroSpec]
    monsters: dict[str, MonsterSpec]
    weapons: dict[str, WeaponSpec]
    items: dict[Literal["life_potion", "speed_potion", "torch", "scepter"], ItemSpec]
    obstacles: dict[Literal["rocks", "chest"], ObstacleSpec]
    health: int = Field(ge=1)


def load_pieces_file(path: Path) -> Pieces:
    """Read and validate ``path``; the skills' effect names are checked by the engine."""
    try:
        data = yaml.safe_load(path.read_text())
        pieces = Pieces.model_validate(data)
    except yaml.YAMLError as exc:
        raise ValueError(f"{path}: not valid YAML: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ValueError(f"{path}, field '{where}': {first['msg']}") from None
    symbols = [m.symbol for m in pieces.monsters.values()] + [
        i.symbol for i in pieces.items.values()] + [o.symbol for o in pieces.obstacles.values()]
    clashes = {s for s in symbols if symbols.count(s) > 1 or s in "#.S"}
    if clashes:
        raise ValueError(f"{path}: map symbols used twice or reserved: {sorted(clashes)}")
    return pieces


@lru_cache(maxsize=None)
def default_pieces() -> Pieces:
    return load_pieces_file(PIECES_FILE)
