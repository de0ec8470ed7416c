"""Compiled kernels: the movement searches every legal-move mask runs, as numba functions.

A move's destinations are asked for at nearly every decision (HeroClix's figure action,
Heroscape's move, Heroica's monster steps), and the searches are tight integer loops that
pure Python runs ~50x slower than compiled code. Each kernel here is small, typed and
array-in/array-out; the rules that build its inputs stay readable Python in
:mod:`envs.core.movement` and :mod:`envs.core.modemove`, and the tests check every kernel
against a plain-Python reference (``tests/core/reference_search.py``) on thousands of random
boards.

More kernels live beside the rules they speed up: :mod:`envs.core.hexsight_pairs`
(Heroscape's sight table of one attacker/target pair), :mod:`envs.core.doublemove` (the
destinations of a double-space figure) and :mod:`envs.core.firekernel` (HeroClix's lines of
fire from one square to many).

Neighbours come as a CSR table (:func:`csr_steps`): the steps out of each search state in
the order the reference walks them, so ties resolve identically.

``cache=True`` writes the machine code next to this file (or under ``NUMBA_CACHE_DIR``), so a
machine compiles once; ``NUMBA_DISABLE_JIT=1`` runs the same functions as plain Python (for
debugging, at pure-Python speed).
"""

from __future__ import annotations

import numpy as np

from envs.core.compiled import kernel

__all__ = ["NOT_REACHED", "csr_steps", "entry_codes", "search_by_cell", "search_modes"]

NOT_REACHED = np.iinfo(np.int32).max
"""Cost of a state a search did not reach (compares greater than any budget)."""

# How a step may enter a state (the codes :mod:`envs.core.modemove` builds per mode and cell).
BLOCKED = 0  # never entered
FREE = 1  # entered, the move goes on
STOPS = 2  # entered, the move ends there
HINDERS = 3  # hindering: the move ends there unless the step comes from hindering
HINDERS_NO_END = 4  # hindering where the move may not end: entered only from hindering


def csr_steps(
    neighbors: np.ndarray, step_cost: np.ndarray | None, by_cost: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(offsets int64[n + 1], targets int32[m], costs int32[m]): the steps out of each cell of
    an int[n, k] ``neighbors`` table (-1 = none) with ``step_cost`` (int[n, k], negative =
    forbidden; None = 1), cell ``c``'s at ``offsets[c]:offsets[c + 1]``. ``by_cost``: each
    cell's steps in ascending (cost, target) order, else in direction order."""
    n, k = neighbors.shape
    valid = neighbors >= 0
    costs = np.ones((n, k), dtype=np.int32) if step_cost is None else step_cost.astype(np.int32)
    valid &= costs >= 0
    rows, directions = np.nonzero(valid)  # row-major: direction order within each cell
    targets = neighbors[rows, directions].astype(np.int32)
    step = costs[rows, directions]
    if by_cost:
        order = np.lexsort((targets, step, rows))
        targets, step, rows = targets[order], step[order], rows[order]
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=n), out=offsets[1:])
    return offsets, targets, step


