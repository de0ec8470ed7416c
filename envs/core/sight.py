"""Line of fire on square boards and 3-D line of sight on hex boards with levels.

Square boards (HeroClix HC-4.17, HC-5.11, HC-3.13)
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
    static blocking terrain of one map, leaving only figures to check at run time.

Hex boards (Heroscape HS-10.4)
    Each space is a solid hexagonal prism from the ground to its level; figures are vertical
    cylinders; sight is clear when at least one eye-to-target segment misses the interior of
    every prism and every other figure. See :class:`HexSightConfig` and :class:`HexSight`.
"""

from __future__ import annotations

import functools
import math
import weakref
from dataclasses import dataclass
from typing import Iterable, NamedTuple, Sequence

import numpy as np

from .board import Board, Topology

__all__ = [
    "SquareLine", "square_line_cells", "square_line_of_fire", "square_hindering_cells",
    "SquareSightTable", "HexSightConfig", "HexSight", "hex_line_of_sight",
]


# ---------------------------------------------------------------------------------------------
# Square boards
# ---------------------------------------------------------------------------------------------

class SquareLine(NamedTuple):
    """The squares a centre-to-centre line crosses (ordered from the start) and wall contact."""

    cells: np.ndarray  # int64[k], excludes both end squares
    touches_wall: bool


def _require(board: Board, square: bool) -> None:
    is_square = board.topology is not Topology.HEX
    if is_square != square:
        kind = "square" if square else "hex"
        raise ValueError(f"this sight function needs a {kind} board, got {board.topology.value}")


# Edge kinds: a VERTICAL edge lies between (r, c) and (r, c+1), a HORIZONTAL one between
# (r, c) and (r+1, c); either is named by its kind and its (r, c) cell.
_VERTICAL, _HORIZONTAL = 0, 1


class _LineShape(NamedTuple):
    """What the line from (0,0) to (dr,dc) meets, as offsets from its start."""

    cells: np.ndarray  # int64[k, 2] (d_row, d_col) of crossed squares, in order along the line
    edges: np.ndarray  # int64[e, 3] (kind, d_row, d_col) of closed edges it touches


@functools.lru_cache(maxsize=None)
def _line_shape(dr: int, dc: int) -> _LineShape:
    """Crossed squares and touched edges of the line from (0,0) to (dr,dc), exactly.

    Only squares and edges inside the bounding box of the two ends can be met (anything
    else lies beyond the line's x- or y-extent). A square in the box is crossed exactly when
    the infinite line has corners of the square strictly on both sides.
    """
    rows, cols = np.meshgrid(np.arange(min(0, dr), max(0, dr) + 1),
                             np.arange(min(0, dc), max(0, dc) + 1), indexing="ij")
    rows, cols = rows.ravel(), cols.ravel()
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
    cells = np.stack([r[order], c[order]], axis=1).astype(np.int64)

    vertical = cols < max(0, dc)  # edge to the right stays in the box
    horizontal = rows < max(0, dr)
    kind = np.concatenate([np.full(vertical.sum(), _VERTICAL), np.full(horizontal.sum(), _HORIZONTAL)])
    er = np.concatenate([rows[vertical], rows[horizontal]])
    ec = np.concatenate([cols[vertical], cols[horizontal]])
    is_v = kind == _VERTICAL
    px = np.where(is_v, 2 * ec + 1, 2 * ec - 1)
    py = np.where(is_v, 2 * er - 1, 2 * er + 1)
    qx, qy = 2 * ec + 1, 2 * er + 1
    touched = _segments_meet(0, 0, dx, dy, px, py, qx, qy)
    edges = np.stack([kind[touched], er[touched], ec[touched]], axis=1).astype(np.int64)
    for array in (cells, edges):
        array.setflags(write=False)
    return _LineShape(cells, edges.reshape(-1, 3))


