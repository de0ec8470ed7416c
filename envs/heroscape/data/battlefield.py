"""Heroscape battlefields: the hex-token map format and its parser (envs/heroscape/RULES.md HS-1).

A battlefield file (``battlefields/<id>.yaml``) is validated on load; every problem is a
:class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field and what is
wrong, for map tokens also the board row/col and the file column::

    battlefields/ridge.yaml, line 9, field 'map': map row 2, col 4 (file column 19): unknown
    token '0n'; ...

Format
======

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

A scenario may name a battlefield by id, by path, or hold its fields inline
(:mod:`envs.heroscape.data.scenario_file`).
"""

from __future__ import annotations

import enum
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pydantic

from envs.core.board import UNREACHABLE, Board, Topology
from envs.core.scenario import (
    STRICT_MODEL,
    STRING_SOURCE,
    YAML_SUFFIXES,
    LineMap,
    ScenarioError,
    dotted,
    list_data_ids,
    load_yaml,
    read_text,
    resolve_data_file,
)
from envs.heroscape.data.validation import ID_PATTERN, check_id_matches_file, validate_at

__all__ = [
    "BATTLEFIELDS_DIR",
    "GAP_TOKENS",
    "MAX_COLS",
    "MAX_ROWS",
    "ODD_ROW_INDENT",
    "TERRAIN_CODES",
    "Battlefield",
    "Terrain",
    "battlefield_from_text",
    "build_battlefield",
    "list_battlefields",
    "load_battlefield",
]

BATTLEFIELDS_DIR = Path(__file__).resolve().parent / "battlefields"

MAX_ROWS = 16
"""Most hex rows a battlefield may have (the env pads observations to MAX_ROWS x MAX_COLS)."""
MAX_COLS = 20
"""Most hexes per row a battlefield may have."""
ODD_ROW_INDENT = 2
"""Spaces more that odd map rows are indented than even rows (odd rows sit half a hex right)."""


class Terrain(enum.IntEnum):
    """Terrain type of a space; the values are what ``Board.terrain`` holds."""

    NORMAL = 0
    WATER = 1
    SHADOW = 2


TERRAIN_CODES: Mapping[str, Terrain] = MappingProxyType(
    {"n": Terrain.NORMAL, "w": Terrain.WATER, "s": Terrain.SHADOW}
)
"""Map token letter -> terrain."""
_TERRAIN_LETTER = {t: c for c, t in TERRAIN_CODES.items()}

GAP_TOKENS = (".", "..")
_TOKEN = re.compile(r"^([1-9])([nws])([A-Z])?$")
_TOKEN_HELP = (
    "a hex is <level 1-9><terrain n|w|s>[zone letter A-Z], e.g. '1n', '3s', '2nA', "
    "and '.' or '..' is no tile"
)


class _BattlefieldFile(pydantic.BaseModel):
    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=ID_PATTERN, strict=True)
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
                tokens.append(
                    f"{int(self.board.level[cell])}"
                    f"{_TERRAIN_LETTER[Terrain(int(self.board.terrain[cell]))]}"
                    f"{zone_of.get(cell, '')}"
                )
            text = " " * (ODD_ROW_INDENT if row & 1 else 0) + "".join(f"{t:<4}" for t in tokens)
            lines.append(text.rstrip())
        return "\n".join(lines) + "\n"


def list_battlefields() -> list[str]:
    """Ids of the shipped battlefields, sorted."""
    return list_data_ids(BATTLEFIELDS_DIR, YAML_SUFFIXES)


def load_battlefield(path_or_id: str | os.PathLike[str]) -> Battlefield:
    """Load a battlefield from a file path, or a shipped one by id (``"meadow"``).

    A ``str`` ending in ``.yaml``/``.yml`` or containing a path separator is a path; any other
    ``str`` is an id. Raises :class:`ScenarioError` for a bad file, a missing file or an
    unknown id. Files are cached while unchanged on disk.
    """
    path = resolve_data_file(
        path_or_id, BATTLEFIELDS_DIR, YAML_SUFFIXES, "battlefield", must_exist=True
    )
    return _load_battlefield_cached(str(path), path.stat().st_mtime_ns)


