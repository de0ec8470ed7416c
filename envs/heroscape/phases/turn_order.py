"""Heroscape turns: starting a card's turn, passing play on (HS-4.4) and the rules that end the
game (HS-13): every enemy destroyed, the hold objective at the end of a round, the round cap.

Turn rotation and round counting are core's (``StandardGame.next_turn``): a player without
figures is skipped and the skipped turn is not counted; a round ends when play passes the
first player (the initiative winner). Ending the game is ``StandardGame.finish``.
"""

from __future__ import annotations

from envs.core.events import Event
from envs.heroscape.game import HeroscapeBase
from envs.heroscape.state import NO_FIGURE, Phase, State


def start_card_turn(game: HeroscapeBase, state: State, card: int, events: list[Event]) -> None:
    """HS-5.2: the chosen card's figures move, then attack, this turn."""
    state.card = card
    state.moved[:] = False
    state.attacked[:] = False
    state.phase = Phase.MOVE_SELECT
    events.append(Event("card", f"player_{state.seat} chooses {game.cards[card].name}", state.seat))


def end_turn(game: HeroscapeBase, state: State, events: list[Event]) -> None:
    """HS-4.4: the next player clockwise with figures; a round ends when play passes the first
    player, and the end-of-round rules may end the game there."""
    state.card = -1
    state.selected = NO_FIGURE
    alive = set(game.players_alive(state))
    nxt = game.next_turn(state, state.seat, state.first_player, alive.__contains__)
    if nxt.new_round and end_of_round(game, state, events):
        return
    state.seat = nxt.seat
    state.phase = Phase.CHOOSE_CARD


def end_of_round(game: HeroscapeBase, state: State, events: list[Event]) -> bool:
    """The hold objective, then the round cap (HS-13.1 default: a draw); True if the game ended."""
    if game.victory == "hold" and check_hold(game, state, events):
        return True
    if state.round >= game.round_cap:
        events.append(Event("draw", f"the round cap ({game.round_cap}) is reached: a draw"))
        game.finish(state, [])
        return True
    return False


def check_hold(game: HeroscapeBase, state: State, events: list[Event]) -> bool:
    """Hold objective: sole occupier of the objective spaces for N consecutive rounds."""
    holders = {
        int(game.fig_owner[state.occupant[c]])
        for c in game.hold_cells
        if state.occupant[c] != NO_FIGURE
    }
    for seat in range(game.num_players):
        state.hold_rounds[seat] = state.hold_rounds[seat] + 1 if holders == {seat} else 0
    for seat in range(game.num_players):
        if state.hold_rounds[seat] >= game.hold_target:
            events.append(
                Event(
                    "win", f"player_{seat} held the objective for {game.hold_target} rounds", seat
                )
            )
            game.finish(state, [seat])
            return True
    return False


def check_elimination(game: HeroscapeBase, state: State, events: list[Event]) -> bool:
    """HS-13.1: a player who has destroyed every enemy figure wins at once; True if so."""
    alive = game.players_alive(state)
    if len(alive) != 1:
        return False
    game.finish(state, alive)
    events.append(Event("win", f"player_{alive[0]} has destroyed every enemy figure", alive[0]))
    return True


__all__ = ["check_elimination", "check_hold", "end_of_round", "end_turn", "start_card_turn"]
