"""Round-robin tournaments between bots and saved models: win rates with 95% intervals and ratings.

    python -m training.evaluate --env heroica_v0 \\
        --agents random heuristic runs/x/final_model.zip ppo150k=runs/x/checkpoints/model_150000_steps.zip \\
        --games 20 --seed 0 --out outputs/tournament [--option max_rounds=50 --option mission=tunnel]

Agents are specs as in ``training.agents.load_agent``: a bot name (``random``, ``heuristic``), a
model file (``.zip``; a ``final_model.zip`` is named after its run folder) or ``name=spec`` to
choose the display name. Names must be unique. ``--option key=value`` is passed to
``envs.make`` (values are YAML: ``max_rounds=50``, ``mission=[fork,tunnel]``).

Schedule. Every unordered pair {a, b} (in the order the agents are listed) plays ``--games``
games; game ``k`` of the pair puts ``a`` in seat 0 when ``k`` is even and in seat 1 when ``k``
is odd, so with an even count each agent plays each seat equally often (seat 0 moves first in
most games, an advantage this cancels). Game ``k`` of pair number ``p`` (0, 1, ...) uses seed
``seed + p * games + k``: every game of a tournament has its own seed (dice and the bots' own
randomness), and the same ``--seed`` replays the same tournament. Only two-player games are
supported for now.

Output files in ``--out``:

* ``tournament.json`` - settings, every game (seats, seed, returns, winner), the pairwise
  table, the win-rate matrix with its intervals (null on the diagonal) and the ratings;
* ``win_rates.csv`` - one row per ordered pair: agent, opponent, games, wins, draws, losses,
  win_rate, ci_low, ci_high. ``win_rate`` = wins / games of ``agent`` against ``opponent``
  (draws are non-wins), ``ci_low``..``ci_high`` its 95% Wilson score interval;
* ``ratings.csv`` - agent, mu, sigma, ordinal, rank.

Ratings are openskill Plackett-Luce ratings (a Bayesian Elo/TrueSkill-like model): every agent
starts at mu = 25, sigma = 25/3, and each game updates both players in the order played (a
draw is a tied rank). ``mu`` is the estimated skill, ``sigma`` its uncertainty, and ``ordinal``
= mu - 3 sigma a conservative skill that the leaderboard sorts by. Ratings are only comparable
within one tournament; the win-rate matrix is the primary result, the ratings summarise it.

From a notebook: ``run_tournament(...)`` returns a ``Tournament`` (``win_rate_matrix()``,
``ratings()``, ``format_table()``, ...), and ``load_eval_csv`` reads a training run's
``eval.csv`` for learning curves.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import math
import sys
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from envs.bots import Bot, play_game, wilson_interval

from .agents import check_compatible, load_agent
from .config import parse_env_options

PAIR_FIELDS = ["agent", "opponent", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high"]
RATING_FIELDS = ["agent", "mu", "sigma", "ordinal", "rank"]


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

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "winner": self.winner}


@dataclass
class Tournament:
    """Every game of a round robin, and the tables and ratings computed from them."""

    names: list[str]
    games: list[GameRecord] = field(default_factory=list)
    env: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    games_per_pair: int = 0

    # -- counts and win rates -------------------------------------------------------------
    def _tally(self) -> dict[tuple[str, str], dict[str, Any]]:
        """``{(agent, opponent): counts}`` from ``agent``'s side, in one pass over the games."""
        tally: dict[tuple[str, str], dict[str, Any]] = defaultdict(
            lambda: {"games": 0, "wins": 0, "draws": 0, "losses": 0, "seat_games": [0, 0], "seat_wins": [0, 0]})
        for record in self.games:
            for seat, agent in enumerate(record.seats):
                for opponent in record.seats:
                    if opponent == agent:
                        continue
                    row = tally[agent, opponent]
                    result = record.returns[seat]
                    # Same rule as envs.bots.MatchResult: the sign of the seat's return decides.
                    outcome = "wins" if result > 0 else "losses" if result < 0 else "draws"
                    row["games"] += 1
                    row[outcome] += 1
                    row["seat_games"][seat] += 1
                    row["seat_wins"][seat] += outcome == "wins"
        return tally

    def counts(self, agent: str, opponent: str) -> dict[str, Any]:
        """Games, wins, draws, losses and per-seat games/wins of ``agent`` against ``opponent``."""
        for name in (agent, opponent):
            if name not in self.names:
                raise KeyError(f"no agent {name!r} in this tournament; agents: {self.names}")
        return self._tally()[agent, opponent]

    def _matrices(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = len(self.names)
        rate, low, high = (np.full((n, n), np.nan) for _ in range(3))
        tally = self._tally()
        for (i, a), (j, b) in itertools.permutations(enumerate(self.names), 2):
            row = tally.get((a, b))
            if row and row["games"]:
                rate[i, j] = row["wins"] / row["games"]
                low[i, j], high[i, j] = wilson_interval(row["wins"], row["games"])
        return rate, low, high

    def win_rate_matrix(self) -> np.ndarray:
        """``[i, j]`` = wins / games of ``names[i]`` against ``names[j]``; NaN on the diagonal."""
        return self._matrices()[0]

    def ci_matrices(self) -> tuple[np.ndarray, np.ndarray]:
        """95% Wilson interval (low, high) of every entry of ``win_rate_matrix``."""
        _, low, high = self._matrices()
        return low, high

    def pair_rows(self) -> list[dict[str, Any]]:
        """One row per ordered pair (the ``win_rates.csv`` rows)."""
        tally, rows = self._tally(), []
        for a, b in itertools.permutations(self.names, 2):
            row = tally.get((a, b), {"games": 0, "wins": 0, "draws": 0, "losses": 0})
            low, high = wilson_interval(row["wins"], row["games"])
            rows.append({"agent": a, "opponent": b, **{k: row[k] for k in ("games", "wins", "draws", "losses")},
                         "win_rate": row["wins"] / row["games"] if row["games"] else math.nan,
                         "ci_low": low, "ci_high": high})
        return rows

    # -- ratings --------------------------------------------------------------------------
    def ratings(self, model: Any = None) -> dict[str, dict[str, float]]:
        """openskill ratings ``{name: {mu, sigma, ordinal}}``, updated game by game.

        Games are rated round by round (game k of every pair, then game k + 1, ...), not pair
        by pair: sequential updates weigh late games more, and rating whole pairs in a row made
        the result depend on the order the agents were listed. ``model`` is an openskill model
        (default ``PlackettLuce()``). Lower rank = better: ranks are the negated returns, so
        equal returns are a tie.
        """
        from openskill.models import PlackettLuce

        model = model or PlackettLuce()
        current = {name: model.rating(name=name) for name in self.names}
        per_pair = max(1, self.games_per_pair)
        rounds = sorted(range(len(self.games)), key=lambda i: (i % per_pair, i // per_pair))
        for record in (self.games[i] for i in rounds):
            teams = [[current[name]] for name in record.seats]
            updated = model.rate(teams, ranks=[-float(r) for r in record.returns])
            for name, (rating,) in zip(record.seats, updated):
                current[name] = rating
        return {name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for name, r in current.items()}

    def leaderboard(self) -> list[dict[str, Any]]:
        """Agents by decreasing ordinal: ``[{agent, mu, sigma, ordinal, rank}, ...]`` (rank from 1)."""
        ratings = self.ratings()
        order = sorted(self.names, key=lambda name: (-ratings[name]["ordinal"], name))
        return [{"agent": name, **ratings[name], "rank": rank} for rank, name in enumerate(order, 1)]

    # -- output ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-safe values (NaN becomes None)."""
        rate, low, high = self._matrices()
        return {"env": self.env, "options": self.options, "seed": self.seed,
                "games_per_pair": self.games_per_pair, "agents": list(self.names),
                "games": [record.to_dict() for record in self.games],
                "pairs": [{k: _json_float(v) for k, v in row.items()} for row in self.pair_rows()],
                "win_rate_matrix": _json_matrix(rate), "ci_low": _json_matrix(low), "ci_high": _json_matrix(high),
                "leaderboard": self.leaderboard()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Tournament":
        """The inverse of ``to_dict`` (tables and ratings are recomputed from the games)."""
        games = [GameRecord(seats=list(g["seats"]), seed=int(g["seed"]), returns=[float(r) for r in g["returns"]])
                 for g in data["games"]]
        return cls(names=list(data["agents"]), games=games, env=data.get("env", ""),
                   options=dict(data.get("options") or {}), seed=int(data.get("seed", 0)),
                   games_per_pair=int(data.get("games_per_pair", 0)))

    def to_json(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.to_dict(), indent=2, allow_nan=False) + "\n")
        return path

    @classmethod
    def from_json(cls, path: str | Path) -> "Tournament":
        """A tournament written by ``to_json`` / ``write`` (e.g. to re-plot it in a notebook)."""
        return cls.from_dict(json.loads(Path(path).read_text()))

    def to_csv(self, path: str | Path) -> Path:
        """Long format: one row per ordered pair (``PAIR_FIELDS``)."""
        return _write_csv(path, PAIR_FIELDS, [{k: _round(v) for k, v in row.items()} for row in self.pair_rows()])

    def ratings_csv(self, path: str | Path) -> Path:
        """agent, mu, sigma, ordinal, rank: the leaderboard."""
        return _write_csv(path, RATING_FIELDS, [{k: _round(v) for k, v in row.items()} for row in self.leaderboard()])

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write ``tournament.json``, ``win_rates.csv`` and ``ratings.csv`` into ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        return {"json": self.to_json(out / "tournament.json"), "win_rates": self.to_csv(out / "win_rates.csv"),
                "ratings": self.ratings_csv(out / "ratings.csv")}

    def format_table(self) -> str:
        """The win-rate matrix (row agent vs column opponent, with 95% CI) and the leaderboard."""
        rate, low, high = self._matrices()
        cells = [[("-" if i == j or math.isnan(rate[i, j]) else
                   f"{rate[i, j]:.2f} [{low[i, j]:.2f}-{high[i, j]:.2f}]") for j in range(len(self.names))]
                 for i in range(len(self.names))]
        first = max([len("agent \\ opponent"), *map(len, self.names)])
        widths = [max([len(name), *(len(row[j]) for row in cells)]) for j, name in enumerate(self.names)]
        lines = [f"{self.env or 'tournament'}: {len(self.names)} agents, {len(self.games)} games "
                 f"({self.games_per_pair} per pair), seed {self.seed}; win rate of row vs column [95% CI]",
                 "  ".join(["agent \\ opponent".ljust(first), *(n.rjust(w) for n, w in zip(self.names, widths))])]
        lines += ["  ".join([name.ljust(first), *(c.rjust(w) for c, w in zip(row, widths))])
                  for name, row in zip(self.names, cells)]
        lines += ["", "leaderboard (openskill Plackett-Luce; ordinal = mu - 3 sigma)",
                  f"{'rank':>4}  {'agent'.ljust(first)}  {'ordinal':>8}  {'mu':>7}  {'sigma':>6}"]
        lines += [f"{row['rank']:>4}  {row['agent'].ljust(first)}  {row['ordinal']:8.2f}  {row['mu']:7.2f}  "
                  f"{row['sigma']:6.2f}" for row in self.leaderboard()]
        return "\n".join(lines)


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


# ==========================================================================================
# Running a tournament
# ==========================================================================================
def _setup(env_name: str, agents: Sequence[str | Bot], options: dict[str, Any] | None,
           game_factory: Callable[[], Any] | None) -> tuple[Any, list[Bot]]:
    """Build the game and the players, raising on anything the user got wrong (before any game)."""
    if game_factory is None:
        from envs import make

        game = make(env_name, **(options or {})).game
    else:
        game = game_factory()
    if game.num_players != 2:
        raise ValueError(f"{env_name} with these options has {game.num_players} players; N-player "
                         "tournaments are not supported yet (only two-player games)")
    if len(agents) < 2:
        raise ValueError(f"a tournament needs at least two agents, got {len(agents)}")
    bots = [load_agent(agent, env_name) if isinstance(agent, str) else agent for agent in agents]
    seen: set[str] = set()
    for bot in bots:
        name = getattr(bot, "name", None)
        if not isinstance(name, str) or not name:
            raise ValueError(f"agent {bot!r} has no name")
        if name in seen:
            raise ValueError(f"duplicate agent name {name!r}; give each agent its own name "
                             f"with name=spec (e.g. {name}2={name})")
        seen.add(name)
        check_compatible(bot, game)
    return game, bots


def _play(game: Any, bots: list[Bot], games_per_pair: int, seed: int, progress: bool) -> Tournament:
    tournament = Tournament(names=[bot.name for bot in bots], seed=seed, games_per_pair=games_per_pair)
    pairs = list(itertools.combinations(bots, 2))
    for p, (a, b) in enumerate(pairs):
        for k in range(games_per_pair):
            seats = [a, b] if k % 2 == 0 else [b, a]
            game_seed = seed + p * games_per_pair + k
            returns = play_game(game, seats, game_seed)
            tournament.games.append(GameRecord(seats=[bot.name for bot in seats], seed=game_seed,
                                               returns=[float(r) for r in returns]))
        if progress:
            row = tournament.counts(a.name, b.name)
            print(f"[{p + 1}/{len(pairs)}] {a.name} vs {b.name}: {row['wins']} wins / {row['draws']} draws / "
                  f"{row['losses']} losses", file=sys.stderr, flush=True)
    return tournament


def run_tournament(env_name: str, agents: Sequence[str | Bot], games_per_pair: int, seed: int = 0,
                   options: dict[str, Any] | None = None, game_factory: Callable[[], Any] | None = None,
                   progress: bool = False) -> Tournament:
    """Round robin among ``agents`` (specs for ``load_agent`` or Bot objects), seats alternating.

    The game is ``envs.make(env_name, **options).game`` unless ``game_factory`` builds it. Every
    pair plays ``games_per_pair`` games; see the module docstring for seats and seeds. Raises
    ValueError (or FileNotFoundError for a missing model) before playing when an agent spec,
    name, model or the player count is wrong.
    """
    if games_per_pair < 1:
        raise ValueError(f"games_per_pair must be positive, got {games_per_pair}")
    tournament = _play(*_setup(env_name, agents, options, game_factory), games_per_pair, seed, progress)
    tournament.env, tournament.options = env_name, dict(options or {})
    return tournament


def load_eval_csv(path: str | Path) -> dict[str, dict[str, np.ndarray]]:
    """A training run's ``eval.csv`` as ``{opponent: {column: array}}``, sorted by timesteps.

    Columns: timesteps, games, wins, draws, losses (ints) and win_rate, ci_low, ci_high
    (floats), e.g. ``plt.fill_between(c["timesteps"], c["ci_low"], c["ci_high"])``. The final
    evaluation (more games) may share its timesteps with the last periodic one.
    """
    ints, floats = ("timesteps", "games", "wins", "draws", "losses"), ("win_rate", "ci_low", "ci_high")
    rows: dict[str, list[dict[str, str]]] = defaultdict(list)
    with Path(path).open(newline="") as handle:
        for row in csv.DictReader(handle):
            rows[row["opponent"]].append(row)
    curves = {}
    for opponent, group in rows.items():
        group.sort(key=lambda row: int(row["timesteps"]))  # stable: resumed runs append out of order
        curves[opponent] = {**{c: np.array([int(r[c]) for r in group], dtype=np.int64) for c in ints},
                            **{c: np.array([float(r[c]) for r in group]) for c in floats}}
    return curves


# ==========================================================================================
# Command line
# ==========================================================================================
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, help="registered env, e.g. heroica_v0")
    parser.add_argument("--agents", nargs="+", required=True,
                        help="bot names, model .zip files or name=spec (at least two)")
    parser.add_argument("--games", type=int, default=20, help="games per pair (even: fair seats)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("outputs/tournament"), help="output folder")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="env option for envs.make (repeatable; YAML values)")
    parser.add_argument("--quiet", action="store_true", help="no per-pair progress on stderr")
    args = parser.parse_args(argv)
    try:
        if args.games < 1:
            raise ValueError(f"--games must be positive, got {args.games}")
        options = parse_env_options(args.option)
        game, bots = _setup(args.env, args.agents, options, None)
    except (ValueError, KeyError, FileNotFoundError) as error:
        # User mistakes (spec, option, env) are reported plainly; errors while playing are bugs
        # and keep their traceback, which is why play is outside this try.
        print(f"error: {error}", file=sys.stderr)
        return 2
    tournament = _play(game, bots, args.games, args.seed, progress=not args.quiet)
    tournament.env, tournament.options = args.env, options
    print(tournament.format_table())
    for path in tournament.write(args.out).values():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