def _segments_meet(ax, ay, bx, by, px, py, qx, qy) -> np.ndarray:
    """Do closed segments A-B and P-Q meet? Exact on integers; broadcasts."""
    def orient(ox, oy, ux, uy, vx, vy):
        return np.sign((ux - ox) * (vy - oy) - (uy - oy) * (vx - ox))

    o1, o2 = orient(ax, ay, bx, by, px, py), orient(ax, ay, bx, by, qx, qy)
    o3, o4 = orient(px, py, qx, qy, ax, ay), orient(px, py, qx, qy, bx, by)
    # The bounding-box overlap settles the all-collinear case; otherwise the signs decide.
    boxes = ((min(ax, bx) <= np.maximum(px, qx)) & (max(ax, bx) >= np.minimum(px, qx))
             & (min(ay, by) <= np.maximum(py, qy)) & (max(ay, by) >= np.minimum(py, qy)))
    return (o1 * o2 <= 0) & (o3 * o4 <= 0) & boxes


_WALL_MASKS: "weakref.WeakKeyDictionary[Board, np.ndarray]" = weakref.WeakKeyDictionary()


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


def _edge_ids(board: Board, a: int, edges: np.ndarray) -> np.ndarray:
    return edges[:, 0] * board.n_cells + a + edges[:, 1] * board.width + edges[:, 2]


def square_line_cells(board: Board, a: int, b: int) -> SquareLine:
    """Squares whose interior the open line from the centre of ``a`` to the centre of ``b``
    crosses (excluding ``a`` and ``b``, ordered from ``a``), and whether it touches a wall.

    Touching only a corner of a square does not cross it (HC-4.17 default), so a diagonal
    line slips between two squares that meet at a corner. Walls are closed segments: a line
    through a wall's end point touches it. Non-spaces are geometry like any other square.
    """
    _require(board, square=True)
    (ra, ca), (rb, cb) = board.rc(a), board.rc(b)
    shape = _line_shape(rb - ra, cb - ca)
    # Relative flat offsets are safe: everything met lies between the two ends.
    cells = a + shape.cells[:, 0] * board.width + shape.cells[:, 1]
    touch = bool(board.walls) and bool(_wall_edge_mask(board)[_edge_ids(board, a, shape.edges)].any())
    return SquareLine(cells, touch)


def square_line_of_fire(board: Board, a: int, b: int, blocking: np.ndarray) -> bool:
    """True if the line from ``a`` to ``b`` touches no wall and crosses no ``blocking`` square.

    ``blocking`` is bool[n_cells]; the end squares themselves are never checked.
    """
    line = square_line_cells(board, a, b)
    return not line.touches_wall and not bool(np.asarray(blocking)[line.cells].any())


def square_hindering_cells(board: Board, a: int, b: int, hindering: np.ndarray,
                           include_target: bool = False) -> np.ndarray:
    """The crossed squares marked in ``hindering`` (bool[n_cells]), ordered from ``a``.

    HC-5.11 counts the target's square but never the attacker's: pass ``include_target=True``
    to append ``b`` when it is hindering.
    """
    return _hindering(square_line_cells(board, a, b).cells, b, hindering, include_target)


def _hindering(crossed: np.ndarray, b: int, hindering: np.ndarray,
               include_target: bool) -> np.ndarray:
    hindering = np.asarray(hindering, dtype=bool)
    cells = crossed[hindering[crossed]]
    return np.append(cells, b) if include_target and hindering[b] else cells


def _padded(rows: list[np.ndarray], width: int) -> tuple[np.ndarray, np.ndarray]:
    table = np.zeros((len(rows), max(width, 1)), dtype=np.int64)
    valid = np.zeros(table.shape, dtype=bool)
    for i, row in enumerate(rows):
        table[i, :len(row)] = row
        valid[i, :len(row)] = True
    return table, valid


