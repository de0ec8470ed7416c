"""Knockback on square boards: where a pushed figure stops, and why.

HeroClix (HC-4.9 ... HC-4.13) pushes a figure one square per damage taken, straight away from
its attacker, in the compass direction (of 8) closest in angle to the attacker -> target
vector (HC-4.9 default). The push stops early, with the extra damage the rules give:

* ``edge`` (+1): the next square is off the map or not a space;
* ``wall`` (+1): a wall lies between (a diagonal step that grazes a wall's corner counts);
* ``blocking`` (+1): the next square is blocking terrain (the caller's current mask);
* ``higher`` (+1): the next square is on a higher level;
* ``figure`` (0): the next square holds another figure (HC-4.13);
* ``fall`` (+2): the next square is lower: the figure lands there and stops (HC-4.11);
* ``fall_blocked`` (0): the lower square is occupied: the figure stays up (HC-4.11 default);
* ``done`` (0): the push ran its full distance.

A flyer takes no falling damage (HC-4.11 default). A soaring figure is stopped only by the map
edge (+1) or by another soaring figure (no damage) (HC-4.13 default): walls, terrain and
levels do not stop it. The caller gives the dynamic masks (blocking squares, occupied
squares) and, once walls break (HC-5.16), the neighbour table of the walls still standing
(:meth:`envs.core.walls.WallGeometry.neighbors`); the board gives levels and, by default, walls. Damage reduction (HC-4.12) is the caller's.
Pure numpy; no game rules beyond the table above.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from .board import SQUARE8_DIRECTIONS, Board, Topology


class KnockbackStop(str, enum.Enum):
    EDGE = "edge"
    WALL = "wall"
    BLOCKING = "blocking"
    HIGHER = "higher"
    FIGURE = "figure"
    FALL = "fall"
    FALL_BLOCKED = "fall_blocked"
    DONE = "done"


EXTRA_DAMAGE = {
    KnockbackStop.EDGE: 1,
    KnockbackStop.WALL: 1,
    KnockbackStop.BLOCKING: 1,
    KnockbackStop.HIGHER: 1,
    KnockbackStop.FIGURE: 0,
    KnockbackStop.FALL: 2,
    KnockbackStop.FALL_BLOCKED: 0,
    KnockbackStop.DONE: 0,
}


@dataclass(frozen=True)
class Knockback:
    start: int
    direction: int  # index into the board's directions (square8: N, NE, E, SE, S, SW, W, NW)
    path: tuple[int, ...]  # squares entered, in order (empty: it did not move)
    reason: KnockbackStop
    extra_damage: int

    @property
    def stop(self) -> int:
        """The square the figure ends on."""
        return self.path[-1] if self.path else self.start


def compass_direction(board: Board, source: int, target: int) -> int:
    """The square8 direction closest in angle to the ``source -> target`` vector (HC-4.9).

    Integer vectors never lie exactly between two compass directions (that would need
    tan(22.5 deg), an irrational slope), so the answer is unique.
    """
    _require_square8(board)
    (r0, c0), (r1, c1) = board.rc(source), board.rc(target)
    dr, dc = r1 - r0, c1 - c0
    if dr == 0 and dc == 0:
        raise ValueError(f"no direction from {board.label(source)} to itself")
    angle = math.atan2(dr, dc)
    return min(
        range(len(SQUARE8_DIRECTIONS)),
        key=lambda d: _angle_between(angle, math.atan2(*SQUARE8_DIRECTIONS[d])),
    )


def _angle_between(a: float, b: float) -> float:
    return abs(math.remainder(a - b, math.tau))


def knockback(
    board: Board,
    start: int,
    direction: int,
    distance: int,
    *,
    blocking: np.ndarray | None = None,
    occupied: np.ndarray | None = None,
    flyer: bool = False,
    soaring: bool = False,
    may_not_end: np.ndarray | None = None,
    neighbors: np.ndarray | None = None,
) -> Knockback:
    """Push the figure on ``start`` ``distance`` squares in ``direction`` (see the module doc).

    ``blocking``: bool[n], squares that stop the push (blocking terrain as it is now).
    ``occupied``: bool[n], squares holding another figure (for a soaring figure: another
    soaring figure). ``start`` itself is never looked at. ``neighbors``: int32[n, 8], the
    neighbour table with the walls standing now; default ``board.neighbors`` (all intact).
    ``may_not_end``: bool[n], squares the push may cross but not end on (a soaring figure
    over a ground figure or a blocking square, HC-3.22, HC-3.27, HC-3.29): it stops on the
    last square before them, as before a figure (reason ``figure``, no extra damage).
    """
    _require_square8(board)
    if not 0 <= direction < len(SQUARE8_DIRECTIONS):
        raise ValueError(f"direction {direction} out of range 0..{len(SQUARE8_DIRECTIONS) - 1}")
    if distance < 0:
        raise ValueError(f"distance must be >= 0, got {distance}")
    n = board.n_cells
    blocking = np.zeros(n, dtype=bool) if blocking is None else np.asarray(blocking, dtype=bool)
    occupied = np.zeros(n, dtype=bool) if occupied is None else np.asarray(occupied, dtype=bool)
    for name, mask in (("blocking", blocking), ("occupied", occupied)):
        if mask.shape != (n,):
            raise ValueError(f"{name} has shape {mask.shape}, expected ({n},)")
    steps = board.neighbors if neighbors is None else np.asarray(neighbors)
    if steps.shape != board.neighbors.shape:
        raise ValueError(f"neighbors has shape {steps.shape}, expected {board.neighbors.shape}")
    path: list[int] = []
    cell = int(start)
    reason = KnockbackStop.DONE
    for _ in range(distance):
        nxt = _next_square(board, cell, direction)
        if nxt < 0:
            reason = KnockbackStop.EDGE
            break
        if soaring:  # HC-4.13 default: only the edge and other soaring figures stop it
            if occupied[nxt]:
                reason = KnockbackStop.FIGURE
                break
            path.append(nxt)
            cell = nxt
            continue
        if steps[cell, direction] != nxt:
            reason = KnockbackStop.WALL
            break
        if blocking[nxt]:
            reason = KnockbackStop.BLOCKING
            break
        if board.level[nxt] > board.level[cell]:
            reason = KnockbackStop.HIGHER
            break
        if board.level[nxt] < board.level[cell]:
            reason = KnockbackStop.FALL_BLOCKED if occupied[nxt] else KnockbackStop.FALL
            if not occupied[nxt]:
                path.append(nxt)
            break
        if occupied[nxt]:
            reason = KnockbackStop.FIGURE
            break
        path.append(nxt)
        cell = nxt
    if may_not_end is not None:
        no_end = np.asarray(may_not_end, dtype=bool)
        if no_end.shape != (n,):
            raise ValueError(f"may_not_end has shape {no_end.shape}, expected ({n},)")
        if path and no_end[path[-1]]:
            while path and no_end[path[-1]]:
                path.pop()
            reason = KnockbackStop.FIGURE
    damage = EXTRA_DAMAGE[reason]
    if reason is KnockbackStop.FALL and flyer:
        damage = 0  # HC-4.11 default: flyers take no falling damage
    return Knockback(int(start), direction, tuple(path), reason, damage)


def _next_square(board: Board, cell: int, direction: int) -> int:
    """The space one step in ``direction`` by geometry alone (walls ignored), or -1."""
    row, col = board.rc(cell)
    dr, dc = SQUARE8_DIRECTIONS[direction]
    row, col = row + dr, col + dc
    if not (0 <= row < board.height and 0 <= col < board.width):
        return -1
    nxt = row * board.width + col
    return nxt if board.exists[nxt] else -1


def _require_square8(board: Board) -> None:
    if board.topology is not Topology.SQUARE8:
        raise ValueError(f"knockback is defined on square8 boards, not {board.topology.value}")
