"""HS-10.4 sight tables built one attacker/target pair at a time, compiled.

``HexSight.blockers`` (core) answers a single-space pair by computing that attacker space
against every space of the map in one numpy batch, some 40 ms on the 227-space highlands.
A game asks only a few thousand distinct pairs, most of them once, so on a big map the
first few hundred games spent most of their time filling batches they barely used.
:class:`PairSight` builds exactly the table ``HexSight.blockers`` returns (the same
:class:`~envs.core.hexsight.SightBlockers`, equal field for field) for the asked pair alone,
in a few microseconds: the same segments, the same candidate prisms and cylinders (all of
them for two single spaces, as the batch does; those near the segments otherwise, as the
pair path does), and the same floating-point operations in the same order, one segment
and solid at a time. ``tests/heroscape/test_sight.py`` checks the tables against core's.
"""

from __future__ import annotations

import math

import numpy as np

from envs.core.compiled import kernel, kernel_helper

from .hexsight import _CIRCUMRADIUS_PER_INRADIUS, _HEX_NORMALS, HexSight, SightBlockers

_NORMALS = np.array(_HEX_NORMALS, dtype=np.float64)


@kernel_helper
def _z_overlap(ez, dz, t_lo, t_hi, bottom, top, tol):
    # core.hexsight._z_overlap for one segment and one solid
    t_lo = min(max(t_lo, 0.0), 1.0)
    t_hi = min(max(t_hi, 0.0), 1.0)
    z0 = ez + t_lo * dz
    z1 = ez + t_hi * dz
    return t_lo < t_hi and min(z0, z1) < top - tol and max(z0, z1) > bottom + tol


@kernel_helper
def _prism_span(sx, sy, dx, dy, cx, cy, r):
    # core.hexsight._hit_prisms in the plane, for one segment and one prism (r: the shrunk
    # inradius): the parameter interval spent over the hexagon
    t_lo = 0.0
    t_hi = 1.0
    for k in range(3):
        nx = _NORMALS[k, 0]
        ny = _NORMALS[k, 1]
        s0 = (sx - cx) * nx + (sy - cy) * ny
        ds = dx * nx + dy * ny
        if abs(ds) < 1e-15:  # parallel to the slab: all inside it or none
            inside = abs(s0) < r
            lo = -np.inf if inside else np.inf
            hi = np.inf if inside else -np.inf
        else:
            t1 = (-r - s0) / ds
            t2 = (r - s0) / ds
            lo = min(t1, t2)
            hi = max(t1, t2)
        t_lo = max(t_lo, lo)
        t_hi = min(t_hi, hi)
    return t_lo, t_hi


@kernel_helper
def _cylinder_span(sx, sy, dx, dy, cx, cy, r2):
    # core.hexsight._hit_cylinders in the plane, for one segment and one cylinder (r2: the
    # shrunk radius squared)
    fx = sx - cx
    fy = sy - cy
    a = dx * dx + dy * dy
    b = 2.0 * (dx * fx + dy * fy)
    c = fx * fx + fy * fy - r2
    disc = b * b - 4.0 * a * c
    root = math.sqrt(max(disc, 0.0))
    if a < 1e-15:  # a vertical segment: inside the disc all along or never
        return (0.0, 1.0) if c < 0 else (np.inf, -np.inf)
    t2 = -np.inf if disc <= 0 else (-b + root) / (2.0 * a)
    return (-b - root) / (2.0 * a), t2


@kernel_helper
def _same_xy(start, delta):
    """Per segment, whether its projection is the previous one's: the target points above
    one space share it, and the plane part of each test is done once for them."""
    same = np.zeros(start.shape[0], dtype=np.bool_)
    for s in range(1, start.shape[0]):
        same[s] = (
            start[s, 0] == start[s - 1, 0]
            and start[s, 1] == start[s - 1, 1]
            and delta[s, 0] == delta[s - 1, 0]
            and delta[s, 1] == delta[s - 1, 1]
        )
    return same


@kernel(
    "boolean[::1]("
    "float64[:, ::1], float64[:, ::1], float64[:, ::1], float64[::1], boolean[::1], "
    "float64, float64)"
)
def _terrain_blocked(start, delta, prism_xy, prism_top, near, r, tol):
    """bool[S]: segment s enters a prism ``near`` marks."""
    same = _same_xy(start, delta)
    blocked = np.zeros(start.shape[0], dtype=np.bool_)
    t_lo, t_hi = 0.0, 0.0
    for j in range(prism_xy.shape[0]):
        if not near[j]:
            continue
        for s in range(start.shape[0]):
            if not same[s]:
                t_lo, t_hi = _prism_span(
                    start[s, 0], start[s, 1], delta[s, 0], delta[s, 1],
                    prism_xy[j, 0], prism_xy[j, 1], r,
                )  # fmt: skip
            if not blocked[s] and _z_overlap(
                start[s, 2], delta[s, 2], t_lo, t_hi, 0.0, prism_top[j], tol
            ):
                blocked[s] = True
    return blocked


