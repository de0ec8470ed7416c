"""Telekinesis moving figures (P-ATT-11 options 2 and 1), each under its flag (off by
default: the card's Default keeps objects only; R-9 recalls option 2 for 2002).

A variant on the ``power_telekinesis`` slot:

* ``tk_move_friend`` (option 2, a move action): ``target`` an adjacent friendly figure that is
  not soaring;
* ``tk_move_enemy`` (option 1, a close action): ``close`` an adjacent enemy for no damage; a
  miss ends the action;

then ``tk_move`` a square for it within 10 squares of the Telekinesis figure and in its line
of fire: not blocking, no figure on it, elevated terrain allowed (the moved figure flies over
figures and hindering terrain and does not block its own line). It gets no token and may
still act this turn if it has not.
"""

from __future__ import annotations

import numpy as np

from envs.core.events import Event
from envs.heroclix.combat.attack import AttackKind, AttackSpec
from envs.heroclix.combat.resolve import avoids_targeting, resolve_attack
from envs.heroclix.combat.targets import SIGHT_REACH, close_targets, fire_snapshot
from envs.heroclix.game import ActionKind
from envs.heroclix.phases.endings import finish_action
from envs.heroclix.powers.hooks import MOVES_OBJECTS, has_trait
from envs.heroclix.powers.variant_base import Variant, back_to_figure, cells_of, register_variant
from envs.heroclix.state import GROUND, NO_CELL, NO_FIGURE, SOAR


@register_variant
class TelekinesisFigures(Variant):
    key = "telekinesis"
    action = "move"

    def able(self, game, state, figure) -> bool:
        return state.mode[figure] != SOAR and has_trait(game.powers(state, figure), MOVES_OBJECTS)

    def friends(self, game, state, figure) -> list[int]:
        if not game.options.tk_move_friend or not self.able(game, state, figure):
            return []
        owner = game.owner[figure]
        return [
            f
            for f in game.adjacent_figures(state, figure)
            if game.owner[f] == owner and state.mode[f] != SOAR
        ]

    def foes(self, game, state, figure) -> list[int]:
        if not game.options.tk_move_enemy or not self.able(game, state, figure):
            return []
        return close_targets(game, state, figure)

    def squares(self, game, state, figure) -> list[int]:
        """Where the friend in ``state.targets`` (if chosen) may go; it does not block the
        line to its own destination."""
        if state.targets:
            state = state.copy()
            friend = state.targets[0]
            state.occupant[state.cell[friend]] = NO_FIGURE
            state.cell[friend] = NO_CELL
        cell = int(state.cell[figure])
        free = (
            game.board.exists
            & ~state.blocking
            & (state.occupant < 0)
            & (game.chebyshev[cell] <= SIGHT_REACH)
        )
        free[cell] = False
        near = np.flatnonzero(free)
        if not near.size:
            return []
        clear = (
            fire_snapshot(game, state)
            .targets_from(cell, near, attacker_flying=game.flies(state, figure))
            .clear
        )
        return [int(c) for c in near[clear]]

    def offered(self, game, state, figure, options):
        return bool(self.friends(game, state, figure) or self.foes(game, state, figure)) and bool(
            self.squares(game, state, figure)
        )

    def mask(self, game, state, legal):
        figure = state.selected
        if state.variant_stage == 0:
            legal.cells(ActionKind.TARGET, cells_of(state, self.friends(game, state, figure)))
            legal.cells(ActionKind.CLOSE, cells_of(state, self.foes(game, state, figure)))
        else:
            legal.cells(ActionKind.TK_MOVE, self.squares(game, state, figure))

    def apply(self, game, state, action, events):
        figure = state.selected
        if state.variant_stage == 0:
            target = int(state.occupant[action.cell])
            if action.kind == ActionKind.CLOSE:  # option 1: an attack for no damage first
                if avoids_targeting(game, state, figure, target, events):
                    back_to_figure(state)
                    return
                spec = AttackSpec(AttackKind.CLOSE, power=self.key, deals_damage=False)
                result = resolve_attack(game, state, figure, [target], spec, events)
                if (
                    target not in result.hits
                    or state.cell[target] == NO_CELL
                    or state.cell[figure] == NO_CELL
                ):
                    finish_action(game, state, figure, events)
                    return
            else:
                state.action_kind = "move"
            state.targets = [target]
            state.variant_stage = 1
            if not self.squares(game, state, figure):
                finish_action(game, state, figure, events)
            return
        friend = state.targets[0]
        start = int(state.cell[friend])
        game.move_figure(state, friend, action.cell)
        state.mode[friend] = GROUND
        events.append(
            Event(
                "tk_move",
                f"{game.label(figure)} moves {game.label(friend)} to "
                f"{game.cell_label(action.cell)}",
                state.seat,
                cells=(start, action.cell),
            )
        )
        finish_action(game, state, figure, events)
