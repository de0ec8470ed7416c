"""Heroica: which decisions are legal in each phase, and what each decision does.

``legal_mask`` and ``apply_action`` share one table per phase so that the mask and the
effect of an action can't drift apart. Primitive changes (damage, defeat, gold, the end of a
mission) live on :class:`~envs.heroica.rules.HeroicaGame`; this module is the turn flow.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import numpy as np

from ..core.actions import DecodedAction
from ..core.dice import HEROICA_DIE
from ..core.game import Event
from .skills import EFFECTS
from .state import NO_CELL, HeroField, Phase, State

if TYPE_CHECKING:  # pragma: no cover
    from .rules import HeroicaGame

MOVE_VALUE = {"shield": 4, "sword": 3, "skull": 2, "sword_skull": 1}  # HE-3.3 movement/healing
SHIELD, SWORD, SKULL, SWORD_SKULL = "shield", "sword", "skull", "sword_skull"


# ==========================================================================================
# Legal actions
# ==========================================================================================
def legal_mask(game: "HeroicaGame", state: State) -> np.ndarray:
    mask = np.zeros(game.layout.size, dtype=bool)
    phase = state.phase
    if phase is Phase.GAME_OVER:
        return mask
    layout = game.layout
    seat = state.seat
    special = layout.special

    def cells(plane: str, targets) -> None:
        offset = layout.plane_offset(plane)
        for cell in targets:
            mask[offset + cell] = True

    own_hero_turn = seat == state.turn_seat and seat != game.monster_seat
    hero = state.heroes[seat]
    if own_hero_turn and hero[HeroField.LIFE_POTIONS] > 0 and hero[HeroField.HEALTH] < game.max_health:
        mask[special("drink_life")] = True  # HE-10.1: any decision point of your own turn
    here = int(hero[HeroField.CELL])

    if phase is Phase.START:
        _shop_mask(game, state, seat, mask)
        if hero[HeroField.HEALING]:
            mask[special("roll")] = True  # HE-9.2 healing roll
        else:
            monsters = game.adjacent_monsters(state, here)
            if monsters:
                cells("target", monsters)  # HE-6.10 / HE-6.7
            else:
                mask[special("roll")] = True
    elif phase is Phase.MOVE:
        if hero[HeroField.SPEED_POTIONS] > 0:
            mask[special("drink_speed")] = True
        mask[special("end_move")] = True
        if state.steps_left > 0:
            cells("step", hero_steps(game, state, here))
        if state.die == SHIELD and state.steps_taken == 0:
            for source in range(len(game.source_names)):
                if game.owns_source(state, seat, source):
                    skill = game.skill_of(seat, source)
                    if skill.timing == "ranged" and EFFECTS[skill.effect].usable(game, state, seat, skill):
                        mask[special(f"use_{game.source_names[source]}")] = True
            if hero[HeroField.SCEPTER] and scepter_takes(game, state, seat) and game.empty_cells(state):
                mask[special("use_scepter")] = True
    elif phase is Phase.FORWARD:
        cells("step", forward_steps(game, state, here, seat))
    elif phase is Phase.FIGHT_CHOOSE:
        cells("target", game.adjacent_monsters(state, here))
    elif phase is Phase.FIGHT_SHIELD:
        mask[special("defeat")] = True
        for source in range(len(game.source_names)):
            if game.owns_source(state, seat, source) and game.skill_of(seat, source).timing == "melee":
                mask[special(f"use_{game.source_names[source]}")] = True
    elif phase is Phase.SKILL_TARGET:
        cells("target", skill_targets(game, state, seat))
    elif phase is Phase.SKILL_STEP:
        sword = game.skill_of(seat, state.skill_source).effect == "step_then_defeat"
        if sword:
            cells("step", game.sword_steps(state, seat))
            if game.adjacent_monsters(state, here):
                mask[special("stay")] = True
        else:
            cells("step", [int(c) for c in game.board_of(state).neighbors[here]
                           if c >= 0 and game._skill_step_ok(state, seat, int(c))])
            mask[special("stay")] = True
    elif phase is Phase.MOVE_BACK:
        cells("step", move_back_options(game, state, seat, state.move_back_from))
    elif phase is Phase.ROCKS_CHOOSE:
        cells("target", game.adjacent_rocks(state, here))
    elif phase is Phase.SCEPTER_TAKE:
        for kind, owner in scepter_takes(game, state, seat):
            mask[special(f"take_{game.monster_ids[kind]}_from_{owner}")] = True
    elif phase is Phase.SCEPTER_PLACE:
        cells("place", game.empty_cells(state))
    elif phase is Phase.END:
        _shop_mask(game, state, seat, mask)
        mask[special("end_turn")] = True
    elif phase is Phase.MONSTER_SELECT:
        cells("target", np.flatnonzero(game.is_monster[state.piece]))
    elif phase in (Phase.MONSTER_MOVE, Phase.MONSTER_FORWARD):
        if phase is Phase.MONSTER_MOVE:
            mask[special("end_move")] = True
            if state.steps_left > 0:
                cells("step", monster_steps(game, state, state.selected))
        else:
            cells("step", monster_forward_steps(game, state))
    elif phase is Phase.MONSTER_FIGHT_CHOOSE:
        cells("target", [game.hero_cell(state, s)
                         for s in game.adjacent_heroes(state, state.selected, healing_ok=False)])
    return mask


def _shop_mask(game: "HeroicaGame", state: State, seat: int, mask: np.ndarray) -> None:
    # HE-12.1 / HE-12.5: one copy of each weapon; a Hero never holds two copies.
    # HE-12.6 finite mode: a sale is refused if the Store cannot pay.
    hero = state.heroes[seat]
    gold = int(hero[HeroField.GOLD])
    store_can_pay = game.store_can_pay
    for index, weapon in enumerate(game.weapon_ids):
        bit = 1 << index
        if hero[HeroField.WEAPONS] & bit:
            if store_can_pay(state, game.pieces.weapons[weapon].resale):
                mask[game.sell_action[index]] = True
        elif state.store_weapons & bit and gold >= game.pieces.weapons[weapon].price:
            mask[game.buy_action[index]] = True
    if hero[HeroField.SCEPTER] and store_can_pay(state, game.pieces.items["scepter"].resale):
        mask[game.layout.special("sell_scepter")] = True  # HE-19.2


def hero_steps(game: "HeroicaGame", state: State, here: int) -> list[int]:
    """HE-5.1: adjacent spaces without monster or rocks, not entered before in this move."""
    board = game.board_of(state)
    visited = state.visited
    return [int(c) for c in board.neighbors[here]
            if c >= 0 and not (visited >> int(c)) & 1 and game._hero_passable(state, int(c))]


def _bfs(board, start: int, passable) -> dict[int, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nxt in board.neighbors[cell]:
            nxt = int(nxt)
            if nxt >= 0 and nxt not in seen and passable(nxt):
                seen[nxt] = seen[cell] + 1
                queue.append(nxt)
    return seen


def _steps_towards(board, here: int, passable, is_goal) -> list[int]:
    """Neighbours of ``here`` on a shortest passable path to the nearest goal cell."""
    reach = _bfs(board, here, passable)
    goals = [c for c, d in reach.items() if d > 0 and is_goal(c)]
    if not goals:
        return []
    best = min(reach[c] for c in goals)
    nearest = {c for c in goals if reach[c] == best}
    options = []
    for first in board.neighbors[here]:
        first = int(first)
        if first < 0 or reach.get(first) != 1:
            continue
        if first in nearest:
            options.append(first)
            continue
        onward = _bfs(board, first, lambda c: c != here and passable(c))
        if any(onward.get(goal) == best - 1 for goal in nearest):
            options.append(first)
    return sorted(options)


def forward_steps(game: "HeroicaGame", state: State, here: int, seat: int) -> list[int]:
    """HE-5.6: free steps towards the nearest Hero-free space; the mover picks among ties."""
    board = game.board_of(state)
    visited = state.visited

    def passable(cell: int) -> bool:
        return not (visited >> cell) & 1 and game._hero_passable(state, cell)

    return _steps_towards(board, here, passable, lambda c: game.hero_at(state, c, exclude=seat) < 0)


def monster_steps(game: "HeroicaGame", state: State, here: int) -> list[int]:
    """HE-20.4: monsters may pass monsters and items, not Heroes or rocks."""
    board = game.board_of(state)
    visited = state.visited
    return [int(c) for c in board.neighbors[here] if c >= 0 and not (visited >> int(c)) & 1
            and state.piece[c] != game.ROCKS and game.hero_at(state, int(c)) < 0]


def monster_available(game: "HeroicaGame", state: State, cell: int) -> bool:
    """HE-20.5 "available": no Hero, monster, item (chests included) or rocks."""
    return state.piece[cell] == 0 and game.hero_at(state, cell) < 0


def monster_forward_steps(game: "HeroicaGame", state: State) -> list[int]:
    board = game.board_of(state)
    visited = state.visited

    def passable(cell: int) -> bool:
        return (not (visited >> cell) & 1 and state.piece[cell] != game.ROCKS
                and game.hero_at(state, cell) < 0)

    return _steps_towards(board, state.selected, passable,
                          lambda c: monster_available(game, state, c))


def move_back_options(game: "HeroicaGame", state: State, seat: int, away_from: int) -> list[int]:
    """HE-6.9: adjacent spaces without Hero, monster, rocks or chest, farther from ``away_from``."""
    board = game.board_of(state)
    here = game.hero_cell(state, seat)
    distance = board.distance
    options = []
    for cell in board.neighbors[here]:
        cell = int(cell)
        if cell < 0 or game.hero_at(state, cell, exclude=seat) >= 0:
            continue
        code = state.piece[cell]
        if game.is_monster[code] or code in (game.ROCKS, game.CHEST):
            continue
        if distance[cell, away_from] > distance[here, away_from]:
            options.append(cell)
    return options


def skill_targets(game: "HeroicaGame", state: State, seat: int) -> list[int]:
    skill = game.skill_of(seat, state.skill_source)
    if skill.effect == "step_then_defeat":
        return game.adjacent_monsters(state, game.hero_cell(state, seat))
    return game.ranged_targets(state, seat, skill)


def scepter_takes(game: "HeroicaGame", state: State, seat: int) -> list[tuple[int, int]]:
    """(monster kind, owner) pairs: defeated monsters on another player's Pack (HE-19.3)."""
    pairs = []
    for owner in game.hero_seats():
        if owner == seat:
            continue
        for kind in range(game.n_monster_kinds):
            if state.heroes[owner, HeroField.KILLS + kind] > 0:
                pairs.append((kind, owner))
    return pairs