@kernel(
    "int64[:, ::1]("
    "float64[:, ::1], float64[:, ::1], int64[::1], int64[::1], float64[:, ::1], "
    "int64[::1], float64[::1], float64[::1], float64, float64, float64)"
)
def _cylinder_bits(start, delta, segments, bit, centres, cells, bases, heights, lh, r2, tol):
    """int64[C, H]: per candidate cell and blocker height, bit ``bit[k]`` set when a figure
    there blocks ``segments[k]``."""
    same = _same_xy(start[segments], delta[segments])
    bits = np.zeros((cells.shape[0], heights.shape[0]), dtype=np.int64)
    t1, t2 = 0.0, 0.0
    for i in range(cells.shape[0]):
        cx, cy = centres[cells[i], 0], centres[cells[i], 1]
        bottom = bases[i] * lh
        for k in range(segments.shape[0]):
            s = segments[k]
            if not same[k]:
                t1, t2 = _cylinder_span(
                    start[s, 0], start[s, 1], delta[s, 0], delta[s, 1], cx, cy, r2
                )
            if not min(max(t1, 0.0), 1.0) < min(max(t2, 0.0), 1.0):
                continue  # misses the disc: no height can block it
            for h in range(heights.shape[0]):
                top = (bases[i] + heights[h]) * lh
                if _z_overlap(start[s, 2], delta[s, 2], t1, t2, bottom, top, tol):
                    bits[i, h] |= np.int64(1) << bit[k]
    return bits


class PairSight:
    """``HexSight.blockers`` of one map, computed for the asked pair only (see the module
    docstring)."""

    def __init__(self, sight: HexSight):
        board, cfg = sight.board, sight.config
        self.config = cfg
        self.centres = board.centers()
        self.level = board.level
        self.bases = board.level.astype(np.float64)
        self.exists = board.exists
        tops = board.level.astype(np.float64) * cfg.level_height
        solid = board.exists & (tops > 0)
        self.prism_xy = np.ascontiguousarray(self.centres[solid])
        self.prism_top = tops[solid]
        self.all_prisms = np.ones(len(self.prism_top), dtype=bool)
        self.prism_reach = cfg.prism_inradius * _CIRCUMRADIUS_PER_INRADIUS
        self.spaces = board.spaces()

    def blockers(
        self,
        attacker: tuple[int, ...],
        a_height: float,
        target: tuple[int, ...],
        t_height: float,
        blocker_heights: tuple[float, ...],
    ) -> SightBlockers:
        cfg, lh = self.config, self.config.level_height
        level, centres = self.level, self.centres
        # The segments as core builds them: every eye to every target point, eye-major.
        eyes = [
            (*centres[c], (float(level[c]) + a_height - cfg.eye_below_top) * lh) for c in attacker
        ]
        offsets = (cfg.target_above_base, t_height / 2.0, t_height - cfg.target_below_top)
        points = [(*centres[c], (float(level[c]) + o) * lh) for c in target for o in offsets]
        start = np.array([e for e in eyes for _ in points], dtype=np.float64)
        delta = np.array([p for _ in eyes for p in points], dtype=np.float64) - start
        tol = cfg.tolerance
        heights = np.array(blocker_heights, dtype=np.float64)
        r2 = (cfg.figure_radius - tol) ** 2
        if len(attacker) == 1 and len(target) == 1:
            return self._single(start, delta, attacker[0], target[0], heights, lh, r2, tol)
        return self._pair(start, delta, attacker + target, heights, lh, r2, tol)

    def _single(self, start, delta, attacker, target, heights, lh, r2, tol) -> SightBlockers:
        """``HexSight._blockers_from``'s table: every prism, every other space, bits over all
        three segments, figure bits only on the segments clear of terrain."""
        cfg = self.config
        blocked = _terrain_blocked(
            start,
            delta,
            self.prism_xy,
            self.prism_top,
            self.all_prisms,
            cfg.prism_inradius - tol,
            tol,
        )
        clear = np.flatnonzero(~blocked)
        cells = self.spaces[(self.spaces != attacker) & (self.spaces != target)]
        bits = _cylinder_bits(
            start, delta, clear, clear, self.centres, cells, self.bases[cells], heights, lh, r2,
            tol,
        )  # fmt: skip
        return SightBlockers(int((1 << clear).sum()), _masks(cells, bits))

    def _pair(self, start, delta, own, heights, lh, r2, tol) -> SightBlockers:
        """``HexSight.blockers``'s pair path: prisms near the segments, the segments clear of
        them renumbered 0.., figures near those."""
        cfg = self.config
        ends = np.concatenate([start, start + delta])
        lo = ends[:, :2].min(axis=0) - self.prism_reach
        hi = ends[:, :2].max(axis=0) + self.prism_reach
        near = ((self.prism_xy >= lo) & (self.prism_xy <= hi)).all(axis=1)
        near &= self.prism_top > ends[:, 2].min()
        blocked = _terrain_blocked(
            start, delta, self.prism_xy, self.prism_top, near, cfg.prism_inradius - tol, tol
        )
        clear = np.flatnonzero(~blocked)
        masks: dict[int, tuple[int, ...]] = {}
        if clear.size:
            ends_xy = np.concatenate([start[clear, :2], start[clear, :2] + delta[clear, :2]])
            reach = cfg.figure_radius
            close = (
                (self.centres >= ends_xy.min(axis=0) - reach)
                & (self.centres <= ends_xy.max(axis=0) + reach)
            ).all(axis=1) & self.exists
            close[list(own)] = False
            cells = np.flatnonzero(close)
            if cells.size:
                renumbered = np.arange(clear.size)
                bits = _cylinder_bits(
                    start, delta, clear, renumbered, self.centres, cells, self.bases[cells],
                    heights, lh, r2, tol,
                )  # fmt: skip
                masks = _masks(cells, bits)
        return SightBlockers((1 << clear.size) - 1, masks)


def _masks(cells: np.ndarray, bits: np.ndarray) -> dict[int, tuple[int, ...]]:
    """SightBlockers.masks: the cells whose figure would block some segment."""
    rows = np.flatnonzero(bits.any(axis=1))
    return dict(zip(cells[rows].tolist(), map(tuple, bits[rows].tolist())))
