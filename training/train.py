"""Train a MaskablePPO agent by self-play from a config file.

    python -m training.train --config configs/heroica.yaml [key=value ...]

Reads and validates the config (``training.config``), checks what only the env or the disk can
check (``env.options``, by building the env once; ``resume_from``, that it is a saved model)
and only then creates one run folder (``run_dir/run_name``), which holds:

* ``config.yaml`` - the exact config of the run (overrides applied, n_envs resolved);
* ``checkpoints/`` - ``model_<steps>_steps.zip`` every ``checkpoint_every_steps`` and at an
  interrupt (resume with ``resume_from=<file>``);
* ``snapshots/`` - frozen copies of the learner that join the opponent pool;
* ``tb/`` - TensorBoard logs (SB3's training curves plus ``eval/*`` win rates);
* ``eval.csv`` - win rate against each bot with its 95% Wilson interval at every evaluation;
* ``final_model.zip`` and ``final_game.mp4`` - the final policy and a game of it;
* ``summary.json`` - steps, wall time and the final win rates with their intervals (what a
  results table quotes), whether the run was interrupted and what it resumed from.

The script reads top to bottom: check inputs -> build envs -> build or load the model -> warm
start (if the config's ``pretrain.games`` > 0: clone the heuristic bot, ``training.pretrain``,
and evaluate the clone as the eval.csv row at step 0) -> callbacks -> learn (until
``total_timesteps`` or ``time_limit_minutes``, which counts the warm start too) -> save -> final
evaluation (``eval.final_games`` per opponent) -> summary.json -> video.

Interrupts. SIGINT (Ctrl-C) or SIGTERM stops the run cleanly: learning ends at the next env step
(a gradient update under way is finished first; an evaluation is cut short), then the run saves
``checkpoints/model_<steps>_steps.zip``, ``final_model.zip`` and ``summary.json`` (``interrupted``
true, the ``signal``, the phase it ``stopped_during``, the ``checkpoint``; ``final`` null unless
the final evaluation had finished: what is left of it and the video are skipped so that the stop
takes seconds) and exits with 128 + the signal number (130 for SIGINT, 143 for SIGTERM). The
steps saved are those the weights have learned from: the rollout cut short is dropped, as SB3
drops it. A second signal stops at once the usual way. SubprocVecEnv workers ignore both
signals (Ctrl-C reaches the whole process group) and are closed by the trainer.

Resume. ``resume_from=<run>/checkpoints/model_<steps>_steps.zip`` continues that run folder,
whatever ``run_dir``/``run_name`` say (a model from outside any run folder starts a new one): it
trains up to ``total_timesteps`` counted from the run's start, not that many more, appends to
``eval.csv`` (rows from after the checkpoint's step are dropped: they came from training the
checkpoint does not include), and puts the run's snapshots up to that step back in the opponent
pool (``summary.json``'s ``resumed_from`` lists them). The warm start is not repeated.

Torch runs on one thread while rollouts are collected and on all threads for the gradient
updates (``RolloutThreadsCallback``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import re
import signal
import sys
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

from envs import make
from envs.core.game import GameError, OptionError
from envs.core.scenario import ScenarioError

from .agents import PolicyBot
from .config import TrainConfig, dump_config, load_config
from .evaluation import evaluate_policy
from .networks import BoardCNN
from .pretrain import pretrain
from .selfplay import LeagueSchedule, OpponentPool, SelfPlayEnv

EVAL_FIELDS = ["timesteps", "opponent", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high"]


# ==========================================================================================
# Inputs checked before a run folder exists
# ==========================================================================================
@dataclass(frozen=True)
class ResumePoint:
    """A checkpoint to resume from and the run folder it was saved in (None: outside any)."""

    checkpoint: Path
    run: Path | None


def run_folder_of(path: Path) -> Path | None:
    """The run folder holding ``path`` (``<run>/checkpoints/x.zip``, ``<run>/snapshots/x.zip`` or
    ``<run>/final_model.zip``): the nearest folder above it with a ``config.yaml``."""
    for folder in (path.parent.parent, path.parent):
        if (folder / "config.yaml").is_file():
            return folder
    return None


def _one_line(text: str) -> str:
    return "; ".join(part.strip() for part in str(text).splitlines() if part.strip())


def _input_error(source: str, overrides: Sequence[str], field: str, problem: str) -> ScenarioError:
    """An error on ``field``, naming the override that set it if one did (as config errors do)."""
    for text in overrides:
        key = text.partition("=")[0].strip()
        if key == field or field.startswith(key + ".") or key.startswith(field + "."):
            problem = f"override {text!r}: {problem}"
            break
    return ScenarioError(source, _one_line(problem), field=field)


def check_inputs(config: TrainConfig, source: str = "<config>", overrides: Sequence[str] = ()
                 ) -> ResumePoint | None:
    """What the config schema cannot check, checked before anything is written: that the env
    accepts ``env.options`` (it is built once) and that ``resume_from`` is a saved model.

    Raises :class:`ScenarioError` naming ``source``, the field and the problem; returns where a
    resumed run starts, or None for a fresh run.
    """
    try:
        make(config.env.name, **config.env.make_kwargs()).close()
    except OptionError as error:
        option = error.option
        field = "env.max_turns" if option == "max_turns" and config.env.max_turns is not None \
            else f"env.options.{option}"
        problem = str(error).removeprefix(f"option '{option}': ")
        raise _input_error(source, overrides, field, f"{config.env.name}: {problem}") from None
    except (ScenarioError, GameError, ValueError, TypeError) as error:
        raise _input_error(source, overrides, "env.options",
                           f"{config.env.name} rejects the options: {type(error).__name__}: {error}") from None
    if config.resume_from is None:
        return None
    path = Path(config.resume_from)
    if not path.is_file() and path.suffix != ".zip" and path.with_name(path.name + ".zip").is_file():
        path = path.with_name(path.name + ".zip")  # SB3's own spelling: a model's name without .zip
    if not path.is_file():
        what = "is a folder, not a model file" if path.is_dir() else "no such file"
        raise _input_error(source, overrides, "resume_from", f"cannot resume from {str(path)!r}: {what}")
    if not zipfile.is_zipfile(path):
        raise _input_error(source, overrides, "resume_from",
                           f"cannot resume from {str(path)!r}: not a saved model (an SB3 .zip)")
    return ResumePoint(path, run_folder_of(path))


# ==========================================================================================
# Stop signals
# ==========================================================================================
class Interrupted(KeyboardInterrupt):
    """The run was stopped by SIGINT or SIGTERM. Once ``train`` has saved what it had, ``run``,
    ``timesteps`` and ``checkpoint`` say where; ``exit_code`` is the shell's 128 + signal."""

    def __init__(self, signum: int):
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum
        self.signal_name = signal.Signals(signum).name
        self.run: Path | None = None
        self.timesteps: int | None = None
        self.checkpoint: Path | None = None

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    def report(self) -> str:
        if self.checkpoint is None:
            return f"interrupted by {self.signal_name} before the model existed; nothing to resume from"
        return (f"interrupted by {self.signal_name} at step {self.timesteps}: saved {self.checkpoint}, "
                f"final_model.zip and summary.json in {self.run}; continue with resume_from={self.checkpoint}")


