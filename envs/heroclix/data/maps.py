"""HeroClix maps: the square-grid map format and its parser (envs/heroclix/RULES.md HC-2.5, HC-2.7,
HC-2.10, HC-3.13, HC-5.1 to HC-5.22, R-18).

A map file (``maps/<id>.yaml``) is validated on load; every problem is a
:class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field, the file
column and what is wrong::

    maps/mall.yaml, line 28, field 'map': column 46: square (6,21): ladder '>' points at
    (6,22), which is on level 0; a ladder links to the elevated square it points at, one
    level up (HC-5.8)

Format
======

::

    id: yard                  # lower-case; must equal the file name (yard.yaml)
    name: Yard
    description: A walled shed with a ladder, a tree and a puddle.
    indoor: false             # optional: true, false (the default) or a grid (below)
    map: |                    # the drawing: squares, walls and the frame
      +-+-+-+-+-+-+-+-+-+-+
      |. . . N N N N . . .|
      +                   +
      |. . . N N N N . . .|
      +     +-+-+-+       +
      |. % .|. . .|. ~ . .|
      +     +-+-+ +       +
      |. . . # . ^ . . . .|
      +                   +
      |. . . S S S S . . .|
      +                   +
      |. . . S S S S . . .|
      +-+-+-+-+-+-+-+-+-+-+
    levels: |                 # optional: one character per square; omitted = all ground
      ..........
      ..........
      ...111....
      ..........
      ..........
      ..........

The drawing
-----------
A map of ``rows x cols`` squares is drawn in ``2*rows + 1`` lines of ``2*cols + 1``
characters. Odd lines (the 2nd, 4th, ...) are *cell lines*: square ``(row, col)`` is
character ``2*col + 1`` of line ``2*row + 1`` (both counted from 0), and the characters
between two squares are their shared edge. Even lines are *edge lines*: character
``2*col + 1`` is the edge below square ``(row, col)``, the even characters are corners. The
first and last line and the first and last character of each line are the frame (the map
edge, which is not a wall), so no line ends in a blank that an editor could strip.

====================  ==========================================================================
**squares**
``.``                 clear ground (HC-5.7)
``%``                 hindering terrain: trees, furniture, cars (HC-5.9 to HC-5.12)
``#``                 blocking terrain: a tall building, a pillar, a barrier (HC-5.14)
``~``                 shallow water: hindering for movement only (HC-5.13)
``N`` ``E`` ``S``     a clear ground square of the starting area of the north / east / south
``W``                 / west map edge (HC-2.10)
``=``                 stairs: clear terrain; the flight's top square(s) on the level above its
                      other squares (HC-5.8: only the top stair square counts as elevated)
``^`` ``>`` ``v``     a ladder on the ground (clear terrain), linked to the orthogonally adjacent
``<``                 square the arrow points at, which must be elevated (HC-5.8 default)
**edges**
``|`` between squares a wall between side-by-side squares (HC-5.14)
``-`` under a square  a wall between the square and the one below it
``' '`` on an edge    no wall
**corners**
``+`` or ``' '``      decoration only: draw ``+`` where walls meet or end (the renderer does)
**frame**
``+-+- ... -+``       the first and last lines: ``+`` on corners, ``-`` on edges
``|`` / ``+``         first and last character of cell lines / of edge lines
====================  ==========================================================================

A ladder's arrow names its square, so a ladder in the inside corner of an L-shaped roof is
not ambiguous. A wall drawn where no edge is (``|`` under a square, ``-`` between
side-by-side squares, a wall on a square or corner) is an error, as is a square on an edge.

Other fields
------------
``levels`` (optional, default all ground): ``rows`` lines of ``cols`` characters, one per
square: ``.`` ground (level 0), ``1`` elevated (rooftop, mezzanine), ``2`` one level higher.

``indoor`` (optional): ``true`` (every square indoor: the mall), ``false`` (all outdoor, the
default) or a literal block like ``levels``: ``i`` indoor, ``.`` outdoor (HC-5.2: a map may
have both). A walled rooftop whose inside is not shown is outdoor (HC-5.6).

Checks on load
--------------
* the fields (unknown keys are errors), the id against the file name, the grammar above,
  equal line widths, an odd number of lines, at most :data:`MAX_SIZE` squares a side, and
  ``levels`` / ``indoor`` grids of the map's shape with known characters;
* **starting squares** (HC-2.10 default: rows 1-2 from the edge and at least 4 from every
  other edge, counting the edge row as 1): each marked square is on the ground (its letter
  makes it clear) and inside its edge's band; at least two edges have a starting area and
  each has at least :data:`MIN_START_SQUARES` squares (one figure per square). The band
  need not be filled: a wall or a tree may stand in it;
* **ladders** (HC-5.8 default): on the ground; the arrow points at a square on the map,
  one level up, not blocking terrain, with no wall on the edge between (the ladder is the
  way over that edge);
* **stairs** (HC-5.8): a flight is a group of stair squares sharing sides (no wall between);
  it climbs exactly one level: its top squares one level above the rest;
* **every square is in play**: each square that is not blocking terrain can be reached on
  foot from the starting areas, walking between squares on one level that are adjacent
  under HC-3.13 (no wall, no wall corner, no blocking square beside a diagonal), climbing a
  flight between stair squares that share a side, or a ladder to its square. So the
  starting areas are connected to each other, every roof has a ladder or stairs, and no
  room is sealed (HC-5.16 wall breaking or flight should never be the only way in).

Not checked: that a building is surrounded by walls (HC-5.6), what stands on a roof.

API: :func:`load_map`, :func:`load_map_text`, :func:`map_ids`, :func:`render_map_text`
(``load_map_text(render_map_text(m)) == m``); cells are flat indices ``row * cols + col``.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pydantic
import yaml

from envs.core.adjacency import adjacency_table
from envs.core.board import Board, Topology
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
    validate,
)

__all__ = [
    "EDGES",
    "MAPS_DIR",
    "MAX_LEVEL",
    "MAX_SIZE",
    "MIN_START_SQUARES",
    "SQUARE_GLYPHS",
    "ClixMap",
    "Terrain",
    "load_map",
    "load_map_text",
    "map_ids",
    "render_map_text",
]

MAPS_DIR = Path(__file__).resolve().parent / "maps"

MAX_SIZE = 24
"""Most squares a map may have on a side (the env pads every map to one size)."""
MAX_LEVEL = 2
"""Highest level: 0 is the ground, 1 and 2 are elevated."""
MIN_START_SQUARES = 8
"""Fewest squares a starting area may have: room for 8 figures, one per square (HC-2.10)."""
START_DEPTH, START_MARGIN = 2, 4
"""HC-2.10: starting squares lie within START_DEPTH rows of their own edge and at least
START_MARGIN squares from every other edge (the edge row counts as 1)."""

EDGES = ("N", "E", "S", "W")
"""Map edges, clockwise from the north (row 0) edge; keys of :attr:`ClixMap.start_areas`."""


class Terrain(enum.IntEnum):
    """Terrain type of a square (HC-5.1); the values are what ``Board.terrain`` holds."""

    CLEAR = 0
    HINDERING = 1
    BLOCKING = 2
    WATER = 3  # shallow water (HC-5.13)


SQUARE_GLYPHS: Mapping[str, str] = MappingProxyType(
    {
        ".": "clear",
        "%": "hindering",
        "#": "blocking",
        "~": "shallow water",
        "N": "start N",
        "E": "start E",
        "S": "start S",
        "W": "start W",
        "=": "stairs",
        "^": "ladder up",
        ">": "ladder right",
        "v": "ladder down",
        "<": "ladder left",
    }
)
"""Square character -> meaning (for people and error messages)."""

_TERRAIN_GLYPH = {
    ".": Terrain.CLEAR,
    "%": Terrain.HINDERING,
    "#": Terrain.BLOCKING,
    "~": Terrain.WATER,
}
_GLYPH_OF_TERRAIN = {t: g for g, t in _TERRAIN_GLYPH.items()}
_LADDERS = {"^": (-1, 0), ">": (0, 1), "v": (1, 0), "<": (0, -1)}
_ARROW_OF_STEP = {step: arrow for arrow, step in _LADDERS.items()}
_LEVEL_CHARS = {".": 0, **{str(level): level for level in range(1, MAX_LEVEL + 1)}}
_INDOOR_CHARS = {".": False, "i": True}
_ID_PATTERN = r"^[a-z][a-z0-9_]*$"
_ORTHOGONAL = (0, 2, 4, 6)  # N E S W in the square8 direction order of envs.core.board


class _MapFile(pydantic.BaseModel):
    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=_ID_PATTERN, strict=True)
    name: str = pydantic.Field(min_length=1, strict=True)
    description: str = pydantic.Field(default="", strict=True)
    indoor: Any = False  # checked in _build: a union would report 'indoor.bool' errors
    map: str = pydantic.Field(strict=True)
    levels: pydantic.StrictStr | None = None


@dataclass(frozen=True, eq=False)
class ClixMap:
    """A loaded, validated map; arrays are flat (cell ``row * cols + col``) and read-only.

    Attributes:
        id, name, description: the file's fields.
        board: square8 :class:`~envs.core.board.Board`: every square exists; ``terrain``
            holds :class:`Terrain` values, ``level`` 0-2, ``walls`` the drawn walls.
        indoor: bool[n], indoor squares (HC-5.2 to HC-5.5).
        stairs: bool[n], stair squares (clear terrain, HC-5.8).
        ladder_to: int[n], -1 or the elevated cell a ladder square links to (HC-5.8).
        start_areas: edge (``"N"``, ``"E"``, ``"S"``, ``"W"``) -> bool[n], for the edges
            that have a starting area, in :data:`EDGES` order (HC-2.10).
        source: the file path or ``"<string>"`` (not compared by ``==``).
    """

    id: str
    name: str
    description: str
    board: Board
    indoor: np.ndarray
    stairs: np.ndarray
    ladder_to: np.ndarray
    start_areas: Mapping[str, np.ndarray]
    source: str = STRING_SOURCE

    @property
    def size(self) -> tuple[int, int]:
        """(rows, cols)."""
        return self.board.height, self.board.width

    def cell(self, row: int, col: int) -> int:
        """Flat cell index of (row, col); ValueError off the map."""
        return self.board.cell(row, col)

    def rc(self, cell: int) -> tuple[int, int]:
        """(row, col) of a flat cell index."""
        return self.board.rc(cell)

    def _key(self) -> tuple[Any, ...]:
        b = self.board
        areas = tuple((e, a.tobytes()) for e, a in self.start_areas.items())
        return (
            self.id,
            self.name,
            self.description,
            self.size,
            b.terrain.tobytes(),
            b.level.tobytes(),
            b.walls,
            self.indoor.tobytes(),
            self.stairs.tobytes(),
            self.ladder_to.tobytes(),
            areas,
        )

    def __eq__(self, other: object) -> bool:
        return self._key() == other._key() if isinstance(other, ClixMap) else NotImplemented

    def __hash__(self) -> int:
        return hash((self.id, self.size))


def map_ids() -> list[str]:
    """Ids of the shipped maps, sorted."""
    return list_data_ids(MAPS_DIR, YAML_SUFFIXES)


def load_map(id_or_path: str | os.PathLike[str]) -> ClixMap:
    """Load a shipped map by id (``"mall"``) or a map file by path (a ``str`` ending in
    ``.yaml`` or holding a ``/``). Raises :class:`ScenarioError` for a bad or missing file or
    an unknown id. Cached while the file is unchanged on disk."""
    path = resolve_data_file(id_or_path, MAPS_DIR, YAML_SUFFIXES, "map", must_exist=True)
    return _load_cached(str(path), path.stat().st_mtime_ns)


def load_map_text(text: str, source: str = STRING_SOURCE) -> ClixMap:
    """Load a map from YAML text; ``source`` names the text in errors (no id check)."""
    return _build(text, source, file_name=None)


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime_ns: int) -> ClixMap:
    return _build(read_text(path), path, file_name=Path(path).name)


class _Block:
    """A literal-block field: its rows, their file lines and where each row starts."""

    def __init__(self, lines: LineMap, raw: list[str], name: str, value: str):
        if lines.scalar_style((name,)) != "|":
            raise lines.error(
                (name,),
                f"write '{name}' as a YAML literal block ('{name}: |' "
                "followed by the rows, indented) so each row keeps its line",
            )
        self.lines, self.name = lines, name
        self.first = (lines.value_line((name,)) or 0) + 1
        self.rows = value.split("\n")
        if self.rows and self.rows[-1] == "":
            self.rows.pop()
        if not self.rows:
            raise lines.error((name,), f"'{name}' is empty")
        # YAML strips the block's indentation; the raw line gives it back for columns.
        self.indent = [
            max(0, len(raw[self.first - 1 + r]) - len(row)) if self.first - 1 + r < len(raw) else 0
            for r, row in enumerate(self.rows)
        ]

    def error(self, row: int, col: int | None, message: str) -> ScenarioError:
        where = "" if col is None else f"column {self.indent[row] + col + 1}: "
        return ScenarioError(
            self.lines.source, where + message, line=self.first + row, field=self.name
        )


def _legend(chars: Mapping[str, object]) -> str:
    return ", ".join(f"'{c}'" for c in chars)


def _layer(block: _Block, shape: tuple[int, int], chars: Mapping[str, Any]) -> np.ndarray:
    rows, cols = shape
    if len(block.rows) != rows:
        raise block.lines.error(
            (block.name,),
            f"'{block.name}' has {len(block.rows)} rows; the map has {rows} rows of squares",
        )
    grid = []
    for r, text in enumerate(block.rows):
        if len(text) != cols:
            raise block.error(
                r,
                None,
                f"row {r} of '{block.name}' has {len(text)} characters, "
                f"expected {cols} (one per square)",
            )
        for c, char in enumerate(text):
            if char not in chars:
                raise block.error(
                    r,
                    c,
                    f"square ({r},{c}): unknown character {char!r} in "
                    f"'{block.name}'; allowed: {_legend(chars)}",
                )
        grid.append([chars[char] for char in text])
    return np.array(grid)


def _slot(k: int, j: int, rows: int, cols: int) -> str:
    """What character ``j`` of drawing line ``k`` stands for."""
    frame = k in (0, 2 * rows) or j in (0, 2 * cols)
    kind = ("corner", "hedge", "vedge", "square")[(k % 2) * 2 + (j % 2)]
    return "frame_" + kind if frame else kind


_SLOT_ALLOWED = {
    "frame_corner": "+",
    "frame_hedge": "-",
    "frame_vedge": "|",
    "corner": "+ ",
    "hedge": " -",
    "vedge": " |",
    "square": "".join(SQUARE_GLYPHS),
}


def _slot_problem(slot: str, char: str, r: int, c: int) -> str:
    """Why ``char`` may not stand in ``slot`` (drawing coordinates r, c of the slot's squares)."""
    if slot.startswith("frame"):
        return (
            f"{char!r} on the frame; the frame is '+-+-...-+' on the first and last line, "
            "'|' at both ends of cell lines and '+' at both ends of edge lines"
        )
    if slot == "square":
        what = "has no character" if char in " |-+" else f"has unknown character {char!r}"
        return f"square ({r},{c}) {what}; a square is one of: {_legend(SQUARE_GLYPHS)}"
    if slot == "corner":
        return f"{char!r} on a corner between squares; corners hold '+' or ' '"
    if slot == "hedge":
        hint = (
            "walls below a square are drawn '-'"
            if char == "|"
            else "only ' ' or '-' (a wall) may stand there: is a line of the drawing missing?"
        )
        return f"{char!r} on the edge between squares ({r},{c}) and ({r + 1},{c}); {hint}"
    hint = (
        "a wall between side-by-side squares is drawn '|'"
        if char == "-"
        else "only ' ' or '|' (a wall) may stand there: are the columns shifted?"
    )
    return f"{char!r} on the edge between squares ({r},{c}) and ({r},{c + 1}); {hint}"


def _drawing(block: _Block) -> tuple[list[list[str]], set[tuple[tuple[int, int], tuple[int, int]]]]:
    lines = block.rows
    width = len(lines[0])
    for k, text in enumerate(lines):
        if len(text) != width:
            raise block.error(
                k,
                None,
                f"this line of the drawing has {len(text)} characters, "
                f"expected {width} (the first line's); every line is as "
                "wide as the frame",
            )
    if width < 3 or width % 2 == 0 or len(lines) < 3 or len(lines) % 2 == 0:
        raise block.lines.error(
            ("map",),
            f"the drawing is {len(lines)} lines of {width} "
            "characters; a map of R x C squares takes 2R+1 lines "
            "of 2C+1 characters, frame included",
        )
    rows, cols = (len(lines) - 1) // 2, (width - 1) // 2
    if rows > MAX_SIZE or cols > MAX_SIZE:
        raise block.lines.error(
            ("map",),
            f"the map is {rows} x {cols} squares; at most {MAX_SIZE} x {MAX_SIZE} are allowed",
        )
    glyphs = [[""] * cols for _ in range(rows)]
    walls: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for k, text in enumerate(lines):
        for j, char in enumerate(text):
            slot = _slot(k, j, rows, cols)
            r, c = (k - 1) // 2, (j - 1) // 2
            if char not in _SLOT_ALLOWED[slot]:
                raise block.error(k, j, _slot_problem(slot, char, r, c))
            if slot == "square":
                glyphs[r][c] = char
            elif slot == "hedge" and char == "-":
                walls.add(((r, c), (r + 1, c)))
            elif slot == "vedge" and char == "|":
                walls.add(((r, c), (r, c + 1)))
    return glyphs, walls


def _build(text: str, source: str, file_name: str | None) -> ClixMap:
    data, lines = load_yaml(text, source=source)
    spec = validate(_MapFile, data, source, lines)
    if file_name is not None and spec.id != Path(file_name).stem:
        # Ids are how maps are listed and named in configs, so they must not drift.
        raise lines.error(
            ("id",),
            f"id '{spec.id}' does not match the file name "
            f"'{file_name}' (expected id '{Path(file_name).stem}')",
        )
    raw = text.splitlines()
    drawing = _Block(lines, raw, "map", spec.map)
    glyphs, wall_pairs = _drawing(drawing)
    shape, flat = (len(glyphs), len(glyphs[0])), [g for row in glyphs for g in row]
    n = len(flat)
    level = (
        np.zeros(n, dtype=np.int16)
        if spec.levels is None
        else _layer(_Block(lines, raw, "levels", spec.levels), shape, _LEVEL_CHARS).reshape(-1)
    )
    if not isinstance(spec.indoor, (bool, str)):
        raise lines.error(
            ("indoor",),
            "write indoor as true, false or a literal block of 'i' "
            f"(indoor) and '.' squares (got {spec.indoor!r})",
        )
    indoor = (
        np.full(n, spec.indoor, dtype=bool)
        if isinstance(spec.indoor, bool)
        else _layer(_Block(lines, raw, "indoor", spec.indoor), shape, _INDOOR_CHARS)
        .reshape(-1)
        .astype(bool)
    )
    terrain = np.array([_TERRAIN_GLYPH.get(g, Terrain.CLEAR) for g in flat], dtype=np.int8)
    board = Board.create(
        Topology.SQUARE8,
        np.ones(shape, dtype=bool),
        terrain.reshape(shape),
        level.reshape(shape),
        walls=wall_pairs,
    )

    def at(cell: int, message: str) -> ScenarioError:
        r, c = board.rc(cell)
        return drawing.error(2 * r + 1, 2 * c + 1, f"square ({r},{c}): {message}")

    starts = _start_areas(board, flat, at, lines)
    stairs = np.array([g == "=" for g in flat], dtype=bool)
    ladder_to = _ladders(board, flat, at)
    _check_stairs(board, stairs, at)
    _check_in_play(board, stairs, ladder_to, starts, at)
    for array in (indoor, stairs, ladder_to, *starts.values()):
        array.setflags(write=False)
    return ClixMap(
        spec.id,
        spec.name,
        spec.description,
        board,
        indoor,
        stairs,
        ladder_to,
        MappingProxyType(starts),
        source,
    )


def _in_band(edge: str, row: int, col: int, rows: int, cols: int) -> bool:
    """HC-2.10 default: within START_DEPTH of ``edge``, START_MARGIN from every other edge."""
    depth = {"N": row, "S": rows - 1 - row, "W": col, "E": cols - 1 - col}
    along = (col, cols - 1 - col) if edge in "NS" else (row, rows - 1 - row)
    return depth[edge] < START_DEPTH and min(along) >= START_MARGIN - 1


def _start_areas(board: Board, flat: list[str], at, lines: LineMap) -> dict[str, np.ndarray]:
    rows, cols = board.height, board.width
    areas: dict[str, np.ndarray] = {}
    for edge in EDGES:
        mask = np.array([g == edge for g in flat], dtype=bool)
        for cell in np.flatnonzero(mask):
            r, c = board.rc(cell)
            if board.level[cell] != 0:
                raise at(
                    cell,
                    f"starting square '{edge}' is on level {board.level[cell]} in "
                    "'levels'; starting squares are clear ground",
                )
            if not _in_band(edge, r, c, rows, cols):
                raise at(
                    cell,
                    f"starting square '{edge}' is outside the {edge} edge's band "
                    f"(HC-2.10: within {START_DEPTH} squares of the {edge} edge and "
                    f"at least {START_MARGIN} from every other edge)",
                )
        if 0 < mask.sum() < MIN_START_SQUARES:
            raise at(
                int(np.flatnonzero(mask)[0]),
                f"the {edge} starting area has "
                f"{int(mask.sum())} squares; at least {MIN_START_SQUARES} are needed (one "
                "figure per square, HC-2.10)",
            )
        if mask.any():
            areas[edge] = mask
    if len(areas) < 2:
        raise lines.error(
            ("map",),
            f"the map has {len(areas)} starting area(s) "
            f"({', '.join(areas) or 'none'}); mark at least two edges' "
            "starting squares with N, E, S or W (HC-2.10)",
        )
    return areas


def _ladders(board: Board, flat: list[str], at) -> np.ndarray:
    ladder_to = np.full(board.n_cells, -1, dtype=np.int32)
    for cell, glyph in enumerate(flat):
        if glyph not in _LADDERS:
            continue
        (r, c), (dr, dc) = board.rc(cell), _LADDERS[glyph]
        lead = f"ladder '{glyph}'"
        if board.level[cell] != 0:
            raise at(
                cell,
                f"{lead} is on level {board.level[cell]}; a ladder square is ground "
                "level (HC-5.8 default)",
            )
        if not (0 <= r + dr < board.height and 0 <= c + dc < board.width):
            raise at(
                cell,
                f"{lead} points off the map; it links to the elevated square it points at (HC-5.8)",
            )
        target = board.cell(r + dr, c + dc)
        if board.level[target] != board.level[cell] + 1:
            raise at(
                cell,
                f"{lead} points at ({r + dr},{c + dc}), which is on level "
                f"{board.level[target]}; a ladder links to the elevated square it "
                "points at, one level up (HC-5.8)",
            )
        if board.terrain[target] == Terrain.BLOCKING:
            raise at(cell, f"{lead} points at ({r + dr},{c + dc}), which is blocking terrain")
        if board.is_wall_between(cell, target):
            raise at(
                cell,
                f"{lead} has a wall between it and ({r + dr},{c + dc}); leave that "
                "edge open (the ladder is the way over it)",
            )
        ladder_to[cell] = target
    return ladder_to


def _orthogonal(board: Board, cell: int) -> list[int]:
    """Side-sharing neighbours with no wall between (the board's neighbour table)."""
    return [int(x) for x in board.neighbors[cell, list(_ORTHOGONAL)] if x >= 0]


def _flood(steps, sources, n: int) -> np.ndarray:
    """bool[n]: the cells reached from ``sources`` taking ``steps(cell)`` again and again."""
    reached = np.zeros(n, dtype=bool)
    todo = [int(c) for c in sources]
    reached[todo] = True
    while todo:
        for there in steps(todo.pop()):
            if not reached[there]:
                reached[there] = True
                todo.append(there)
    return reached


def _check_stairs(board: Board, stairs: np.ndarray, at) -> None:
    seen = np.zeros(board.n_cells, dtype=bool)
    for first in np.flatnonzero(stairs):
        if seen[first]:
            continue
        flight = np.flatnonzero(
            _flood(
                lambda c: [x for x in _orthogonal(board, c) if stairs[x]], [first], board.n_cells
            )
        )
        seen[flight] = True
        levels = sorted({int(board.level[c]) for c in flight})
        if len(levels) != 2 or levels[1] != levels[0] + 1:
            raise at(
                int(flight[0]),
                f"this flight of {len(flight)} stair squares is on level(s) "
                f"{', '.join(map(str, levels))}; a flight climbs one level: "
                "its top square(s) one level above the rest (HC-5.8)",
            )


def _walk_links(board: Board, stairs: np.ndarray, ladder_to: np.ndarray) -> list[list[int]]:
    """Squares reachable in one step on foot from each square (see 'every square in play')."""
    blocking = board.terrain == Terrain.BLOCKING
    table = adjacency_table(board, blocking)
    links = [[int(x) for x in row if x >= 0] for row in table]
    for cell in np.flatnonzero(stairs):
        for there in _orthogonal(board, int(cell)):
            if stairs[there] and board.level[there] != board.level[cell]:
                links[cell].append(there)
    for cell in np.flatnonzero(ladder_to >= 0):
        links[cell].append(int(ladder_to[cell]))
        links[int(ladder_to[cell])].append(int(cell))
    return links


def _check_in_play(
    board: Board, stairs: np.ndarray, ladder_to: np.ndarray, starts: Mapping[str, np.ndarray], at
) -> None:
    links = _walk_links(board, stairs, ladder_to)
    home, area = next(iter(starts.items()))
    # The links are symmetric, so one search from one starting area finds everything that
    # is connected to it: the other starting areas included.
    reached = _flood(links.__getitem__, np.flatnonzero(area), board.n_cells)
    for edge, other in starts.items():
        if not reached[other].all():
            raise at(
                int(np.flatnonzero(other & ~reached)[0]),
                f"the {edge} starting area cannot be reached on foot from the {home} "
                "starting area; walls, blocking terrain or a level change without stairs "
                "or a ladder cut them apart",
            )
    cut_off = np.flatnonzero(~reached & (board.terrain != Terrain.BLOCKING))
    if cut_off.size:
        raise at(
            int(cut_off[0]),
            f"no one can walk here from the starting areas ({cut_off.size} "
            "such squares); walls, blocking terrain or a level change "
            "without stairs or a ladder cut it off (HC-5.8, HC-5.18)",
        )


def _square_glyph(m: ClixMap, cell: int) -> str:
    for edge, area in m.start_areas.items():
        if area[cell]:
            return edge
    if m.ladder_to[cell] >= 0:
        (r, c), (tr, tc) = m.rc(cell), m.rc(int(m.ladder_to[cell]))
        return _ARROW_OF_STEP[(tr - r, tc - c)]
    if m.stairs[cell]:
        return "="
    return _GLYPH_OF_TERRAIN[Terrain(int(m.board.terrain[cell]))]


def _drawing_text(m: ClixMap) -> list[str]:
    rows, cols = m.size
    grid = [[" "] * (2 * cols + 1) for _ in range(2 * rows + 1)]
    for k, line in enumerate(grid):
        for j in range(len(line)):
            slot = _slot(k, j, rows, cols)
            if slot.startswith("frame"):
                line[j] = _SLOT_ALLOWED[slot]
            elif slot == "square":
                line[j] = _square_glyph(m, m.cell((k - 1) // 2, (j - 1) // 2))
    for a, b in m.board.walls:
        (r1, c1), (r2, c2) = m.rc(a), m.rc(b)
        k, j = r1 + r2 + 1, c1 + c2 + 1  # the edge between the two squares
        grid[k][j] = "-" if r1 != r2 else "|"
        for y, x in ((k, j - 1), (k, j + 1)) if r1 != r2 else ((k - 1, j), (k + 1, j)):
            grid[y][x] = "+"  # both ends of the wall
    return ["".join(line) for line in grid]


def _block(name: str, rows: list[str]) -> str:
    return f"{name}: |\n" + "".join(f"  {row}\n" for row in rows)


def render_map_text(clix_map: ClixMap) -> str:
    """The map as a map file (YAML text) in this module's format."""
    m = clix_map
    rows, cols = m.size
    text = yaml.safe_dump(
        {"id": m.id, "name": m.name, "description": m.description},
        sort_keys=False,
        allow_unicode=True,
        width=88,
    )
    if m.indoor.all():
        text += "indoor: true\n"
    elif m.indoor.any():
        grid = m.indoor.reshape(rows, cols)
        text += _block("indoor", ["".join("i" if v else "." for v in row) for row in grid])
    text += _block("map", _drawing_text(m))
    if m.board.level.any():
        grid = m.board.level.reshape(rows, cols)
        text += _block("levels", ["".join(str(v) if v else "." for v in row) for row in grid])
    return text
