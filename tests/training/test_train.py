"""Training smoke tests: the whole pipeline in a subprocess with tiny budgets (smoke configs)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import imageio.v2 as imageio
import pytest

from training.config import load_config

ROOT = Path(__file__).resolve().parents[2]


def run_train(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "training.train", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def check_run_folder(run: Path, opponents: set[str]) -> None:
    for name in ("config.yaml", "final_model.zip", "eval.csv", "final_game.mp4"):
        assert (run / name).is_file(), f"{name} missing from {run}"
    assert list((run / "checkpoints").glob("*.zip")) and list((run / "tb").iterdir())
    load_config(run / "config.yaml")  # the stored config is a valid config
    with (run / "eval.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert {row["opponent"] for row in rows} == opponents
    for row in rows:
        assert 0.0 <= float(row["ci_low"]) <= float(row["win_rate"]) <= float(row["ci_high"]) <= 1.0
    reader = imageio.get_reader(run / "final_game.mp4")
    assert reader.count_frames() >= 2
    reader.close()


@pytest.mark.parametrize("game", ["heroica", "heroscape"])
def test_smoke_training_leaves_a_complete_run_folder(game, tmp_path):
    done = run_train("--config", f"configs/smoke_{game}.yaml", f"run_dir={tmp_path}", "run_name=smoke",
                     "progress_bar=false")
    assert done.returncode == 0, done.stderr[-3000:]
    check_run_folder(tmp_path / "smoke", {"random", "heuristic"})
    assert list((tmp_path / "smoke" / "snapshots").glob("*.zip"))  # snapshots joined the pool


def test_training_resumes_from_a_checkpoint(tmp_path):
    first = run_train("--config", "configs/smoke_heroica.yaml", f"run_dir={tmp_path}", "run_name=first",
                      "progress_bar=false", "video.enabled=false")
    assert first.returncode == 0, first.stderr[-3000:]
    checkpoint = sorted((tmp_path / "first" / "checkpoints").glob("*.zip"))[-1]
    second = run_train("--config", "configs/smoke_heroica.yaml", f"run_dir={tmp_path}", "run_name=second",
                       "progress_bar=false", "video.enabled=false", f"resume_from={checkpoint}")
    assert second.returncode == 0, second.stderr[-3000:]
    with (tmp_path / "second" / "eval.csv").open() as handle:
        steps = [int(row["timesteps"]) for row in csv.DictReader(handle)]
    assert max(steps) > 256  # the step count went on from the checkpoint's 256


def test_a_bad_config_key_is_an_error_naming_file_and_field(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("env:\n  name: heroica_v0\nppo:\n  learning_rat: 0.1\n")
    done = run_train("--config", str(bad))
    assert done.returncode == 2
    assert "bad.yaml" in done.stderr and "learning_rat" in done.stderr and "line 4" in done.stderr
