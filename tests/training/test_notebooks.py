"""The notebooks run top to bottom (papermill, small parameters) on a model trained here, and
are stored in git without outputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import papermill
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"


EVALUATED_AGAINST = "eval.opponents=[random,heuristic,lookahead]"  # the shipped configs' three


def train_tiny(runs: Path, config: str, name: str) -> Path:
    """A run folder from a tiny training run: checkpoints, eval.csv, summary.json, final model."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "training.train",
            "--config",
            str(ROOT / "configs" / config),
            f"run_dir={runs}",
            f"run_name={name}",
            "progress_bar=false",
            "video.enabled=false",
            EVALUATED_AGAINST,
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=600,
    )
    run = runs / name
    assert (run / "final_model.zip").exists() and (run / "eval.csv").exists()
    return run


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory) -> Path:
    return train_tiny(tmp_path_factory.mktemp("runs"), "smoke_heroica.yaml", "heroica_v0_tiny")


@pytest.fixture(scope="module")
def tiny_heroscape_run(tmp_path_factory) -> Path:
    return train_tiny(tmp_path_factory.mktemp("runs"), "smoke_heroscape.yaml", "heroscape_v0_tiny")


@pytest.fixture(scope="module")
def tiny_seed_runs(tmp_path_factory) -> list[Path]:
    """Two tiny runs of one config with seeds 0 and 1 (training.seeds)."""
    runs = tmp_path_factory.mktemp("runs")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "training.seeds",
            "--config",
            str(ROOT / "configs" / "smoke_heroica.yaml"),
            "--seeds",
            "0,1",
            f"run_dir={runs}",
            "run_name=tiny",
            "progress_bar=false",
            "video.enabled=false",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=600,
    )
    return [runs / "tiny_seed0", runs / "tiny_seed1"]


def execute(name: str, tmp_path: Path, **parameters) -> nbformat.NotebookNode:
    output = tmp_path / name
    papermill.execute_notebook(
        str(NOTEBOOKS / name),
        str(output),
        parameters=parameters,
        cwd=str(tmp_path),
        kernel_name="python3",
        progress_bar=False,
        log_output=False,
    )
    return nbformat.read(output, as_version=4)


def outputs_of(book: nbformat.NotebookNode, mime: str) -> list[str]:
    return [
        str(out["data"][mime])
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if mime in out.get("data", {})
    ]


@pytest.mark.slow
def test_evaluate_policies_notebook_plays_a_tournament_and_plots_it(
    tiny_run: Path, tiny_heroscape_run: Path, tiny_seed_runs: list[Path], tmp_path: Path
):
    out_dir = tmp_path / "tournament"
    book = execute(
        "evaluate_policies.ipynb",
        tmp_path,
        env_name="heroica_v0",
        run_dir=str(tiny_run),
        checkpoints=1,
        games_per_pair=2,
        options={"max_rounds": 4},
        out_dir=str(out_dir),
        result_runs=[str(tiny_run), str(tiny_heroscape_run)],
        seed_runs=[str(run) for run in tiny_seed_runs],
    )
    tournament = json.loads((out_dir / "tournament.json").read_text())
    # the default bots (random, heuristic, lookahead), one checkpoint and the final model
    assert len(tournament["agents"]) == 5 and {"lookahead", "final"} <= set(tournament["agents"])
    assert len(tournament["games"]) == 10 * 2
    # the win-rate matrix, the ratings, the learning curves, the results per game (the results
    # page's table with a row per game and a column per bot, and each run's learning curves),
    # and the seeds: their pooled table and their curves with the spread
    assert len(outputs_of(book, "image/png")) == 5
    table, seeds = outputs_of(book, "text/markdown")
    assert "| heroica_v0 (seed " in table and "| heroscape_v0 (seed " in table
    assert all(f"vs {bot}" in table for bot in ("random", "heuristic", "lookahead"))
    assert "| heroica_v0 (seed 0)" in seeds and "| heroica_v0 (seed 1)" in seeds
    assert "**heroica_v0 pooled (2 runs)**" in seeds


@pytest.mark.slow
def test_watch_episode_notebook_shows_the_video_and_the_steps(tiny_run: Path, tmp_path: Path):
    out_dir = tmp_path / "episodes"
    book = execute(
        "watch_episode.ipynb",
        tmp_path,
        env_name="heroica_v0",
        agents=[f"learner={tiny_run / 'final_model.zip'}", "heuristic"],
        seed=3,
        options={"max_rounds": 3},
        height=360,
        show_decisions=[0, -1],
        out_dir=str(out_dir),
    )
    assert sorted(p.suffix for p in out_dir.iterdir()) == [".gif", ".mp4"]
    assert any("<video" in html for html in outputs_of(book, "text/html"))
    assert len(outputs_of(book, "image/png")) == 2
    log = "".join(
        out.get("text", "")
        for cell in book.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
    )
    assert "player_0 (learner): " in log and "player_1 (heuristic): " in log


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_notebooks_are_stored_without_outputs_and_take_parameters(path: Path):
    book = nbformat.read(path, as_version=4)
    nbformat.validate(book)
    code = [cell for cell in book.cells if cell.cell_type == "code"]
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code), (
        f"{path.name} has outputs: clear them before committing"
    )
    assert sum("parameters" in cell.metadata.get("tags", []) for cell in code) == 1


def test_both_notebooks_exist():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == [
        "evaluate_policies.ipynb",
        "watch_episode.ipynb",
    ]
