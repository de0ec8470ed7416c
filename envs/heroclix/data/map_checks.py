"""The checks a HeroClix map passes on load beyond the grammar of its file (envs/heroclix/RULES.md
HC-2.10, HC-3.13, HC-5.8, HC-5.18): the starting squares and the ladders read off the drawn
squares, the flights of stairs, and that every square can be reached.

They are rules about the map as a battlefield, not about how it is written, so they live
apart from the file format: :mod:`envs.heroclix.data.map_file` calls them in this order while
it builds a :class:`~envs.heroclix.data.maps.ClixMap`, passing ``at(cell, message)``, which
makes the :class:`~envs.core.scenario.ScenarioError` that names the square's place in the
drawing.

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
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from envs.core.adjacency import adjacency_table
from envs.core.board import Board
from envs.core.scenario import LineMap
from envs.heroclix.data.maps import EDGES, Terrain

__all__ = [
    "LADDER_STEPS",
    "MIN_START_SQUARES",
    "START_DEPTH",
    "START_MARGIN",
    "check_in_play",
    "check_stairs",
    "ladders",
    "start_areas",
]

MIN_START_SQUARES = 8
"""Fewest squares a starting area may have: room for 8 figures, one per square (HC-2.10)."""
START_DEPTH, START_MARGIN = 2, 4
"""HC-2.10: starting squares lie within START_DEPTH rows of their own edge and at least
START_MARGIN squares from every other edge (the edge row counts as 1)."""
LADDER_STEPS = {"^": (-1, 0), ">": (0, 1), "v": (1, 0), "<": (0, -1)}
"""Ladder square character -> (row, col) step to the elevated square it links to (HC-5.8)."""
_ORTHOGONAL = (0, 2, 4, 6)  # N E S W in the square8 direction order of envs.core.board


def _in_band(edge: str, row: int, col: int, rows: int, cols: int) -> bool:
    """HC-2.10 default: within START_DEPTH of ``edge``, START_MARGIN from every other edge."""
    depth = {"N": row, "S": rows - 1 - row, "W": col, "E": cols - 1 - col}
    along = (col, cols - 1 - col) if edge in "NS" else (row, rows - 1 - row)
    return depth[edge] < START_DEPTH and min(along) >= START_MARGIN - 1


def start_areas(board: Board, flat: list[str], at, lines: LineMap) -> dict[str, np.ndarray]:
    """Edge -> bool[n], the starting area of each edge that has one (squares ``flat``)."""
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


def ladders(board: Board, flat: list[str], at) -> np.ndarray:
    """int[n]: -1 or the elevated cell each ladder square links to (squares ``flat``)."""
    ladder_to = np.full(board.n_cells, -1, dtype=np.int32)
    for cell, glyph in enumerate(flat):
        if glyph not in LADDER_STEPS:
            continue
        (r, c), (dr, dc) = board.rc(cell), LADDER_STEPS[glyph]
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


def check_stairs(board: Board, stairs: np.ndarray, at) -> None:
    """Each flight of stairs climbs exactly one level."""
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


def check_in_play(
    board: Board, stairs: np.ndarray, ladder_to: np.ndarray, starts: Mapping[str, np.ndarray], at
) -> None:
    """Every square that is not blocking terrain can be walked to from the starting areas."""
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
