"""Board topologies shared by every game: cells, neighbours, distances, geometry.

A board is a rectangular grid of ``height x width`` cells addressed by flat index
``cell = row * width + col``. Not every cell is a *space*: ``exists[cell]`` is False for
walls-as-cells (Heroica ``#``), holes in a Heroscape battlefield, or padding.

Three topologies::

    SQUARE4  (Heroica)          SQUARE8  (HeroClix)          HEX  (Heroscape, pointy-top, odd-r)
          N                      NW  N  NE                     row 0:  0   1   2   3
        W + E                     W  +  E                      row 1:    4   5   6   7
          S                      SW  S  SE                     row 2:  8   9  10  11

Directions are indices into ``neighbors[cell]``; ``-1`` marks "no space there" (or a wall on
the edge between the two cells). Directions keep their meaning, so "straight on" is the same
direction index repeated (used by straight-line rules such as a bow shot).

Everything here is computed once per map: neighbour tables and all-pairs step distances.
Pure numpy; no game rules.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

UNREACHABLE = np.iinfo(np.int16).max
"""Distance between two spaces with no path between them (or to a non-space)."""


class Topology(str, enum.Enum):
    SQUARE4 = "square4"
    SQUARE8 = "square8"
    HEX = "hex"


# (d_row, d_col) per direction.
SQUARE4_DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # N E S W
SQUARE4_DIRECTION_NAMES = ("N", "E", "S", "W")
SQUARE8_DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
SQUARE8_DIRECTION_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
# Pointy-top hexes in "odd-r" offset layout: odd rows sit half a cell to the right.
HEX_DIRECTIONS_EVEN_ROW = ((0, 1), (-1, 0), (-1, -1), (0, -1), (1, -1), (1, 0))
HEX_DIRECTIONS_ODD_ROW = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, 0), (1, 1))
HEX_DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")

HEX_ROW_PITCH = math.sqrt(3.0) / 2.0
"""Vertical distance between hex rows when adjacent hex centres are 1.0 apart."""


def _wall_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, eq=False)
class Board:
    """A static board: which cells are spaces, their terrain and level, and lookup tables.

    Build one with :meth:`Board.create`; the tables (``neighbors``, ``distance``) are filled
    there. Treat every array as read-only.
    """

    topology: Topology
    height: int
    width: int
    exists: np.ndarray  # bool[n]
    terrain: np.ndarray  # int8[n], meaning defined by the game
    level: np.ndarray  # int16[n]
    walls: frozenset[tuple[int, int]]  # unordered pairs of orthogonally adjacent cells
    neighbors: np.ndarray = field(repr=False)  # int32[n, directions], -1 = none
    distance: np.ndarray = field(repr=False)  # int16[n, n], UNREACHABLE = no path

    @classmethod
    def create(
        cls,
        topology: Topology | str,
        exists: np.ndarray,
        terrain: np.ndarray | None = None,
        level: np.ndarray | None = None,
        walls: Iterable[tuple[tuple[int, int], tuple[int, int]]] = frozenset(),
    ) -> Board:
        """Build a board from (height, width) arrays; walls are pairs of (row, col) cells.

        ``walls`` lists edges between orthogonally adjacent cells that nothing crosses
        (HeroClix walls). A wall also blocks a diagonal step whose corner it touches.
        """
        topology = Topology(topology)
        exists = np.asarray(exists, dtype=bool)
        if exists.ndim != 2:
            raise ValueError(f"board 'exists' must be a 2-D grid, got shape {exists.shape}")
        height, width = exists.shape
        terrain = np.zeros_like(exists, dtype=np.int8) if terrain is None else np.asarray(terrain)
        level = np.zeros_like(exists, dtype=np.int16) if level is None else np.asarray(level)
        for name, grid in (("terrain", terrain), ("level", level)):
            if grid.shape != exists.shape:
                raise ValueError(f"board '{name}' has shape {grid.shape}, expected {exists.shape}")
        wall_cells: set[tuple[int, int]] = set()
        for pair in walls:
            (r1, c1), (r2, c2) = pair
            if abs(r1 - r2) + abs(c1 - c2) != 1:
                raise ValueError(f"wall {pair} is not between orthogonally adjacent cells")
            # An off-board cell would alias another one through its flat index.
            if not all(0 <= r < height and 0 <= c < width for r, c in ((r1, c1), (r2, c2))):
                raise ValueError(f"wall {pair} has a cell off the {height}x{width} board")
            if topology is Topology.HEX:
                raise ValueError("walls on cell edges are only defined for square boards")
            wall_cells.add(_wall_key(r1 * width + c1, r2 * width + c2))
        flat_exists = exists.reshape(-1).copy()
        neighbors = _neighbor_table(topology, height, width, flat_exists, frozenset(wall_cells))
        distance = _all_pairs_steps(neighbors, flat_exists)
        for array in (flat_exists, neighbors, distance):
            array.setflags(write=False)
        flat_terrain = terrain.reshape(-1).astype(np.int8)
        flat_level = level.reshape(-1).astype(np.int16)
        flat_terrain.setflags(write=False)
        flat_level.setflags(write=False)
        return cls(
            topology,
            height,
            width,
            flat_exists,
            flat_terrain,
            flat_level,
            frozenset(wall_cells),
            neighbors,
            distance,
        )

    # -- addressing -----------------------------------------------------------------------
    @property
    def n_cells(self) -> int:
        return self.height * self.width

    @property
    def n_directions(self) -> int:
        return self.neighbors.shape[1]

    @property
    def direction_names(self) -> tuple[str, ...]:
        return {
            Topology.SQUARE4: SQUARE4_DIRECTION_NAMES,
            Topology.SQUARE8: SQUARE8_DIRECTION_NAMES,
            Topology.HEX: HEX_DIRECTION_NAMES,
        }[self.topology]

    def cell(self, row: int, col: int) -> int:
        if not (0 <= row < self.height and 0 <= col < self.width):
            raise ValueError(f"({row},{col}) is off the {self.height}x{self.width} board")
        return row * self.width + col

    def rc(self, cell: int | np.integer) -> tuple[int, int]:
        return divmod(int(cell), self.width)

    def label(self, cell: int) -> str:
        """The cell as ``(row,col)``: the notation of action names and transcripts."""
        row, col = self.rc(cell)
        return f"({row},{col})"

    def spaces(self) -> np.ndarray:
        """Flat indices of every space, ascending."""
        return np.flatnonzero(self.exists)

    def is_wall_between(self, a: int, b: int) -> bool:
        return _wall_key(a, b) in self.walls

    def step(self, cell: int, direction: int) -> int:
        """The neighbouring space in ``direction`` or -1."""
        return int(self.neighbors[cell, direction])

    def direction_between(self, a: int, b: int) -> int:
        """Direction index from ``a`` to its neighbour ``b``, or -1 if not neighbours."""
        row = self.neighbors[a]
        hits = np.flatnonzero(row == b)
        return int(hits[0]) if hits.size else -1

    # -- geometry (unit spacing between adjacent centres) ---------------------------------
    def center(self, cell: int) -> tuple[float, float]:
        """(x, y) of a cell's centre; x grows with column, y with row."""
        row, col = self.rc(cell)
        if self.topology is Topology.HEX:
            return col + 0.5 * (row & 1), row * HEX_ROW_PITCH
        return float(col), float(row)

    def centers(self) -> np.ndarray:
        """float64[n, 2] centre of every cell."""
        rows, cols = np.divmod(np.arange(self.n_cells), self.width)
        if self.topology is Topology.HEX:
            return np.stack([cols + 0.5 * (rows & 1), rows * HEX_ROW_PITCH], axis=1)
        return np.stack([cols, rows], axis=1).astype(np.float64)


