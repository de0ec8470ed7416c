"""Expert iteration (training.expert): search over the learner's policy as its teacher."""

from __future__ import annotations

import json

import numpy as np
import pytest

from envs.match import game_class
from training.agents import ModelSearchBot
from training.pretrain import clone, collect_search_games
from training.train import main as train_main


@pytest.fixture(scope="module")
def model():
    from sb3_contrib import MaskablePPO

    from training.networks import spatial_policy
    from training.selfplay import SelfPlayEnv

    policy, kwargs = spatial_policy("heroica_v0", {})
    env = SelfPlayEnv("heroica_v0", {"max_rounds": 6}, seed=0)
    return MaskablePPO(
        policy, env, n_steps=16, batch_size=16, device="cpu", policy_kwargs=kwargs, seed=0
    )


def search_games(model, **budget):
    searcher = ModelSearchBot(model, "heroica_v0", 0.0, "expert", **budget)
    data = collect_search_games(
        lambda: game_class("heroica_v0")(max_rounds=6),
        "heroica_v0",
        searcher,
        games=2,
        seed=0,
        gamma=0.99,
        max_samples=400,
        skip_forced=True,
    )
    return data, searcher


def test_search_games_record_the_visits_as_targets_over_legal_actions(model):
    data, searcher = search_games(model, simulations=6)
    assert data.games == 2 and len(data) > 0 and data.policies.shape == data.masks.shape
    assert data.policies.sum(axis=1) == pytest.approx(np.ones(len(data)), abs=1e-5)
    assert not data.policies[~data.masks].any()  # no weight on an illegal action
    assert searcher.stats["searches"] > 0
    # the action played has weight: the most visited one, or the one a confident policy took
    assert (data.policies[np.arange(len(data)), data.actions] > 0).all()


def test_with_sequential_halving_the_targets_are_its_improved_policy(model):
    data, searcher = search_games(model, simulations=6, considered=3)
    assert searcher.stats["searches"] > 0
    assert data.policies.sum(axis=1) == pytest.approx(np.ones(len(data)), abs=1e-5)
    assert not data.policies[~data.masks].any()
    # softmax over every legal action, walked or not: no legal action of a searched decision
    # gets exactly zero, unlike the visit counts of a search that walked only three
    searched = (data.policies > 0).sum(axis=1) > 1
    assert searched.any()
    assert ((data.policies[searched] > 0) == data.masks[searched]).all()


def test_a_decision_played_unsearched_targets_the_action_played(model):
    data, searcher = search_games(model, simulations=6, confident=1e-9)  # every one confident
    assert searcher.stats["confident"] == searcher.stats["searches"] > 0
    one_hot = np.zeros_like(data.policies)
    one_hot[np.arange(len(data)), data.actions] = 1.0
    assert np.array_equal(data.policies, one_hot)


def test_imitating_the_visits_lowers_their_cross_entropy(model):
    # waves of two let the values steer the visits, so the targets are far from the
    # untrained policy's near-uniform guess (one wave of six spreads them almost evenly)
    data, _ = search_games(model, simulations=12, batch=2)
    first = clone(model, data, 1, 64, 1e-3, 0.5, seed=0, log=lambda _: None)
    later = clone(model, data, 40, 64, 1e-3, 0.5, seed=0, log=lambda _: None)
    # the cross-entropy cannot go below the targets' own entropy: the gap to it closes
    targets = data.policies
    entropy = float(
        -np.where(targets > 0, targets * np.log(np.maximum(targets, 1e-12)), 0).sum(1).mean()
    )
    assert later["nll"] - entropy < 0.5 * (first["nll"] - entropy)


@pytest.mark.slow
def test_training_runs_an_iteration_before_each_rollout_due(tmp_path):
    args = [
        "--config",
        "configs/smoke_heroica.yaml",
        f"run_dir={tmp_path}",
        "run_name=expert",
        "video.enabled=false",
        "progress_bar=false",
        "expert_iteration.every_steps=128",
        "expert_iteration.games=1",
        "expert_iteration.simulations=4",
    ]
    assert train_main(args) == 0
    summary = json.loads((tmp_path / "expert" / "summary.json").read_text())
    expert = summary["expert_iteration"]
    # 256 steps in rollouts of 64: due at 128 (before the third rollout) and not again
    assert expert["iterations"] == 1 and expert["last"]["timesteps"] == 128
    assert expert["decisions"] > 0 and expert["last"]["searches"] > 0
