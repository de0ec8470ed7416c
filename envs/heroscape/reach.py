"""HS-6: the destinations of a single-space figure in one compiled call.

Every MOVE_DEST mask and every plan of the heuristic bot asks where a figure may move, and
``core.movement.reachable_destinations`` spends several times its compiled search building
the search's masks from the occupancy (a numpy call each, on a board of a few hundred cells).
:func:`single_destinations` derives the same masks cell by cell and runs the same search
(``core.kernels.search_by_cell``) inside one kernel. ``tests/heroscape/test_reach.py`` checks
it against ``reachable_destinations`` on random positions.
"""

from __future__ import annotations

import numpy as np

from envs.core.compiled import kernel
from envs.core.kernels import NOT_REACHED, search_by_cell


@kernel(
    "int64[::1]("
    "int64[::1], int32[::1], int32[::1], int64, int64, int16[::1], int16[::1], "
    "boolean[::1], boolean[::1])"
)
def single_destinations(
    offsets: np.ndarray,
    targets: np.ndarray,
    costs: np.ndarray,
    start: int,
    budget: int,
    occupant: np.ndarray,
    fig_owner: np.ndarray,
    exists: np.ndarray,
    water: np.ndarray,
) -> np.ndarray:
    """The sorted cells a single-space figure on ``start`` may end its move on.

    ``offsets/targets/costs``: the map's climbing costs (HS-6.6/6.7) as ``csr_steps`` gives
    them; ``occupant``: figure per cell (-1: none); ``fig_owner``: owner per figure. The
    figure moves through friends but not enemies (HS-6.3), ends on no other figure (HS-6.5)
    and stops in water (HS-6.8), so it enters water only where it may end.
    """
    n = occupant.shape[0]
    owner = fig_owner[occupant[start]]
    may_enter = np.empty(n, dtype=np.bool_)
    for cell in range(n):
        figure = occupant[cell]
        if figure < 0:
            may_enter[cell] = exists[cell]
        else:
            may_enter[cell] = fig_owner[figure] == owner and not water[cell]
    may_enter[start] = True
    best, _ = search_by_cell(offsets, targets, costs, start, budget, may_enter, water)
    found = np.empty(n, dtype=np.int64)
    count = 0
    for cell in range(n):
        if best[cell] != NOT_REACHED and (occupant[cell] < 0 or cell == start):
            found[count] = cell
            count += 1
    return found[:count]