# ==========================================================================================
# Effects of actions
# ==========================================================================================
def roll(game: "HeroicaGame", state: State, events: list[Event], why: str) -> str:
    symbol = state.dice.roll_symbol(HEROICA_DIE)
    events.append(Event("roll", f"{game.player_names[state.seat]} rolls {symbol} ({why})",
                        state.seat, dice=(symbol,)))
    return symbol


def apply_action(game: "HeroicaGame", state: State, action: DecodedAction, events: list[Event]) -> None:
    seat = state.seat
    if action.special is not None:
        name = action.special
        handler = _SPECIALS.get(name)
        if handler is None:
            prefix = name.split("_", 1)[0]
            handler = _PREFIXED[prefix]
        handler(game, state, seat, name, events)
        return
    _PLANE_HANDLERS[(state.phase, action.plane)](game, state, seat, action.cell, events)


# -- specials ------------------------------------------------------------------------------
def _roll_special(game, state, seat, name, events) -> None:
    hero = state.heroes[seat]
    if hero[HeroField.HEALING]:
        symbol = roll(game, state, events, "healing")
        amount = game.max_health if symbol == SHIELD else MOVE_VALUE[symbol]
        game.heal(state, seat, amount, events, reason="healing roll")  # HE-9.2
        game.enter_end_phase(state)
        return
    symbol = roll(game, state, events, "move")
    state.die = symbol
    torch = int(hero[HeroField.TORCH])
    state.steps_left = MOVE_VALUE[symbol] + torch  # HE-14.1
    state.torch_counted = bool(torch)
    here = int(hero[HeroField.CELL])
    state.move_start = here
    state.visited = 1 << here
    state.last_free_cell = here if game.hero_at(state, here, exclude=seat) < 0 else NO_CELL
    state.phase = Phase.MOVE


