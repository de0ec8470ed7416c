"""The results of a tournament (``training.evaluate``): every game it played
(:class:`GameRecord`) and what they add up to (:class:`Tournament`): head-to-head counts and
win rates with 95% Wilson intervals, per-agent and per-seat results, openskill ratings, and
the files and the printed tables that show them.

Nothing here plays: ``training.evaluate`` fills a ``Tournament`` game by game, and
``Tournament.from_json`` reads one back from its ``tournament.json`` (e.g. to re-plot it in a
notebook), so the statistics and their files are a module of their own, apart from the
players, the schedule and the command line.

Results. A *win* is a positive return (a shared win is a win for each winner), a draw a zero
return (e.g. the round cap), a loss a negative one; win rates are wins / games, draws being
non-wins, with 95% Wilson score intervals. Between two agents, the head-to-head result of a
game is, with two seats, the agent's win, draw or loss; with more seats, whether it finished
ahead of, level with or behind the other (by return) in a game both played. With more seats
than agents an agent fills several seats of a game: each seat counts as one of its games,
and head to head each pair of seats counts once (an agent never plays itself).

Files (``Tournament.write``; ``python -m training.evaluate`` writes them in ``--out``):

* ``tournament.json`` - settings, every game (seats, seed, returns, ranks, winner), the
  tables, the pairwise table, the head-to-head matrix with its intervals (null on the
  diagonal), per-agent and per-seat results and the ratings;
* ``win_rates.csv`` - one row per ordered pair: agent, opponent, games, wins, draws, losses,
  win_rate, ci_low, ci_high. ``win_rate`` = wins / games of ``agent`` against ``opponent``
  head to head (with more than two seats: the share of shared games it finished ahead),
  ``ci_low``..``ci_high`` its 95% Wilson score interval;
* ``ratings.csv`` - agent, mu, sigma, ordinal, rank;
* ``agents.csv`` (more than two seats only) - one row per agent: games, wins, draws, losses,
  win_rate, ci_low, ci_high, mean_rank and per seat ``seat{s}_games``, ``seat{s}_wins``,
  ``seat{s}_win_rate``. An agent no better than the others wins about 1/n of its games.

Ratings are openskill Plackett-Luce ratings (a Bayesian Elo/TrueSkill-like model): every agent
starts at mu = 25, sigma = 25/3, and each game updates all its players together, in one
rating of all ``n`` seats ranked by their finishing places (by return; equal returns tie). ``mu`` is the
estimated skill, ``sigma`` its uncertainty, and ``ordinal`` = mu - 3 sigma a conservative
skill that the leaderboard sorts by. An agent in several seats of one game is rated as one
player per seat and takes the mean of their updated mu and sigma, so finishing ahead of
itself gains it nothing. Ratings are only comparable within one tournament; the win rates are
the primary result, the ratings summarise them.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from envs.bots import wilson_interval

from .tournament_schedule import finishing_ranks, tables

PAIR_FIELDS = [
    "agent",
    "opponent",
    "games",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "ci_low",
    "ci_high",
]
RATING_FIELDS = ["agent", "mu", "sigma", "ordinal", "rank"]
AGENT_FIELDS = [
    "agent",
    "games",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "ci_low",
    "ci_high",
    "mean_rank",
]
OUTCOMES = ("wins", "draws", "losses")


def _sign_outcome(value: float) -> str:
    """Same rule as envs.bots.MatchResult: the sign decides (positive = win, zero = draw)."""
    return "wins" if value > 0 else "losses" if value < 0 else "draws"


def _two_seat_outcome(returns: list[float], seat: int, other: int) -> str:
    # The sign of the agent's own return, as this module always counted two-player games: the
    # same as the comparison below in a zero-sum game, except that a shared win is a win for both.
    return _sign_outcome(returns[seat])


def _order_outcome(returns: list[float], seat: int, other: int) -> str:
    # With more seats both may lose (or the game go to a third player): the head-to-head
    # question is only who finished ahead of whom.
    return _sign_outcome(returns[seat] - returns[other])


def _empty_counts(num_seats: int) -> dict[str, Any]:
    return {
        "games": 0,
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "seat_games": [0] * num_seats,
        "seat_wins": [0] * num_seats,
    }


def _add(row: dict[str, Any], seat: int, outcome: str) -> None:
    row["games"] += 1
    row[outcome] += 1
    row["seat_games"][seat] += 1
    row["seat_wins"][seat] += outcome == "wins"


def _rate(wins: int, games: int) -> tuple[float, float, float]:
    """wins / games (NaN for no games) and its 95% Wilson interval."""
    return (wins / games if games else math.nan, *wilson_interval(wins, games))


@dataclass
class GameRecord:
    """One game: the agent in each seat, its seed and ``game.returns`` (one per seat)."""

    seats: list[str]
    seed: int
    returns: list[float]

    @property
    def winner(self) -> str | None:
        """The agent with the highest positive return; None for a draw (no positive return)."""
        best = max(range(len(self.returns)), key=lambda s: self.returns[s])
        return self.seats[best] if self.returns[best] > 0 else None

    @property
    def ranks(self) -> list[int]:
        """Finishing place of each seat, 1 = best; equal returns share a place."""
        return finishing_ranks(self.returns)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ranks": self.ranks, "winner": self.winner}


@dataclass
class Tournament:
    """Every game of a round robin, and the tables and ratings computed from them.

    ``games_per_pair`` is the number of games per table (per pair with two seats).
    """

    names: list[str]
    games: list[GameRecord] = field(default_factory=list)
    env: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    games_per_pair: int = 0
    num_seats: int = 2

    # -- counts and win rates -------------------------------------------------------------
    def _tally(self) -> dict[tuple[str, str], dict[str, Any]]:
        """``{(agent, opponent): head-to-head counts}`` from ``agent``'s side, in one pass."""
        outcome_of = _two_seat_outcome if self.num_seats == 2 else _order_outcome
        tally: dict[tuple[str, str], dict[str, Any]] = defaultdict(
            lambda: _empty_counts(self.num_seats)
        )
        for record in self.games:
            for (seat, agent), (other, opponent) in itertools.permutations(
                enumerate(record.seats), 2
            ):
                if (
                    opponent != agent
                ):  # two seats of one agent (fewer agents than seats) say nothing
                    _add(tally[agent, opponent], seat, outcome_of(record.returns, seat, other))
        return tally

    def counts(self, agent: str, opponent: str) -> dict[str, Any]:
        """Games, wins, draws, losses and per-seat games/wins of ``agent`` against ``opponent``.

        Head to head: with more than two seats ``wins`` are the shared games ``agent`` finished
        ahead of ``opponent``, ``draws`` level with it, ``losses`` behind it.
        """
        for name in (agent, opponent):
            if name not in self.names:
                raise KeyError(f"no agent {name!r} in this tournament; agents: {self.names}")
        return self._tally().get((agent, opponent), _empty_counts(self.num_seats))

    def _matrices(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = len(self.names)
        rate, low, high = (np.full((n, n), np.nan) for _ in range(3))
        tally = self._tally()
        for (i, a), (j, b) in itertools.permutations(enumerate(self.names), 2):
            row = tally.get((a, b))
            if row and row["games"]:
                rate[i, j], low[i, j], high[i, j] = _rate(row["wins"], row["games"])
        return rate, low, high

    def win_rate_matrix(self) -> np.ndarray:
        """``[i, j]`` = head-to-head wins / games of ``names[i]`` against ``names[j]``; NaN on the diagonal.

        With more than two seats: the share of the games both played where ``names[i]``
        finished ahead of ``names[j]``.
        """
        return self._matrices()[0]

    def ci_matrices(self) -> tuple[np.ndarray, np.ndarray]:
        """95% Wilson interval (low, high) of every entry of ``win_rate_matrix``."""
        _, low, high = self._matrices()
        return low, high

    def pair_rows(self) -> list[dict[str, Any]]:
        """One row per ordered pair (the ``win_rates.csv`` rows)."""
        tally, rows = self._tally(), []
        for a, b in itertools.permutations(self.names, 2):
            row = tally.get((a, b), _empty_counts(self.num_seats))
            rate, low, high = _rate(row["wins"], row["games"])
            rows.append(
                {
                    "agent": a,
                    "opponent": b,
                    **{k: row[k] for k in ("games", *OUTCOMES)},
                    "win_rate": rate,
                    "ci_low": low,
                    "ci_high": high,
                }
            )
        return rows

    def agent_rows(self) -> list[dict[str, Any]]:
        """Per agent over all its games (the ``agents.csv`` rows): wins are positive returns.

        ``games`` counts seats filled (an agent in two seats of a game plays two), ``mean_rank``
        is its mean finishing place (1 = first), ``seat_games[s]`` / ``seat_wins[s]`` its games
        and wins in seat ``s`` and ``seat_win_rate[s]`` their ratio.
        """
        counts = {name: _empty_counts(self.num_seats) for name in self.names}
        place = dict.fromkeys(self.names, 0)
        for record in self.games:
            for seat, (name, result, rank) in enumerate(
                zip(record.seats, record.returns, record.ranks)
            ):
                _add(counts[name], seat, _sign_outcome(result))
                place[name] += rank
        rows = []
        for name, row in counts.items():
            rate, low, high = _rate(row["wins"], row["games"])
            rows.append(
                {
                    "agent": name,
                    **{k: row[k] for k in ("games", *OUTCOMES)},
                    "win_rate": rate,
                    "ci_low": low,
                    "ci_high": high,
                    "mean_rank": place[name] / row["games"] if row["games"] else math.nan,
                    "seat_games": row["seat_games"],
                    "seat_wins": row["seat_wins"],
                    "seat_win_rate": [
                        _rate(w, g)[0] for w, g in zip(row["seat_wins"], row["seat_games"])
                    ],
                }
            )
        return rows

    def seat_rows(self) -> list[dict[str, Any]]:
        """Per seat, whoever sat there: ``{seat, games, wins, win_rate, ci_low, ci_high}``.

        The seat advantage the rotation cancels (e.g. seat 0 moving first, Battle Heroica's
        Monster Player in the last seat); with equal seats each wins about 1/n of the games.
        """
        wins = [
            sum(record.returns[seat] > 0 for record in self.games) for seat in range(self.num_seats)
        ]
        return [
            dict(
                zip(
                    ("seat", "games", "wins", "win_rate", "ci_low", "ci_high"),
                    (seat, len(self.games), won, *_rate(won, len(self.games))),
                )
            )
            for seat, won in enumerate(wins)
        ]

    def tables(self) -> list[list[str]]:
        """The tables played (agent names, in seat order of each table's first game)."""
        return [[self.names[i] for i in table] for table in tables(len(self.names), self.num_seats)]

    # -- ratings --------------------------------------------------------------------------
    def ratings(self, model: Any = None) -> dict[str, dict[str, float]]:
        """openskill ratings ``{name: {mu, sigma, ordinal}}``, updated game by game.

        Games are rated round by round (game k of every table, then game k + 1, ...), not table
        by table: sequential updates weigh late games more, and rating whole tables in a row
        made the result depend on the order the agents were listed. ``model`` is an openskill
        model (default ``PlackettLuce()``). Each game is one update of all its seats, ranked by
        their finishing places (``GameRecord.ranks``: 1 = best, equal returns tie). Places, not
        the negated returns: openskill truncates ranks to integers, so returns of -0.5 and 0.5
        (three Heroes, or any shaped score) would have been rated as a tie.
        """
        from openskill.models import PlackettLuce

        model = model or PlackettLuce()
        current = {name: model.rating(name=name) for name in self.names}
        per_table = max(1, self.games_per_pair)
        rounds = sorted(range(len(self.games)), key=lambda i: (i % per_table, i // per_table))
        for record in (self.games[i] for i in rounds):
            # A fresh rating object per seat: openskill misrates one object passed in two teams
            # (an agent filling two seats), and the model must not update ``current`` in place.
            teams = [
                [model.rating(mu=current[name].mu, sigma=current[name].sigma, name=name)]
                for name in record.seats
            ]
            updated = model.rate(teams, ranks=record.ranks)
            by_agent: dict[str, list[Any]] = defaultdict(list)
            for name, (rating,) in zip(record.seats, updated):
                by_agent[name].append(rating)
            for name, seats in by_agent.items():
                current[name] = model.rating(
                    mu=float(np.mean([r.mu for r in seats])),
                    sigma=float(np.mean([r.sigma for r in seats])),
                    name=name,
                )
        return {
            name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
            for name, r in current.items()
        }

    def leaderboard(self) -> list[dict[str, Any]]:
        """Agents by decreasing ordinal: ``[{agent, mu, sigma, ordinal, rank}, ...]`` (rank from 1)."""
        ratings = self.ratings()
        order = sorted(self.names, key=lambda name: (-ratings[name]["ordinal"], name))
        return [
            {"agent": name, **ratings[name], "rank": rank} for rank, name in enumerate(order, 1)
        ]

    # -- output ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-safe values (NaN becomes None)."""
        rate, low, high = self._matrices()
        return {
            "env": self.env,
            "options": self.options,
            "seed": self.seed,
            "games_per_pair": self.games_per_pair,
            "num_seats": self.num_seats,
            "agents": list(self.names),
            "tables": self.tables(),
            "games": [record.to_dict() for record in self.games],
            "pairs": [_json_safe(row) for row in self.pair_rows()],
            "win_rate_matrix": _json_matrix(rate),
            "ci_low": _json_matrix(low),
            "ci_high": _json_matrix(high),
            "agent_results": [_json_safe(row) for row in self.agent_rows()],
            "seat_results": [_json_safe(row) for row in self.seat_rows()],
            "leaderboard": self.leaderboard(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        """The inverse of ``to_dict`` (tables and ratings are recomputed from the games)."""
        games = [
            GameRecord(
                seats=list(g["seats"]),
                seed=int(g["seed"]),
                returns=[float(r) for r in g["returns"]],
            )
            for g in data["games"]
        ]
        # Files from before N-player tournaments have no num_seats: their games tell.
        seats = int(data.get("num_seats") or (len(games[0].seats) if games else 2))
        return cls(
            names=list(data["agents"]),
            games=games,
            env=data.get("env", ""),
            options=dict(data.get("options") or {}),
            seed=int(data.get("seed", 0)),
            games_per_pair=int(data.get("games_per_pair", 0)),
            num_seats=seats,
        )

    def to_json(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.to_dict(), indent=2, allow_nan=False) + "\n")
        return path

    @classmethod
    def from_json(cls, path: str | Path) -> Tournament:
        """A tournament written by ``to_json`` / ``write`` (e.g. to re-plot it in a notebook)."""
        return cls.from_dict(json.loads(Path(path).read_text()))

    def to_csv(self, path: str | Path) -> Path:
        """Long format: one row per ordered pair (``PAIR_FIELDS``)."""
        return _write_csv(
            path, PAIR_FIELDS, [{k: _round(v) for k, v in row.items()} for row in self.pair_rows()]
        )

    def ratings_csv(self, path: str | Path) -> Path:
        """agent, mu, sigma, ordinal, rank: the leaderboard."""
        return _write_csv(
            path,
            RATING_FIELDS,
            [{k: _round(v) for k, v in row.items()} for row in self.leaderboard()],
        )

    def agents_csv(self, path: str | Path) -> Path:
        """One row per agent: ``AGENT_FIELDS`` then ``seat{s}_games``, ``seat{s}_wins``, ``seat{s}_win_rate``."""
        per_seat = ("games", "wins", "win_rate")
        fields = AGENT_FIELDS + [f"seat{s}_{k}" for s in range(self.num_seats) for k in per_seat]
        rows = [
            {
                **{k: _round(row[k]) for k in AGENT_FIELDS},
                **{
                    f"seat{s}_{k}": _round(row[f"seat_{k}"][s])
                    for s in range(self.num_seats)
                    for k in per_seat
                },
            }
            for row in self.agent_rows()
        ]
        return _write_csv(path, fields, rows)

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write ``tournament.json``, ``win_rates.csv``, ``ratings.csv`` (and, for more than two
        seats, ``agents.csv``) into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = {
            "json": self.to_json(out / "tournament.json"),
            "win_rates": self.to_csv(out / "win_rates.csv"),
            "ratings": self.ratings_csv(out / "ratings.csv"),
        }
        if self.num_seats > 2:  # two-seat tournaments keep their three files
            paths["agents"] = self.agents_csv(out / "agents.csv")
        return paths

    def format_table(self) -> str:
        """The head-to-head matrix (row agent vs column opponent, with 95% CI) and the leaderboard;
        with more than two seats also each agent's results, by seat, and each seat's win rate."""
        rate, low, high = self._matrices()
        names, n = self.names, self.num_seats
        cells = [
            [
                (
                    "-"
                    if i == j or math.isnan(rate[i, j])
                    else f"{rate[i, j]:.2f} [{low[i, j]:.2f}-{high[i, j]:.2f}]"
                )
                for j in range(len(names))
            ]
            for i in range(len(names))
        ]
        first = max([len("agent \\ opponent"), *map(len, names)])
        widths = [max([len(name), *(len(row[j]) for row in cells)]) for j, name in enumerate(names)]
        title = f"{self.env or 'tournament'}: {len(names)} agents, {len(self.games)} games"
        if n == 2:  # the two-player heading, unchanged
            lines = [
                f"{title} ({self.games_per_pair} per pair), seed {self.seed}; win rate of row vs column [95% CI]"
            ]
        else:
            lines = [
                f"{title} at {len(self.tables())} tables of {n} seats ({self.games_per_pair} per table, "
                f"seats rotated), seed {self.seed}",
                "",
                f"agent results (win = positive return; equal agents win about 1/{n}) and win rate by seat",
                "  ".join(
                    [
                        f"{'agent'.ljust(first)}  games  wins  draws  win rate [95% CI]   mean rank",
                        *(f"seat {s}".rjust(7) for s in range(n)),
                    ]
                ),
            ]
            lines += [
                "  ".join(
                    [
                        f"{r['agent'].ljust(first)}  {r['games']:5d}  {r['wins']:4d}  {r['draws']:5d}  "
                        f"{r['win_rate']:8.2f} [{r['ci_low']:.2f}-{r['ci_high']:.2f}]  {r['mean_rank']:9.2f}",
                        *(f"{x:7.2f}" for x in r["seat_win_rate"]),
                    ]
                )
                for r in self.agent_rows()
            ]
            lines += [
                "",
                "seat win rates: "
                + ", ".join(
                    f"seat {r['seat']} {r['win_rate']:.2f} [{r['ci_low']:.2f}-{r['ci_high']:.2f}]"
                    for r in self.seat_rows()
                ),
                "",
                "head to head: share of shared games the row finished ahead of the column [95% CI]",
            ]
        lines.append(
            "  ".join(
                ["agent \\ opponent".ljust(first), *(m.rjust(w) for m, w in zip(names, widths))]
            )
        )
        lines += [
            "  ".join([name.ljust(first), *(c.rjust(w) for c, w in zip(row, widths))])
            for name, row in zip(names, cells)
        ]
        lines += [
            "",
            "leaderboard (openskill Plackett-Luce; ordinal = mu - 3 sigma)",
            f"{'rank':>4}  {'agent'.ljust(first)}  {'ordinal':>8}  {'mu':>7}  {'sigma':>6}",
        ]
        lines += [
            f"{row['rank']:>4}  {row['agent'].ljust(first)}  {row['ordinal']:8.2f}  {row['mu']:7.2f}  "
            f"{row['sigma']:6.2f}"
            for row in self.leaderboard()
        ]
        return "\n".join(lines)


def _json_safe(row: dict[str, Any]) -> dict[str, Any]:
    return {
        k: [_json_float(x) for x in v] if isinstance(v, list) else _json_float(v)
        for k, v in row.items()
    }


def _json_float(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def _json_matrix(matrix: np.ndarray) -> list[list[float | None]]:
    return [[None if math.isnan(v) else float(v) for v in row] for row in matrix]


def _round(value: Any) -> Any:
    return round(value, 4) if isinstance(value, float) and not math.isnan(value) else value


def _write_csv(path: str | Path, fields: list[str], rows: list[dict[str, Any]]) -> Path:
    path = Path(path)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return path
