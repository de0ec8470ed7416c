"""Decisions inside an action (interrupts): Mastermind's transfer (P-DEF-7) and Probability
Control's reroll (P-DMG-6, :mod:`envs.heroclix.combat.rolls`).

A rule deep inside an action (an attack's damage step) may need a choice from a seat that is
not acting. Rather than suspend Python code, the action is *replayed*: the effect calls
:func:`ask`, which returns the answer already given for that request or raises
:class:`NeedDecision`. :func:`apply_with_interrupts` then puts the state back as it was
before the action (dice included, so the replay rolls the same results), records the
request in ``state.interrupt`` and hands the INTERRUPT phase to the asked seat. Its answer
goes to ``state.answers`` and the pending action is applied again, from the start, until it
completes; then the answers are forgotten. Events are those of the replay that completes.

Requests are lists of ints ``[kind, seat, figure, amount, *squares]``:

===========  =============================================================================
kind         decision
===========  =============================================================================
mastermind   the figure would take ``amount`` damage (an attack's or knockback's): give it
             all to the adjacent friend of lower points on one of ``squares`` (``target``
             plane) or take it (``decline``)
probability  the roll for the figure came to ``amount``: ``reroll`` it or let it stand
             (``decline``)
knockback    the figure took ``amount`` without being knocked back: ``accept`` being
             knocked back that far, or not (``decline``; flag ``combat_reflexes_2008``)
===========  =============================================================================

Only games whose dials show an interrupting power (and, for Probability Control, with its
flag on) pay for the replay's state copy (``game.may_interrupt``).
"""

from __future__ import annotations

from collections.abc import Callable

from envs.core.events import Event
from envs.core.flow import PhaseRule
from envs.heroclix.game import ActionKind, HeroclixBase
from envs.heroclix.state import Phase, State

KINDS = ("mastermind", "probability", "knockback")
MASTERMIND, PROBABILITY, KNOCKBACK = 0, 1, 2
DECLINE, REROLL, ACCEPT = -1, -2, -3
_SPECIAL_ANSWERS = {"decline": DECLINE, "reroll": REROLL, "accept": ACCEPT}


class NeedDecision(Exception):
    def __init__(self, request: list[int]):
        super().__init__(f"decision needed: {request}")
        self.request = request


def ask(state: State, request: list[int]) -> int:
    """The answer to ``request`` in this replay of the action, or :class:`NeedDecision`.
    Outside a decision (the first turn's start, set up by ``new_state``) nobody can be asked:
    the answer is ``decline``."""
    if state.asked < 0:
        return DECLINE
    if state.asked < len(state.answers):
        answer = state.answers[state.asked]
        state.asked += 1
        return answer
    raise NeedDecision(request)


def apply_with_interrupts(
    game: HeroclixBase, state: State, action: int, apply: Callable[[State, int], list[Event]]
) -> list[Event]:
    if state.phase is Phase.INTERRUPT:
        decoded = game.layout.decode(action)
        answer = decoded.cell if decoded.on_cell else _SPECIAL_ANSWERS[decoded.kind]
        state.answers = [*state.answers, answer]
        state.phase, state.seat = Phase(state.saved_phase), state.saved_seat
        state.interrupt = []
        action = state.pending_action
    before = state.snapshot()
    state.asked = 0
    try:
        events = apply(state, action)
    except NeedDecision as need:
        state.restore(before)
        state.asked = -1
        state.pending_action = action
        state.interrupt = list(need.request)
        state.saved_phase, state.saved_seat = int(state.phase), state.seat
        state.phase = Phase.INTERRUPT
        state.seat = need.request[1]
        return [Event("interrupt", describe_request(game, state), state.seat)]
    state.answers = []
    state.pending_action = -1
    state.asked = -1
    return events


def describe_request(game: HeroclixBase, state: State) -> str:
    kind, _, figure, amount, *_ = state.interrupt
    if kind == PROBABILITY:
        return f"{game.label(figure)} rolled {amount}: reroll? (Probability Control)"
    if kind == KNOCKBACK:
        return f"{game.label(figure)} took {amount}: be knocked back? (Combat Reflexes)"
    return f"{game.label(figure)} would take {amount}: transfer it? (Mastermind)"


def interrupt_action_name(game: HeroclixBase, state: State, decoded) -> str:
    kind, _, figure, amount, *_ = state.interrupt
    if kind == PROBABILITY:
        return (
            f"reroll the {amount}"
            if decoded.kind == ActionKind.REROLL
            else f"let the {amount} stand"
        )
    if kind == KNOCKBACK:
        return (
            f"{game.label(figure)} rolls back {amount}"
            if decoded.kind == ActionKind.ACCEPT
            else f"{game.label(figure)} holds its ground"
        )
    if decoded.kind == ActionKind.DECLINE:
        return f"{game.label(figure)} takes the {amount}"
    return (
        f"transfer {amount} from {game.label(figure)} to {game.who(state, decoded.cell)} "
        f"{game.cell_label(decoded.cell)}"
    )


class Interrupt(PhaseRule[HeroclixBase, State]):
    """The asked seat's answer; :func:`apply_with_interrupts` carries it out."""

    def mask(self, game, state, legal):
        if state.interrupt[0] == PROBABILITY:
            legal.special(ActionKind.REROLL)
        elif state.interrupt[0] == KNOCKBACK:
            legal.special(ActionKind.ACCEPT)
        else:
            legal.cells(ActionKind.TARGET, state.interrupt[4:])
        legal.special(ActionKind.DECLINE)

    def apply(self, game, state, action, events):
        raise AssertionError("INTERRUPT answers are applied by apply_with_interrupts")
