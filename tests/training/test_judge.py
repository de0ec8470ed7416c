"""Judging a player made from a run's final model (training.judge) and the table of judged
results (training.results --player).

The model is untrained: these tests are about seeds, records and pooling, not skill.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envs.bots import get_bot, play_match, wilson_interval
from envs.match import game_factory
from training.agents import PolicyBot
from training.config import dump_config, load_config
from training.evaluation import eval_seed
from training.judge import judge_run, main
from training.results import judged_path, markdown_table

from .test_search_agent import CONFIGS, save_model

TIMESTEPS = 256


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory) -> Path:
    """A finished run as training leaves it: config (seed 3), final model, summary.json."""
    run = tmp_path_factory.mktemp("runs") / "heroica_seed3"
    dump_config(load_config(CONFIGS / "smoke_heroica.yaml", ["seed=3"]), run / "config.yaml")
    save_model(run / "final_model.zip")
    summary = {"env": "heroica_v0", "timesteps": TIMESTEPS, "train_minutes": 1.0, "final": {}}
    (run / "summary.json").write_text(json.dumps(summary))
    return run


def test_the_policy_is_judged_on_the_final_evaluations_dice(run_folder):
    record = judge_run(run_folder, "policy", ["random"], games=4)
    config = load_config(CONFIGS / "smoke_heroica.yaml", ["seed=3"])
    factory = game_factory("heroica_v0", dict(config.env.options))
    policy = PolicyBot.load(run_folder / "final_model.zip")
    same = play_match(
        factory, policy, get_bot("heroica_v0", "random"), 4, seed=eval_seed(3, TIMESTEPS)
    )
    judged = record["final"]["random"]
    assert judged["seed"] == eval_seed(3, TIMESTEPS)
    assert (judged["games"], judged["wins"]) == (same.games, same.wins)
    assert [s["wins"] for s in judged["seats"]] == same.seat_wins
    assert judged["decisions"] > 0 and judged["ms_per_decision"] > 0
    assert judged["opponent_decisions"] > 0
    saved = json.loads(judged_path(run_folder, "policy").read_text())
    assert saved["final"]["random"] == judged and saved["env"] == "heroica_v0"


def test_a_later_call_adds_an_opponent_and_keeps_the_first(run_folder):
    player = "search(simulations=2)"
    judge_run(run_folder, player, ["random"], games=2)
    record = judge_run(run_folder, player, ["heuristic"], games=2)
    assert sorted(record["final"]) == ["heuristic", "random"]
    assert record["spec"] == f"{player}:{run_folder / 'final_model.zip'}"
    assert judged_path(run_folder, player).name == "search_simulations_2.json"


def test_the_lookahead_over_the_policy_is_judged_too(run_folder):
    player = "lookahead(playouts=2,candidates=2,horizon=1)"
    record = judge_run(run_folder, player, ["heuristic"], games=2)
    assert record["final"]["heuristic"]["games"] == 2
    assert record["final"]["heuristic"]["ms_per_decision"] > 0
    assert judged_path(run_folder, player).is_file()


def test_bad_players_and_unjudged_runs_are_named(run_folder, capsys):
    assert main([str(run_folder), "--player", "deep(search)"]) == 2
    assert "'deep(search)' is neither 'policy' nor search" in capsys.readouterr().err
    with pytest.raises(FileNotFoundError, match=r"has not been judged \(python -m training.judge"):
        markdown_table([run_folder], player="search(ms=5)")


def judged_run(folder: Path, seed: int, wins: int, ms: float, opponent_ms: float) -> Path:
    """A run folder with a made-up judged record: 100 games against the lookahead bot."""
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text(f"env: {{name: heroica_v0}}\nseed: {seed}\n")
    summary = {"env": "heroica_v0", "timesteps": 1000, "train_minutes": 60.0, "final": {}}
    (folder / "summary.json").write_text(json.dumps(summary))
    seats = [{"games": 50, "wins": wins // 2}, {"games": 50, "wins": wins - wins // 2}]
    lookahead = {
        "games": 100,
        "wins": wins,
        "win_rate": wins / 100,
        "ci_low": 0.0,
        "ci_high": 1.0,
        "seats": [{**s, "win_rate": s["wins"] / 50, "ci_low": 0, "ci_high": 1} for s in seats],
        "ms_per_decision": ms,
        "decisions": 1000,
        "opponent_ms_per_decision": opponent_ms,
        "opponent_decisions": 3000 if seed else 1000,
    }
    path = judged_path(folder, "search")
    path.parent.mkdir()
    path.write_text(json.dumps({"player": "search", "final": {"lookahead": lookahead}}))
    return folder


def test_the_table_pools_judged_results_and_their_thinking_time(tmp_path):
    runs = [
        judged_run(tmp_path / "s0", 0, 60, 4.0, 8.0),
        judged_run(tmp_path / "s1", 1, 50, 6.0, 4.0),
    ]
    lines = markdown_table(runs, pool=True, player="search").splitlines()
    assert lines[0].endswith("| ms/decision vs lookahead |")
    assert lines[2].startswith("| heroica_v0 (seed 0) search |")
    pooled = lines[-1]
    assert pooled.startswith("| **heroica_v0 pooled (2 runs) search** |")
    low, high = wilson_interval(110, 200)
    assert f"0.550 [{low:.3f}, {high:.3f}] (200)" in pooled
    # 1000 decisions each at 4 and 6 ms; the bot's 1000 at 8 and 3000 at 4 ms
    assert pooled.endswith("| 5.0 / 5.0 |")
