"""Heroica fights (HE-6), moving back after a lost fight (HE-6.9) and exploring rocks (HE-13)."""

from __future__ import annotations

from envs.core.game import Event
from envs.heroica.dice import SHIELD, SKULL, SWORD, SWORD_SKULL
from envs.heroica.game import HeroicaBase
from envs.heroica.moves import hero_enter, pick_up, post_move, roll
from envs.heroica.state import NO_CELL, HeroField, Phase, State


def fight(game: HeroicaBase, state: State, seat: int, cell: int, events: list[Event]) -> None:
    """HE-6.1..6.5: roll the fight die against the monster on ``cell``."""
    state.fight_target = cell
    state.phase = Phase.FIGHT_CHOOSE
    symbol = roll(game, state, events, f"fight the {game.monster_name(state, cell)}")
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


def move_back_options(game: HeroicaBase, state: State, seat: int, away_from: int) -> list[int]:
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


def start_move_back(
    game: HeroicaBase, state: State, seat: int, away_from: int, events: list[Event]
) -> bool:
    """HE-6.9; True when the caller must stop here: the Hero's controller must choose where
    (phase MOVE_BACK), or the move back ended the mission (onto the target space, HE-16.1)."""
    options = move_back_options(game, state, seat, away_from)
    if not options:
        events.append(Event("move", f"{game.player_names[seat]} has nowhere to move back to", seat))
        return False
    if state.entered_from in options and state.turn_seat == seat:
        return finish_move_back(game, state, seat, state.entered_from, events)
    if len(options) == 1:
        return finish_move_back(game, state, seat, options[0], events)
    state.phase = Phase.MOVE_BACK
    state.seat = seat
    state.move_back_from = away_from
    return True


def finish_move_back(
    game: HeroicaBase, state: State, seat: int, cell: int, events: list[Event]
) -> bool:
    """The Hero moves back onto ``cell``; True when that ended the mission (the target
    space, HE-16.1): the turn that was going on does not go on."""
    here = game.hero_cell(state, seat)
    state.heroes[seat, HeroField.CELL] = cell
    events.append(
        Event(
            "move",
            f"{game.player_names[seat]} moves back "
            f"{game.cell_name(state, here)}->{game.cell_name(state, cell)}",
            seat,
            cells=(here, cell),
        )
    )
    pick_up(game, state, seat, cell, events)  # HE-6.9: pick up items, trigger nothing else
    if cell == game.targets[state.mission] and seat != game.monster_seat:
        game.mission_over(state, seat, events)
        return True
    return False


def explore_rocks(
    game: HeroicaBase, state: State, seat: int, cell: int, events: list[Event]
) -> None:
    """HE-13.3: Shield passes through, Sword removes the rocks, a Skull moves the Hero back."""
    state.rocks_pending = False
    state.last_fight_won = False
    symbol = roll(game, state, events, "explore the rocks")
    if symbol == SWORD:
        state.piece[cell] = 0
        events.append(
            Event("rocks", f"{game.player_names[seat]} clears the rocks", seat, cells=(cell,))
        )
    elif symbol == SHIELD:
        beyond = _space_beyond(game, state, seat, cell)
        if beyond == NO_CELL:
            events.append(Event("rocks", "no space beyond the rocks: nothing happens", seat))
        else:
            if hero_enter(game, state, seat, beyond, events, counted=False) != "over":
                post_move(game, state, seat, events)
            return
    elif start_move_back(game, state, seat, cell, events):
        return
    game.after_fight(state, events)


def _space_beyond(game: HeroicaBase, state: State, seat: int, rocks: int) -> int:
    """HE-13.3 Shield: the first space past the rocks, straight on, past any Heroes."""
    board = game.board_of(state)
    here = game.hero_cell(state, seat)
    direction = board.direction_between(here, rocks)
    beyond = int(board.neighbors[rocks, direction])
    while beyond >= 0 and game.hero_passable(state, beyond) and game.hero_at(state, beyond) >= 0:
        beyond = int(board.neighbors[beyond, direction])
    if beyond < 0 or not game.hero_passable(state, beyond):
        return NO_CELL
    return beyond
