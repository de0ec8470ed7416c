"""The benchmark runs and reports every registered env next to the references (no timing asserts)."""

import json
import subprocess
import sys

from envs import env_names


def test_bench_json_lists_every_env_and_the_references():
    out = subprocess.run([sys.executable, "-m", "envs.bench", "--seconds", "0.2", "--rounds", "1", "--json"],
                         capture_output=True, text=True, check=True, timeout=300)
    result = json.loads(out.stdout)
    assert result["reference"] == "connect_four_v3"
    for name in env_names() + ["connect_four_v3", "chess_v6"]:
        figures = result["envs"][name]
        assert figures["steps_per_second"] > 0
    assert result["envs"]["connect_four_v3"]["ratio_to_reference"] == 1.0
