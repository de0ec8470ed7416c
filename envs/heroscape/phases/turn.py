"""Heroscape's turn as a table of phases (the flow of HS-5 ... HS-13), one rule per decision::

    CHOOSE_CARD -> MOVE_SELECT <-> MOVE_DEST [-> MOVE_TAIL] ... end_movement
                -> ATTACK_SELECT <-> ATTACK_TARGET ... end_turn -> next player's CHOOSE_CARD

Each :class:`~envs.core.flow.PhaseRule` marks what is legal now (``mask``) and carries out
one legal action (``apply``): read the decoded action, change the state through the small
named helpers below (and :mod:`.combat`, :mod:`envs.heroscape.phases.turn_order`), then go on to the next phase.

Two phases may resolve themselves as they are entered: a double-space figure with only one
way to finish its move makes it (HS-7), and attacks end when no figure of the card has a
target (HS-8.2). Both read what the new phase offers from its legal mask
(:func:`offered_cells`), so the mask and the decision to skip ask one question.
"""

from __future__ import annotations

import numpy as np

from envs.core.actions import DecodedAction
from envs.core.events import Event
from envs.core.flow import GameOverPhase, LegalMask, PhaseRule, handles
from envs.heroscape.combat import resolve_attack
from envs.heroscape.game import ActionKind, HeroscapeBase
from envs.heroscape.phases.turn_order import check_elimination, end_turn, start_card_turn
from envs.heroscape.state import NO_CELL, NO_FIGURE, Phase, State

Rule = PhaseRule[HeroscapeBase, State]


class ChooseCard(Rule):
    """HS-5.2 default: choose any army card that still has figures (slots ``card_0..3``)."""

    def mask(self, game: HeroscapeBase, state: State, legal: LegalMask) -> None:
        cells = state.cell.tolist()
        for slot, card in enumerate(game.player_cards[state.seat]):
            if any(cells[f] != NO_CELL for f in game.card_members[card]):
                legal.slot(ActionKind.CARD, slot)

    def apply(self, game: HeroscapeBase, state: State, action: DecodedAction, events: list) -> None:
        start_card_turn(game, state, game.player_cards[state.seat][action.param], events)


class MoveSelect(Rule):
    """HS-6.2: pick the next figure of the card to move, or end movement (HS-5.1)."""

    def mask(self, game: HeroscapeBase, state: State, legal: LegalMask) -> None:
        # the positions and flags read once as lists: cheaper than per-figure numpy reads
        cells, cells2, moved = state.cell.tolist(), state.cell2.tolist(), state.moved.tolist()
        array, offset = legal.array, game.layout.plane_offset(ActionKind.SELECT)
        for figure in game.card_members[state.card]:
            if cells[figure] != NO_CELL and not moved[figure]:
                array[offset + cells[figure]] = True
                if cells2[figure] != NO_CELL:
                    array[offset + cells2[figure]] = True
        legal.special(ActionKind.END_MOVEMENT)

    @handles(ActionKind.SELECT)
    def choose_figure(
        self, game: HeroscapeBase, state: State, action: DecodedAction, events: list
    ) -> None:
        state.selected = int(state.occupant[action.cell])
        state.phase = Phase.MOVE_DEST

    @handles(ActionKind.END_MOVEMENT)
    def stop_moving(
        self, game: HeroscapeBase, state: State, action: DecodedAction, events: list
    ) -> None:
        start_attacks(game, state, events)


class MoveDest(Rule):
    """HS-6.1: the selected figure's destination; a double-space figure's is one of its two
    final spaces (its own space = stay)."""

    def mask(self, game: HeroscapeBase, state: State, legal: LegalMask) -> None:
        legal.cells(ActionKind.MOVE, game.destination_cells(state, state.selected))

    def apply(self, game: HeroscapeBase, state: State, action: DecodedAction, events: list) -> None:
        figure, cell = state.selected, action.cell
        if not game.fig_double[figure]:
            finish_move(game, state, figure, (cell,), events)
            return
        state.destination = cell
        state.phase = Phase.MOVE_TAIL
        tails = offered_cells(game, state, "tail")
        if len(tails) == 1:  # HS-7: one way to finish the move; make it
            state.forget_mask()  # the position changes again
            finish_move(game, state, figure, (cell, int(tails[0])), events)


