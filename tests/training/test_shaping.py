"""Potential-based reward shaping in the self-play adapter and the warm start's value targets."""

from __future__ import annotations

import numpy as np
import pytest

from envs import make
from envs.bots import get_bot
from envs.core.scenario import ScenarioError
from training.config import load_config
from training.pretrain import collect_demonstrations
from training.selfplay import LeagueSchedule, OpponentPool, SelfPlayEnv

RANDOM_ONLY = LeagueSchedule(random=1, heuristic=0, lookahead=0, snapshots=0)


def _episode(env: SelfPlayEnv, seed: int) -> tuple[list[float], list[float], dict]:
    """One episode of random learner play: the rewards, the potential of each position the
    learner faced (through the game's lookahead value) and the last info."""
    value = get_bot(env.env_name, "lookahead").value
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    rewards, values, done, info = [], [], False, {}
    while not done:
        values.append(value(env.aec.game, env.aec.game_state, env.learner_seat))
        _, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        rewards.append(reward)
        done = terminated or truncated
    assert terminated
    return rewards, values, info


@pytest.mark.parametrize(
    "name, options",
    [("heroscape_v0", {"round_cap": 6}), ("heroica_v0", {"max_rounds": 15}), ("heroclix_v0", {})],
)
def test_shaped_rewards_telescope_to_the_game_return_minus_the_first_potential(name, options):
    """With gamma 1 the shaping sums to -w * V(s_0) whatever is played: the game's outcome is
    all that is left to win, so the best policy is the same."""
    weight = 0.5
    plain = SelfPlayEnv(
        name, options, pool=OpponentPool.for_game(name, RANDOM_ONLY), seed=3, auto_play_forced=True
    )
    shaped = SelfPlayEnv(
        name,
        options,
        pool=OpponentPool.for_game(name, RANDOM_ONLY),
        seed=3,
        auto_play_forced=True,
        reward_shaping=weight,
        shaping_gamma=1.0,
    )
    moved = 0
    for seed in (1, 2):
        plain_rewards, _, plain_info = _episode(plain, seed)
        rewards, values, info = _episode(shaped, seed)
        assert len(rewards) == len(plain_rewards)  # the same game: shaping changes no play
        game_return = info["final_rewards"][shaped.learner_seat]
        assert sum(rewards) == pytest.approx(game_return - weight * values[0])
        assert info["learner_episode"]["r"] == plain_info["learner_episode"]["r"] == game_return
        assert info["learner_episode"]["shaping"] == pytest.approx(-weight * values[0])
        moved += len(set(np.round(values, 9))) > 1
    assert moved  # the value did change during a game, so the telescoping was tested


def test_each_step_earns_the_discounted_change_of_potential():
    """A step that does not end the game earns gamma * phi(next) - phi(now); the last one
    earns the game's reward minus phi(now), a finished game having no potential."""
    phases = iter(np.linspace(0.0, 1.0, 10_000))
    seen = []

    def potential(game, state, seat):
        seen.append(next(phases))  # a new value each call: every step has its own potential
        return seen[-1]

    env = SelfPlayEnv(
        "heroscape_v0",
        {"round_cap": 3},
        pool=OpponentPool.for_game("heroscape_v0", RANDOM_ONLY),
        seed=5,
        reward_shaping=2.0,
        shaping_gamma=0.9,
        potential=potential,
    )
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    done, steps = False, 0
    while not done:
        _, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        done = terminated or truncated
        if not done:
            assert reward == pytest.approx(0.9 * 2.0 * seen[-1] - 2.0 * seen[-2])
        steps += 1
    game_return = info["final_rewards"][env.learner_seat]
    assert reward == pytest.approx(game_return - 2.0 * seen[-1])
    assert len(seen) == steps  # one potential per learner decision, none for the finished game