class StopSignals:
    """SIGINT and SIGTERM as a request to stop the run cleanly, while ``with``-entered.

    The first signal is recorded in ``signum`` and puts the previous handlers back, so that a
    second one stops the process the usual way: a clean stop that hangs can still be forced.
    Outside :meth:`deferred` blocks the first signal raises :class:`Interrupted` at once; inside
    them (PPO's rollouts and updates) an exception could leave a half-made optimizer step or
    SubprocVecEnv behind, so the signal is only recorded: :class:`StopOnSignal` ends ``learn()``
    at the next env step and :meth:`check` raises afterwards. A signal ignored when the run
    started (``nohup``, a shell's background job) stays ignored. Signal handlers belong to the
    main thread, so elsewhere this does nothing.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.signum: int | None = None
        self._deferred = 0
        self._previous: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return self.signum is not None

    def __enter__(self) -> "StopSignals":
        if threading.current_thread() is threading.main_thread():
            for signum in self.SIGNALS:
                if signal.getsignal(signum) is not signal.SIG_IGN:
                    self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._restore()

    def _restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        self._previous = {}

    def _handle(self, signum: int, frame: Any) -> None:
        self.signum = signum
        self._restore()
        if not self._deferred:
            raise Interrupted(signum)

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        self._deferred += 1
        try:
            yield
        finally:
            self._deferred -= 1

    @contextlib.contextmanager
    def immediate(self) -> Iterator[None]:
        """Inside a :meth:`deferred` block: work that a stop may cut short (an evaluation)."""
        deferred, self._deferred = self._deferred, 0
        try:
            yield
        finally:
            self._deferred = deferred

    def check(self) -> None:
        if self.signum is not None:
            raise Interrupted(self.signum)


def ignore_stop_signals() -> None:
    """For SubprocVecEnv workers: a terminal's Ctrl-C reaches the whole process group (and so may a
    service manager's SIGTERM), and SB3's worker loop quits on KeyboardInterrupt, which would take
    the env away from the trainer's clean stop. The trainer closes its workers itself."""
    for signum in StopSignals.SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