def _end_move(game, state, seat, name, events) -> None:
    if state.phase is Phase.MONSTER_MOVE:
        _monster_finish_move(game, state, events)
    else:
        _finish_move(game, state, seat, events)


def _end_turn(game, state, seat, name, events) -> None:
    game.end_turn(state, events)


def _defeat(game, state, seat, name, events) -> None:
    game.defeat_monster(state, seat, state.fight_target, events)
    state.last_fight_won = True
    game.after_fight(state, events)


def _stay(game, state, seat, name, events) -> None:
    _skill_step_done(game, state, seat, moved=False, events=events)


def _drink_life(game, state, seat, name, events) -> None:
    state.heroes[seat, HeroField.LIFE_POTIONS] -= 1
    game.heal(state, seat, game.pieces.items["life_potion"].heal, events, reason="Life Potion")


def _drink_speed(game, state, seat, name, events) -> None:
    state.heroes[seat, HeroField.SPEED_POTIONS] -= 1
    state.steps_left += game.pieces.items["speed_potion"].steps  # HE-10.3
    events.append(Event("potion", f"{game.player_names[seat]} drinks a Speed Potion", seat))


def _use_scepter(game, state, seat, name, events) -> None:
    state.phase = Phase.SCEPTER_TAKE
    events.append(Event("skill", f"{game.player_names[seat]} raises the Scepter of Summoning", seat))