def _offsets(topology: Topology, row: int) -> tuple[tuple[int, int], ...]:
    if topology is Topology.SQUARE4:
        return SQUARE4_DIRECTIONS
    if topology is Topology.SQUARE8:
        return SQUARE8_DIRECTIONS
    return HEX_DIRECTIONS_ODD_ROW if row & 1 else HEX_DIRECTIONS_EVEN_ROW


def _neighbor_table(
    topology: Topology,
    height: int,
    width: int,
    exists: np.ndarray,
    walls: frozenset[tuple[int, int]],
) -> np.ndarray:
    n_dirs = {Topology.SQUARE4: 4, Topology.SQUARE8: 8, Topology.HEX: 6}[topology]
    table = np.full((height * width, n_dirs), -1, dtype=np.int32)
    for row in range(height):
        for col in range(width):
            here = row * width + col
            if not exists[here]:
                continue
            for direction, (dr, dc) in enumerate(_offsets(topology, row)):
                r2, c2 = row + dr, col + dc
                if not (0 <= r2 < height and 0 <= c2 < width):
                    continue
                there = r2 * width + c2
                if not exists[there] or _blocked_by_wall(here, there, dr, dc, width, walls):
                    continue
                table[here, direction] = there
    return table


def _blocked_by_wall(
    a: int, b: int, dr: int, dc: int, width: int, walls: frozenset[tuple[int, int]]
) -> bool:
    if not walls:
        return False
    if dr == 0 or dc == 0:
        return _wall_key(a, b) in walls
    # A diagonal step passes through the shared corner: any wall on the four edges that
    # meet at that corner touches the centre-to-centre segment and blocks it.
    side_row = a + dr * width  # the cell beside a, in b's row
    side_col = a + dc  # the cell beside a, in b's column
    edges = (
        _wall_key(a, side_row),
        _wall_key(a, side_col),
        _wall_key(b, side_row),
        _wall_key(b, side_col),
    )
    return any(edge in walls for edge in edges)