def league_schedule(config: TrainConfig) -> LeagueSchedule:
    league = config.league
    return LeagueSchedule(random=league.random, heuristic=league.heuristic,
                          snapshots=league.snapshots, max_snapshots=league.max_snapshots)


def env_factory(config: TrainConfig, rank: int):
    """A picklable-enough closure for SubprocVecEnv: env ``rank`` gets seed + rank."""
    name, options, seed, schedule = config.env.name, config.env.make_kwargs(), config.seed + rank, league_schedule(config)
    in_subprocess = config.num_envs > 1

    def build() -> SelfPlayEnv:
        if in_subprocess:  # snapshot opponents predict one observation at a time: see single_thread
            torch.set_num_threads(1)
            ignore_stop_signals()
        return SelfPlayEnv(name, options, pool=OpponentPool.for_game(name, schedule), seed=seed)

    return build


def game_factory(config: TrainConfig):
    name, options = config.env.name, dict(config.env.options)
    return lambda: make(name, **options).game


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
                evaluate_and_log(self.model, self.config, self.csv_path, self.num_timesteps, self.logger)
        return True


class RolloutThreadsCallback(BaseCallback):
    """Torch on one thread while collecting rollouts (and evaluating), all threads for updates.

    A rollout step predicts for ``n_envs`` observations at once, too little work to split,
    while the env workers need the cores; idle torch threads spinning between those tiny
    calls steal them (see ``training.agents.single_thread``). Gradient updates on 256-sample
    minibatches do gain from every core, and the workers are idle then.
    """

    def __init__(self) -> None:
        super().__init__()
        self.update_threads = torch.get_num_threads()

    def _on_rollout_start(self) -> None:
        self.update_threads = torch.get_num_threads()
        torch.set_num_threads(1)

    def _on_rollout_end(self) -> None:
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
    found = sorted((n, path) for path in folder.glob("snapshot_*.zip")
                   if (n := steps_in_name(path)) is not None and n <= steps)
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
def result_fields(result: Any) -> dict[str, Any]:
    """A MatchResult as eval.csv and summary.json record it (rates to 4 decimals)."""
    return {"games": result.games, "wins": result.wins, "draws": result.draws, "losses": result.losses,
            "win_rate": round(result.win_rate, 4), "ci_low": round(result.ci_low, 4),
            "ci_high": round(result.ci_high, 4)}


def evaluate_and_log(model: Any, config: TrainConfig, csv_path: Path, timesteps: int, logger: Any = None,
                     games: int | None = None) -> dict:
    results = evaluate_policy(model, game_factory(config), config.env.name, config.eval.opponents,
                              games or config.eval.games, seed=config.seed + 7919 + timesteps)
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


def record_final_game(model: Any, config: TrainConfig, path: Path) -> Path:
    """One game of the final policy (seat 0) against the heuristic bot, filmed with the recorder."""
    from .record import record_episode

    seats = game_factory(config)().num_players
    episode = record_episode(config.env.name, [PolicyBot(model, name="final policy")] + ["heuristic"] * (seats - 1),
                             seed=config.seed, options=config.env.make_kwargs(), height=config.video.height,
                             max_steps=config.video.max_steps)
    return episode.write(path, fps=config.video.fps, formats=("mp4",))[0]


