"""3-D line of sight on hex boards with levels (Heroscape HS-10.4).

Each space is a solid hexagonal prism from the ground to its level; figures are vertical
cylinders; sight is clear when at least one eye-to-target segment misses the interior of
every prism and every other figure. See :class:`HexSightConfig` and :class:`HexSight`;
:meth:`HexSight.blockers` precomputes per-space figure blocking (:class:`SightBlockers`)
for fast run-time checks. Line of fire on square boards is in :mod:`envs.core.sight`.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, cast

import numpy as np

from .board import Board
from .lru import LRU
from .sight import require_topology

__all__ = ["HexSightConfig", "HexSight", "SightBlockers", "Figure", "hex_line_of_sight"]


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
        for name in (
            "level_height",
            "prism_inradius",
            "figure_radius",
            "single_height",
            "double_height",
        ):
            if not getattr(self, name) > 0:
                raise ValueError(
                    f"HexSightConfig.{name} must be positive, got {getattr(self, name)}"
                )
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
    return (t_lo < t_hi) & (np.minimum(z0, z1) < top - tol) & (np.maximum(z0, z1) > bottom + tol)


def _hit_prisms(
    start: np.ndarray,
    delta: np.ndarray,
    centres: np.ndarray,
    top: np.ndarray,
    inradius: float,
    tol: float,
) -> np.ndarray:
    """bool[S, m]: segment s enters the interior of hex prism j (ground to ``top[j]``)?

    In the xy plane a hexagon is three slabs |p . n_k| < inradius; clipping the segment's
    parameter against each slab gives the open interval spent over the hexagon.
    """
    r = inradius - tol
    t_lo = np.zeros((start.shape[0], centres.shape[0]))
    t_hi = np.ones_like(t_lo)
    for nx, ny in _HEX_NORMALS:
        s0 = (start[:, 0, None] - centres[None, :, 0]) * nx + (
            start[:, 1, None] - centres[None, :, 1]
        ) * ny
        ds = (delta[:, 0] * nx + delta[:, 1] * ny)[:, None]
        parallel = np.abs(ds) < 1e-15
        inside = np.abs(s0) < r
        with np.errstate(divide="ignore", invalid="ignore"):
            t1 = (-r - s0) / ds
            t2 = (r - s0) / ds
        t_lo = np.maximum(
            t_lo, np.where(parallel, np.where(inside, -np.inf, np.inf), np.minimum(t1, t2))
        )
        t_hi = np.minimum(
            t_hi, np.where(parallel, np.where(inside, np.inf, -np.inf), np.maximum(t1, t2))
        )
    return _z_overlap(start[:, 2, None], delta[:, 2, None], t_lo, t_hi, 0.0, top[None, :], tol)


def _hit_cylinders(
    start: np.ndarray,
    delta: np.ndarray,
    centres: np.ndarray,
    bottom: np.ndarray,
    top: np.ndarray,
    radius: float,
    tol: float,
) -> np.ndarray:
    """bool[S, k]: segment s enters the interior of vertical cylinder j?"""
    r = radius - tol
    fx = start[:, 0, None] - centres[None, :, 0]
    fy = start[:, 1, None] - centres[None, :, 1]
    a = (delta[:, 0] ** 2 + delta[:, 1] ** 2)[:, None]
    b = 2.0 * (delta[:, 0, None] * fx + delta[:, 1, None] * fy)
    c = fx**2 + fy**2 - r**2
    vertical = a < 1e-15
    disc = b**2 - 4.0 * a * c
    root = np.sqrt(np.maximum(disc, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = np.where(vertical, np.where(c < 0, 0.0, np.inf), (-b - root) / (2.0 * a))
        t2 = np.where(vertical, np.where(c < 0, 1.0, -np.inf), (-b + root) / (2.0 * a))
    t2 = np.where(~vertical & (disc <= 0), -np.inf, t2)
    return _z_overlap(
        start[:, 2, None], delta[:, 2, None], t1, t2, bottom[None, :], top[None, :], tol
    )


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

    def __init__(
        self, board: Board, config: HexSightConfig = HexSightConfig(), cache_size: int = 1 << 16
    ) -> None:
        require_topology(board, square=False)
        self.board = board
        self.config = config
        self._centres = board.centers()
        tops = board.level.astype(np.float64) * config.level_height
        solid = board.exists & (tops > 0)
        self._prism_xy = self._centres[solid]
        self._prism_top = tops[solid]
        self._reach = config.prism_inradius * _CIRCUMRADIUS_PER_INRADIUS
        # One attacker's space against every target is computed in one batch (an entry per
        # space), so the bound must hold many batches: the games on a 227-space highlands map
        # keep some 50,000 entries busy; an entry is under a kilobyte.
        # Also holds SightBlockers under keys starting with "blockers" (the ignores below):
        # the key's first entry tells the value's type, which a mapping's type cannot say.
        self._cache: LRU[tuple, tuple[np.ndarray, np.ndarray]] = LRU(cache_size)

    def _figure(
        self, cells: int | Sequence[int], base: float | None, height: float | None, role: str
    ) -> tuple[tuple[int, ...], float | None, float]:
        """Normalised (cells, base, height) of the attacker or the target."""
        cells = (int(cells),) if isinstance(cells, (int, np.integer)) else tuple(map(int, cells))
        if len(cells) not in (1, 2):
            raise ValueError(f"{role} must occupy one or two spaces, got {cells}")
        height = self.config.default_height(len(cells)) if height is None else float(height)
        return cells, None if base is None else float(base), height

    def _base(self, cells: Sequence[int], base: float | None) -> list[float]:
        return [float(self.board.level[c]) if base is None else float(base) for c in cells]

    def _terrain(
        self,
        attacker: tuple[int, ...],
        a_base: float | None,
        a_height: float,
        target: tuple[int, ...],
        t_base: float | None,
        t_height: float,
    ):
        """Segments (start, delta) that clear terrain, for one attacker/target geometry."""
        key = (attacker, a_base, a_height, target, t_base, t_height)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        cfg, lh = self.config, self.config.level_height
        eyes = [
            (*self._centres[c], (b + a_height - cfg.eye_below_top) * lh)
            for c, b in zip(attacker, self._base(attacker, a_base))
        ]
        offsets = (cfg.target_above_base, t_height / 2.0, t_height - cfg.target_below_top)
        points = [
            (*self._centres[c], (b + o) * lh)
            for c, b in zip(target, self._base(target, t_base))
            for o in offsets
        ]
        start = np.array([e for e in eyes for _ in points], dtype=np.float64)
        delta = np.array([p for _ in eyes for p in points], dtype=np.float64) - start
        # Only prisms near the segments' xy box and reaching above their lowest point matter.
        ends = np.concatenate([start, start + delta])
        lo, hi = ends[:, :2].min(axis=0) - self._reach, ends[:, :2].max(axis=0) + self._reach
        near = ((self._prism_xy >= lo) & (self._prism_xy <= hi)).all(axis=1)
        near &= self._prism_top > ends[:, 2].min()
        if near.any():
            blocked = _hit_prisms(
                start,
                delta,
                self._prism_xy[near],
                self._prism_top[near],
                cfg.prism_inradius,
                cfg.tolerance,
            ).any(axis=1)
            result = (start[~blocked], delta[~blocked])
        else:  # nothing tall enough nearby: every segment clears the terrain
            result = (start, delta)
        self._cache[key] = result
        return result

    def clear(
        self,
        attacker_cells: int | Sequence[int],
        attacker_base_level: float | None,
        attacker_height: float | None,
        target_cells: int | Sequence[int],
        target_base_level: float | None,
        target_height: float | None,
        other_figures: Iterable[Figure] = (),
    ) -> bool:
        """True if the attacker can see the target (HS-10.4).

        Cells are one space or the two spaces of a double-space figure; a base level of
        ``None`` means "the level of each space", a height of ``None`` the config default.
        ``other_figures`` are (cell, base level, height) cylinders that can block (``None``
        as above, single-space height); give one entry per space of a double-space figure,
        and leave out the attacker and the target.
        """
        attacker, a_base, a_height = self._figure(
            attacker_cells, attacker_base_level, attacker_height, "attacker"
        )
        target, t_base, t_height = self._figure(
            target_cells, target_base_level, target_height, "target"
        )
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
        near = (
            (centres >= ends_xy.min(axis=0) - reach) & (centres <= ends_xy.max(axis=0) + reach)
        ).all(axis=1)
        if not near.any():
            return True
        figures = [f for f, keep in zip(figures, near.tolist()) if keep]
        cells = cells[near]
        bases = np.array(
            [self.board.level[f[0]] if f[1] is None else f[1] for f in figures], dtype=np.float64
        )
        heights = np.array(
            [self.config.single_height if f[2] is None else f[2] for f in figures], dtype=np.float64
        )
        lh = self.config.level_height
        blocked = _hit_cylinders(
            start,
            delta,
            self._centres[cells],
            bases * lh,
            (bases + heights) * lh,
            self.config.figure_radius,
            self.config.tolerance,
        ).any(axis=1)
        return bool((~blocked).any())

    def blockers(
        self,
        attacker_cells: int | Sequence[int],
        attacker_height: float | None,
        target_cells: int | Sequence[int],
        target_height: float | None,
        blocker_heights: tuple[float, ...],
    ) -> SightBlockers:
        """Precomputed figure blocking for one attacker/target geometry (figures standing on
        their spaces): which of the terrain-clear sight segments a figure of each height in
        ``blocker_heights`` would block on each nearby space. Cached; see
        :meth:`SightBlockers.clear_among` for the run-time test, which is a few integer ORs.
        """
        attacker, _, a_height = self._figure(attacker_cells, None, attacker_height, "attacker")
        target, _, t_height = self._figure(target_cells, None, target_height, "target")
        key = ("blockers", attacker, a_height, target, t_height, blocker_heights)
        hit = self._cache.get(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        if len(attacker) == 1 and len(target) == 1:
            # One pass from this space to every space fills the cache for all of them.
            return self._blockers_from(attacker[0], a_height, t_height, blocker_heights, target[0])
        start, delta = self._terrain(attacker, None, a_height, target, None, t_height)
        masks: dict[int, tuple[int, ...]] = {}
        if start.shape[0]:
            ends_xy = np.concatenate([start[:, :2], start[:, :2] + delta[:, :2]])
            reach = self.config.figure_radius
            near = (
                (self._centres >= ends_xy.min(axis=0) - reach)
                & (self._centres <= ends_xy.max(axis=0) + reach)
            ).all(axis=1) & self.board.exists
            near[list(attacker) + list(target)] = False
            cells = np.flatnonzero(near)
            if cells.size:
                lh = self.config.level_height
                bases = self.board.level[cells].astype(np.float64)
                weights = 1 << np.arange(start.shape[0], dtype=np.int64)
                per_height = []
                for height in blocker_heights:
                    blocked = _hit_cylinders(
                        start,
                        delta,
                        self._centres[cells],
                        bases * lh,
                        (bases + height) * lh,
                        self.config.figure_radius,
                        self.config.tolerance,
                    )
                    per_height.append((blocked.T * weights).sum(axis=1).tolist())
                for j, cell in enumerate(cells.tolist()):
                    row = tuple(int(bits[j]) for bits in per_height)
                    if any(row):
                        masks[cell] = row
        table = SightBlockers((1 << start.shape[0]) - 1, masks)
        self._cache[key] = table  # type: ignore[assignment]
        return table

    def _blockers_from(
        self,
        attacker: int,
        a_height: float,
        t_height: float,
        blocker_heights: tuple[float, ...],
        wanted: int,
    ) -> SightBlockers:
        """:meth:`blockers` for one single-space attacker against every single-space target
        at once (the same segment tests, batched over targets); returns the ``wanted``
        target's, which a cache smaller than the batch may already have let go."""
        cfg, lh = self.config, self.config.level_height
        targets = [int(c) for c in self.board.spaces() if c != attacker]
        eye = np.array(
            [
                *self._centres[attacker],
                (self.board.level[attacker] + a_height - cfg.eye_below_top) * lh,
            ]
        )
        offsets = np.array([cfg.target_above_base, t_height / 2.0, t_height - cfg.target_below_top])
        n_points = offsets.size
        centres = self._centres[targets]
        levels = self.board.level[targets].astype(np.float64)
        points = np.empty((len(targets), n_points, 3))
        points[:, :, :2] = centres[:, None, :]
        points[:, :, 2] = (levels[:, None] + offsets[None, :]) * lh
        delta = points.reshape(-1, 3) - eye
        start = np.broadcast_to(eye, delta.shape)
        # numpy's stubs type any(axis=...) as "scalar or array"; with an axis it is an array.
        terrain_blocked = cast(
            np.ndarray,
            _hit_prisms(
                start, delta, self._prism_xy, self._prism_top, cfg.prism_inradius, cfg.tolerance
            ).any(axis=1),
        )
        clear_bits = (~terrain_blocked).reshape(len(targets), n_points) @ (1 << np.arange(n_points))
        cells = self.board.spaces()
        cells = cells[cells != attacker]
        bases = self.board.level[cells].astype(np.float64)
        weights = 1 << np.arange(n_points, dtype=np.int64)
        per_height = []
        for height in blocker_heights:
            blocked = _hit_cylinders(
                start,
                delta,
                self._centres[cells],
                bases * lh,
                (bases + height) * lh,
                cfg.figure_radius,
                cfg.tolerance,
            )
            blocked &= ~terrain_blocked[:, None]
            per_height.append(
                (blocked.reshape(len(targets), n_points, -1) * weights[None, :, None]).sum(axis=1)
            )  # [targets, cells]
        stacked = np.stack(per_height, axis=-1)  # [targets, cells, heights]
        any_bits = cast(np.ndarray, stacked.any(axis=-1))  # an array, as above
        cell_list = cells.tolist()
        found = None
        for i, target in enumerate(targets):
            row = any_bits[i].copy()
            row[cell_list.index(target)] = False  # the target never blocks itself
            masks = {
                cell_list[j]: tuple(int(b) for b in stacked[i, j]) for j in np.flatnonzero(row)
            }
            key = ("blockers", (attacker,), a_height, (target,), t_height, blocker_heights)
            table = self._cache[key] = SightBlockers(int(clear_bits[i]), masks)  # type: ignore[assignment]
            if target == wanted:
                found = table
        if found is None:
            raise ValueError(f"space {wanted} is not a space of the board or is the attacker's")
        return found