def battlefield_from_text(text: str, source: str = STRING_SOURCE) -> Battlefield:
    """Load a battlefield from YAML text; ``source`` names the text in errors."""
    data, lines = load_yaml(text, source=source)
    return build_battlefield(data, lines, (), text.splitlines())


@lru_cache(maxsize=64)
def _load_battlefield_cached(path: str, mtime_ns: int) -> Battlefield:
    text = read_text(path)
    data, lines = load_yaml(text, source=path)
    return build_battlefield(data, lines, (), text.splitlines(), file_name=Path(path).name)


def build_battlefield(
    data: Any,
    lines: LineMap,
    at: tuple[str, ...],
    raw_lines: list[str],
    file_name: str | None = None,
) -> Battlefield:
    """The battlefield whose fields are at path ``at`` of the document ``data`` (``()`` for a
    battlefield file, ``("battlefield",)`` inline in a scenario).

    ``lines`` is the document's :class:`~envs.core.scenario.LineMap`, ``raw_lines`` its text
    split into lines (for file columns), ``file_name`` the file the id must match (None: no
    check). Raises :class:`~envs.core.scenario.ScenarioError`.
    """
    source = lines.source
    spec = validate_at(_BattlefieldFile, data, lines, at)
    check_id_matches_file(spec.id, lines, at, file_name)
    map_path = at + ("map",)
    if lines.scalar_style(map_path) != "|":
        raise lines.error(
            map_path,
            "write the map as a YAML literal block ('map: |' followed by "
            "the rows, indented) so that each row keeps its own line",
        )
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
            raise fail(
                r,
                f"map row {r} (file column {file_column(r, row_text.index(chr(9)))}): "
                f"a tab; separate tokens with spaces",
            )
        if not row_text.strip():
            raise fail(r, f"map row {r} is empty; every line of the map is a row of hexes")
        indent = len(row_text) - len(row_text.lstrip(" "))
        expected = ODD_ROW_INDENT if r & 1 else 0
        if indent != expected:
            kind = (
                "odd rows sit half a hex to the right, so they are indented "
                f"{ODD_ROW_INDENT} spaces more than even rows"
                if r & 1
                else "even rows start in the map's first column"
            )
            raise fail(r, f"map row {r} is indented {indent} spaces, expected {expected} ({kind})")
        tokens = list(re.finditer(r"\S+", row_text))
        if n_cols is None:
            n_cols = len(tokens)
        elif len(tokens) != n_cols:
            raise fail(
                r,
                f"map row {r} has {len(tokens)} hexes, expected {n_cols} (the count of "
                f"row 0); write '.' for each hex without a tile",
            )
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
                raise fail(
                    r,
                    f"map row {r}, col {c} (file column {file_column(r, match.start())})"
                    f": unknown token '{token}'; {_TOKEN_HELP}",
                )
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
        raise lines.error(
            map_path,
            f"the map is {n_rows} rows x {n_cols} hexes; at most "
            f"{MAX_ROWS} x {MAX_COLS} are allowed",
        )
    exists_grid = np.array(exists, dtype=bool)
    if not exists_grid.any():
        raise lines.error(map_path, "the map has no spaces (every token is '.')")
    board = Board.create(
        Topology.HEX,
        exists_grid,
        np.array(terrain, dtype=np.int8),
        np.array(levels, dtype=np.int16),
    )
    spaces = board.spaces()
    cut_off = spaces[board.distance[spaces[0], spaces] == UNREACHABLE]
    if cut_off.size:
        r0, c0 = board.rc(spaces[0])
        r, c = board.rc(cut_off[0])
        raise fail(
            r,
            f"map row {r}, col {c}: this hex is cut off from the hex at row {r0}, col "
            f"{c0}; every space must be connected ({cut_off.size} cut off in all)",
        )
    zones = {
        z: tuple(board.cell(r, c) for r, c in cells) for z, cells in sorted(zone_cells.items())
    }
    return Battlefield(
        id=spec.id,
        name=spec.name,
        description=spec.description,
        board=board,
        zones=MappingProxyType(zones),
        source=source,
    )