def _use_source(game, state, seat, name, events) -> None:
    source = game.source_names.index(name[len("use_"):])
    state.skill_source = source
    skill = game.skill_of(seat, source)
    label = "skill" if source == 0 else f"the {game.pieces.weapons[game.weapon_ids[source - 1]].name}"
    events.append(Event("skill", f"{game.player_names[seat]} uses {label}", seat))
    EFFECTS[skill.effect].start(game, state, seat, skill, events)


def _buy(game, state, seat, name, events) -> None:
    weapon = name[len("buy_"):]
    index = game.weapon_ids.index(weapon)
    price = game.pieces.weapons[weapon].price
    state.heroes[seat, HeroField.GOLD] -= price
    if state.store_gold >= 0:
        state.store_gold += price
    state.heroes[seat, HeroField.WEAPONS] |= 1 << index
    state.store_weapons &= ~(1 << index)
    events.append(Event("shop", f"{game.player_names[seat]} buys the {game.pieces.weapons[weapon].name}", seat))


def _sell(game, state, seat, name, events) -> None:
    item = name[len("sell_"):]
    if item == "scepter":
        state.heroes[seat, HeroField.SCEPTER] -= 1  # a sold Scepter leaves the game (HE-19.2)
        price = game.pieces.items["scepter"].resale
    else:
        index = game.weapon_ids.index(item)
        state.heroes[seat, HeroField.WEAPONS] &= ~(1 << index)
        state.store_weapons |= 1 << index
        price = game.pieces.weapons[item].resale
    state.heroes[seat, HeroField.GOLD] += price
    if state.store_gold >= 0:
        state.store_gold -= price
    events.append(Event("shop", f"{game.player_names[seat]} sells the {item} for {price} gold", seat))


