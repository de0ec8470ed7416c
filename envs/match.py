"""Play two bots against each other and report the win rate with a 95% Wilson interval.

Usage::

    python -m envs.match heroica_v0 heuristic random --games 500 --seed 0
    python -m envs.match heroica_v0 heuristic random --games 200 --option mission=tunnel
    python -m envs.match heroica_v0 heuristic random --option battle=true --option num_players=3 \\
        --seats 2          # bot_a only as the Monster Player (the last seat)
    python -m envs.match heroica_v0 heuristic random --games 4 --json
    python -m envs.match heroica_v0 search:runs/x/final_model.zip lookahead --games 100

``--option key=value`` passes a game option (the engine's constructor keyword, e.g. mission,
num_players, battle, max_rounds, heroes); values are read as JSON when they parse
(``3``, ``true``, ``["fork","tunnel"]``), else as strings, and a comma list such as
``heroes=wizard,thief`` becomes a list. A player is a bot name, a saved model (``.zip``) or
search over one (``search:MODEL.zip``, ``search(simulations=128):MODEL.zip``,
``lookahead:MODEL.zip``; see :mod:`training.agents`, which needs torch). bot_a plays every
seat in turn (seat ``i % n`` in game ``i``) unless ``--seats`` restricts it; bot_b fills the
other seats. Draws count as non-wins. Each bot's mean thinking time per decision is reported
beside the win rate. ``--workers N`` plays the games in N processes, game ``i`` in worker
``i % N``: every game has its own seed and seating, so the result is the one process's. Exit
status 2 for an unknown env, bot or option.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import multiprocessing
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import env_names
from .bots import MatchResult, bot_names, get_bot, play_match
from .core.game import Game, GameError
from .registry import ENVS, load


class UsageError(Exception):
    """A bad command line: unknown env, bot or option."""


def game_class(env_name: str) -> type[Game]:
    """The Game class behind a registered env name."""
    if env_name not in ENVS:
        raise UsageError(f"unknown env {env_name!r}; registered: {env_names()}")
    return load(ENVS[env_name].game)


def parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if "," in text:
        return [parse_value(part) for part in text.split(",")]
    return text


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option wants key=value, got {pair!r}")
        options[key.strip()] = parse_value(value.strip())
    return options


def game_factory(env_name: str, options: dict[str, Any]) -> Callable[[], Game]:
    """Check the options against the Game constructor and return a factory."""
    cls = game_class(env_name)
    declared = getattr(cls, "OPTIONS", None)
    if declared is not None:
        known = list(declared.names())
    else:  # a game without declared options: its constructor's names
        known = [name for name in inspect.signature(cls.__init__).parameters if name != "self"]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise UsageError(f"unknown option(s) {unknown} for {env_name}; game options: {known}")
    if isinstance(options.get("board_size"), list):
        options["board_size"] = tuple(options["board_size"])
    try:
        cls(**options)
    except (GameError, ValueError, TypeError) as error:
        raise UsageError(f"bad options for {env_name}: {error}") from error
    return lambda: cls(**options)


def run(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        prog="python -m envs.match", description=__doc__.split("\n")[0]
    )
    parser.add_argument("env", help=f"registered env name: {', '.join(env_names())}")
    parser.add_argument(
        "bot_a",
        help="the player whose win rate is reported: a bot, MODEL.zip, search:MODEL.zip or "
        "lookahead:MODEL.zip",
    )
    parser.add_argument("bot_b", help="its opponent (fills every other seat), the same kinds")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed + i")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="game option, repeatable (e.g. mission=tunnel, num_players=3)",
    )
    parser.add_argument(
        "--seats",
        type=int,
        nargs="+",
        default=None,
        help="seats bot_a cycles through (default: all)",
    )
    parser.add_argument(
        "--no-validate",
        action="store_true",
        help="skip the engine's legality check of every action (faster)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes playing the games side by side (each its share; the same results)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.games < 1:
        raise UsageError(f"--games must be positive, got {args.games}")
    if args.workers < 1:
        raise UsageError(f"--workers must be positive, got {args.workers}")
    options = parse_options(args.option)
    result = play_specs(
        args.env,
        options,
        args.bot_a,
        args.bot_b,
        args.games,
        seed=args.seed,
        seats=args.seats,
        validate=not args.no_validate,
        workers=args.workers,
    )
    report = {"env": args.env, "options": options, "seed": args.seed, **result.to_dict()}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{args.env} {options or ''}".rstrip())
        print(f"{result.bot_a} vs {result.bot_b}: {result.games} games")
        print(f"wins/draws/losses: {result.wins}/{result.draws}/{result.losses}")
        print(
            f"win rate: {result.win_rate:.3f}  95% CI [{result.ci_low:.3f}, {result.ci_high:.3f}]"
            "  (draws count as non-wins)"
        )
        print(
            "by seat (bot_a wins/games): "
            + ", ".join(
                f"seat {s}: {w}/{g}"
                for s, (w, g) in enumerate(zip(result.seat_wins, result.seat_games))
                if g
            )
        )
        print(f"speed: {result.games_per_second:.1f} games/s ({result.seconds:.1f} s)")
        print(
            f"thinking: {result.ms_per_decision_a:.2f} ms per decision ({result.bot_a}), "
            f"{result.ms_per_decision_b:.2f} ms ({result.bot_b})"
        )
    return report


def play_specs(
    env: str,
    options: dict[str, Any],
    spec_a: str,
    spec_b: str,
    games: int,
    *,
    seed: int = 0,
    seats: Sequence[int] | None = None,
    validate: bool = True,
    workers: int = 1,
) -> MatchResult:
    """A match between two players named by spec (:func:`load_player`), in ``workers``
    processes (game ``i`` in worker ``i % workers``; the one-process result). Bad options or
    players are a :class:`UsageError`, raised before any game."""
    factory = game_factory(env, options)
    bots = [load_player(spec, env, factory()) for spec in (spec_a, spec_b)]
    workers = min(workers, games)
    try:
        if workers == 1:
            return play_match(
                factory, bots[0], bots[1], games, seed=seed, seats=seats, validate=validate
            )
        share = functools.partial(
            play_share, env, options, spec_a, spec_b, games, seed, seats, validate
        )
        shares = [range(k, games, workers) for k in range(workers)]
        # spawn: a fresh interpreter per worker, safe with torch loaded here
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            return MatchResult.merged(pool.map(share, shares))
    except ValueError as error:
        raise UsageError(str(error)) from error


def play_share(
    env: str,
    options: dict[str, Any],
    spec_a: str,
    spec_b: str,
    games: int,
    seed: int,
    seats: Sequence[int] | None,
    validate: bool,
    indices: Sequence[int],
) -> MatchResult:
    """The games ``indices`` of a match, with its players loaded here (a worker's share)."""
    factory = game_factory(env, options)
    bots = [load_player(spec, env, factory()) for spec in (spec_a, spec_b)]
    return play_match(
        factory, bots[0], bots[1], games, seed=seed, seats=seats, validate=validate, indices=indices
    )


def load_player(spec: str, env_name: str, game: Game, flag: str = "") -> Any:
    """A bot by name, or a model (``.zip``) or search over one (``search:MODEL.zip``,
    ``lookahead:MODEL.zip``) through :func:`training.agents.load_agent`, which needs torch
    (imported only then), checked to fit ``game``. A bad spec is a :class:`UsageError`
    (prefixed with ``flag``, the option it came from, if any)."""
    if spec in bot_names(env_name):
        return get_bot(env_name, spec)
    prefix = f"{flag} {spec!r}" if flag else repr(spec)
    if not spec.endswith(".zip"):
        unknown = f"{prefix} is an unknown bot" if flag else f"unknown bot {spec!r}"
        raise UsageError(
            f"{unknown} for {env_name} (known: {', '.join(bot_names(env_name))}), and no model "
            "file (.zip), search:MODEL.zip or lookahead:MODEL.zip"
        )
    from training.agents import check_compatible, load_agent

    try:
        agent = load_agent(spec, env_name)
    except (FileNotFoundError, ValueError) as error:
        raise UsageError(f"{flag + ': ' if flag else ''}{error}") from None
    except Exception as error:  # noqa: BLE001 - a corrupt or foreign zip fails in many ways
        raise UsageError(f"{prefix}: cannot load the model: {error}") from None
    try:
        check_compatible(agent, game)
    except ValueError as error:
        raise UsageError(f"{prefix}: {error}") from None
    return agent


def main(argv: Sequence[str] | None = None) -> int:
    try:
        run(argv)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
