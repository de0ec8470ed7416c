"""Multi-agent PPO with action masking on Ray RLlib, for any heroarena env.

    pip install -e '.[rllib]'                                   # ray[rllib], same environment
    python -m training.rllib --config configs/rllib_heroica.yaml [key=value ...]

Locally (the default, ``ray.address: null``) it starts a Ray instance inside the process. On a
cluster: start one (``ray start --head --port=6379`` on the head machine, ``ray start
--address=<head>:6379`` on each worker) and point the trainer at it with ``ray.address=auto``
(run on a cluster machine) or ``ray.address=ray://<head>:10001`` (Ray Client, from elsewhere;
``ray.ship_code=true`` uploads ``envs`` and ``training`` when the nodes lack this project). More
env runners (``runners.num_env_runners``) sample in parallel on the cluster's CPUs.

What it trains: one shared policy (``shared``) for every seat the learner plays. Episodes are
self-play (the policy on every seat) or games against the heuristic or random bot, drawn with
the ``league`` weights (``training.rllib_env``: the bots play inside the env, as fixed
policies). The policy is RLlib's action-masking PPO module over the env's
``obs_format="rllib"`` observations (``{"observations": (H, W, C), "action_mask": (N,)}``) with
RLlib's CNN encoder (``model.conv_filters``). RLlib's env pre-check is off: it steps random
actions, which are illegal in a masked game; ``tests/training/test_rllib.py`` checks the env.

The run folder (``run_dir/run_name``) gets ``config.yaml``, ``progress.csv`` (one row per
iteration: env steps, episodes, mean return, KL, entropy, seconds), ``checkpoint/`` (RLlib's
``algo.save``; ``Algorithm.from_checkpoint`` restores it) and ``summary.json`` with the final
win rates against the bots (``eval.games`` each, seats alternating, 95% Wilson intervals).

A bad config or bad env options fail before any run folder exists (exit 2, one line).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from envs import make
from envs.bots import MatchResult, get_bot, play_match
from envs.core.game import GameError
from envs.core.scenario import ScenarioError
from envs.match import game_factory
from envs.pettingzoo_env import rllib_observation

from .rllib_config import RllibConfig, dump_rllib_config, load_rllib_config

POLICY = "shared"
PROGRESS_FIELDS = [
    "iteration",
    "env_steps",
    "episodes",
    "episode_return_mean",
    "kl",
    "entropy",
    "seconds",
]


class RllibPolicyBot:
    """A trained RLlib module as a bot (``act(game, state, rng)``): the masked argmax."""

    def __init__(self, module: Any, name: str = "rllib"):
        self.module = module
        self.name = name

    def act(self, game: Any, state: Any, rng: np.random.Generator) -> int:
        import torch
        from ray.rllib.core.columns import Columns

        obs = rllib_observation(
            game.observe(state, game.current_player(state)), game.legal_mask(state)
        )
        batch = {Columns.OBS: {key: torch.from_numpy(value[None]) for key, value in obs.items()}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
        logits = np.where(obs["action_mask"] > 0, logits, -np.inf)
        return int(np.argmax(logits))


def env_config(config: RllibConfig) -> dict[str, Any]:
    return {
        "name": config.env.name,
        "options": dict(config.env.options),
        "max_turns": config.env.max_turns,
        "seed": config.seed,
        "league": config.league.model_dump(),
    }


def algorithm_config(config: RllibConfig) -> Any:
    """The RLlib ``PPOConfig`` a heroarena config stands for."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    from .rllib_env import HeroarenaMultiAgentEnv

    register_env("heroarena", HeroarenaMultiAgentEnv)
    model = {
        "conv_filters": [[c, [k, k], s] for c, k, s in config.model.conv_filters],
        "head_fcnet_hiddens": list(config.model.head_hiddens),
    }
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model)
    ppo = config.ppo
    return (
        PPOConfig()
        .environment("heroarena", env_config=env_config(config), disable_env_checking=True)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent, episode, **kw: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: module}))
        .env_runners(
            num_env_runners=config.runners.num_env_runners,
            num_envs_per_env_runner=config.runners.envs_per_runner,
        )
        .training(
            lr=ppo.lr,
            gamma=ppo.gamma,
            lambda_=ppo.lambda_,
            clip_param=ppo.clip_param,
            entropy_coeff=ppo.entropy_coeff,
            vf_loss_coeff=ppo.vf_loss_coeff,
            train_batch_size_per_learner=ppo.train_batch_size,
            minibatch_size=ppo.minibatch_size,
            num_epochs=ppo.num_epochs,
        )
        .debugging(seed=config.seed)
    )