def _take(game, state, seat, name, events) -> None:
    kind_name, owner = name[len("take_"):].rsplit("_from_", 1)
    kind = game.monster_ids.index(kind_name)
    state.heroes[int(owner), HeroField.KILLS + kind] -= 1
    state.scepter_monster = kind
    state.phase = Phase.SCEPTER_PLACE


_SPECIALS = {
    "roll": _roll_special, "end_move": _end_move, "end_turn": _end_turn, "defeat": _defeat,
    "stay": _stay, "drink_life": _drink_life, "drink_speed": _drink_speed,
    "use_scepter": _use_scepter, "sell_scepter": _sell,
}
_PREFIXED = {"use": _use_source, "buy": _buy, "sell": _sell, "take": _take}


# -- hero movement ---------------------------------------------------------------------------
def pick_up(game: "HeroicaGame", state: State, seat: int, cell: int, events: list[Event]) -> None:
    """HE-5.7: take every item on a space moved into or through."""
    code = int(state.piece[cell])
    item = game.ITEMS.get(code)
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
    elif item == "life_potion":
        hero[HeroField.LIFE_POTIONS] += 1
    elif item == "speed_potion":
        hero[HeroField.SPEED_POTIONS] += 1
    elif item == "scepter":
        hero[HeroField.SCEPTER] += 1
    state.piece[cell] = 0
    events.append(Event("item", f"{game.player_names[seat]} picks up the "
                        f"{game.pieces.items[item].name}", seat, cells=(cell,)))


def search_chest(game: "HeroicaGame", state: State, seat: int, cell: int, events: list[Event]) -> None:
    """HE-11: roll, take gold or spring the trap, then the chest leaves the board."""
    state.piece[cell] = 0
    symbol = roll(game, state, events, "treasure chest")
    gold = {SHIELD: 2, SWORD: 1, SKULL: 0, SWORD_SKULL: 1}[symbol]
    game.gain_gold(state, seat, gold, events, reason="treasure chest")
    if symbol in (SKULL, SWORD_SKULL):
        game.damage(state, seat, 1, events, by_monster=False)


def hero_enter(game: "HeroicaGame", state: State, seat: int, cell: int, events: list[Event],
               counted: bool, search: bool = True) -> str:
    """Move a Hero into ``cell``: returns "over" (game/mission ended), "stop" or "go"."""
    previous = game.hero_cell(state, seat)
    state.heroes[seat, HeroField.CELL] = cell
    state.entered_from = previous
    state.visited |= 1 << cell
    if counted:
        state.steps_left -= 1
        state.steps_taken += 1
    events.append(Event("move", f"{game.player_names[seat]} steps "
                        f"{_cell(game, state, previous)}->{_cell(game, state, cell)}", seat,
                        cells=(previous, cell)))
    pick_up(game, state, seat, cell, events)
    if cell == game.targets[state.mission]:
        game._mission_over(state, seat, events)  # HE-16.1
        return "over"
    shared = game.hero_at(state, cell, exclude=seat) >= 0
    if not shared:
        state.last_free_cell = cell
    if state.piece[cell] == game.CHEST:
        if search:
            search_chest(game, state, seat, cell, events)  # HE-11.1: must stop and search
        return "stop"
    if not shared and (game.adjacent_monsters(state, cell) or game.adjacent_rocks(state, cell)):
        return "stop"  # HE-5.8, HE-13.2
    return "go"


def _cell(game, state, cell: int) -> str:
    return game.board_of(state).label(cell)


def _finish_move(game: "HeroicaGame", state: State, seat: int, events: list[Event]) -> None:
    here = game.hero_cell(state, seat)
    if game.hero_at(state, here, exclude=seat) >= 0:  # HE-5.6
        if forward_steps(game, state, here, seat):
            state.phase = Phase.FORWARD
            return
        fallback = state.last_free_cell if state.last_free_cell >= 0 else state.move_start
        state.heroes[seat, HeroField.CELL] = fallback
        events.append(Event("move", f"{game.player_names[seat]} cannot move forward and returns to "
                            f"{_cell(game, state, fallback)} (HE-5.6)", seat, cells=(here, fallback)))
    post_move(game, state, seat, events)