def test_the_potential_is_the_learners_at_its_own_decisions():
    """At gamma < 1 each step's shaping is gamma * w * V(s') - w * V(s) with V the learner's
    value where it decides next, after the opponents and its forced decisions were played."""
    weight, gamma = 0.8, 0.9
    asked = []

    def value_for_the_learner(game, state, seat):
        asked.append((game.current_player(state), seat))
        return get_bot("heroscape_v0", "lookahead").value(game, state, seat)

    options = {"round_cap": 6}
    pool = OpponentPool.for_game("heroscape_v0", RANDOM_ONLY)
    plain = SelfPlayEnv("heroscape_v0", options, pool=pool, seed=8, auto_play_forced=True)
    shaped = SelfPlayEnv(
        "heroscape_v0",
        options,
        pool=pool,
        seed=8,
        auto_play_forced=True,
        reward_shaping=weight,
        shaping_gamma=gamma,
        potential=value_for_the_learner,
    )
    plain_rewards, _, _ = _episode(plain, 8)
    rewards, values, _ = _episode(shaped, 8)
    assert len(rewards) == len(plain_rewards) == len(values) == len(asked)
    assert all(mover == seat == shaped.learner_seat for mover, seat in asked)
    after = values[1:] + [0.0]  # a finished game has no potential
    expected = [
        r + gamma * weight * v_next - weight * v
        for r, v, v_next in zip(plain_rewards, values, after)
    ]
    np.testing.assert_allclose(rewards, expected, atol=1e-12)
    assert len(set(np.round(values, 9))) > 1


def test_an_illegal_action_takes_the_potential_back():
    env = SelfPlayEnv(
        "heroscape_v0",
        seed=1,
        reward_shaping=1.0,
        shaping_gamma=0.99,
        potential=lambda game, state, seat: 0.25,
    )
    env.reset()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"]
    assert reward == pytest.approx(-1.0 - 0.25)


def test_no_shaping_is_the_default_and_leaves_the_rewards_alone():
    env = SelfPlayEnv("heroscape_v0", {"round_cap": 3}, seed=2)
    assert env.reward_shaping == 0.0
    rewards, _, info = _episode(env, 2)
    assert (
        sum(rewards) == info["final_rewards"][env.learner_seat]
        and info["learner_episode"]["shaping"] == 0.0
    )


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"reward_shaping": -0.1}, "reward_shaping"),
        ({"reward_shaping": float("nan")}, "reward_shaping"),
        ({"reward_shaping": True}, "reward_shaping"),
        ({"reward_shaping": 1.0, "shaping_gamma": 1.5}, "shaping_gamma"),
        ({"reward_shaping": 1.0}, "shaping_gamma"),
    ],
)
def test_bad_shaping_settings_name_their_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        SelfPlayEnv("heroscape_v0", **kwargs)


def test_a_potential_that_is_not_finite_is_an_error():
    env = SelfPlayEnv(
        "heroscape_v0",
        seed=1,
        reward_shaping=1.0,
        shaping_gamma=0.99,
        potential=lambda game, state, seat: float("inf"),
    )
    with pytest.raises(ValueError, match="potential"):
        env.reset()


def test_the_warm_starts_targets_take_off_each_decisions_potential():
    """The critic is cloned onto the shaped return: the game's discounted return minus the
    decision's potential, as PPO's value head will then estimate it."""

    def game_factory():
        return make("heroscape_v0").game  # skirmish to the end: decided games, whose returns count

    common = dict(games=2, seed=4, gamma=0.95, max_samples=10_000)
    plain = collect_demonstrations(game_factory, "heroscape_v0", "heuristic", **common)
    shaped = collect_demonstrations(
        game_factory, "heroscape_v0", "heuristic", reward_shaping=0.5, **common
    )
    np.testing.assert_array_equal(plain.actions, shaped.actions)
    np.testing.assert_array_equal(plain.observations, shaped.observations)
    assert np.abs(plain.values).max() > 0.5  # the games were decided: their returns are in both
    taken = plain.values - shaped.values  # 0.5 * V(s) of each decision's position, the return kept
    assert np.all(np.abs(taken) <= 0.5 + 1e-6) and len(set(np.round(taken, 5))) > 1
    # the first decision of a game is the set-up, whatever the dice: its potential is known
    game = game_factory()
    start = game.new_state(0)
    first = 0.5 * get_bot("heroscape_v0", "lookahead").value(
        game, start, game.current_player(start)
    )
    assert taken[0] == pytest.approx(first, abs=1e-5) and first != 0


def test_reward_shaping_is_a_config_field(tmp_path):
    path = tmp_path / "run.yaml"
    path.write_text("env: {name: heroscape_v0}\nreward_shaping: 0.5\n")
    assert load_config(path).reward_shaping == 0.5
    path.write_text("env: {name: heroscape_v0}\nreward_shaping: -1\n")
    with pytest.raises(ScenarioError, match="reward_shaping"):
        load_config(path)


def test_a_game_without_a_lookahead_bot_has_no_default_potential():
    from envs.lookahead import position_value

    with pytest.raises(ValueError, match="nosuchgame_v0 has no lookahead bot"):
        position_value("nosuchgame_v0")
