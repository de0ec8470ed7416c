"""Heroscape army cards, Basic Game side (envs/heroscape/RULES.md HS-2).

One card per file (``cards/<id>.yaml``), validated on load; every problem is a
:class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field and what is
wrong. A scenario may add its own cards, written the same way, in its ``cards:`` list
(:mod:`envs.heroscape.data.scenario_file`).

Format
======

::

    id: ashwood_archers       # lower-case; must equal the file name
    name: Ashwood Archers
    kind: squad               # hero (exactly 1 figure) | squad (2 or more), HS-2.2
    figures: 3                # 1..MAX_FIGURES
    move: 5                   # HS-2.3   all four stats are integers 1..MAX_STAT
    range: 7                  # HS-2.4   (1 = adjacent enemies only)
    attack: 2                 # HS-2.5   attack dice
    defense: 1                # HS-2.6   defense dice
    double_space: false       # optional, default false: each figure fills 2 spaces (HS-7)
    height: 5                 # optional, levels 1..MAX_HEIGHT; default 5 single-space,
                              # 6 double (HS-10.4)
    faction: Dawnmarch        # optional flavour
    flavour: Longbows cut from the oldest trees.   # optional flavour
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import pydantic

from envs.core.scenario import (
    STRICT_MODEL,
    STRING_SOURCE,
    YAML_SUFFIXES,
    LineMap,
    ScenarioError,
    list_data_ids,
    load_yaml,
    read_text,
    resolve_data_file,
)
from envs.heroscape.data.validation import ID_PATTERN, check_id_matches_file, validate_at

__all__ = [
    "CARDS_DIR",
    "DEFAULT_DOUBLE_HEIGHT",
    "DEFAULT_SINGLE_HEIGHT",
    "MAX_FIGURES",
    "MAX_HEIGHT",
    "MAX_STAT",
    "ArmyCard",
    "CardFile",
    "CardKind",
    "card_from_spec",
    "card_from_text",
    "list_cards",
    "load_card",
    "load_cards",
    "shipped_cards",
]

CARDS_DIR = Path(__file__).resolve().parent / "cards"

DEFAULT_SINGLE_HEIGHT = 5
"""Height in levels of a single-space figure whose card gives none (HS-10.4)."""
DEFAULT_DOUBLE_HEIGHT = 6
"""Height in levels of a double-space figure whose card gives none (HS-10.4)."""


# Declared maxima. Published cards stay far below them (move 8, range 9, ten dice, squads of
# 4); the engine keeps the stats in int16 arrays, rolls the dice one by one and searches
# moves over them, so an unbounded value would overflow or hang there instead of failing
# here with its line.
MAX_FIGURES = 10  # figures on one card
MAX_STAT = 20  # move, range, attack and defense
MAX_HEIGHT = 20  # levels (HS-10.4)


class CardKind(str, enum.Enum):
    HERO = "hero"
    SQUAD = "squad"


class CardFile(pydantic.BaseModel):
    """The fields of a card file (and of an entry of a scenario's ``cards:``)."""

    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=ID_PATTERN, strict=True)
    name: str = pydantic.Field(min_length=1, strict=True)
    kind: Literal["hero", "squad"]
    figures: pydantic.StrictInt = pydantic.Field(ge=1, le=MAX_FIGURES)
    move: pydantic.StrictInt = pydantic.Field(ge=1, le=MAX_STAT)
    range: pydantic.StrictInt = pydantic.Field(ge=1, le=MAX_STAT)
    attack: pydantic.StrictInt = pydantic.Field(ge=1, le=MAX_STAT)
    defense: pydantic.StrictInt = pydantic.Field(ge=1, le=MAX_STAT)
    double_space: pydantic.StrictBool = False
    height: pydantic.StrictInt | None = pydantic.Field(default=None, ge=1, le=MAX_HEIGHT)
    faction: str = pydantic.Field(default="", strict=True)
    flavour: str = pydantic.Field(default="", strict=True)