class SightBlockers(NamedTuple):
    """Sight segments that clear the terrain (bits of ``clear_segments``) and, per space,
    the segments a figure standing there blocks, one bitmask per blocker height."""

    clear_segments: int
    masks: dict[int, tuple[int, ...]]

    def clear_among(self, occupant: Sequence[int], height_index: Sequence[int], *ends: int) -> bool:
        """True if some terrain-clear segment survives the figures on the board:
        ``occupant[space]`` is the figure there (negative: none), ``height_index[figure]``
        its blocker height; the line's own ``ends`` (attacker and target) never block it.
        Asked once per sight query, so it walks the few spaces that could block (``masks``)
        instead of every figure."""
        remaining = self.clear_segments
        if not remaining:
            return False
        for cell, row in self.masks.items():
            figure = occupant[cell]
            if figure >= 0 and figure not in ends:
                remaining &= ~row[height_index[figure]]
                if not remaining:
                    return False
        return True


_HEX_SIGHT_CACHE: weakref.WeakKeyDictionary[Board, dict[HexSightConfig, HexSight]] = (
    weakref.WeakKeyDictionary()
)


def hex_line_of_sight(
    board: Board,
    config: HexSightConfig,
    attacker_cells: int | Sequence[int],
    attacker_base_level: float | None,
    attacker_height: float | None,
    target_cells: int | Sequence[int],
    target_base_level: float | None,
    target_height: float | None,
    other_figures: Iterable[Figure] = (),
) -> bool:
    """HS-10.4 line of sight; see :meth:`HexSight.clear`. Reuses one :class:`HexSight` per
    (board, config), so repeated calls share its terrain cache."""
    per_board = _HEX_SIGHT_CACHE.setdefault(board, {})
    sight = per_board.get(config)
    if sight is None:
        sight = per_board[config] = HexSight(board, config)
    return sight.clear(
        attacker_cells,
        attacker_base_level,
        attacker_height,
        target_cells,
        target_base_level,
        target_height,
        other_figures,
    )
