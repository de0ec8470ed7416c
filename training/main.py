"""The main job (``make run``): train on the default config with a short budget, evaluate, film.

    python -m training.main                                   # configs/heroica.yaml, 3 minutes
    python -m training.main --config configs/heroscape.yaml --minutes 10
    python -m training.main ppo.learning_rate=1e-4            # any config override

It is ``python -m training.train`` on the given config (default ``configs/heroica.yaml``) with
a wall-time budget (``--minutes``, default 3) instead of the config's full one, a smaller
warm start and fewer evaluation games, and its run folder at ``outputs/main`` (replaced on each run). What it
leaves there is what any training run leaves: ``config.yaml``, ``checkpoints/``, ``tb/``,
``eval.csv``, ``final_model.zip``, ``summary.json`` and ``final_game.mp4`` (the final policy
against the heuristic bot). It ends by printing the win rates with 95% intervals.

Ctrl-C (or SIGTERM) stops it cleanly, as it stops ``training.train``: a checkpoint, the final
model and ``summary.json`` (``interrupted``: true) are saved and it exits with 130 (143).
``resume_from=outputs/main/checkpoints/model_<steps>_steps.zip`` continues that run folder
instead of replacing it.

A 3-minute run is a demonstration of the whole pipeline, not a strong agent: the results table
(docs/results.md) lists what the full configs reach in an hour.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from envs.core.scenario import ScenarioError

from .config import load_config
from .train import Interrupted, check_inputs, train

DEFAULT_CONFIG = Path(__file__).resolve().parent.parent / "configs" / "heroica.yaml"


def short_budget_overrides(minutes: float, out: Path) -> list[str]:
    """Overrides that turn a full config into a few-minute run that still evaluates and films."""
    return [
        f"time_limit_minutes={minutes}",
        "eval.every_steps=1000000000",  # only the final evaluation: its time is not training time
        "eval.games=20",
        "eval.final_games=40",
        "checkpoint_every_steps=1000000000",
        "league.snapshot_every_steps=5000",
        # a warm start, if the config has one, within pretrain.budget_fraction of the minutes:
        # fewer decisions cloned to the end beat more cut short. Heroica: 3 passes over 3,000
        # choices in minibatches of 64 clone to 99% in 19 s and beat random 20/20; 0.6 of a
        # pass over 10,000 in minibatches of 256 (77%) won 0 of 40
        "pretrain.max_samples=3000",
        "pretrain.epochs=3",
        "pretrain.batch_size=64",
        f"run_dir={out.parent}",
        f"run_name={out.name}",
    ]


def is_replaceable_run_folder(folder: Path) -> bool:
    """Only an empty folder or an earlier run's folder may be deleted, never the working
    directory or one above it."""
    resolved, cwd = folder.resolve(), Path.cwd().resolve()
    if resolved == cwd or resolved in cwd.parents or not resolved.is_dir():
        return False
    return not any(resolved.iterdir()) or (resolved / "config.yaml").is_file()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.main", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--config", type=Path, default=DEFAULT_CONFIG, help="training config (YAML)"
    )
    parser.add_argument("--minutes", type=float, default=3.0, help="wall-time budget for learning")
    parser.add_argument(
        "--out", type=Path, default=Path("outputs/main"), help="run folder (replaced)"
    )
    parser.add_argument("overrides", nargs="*", help="key=value config overrides, applied last")
    args = parser.parse_args(argv)
    if args.minutes <= 0:
        parser.error(f"--minutes must be positive, got {args.minutes}")
    overrides = short_budget_overrides(args.minutes, args.out) + args.overrides
    try:
        config = load_config(args.config, overrides)
        check_inputs(config, str(args.config), overrides)  # before the old run folder is deleted
    except (ScenarioError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.out.exists() and config.resume_from is None:  # a resumed run continues its folder
        if not is_replaceable_run_folder(args.out):
            print(
                f"error: --out {args.out} exists and is not a run folder (no config.yaml in it); "
                "choose a new or empty folder",
                file=sys.stderr,
            )
            return 2
        shutil.rmtree(args.out)
    print(
        f"training {config.env.name} from {args.config} for up to {args.minutes:g} minutes "
        f"({config.num_envs} envs) -> {args.out}"
    )
    try:
        run = train(config)
    except Interrupted as stopped:
        print(stopped.report(), file=sys.stderr)
        return stopped.exit_code
    summary = json.loads((run / "summary.json").read_text())
    print(
        f"\n{summary['env']}: {summary['timesteps']} steps in {summary['train_minutes']} min "
        f"({summary['steps_per_second']} steps/s)"
    )
    for opponent, result in summary["final"].items():
        seats = ", ".join(
            f"seat {k} {seat['wins']}/{seat['games']}" for k, seat in enumerate(result["seats"])
        )
        print(
            f"  vs {opponent:9s}: win rate {result['win_rate']:.3f} "
            f"(95% CI {result['ci_low']:.3f}-{result['ci_high']:.3f}, {result['games']} games; {seats})"
        )
    if config.video.enabled:
        print(f"  video: {run / 'final_game.mp4'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
