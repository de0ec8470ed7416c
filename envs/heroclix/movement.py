"""Where a HeroClix figure may move: the masks of :func:`envs.core.modemove.reachable_modes`
built from today's terrain, the figure's flight and its powers' traits.

A non-flyer moves in one mode; a flyer in two, hovering (mode 0) and soaring (mode 1),
switching at a cost of 1 (HC-3.26). Per mode:

=================  ===================================  ==================================
rule               walking / hovering (mode 0)          soaring (mode 1)
=================  ===================================  ==================================
steps              walls and blocking squares stop a    over everything (HC-3.29), never
                   walker (HC-5.14); a hoverer crosses  onto an indoor square (HC-5.3)
                   them outdoors (HC-5.1), not indoors
                   (HC-5.4); levels change by stairs or
                   ladder only (HC-5.8: a ladder costs
                   2 up) unless flying or climbing
enter              not an enemy's square (HC-3.20)      any square
end                empty, not blocking (HC-3.22)        empty, not blocking, outdoors
hindering          stops on entry, also from hindering  none
                   (HC-5.10), halves a start in it;
                   hoverers only indoors (HC-3.28)
next to enemies    a new non-soaring enemy stops it     a new soaring enemy stops it
                   (HC-3.21, HC-3.25)                   (HC-3.29)
=================  ===================================  ==================================

Traits of powers (:mod:`envs.heroclix.powers.hooks`) change the walking mode: ``climbs`` changes level
anywhere, ``ignores_hindering`` drops the hindering rules, ``crosses_blocking_outdoors`` /
``_indoors`` cross walls and blocking squares (ending on one stays illegal), and
``passes_figures`` enters occupied squares (R-10, R-11).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from envs.core.actions import DecodedAction
from envs.core.events import Event
from envs.core.flow import LegalMask
from envs.core.lru import named_lru
from envs.core.modemove import ModeReach, ModeRules, mode_reach, mode_steps, squares_next_to
from envs.heroclix import reach as kernel
from envs.heroclix.flags import IGNORES_ENEMY_STOPS
from envs.heroclix.game import ActionKind, HeroclixBase
from envs.heroclix.powers.hooks import (
    AUTO_BREAKAWAY,
    CLIMBS,
    CROSSES_BLOCKING_INDOORS,
    CROSSES_BLOCKING_OUTDOORS,
    IGNORES_HINDERING,
    PASSES_FIGURES,
    SLIPPERY,
    has_trait,
)
from envs.heroclix.state import GROUND, NO_CELL, NO_FIGURE, SOAR, State

# The mask and the move of one decision ask about the same position, so a few entries catch
# every repeat; step tables vary only with walls broken, flight and traits.
REACH_CACHE_SIZE = 8
STEP_COST_CACHE_SIZE = 64
BREAKAWAY_SUCCESS = 4  # HC-3.23: 4-6 on one d6
SLIPPERY_BREAKAWAY, LEAVING_SLIPPERY = 2, 6  # P-SPD-7 Plasticity


@dataclass(frozen=True)
class MoveTables:
    """Per-map step tables (static): the open neighbour table and which of its steps cross
    a wall slot, change level, climb a ladder or touch an indoor square."""

    open_neighbors: np.ndarray
    level_change: np.ndarray  # bool[n, 8]
    by_stairs: np.ndarray  # bool[n, 8]: a level change along stairs (free, HC-5.8)
    ladder_up: np.ndarray  # bool[n, 8]: up a ladder (costs 2)
    ladder_down: np.ndarray  # bool[n, 8]
    indoor_step: np.ndarray  # bool[n, 8]: either square indoors
    blocking_end: np.ndarray  # bool[n, 8]: the square stepped into is not a space
    soar_cost: np.ndarray  # int[n, 8]: 1 per step over anything, -1 off the map


def move_tables(game: HeroclixBase) -> MoveTables:
    cached = game.caches.get("move_tables")
    if cached is not None:
        return cached
    nb = game.walls.open_neighbors
    valid = nb >= 0
    there = np.where(valid, nb, 0)
    here = np.arange(game.n_cells)[:, None]
    level = game.board.level
    change = valid & (level[there] != level[here])
    stairs = game.stairs
    orthogonal = np.zeros(nb.shape, dtype=bool)
    orthogonal[:, 0::2] = True  # N, E, S, W: a flight is climbed between squares sharing a side
    by_stairs = change & stairs[there] & stairs[here] & orthogonal
    ladder = game.ladder_to
    up = valid & (ladder[here] == there) & (level[there] > level[here])
    down = valid & (ladder[there] == here) & (level[there] < level[here])
    indoor = valid & (game.indoor[there] | game.indoor[here])
    soar_cost = np.where(valid, 1, -1).astype(np.int16)
    for array in (change, by_stairs, up, down, indoor, soar_cost):
        array.setflags(write=False)
    tables = MoveTables(nb, change, by_stairs, up, down, indoor, ~valid, soar_cost)
    game.caches["move_tables"] = tables
    return tables


MOVEMENT_TRAITS = (
    CLIMBS,
    IGNORES_HINDERING,
    CROSSES_BLOCKING_OUTDOORS,
    CROSSES_BLOCKING_INDOORS,
    PASSES_FIGURES,
)


def figure_traits(game: HeroclixBase, state: State, figure: int) -> frozenset[str]:
    """The movement traits of ``figure``'s powers now. A carrier moves without Phasing's
    (P-SPD-3 default: a passenger is not carried through blocking terrain or figures)."""
    powers = game.powers(state, figure)
    carrying = state.passenger != NO_FIGURE and figure == state.selected
    memo = game.caches.setdefault("movement_traits", {})  # depends on these two alone
    traits = memo.get((powers, carrying))
    if traits is None:
        traits = frozenset(t for t in MOVEMENT_TRAITS if has_trait(powers, t))
        if carrying:
            traits -= {CROSSES_BLOCKING_INDOORS, PASSES_FIGURES}
        memo[(powers, carrying)] = traits
    return traits


def _step_costs(
    game: HeroclixBase, state: State, tables: MoveTables, *, flying: bool, traits: frozenset[str]
) -> np.ndarray:
    """int[n, 8] over the open table for walking or hovering: -1 forbidden. Read-only and
    cached per walls standing, flight and traits, so the search reuses its step lists."""
    key = (state.walls_intact.tobytes(), flying, traits)
    cache = named_lru(game.caches, "step_costs", STEP_COST_CACHE_SIZE)
    cost = cache.get(key)
    if cost is not None:
        return cost
    walled = game.neighbors(state) < 0
    if CROSSES_BLOCKING_INDOORS in traits:
        crosses_walls = np.ones_like(walled)  # Phasing crosses walls everywhere
    elif flying or CROSSES_BLOCKING_OUTDOORS in traits:
        crosses_walls = ~tables.indoor_step  # HC-5.1 / R-10 outdoors; HC-5.4 not indoors
    else:
        crosses_walls = np.zeros_like(walled)
    cost = np.ones(tables.open_neighbors.shape, dtype=np.int16)
    cost[walled & ~crosses_walls] = -1
    if not (flying or CLIMBS in traits):  # HC-5.8: stairs and ladders only
        cost[tables.level_change & ~tables.by_stairs & ~tables.ladder_up & ~tables.ladder_down] = -1
        cost[tables.ladder_up] = 2
    cost[tables.blocking_end] = -1
    cost.setflags(write=False)
    cache[key] = cost
    return cost


def _occupied(
    game: HeroclixBase, state: State, figure: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(squares of the other figures, squares of enemies) as bool[n], and the enemy figures
    as bool[F]; a passenger being carried is on no square."""
    n = game.n_cells
    others = state.cell != NO_CELL
    others[figure] = False
    if state.passenger != NO_FIGURE:
        others[state.passenger] = False  # carried along: its square is empty now
    occupied = np.zeros(n, dtype=bool)
    occupied[state.cell[others]] = True
    sides = game.sides(state)
    enemy = others & (sides != sides[figure])
    enemies = np.zeros(n, dtype=bool)
    enemies[state.cell[enemy]] = True
    return occupied, enemies, enemy


