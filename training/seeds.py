"""Train a config once per seed, one run after another, and pool the results.

    python -m training.seeds --config configs/heroica.yaml --seeds 0,1,2 [key=value ...]

Each seed is a whole ``training.train`` run of the config with ``seed=k``, in its own folder
``<run_name>_seed<k>`` (``run_name`` as the config resolves it: by default the env and the time
of the start), alone on the machine as a timed budget needs: the runs go one after the other,
never side by side. Every seed's config is checked before the first run starts, so a bad
override fails at once. The end is the results table of the runs followed by the row that pools
them (``python -m training.results --pool``): games and wins summed over the seeds, per
opponent and per seat, with the interval of the sum. A claim rests on the pool, not on one seed.

An interrupt (Ctrl-C, SIGTERM) stops the run under way as ``training.train`` does (saved,
resumable) and starts no further seed; the exit status is that run's.

A pool can take several sittings: with a fixed ``run_name=`` the same command again keeps
every seed whose folder holds a finished run (its ``summary.json``, not interrupted) and
trains only the others. A run stopped while its final game was being filmed counts as
finished: learning and the final evaluation had ended, only its video is missing (``python -m
training.record`` films the model's games). A seed folder holding anything else (an
interrupted or unfinished run) is an error before anything trains: an hour's budget cannot be
resumed in pieces, so that folder is to be removed (or finished with ``training.train``'s
``resume_from=``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from envs.core.scenario import ScenarioError

from .config import TrainConfig, load_config
from .results import load_summary, markdown_table, stopped_while_filming
from .train import Interrupted, check_inputs, train


def seed_list(text: str) -> list[int]:
    """``0,1,2`` as [0, 1, 2]; each seed once."""
    try:
        seeds = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"seeds are integers separated by commas, got {text!r}"
        ) from None
    if len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"a seed is listed twice in {text!r}")
    return seeds


def seed_configs(
    config_path: Path, overrides: Sequence[str], seeds: Sequence[int]
) -> list[TrainConfig]:
    """One checked config per seed: ``seed=k``, and ``_seed<k>`` after the run name."""
    base = load_config(config_path, overrides)
    configs = []
    for seed in seeds:
        extra = [*overrides, f"seed={seed}", f"run_name={base.run_name}_seed{seed}"]
        config = load_config(config_path, extra)
        check_inputs(config, str(config_path), extra)
        configs.append(config)
    return configs


def finished(run: Path) -> bool:
    """Whether ``run`` holds a finished training run (summary.json, not interrupted, or stopped
    only while its final game was being filmed)."""
    try:
        summary = load_summary(run)
    except (FileNotFoundError, ValueError):  # no summary.json, or not valid JSON
        return False
    return not summary.get("interrupted", True) or stopped_while_filming(summary)


def check_folders(configs: Sequence[TrainConfig]) -> None:
    """A seed folder that exists must hold a finished run (module docstring)."""
    for config in configs:
        run = config.run_path
        if run.exists() and any(run.iterdir()) and not finished(run):
            raise FileExistsError(
                f"{run} holds an unfinished run (seed {config.seed}): remove it to train the "
                "seed again, or finish it with training.train's resume_from="
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.seeds", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--config", required=True, type=Path, help="YAML config (see configs/)")
    parser.add_argument(
        "--seeds", required=True, type=seed_list, help="comma-separated seeds, e.g. 0,1,2"
    )
    parser.add_argument("overrides", nargs="*", help="key=value overrides for every seed's run")
    args = parser.parse_args(argv)
    try:
        configs = seed_configs(args.config, args.overrides, args.seeds)
        check_folders(configs)
    except (ScenarioError, FileNotFoundError, FileExistsError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    runs = []
    for config in configs:
        if finished(config.run_path):
            print(f"seed {config.seed}: {config.run_path} (finished before: kept)", flush=True)
            runs.append(config.run_path)
            continue
        print(f"seed {config.seed}: {config.run_path}", flush=True)
        try:
            runs.append(train(config))
        except Interrupted as stopped:
            print(stopped.report(), file=sys.stderr)
            return stopped.exit_code
    print(markdown_table(runs, pool=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
