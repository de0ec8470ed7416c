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
import enum
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from .actions import ActionLayout

# The error classes live in .errors (state.py raises them too); callers import them from here.
from .errors import GameError as GameError
from .errors import GameOverError as GameOverError
from .errors import IllegalActionError as IllegalActionError
from .errors import OptionError as OptionError
from .errors import StateError as StateError
from .events import Event
from .flow import LegalMask, NextTurn, PhaseTable, next_seat
from .state import MASK_CACHE, FlatState


class GameState(Protocol):
    def copy(self, dice: Any = None) -> GameState:
        """An independent copy; with ``dice``, one that rolls those (the searches re-seed)."""
        ...


S = TypeVar("S", bound=GameState)
S_contra = TypeVar("S_contra", contravariant=True)
FS = TypeVar("FS", bound=FlatState)


class Utility(enum.StrEnum):
    """How the players' returns relate (OpenSpiel's GameType.Utility)."""

    ZERO_SUM = "zero_sum"  # every game's returns sum to 0 (see zero_sum_returns)
    CONSTANT_SUM = "constant_sum"
    GENERAL_SUM = "general_sum"


class RewardModel(enum.StrEnum):
    TERMINAL = "terminal"  # rewards only when the game ends
    REWARDS = "rewards"  # rewards along the way


class Information(enum.StrEnum):
    PERFECT = "perfect"  # every player sees the whole state
    IMPERFECT = "imperfect"


class Dynamics(enum.StrEnum):
    SEQUENTIAL = "sequential"  # one decision per step, by current_player
    SIMULTANEOUS = "simultaneous"


class Chance(enum.StrEnum):
    INSIDE_APPLY = "dice rolled inside apply"  # no chance nodes to decide
    DETERMINISTIC = "deterministic"


@dataclass(frozen=True)
class GameInfo:
    """What a game is, in the manner of OpenSpiel's GameType / GameInfo; env metadata and the
    docs read it.

    ``max_game_length`` is an upper bound on the decisions (env steps) of one game under the
    configured options, derived from the rules' round cap and the data (``None`` where the data
    allow endless decisions within a turn); ``chance`` says how randomness
    enters (dice are rolled inside ``apply``: there are no chance nodes to decide).
    """

    name: str
    num_players: int
    min_players: int
    max_players: int
    max_game_length: int | None  # None: the rules bound rounds, not decisions
    utility: Utility = Utility.ZERO_SUM
    reward_model: RewardModel = RewardModel.TERMINAL
    information: Information = Information.PERFECT
    dynamics: Dynamics = Dynamics.SEQUENTIAL
    chance: Chance = Chance.INSIDE_APPLY

    def as_dict(self) -> dict[str, Any]:
        """Plain values (an enum's string), for env metadata and JSON."""
        return {k: v.value if isinstance(v, enum.Enum) else v for k, v in self.__dict__.items()}


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
        return self.apply_legal(state, self.check_action(state, action))

    def check_action(self, state: S, action: Any, agent: str | None = None) -> int:
        """``action`` as an int if it is legal in ``state``; otherwise the error that says what
        is wrong (not an int, outside the space, not legal now: then it names the action and
        every legal one), prefixed by ``agent`` when given. The state is left as it was."""
        if isinstance(action, np.integer):
            action = int(action)
        # The common case, asked every step: a legal int (a finished game's mask is empty).
        if (
            type(action) is int
            and 0 <= action < self.layout.size
            and self.legal_mask(state)[action]
        ):
            return action
        who = f"{agent}: " if agent else ""
        if self.is_terminal(state):
            raise GameOverError(
                f"{who}action {action!r}: the game is over; start a new one (reset)"
            )
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"{who}action must be an int in 0..{self.layout.size - 1}, got {action!r}"
            )
        action = int(action)
        if not 0 <= action < self.layout.size:
            raise IllegalActionError(
                f"{who}action {action} is outside the action space 0..{self.layout.size - 1}"
            )
        if not self.legal_mask(state)[action]:
            legal = [self.action_to_string(state, a) for a in self.legal_actions(state)]
            raise IllegalActionError(
                f"{who}action {action} ({self.action_to_string(state, action)}) "
                f"is not legal now; legal: {legal}"
            )
        return action

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
    def action_to_string(self, state: S, action: int) -> str:
        """A name for any action of the space in ``state``: what a legal action does, and for
        any other at least its place in the layout (never an error for an action in range)."""

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

    def scoreboard(self, state: S) -> Scoreboard | None:
        """What a viewer reads as the score now (recordings mark its changes, the replay
        draws it under the slider); None for a game without one."""
        return None


@dataclass(frozen=True)
class Scoreboard:
    """Per seat, the tally a viewer follows: ``label`` names it (``"VP"``, ``"figures"``)."""

    label: str
    values: tuple[float, ...]

    def text(self) -> str:
        """``VP: player_0 105 · player_1 80``, the seats named as the envs' agents are."""
        seats = " \u00b7 ".join(
            f"player_{seat} {value:g}" for seat, value in enumerate(self.values)
        )
        return f"{self.label}: {seats}"


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


