"""Line of fire on square boards (HeroClix HC-4.17, HC-5.11, HC-3.13).

A line runs from the centre of one square to the centre of another. It *crosses* a square
when it passes through that square's open interior; touching only a corner does not count.
(A centre-to-centre line can never run along a cell edge: centres sit half a cell away
from every edge line, so corners are the only boundary contact possible.) The line
*touches a wall* when it meets the closed wall segment anywhere, its end points included,
so a line through the end of a wall is blocked.

All square tests are exact integer arithmetic in *doubled* coordinates: the centre of
(row, col) is (2*col, 2*row) and every cell edge lies on an odd line::

    y=-1 +-------+-------+
         |       |       |        cell (0,0): x in (-1, 1), y in (-1, 1)
    y= 0 |   o   |   o   |        cell (0,1): x in ( 1, 3), y in (-1, 1)
         |       |       |        a wall between them: x = 1, y in [-1, 1]
    y= 1 +-------+-------+
        x=-1    x=1     x=3

Which squares and edges a line meets depends only on the offset between its ends, so they
are computed once per offset and shared; :class:`SquareSightTable` adds the walls and the
static blocking terrain of one map, leaving only figures to check at run time. It also
hands out, per line, the ids (:func:`square_edge_id`) of every cell edge the line touches,
so that walls which break in play (HC-5.16) can be checked against a dynamic mask by
:mod:`envs.core.firelines` instead of rebuilding the table.

3-D line of sight on hex boards with levels (Heroscape HS-10.4) lives in
:mod:`envs.core.hexsight`; it shares :func:`require_topology` from here.
"""

from __future__ import annotations

import functools
import weakref
from typing import NamedTuple

import numpy as np

from .board import Board, Topology

__all__ = [
    "SquareLine",
    "square_line_cells",
    "square_line_of_fire",
    "square_hindering_cells",
    "SquareSightTable",
    "require_topology",
    "square_edge_id",
]


class SquareLine(NamedTuple):
    """The squares a centre-to-centre line crosses (ordered from the start) and wall contact."""

    cells: np.ndarray  # int64[k], excludes both end squares
    touches_wall: bool


def require_topology(board: Board, square: bool) -> None:
    """Raise ValueError unless ``board`` is a square board (``square=True``) or a hex board
    (``square=False``)."""
    is_square = board.topology is not Topology.HEX
    if is_square != square:
        kind = "square" if square else "hex"
        raise ValueError(f"this sight function needs a {kind} board, got {board.topology.value}")


# Edge kinds: a VERTICAL edge lies between (r, c) and (r, c+1), a HORIZONTAL one between
# (r, c) and (r+1, c); either is named by its kind and its (r, c) cell.
_VERTICAL, _HORIZONTAL = 0, 1


class _LineShape(NamedTuple):
    """What the line from (0,0) to (dr,dc) meets, as offsets from its start."""

    cells: np.ndarray  # int16[k, 2] (d_row, d_col) of crossed squares, in order along the line
    edges: np.ndarray  # int16[e, 3] (kind, d_row, d_col) of closed edges it touches


# Keyed by the offset between the two ends, so a board of H x W needs (2H-1)(2W-1) entries:
# this bound holds every offset of boards up to about 45 x 45.
@functools.lru_cache(maxsize=1 << 13)
def _line_shape(dr: int, dc: int) -> _LineShape:
    """Crossed squares and touched edges of the line from (0,0) to (dr,dc), exactly.

    Only squares and edges inside the bounding box of the two ends can be met (anything
    else lies beyond the line's x- or y-extent). A square in the box is crossed exactly when
    the infinite line has corners of the square strictly on both sides.
    """
    grid_rows, grid_cols = np.meshgrid(
        np.arange(min(0, dr), max(0, dr) + 1), np.arange(min(0, dc), max(0, dc) + 1), indexing="ij"
    )
    rows, cols = grid_rows.ravel(), grid_cols.ravel()
    dx, dy = 2 * dc, 2 * dr
    above = np.zeros(rows.shape, dtype=bool)
    below = np.zeros(rows.shape, dtype=bool)
    for sx in (-1, 1):
        for sy in (-1, 1):
            side = dx * (2 * rows + sy) - dy * (2 * cols + sx)
            above |= side > 0
            below |= side < 0
    crossed = above & below
    crossed &= ~((rows == 0) & (cols == 0)) & ~((rows == dr) & (cols == dc))
    r, c = rows[crossed], cols[crossed]
    # Along-the-line order; lexsort keeps (row, col) order, i.e. flat-index order, on ties.
    order = np.lexsort((c, r, c * dx + r * dy))
    # int16 quarters the memo (thousands of shapes); its users widen before multiplying
    cells = np.stack([r[order], c[order]], axis=1).astype(np.int16)

    vertical = cols < max(0, dc)  # edge to the right stays in the box
    horizontal = rows < max(0, dr)
    kind = np.concatenate(
        [np.full(vertical.sum(), _VERTICAL), np.full(horizontal.sum(), _HORIZONTAL)]
    )
    er = np.concatenate([rows[vertical], rows[horizontal]])
    ec = np.concatenate([cols[vertical], cols[horizontal]])
    is_v = kind == _VERTICAL
    px = np.where(is_v, 2 * ec + 1, 2 * ec - 1)
    py = np.where(is_v, 2 * er - 1, 2 * er + 1)
    qx, qy = 2 * ec + 1, 2 * er + 1
    touched = _segments_meet(0, 0, dx, dy, px, py, qx, qy)
    edges = (
        np.stack([kind[touched], er[touched], ec[touched]], axis=1).astype(np.int16).reshape(-1, 3)
    )
    for array in (cells, edges):
        array.setflags(write=False)
    return _LineShape(cells, edges)


