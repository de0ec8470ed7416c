"""HeroClix's turn as a table of phases (HC-3.1-3.6), one rule per decision::

    ACTION --select--> FIGURE --move/soar--------------------------------> (action over)
       |                 |--break_away (1d6: 4-6) / carry / pick_up--> MOVE <-> PICKUP
       |                 |                                               \\-> DROP (passenger)
       |                 |--ranged (more bolts)--> TARGETS --fire-->
       |                 |--tk_object--> TELEKINESIS --tk_move / tk_hurl-->
       |                 |--power_<key>--> VARIANT --the variant's steps--> (TARGETS)
       |                 \\--close, throw, smash, wall_*, support, regenerate -->
       |--free (Outwit, Perplex) --> VARIANT --target, choice--> ACTION (no action used)
       |--pass, end_turn

An effect that needs another seat's decision mid-action (Mastermind) raises it as an
INTERRUPT (:mod:`envs.heroclix.phases.interrupts`): the action is replayed around the answer.

An action over goes through :func:`~envs.heroclix.phases.endings.finish_action` (tokens, pushing,
the next action or the end of the turn). ``switch_off`` (HC-3.8) turns off one optional
power of the chosen figure and leaves the choice open.
"""

from __future__ import annotations

from envs.core.actions import DecodedAction
from envs.core.events import Event
from envs.core.flow import GameOverPhase, PhaseRule, handles
from envs.heroclix.combat.objects import pick_up, pickup_squares, tk_destinations, tk_targets
from envs.heroclix.combat.resolve import avoids_targeting
from envs.heroclix.game import ActionKind, HeroclixBase
from envs.heroclix.movement import (
    landing_squares_mask,
    mark_destinations,
    needs_breakaway,
    roll_breakaway,
    start_move,
    walk_to,
)
from envs.heroclix.phases.attacks import AttackHandlers, hurl_object
from envs.heroclix.phases.endings import end_turn, finish_action
from envs.heroclix.powers.free import begin_free_power, offer_free_powers
from envs.heroclix.powers.hooks import NOT_CARRIED, has_trait
from envs.heroclix.powers.variant_base import begin_variant, offer_variants
from envs.heroclix.state import GROUND, NO_FIGURE, SOAR, Phase, State

Rule = PhaseRule[HeroclixBase, State]


class Action(Rule):
    """HC-3.5: choose a figure that may act (HC-3.4, HC-3.17), pass, or end the turn."""

    def mask(self, game, state, legal):
        legal.cells(
            "select",
            [int(state.cell[f]) for f in game.alive(state, state.seat) if game.can_act(state, f)],
        )
        legal.special(ActionKind.PASS)
        legal.special(ActionKind.END_TURN)
        offer_free_powers(game, state, legal)

    @handles(ActionKind.FREE)
    def free(self, game, state, action, events):
        begin_free_power(game, state, action.cell)

    @handles(ActionKind.SELECT)
    def choose(self, game, state, action, events):
        state.selected = int(state.occupant[action.cell])
        start_move(game, state, state.selected)
        state.phase = Phase.FIGURE

    @handles(ActionKind.PASS)
    def pass_action(self, game, state, action, events):
        events.append(Event("pass", "pass", state.seat))
        finish_action(game, state, NO_FIGURE, events)

    @handles(ActionKind.END_TURN)
    def end(self, game, state, action, events):
        events.append(
            Event("end_turn", f"{game.player_names[state.seat]} ends the turn", state.seat)
        )
        end_turn(game, state, events)


