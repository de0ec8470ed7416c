"""The benchmark runs and reports every registered env next to the references (no timing asserts)."""

import json
import subprocess
import sys

from envs import env_names


def test_bench_json_lists_every_env_and_the_references():
    out = subprocess.run(
        [sys.executable, "-m", "envs.bench", "--seconds", "0.2", "--rounds", "1", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result = json.loads(out.stdout)
    assert result["reference"] == "connect_four_v3"
    for name in env_names() + ["connect_four_v3", "chess_v6"]:
        figures = result["envs"][name]
        assert figures["steps_per_second"] > 0
    assert result["envs"]["connect_four_v3"]["ratio_to_reference"] == 1.0


def test_memory_mode_reports_rss_per_env_from_fresh_interpreters():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "envs.bench",
            "--memory",
            "--games",
            "2",
            "--json",
            "--env",
            "heroscape_v0",
            "--env",
            "connect_four_v3",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result = json.loads(out.stdout)
    assert result["games"] == 2 and list(result["envs"]) == ["heroscape_v0", "connect_four_v3"]
    for figures in result["envs"].values():
        rss = figures["rss_mib"]
        assert figures["games"] == 2 and figures["agent_steps"] > 0
        assert 0 < rss["imported"] <= rss["env_made"] <= rss["peak"]
        assert rss["last"] <= rss["peak"]
        assert figures["samples"][0][0] == 1 and figures["samples"][-1][0] == 2


def test_memory_mode_takes_env_options_and_refuses_unknown_envs():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "envs.bench",
            "--memory",
            "--games",
            "1",
            "--json",
            "--env",
            "heroica_v0",
            "--option",
            "max_rounds=2",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert json.loads(out.stdout)["envs"]["heroica_v0"]["options"] == {"max_rounds": 2}
    bad = subprocess.run(
        [sys.executable, "-m", "envs.bench", "--memory", "--env", "chess_v9"],
        capture_output=True,
        text=True,
        timeout=300,
    )
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
        game.sight_blockers,
        game.sight._cache,
        tables._MAP_TABLES,
        movement._ROWS_CACHE,
        movement._ADJACENCY_CACHE,
        modemove._STEPS_CACHE,
    ]
    assert all(isinstance(cache, LRU) for cache in bounded)
    assert isinstance(hexsight.HexSight(game.board)._cache, LRU)
