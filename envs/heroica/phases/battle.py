"""Battle Heroica (HE-20): the Monster Player's phases.

MONSTER_SELECT (pick a monster) -> it fights in place when a Hero is adjacent, otherwise a
movement roll and MONSTER_MOVE (step by step) -> [MONSTER_FORWARD (HE-20.5)] -> a fight
(MONSTER_FIGHT_CHOOSE when several Heroes are adjacent) -> the turn ends.
"""

from __future__ import annotations

from envs.core.actions import DecodedAction
from envs.core.flow import LegalMask, PhaseRule, handles
from envs.core.game import Event
from envs.heroica.dice import MOVE_VALUE, SHIELD, SKULL, SWORD, SWORD_SKULL
from envs.heroica.fights import start_move_back
from envs.heroica.game import ActionKind, HeroicaBase
from envs.heroica.moves import monster_available, monster_forward_steps, monster_steps, roll
from envs.heroica.state import Phase, State


class MonsterSelect(PhaseRule[HeroicaBase, State]):
    def mask(self, game, state, legal: LegalMask) -> None:
        legal.cells(
            ActionKind.TARGET, [int(c) for c in (game.is_monster[state.piece]).nonzero()[0]]
        )

    def apply(self, game, state, action: DecodedAction, events: list[Event]) -> None:
        cell = action.cell
        state.selected = cell
        heroes = game.adjacent_heroes(state, cell, healing_ok=False)
        events.append(
            Event(
                "select",
                f"the Monster Player picks the {game.monster_name(state, cell)} "
                f"at {game.cell_name(state, cell)}",
                state.seat,
                cells=(cell,),
            )
        )
        if heroes:  # HE-20.4 default: fights without moving
            engage(game, state, heroes, events)
            return
        symbol = roll(game, state, events, "monster move")
        state.die = symbol
        state.steps_left = MOVE_VALUE[symbol]
        state.moving_monster = int(state.piece[cell])
        state.piece[cell] = 0  # carried off the board while it moves (it may pass items)
        state.visited = 1 << cell
        state.move_start = state.last_free_cell = cell
        state.phase = Phase.MONSTER_MOVE


class MonsterMove(PhaseRule[HeroicaBase, State]):
    def mask(self, game, state, legal: LegalMask) -> None:
        legal.special(ActionKind.END_MOVE)
        if state.steps_left > 0:
            legal.cells(ActionKind.STEP, monster_steps(game, state, state.selected))

    @handles(ActionKind.END_MOVE)
    def end_move(self, game, state, action, events) -> None:
        finish_move(game, state, events)

    @handles(ActionKind.STEP)
    def step(self, game, state, action, events) -> None:
        cell = step_monster(game, state, action.cell, events)
        state.steps_left -= 1
        if monster_available(game, state, cell):
            state.last_free_cell = cell
        if game.adjacent_heroes(state, cell, healing_ok=False) or state.steps_left <= 0:
            finish_move(game, state, events)  # HE-20.6: must stop and fight


class MonsterForward(PhaseRule[HeroicaBase, State]):
    """HE-20.5: the move ended on a monster or item: keep stepping to an available space."""

    def mask(self, game, state, legal: LegalMask) -> None:
        legal.cells(ActionKind.STEP, monster_forward_steps(game, state))

    def apply(self, game, state, action, events) -> None:
        cell = step_monster(game, state, action.cell, events)
        if monster_available(game, state, cell) or not monster_forward_steps(game, state):
            finish_move(game, state, events)


class MonsterFightChoose(PhaseRule[HeroicaBase, State]):
    """HE-20.6: several Heroes are adjacent; the Monster Player picks one."""

    def mask(self, game, state, legal: LegalMask) -> None:
        legal.cells(
            ActionKind.TARGET,
            [
                game.hero_cell(state, s)
                for s in game.adjacent_heroes(state, state.selected, healing_ok=False)
            ],
        )

    def apply(self, game, state, action, events) -> None:
        monster_fight(game, state, game.hero_at(state, action.cell), events)


def step_monster(game: HeroicaBase, state: State, cell: int, events: list[Event]) -> int:
    previous = state.selected
    state.selected = cell
    state.visited |= 1 << cell
    events.append(
        Event(
            "move",
            f"the monster steps {game.cell_name(state, previous)}->{game.cell_name(state, cell)}",
            state.seat,
            cells=(previous, cell),
        )
    )
    return cell


def finish_move(game: HeroicaBase, state: State, events: list[Event]) -> None:
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
        engage(game, state, heroes, events)
    else:
        game.enter_end_phase(state, events)


def engage(game: HeroicaBase, state: State, heroes: list[int], events: list[Event]) -> None:
    if len(heroes) == 1:
        monster_fight(game, state, heroes[0], events)
    else:
        state.phase = Phase.MONSTER_FIGHT_CHOOSE


def monster_fight(game: HeroicaBase, state: State, hero_seat: int, events: list[Event]) -> None:
    """HE-20.7: the Monster Player's fight roll."""
    cell = state.selected
    strength = int(game.strength[state.piece[cell]])
    symbol = roll(
        game,
        state,
        events,
        f"{game.monster_name(state, cell)} attacks {game.player_names[hero_seat]}",
    )
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
    game.enter_end_phase(state, events)
