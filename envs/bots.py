"""Bots (scripted players) for any :class:`~envs.core.game.Game`, and matches between them.

A bot is a player, not a test: it gets the game and the live state and returns one legal
action. It may read the state directly (every game here is fully observable) but must not
mutate it; it must not peek at the dice either (copying a state copies its dice, so a bot
that simulates a random action would see the real roll).

>>> from envs.bots import get_bot, play_match
>>> from envs.heroica.rules import HeroicaGame
>>> result = play_match(HeroicaGame, get_bot("heroica", "heuristic"), get_bot("heroica", "random"),
...                     games=20, seed=0)
>>> result.win_rate, result.ci_low, result.ci_high           # doctest: +SKIP

Registry: game packages register their bots in ``envs.registry.BOTS[game_name]`` as
``"module:Class"`` paths; ``game_name`` is the engine's ``Game.name`` (``"heroica"``), and env
names such as ``"heroica_v0"`` are accepted too (the ``_v<k>`` suffix is dropped). Bot modules
are imported when a bot is built, so this module stays game-agnostic and free of import
cycles. ``random`` plays every game. Pure Python + numpy.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .core.game import Game
from .registry import BOTS, load

Z_95 = 1.959963984540054  # two-sided 95% normal quantile


# ==========================================================================================
# Bots
# ==========================================================================================
@runtime_checkable
class Bot(Protocol):
    """A scripted player. ``act`` returns one action legal for ``game.current_player(state)``."""

    name: str

    def act(self, game: Game, state: Any, rng: np.random.Generator) -> int: ...


class RandomBot:
    """Uniform over the legal actions (the baseline every other bot must beat)."""

    name = "random"

    def act(self, game: Game, state: Any, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(game.legal_mask(state))
        if legal.size == 0:
            raise ValueError("RandomBot asked to act with no legal action (is the game over?)")
        return int(legal[rng.integers(legal.size)])


GENERIC_BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot}
"""Bots that play any game; each game package registers its own in ``envs.registry``."""


def _game_key(game_name: str) -> str:
    return re.sub(r"_v\d+$", "", game_name)


def bot_names(game_name: str) -> list[str]:
    return sorted(set(GENERIC_BOTS) | set(BOTS.get(_game_key(game_name), {})))


def _factories(game_name: str) -> dict[str, Callable[[], Bot]]:
    registered = {
        name: (lambda path=path: load(path)())
        for name, path in BOTS.get(_game_key(game_name), {}).items()
    }
    return {**GENERIC_BOTS, **registered}


def get_bot(game_name: str, bot_name: str, **options: Any) -> Bot:
    """A new bot ``bot_name`` for ``game_name`` (``"heroica"`` or ``"heroica_v0"``); ``options``
    go to its constructor (the lookahead bot's budget, say)."""
    factories = _factories(game_name)
    if bot_name not in factories:
        raise KeyError(
            f"unknown bot {bot_name!r} for game {game_name!r}; known: {bot_names(game_name)}"
        )
    if not options:
        return factories[bot_name]()
    path = BOTS.get(_game_key(game_name), {}).get(bot_name)
    if path is None:
        raise TypeError(f"bot {bot_name!r} takes no options, got {sorted(options)}")
    return load(path)(**options)


# ==========================================================================================
# Playing games and matches
# ==========================================================================================
def play_game(
    game: Game,
    bots_by_seat: Sequence[Bot],
    seed: int | None = None,
    validate: bool = True,
    max_decisions: int = 1_000_000,
) -> np.ndarray:
    """Play one game from ``game.new_state(seed)``; returns ``game.returns`` (one per seat).

    Each bot draws its own randomness from one Generator seeded from ``seed`` (separate from
    the dice). ``validate`` makes the engine check every action's legality (``Game.apply``);
    turn it off only for bots known to be correct.
    """
    if len(bots_by_seat) != game.num_players:
        raise ValueError(f"{game.num_players} seats but {len(bots_by_seat)} bots")
    state = game.new_state(seed)
    rng = np.random.default_rng(None if seed is None else [seed, 0xB075])
    apply = game.apply if validate else game.apply_legal
    for _ in range(max_decisions):
        seat = game.current_player(state)
        if seat < 0:
            return game.returns(state)
        apply(state, bots_by_seat[seat].act(game, state, rng))
    raise RuntimeError(f"game (seed {seed}) did not end within {max_decisions} decisions")


def per_decision(parts: Sequence[tuple[float, int]]) -> tuple[float, int]:
    """(mean ms per decision over all the decisions, their count) of (ms, decisions) parts:
    thinking time of several shares of a match, or of several runs, put together."""
    decisions = sum(count for _, count in parts)
    spent = sum(ms * count for ms, count in parts)
    return (round(spent / decisions, 3) if decisions else 0.0), decisions


@dataclass
class MatchResult:
    """Outcome of ``play_match`` from ``bot_a``'s point of view.

    A game is a *win* for bot_a when its seat's return is positive (shared wins included), a
    *loss* when negative and a *draw* when zero (e.g. the round cap). ``win_rate`` counts draws
    as non-wins: wins / games. ``ci_low`` .. ``ci_high`` is the 95% Wilson score interval of it.
    ``seat_games[s]`` / ``seat_wins[s]``: games and wins of bot_a playing seat ``s``.
    ``ms_per_decision_a`` / ``_b``: each bot's mean time in ``act`` per decision (its thinking
    budget, as spent; the engine's own time is in ``seconds`` only), over ``decisions_a`` /
    ``_b`` decisions.
    """

    bot_a: str
    bot_b: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    ci_low: float
    ci_high: float
    seconds: float
    games_per_second: float
    seat_games: list[int] = field(default_factory=list)
    seat_wins: list[int] = field(default_factory=list)
    ms_per_decision_a: float = 0.0
    ms_per_decision_b: float = 0.0
    decisions_a: int = 0
    decisions_b: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def merged(cls, parts: Sequence[MatchResult]) -> MatchResult:
        """One result of the parts of a match played side by side: games, wins and seats
        summed, the interval of the sums, thinking time per decision over all decisions;
        ``seconds`` is the longest part's (they ran at once)."""
        games, wins = sum(p.games for p in parts), sum(p.wins for p in parts)
        low, high = wilson_interval(wins, games)
        seconds = max(p.seconds for p in parts)

        ms_a, decisions_a = per_decision([(p.ms_per_decision_a, p.decisions_a) for p in parts])
        ms_b, decisions_b = per_decision([(p.ms_per_decision_b, p.decisions_b) for p in parts])
        return cls(
            bot_a=parts[0].bot_a,
            bot_b=parts[0].bot_b,
            games=games,
            wins=wins,
            draws=sum(p.draws for p in parts),
            losses=sum(p.losses for p in parts),
            win_rate=wins / games,
            ci_low=low,
            ci_high=high,
            seconds=seconds,
            games_per_second=games / seconds if seconds > 0 else float("inf"),
            seat_games=[sum(column) for column in zip(*(p.seat_games for p in parts))],
            seat_wins=[sum(column) for column in zip(*(p.seat_wins for p in parts))],
            ms_per_decision_a=ms_a,
            ms_per_decision_b=ms_b,
            decisions_a=decisions_a,
            decisions_b=decisions_b,
        )

    def summary(self) -> str:
        return (
            f"{self.bot_a} vs {self.bot_b}: {self.games} games, {self.wins} wins / "
            f"{self.draws} draws / {self.losses} losses; win rate {self.win_rate:.3f} "
            f"(95% CI {self.ci_low:.3f}-{self.ci_high:.3f}); {self.games_per_second:.1f} games/s; "
            f"ms per decision {self.ms_per_decision_a:.2f} / {self.ms_per_decision_b:.2f}"
        )


class LegalActions:
    """Named views of one decision's legal mask, for bots that reason in actions by name.

    Subclasses (a bot's per-decision context) set ``self.layout`` (the game's ``ActionLayout``)
    and ``self.mask`` (``game.legal_mask(state)``).
    """

    layout: Any
    mask: np.ndarray

    def can(self, special: str) -> bool:
        return bool(self.mask[self.layout.special(special)])

    def special(self, name: str) -> int:
        return self.layout.special(name)

    def cells(self, plane: str) -> list[int]:
        """Cells where the action plane ``plane`` is legal."""
        offset = self.layout.plane_offset(plane)
        return self.mask[offset : offset + self.layout.n_cells].nonzero()[0].tolist()

    def cell_action(self, plane: str, cell: int) -> int:
        return self.layout.plane_action(plane, cell)

    def first_legal(self) -> int:
        return int(self.mask.nonzero()[0][0])


def best_scored(options: list[tuple[float, int]]) -> int:
    """The action with the highest score; the first listed wins ties (bots' helper)."""
    best_score, best_action = options[0]
    for score, action in options[1:]:
        if score > best_score:
            best_score, best_action = score, action
    return best_action


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (default 95%).

    centre = (p + z^2/2n) / (1 + z^2/n),  half = z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n)
    with p = successes / n. Unlike p +- z sqrt(p(1-p)/n) it stays inside [0, 1] and is sane at
    p = 0 or 1 and small n. ``n = 0`` gives the uninformative (0, 1).
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in 0..{n}, got {successes}")
    p = successes / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no rounding
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


