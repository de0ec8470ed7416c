"""Walls as dynamic state on square8 boards (HeroClix HC-5.14, HC-5.16, HC-5.17).

A :class:`~envs.core.board.Board` bakes its walls into ``board.neighbors``; rebuilding a board
when a wall breaks in play is far too slow. :class:`WallGeometry` is computed once per map
and turns a dynamic mask ``walls_intact: bool[n_edges]`` into the neighbour table as it
stands now:

* every wall edge of the board gets a stable id: its rank in ``sorted(board.walls)``, so
  ``edges[id] = (cell_a, cell_b)`` with ``cell_a < cell_b``;
* the *open* neighbour table is the geometry alone (no walls): int32[n, 8] in the square8
  directions N, NE, E, SE, S, SW, W, NW, ``-1`` off the board or onto a non-space;
* each step lists the walls that block it: an orthogonal step is blocked by the wall on the
  edge it crosses; a diagonal step by any wall segment touching the corner point it passes
  through (the same rule as :class:`~envs.core.board.Board`, HC-3.13 default: a diagonal
  that grazes a wall's end counts);
* :meth:`WallGeometry.neighbors` gives the table with only the intact walls standing. With
  every wall intact it equals ``board.neighbors`` exactly.

HC-5.16 (breaking a wall) and HC-5.17 (its two squares then count as hindering) are the
game's: it clears the wall's bit in ``walls_intact`` and marks ``edges[id]`` hindering. Pass
the table to :func:`envs.core.adjacency.adjacency_table` and
:func:`envs.core.knockback.knockback` (``neighbors=``); :mod:`envs.core.firelines` takes the
mask itself. Pure numpy; no game rules beyond the above.
"""

from __future__ import annotations

import numpy as np

from .board import SQUARE8_DIRECTIONS, Board, Topology

__all__ = ["WallGeometry"]


