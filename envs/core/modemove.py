"""Movement over (square, mode) states: flyers that hover or soar, and HeroClix stop rules.

A figure moves in one of several *modes* (a ground figure has one; a flyer hovers, mode 0, or
soars, mode 1; the search takes any number). Each mode has its own :class:`ModeRules`, per-cell
masks over the board. :func:`reachable_modes` searches the states (cell, mode), plus whether the
move has been stopped, and returns a :class:`ModeReach`: the cheapest arrival at each state, where
the move may end, and deterministic paths.

The rules the search applies (the masks say where):

* HC-3.19: each step costs 1 (or ``step_cost``), straight or diagonal, along the ``neighbors``
  table the caller passes (walls as they stand now; a diagonal past a wall corner is -1 there).
  A mode that may not take some steps of that table forbids them with a negative ``step_cost``
  (HC-5.8: levels change only by stairs or ladder, and a ladder costs 2 up, unless flying or
  Leap/Climb, HC-5.18, R-10); so modes that differ in which steps exist share one table.
* HC-3.20: ``can_enter`` (friends passable, enemies not; blocking squares not for ground
  figures). HC-3.22, HC-3.27: ``can_end`` (never an occupied square).
* HC-5.10 default: entering a ``hindering`` square ends the move, also a step from one
  hindering square into the next. With ``hindering_chains`` (the [2002] reading) a step from
  hindering into hindering (in the same mode) goes on; only entering from outside ends it.
* HC-3.21, HC-3.25 default: entering a ``stop_cells`` square ends the move. Build them with
  :func:`enemy_stop_cells`: squares next to an enemy that was not adjacent when the move began.
* A square whose entry would end the move where the move may not end is never entered
  (HC-3.22: the figure stops on the last empty square before it).
* Stop rules never apply to the seeds: a figure may leave hindering terrain (the game passes
  ``ceil(speed / 2)`` as the budget, HC-5.10) or squares next to enemies it broke away from.
* HC-3.26 default: a switch from mode ``a`` to ``b`` in place costs ``switch_cost`` and is a
  step of its own, legal anywhere in the move, even as its only step, where
  ``modes[a].may_switch`` allows it and ``modes[b].can_enter`` holds for the square (HC-5.3
  default: no soaring on an indoor square, not even on the square the move began on). A
  stopped state neither moves nor switches. A switch enters no terrain, so hindering never
  stops it; but switching into a mode whose ``stop_cells`` mark the square ends the move
  (``switch_stops``, default True): a soaring flyer that drops to hovering beside a ground
  enemy is then adjacent to it (HC-3.13, HC-3.21 default) and could leave only by breaking away.

HeroClix recipe (the game builds the masks; this module knows no terrain), enemies split by
whether they soar:

* ground figure, one mode: ``can_enter`` = not enemy, not blocking; ``hindering`` = hindering
  squares; ``stop_cells`` = ``enemy_stop_cells(adjacency_table(board, blocking), ground
  enemies, start)``; ``step_cost`` for stairs and ladders (HC-5.8).
* flyer, hover: outdoors it crosses walls and blocking squares but may not end on blocking
  (HC-5.1 default), indoors it may not (HC-5.4); ``hindering`` = hindering and indoor (HC-3.28
  default); ``stop_cells`` from the non-soaring enemies (``start`` only if it began hovering).
* flyer, soar: ``can_enter`` = not indoor (HC-3.29, HC-5.3 defaults), enemies and blocking
  included; ``can_end`` excludes blocking and occupied squares; no hindering; ``stop_cells`` =
  ``enemy_stop_cells(touching_table(board), soaring enemies, start)`` (HC-3.29: only soaring
  enemies stop it; ``start`` only if it began soaring). Carrying (HC-3.30): soar ``can_end``
  all False, so the move ends hovering.
* Leap/Climb (R-10) and Phasing (R-11): one mode without ``hindering``; Phasing's ``can_enter``
  includes occupied squares; both keep their ``stop_cells`` (their defaults).

Costs are small non-negative integers searched with a bucket queue (Dijkstra). Each state's
predecessor is the lowest-index state (``mode * n + cell``) among those reaching it at its best
cost, so results never depend on direction order. Read-only ``neighbors`` and ``step_cost``
arrays have their list forms cached: games should pass the same read-only tables each call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .board import SQUARE8_DIRECTIONS, Board
from .kernels import NOT_REACHED, csr_steps, entry_codes, search_modes
from .lru import LRU, by_identity

__all__ = [
    "NOT_REACHED",
    "ModeRules",
    "ModeReach",
    "mode_reach",
    "mode_steps",
    "reachable_modes",
    "squares_next_to",
    "touching_table",
    "squares_touching",
    "enemy_stop_cells",
]

Seed = tuple[int, int, int]


@dataclass(frozen=True, eq=False)
class ModeRules:
    """Per-cell rules of one movement mode; every mask is over the cells of ``neighbors``.

    Masks describe the board without the moving figure (its own square is empty to it).
    """

    can_enter: np.ndarray  # bool[n]: may step into (HC-3.20)
    can_end: np.ndarray | None = None  # bool[n]: may end the move here (HC-3.22); None = can_enter
    step_cost: np.ndarray | None = None  # int[n, k] aligned with neighbors, <0 forbidden; None = 1
    hindering: np.ndarray | None = None  # bool[n]: a step into it stops the move (HC-5.10)
    stop_cells: np.ndarray | None = None  # bool[n]: entering stops (HC-3.21, HC-3.25)
    may_switch: np.ndarray | None = None  # bool[n]: may switch away from this mode; None = anywhere
    hindering_chains: bool = False  # a step from hindering into hindering goes on (HC-5.10 [2002])


@dataclass(frozen=True, eq=False)
class ModeReach:
    """Result of :func:`reachable_modes`; arrays are ``[mode, cell]`` and read-only."""

    seeds: tuple[Seed, ...]
    cost: np.ndarray  # int32: cheapest arrival, going on or stopped (NOT_REACHED if none)
    going_on: np.ndarray  # int32: cheapest arrival from which the move may continue
    ends: np.ndarray  # bool: reached and the move may end there; seed states included
    # per going-on state: its going-on predecessor, -1 at a seed
    _pred: np.ndarray = field(repr=False)
    _stop_pred: np.ndarray = field(repr=False)  # per stopped state: its going-on predecessor

    @property
    def n_modes(self) -> int:
        return self.cost.shape[0]

    def reached(self) -> np.ndarray:
        """bool[mode, cell]: states the figure can be in during the move."""
        return self.cost != NOT_REACHED

    def destinations(self) -> np.ndarray:
        """Ascending cells where the move may end in at least one mode."""
        return np.flatnonzero(self.ends.any(axis=0))

    def path_to(self, cell: int, mode: int) -> list[tuple[int, int]]:
        """(cell, mode) states from a seed to (``cell``, ``mode``) along a cheapest way; a
        switch appears as two states on one cell. Its step costs (plus the seed's spent cost)
        sum to ``cost[mode, cell]``."""
        n_modes, n = self.cost.shape
        if not (0 <= mode < n_modes):
            raise ValueError(f"mode {mode} out of range 0..{n_modes - 1}")
        if not (0 <= cell < n) or self.cost[mode, cell] == NOT_REACHED:
            raise ValueError(f"state (cell {cell}, mode {mode}) was not reached")
        state = int(mode) * n + int(cell)
        # Prefer the going-on arrival on a tie: as cheap, and the one the search expanded.
        stopped = self.going_on[mode, cell] != self.cost[mode, cell]
        path = []
        while state >= 0:
            path.append((state % n, state // n))
            state = int(self._stop_pred[state] if stopped else self._pred[state])
            stopped = False
        return path[::-1]


# -------------------------------------------------------------------------------------------
# Input checks and cached list forms
# -------------------------------------------------------------------------------------------


def _int_table(table, name: str, shape: tuple[int, ...] | None = None) -> np.ndarray:
    array = np.asarray(table)
    if array.ndim != 2 or not (array.dtype.kind in "iu" or array.size == 0):
        raise ValueError(f"{name} must be a 2-D integer table, got {array.dtype} {array.shape}")
    if shape is not None and array.shape != shape:
        raise ValueError(f"{name} has shape {array.shape}, expected {shape} (cells x directions)")
    return array


# Read-only neighbour tables already checked (a game passes the same few on every search).
_CHECKED: LRU[tuple[int, ...], tuple[tuple, np.ndarray]] = LRU(64)


def _checked_neighbors(neighbors) -> np.ndarray:
    if isinstance(neighbors, np.ndarray) and not neighbors.flags.writeable:
        return by_identity(_CHECKED, (neighbors,), lambda: _check_neighbors(neighbors))
    return _check_neighbors(neighbors)


def _check_neighbors(neighbors) -> np.ndarray:
    table = _int_table(neighbors, "neighbors")
    n = table.shape[0]
    if table.size and (table.min() < -1 or table.max() >= n):
        raise ValueError(f"neighbors holds cells outside -1..{n - 1}")
    return table


def _mask(value, n: int, name: str, default: bool) -> np.ndarray:
    if value is None:
        return np.full(n, default, dtype=bool)
    mask = np.asarray(value)
    if mask.shape != (n,):
        raise ValueError(f"{name} has shape {mask.shape}, expected ({n},)")
    return mask.astype(bool, copy=False)


# Per mode's (neighbors, step_cost) of read-only tables: the CSR of its steps in ascending
# (cost, target) order, so the search checks the budget once per step and stops at the first
# step too dear (the tables are held so their ids stay unique).
_STEPS_CACHE: LRU[tuple[int, ...], tuple[tuple, tuple]] = LRU(64)


def _steps(
    neighbors: np.ndarray, step_cost: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    build = lambda: csr_steps(neighbors, step_cost, by_cost=True)  # noqa: E731
    if not neighbors.flags.writeable and (step_cost is None or not step_cost.flags.writeable):
        return by_identity(_STEPS_CACHE, (neighbors, step_cost), build)
    return build()


_ALL_STEPS_CACHE: LRU[tuple[int, ...], tuple[tuple, tuple]] = LRU(64)


def _all_steps(
    per_mode: list[tuple[np.ndarray, np.ndarray, np.ndarray]], n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The modes' CSR tables end to end over states ``mode * n + cell`` (cached while the
    per-mode tables are: a flyer's two modes repeat every search)."""
    if len(per_mode) == 1:
        return per_mode[0]
    return by_identity(_ALL_STEPS_CACHE, tuple(per_mode), lambda: _join_steps(per_mode, n))


def _join_steps(
    per_mode: list[tuple[np.ndarray, np.ndarray, np.ndarray]], n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    offsets = [per_mode[0][0]]
    for offs, _, _ in per_mode[1:]:
        offsets.append(offs[1:] + offsets[-1][-1])
    targets = [t + index * n for index, (_, t, _) in enumerate(per_mode)]
    return (
        np.concatenate(offsets),
        np.concatenate(targets).astype(np.int32, copy=False),
        np.concatenate([c for _, _, c in per_mode]),
    )


def _check_seeds(seeds: Sequence[Seed], n: int, n_modes: int, budget: int) -> tuple[Seed, ...]:
    if len(seeds) == 0:
        raise ValueError("at least one seed (cell, mode, cost) is needed")
    checked = []
    for seed in seeds:
        if len(seed) != 3:
            raise ValueError(f"seed {seed!r} is not (cell, mode, cost)")
        cell, mode, spent = (int(x) for x in seed)
        if not (0 <= cell < n):
            raise ValueError(f"seed cell {cell} out of range 0..{n - 1}")
        if not (0 <= mode < n_modes):
            raise ValueError(f"seed mode {mode} out of range 0..{n_modes - 1}")
        if not (0 <= spent <= budget):
            raise ValueError(f"seed cost {spent} outside 0..budget {budget}")
        checked.append((cell, mode, spent))
    return tuple(checked)


def _mode_masks(
    rules: ModeRules, n: int, index: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(can_enter, can_end, stop_cells, hindering, may_switch) of one mode, defaults filled."""
    name = f"modes[{index}]"
    enter = _mask(rules.can_enter, n, f"{name}.can_enter", True)
    end = enter if rules.can_end is None else _mask(rules.can_end, n, f"{name}.can_end", True)
    stop = _mask(rules.stop_cells, n, f"{name}.stop_cells", False)
    hind = _mask(rules.hindering, n, f"{name}.hindering", False)
    switch = _mask(rules.may_switch, n, f"{name}.may_switch", True)
    return enter, end, stop, hind, switch


# -------------------------------------------------------------------------------------------
# The search
# -------------------------------------------------------------------------------------------


def reachable_modes(
    neighbors: np.ndarray,
    seeds: Sequence[Seed],
    budget: int,
    modes: Sequence[ModeRules],
    switch_cost: int = 1,
    switch_stops: bool = True,
) -> ModeReach:
    """Every (cell, mode) state reachable from ``seeds`` within ``budget`` (HC-3.19 to HC-3.29).

    ``neighbors``: int[n, k], the step table as it stands now (-1 = no step). ``seeds``:
    (cell, mode, cost already spent) start states; several continue a move after a zero-cost
    event (HC-6.6 pick-up). ``modes``: one :class:`ModeRules` per mode. ``switch_cost``: the
    cost of a mode switch (HC-3.26); ``switch_stops``: whether switching into a square of the
    new mode's ``stop_cells`` ends the move. See the module docstring for the rules.
    """
    table = _checked_neighbors(neighbors)
    n = table.shape[0]
    budget = int(budget)
    if budget < 0:
        raise ValueError(f"budget must be >= 0, got {budget}")
    if int(switch_cost) < 0:
        raise ValueError(f"switch_cost must be >= 0, got {switch_cost}")
    switch_cost = int(switch_cost)
    n_modes = len(modes)
    if n_modes == 0:
        raise ValueError("at least one mode is needed")
    seeds = _check_seeds(seeds, n, n_modes, budget)
    size = n_modes * n
    codes = np.empty(size, dtype=np.int8)
    arrivals = np.empty(size, dtype=np.int8)
    hinders = np.empty(size, dtype=bool)
    switches = np.empty(size, dtype=bool)
    ends = np.empty(size, dtype=bool)
    steps = []
    for index, rules in enumerate(modes):
        if not isinstance(rules, ModeRules):
            raise ValueError(f"modes[{index}] is {type(rules).__name__}, not ModeRules")
        cost_table = None
        if rules.step_cost is not None:
            cost_table = _int_table(rules.step_cost, f"modes[{index}].step_cost", table.shape)
        steps.append(_steps(table, cost_table))
        enter, end, stop, hind, switch = _mode_masks(rules, n, index)
        part = slice(index * n, (index + 1) * n)
        entry_codes(
            enter,
            end,
            stop,
            hind,
            rules.hindering_chains,
            switch_stops,
            codes[part],
            arrivals[part],
        )
        hinders[part] = hind
        switches[part] = switch
        ends[part] = end
    seed_states = np.array([mode * n + cell for cell, mode, _ in seeds], dtype=np.int64)
    seed_costs = np.array([spent for _, _, spent in seeds], dtype=np.int64)
    found = search_modes(
        n,
        seed_states,
        seed_costs,
        budget,
        *_all_steps(steps, n),
        codes,
        arrivals,
        hinders,
        switches,
        switch_cost,
    )
    return mode_reach(seeds, found, ends, n)


def mode_steps(
    neighbors: np.ndarray, step_costs: Sequence[np.ndarray | None]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The CSR steps (offsets, targets, costs) of every mode over the states
    ``mode * n + cell``, one ``step_cost`` table per mode (None: 1 per step), as
    :func:`reachable_modes` searches them; cached while the tables are the same read-only
    arrays. For a game that builds the search's masks itself (a kernel of its own); the
    tables are not checked here."""
    n = neighbors.shape[0]
    return _all_steps([_steps(neighbors, cost) for cost in step_costs], n)


def mode_reach(
    seeds: Sequence[Seed],
    found: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    can_end: np.ndarray,
    n: int,
) -> ModeReach:
    """The :class:`ModeReach` of a search's result ``found`` (best going-on cost, its
    predecessor, best stopped cost, its predecessor, over the states), ``can_end`` (bool over
    the states: where the move may end) and its ``seeds``."""
    best, pred, best_stop, pred_stop = found
    n_modes = best.shape[0] // n
    going_on = best.reshape(n_modes, n)
    cost = np.minimum(going_on, best_stop.reshape(n_modes, n))
    ends = (cost != NOT_REACHED) & can_end.reshape(n_modes, n)
    for cell, mode, _ in seeds:
        ends[mode, cell] = True
    for array in (cost, going_on, ends, pred, pred_stop):
        array.setflags(write=False)
    return ModeReach(tuple(seeds), cost, going_on, ends, pred, pred_stop)


# -------------------------------------------------------------------------------------------
# Stop squares next to enemies (HC-3.13, HC-3.21, HC-3.23, HC-3.25, HC-3.29)
# -------------------------------------------------------------------------------------------


def _cell_list(cells: Iterable[int], n: int) -> list[int]:
    out = [int(c) for c in cells]
    bad = [c for c in out if not (0 <= c < n)]
    if bad:
        raise ValueError(f"cells {bad} out of range 0..{n - 1}")
    return out


def squares_next_to(adjacency: np.ndarray, cells: Iterable[int]) -> np.ndarray:
    """bool[n]: squares adjacent, under ``adjacency`` (an int[n, k] table such as
    :func:`~envs.core.adjacency.adjacency_table` or :func:`touching_table`, -1 = none), to
    any of ``cells``; a listed cell is marked only if it is next to another listed one."""
    table = _int_table(adjacency, "adjacency")
    n = table.shape[0]
    cells = _cell_list(cells, n)
    if table.flags.writeable:
        # Index n is a permanent False, which the -1 entries of the table pick (Python's [-1]).
        marks = np.zeros(n + 1, dtype=bool)
        marks[cells] = True
        return marks[table].any(axis=1)
    # A read-only table is asked again and again with a few cells: walk its reverse (the
    # squares whose row names each cell) instead of the whole table.
    offsets, squares = _reverse(table)
    found = np.zeros(n, dtype=bool)
    for cell in cells:
        found[squares[offsets[cell] : offsets[cell + 1]]] = True
    return found


_REVERSE_CACHE: LRU[tuple[int, ...], tuple[tuple, tuple]] = LRU(64)


def _reverse(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(offsets int[n + 1], squares): the squares whose row of ``table`` holds cell ``c`` are
    ``squares[offsets[c]:offsets[c + 1]]`` (cached per read-only table)."""
    return by_identity(_REVERSE_CACHE, (table,), lambda: _reverse_table(table))


def _reverse_table(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = table.shape[0]
    rows = np.repeat(np.arange(n), table.shape[1])
    named = table.reshape(-1)
    valid = named >= 0
    order = np.argsort(named[valid], kind="stable")
    squares = rows[valid][order]
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(named[valid], minlength=n), out=offsets[1:])
    return offsets, squares


def touching_table(board_or_shape: Board | tuple[int, int]) -> np.ndarray:
    """int32[n, 8]: the grid square in each square8 direction (-1 off the grid, or off the
    board's spaces when a :class:`Board` is given), walls and levels ignored: adjacency
    between soaring figures (HC-3.13 default, HC-3.29)."""
    if isinstance(board_or_shape, Board):
        height, width = board_or_shape.height, board_or_shape.width
        exists = board_or_shape.exists
    else:
        height, width = (int(x) for x in board_or_shape)
        exists = np.ones(height * width, dtype=bool)
    if height < 0 or width < 0:
        raise ValueError(f"bad board shape {(height, width)}")
    rows, cols = np.divmod(np.arange(height * width), max(width, 1))
    table = np.full((height * width, len(SQUARE8_DIRECTIONS)), -1, dtype=np.int32)
    for direction, (dr, dc) in enumerate(SQUARE8_DIRECTIONS):
        r2, c2 = rows + dr, cols + dc
        ok = (r2 >= 0) & (r2 < height) & (c2 >= 0) & (c2 < width)
        there = np.where(ok, r2 * width + c2, 0)
        ok &= exists & exists[there]
        table[:, direction] = np.where(ok, there, -1)
    table.setflags(write=False)
    return table


def squares_touching(board_or_shape: Board | tuple[int, int], cells: Iterable[int]) -> np.ndarray:
    """bool[n]: squares at grid distance 1 from any of ``cells``, walls and levels ignored
    (stop squares next to soaring enemies for a soaring figure, HC-3.29)."""
    return squares_next_to(touching_table(board_or_shape), cells)


def enemy_stop_cells(
    adjacency: np.ndarray, enemies: Iterable[int], start: int | None = None
) -> np.ndarray:
    """bool[n]: one mode's ``stop_cells``: squares next to (under ``adjacency``) a *new* enemy
    (HC-3.21; HC-3.25 default: any enemy not adjacent to ``start``, the square the move
    began on, when it began). After a successful breakaway (HC-3.23) the enemies next to
    ``start`` stop nothing; without one there were none next to it anyway.

    Give only the enemies this mode can be adjacent to (HC-3.13: soaring with soaring) and
    the table of that mode (:func:`~envs.core.adjacency.adjacency_table` or
    :func:`touching_table`). ``start=None``: every enemy is new, as when the figure began the
    move in another mode (a flyer that began soaring was adjacent to no ground enemy).
    """
    table = _int_table(adjacency, "adjacency")
    n = table.shape[0]
    foes = _cell_list(enemies, n)
    if start is not None:
        start = _cell_list([start], n)[0]
        broke_away = set(table[start].tolist())
        foes = [e for e in foes if e not in broke_away]
    return squares_next_to(table, foes)
