"""HeroClix line of fire with levels, breakable walls and flight on square8 boards.

Implements the defaults of HC-4.17 (what blocks), HC-5.11 (hindering, +1 once), HC-5.13
(water: the caller leaves it out of ``hindering``), HC-4.23 / HC-5.5 (flyers, indoors),
HC-5.14 / HC-5.16 / HC-5.17 (walls block until broken; a broken wall's squares are
hindering, marked by the caller) and HC-5.6, HC-5.19 - HC-5.21 (levels). Geometry comes from
:class:`~envs.core.sight.SquareSightTable`: a line runs centre to centre; it *crosses* a square
when it passes through its open interior (ends excluded; touching only a corner does not
count), and *touches* a wall when it meets the closed wall segment, end points included.

Everything dynamic is a mask passed in (``bool`` over cells, or over the wall ids of
:class:`~envs.core.walls.WallGeometry`): walls still standing, blocking and hindering squares,
squares holding ground (non-soaring) figures and soaring figures, indoor squares. A square is
*elevated* when ``board.level > 0``. For a line from attacker square ``a`` to target ``b``:

**Figures** (HC-4.17). Only figures on crossed squares can block, never those on ``a`` or
``b``. A line between two non-soaring figures is blocked only by ground figures, between two
soaring figures only by soaring figures. On a mixed line (one end soaring) *no* figure blocks:
soaring and ground figures never block lines between each other, and a figure on a mixed
line is always of the other kind than one of its ends.

**Levels** (a soaring figure counts at the level of the square it is over):

* both ends on the ground: an intact wall touched, or a crossed square that is blocking,
  elevated (HC-5.6: a building blocks like blocking terrain) or holds a blocking figure,
  blocks; hindering = any crossed square hindering, or ``b``'s square (HC-5.11);
* both ends elevated (HC-5.19): only elevated squares crossed (blocking, or holding a
  blocking figure, blocks), and intact walls with elevated squares on both sides, count;
  hindering = elevated crossed squares hindering, or ``b``'s square. Ground squares, ground
  figures and walls with a ground side are ignored;
* shooting down, ``a`` elevated and ``b`` on the ground (HC-5.20): every crossed elevated
  square blocks (the attacker must stand at the roof's edge), so does any crossed blocking
  square and any intact wall touched except those on ``a``'s own four sides; figures and
  hindering squares in between are ignored; hindered only if ``b``'s square is hindering;
* shooting up, ``a`` on the ground and ``b`` elevated (HC-5.21): the mirror image, ignoring
  the walls on ``b``'s own sides. ``line(a, b)`` and ``line(b, a)`` agree on ``clear``.

**Flyers** (HC-4.23, HC-5.5): blocking squares and walls block lines to and from flyers
(hovering or soaring) like any other. Outdoors, hindering gives no +1 when either end is a
flyer; when ``a``'s or ``b``'s square is indoor, hindering gives its normal +1 with flyers.

``hindered`` is only ever True on a clear line. Range (HC-4.18, HC-4.22) is not checked here:
``board.distance`` holds it. Choices where the spec leaves room: the levels are two (ground,
and every level above it as one "elevated level", HC-5.18); non-spaces always block and sit
at their board level; a line to the attacker's own square is reported clear.

A query runs as one compiled call (:mod:`envs.core.firekernel`) over the snapshot's masks,
packed into a few bits per square and per wall.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .board import Board, Topology
from .firekernel import (
    BLOCKS,
    ELEVATED,
    GROUND_FIGURE,
    HINDERING,
    INDOOR,
    INTACT,
    OFF_BOARD,
    ROOF_WALL,
    SOARING_FIGURE,
    fire_targets,
)
from .sight import SquareSightTable, square_edge_id
from .walls import WallGeometry

__all__ = ["LineOfFire", "FireTargets", "FireLines", "FireSnapshot"]


class LineOfFire(NamedTuple):
    """One line: ``clear`` (the attack may be made) and ``hindered`` (+1 defense, HC-5.11)."""

    clear: bool
    hindered: bool


class FireTargets(NamedTuple):
    """Lines from one attacker to several squares, aligned with ``targets``."""

    targets: np.ndarray  # int64[k]
    clear: np.ndarray  # bool[k]
    hindered: np.ndarray  # bool[k], only where clear


class FireLines:
    """The static part of line of fire for one square8 map (see the module docstring).

    ``geometry`` and ``sight`` may be shared with the game (they must belong to ``board``);
    by default they are built here. :meth:`snapshot` binds the dynamic masks of one state
    for many queries; :meth:`line` and :meth:`targets_from` are one-off shortcuts.
    """

    def __init__(
        self,
        board: Board,
        geometry: WallGeometry | None = None,
        sight: SquareSightTable | None = None,
    ) -> None:
        if board.topology is not Topology.SQUARE8:
            raise ValueError(f"FireLines needs a square8 board, not {board.topology.value}")
        geometry = WallGeometry(board) if geometry is None else geometry
        sight = SquareSightTable(board) if sight is None else sight
        for name, other in (("geometry", geometry.board), ("sight", sight.board)):
            if other is not board:
                raise ValueError(f"{name} was built for another board than this FireLines'")
        self.board, self.geometry, self.sight = board, geometry, sight
        n, n_edges = board.n_cells, geometry.n_edges
        elevated = board.level > 0
        wall_of_edge = np.full(2 * n + 1, n_edges, dtype=np.int64)  # n_edges: no wall
        for i, (a, b) in enumerate(geometry.edges):
            wall_of_edge[square_edge_id(board, int(a), int(b))] = i
        self._wall_of_edge = wall_of_edge
        roof = elevated[geometry.edges].all(axis=1) if n_edges else np.zeros(0, bool)
        self._around = np.ascontiguousarray(
            np.where(geometry.around < 0, n_edges, geometry.around), dtype=np.int64
        )
        # The kernel's tables: each offset's crossed squares and touched edges, and how many
        # (the sight table pads its rows on the right).
        self._cell_rel, self._edge_rel = sight.offset_tables()
        # The flags no state changes, per square and per wall, each with a clear padding entry
        # (index n and n_edges); a snapshot adds its own.
        self._square_bits = np.append(~board.exists * BLOCKS | elevated * ELEVATED, 0).astype(
            np.uint8
        )
        self._wall_bits = np.append(roof * ROOF_WALL, 0).astype(np.uint8)

    def snapshot(
        self,
        *,
        walls_intact: np.ndarray | None = None,
        blocking: np.ndarray | None = None,
        hindering: np.ndarray | None = None,
        ground_figures: np.ndarray | None = None,
        soaring_figures: np.ndarray | None = None,
        indoor: np.ndarray | None = None,
    ) -> FireSnapshot:
        """Bind one state's masks (``None``: every wall intact / no such square)."""
        return FireSnapshot(
            self, walls_intact, blocking, hindering, ground_figures, soaring_figures, indoor
        )

    def line(
        self,
        a: int,
        b: int,
        *,
        attacker_soaring: bool = False,
        attacker_flying: bool = False,
        target_soaring: bool = False,
        target_flying: bool = False,
        **masks: np.ndarray | None,
    ) -> LineOfFire:
        """:meth:`FireSnapshot.line` under the masks given as keywords of :meth:`snapshot`."""
        return self.snapshot(**masks).line(
            a,
            b,
            attacker_soaring=attacker_soaring,
            attacker_flying=attacker_flying,
            target_soaring=target_soaring,
            target_flying=target_flying,
        )

    def targets_from(
        self,
        a: int,
        targets: npt.ArrayLike | None = None,
        *,
        attacker_soaring: bool = False,
        attacker_flying: bool = False,
        target_soaring: bool | np.ndarray = False,
        target_flying: bool | np.ndarray = False,
        **masks: np.ndarray | None,
    ) -> FireTargets:
        """:meth:`FireSnapshot.targets_from` under the masks given as keywords of
        :meth:`snapshot`."""
        return self.snapshot(**masks).targets_from(
            a,
            targets,
            attacker_soaring=attacker_soaring,
            attacker_flying=attacker_flying,
            target_soaring=target_soaring,
            target_flying=target_flying,
        )


