"""Adjacency of figures on square8 boards with walls, levels and blocking squares (HC-3.13).

Two figures on touching squares are adjacent (HC-3.13 default) when

* both are soaring (then nothing on the map matters), or
* neither is soaring, both squares are on one level, and the segment between the two centres
  touches no wall (its end points included: a diagonal that grazes a wall's corner does not
  count) and no blocking square (a diagonal touches the two squares that share its corner).

:func:`adjacency_table` gives, for every square, its adjacent squares by direction (``-1`` =
not adjacent) for non-soaring figures under a blocking mask; games rebuild it only when the
blocking mask changes or a wall breaks (HC-5.16: pass the neighbour table of the walls still
standing, :meth:`envs.core.walls.WallGeometry.neighbors`). :func:`adjacent` answers one pair of
figures. Pure numpy; the board supplies levels and, by default, walls (its neighbour table).
"""

from __future__ import annotations

import numpy as np

from .board import SQUARE8_DIRECTIONS, Board, Topology


def adjacency_table(
    board: Board, blocking: np.ndarray | None = None, neighbors: np.ndarray | None = None
) -> np.ndarray:
    """int32[n, 8]: the square in each direction that a non-soaring figure on each square is
    adjacent to, or -1. ``blocking``: bool[n], blocking squares as they are now.
    ``neighbors``: int32[n, 8], the neighbour table with the walls standing now
    (:meth:`~envs.core.walls.WallGeometry.neighbors`); default ``board.neighbors`` (every
    wall intact)."""
    _require_square8(board)
    n = board.n_cells
    blocking = np.zeros(n, dtype=bool) if blocking is None else np.asarray(blocking, dtype=bool)
    if blocking.shape != (n,):
        raise ValueError(f"blocking has shape {blocking.shape}, expected ({n},)")
    steps = board.neighbors if neighbors is None else np.asarray(neighbors)
    if steps.shape != board.neighbors.shape:
        raise ValueError(f"neighbors has shape {steps.shape}, expected {board.neighbors.shape}")
    table = steps.astype(np.int32)  # walls, wall corners and non-spaces are already -1
    cells = np.arange(n)
    for direction, (dr, dc) in enumerate(SQUARE8_DIRECTIONS):
        there = table[:, direction]
        ok = there >= 0
        target = np.where(ok, there, 0)
        ok &= board.level[target] == board.level  # one level (HC-3.13: "higher up")
        ok &= ~blocking[target] & ~blocking
        if dr and dc:  # a diagonal touches the two squares beside its corner
            row, col = np.divmod(cells, board.width)
            beside_row = np.clip(row + dr, 0, board.height - 1) * board.width + col
            beside_col = row * board.width + np.clip(col + dc, 0, board.width - 1)
            ok &= ~blocking[beside_row] & ~blocking[beside_col]
        table[:, direction] = np.where(ok, there, -1)
    table.setflags(write=False)
    return table


def adjacent(
    board: Board,
    table: np.ndarray,
    a: int,
    b: int,
    soaring_a: bool = False,
    soaring_b: bool = False,
) -> bool:
    """Whether figures on squares ``a`` and ``b`` are adjacent (HC-3.13); ``table`` is
    :func:`adjacency_table` for the current blocking squares."""
    if soaring_a != soaring_b:
        return False  # a soaring figure is adjacent only to soaring figures
    if soaring_a:
        (r1, c1), (r2, c2) = board.rc(a), board.rc(b)
        return max(abs(r1 - r2), abs(c1 - c2)) == 1
    return bool((table[a] == b).any())


def _require_square8(board: Board) -> None:
    if board.topology is not Topology.SQUARE8:
        raise ValueError(f"adjacency is defined on square8 boards, not {board.topology.value}")
