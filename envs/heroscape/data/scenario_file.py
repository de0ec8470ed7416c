"""Heroscape scenarios: battlefield, armies, start zones and victory (envs/heroscape/RULES.md
HS-1, HS-13, HS-14).

A scenario file (``scenarios/<id>.yaml``) is validated on load, together with the battlefield
(:mod:`envs.heroscape.data.battlefield`) and the army cards (:mod:`envs.heroscape.data.army_cards`) it
uses; every problem is a :class:`~envs.core.scenario.ScenarioError` naming the file, the
line, the field and what is wrong.

Format
======

::

    id: skirmish              # lower-case; must equal the file name
    name: Skirmish
    description: Two small armies meet on the meadow.
    battlefield: meadow       # a shipped battlefield id, a path to a battlefield file
                              # (relative to this file), or the battlefield fields inline
    players:                  # 2-4 players in seat order; player 1 first (HS-1.2)
      - army: [iron_warden, ashwood_archers]    # card ids, each at most once per army
        zone: A                                 # start zone letter on the battlefield
      - army: [shade_duelist, cinder_slingers]
        zone: B
    victory: {type: eliminate}    # optional; default eliminate
    round_cap: 50                 # optional; default 50
    cards: []                     # optional: extra army cards, written as in a card file

Start zones (HS-1.4): each player's figures start on its zone's hexes. A zone must have a space
per figure, counting a double-space figure as 2, and hold enough disjoint pairs of adjacent
same-level hexes for the double-space figures (HS-7.2); two players may not share a zone.
Where in the zone each figure starts is the rules engine's choice (random by default).

A *round* is one turn of every player still in the game, in turn order from the player who
took the first turn (HS-4.4).

Victory (HS-13.1, HS-14.1):

* ``{type: eliminate}``: a player wins as soon as no enemy figure remains on the battlefield.
* ``{type: hold, zone: X, rounds: N}``: at the end of each round, a player *holds* zone ``X``
  if at least one of its figures stands on an ``X`` hex (either space of a double-space figure
  counts) and no other player's figure does. The holder's count of consecutive held rounds
  goes up by 1, every other player's count drops to 0 (and all counts drop to 0 when nobody
  holds it). The first player to reach ``N`` wins at that round's end. Eliminating every enemy
  still wins at once. The hold zone may not be a player's start zone.
* ``round_cap``: when that many rounds have been played without a winner, the game is a draw.
  Default :data:`DEFAULT_ROUND_CAP` rounds (100 turns with two players, HS-13.1).

Custom content (HS-14.1): a scenario may give its battlefield inline and add its own cards
(``cards:``), so a whole custom game fits in one file; a card id may be defined only once
(shipped cards included).
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import pydantic

from envs.core.board import Board
from envs.core.scenario import (
    STRICT_MODEL,
    STRING_SOURCE,
    YAML_SUFFIXES,
    LineMap,
    list_data_ids,
    load_yaml,
    looks_like_path,
    read_text,
    resolve_data_file,
    validate,
)
from envs.heroscape.data.army_cards import ArmyCard, CardFile, card_from_spec, shipped_cards
from envs.heroscape.data.battlefield import (
    Battlefield,
    build_battlefield,
    list_battlefields,
    load_battlefield,
)
from envs.heroscape.data.validation import ID_PATTERN, check_id_matches_file

__all__ = [
    "DEFAULT_ROUND_CAP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SCENARIOS_DIR",
    "PlayerSetup",
    "Scenario",
    "Victory",
    "VictoryType",
    "list_scenarios",
    "load_scenario",
    "scenario_from_text",
]

SCENARIOS_DIR = Path(__file__).resolve().parent / "scenarios"

DEFAULT_ROUND_CAP = 50
"""Rounds after which a scenario without ``round_cap`` is a draw."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class VictoryType(str, enum.Enum):
    ELIMINATE = "eliminate"
    HOLD = "hold"


class _VictorySpec(pydantic.BaseModel):
    model_config = STRICT_MODEL

    type: Literal["eliminate", "hold"]
    zone: str | None = pydantic.Field(default=None, pattern=r"^[A-Z]$", strict=True)
    rounds: pydantic.StrictInt | None = pydantic.Field(default=None, ge=1)


class _PlayerSpec(pydantic.BaseModel):
    model_config = STRICT_MODEL

    army: list[pydantic.StrictStr] = pydantic.Field(min_length=1)
    zone: str = pydantic.Field(pattern=r"^[A-Z]$", strict=True)


class _CardFile(CardFile):
    """An entry of a scenario's ``cards:``: the fields of a card file. (pydantic names this
    class in its messages: "Input should be a valid dictionary or instance of _CardFile".)"""