class WallGeometry:
    """The static wall geometry of one square8 map; see the module docstring.

    Attributes (all read-only arrays):
        ``edges``: int64[n_edges, 2] the two squares of each wall, lower index first.
        ``open_neighbors``: int32[n, 8] neighbours by geometry alone (walls ignored).
        ``around``: int32[n, 4] the wall id on each square's N, E, S, W side, or -1.
    """

    def __init__(self, board: Board) -> None:
        if board.topology is not Topology.SQUARE8:
            raise ValueError(f"WallGeometry needs a square8 board, not {board.topology.value}")
        self.board = board
        n, width = board.n_cells, board.width
        self.edges = np.array(sorted(board.walls), dtype=np.int64).reshape(-1, 2)
        self._ids = {(int(a), int(b)): i for i, (a, b) in enumerate(self.edges)}
        pad = self.n_edges
        # Wall id on each square's east side and south side (pad = none); every other
        # edge is one of these seen from the neighbouring square.
        east = np.full(n + 1, pad, dtype=np.int32)
        south = np.full(n + 1, pad, dtype=np.int32)
        for i, (a, b) in enumerate(self.edges):
            (east if b == a + 1 and b % width else south)[a] = i
        rows, cols = np.divmod(np.arange(n), width)
        self.open_neighbors = self._open_table(rows, cols)
        self._step_walls = self._blockers(rows, cols, east, south)
        self.around = self._around(rows, cols, east, south)
        for array in (self.edges, self.open_neighbors, self._step_walls, self.around):
            array.setflags(write=False)
        self._all_intact = np.ones(pad, dtype=bool)
        self._all_intact.setflags(write=False)
        self._last_key: bytes | None = None
        self._last_table = self.open_neighbors
        self._last_sides_key: bytes | None = None
        self._last_sides = np.zeros((0, 4), dtype=bool)

    # -- ids -------------------------------------------------------------------------------
    @property
    def n_edges(self) -> int:
        return int(self.edges.shape[0])

    def all_intact(self) -> np.ndarray:
        """bool[n_edges], every wall standing (a new, writable array: the game's start state)."""
        return self._all_intact.copy()

    def edge_id(self, a: int, b: int) -> int:
        """The id of the wall between squares ``a`` and ``b`` (either order)."""
        key = (int(a), int(b)) if a < b else (int(b), int(a))
        found = self._ids.get(key)
        if found is None:
            raise ValueError(f"no wall between {self.board.label(a)} and {self.board.label(b)}")
        return found

    def standing_sides(self, intact: np.ndarray) -> np.ndarray:
        """bool[n, 4] read-only: whether a wall stands on each square's N, E, S, W side now
        (the last answer is kept by the mask's bytes, like :meth:`neighbors`)."""
        mask = self.check_intact(intact)
        key = mask.tobytes()
        if key == self._last_sides_key:
            return self._last_sides
        padded = np.append(mask, False)  # index n_edges: no wall there
        sides = padded[np.where(self.around >= 0, self.around, self.n_edges)]
        sides.setflags(write=False)
        self._last_sides_key, self._last_sides = key, sides
        return sides

    def other_side(self, wall: int, cell: int) -> int:
        """The square across ``wall`` from ``cell`` (one of its two squares)."""
        a, b = (int(c) for c in self.edges[wall])
        return b if cell == a else a

    def edges_around(self, cell: int) -> tuple[int, ...]:
        """Ids of the walls on the four sides of ``cell`` (N, E, S, W order, only those present)."""
        return tuple(int(i) for i in self.around[cell] if i >= 0)

    def step_walls(self, cell: int, direction: int) -> tuple[int, ...]:
        """Ids of the walls that block the step from ``cell`` in ``direction`` (empty when the
        step leaves the board or enters a non-space: no wall decides it)."""
        return tuple(int(i) for i in self._step_walls[cell, direction] if i < self.n_edges)

    # -- the dynamic table -----------------------------------------------------------------
    def neighbors(self, intact: np.ndarray | None = None) -> np.ndarray:
        """int32[n, 8] read-only: the neighbour table with only the walls ``intact[id]``
        standing (``None``: all of them, i.e. ``board.neighbors``). The last answer is
        cached by the mask's bytes, so asking again with an equal mask is free."""
        mask = self._all_intact if intact is None else self.check_intact(intact)
        key = mask.tobytes()
        if key == self._last_key:
            return self._last_table
        blocked = np.append(mask, False)[self._step_walls].any(axis=2)
        table = np.where(blocked, -1, self.open_neighbors).astype(np.int32)
        table.setflags(write=False)
        self._last_key, self._last_table = key, table
        return table

    def check_intact(self, intact: np.ndarray) -> np.ndarray:
        """``intact`` as bool[n_edges], or ValueError naming the expected shape."""
        mask = np.asarray(intact, dtype=bool)
        if mask.shape != (self.n_edges,):
            raise ValueError(
                f"walls_intact has shape {mask.shape}, expected ({self.n_edges},): "
                f"one flag per wall id of this map's WallGeometry"
            )
        return mask

    # -- construction ----------------------------------------------------------------------
    def _open_table(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        board = self.board
        exists = board.exists
        table = np.full((board.n_cells, 8), -1, dtype=np.int32)
        for direction, (dr, dc) in enumerate(SQUARE8_DIRECTIONS):
            r2, c2 = rows + dr, cols + dc
            ok = exists & (r2 >= 0) & (r2 < board.height) & (c2 >= 0) & (c2 < board.width)
            there = np.where(ok, r2 * board.width + c2, 0)
            ok &= exists[there]
            table[:, direction] = np.where(ok, there, -1)
        return table

    def _blockers(
        self, rows: np.ndarray, cols: np.ndarray, east: np.ndarray, south: np.ndarray
    ) -> np.ndarray:
        """int32[n, 8, 4]: the wall ids that block each step, padded with ``n_edges``."""
        width, pad = self.board.width, self.n_edges
        n = self.board.n_cells
        out = np.full((n, 8, 4), pad, dtype=np.int32)
        for direction, (dr, dc) in enumerate(SQUARE8_DIRECTIONS):
            ok = self.open_neighbors[:, direction] >= 0
            cells = np.flatnonzero(ok)
            if dr == 0 or dc == 0:
                there = self.open_neighbors[cells, direction]
                lo = np.minimum(cells, there)
                out[cells, direction, 0] = np.where(dr == 0, east[lo], south[lo])
                continue
            # The corner lies below row `top` and right of column `left`; the four edges
            # meeting there are the two east sides and the two south sides around it.
            top = np.minimum(rows[cells], rows[cells] + dr)
            left = np.minimum(cols[cells], cols[cells] + dc)
            corner = top * width + left
            out[cells, direction] = np.stack(
                [east[corner], east[corner + width], south[corner], south[corner + 1]], axis=1
            )
        return out

    def _around(
        self, rows: np.ndarray, cols: np.ndarray, east: np.ndarray, south: np.ndarray
    ) -> np.ndarray:
        cells = np.arange(self.board.n_cells)
        pad = self.n_edges
        width = self.board.width
        sides = np.stack(
            [
                np.where(rows > 0, south[np.maximum(cells - width, 0)], pad),
                east[cells],
                south[cells],
                np.where(cols > 0, east[np.maximum(cells - 1, 0)], pad),
            ],
            axis=1,
        )
        return np.where(sides == pad, -1, sides).astype(np.int32)
