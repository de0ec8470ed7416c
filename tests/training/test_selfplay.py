"""training.selfplay: the single-agent self-play adapter, its opponent pool and its rewards."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from training.selfplay import BotOpponent, LeagueSchedule, OpponentPool, PolicyOpponent, SelfPlayEnv


class _Named:
    """A stand-in opponent (pool tests never play it)."""

    def __init__(self, name):
        self.name = name

    def act(self, env, agent, obs, rng):  # pragma: no cover - never called
        raise AssertionError("not played")


@pytest.mark.parametrize("name", ["heroica_v0", "heroscape_v0", "heroclix_v0"])
def test_check_env_passes_with_default_arguments(name):
    from stable_baselines3.common.env_checker import check_env

    env = SelfPlayEnv(name)  # check_env steps unmasked samples: illegal ones end the episode
    with warnings.catch_warnings():
        # float32 (C,H,W) Box(0, inf) is "image-like": SB3 warns, it is not an error
        warnings.simplefilter("ignore")
        check_env(env)
    assert env.observation_space == env.aec.observation_space("player_0")["observation"]
    assert env.action_space == env.aec.action_space("player_0")


# random Heroica games are long (a 100-round cap, every roll a decision): fewer of them
@pytest.mark.parametrize(
    "name,options,games",
    [
        pytest.param("heroica_v0", {}, 80, marks=pytest.mark.slow),
        ("heroscape_v0", {"round_cap": 8}, 200),
    ],
)
def test_terminal_rewards_reach_the_learner_whoever_moves_last(name, options, games):
    env = SelfPlayEnv(
        name,
        options,
        pool=OpponentPool.for_game(name, LeagueSchedule(1, 0, 0, 0)),
        seed=123,
        illegal_action="raise",
    )
    rng = np.random.default_rng(7)
    finals, seats, opponent_last = set(), set(), 0
    for _ in range(games):
        obs, info = env.reset()
        seat = info["learner_seat"]
        assert env.learner == f"player_{seat}" and info["opponent"] == {
            f"player_{1 - seat}": "random"
        }
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            aec = env.aec
            # the adapter's mask is the env's legal mask for the learner, and it is the learner's turn
            assert aec.agent_selection == env.learner
            assert mask.dtype == bool and mask.any()
            np.testing.assert_array_equal(mask, aec.legal_mask())
            assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
            obs, reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(mask)))
            )
            # the step's reward is what PettingZoo accumulated for the learner since its own move
            assert reward == aec._cumulative_rewards[env.learner]
            total += reward
            done = terminated or truncated
        assert terminated and not truncated
        final = info["final_rewards"]
        np.testing.assert_array_equal(final, aec.game.returns(aec.game_state))
        assert total == final[seat]
        assert not env.action_masks().any()
        finals.add(total)
        seats.add(seat)
        if info["last_mover"] != env.learner and total != 0:
            opponent_last += 1
    assert {1.0, -1.0} <= finals
    assert seats == {0, 1}
    assert opponent_last > 0


def test_three_player_heroica_fills_every_opponent_seat():
    pool = OpponentPool.for_game("heroica", LeagueSchedule(random=1, heuristic=1, snapshots=0))
    env = SelfPlayEnv("heroica_v0", {"num_players": 3}, pool=pool, seed=3)
    seen_seats, seen_names = set(), set()
    for _ in range(4):
        obs, info = env.reset()
        opponents = info["opponent"]
        assert sorted(opponents) == sorted(a for a in env.agents if a != env.learner)
        assert len(opponents) == 2 and set(opponents.values()) <= {"random", "heuristic"}
        seen_seats.add(info["learner_seat"])
        seen_names |= set(opponents.values())
        done, total, rng = False, 0.0, np.random.default_rng(0)
        while not done:
            obs, reward, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks())))
            )
            total += reward
            done = terminated or truncated
        assert len(info["final_rewards"]) == 3
        assert total == pytest.approx(info["final_rewards"][info["learner_seat"]])
    assert len(seen_seats) >= 2 and seen_names == {"random", "heuristic"}


def test_an_illegal_action_loses_the_episode_by_default():
    env = SelfPlayEnv("heroscape_v0", seed=0)
    _, info = env.reset()
    seat = info["learner_seat"]
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    # PettingZoo's TerminateIllegalWrapper scoring: -1 for the offender, 0 for the others
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] and env.illegal_actions == 1 and info["last_mover"] == env.learner
    np.testing.assert_array_equal(
        info["final_rewards"], [-1.0 if s == seat else 0.0 for s in range(2)]
    )
    assert info["learner_episode"]["r"] == -1.0 and not env.action_masks().any()
    assert obs.shape == env.observation_space.shape
    with pytest.raises(RuntimeError, match="reset"):
        env.step(illegal)
    env.reset()
    _, reward, terminated, _, _ = env.step(int(np.flatnonzero(~env.action_masks())[0]))
    assert (reward, terminated, env.illegal_actions) == (-1.0, True, 2)
    assert SelfPlayEnv("heroscape_v0", seed=0, illegal_reward=-5.0).reset() is not None
    with pytest.raises(ValueError, match="illegal_action"):
        SelfPlayEnv("heroscape_v0", illegal_action="ignore")


def test_illegal_actions_can_be_replaced_or_raise():
    env = SelfPlayEnv("heroscape_v0", seed=0, illegal_action="random")
    env.reset()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, _, _, _, info = env.step(illegal)  # replaced by a random legal action
    assert info["illegal_action"] and env.illegal_actions == 1
    strict = SelfPlayEnv("heroscape_v0", seed=0, illegal_action="raise")
    strict.reset()
    with pytest.raises(Exception, match="not legal"):
        strict.step(int(np.flatnonzero(~strict.action_masks())[0]))


def test_reset_is_reproducible_from_the_seed():
    a, b = SelfPlayEnv("heroica_v0", seed=5), SelfPlayEnv("heroica_v0", seed=5)
    for _ in range(3):
        (oa, ia), (ob, ib) = a.reset(), b.reset()
        assert ia == ib
        np.testing.assert_array_equal(oa, ob)


def test_pool_sampling_follows_the_schedule():
    pool = OpponentPool(
        LeagueSchedule(random=1, heuristic=3, snapshots=4, max_snapshots=2),
        heuristic=_Named("heuristic"),
    )
    # no snapshots yet: their weight goes to the others in proportion
    assert pool.probabilities() == pytest.approx({"random": 0.25, "heuristic": 0.75})
    pool.add_snapshot("s1", _Named("s1"))
    pool.add_snapshot("s2", _Named("s2"))
    expected = {"random": 0.125, "heuristic": 0.375, "s1": 0.25, "s2": 0.25}
    assert pool.probabilities() == pytest.approx(expected)
    rng = np.random.default_rng(0)
    n = 2000
    counts = {k: 0 for k in expected}
    for _ in range(n):
        name, opponent = pool.sample(rng)
        counts[name] += 1
        assert opponent is pool.get(name)
    for name, p in expected.items():
        assert abs(counts[name] / n - p) < 4 * np.sqrt(p * (1 - p) / n), (name, counts)


def test_snapshot_eviction_keeps_the_newest():
    pool = OpponentPool(LeagueSchedule(max_snapshots=3))
    for i in range(5):
        pool.add_snapshot(f"gen{i}", _Named(i))
    assert pool.snapshot_names == ["gen2", "gen3", "gen4"]
    pool.schedule = LeagueSchedule(max_snapshots=1)
    assert pool.snapshot_names == ["gen4"]
    with pytest.raises(ValueError, match="gen4"):
        pool.add_snapshot("gen4", _Named(4))
    with pytest.raises(ValueError, match="random"):
        pool.add_snapshot("random", _Named(4))


@pytest.mark.parametrize(
    "kwargs,field",
    [
        (dict(random=-1), "random"),
        (dict(heuristic=-0.5), "heuristic"),
        (dict(snapshots=-2), "snapshots"),
        (dict(random=float("nan")), "random"),
        (dict(random=0, heuristic=0, snapshots=0), "all weights"),
        (dict(max_snapshots=-1), "max_snapshots"),
        (dict(max_snapshots=0), "max_snapshots"),
        (dict(max_snapshots=2.5), "max_snapshots"),
    ],
)
def test_bad_schedules(kwargs, field):
    with pytest.raises(ValueError, match=field):
        LeagueSchedule(**kwargs)


def test_snapshot_only_schedule_without_snapshots_is_a_clear_error():
    pool = OpponentPool(LeagueSchedule(random=0, heuristic=0, snapshots=1))
    with pytest.raises(ValueError, match="snapshots"):
        pool.sample(np.random.default_rng(0))


def test_policy_snapshot_opponent_with_maskable_ppo():
    from sb3_contrib import MaskablePPO

    learner_env = SelfPlayEnv(
        "heroscape_v0",
        {"round_cap": 2},
        seed=0,
        pool=OpponentPool(LeagueSchedule(random=1, heuristic=0, snapshots=1)),
    )
    model = MaskablePPO(
        "MlpPolicy",
        learner_env,
        n_steps=32,
        batch_size=32,
        n_epochs=1,
        policy_kwargs={"net_arch": [16]},
        seed=0,
        device="cpu",
    )
    snapshot = PolicyOpponent.snapshot(model, name="gen0")
    assert snapshot.policy is not model.policy
    learner_env.pool.add_snapshot("gen0", snapshot)
    learner_env.pool.add_snapshot("gen0-greedy", PolicyOpponent.snapshot(model, deterministic=True))
    model.learn(total_timesteps=32)  # trains against random and the snapshots
    before = [p.detach().clone() for p in snapshot.policy.parameters()]
    model.learn(total_timesteps=32)
    assert all((p == q).all() for p, q in zip(before, snapshot.policy.parameters()))  # frozen
    seen = set()
    for _ in range(6):
        obs, info = learner_env.reset()
        seen |= set(info["opponent"].values())
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=learner_env.action_masks())
            obs, _, terminated, truncated, info = learner_env.step(int(action))
            done = terminated or truncated
    assert seen & {"gen0", "gen0-greedy"}


def test_bot_opponent_plays_legal_moves():
    from envs.bots import get_bot

    opponent = BotOpponent(get_bot("heroica", "heuristic"))
    env = SelfPlayEnv(
        "heroica_v0", seed=1, pool=OpponentPool(LeagueSchedule(1, 0, 0, 0), random=opponent)
    )
    _, info = env.reset()
    assert opponent.name == "heuristic" and list(info["opponent"].values()) == ["random"]
    _, _, _, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert "illegal_action" not in info


def test_episode_statistics_are_the_learners():
    """info["learner_episode"] carries the learner's return and length (not info["episode"]:
    that is the monitors' key)."""
    env = SelfPlayEnv("heroica_v0", seed=2)
    env.reset()
    rng = np.random.default_rng(2)
    total, steps, done = 0.0, 0, False
    while not done:
        _, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(env.action_masks())))
        )
        total, steps, done = total + reward, steps + 1, terminated or truncated
    assert info["learner_episode"]["r"] == total and info["learner_episode"]["l"] == steps
    assert info["learner_episode"]["r"] == info["final_rewards"][env.learner_seat]
    assert "episode" not in info