def progress_row(iteration: int, result: dict[str, Any], seconds: float) -> dict[str, Any]:
    runners = result.get("env_runners", {})
    learner = result.get("learners", {}).get(POLICY, {})
    return {
        "iteration": iteration,
        "env_steps": int(
            result.get(
                "num_env_steps_sampled_lifetime", runners.get("num_env_steps_sampled_lifetime", 0)
            )
        ),
        "episodes": int(runners.get("num_episodes_lifetime", 0)),
        "episode_return_mean": runners.get("episode_return_mean"),
        "kl": learner.get("mean_kl_loss"),
        "entropy": learner.get("entropy"),
        "seconds": round(seconds, 1),
    }


def evaluate(module: Any, config: RllibConfig) -> dict[str, MatchResult]:
    factory = game_factory(config.env.name, dict(config.env.options))
    learner = RllibPolicyBot(module)
    return {
        name: play_match(
            factory,
            learner,
            get_bot(config.env.name, name),
            config.eval.games,
            seed=config.seed + 1,
        )
        for name in config.eval.opponents
    }


def start_ray(config: RllibConfig) -> None:
    import ray

    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if config.ray.address is None:
        kwargs["num_cpus"] = config.ray.num_cpus
    else:
        kwargs["address"] = config.ray.address
    if config.ray.ship_code:
        root = Path(__file__).resolve().parent.parent
        kwargs["runtime_env"] = {"py_modules": [str(root / "envs"), str(root / "training")]}
    ray.init(**kwargs)


def train(config: RllibConfig) -> dict[str, Any]:
    """Run the configured iterations; returns the summary (also written to summary.json)."""
    import ray

    run = config.run_path
    run.mkdir(parents=True, exist_ok=False)
    dump_rllib_config(config, run / "config.yaml")
    start_ray(config)
    started = time.monotonic()
    try:
        algo = algorithm_config(config).build_algo()
        rows: list[dict[str, Any]] = []
        with open(run / "progress.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=PROGRESS_FIELDS)
            writer.writeheader()
            for iteration in range(1, config.iterations + 1):
                result = algo.train()
                rows.append(progress_row(iteration, result, time.monotonic() - started))
                writer.writerow(rows[-1])
                handle.flush()
                print(
                    f"iteration {iteration}: {rows[-1]['env_steps']} env steps, mean return "
                    f"{rows[-1]['episode_return_mean']}",
                    flush=True,
                )
                limit = config.time_limit_minutes
                if limit is not None and time.monotonic() - started > limit * 60:
                    break
        checkpoint = algo.save(str((run / "checkpoint").resolve()))
        results = evaluate(algo.get_module(POLICY), config)
        algo.stop()
    finally:
        ray.shutdown()
    summary = {
        "env": config.env.name,
        "iterations": len(rows),
        "env_steps": rows[-1]["env_steps"] if rows else 0,
        "wall_seconds": round(time.monotonic() - started, 1),
        "checkpoint": str(getattr(checkpoint, "checkpoint", checkpoint)),
        "win_rates": {name: result.to_dict() for name, result in results.items()},
    }
    (run / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return summary


def check_inputs(config: RllibConfig) -> None:
    """Fail before the run folder exists: the env must build, Ray must be installed."""
    make(config.env.name, obs_format="rllib", **config.env.make_kwargs())
    if config.run_path.exists():
        raise ScenarioError(
            "run_name", f"run folder {config.run_path} already exists; choose another run_name"
        )
    try:
        import ray  # noqa: F401
    except ImportError:
        raise GameError("ray[rllib] is not installed: pip install -e '.[rllib]'") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.rllib", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--config", required=True, help="configs/rllib_<game>.yaml")
    parser.add_argument("overrides", nargs="*", help="key=value overrides, e.g. iterations=2")
    args = parser.parse_args(argv)
    try:
        config = load_rllib_config(args.config, args.overrides)
        check_inputs(config)
    except (ScenarioError, GameError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    summary = train(config)
    for name, result in summary["win_rates"].items():
        print(
            f"vs {name}: {result['win_rate']:.3f} [{result['ci_low']:.3f}, {result['ci_high']:.3f}] "
            f"over {result['games']} games"
        )
    print(f"run folder: {config.run_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
