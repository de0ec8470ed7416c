"""The Game protocol: what every rules engine offers, independent of PettingZoo.

A ``Game`` holds everything static (scenario, board tables, action layout, observation
shape); a state holds everything that changes and must be cheap to ``copy()``. Engines
mutate the state they are given in ``apply``; callers that need the old state copy first.

One decision per step: ``apply`` takes one flat action (see ``core.actions``) chosen by
``current_player(state)``; the engine rolls dice inside ``apply`` and returns the events it
produced (for transcripts, captions and video).
"""

from __future__ import annotations

import abc
import json
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from .actions import ActionLayout


class GameError(ValueError):
    """Base class for errors a user can cause through the public API."""


class IllegalActionError(GameError):
    """The action is in range but not legal in this state."""


class GameOverError(GameError):
    """An action was applied to a finished game."""


@dataclass
class Event:
    """Something that happened inside ``apply``: a roll, a move, a fight, a win.

    ``text`` is human-readable; ``kind`` is a short tag; ``cells`` lets the renderer draw the
    last action as an arrow (from, to); ``dice`` lists rolled symbols.
    """

    kind: str
    text: str
    player: int = -1
    cells: tuple[int, ...] = ()
    dice: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "player": self.player,
                "cells": list(self.cells), "dice": list(self.dice)}


class GameState(Protocol):
    def copy(self) -> "GameState": ...


S = TypeVar("S", bound=GameState)


class Game(abc.ABC, Generic[S]):
    """Rules engine interface. Subclasses set ``name``, ``num_players``, ``layout``,
    ``observation_shape`` and ``player_names`` in ``__init__``."""

    name: str
    num_players: int
    layout: ActionLayout
    observation_shape: tuple[int, int, int]
    player_names: tuple[str, ...]

    # -- lifecycle ------------------------------------------------------------------------
    @abc.abstractmethod
    def new_state(self, seed: int | None = None) -> S:
        """The starting position with dice seeded from ``seed``."""

    @abc.abstractmethod
    def current_player(self, state: S) -> int:
        """Seat to decide now, or -1 when the game is over."""

    def is_terminal(self, state: S) -> bool:
        return self.current_player(state) < 0

    @abc.abstractmethod
    def legal_mask(self, state: S) -> np.ndarray:
        """bool[layout.size]: exactly the legal actions for ``current_player``."""

    def apply(self, state: S, action: int) -> list[Event]:
        """Apply one decision (mutating ``state``); raise IllegalActionError / GameOverError."""
        if self.is_terminal(state):
            raise GameOverError("the game is over; start a new one (reset)")
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action must be an int, got {action!r}")
        if not 0 <= int(action) < self.layout.size:
            raise IllegalActionError(
                f"action {action} is outside the action space 0..{self.layout.size - 1}")
        if not self.legal_mask(state)[action]:
            raise IllegalActionError(
                f"action {action} ({self.action_to_string(state, int(action))}) is not legal now; "
                f"legal: {[self.action_to_string(state, a) for a in self.legal_actions(state)]}")
        return self.apply_legal(state, int(action))

    @abc.abstractmethod
    def apply_legal(self, state: S, action: int) -> list[Event]:
        """``apply`` for an action already known to be legal (callers that cached the mask)."""

    @abc.abstractmethod
    def observe(self, state: S, player: int) -> np.ndarray:
        """float32[observation_shape] from ``player``'s viewpoint."""

    @abc.abstractmethod
    def returns(self, state: S) -> np.ndarray:
        """float64[num_players]: final rewards (zeros while the game runs)."""

    @abc.abstractmethod
    def turn_number(self, state: S) -> int:
        """Completed player turns so far (the env truncates on it)."""

    # -- notation -------------------------------------------------------------------------
    @abc.abstractmethod
    def action_to_string(self, state: S, action: int) -> str: ...

    def string_to_action(self, state: S, text: str) -> int:
        """Inverse of ``action_to_string`` over the legal actions of ``state``."""
        if self.is_terminal(state):
            raise GameOverError(f"{text!r}: the game is over; start a new one (reset)")
        wanted = text.strip()
        legal = np.flatnonzero(self.legal_mask(state))
        for action in legal:
            if self.action_to_string(state, int(action)) == wanted:
                return int(action)
        names = [self.action_to_string(state, int(a)) for a in legal]
        raise IllegalActionError(f"{wanted!r} is not a legal action here; legal: {names}")

    def legal_actions(self, state: S) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask(state))]

    def apply_string(self, state: S, text: str) -> list[Event]:
        return self.apply(state, self.string_to_action(state, text))

    # -- serialisation --------------------------------------------------------------------
    @abc.abstractmethod
    def to_dict(self, state: S) -> dict[str, Any]:
        """A JSON-compatible dict from which ``from_dict`` rebuilds an identical state."""

    @abc.abstractmethod
    def from_dict(self, data: dict[str, Any]) -> S: ...

    def to_json(self, state: S) -> str:
        return json.dumps(self.to_dict(state), sort_keys=True)

    def from_json(self, text: str) -> S:
        return self.from_dict(json.loads(text))

    # -- presentation ---------------------------------------------------------------------
    @abc.abstractmethod
    def render_text(self, state: S) -> str: ...

    @abc.abstractmethod
    def scene(self, state: S, events: list[Event] | None = None) -> Any:
        """A ``core.render.Scene`` of the state for the shared renderer."""


