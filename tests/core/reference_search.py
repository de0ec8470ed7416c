"""Plain-Python references for the compiled kernels of :mod:`envs.core.kernels`.

These are the searches the envs ran before the kernels were compiled, kept verbatim in
spirit: lists and dicts, no numba. ``tests/core/test_kernels.py`` checks that each kernel
returns exactly what its reference returns on thousands of random boards, ties included.
"""

from __future__ import annotations

import numpy as np

from envs.core.kernels import FREE, HINDERS, NOT_REACHED, STOPS


def adjacency_lists(neighbors: np.ndarray, step_cost: np.ndarray | None) -> list:
    """Per cell, (neighbour, cost) pairs in direction order, forbidden steps left out."""
    rows = None if step_cost is None else step_cost.tolist()
    return [
        [
            (nxt, 1 if rows is None else rows[cell][d])
            for d, nxt in enumerate(cells)
            if nxt >= 0 and (rows is None or rows[cell][d] >= 0)
        ]
        for cell, cells in enumerate(neighbors.tolist())
    ]


def step_groups(neighbors: np.ndarray, step_cost: np.ndarray | None, offset: int) -> list:
    """Per cell, (cost, target states) groups in ascending cost, targets ascending."""
    valid = neighbors >= 0
    if step_cost is not None:
        valid &= step_cost >= 0
    costs = [1] if step_cost is None else sorted(set(step_cost[valid].tolist()))
    per_cost = []
    for cost in costs:
        here = valid if step_cost is None else valid & (step_cost == cost)
        past = offset + neighbors.shape[0]
        targets = np.sort(np.where(here, neighbors.astype(np.int64) + offset, past), axis=1)
        per_cost.append(
            [
                (cost, tuple(row[:count]))
                for row, count in zip(targets.tolist(), here.sum(axis=1).tolist())
            ]
        )
    if not per_cost:  # no step is allowed anywhere
        return [()] * neighbors.shape[0]
    if len(per_cost) == 1:
        return [(group,) for group in per_cost[0]]
    return [tuple([group for group in groups if group[1]]) for groups in zip(*per_cost)]


def search_by_cell(
    adjacency: list, n: int, start: int, budget: int, may_enter: list, stop: list
) -> tuple[list[int], list[int], list[int]]:
    """The search of :func:`reachable` when stopping depends on the cell alone: each cell is
    then always stopped or always going on when entered, so one search state per cell
    suffices, and with small integer costs a bucket queue replaces the heap.
    Returns (reached cells, best cost per cell, predecessor per cell)."""
    best_list = [NOT_REACHED] * n
    pred_list = [-1] * n
    best_list[start] = 0
    reached = [start]
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    for cost in range(budget + 1):
        for cell in buckets[cost]:  # zero-cost steps append to the bucket being walked
            if best_list[cell] != cost or (cell != start and stop[cell]):
                continue
            for nxt, step in adjacency[cell]:
                total = cost + step
                if total <= budget and may_enter[nxt] and total < best_list[nxt]:
                    if best_list[nxt] == NOT_REACHED:
                        reached.append(nxt)
                    best_list[nxt] = total
                    pred_list[nxt] = cell
                    buckets[total].append(nxt)
    return reached, best_list, pred_list


def search_modes(
    n: int,
    seeds: tuple[tuple[int, int, int], ...],
    budget: int,
    steps: list,
    codes: list,
    arrivals: list,
    hinders: list,
    switches: list,
    switch_cost: int,
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Bucket-queue Dijkstra over going-on states ``mode * n + cell``; stopped arrivals are
    leaves (never expanded), so they are kept in their own lists, outside the queue. Every
    list here is indexed by state (``steps`` already names target states).
    Returns (best going-on cost, its predecessor, best stopped cost, its predecessor)."""
    n_modes = len(switches) // n
    size = n_modes * n
    best = [NOT_REACHED] * size
    pred = [-1] * size
    done = [False] * size
    best_stop = [NOT_REACHED] * size
    pred_stop = [-1] * size
    buckets: list[list[int]] = [[] for _ in range(budget + 1)]
    for cell, mode, spent in seeds:
        state = mode * n + cell
        if spent < best[state]:
            best[state] = spent
            buckets[spent].append(state)
    # a switch from mode a to b moves the state index by (b - a) * n
    shifts = [[(b - a) * n for b in range(n_modes) if b != a] for a in range(n_modes)]
    can_switch = n_modes > 1 and switch_cost <= budget
    for cost in range(budget + 1):
        for state in buckets[cost]:  # zero-cost steps append to the bucket being walked
            if done[state] or best[state] != cost:
                continue
            done[state] = True
            from_hindering = hinders[state]
            for step, targets in steps[state]:
                total = cost + step
                if total > budget:
                    break  # groups ascend in cost
                for target in targets:
                    known = best[target]
                    # a going-on arrival as cheap as this one dominates a stopped one too
                    if known < total:
                        continue
                    code = codes[target]
                    if code == FREE or (code >= HINDERS and from_hindering):
                        if total < known:
                            best[target] = total
                            pred[target] = state
                            buckets[total].append(target)
                        elif state < pred[target] and not done[target]:
                            pred[target] = state  # a tie goes to the lowest-index predecessor
                    elif (code == STOPS or code == HINDERS) and total < known:
                        if total < best_stop[target] or (
                            total == best_stop[target] and state < pred_stop[target]
                        ):
                            best_stop[target] = total
                            pred_stop[target] = state
            if not (can_switch and switches[state]) or cost + switch_cost > budget:
                continue
            total = cost + switch_cost
            for shift in shifts[state // n]:
                target = state + shift
                known = best[target]
                if known < total:
                    continue
                code = arrivals[target]
                if code == FREE:
                    if total < known:
                        best[target] = total
                        pred[target] = state
                        buckets[total].append(target)
                    elif state < pred[target] and not done[target]:
                        pred[target] = state
                elif code == STOPS and total < known:
                    if total < best_stop[target] or (
                        total == best_stop[target] and state < pred_stop[target]
                    ):
                        best_stop[target] = total
                        pred_stop[target] = state
    return best, pred, best_stop, pred_stop


def entry_codes(
    enter: np.ndarray,
    end: np.ndarray,
    stop: np.ndarray,
    hindering: np.ndarray,
    chaining: bool,
    switch_stops: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """(step codes, switch codes) of one mode, as np.where chains over its masks."""
    blocked, free, stops, hinders, hinders_no_end = 0, 1, 2, 3, 4
    if chaining:
        code = np.where(hindering, np.where(end, hinders, hinders_no_end), free)
    else:
        code = np.where(hindering, np.where(end, stops, blocked), free)
    code = np.where(stop, np.where(end, stops, blocked), code)
    code = np.where(enter, code, blocked)
    halts = stop if switch_stops else np.zeros_like(stop)
    arrive = np.where(halts, np.where(end, stops, blocked), free)
    arrive = np.where(enter, arrive, blocked)
    return code, arrive