def post_move(game: "HeroicaGame", state: State, seat: int, events: list[Event]) -> None:
    """HE-5.9 order after a move ends: (items, chest already done) -> fights -> rocks."""
    here = game.hero_cell(state, seat)
    entered = state.entered_from != NO_CELL
    state.rocks_pending = entered and bool(game.adjacent_rocks(state, here))
    state.last_fight_won = True  # opens the HE-6.7 chain if a monster is adjacent
    game.after_fight(state, events)


def _step(game, state, seat, cell, events) -> None:
    outcome = hero_enter(game, state, seat, cell, events, counted=True)
    if outcome == "over":
        return
    if outcome == "stop" or state.steps_left <= 0:
        _finish_move(game, state, seat, events)


def _forward_step(game, state, seat, cell, events) -> None:
    outcome = hero_enter(game, state, seat, cell, events, counted=False)
    if outcome == "over":
        return
    if game.hero_at(state, cell, exclude=seat) < 0:
        post_move(game, state, seat, events)
    else:
        _finish_move(game, state, seat, events)


# -- fights ----------------------------------------------------------------------------------
def fight(game: "HeroicaGame", state: State, seat: int, cell: int, events: list[Event]) -> None:
    """HE-6.1..6.5: roll the fight die against the monster on ``cell``."""
    state.fight_target = cell
    state.phase = Phase.FIGHT_CHOOSE
    symbol = roll(game, state, events, f"fight the {_monster_name(game, state, cell)}")
    strength = int(game.strength[state.piece[cell]])
    if symbol == SHIELD:
        state.phase = Phase.FIGHT_SHIELD
        return
    if symbol in (SWORD, SWORD_SKULL):
        game.defeat_monster(state, seat, cell, events)
        if state.phase is Phase.GAME_OVER:
            return
    state.last_fight_won = symbol != SKULL
    if symbol in (SKULL, SWORD_SKULL):
        game.damage(state, seat, strength, events, by_monster=True)
        if state.phase is Phase.GAME_OVER:
            return
        if start_move_back(game, state, seat, cell, events):
            return
    game.after_fight(state, events)


def _monster_name(game, state, cell: int) -> str:
    code = int(state.piece[cell])
    return game.pieces.monsters[game.monster_ids[code - 1]].name


def start_move_back(game: "HeroicaGame", state: State, seat: int, away_from: int,
                    events: list[Event]) -> bool:
    """HE-6.9; True when the Hero's controller must choose where (phase MOVE_BACK)."""
    options = move_back_options(game, state, seat, away_from)
    if not options:
        events.append(Event("move", f"{game.player_names[seat]} has nowhere to move back to", seat))
        return False
    if state.entered_from in options and state.turn_seat == seat:
        finish_move_back(game, state, seat, state.entered_from, events)
        return False
    if len(options) == 1:
        finish_move_back(game, state, seat, options[0], events)
        return False
    state.phase = Phase.MOVE_BACK
    state.seat = seat
    state.move_back_from = away_from
    return True


def finish_move_back(game: "HeroicaGame", state: State, seat: int, cell: int, events: list[Event]) -> None:
    here = game.hero_cell(state, seat)
    state.heroes[seat, HeroField.CELL] = cell
    events.append(Event("move", f"{game.player_names[seat]} moves back "
                        f"{_cell(game, state, here)}->{_cell(game, state, cell)}", seat, cells=(here, cell)))
    pick_up(game, state, seat, cell, events)  # HE-6.9: pick up items, trigger nothing else
    if cell == game.targets[state.mission] and seat != game.monster_seat:
        game._mission_over(state, seat, events)