def _segments_meet(ax, ay, bx, by, px, py, qx, qy) -> np.ndarray:
    """Do closed segments A-B and P-Q meet? Exact on integers; broadcasts."""

    def orient(ox, oy, ux, uy, vx, vy):
        return np.sign((ux - ox) * (vy - oy) - (uy - oy) * (vx - ox))

    o1, o2 = orient(ax, ay, bx, by, px, py), orient(ax, ay, bx, by, qx, qy)
    o3, o4 = orient(px, py, qx, qy, ax, ay), orient(px, py, qx, qy, bx, by)
    # The bounding-box overlap settles the all-collinear case; otherwise the signs decide.
    boxes = (
        (min(ax, bx) <= np.maximum(px, qx))
        & (max(ax, bx) >= np.minimum(px, qx))
        & (min(ay, by) <= np.maximum(py, qy))
        & (max(ay, by) >= np.minimum(py, qy))
    )
    return (o1 * o2 <= 0) & (o3 * o4 <= 0) & boxes


_WALL_MASKS: weakref.WeakKeyDictionary[Board, np.ndarray] = weakref.WeakKeyDictionary()


def _wall_edge_mask(board: Board) -> np.ndarray:
    """bool[2n + 1]: edge id ``kind * n + cell`` carries a wall; the last entry pads (False)."""
    cached = _WALL_MASKS.get(board)
    if cached is not None:
        return cached
    n = board.n_cells
    mask = np.zeros(2 * n + 1, dtype=bool)
    for a, b in board.walls:
        same_row = board.rc(a)[0] == board.rc(b)[0]
        mask[(_VERTICAL if same_row else _HORIZONTAL) * n + a] = True
    mask.setflags(write=False)
    _WALL_MASKS[board] = mask
    return mask


def square_edge_id(board: Board, a: int, b: int) -> int:
    """The id of the cell edge between orthogonally adjacent squares ``a`` and ``b``, as
    :meth:`SquareSightTable.touched_edge_rows` reports it: ``kind * n_cells + upper-left
    square``, kind 0 for an edge between a row's neighbours and 1 for one between a
    column's. Ids lie in ``0 .. 2 * n_cells - 1``."""
    require_topology(board, square=True)
    lo, hi = sorted((int(a), int(b)))
    (r1, c1), (r2, c2) = board.rc(lo), board.rc(hi)
    if r1 == r2 and c2 == c1 + 1:
        return _VERTICAL * board.n_cells + lo
    if c1 == c2 and r2 == r1 + 1:
        return _HORIZONTAL * board.n_cells + lo
    raise ValueError(f"{board.label(a)} and {board.label(b)} are not orthogonally adjacent")


def _edge_ids(board: Board, a: int, edges: np.ndarray) -> np.ndarray:
    edges = edges.astype(np.int64)
    return edges[:, 0] * board.n_cells + a + edges[:, 1] * board.width + edges[:, 2]