def mode_rules(game: HeroclixBase, state: State, figure: int) -> list[ModeRules]:
    """One :class:`ModeRules` per mode of ``figure`` for the move in progress: the rules of
    the module's table in plain numpy. Play asks :func:`figure_reach`, which derives the same
    masks inside one kernel; ``tests/heroclix/test_reach.py`` holds the two equal."""
    tables = move_tables(game)
    traits = figure_traits(game, state, figure)
    occupied, enemy_squares, enemy = _occupied(game, state, figure)
    blocking = state.blocking
    exists = game.board.exists
    broke = np.zeros(game.n_figures, dtype=bool)
    broke[state.broke_away] = True
    new_enemy = enemy & ~broke
    ground_foes = new_enemy & (state.mode != SOAR)
    soaring_foes = new_enemy & (state.mode == SOAR)
    flying = game.flies(state, figure)
    hindering = game.hindering(state, movement=True)
    if IGNORES_HINDERING in traits:
        walk_hinder = None
    elif flying:
        walk_hinder = hindering & game.indoor  # HC-3.28 default
    else:
        walk_hinder = hindering
    enter = exists.copy()
    if CROSSES_BLOCKING_INDOORS in traits:
        pass  # Phasing crosses blocking terrain everywhere
    elif flying or CROSSES_BLOCKING_OUTDOORS in traits:  # HC-5.1, R-10; not indoors (HC-5.4)
        enter &= ~(blocking & game.indoor)
    else:
        enter &= ~blocking
    if PASSES_FIGURES not in traits:
        enter &= ~enemy_squares
    end = exists & ~blocking & ~occupied
    if state.move_ignores_enemies or game.has_trait(state, figure, IGNORES_ENEMY_STOPS):
        # Hypersonic Speed's move; the *_ignores_characters flags
        ground_foes = np.zeros_like(ground_foes)
        soaring_foes = np.zeros_like(soaring_foes)
    walk = ModeRules(
        can_enter=enter,
        can_end=end & enter,
        step_cost=_step_costs(game, state, tables, flying=flying, traits=traits),
        hindering=walk_hinder,
        hindering_chains=game.options.hindering_to_hindering_continues,
        stop_cells=squares_next_to(game.adjacency(state), state.cell[ground_foes].tolist()),
    )
    if not flying:
        return [walk]
    soar_end = end & ~game.indoor
    if state.passenger != NO_FIGURE:
        soar_end = np.zeros_like(soar_end)  # HC-3.30: it must end hovering
        walk = _with_landing(game, state, walk, end)
    soar = ModeRules(
        can_enter=exists & ~game.indoor,
        can_end=soar_end,
        step_cost=tables.soar_cost,
        stop_cells=squares_next_to(game.touching, state.cell[soaring_foes].tolist()),
    )
    return [walk, soar]


