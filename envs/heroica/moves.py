"""Heroica movement: which spaces a Hero or a moving monster may step to, and what entering
a space does (HE-5, HE-5.6 forward moves, HE-5.7 items, HE-11 chests, HE-20.4-20.5)."""

from __future__ import annotations

from collections.abc import Callable

from envs.core.game import Event
from envs.heroica.dice import CHEST_GOLD, HEROICA_DIE, SKULL, SWORD_SKULL
from envs.heroica.game import HeroicaBase
from envs.heroica.state import CELL, NO_CELL, HeroField, Phase, State


def roll(game: HeroicaBase, state: State, events: list[Event], why: str) -> str:
    symbol = state.dice.roll_symbol(HEROICA_DIE)
    seat = state.seat
    key = (seat, symbol, why)  # a few dozen texts, rebuilt at every roll of every playout
    text = game.roll_texts.get(key)
    if text is None:
        text = game.roll_texts[key] = f"{game.player_names[seat]} rolls {symbol} ({why})"
    events.append(Event("roll", text, seat, dice=(symbol,)))
    return symbol


# -- where a figure may step --------------------------------------------------------------
def hero_steps(game: HeroicaBase, state: State, here: int) -> list[int]:
    """HE-5.1: adjacent spaces without monster or rocks, not entered before in this move."""
    visited, piece, blocked = state.visited, state.piece.item, game.blocks_hero
    return [
        c
        for c in game.adjacent[state.mission][here]
        if not (visited >> c) & 1 and not blocked[piece(c)]
    ]


def steps_towards(
    game: HeroicaBase,
    state: State,
    here: int,
    may_enter: Callable[[int], bool],
    is_goal: Callable[[int], bool],
) -> list[int]:
    """Neighbours of ``here`` on a shortest path through cells it ``may_enter`` to the
    nearest goal cell (``here`` itself is not one).

    The searches go ring by ring and stop at the first ring that holds a goal: the nearest
    free space is almost always a step or two away, so a whole-board search would be waste.
    """
    adjacent = game.adjacent[state.mission]
    firsts = [c for c in adjacent[here] if may_enter(c)]
    seen = {here, *firsts}
    ring, best = firsts, 1
    while ring and not any(is_goal(c) for c in ring):
        ring = _next_ring(adjacent, ring, seen, may_enter)
        best += 1
    if not ring:
        return []
    nearest = {c for c in ring if is_goal(c)}
    options = []
    for first in firsts:
        if is_goal(first) and best == 1:
            options.append(first)
            continue
        # Onward from ``first`` without coming back through ``here``: does a nearest goal
        # lie best - 1 steps on (no fewer can: here -> first -> ... would beat best)?
        reached, ring = {here, first}, [first]
        for _ in range(best - 1):
            ring = _next_ring(adjacent, ring, reached, may_enter)
        if not nearest.isdisjoint(reached):
            options.append(first)
    return sorted(options)


def _next_ring(
    adjacent: list[list[int]], ring: list[int], seen: set[int], may_enter: Callable[[int], bool]
) -> list[int]:
    """The cells one step beyond ``ring`` not seen yet (added to ``seen``)."""
    beyond = []
    for cell in ring:
        for c in adjacent[cell]:
            if c not in seen and may_enter(c):
                seen.add(c)
                beyond.append(c)
    return beyond


def forward_steps(game: HeroicaBase, state: State, here: int, seat: int) -> list[int]:
    """HE-5.6: free steps towards the nearest Hero-free space; the mover picks among ties."""
    visited, piece, blocked = state.visited, state.piece.item, game.blocks_hero
    others = {game.hero_cell(state, other) for other in game.hero_seats() if other != seat}
    return steps_towards(
        game,
        state,
        here,
        lambda c: not (visited >> c) & 1 and not blocked[piece(c)],
        lambda c: c not in others,
    )


def monster_steps(game: HeroicaBase, state: State, here: int) -> list[int]:
    """HE-20.4: monsters may pass monsters and items, not Heroes or rocks."""
    visited = state.visited
    return [
        c
        for c in game.adjacent[state.mission][here]
        if not (visited >> c) & 1 and state.piece[c] != game.ROCKS and game.hero_at(state, c) < 0
    ]


def monster_available(game: HeroicaBase, state: State, cell: int) -> bool:
    """HE-20.5 "available": no Hero, monster, item (chests included) or rocks."""
    return state.piece[cell] == 0 and game.hero_at(state, cell) < 0


