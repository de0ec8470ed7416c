"""Telekinesis moving a friendly figure (P-ATT-11 option 2), under the flag
``tk_move_friend`` (off by default: R-9 recalls it for 2002 but the source lacks it).

A variant of the move action on the ``power_telekinesis`` slot: ``target`` an adjacent
friendly figure that is not soaring, then ``tk_move`` a square for it within 10 squares of
the Telekinesis figure and in its line of fire: not blocking, no figure on it, elevated
terrain allowed. The friend flies there over figures and hindering terrain, gets no token
and may still act this turn if it has not.
"""

from __future__ import annotations

import numpy as np

from ..core.events import Event
from .powers import MOVES_OBJECTS, has_trait
from .state import GROUND, NO_CELL, NO_FIGURE, SOAR
from .targets import SIGHT_REACH, fire_snapshot
from .turns import finish_action
from .variants import Variant, cells_of, register_variant


@register_variant
class TelekinesisFriend(Variant):
    key = "telekinesis"
    action = "move"

    def friends(self, game, state, figure) -> list[int]:
        if not game.flags["tk_move_friend"] or state.mode[figure] == SOAR \
                or not has_trait(game.powers(state, figure), MOVES_OBJECTS):
            return []
        owner = game.owner[figure]
        return [f for f in game.adjacent_figures(state, figure)
                if game.owner[f] == owner and state.mode[f] != SOAR]

    def squares(self, game, state, figure) -> list[int]:
        """Where the friend in ``state.targets`` (if chosen) may go; it does not block the
        line to its own destination."""
        if state.targets:
            state = state.copy()
            friend = state.targets[0]
            state.occupant[state.cell[friend]] = NO_FIGURE
            state.cell[friend] = NO_CELL
        cell = int(state.cell[figure])
        free = (game.board.exists & ~state.blocking & (state.occupant < 0)
                & (game.chebyshev[cell] <= SIGHT_REACH))
        free[cell] = False
        near = np.flatnonzero(free)
        if not near.size:
            return []
        clear = fire_snapshot(game, state).targets_from(
            cell, near, attacker_flying=game.flies(state, figure)).clear
        return [int(c) for c in near[clear]]

    def offered(self, game, state, figure, options):
        return bool(self.friends(game, state, figure)) and bool(self.squares(game, state, figure))

    def mask(self, game, state, legal):
        figure = state.selected
        if state.variant_stage == 0:
            legal.cells("target", cells_of(state, self.friends(game, state, figure)))
        else:
            legal.cells("tk_move", self.squares(game, state, figure))

    def apply(self, game, state, action, events):
        figure = state.selected
        if state.variant_stage == 0:
            state.targets = [int(state.occupant[action.cell])]
            state.variant_stage = 1
            return
        friend = state.targets[0]
        start = int(state.cell[friend])
        game.move_figure(state, friend, action.cell)
        state.mode[friend] = GROUND
        state.action_kind = "move"
        events.append(Event("tk_move", f"{game.label(figure)} moves {game.label(friend)} to "
                            f"{game.cell_label(action.cell)}", state.seat,
                            cells=(start, action.cell)))
        finish_action(game, state, figure, events)