class MoveTail(Rule):
    """HS-7: a double-space figure's other final space, next to the one chosen."""

    def mask(self, game: HeroscapeBase, state: State, legal: LegalMask) -> None:
        legal.cells(ActionKind.TAIL, game.tails(state, state.selected, state.destination))

    def apply(self, game: HeroscapeBase, state: State, action: DecodedAction, events: list) -> None:
        finish_move(game, state, state.selected, (state.destination, action.cell), events)


class AttackSelect(Rule):
    """HS-11: pick the next attacker (a figure of the card with a target), or end the turn."""

    def mask(self, game: HeroscapeBase, state: State, legal: LegalMask) -> None:
        for figure in game.attackers(state):
            legal.cells(ActionKind.SELECT, game.cells_of(state, figure))
        legal.special(ActionKind.END_TURN)

    @handles(ActionKind.SELECT)
    def choose_attacker(
        self, game: HeroscapeBase, state: State, action: DecodedAction, events: list
    ) -> None:
        state.selected = int(state.occupant[action.cell])
        state.phase = Phase.ATTACK_TARGET

    @handles(ActionKind.END_TURN)
    def stop_attacking(
        self, game: HeroscapeBase, state: State, action: DecodedAction, events: list
    ) -> None:
        end_turn(game, state, events)


class AttackTarget(Rule):
    """HS-12.1: the defender, an enemy figure in range and sight of the selected attacker."""

    def mask(self, game: HeroscapeBase, state: State, legal: LegalMask) -> None:
        for target in game.targets(state, state.selected):
            legal.cells(ActionKind.ATTACK, game.cells_of(state, target))

    def apply(self, game: HeroscapeBase, state: State, action: DecodedAction, events: list) -> None:
        defender = int(state.occupant[action.cell])
        if resolve_attack(game, state, state.selected, defender, events) and check_elimination(
            game, state, events
        ):
            return
        start_attacks(game, state, events)


class GameOver(GameOverPhase):
    """HS-13: the game has ended; nothing is legal."""


# -- state changes shared by the phases ----------------------------------------------------
def offered_cells(game: HeroscapeBase, state: State, plane: str) -> np.ndarray:
    """The cells of ``plane`` the state's (new) phase offers, read from its legal mask, which
    is computed here once and cached on the state for the decision itself. A caller that
    changes the position afterwards forgets it."""
    state.forget_mask()  # any mask cached so far is the previous position's
    offset = game.layout.plane_offset(plane)
    return game.legal_mask(state)[offset : offset + game.layout.n_cells].nonzero()[0]


def offers_any(game: HeroscapeBase, state: State, plane: str) -> bool:
    """Whether the state's (new) phase offers a cell of ``plane``: :func:`offered_cells`
    without listing them."""
    state.forget_mask()  # any mask cached so far is the previous position's
    offset = game.layout.plane_offset(plane)
    return bool(game.legal_mask(state)[offset : offset + game.layout.n_cells].any())


def finish_move(
    game: HeroscapeBase, state: State, figure: int, cells: tuple[int, ...], events: list[Event]
) -> None:
    """Put ``figure`` on its final ``cells``; attacks start once every figure has moved."""
    before = int(state.cell[figure])
    game.place(state, figure, cells[0], cells[1] if len(cells) > 1 else NO_CELL)
    state.moved[figure] = True
    state.selected = NO_FIGURE
    state.destination = NO_CELL
    names = "+".join(game.cell_name(c) for c in cells)
    events.append(
        Event(
            "move",
            f"{game.figure_label[figure]} moves {game.cell_name(before)}->{names}",
            state.seat,
            cells=(before, cells[0]),
        )
    )
    if game.card_has_moved(state):
        start_attacks(game, state, events)  # HS-5.1: every figure has moved
    else:
        state.phase = Phase.MOVE_SELECT


def start_attacks(game: HeroscapeBase, state: State, events: list[Event]) -> None:
    """Go on to ATTACK_SELECT; without a figure that can attack, the turn ends (HS-8.2)."""
    state.selected = NO_FIGURE
    state.phase = Phase.ATTACK_SELECT
    if not offers_any(game, state, ActionKind.SELECT):
        state.forget_mask()  # the position changes again
        end_turn(game, state, events)
