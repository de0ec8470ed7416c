"""RLlib: the multi-agent adapter, the config, and two real training iterations.

Skipped with the reason when ray[rllib] is not installed (``pip install -e '.[rllib]'``); the
test setup (``make test``) installs it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed: pip install -e '.[rllib]'")

from envs.core.scenario import ScenarioError  # noqa: E402
from training import rllib  # noqa: E402
from training.rllib_config import load_rllib_config  # noqa: E402
from training.rllib_env import HeroarenaMultiAgentEnv  # noqa: E402

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
TINY = [
    "iterations=2",
    "runners.num_env_runners=0",
    "ray.num_cpus=2",
    "ppo.train_batch_size=128",
    "ppo.minibatch_size=64",
    "ppo.num_epochs=1",
    "model.conv_filters=[[8, 3, 2]]",
    "model.head_hiddens=[16]",
    "eval.games=2",
    "env.options={mission: arena, max_rounds: 6}",
    "env.max_turns=40",
]


def _random_episode(env: HeroarenaMultiAgentEnv, seed: int):
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        assert len(obs) == 1, "one learner seat decides at a time"
        ((agent, observation),) = obs.items()
        assert env.observation_spaces[agent].contains(observation)
        legal = np.flatnonzero(observation["action_mask"])
        obs, rewards, terminated, truncated, infos = env.step({agent: int(rng.choice(legal))})
        steps += 1
        if terminated["__all__"] or truncated["__all__"]:
            return obs, rewards, terminated, truncated, infos, steps


@pytest.mark.parametrize("matchup", ["self_play", "heuristic", "random"])
def test_adapter_shows_only_learner_seats_and_ends_with_final_rewards(matchup):
    env = HeroarenaMultiAgentEnv(
        {"name": "heroica_v0", "options": {"mission": "arena"}, "league": {matchup: 1.0}}
    )
    obs, rewards, terminated, truncated, infos, steps = _random_episode(env, seed=4)
    seats = env.possible_agents if matchup == "self_play" else [next(iter(obs))]
    assert sorted(obs) == sorted(seats) and steps > 0
    assert terminated["__all__"] and not truncated["__all__"]
    assert all(infos[a]["matchup"] == matchup for a in seats)
    if matchup == "self_play":
        assert sorted(rewards.values()) == [-1.0, 1.0]
    else:
        assert list(rewards.values())[0] in (-1.0, 0.0, 1.0)


def test_adapter_truncates_at_max_turns():
    env = HeroarenaMultiAgentEnv(
        {
            "name": "heroica_v0",
            "options": {"mission": "arena"},
            "max_turns": 3,
            "league": {"self_play": 1.0},
        }
    )
    obs, rewards, terminated, truncated, _, _ = _random_episode(env, seed=1)
    assert truncated["__all__"] and not terminated["__all__"]
    assert set(rewards.values()) == {0.0}


def test_adapter_names_a_missing_action():
    env = HeroarenaMultiAgentEnv({"name": "heroica_v0", "league": {"self_play": 1.0}})
    obs, _ = env.reset(seed=0)
    other = next(a for a in env.possible_agents if a not in obs)
    with pytest.raises(ValueError, match="no action for the deciding seat"):
        env.step({other: 0})


def test_adapter_rejects_an_unknown_matchup():
    with pytest.raises(ValueError, match="unknown matchups"):
        HeroarenaMultiAgentEnv({"name": "heroica_v0", "league": {"snapshots": 1.0}})


def test_config_errors_name_the_field(tmp_path):
    with pytest.raises(ScenarioError, match="ppo.lr"):
        load_rllib_config(CONFIGS / "rllib_heroica.yaml", ["ppo.lr=fast"])
    with pytest.raises(ScenarioError, match="unknown field 'nope'"):
        load_rllib_config(CONFIGS / "rllib_heroica.yaml", ["nope=1"])


@pytest.mark.parametrize("bad", ["env.options={mission: 42}", "env.options={colour: red}"])
def test_bad_env_options_fail_before_any_run_folder(tmp_path, capsys, bad):
    code = rllib.main(
        [
            "--config",
            str(CONFIGS / "rllib_heroica.yaml"),
            f"run_dir={tmp_path}",
            "run_name=bad",
            bad,
        ]
    )
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:")
    assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize("name", ["heroica", "heroscape", "heroclix"])
def test_shipped_configs_load(name):
    config = load_rllib_config(CONFIGS / f"rllib_{name}.yaml")
    assert config.env.name == f"{name}_v0"


@pytest.mark.slow
def test_two_training_iterations_write_progress_checkpoint_and_win_rates(tmp_path):
    code = rllib.main(
        [
            "--config",
            str(CONFIGS / "rllib_heroica.yaml"),
            f"run_dir={tmp_path}",
            "run_name=tiny",
            *TINY,
        ]
    )
    assert code == 0
    run = tmp_path / "tiny"
    rows = (run / "progress.csv").read_text(encoding="utf-8").strip().splitlines()
    assert len(rows) == 3  # header + 2 iterations
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    assert summary["iterations"] == 2 and summary["env_steps"] >= 256
    assert set(summary["win_rates"]) == {"random", "heuristic"}
    assert all(r["games"] == 2 for r in summary["win_rates"].values())
    assert (run / "checkpoint").is_dir() and any((run / "checkpoint").iterdir())
