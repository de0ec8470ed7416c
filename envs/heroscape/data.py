"""Heroscape data: battlefields, army cards and scenarios (rules/heroscape.md HS-1, HS-2, HS-14).

Three kinds of YAML file, each validated on load. Every problem is a
:class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field and what is
wrong (for map tokens also the board row/col and the file column)::

    battlefields/ridge.yaml, line 9, field 'map': map row 2, col 4 (file column 19): unknown
    token '0n'; ...

Battlefields (``battlefields/<id>.yaml``)
=========================================

::

    id: pond                  # lower-case; must equal the file name (pond.yaml)
    name: Pond
    description: A flat field around a little pond.
    map: |                    # a literal block: one line per row of hexes
      1nA 1nA 1nA 1n  1n
        1n  1n  1w  1w  .
      1n  2n  1w  1n  1s
        1nB 1nB 1nB 1nB 1nB

One whitespace-separated token per hex; a row holds ``cols`` tokens, every row the same
count. The board is pointy-top hexes in "odd-r" offset layout (:mod:`envs.core.board`): odd rows
sit half a hex to the RIGHT, so **odd rows are indented two spaces more than even rows**. That
indentation is only for the picture, but it is checked: even rows start in the block's first
column, odd rows two columns further. The recommended (unchecked) layout puts a token every 4
columns, so each hex of an odd row sits between the two hexes above it. Tabs are not allowed.

A token is ``<level><terrain>[<zone>]`` or a gap:

====================  ==========================================================================
``1``-``9``           level: height of the surface in tile layers; the lowest ground is 1
``n`` / ``w`` / ``s`` terrain: normal, water, shadow (:class:`Terrain`; HS-6.8, HS-6.9)
``A``-``Z`` optional  zone marker: ``A``-``D`` are start zones (HS-1.4), ``X`` objective hexes
``.`` or ``..``       no tile: not a space. Range counts around it (HS-9.5); line of sight
                      passes over it (HS-10.4)
====================  ==========================================================================

Cell ``row * cols + col`` is the ``col``-th token of row ``row``. Checks on load: the token
grammar, equal token counts per row, the indentation, at least one space, every space
connected to every other (so range, HS-9.5, is always defined) and at most
:data:`MAX_ROWS` x :data:`MAX_COLS` hexes (the env pads observations to that size).

Army cards (``cards/<id>.yaml``, one card per file)
===================================================

::

    id: ashwood_archers       # lower-case; must equal the file name
    name: Ashwood Archers
    kind: squad               # hero (exactly 1 figure) | squad (2 or more), HS-2.2
    figures: 3
    move: 5                   # HS-2.3   all four stats are integers >= 1
    range: 7                  # HS-2.4   (1 = adjacent enemies only)
    attack: 2                 # HS-2.5   attack dice
    defense: 1                # HS-2.6   defense dice
    double_space: false       # optional, default false: each figure fills 2 spaces (HS-7)
    height: 5                 # optional, levels; default 5 single-space, 6 double (HS-10.4)
    faction: Dawnmarch        # optional flavour
    flavour: Longbows cut from the oldest trees.   # optional flavour

Scenarios (``scenarios/<id>.yaml``)
===================================

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
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
import pydantic

from envs.core.board import UNREACHABLE, Board, Topology
from envs.core.scenario import (STRICT_MODEL, STRING_SOURCE, LineMap, ScenarioError, dotted,
                                load_yaml, read_text, validate)

__all__ = [
    "BATTLEFIELDS_DIR",
    "CARDS_DIR",
    "DEFAULT_DOUBLE_HEIGHT",
    "DEFAULT_ROUND_CAP",
    "DEFAULT_SINGLE_HEIGHT",
    "MAX_COLS",
    "MAX_ROWS",
    "SCENARIOS_DIR",
    "ArmyCard",
    "Battlefield",
    "CardKind",
    "PlayerSetup",
    "Scenario",
    "Terrain",
    "Victory",
    "VictoryType",
    "battlefield_from_text",
    "card_from_text",
    "list_battlefields",
    "list_cards",
    "list_scenarios",
    "load_battlefield",
    "load_card",
    "load_cards",
    "load_scenario",
    "scenario_from_text",
]

_HERE = Path(__file__).resolve().parent
BATTLEFIELDS_DIR = _HERE / "battlefields"
CARDS_DIR = _HERE / "cards"
SCENARIOS_DIR = _HERE / "scenarios"

MAX_ROWS = 16
"""Most hex rows a battlefield may have (the env pads observations to MAX_ROWS x MAX_COLS)."""
MAX_COLS = 20
"""Most hexes per row a battlefield may have."""
DEFAULT_ROUND_CAP = 50
DEFAULT_SINGLE_HEIGHT = 5
"""Height in levels of a single-space figure whose card gives none (HS-10.4)."""
DEFAULT_DOUBLE_HEIGHT = 6
"""Height in levels of a double-space figure whose card gives none (HS-10.4)."""
MIN_PLAYERS, MAX_PLAYERS = 2, 4
ODD_ROW_INDENT = 2


class Terrain(enum.IntEnum):
    """Terrain type of a space; the values are what ``Board.terrain`` holds."""

    NORMAL = 0
    WATER = 1
    SHADOW = 2


TERRAIN_CODES: Mapping[str, Terrain] = MappingProxyType(
    {"n": Terrain.NORMAL, "w": Terrain.WATER, "s": Terrain.SHADOW})
"""Map token letter -> terrain."""
_TERRAIN_LETTER = {t: c for c, t in TERRAIN_CODES.items()}

GAP_TOKENS = (".", "..")
_TOKEN = re.compile(r"^([1-9])([nws])([A-Z])?$")
_TOKEN_HELP = ("a hex is <level 1-9><terrain n|w|s>[zone letter A-Z], e.g. '1n', '3s', '2nA', "
               "and '.' or '..' is no tile")
_ID_PATTERN = r"^[a-z][a-z0-9_]*$"


# =============================================================================================
# Battlefields
# =============================================================================================

class _BattlefieldFile(pydantic.BaseModel):
    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=_ID_PATTERN, strict=True)
    name: str = pydantic.Field(min_length=1, strict=True)
    description: str = pydantic.Field(default="", strict=True)
    map: str = pydantic.Field(strict=True)


@dataclass(frozen=True, eq=False)
class Battlefield:
    """A loaded, validated battlefield. Cells are flat indices ``row * cols + col``.

    Attributes:
        id: short name; also the file name without ``.yaml``.
        name, description: for people.
        board: hex :class:`~envs.core.board.Board`; ``terrain`` holds :class:`Terrain` values
            and ``level`` the levels (0 on cells that are not spaces).
        zones: zone letter -> cells marked with it, ascending.
        source: file path, or ``"<string>"``.
    """

    id: str
    name: str
    description: str
    board: Board
    zones: Mapping[str, tuple[int, ...]]
    source: str

    @property
    def rows(self) -> int:
        return self.board.height

    @property
    def cols(self) -> int:
        return self.board.width

    @property
    def n_spaces(self) -> int:
        return int(self.board.exists.sum())

    @property
    def levels(self) -> tuple[int, ...]:
        """The distinct levels of the spaces, ascending."""
        return tuple(int(v) for v in np.unique(self.board.level[self.board.exists]))

    def cell(self, row: int, col: int) -> int:
        """Flat cell index of (row, col); ValueError off the board."""
        return self.board.cell(row, col)

    def rc(self, cell: int) -> tuple[int, int]:
        """(row, col) of a flat cell index."""
        return self.board.rc(cell)

    def zone_mask(self, letter: str) -> np.ndarray:
        """bool[n_cells]: the hexes of zone ``letter`` (all False for an absent zone)."""
        mask = np.zeros(self.board.n_cells, dtype=bool)
        mask[list(self.zones.get(letter, ()))] = True
        return mask

    def map_text(self) -> str:
        """The map in the file format (4 columns per token), e.g. to write a battlefield."""
        zone_of = {c: z for z, cells in self.zones.items() for c in cells}
        lines = []
        for row in range(self.rows):
            tokens = []
            for col in range(self.cols):
                cell = self.cell(row, col)
                if not self.board.exists[cell]:
                    tokens.append(".")
                    continue
                tokens.append(f"{int(self.board.level[cell])}"
                              f"{_TERRAIN_LETTER[Terrain(int(self.board.terrain[cell]))]}"
                              f"{zone_of.get(cell, '')}")
            text = " " * (ODD_ROW_INDENT if row & 1 else 0) + "".join(f"{t:<4}" for t in tokens)
            lines.append(text.rstrip())
        return "\n".join(lines) + "\n"


def list_battlefields() -> list[str]:
    """Ids of the shipped battlefields, sorted."""
    return sorted(p.stem for p in BATTLEFIELDS_DIR.glob("*.yaml"))


def load_battlefield(path_or_id: str | os.PathLike[str]) -> Battlefield:
    """Load a battlefield from a file path, or a shipped one by id (``"meadow"``).

    A ``str`` ending in ``.yaml``/``.yml`` or containing a path separator is a path; any other
    ``str`` is an id. Raises :class:`ScenarioError` for a bad file or an unknown id.
    """
    path = _resolve(path_or_id, BATTLEFIELDS_DIR, "battlefield", list_battlefields)
    return _load_battlefield_file(path)


def battlefield_from_text(text: str, source: str = STRING_SOURCE) -> Battlefield:
    """Load a battlefield from YAML text; ``source`` names the text in errors."""
    data, lines = load_yaml(text, source=source)
    return _build_battlefield(data, lines, (), text.splitlines())


@lru_cache(maxsize=64)
def _load_battlefield_cached(path: str, mtime_ns: int) -> Battlefield:
    text = read_text(path)
    data, lines = load_yaml(text, source=path)
    return _build_battlefield(data, lines, (), text.splitlines(), file_name=Path(path).name)


def _load_battlefield_file(path: Path) -> Battlefield:
    if not path.is_file():
        raise ScenarioError(path, "no such battlefield file")
    return _load_battlefield_cached(str(path), path.stat().st_mtime_ns)


def _build_battlefield(data: Any, lines: LineMap, at: tuple[str, ...], raw_lines: list[str],
                       file_name: str | None = None) -> Battlefield:
    """Validate the battlefield fields found at path ``at`` of the document ``lines``."""
    source = lines.source
    spec = _validate_at(_BattlefieldFile, data, lines, at)
    _check_id_matches_file(spec.id, lines, at, file_name)
    map_path = at + ("map",)
    if lines.scalar_style(map_path) != "|":
        raise lines.error(map_path, "write the map as a YAML literal block ('map: |' followed by "
                                    "the rows, indented) so that each row keeps its own line")
    header = lines.value_line(map_path)
    first_line = None if header is None else header + 1
    field = dotted(map_path)

    rows = spec.map.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    if not rows:
        raise lines.error(map_path, "the map is empty")

    def fail(row: int, message: str) -> ScenarioError:
        line = None if first_line is None else first_line + row
        return ScenarioError(source, message, line=line, field=field)

    def file_column(row: int, position: int) -> int:
        # The block's own indentation is stripped by YAML; add it back from the raw line.
        indent = 0
        if first_line is not None and first_line - 1 < len(raw_lines):
            raw = raw_lines[first_line - 1 + row]
            indent = max(0, len(raw) - len(rows[row]))
        return indent + position + 1

    levels: list[list[int]] = []
    terrain: list[list[int]] = []
    exists: list[list[bool]] = []
    zone_cells: dict[str, list[tuple[int, int]]] = {}
    n_cols = None
    for r, row_text in enumerate(rows):
        if "\t" in row_text:
            raise fail(r, f"map row {r} (file column {file_column(r, row_text.index(chr(9)))}): "
                          f"a tab; separate tokens with spaces")
        if not row_text.strip():
            raise fail(r, f"map row {r} is empty; every line of the map is a row of hexes")
        indent = len(row_text) - len(row_text.lstrip(" "))
        expected = ODD_ROW_INDENT if r & 1 else 0
        if indent != expected:
            kind = ("odd rows sit half a hex to the right, so they are indented "
                    f"{ODD_ROW_INDENT} spaces more than even rows" if r & 1 else
                    "even rows start in the map's first column")
            raise fail(r, f"map row {r} is indented {indent} spaces, expected {expected} ({kind})")
        tokens = list(re.finditer(r"\S+", row_text))
        if n_cols is None:
            n_cols = len(tokens)
        elif len(tokens) != n_cols:
            raise fail(r, f"map row {r} has {len(tokens)} hexes, expected {n_cols} (the count of "
                          f"row 0); write '.' for each hex without a tile")
        row_levels, row_terrain, row_exists = [], [], []
        for c, match in enumerate(tokens):
            token = match.group()
            if token in GAP_TOKENS:
                row_levels.append(0)
                row_terrain.append(int(Terrain.NORMAL))
                row_exists.append(False)
                continue
            parsed = _TOKEN.match(token)
            if parsed is None:
                raise fail(r, f"map row {r}, col {c} (file column {file_column(r, match.start())})"
                              f": unknown token '{token}'; {_TOKEN_HELP}")
            level, code, zone = parsed.groups()
            row_levels.append(int(level))
            row_terrain.append(int(TERRAIN_CODES[code]))
            row_exists.append(True)
            if zone:
                zone_cells.setdefault(zone, []).append((r, c))
        levels.append(row_levels)
        terrain.append(row_terrain)
        exists.append(row_exists)

    n_rows = len(rows)
    assert n_cols is not None
    if n_rows > MAX_ROWS or n_cols > MAX_COLS:
        raise lines.error(map_path, f"the map is {n_rows} rows x {n_cols} hexes; at most "
                                    f"{MAX_ROWS} x {MAX_COLS} are allowed")
    exists_grid = np.array(exists, dtype=bool)
    if not exists_grid.any():
        raise lines.error(map_path, "the map has no spaces (every token is '.')")
    board = Board.create(Topology.HEX, exists_grid, np.array(terrain, dtype=np.int8),
                         np.array(levels, dtype=np.int16))
    spaces = board.spaces()
    cut_off = spaces[board.distance[spaces[0], spaces] == UNREACHABLE]
    if cut_off.size:
        r0, c0 = board.rc(spaces[0])
        r, c = board.rc(cut_off[0])
        raise fail(r, f"map row {r}, col {c}: this hex is cut off from the hex at row {r0}, col "
                      f"{c0}; every space must be connected ({cut_off.size} cut off in all)")
    zones = {z: tuple(board.cell(r, c) for r, c in cells)
             for z, cells in sorted(zone_cells.items())}
    return Battlefield(id=spec.id, name=spec.name, description=spec.description, board=board,
                       zones=MappingProxyType(zones), source=source)


# =============================================================================================
# Army cards
# =============================================================================================

class CardKind(str, enum.Enum):
    HERO = "hero"
    SQUAD = "squad"


class _CardFile(pydantic.BaseModel):
    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=_ID_PATTERN, strict=True)
    name: str = pydantic.Field(min_length=1, strict=True)
    kind: Literal["hero", "squad"]
    figures: pydantic.StrictInt = pydantic.Field(ge=1)
    move: pydantic.StrictInt = pydantic.Field(ge=1)
    range: pydantic.StrictInt = pydantic.Field(ge=1)
    attack: pydantic.StrictInt = pydantic.Field(ge=1)
    defense: pydantic.StrictInt = pydantic.Field(ge=1)
    double_space: pydantic.StrictBool = False
    height: pydantic.StrictInt | None = pydantic.Field(default=None, ge=1)
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
    return sorted(p.stem for p in CARDS_DIR.glob("*.yaml"))


def load_card(path_or_id: str | os.PathLike[str]) -> ArmyCard:
    """Load one army card from a file path, or a shipped card by id."""
    path = _resolve(path_or_id, CARDS_DIR, "card", list_cards)
    if not path.is_file():
        raise ScenarioError(path, "no such card file")
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
        return dict(_shipped_cards())
    return _load_card_dir(Path(directory))


@lru_cache(maxsize=1)
def _shipped_cards() -> Mapping[str, ArmyCard]:
    return MappingProxyType(_load_card_dir(CARDS_DIR))


def _load_card_dir(directory: Path) -> dict[str, ArmyCard]:
    if not directory.is_dir():
        raise ScenarioError(directory, "no such card directory")
    cards = {}
    for path in sorted(directory.glob("*.yaml")):
        card = load_card(path)
        cards[card.id] = card
    return cards


def _build_card(data: Any, lines: LineMap, at: tuple[str | int, ...],
                file_name: str | None = None) -> ArmyCard:
    spec = _validate_at(_CardFile, data, lines, at)
    _check_id_matches_file(spec.id, lines, at, file_name)
    return _card_from_spec(spec, lines, at)


def _card_from_spec(spec: _CardFile, lines: LineMap, at: tuple[str | int, ...]) -> ArmyCard:
    figures_path = at + ("figures",)
    if spec.kind == "hero" and spec.figures != 1:
        raise lines.error(figures_path, f"a hero card has exactly 1 figure (HS-2.2); "
                                        f"'{spec.id}' has {spec.figures}")
    if spec.kind == "squad" and spec.figures < 2:
        raise lines.error(figures_path, f"a squad card has 2 or more figures (HS-2.2); "
                                        f"'{spec.id}' has {spec.figures} (make it a hero card)")
    height = spec.height
    if height is None:
        height = DEFAULT_DOUBLE_HEIGHT if spec.double_space else DEFAULT_SINGLE_HEIGHT
    return ArmyCard(id=spec.id, name=spec.name, kind=CardKind(spec.kind), figures=spec.figures,
                    move=spec.move, range=spec.range, attack=spec.attack, defense=spec.defense,
                    double_space=spec.double_space, height=height, faction=spec.faction,
                    flavour=spec.flavour, source=lines.source)


# =============================================================================================
# Scenarios
# =============================================================================================

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


class _ScenarioFile(pydantic.BaseModel):
    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=_ID_PATTERN, strict=True)
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
    return sorted(p.stem for p in SCENARIOS_DIR.glob("*.yaml"))


def load_scenario(path_or_id: str | os.PathLike[str]) -> Scenario:
    """Load a scenario from a file path, or a shipped one by id (``"skirmish"``).

    A battlefield given as a path is read relative to the scenario file.
    """
    path = _resolve(path_or_id, SCENARIOS_DIR, "scenario", list_scenarios)
    if not path.is_file():
        raise ScenarioError(path, "no such scenario file")
    text = read_text(path)
    data, lines = load_yaml(text, source=str(path))
    return _build_scenario(data, lines, text.splitlines(), base_dir=path.parent,
                           file_name=path.name)


def scenario_from_text(text: str, source: str = STRING_SOURCE,
                       base_dir: str | os.PathLike[str] | None = None) -> Scenario:
    """Load a scenario from YAML text; battlefield paths are relative to ``base_dir``
    (default: the current directory). ``source`` names the text in errors."""
    data, lines = load_yaml(text, source=source)
    return _build_scenario(data, lines, text.splitlines(),
                           base_dir=Path.cwd() if base_dir is None else Path(base_dir))


def _build_scenario(data: Any, lines: LineMap, raw_lines: list[str], base_dir: Path,
                    file_name: str | None = None) -> Scenario:
    spec = validate(_ScenarioFile, data, lines.source, lines)
    _check_id_matches_file(spec.id, lines, (), file_name)

    # -- battlefield: id, path or inline --------------------------------------------------
    raw_bf = spec.battlefield
    if isinstance(raw_bf, Mapping):
        battlefield = _build_battlefield(data, lines, ("battlefield",), raw_lines)
    elif isinstance(raw_bf, str) and raw_bf:
        if _looks_like_path(raw_bf):
            bf_path = base_dir / raw_bf
            if not bf_path.is_file():
                raise lines.error("battlefield", f"no battlefield file '{bf_path}'")
            battlefield = _load_battlefield_file(bf_path)
        elif raw_bf in list_battlefields():
            battlefield = load_battlefield(raw_bf)
        else:
            raise lines.error("battlefield", f"unknown battlefield '{raw_bf}'; shipped "
                                             f"battlefields: {', '.join(list_battlefields())}")
    else:
        raise lines.error("battlefield", "expected a battlefield id, a path to a battlefield "
                                         "file, or the battlefield's fields (id, name, map)")

    # -- cards: shipped plus the scenario's own -------------------------------------------
    cards = dict(_shipped_cards())
    for i, card_spec in enumerate(spec.cards):
        at = ("cards", i)
        if card_spec.id in cards:
            first = cards[card_spec.id].source
            where = ("a shipped card" if first != lines.source
                     else "defined earlier in this file")
            raise lines.error(at + ("id",), f"duplicate card id '{card_spec.id}' ({where}, "
                                            f"{first}); card ids must be unique")
        cards[card_spec.id] = _card_from_spec(card_spec, lines, at)

    # -- players ----------------------------------------------------------------------------
    n = len(spec.players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise lines.error("players", f"{n} player(s); a scenario has {MIN_PLAYERS} to "
                                     f"{MAX_PLAYERS} players")
    board = battlefield.board
    players = []
    zone_owner: dict[str, int] = {}
    for p, player in enumerate(spec.players):
        at = ("players", p)
        army: list[ArmyCard] = []
        for j, card_id in enumerate(player.army):
            if card_id not in cards:
                raise lines.error(at + ("army", j), f"unknown army card '{card_id}'; known "
                                                    f"cards: {', '.join(sorted(cards))}")
            if card_id in player.army[:j]:
                raise lines.error(at + ("army", j), f"card '{card_id}' is already in this "
                                                    f"army; each card at most once per army")
            army.append(cards[card_id])
        zone = player.zone
        if zone not in battlefield.zones:
            raise lines.error(at + ("zone",), f"zone '{zone}' is not on battlefield "
                                              f"'{battlefield.id}' (its zones: "
                                              f"{', '.join(battlefield.zones) or 'none'})")
        if zone in zone_owner:
            raise lines.error(at + ("zone",), f"zone '{zone}' is already the start zone of "
                                              f"player {zone_owner[zone] + 1}; each player needs "
                                              f"its own zone")
        zone_owner[zone] = p
        cells = battlefield.zones[zone]
        doubles = sum(c.figures for c in army if c.double_space)
        singles = sum(c.figures for c in army if not c.double_space)
        needed = singles + 2 * doubles
        if needed > len(cells):
            raise lines.error(at + ("zone",), f"zone '{zone}' has {len(cells)} hexes but this "
                                              f"army needs {needed} ({singles} single-space "
                                              f"figures + {doubles} double-space x 2)")
        if doubles and not _has_disjoint_pairs(board, cells, doubles):
            raise lines.error(at + ("zone",), f"zone '{zone}' does not hold {doubles} separate "
                                              f"pair(s) of adjacent same-level hexes for the "
                                              f"army's double-space figures (HS-7.2)")
        players.append(PlayerSetup(army=tuple(army), zone=zone, zone_cells=tuple(cells)))

    # -- victory ----------------------------------------------------------------------------
    v = spec.victory
    if v.type == "eliminate":
        for extra in ("zone", "rounds"):
            if getattr(v, extra) is not None:
                raise lines.error(("victory", extra), f"'{extra}' is only for victory type "
                                                      f"'hold'")
        victory = Victory(VictoryType.ELIMINATE)
    else:
        for needed_field in ("zone", "rounds"):
            if getattr(v, needed_field) is None:
                raise lines.error(("victory",), f"victory type 'hold' needs '{needed_field}'")
        if v.zone not in battlefield.zones:
            raise lines.error(("victory", "zone"), f"zone '{v.zone}' is not on battlefield "
                                                   f"'{battlefield.id}' (its zones: "
                                                   f"{', '.join(battlefield.zones) or 'none'})")
        if v.zone in zone_owner:
            raise lines.error(("victory", "zone"), f"zone '{v.zone}' is player "
                                                   f"{zone_owner[v.zone] + 1}'s start zone; "
                                                   f"the hold zone must be another zone")
        victory = Victory(VictoryType.HOLD, v.zone, v.rounds)

    return Scenario(id=spec.id, name=spec.name, description=spec.description,
                    battlefield=battlefield, players=tuple(players), victory=victory,
                    round_cap=spec.round_cap, cards=MappingProxyType(cards), source=lines.source)


def _has_disjoint_pairs(board: Board, cells: Sequence[int], need: int) -> bool:
    """Whether ``cells`` hold ``need`` disjoint pairs of adjacent same-level spaces."""
    cell_set = frozenset(int(c) for c in cells)
    partners = {c: frozenset(int(n) for n in board.neighbors[c]
                             if n in cell_set and board.level[n] == board.level[c])
                for c in cell_set}

    @lru_cache(maxsize=None)
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


# =============================================================================================
# Shared helpers
# =============================================================================================

class _LinesAt:
    """A LineMap view rooted at ``at`` (for validating an embedded mapping)."""

    def __init__(self, lines: LineMap, at: tuple[str | int, ...]):
        self._lines, self._at = lines, at

    def line(self, path: Sequence[str | int] = ()) -> int | None:
        return self._lines.line(self._at + tuple(path))


def _validate_at(model: type[pydantic.BaseModel], data: Any, lines: LineMap,
                 at: tuple[str | int, ...]) -> Any:
    value: Any = data
    for part in at:
        value = value[int(part)] if isinstance(value, list) else value[part]
    if not at:
        return validate(model, value, lines.source, lines)
    try:
        return validate(model, value, lines.source, _LinesAt(lines, at))  # type: ignore[arg-type]
    except ScenarioError as exc:
        def rooted(err: ScenarioError, others=()) -> ScenarioError:
            field = dotted(at + tuple(err.field.split("."))) if err.field else dotted(at)
            return ScenarioError(err.source, err.message, line=err.line, field=field,
                                 others=others)
        raise rooted(exc, [rooted(o) for o in exc.others]) from None


def _check_id_matches_file(spec_id: str, lines: LineMap, at: tuple[str | int, ...],
                           file_name: str | None) -> None:
    # Ids are how content is listed and referenced, so they must not drift from file names.
    if file_name is not None and spec_id != Path(file_name).stem:
        raise lines.error(at + ("id",), f"id '{spec_id}' does not match the file name "
                                        f"'{file_name}' (expected id '{Path(file_name).stem}')")


def _looks_like_path(text: str) -> bool:
    return text.endswith((".yaml", ".yml")) or "/" in text or os.sep in text


def _resolve(path_or_id: str | os.PathLike[str], directory: Path, kind: str, listing) -> Path:
    if isinstance(path_or_id, str) and not _looks_like_path(path_or_id):
        path = directory / f"{path_or_id}.yaml"
        if not path.is_file():
            raise ScenarioError(path_or_id, f"unknown {kind} id '{path_or_id}'; shipped: "
                                            f"{', '.join(listing())}")
        return path
    return Path(path_or_id)