@dataclass
class Progress:
    """How far the run got: what an interrupt saves and summary.json reports."""

    phase: str = "setup"
    model: Any = None
    start_steps: int = 0
    learned_steps: int | None = None  # after learn(): the steps the weights have learned from
    learn_seconds: float = 0.0
    pretrain: dict | None = None
    resumed_from: dict | None = None
    results: dict | None = None


def write_summary(path: Path, config: TrainConfig, progress: Progress, run_seconds: float,
                  time_limit: TimeLimitCallback | None, interrupted: Interrupted | None = None) -> dict:
    steps = progress.model.num_timesteps if progress.model is not None else progress.start_steps
    summary = {"env": config.env.name, "timesteps": steps, "total_timesteps": config.total_timesteps,
               "train_minutes": round(run_seconds / 60, 1),
               "stopped_by_time_limit": bool(time_limit and time_limit.stopped_early),
               "steps_per_second": round((steps - progress.start_steps) / max(progress.learn_seconds, 1e-9), 1),
               "pretrain": progress.pretrain,
               "final": None if progress.results is None else
               {name: result_fields(result) for name, result in progress.results.items()},
               "interrupted": interrupted is not None,
               "signal": None if interrupted is None else interrupted.signal_name,
               "stopped_during": None if interrupted is None else progress.phase,
               "checkpoint": None if interrupted is None or interrupted.checkpoint is None
               else str(interrupted.checkpoint),
               "resumed_from": progress.resumed_from}
    path.write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def save_interrupted(interrupted: Interrupted, run: Path, config: TrainConfig, progress: Progress,
                     run_seconds: float, time_limit: TimeLimitCallback | None) -> None:
    """What a stop signal leaves: a checkpoint to resume from, the final model and summary.json."""
    model = progress.model
    if model is not None:
        if progress.phase == "learning" and progress.learned_steps is not None:
            model.num_timesteps = progress.learned_steps
        interrupted.checkpoint = checkpoint_path(run, model.num_timesteps)
        model.save(str(interrupted.checkpoint))
        model.save(str(run / "final_model.zip"))
    interrupted.run = run
    summary = write_summary(run / "summary.json", config, progress, run_seconds, time_limit, interrupted)
    interrupted.timesteps = summary["timesteps"]