@dataclass(frozen=True)
class ArmyCard:
    """One army card, Basic Game side (HS-2): four stats and how many figures it has.

    Attributes:
        id: short name; the file name without ``.yaml`` for shipped cards.
        name: for people.
        kind: hero (exactly 1 figure) or squad (2 or more), HS-2.2.
        figures: number of figures; all use this card's stats.
        move, range, attack, defense: HS-2.3 .. HS-2.6.
        double_space: each figure occupies two adjacent spaces (HS-7).
        height: figure height in levels for line of sight (HS-10.4); defaults applied.
        faction, flavour: text only.
        source: where the card was defined.
    """

    id: str
    name: str
    kind: CardKind
    figures: int
    move: int
    range: int
    attack: int
    defense: int
    double_space: bool
    height: int
    faction: str
    flavour: str
    source: str

    @property
    def is_hero(self) -> bool:
        return self.kind is CardKind.HERO

    @property
    def spaces_per_figure(self) -> int:
        return 2 if self.double_space else 1


def list_cards() -> list[str]:
    """Ids of the shipped army cards, sorted."""
    return list_data_ids(CARDS_DIR, YAML_SUFFIXES)


def load_card(path_or_id: str | os.PathLike[str]) -> ArmyCard:
    """Load one army card from a file path, or a shipped card by id."""
    path = resolve_data_file(path_or_id, CARDS_DIR, YAML_SUFFIXES, "card", must_exist=True)
    text = read_text(path)
    data, lines = load_yaml(text, source=str(path))
    return _build_card(data, lines, (), file_name=path.name)


def card_from_text(text: str, source: str = STRING_SOURCE) -> ArmyCard:
    """Load one army card from YAML text; ``source`` names the text in errors."""
    return _build_card(*load_yaml(text, source=source), ())


def load_cards(directory: str | os.PathLike[str] | None = None) -> dict[str, ArmyCard]:
    """Every card in ``directory`` (default: the shipped cards), keyed by id.

    Each ``*.yaml`` file holds one card whose id equals the file name, so ids are unique.
    """
    if directory is None:
        return dict(shipped_cards())
    return _load_card_dir(Path(directory))


@lru_cache(maxsize=1)
def shipped_cards() -> Mapping[str, ArmyCard]:
    """The shipped cards, keyed by id (read once; read-only)."""
    return MappingProxyType(_load_card_dir(CARDS_DIR))


def _load_card_dir(directory: Path) -> dict[str, ArmyCard]:
    if not directory.is_dir():
        raise ScenarioError(directory, "no such card directory")
    cards = {}
    for path in sorted(directory.glob("*.yaml")):
        card = load_card(path)
        cards[card.id] = card
    return cards


def _build_card(
    data: Any, lines: LineMap, at: tuple[str | int, ...], file_name: str | None = None
) -> ArmyCard:
    spec = validate_at(CardFile, data, lines, at)
    check_id_matches_file(spec.id, lines, at, file_name)
    return card_from_spec(spec, lines, at)


def card_from_spec(spec: CardFile, lines: LineMap, at: tuple[str | int, ...]) -> ArmyCard:
    """The card of the validated fields ``spec`` found at path ``at`` of the document
    ``lines``: checks the figure count against the kind and applies the default height."""
    figures_path = at + ("figures",)
    if spec.kind == "hero" and spec.figures != 1:
        raise lines.error(
            figures_path,
            f"a hero card has exactly 1 figure (HS-2.2); '{spec.id}' has {spec.figures}",
        )
    if spec.kind == "squad" and spec.figures < 2:
        raise lines.error(
            figures_path,
            f"a squad card has 2 or more figures (HS-2.2); "
            f"'{spec.id}' has {spec.figures} (make it a hero card)",
        )
    height = spec.height
    if height is None:
        height = DEFAULT_DOUBLE_HEIGHT if spec.double_space else DEFAULT_SINGLE_HEIGHT
    return ArmyCard(
        id=spec.id,
        name=spec.name,
        kind=CardKind(spec.kind),
        figures=spec.figures,
        move=spec.move,
        range=spec.range,
        attack=spec.attack,
        defense=spec.defense,
        double_space=spec.double_space,
        height=height,
        faction=spec.faction,
        flavour=spec.flavour,
        source=lines.source,
    )