class GameView(Protocol[S_contra]):
    """What a game's view offers the engine: observations, action names, text and scenes."""

    channel_names: tuple[str, ...]
    shape: tuple[int, int, int]

    def observe(self, state: S_contra, player: int) -> np.ndarray: ...

    def action_to_string(self, state: S_contra, action: int) -> str: ...

    def render_text(self, state: S_contra) -> str: ...

    def scene(self, state: S_contra, events: list[Event] | None = None) -> Any: ...


class StandardGame(Game[FS]):
    """The Game protocol for engines built the standard way, so each engine writes only
    its phases, its primitive state changes and its view:

    * the state is a :class:`~envs.core.state.FlatState` with ``phase``, ``seat`` (who
      decides), ``round``, ``turns`` and ``winners``; the game is over in ``GAME_OVER_PHASE``;
    * ``phases`` (a :class:`~envs.core.flow.PhaseTable`) holds one rule per phase: its
      mask and its apply; the mask is computed once per state change and cached on the state;
    * ``view`` (a :class:`GameView`) offers observations, action names, text and scenes;
    * ``info`` is the game's :class:`GameInfo`.
    """

    STATE: type[FS]
    GAME_OVER_PHASE: enum.Enum
    phases: PhaseTable
    view: GameView[FS]

    @property
    def info(self) -> GameInfo:
        raise NotImplementedError

    def current_player(self, state: FS) -> int:
        return -1 if state.phase is self.GAME_OVER_PHASE else state.seat

    def turn_number(self, state: FS) -> int:
        return state.turns

    def returns(self, state: FS) -> np.ndarray:
        if state.phase is not self.GAME_OVER_PHASE:
            return np.zeros(self.num_players)
        return zero_sum_returns(state.winners, self.num_players)

    def legal_mask(self, state: FS) -> np.ndarray:
        """The legal actions now (read-only; computed once per state change)."""
        cached = state.__dict__
        mask = cached.get(MASK_CACHE)
        if mask is None:
            legal = LegalMask(self.layout)
            self.phases.rules[state.phase].mask(self, state, legal)
            mask = legal.array
            mask.setflags(write=False)
            cached[MASK_CACHE] = mask
        return mask

    def apply_legal(self, state: FS, action: int) -> list[Event]:
        """Apply a legal action through the current phase's rule.

        The old position's mask is forgotten first. A phase may read the mask of the position
        it has made (``legal_mask``) to resolve a decision with nothing to choose (a single
        option, or none); that mask then stays cached for the next decision, so the question
        is asked once. A phase that changes the state after reading it calls
        ``state.forget_mask()`` (the conformance suite checks every cached mask against a
        fresh one).
        """
        events: list[Event] = []
        state.__dict__.pop(MASK_CACHE, None)
        self.phases.rules[state.phase].apply(self, state, self.layout.decode(action), events)
        return events

    # -- turn rotation and the end of the game, the same for every game ------------------
    def next_turn(
        self,
        state: FS,
        from_seat: int,
        first_player: int = 0,
        may_play: Callable[[int], bool] | None = None,
        count_skipped: bool = False,
    ) -> NextTurn:
        """Count the finished turn and find the next seat clockwise that ``may_play``.

        ``state.turns`` grows by one (plus the seats skipped, when a skipped seat's turn
        counts as played); ``state.round`` grows when play passes ``first_player``. The game
        then checks its own end-of-round rules and starts the next seat's turn.
        """
        nxt = next_seat(from_seat, self.num_players, first_player, may_play)
        state.turns += 1 + (nxt.skipped if count_skipped else 0)
        if nxt.new_round:
            state.round += 1
        return nxt

    def finish(self, state: FS, winners: list[int]) -> None:
        """End the game: ``winners`` share the win (none: a draw)."""
        state.winners = sorted(winners)
        state.phase = self.GAME_OVER_PHASE
        state.seat = -1

    def observe(self, state: FS, player: int) -> np.ndarray:
        return self.view.observe(state, player)

    def action_to_string(self, state: FS, action: int) -> str:
        # The view names what an action does here; one not legal now may have no meaning here
        # (a slot of a power not being played), so it is named by its place in the layout.
        if self.legal_mask(state)[action]:
            return self.view.action_to_string(state, action)
        return self.layout.describe(action)

    def to_dict(self, state: FS) -> dict[str, Any]:
        return state.to_dict()

    def to_json(self, state: FS) -> str:
        return json.dumps(state.to_dict(copy=False), sort_keys=True)

    def from_json(self, text: str) -> FS:
        return self.STATE.from_dict(json.loads(text), game=self, owned=True)

    def from_dict(self, data: dict[str, Any]) -> FS:
        # The game is passed so the state can check what only the game knows (board size,
        # figures, the data's maxima): see FlatState.from_dict.
        return self.STATE.from_dict(data, game=self)

    def render_text(self, state: FS) -> str:
        return self.view.render_text(state)

    def scene(self, state: FS, events: list[Event] | None = None) -> Any:
        return self.view.scene(state, events)
