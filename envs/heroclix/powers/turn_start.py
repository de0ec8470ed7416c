"""Powers that act at the start of their controller's turn (``turn_start`` in :data:`HOOKS`).

==============  ======  ===================================================================
power           order   effect
==============  ======  ===================================================================
Leadership      0       roll 1d6: 4-6 gives the player one more action this turn, at most
(P-DMG-11)              one per turn however many Leaders (the next Leader rolls only
                        while none has succeeded)
Poison          1       1 damage to every adjacent enemy: not an attack (no roll, no
(P-ATT-9)               knockback, no critical), but reductions apply; no action, no token
==============  ======  ===================================================================

:func:`envs.heroclix.phases.endings.turn_start_powers` runs them by ``order`` and then by the
figure's square (row, col), so every Leader rolls before any Poison acts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, cast

from envs.core.events import Event
from envs.core.hooks import TURN_START
from envs.heroclix.combat.attack import DamageKind
from envs.heroclix.combat.resolve import deal_damage
from envs.heroclix.game import HeroclixBase
from envs.heroclix.powers.hooks import HOOKS
from envs.heroclix.state import State

LEADERSHIP_ON = 4  # P-DMG-11: 4-6
POISON_DAMAGE = 1


class TurnStartPower(Protocol):
    """A ``turn_start`` effect: the function, with its ``order`` as ``priority``."""

    priority: int

    def __call__(
        self, game: HeroclixBase, state: State, figure: int, events: list[Event]
    ) -> None: ...


def turn_start(key: str, priority: int) -> Callable:
    def add(effect: Callable) -> Callable:
        # The order is an attribute of the function, which a Callable's type cannot declare.
        power = cast(TurnStartPower, effect)
        power.priority = priority
        HOOKS.register(TURN_START, key)(effect)
        return effect

    return add


@turn_start("leadership", 0)
def leadership(game: HeroclixBase, state: State, figure: int, events: list[Event]) -> None:
    if state.extra_action_granted:
        return
    roll = game.roll_for(state, figure)[0]
    gained = roll >= LEADERSHIP_ON
    events.append(
        Event(
            "leadership",
            f"{game.label(figure)} leads: {'one more action' if gained else 'no extra action'}",
            state.seat,
            cells=(int(state.cell[figure]),),
            dice=(str(roll),),
        )
    )
    if gained:
        state.actions_left += 1
        state.extra_action_granted = True


@turn_start("poison", 1)
def poison(game: HeroclixBase, state: State, figure: int, events: list[Event]) -> None:
    victims = game.adjacent_enemies(state, figure)
    if victims:
        events.append(
            Event(
                "poison",
                f"{game.label(figure)} poisons " + ", ".join(game.label(v) for v in victims),
                state.seat,
                cells=(int(state.cell[figure]),),
            )
        )
    for victim in victims:
        deal_damage(game, state, victim, POISON_DAMAGE, DamageKind.POISON, figure, events)