def _with_landing(
    game: HeroclixBase, state: State, walk: ModeRules, landing: np.ndarray
) -> ModeRules:
    """HC-3.30: a carrier may end only where the passenger can be set down beside it
    (``landing``: empty squares that are not blocking, :func:`landing_squares_mask`)."""
    table = game.adjacency(state)
    has_landing = ((table >= 0) & landing[np.where(table >= 0, table, 0)]).any(axis=1)
    return dataclasses.replace(walk, can_end=walk.can_end & has_landing)


def landing_squares_mask(game: HeroclixBase, state: State) -> np.ndarray:
    """Squares the passenger could stand on (HC-3.30 default): empty, not blocking."""
    occupied, _, _ = _occupied(game, state, state.selected)
    return game.board.exists & ~state.blocking & ~occupied


def move_budget(game: HeroclixBase, state: State, figure: int) -> int:
    """HC-1.7 speed, halved (rounded up) when starting in hindering terrain (HC-5.10)."""
    speed = game.speed_value(state, figure)
    cell = int(state.cell[figure])
    if state.mode[figure] == SOAR or IGNORES_HINDERING in figure_traits(game, state, figure):
        return speed
    hindered = game.hindering(state, movement=True)[cell]
    if game.flies(state, figure) and not game.indoor[cell]:
        hindered = False  # HC-3.28: hovering outdoors ignores hindering
    return (speed + 1) // 2 if hindered else speed