class FireSnapshot:
    """One state's masks, checked, padded and combined once for many line queries.

    Build it with :meth:`FireLines.snapshot`; it copies nothing the caller changes later,
    so build a new one after the state changes.
    """

    def __init__(
        self,
        lines: FireLines,
        walls_intact,
        blocking,
        hindering,
        ground_figures,
        soaring_figures,
        indoor,
    ) -> None:
        self.lines = lines
        n = lines.board.n_cells
        intact = lines.geometry.check_intact(
            lines.geometry.all_intact() if walls_intact is None else walls_intact
        )
        flags = lines._square_bits.copy()
        on_board = flags[:n]  # a view: the padding entry stays clear
        for name, value, bit in (
            ("blocking", blocking, BLOCKS),
            ("hindering", hindering, HINDERING),
            ("ground_figures", ground_figures, GROUND_FIGURE),
            ("soaring_figures", soaring_figures, SOARING_FIGURE),
            ("indoor", indoor, INDOOR),
        ):
            if value is not None:
                on_board[_cell_mask(name, value, n)] |= bit
        self._cell_flags = flags
        wall_flags = lines._wall_bits.copy()
        wall_flags[: intact.size][intact] |= INTACT
        self._wall_flags = wall_flags

    def line(
        self,
        a: int,
        b: int,
        *,
        attacker_soaring: bool = False,
        attacker_flying: bool = False,
        target_soaring: bool = False,
        target_flying: bool = False,
    ) -> LineOfFire:
        """Line of fire from square ``a`` to square ``b``; flying = hovering or soaring (a
        soaring figure is a flyer whether or not ``*_flying`` says so)."""
        found = self.targets_from(
            a,
            np.array([b]),
            attacker_soaring=attacker_soaring,
            attacker_flying=attacker_flying,
            target_soaring=target_soaring,
            target_flying=target_flying,
        )
        return LineOfFire(bool(found.clear[0]), bool(found.hindered[0]))

    def targets_from(
        self,
        a: int,
        targets: npt.ArrayLike | None = None,
        *,
        attacker_soaring: bool = False,
        attacker_flying: bool = False,
        target_soaring: bool | np.ndarray = False,
        target_flying: bool | np.ndarray = False,
    ) -> FireTargets:
        """Lines from ``a`` to each square of ``targets`` (default: every square), one compiled
        pass. ``target_soaring`` / ``target_flying``: one flag, or bool[k] per target."""
        lines = self.lines
        board = lines.board
        n = board.n_cells
        a = int(a)
        if not 0 <= a < n:
            raise ValueError(f"attacker square {a} is off the board (0..{n - 1})")
        targets = (
            np.arange(n) if targets is None else np.asarray(targets, dtype=np.int64).reshape(-1)
        )
        if targets.dtype != np.int64 or not targets.flags.c_contiguous:
            targets = np.ascontiguousarray(targets, dtype=np.int64)
        k = targets.size
        clear = np.empty(k, dtype=bool)
        hindered = np.empty(k, dtype=bool)
        off_board = fire_targets(
            a,
            targets,
            _flags("target_soaring", target_soaring, k),
            _flags("target_flying", target_flying, k),
            bool(attacker_soaring),
            bool(attacker_flying),
            self._cell_flags,
            self._wall_flags,
            lines._cell_rel[0],
            lines._cell_rel[1],
            lines._edge_rel[0],
            lines._edge_rel[1],
            lines._wall_of_edge,
            lines._around,
            board.height,
            board.width,
            clear,
            hindered,
        )
        if off_board != OFF_BOARD:
            raise ValueError(f"target squares must lie in 0..{n - 1}")
        return FireTargets(targets, clear, hindered)


def _cell_mask(name: str, value: np.ndarray, n: int) -> np.ndarray:
    """The caller's mask over cells as bool[n], its shape checked."""
    mask = np.asarray(value, dtype=bool)
    if mask.shape != (n,):
        raise ValueError(f"{name} has shape {mask.shape}, expected ({n},): one flag per square")
    return mask


def _flags(name: str, value: bool | np.ndarray, k: int) -> np.ndarray:
    if value is True or value is False:
        return np.full(k, value)
    flags = np.ascontiguousarray(value, dtype=bool)
    if flags.ndim == 0:
        return np.full(k, bool(flags))
    if flags.shape != (k,):
        raise ValueError(f"{name} has shape {flags.shape}, expected () or ({k},), one per target")
    return flags
