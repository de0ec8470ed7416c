"""Typed hook registry: effects that change the rules for one figure plug in at named points.

A rules flow never names an effect. Where a rule may be changed (what a step costs, how many
dice an attack rolls, which extra actions a figure is offered) the flow asks a
:class:`HookRegistry` at a :class:`HookPoint`; the effects registered there answer. Which
effects a figure has is data (a Heroica weapon's ``effect:``, a HeroClix dial's powers), so a
figure's effects are a list of keys; an effect registered ``universal=True`` (a rule of the
game, such as Heroscape's height advantage) answers for every figure.

Each point declares how the answers combine:

=================  ===========  ================================================================
point              combine      question
=================  ===========  ================================================================
move_step_cost     sum          extra cost of one step (added to the board's step cost)
move_may_enter     all          may the figure enter this space
move_stops         any          does entering this space end the move
move_may_end       all          may the move end on this space
attack_value       sum          extra attack (dice in Heroscape, value in HeroClix)
defense_value      sum          extra defense
damage_dealt       sum          extra damage an attack deals
damage_taken       sum          change to the damage a figure takes (negative reduces)
after_attack       each         run after an attack resolves
turn_start         each         run when its owner's turn starts
turn_end           each         run when its owner's turn ends
extra_actions      lookup       an action effect offered at some decision (a skill, a power)
=================  ===========  ================================================================

``lookup`` points hold effect objects rather than functions: the engine finds one by its key
(the key the data names) and asks it what it needs (``usable``, ``start``, its targets).
Registering a key twice at one point is an error; asking for an unknown key names the known.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any


class Combine(str, enum.Enum):
    SUM = "sum"  # numbers added to a base value
    ALL = "all"  # every answer must be true
    ANY = "any"  # one true answer is enough
    EACH = "each"  # side effects, run in registration order
    LOOKUP = "lookup"  # one effect object per key


@dataclass(frozen=True, eq=False)  # each point is one object: identity hashing is exact and cheap
class HookPoint:
    name: str
    combine: Combine
    question: str
    # The effects read only their arguments (a trait table, not the state), so the registry
    # may remember each answer until an effect is registered.
    pure: bool = False


MOVE_STEP_COST = HookPoint("move_step_cost", Combine.SUM, "extra cost of one step")
MOVE_MAY_ENTER = HookPoint("move_may_enter", Combine.ALL, "may the figure enter this space")
MOVE_STOPS = HookPoint("move_stops", Combine.ANY, "does entering this space end the move")
MOVE_MAY_END = HookPoint("move_may_end", Combine.ALL, "may the move end on this space")
ATTACK_VALUE = HookPoint("attack_value", Combine.SUM, "extra attack dice or attack value")
DEFENSE_VALUE = HookPoint("defense_value", Combine.SUM, "extra defense dice or defense value")
DAMAGE_DEALT = HookPoint("damage_dealt", Combine.SUM, "extra damage an attack deals")
DAMAGE_TAKEN = HookPoint("damage_taken", Combine.SUM, "change to the damage a figure takes")
AFTER_ATTACK = HookPoint("after_attack", Combine.EACH, "run after an attack resolves")
TURN_START = HookPoint("turn_start", Combine.EACH, "run when its owner's turn starts")
TURN_END = HookPoint("turn_end", Combine.EACH, "run when its owner's turn ends")
EXTRA_ACTIONS = HookPoint("extra_actions", Combine.LOOKUP, "an action effect offered at a decision")

STANDARD_POINTS: tuple[HookPoint, ...] = (
    MOVE_STEP_COST,
    MOVE_MAY_ENTER,
    MOVE_STOPS,
    MOVE_MAY_END,
    ATTACK_VALUE,
    DEFENSE_VALUE,
    DAMAGE_DEALT,
    DAMAGE_TAKEN,
    AFTER_ATTACK,
    TURN_START,
    TURN_END,
    EXTRA_ACTIONS,
)


class HookRegistry:
    """Effects by point and key; one registry per game (``envs.heroica.skills.HOOKS``)."""

    def __init__(self, game: str, points: Iterable[HookPoint] = STANDARD_POINTS):
        self.game = game
        self.points = tuple(points)
        self._effects: dict[HookPoint, dict[str, Any]] = {p: {} for p in self.points}
        self._universal: dict[HookPoint, list[Any]] = {p: [] for p in self.points}
        # Asked at nearly every decision with the same few key tuples (a figure's powers):
        # the effects per (point, keys), and the answers of pure points, until a register.
        self._active: dict[tuple[HookPoint, tuple[str, ...]], tuple[Any, ...]] = {}
        self._answers: dict[tuple[Any, ...], Any] = {}

    def register(
        self, point: HookPoint, key: str, *, universal: bool = False
    ) -> Callable[[Any], Any]:
        """Decorator (or call with the effect): ``HOOKS.register(ATTACK_VALUE, "height")(fn)``."""
        table = self._table(point)
        if key in table:
            raise ValueError(f"{self.game}: effect {key!r} is registered at {point.name} twice")
        if universal and point.combine is Combine.LOOKUP:
            raise ValueError(f"{self.game}: lookup point {point.name} takes keyed effects only")

        def add(effect: Any) -> Any:
            self._active.clear()
            self._answers.clear()
            table[key] = effect
            if universal:
                self._universal[point].append(effect)
            return effect

        return add

    def _table(self, point: HookPoint) -> dict[str, Any]:
        try:
            return self._effects[point]
        except KeyError:
            raise ValueError(f"{self.game}: no hook point {point.name!r}") from None

    def keys(self, point: HookPoint) -> list[str]:
        return sorted(self._table(point))

    def keyed(self, point: HookPoint) -> list[str]:
        """The keys at ``point`` of effects that answer only for their key (not universal)."""
        table = self._table(point)
        return sorted(
            k for k, effect in table.items() if not any(effect is u for u in self._universal[point])
        )

    def get(self, point: HookPoint, key: str) -> Any:
        table = self._table(point)
        try:
            return table[key]
        except KeyError:
            raise KeyError(
                f"{self.game}: no effect {key!r} at {point.name}; known: {sorted(table)}"
            ) from None

    def has(self, point: HookPoint, key: str) -> bool:
        return key in self._table(point)

    def active(self, point: HookPoint, keys: Iterable[str] = ()) -> tuple[Any, ...]:
        """The universal effects at ``point``, then those of ``keys`` registered there."""
        if type(keys) is not tuple:
            return self._collect(point, keys)
        found = self._active.get((point, keys))
        if found is None:
            found = self._active[(point, keys)] = self._collect(point, keys)
        return found

    def _collect(self, point: HookPoint, keys: Iterable[str]) -> tuple[Any, ...]:
        table = self._table(point)
        universal = self._universal[point]
        return tuple(universal) + tuple(
            table[k] for k in keys if k in table and table[k] not in universal
        )

    def total(self, point: HookPoint, base: float, *args: Any, keys: Iterable[str] = ()) -> Any:
        self._expect(point, Combine.SUM)
        return base + sum(effect(*args) for effect in self.active(point, keys))

    def all(self, point: HookPoint, *args: Any, keys: Iterable[str] = ()) -> bool:
        self._expect(point, Combine.ALL)
        return all(effect(*args) for effect in self.active(point, keys))

    def any(self, point: HookPoint, *args: Any, keys: Iterable[str] = ()) -> bool:
        self._expect(point, Combine.ANY)
        if point.pure and type(keys) is tuple:
            memo = (point, args, keys)
            answer = self._answers.get(memo)
            if answer is None:
                answer = self._answers[memo] = any(
                    effect(*args) for effect in self.active(point, keys)
                )
            return answer
        return any(effect(*args) for effect in self.active(point, keys))

    def run(self, point: HookPoint, *args: Any, keys: Iterable[str] = ()) -> None:
        self._expect(point, Combine.EACH)
        for effect in self.active(point, keys):
            effect(*args)

    def _expect(self, point: HookPoint, combine: Combine) -> None:
        if point.combine is not combine:
            raise TypeError(f"{point.name} combines by {point.combine.value}, not {combine.value}")