# ==========================================================================================
# The run
# ==========================================================================================
def train(config: TrainConfig) -> Path:
    """Run the config; returns the run folder. On SIGINT/SIGTERM: saves, then raises
    :class:`Interrupted`. Bad ``env.options`` or ``resume_from``: :class:`ScenarioError`, before
    any folder is made."""
    run_started = time.monotonic()
    config = config.resolved()
    resume = check_inputs(config)
    run = resume.run if resume is not None and resume.run is not None else config.run_path
    # the stored config names the folder the run is really in, so it reloads into that folder
    config = config.model_copy(update={"run_dir": str(run.parent), "run_name": run.name})
    for folder in (run, run / "checkpoints", run / "snapshots"):
        folder.mkdir(parents=True, exist_ok=True)
    dump_config(config, run / "config.yaml")
    n_envs = config.num_envs
    progress = Progress()
    time_limit = TimeLimitCallback(config.time_limit_minutes, run_started) if config.time_limit_minutes else None
    vec_env = None
    try:
        with StopSignals() as stop:
            with stop.deferred():  # a SubprocVecEnv interrupted while starting could not be closed
                factories = [env_factory(config, rank) for rank in range(n_envs)]
                # VecMonitor: episode returns and lengths for rollout/ep_rew_mean and ep_len_mean
                vec_env = VecMonitor(SubprocVecEnv(factories) if n_envs > 1 else DummyVecEnv(factories))
            stop.check()
            vec_env.seed(config.seed)
            ppo, network = config.ppo, config.network
            if resume is not None:
                model = MaskablePPO.load(resume.checkpoint, env=vec_env, device=config.device,
                                         tensorboard_log=str(run / "tb"))
                progress.start_steps = model.num_timesteps
                pool = reload_snapshots(vec_env, run / "snapshots", model.num_timesteps, config.league.max_snapshots)
                kept = keep_eval_rows(run / "eval.csv", model.num_timesteps)
                progress.resumed_from = {"checkpoint": str(resume.checkpoint), "timesteps": model.num_timesteps,
                                         "opponent_pool": pool, "eval_rows_kept": kept}
                print(f"resuming {run} at step {model.num_timesteps} of {config.total_timesteps} from "
                      f"{resume.checkpoint}; opponent pool snapshots: {', '.join(pool) or 'none'}; "
                      f"eval.csv rows kept: {kept}")
            else:
                policy_kwargs = dict(features_extractor_class=BoardCNN, normalize_images=False,
                                     features_extractor_kwargs=dict(features_dim=network.features_dim,
                                                                    channels=tuple(network.cnn_channels),
                                                                    kernel_size=network.kernel_size),
                                     net_arch=dict(pi=list(network.net_arch.pi), vf=list(network.net_arch.vf)))
                model = MaskablePPO("MlpPolicy", vec_env, learning_rate=ppo.learning_rate, n_steps=ppo.n_steps,
                                    batch_size=ppo.batch_size, n_epochs=ppo.n_epochs, gamma=ppo.gamma,
                                    gae_lambda=ppo.gae_lambda, clip_range=ppo.clip_range, ent_coef=ppo.ent_coef,
                                    vf_coef=ppo.vf_coef, max_grad_norm=ppo.max_grad_norm,
                                    policy_kwargs=policy_kwargs, tensorboard_log=str(run / "tb"),
                                    seed=config.seed, device=config.device, verbose=0)
            progress.model = model
            if config.pretrain.games and resume is None:
                progress.phase = "warm start"
                progress.pretrain = pretrain(model, config, game_factory(config))
                evaluate_and_log(model, config, run / "eval.csv", 0)  # the cloned policy's level: row 0
            progress.phase = "learning"
            stopper = StopOnSignal(stop)
            callbacks = CallbackList([
                stopper,
                RolloutThreadsCallback(),
                *([time_limit] if time_limit else []),
                PeriodicCheckpoint(config, run, stop),
                SnapshotCallback(config, run / "snapshots", stop),
                EvalCallback(config, run / "eval.csv", stop),
            ])
            # learn() counts on from a loaded model's steps: ask only for what is left
            remaining = config.total_timesteps - model.num_timesteps
            learn_started = time.monotonic()
            try:
                with stop.deferred():
                    if remaining > 0:
                        model.learn(total_timesteps=remaining, callback=callbacks, progress_bar=config.progress_bar,
                                    reset_num_timesteps=resume is None, tb_log_name="ppo")
            finally:  # also when a stop cut an evaluation short, out of the middle of learn()
                progress.learn_seconds = time.monotonic() - learn_started
                progress.learned_steps = stopper.learned if remaining > 0 else model.num_timesteps
            stop.check()
            progress.phase = "final evaluation"
            vec_env.close()
            vec_env = None
            model.save(str(run / "final_model.zip"))
            progress.results = evaluate_and_log(model, config, run / "eval.csv", model.num_timesteps,
                                                games=config.eval.final_games)
            for opponent, result in progress.results.items():
                print(f"final vs {opponent}: {result.summary()}")
            write_summary(run / "summary.json", config, progress, time.monotonic() - run_started, time_limit)
            if config.video.enabled:
                progress.phase = "video"
                print(f"video: {record_final_game(model, config, run / 'final_game.mp4')}")
    except Interrupted as interrupted:
        save_interrupted(interrupted, run, config, progress, time.monotonic() - run_started, time_limit)
        raise
    finally:
        if vec_env is not None:
            vec_env.close()
    print(f"run folder: {run}")
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.split("\n")[0])
    parser.add_argument("--config", required=True, type=Path, help="YAML config (see configs/)")
    parser.add_argument("overrides", nargs="*", help="key=value overrides, e.g. ppo.learning_rate=1e-4")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config, args.overrides)
        check_inputs(config, str(args.config), args.overrides)
    except (ScenarioError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        train(config)
    except Interrupted as stopped:
        print(stopped.report(), file=sys.stderr)
        return stopped.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
