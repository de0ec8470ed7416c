"""``lookahead``: a scripted bot for any game that checks the heuristic's best few actions by
playing them out, and overrides it only where the playouts say clearly that it is wrong.

Per decision (one legal action: played at once, nothing simulated):

1. the heuristic picks its action, and ``scored`` lists what it weighed, best first (or the
   game's ``rank`` hook, which may keep fewer); the candidates are its choice plus the next
   ``candidates - 1`` of that list (legal, distinct): none besides it, no search;
2. each candidate is played ``playouts`` times: a copy of the state whose dice are re-seeded,
   the candidate, then the heuristic for every seat until the game ends or ``horizon`` player
   turns have been completed, scored ``game.returns`` (a finished game) or the game's
   ``value`` of the position for the deciding seat, in [-1, 1];
3. *common random numbers*: playout ``k`` uses the same fresh dice seed for every candidate,
   so the comparison between candidates sees the same luck and only their difference;
4. after half the playouts, a candidate not ahead of the heuristic's choice is dropped (it
   would need twice the margin in the other half), and the search ends when none is left;
5. the best candidate replaces the heuristic's choice only when its mean beats the choice's by
   more than ``margin`` and by ``z`` standard errors of the paired differences; otherwise
   the heuristic's action is played, so a lucky run of playouts seldom overrides it.

The seeds come from the ``rng`` the bot is given (the bot's own randomness, not the dice): a
copy of a state copies its dice, and the real dice are never rolled or read, so the choice
does not depend on the rolls to come.

A game plugs in with a :class:`Hooks` (its heuristic, a value of a position, its default
budget) in ``envs/<game>/bots/lookahead.py``, a subclass of :class:`LookaheadBot` that sets it,
and one line in its ``register_bots``. The heuristic offers ``scored(game, state)``: the
(score, action) pairs it weighs now, best first (:class:`Weighing` records them). Pure
Python + numpy.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

import numpy as np

from .bots import best_scored, bot_names, get_bot
from .core.dice import Dice, stream_start
from .core.errors import OptionError
from .core.game import Game
from .core.options import integer

SEED_BOUND = 2**63  # dice seeds are drawn in 0..SEED_BOUND - 1
MAX_PLAYOUT_DECISIONS = 1_000_000  # a heuristic game that runs longer is a bug in the game


# The game a heuristic plays: each game's heuristic takes only that game's class.
G = TypeVar("G", bound=Game)
G_contra = TypeVar("G_contra", bound=Game, contravariant=True)


class ScoringBot(Protocol[G_contra]):
    """A heuristic that can say what it weighs: ``scored`` is (score, action), best first."""

    name: str

    def act(self, game: G_contra, state: Any, rng: np.random.Generator) -> int: ...

    def scored(self, game: G_contra, state: Any) -> list[tuple[float, int]]: ...


# ==========================================================================================
# What a heuristic's decision context mixes in, so its scored options can be listed
# ==========================================================================================
def ranked(groups: list[list[tuple[float, int]]]) -> list[tuple[float, int]]:
    """The options of several scored lists, best first, by rank within their lists.

    Nested choices score in different units (a move's steps, then the skills it weighs
    against them), so the lists interleave by rank (every list's best, then every second
    best ...) rather than by score; ties keep the listed order, as ``best_scored`` does, and
    an action listed twice keeps its better place.
    """
    orders = [sorted(options, key=lambda o: -o[0]) for options in groups]  # stable
    seen: set[int] = set()
    found: list[tuple[float, int]] = []
    for rank in range(max((len(o) for o in orders), default=0)):
        for options in orders:
            if rank < len(options) and int(options[rank][1]) not in seen:
                seen.add(int(options[rank][1]))
                found.append((float(options[rank][0]), int(options[rank][1])))
    return found


class Weighing:
    """Mixin for a heuristic's per-decision context: ``pick`` is ``best_scored`` that also
    keeps the options when its ``scored`` method asks for them (``weighed`` a list); in
    ordinary play ``weighed`` is None and ``pick`` costs nothing more."""

    weighed: list[list[tuple[float, int]]] | None = None

    def pick(self, options: list[tuple[float, int]]) -> int:
        if self.weighed is not None:
            self.weighed.append(options)
        return best_scored(options)

    def note(self, options: list[tuple[float, int]]) -> None:
        """Keep options a handler chose among without ``best_scored`` (an argmax)."""
        if self.weighed is not None:
            self.weighed.append(options)


# ==========================================================================================
# Budget and hooks
# ==========================================================================================
def _fraction(option: str, value: Any, least: float = 0.0) -> float:
    if (
        not isinstance(value, (int, float))
        or isinstance(value, bool)
        or not math.isfinite(value)
        or value < least
    ):
        raise OptionError(option, f"must be a finite number >= {least:g}, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class Budget:
    """What one decision may spend; each option is checked on construction (a bad value
    raises :class:`~envs.core.errors.OptionError` naming it).

    ``playouts``: playouts per candidate; ``candidates``: candidates at most, the heuristic's
    choice included (1 plays the heuristic); ``horizon``: player turns completed after which
    a playout stops and is scored by the game's value (None: play to the end); ``margin``:
    the least gain in mean return over the heuristic's choice that overrides it; ``z``: the
    gain must also be this many standard errors of the paired differences; ``ms``: a
    wall-clock cap per decision in milliseconds (None: none), checked after each round of
    playouts (one per candidate, same seed), so at least one round is played.
    """

    playouts: int = 8
    candidates: int = 3
    horizon: int | None = None
    margin: float = 0.1
    z: float = 1.0
    ms: float | None = None

    def __post_init__(self) -> None:
        integer("playouts", self.playouts)
        integer("candidates", self.candidates)
        integer("horizon", self.horizon, none_means="play to the end")
        _fraction("margin", self.margin)
        _fraction("z", self.z)
        if self.ms is not None and _fraction("ms", self.ms) <= 0:
            raise OptionError("ms", f"must be a positive number or None, got {self.ms!r}")

    @classmethod
    def of(cls, defaults: dict[str, Any], options: dict[str, Any]) -> Budget:
        known = [f.name for f in fields(cls)]
        for name in options:
            if name not in known:
                raise OptionError(name, f"is not a lookahead option; options: {', '.join(known)}")
        return cls(**{**defaults, **options})


@dataclass(frozen=True)
class Hooks(Generic[G]):
    """What a game gives the lookahead: its heuristic (a factory), the value of an unfinished
    position for a seat (``value(heuristic, game, state, seat)`` in [-1, 1]: -1 lost, +1
    won), the budget options it defaults to (affordable for that game) and optionally
    ``rank(heuristic, game, state)``, the scored alternatives worth playing out (default:
    all that ``heuristic.scored`` lists; a game may keep those its value can judge)."""

    heuristic: Callable[[], ScoringBot[G]]
    value: Callable[[Any, G, Any, int], float]
    defaults: dict[str, Any] = field(default_factory=dict)
    rank: Callable[[Any, G, Any], list[tuple[float, int]]] | None = None


@dataclass
class Search:
    """One searched decision: ``values[c, k]`` is playout ``k`` of ``candidates[c]`` (seed
    ``seeds[k]``; NaN once the candidate was dropped); ``candidates[0]`` is the heuristic's
    choice."""

    candidates: list[int]
    seeds: list[int]
    values: np.ndarray
    choice: int

    @property
    def means(self) -> np.ndarray:
        return np.nanmean(self.values, axis=1)


# ==========================================================================================
# The bot
# ==========================================================================================
class LookaheadBot:
    """Playouts over the heuristic's candidates (module docstring). Subclasses set ``hooks``;
    ``LookaheadBot(playouts=16, horizon=4)`` overrides that game's default budget.

    ``last`` is the latest searched decision (None until one); ``stats`` counts decisions,
    searches, overrides and playouts.
    """

    name = "lookahead"
    hooks: ClassVar[Hooks]

    def __init__(self, **options: Any):
        self.budget = Budget.of(self.hooks.defaults, options)
        self.heuristic = self.hooks.heuristic()
        self.last: Search | None = None
        self.stats = {"decisions": 0, "searches": 0, "overrides": 0, "playouts": 0}
        # A playout's dice and the heuristic's randomness in it are restarted, not made, per
        # playout: every candidate replays the same seeds (stream_start keeps each seed's).
        self._playout_dice = Dice(0)
        self._playout_rng = np.random.default_rng(0)
        self._starts: dict[int, Mapping[str, Any]] = {}

    def act(self, game: Game, state: Any, rng: np.random.Generator) -> int:
        mask = game.legal_mask(state)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("LookaheadBot asked to act with no legal action (is the game over?)")
        self.stats["decisions"] += 1
        if legal.size == 1:
            return int(legal[0])
        choice = int(self.heuristic.act(game, state, rng))
        candidates = self.candidates(game, state, mask, choice)
        if len(candidates) == 1:
            return choice
        search = self.search(game, state, candidates, rng)
        self.last = search
        self.stats["searches"] += 1
        self.stats["overrides"] += search.choice != choice
        return search.choice

    def candidates(self, game: Game, state: Any, mask: np.ndarray, choice: int) -> list[int]:
        """The heuristic's choice, then its next best legal actions, ``candidates`` at most."""
        found = [choice]
        if self.budget.candidates == 1:
            return found
        rank = self.hooks.rank
        scored = (
            self.heuristic.scored(game, state)
            if rank is None
            else rank(self.heuristic, game, state)
        )
        for _, action in scored:
            if len(found) >= self.budget.candidates:
                break
            if mask[action] and action not in found:
                found.append(int(action))
        return found

    def search(
        self, game: Game, state: Any, candidates: list[int], rng: np.random.Generator
    ) -> Search:
        """Play every candidate ``playouts`` times, round by round on shared seeds."""
        budget = self.budget
        seat = game.current_player(state)
        seeds = [int(s) for s in rng.integers(SEED_BOUND, size=budget.playouts, dtype=np.uint64)]
        self._starts = {}
        values = np.full((len(candidates), budget.playouts), np.nan)
        live = list(range(len(candidates)))
        start = time.perf_counter()
        rounds = 0
        for k, seed in enumerate(seeds):
            for c in live:
                values[c, k] = self.playout(game, state, candidates[c], seat, seed)
            self.stats["playouts"] += len(live)
            rounds = k + 1
            if rounds == (budget.playouts + 1) // 2:
                # Not ahead after half its playouts, a candidate would need twice the margin
                # in the other half: its playouts are better spent on the others.
                gains = values[:, :rounds] - values[0, :rounds]
                live = [0] + [c for c in live[1:] if gains[c].mean() > 0]
            if len(live) == 1 or (
                budget.ms is not None and (time.perf_counter() - start) * 1e3 >= budget.ms
            ):
                break
        values = values[:, :rounds]
        return Search(candidates, seeds[:rounds], values, candidates[self.pick(values)])

    def pick(self, values: np.ndarray) -> int:
        """Row of the candidate to play: the best, if it beats row 0 (the heuristic's choice)
        by more than ``margin`` and ``z`` standard errors of the paired gains, else 0. Rows
        dropped before the end (NaN) are not in the running."""
        done = ~np.isnan(values).any(axis=1)
        done[0] = False
        if not done.any():
            return 0
        rows = np.flatnonzero(done)
        gains = values[rows] - values[0]
        mean = gains.mean(axis=1)
        best = int(np.argmax(mean))
        n = gains.shape[1]
        error = gains[best].std(ddof=1) / math.sqrt(n) if n > 1 else math.inf
        needed = self.budget.z * error if self.budget.z > 0 else 0.0
        clear = mean[best] > self.budget.margin and mean[best] > needed
        return int(rows[best]) if clear else 0

    def playout(self, game: Game, state: Any, action: int, seat: int, seed: int) -> float:
        """``action`` on a copy with fresh dice, then the heuristic everywhere; its value for
        ``seat`` at the end or at the horizon."""
        start = self._starts.get(seed)
        if start is None:
            start = self._starts[seed] = stream_start(seed)
        dice, rng = self._playout_dice, self._playout_rng
        dice.restart(start)  # as Dice(seed)
        rng.bit_generator.state = start  # the heuristic's own randomness: default_rng(seed)
        sim = state.copy(dice=dice)
        horizon = self.budget.horizon
        stop = math.inf if horizon is None else game.turn_number(sim) + horizon
        # bound once: a playout is a few dozen decisions, each a handful of calls
        act, apply, player, turn = (
            self.heuristic.act,
            game.apply_legal,
            game.current_player,
            game.turn_number,
        )
        apply(sim, action)
        for _ in range(MAX_PLAYOUT_DECISIONS):
            if player(sim) < 0:
                return float(game.returns(sim)[seat])
            if horizon is not None and turn(sim) >= stop:
                return self.value(game, sim, seat)
            apply(sim, act(game, sim, rng))
        raise RuntimeError(f"a heuristic playout ran past {MAX_PLAYOUT_DECISIONS} decisions")

    def value(self, game: Game, state: Any, seat: int) -> float:
        """The game's value of an unfinished position for ``seat``, in [-1, 1] (-1 lost, +1
        won): what a playout cut at the horizon scores, and what reward shaping in training
        uses as its potential (``training.selfplay``)."""
        return float(np.clip(self.hooks.value(self.heuristic, game, state, seat), -1.0, 1.0))


def lookahead_bot(game_name: str, **options: Any) -> LookaheadBot:
    """``game_name``'s lookahead bot with budget ``options`` (its defaults for the rest); a
    game without one is an error that names it."""
    if "lookahead" not in bot_names(game_name):
        raise ValueError(f"{game_name} has no lookahead bot")
    # Bots are registered by import path, so get_bot can only promise a Bot; every game's
    # "lookahead" entry is a LookaheadBot subclass.
    return cast(LookaheadBot, get_bot(game_name, "lookahead", **options))


def position_value(game_name: str) -> Callable[[Game, Any, int], float]:
    """``value(game, state, seat)`` of ``game_name``'s lookahead bot (:meth:`LookaheadBot.value`),
    the potential that reward shaping in training uses; a game without a lookahead bot is an
    error that names it."""
    return lookahead_bot(game_name).value


__all__ = [
    "Budget",
    "Hooks",
    "LookaheadBot",
    "ScoringBot",
    "Search",
    "Weighing",
    "lookahead_bot",
    "position_value",
    "ranked",
]
