"""Training smoke tests: the whole pipeline in a subprocess with tiny budgets (smoke configs)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import imageio.v2 as imageio
import pytest
import yaml

from training.config import load_config
from training.train import main as train_main

ROOT = Path(__file__).resolve().parents[2]


def run_train(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "training.train", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


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
    summary = json.loads((run / "summary.json").read_text())
    assert summary["timesteps"] >= 256 and set(summary["final"]) == opponents
    final_rows = [row for row in rows if int(row["timesteps"]) == summary["timesteps"]]
    assert {row["opponent"]: float(row["win_rate"]) for row in final_rows} == {
        name: result["win_rate"] for name, result in summary["final"].items()
    }


# heroscape also runs the behaviour-cloning warm start (pretrain) on the spatial network, so
# both paths and both networks are smoked
@pytest.mark.slow
@pytest.mark.parametrize(
    "game, extra",
    [
        ("heroica", []),
        (
            "heroscape",
            [
                "pretrain.games=3",
                "pretrain.epochs=1",
                "network.kind=spatial",
                "network.spatial.channels=8",
                "torch_threads=auto",
            ],
        ),
    ],
)
def test_smoke_training_leaves_a_complete_run_folder(game, extra, tmp_path):
    done = run_train(
        "--config",
        f"configs/smoke_{game}.yaml",
        f"run_dir={tmp_path}",
        "run_name=smoke",
        "progress_bar=false",
        *extra,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    run = tmp_path / "smoke"
    check_run_folder(run, {"random", "heuristic"})
    assert list((run / "snapshots").glob("*.zip"))  # snapshots joined the pool
    summary = json.loads((run / "summary.json").read_text())
    with (run / "eval.csv").open() as handle:
        first_steps = int(next(csv.DictReader(handle))["timesteps"])
    if extra:  # the cloned policy is evaluated before PPO starts: a row at step 0
        assert summary["pretrain"]["samples"] > 0 and first_steps == 0
    else:
        assert summary["pretrain"] is None and first_steps > 0
    # the step-0 (warm start) and final evaluations reach TensorBoard as the periodic ones do
    scalars = tensorboard_scalars(run / "tb")
    steps = {step for step, _ in scalars["eval/win_rate_vs_heuristic"]}
    assert summary["timesteps"] in steps and (0 in steps) == bool(extra)
    assert ("pretrain/accuracy" in scalars) == bool(extra)
    for key in (
        "rollout/learner_decisions_per_s",
        "rollout/env_decisions_per_s",
        "train/approx_kl",
    ):
        assert key in scalars, sorted(scalars)
    throughput = summary["throughput"]
    assert throughput["env_decisions"] > throughput["learner_decisions"] > 0
    assert throughput["env_decisions_per_second"] > throughput["learner_decisions_per_second"] > 0
    assert summary["ppo_updates"]["updates"] >= 3 and summary["ppo_updates"]["approx_kl_mean"] > 0
    if "torch_threads=auto" in extra:  # the updates timed each thread count and chose one
        tuned = summary["torch_threads"]["updates"]
        assert tuned["choices"] and tuned["threads"] == tuned["choices"][-1]
        assert set(tuned["seconds_by_threads"]) == {str(n) for n in tuned["choices"]} | {"1"}
    else:
        assert summary["torch_threads"] is None
    # per-seat rates add up, and the results table quotes the run
    for result in summary["final"].values():
        assert sum(seat["games"] for seat in result["seats"]) == result["games"]
        assert sum(seat["wins"] for seat in result["seats"]) == result["wins"]
    table = subprocess.run(
        [sys.executable, "-m", "training.results", str(run)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert table.returncode == 0, table.stderr
    header, rule, row = table.stdout.strip().splitlines()
    assert header.startswith("| env | steps | wall (min) | vs random | vs heuristic |")
    heuristic = summary["final"]["heuristic"]
    seed = yaml.safe_load((run / "config.yaml").read_text())["seed"]
    assert row.startswith(f"| {summary['env']} (seed {seed}) | {summary['timesteps']} |")
    assert (
        f"{heuristic['win_rate']:.3f} [{heuristic['ci_low']:.3f}, {heuristic['ci_high']:.3f}] "
        f"({heuristic['games']})" in row
    )


def tensorboard_scalars(folder: Path) -> dict[str, list[tuple[int, float]]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    scalars: dict[str, list[tuple[int, float]]] = {}
    for events in folder.rglob("events.out.tfevents.*"):
        accumulator = EventAccumulator(str(events))
        accumulator.Reload()
        for tag in accumulator.Tags()["scalars"]:
            scalars.setdefault(tag, []).extend((e.step, e.value) for e in accumulator.Scalars(tag))
    return scalars


@pytest.mark.slow
def test_the_time_limit_stops_learning_early_and_still_evaluates(tmp_path):
    done = run_train(
        "--config",
        "configs/smoke_heroica.yaml",
        f"run_dir={tmp_path}",
        "run_name=limited",
        "progress_bar=true",
        "video.enabled=false",
        "total_timesteps=1000000",
        "time_limit_minutes=0.05",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads((tmp_path / "limited" / "summary.json").read_text())
    assert summary["stopped_by_time_limit"] and summary["timesteps"] < 1_000_000
    # the bar counts down the time budget, not the 1,000,000 steps the time limit cuts short
    assert f"step {summary['timesteps']}/1000000" in done.stdout
    assert set(summary["final"]) == {"random", "heuristic"}


@pytest.mark.slow
def test_training_resumes_from_a_checkpoint_in_its_own_run_folder(tmp_path):
    first = run_train(
        "--config",
        "configs/smoke_heroica.yaml",
        f"run_dir={tmp_path}",
        "run_name=first",
        "progress_bar=false",
        "video.enabled=false",
    )
    assert first.returncode == 0, first.stderr[-3000:]
    run = tmp_path / "first"
    checkpoint = run / "checkpoints" / "model_128_steps.zip"
    # in-process: a second torch import would double the test's time
    assert (
        train_main(
            [
                "--config",
                "configs/smoke_heroica.yaml",
                f"run_dir={tmp_path}",
                "run_name=second",
                "video.enabled=false",
                f"resume_from={checkpoint}",
            ]
        )
        == 0
    )
    assert not (tmp_path / "second").exists()  # the checkpoint's run folder is continued
    summary = json.loads((run / "summary.json").read_text())
    assert summary["timesteps"] == 256  # up to total_timesteps, not 128 + 256
    resumed = summary["resumed_from"]
    assert resumed["timesteps"] == 128 and resumed["opponent_pool"] == ["snapshot_128"]
    with (run / "eval.csv").open() as handle:
        steps = [int(row["timesteps"]) for row in csv.DictReader(handle)]
    # the step-128 rows are kept once; the first run's rows after 128 were redone, not duplicated
    assert steps.count(128) == 2 and steps.count(256) == 4 and set(steps) == {128, 256}


def test_a_bad_config_key_is_an_error_naming_file_and_field(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("env:\n  name: heroica_v0\nppo:\n  learning_rat: 0.1\n")
    done = run_train("--config", str(bad))
    assert done.returncode == 2
    assert "bad.yaml" in done.stderr and "learning_rat" in done.stderr and "line 4" in done.stderr


@pytest.mark.slow
def test_main_job_trains_evaluates_and_films_in_a_fresh_run_folder(tmp_path):
    out = tmp_path / "main"
    out.mkdir()
    (out / "config.yaml").write_text("from an earlier run")
    (out / "stale.txt").write_text("from an earlier run")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "training.main",
            "--config",
            "configs/smoke_heroica.yaml",
            "--minutes",
            "0.05",
            "--out",
            str(out),
            "progress_bar=false",
            "eval.final_games=4",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert not (out / "stale.txt").exists()  # the run folder is replaced, not mixed with an old run
    summary = json.loads((out / "summary.json").read_text())
    assert {name: result["games"] for name, result in summary["final"].items()} == {
        "random": 4,
        "heuristic": 4,
    }
    assert "vs heuristic: win rate" in done.stdout and str(out / "final_game.mp4") in done.stdout
    assert (out / "final_game.mp4").stat().st_size > 0


def test_main_job_refuses_to_replace_a_folder_that_is_not_a_run(tmp_path):
    precious = tmp_path / "notes"
    precious.mkdir()
    (precious / "thesis.txt").write_text("not a run")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "training.main",
            "--config",
            "configs/smoke_heroica.yaml",
            "--out",
            str(precious),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 2 and "is not a run folder" in done.stderr
    assert (precious / "thesis.txt").read_text() == "not a run"