def _play_first_legal(env: SelfPlayEnv) -> tuple[list[int], dict]:
    """One episode where the learner always takes its lowest legal action; returns how many
    legal actions each decision it saw had, and the last info."""
    env.reset()
    choices, done, info = [], False, {}
    while not done:
        legal = np.flatnonzero(env.action_masks())
        choices.append(legal.size)
        _, _, terminated, truncated, info = env.step(int(legal[0]))
        done = terminated or truncated
    return choices, info


@pytest.mark.parametrize(
    "name, options", [("heroica_v0", {"max_rounds": 12}), ("heroscape_v0", {"round_cap": 3})]
)
def test_forced_decisions_are_played_for_the_learner_and_the_game_is_the_same(name, options):
    """auto_play_forced hands the agent only real choices, and as a forced decision has one
    action and draws no randomness, the same seed plays the very same game."""
    plain = SelfPlayEnv(name, options, seed=11)
    auto = SelfPlayEnv(name, options, seed=11, auto_play_forced=True)
    for _ in range(3):
        seen_plain, info_plain = _play_first_legal(plain)
        seen_auto, info_auto = _play_first_legal(auto)
        assert min(seen_auto) >= 2
        assert seen_auto == [n for n in seen_plain if n >= 2]
        np.testing.assert_array_equal(info_auto["final_rewards"], info_plain["final_rewards"])
        episode = info_auto["learner_episode"]
        assert episode["forced"] == len(seen_plain) - len(seen_auto)
        assert episode["l"] == len(seen_auto)
        assert episode["env_decisions"] == info_plain["learner_episode"]["env_decisions"]
        assert episode["r"] == info_plain["learner_episode"]["r"]
    assert auto.forced_decisions > 0 and auto.env_decisions == plain.env_decisions


