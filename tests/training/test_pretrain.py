"""Behaviour-cloning warm start: demonstrations are recorded faithfully and cloning fits them."""

from __future__ import annotations

import time

import numpy as np
import pytest

from envs import make
from training.agents import single_thread
from training.pretrain import clone, collect_demonstrations


def heroscape_game():
    return make("heroscape_v0", round_cap=3).game


def test_demonstrations_hold_every_decision_with_a_legal_action_and_discounted_outcome():
    data = collect_demonstrations(
        heroscape_game, "heroscape_v0", "heuristic", games=3, seed=5, gamma=0.9, max_samples=10_000
    )
    game = heroscape_game()
    assert data.games == 3 and len(data) == len(data.masks) == len(data.values) == len(
        data.observations
    )
    assert (
        data.observations.shape[1:] == game.observation_shape
        and data.observations.dtype == np.float16
    )
    assert data.masks[np.arange(len(data)), data.actions].all()  # every recorded action was legal
    # values are final returns discounted per later decision of the same seat: |v| <= 1, and
    # a seat's last decision of a decided game carries the full return
    assert np.all(np.abs(data.values) <= 1.0 + 1e-6)
    assert np.isclose(np.abs(data.values).max(), 1.0) or np.all(data.values == 0)


def test_the_sample_cap_stops_collecting_and_truncates():
    data = collect_demonstrations(
        heroscape_game, "heroscape_v0", "heuristic", games=50, seed=0, gamma=0.99, max_samples=40
    )
    assert len(data) == 40 and data.games < 50


def test_cloning_fits_the_demonstrator_better_with_each_pass():
    from sb3_contrib import MaskablePPO

    from training.selfplay import SelfPlayEnv

    data = collect_demonstrations(
        heroscape_game, "heroscape_v0", "heuristic", games=4, seed=1, gamma=0.99, max_samples=300
    )
    model = MaskablePPO(
        "MlpPolicy",
        SelfPlayEnv("heroscape_v0", {"round_cap": 3}, seed=0),
        n_steps=16,
        batch_size=16,
        device="cpu",
        seed=0,
        policy_kwargs=dict(net_arch=[64]),
    )
    with single_thread():  # tiny batches: extra torch threads only contend with other test workers
        first = clone(
            model,
            data,
            epochs=1,
            batch_size=32,
            learning_rate=1e-3,
            value_coef=0.5,
            seed=0,
            log=lambda _: None,
        )
        later = clone(
            model,
            data,
            epochs=4,
            batch_size=32,
            learning_rate=1e-3,
            value_coef=0.5,
            seed=0,
            log=lambda _: None,
        )
    assert later["nll"] < first["nll"]
    assert later["accuracy"] > first["accuracy"]


def test_collecting_from_no_games_is_an_error():
    # pretrain.games = 0 means "off" in a config; asked directly, zero games is a mistake
    with pytest.raises(ValueError, match="games must be at least 1"):
        collect_demonstrations(
            heroscape_game, "heroscape_v0", "heuristic", games=0, seed=0, gamma=0.99, max_samples=10
        )


def heroica_game():
    return make("heroica_v0", max_rounds=10).game


def test_forced_decisions_are_left_out_when_the_trainer_plays_them():
    every = collect_demonstrations(
        heroica_game, "heroica_v0", "heuristic", games=2, seed=3, gamma=0.9, max_samples=10_000
    )
    choices = collect_demonstrations(
        heroica_game,
        "heroica_v0",
        "heuristic",
        games=2,
        seed=3,
        gamma=0.9,
        max_samples=10_000,
        skip_forced=True,
    )
    legal = every.masks.sum(axis=1)
    assert (legal == 1).any() and (choices.masks.sum(axis=1) >= 2).all()
    # the same decisions, in the same order, less the forced ones
    np.testing.assert_array_equal(choices.actions, every.actions[legal >= 2])
    np.testing.assert_array_equal(choices.observations, every.observations[legal >= 2])
    # discounting counts only the steps the learner takes: |v| is at least as large once the
    # forced decisions no longer stand between a choice and the end
    assert np.all(np.abs(choices.values) >= np.abs(every.values[legal >= 2]) - 1e-6)