class Figure(AttackHandlers):
    """The chosen figure's action (HC-3.5) or a power's variant of one."""

    def mask(self, game, state, legal):
        figure = state.selected
        if needs_breakaway(game, state, figure):
            legal.special(ActionKind.BREAK_AWAY)
        else:
            mark_destinations(game, state, legal, figure)
            legal.cells(ActionKind.PICK_UP, pickup_squares(game, state, figure))
        legal.cells(ActionKind.CARRY, carry_squares(game, state, figure))
        options = self.mark_attacks(game, state, legal, figure)
        offer_variants(game, state, legal, figure, options)
        for column in game.switchable(state, figure):
            legal.slot(ActionKind.SWITCH_OFF, column)

    @handles(ActionKind.MOVE, ActionKind.SOAR)
    def move(self, game, state, action, events):
        state.action_kind = "move"
        arrive(game, state, state.selected, action, events)

    @handles(ActionKind.POWER)
    def variant(self, game, state, action, events):
        begin_variant(game, state, action.index, events)

    @handles(ActionKind.BREAK_AWAY)
    def break_away(self, game, state, action, events):
        figure = state.selected
        state.action_kind = "move"
        if not roll_breakaway(game, state, figure, events):  # HC-3.23 default: the action is used
            finish_action(game, state, figure, events)
            return
        start_move(game, state, figure)
        state.phase = Phase.MOVE

    @handles(ActionKind.CARRY)
    def carry(self, game, state, action, events):
        figure = state.selected
        state.action_kind = "move"
        state.passenger = int(state.occupant[action.cell])
        events.append(
            Event(
                "carry", f"{game.label(figure)} picks up {game.label(state.passenger)}", state.seat
            )
        )
        if needs_breakaway(game, state, figure):
            self.break_away(game, state, action, events)
            if state.phase is not Phase.MOVE:
                return
        # Carried along, the passenger leaves its square (the carrier may even end there);
        # its ``cell`` keeps the square it was taken from until it is set down.
        state.occupant[state.cell[state.passenger]] = NO_FIGURE
        start_move(game, state, figure)
        state.phase = Phase.MOVE

    @handles(ActionKind.PICK_UP)
    def pick_up(self, game, state, action, events):
        figure = state.selected
        state.action_kind = "move"
        start_move(game, state, figure)
        take(game, state, figure, action.cell, events)
        state.phase = Phase.MOVE

    @handles(ActionKind.SWITCH_OFF)
    def switch_off(self, game, state, action, events):
        figure = state.selected
        state.power_off[figure, action.index] = True
        game.after_dial_turn(state, figure, events)  # HC-6.10: no Super Strength, no object
        start_move(game, state, figure)  # a speed power may change the move (HC-5.10)
        events.append(
            Event(
                "switch_off",
                f"{game.label(figure)} switches off its {action.name.split('_')[-1]} power",
                state.seat,
            )
        )


def carry_squares(game: HeroclixBase, state: State, figure: int) -> list[int]:
    """HC-3.30/3.31: a hovering flyer may take one adjacent friend that holds nothing."""
    if not game.flies(state, figure) or state.mode[figure] == SOAR:  # HC-3.31 limits the passenger
        return []
    friends = [
        f
        for f in game.alive(state, int(game.owner[figure]))
        if f != figure
        and state.mode[f] != SOAR
        and state.held[f] < 0
        and not has_trait(game.powers(state, f), NOT_CARRIED)  # P-DMG-2
        and game.is_adjacent(state, figure, f)
    ]
    return sorted(int(state.cell[f]) for f in friends)


def take(game: HeroclixBase, state: State, figure: int, cell: int, events: list[Event]) -> None:
    obj = pick_up(game, state, figure, cell)
    events.append(
        Event(
            "pick_up",
            f"{game.label(figure)} picks up the {game.objects.names[obj]}",
            state.seat,
            cells=(cell,),
        )
    )


def arrive(
    game: HeroclixBase, state: State, figure: int, action: DecodedAction, events: list[Event]
) -> None:
    """Carry out one leg of a move to ``action.cell`` in the plane's mode."""
    walk_to(game, state, figure, action, events)
    if pickup_squares(game, state, figure):
        state.phase = Phase.PICKUP
    else:
        end_move(game, state, figure, events)