def test_auto_play_forced_must_be_a_bool():
    with pytest.raises(TypeError, match="auto_play_forced"):
        SelfPlayEnv("heroica_v0", auto_play_forced="yes")


def test_the_lookahead_bot_takes_its_league_weight():
    pool = OpponentPool(
        LeagueSchedule(random=1, heuristic=1, lookahead=2, snapshots=0),
        heuristic=_Named("heuristic"),
        lookahead=_Named("lookahead"),
    )
    assert pool.probabilities() == pytest.approx(
        {"random": 0.25, "heuristic": 0.25, "lookahead": 0.5}
    )
    assert pool.names() == ["random", "heuristic", "lookahead"]
    with pytest.raises(ValueError, match="already in the pool"):
        pool.add_snapshot("lookahead", _Named("x"))
    # a pool without the bot passes its weight on to the others
    without = OpponentPool(
        LeagueSchedule(random=1, heuristic=1, lookahead=2, snapshots=0),
        heuristic=_Named("heuristic"),
    )
    assert without.probabilities() == pytest.approx({"random": 0.5, "heuristic": 0.5})


def test_gymnasium_record_episode_statistics_wraps_the_env():
    from gymnasium.wrappers import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(SelfPlayEnv("heroica_v0", {"max_rounds": 8}, seed=4))
    rng = np.random.default_rng(4)
    for _ in range(3):
        env.reset()
        done = False
        while not done:
            mask = env.get_wrapper_attr("action_masks")()
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            done = terminated or truncated
        assert info["episode"]["r"] == info["learner_episode"]["r"]
        assert info["episode"]["l"] == info["learner_episode"]["l"]
    assert len(env.return_queue) == 3


