"""Training configs: shipped files load, overrides, line-accurate errors, dump/load round trip."""

from __future__ import annotations

import os
from pathlib import Path

import pydantic
import pytest

from envs import make
from envs.core.scenario import ScenarioError
from training import config as config_mod
from training.config import (
    EnvConfig,
    LeagueConfig,
    TrainConfig,
    describe_fields,
    dump_config,
    load_config,
)

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
# rllib_*.yaml are RLlib configs (training.rllib_config; tests/training/test_rllib.py loads them).
SHIPPED = sorted(p for p in CONFIGS.glob("*.yaml") if not p.name.startswith("rllib_"))

BASE = """\
env:
  name: heroica_v0
  options:
    mission: fork
n_envs: 1
ppo:
  n_steps: 64
  batch_size: 32
"""


def write(tmp_path: Path, text: str, name: str = "config.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_four_configs_ship():
    names = {p.name for p in SHIPPED}
    assert {"heroica.yaml", "heroscape.yaml", "smoke_heroica.yaml", "smoke_heroscape.yaml"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_every_shipped_config_loads_and_makes_its_env(path):
    config = load_config(path)
    assert isinstance(config, TrainConfig)
    assert config.run_name and config.run_name.startswith(config.env.name)
    rollout = config.ppo.n_steps * config.num_envs
    assert rollout % config.ppo.batch_size == 0
    env = make(config.env.name, **config.env.make_kwargs())
    env.reset(seed=config.seed)


def test_smoke_configs_are_tiny():
    for game in ("heroica", "heroscape"):
        config = load_config(CONFIGS / f"smoke_{game}.yaml")
        assert config.total_timesteps <= 512
        assert config.n_envs == 1
        assert config.eval.games <= 8
        assert config.env.name == f"{game}_v0"


def test_minimal_config_gets_defaults(tmp_path):
    config = load_config(write(tmp_path, "env: {name: heroscape_v0}\nn_envs: 2\n"))
    assert config.ppo.learning_rate == 3e-4
    assert config.network.cnn_channels == [64, 64, 64]
    assert config.eval.opponents == ["random", "heuristic"]
    assert config.device == "cpu"
    assert config.run_dir == "runs"
    assert config.resume_from is None
    assert config.run_path == Path("runs") / config.run_name


def test_yaml_1_1_exponent_floats_are_numbers(tmp_path):
    # PyYAML reads 1e-4 (no dot) as a string; the config reads it as the number it looks like.
    config = load_config(write(tmp_path, BASE + "  learning_rate: 1e-4\n"))
    assert config.ppo.learning_rate == pytest.approx(1e-4)


# ------------------------------------------------------------------------------------------
# Overrides
# ------------------------------------------------------------------------------------------
def test_overrides_nested_top_level_and_env_options(tmp_path):
    path = write(tmp_path, BASE)
    config = load_config(
        path,
        [
            "ppo.learning_rate=1e-4",
            "total_timesteps=2048",
            "env.options.mission=tunnel",
            "env.options.num_players=3",
            "network.cnn_channels=[16, 16]",
            "network.net_arch.pi=[32]",
            "eval.opponents=[heuristic]",
            "video.enabled=false",
            "run_name=my_run",
            "env.max_turns=50",
        ],
    )
    assert config.ppo.learning_rate == pytest.approx(1e-4)
    assert config.total_timesteps == 2048
    assert config.env.options == {"mission": "tunnel", "num_players": 3}
    assert config.network.cnn_channels == [16, 16]
    assert config.network.net_arch.pi == [32]
    assert config.eval.opponents == ["heuristic"]
    assert config.video.enabled is False
    assert config.run_name == "my_run"
    assert config.env.make_kwargs() == {"mission": "tunnel", "num_players": 3, "max_turns": 50}
    # the file itself is untouched by overrides
    assert load_config(path).ppo.learning_rate == pytest.approx(3e-4)


def test_override_creates_missing_sections(tmp_path):
    config = load_config(
        write(tmp_path, "env: {name: heroica_v0}\nn_envs: 1\n"),
        ["league.snapshots=0", "env.options.mission=arena", "ppo.n_steps=64", "ppo.batch_size=64"],
    )
    assert config.league.snapshots == 0
    assert config.env.options == {"mission": "arena"}


def test_override_null_resets_to_default(tmp_path):
    config = load_config(
        write(tmp_path, BASE + "resume_from: runs/x/checkpoints/a.zip\n"),
        ["resume_from=", "run_name=null"],
    )
    assert config.resume_from is None
    assert config.run_name.startswith("heroica_v0_")


def test_unknown_override_key_names_the_override(tmp_path):
    path = write(tmp_path, BASE)
    with pytest.raises(ScenarioError) as info:
        load_config(path, ["ppo.lr=1e-4"])
    err = info.value
    assert err.field == "ppo.lr"
    assert "override 'ppo.lr=1e-4'" in str(err)
    assert "learning_rate" in str(err)  # the allowed fields are listed
    assert str(path) in str(err)

    with pytest.raises(ScenarioError, match="override 'nonsense=1'") as info:
        load_config(path, ["nonsense=1"])
    assert info.value.field == "nonsense"

    with pytest.raises(ScenarioError, match="not a section") as info:
        load_config(path, ["ppo.gamma.x=1"])
    assert "override 'ppo.gamma.x=1'" in str(info.value)


def test_expert_iteration_halving_over_one_action_is_named(tmp_path):
    path = write(tmp_path, BASE)
    with pytest.raises(ScenarioError) as info:
        load_config(path, ["expert_iteration.considered=1"])
    assert info.value.field == "expert_iteration.considered"
    assert "at least 2 (sequential halving)" in str(info.value)
    config = load_config(path, ["expert_iteration.considered=4"])
    assert config.expert_iteration.considered == 4


def test_malformed_override(tmp_path):
    with pytest.raises(ScenarioError, match="expected key=value"):
        load_config(write(tmp_path, BASE), ["total_timesteps"])


def test_override_with_wrong_type_names_the_override_not_a_line(tmp_path):
    path = write(tmp_path, BASE)
    with pytest.raises(ScenarioError) as info:
        load_config(path, ["ppo.n_steps=lots"])
    err = info.value
    assert err.field == "ppo.n_steps"
    assert err.line is None  # the file's line 7 holds the value that was replaced
    assert "override 'ppo.n_steps=lots'" in str(err)


# ------------------------------------------------------------------------------------------
# Errors in the file: file, line and field
# ------------------------------------------------------------------------------------------
def test_unknown_key_in_file_names_file_line_and_field(tmp_path):
    path = write(tmp_path, BASE + "  learning_rat: 0.001\n")
    with pytest.raises(ScenarioError) as info:
        load_config(path)
    err = info.value
    assert err.source == str(path)
    assert err.line == 9
    assert err.field == "ppo.learning_rat"
    assert "unknown field 'learning_rat'" in err.message
    assert f"{path}, line 9, field 'ppo.learning_rat'" in str(err)


def test_unknown_top_level_key(tmp_path):
    path = write(tmp_path, "total_steps: 5\n" + BASE)
    with pytest.raises(ScenarioError) as info:
        load_config(path)
    assert (info.value.line, info.value.field) == (1, "total_steps")


@pytest.mark.parametrize(
    "line_text, line, field",
    [
        ("total_timesteps: lots\n", 9, "total_timesteps"),
        ("total_timesteps: 5.5\n", 9, "total_timesteps"),
        ('progress_bar: "yes"\n', 9, "progress_bar"),
        ('seed: "3"\n', 9, "seed"),
        ("run_dir: 5\n", 9, "run_dir"),
    ],
)
def test_wrong_type_names_file_line_and_field(tmp_path, line_text, line, field):
    path = write(tmp_path, BASE + line_text)
    with pytest.raises(ScenarioError) as info:
        load_config(path)
    err = info.value
    assert (err.source, err.line, err.field) == (str(path), line, field)


def test_wrong_type_in_a_nested_section(tmp_path):
    path = write(tmp_path, BASE + "  gamma: true\n")
    with pytest.raises(ScenarioError) as info:
        load_config(path)
    assert (info.value.line, info.value.field) == (9, "ppo.gamma")


def test_out_of_range_values(tmp_path):
    for text, field in [
        ("  learning_rate: -1\n", "ppo.learning_rate"),
        ("  gamma: 1.5\n", "ppo.gamma"),
    ]:
        with pytest.raises(ScenarioError) as info:
            load_config(write(tmp_path, BASE + text))
        assert info.value.field == field
    with pytest.raises(ScenarioError) as info:
        load_config(write(tmp_path, BASE), ["network.kernel_size=4"])
    assert info.value.field == "network.kernel_size"
    with pytest.raises(ScenarioError) as info:
        load_config(write(tmp_path, BASE), ["eval.opponents=[random, expert]"])
    assert info.value.field.startswith("eval.opponents")


@pytest.mark.parametrize(
    "override, field",
    [
        ("time_limit_minutes=0", "time_limit_minutes"),
        ("eval.final_games=0", "eval.final_games"),
        ("pretrain.epochs=0", "pretrain.epochs"),
        ("pretrain.games=-1", "pretrain.games"),
        ("pretrain.demonstrator=expert", "pretrain.demonstrator"),
        ("pretrain.warm=true", "pretrain.warm"),
    ],
)
def test_budget_evaluation_and_warm_start_settings_are_checked(tmp_path, override, field):
    with pytest.raises(ScenarioError) as info:
        load_config(write(tmp_path, BASE), [override])
    assert info.value.field == field


def test_warm_start_and_time_limit_are_off_by_default(tmp_path):
    config = load_config(write(tmp_path, BASE))
    assert (
        config.pretrain.games == 0
        and config.time_limit_minutes is None
        and config.eval.final_games is None
    )


def test_unregistered_env_name(tmp_path):
    path = write(tmp_path, BASE.replace("heroica_v0", "heroquest_v0"))
    with pytest.raises(
        ScenarioError, match="registered: heroclix_v0, heroica_v0, heroscape_v0"
    ) as info:
        load_config(path)
    assert (info.value.line, info.value.field) == (2, "env.name")


def test_env_keys_do_not_belong_in_options(tmp_path):
    with pytest.raises(ScenarioError, match="env.max_turns") as info:
        load_config(write(tmp_path, BASE), ["env.options.max_turns=5"])
    assert info.value.field == "env.options"


def test_missing_env(tmp_path):
    with pytest.raises(ScenarioError, match="missing required field 'env'"):
        load_config(write(tmp_path, "n_envs: 1\n"))


def test_not_a_mapping_and_empty_file(tmp_path):
    with pytest.raises(ScenarioError, match="mapping"):
        load_config(write(tmp_path, "- 1\n- 2\n"))
    with pytest.raises(ScenarioError, match="missing required field 'env'"):
        load_config(write(tmp_path, ""))


def test_yaml_syntax_error_has_a_line(tmp_path):
    with pytest.raises(ScenarioError) as info:
        load_config(write(tmp_path, BASE + "  n_epochs: [1, 2\n"))
    assert info.value.line is not None


def test_batch_size_not_dividing_the_rollout_is_a_clear_error(tmp_path):
    path = write(tmp_path, BASE.replace("batch_size: 32", "batch_size: 48"))
    with pytest.raises(ScenarioError) as info:
        load_config(path)
    err = info.value
    assert err.field == "ppo.batch_size"
    assert err.line == 8
    assert "48" in err.message and "64 * 1 = 64" in err.message
    assert "divide" in err.message

    # the rollout grows with n_envs: 64 * 3 = 192 is not divisible by 128
    with pytest.raises(ScenarioError, match=r"64 \* 3 = 192"):
        load_config(path, ["n_envs=3", "ppo.batch_size=128"])
    assert load_config(path, ["n_envs=3", "ppo.batch_size=64"]).ppo.batch_size == 64


def test_league_weights_not_all_zero(tmp_path):
    path = write(tmp_path, BASE)
    with pytest.raises(ScenarioError, match="all zero") as info:
        load_config(path, ["league.random=0", "league.heuristic=0", "league.snapshots=0"])
    assert info.value.field.startswith("league")
    with pytest.raises(ScenarioError, match="league.random=-1"):
        load_config(path, ["league.random=-1"])


def test_league_weights_normalise():
    league = LeagueConfig(random=1, heuristic=1, snapshots=2)
    assert league.weights() == {
        "random": 0.25,
        "heuristic": 0.25,
        "lookahead": 0.0,
        "snapshots": 0.5,
    }
    assert league.weights(have_snapshots=False) == {
        "random": 0.5,
        "heuristic": 0.5,
        "lookahead": 0.0,
        "snapshots": 0.0,
    }
    with_lookahead = LeagueConfig(random=1, heuristic=1, lookahead=2, snapshots=0)
    assert with_lookahead.weights()["lookahead"] == 0.5


# ------------------------------------------------------------------------------------------
# n_envs, dump/load
# ------------------------------------------------------------------------------------------
def test_n_envs_auto_resolves_to_cpu_count(tmp_path, monkeypatch):
    path = write(tmp_path, BASE.replace("n_envs: 1", "n_envs: auto"))
    config = load_config(path)
    assert config.n_envs == "auto"
    assert config.num_envs == (os.cpu_count() or 1)
    monkeypatch.setattr(config_mod.os, "cpu_count", lambda: 7)
    assert config.num_envs == 7
    assert config.resolved().n_envs == 7
    assert load_config(path, ["n_envs=3"]).num_envs == 3


def test_n_envs_rejects_nonsense(tmp_path):
    for value in ("0", "many", "true", "2.0"):
        with pytest.raises(ScenarioError, match="n_envs must be 'auto' or an integer"):
            load_config(write(tmp_path, BASE), [f"n_envs={value}"])


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_dump_load_round_trip(tmp_path, path):
    config = load_config(
        path,
        [
            "ppo.learning_rate=1e-5",
            "env.options.board_size=[16, 24]",
            "resume_from=runs/old/checkpoints/model_1000_steps.zip",
        ],
    )
    out = dump_config(config, tmp_path / "run" / "config.yaml")
    assert out.exists()
    again = load_config(out)
    assert again == config
    assert again.run_name == config.run_name  # the generated name is stored, not regenerated
    # and once more, to be sure the dumped form is a fixed point
    dump_config(again, tmp_path / "again.yaml")
    assert (tmp_path / "again.yaml").read_text() == out.read_text()


def test_dump_of_resolved_config_stores_the_env_count(tmp_path):
    config = load_config(
        write(tmp_path, BASE.replace("n_envs: 1", "n_envs: auto")), ["ppo.batch_size=64"]
    )
    out = dump_config(config.resolved(), tmp_path / "resolved.yaml")
    assert load_config(out).n_envs == config.num_envs


def test_configs_are_immutable(tmp_path):
    config = load_config(write(tmp_path, BASE))
    with pytest.raises(pydantic.ValidationError):
        config.total_timesteps = 5  # type: ignore[misc]


def test_programmatic_construction_checks_too():
    with pytest.raises(Exception, match="does not divide"):
        TrainConfig(
            env=EnvConfig(name="heroica_v0"), n_envs=1, ppo={"n_steps": 64, "batch_size": 48}
        )


def test_every_field_is_documented():
    rows = list(describe_fields())
    keys = {key for key, _, _ in rows}
    assert {
        "ppo.learning_rate",
        "env.options",
        "network.net_arch.pi",
        "league.snapshots",
        "eval.games",
        "video.speed",
        "n_envs",
        "resume_from",
    } <= keys
    undocumented = [key for key, _, doc in rows if not doc]
    assert undocumented == []