def zero_sum_returns(winners: list[int], num_players: int) -> np.ndarray:
    """Terminal rewards: winners share +1, the others share -1; all or none winning is 0.

    Two players: win +1, loss -1, draw 0. With k of n winning, each winner gets 1/k and each
    loser -1/(n-k), so the rewards always sum to zero.
    """
    result = np.zeros(num_players, dtype=np.float64)
    k = len(set(winners))
    if 0 < k < num_players:
        for seat in range(num_players):
            result[seat] = 1.0 / k if seat in winners else -1.0 / (num_players - k)
    return result


class OptionError(GameError):
    """A bad option passed to ``make`` or a game constructor; names the option."""

    def __init__(self, option: str, problem: str):
        super().__init__(f"option '{option}': {problem}")
        self.option = option


class StandardGame(Game[S]):
    """The Game protocol for engines built the standard way, so each engine writes only
    its rules and its view:

    * the state is a :class:`~envs.core.state.FlatState` with ``phase``, ``seat``,
      ``turns`` and ``winners``; the game is over in phase ``GAME_OVER_PHASE``;
    * ``RULES`` is a module with ``legal_mask(game, state)`` and
      ``apply_action(game, state, decoded_action, events)``;
    * ``self.view`` (set in ``__init__``) offers ``observe``, ``action_to_string``,
      ``render_text`` and ``scene``.
    """

    STATE: type
    RULES: Any
    GAME_OVER_PHASE: Any
    view: Any

    def current_player(self, state: S) -> int:
        return -1 if state.phase is self.GAME_OVER_PHASE else state.seat  # type: ignore[attr-defined]

    def turn_number(self, state: S) -> int:
        return state.turns  # type: ignore[attr-defined]

    def returns(self, state: S) -> np.ndarray:
        if state.phase is not self.GAME_OVER_PHASE:  # type: ignore[attr-defined]
            return np.zeros(self.num_players)
        return zero_sum_returns(state.winners, self.num_players)  # type: ignore[attr-defined]

    def legal_mask(self, state: S) -> np.ndarray:
        return self.RULES.legal_mask(self, state)

    def apply_legal(self, state: S, action: int) -> list[Event]:
        events: list[Event] = []
        self.RULES.apply_action(self, state, self.layout.decode(action), events)
        return events

    def observe(self, state: S, player: int) -> np.ndarray:
        return self.view.observe(state, player)

    def action_to_string(self, state: S, action: int) -> str:
        return self.view.action_to_string(state, action)

    def to_dict(self, state: S) -> dict[str, Any]:
        return state.to_dict()  # type: ignore[attr-defined]

    def from_dict(self, data: dict[str, Any]) -> S:
        return self.STATE.from_dict(data)

    def render_text(self, state: S) -> str:
        return self.view.render_text(state)

    def scene(self, state: S, events: list[Event] | None = None) -> Any:
        return self.view.scene(state, events)