class _Timed:
    """A bot whose time in ``act`` is counted (a match's per-decision thinking time)."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)
        self.seconds = 0.0
        self.decisions = 0

    def act(self, game: Game, state: Any, rng: np.random.Generator) -> int:
        start = time.perf_counter()
        action = self.bot.act(game, state, rng)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action

    @property
    def ms_per_decision(self) -> float:
        return 1e3 * self.seconds / self.decisions if self.decisions else 0.0


def _make_game(game_or_factory: Game | Callable[[], Game]) -> Game:
    return game_or_factory if isinstance(game_or_factory, Game) else game_or_factory()


def play_match(
    game_or_factory: Game | Callable[[], Game],
    bot_a: Bot,
    bot_b: Bot,
    games: int,
    seed: int = 0,
    seats: Sequence[int] | None = None,
    validate: bool = True,
    indices: Sequence[int] | None = None,
) -> MatchResult:
    """Play ``games`` games of ``bot_a`` against ``bot_b`` with fair seating.

    Game ``i`` puts bot_a in seat ``seats[i % len(seats)]`` (default: every seat in turn, so
    with two players bot_a plays seat 0 in half the games and seat 1 in the other half) and
    bot_b in every other seat. Game ``i`` uses seed ``seed + i``; consecutive pairs of games
    share nothing else. ``seats`` restricts bot_a to some seats (e.g. only the Monster Player).
    With n > 2 seats, bot_b fills n - 1 seats, so an even bot_a wins about 1/n of the games.
    ``indices``: play only these games of the ``games`` (a share of a match played in several
    processes: :meth:`MatchResult.merged` puts the shares together).
    """
    game = _make_game(game_or_factory)
    n = game.num_players
    seat_cycle = list(range(n)) if seats is None else [int(s) for s in seats]
    if not seat_cycle or any(not 0 <= s < n for s in seat_cycle):
        raise ValueError(f"seats must be a non-empty list of seats in 0..{n - 1}, got {seats}")
    if games < 1:
        raise ValueError(f"games must be positive, got {games}")
    numbers = range(games) if indices is None else [int(i) for i in indices]
    if not numbers or any(not 0 <= i < games for i in numbers):
        raise ValueError(f"indices must be a non-empty list of games in 0..{games - 1}")
    wins = draws = losses = 0
    seat_games = [0] * n
    seat_wins = [0] * n
    timed_a, timed_b = _Timed(bot_a), _Timed(bot_b)
    start = time.perf_counter()
    for i in numbers:
        seat_a = seat_cycle[i % len(seat_cycle)]
        bots = [timed_a if s == seat_a else timed_b for s in range(n)]
        result = play_game(game, bots, seed + i, validate=validate)[seat_a]
        seat_games[seat_a] += 1
        if result > 0:
            wins += 1
            seat_wins[seat_a] += 1
        elif result < 0:
            losses += 1
        else:
            draws += 1
    seconds = time.perf_counter() - start
    played = len(numbers)
    low, high = wilson_interval(wins, played)
    return MatchResult(
        bot_a=timed_a.name,
        bot_b=timed_b.name,
        games=played,
        wins=wins,
        draws=draws,
        losses=losses,
        win_rate=wins / played,
        ci_low=low,
        ci_high=high,
        seconds=seconds,
        games_per_second=played / seconds if seconds > 0 else float("inf"),
        seat_games=seat_games,
        seat_wins=seat_wins,
        ms_per_decision_a=round(timed_a.ms_per_decision, 3),
        ms_per_decision_b=round(timed_b.ms_per_decision, 3),
        decisions_a=timed_a.decisions,
        decisions_b=timed_b.decisions,
    )