def monster_forward_steps(game: HeroicaBase, state: State) -> list[int]:
    """HE-20.5: steps towards the nearest available space, past items and monsters."""
    visited, piece, rocks = state.visited, state.piece.item, game.ROCKS
    heroes = {game.hero_cell(state, seat) for seat in game.hero_seats()}
    return steps_towards(
        game,
        state,
        state.selected,
        lambda c: not (visited >> c) & 1 and piece(c) != rocks and c not in heroes,
        lambda c: piece(c) == 0 and c not in heroes,
    )


# -- entering a space ----------------------------------------------------------------------
def pick_up(game: HeroicaBase, state: State, seat: int, cell: int, events: list[Event]) -> None:
    """HE-5.7: take every item on a space moved into or through."""
    item = game.ITEMS.get(state.piece.item(cell))
    if item is None:
        return
    hero = state.heroes[seat]
    if item == "torch":
        if hero[HeroField.TORCH]:
            return  # HE-14.2: the torch stays on its space
        hero[HeroField.TORCH] = 1
        if state.phase is Phase.MOVE and not state.torch_counted:
            state.steps_left += 1  # HE-14.1 default: counts at once
            state.torch_counted = True
    else:
        hero[ITEM_FIELD[item]] += 1
    state.piece[cell] = 0
    events.append(
        Event(
            "item",
            f"{game.player_names[seat]} picks up the {game.pieces.items[item].name}",
            seat,
            cells=(cell,),
        )
    )


ITEM_FIELD = {
    "life_potion": HeroField.LIFE_POTIONS,
    "speed_potion": HeroField.SPEED_POTIONS,
    "scepter": HeroField.SCEPTER,
}


def search_chest(
    game: HeroicaBase, state: State, seat: int, cell: int, events: list[Event]
) -> None:
    """HE-11: roll, take gold or spring the trap, then the chest leaves the board."""
    state.piece[cell] = 0
    symbol = roll(game, state, events, "treasure chest")
    game.gain_gold(state, seat, CHEST_GOLD[symbol], events, reason="treasure chest")
    if symbol in (SKULL, SWORD_SKULL):
        game.damage(state, seat, 1, events, by_monster=False)


def hero_enter(
    game: HeroicaBase,
    state: State,
    seat: int,
    cell: int,
    events: list[Event],
    counted: bool,
    search: bool = True,
) -> str:
    """Move a Hero into ``cell``: returns "over" (game/mission ended), "stop" or "go"."""
    heroes = state.heroes
    previous = heroes.item(seat, CELL)
    heroes[seat, CELL] = cell
    state.entered_from = previous
    state.visited |= 1 << cell
    if counted:
        state.steps_left -= 1
        state.steps_taken += 1
    key = (state.mission, seat, previous, cell)
    text = game.step_texts.get(key)
    if text is None:
        text = game.step_texts[key] = (
            f"{game.player_names[seat]} steps "
            f"{game.cell_name(state, previous)}->{game.cell_name(state, cell)}"
        )
    events.append(Event("move", text, seat, cells=(previous, cell)))
    pick_up(game, state, seat, cell, events)
    if cell == game.targets[state.mission]:
        game.mission_over(state, seat, events)  # HE-16.1
        return "over"
    shared = game.hero_at(state, cell, exclude=seat) >= 0
    if not shared:
        state.last_free_cell = cell
    if state.piece.item(cell) == game.CHEST:
        if search:
            search_chest(game, state, seat, cell, events)  # HE-11.1: must stop and search
        return "stop"
    if not shared and game.next_to_blocker(state, cell):
        return "stop"  # HE-5.8, HE-13.2
    return "go"


def finish_move(game: HeroicaBase, state: State, seat: int, events: list[Event]) -> None:
    here = game.hero_cell(state, seat)
    if game.hero_at(state, here, exclude=seat) >= 0:  # HE-5.6
        if forward_steps(game, state, here, seat):
            state.phase = Phase.FORWARD
            return
        fallback = state.last_free_cell if state.last_free_cell >= 0 else state.move_start
        state.heroes[seat, HeroField.CELL] = fallback
        events.append(
            Event(
                "move",
                f"{game.player_names[seat]} cannot move forward and returns to "
                f"{game.cell_name(state, fallback)}",
                seat,
                cells=(here, fallback),
            )
        )
    post_move(game, state, seat, events)


def post_move(game: HeroicaBase, state: State, seat: int, events: list[Event]) -> None:
    """HE-5.9 order after a move ends: (items, chest already done) -> fights -> rocks."""
    here = game.hero_cell(state, seat)
    entered = state.entered_from != NO_CELL
    state.rocks_pending = entered and bool(game.adjacent_rocks(state, here))
    state.last_fight_won = True  # opens the HE-6.7 chain if a monster is adjacent
    game.after_fight(state, events)