class SquareSightTable:
    """Line of fire for every pair of squares of one map, over its static terrain.

    ``blocking`` (bool[n_cells]) is the static blocking terrain; by default every non-space
    blocks. Rows of the static table are computed on first use; :meth:`static_matrix` fills
    all of them. Figures are checked at run time through :meth:`clear` / :meth:`clear_from`.
    Rebuild the table when static terrain changes (a wall broken by HC-5.16).
    """

    def __init__(self, board: Board, blocking: np.ndarray | None = None) -> None:
        _require(board, square=True)
        n = board.n_cells
        self.board = board
        self.blocking = (~board.exists if blocking is None
                         else np.asarray(blocking, dtype=bool).copy())
        if self.blocking.shape != (n,):
            raise ValueError(f"blocking mask has shape {self.blocking.shape}, expected ({n},)")
        self.blocking.setflags(write=False)
        height, width = board.height, board.width
        self._span = 2 * width - 1
        shapes = [_line_shape(dr, dc) for dr in range(-(height - 1), height)
                  for dc in range(-(width - 1), width)]
        # Per offset, flat offsets of crossed squares and of touched edge ids from the start.
        self._cell_rel, self._cell_valid = _padded(
            [s.cells[:, 0] * width + s.cells[:, 1] for s in shapes],
            max(len(s.cells) for s in shapes))
        self._edge_rel, self._edge_valid = _padded(
            [s.edges[:, 0] * n + s.edges[:, 1] * width + s.edges[:, 2] for s in shapes],
            max(len(s.edges) for s in shapes))
        self._walls = _wall_edge_mask(board)
        self._rows, self._cols = np.divmod(np.arange(n), width)
        self._static = np.zeros((n, n), dtype=bool)
        self._wall_touch = np.zeros((n, n), dtype=bool)
        self._done = np.zeros(n, dtype=bool)

    def _offset_ids(self, a: int, b: np.ndarray | int) -> np.ndarray:
        ra, ca = self.board.rc(a)
        return ((self._rows[b] - ra + self.board.height - 1) * self._span
                + (self._cols[b] - ca + self.board.width - 1))

    def _crossed_rows(self, a: int) -> np.ndarray:
        """int64[n, L]: crossed squares from ``a`` to every square, padded with ``n_cells``."""
        ids = self._offset_ids(a, np.arange(self.board.n_cells))
        return np.where(self._cell_valid[ids], a + self._cell_rel[ids], self.board.n_cells)

    def _ensure(self, a: int) -> None:
        if self._done[a]:
            return
        n = self.board.n_cells
        if self._walls.any():
            ids = self._offset_ids(a, np.arange(n))
            edges = np.where(self._edge_valid[ids], a + self._edge_rel[ids], 2 * n)
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

    def hindering(self, a: int, b: int, hindering: np.ndarray,
                  include_target: bool = False) -> np.ndarray:
        """Crossed squares marked in ``hindering``; see :func:`square_hindering_cells`."""
        return _hindering(self.crossed(a, b), b, hindering, include_target)


# ---------------------------------------------------------------------------------------------
# Hex boards with levels
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HexSightConfig:
    """Scales of the HS-10.4 3-D sight model. Horizontal lengths are in hex spacings
    (adjacent centres 1.0 apart); heights and vertical offsets are in levels."""

    level_height: float = 1.0 / 6.0
    """Height of one level in hex spacings (an estimate in the rules). Every other vertical
    quantity here is in levels, so on its own this only rescales z and changes no result;
    it gives the model true proportions for anything later measured in hex spacings."""
    prism_inradius: float = 0.5
    """Centre-to-edge distance of a terrain prism; 0.5 makes neighbouring prisms touch."""
    figure_radius: float = 0.3
    """Radius of the cylinder standing for a figure."""
    single_height: float = 5.0
    """Height in levels of a single-space figure without a card Height."""
    double_height: float = 6.0
    """Height in levels of a double-space figure without a card Height."""
    eye_below_top: float = 0.5
    """The eye sits this many levels below the top of the attacker's cylinder."""
    target_above_base: float = 0.5
    """Lowest target sample point, in levels above the target's base (the others are the
    middle of the figure and ``target_below_top`` under its top)."""
    target_below_top: float = 0.5
    tolerance: float = 1e-9
    """Solids are shrunk by this much, so lines that only graze a surface never block."""

    def __post_init__(self) -> None:
        for name in ("level_height", "prism_inradius", "figure_radius", "single_height",
                     "double_height"):
            if not getattr(self, name) > 0:
                raise ValueError(f"HexSightConfig.{name} must be positive, got {getattr(self, name)}")
        if self.tolerance < 0:
            raise ValueError(f"HexSightConfig.tolerance must be >= 0, got {self.tolerance}")

    def default_height(self, n_spaces: int) -> float:
        return self.double_height if n_spaces == 2 else self.single_height


