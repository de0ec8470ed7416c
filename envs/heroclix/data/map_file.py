"""HeroClix map files: the square-grid map format, its parser and renderer, and the loaders
(envs/heroclix/RULES.md HC-2.5, HC-2.7, HC-2.10, HC-3.13, HC-5.1 to HC-5.22, R-18).

A map file (``maps/<id>.yaml``) is validated on load; every problem is a
:class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field, the file
column and what is wrong::

    maps/mall.yaml, line 28, field 'map': column 46: square (6,21): ladder '>' points at
    (6,22), which is on level 0; a ladder links to the elevated square it points at, one
    level up (HC-5.8)

This module is about text only: it reads a map file into a
:class:`~envs.heroclix.data.maps.ClixMap` (the model the game uses, :mod:`envs.heroclix.data.maps`)
and writes one back; the rules a map must keep as a battlefield are checked by
:mod:`envs.heroclix.data.map_checks`, which the loader calls.

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
  equal line widths, an odd number of lines, at most
  :data:`~envs.heroclix.data.maps.MAX_SIZE` squares a side, and ``levels`` / ``indoor`` grids
  of the map's shape with known characters;
* then the map's rules (:mod:`envs.heroclix.data.map_checks`): the **starting squares** of
  each edge within its band (HC-2.10), **ladders** and **stairs** that climb one level (HC-5.8),
  and **every square in play**: reachable on foot from the starting areas (HC-3.13, HC-5.18).

API: :func:`load_map`, :func:`load_map_text`, :func:`map_ids`, :func:`render_map_text`
(``load_map_text(render_map_text(m)) == m``); cells are flat indices ``row * cols + col``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pydantic
import yaml

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
from envs.heroclix.data.map_checks import (
    LADDER_STEPS,
    check_in_play,
    check_stairs,
    ladders,
    start_areas,
)
from envs.heroclix.data.maps import MAX_LEVEL, MAX_SIZE, ClixMap, Terrain

__all__ = [
    "MAPS_DIR",
    "SQUARE_GLYPHS",
    "load_map",
    "load_map_text",
    "map_ids",
    "render_map_text",
]

MAPS_DIR = Path(__file__).resolve().parent / "maps"

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
_ARROW_OF_STEP = {step: arrow for arrow, step in LADDER_STEPS.items()}
_LEVEL_CHARS = {".": 0, **{str(level): level for level in range(1, MAX_LEVEL + 1)}}
_INDOOR_CHARS = {".": False, "i": True}
_ID_PATTERN = r"^[a-z][a-z0-9_]*$"


class _MapFile(pydantic.BaseModel):
    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=_ID_PATTERN, strict=True)
    name: str = pydantic.Field(min_length=1, strict=True)
    description: str = pydantic.Field(default="", strict=True)
    indoor: Any = False  # checked in _build: a union would report 'indoor.bool' errors
    map: str = pydantic.Field(strict=True)
    levels: pydantic.StrictStr | None = None


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

    starts = start_areas(board, flat, at, lines)
    stairs = np.array([g == "=" for g in flat], dtype=bool)
    ladder_to = ladders(board, flat, at)
    check_stairs(board, stairs, at)
    check_in_play(board, stairs, ladder_to, starts, at)
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
