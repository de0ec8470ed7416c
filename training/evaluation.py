"""Win rates of a policy against the bots, with 95% confidence intervals (Wilson).

Reuses ``envs.bots.play_match`` (fair seat alternation, Wilson intervals), so a policy is
measured exactly like a bot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from envs.bots import MatchResult, get_bot, play_match

from .agents import PolicyBot


def eval_seed(seed: int, timesteps: int) -> int:
    """The first game seed of the evaluation at ``timesteps`` in a run of ``seed`` (the final
    one's too: a player judged later on the run, ``training.judge``, meets the same dice)."""
    return seed + 7919 + timesteps


def evaluate_policy(
    model: Any,
    game_factory: Callable[[], Any],
    game_name: str,
    opponents: Sequence[str],
    games: int,
    seed: int,
) -> dict[str, MatchResult]:
    """``{opponent: MatchResult}`` of the deterministic policy against each named bot."""
    learner = PolicyBot(model, name="policy")
    return {
        name: play_match(game_factory, learner, get_bot(game_name, name), games, seed=seed)
        for name in opponents
    }
