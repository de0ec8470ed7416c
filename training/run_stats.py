"""What a training run measures about itself: throughput, how far PPO moves the policy, and a
progress bar that shows the budget that really ends the run.

* :class:`ThroughputCallback` - learner decisions/s (the samples PPO trains on) next to env
  decisions/s (every AEC step of every seat, forced learner decisions included), per rollout to
  TensorBoard (``rollout/learner_decisions_per_s``, ``rollout/env_decisions_per_s``,
  ``rollout/forced_fraction``) and for the whole run in ``summary.json``.
* :class:`UpdateStatsCallback` - SB3 logs ``train/approx_kl`` and ``train/clip_fraction`` per
  update; this keeps them for ``summary.json`` (mean, last, and the number of updates), so a
  run says whether its PPO settings moved the policy at all (a KL near 1e-4 with no clipping
  means they did not).
* :class:`BudgetProgressBar` - with a time limit, a bar over the seconds left to learn (the
  step count next to it) instead of SB3's bar over ``total_timesteps``, which a time limit
  usually cuts short (a 3-minute run showed a two-hour ETA).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback


class ThroughputCallback(BaseCallback):
    """Decisions per second of the learner and of the envs, per rollout and for the run."""

    def __init__(self) -> None:
        super().__init__()
        self.started = 0.0
        self.first_steps = 0
        self.first_env_decisions = self.first_forced = 0
        self.rollout_started = 0.0
        self.rollout_steps = 0
        self.rollout_env_decisions = self.rollout_forced = 0
        self.totals: dict[str, Any] = {}

    def _env_counts(self) -> tuple[int, int]:
        env = self.training_env
        return (int(sum(env.get_attr("env_decisions"))), int(sum(env.get_attr("forced_decisions"))))

    def _on_training_start(self) -> None:
        self.started = self.rollout_started = time.monotonic()
        self.first_steps = self.rollout_steps = self.model.num_timesteps
        self.first_env_decisions, self.first_forced = self._env_counts()
        self.rollout_env_decisions, self.rollout_forced = (
            self.first_env_decisions,
            self.first_forced,
        )

    def _on_rollout_start(self) -> None:
        self.rollout_started = time.monotonic()
        self.rollout_steps = self.model.num_timesteps
        self.rollout_env_decisions, self.rollout_forced = self._env_counts()

    def _on_rollout_end(self) -> None:
        seconds = max(time.monotonic() - self.rollout_started, 1e-9)
        env_decisions, forced = self._env_counts()
        steps = self.model.num_timesteps - self.rollout_steps
        decisions = env_decisions - self.rollout_env_decisions
        self.logger.record("rollout/learner_decisions_per_s", steps / seconds)
        self.logger.record("rollout/env_decisions_per_s", decisions / seconds)
        rollout_forced = forced - self.rollout_forced  # of this rollout, as the two rates above
        self.logger.record(
            "rollout/forced_fraction", rollout_forced / max(1, rollout_forced + steps)
        )
        self._update_totals(env_decisions, forced)

    def _on_training_end(self) -> None:
        self._update_totals(*self._env_counts())

    def _update_totals(self, env_decisions: int, forced: int) -> None:
        seconds = max(time.monotonic() - self.started, 1e-9)
        steps = self.model.num_timesteps - self.first_steps
        self.totals = {
            "learner_decisions": steps,
            "forced_decisions": forced - self.first_forced,
            "env_decisions": env_decisions - self.first_env_decisions,
            "learner_decisions_per_second": round(steps / seconds, 1),
            "env_decisions_per_second": round(
                (env_decisions - self.first_env_decisions) / seconds, 1
            ),
        }

    def _on_step(self) -> bool:
        return True


class UpdateStatsCallback(BaseCallback):
    """Collects ``train/approx_kl`` and ``train/clip_fraction`` of every PPO update.

    SB3 records them in ``train()`` and writes them out at the next rollout's log dump, so they
    are still in the logger when that rollout starts (and when learning ends)."""

    KEYS = ("train/approx_kl", "train/clip_fraction", "train/explained_variance")

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, list[float]] = {key: [] for key in self.KEYS}
        self.seen_updates = 0

    def _collect(self) -> None:
        updates = getattr(self.model, "_n_updates", 0)
        if updates == self.seen_updates:
            return
        self.seen_updates = updates
        recorded = self.logger.name_to_value
        for key in self.KEYS:
            if key in recorded:
                self.values[key].append(float(recorded[key]))

    def _on_training_start(self) -> None:
        self.seen_updates = getattr(self.model, "_n_updates", 0)

    def _on_rollout_start(self) -> None:
        self._collect()

    def _on_training_end(self) -> None:
        self._collect()

    def _on_step(self) -> bool:
        return True

    def summary(self) -> dict[str, Any]:
        kl, clip = self.values["train/approx_kl"], self.values["train/clip_fraction"]
        variance = self.values["train/explained_variance"]
        if not kl:
            return {"updates": 0}
        return {
            "updates": len(kl),
            "approx_kl_mean": float(np.mean(kl)),
            "approx_kl_last": kl[-1],
            "clip_fraction_mean": float(np.mean(clip)) if clip else None,
            "clip_fraction_last": clip[-1] if clip else None,
            "explained_variance_last": variance[-1] if variance else None,
        }


class BudgetProgressBar(BaseCallback):
    """A bar over the learning time left before ``deadline`` (monotonic seconds), with the steps
    taken out of ``total_timesteps`` beside it (whichever comes first ends the run)."""

    def __init__(self, deadline: float, total_timesteps: int):
        super().__init__()
        self.deadline = deadline
        self.total_timesteps = total_timesteps
        self.bar: Any = None
        self.shown = 0

    def _on_training_start(self) -> None:
        from tqdm.rich import tqdm  # SB3's progress bar uses the same: its extra installs it

        self.started = time.monotonic()
        self.budget = max(0, int(round(self.deadline - self.started)))
        self.bar = tqdm(
            total=self.budget, unit="s", desc=self._description()
        )  # seconds of the budget

    def _on_step(self) -> bool:
        elapsed = min(self.budget, int(time.monotonic() - self.started))
        if elapsed > self.shown:
            self.bar.update(elapsed - self.shown)
            self.shown = elapsed
            self.bar.set_description_str(
                self._description(), refresh=False
            )  # rich shows no postfix
        return True

    def _description(self) -> str:
        # short: rich drops what does not fit an 80-column line
        return f"step {self.num_timesteps}/{self.total_timesteps}"

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.set_description_str(self._description(), refresh=False)
            self.bar.refresh()
            self.bar.close()
