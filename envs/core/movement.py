"""Movement search: where a figure can go under per-step costs and stop rules.

Games describe a move with a few per-cell masks and one step-cost rule, then read legal
destinations and paths off a :class:`Reach`:

* ``step_cost`` -- cost of one step from a cell to a neighbour: ``None`` (1 per step), an
  int array ``[n_cells, n_directions]`` aligned with ``board.neighbors`` (negative =
  forbidden; :func:`climb_cost` builds the Heroscape one), or a callable
  ``(from_cell, to_cell) -> int | None`` (``None`` = forbidden).
* ``can_enter`` -- cells the figure may step into (not enemies, not blocking terrain).
* ``stops_after_entering`` -- entering ends the move (water HS-6.8, hindering HC-5.10, next
  to an enemy HC-3.21, next to a monster HE-5.8): bool per cell, or a callable
  ``(from_cell, to_cell) -> bool`` when it depends on where the step comes from.
* ``can_end`` -- cells the move may end on (False for friendly-occupied cells, HS-6.5).

Costs are small non-negative integers, searched with Dijkstra; ties go to the lowest cell
index, so results are deterministic. :func:`reachable_double` does the same for
double-space Heroscape figures (HS-7).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .board import Board
from .kernels import NOT_REACHED, csr_steps, search_by_cell
from .lru import LRU, by_identity

__all__ = [
    "NOT_REACHED",
    "Reach",
    "reachable",
    "climb_cost",
    "straight_line",
    "cells_within",
    "DoubleReach",
    "reachable_double",
]


StepCost = None | np.ndarray | Callable[[int, int], int | None]
StopRule = None | np.ndarray | Callable[[int, int], bool]


def climb_cost(board: Board, per_level: int = 1) -> np.ndarray:
    """Step costs per (cell, direction): 1 + ``per_level`` per level climbed (HS-6.6);
    descending is free (HS-6.7). -1 where there is no neighbour."""
    neighbors = board.neighbors
    to_level = board.level[np.where(neighbors < 0, 0, neighbors)].astype(np.int32)
    climb = np.maximum(0, to_level - board.level[:, None].astype(np.int32))
    return np.where(neighbors < 0, -1, 1 + per_level * climb).astype(np.int32)


def _cell_mask(mask: np.ndarray | None, n: int, name: str, default: bool) -> np.ndarray:
    if mask is None:
        return np.full(n, default, dtype=bool)
    mask = np.asarray(mask, dtype=bool)
    if mask.shape != (n,):
        raise ValueError(f"{name} has shape {mask.shape}, expected ({n},)")
    return mask


def _cost_rule(board: Board, step_cost: StepCost) -> Callable[[int, int, int], int | None]:
    """A uniform (from_cell, direction, to_cell) -> cost | None view of ``step_cost``."""
    if step_cost is None:
        return lambda a, d, b: 1
    if callable(step_cost):
        return lambda a, d, b: step_cost(a, b)
    table = np.asarray(step_cost)
    if table.shape != board.neighbors.shape:
        raise ValueError(
            f"step_cost table has shape {table.shape}, "
            f"expected {board.neighbors.shape} (cells x directions)"
        )
    rows = _as_rows(table)
    return lambda a, d, b: rows[a][d] if rows[a][d] >= 0 else None


# Games pass the same read-only tables (neighbours, climb costs) on every search; their
# Python-list forms are kept here, keyed by id, with the array held so the id stays unique.
# A game uses a handful of tables, so the bounds only matter to processes that make many maps.
_ROWS_CACHE: LRU[tuple[int, ...], tuple[tuple, list]] = LRU(256)


def _as_rows(table: np.ndarray) -> list:
    if table.flags.writeable:
        return table.tolist()
    return by_identity(_ROWS_CACHE, (table,), table.tolist)


_ADJACENCY_CACHE: LRU[tuple[int, ...], tuple[tuple, list]] = LRU(64)


def _adjacency(board: Board, step_cost: np.ndarray | None) -> list[list[tuple[int, int]]]:
    """Per cell, (neighbour, step cost) pairs with forbidden steps left out; cached for
    read-only cost tables, so a search walks short lists instead of direction tables."""
    table = None if step_cost is None else np.asarray(step_cost)
    if table is None or not table.flags.writeable:
        return by_identity(_ADJACENCY_CACHE, (board, table), lambda: _adjacency_lists(board, table))
    return _adjacency_lists(board, table)


def _adjacency_lists(board: Board, table: np.ndarray | None) -> list[list[tuple[int, int]]]:
    neighbors = _as_rows(board.neighbors)
    rows = None if table is None else _as_rows(table)
    adjacency = [
        [
            (nxt, 1 if rows is None else rows[cell][d])
            for d, nxt in enumerate(cells)
            if nxt >= 0 and (rows is None or rows[cell][d] >= 0)
        ]
        for cell, cells in enumerate(neighbors)
    ]
    return adjacency


_CSR_CACHE: LRU[tuple[int, ...], tuple[tuple, tuple]] = LRU(64)


def _csr(board: Board, step_cost: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The compiled search's form of the step table (:func:`~envs.core.kernels.csr_steps`, in
    direction order like :func:`_adjacency`), cached like it for read-only cost tables."""
    table = None if step_cost is None else np.asarray(step_cost)
    build = lambda: csr_steps(board.neighbors, table, by_cost=False)  # noqa: E731
    if table is None or not table.flags.writeable:
        return by_identity(_CSR_CACHE, (board, table), build)
    return build()