def end_move(game: HeroclixBase, state: State, figure: int, events: list[Event]) -> None:
    if state.passenger != NO_FIGURE:
        state.phase = Phase.DROP
        return
    finish_action(game, state, figure, events)


class Move(Rule):
    """A move's destination after a breakaway, a pick-up or taking a passenger; another leg
    after a pick-up on the way (HC-6.6)."""

    def mask(self, game, state, legal):
        mark_destinations(game, state, legal, state.selected)
        legal.cells(ActionKind.PICK_UP, pickup_squares(game, state, state.selected))

    @handles(ActionKind.MOVE, ActionKind.SOAR)
    def move(self, game, state, action, events):
        arrive(game, state, state.selected, action, events)

    @handles(ActionKind.PICK_UP)
    def pick_up(self, game, state, action, events):
        take(game, state, state.selected, action.cell, events)


class Pickup(Rule):
    """HC-6.6: pick up an object beside the square reached (and go on if speed is left)."""

    def mask(self, game, state, legal):
        legal.cells(ActionKind.PICK_UP, pickup_squares(game, state, state.selected))
        legal.special(ActionKind.END_MOVE)

    @handles(ActionKind.PICK_UP)
    def pick_up(self, game, state, action, events):
        figure = state.selected
        take(game, state, figure, action.cell, events)
        if state.move_stopped or state.move_spent >= state.move_budget:
            end_move(game, state, figure, events)
        else:
            state.phase = Phase.MOVE

    @handles(ActionKind.END_MOVE)
    def stop(self, game, state, action, events):
        end_move(game, state, state.selected, events)


class Drop(Rule):
    """HC-3.30: set the passenger down on an empty square adjacent to the carrier."""

    def mask(self, game, state, legal):
        legal.cells(ActionKind.DROP, drop_squares(game, state))

    def apply(self, game, state, action, events):
        figure, passenger = state.selected, state.passenger
        game.move_figure_onto_map(state, passenger, action.cell)
        state.mode[passenger] = GROUND
        events.append(
            Event(
                "drop",
                f"{game.label(figure)} sets {game.label(passenger)} down",
                state.seat,
                cells=(action.cell,),
            )
        )
        state.carried[passenger] = True  # HC-3.32: no token; HC-3.33 flag may bar acting
        finish_action(game, state, figure, events)


def drop_squares(game: HeroclixBase, state: State) -> list[int]:
    landing = landing_squares_mask(game, state)
    table = game.adjacency(state)[int(state.cell[state.selected])]
    return sorted(int(c) for c in table if c >= 0 and landing[c])


class Telekinesis(Rule):
    """HC-6.14 move the object (a move action) or HC-6.15 hurl it (a ranged action)."""

    def mask(self, game, state, legal):
        legal.cells(ActionKind.TK_MOVE, tk_destinations(game, state, state.tk_object))
        legal.cells(ActionKind.TK_HURL, tk_targets(game, state, state.selected, state.tk_object))

    @handles(ActionKind.TK_MOVE)
    def move_object(self, game, state, action, events):
        obj, figure = state.tk_object, state.selected
        state.action_kind = "move"  # HC-6.14: a move action
        start = int(state.objects[obj])
        state.objects[obj] = action.cell
        events.append(
            Event(
                "tk_move",
                f"{game.label(figure)} moves the {game.objects.names[obj]}",
                state.seat,
                cells=(start, action.cell),
            )
        )
        finish_action(game, state, figure, events)

    @handles(ActionKind.TK_HURL)
    def hurl(self, game, state, action, events):
        if avoids_targeting(game, state, state.selected, int(state.occupant[action.cell]), events):
            return  # P-DMG-7: the object stays; move it or hurl it at another
        hurl_object(game, state, state.selected, state.tk_object, action.cell, events)
        finish_action(game, state, state.selected, events)


GameOver = GameOverPhase
