"""HS-7: the destinations of a double-space figure, compiled.

``core.movement.reachable_double`` runs this search in Python and records a cost and a path
for every destination: some 2 ms a move on the highlands map, where a four-player game asks
it every few decisions. The masks only need the destination set, and that set is the same
whichever shortest-path search finds it (a pair is a destination when its state is
reached within the budget), so :func:`double_destinations` runs the same search, the same
rules step by step, as a small bucket-queue kernel. ``tests/heroscape/test_doublemove.py``
checks it against ``reachable_double`` on random positions.
"""

from __future__ import annotations

import numpy as np

from envs.core.compiled import kernel


@kernel(
    "int64[::1]("
    "int32[:, ::1], int32[:, ::1], int64, int64, int64, boolean[::1], boolean[::1], "
    "boolean[::1], int16[::1])"
)
def _reach(neighbors, step_cost, a, b, budget, enter, stop, end, level):
    """Sorted keys ``low * n + high`` of the destination pairs (the start's included).

    A state is (leader, follower); the follower always stands next to the leader, so a
    state is stored as ``leader * k + d`` with ``neighbors[leader, d] == follower``.
    """
    n, k = neighbors.shape
    unreached = np.iinfo(np.int32).max
    best = np.full(n * k, unreached, dtype=np.int32)
    done = np.zeros(n * k, dtype=np.bool_)
    # one FIFO per cost as a linked list over pushes (each push is an improvement)
    capacity = n * k * k + 2
    pushed = np.empty(capacity, dtype=np.int32)
    link = np.empty(capacity, dtype=np.int32)
    head = np.full(budget + 1, -1, dtype=np.int32)
    tail = np.full(budget + 1, -1, dtype=np.int32)
    count = 0
    starts = np.full(2, -1, dtype=np.int64)
    for i, (leader, follower) in enumerate(((a, b), (b, a))):
        for d in range(k):
            if neighbors[leader, d] == follower:
                state = leader * k + d
                starts[i] = state
                best[state] = 0
                pushed[count] = state
                link[count] = -1
                if tail[0] >= 0:
                    link[tail[0]] = count
                else:
                    head[0] = count
                tail[0] = count
                count += 1
                break
    for cost in range(budget + 1):
        entry = head[cost]
        while entry >= 0:
            state = pushed[entry]
            entry = link[entry]
            if done[state] or best[state] != cost:
                continue
            done[state] = True
            leader = state // k
            follower = neighbors[leader, state % k]
            if state != starts[0] and state != starts[1] and stop[leader] and stop[follower]:
                continue  # HS-7.5: both halves in water, the move is over
            for d in range(k):
                nxt = neighbors[leader, d]
                if nxt < 0 or nxt == follower or not enter[nxt] or step_cost[leader, d] < 0:
                    continue
                total = cost + step_cost[leader, d]
                if total > budget:
                    continue
                if (
                    stop[nxt]
                    and stop[leader]
                    and not (end[nxt] and end[leader] and level[nxt] == level[leader])
                ):
                    continue
                back = -1
                for e in range(k):
                    if neighbors[nxt, e] == leader:
                        back = e
                        break
                new = nxt * k + back
                if total < best[new]:
                    best[new] = total
                    pushed[count] = new
                    link[count] = -1
                    if tail[total] >= 0:
                        link[tail[total]] = count
                    else:
                        head[total] = count
                    tail[total] = count
                    count += 1
    keys = np.empty(n * k + 1, dtype=np.int64)
    found = 0
    keys[found] = min(a, b) * n + max(a, b)
    found += 1
    for state in range(n * k):
        if best[state] == unreached:
            continue
        x = state // k
        y = neighbors[x, state % k]
        if end[x] and end[y] and level[x] == level[y]:
            keys[found] = min(x, y) * n + max(x, y)
            found += 1
    return np.unique(keys[:found])


def double_destinations(
    neighbors: np.ndarray,
    step_cost: np.ndarray,
    halves: tuple[int, int],
    budget: int,
    can_enter: np.ndarray,
    stops: np.ndarray,
    can_end: np.ndarray,
    level: np.ndarray,
) -> list[tuple[int, ...]]:
    """``reachable_double(...).destinations()`` (core) for a board's ``neighbors`` table and
    ``step_cost`` table (negative = no step): the sorted (low, high) pairs."""
    n = neighbors.shape[0]
    keys = _reach(neighbors, step_cost, halves[0], halves[1], budget, can_enter, stops, can_end,
                  level)  # fmt: skip
    return [(key // n, key % n) for key in keys.tolist()]
