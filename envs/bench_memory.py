"""``python -m envs.bench --memory``: resident memory of one env object over many random games.

:mod:`envs.bench`'s docstring documents the mode; this module holds its measurement, kept out
of the bench's own imports so the first RSS reading of a child sees no more than it says.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

MEMORY_SAMPLES = 20  # RSS readings over the games, besides the first and the last


def parse_options(pairs: Sequence[str]) -> dict:
    """``["scenario=highlands_melee", "round_cap=5"]`` as env options, values read as YAML."""
    import yaml

    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option takes KEY=VALUE, got {pair!r}")
        options[key] = yaml.safe_load(value)
    return options


def rss_mib() -> float:
    """This process's resident set size now (VmRSS), in MiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def peak_rss_mib() -> float:
    """This process's high-water resident set size; Linux reports ru_maxrss in KiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory_of(
    name: str,
    env_fn: Callable,
    play: Callable,
    games: int,
    seed: int,
    options: dict,
    imported: float,
) -> dict:
    """Memory of one env object playing ``games`` random games (run in a fresh interpreter);
    ``imported`` is the RSS read before the env's game was imported."""
    env = env_fn()
    rng = np.random.default_rng(seed)
    made = rss_mib()
    steps = play(env, seed, rng)
    first = rss_mib()
    every = max(1, games // MEMORY_SAMPLES)
    samples = [[1, round(first, 1)]]
    start = time.perf_counter()
    for game in range(1, games):
        steps += play(env, seed + game, rng)
        if (game + 1) % every == 0 or game + 1 == games:
            samples.append([game + 1, round(rss_mib(), 1)])
    elapsed = time.perf_counter() - start
    env.close()
    last = samples[-1][1]
    from envs.core.compiled import backend

    return {
        "env": name,
        "options": options,
        "kernels": backend(),
        "games": games,
        "agent_steps": steps,
        "seconds": round(elapsed, 1),
        "rss_mib": {
            "imported": round(imported, 1),
            "env_made": round(made, 1),
            "after_first_game": round(first, 1),
            "last": last,
            "peak": round(max(peak_rss_mib(), last), 1),
            "growth": round(last - first, 1),
        },
        "samples": samples,
    }


def run_memory(names: list[str], games: int, seed: int, options: Sequence[str] = ()) -> dict:
    """:func:`memory_of` for each env or case, each in its own interpreter so nothing adds up."""
    results = {}
    for name in names:
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "envs.bench",
                "--memory-child",
                name,
                "--games",
                str(games),
                "--seed",
                str(seed),
                *[f"--option={option}" for option in options],
            ],
            capture_output=True,
            text=True,
        )
        if out.returncode:
            raise RuntimeError(f"memory run of {name} failed:\n{out.stderr}")
        results[name] = json.loads(out.stdout.strip().splitlines()[-1])
    return {"games": games, "seed": seed, "envs": results}


def print_memory(result: dict) -> None:
    print(
        f"RSS (MiB) of one env object over {result['games']} random games, one interpreter per env"
    )
    width = max([20] + [len(name) for name in result["envs"]])
    print(
        f"{'env':<{width}} {'imported':>9} {'env made':>9} {'1st game':>9} {'last':>8} "
        f"{'peak':>8} {'growth':>7} {'seconds':>8} {'kernels':>8}"
    )
    for name, figures in result["envs"].items():
        rss = figures["rss_mib"]
        print(
            f"{name:<{width}} {rss['imported']:>9.1f} {rss['env_made']:>9.1f} "
            f"{rss['after_first_game']:>9.1f} {rss['last']:>8.1f} {rss['peak']:>8.1f} "
            f"{rss['growth']:>7.1f} {figures['seconds']:>8.1f} {figures['kernels']:>8}"
        )
