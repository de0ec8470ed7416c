"""The move search of a HeroClix figure in one compiled call.

Every FIGURE and MOVE decision asks where the selected figure may move, and so does every
position the heuristic bot weighs. :func:`envs.heroclix.movement.mode_rules` builds the
search's masks (who is where, which enemies stop the move, where it may enter and end, per
mode) with a dozen numpy calls, and :func:`envs.core.modemove.reachable_modes` checks them and
turns them into entry codes: together several times the search itself. :func:`figure_search`
derives the same masks square by square and runs the same search
(:func:`envs.core.kernels.search_modes`) inside one kernel; the step tables, hindering and
adjacency it reads are the game's cached ones. ``tests/heroclix/test_reach.py`` checks it
against ``reachable_modes(mode_rules(...))`` on the positions of random games. The figure's
flight and its powers' movement traits come as the bits of ``rules`` below.
"""

from __future__ import annotations

import numpy as np

from envs.core.compiled import kernel, kernel_helper
from envs.core.kernels import entry_codes, search_modes

FLYING = 1  # two modes, hovering and soaring (HC-1.12)
PASSES_FIGURES = 2  # enters enemies' squares (R-11)
IGNORES_HINDERING = 4  # hindering neither stops nor halves
IGNORES_ENEMY_STOPS = 8  # not stopped next to enemies (Hypersonic Speed's move, flags)
CHAINING = 16  # HC-5.10 [2002]: a step from hindering into hindering goes on
CROSSES_INDOORS = 32  # crosses blocking squares and walls everywhere
CROSSES_OUTDOORS = 64  # crosses them outdoors only (HC-5.1, R-10; a hoverer too)
SOAR_MODE = 1  # the mode index of soaring, in the figures' modes and the states
NOBODY = -1  # no passenger; a figure off the map has this square


@kernel_helper
def _next_to(table: np.ndarray, cell: int, marked: np.ndarray) -> bool:
    """Whether a square ``table`` lists beside ``cell`` is ``marked`` (squares_next_to's rule)."""
    for direction in range(table.shape[1]):
        other = table[cell, direction]
        if other >= 0 and marked[other]:
            return True
    return False


@kernel(
    "UniTuple(int32[::1], 4)("
    "int64[::1], int32[::1], int32[::1], int64, int16[::1], int8[::1], int64, int64, "
    "boolean[::1], int8[::1], boolean[::1], boolean[::1], boolean[::1], boolean[::1], "
    "int32[:, ::1], int32[:, ::1], int64, int64, int64, int64, boolean[::1])"
)
def figure_search(
    offsets: np.ndarray,
    targets: np.ndarray,
    costs: np.ndarray,
    n: int,
    cell: np.ndarray,
    sides: np.ndarray,
    figure: int,
    passenger: int,
    broke_away: np.ndarray,
    modes: np.ndarray,
    exists: np.ndarray,
    blocking: np.ndarray,
    indoor: np.ndarray,
    hindering: np.ndarray,
    adjacency: np.ndarray,
    touching: np.ndarray,
    rules: int,
    seed_state: int,
    seed_cost: int,
    budget: int,
    can_end: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`envs.core.kernels.search_modes` of ``figure`` with the masks of
    :func:`envs.heroclix.movement.mode_rules`; fills ``can_end`` (bool over the states
    ``mode * n + cell``) with where the move may end.

    ``offsets/targets/costs``: the steps of every mode over the states (walking or hovering,
    then soaring for a flyer); ``cell``, ``sides``, ``modes``: every figure's square, side
    and mode; ``broke_away``: per figure, adjacent when the move began (HC-3.25);
    ``hindering``: hindering for movement now; ``adjacency``: HC-3.13 adjacency for
    non-soaring figures under today's walls and blocking squares; ``touching``: for soaring
    ones; ``rules``: the bits above."""
    flying = rules & FLYING != 0
    n_modes = 2 if flying else 1
    occupied = np.zeros(n, dtype=np.bool_)
    enemy_square = np.zeros(n, dtype=np.bool_)
    ground_foe = np.zeros(n, dtype=np.bool_)  # squares of enemies that stop the move
    soaring_foe = np.zeros(n, dtype=np.bool_)
    stops = rules & IGNORES_ENEMY_STOPS == 0
    for other in range(cell.shape[0]):
        square = cell[other]
        if square < 0 or other == figure or other == passenger:
            continue  # off the map, the mover itself, or carried along (its square is empty)
        occupied[square] = True
        if sides[other] != sides[figure]:
            enemy_square[square] = True
            if stops and not broke_away[other]:
                if modes[other] == SOAR_MODE:
                    soaring_foe[square] = True
                else:
                    ground_foe[square] = True
    size = n_modes * n
    enter = np.empty(size, dtype=np.bool_)
    stop = np.empty(size, dtype=np.bool_)
    hinders = np.zeros(size, dtype=np.bool_)
    carrying = passenger != NOBODY
    for square in range(n):
        ok = exists[square]
        if rules & CROSSES_INDOORS:
            pass
        elif flying or rules & CROSSES_OUTDOORS:
            ok = ok and not (blocking[square] and indoor[square])
        else:
            ok = ok and not blocking[square]
        if rules & PASSES_FIGURES == 0:
            ok = ok and not enemy_square[square]
        empty = exists[square] and not blocking[square] and not occupied[square]
        enter[square] = ok
        can_end[square] = empty and ok
        if rules & IGNORES_HINDERING == 0:
            hinders[square] = hindering[square] and (indoor[square] or not flying)
        stop[square] = _next_to(adjacency, square, ground_foe)
        if flying:
            soar = n + square
            enter[soar] = exists[square] and not indoor[square]
            can_end[soar] = empty and not indoor[square] and not carrying
            stop[soar] = _next_to(touching, square, soaring_foe)
    if flying and carrying:  # HC-3.30: it ends where the passenger can be set down beside it
        landing = exists & ~blocking & ~occupied
        for square in range(n):
            can_end[square] = can_end[square] and _next_to(adjacency, square, landing)
    codes = np.empty(size, dtype=np.int8)
    arrivals = np.empty(size, dtype=np.int8)
    no_hindering = np.zeros(n, dtype=np.bool_)
    chaining = rules & CHAINING != 0
    entry_codes(
        enter[:n], can_end[:n], stop[:n], hinders[:n], chaining, True, codes[:n], arrivals[:n]
    )
    if flying:
        entry_codes(
            enter[n:], can_end[n:], stop[n:], no_hindering, False, True, codes[n:], arrivals[n:]
        )
    seeds = np.full(1, seed_state, dtype=np.int64)
    spent = np.full(1, seed_cost, dtype=np.int64)
    switches = np.ones(size, dtype=np.bool_)
    return search_modes(
        n, seeds, spent, budget, offsets, targets, costs, codes, arrivals, hinders, switches, 1
    )