def test_the_time_budget_stops_collecting_and_cloning():
    import time

    from sb3_contrib import MaskablePPO

    from training.selfplay import SelfPlayEnv

    past = time.monotonic() - 1.0
    data = collect_demonstrations(
        heroscape_game,
        "heroscape_v0",
        "heuristic",
        games=50,
        seed=0,
        gamma=0.99,
        max_samples=10_000,
        deadline=past,
    )
    assert data.games == 1 and len(data) > 32  # the first game is always played, then none
    model = MaskablePPO(
        "MlpPolicy",
        SelfPlayEnv("heroscape_v0", {"round_cap": 3}, seed=0),
        n_steps=16,
        batch_size=16,
        device="cpu",
        seed=0,
        policy_kwargs=dict(net_arch=[64]),
    )
    lines: list[str] = []
    with single_thread():
        stats = clone(
            model,
            data,
            epochs=5,
            batch_size=16,
            learning_rate=1e-3,
            value_coef=0.5,
            seed=0,
            log=lines.append,
            deadline=past,
        )
    assert stats["epoch"] == pytest.approx(16 / len(data))  # one minibatch, then the budget ends it
    assert len(lines) == 1 and "cut short by the time budget" in lines[0]


def test_expert_iteration_clones_the_lookahead_bots_choices():
    """pretrain.demonstrator: lookahead records the search's choices (expert iteration's targets)."""
    from envs.bots import get_bot

    data = collect_demonstrations(
        heroica_game,
        "heroica_v0",
        "lookahead",
        games=1,
        seed=4,
        gamma=0.9,
        max_samples=10_000,
        skip_forced=True,
    )
    assert len(data) > 0 and data.masks[np.arange(len(data)), data.actions].all()
    # the same game replayed with the lookahead bot and the demonstrations' randomness
    game, bot = heroica_game(), get_bot("heroica_v0", "lookahead")
    state, rng = game.new_state(4), np.random.default_rng([4, 0xB075])
    chosen = []
    while game.current_player(state) >= 0:
        action = bot.act(game, state, rng)
        if game.legal_mask(state).sum() >= 2:
            chosen.append(action)
        game.apply_legal(state, action)
    assert chosen == data.actions.tolist()


def test_games_played_in_two_processes_give_the_data_of_one():
    # no cap or deadline binds: the same decisions, in game order, whatever process played them
    one = collect_demonstrations(
        heroscape_game, "heroscape_v0", "heuristic", games=5, seed=2, gamma=0.9, max_samples=10_000
    )
    two = collect_demonstrations(
        heroscape_game,
        "heroscape_v0",
        "heuristic",
        games=5,
        seed=2,
        gamma=0.9,
        max_samples=10_000,
        workers=2,
    )
    assert two.games == one.games == 5
    for field in ("observations", "masks", "actions", "values"):
        np.testing.assert_array_equal(getattr(two, field), getattr(one, field))


def test_processes_share_the_sample_cap():
    data = collect_demonstrations(
        heroscape_game,
        "heroscape_v0",
        "heuristic",
        games=50,
        seed=0,
        gamma=0.99,
        max_samples=41,
        workers=2,
    )
    assert len(data) == 41 and 2 <= data.games < 50
    assert data.masks[np.arange(len(data)), data.actions].all()


class _FailsOnOddSeeds:
    """A Heroscape game whose odd-seeded games cannot start: worker 1 of 2 gets only those."""

    def __init__(self):
        self._game = heroscape_game()

    def __getattr__(self, name):
        return getattr(self._game, name)

    def new_state(self, seed):
        if seed % 2:
            raise ValueError(f"no game for seed {seed}")
        return self._game.new_state(seed)


def test_a_failing_worker_is_reported_with_its_error():
    with pytest.raises(
        RuntimeError, match=r"demonstration worker 1 failed: ValueError\('no game for seed 1'\)"
    ):
        collect_demonstrations(
            _FailsOnOddSeeds,
            "heroscape_v0",
            "heuristic",
            games=4,
            seed=0,
            gamma=0.9,
            max_samples=1000,
            workers=2,
        )


def test_an_unknown_demonstrator_fails_before_any_game():
    with pytest.raises(KeyError, match="unknown bot 'oracle'"):
        collect_demonstrations(
            heroscape_game,
            "heroscape_v0",
            "oracle",
            games=4,
            seed=0,
            gamma=0.9,
            max_samples=1000,
            workers=2,
        )


def test_past_the_deadline_each_process_still_plays_its_first_game():
    past = time.monotonic() - 1.0
    data = collect_demonstrations(
        heroscape_game,
        "heroscape_v0",
        "heuristic",
        games=50,
        seed=0,
        gamma=0.99,
        max_samples=10_000,
        deadline=past,
        workers=2,
    )
    one = collect_demonstrations(
        heroscape_game, "heroscape_v0", "heuristic", games=2, seed=0, gamma=0.99, max_samples=10_000
    )
    assert data.games == 2  # games 0 and 1, one per process, then none
    np.testing.assert_array_equal(data.actions, one.actions)