def reach(game: HeroclixBase, state: State, figure: int) -> ModeReach:
    """The move in progress: from the figure's square and mode, after ``state.move_spent``.

    The legal mask and the move it allows ask the same question of the same position, so
    the last few answers are kept, keyed by everything the search reads."""
    key = (
        figure,
        state.cell.tobytes(),
        state.mode.tobytes(),
        state.click.tobytes(),
        state.power_off.tobytes(),
        state.walls_intact.tobytes(),
        state.blocking.tobytes(),
        state.rubble.tobytes(),
        state.objects.tobytes(),
        state.smoke.tobytes(),
        state.move_spent,
        state.move_budget,
        state.passenger,
        tuple(state.broke_away),
        state.move_ignores_enemies,
        tuple(map(tuple, state.outwits)),
        tuple(map(tuple, state.perplex)),
    )
    cache = named_lru(game.caches, "reach", REACH_CACHE_SIZE)
    found = cache.get(key)
    if found is None:
        seed = (int(state.cell[figure]), int(state.mode[figure]), int(state.move_spent))
        budget = max(state.move_budget, state.move_spent)
        found = cache[key] = figure_reach(game, state, figure, seed, budget)
    return found


def _figure_steps(
    game: HeroclixBase, state: State, tables: MoveTables, *, flying: bool, traits: frozenset[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The steps of every mode of the figure (walking or hovering, then soaring for a flyer)
    as the search takes them; cached as the step costs are."""
    key = (state.walls_intact.tobytes(), flying, traits)
    cache = named_lru(game.caches, "figure_steps", STEP_COST_CACHE_SIZE)
    steps = cache.get(key)
    if steps is None:
        walk = _step_costs(game, state, tables, flying=flying, traits=traits)
        modes = [walk, tables.soar_cost] if flying else [walk]
        steps = cache[key] = mode_steps(game.walls.open_neighbors, modes)
    return steps


# Traits as the bits of the kernel's rules (mode_rules reads the same traits).
TRAIT_BITS = (
    (PASSES_FIGURES, kernel.PASSES_FIGURES),
    (IGNORES_HINDERING, kernel.IGNORES_HINDERING),
    (CROSSES_BLOCKING_INDOORS, kernel.CROSSES_INDOORS),
    (CROSSES_BLOCKING_OUTDOORS, kernel.CROSSES_OUTDOORS),
)


def _move_rules(game: HeroclixBase, state: State, figure: int) -> tuple[frozenset[str], bool, int]:
    """The figure's movement traits, whether it flies, and the kernel's rule bits from its
    powers and the game's options (not the move's own state): asked at every move search,
    kept by what they depend on (its powers, whether it carries, whether it is a flyer)."""
    powers = game.powers(state, figure)
    carrying = state.passenger != NO_FIGURE and figure == state.selected
    key = (powers, carrying, bool(game.flyer[figure]))
    memo = game.caches.setdefault("move_rules", {})
    found = memo.get(key)
    if found is None:
        traits = figure_traits(game, state, figure)
        flying = game.flies(state, figure)
        rules = sum(bit for trait, bit in TRAIT_BITS if trait in traits)
        rules |= kernel.FLYING if flying else 0
        if game.options.hindering_to_hindering_continues:
            rules |= kernel.CHAINING
        if game.has_trait(state, figure, IGNORES_ENEMY_STOPS):
            rules |= kernel.IGNORES_ENEMY_STOPS
        found = memo[key] = (traits, flying, rules)
    return found


def figure_reach(
    game: HeroclixBase, state: State, figure: int, seed: tuple[int, int, int], budget: int
) -> ModeReach:
    """``reachable_modes(open_neighbors, [seed], budget, mode_rules(game, state, figure))``
    in one compiled call (:mod:`envs.heroclix.reach`; the tests hold the two equal)."""
    tables = move_tables(game)
    traits, flying, rules = _move_rules(game, state, figure)
    if state.move_ignores_enemies:
        rules |= kernel.IGNORES_ENEMY_STOPS
    steps = _figure_steps(game, state, tables, flying=flying, traits=traits)
    n = game.n_cells
    if state.broke_away:
        broke_away = np.zeros(game.n_figures, dtype=bool)
        broke_away[state.broke_away] = True
    else:  # nearly always: the kernel only reads it
        kept = game.caches.get("nobody_broke_away")
        if kept is None:
            kept = game.caches["nobody_broke_away"] = np.zeros(game.n_figures, dtype=bool)
        broke_away = kept
    can_end = np.empty((2 if flying else 1) * n, dtype=bool)
    cell, mode, spent = seed
    found = kernel.figure_search(
        *steps,
        n,
        state.cell,
        game.sides(state),
        figure,
        state.passenger,
        broke_away,
        state.mode,
        game.board.exists,
        state.blocking,
        game.indoor,
        game.hindering(state, movement=True),
        game.adjacency(state),
        game.touching,
        rules,
        mode * n + cell,
        spent,
        budget,
        can_end,
    )
    return mode_reach([seed], found, can_end, n)


# -- a move's start, its breakaway and its legs ------------------------------------------------


def needs_breakaway(game: HeroclixBase, state: State, figure: int) -> bool:
    """HC-3.23: adjacent to an enemy (HC-3.13, flight included) and no automatic breakaway."""
    return bool(game.adjacent_enemies(state, figure)) and not has_trait(
        game.powers(state, figure), AUTO_BREAKAWAY
    )


def breakaway_target(game: HeroclixBase, state: State, figure: int) -> int:
    """The d6 result a breakaway needs: 4 (HC-3.23); Plasticity (P-SPD-7) 2 for itself, 6 to
    leave an enemy with it; two Plasticity figures ignore each other's (4) [impl]."""
    own = has_trait(game.powers(state, figure), SLIPPERY)
    slippery_foe = any(
        has_trait(game.powers(state, e), SLIPPERY) for e in game.adjacent_enemies(state, figure)
    )
    if own:
        return BREAKAWAY_SUCCESS if slippery_foe else SLIPPERY_BREAKAWAY
    return LEAVING_SLIPPERY if slippery_foe else BREAKAWAY_SUCCESS


def roll_breakaway(game: HeroclixBase, state: State, figure: int, events: list[Event]) -> bool:
    need = breakaway_target(game, state, figure)
    roll = game.roll_for(state, figure)[0]
    ok = roll >= need
    events.append(
        Event(
            "breakaway",
            f"{game.label(figure)} breaks away: {'succeeds' if ok else 'fails'}",
            state.seat,
            dice=(str(roll),),
        )
    )
    return ok


def start_move(game: HeroclixBase, state: State, figure: int) -> None:
    state.move_spent = 0
    state.move_budget = move_budget(game, state, figure)
    state.move_stopped = False
    state.broke_away = game.adjacent_enemies(state, figure)  # HC-3.25 default


def mark_destinations(game: HeroclixBase, state: State, legal: LegalMask, figure: int) -> None:
    found = reach(game, state, figure)
    for mode, plane in ((GROUND, "move"), (SOAR, "soar")):
        if mode < found.n_modes:
            legal.cells(plane, found.ends[mode].nonzero()[0])


def walk_to(
    game: HeroclixBase, state: State, figure: int, action: DecodedAction, events: list[Event]
) -> None:
    """One leg of the move in progress to ``action.cell``, ending in the plane's mode."""
    mode = SOAR if action.kind == ActionKind.SOAR else GROUND
    found = reach(game, state, figure)
    cell = action.cell
    start = int(state.cell[figure])
    state.move_spent = int(found.cost[mode, cell])
    state.move_stopped = bool(found.going_on[mode, cell] != found.cost[mode, cell])
    if cell != start:
        game.move_figure(state, figure, cell)
    if state.mode[figure] != mode:
        state.mode[figure] = mode
    events.append(
        Event(
            "move",
            f"{game.label(figure)} moves to {game.cell_label(cell)}"
            + (" soaring" if mode == SOAR else ""),
            state.seat,
            cells=(start, cell),
        )
    )
