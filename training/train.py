"""Train a MaskablePPO agent by self-play from a config file.

    python -m training.train --config configs/heroica.yaml [key=value ...]

Reads and validates the config (``training.config``), checks what only the env or the disk can
check (``env.options``, by building the env once; ``resume_from``, that it is a saved model)
and only then creates one run folder (``run_dir/run_name``), which holds:

* ``config.yaml`` - the exact config of the run (overrides applied, n_envs resolved);
* ``checkpoints/`` - ``model_<steps>_steps.zip`` every ``checkpoint_every_steps`` and at an
  interrupt (resume with ``resume_from=<file>``);
* ``snapshots/`` - frozen copies of the learner that join the opponent pool;
* ``tb/`` - TensorBoard logs: SB3's training curves, ``eval/*`` win rates at every evaluation
  (the warm start's step-0 one and the final one included), ``pretrain/*``, and
  ``rollout/learner_decisions_per_s``, ``rollout/env_decisions_per_s`` and
  ``rollout/forced_fraction`` (``training.run_stats``);
* ``eval.csv`` - win rate against each bot with its 95% Wilson interval at every evaluation;
* ``final_model.zip`` and ``final_game.mp4`` - the final policy and a game of it;
* ``summary.json`` - steps, wall time and the final win rates with their intervals and per
  seat (what a results table quotes: ``python -m training.results <run>``), the throughput
  (learner and env decisions per second), how far PPO moved the policy (``ppo_updates``: mean
  and last approximate KL and clip fraction), expert iteration's totals (``training.expert``),
  whether the run was interrupted and what it resumed from.

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
drops it, and so are eval.csv rows from it (an evaluation at that rollout's last step may have
finished just before the signal), so the folder is what a resume continues. A second signal
stops at once the usual way. SubprocVecEnv workers ignore both signals (Ctrl-C reaches the
whole process group) and are closed by the trainer.

Resume. ``resume_from=<run>/checkpoints/model_<steps>_steps.zip`` continues that run folder,
whatever ``run_dir``/``run_name`` say (a model from outside any run folder starts a new one): it
trains up to ``total_timesteps`` counted from the run's start, not that many more, appends to
``eval.csv`` (rows from after the checkpoint's step are dropped: they came from training the
checkpoint does not include), and puts the run's snapshots up to that step back in the opponent
pool (``summary.json``'s ``resumed_from`` lists them). The warm start is not repeated.

Several seeds: ``python -m training.seeds`` trains a config once per seed and pools the results.

Torch runs on one thread while rollouts are collected and on all threads for the gradient
updates (``RolloutThreadsCallback``). The learner's forced decisions (one legal action) are
played by the env, not sampled (``auto_play_forced``). With ``time_limit_minutes`` the progress
bar counts down that budget, and the warm start takes at most ``pretrain.budget_fraction`` of it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import CallbackList
from stable_baselines3.common.utils import configure_logger
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

from envs import make
from envs.core.game import GameError, OptionError
from envs.core.scenario import ScenarioError

from .agents import PolicyBot
from .callbacks import (
    EvalCallback,
    PeriodicCheckpoint,
    RolloutThreadsCallback,
    SnapshotCallback,
    StopOnSignal,
    TimeLimitCallback,
    checkpoint_path,
    evaluate_and_log,
    game_factory,
    keep_eval_rows,
    reload_snapshots,
)
from .config import TrainConfig, dump_config, load_config, run_folder_of
from .expert import ExpertIterationCallback
from .interrupts import Interrupted, StopSignals, ignore_stop_signals
from .networks import BoardCNN, spatial_policy
from .pretrain import pretrain
from .results import VIDEO_PHASE, final_record
from .run_stats import BudgetProgressBar, ThroughputCallback, UpdateStatsCallback
from .selfplay import LeagueSchedule, OpponentPool, SelfPlayEnv
from .threads import ThreadTuner


# ==========================================================================================
# Inputs checked before a run folder exists
# ==========================================================================================
@dataclass(frozen=True)
class ResumePoint:
    """A checkpoint to resume from and the run folder it was saved in (None: outside any)."""

    checkpoint: Path
    run: Path | None


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


def check_inputs(
    config: TrainConfig, source: str = "<config>", overrides: Sequence[str] = ()
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
        field = (
            "env.max_turns"
            if option == "max_turns" and config.env.max_turns is not None
            else f"env.options.{option}"
        )
        problem = str(error).removeprefix(f"option '{option}': ")
        raise _input_error(source, overrides, field, f"{config.env.name}: {problem}") from None
    except (ScenarioError, GameError, ValueError, TypeError) as error:
        raise _input_error(
            source,
            overrides,
            "env.options",
            f"{config.env.name} rejects the options: {type(error).__name__}: {error}",
        ) from None
    if config.resume_from is None:
        return None
    path = Path(config.resume_from)
    if (
        not path.is_file()
        and path.suffix != ".zip"
        and path.with_name(path.name + ".zip").is_file()
    ):
        path = path.with_name(path.name + ".zip")  # SB3's own spelling: a model's name without .zip
    if not path.is_file():
        what = "is a folder, not a model file" if path.is_dir() else "no such file"
        raise _input_error(
            source, overrides, "resume_from", f"cannot resume from {str(path)!r}: {what}"
        )
    if not zipfile.is_zipfile(path):
        raise _input_error(
            source,
            overrides,
            "resume_from",
            f"cannot resume from {str(path)!r}: not a saved model (an SB3 .zip)",
        )
    return ResumePoint(path, run_folder_of(path))


# ==========================================================================================
# Stop signals
# ==========================================================================================
def league_schedule(config: TrainConfig) -> LeagueSchedule:
    league = config.league
    return LeagueSchedule(
        random=league.random,
        heuristic=league.heuristic,
        lookahead=league.lookahead,
        snapshots=league.snapshots,
        max_snapshots=league.max_snapshots,
    )


def env_factory(config: TrainConfig, rank: int):
    """A picklable-enough closure for SubprocVecEnv: env ``rank`` gets seed + rank."""
    name, options, seed, schedule = (
        config.env.name,
        config.env.make_kwargs(),
        config.seed + rank,
        league_schedule(config),
    )
    in_subprocess, auto_play_forced = config.num_envs > 1, config.auto_play_forced
    shaping = {"reward_shaping": config.reward_shaping, "shaping_gamma": config.ppo.gamma}

    def build() -> SelfPlayEnv:
        if in_subprocess:  # snapshot opponents predict one observation at a time: see single_thread
            torch.set_num_threads(1)
            ignore_stop_signals()
        return SelfPlayEnv(
            name,
            options,
            pool=OpponentPool.for_game(name, schedule),
            seed=seed,
            auto_play_forced=auto_play_forced,
            **shaping,
        )

    return build


def record_final_game(model: Any, config: TrainConfig, path: Path) -> Path:
    """One game of the final policy (seat 0) against the heuristic bot, filmed with the recorder."""
    from .record import record_episode

    seats = game_factory(config)().num_players
    episode = record_episode(
        config.env.name,
        [PolicyBot(model, name="final policy")] + ["heuristic"] * (seats - 1),
        seed=config.seed,
        options=config.env.make_kwargs(),
        height=config.video.height,
        max_steps=config.video.max_steps,
    )
    return episode.write(
        path, speed=config.video.speed, max_seconds=config.video.max_seconds, formats=("mp4",)
    )[0]


def policy_for(config: TrainConfig) -> tuple[Any, dict]:
    """The policy class and its kwargs for ``config.network``."""
    network = config.network
    if network.kind == "spatial":
        spatial = network.spatial
        return spatial_policy(
            config.env.name,
            config.env.make_kwargs(),
            channels=spatial.channels,
            dilations=spatial.dilations,
            scalar_dim=spatial.scalar_dim,
            head_dim=spatial.head_dim,
            global_cells=spatial.global_cells,
        )
    return "MlpPolicy", dict(
        features_extractor_class=BoardCNN,
        normalize_images=False,
        features_extractor_kwargs=dict(
            features_dim=network.features_dim,
            channels=tuple(network.cnn_channels),
            kernel_size=network.kernel_size,
        ),
        net_arch=dict(pi=list(network.net_arch.pi), vf=list(network.net_arch.vf)),
    )


def new_model(config: TrainConfig, vec_env: Any, run: Path) -> MaskablePPO:
    ppo = config.ppo
    policy, policy_kwargs = policy_for(config)
    return MaskablePPO(
        policy,
        vec_env,
        learning_rate=ppo.learning_rate,
        n_steps=ppo.n_steps,
        batch_size=ppo.batch_size,
        n_epochs=ppo.n_epochs,
        gamma=ppo.gamma,
        gae_lambda=ppo.gae_lambda,
        clip_range=ppo.clip_range,
        ent_coef=ppo.ent_coef,
        vf_coef=ppo.vf_coef,
        max_grad_norm=ppo.max_grad_norm,
        target_kl=ppo.target_kl,
        policy_kwargs=policy_kwargs,
        tensorboard_log=str(run / "tb"),
        seed=config.seed,
        device=config.device,
        verbose=0,
    )


def budget_progress_bar(
    config: TrainConfig, time_limit: TimeLimitCallback | None
) -> BudgetProgressBar | None:
    """The time-budget bar where a time limit applies (SB3's step bar otherwise)."""
    if not (config.progress_bar and time_limit is not None):
        return None
    return BudgetProgressBar(time_limit.started + time_limit.seconds, config.total_timesteps)


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
    throughput: dict | None = None
    updates: dict | None = None
    expert: dict | None = None
    threads: dict[str, ThreadTuner] = field(default_factory=dict)  # torch_threads: auto


def write_summary(
    path: Path,
    config: TrainConfig,
    progress: Progress,
    run_seconds: float,
    time_limit: TimeLimitCallback | None,
    interrupted: Interrupted | None = None,
) -> dict:
    steps = progress.model.num_timesteps if progress.model is not None else progress.start_steps
    summary = {
        "env": config.env.name,
        "timesteps": steps,
        "total_timesteps": config.total_timesteps,
        "train_minutes": round(run_seconds / 60, 1),
        "stopped_by_time_limit": bool(time_limit and time_limit.stopped_early),
        "steps_per_second": round(
            (steps - progress.start_steps) / max(progress.learn_seconds, 1e-9), 1
        ),
        "pretrain": progress.pretrain,
        "throughput": progress.throughput,
        "ppo_updates": progress.updates,
        "torch_threads": {k: t.summary() for k, t in progress.threads.items()}
        if progress.threads
        else config.torch_threads,
        "expert_iteration": progress.expert,
        "final": None
        if progress.results is None
        else {name: final_record(result) for name, result in progress.results.items()},
        "interrupted": interrupted is not None,
        "signal": None if interrupted is None else interrupted.signal_name,
        "stopped_during": None if interrupted is None else progress.phase,
        "checkpoint": None
        if interrupted is None or interrupted.checkpoint is None
        else str(interrupted.checkpoint),
        "resumed_from": progress.resumed_from,
    }
    path.write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def save_interrupted(
    interrupted: Interrupted,
    run: Path,
    config: TrainConfig,
    progress: Progress,
    run_seconds: float,
    time_limit: TimeLimitCallback | None,
) -> None:
    """What a stop signal leaves: a checkpoint to resume from, the final model and summary.json."""
    model = progress.model
    if model is not None:
        if progress.phase == "learning" and progress.learned_steps is not None:
            model.num_timesteps = progress.learned_steps
            keep_eval_rows(run / "eval.csv", model.num_timesteps)
        interrupted.checkpoint = checkpoint_path(run, model.num_timesteps)
        model.save(str(interrupted.checkpoint))
        model.save(str(run / "final_model.zip"))
    interrupted.run = run
    summary = write_summary(
        run / "summary.json", config, progress, run_seconds, time_limit, interrupted
    )
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
    # auto: the updates and the cloning pick their count by timing it (training.threads);
    # a fixed count is set once, and RolloutThreadsCallback restores it for each update
    tuners = (  # both made before any count is set: each tries torch's default and one
        {"cloning": ThreadTuner(), "updates": ThreadTuner()}
        if config.torch_threads == "auto"
        else {}
    )
    if isinstance(config.torch_threads, int):
        torch.set_num_threads(config.torch_threads)
    progress = Progress(threads=tuners)
    time_limit = (
        TimeLimitCallback(config.time_limit_minutes, run_started)
        if config.time_limit_minutes
        else None
    )
    vec_env = None
    try:
        with StopSignals() as stop:
            with stop.deferred():  # a SubprocVecEnv interrupted while starting could not be closed
                factories = [env_factory(config, rank) for rank in range(n_envs)]
                # VecMonitor: episode returns and lengths for rollout/ep_rew_mean and ep_len_mean
                vec_env = VecMonitor(
                    SubprocVecEnv(factories) if n_envs > 1 else DummyVecEnv(factories)
                )
            stop.check()
            vec_env.seed(config.seed)
            if resume is not None:
                model = MaskablePPO.load(
                    resume.checkpoint,
                    env=vec_env,
                    device=config.device,
                    tensorboard_log=str(run / "tb"),
                )
                progress.start_steps = model.num_timesteps
                pool = reload_snapshots(
                    vec_env, run / "snapshots", model.num_timesteps, config.league.max_snapshots
                )
                kept = keep_eval_rows(run / "eval.csv", model.num_timesteps)
                progress.resumed_from = {
                    "checkpoint": str(resume.checkpoint),
                    "timesteps": model.num_timesteps,
                    "opponent_pool": pool,
                    "eval_rows_kept": kept,
                }
                print(
                    f"resuming {run} at step {model.num_timesteps} of {config.total_timesteps} from "
                    f"{resume.checkpoint}; opponent pool snapshots: {', '.join(pool) or 'none'}; "
                    f"eval.csv rows kept: {kept}"
                )
            else:
                model = new_model(config, vec_env, run)
            progress.model = model
            # the run's own TensorBoard logger from the start (the one learn() would make), so that
            # the warm start and the step-0 and final evaluations are in TensorBoard too
            model.set_logger(
                configure_logger(0, str(run / "tb"), "ppo", reset_num_timesteps=resume is None)
            )
            if config.pretrain.games and resume is None:
                progress.phase = "warm start"
                progress.pretrain = pretrain(
                    model, config, game_factory(config), run_started, tuners.get("cloning")
                )
                for key in ("accuracy", "nll", "value_mse", "samples", "seconds"):
                    model.logger.record(f"pretrain/{key}", progress.pretrain[key])
                # the cloned policy's level: eval.csv row 0 (and the pretrain scalars, at step 0)
                evaluate_and_log(model, config, run / "eval.csv", 0, logger=model.logger)
            progress.phase = "learning"
            stopper, throughput, updates, expert = (
                StopOnSignal(stop),
                ThroughputCallback(),
                UpdateStatsCallback(),
                ExpertIterationCallback(config),
            )
            # learn() counts on from a loaded model's steps: ask only for what is left
            remaining = config.total_timesteps - model.num_timesteps
            bar = budget_progress_bar(config, time_limit)
            callbacks = CallbackList(
                [
                    stopper,
                    RolloutThreadsCallback(tuners.get("updates")),
                    throughput,
                    updates,
                    *([time_limit] if time_limit else []),
                    *([bar] if bar else []),
                    PeriodicCheckpoint(config, run, stop),
                    SnapshotCallback(config, run / "snapshots", stop),
                    EvalCallback(config, run / "eval.csv", stop),
                    *([expert] if config.expert_iteration.every_steps else []),
                ]
            )
            learn_started = time.monotonic()
            try:
                with stop.deferred():
                    if remaining > 0:
                        model.learn(
                            total_timesteps=remaining,
                            callback=callbacks,
                            progress_bar=config.progress_bar and bar is None,
                            reset_num_timesteps=resume is None,
                            tb_log_name="ppo",
                        )
            finally:  # also when a stop cut an evaluation short, out of the middle of learn()
                progress.learn_seconds = time.monotonic() - learn_started
                progress.learned_steps = stopper.learned if remaining > 0 else model.num_timesteps
                progress.throughput, progress.updates = throughput.totals or None, updates.summary()
                progress.expert = expert.summary() if config.expert_iteration.every_steps else None
            stop.check()
            progress.phase = "final evaluation"
            vec_env.close()
            vec_env = None
            model.save(str(run / "final_model.zip"))
            progress.results = evaluate_and_log(
                model,
                config,
                run / "eval.csv",
                model.num_timesteps,
                logger=model.logger,
                games=config.eval.final_games,
            )
            for opponent, result in progress.results.items():
                print(f"final vs {opponent}: {result.summary()}")
            write_summary(
                run / "summary.json", config, progress, time.monotonic() - run_started, time_limit
            )
            if config.video.enabled:
                progress.phase = VIDEO_PHASE
                print(f"video: {record_final_game(model, config, run / 'final_game.mp4')}")
    except Interrupted as interrupted:
        save_interrupted(
            interrupted, run, config, progress, time.monotonic() - run_started, time_limit
        )
        raise
    finally:
        if vec_env is not None:
            vec_env.close()
    print(f"run folder: {run}")
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.train", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--config", required=True, type=Path, help="YAML config (see configs/)")
    parser.add_argument(
        "overrides", nargs="*", help="key=value overrides, e.g. ppo.learning_rate=1e-4"
    )
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
