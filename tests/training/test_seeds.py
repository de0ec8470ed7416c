"""One config trained once per seed (training.seeds), ending with the pooled results table."""

from __future__ import annotations

import json

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


def finished_run(folder, seed: int, stopped_during: str = "") -> None:
    """A seed folder as training leaves it, with made-up results; ``stopped_during``: the
    phase an interrupt cut (none: a finished run)."""
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text(
        yaml.safe_dump({"env": {"name": "heroica_v0"}, "seed": seed})
    )
    result = {"games": 10, "wins": 6, "win_rate": 0.6, "ci_low": 0.3, "ci_high": 0.85, "seats": []}
    summary = {
        "env": "heroica_v0",
        "timesteps": 100,
        "train_minutes": 1.0,
        "final": {"heuristic": result},
        "interrupted": bool(stopped_during),
        "stopped_during": stopped_during or None,
    }
    (folder / "summary.json").write_text(json.dumps(summary))


def test_a_pool_continued_later_keeps_the_finished_seeds(tmp_path, capsys):
    finished_run(tmp_path / "pool_seed3", 3)
    overrides = [f"run_dir={tmp_path}", "run_name=pool"]
    assert main(["--config", "configs/smoke_heroica.yaml", "--seeds", "3", *overrides]) == 0
    out = capsys.readouterr().out
    assert "finished before: kept" in out
    assert "| heroica_v0 (seed 3) |" in out and "0.600" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool_seed3"]


def test_a_seed_stopped_while_filming_its_final_game_is_kept(tmp_path, capsys):
    finished_run(tmp_path / "pool_seed3", 3, stopped_during="video")
    overrides = [f"run_dir={tmp_path}", "run_name=pool"]
    assert main(["--config", "configs/smoke_heroica.yaml", "--seeds", "3", *overrides]) == 0
    out = capsys.readouterr().out
    assert "finished before: kept" in out and "| heroica_v0 (seed 3) (no video) |" in out


@pytest.mark.parametrize(
    "interrupted", ["learning", "final evaluation", None], ids=["learning", "evaluation", "none"]
)
def test_an_unfinished_seed_folder_is_refused_before_any_training(tmp_path, capsys, interrupted):
    if interrupted:
        finished_run(tmp_path / "pool_seed4", 4, stopped_during=interrupted)
    else:
        (tmp_path / "pool_seed4").mkdir()
        (tmp_path / "pool_seed4" / "eval.csv").write_text("timesteps\n")
    overrides = [f"run_dir={tmp_path}", "run_name=pool"]
    assert main(["--config", "configs/smoke_heroica.yaml", "--seeds", "5,4", *overrides]) == 2
    assert "pool_seed4 holds an unfinished run (seed 4)" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pool_seed4"]