def _move_back_choice(game, state, seat, cell, events) -> None:
    finish_move_back(game, state, seat, cell, events)
    if state.phase is Phase.GAME_OVER:
        return
    state.seat = state.turn_seat
    if state.turn_seat == game.monster_seat:
        _monster_turn_over(game, state)
    else:
        state.phase = Phase.FIGHT_CHOOSE  # any non-terminal phase; after_fight decides
        game.after_fight(state, events)


def _fight_choice(game, state, seat, cell, events) -> None:
    fight(game, state, seat, cell, events)


def _explore_rocks(game, state, seat, cell, events) -> None:
    """HE-13.3: Shield passes through, Sword removes the rocks, a Skull moves the Hero back."""
    state.rocks_pending = False
    state.last_fight_won = False
    symbol = roll(game, state, events, "explore the rocks")
    board = game.board_of(state)
    here = game.hero_cell(state, seat)
    if symbol == SWORD:
        state.piece[cell] = 0
        events.append(Event("rocks", f"{game.player_names[seat]} clears the rocks", seat, cells=(cell,)))
    elif symbol == SHIELD:
        direction = board.direction_between(here, cell)
        beyond = int(board.neighbors[cell, direction])
        while beyond >= 0 and game._hero_passable(state, beyond) and game.hero_at(state, beyond) >= 0:
            beyond = int(board.neighbors[beyond, direction])
        if beyond < 0 or not game._hero_passable(state, beyond):
            events.append(Event("rocks", "no space beyond the rocks: nothing happens", seat))
        else:
            outcome = hero_enter(game, state, seat, beyond, events, counted=False)
            if outcome != "over":
                post_move(game, state, seat, events)
            return
    elif start_move_back(game, state, seat, cell, events):
        return
    game.after_fight(state, events)


def _skill_target(game, state, seat, cell, events) -> None:
    skill = game.skill_of(seat, state.skill_source)
    game.defeat_monster(state, seat, cell, events)
    if state.phase is Phase.GAME_OVER:
        return
    if skill.effect != "step_then_defeat":
        game.enter_end_phase(state)  # the ranged Hero does not move (HE-7.3)
        return
    here = game.hero_cell(state, seat)
    if state.piece[here] == game.CHEST:
        search_chest(game, state, seat, here, events)  # HE-12.4 Sword: chest after the kill
    post_move(game, state, seat, events)


def _skill_step(game, state, seat, cell, events) -> None:
    sword = game.skill_of(seat, state.skill_source).effect == "step_then_defeat"
    outcome = hero_enter(game, state, seat, cell, events, counted=False, search=not sword)
    if outcome == "over":
        return
    _skill_step_done(game, state, seat, moved=True, events=events)


def _skill_step_done(game, state, seat, moved: bool, events) -> None:
    if game.skill_of(seat, state.skill_source).effect == "step_then_defeat":
        state.phase = Phase.SKILL_TARGET
    elif moved:
        post_move(game, state, seat, events)
    else:
        game.after_fight(state, events)


def _place(game, state, seat, cell, events) -> None:
    kind = state.scepter_monster
    state.piece[cell] = game.code[game.monster_ids[kind]]
    state.scepter_monster = -1
    events.append(Event("summon", f"{game.player_names[seat]} summons a "
                        f"{game.pieces.monsters[game.monster_ids[kind]].name} to "
                        f"{_cell(game, state, cell)}", seat, cells=(cell,)))
    game.enter_end_phase(state)


# -- Battle Heroica: the Monster Player -------------------------------------------------------
def _monster_select(game, state, seat, cell, events) -> None:
    state.selected = cell
    heroes = game.adjacent_heroes(state, cell, healing_ok=False)
    events.append(Event("select", f"the Monster Player picks the {_monster_name(game, state, cell)} "
                        f"at {_cell(game, state, cell)}", seat, cells=(cell,)))
    if heroes:  # HE-20.4 default: fights without moving
        _monster_engage(game, state, heroes, events)
        return
    symbol = roll(game, state, events, "monster move")
    state.die = symbol
    state.steps_left = MOVE_VALUE[symbol]
    state.moving_monster = int(state.piece[cell])
    state.piece[cell] = 0  # carried off the board while it moves (it may pass items)
    state.visited = 1 << cell
    state.move_start = state.last_free_cell = cell
    state.phase = Phase.MONSTER_MOVE


