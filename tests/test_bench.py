"""The benchmark runs and reports every case, split, bot and cold start (no timing asserts).

Every run points numba's cache and the temporary directories at pytest's tmp_path, so the
bench's cold-start runs and compiled kernels write nowhere else.
"""

import json
import os
import subprocess
import sys

from envs import env_names
from envs.bench import REFERENCE, default_cases

TINY = ["--seconds", "0.02", "--rounds", "1", "--json"]


def bench(tmp_path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    environ = dict(os.environ, TMPDIR=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    return subprocess.run(
        [sys.executable, "-m", "envs.bench", *args],
        capture_output=True,
        text=True,
        check=check,
        timeout=600,
        env=environ,
    )


def test_bench_json_reports_every_case_split_and_lookahead_bot(tmp_path):
    result = json.loads(bench(tmp_path, *TINY, "--rounds", "2", "--no-cold").stdout)
    assert result["reference"] == REFERENCE and result["rounds"] == 2
    cases = result["envs"]
    labels = [case.label for case in default_cases()]
    assert list(cases) == labels
    for named in ("heroclix_v0[duel]", "heroclix_v0[mall]", "heroclix_v0[brawl]"):
        assert cases[named]["options"] == {"scenario": named[12:-1]}
    assert cases["heroscape_v0[highlands_melee]"]["options"] == {"scenario": "highlands_melee"}
    assert cases["heroclix_v0[duel]"]["default"] and not cases["heroclix_v0[mall]"]["default"]
    for name in env_names():  # every env's defaults are measured, under some label
        assert any(f["env"] == name and f["default"] for f in cases.values())
    for label, figures in cases.items():
        assert figures["steps_per_second"] > 0 and len(figures["rounds"]) == 2
        split = figures.get("split_us")
        assert (split is None) == (label in ("connect_four_v3", "chess_v6")), label
        if split is not None:
            parts = [split["mask"], split["observe"], split["apply"], split["other"]]
            assert min(parts) >= 0 and split["decisions"] > 0, label
            assert sum(parts[:3]) <= split["total"] + 0.05, label
            assert abs(sum(parts) - split["total"]) <= 0.05, label
            assert split["total"] in split["rounds_total"] and len(split["rounds_total"]) == 2
    assert cases[REFERENCE]["ratio_to_reference"] == 1.0
    assert list(result["lookahead"]) == env_names()
    for figures in result["lookahead"].values():
        assert figures["decisions"] >= 2 and figures["decisions_per_second"] > 0
        assert figures["ratio_to_reference"] > 0 and len(figures["rounds"]) == 2
        assert figures["reference_steps_per_second"] == cases[REFERENCE]["steps_per_second"]
    assert "cold_start" not in result


def test_cold_start_reports_import_and_first_step_with_a_cold_and_a_warm_numba_cache(tmp_path):
    result = json.loads(
        bench(tmp_path, *TINY, "--env", "heroica_v0", "--no-split", "--no-lookahead").stdout
    )
    assert list(result["envs"]) == ["heroica_v0", REFERENCE]  # the reference comes anyway
    assert "lookahead" not in result and "split_us" not in result["envs"]["heroica_v0"]
    cold = result["cold_start"]
    assert cold["import"]["cold"]["import_s"] > 0 and cold["import"]["warm"]["import_s"] > 0
    assert list(cold["envs"]) == ["heroica_v0"]
    figures = cold["envs"]["heroica_v0"]
    assert figures["numba_cache_files"] >= 0
    for which in ("cold", "warm"):
        f = figures[which]
        assert f["first_game_steps"] > 0
        parts = [f["import_s"], f["make_s"], f["reset_s"], f["first_step_s"]]
        assert min(parts) >= 0 and f["to_first_step_s"] >= sum(parts) - 1e-3
        assert f["first_game_s"] >= f["first_step_s"] and f["process_s"] >= f["to_first_step_s"]
    assert os.listdir(tmp_path) == ["numba"] or not os.listdir(tmp_path)  # temp dirs removed


def test_env_selects_cases_and_the_table_has_every_section(tmp_path):
    out = bench(
        tmp_path, "--seconds", "0.02", "--rounds", "1", "--no-cold", "--env", "heroclix_v0[mall]"
    ).stdout
    lines = out.splitlines()
    assert sum(line.startswith("heroclix_v0[mall] ") for line in lines) == 2  # speed, split
    assert any(line.startswith("heroclix_v0 ") for line in lines)  # its lookahead bot
    assert any(line.startswith(REFERENCE) for line in lines)
    assert not any(line.startswith(("heroica_v0", "chess_v6")) for line in lines)
    bad = bench(tmp_path, "--env", "heroclix_v0[nowhere]", "--rounds", "1", check=False)
    assert bad.returncode == 2 and "nowhere" in bad.stderr
    unknown = bench(tmp_path, "--env", "chess_v9", check=False)
    assert unknown.returncode == 2 and "chess_v9" in unknown.stderr


def test_split_timer_charges_each_part_its_own_time_only(monkeypatch):
    """A mask read inside apply counts as mask, and nested parts never count twice."""
    from envs import bench_probes

    ticks = iter(range(1000))
    monkeypatch.setattr(bench_probes.time, "perf_counter", lambda: float(next(ticks)))

    class Game:
        def legal_mask(self, state):
            return state

        def observe(self, state, player):
            return self.legal_mask(state)

        def apply_legal(self, state, action):
            self.observe(state, 0)
            return self.legal_mask(state)

    game = Game()
    timer = bench_probes.SplitTimer(game)
    game.legal_mask(0)  # 1 tick
    assert timer.totals() == (1.0, 0.0, 0.0)
    game.apply_legal(0, 0)  # apply 7 ticks: observe 3 (its mask 1), mask 1
    assert timer.totals() == (3.0, 2.0, 3.0)


def test_memory_mode_reports_rss_per_env_from_fresh_interpreters(tmp_path):
    out = bench(
        tmp_path,
        "--memory",
        "--games",
        "2",
        "--json",
        "--env",
        "heroscape_v0",
        "--env",
        "connect_four_v3",
    )
    result = json.loads(out.stdout)
    assert result["games"] == 2 and list(result["envs"]) == ["heroscape_v0", "connect_four_v3"]
    for figures in result["envs"].values():
        rss = figures["rss_mib"]
        assert figures["games"] == 2 and figures["agent_steps"] > 0
        assert 0 < rss["imported"] <= rss["env_made"] <= rss["peak"]
        assert rss["last"] <= rss["peak"]
        assert figures["samples"][0][0] == 1 and figures["samples"][-1][0] == 2


def test_memory_mode_takes_env_options_and_cases_and_refuses_unknown_envs(tmp_path):
    out = bench(
        tmp_path,
        "--memory",
        "--games",
        "1",
        "--json",
        "--env",
        "heroica_v0",
        "--env",
        "heroclix_v0[brawl]",
        "--option",
        "max_rounds=2",
    )
    result = json.loads(out.stdout)["envs"]
    assert result["heroica_v0"]["options"] == {"max_rounds": 2}
    assert result["heroclix_v0[brawl]"]["options"] == {"scenario": "brawl", "max_rounds": 2}
    bad = bench(tmp_path, "--memory", "--env", "chess_v9", check=False)
    assert bad.returncode == 2 and "chess_v9" in bad.stderr


def test_lru_keeps_at_most_maxsize_entries_and_drops_the_least_recently_used():
    import pytest

    from envs.core.lru import LRU, named_lru

    cache = LRU(3)
    for key in "abc":
        cache[key] = key.upper()
    assert cache.get("a") == "A"  # a is now the most recent; b the least
    cache["d"] = "D"
    assert len(cache) == 3 and "b" not in cache and list(cache) == ["c", "a", "d"]
    cache["c"] = "C2"  # writing refreshes too
    cache["e"] = "E"
    assert list(cache) == ["d", "c", "e"] and cache["c"] == "C2"
    assert cache.get("zz") is None and cache.get("zz", 0) == 0
    built = []
    assert cache.get_or_build("f", lambda: built.append(1) or "F") == "F"
    assert cache.get_or_build("f", lambda: built.append(1) or "F") == "F" and built == [1]
    for k in range(10_000):
        cache[k] = k
    assert len(cache) == 3 and list(cache) == [9997, 9998, 9999]
    store: dict = {}
    assert named_lru(store, "x", 5) is named_lru(store, "x", 5) and store["x"].maxsize == 5
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="maxsize"):
            LRU(bad)


def test_game_caches_are_bounded_lrus():
    """The memos that grow with play are the shared LRU with a declared size."""
    from envs import make
    from envs.core import hexsight, modemove, movement
    from envs.core.lru import LRU
    from envs.heroscape import tables

    game = make("heroscape_v0").game
    bounded = [
        game._dest_cache,
        game._dest_cells,
        game._targets,
        game.sight_blockers,
        game.sight._cache,
        tables._MAP_TABLES,
        movement._ROWS_CACHE,
        movement._ADJACENCY_CACHE,
        movement._CSR_CACHE,
        modemove._STEPS_CACHE,
        modemove._ALL_STEPS_CACHE,
        modemove._CHECKED,
        modemove._REVERSE_CACHE,
    ]
    assert all(isinstance(cache, LRU) for cache in bounded)
    assert isinstance(hexsight.HexSight(game.board)._cache, LRU)
