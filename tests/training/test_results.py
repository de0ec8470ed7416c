"""The results table over run folders (training.results), pooling seeds with --pool.

Run folders are written here as training leaves them (``summary.json``, ``config.yaml``), with
made-up figures whose sums are known.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from envs.bots import wilson_interval
from training.results import main, markdown_table, seed_curves, seed_groups


def result(wins: tuple[int, int], games: tuple[int, int]) -> dict:
    """A final evaluation against one opponent, per seat (seat 0, seat 1)."""
    seats = [
        {"games": g, "wins": w, "win_rate": w / g, "ci_low": 0.0, "ci_high": 1.0}
        for w, g in zip(wins, games)
    ]
    return {
        "games": sum(games),
        "wins": sum(wins),
        "win_rate": sum(wins) / sum(games),
        "ci_low": 0.0,
        "ci_high": 1.0,
        "seats": seats,
    }


def write_run(
    folder: Path, seed: int, final: dict, env: str = "heroica_v0", stopped_during: str = ""
) -> Path:
    """A run folder as training leaves it; ``stopped_during``: the phase an interrupt cut."""
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text(yaml.safe_dump({"env": {"name": env}, "seed": seed}))
    summary = {"env": env, "timesteps": 1000, "train_minutes": 60.0, "final": final}
    if stopped_during:
        summary |= {"interrupted": True, "stopped_during": stopped_during}
    (folder / "summary.json").write_text(json.dumps(summary))
    return folder


def test_pool_sums_games_and_wins_per_opponent_and_seat(tmp_path):
    runs = [
        write_run(tmp_path / "s0", 0, {"heuristic": result((30, 20), (50, 50))}),
        write_run(tmp_path / "s1", 1, {"heuristic": result((25, 35), (50, 50))}),
        write_run(tmp_path / "s2", 2, {"heuristic": result((40, 30), (50, 50))}),
    ]
    lines = markdown_table(runs, pool=True).splitlines()
    assert [line.split(" | ")[0] for line in lines[2:]] == [
        "| heroica_v0 (seed 0)",
        "| heroica_v0 (seed 1)",
        "| heroica_v0 (seed 2)",
        "| **heroica_v0 pooled (3 runs)**",
    ]
    low, high = wilson_interval(180, 300)
    pooled = lines[-1]
    assert f"0.600 [{low:.3f}, {high:.3f}] (300)" in pooled
    assert "s0 0.63 / s1 0.57" in pooled  # 95/150 and 85/150
    assert "| 3000 | 180 |" in pooled  # steps and minutes summed


def test_an_opponent_missing_from_one_run_is_not_pooled(tmp_path):
    runs = [
        write_run(
            tmp_path / "a",
            0,
            {"heuristic": result((5, 5), (10, 10)), "lookahead": result((4, 4), (10, 10))},
        ),
        write_run(tmp_path / "b", 1, {"heuristic": result((6, 6), (10, 10))}),
    ]
    pooled = markdown_table(runs, pool=True).splitlines()[-1].split(" | ")
    assert pooled[3] == "0.550 [0.398, 0.693] (40)" and pooled[4] == "-"


def test_a_run_stopped_while_filming_is_marked_without_video_and_pools_as_whole(tmp_path):
    final = {"heuristic": result((5, 5), (10, 10))}
    runs = [
        write_run(tmp_path / "a", 0, final, stopped_during="video"),
        write_run(tmp_path / "b", 1, final),
    ]
    labels = [line.split(" | ")[0] for line in markdown_table(runs, pool=True).splitlines()[2:]]
    assert labels == [
        "| heroica_v0 (seed 0) (no video)",
        "| heroica_v0 (seed 1)",
        "| **heroica_v0 pooled (2 runs)**",
    ]
    runs.append(write_run(tmp_path / "c", 2, final, stopped_during="learning"))
    labels = [line.split(" | ")[0] for line in markdown_table(runs, pool=True).splitlines()[2:]]
    assert labels[2:] == [
        "| heroica_v0 (seed 2) (interrupted)",
        "| **heroica_v0 pooled (3 runs, one interrupted)**",
    ]


def test_runs_sharing_a_seed_are_not_pooled(tmp_path, capsys):
    runs = [write_run(tmp_path / n, 7, {"heuristic": result((5, 5), (10, 10))}) for n in "ab"]
    with pytest.raises(ValueError, match="share seed 7"):
        markdown_table(runs, pool=True)
    assert main(["--pool", *map(str, runs)]) == 2
    assert "share seed 7" in capsys.readouterr().err
    assert "(seed 7)" in markdown_table(runs)  # listing them without pooling is fine


def write_eval_csv(run: Path, rows: list[tuple[int, str, int, int]]) -> None:
    """eval.csv rows (timesteps, opponent, games, wins), as training writes them."""
    lines = ["timesteps,opponent,games,wins,draws,losses,win_rate,ci_low,ci_high"]
    for steps, opponent, games, wins in rows:
        lines.append(f"{steps},{opponent},{games},{wins},0,{games - wins},{wins / games},0,1")
    (run / "eval.csv").write_text("\n".join(lines) + "\n")


def test_seed_curves_give_mean_and_spread_at_the_steps_every_seed_has(tmp_path):
    a = write_run(tmp_path / "x_seed0", 0, {})
    b = write_run(tmp_path / "x_seed1", 1, {})
    write_eval_csv(
        a, [(0, "heuristic", 10, 4), (100, "heuristic", 10, 6), (150, "heuristic", 30, 21)]
    )
    # seed 1's final evaluation shares step 100 with a periodic one: pooled, 8 + 22 of 40
    write_eval_csv(
        b, [(0, "heuristic", 10, 2), (100, "heuristic", 10, 8), (100, "heuristic", 30, 22)]
    )
    curve = seed_curves([a, b])["heuristic"]
    assert curve["timesteps"].tolist() == [0, 100]
    assert curve["mean"] == pytest.approx([0.3, (0.6 + 0.75) / 2])
    assert curve["low"] == pytest.approx([0.2, 0.6]) and curve["high"] == pytest.approx([0.4, 0.75])
    steps, rates = curve["runs"][0]
    assert steps.tolist() == [0, 100, 150] and rates == pytest.approx([0.4, 0.6, 0.7])


def test_seed_groups_gather_runs_by_name_in_seed_order(tmp_path):
    for name, seed in (("h_seed2", 2), ("h_seed0", 0), ("h_seed1", 1), ("other", 5)):
        write_run(tmp_path / name, seed, {})
    (tmp_path / "g_seed0").mkdir()  # unfinished: no summary.json
    assert seed_groups(tmp_path) == {"h": [tmp_path / f"h_seed{k}" for k in range(3)]}