@kernel(
    "UniTuple(int32[::1], 2)("
    "int64[::1], int32[::1], int32[::1], int64, int64, boolean[::1], boolean[::1])"
)
def search_by_cell(
    offsets: np.ndarray,
    targets: np.ndarray,
    costs: np.ndarray,
    start: int,
    budget: int,
    may_enter: np.ndarray,
    stop: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Bucket-queue Dijkstra where stopping depends on the entered cell alone (a cell is
    always stopped or always going on when entered, so one state per cell suffices).

    Returns (best cost int32[n], NOT_REACHED where unreached; predecessor int32[n], -1 at the
    start and where unreached). Stopped cells are reached but never expanded; the start is
    expanded even when it is a stop cell (a figure may leave water or hindering)."""
    n = offsets.shape[0] - 1
    best = np.full(n, NOT_REACHED, dtype=np.int32)
    pred = np.full(n, -1, dtype=np.int32)
    # One FIFO per cost as a linked list over pushes; a push is an improvement, so there are
    # at most one per step of the table, plus the start.
    capacity = targets.shape[0] + 1
    item = np.empty(capacity, dtype=np.int32)
    link = np.full(capacity, -1, dtype=np.int64)
    head = np.full(budget + 1, -1, dtype=np.int64)
    tail = np.full(budget + 1, -1, dtype=np.int64)
    best[start] = 0
    item[0] = start
    head[0] = 0
    tail[0] = 0
    pushes = 1
    for cost in range(budget + 1):
        push = head[cost]
        while push >= 0:  # zero-cost steps append to the bucket being walked
            cell = item[push]
            if best[cell] != cost or (cell != start and stop[cell]):
                push = link[push]
                continue
            for entry in range(offsets[cell], offsets[cell + 1]):
                nxt = targets[entry]
                total = cost + costs[entry]
                if total <= budget and may_enter[nxt] and total < best[nxt]:
                    best[nxt] = total
                    pred[nxt] = cell
                    item[pushes] = nxt
                    if tail[total] >= 0:
                        link[tail[total]] = pushes
                    else:
                        head[total] = pushes
                    tail[total] = pushes
                    pushes += 1
            push = link[push]
    return best, pred


@kernel(
    "UniTuple(int32[::1], 4)("
    "int64, int64[::1], int64[::1], int64, int64[::1], int32[::1], int32[::1], "
    "int8[::1], int8[::1], boolean[::1], boolean[::1], int64)"
)
def search_modes(
    n: int,
    seed_states: np.ndarray,
    seed_costs: np.ndarray,
    budget: int,
    offsets: np.ndarray,
    targets: np.ndarray,
    costs: np.ndarray,
    codes: np.ndarray,
    arrivals: np.ndarray,
    hinders: np.ndarray,
    switches: np.ndarray,
    switch_cost: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Bucket-queue Dijkstra over going-on states ``mode * n + cell`` (the search of
    :func:`envs.core.modemove.reachable_modes`; its module docstring has the rules). Stopped
    arrivals are leaves, kept in their own arrays outside the queue. ``offsets/targets/costs``
    is the CSR of every state's steps in ascending cost (targets are state indices);
    ``codes``/``arrivals`` say how a step/a mode switch enters each state; ``hinders`` and
    ``switches`` are per state. Ties go to the lowest-index predecessor.

    Returns (best going-on cost, its predecessor, best stopped cost, its predecessor), each
    over ``n_modes * n`` states."""
    size = codes.shape[0]
    n_modes = size // n
    best = np.full(size, NOT_REACHED, dtype=np.int32)
    pred = np.full(size, -1, dtype=np.int32)
    done = np.zeros(size, dtype=np.bool_)
    best_stop = np.full(size, NOT_REACHED, dtype=np.int32)
    pred_stop = np.full(size, -1, dtype=np.int32)
    capacity = targets.shape[0] + size * max(n_modes - 1, 0) + seed_states.shape[0] + 1
    item = np.empty(capacity, dtype=np.int32)
    link = np.full(capacity, -1, dtype=np.int64)
    head = np.full(budget + 1, -1, dtype=np.int64)
    tail = np.full(budget + 1, -1, dtype=np.int64)
    pushes = 0
    for index in range(seed_states.shape[0]):
        state = seed_states[index]
        spent = seed_costs[index]
        if spent < best[state]:
            best[state] = spent
            item[pushes] = state
            if tail[spent] >= 0:
                link[tail[spent]] = pushes
            else:
                head[spent] = pushes
            tail[spent] = pushes
            pushes += 1
    can_switch = n_modes > 1 and switch_cost <= budget
    for cost in range(budget + 1):
        push = head[cost]
        while push >= 0:
            state = item[push]
            if done[state] or best[state] != cost:
                push = link[push]
                continue
            done[state] = True
            from_hindering = hinders[state]
            for entry in range(offsets[state], offsets[state + 1]):
                total = cost + costs[entry]
                if total > budget:
                    break  # steps ascend in cost
                target = targets[entry]
                known = best[target]
                if known < total:
                    continue  # a going-on arrival as cheap dominates a stopped one too
                code = codes[target]
                if code == FREE or (code >= HINDERS and from_hindering):
                    if total < known:
                        best[target] = total
                        pred[target] = state
                        item[pushes] = target
                        if tail[total] >= 0:
                            link[tail[total]] = pushes
                        else:
                            head[total] = pushes
                        tail[total] = pushes
                        pushes += 1
                    elif state < pred[target] and not done[target]:
                        pred[target] = state
                elif (code == STOPS or code == HINDERS) and total < known:
                    if total < best_stop[target] or (
                        total == best_stop[target] and state < pred_stop[target]
                    ):
                        best_stop[target] = total
                        pred_stop[target] = state
            if can_switch and switches[state] and cost + switch_cost <= budget:
                total = cost + switch_cost
                mode = state // n
                for other in range(n_modes):
                    if other == mode:
                        continue
                    target = state + (other - mode) * n
                    known = best[target]
                    if known < total:
                        continue
                    code = arrivals[target]
                    if code == FREE:
                        if total < known:
                            best[target] = total
                            pred[target] = state
                            item[pushes] = target
                            if tail[total] >= 0:
                                link[tail[total]] = pushes
                            else:
                                head[total] = pushes
                            tail[total] = pushes
                            pushes += 1
                        elif state < pred[target] and not done[target]:
                            pred[target] = state
                    elif code == STOPS and total < known:
                        if total < best_stop[target] or (
                            total == best_stop[target] and state < pred_stop[target]
                        ):
                            best_stop[target] = total
                            pred_stop[target] = state
            push = link[push]
    return best, pred, best_stop, pred_stop


@kernel(
    "void("
    "boolean[::1], boolean[::1], boolean[::1], boolean[::1], boolean, boolean, "
    "int8[::1], int8[::1])"
)
def entry_codes(
    enter: np.ndarray,
    end: np.ndarray,
    stop: np.ndarray,
    hindering: np.ndarray,
    chaining: bool,
    switch_stops: bool,
    codes: np.ndarray,
    arrivals: np.ndarray,
) -> None:
    """Fill ``codes`` (how a step enters each cell) and ``arrivals`` (how a mode switch does)
    for one mode of :func:`search_modes` from its masks; the rules are those of
    :mod:`envs.core.modemove`'s docstring: entering a stop square ends the move (so only
    where it may end), hindering ends it too unless ``chaining`` lets a step from hindering
    go on, and a switch enters no terrain (only ``stop`` counts, with ``switch_stops``)."""
    for cell in range(enter.shape[0]):
        if not enter[cell]:
            codes[cell] = BLOCKED
            arrivals[cell] = BLOCKED
            continue
        may_end = end[cell]
        if stop[cell]:
            codes[cell] = STOPS if may_end else BLOCKED
        elif hindering[cell]:
            if chaining:
                codes[cell] = HINDERS if may_end else HINDERS_NO_END
            else:
                codes[cell] = STOPS if may_end else BLOCKED
        else:
            codes[cell] = FREE
        if switch_stops and stop[cell]:
            arrivals[cell] = STOPS if may_end else BLOCKED
        else:
            arrivals[cell] = FREE