class _ScenarioFile(pydantic.BaseModel):
    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=ID_PATTERN, strict=True)
    name: str = pydantic.Field(min_length=1, strict=True)
    description: str = pydantic.Field(default="", strict=True)
    battlefield: Any
    players: list[_PlayerSpec]
    victory: _VictorySpec = _VictorySpec(type="eliminate")
    round_cap: pydantic.StrictInt = pydantic.Field(default=DEFAULT_ROUND_CAP, ge=1)
    cards: list[_CardFile] = []


@dataclass(frozen=True)
class Victory:
    """How the game is won (see the module docstring). ``zone``/``rounds`` only for HOLD."""

    type: VictoryType
    zone: str | None = None
    rounds: int | None = None


@dataclass(frozen=True)
class PlayerSetup:
    """One player's army (cards in the order written) and start zone."""

    army: tuple[ArmyCard, ...]
    zone: str
    zone_cells: tuple[int, ...]

    @property
    def n_figures(self) -> int:
        return sum(card.figures for card in self.army)


@dataclass(frozen=True, eq=False)
class Scenario:
    """A loaded, validated scenario: battlefield, players and victory conditions.

    Attributes:
        id, name, description: as written; ``id`` equals the file name.
        battlefield: the loaded :class:`Battlefield`.
        players: one :class:`PlayerSetup` per player, in seat order (2-4).
        victory: :class:`Victory`.
        round_cap: rounds after which the game is a draw.
        cards: every card this scenario may use (shipped ones and its own ``cards:``).
        source: file path, or ``"<string>"``.
    """

    id: str
    name: str
    description: str
    battlefield: Battlefield
    players: tuple[PlayerSetup, ...]
    victory: Victory
    round_cap: int
    cards: Mapping[str, ArmyCard]
    source: str

    @property
    def n_players(self) -> int:
        return len(self.players)


def list_scenarios() -> list[str]:
    """Ids of the shipped scenarios, sorted."""
    return list_data_ids(SCENARIOS_DIR, YAML_SUFFIXES)


def load_scenario(path_or_id: str | os.PathLike[str]) -> Scenario:
    """Load a scenario from a file path, or a shipped one by id (``"skirmish"``).

    A battlefield given as a path is read relative to the scenario file.
    """
    path = resolve_data_file(path_or_id, SCENARIOS_DIR, YAML_SUFFIXES, "scenario", must_exist=True)
    text = read_text(path)
    data, lines = load_yaml(text, source=str(path))
    return _build_scenario(
        data, lines, text.splitlines(), base_dir=path.parent, file_name=path.name
    )


def scenario_from_text(
    text: str, source: str = STRING_SOURCE, base_dir: str | os.PathLike[str] | None = None
) -> Scenario:
    """Load a scenario from YAML text; battlefield paths are relative to ``base_dir``
    (default: the current directory). ``source`` names the text in errors."""
    data, lines = load_yaml(text, source=source)
    return _build_scenario(
        data, lines, text.splitlines(), base_dir=Path.cwd() if base_dir is None else Path(base_dir)
    )