def _stop_rule(stops: StopRule, n: int) -> Callable[[int, int], bool]:
    if callable(stops):
        return lambda a, b: bool(stops(a, b))
    mask = _cell_mask(stops, n, "stops_after_entering", False).tolist()
    return lambda a, b: mask[b]


def _check_start(board: Board, start: int, max_cost: int | None) -> None:
    if not (0 <= start < board.n_cells) or not board.exists[start]:
        raise ValueError(f"start cell {start} is not a space of the board")
    if max_cost is not None and max_cost < 0:
        raise ValueError(f"max_cost must be >= 0, got {max_cost}")


@dataclass(frozen=True)
class Reach:
    """Result of :func:`reachable`: cheapest cost and path to every reached cell."""

    start: int
    cost: np.ndarray  # int32[n]: cheapest cost to reach each cell, NOT_REACHED if never
    predecessor: np.ndarray  # int32[n]: cell before it on its cheapest path, -1 at start/unreached
    end_mask: np.ndarray  # bool[n]: reached cells where the move may end (start included)
    # Search states are 2*cell + stopped; a path may pass a cell in its going-on state while
    # that cell's own cheapest arrival stops there, so paths follow states, not cells.
    _state_pred: np.ndarray = field(repr=False)  # int64[2n], -1 = none
    _label: np.ndarray = field(repr=False)  # int64[n]: stopped bit of each cell's best arrival

    def reached(self) -> np.ndarray:
        """bool[n]: cells the figure can step into (end there or pass through)."""
        return self.cost != NOT_REACHED

    def destinations(self) -> np.ndarray:
        """Ascending cells where the move may end; the start is always one (a move of 0)."""
        return np.flatnonzero(self.end_mask)

    def path_to(self, cell: int) -> list[int]:
        """Cells from the start to ``cell`` inclusive, along the cheapest path."""
        if not (0 <= cell < self.cost.shape[0]) or self.cost[cell] == NOT_REACHED:
            raise ValueError(f"cell {cell} was not reached from {self.start}")
        state = 2 * int(cell) + int(self._label[cell])
        path = []
        while state >= 0:
            path.append(state // 2)
            state = int(self._state_pred[state])
        return path[::-1]


def reachable(
    board: Board,
    start: int,
    max_cost: int | None,
    step_cost: StepCost = None,
    can_enter: np.ndarray | None = None,
    stops_after_entering: StopRule = None,
    can_end: np.ndarray | None = None,
) -> Reach:
    """Every cell reachable from ``start`` within ``max_cost`` (``None``: unlimited).

    See the module docstring for the rules. Stop rules never apply to the start cell, so a
    figure starting in water may leave it (HS-6.8 default). A cell whose entry ends the move
    but where the move may not end is never entered (HS-6.8: occupied water), so it is
    neither reached nor a path step.
    """
    start = int(start)
    _check_start(board, start, max_cost)
    n = board.n_cells
    enter = (_cell_mask(can_enter, n, "can_enter", True) & board.exists).tolist()
    end = _cell_mask(can_end, n, "can_end", True)
    end_list = end.tolist()
    # Tables (the common case) are read directly in the loop; callables go through a call.
    adjacency: list[list[tuple[int, int]]] | None = None
    cost_of = _cost_rule(board, step_cost)  # also validates a table's shape
    if not callable(step_cost):
        if not callable(stops_after_entering) and max_cost is not None:
            stop_cells = _cell_mask(stops_after_entering, n, "stops_after_entering", False)
            # a cell whose entry stops the move may only be entered where the move may end
            may_enter = (
                _cell_mask(can_enter, n, "can_enter", True) & board.exists & (~stop_cells | end)
            )
            return _reachable_by_cell(
                _csr(board, step_cost), start, int(max_cost), may_enter, stop_cells, end
            )
        adjacency = _adjacency(board, step_cost)
    stop_list: list[bool] | None = None
    stop_of: Callable[[int, int], bool] | None = None
    if callable(stops_after_entering):
        stop_of = _stop_rule(stops_after_entering, n)
    else:
        stop_list = _cell_mask(stops_after_entering, n, "stops_after_entering", False).tolist()
    budget = np.inf if max_cost is None else max_cost
    neighbors = _as_rows(board.neighbors)
    # A cell can be reached both by a step that ends the move there and by one that lets it
    # go on (HC-5.10: hindering -> hindering); search states (cell, stopped) = 2*cell+stopped.
    best = {2 * start: 0}
    pred = {2 * start: -1}
    heap = [(0, 2 * start)]
    done = set()
    while heap:
        cost, state = heapq.heappop(heap)
        if state in done:
            continue
        done.add(state)
        cell, stopped = divmod(state, 2)
        if stopped:
            continue
        steps = adjacency[cell] if adjacency is not None else enumerate(neighbors[cell])
        for nxt, step in steps:
            if adjacency is None:  # (direction, cell) pairs for a callable cost
                direction, nxt = nxt, step
                if nxt < 0:
                    continue
                step = cost_of(cell, direction, nxt)
                if step is None:
                    continue
                if step < 0:
                    raise ValueError(f"negative step cost {step} from {cell} to {nxt}")
            if not enter[nxt]:
                continue
            total = cost + step
            if total > budget:
                continue
            # stop_of is set exactly when stop_list is not (mypy cannot tie the two together).
            halt = stop_list[nxt] if stop_list is not None else stop_of(cell, nxt)  # type: ignore[misc]
            if halt and not end_list[nxt]:
                continue
            target = 2 * nxt + int(halt)
            if total < best.get(target, NOT_REACHED):
                best[target] = total
                pred[target] = state
                heapq.heappush(heap, (total, target))
    # Per cell, its best arrival; on a tie prefer going on: as cheap and no more constrained.
    chosen: dict[int, tuple[int, int]] = {}
    for state in sorted(best):  # the going-on state (even) comes before the stopped one
        cell = state >> 1
        total = best[state]
        if cell not in chosen or total < chosen[cell][0]:
            chosen[cell] = (total, state)
    cell_cost = np.full(n, NOT_REACHED, dtype=np.int32)
    label = np.zeros(n, dtype=np.int64)
    predecessor = np.full(n, -1, dtype=np.int32)
    state_pred = np.full(2 * n, -1, dtype=np.int64)
    states = list(best)
    state_pred[states] = [pred[s] for s in states]
    cells = list(chosen)
    cell_cost[cells] = [chosen[c][0] for c in cells]
    label[cells] = [chosen[c][1] & 1 for c in cells]
    predecessor[cells] = [pred[chosen[c][1]] >> 1 if pred[chosen[c][1]] >= 0 else -1 for c in cells]
    end_mask = (cell_cost != NOT_REACHED) & end
    end_mask[start] = True
    for array in (cell_cost, predecessor, end_mask, state_pred, label):
        array.setflags(write=False)
    return Reach(start, cell_cost, predecessor, end_mask, state_pred, label)


def _reachable_by_cell(
    csr: tuple[np.ndarray, np.ndarray, np.ndarray],
    start: int,
    budget: int,
    may_enter: np.ndarray,
    stop: np.ndarray,
    end: np.ndarray,
) -> Reach:
    """:func:`reachable` when stopping depends on the entered cell alone: each cell is then
    always stopped or always going on when entered, so one search state per cell suffices
    (the compiled :func:`~envs.core.kernels.search_by_cell`)."""
    n = end.shape[0]
    best, pred = search_by_cell(*csr, start, budget, may_enter, stop)
    reached = best != NOT_REACHED
    label = (reached & stop).astype(np.int64)
    label[start] = 0
    # Predecessors are always going-on states (stopped cells are never expanded).
    cells = np.flatnonzero(reached)
    state_pred = np.full(2 * n, -1, dtype=np.int64)
    state_pred[2 * cells + label[cells]] = np.where(pred[cells] >= 0, 2 * pred[cells], -1)
    end_mask = reached & end
    end_mask[start] = True
    for array in (best, pred, end_mask, state_pred, label):
        array.setflags(write=False)
    return Reach(start, best, pred, end_mask, state_pred, label)


def reachable_destinations(
    board: Board,
    start: int,
    max_cost: int,
    step_cost: np.ndarray | None,
    can_enter: np.ndarray,
    stops_after_entering: np.ndarray,
    can_end: np.ndarray,
) -> list[int]:
    """``reachable(...).destinations()`` as a sorted list, for the common case of a cost
    table and per-cell stop rules, without building the paths (a game's legal-move mask
    needs only the destinations)."""
    start = int(start)
    _check_start(board, start, max_cost)
    n = board.n_cells
    end = _cell_mask(can_end, n, "can_end", True)
    stop = _cell_mask(stops_after_entering, n, "stops_after_entering", False)
    may_enter = _cell_mask(can_enter, n, "can_enter", True) & board.exists & (~stop | end)
    _cost_rule(board, step_cost)  # validates the table shape
    best, _ = search_by_cell(*_csr(board, step_cost), start, int(max_cost), may_enter, stop)
    ends = (best != NOT_REACHED) & end
    ends[start] = True
    return np.flatnonzero(ends).tolist()


def step_counts(
    board: Board,
    start: int,
    can_enter: np.ndarray | None = None,
    max_cost: int | None = None,
    stops_after_entering: np.ndarray | None = None,
) -> list[int]:
    """Fewest steps from ``start`` to every cell (``NOT_REACHED`` where none), one step per
    move, for searches that need only the counts (a shortest way forward, a shot around
    corners): ``reachable`` without the paths, as a plain list."""
    start = int(start)
    _check_start(board, start, max_cost)
    n = board.n_cells
    stop = _cell_mask(stops_after_entering, n, "stops_after_entering", False)
    may_enter = _cell_mask(can_enter, n, "can_enter", True) & board.exists
    budget = n if max_cost is None else int(max_cost)
    best, _ = search_by_cell(*_csr(board, None), start, budget, may_enter, stop)
    return best.tolist()


def straight_line(
    board: Board, start: int, direction: int, max_steps: int, stop_at: np.ndarray | None = None
) -> list[int]:
    """Cells met walking ``direction`` repeatedly from ``start`` (excluded), at most
    ``max_steps``; the walk ends before a non-space or wall, and just after the first cell
    marked in ``stop_at`` (e.g. the monster a Heroica Bow shot hits, HE-12.4)."""
    if not (0 <= direction < board.n_directions):
        raise ValueError(f"direction {direction} out of range 0..{board.n_directions - 1}")
    cells: list[int] = []
    cell = int(start)
    for _ in range(max_steps):
        cell = board.step(cell, direction)
        if cell < 0:
            break
        cells.append(cell)
        if stop_at is not None and stop_at[cell]:
            break
    return cells


def cells_within(board: Board, cell: int, radius: int) -> np.ndarray:
    """Ascending spaces at most ``radius`` steps from ``cell`` on the board graph (walls and
    gaps respected, levels ignored), ``cell`` itself included."""
    return np.flatnonzero(board.distance[cell] <= radius)


# ---------------------------------------------------------------------------------------------
# Double-space figures (HS-7)
# ---------------------------------------------------------------------------------------------

Pair = tuple[int, int]


@dataclass(frozen=True)
class DoubleReach:
    """Result of :func:`reachable_double`. Positions are (leader, follower) spaces;
    destinations are unordered pairs written ``(low cell, high cell)``."""

    start: Pair
    cost: dict[Pair, int]  # cheapest cost to end on each destination pair
    _paths: dict[Pair, tuple[Pair, ...]]

    def destinations(self) -> list[Pair]:
        """Sorted destination pairs; the start pair is always one."""
        return sorted(self.cost)

    def path_to(self, pair: Pair) -> list[Pair]:
        """(leader, follower) after each step, from the start position to ``pair``."""
        key = (min(pair), max(pair))
        if key not in self._paths:
            raise ValueError(f"{pair} is not a destination from {self.start}")
        return list(self._paths[key])


def reachable_double(
    board: Board,
    halves: Pair,
    max_cost: int | None,
    step_cost: StepCost = None,
    can_enter: np.ndarray | None = None,
    stops_after_entering: np.ndarray | None = None,
    can_end: np.ndarray | None = None,
) -> DoubleReach:
    """Destinations of a double-space figure standing on the adjacent spaces ``halves``.

    HS-7.1: one half leads for the whole move (both choices are searched); the follower
    steps into the space the leader has just left; the leader may not step onto its own
    follower. Cost and climbing count only the leader's steps. Every space entered must be
    in ``can_enter`` (the follower only enters spaces the leader entered first). HS-7.5:
    the move ends at once when both halves stand on ``stops_after_entering`` cells.
    HS-7.2: the move may end only on two ``can_end`` spaces of the same level; a step that
    would force a stop anywhere else is not taken. The start is always a destination.
    """
    a, b = int(halves[0]), int(halves[1])
    _check_start(board, a, max_cost)
    _check_start(board, b, max_cost)
    if board.direction_between(a, b) < 0:
        raise ValueError(f"halves {halves} are not adjacent spaces")
    n = board.n_cells
    enter = (_cell_mask(can_enter, n, "can_enter", True) & board.exists).tolist()
    end = _cell_mask(can_end, n, "can_end", True).tolist()
    stop = _cell_mask(stops_after_entering, n, "stops_after_entering", False).tolist()
    level = board.level.tolist()
    cost_of = _cost_rule(board, step_cost)
    budget = np.inf if max_cost is None else max_cost
    neighbors = _as_rows(board.neighbors)

    def may_end(x: int, y: int) -> bool:
        return end[x] and end[y] and level[x] == level[y]

    best: dict[Pair, int] = {(a, b): 0, (b, a): 0}
    pred: dict[Pair, Pair | None] = {(a, b): None, (b, a): None}
    heap = [(0, a, b), (0, b, a)]
    done: set[Pair] = set()
    while heap:
        cost, leader, follower = heapq.heappop(heap)
        state = (leader, follower)
        if state in done:
            continue
        done.add(state)
        if pred[state] is not None and stop[leader] and stop[follower]:
            continue
        for direction, nxt in enumerate(neighbors[leader]):
            if nxt < 0 or nxt == follower or not enter[nxt]:
                continue
            step = cost_of(leader, direction, nxt)
            if step is None:
                continue
            total = cost + step
            if total > budget:
                continue
            if stop[nxt] and stop[leader] and not may_end(nxt, leader):
                continue
            new = (nxt, leader)
            if total < best.get(new, NOT_REACHED):
                best[new] = total
                pred[new] = state
                heapq.heappush(heap, (total, nxt, leader))
    start_key = (min(a, b), max(a, b))
    costs: dict[Pair, int] = {start_key: 0}
    paths: dict[Pair, tuple[Pair, ...]] = {start_key: ((a, b),)}
    for state in sorted(best, key=lambda s: (best[s], s)):
        key = (min(state), max(state))
        if key in costs or not may_end(*state):
            continue
        costs[key] = best[state]
        chain = [state]
        while pred[chain[-1]] is not None:
            chain.append(pred[chain[-1]])  # type: ignore[arg-type]
        paths[key] = tuple(chain[::-1])
    return DoubleReach((a, b), costs, paths)