# Unit normals of the three pairs of parallel edges of a pointy-top hexagon.
_HEX_NORMALS = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in (0, 60, 120))
_CIRCUMRADIUS_PER_INRADIUS = 2.0 / math.sqrt(3.0)

Figure = tuple[int, float | None, float | None]  # (cell, base level, height in levels)


def _z_overlap(ez, dz, t_lo, t_hi, bottom, top, tol) -> np.ndarray:
    """Does the segment's z over the open interval (t_lo, t_hi) overlap (bottom, top)?"""
    # Clipping keeps empty intervals empty and avoids inf * 0 on parallel segments.
    t_lo, t_hi = np.clip(t_lo, 0.0, 1.0), np.clip(t_hi, 0.0, 1.0)
    z0, z1 = ez + t_lo * dz, ez + t_hi * dz
    return ((t_lo < t_hi) & (np.minimum(z0, z1) < top - tol)
            & (np.maximum(z0, z1) > bottom + tol))


def _hit_prisms(start: np.ndarray, delta: np.ndarray, centres: np.ndarray, top: np.ndarray,
                inradius: float, tol: float) -> np.ndarray:
    """bool[S, m]: segment s enters the interior of hex prism j (ground to ``top[j]``)?

    In the xy plane a hexagon is three slabs |p . n_k| < inradius; clipping the segment's
    parameter against each slab gives the open interval spent over the hexagon.
    """
    r = inradius - tol
    t_lo = np.zeros((start.shape[0], centres.shape[0]))
    t_hi = np.ones_like(t_lo)
    for nx, ny in _HEX_NORMALS:
        s0 = ((start[:, 0, None] - centres[None, :, 0]) * nx
              + (start[:, 1, None] - centres[None, :, 1]) * ny)
        ds = (delta[:, 0] * nx + delta[:, 1] * ny)[:, None]
        parallel = np.abs(ds) < 1e-15
        inside = np.abs(s0) < r
        with np.errstate(divide="ignore", invalid="ignore"):
            t1 = (-r - s0) / ds
            t2 = (r - s0) / ds
        t_lo = np.maximum(t_lo, np.where(parallel, np.where(inside, -np.inf, np.inf),
                                         np.minimum(t1, t2)))
        t_hi = np.minimum(t_hi, np.where(parallel, np.where(inside, np.inf, -np.inf),
                                         np.maximum(t1, t2)))
    return _z_overlap(start[:, 2, None], delta[:, 2, None], t_lo, t_hi, 0.0, top[None, :], tol)


