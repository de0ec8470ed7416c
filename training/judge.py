"""Judge a player made from each run's final model against the bots, on the final evaluation's
dice, and keep the results in the run for ``training.results --player``.

    python -m training.judge runs/heroica_v0_x_seed0 runs/heroica_v0_x_seed1 \\
        --player "search(simulations=8)" --opponents lookahead --games 500 --workers 2
    python -m training.results --pool --player "search(simulations=8)" runs/heroica_v0_x_seed*

The player is ``policy`` (the saved model itself, as the run's final evaluation played it) or
search over it (``training.agents``): ``search`` or ``search(key=value,...)`` with the options
of ``envs.search.SearchBudget`` (the run's reward shaping is read from its ``config.yaml``),
or ``lookahead`` / ``lookahead(key=value,...)``, the game's lookahead bot over the policy's
choice (``envs.guided``). Game ``i`` against an opponent uses seed
``eval_seed(seed, timesteps) + i`` (``training.evaluation``), the seeds of the run's final
evaluation, so the policy and search over it are compared on the same dice; the env options
are the run's.

Each run's results go to ``RUN/judged/<player>.json`` (the player's name with every run of
other characters as ``_``): per opponent, what ``summary.json``'s ``final`` records (games,
wins, the 95% interval, the rate in each seat), the first seed, and the thinking time of both
sides (``ms_per_decision``, ``opponent_ms_per_decision``, and the decisions each made). A
search budget counts as no larger than the lookahead bot's when its ``ms_per_decision`` is at
most the bot's ``opponent_ms_per_decision`` in the same games. A later call adds opponents or
replaces them; each opponent's record is written as soon as its games end.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from envs.match import UsageError, play_specs

from .evaluation import eval_seed
from .results import final_record, judged_path, load_judged, load_summary, run_config

PLAYER = re.compile(r"policy|(search|lookahead)(\([^()]*\))?")


def player_spec(player: str, run: Path) -> str:
    """The agent spec (``training.agents.load_agent``) of ``player`` over the run's model."""
    if not PLAYER.fullmatch(player):
        raise UsageError(
            f"player {player!r} is neither 'policy' nor search over the model "
            "('search', 'lookahead' or either with (key=value,...))"
        )
    model = run / "final_model.zip"
    return str(model) if player == "policy" else f"{player}:{model}"


def judge_run(
    run: Path,
    player: str,
    opponents: Sequence[str],
    games: int,
    workers: int = 1,
    log: Any = None,
) -> dict[str, Any]:
    """Play ``player`` of ``run`` against each opponent and record it (module docstring)."""
    spec = player_spec(player, run)
    summary, config = load_summary(run), run_config(run)
    env_section = config.get("env") or {}
    if "name" not in env_section or "seed" not in config:
        raise UsageError(f"{run / 'config.yaml'}: no env.name or seed (not a training run)")
    env, options = env_section["name"], dict(env_section.get("options") or {})
    seed = eval_seed(int(config["seed"]), int(summary["timesteps"]))
    path = judged_path(run, player)
    record: dict[str, Any] = (
        load_judged(run, player) if path.is_file() else {"player": player, "final": {}}
    )
    record.update(env=env, options=options, spec=spec)
    for opponent in opponents:
        result = play_specs(env, options, spec, opponent, games, seed=seed, workers=workers)
        record["final"][opponent] = {
            **final_record(result),
            "seed": seed,
            "ms_per_decision": round(result.ms_per_decision_a, 3),
            "decisions": result.decisions_a,
            "opponent_ms_per_decision": round(result.ms_per_decision_b, 3),
            "opponent_decisions": result.decisions_b,
        }
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(record, indent=2) + "\n")
        if log is not None:
            print(
                f"{run.name} {player} vs {opponent}: {result.summary()}; thinking "
                f"{result.ms_per_decision_a:.2f} ms a decision ({opponent}: "
                f"{result.ms_per_decision_b:.2f})",
                file=log,
                flush=True,
            )
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.judge", description=__doc__.split("\n")[0]
    )
    parser.add_argument("runs", nargs="+", type=Path, help="run folders (with final_model.zip)")
    parser.add_argument(
        "--player",
        required=True,
        help="policy, or search / lookahead over the model, optionally with (key=value,...)",
    )
    parser.add_argument(
        "--opponents", nargs="+", default=["heuristic", "lookahead"], help="bot names"
    )
    parser.add_argument("--games", type=int, default=500, help="per opponent and run")
    parser.add_argument("--workers", type=int, default=1, help="processes per match")
    args = parser.parse_args(argv)
    try:
        if args.games < 1 or args.workers < 1:
            raise UsageError(
                f"--games and --workers must be positive ({args.games}, {args.workers})"
            )
        for run in args.runs:  # every spec checked before the first game
            player_spec(args.player, run)
            load_summary(run)
        for run in args.runs:
            judge_run(run, args.player, args.opponents, args.games, args.workers, log=sys.stdout)
    except (UsageError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