def square_line_cells(board: Board, a: int, b: int) -> SquareLine:
    """Squares whose interior the open line from the centre of ``a`` to the centre of ``b``
    crosses (excluding ``a`` and ``b``, ordered from ``a``), and whether it touches a wall.

    Touching only a corner of a square does not cross it (HC-4.17 default), so a diagonal
    line slips between two squares that meet at a corner. Walls are closed segments: a line
    through a wall's end point touches it. Non-spaces are geometry like any other square.
    """
    require_topology(board, square=True)
    (ra, ca), (rb, cb) = board.rc(a), board.rc(b)
    shape = _line_shape(rb - ra, cb - ca)
    # Relative flat offsets are safe: everything met lies between the two ends.
    cells = a + shape.cells[:, 0].astype(np.int64) * board.width + shape.cells[:, 1]
    touch = bool(board.walls) and bool(
        _wall_edge_mask(board)[_edge_ids(board, a, shape.edges)].any()
    )
    return SquareLine(cells, touch)


def square_line_of_fire(board: Board, a: int, b: int, blocking: np.ndarray) -> bool:
    """True if the line from ``a`` to ``b`` touches no wall and crosses no ``blocking`` square.

    ``blocking`` is bool[n_cells]; the end squares themselves are never checked.
    """
    line = square_line_cells(board, a, b)
    return not line.touches_wall and not bool(np.asarray(blocking)[line.cells].any())


def square_hindering_cells(
    board: Board, a: int, b: int, hindering: np.ndarray, include_target: bool = False
) -> np.ndarray:
    """The crossed squares marked in ``hindering`` (bool[n_cells]), ordered from ``a``.

    HC-5.11 counts the target's square but never the attacker's: pass ``include_target=True``
    to append ``b`` when it is hindering.
    """
    return _hindering(square_line_cells(board, a, b).cells, b, hindering, include_target)


def _hindering(
    crossed: np.ndarray, b: int, hindering: np.ndarray, include_target: bool
) -> np.ndarray:
    hindering = np.asarray(hindering, dtype=bool)
    cells = crossed[hindering[crossed]]
    return np.append(cells, b) if include_target and hindering[b] else cells


def _padded(rows: list[np.ndarray], width: int) -> tuple[np.ndarray, np.ndarray]:
    # int32: offsets stay within +-2 * n_cells, and the table is the biggest a board keeps
    table = np.zeros((len(rows), max(width, 1)), dtype=np.int32)
    valid = np.zeros(table.shape, dtype=bool)
    for i, row in enumerate(rows):
        table[i, : len(row)] = row
        valid[i, : len(row)] = True
    return table, valid