def _monster_step(game, state, seat, cell, events) -> None:
    previous = state.selected
    state.selected = cell
    state.visited |= 1 << cell
    events.append(Event("move", f"the monster steps {_cell(game, state, previous)}->"
                        f"{_cell(game, state, cell)}", seat, cells=(previous, cell)))
    available = monster_available(game, state, cell)
    if state.phase is Phase.MONSTER_FORWARD:
        if available or not monster_forward_steps(game, state):
            _monster_finish_move(game, state, events)
        return
    state.steps_left -= 1
    if available:
        state.last_free_cell = cell
    if game.adjacent_heroes(state, cell, healing_ok=False) or state.steps_left <= 0:
        _monster_finish_move(game, state, events)  # HE-20.6: must stop and fight


def _monster_finish_move(game, state, events) -> None:
    cell = state.selected
    if not monster_available(game, state, cell):  # HE-20.5: move forward
        if monster_forward_steps(game, state):
            state.phase = Phase.MONSTER_FORWARD
            return
        cell = state.last_free_cell if state.last_free_cell >= 0 else state.move_start
        state.selected = cell
    state.piece[cell] = state.moving_monster
    state.moving_monster = 0
    heroes = game.adjacent_heroes(state, cell, healing_ok=False)
    if heroes:
        _monster_engage(game, state, heroes, events)
    else:
        _monster_turn_over(game, state)


def _monster_engage(game, state, heroes: list[int], events) -> None:
    if len(heroes) == 1:
        monster_fight(game, state, heroes[0], events)
    else:
        state.phase = Phase.MONSTER_FIGHT_CHOOSE


def _monster_fight_choice(game, state, seat, cell, events) -> None:
    monster_fight(game, state, game.hero_at(state, cell), events)


def monster_fight(game: "HeroicaGame", state: State, hero_seat: int, events: list[Event]) -> None:
    """HE-20.7: the Monster Player's fight roll."""
    cell = state.selected
    strength = int(game.strength[state.piece[cell]])
    symbol = roll(game, state, events, f"{_monster_name(game, state, cell)} attacks "
                  f"{game.player_names[hero_seat]}")
    state.monster_fought = True
    if symbol in (SKULL, SWORD_SKULL):
        game.defeat_monster(state, hero_seat, cell, events)  # onto the fought Hero's Pack
        if state.phase is Phase.GAME_OVER:
            return
    if symbol in (SHIELD, SWORD, SWORD_SKULL):
        game.damage(state, hero_seat, strength + (symbol == SHIELD), events, by_monster=True)
        if state.phase is Phase.GAME_OVER:
            return
        if start_move_back(game, state, hero_seat, cell, events):
            return
    _monster_turn_over(game, state)


def _monster_turn_over(game, state) -> None:
    state.seat = state.turn_seat
    game.end_turn(state)


_PLANE_HANDLERS = {
    (Phase.START, "target"): _fight_choice,
    (Phase.MOVE, "step"): _step,
    (Phase.FORWARD, "step"): _forward_step,
    (Phase.FIGHT_CHOOSE, "target"): _fight_choice,
    (Phase.SKILL_TARGET, "target"): _skill_target,
    (Phase.SKILL_STEP, "step"): _skill_step,
    (Phase.MOVE_BACK, "step"): _move_back_choice,
    (Phase.ROCKS_CHOOSE, "target"): _explore_rocks,
    (Phase.SCEPTER_PLACE, "place"): _place,
    (Phase.MONSTER_SELECT, "target"): _monster_select,
    (Phase.MONSTER_MOVE, "step"): _monster_step,
    (Phase.MONSTER_FORWARD, "step"): _monster_step,
    (Phase.MONSTER_FIGHT_CHOOSE, "target"): _monster_fight_choice,
}
