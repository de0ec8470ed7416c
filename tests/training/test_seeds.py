"""One config trained once per seed (training.seeds), ending with the pooled results table."""

from __future__ import annotations

import pytest
import yaml

from training.seeds import main


@pytest.mark.slow
def test_seeds_train_one_run_each_and_end_with_the_pooled_table(tmp_path, capsys):
    overrides = [f"run_dir={tmp_path}", "run_name=pool", "video.enabled=false", "eval.games=2"]
    assert main(["--config", "configs/smoke_heroica.yaml", "--seeds", "3,4", *overrides]) == 0
    for seed in (3, 4):
        config = yaml.safe_load((tmp_path / f"pool_seed{seed}" / "config.yaml").read_text())
        assert config["seed"] == seed
    table = capsys.readouterr().out.strip().splitlines()[-3:]
    assert [row.split(" | ")[0] for row in table] == [
        "| heroica_v0 (seed 3)",
        "| heroica_v0 (seed 4)",
        "| **heroica_v0 pooled (2 runs)**",
    ]


@pytest.mark.parametrize(
    "seeds, problem", [("1,1", "listed twice"), ("1,two", "integers separated by commas")]
)
def test_bad_seeds_are_refused_before_any_training(tmp_path, capsys, seeds, problem):
    with pytest.raises(SystemExit) as stopped:
        main(["--config", "configs/smoke_heroica.yaml", "--seeds", seeds, f"run_dir={tmp_path}"])
    assert stopped.value.code == 2
    assert problem in capsys.readouterr().err and not any(tmp_path.iterdir())


def test_a_bad_override_is_refused_before_any_training(tmp_path, capsys):
    args = ["--config", "configs/smoke_heroica.yaml", "--seeds", "0,1", f"run_dir={tmp_path}"]
    assert main([*args, "ppo.learning_rat=0.1"]) == 2
    assert "learning_rat" in capsys.readouterr().err and not any(tmp_path.iterdir())
