"""Round-robin tournaments between bots and saved models: win rates with 95% intervals and ratings.

    python -m training.evaluate --env heroica_v0 \\
        --agents random heuristic runs/x/final_model.zip ppo150k=runs/x/checkpoints/model_150000_steps.zip \\
        --games 20 --seed 0 --out outputs/tournament [--option max_rounds=50 --option mission=tunnel]
    python -m training.evaluate --env heroica_v0 --agents random heuristic final=runs/x/final_model.zip \\
        --option num_players=3 --games 21              # three heroes: tables of three agents
    python -m training.evaluate --env heroscape_v0 --option scenario=highlands_melee \\
        --agents random heuristic r2=random h2=heuristic --games 8

Agents are specs as in ``training.agents.load_agent``: a bot name (``random``, ``heuristic``), a
model file (``.zip``; a ``final_model.zip`` is named after its run folder), tree search over
one (``search:model.zip``, ``search(simulations=128):model.zip``) or ``name=spec`` to choose the
display name. Names must be unique. ``--option key=value`` is passed to
``envs.make`` (values are YAML: ``max_rounds=50``, ``mission=[fork,tunnel]``). The game's seat
count comes from its options: Heroica ``num_players=3`` (three Heroes) or ``num_players=4``
with ``battle=true`` (three Heroes and the Monster Player), Heroscape
``scenario=highlands_melee``, HeroClix ``scenario=brawl`` (both four-player free-for-alls).

Schedule (``training.tournament_schedule``). A game of ``n`` seats is played at *tables* of
``n`` agents, and ``--games`` is the number of games per table:

* two seats: every unordered pair {a, b} (in the order the agents are listed) is a table;
  game ``k`` of the pair puts ``a`` in seat 0 when ``k`` is even and in seat 1 when ``k`` is
  odd, so with an even count each agent plays each seat equally often (seat 0 moves first in
  most games, an advantage this cancels);
* ``n`` > 2 seats: with at least ``n`` agents every n-subset of them is a table (4 agents,
  3 seats: 4 tables); with fewer, the agents are repeated to fill the seats, cycling in list
  order from each agent in turn (2 agents, 3 seats: tables ``a b a`` and ``b a b``). Game ``k``
  of a table is rotation ``k % n`` of its seats (seat ``s`` holds ``table[(s + k) % n]``), so
  ``--games`` must be a multiple of ``n`` and every agent sits in every seat equally often.
  The default is 20 rounded up to a multiple of ``n``. A rotation keeps the cyclic order of a
  table: seats are balanced, neighbours (who plays right after whom) are not.

Game ``k`` of table number ``t`` (0, 1, ...) uses seed ``seed + t * games + k``: every game of a
tournament has its own seed (dice and the bots' own randomness), and the same ``--seed``
replays the same tournament. Every game records its seats, seed, returns and finishing ranks.

What the games add up to (wins, draws and losses, head to head, per agent and per seat, the
ratings) and the files written to ``--out`` (``tournament.json``, ``win_rates.csv``,
``ratings.csv`` and, with more than two seats, ``agents.csv``) are described in
``training.tournament_results``, which computes and writes them.

From a notebook: ``run_tournament(...)`` returns a ``Tournament``
(``training.tournament_results``: ``win_rate_matrix()``, ``agent_rows()``, ``seat_rows()``,
``ratings()``, ``format_table()``, ...), and ``load_eval_csv`` reads a training run's
``eval.csv`` for learning curves.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from envs.bots import Bot, play_game

from .agents import check_compatible, load_agent
from .config import parse_env_options
from .tournament_results import GameRecord, Tournament
from .tournament_schedule import check_games, default_games, schedule


# ==========================================================================================
# Running a tournament
# ==========================================================================================
def _setup(
    env_name: str,
    agents: Sequence[str | Bot],
    options: dict[str, Any] | None,
    game_factory: Callable[[], Any] | None,
) -> tuple[Any, list[Bot]]:
    """Build the game and the players, raising on anything the user got wrong (before any game)."""
    if game_factory is None:
        from envs import make

        game = make(env_name, **(options or {})).game
    else:
        game = game_factory()
    if game.num_players < 2:
        raise ValueError(
            f"{env_name} with these options has {game.num_players} player; a tournament "
            "needs a game of two or more"
        )
    if len(agents) < 2:
        raise ValueError(f"a tournament needs at least two agents, got {len(agents)}")
    bots = [load_agent(agent, env_name) if isinstance(agent, str) else agent for agent in agents]
    seen: set[str] = set()
    for bot in bots:
        name = getattr(bot, "name", None)
        if not isinstance(name, str) or not name:
            raise ValueError(f"agent {bot!r} has no name")
        if name in seen:
            raise ValueError(
                f"duplicate agent name {name!r}; give each agent its own name "
                f"with name=spec (e.g. {name}2={name})"
            )
        seen.add(name)
        check_compatible(bot, game)
    return game, bots


def _progress(tournament: Tournament, table: int, total: int) -> str:
    """One line on a finished table: the pair's results, or each agent's wins at the table."""
    played = tournament.games[-tournament.games_per_pair :]
    head = f"[{table + 1}/{total}] "
    if tournament.num_seats == 2:  # the line two-player tournaments always printed
        a, b = played[0].seats
        row = tournament.counts(a, b)
        return (
            head + f"{a} vs {b}: {row['wins']} wins / {row['draws']} draws / {row['losses']} losses"
        )
    wins = dict.fromkeys((name for record in played for name in record.seats), 0)
    for record in played:
        for name, result in zip(record.seats, record.returns):
            wins[name] += result > 0
    draws = sum(max(record.returns) <= 0 for record in played)
    return (
        head
        + ", ".join(f"{name} {won}" for name, won in wins.items())
        + f" wins in {len(played)} games; {draws} without a winner"
    )


def _play(
    game: Any, bots: list[Bot], games_per_table: int, seed: int, progress: bool
) -> Tournament:
    num_seats = int(game.num_players)
    tournament = Tournament(
        names=[bot.name for bot in bots],
        seed=seed,
        games_per_pair=games_per_table,
        num_seats=num_seats,
    )
    slots = schedule(len(bots), num_seats, games_per_table, seed)
    total = len(slots) // games_per_table
    for slot in slots:
        seats = [bots[i] for i in slot.seats]
        returns = play_game(game, seats, slot.seed)
        tournament.games.append(
            GameRecord(
                seats=[bot.name for bot in seats],
                seed=slot.seed,
                returns=[float(r) for r in returns],
            )
        )
        if progress and slot.game == games_per_table - 1:
            print(_progress(tournament, slot.table, total), file=sys.stderr, flush=True)
    return tournament


def run_tournament(
    env_name: str,
    agents: Sequence[str | Bot],
    games_per_pair: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    game_factory: Callable[[], Any] | None = None,
    progress: bool = False,
) -> Tournament:
    """Round robin among ``agents`` (specs for ``load_agent`` or Bot objects), seats rotating.

    The game is ``envs.make(env_name, **options).game`` unless ``game_factory`` builds it. Every
    table (every pair for a two-seat game, every n-subset of the agents for n seats) plays
    ``games_per_pair`` games, a multiple of n when n > 2; see the module docstring for tables,
    seats and seeds. Raises ValueError (or FileNotFoundError for a missing model) before
    playing when an agent spec, name, model or the games count is wrong.
    """
    if games_per_pair < 1:
        raise ValueError(f"games_per_pair must be positive, got {games_per_pair}")
    game, bots = _setup(env_name, agents, options, game_factory)
    check_games(games_per_pair, game.num_players, "games_per_pair")
    tournament = _play(game, bots, games_per_pair, seed, progress)
    tournament.env, tournament.options = env_name, dict(options or {})
    return tournament


def load_eval_csv(path: str | Path) -> dict[str, dict[str, np.ndarray]]:
    """A training run's ``eval.csv`` as ``{opponent: {column: array}}``, sorted by timesteps.

    Columns: timesteps, games, wins, draws, losses (ints) and win_rate, ci_low, ci_high
    (floats), e.g. ``plt.fill_between(c["timesteps"], c["ci_low"], c["ci_high"])``. The final
    evaluation (more games) may share its timesteps with the last periodic one.
    """
    ints, floats = (
        ("timesteps", "games", "wins", "draws", "losses"),
        ("win_rate", "ci_low", "ci_high"),
    )
    rows: dict[str, list[dict[str, str]]] = defaultdict(list)
    with Path(path).open(newline="") as handle:
        for row in csv.DictReader(handle):
            rows[row["opponent"]].append(row)
    curves = {}
    for opponent, group in rows.items():
        group.sort(
            key=lambda row: int(row["timesteps"])
        )  # stable: resumed runs append out of order
        curves[opponent] = {
            **{c: np.array([int(r[c]) for r in group], dtype=np.int64) for c in ints},
            **{c: np.array([float(r[c]) for r in group]) for c in floats},
        }
    return curves


# ==========================================================================================
# Command line
# ==========================================================================================
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.evaluate",
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--env", required=True, help="registered env, e.g. heroica_v0")
    parser.add_argument(
        "--agents",
        nargs="+",
        required=True,
        help="bot names, model .zip files, search:MODEL.zip, lookahead:MODEL.zip or name=spec "
        "(at least two)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="games per pair, or per table of n agents for an n-seat game (a multiple of n "
        "for n > 2; even for 2: fair seats); default 20, rounded up to a multiple of n",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--out", type=Path, default=Path("outputs/tournament"), help="output folder"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="env option for envs.make (repeatable; YAML values), e.g. num_players=3",
    )
    parser.add_argument("--quiet", action="store_true", help="no per-table progress on stderr")
    args = parser.parse_args(argv)
    try:
        if args.games is not None and args.games < 1:  # before building anything: no game needed
            raise ValueError(f"--games must be positive, got {args.games}")
        options = parse_env_options(args.option)
        game, bots = _setup(args.env, args.agents, options, None)
        games = default_games(game.num_players) if args.games is None else args.games
        check_games(games, game.num_players, "--games")
    except (ValueError, KeyError, FileNotFoundError) as error:
        # User mistakes (spec, option, env) are reported plainly; errors while playing are bugs
        # and keep their traceback, which is why play is outside this try.
        print(f"error: {error}", file=sys.stderr)
        return 2
    tournament = _play(game, bots, games, args.seed, progress=not args.quiet)
    tournament.env, tournament.options = args.env, options
    print(tournament.format_table())
    for path in tournament.write(args.out).values():
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
