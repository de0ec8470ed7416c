"""The SB3 callbacks of a training run and its step bookkeeping (``training.train``).

Evaluation rows in ``eval.csv``, torch threads for rollouts and updates, the time limit, the
stop signal, periodic checkpoints on multiples of their interval (so a resumed run keeps the
same grid), snapshots that join the opponent pool, and what a resume reloads: the snapshots
up to the checkpoint's step and the ``eval.csv`` rows it has learned from.
"""

from __future__ import annotations

import csv
import re
import time
from pathlib import Path
from typing import Any

import torch
from stable_baselines3.common.callbacks import BaseCallback

from envs import make

from .config import TrainConfig
from .evaluation import eval_seed, evaluate_policy
from .interrupts import StopSignals
from .results import result_fields
from .threads import ThreadTuner


def game_factory(config: TrainConfig):
    name, options = config.env.name, dict(config.env.options)
    return lambda: make(name, **options).game


EVAL_FIELDS = [
    "timesteps",
    "opponent",
    "games",
    "wins",
    "draws",
    "losses",
    "win_rate",
    "ci_low",
    "ci_high",
]


def next_multiple(steps: int, every: int) -> int:
    """The first multiple of ``every`` after ``steps``."""
    return (steps // every + 1) * every


def checkpoint_path(run: Path, steps: int) -> Path:
    return run / "checkpoints" / f"model_{steps}_steps.zip"


class EvalCallback(BaseCallback):
    """Every ``every_steps``: win rates vs the bots, to CSV and TensorBoard (a stop signal cuts an
    evaluation short: it can take a while, and the weights are whole during it)."""

    def __init__(self, config: TrainConfig, csv_path: Path, stop: StopSignals | None = None):
        super().__init__()
        self.config = config
        self.csv_path = csv_path
        self.stop = stop or StopSignals()
        self.next_eval = config.eval.every_steps

    def _on_training_start(self) -> None:
        # a resumed run continues the schedule instead of catching up on every missed evaluation
        self.next_eval = next_multiple(self.num_timesteps, self.config.eval.every_steps)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval and not self.stop.requested:
            self.next_eval += self.config.eval.every_steps
            with self.stop.immediate():
                evaluate_and_log(
                    self.model, self.config, self.csv_path, self.num_timesteps, self.logger
                )
        return True


class RolloutThreadsCallback(BaseCallback):
    """Torch on one thread while collecting rollouts (and evaluating), all threads for updates.

    A rollout step predicts for ``n_envs`` observations at once, too little work to split,
    while the env workers need the cores; idle torch threads spinning between those tiny
    calls steal them (see ``training.agents.single_thread``). Gradient updates on 256-sample
    minibatches do gain from every core, and the workers are idle then. With a ``tuner``
    (``torch_threads: auto``) each update runs on the count it gives and is timed for it: an
    update lasts from the rollout's end to the next rollout's start.
    """

    def __init__(self, tuner: ThreadTuner | None = None) -> None:
        super().__init__()
        self.update_threads = torch.get_num_threads()
        self.tuner = tuner
        self.update_started: float | None = None

    def _on_rollout_start(self) -> None:
        if self.tuner is not None and self.update_started is not None:
            self.tuner.record(time.monotonic() - self.update_started)
        self.update_started = None
        self.update_threads = torch.get_num_threads()
        torch.set_num_threads(1)

    def _on_rollout_end(self) -> None:
        if self.tuner is not None:
            self.update_threads = self.tuner.threads()
            self.update_started = time.monotonic()
        torch.set_num_threads(self.update_threads)

    def _on_training_end(self) -> None:  # also after a stop in mid-rollout (time limit)
        torch.set_num_threads(self.update_threads)

    def _on_step(self) -> bool:
        return True


class TimeLimitCallback(BaseCallback):
    """Stops learning once ``minutes`` of wall time have passed since ``started`` (monotonic
    seconds; the run's start, so a warm start counts against the budget too)."""

    def __init__(self, minutes: float, started: float):
        super().__init__()
        self.seconds = minutes * 60.0
        self.started = started
        self.stopped_early = False

    def _on_step(self) -> bool:
        if time.monotonic() - self.started >= self.seconds:
            self.stopped_early = True
            return False
        return True


class StopOnSignal(BaseCallback):
    """Ends ``learn()`` at the first env step after a stop signal.

    ``learned`` is the step count the weights have learned from: SB3 never trains on a rollout
    cut short, so after a stop it is the count when that rollout began. Saving that count (not
    the steps collected) keeps a resumed run on the rollout grid of a fresh one, so it ends at
    ``total_timesteps`` as the fresh one would.
    """

    def __init__(self, stop: StopSignals):
        super().__init__()
        self.stop = stop
        self.learned = 0
        self.cut = False

    def _on_training_start(self) -> None:
        self.learned = self.model.num_timesteps

    def _on_rollout_start(self) -> None:
        self.learned = self.model.num_timesteps

    def _on_step(self) -> bool:
        if self.stop.requested:
            self.cut = True
            return False
        return True

    def _on_training_end(self) -> None:
        if not self.cut:  # the last update finished (a signal during it waited for it)
            self.learned = self.model.num_timesteps


class PeriodicCheckpoint(BaseCallback):
    """Every ``checkpoint_every_steps``: ``checkpoints/model_<steps>_steps.zip``, on multiples of
    the interval (SB3's CheckpointCallback counts calls from each ``learn()``, so a resumed run
    would drift off them)."""

    def __init__(self, config: TrainConfig, run: Path, stop: StopSignals | None = None):
        super().__init__()
        self.every = config.checkpoint_every_steps
        self.run = run
        self.stop = stop or StopSignals()
        self.next_checkpoint = self.every

    def _on_training_start(self) -> None:
        self.next_checkpoint = next_multiple(self.num_timesteps, self.every)

    def _on_step(self) -> bool:
        # once a stop is asked for, the interrupt's own checkpoint is the one that counts
        if self.num_timesteps >= self.next_checkpoint and not self.stop.requested:
            self.next_checkpoint = next_multiple(self.num_timesteps, self.every)
            self.model.save(str(checkpoint_path(self.run, self.num_timesteps)))
        return True


class SnapshotCallback(BaseCallback):
    """Every ``snapshot_every_steps``: save the learner and add it to every env's pool."""

    def __init__(self, config: TrainConfig, folder: Path, stop: StopSignals | None = None):
        super().__init__()
        self.every = config.league.snapshot_every_steps
        self.folder = folder
        self.stop = stop or StopSignals()
        self.next_snapshot = self.every

    def _on_training_start(self) -> None:
        self.next_snapshot = next_multiple(self.num_timesteps, self.every)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_snapshot and not self.stop.requested:
            self.next_snapshot += self.every
            path = self.folder / f"snapshot_{self.num_timesteps}.zip"
            self.model.save(str(path))
            self.training_env.env_method("add_snapshot_file", str(path), path.stem)
        return True


# ==========================================================================================
# Resuming
# ==========================================================================================
def steps_in_name(path: Path) -> int | None:
    """``snapshot_1280.zip`` and ``model_1280_steps.zip`` -> 1280."""
    match = re.search(r"_(\d+)(?:_steps)?$", path.stem)
    return int(match.group(1)) if match else None


def reload_snapshots(vec_env: Any, folder: Path, steps: int, keep: int) -> list[str]:
    """Put the run's snapshots taken up to ``steps`` back in every env's pool (the newest ``keep``,
    what the pool held); later ones come from training the checkpoint does not include.
    Returns the pool's snapshot names afterwards."""
    found = sorted(
        (n, path)
        for path in folder.glob("snapshot_*.zip")
        if (n := steps_in_name(path)) is not None and n <= steps
    )
    names: list[str] = []
    for _, path in found[-keep:]:
        names = vec_env.env_method("add_snapshot_file", str(path), path.stem)[0]
    return names


def keep_eval_rows(csv_path: Path, steps: int) -> int:
    """Drop eval.csv rows from after ``steps`` (training the checkpoint does not include, which
    the resumed run redoes); returns how many rows are kept."""
    if not csv_path.exists():
        return 0
    with csv_path.open(newline="") as handle:
        reader = csv.DictReader(handle)
        fields, rows = reader.fieldnames or EVAL_FIELDS, list(reader)
    kept = [row for row in rows if int(row["timesteps"]) <= steps]
    if len(kept) < len(rows):
        partial = csv_path.with_suffix(".csv.tmp")  # replaced in one step: a stop now loses nothing
        with partial.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=fields)
            writer.writeheader()
            writer.writerows(kept)
        partial.replace(csv_path)
    return len(kept)


# ==========================================================================================
# Results
# ==========================================================================================
def evaluate_and_log(
    model: Any,
    config: TrainConfig,
    csv_path: Path,
    timesteps: int,
    logger: Any = None,
    games: int | None = None,
) -> dict:
    results = evaluate_policy(
        model,
        game_factory(config),
        config.env.name,
        config.eval.opponents,
        games or config.eval.games,
        seed=eval_seed(config.seed, timesteps),
    )
    new_file = not csv_path.exists()
    with csv_path.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=EVAL_FIELDS)
        if new_file:
            writer.writeheader()
        for opponent, result in results.items():
            writer.writerow({"timesteps": timesteps, "opponent": opponent, **result_fields(result)})
            if logger is not None:
                logger.record(f"eval/win_rate_vs_{opponent}", result.win_rate)
                logger.record(f"eval/ci_low_vs_{opponent}", result.ci_low)
                logger.record(f"eval/ci_high_vs_{opponent}", result.ci_high)
    if logger is not None:
        logger.dump(timesteps)
    return results