def _build_scenario(
    data: Any, lines: LineMap, raw_lines: list[str], base_dir: Path, file_name: str | None = None
) -> Scenario:
    spec = validate(_ScenarioFile, data, lines.source, lines)
    check_id_matches_file(spec.id, lines, (), file_name)

    # -- battlefield: id, path or inline --------------------------------------------------
    raw_bf = spec.battlefield
    if isinstance(raw_bf, Mapping):
        battlefield = build_battlefield(data, lines, ("battlefield",), raw_lines)
    elif isinstance(raw_bf, str) and raw_bf:
        if looks_like_path(raw_bf):
            bf_path = base_dir / raw_bf
            if not bf_path.is_file():
                raise lines.error("battlefield", f"no battlefield file '{bf_path}'")
            battlefield = load_battlefield(bf_path)
        elif raw_bf in list_battlefields():
            battlefield = load_battlefield(raw_bf)
        else:
            raise lines.error(
                "battlefield",
                f"unknown battlefield '{raw_bf}'; shipped "
                f"battlefields: {', '.join(list_battlefields())}",
            )
    else:
        raise lines.error(
            "battlefield",
            "expected a battlefield id, a path to a battlefield "
            "file, or the battlefield's fields (id, name, map)",
        )

    # -- cards: shipped plus the scenario's own -------------------------------------------
    cards = dict(shipped_cards())
    for i, card_spec in enumerate(spec.cards):
        at = ("cards", i)
        if card_spec.id in cards:
            first = cards[card_spec.id].source
            where = "a shipped card" if first != lines.source else "defined earlier in this file"
            raise lines.error(
                at + ("id",),
                f"duplicate card id '{card_spec.id}' ({where}, {first}); card ids must be unique",
            )
        cards[card_spec.id] = card_from_spec(card_spec, lines, at)

    # -- players ----------------------------------------------------------------------------
    n = len(spec.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise lines.error(
            "players", f"{n} player(s); a scenario has {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    board = battlefield.board
    players = []
    zone_owner: dict[str, int] = {}
    for p, player in enumerate(spec.players):
        at = ("players", p)
        army: list[ArmyCard] = []
        for j, card_id in enumerate(player.army):
            if card_id not in cards:
                raise lines.error(
                    at + ("army", j),
                    f"unknown army card '{card_id}'; known cards: {', '.join(sorted(cards))}",
                )
            if card_id in player.army[:j]:
                raise lines.error(
                    at + ("army", j),
                    f"card '{card_id}' is already in this army; each card at most once per army",
                )
            army.append(cards[card_id])
        zone = player.zone
        if zone not in battlefield.zones:
            raise lines.error(
                at + ("zone",),
                f"zone '{zone}' is not on battlefield "
                f"'{battlefield.id}' (its zones: "
                f"{', '.join(battlefield.zones) or 'none'})",
            )
        if zone in zone_owner:
            raise lines.error(
                at + ("zone",),
                f"zone '{zone}' is already the start zone of "
                f"player {zone_owner[zone] + 1}; each player needs "
                f"its own zone",
            )
        zone_owner[zone] = p
        cells = battlefield.zones[zone]
        doubles = sum(c.figures for c in army if c.double_space)
        singles = sum(c.figures for c in army if not c.double_space)
        needed = singles + 2 * doubles
        if needed > len(cells):
            raise lines.error(
                at + ("zone",),
                f"zone '{zone}' has {len(cells)} hexes but this "
                f"army needs {needed} ({singles} single-space "
                f"figures + {doubles} double-space x 2)",
            )
        if doubles and not _has_disjoint_pairs(board, cells, doubles):
            raise lines.error(
                at + ("zone",),
                f"zone '{zone}' does not hold {doubles} separate "
                f"pair(s) of adjacent same-level hexes for the "
                f"army's double-space figures (HS-7.2)",
            )
        players.append(PlayerSetup(army=tuple(army), zone=zone, zone_cells=tuple(cells)))

    # -- victory ----------------------------------------------------------------------------
    v = spec.victory
    if v.type == "eliminate":
        for extra in ("zone", "rounds"):
            if getattr(v, extra) is not None:
                raise lines.error(("victory", extra), f"'{extra}' is only for victory type 'hold'")
        victory = Victory(VictoryType.ELIMINATE)
    else:
        for needed_field in ("zone", "rounds"):
            if getattr(v, needed_field) is None:
                raise lines.error(("victory",), f"victory type 'hold' needs '{needed_field}'")
        if v.zone not in battlefield.zones:
            raise lines.error(
                ("victory", "zone"),
                f"zone '{v.zone}' is not on battlefield "
                f"'{battlefield.id}' (its zones: "
                f"{', '.join(battlefield.zones) or 'none'})",
            )
        if v.zone in zone_owner:
            raise lines.error(
                ("victory", "zone"),
                f"zone '{v.zone}' is player "
                f"{zone_owner[v.zone] + 1}'s start zone; "
                f"the hold zone must be another zone",
            )
        victory = Victory(VictoryType.HOLD, v.zone, v.rounds)

    return Scenario(
        id=spec.id,
        name=spec.name,
        description=spec.description,
        battlefield=battlefield,
        players=tuple(players),
        victory=victory,
        round_cap=spec.round_cap,
        cards=MappingProxyType(cards),
        source=lines.source,
    )


def _has_disjoint_pairs(board: Board, cells: Sequence[int], need: int) -> bool:
    """Whether ``cells`` hold ``need`` disjoint pairs of adjacent same-level spaces."""
    cell_set = frozenset(int(c) for c in cells)
    partners = {
        c: frozenset(
            int(n) for n in board.neighbors[c] if n in cell_set and board.level[n] == board.level[c]
        )
        for c in cell_set
    }

    @cache
    def search(remaining: frozenset[int], need: int) -> bool:
        if need == 0:
            return True
        pairable = [c for c in remaining if partners[c] & remaining]
        if len(pairable) < 2 * need:
            return False
        v = min(pairable)
        for u in sorted(partners[v] & remaining):
            if search(remaining - {v, u}, need - 1):
                return True
        return search(remaining - {v}, need)

    return search(cell_set, need)
