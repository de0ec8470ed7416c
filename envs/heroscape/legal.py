"""Heroscape: legal decisions per phase and their effects (the turn flow of HS-5 ... HS-13)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.actions import DecodedAction
from ..core.dice import HEROSCAPE_COMBAT_DIE
from ..core.game import Event
from .state import NO_CELL, NO_FIGURE, Phase, State

if TYPE_CHECKING:  # pragma: no cover
    from .rules import HeroscapeGame


def card_figures(game: "HeroscapeGame", state: State, card: int | None = None) -> list[int]:
    """Living figures on ``card`` (default: the chosen card)."""
    cells = state.cell.tolist()
    return [f for f in game.card_members[state.card if card is None else card] if cells[f] != NO_CELL]


def attackers(game: "HeroscapeGame", state: State) -> list[int]:
    """HS-8.1: figures of the chosen card that have not attacked and have a target."""
    return [f for f in card_figures(game, state)
            if not state.attacked[f] and game.targets(state, f, first_only=True)]


def legal_mask(game: "HeroscapeGame", state: State) -> np.ndarray:
    mask = np.zeros(game.layout.size, dtype=bool)
    layout = game.layout
    phase = state.phase

    def mark(plane: str, cells) -> None:
        offset = layout.plane_offset(plane)
        for cell in cells:
            mask[offset + cell] = True

    if phase is Phase.CHOOSE_CARD:
        for slot, card in enumerate(game.player_cards[state.seat]):
            if card_figures(game, state, card):  # HS-5.2 default: any card with figures
                mask[game.card_actions[slot]] = True
    elif phase is Phase.MOVE_SELECT:
        for figure in card_figures(game, state):
            if not state.moved[figure]:
                mark("select", game.cells_of(state, figure))
        mask[layout.special("end_movement")] = True
    elif phase is Phase.MOVE_DEST:
        mark("move", sorted({c for dest in game.destinations(state, state.selected) for c in dest}))
    elif phase is Phase.MOVE_TAIL:
        mark("tail", _tails(game, state))
    elif phase is Phase.ATTACK_SELECT:
        for figure in attackers(game, state):
            mark("select", game.cells_of(state, figure))
        mask[layout.special("end_turn")] = True
    elif phase is Phase.ATTACK_TARGET:
        for target in game.targets(state, state.selected):
            mark("attack", game.cells_of(state, target))
    return mask


def _tails(game: "HeroscapeGame", state: State) -> list[int]:
    first = state.destination
    return sorted(b if a == first else a for a, b in game.destinations(state, state.selected)
                  if first in (a, b))


def apply_action(game: "HeroscapeGame", state: State, action: DecodedAction, events: list[Event]) -> None:
    seat = state.seat
    if action.special is not None:
        if action.special.startswith("card_"):
            _choose_card(game, state, seat, int(action.special[len("card_"):]), events)
        elif action.special == "end_movement":
            _start_attacks(game, state, events)
        elif action.special == "end_turn":
            end_turn(game, state, events)
        return
    cell = action.cell
    if state.phase is Phase.MOVE_SELECT:
        state.selected = int(state.occupant[cell])
        state.phase = Phase.MOVE_DEST
    elif state.phase is Phase.MOVE_DEST:
        figure = state.selected
        if not game.fig_double[figure]:
            _finish_move(game, state, figure, (cell,), events)
            return
        state.destination = cell
        tails = _tails(game, state)
        if len(tails) == 1:
            _finish_move(game, state, figure, (cell, tails[0]), events)
        else:
            state.phase = Phase.MOVE_TAIL
    elif state.phase is Phase.MOVE_TAIL:
        _finish_move(game, state, state.selected, (state.destination, cell), events)
    elif state.phase is Phase.ATTACK_SELECT:
        state.selected = int(state.occupant[cell])
        state.phase = Phase.ATTACK_TARGET
    elif state.phase is Phase.ATTACK_TARGET:
        attack(game, state, state.selected, int(state.occupant[cell]), events)


def _choose_card(game, state, seat, slot, events) -> None:
    state.card = game.player_cards[seat][slot]
    state.moved[:] = False
    state.attacked[:] = False
    state.phase = Phase.MOVE_SELECT
    events.append(Event("card", f"player_{seat} chooses {game.cards[state.card].name}", seat))


def _finish_move(game, state, figure: int, cells: tuple[int, ...], events) -> None:
    before = game.cells_of(state, figure)
    game.place(state, figure, cells[0], cells[1] if len(cells) > 1 else NO_CELL)
    state.moved[figure] = True
    state.selected = NO_FIGURE
    state.destination = NO_CELL
    names = "+".join(game.cell_name(c) for c in cells)
    events.append(Event("move", f"{game.figure_label[figure]} moves {game.cell_name(before[0])}->{names}",
                        state.seat, cells=(before[0], cells[0])))
    if all(state.moved[f] for f in card_figures(game, state)):
        _start_attacks(game, state, events)  # HS-5.1: every figure has moved
    else:
        state.phase = Phase.MOVE_SELECT


def _start_attacks(game, state, events) -> None:
    state.selected = NO_FIGURE
    if attackers(game, state):
        state.phase = Phase.ATTACK_SELECT
    else:
        end_turn(game, state, events)  # HS-8.2: no figure can attack


def attack(game: "HeroscapeGame", state: State, attacker: int, defender: int, events: list[Event]) -> None:
    """HS-12: attack dice need skulls, defense dice shields; more skulls destroys (HS-12.6)."""
    a_level, d_level = game.base_level(state, attacker), game.base_level(state, defender)
    a_dice = int(game.fig_attack[attacker]) + (a_level > d_level)  # HS-12.4 height advantage
    d_dice = int(game.fig_defense[defender]) + (d_level > a_level)
    a_roll = [state.dice.roll_symbol(HEROSCAPE_COMBAT_DIE) for _ in range(a_dice)]
    d_roll = [state.dice.roll_symbol(HEROSCAPE_COMBAT_DIE) for _ in range(d_dice)]
    skulls, shields = a_roll.count("skull"), d_roll.count("shield")
    state.attacked[attacker] = True
    state.selected = NO_FIGURE
    hit = skulls > shields
    target_cell = int(state.cell[defender])
    events.append(Event("attack", f"{game.figure_label[attacker]} attacks {game.figure_label[defender]}: "
                        f"{skulls} skull(s) vs {shields} shield(s) -> "
                        f"{'destroyed' if hit else 'blocked'}", state.seat,
                        cells=(int(state.cell[attacker]), target_cell), dice=tuple(a_roll + d_roll)))
    if hit:
        game.remove(state, defender)  # HS-12.6: removed at once
        alive = game.players_alive(state)
        if len(alive) == 1 and game.victory in ("eliminate", "hold"):
            finish(state, alive)
            events.append(Event("win", f"player_{alive[0]} has destroyed every enemy figure", alive[0]))
            return
    if attackers(game, state):
        state.phase = Phase.ATTACK_SELECT
    else:
        end_turn(game, state, events)


def finish(state: State, winners: list[int]) -> None:
    state.winners = sorted(winners)
    state.phase = Phase.GAME_OVER
    state.seat = -1


def end_turn(game: "HeroscapeGame", state: State, events: list[Event]) -> None:
    """HS-4.4: next living player clockwise; a round ends when play passes the first player."""
    state.turns += 1
    state.card = -1
    state.selected = NO_FIGURE
    alive = set(game.players_alive(state))
    n = game.num_players
    wrapped = False
    nxt = state.seat
    for step in range(1, n + 1):
        nxt = (state.seat + step) % n
        if nxt == state.first_player:
            wrapped = True
        if nxt in alive:
            break
    if wrapped:
        state.round += 1
        if game.victory == "hold" and _check_hold(game, state, events):
            return
        if state.round >= game.round_cap:  # HS-13.1 default: a draw
            events.append(Event("draw", f"the round cap ({game.round_cap}) is reached: a draw"))
            finish(state, [])
            return
    state.seat = nxt
    state.phase = Phase.CHOOSE_CARD


def _check_hold(game: "HeroscapeGame", state: State, events: list[Event]) -> bool:
    """Hold objective: sole occupier of the objective spaces for N consecutive rounds."""
    holders = {int(game.fig_owner[state.occupant[c]]) for c in game.hold_cells
               if state.occupant[c] != NO_FIGURE}
    for seat in range(game.num_players):
        state.hold_rounds[seat] = state.hold_rounds[seat] + 1 if holders == {seat} else 0
    for seat in range(game.num_players):
        if state.hold_rounds[seat] >= game.hold_target:
            events.append(Event("win", f"player_{seat} held the objective for {game.hold_target} rounds", seat))
            finish(state, [seat])
            return True
    return False