def _all_pairs_steps(neighbors: np.ndarray, exists: np.ndarray) -> np.ndarray:
    """Breadth-first step counts from every space to every space, all sources at once."""
    n = neighbors.shape[0]
    distance = np.full((n, n), UNREACHABLE, dtype=np.int16)
    if n == 0:
        return distance
    # Column n is a permanent "False" so that -1 neighbours gather nothing.
    padded_index = np.where(neighbors < 0, n, neighbors)
    frontier = np.zeros((n, n + 1), dtype=bool)
    spaces = np.flatnonzero(exists)
    frontier[spaces, spaces] = True
    visited = frontier[:, :n].copy()
    distance[spaces, spaces] = 0
    step = 0
    while frontier.any():
        step += 1
        reached = np.zeros((n, n), dtype=bool)
        for direction in range(neighbors.shape[1]):
            # target t is reached if its neighbour in this direction was on the frontier;
            # adjacency is symmetric, so that neighbour is one step from t.
            reached |= frontier[:, padded_index[:, direction]]
        reached &= exists[np.newaxis, :]
        reached &= ~visited
        visited |= reached
        distance[reached] = step
        frontier = np.zeros((n, n + 1), dtype=bool)
        frontier[:, :n] = reached
    return distance


@dataclass(frozen=True, eq=False)
class PaddedBoard:
    """A map's own board placed in the top-left corner of a larger ``height x width`` grid.

    Games pad every map to one configured ``board_size`` so that one policy's action and
    observation planes mean the same place on every map. Rows keep their index, so an odd-r
    hex row keeps its parity and hex adjacency is unchanged. ``to_padded`` / ``to_source``
    map flat cell indices between the two (frames and text show the map's own board).
    """

    source: Board
    board: Board

    @classmethod
    def create(cls, source: Board, height: int, width: int) -> PaddedBoard:
        if source.height > height or source.width > width:
            raise ValueError(
                f"a {source.height}x{source.width} board does not fit in {height}x{width}"
            )
        grids = []
        for flat, dtype in (
            (source.exists, bool),
            (source.terrain, np.int8),
            (source.level, np.int16),
        ):
            grid = np.zeros((height, width), dtype=dtype)
            grid[: source.height, : source.width] = flat.reshape(source.height, source.width)
            grids.append(grid)
        exists, terrain, level = grids
        walls = {(divmod(a, source.width), divmod(b, source.width)) for a, b in source.walls}
        board = Board.create(source.topology, exists, terrain, level, walls=walls)
        return cls(source, board)

    def to_padded(self, cell: int | np.integer) -> int:
        row, col = divmod(int(cell), self.source.width)
        return row * self.board.width + col

    def to_source(self, cell: int | np.integer) -> int:
        row, col = divmod(int(cell), self.board.width)
        return row * self.source.width + col