def _hit_cylinders(start: np.ndarray, delta: np.ndarray, centres: np.ndarray,
                   bottom: np.ndarray, top: np.ndarray, radius: float, tol: float) -> np.ndarray:
    """bool[S, k]: segment s enters the interior of vertical cylinder j?"""
    r = radius - tol
    fx = start[:, 0, None] - centres[None, :, 0]
    fy = start[:, 1, None] - centres[None, :, 1]
    a = (delta[:, 0] ** 2 + delta[:, 1] ** 2)[:, None]
    b = 2.0 * (delta[:, 0, None] * fx + delta[:, 1, None] * fy)
    c = fx ** 2 + fy ** 2 - r ** 2
    vertical = a < 1e-15
    disc = b ** 2 - 4.0 * a * c
    root = np.sqrt(np.maximum(disc, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = np.where(vertical, np.where(c < 0, 0.0, np.inf), (-b - root) / (2.0 * a))
        t2 = np.where(vertical, np.where(c < 0, 1.0, -np.inf), (-b + root) / (2.0 * a))
    t2 = np.where(~vertical & (disc <= 0), -np.inf, t2)
    return _z_overlap(start[:, 2, None], delta[:, 2, None], t1, t2,
                      bottom[None, :], top[None, :], tol)


class HexSight:
    """HS-10.4 line of sight on one hex board, with terrain results cached per geometry.

    Terrain: every space is a solid prism from the ground (z=0) to ``level * level_height``;
    missing spaces are empty air (HS-10.4: sight may pass outside the battlefield). The
    attacker's and target's own columns are ordinary solid terrain too: the eye and the
    target points stand above their own column tops (a figure's base is its space's level),
    so a segment starts and ends outside them, yet a steep line down past the edge of the
    attacker's own cliff, or up into the side of the target's column, is blocked by it, as
    the models would be. Figures are vertical cylinders from base to base + height.
    """

    def __init__(self, board: Board, config: HexSightConfig = HexSightConfig(),
                 cache_size: int = 1 << 16) -> None:
        _require(board, square=False)
        self.board = board
        self.config = config
        self._centres = board.centers()
        tops = board.level.astype(np.float64) * config.level_height
        solid = board.exists & (tops > 0)
        self._prism_xy = self._centres[solid]
        self._prism_top = tops[solid]
        self._reach = config.prism_inradius * _CIRCUMRADIUS_PER_INRADIUS
        self._cache: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._cache_size = cache_size

    def _figure(self, cells: int | Sequence[int], base: float | None, height: float | None,
                role: str) -> tuple[tuple[int, ...], float | None, float]:
        """Normalised (cells, base, height) of the attacker or the target."""
        cells = (int(cells),) if isinstance(cells, (int, np.integer)) else tuple(map(int, cells))
        if len(cells) not in (1, 2):
            raise ValueError(f"{role} must occupy one or two spaces, got {cells}")
        height = self.config.default_height(len(cells)) if height is None else float(height)
        return cells, None if base is None else float(base), height

    def _base(self, cells: Sequence[int], base: float | None) -> list[float]:
        return [float(self.board.level[c]) if base is None else float(base) for c in cells]

    def _terrain(self, attacker: tuple[int, ...], a_base: float | None, a_height: float,
                 target: tuple[int, ...], t_base: float | None, t_height: float):
        """Segments (start, delta) that clear terrain, for one attacker/target geometry."""
        key = (attacker, a_base, a_height, target, t_base, t_height)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        cfg, lh = self.config, self.config.level_height
        eyes = [(*self._centres[c], (b + a_height - cfg.eye_below_top) * lh)
                for c, b in zip(attacker, self._base(attacker, a_base))]
        offsets = (cfg.target_above_base, t_height / 2.0, t_height - cfg.target_below_top)
        points = [(*self._centres[c], (b + o) * lh)
                  for c, b in zip(target, self._base(target, t_base)) for o in offsets]
        start = np.array([e for e in eyes for _ in points], dtype=np.float64)
        delta = np.array([p for _ in eyes for p in points], dtype=np.float64) - start
        # Only prisms near the segments' xy box and reaching above their lowest point matter.
        ends = np.concatenate([start, start + delta])
        lo, hi = ends[:, :2].min(axis=0) - self._reach, ends[:, :2].max(axis=0) + self._reach
        near = ((self._prism_xy >= lo) & (self._prism_xy <= hi)).all(axis=1)
        near &= self._prism_top > ends[:, 2].min()
        if near.any():
            blocked = _hit_prisms(start, delta, self._prism_xy[near], self._prism_top[near],
                                  cfg.prism_inradius, cfg.tolerance).any(axis=1)
            result = (start[~blocked], delta[~blocked])
        else:  # nothing tall enough nearby: every segment clears the terrain
            result = (start, delta)
        if len(self._cache) >= self._cache_size:
            self._cache.clear()
        self._cache[key] = result
        return result

    def clear(self, attacker_cells: int | Sequence[int], attacker_base_level: float | None,
              attacker_height: float | None, target_cells: int | Sequence[int],
              target_base_level: float | None, target_height: float | None,
              other_figures: Iterable[Figure] = ()) -> bool:
        """True if the attacker can see the target (HS-10.4).

        Cells are one space or the two spaces of a double-space figure; a base level of
        ``None`` means "the level of each space", a height of ``None`` the config default.
        ``other_figures`` are (cell, base level, height) cylinders that can block (``None``
        as above, single-space height); give one entry per space of a double-space figure,
        and leave out the attacker and the target.
        """
        attacker, a_base, a_height = self._figure(attacker_cells, attacker_base_level,
                                                  attacker_height, "attacker")
        target, t_base, t_height = self._figure(target_cells, target_base_level, target_height,
                                                "target")
        start, delta = self._terrain(attacker, a_base, a_height, target, t_base, t_height)
        if start.shape[0] == 0:
            return False
        figures = list(other_figures)
        if not figures:
            return True
        cells = np.array([f[0] for f in figures], dtype=np.int64)
        # Only figures whose discs can touch the segments' xy box can block them.
        ends_xy = np.concatenate([start[:, :2], start[:, :2] + delta[:, :2]])
        reach = self.config.figure_radius
        centres = self._centres[cells]
        near = ((centres >= ends_xy.min(axis=0) - reach) & (centres <= ends_xy.max(axis=0) + reach)).all(axis=1)
        if not near.any():
            return True
        figures = [f for f, keep in zip(figures, near.tolist()) if keep]
        cells = cells[near]
        bases = np.array([self.board.level[f[0]] if f[1] is None else f[1] for f in figures],
                         dtype=np.float64)
        heights = np.array([self.config.single_height if f[2] is None else f[2]
                            for f in figures], dtype=np.float64)
        lh = self.config.level_height
        blocked = _hit_cylinders(start, delta, self._centres[cells], bases * lh,
                                 (bases + heights) * lh, self.config.figure_radius,
                                 self.config.tolerance).any(axis=1)
        return bool((~blocked).any())


    def blockers(self, attacker_cells: int | Sequence[int], attacker_height: float | None,
                 target_cells: int | Sequence[int], target_height: float | None,
                 blocker_heights: tuple[float, ...]) -> "SightBlockers":
        """Precomputed figure blocking for one attacker/target geometry (figures standing on
        their spaces): which of the terrain-clear sight segments a figure of each height in
        ``blocker_heights`` would block on each nearby space. Cached; see
        :meth:`SightBlockers.clear` for the run-time test, which is a few integer ORs.
        """
        attacker, _, a_height = self._figure(attacker_cells, None, attacker_height, "attacker")
        target, _, t_height = self._figure(target_cells, None, target_height, "target")
        key = ("blockers", attacker, a_height, target, t_height, blocker_heights)
        hit = self._cache.get(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        if len(attacker) == 1 and len(target) == 1:
            # One pass from this space to every space fills the cache for all of them.
            self._blockers_from(attacker[0], a_height, t_height, blocker_heights)
            return self._cache[key]  # type: ignore[return-value]
        start, delta = self._terrain(attacker, None, a_height, target, None, t_height)
        masks: dict[int, tuple[int, ...]] = {}
        if start.shape[0]:
            ends_xy = np.concatenate([start[:, :2], start[:, :2] + delta[:, :2]])
            reach = self.config.figure_radius
            near = ((self._centres >= ends_xy.min(axis=0) - reach)
                    & (self._centres <= ends_xy.max(axis=0) + reach)).all(axis=1) & self.board.exists
            near[list(attacker) + list(target)] = False
            cells = np.flatnonzero(near)
            if cells.size:
                lh = self.config.level_height
                bases = self.board.level[cells].astype(np.float64)
                weights = 1 << np.arange(start.shape[0], dtype=np.int64)
                per_height = []
                for height in blocker_heights:
                    blocked = _hit_cylinders(start, delta, self._centres[cells], bases * lh,
                                             (bases + height) * lh, self.config.figure_radius,
                                             self.config.tolerance)
                    per_height.append((blocked.T * weights).sum(axis=1).tolist())
                for j, cell in enumerate(cells.tolist()):
                    row = tuple(int(bits[j]) for bits in per_height)
                    if any(row):
                        masks[cell] = row
        table = SightBlockers((1 << start.shape[0]) - 1, masks)
        if len(self._cache) >= self._cache_size:
            self._cache.clear()
        self._cache[key] = table  # type: ignore[assignment]
        return table


    def _blockers_from(self, attacker: int, a_height: float, t_height: float,
                       blocker_heights: tuple[float, ...]) -> None:
        """:meth:`blockers` for one single-space attacker against every single-space target
        at once (the same segment tests, batched over targets)."""
        cfg, lh = self.config, self.config.level_height
        targets = [int(c) for c in self.board.spaces() if c != attacker]
        eye = np.array([*self._centres[attacker],
                        (self.board.level[attacker] + a_height - cfg.eye_below_top) * lh])
        offsets = np.array([cfg.target_above_base, t_height / 2.0, t_height - cfg.target_below_top])
        n_points = offsets.size
        centres = self._centres[targets]
        levels = self.board.level[targets].astype(np.float64)
        points = np.empty((len(targets), n_points, 3))
        points[:, :, :2] = centres[:, None, :]
        points[:, :, 2] = (levels[:, None] + offsets[None, :]) * lh
        delta = points.reshape(-1, 3) - eye
        start = np.broadcast_to(eye, delta.shape)
        terrain_blocked = _hit_prisms(start, delta, self._prism_xy, self._prism_top,
                                      cfg.prism_inradius, cfg.tolerance).any(axis=1)
        clear_bits = (~terrain_blocked).reshape(len(targets), n_points) @ (1 << np.arange(n_points))
        cells = self.board.spaces()
        cells = cells[cells != attacker]
        bases = self.board.level[cells].astype(np.float64)
        weights = 1 << np.arange(n_points, dtype=np.int64)
        per_height = []
        for height in blocker_heights:
            blocked = _hit_cylinders(start, delta, self._centres[cells], bases * lh,
                                     (bases + height) * lh, cfg.figure_radius, cfg.tolerance)
            blocked &= ~terrain_blocked[:, None]
            per_height.append((blocked.reshape(len(targets), n_points, -1)
                               * weights[None, :, None]).sum(axis=1))  # [targets, cells]
        stacked = np.stack(per_height, axis=-1)  # [targets, cells, heights]
        any_bits = stacked.any(axis=-1)
        cell_list = cells.tolist()
        if len(self._cache) + len(targets) >= self._cache_size:
            self._cache.clear()
        for i, target in enumerate(targets):
            row = any_bits[i].copy()
            row[cell_list.index(target)] = False  # the target never blocks itself
            masks = {cell_list[j]: tuple(int(b) for b in stacked[i, j]) for j in np.flatnonzero(row)}
            key = ("blockers", (attacker,), a_height, (target,), t_height, blocker_heights)
            self._cache[key] = SightBlockers(int(clear_bits[i]), masks)  # type: ignore[assignment]


class SightBlockers(NamedTuple):
    """Sight segments that clear the terrain (bits of ``clear_segments``) and, per space,
    the segments a figure standing there blocks, one bitmask per blocker height."""

    clear_segments: int
    masks: dict[int, tuple[int, ...]]

    def clear(self, figures: Iterable[tuple[int, int]]) -> bool:
        """True if some segment survives the figures given as (space, height index)."""
        remaining = self.clear_segments
        masks = self.masks
        for cell, height_index in figures:
            row = masks.get(cell)
            if row is not None:
                remaining &= ~row[height_index]
                if not remaining:
                    return False
        return remaining != 0


_HEX_SIGHT_CACHE: "weakref.WeakKeyDictionary[Board, dict[HexSightConfig, HexSight]]" = \
    weakref.WeakKeyDictionary()


def hex_line_of_sight(board: Board, config: HexSightConfig,
                      attacker_cells: int | Sequence[int], attacker_base_level: float | None,
                      attacker_height: float | None, target_cells: int | Sequence[int],
                      target_base_level: float | None, target_height: float | None,
                      other_figures: Iterable[Figure] = ()) -> bool:
    """HS-10.4 line of sight; see :meth:`HexSight.clear`. Reuses one :class:`HexSight` per
    (board, config), so repeated calls share its terrain cache."""
    per_board = _HEX_SIGHT_CACHE.setdefault(board, {})
    sight = per_board.get(config)
    if sight is None:
        sight = per_board[config] = HexSight(board, config)
    return sight.clear(attacker_cells, attacker_base_level, attacker_height, target_cells,
                       target_base_level, target_height, other_figures)