# The Stable-Baselines3 snippet of docs/ecosystem.md (BoardCNN with MaskablePPO), verbatim: it
# must run as written, and the page must show it as it is here.
DOCS_SNIPPET = """
from sb3_contrib import MaskablePPO
from training.networks import BoardCNN
from training.selfplay import SelfPlayEnv

env = SelfPlayEnv("heroica_v0", {"max_rounds": 8}, seed=0)  # opponents: random and heuristic bots
model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=4, seed=0,
                    policy_kwargs=dict(features_extractor_class=BoardCNN, normalize_images=False,
                                       features_extractor_kwargs=dict(features_dim=64, channels=(16, 16))))
model.learn(total_timesteps=256)  # MaskablePPO reads env.action_masks() at every step
obs, info = env.reset()
action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
"""


def test_the_docs_show_the_snippet_as_tested():
    page = Path(__file__).resolve().parents[2] / "docs" / "ecosystem.md"
    assert DOCS_SNIPPET.strip() in page.read_text(encoding="utf-8")


def test_the_docs_snippet_trains_board_cnn_with_maskable_ppo():
    from training.agents import single_thread
    from training.networks import BoardCNN

    namespace: dict = {}
    with single_thread():  # a few hundred steps on a shared machine: see single_thread
        exec(compile(DOCS_SNIPPET, "docs/ecosystem.md snippet", "exec"), namespace)
    model, env = namespace["model"], namespace["env"]
    assert isinstance(model.policy.features_extractor, BoardCNN) and model.num_timesteps == 256
    assert env.action_masks()[int(namespace["action"])]
