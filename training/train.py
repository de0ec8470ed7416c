"""Train a MaskablePPO agent by self-play from a config file.

    python -m training.train --config configs/heroica.yaml [key=value ...]

Reads and validates the config (``training.config``), then leaves in one run folder
(``run_dir/run_name``):

* ``config.yaml`` - the exact config of the run (overrides applied, n_envs resolved);
* ``checkpoints/`` - periodic model checkpoints (resume with ``resume_from=<file>``);
* ``snapshots/`` - frozen copies of the learner that join the opponent pool;
* ``tb/`` - TensorBoard logs (SB3's training curves plus ``eval/*`` win rates);
* ``eval.csv`` - win rate against each bot with its 95% Wilson interval at every evaluation;
* ``final_model.zip`` and ``final_game.mp4`` - the final policy and a game of it;
* ``summary.json`` - steps, wall time and the final win rates with their intervals (what a
  results table quotes).

The script reads top to bottom: build envs -> build or load the model -> warm start (if the
config's ``pretrain.games`` > 0: clone the heuristic bot, ``training.pretrain``, and evaluate
the clone as the eval.csv row at step 0) -> callbacks -> learn (until ``total_timesteps`` or
``time_limit_minutes``, which counts the warm start too) -> save -> final evaluation
(``eval.final_games`` per opponent) -> summary.json -> video.

Torch runs on one thread while rollouts are collected and on all threads for the gradient
updates (``RolloutThreadsCallback``).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

from envs import make
from envs.core.scenario import ScenarioError

from .agents import PolicyBot
from .config import TrainConfig, dump_config, load_config
from .evaluation import evaluate_policy
from .networks import BoardCNN
from .pretrain import pretrain
from .selfplay import LeagueSchedule, OpponentPool, SelfPlayEnv

EVAL_FIELDS = ["timesteps", "opponent", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high"]


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
        return SelfPlayEnv(name, options, pool=OpponentPool.for_game(name, schedule), seed=seed)

    return build


def game_factory(config: TrainConfig):
    name, options = config.env.name, dict(config.env.options)
    return lambda: make(name, **options).game


def next_multiple(steps: int, every: int) -> int:
    """The first multiple of ``every`` after ``steps``."""
    return (steps // every + 1) * every


class EvalCallback(BaseCallback):
    """Every ``every_steps``: win rates vs the bots, to CSV and TensorBoard."""

    def __init__(self, config: TrainConfig, csv_path: Path):
        super().__init__()
        self.config = config
        self.csv_path = csv_path
        self.next_eval = config.eval.every_steps

    def _on_training_start(self) -> None:
        # a resumed run continues the schedule instead of catching up on every missed evaluation
        self.next_eval = next_multiple(self.num_timesteps, self.config.eval.every_steps)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.next_eval += self.config.eval.every_steps
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


class SnapshotCallback(BaseCallback):
    """Every ``snapshot_every_steps``: save the learner and add it to every env's pool."""

    def __init__(self, config: TrainConfig, folder: Path):
        super().__init__()
        self.every = config.league.snapshot_every_steps
        self.folder = folder
        self.next_snapshot = self.every

    def _on_training_start(self) -> None:
        self.next_snapshot = next_multiple(self.num_timesteps, self.every)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_snapshot:
            self.next_snapshot += self.every
            path = self.folder / f"snapshot_{self.num_timesteps}.zip"
            self.model.save(str(path))
            self.training_env.env_method("add_snapshot_file", str(path), path.stem)
        return True


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


def train(config: TrainConfig) -> Path:
    run_started = time.monotonic()
    config = config.resolved()
    run = config.run_path
    for folder in (run, run / "checkpoints", run / "snapshots"):
        folder.mkdir(parents=True, exist_ok=True)
    dump_config(config, run / "config.yaml")
    n_envs = config.num_envs
    factories = [env_factory(config, rank) for rank in range(n_envs)]
    vec_env = SubprocVecEnv(factories) if n_envs > 1 else DummyVecEnv(factories)
    vec_env.seed(config.seed)
    ppo, network = config.ppo, config.network
    if config.resume_from:
        model = MaskablePPO.load(config.resume_from, env=vec_env, device=config.device,
                                 tensorboard_log=str(run / "tb"))
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
    time_limit = TimeLimitCallback(config.time_limit_minutes, run_started) if config.time_limit_minutes else None
    pretrain_stats = None
    if config.pretrain.games and not config.resume_from:
        pretrain_stats = pretrain(model, config, game_factory(config))
        evaluate_and_log(model, config, run / "eval.csv", 0)  # the cloned policy's level: row 0
    start_steps = model.num_timesteps
    callbacks = CallbackList([
        RolloutThreadsCallback(),
        *([time_limit] if time_limit else []),
        CheckpointCallback(save_freq=max(1, config.checkpoint_every_steps // n_envs),
                           save_path=str(run / "checkpoints"), name_prefix="model"),
        SnapshotCallback(config, run / "snapshots"),
        EvalCallback(config, run / "eval.csv"),
    ])
    learn_started = time.monotonic()
    model.learn(total_timesteps=config.total_timesteps, callback=callbacks, progress_bar=config.progress_bar,
                reset_num_timesteps=not config.resume_from, tb_log_name="ppo")
    learn_seconds = time.monotonic() - learn_started
    train_seconds = time.monotonic() - run_started
    vec_env.close()
    model.save(str(run / "final_model.zip"))
    results = evaluate_and_log(model, config, run / "eval.csv", model.num_timesteps,
                               games=config.eval.final_games)
    for opponent, result in results.items():
        print(f"final vs {opponent}: {result.summary()}")
    summary = {"env": config.env.name, "timesteps": model.num_timesteps,
               "train_minutes": round(train_seconds / 60, 1),
               "stopped_by_time_limit": bool(time_limit and time_limit.stopped_early),
               "steps_per_second": round((model.num_timesteps - start_steps) / max(learn_seconds, 1e-9), 1),
               "pretrain": pretrain_stats,
               "final": {name: result_fields(result) for name, result in results.items()}}
    (run / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if config.video.enabled:
        print(f"video: {record_final_game(model, config, run / 'final_game.mp4')}")
    print(f"run folder: {run}")
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.train", description=__doc__.split("\n")[0])
    parser.add_argument("--config", required=True, type=Path, help="YAML config (see configs/)")
    parser.add_argument("overrides", nargs="*", help="key=value overrides, e.g. ppo.learning_rate=1e-4")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config, args.overrides)
    except (ScenarioError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    train(config)
    return 0


if __name__ == "__main__":
    sys.exit(main())
