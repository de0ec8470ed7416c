"""Expert iteration during PPO: the learner imitates tree search over itself.

Every ``expert_iteration.every_steps`` learner steps, before the next rollout, the trainer
plays ``games`` games of :mod:`envs.search` over the current policy against itself (its
priors and value head guide the search, ``simulations`` per decision with a choice), records
every decision with the search's visits at the root (with ``considered``, sequential
halving's improved policy instead: ``envs.search``), and fits the policy to them: the
cross-entropy to the visits plus ``value_coef`` times the value head's squared error to each
decision's discounted final return (:func:`training.pretrain.clone` with soft targets), for
``epochs`` passes. The search is a stronger player than the policy it starts from (it looks
ahead, and its value head corrects the priors), so the policy moves toward a better one; PPO
then goes on from there. This is AlphaZero's policy target (visit counts) grafted onto PPO,
not AlphaZero: the games are few, and PPO still does most of the learning.

The next rollout is collected with the updated policy, so PPO's update stays on its own data;
PPO's optimizer state is left as it is. The games run in the trainer's process (the search
needs the live network), while the env workers wait: an iteration's time is training time,
counted by the time limit. With reward shaping the value targets subtract the potential, as
the value head learned them (``training.pretrain``), and the search adds it back
(``training.agents.PolicyEvaluator``).

Each iteration logs ``expert/*`` to TensorBoard (decisions, games, seconds, the imitation's
cross-entropy and value error) and the run's ``summary.json`` has the totals
(``expert_iteration``). Off by default; configs choose (``expert_iteration.every_steps``).
"""

from __future__ import annotations

import time
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from .agents import ModelSearchBot
from .callbacks import game_factory
from .config import TrainConfig
from .pretrain import clone, collect_search_games


class ExpertIterationCallback(BaseCallback):
    """One expert iteration every ``every_steps`` learner steps (module docstring)."""

    def __init__(self, config: TrainConfig):
        super().__init__()
        self.config = config
        self.settings = config.expert_iteration
        self.next_at = 0
        self.iterations: list[dict[str, Any]] = []

    def _on_training_start(self) -> None:
        every = self.settings.every_steps or 0
        self.next_at = (self.num_timesteps // every + 1) * every if every else 0

    def _on_rollout_start(self) -> None:
        if self.settings.every_steps and self.num_timesteps >= self.next_at:
            self.iterations.append(self.iterate())
            self.next_at += self.settings.every_steps * (
                1 + (self.num_timesteps - self.next_at) // self.settings.every_steps
            )

    def _on_step(self) -> bool:
        return True

    def iterate(self) -> dict[str, Any]:
        settings, config = self.settings, self.config
        started = time.monotonic()
        searcher = ModelSearchBot(
            self.model,
            config.env.name,
            config.reward_shaping,
            "expert",
            simulations=settings.simulations,
            batch=settings.batch,
            c_puct=settings.c_puct,
            considered=settings.considered,
            c_scale=settings.c_scale,
        )
        data = collect_search_games(
            game_factory(config),
            config.env.name,
            searcher,
            settings.games,
            seed=config.seed + 7919 * (len(self.iterations) + 1),
            gamma=config.ppo.gamma,
            max_samples=settings.max_samples,
            skip_forced=config.auto_play_forced,
            reward_shaping=config.reward_shaping,
        )
        stats = clone(
            self.model,
            data,
            settings.epochs,
            settings.batch_size,
            settings.learning_rate,
            settings.value_coef,
            seed=config.seed + len(self.iterations),
            log=lambda _text: None,
        )
        result = {
            "timesteps": self.num_timesteps,
            "decisions": len(data),
            "games": data.games,
            "searches": searcher.stats["searches"],
            "cross_entropy": round(stats["nll"], 4),
            "value_mse": round(stats["value_mse"], 4),
            "seconds": round(time.monotonic() - started, 1),
        }
        for key in ("decisions", "games", "cross_entropy", "value_mse", "seconds"):
            self.logger.record(f"expert/{key}", result[key])
        return result

    def summary(self) -> dict[str, Any]:
        return {
            "iterations": len(self.iterations),
            "decisions": sum(i["decisions"] for i in self.iterations),
            "seconds": round(sum(i["seconds"] for i in self.iterations), 1),
            "last": self.iterations[-1] if self.iterations else None,
        }
