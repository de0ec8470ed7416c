"""The rules flow every game shares: a table of phases, each owning its mask and its apply.

A game's turn is a sequence of decisions; ``state.phase`` says which decision is next. Each
phase is one :class:`PhaseRule` object with

* ``mask(game, state, legal)``: mark what is legal now on a :class:`LegalMask`, and
* ``apply(game, state, action, events)``: carry out one legal decoded action.

so the legal mask and the effect of an action live side by side and never drift. The default
``apply`` dispatches on the action's kind (its plane or slot family) to the methods marked
``@handles(kind, ...)``; a phase with one kind of action just overrides ``apply``. Kinds are
the members of the game's ``ActionKind`` enum (a ``StrEnum``, so a layout built from them
names its planes and slots by the same strings).

:class:`PhaseTable` maps every phase of a game's enum to its rule and checks at load that no
phase was forgotten. :class:`~envs.core.game.StandardGame` dispatches through it, and owns the
turn rotation, the round count and finishing the game for every game (``next_turn``,
``finish``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, NamedTuple, TypeVar

import numpy as np

from .actions import ActionLayout, DecodedAction

G = TypeVar("G")
S = TypeVar("S")
F = TypeVar("F", bound=Callable[..., None])
_HANDLES = "__handles__"


def handles(*kinds: str) -> Callable[[F], F]:
    """Mark a :class:`PhaseRule` method ``(game, state, action, events)`` as the handler of
    actions of these kinds (an ``ActionKind`` member: a plane, special or slot family)."""

    def mark(method: F) -> F:
        setattr(method, _HANDLES, kinds)
        return method

    return mark


class LegalMask:
    """A bool mask over the action layout, marked by name: planes, specials, slot families."""

    __slots__ = ("layout", "array")

    def __init__(self, layout: ActionLayout):
        self.layout = layout
        self.array = np.zeros(layout.size, dtype=bool)

    def cells(self, plane: str, cells: Iterable[int] | np.ndarray) -> None:
        offset = self.layout.plane_offset(plane)
        if isinstance(cells, np.ndarray):  # one scatter for a search's result
            self.array[offset + cells] = True
            return
        array = self.array
        for cell in cells:
            array[offset + cell] = True

    def special(self, name: str) -> None:
        self.array[self.layout.special(name)] = True

    def slot(self, family: str, index: int) -> None:
        self.array[self.layout.slot(family, index)] = True


class PhaseRule(Generic[G, S]):
    """One kind of decision. Subclasses write ``mask`` and either ``apply`` or handlers.

    A handler is a method ``(game, state, action, events)`` marked ``@handles(kind, ...)``;
    a phase that offers actions of several kinds (a Hero's START: fight a monster, roll,
    shop) has one per kind, and inherits its base classes' (a subclass's own handler of a
    kind replaces theirs).
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "handlers" in vars(cls):  # the table of names this replaced would silently do nothing
            raise TypeError(f"{cls.__name__}: mark handler methods with @handles(kind, ...)")

    def __init__(self) -> None:
        self._dispatch: dict[str, Callable[..., None]] = {}
        for cls in reversed(type(self).__mro__):  # bases first: a subclass's handler wins
            for name, member in vars(cls).items():
                for kind in getattr(member, _HANDLES, ()):
                    self._dispatch[str(kind)] = getattr(self, name)

    @property
    def handled_kinds(self) -> frozenset[str]:
        """The action kinds this phase has handlers for."""
        return frozenset(self._dispatch)

    def mask(self, game: G, state: S, legal: LegalMask) -> None:
        raise NotImplementedError

    def apply(self, game: G, state: S, action: DecodedAction, events: list) -> None:
        try:
            handler = self._dispatch[action.kind]
        except KeyError:
            raise RuntimeError(
                f"{type(self).__name__} has no handler for {action.name!r}; "
                "its mask and handlers disagree"
            ) from None
        handler(game, state, action, events)


class GameOverPhase(PhaseRule[Any, Any]):
    """The terminal phase: nothing is legal."""

    def mask(self, game: Any, state: Any, legal: LegalMask) -> None:
        return None


class PhaseTable(Generic[G, S]):
    """Every member of a phase enum -> its :class:`PhaseRule`; checked complete at load."""

    def __init__(self, phases: type[enum.Enum], rules: Mapping[enum.Enum, PhaseRule[G, S]]):
        missing = [p.name for p in phases if p not in rules]
        extra = [str(p) for p in rules if p not in set(phases)]
        if missing or extra:
            raise ValueError(
                f"phase table for {phases.__name__}: missing {missing}, unknown {extra}"
            )
        self.phases = phases
        self.rules: dict[enum.Enum, PhaseRule[G, S]] = dict(rules)

    def __getitem__(self, phase: enum.Enum) -> PhaseRule[G, S]:
        return self.rules[phase]


class NextTurn(NamedTuple):
    seat: int  # who plays next
    skipped: int  # seats passed over because they may not play
    new_round: bool  # play passed the first player: a round ended


def next_seat(
    seat: int,
    num_players: int,
    first_player: int = 0,
    may_play: Callable[[int], bool] | None = None,
) -> NextTurn:
    """The next seat clockwise from ``seat`` that ``may_play``; a round ends when play passes
    (or lands on) ``first_player``. Raises if nobody may play."""
    wrapped = False
    for step in range(1, num_players + 1):
        nxt = (seat + step) % num_players
        if nxt == first_player:
            wrapped = True
        if may_play is None or may_play(nxt):
            return NextTurn(nxt, step - 1, wrapped)
    raise RuntimeError("no seat may play; the game should have ended")