class SquareSightTable:
    """Line of fire for every pair of squares of one map, over its static terrain.

    ``blocking`` (bool[n_cells]) is the static blocking terrain; by default every non-space
    blocks. Rows of the static table are computed on first use; :meth:`static_matrix` fills
    all of them. Figures are checked at run time through :meth:`clear` / :meth:`clear_from`.
    The static table bakes in the board's walls; for walls that break in play (HC-5.16) use
    the per-line geometry (:meth:`crossed_rows`, :meth:`touched_edge_rows`) with a dynamic
    wall mask, as :class:`envs.core.firelines.FireLines` does, rather than rebuilding it.
    """

    def __init__(self, board: Board, blocking: np.ndarray | None = None) -> None:
        require_topology(board, square=True)
        n = board.n_cells
        self.board = board
        self.blocking = (
            ~board.exists if blocking is None else np.asarray(blocking, dtype=bool).copy()
        )
        if self.blocking.shape != (n,):
            raise ValueError(f"blocking mask has shape {self.blocking.shape}, expected ({n},)")
        self.blocking.setflags(write=False)
        height, width = board.height, board.width
        self._span = 2 * width - 1
        shapes = [
            _line_shape(dr, dc)
            for dr in range(-(height - 1), height)
            for dc in range(-(width - 1), width)
        ]
        # Per offset, flat offsets of crossed squares and of touched edge ids from the start.
        self._cell_rel, self._cell_valid = _padded(
            [s.cells[:, 0].astype(np.int32) * width + s.cells[:, 1] for s in shapes],
            max(len(s.cells) for s in shapes),
        )
        self._edge_rel, self._edge_valid = _padded(
            [
                s.edges[:, 0].astype(np.int32) * n
                + s.edges[:, 1].astype(np.int32) * width
                + s.edges[:, 2]
                for s in shapes
            ],
            max(len(s.edges) for s in shapes),
        )
        self._walls = _wall_edge_mask(board)
        self._rows, self._cols = np.divmod(np.arange(n), width)
        self._static = np.zeros((n, n), dtype=bool)
        self._wall_touch = np.zeros((n, n), dtype=bool)
        self._done = np.zeros(n, dtype=bool)

    def _offset_ids(self, a: int, b: np.ndarray | int) -> np.ndarray:
        ra, ca = self.board.rc(a)
        return (self._rows[b] - ra + self.board.height - 1) * self._span + (
            self._cols[b] - ca + self.board.width - 1
        )

    def offset_tables(
        self,
    ) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
        """((crossed, crossed_count), (touched, touched_count)): per offset between two
        squares (:meth:`crossed_rows`' order), the crossed squares and the touched edge ids
        relative to the start, each row's first ``count`` entries valid (int32)."""
        return (
            (self._cell_rel, self._cell_valid.sum(axis=1).astype(np.int32)),
            (self._edge_rel, self._edge_valid.sum(axis=1).astype(np.int32)),
        )

    def _crossed_rows(self, a: int) -> np.ndarray:
        """int32[n, L]: crossed squares from ``a`` to every square, padded with ``n_cells``."""
        return self.crossed_rows(a, np.arange(self.board.n_cells))

    def crossed_rows(self, a: int, targets: np.ndarray) -> np.ndarray:
        """int32[k, L]: per target, the squares whose interior the line from ``a`` crosses
        (ends excluded, ordered from ``a``), padded on the right with ``n_cells``."""
        ids = self._offset_ids(a, targets)
        return np.where(self._cell_valid[ids], a + self._cell_rel[ids], self.board.n_cells)

    def touched_edge_rows(self, a: int, targets: np.ndarray) -> np.ndarray:
        """int32[k, E]: per target, the :func:`square_edge_id` of every cell edge (wall or
        not) the closed line from ``a`` touches, end points included (HC-4.17), padded on
        the right with ``2 * n_cells``."""
        ids = self._offset_ids(a, targets)
        return np.where(self._edge_valid[ids], a + self._edge_rel[ids], 2 * self.board.n_cells)

    def touched_edges(self, a: int, b: int) -> np.ndarray:
        """The :func:`square_edge_id` of every cell edge the line a->b touches."""
        i = int(self._offset_ids(a, b))
        return a + self._edge_rel[i, self._edge_valid[i]]

    def _ensure(self, a: int) -> None:
        if self._done[a]:
            return
        n = self.board.n_cells
        if self._walls.any():
            edges = self.touched_edge_rows(a, np.arange(n))
            self._wall_touch[a] = self._walls[edges].any(axis=1)
        padded = np.append(self.blocking, False)
        self._static[a] = ~self._wall_touch[a] & ~padded[self._crossed_rows(a)].any(axis=1)
        self._done[a] = True

    def crossed(self, a: int, b: int) -> np.ndarray:
        """Squares whose interior the line a->b crosses, ordered from ``a`` (ends excluded)."""
        i = int(self._offset_ids(a, b))
        return a + self._cell_rel[i, self._cell_valid[i]]

    def touches_wall(self, a: int, b: int) -> bool:
        """Whether the line a->b touches a wall (wall end points included)."""
        self._ensure(a)
        return bool(self._wall_touch[a, b])

    def static_clear(self, a: int) -> np.ndarray:
        """bool[n]: lines from ``a`` clear of walls and static blocking terrain (read-only)."""
        self._ensure(a)
        row = self._static[a]
        row.setflags(write=False)
        return row

    def static_matrix(self) -> np.ndarray:
        """bool[n, n] static line of fire between every pair of squares (a copy)."""
        for a in range(self.board.n_cells):
            self._ensure(a)
        return self._static.copy()

    def clear(self, a: int, b: int, occupied: np.ndarray | None = None) -> bool:
        """Line of fire a->b given squares ``occupied`` by blocking figures (bool[n]).

        The attacker's and target's own squares are never crossed, so they need not be
        cleared from ``occupied``.
        """
        self._ensure(a)
        if not self._static[a, b]:
            return False
        return occupied is None or not bool(np.asarray(occupied)[self.crossed(a, b)].any())

    def clear_from(self, a: int, occupied: np.ndarray | None = None) -> np.ndarray:
        """bool[n]: line of fire from ``a`` to every square given ``occupied`` squares."""
        row = self.static_clear(a).copy()
        if occupied is not None:
            padded = np.append(np.asarray(occupied, dtype=bool), False)
            row &= ~padded[self._crossed_rows(a)].any(axis=1)
        return row

    def hindering(
        self, a: int, b: int, hindering: np.ndarray, include_target: bool = False
    ) -> np.ndarray:
        """Crossed squares marked in ``hindering``; see :func:`square_hindering_cells`."""
        return _hindering(self.crossed(a, b), b, hindering, include_target)
