"""Heroica missions: the board, start, target and pieces of one game (HE-M).

A mission file is YAML with exactly these fields (all required, no others)::

    id: tunnel                 # lower-case name; must equal the file name (tunnel.yaml)
    name: Tunnel               # shown in renders and logs
    description: One long corridor; the Golem Lord waits at the end.
    target: [3, 1]             # [row, col], zero-based (HE-M.1, HE-M.4)
    map: |                     # a literal block: one line per board row
      #############
      #S..b..t..c.#
      ###########.#
      #L.g..R..l..#
      #############

Map legend (HE-M)::

    #  no space (wall)          b  Bat (strength 1)        c  Treasure Chest
    .  empty space              g  Golem Guardian (2)      l  Life Potion
    S  Mission Start            L  Golem Lord (3)          s  Speed Potion
                                R  Rocks                   t  Torch
                                                           P  Scepter of Summoning

Every non-``#`` cell is a space, and spaces are adjacent iff they are orthogonal neighbours
(HE-M.2); each space holds at most one piece (HE-M.3). The map's outer ring need not be
``#``: the board edge is a wall as well, so ``#`` borders are only for readability. The grid
has only the rows: no column-number header and no row-number prefixes.

Checks on load, each a :class:`~envs.core.scenario.ScenarioError` naming file, line and
field: YAML syntax, unknown / missing / duplicate keys, wrong types, a ragged map, unknown map
characters, not exactly one ``S``, a target off the board, on a wall or on the start, and a
space that cannot be reached from the start (rocks and monsters count as spaces here: they
can be cleared in play).

Game modes (Epic Heroica chains, Battle Heroica) are environment options, not mission fields.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pydantic

from envs.core.board import UNREACHABLE, Board, Topology
from envs.core.scenario import (
    STRICT_MODEL,
    STRING_SOURCE,
    YAML_SUFFIXES,
    LineMap,
    ScenarioError,
    grid_field,
    list_data_ids,
    load_yaml,
    resolve_data_file,
    validate,
)

__all__ = [
    "LEGEND",
    "MISSIONS_DIR",
    "PIECE_CHARS",
    "Mission",
    "list_missions",
    "load_mission",
    "mission_from_text",
]

MISSIONS_DIR = Path(__file__).resolve().parent / "missions"

WALL = "#"
EMPTY = "."
START = "S"

LEGEND: Mapping[str, str] = MappingProxyType(
    {
        WALL: "no space",
        EMPTY: "empty space",
        START: "Mission Start",
        "b": "Bat",
        "g": "Golem Guardian",
        "L": "Golem Lord",
        "R": "Rocks",
        "c": "Treasure Chest",
        "l": "Life Potion",
        "s": "Speed Potion",
        "t": "Torch",
        "P": "Scepter of Summoning",
    }
)
"""Map character -> meaning (HE-M legend)."""

PIECE_CHARS = "bgLRclstP"
"""Map characters that put a piece (monster, rocks, chest or item) on a space."""

_ID_PATTERN = r"^[a-z][a-z0-9_]*$"


class _MissionFile(pydantic.BaseModel):
    model_config = STRICT_MODEL

    id: str = pydantic.Field(pattern=_ID_PATTERN, strict=True)
    name: str = pydantic.Field(min_length=1, strict=True)
    description: str = pydantic.Field(strict=True)
    target: tuple[pydantic.StrictInt, pydantic.StrictInt]
    map: str = pydantic.Field(strict=True)


@dataclass(frozen=True, eq=False)
class Mission:
    """One loaded, validated mission. Cells are flat indices ``row * cols + col``.

    Attributes:
        id: short name; also the file name without ``.yaml``.
        name, description: for people.
        board: square-4 :class:`~envs.core.board.Board`; ``exists`` is every non-``#`` cell.
        rows, cols: board size.
        grid: the map rows as written (pieces and ``S`` included).
        start: cell of ``S``.
        target: cell of the target space.
        pieces: cell -> piece character (one of :data:`PIECE_CHARS`) at the start of play.
        source: file path, or ``"<string>"``.
    """

    id: str
    name: str
    description: str
    board: Board
    rows: int
    cols: int
    grid: tuple[str, ...]
    start: int
    target: int
    pieces: Mapping[int, str]
    source: str

    def rc(self, cell: int) -> tuple[int, int]:
        """(row, col) of a flat cell index."""
        return divmod(int(cell), self.cols)

    def cell(self, row: int, col: int) -> int:
        """Flat cell index of (row, col); ValueError off the board."""
        return self.board.cell(row, col)

    @property
    def n_spaces(self) -> int:
        return int(self.board.exists.sum())


def list_missions() -> list[str]:
    """Ids of the shipped missions (files in ``envs/heroica/data/missions``), sorted."""
    return list_data_ids(MISSIONS_DIR, YAML_SUFFIXES)


def load_mission(path_or_id: str | os.PathLike[str]) -> Mission:
    """Load a mission from a file path, or a shipped mission by id (``"tunnel"``).

    A ``str`` ending in ``.yaml``/``.yml`` or containing a path separator is a path; any
    other ``str`` is an id. Raises :class:`ScenarioError` for a bad file, an unknown id or a
    path that is not a file.
    """
    path = resolve_data_file(
        path_or_id,
        MISSIONS_DIR,
        YAML_SUFFIXES,
        "mission",
        shipped="shipped missions",
        must_exist=True,
    )
    data, lines = load_yaml(path, source=str(path))
    return _build(data, lines, file_name=path.name)


def mission_from_text(text: str, source: str = STRING_SOURCE) -> Mission:
    """Load a mission from YAML text (tests state missions inline).

    ``source`` names the text in error messages.
    """
    return _build(*load_yaml(text, source=source))


def _build(data: object, lines: LineMap, file_name: str | None = None) -> Mission:
    source = lines.source
    spec = validate(_MissionFile, data, source, lines)
    # The id is how missions are listed and chosen, so it must not drift from the file name.
    if file_name is not None and spec.id != Path(file_name).stem:
        raise lines.error(
            "id",
            f"id '{spec.id}' does not match the file name '{file_name}' "
            f"(expected id '{Path(file_name).stem}')",
        )
    grid = grid_field(data, lines, "map", LEGEND)  # type: ignore[arg-type]
    map_line = lines.value_line("map")
    first_row_line = None if map_line is None else map_line + 1
    n_rows, n_cols = len(grid), len(grid[0])

    starts = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == START]
    if not starts:
        raise lines.error("map", "no Mission Start 'S' on the map (exactly one is needed)")
    if len(starts) > 1:
        r1 = starts[1][0]  # the error points at the second Start
        raise ScenarioError(
            source,
            f"{len(starts)} Mission Starts 'S' on the map, at "
            f"{', '.join(str(rc) for rc in starts)}; exactly one is needed",
            line=None if first_row_line is None else first_row_line + r1,
            field="map",
        )

    t_row, t_col = spec.target
    if not (0 <= t_row < n_rows and 0 <= t_col < n_cols):
        raise lines.error(
            "target",
            f"({t_row}, {t_col}) is off the {n_rows}x{n_cols} map "
            f"(rows 0-{n_rows - 1}, cols 0-{n_cols - 1})",
        )
    target_char = grid[t_row][t_col]
    if target_char == WALL:
        raise lines.error("target", f"({t_row}, {t_col}) is a wall '#', not a space")
    if target_char == START:
        raise lines.error(
            "target", f"({t_row}, {t_col}) is the Mission Start; the target must be another space"
        )

    exists = np.array([[ch != WALL for ch in row] for row in grid], dtype=bool)
    board = Board.create(Topology.SQUARE4, exists)
    start = board.cell(*starts[0])
    target = board.cell(t_row, t_col)
    unreachable = np.flatnonzero(board.exists & (board.distance[start] == UNREACHABLE))
    if unreachable.size:
        r, c = board.rc(unreachable[0])
        raise ScenarioError(
            source,
            f"space ({r}, {c}) '{grid[r][c]}' cannot be reached from the Start at "
            f"{starts[0]}; every space must be connected to the Start ({unreachable.size} "
            f"unreachable in all)",
            line=None if first_row_line is None else first_row_line + r,
            field="map",
        )

    pieces = {
        r * n_cols + c: ch
        for r, row in enumerate(grid)
        for c, ch in enumerate(row)
        if ch in PIECE_CHARS
    }
    return Mission(
        id=spec.id,
        name=spec.name,
        description=spec.description,
        board=board,
        rows=n_rows,
        cols=n_cols,
        grid=tuple(grid),
        start=start,
        target=target,
        pieces=MappingProxyType(pieces),
        source=source,
    )
