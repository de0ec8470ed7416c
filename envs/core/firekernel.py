"""HeroClix lines of fire from one square to many, in one compiled call.

Every HeroClix figure action asks which enemies each attacker can shoot, and the heuristic
bot asks it from every square a figure could end a move on, for every enemy. The numpy pass
this replaces gathered whole ``[targets, crossed squares]`` and ``[targets, touched edges]``
tables and reduced them (some 150 us a call on a 200-square reach); the kernel walks each
line's squares and edges and stops at the first that blocks. The rules are
:mod:`envs.core.firelines`' (its docstring); ``tests/core/test_firelines.py`` checks the
kernel against a square-by-square reference of them on random boards.

Per square the snapshot packs its flags into the bits below; per wall, :data:`INTACT` and
:data:`ROOF_WALL`. Index ``n_cells`` (squares) and ``n_edges`` (walls) are padding whose
flags are all clear.
"""

from __future__ import annotations

import numpy as np

from envs.core.compiled import kernel

BLOCKS = 1  # blocking terrain or a non-space: blocks every line that crosses it on its level
ELEVATED = 2  # above the ground level (HC-5.18)
HINDERING = 4  # hindering terrain (HC-5.11)
GROUND_FIGURE = 8  # holds a figure that is not soaring
SOARING_FIGURE = 16  # holds a soaring figure
INDOOR = 32  # indoors: hindering hinders lines to and from flyers (HC-5.5)

INTACT = 1  # the wall still stands (HC-5.16)
ROOF_WALL = 2  # both its sides are elevated (HC-5.19)

OFF_BOARD = -1  # the kernel's answer when every target lies on the board


@kernel(
    "int64(int64, int64[::1], boolean[::1], boolean[::1], boolean, boolean, uint8[::1], "
    "uint8[::1], int32[:, ::1], int32[::1], int32[:, ::1], int32[::1], int64[::1], "
    "int64[:, ::1], int64, int64, boolean[::1], boolean[::1])"
)
def fire_targets(
    a: int,
    targets: np.ndarray,
    target_soaring: np.ndarray,
    target_flying: np.ndarray,
    attacker_soaring: bool,
    attacker_flying: bool,
    cell_flags: np.ndarray,
    wall_flags: np.ndarray,
    cell_rel: np.ndarray,
    cell_len: np.ndarray,
    edge_rel: np.ndarray,
    edge_len: np.ndarray,
    wall_of_edge: np.ndarray,
    around: np.ndarray,
    height: int,
    width: int,
    clear: np.ndarray,
    hindered: np.ndarray,
) -> int:
    """Fill ``clear`` and ``hindered`` (bool[k]) for the line from ``a`` to each target;
    return :data:`OFF_BOARD`, or the index of the first target off the board (the outputs
    are then incomplete). ``cell_rel``/``cell_len`` and ``edge_rel``/``edge_len``: per
    offset between the two squares, the crossed squares and touched edge ids relative to
    ``a`` (:class:`envs.core.sight.SquareSightTable`)."""
    n = height * width
    span = 2 * width - 1
    ra, ca = a // width, a % width
    from_roof = (cell_flags[a] & ELEVATED) != 0
    a_indoor = (cell_flags[a] & INDOOR) != 0
    figure_bit = SOARING_FIGURE if attacker_soaring else GROUND_FIGURE
    for i in range(targets.shape[0]):
        t = targets[i]
        if t < 0 or t >= n:
            return i
        offset = (t // width - ra + height - 1) * span + (t % width - ca + width - 1)
        up = (cell_flags[t] & ELEVATED) != 0
        figures_block = target_soaring[i] == attacker_soaring  # HC-4.17
        blocked = False
        between = False
        if not from_roof:  # both on the ground (HC-4.17, HC-5.6) or shooting up (HC-5.21)
            for j in range(cell_len[offset]):
                flags = cell_flags[a + cell_rel[offset, j]]
                if flags & (BLOCKS | ELEVATED) or (figures_block and not up and flags & figure_bit):
                    blocked = True
                    break
                if not up and flags & HINDERING:
                    between = True
            if not blocked:
                for j in range(edge_len[offset]):
                    wall = wall_of_edge[a + edge_rel[offset, j]]
                    if wall_flags[wall] & INTACT:
                        own = False  # the target's own walls do not stand between (HC-5.21)
                        if up:
                            for side in range(around.shape[1]):
                                if around[t, side] == wall:
                                    own = True
                        if not own:
                            blocked = True
                            break
        elif up:  # both elevated (HC-5.19)
            for j in range(cell_len[offset]):
                flags = cell_flags[a + cell_rel[offset, j]]
                if flags & ELEVATED:
                    if flags & BLOCKS or (figures_block and flags & figure_bit):
                        blocked = True
                        break
                    if flags & HINDERING:
                        between = True
            if not blocked:
                for j in range(edge_len[offset]):
                    wall = wall_of_edge[a + edge_rel[offset, j]]
                    if wall_flags[wall] & INTACT and wall_flags[wall] & ROOF_WALL:
                        blocked = True
                        break
        else:  # shooting down (HC-5.20): from the roof's edge, over nothing raised
            for j in range(cell_len[offset]):
                if cell_flags[a + cell_rel[offset, j]] & (BLOCKS | ELEVATED):
                    blocked = True
                    break
            if not blocked:
                for j in range(edge_len[offset]):
                    wall = wall_of_edge[a + edge_rel[offset, j]]
                    if wall_flags[wall] & INTACT:
                        own = False  # the attacker stands at its own roof's edge
                        for side in range(around.shape[1]):
                            if around[a, side] == wall:
                                own = True
                        if not own:
                            blocked = True
                            break
            between = False
        clear[i] = not blocked
        flyer = target_flying[i] or target_soaring[i] or attacker_flying or attacker_soaring
        inside = a_indoor or (cell_flags[t] & INDOOR) != 0
        hindered[i] = (
            not blocked and (between or (cell_flags[t] & HINDERING) != 0) and (inside or not flyer)
        )
    return OFF_BOARD
