"""Benchmark: agent-steps per second of random legal play through the AEC API.

``python -m envs.bench`` plays seeded random games (``env.last()`` for the observation and
mask, then ``env.step``) for every registered env and for PettingZoo's ``connect_four_v3``
and ``chess_v6`` in the same process, and prints each figure with its ratio to
``connect_four_v3``. Machines here are noisy, so the envs are measured in interleaved rounds:
steps/s is the median of an env's rounds, and its ratio is the median of its per-round
ratios to the reference measured in the same round. Only ratios mean anything across
machines. Per-map tables (line of sight, movement) live for the whole process, so the
first round of an env runs with cold tables and later rounds with warm ones.

``--json`` prints the same figures as JSON; ``--seconds`` sets the time per env per round.

``python -m envs.bench --memory --games 2000 [--env NAME ...]`` measures memory instead: one
env object plays ``--games`` seeded random games, and the resident set size (VmRSS) is read
before anything is imported beyond numpy and the registry, after the env is made and its first
game played, and every ``games / 20`` games; the peak is the kernel's high-water mark
(``ru_maxrss``). Every env runs in a fresh interpreter, so one env's imports and per-process
tables never count against the next. ``connect_four_v3`` is measured too, as the cost of
Python, numpy and PettingZoo with a trivial game. ``growth`` is the last reading minus the
one after the first game: what the games themselves left behind (caches, leaks).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

from . import env_names, make

REFERENCE = "connect_four_v3"


def reference_envs() -> dict[str, Callable]:
    from pettingzoo.classic import chess_v6, connect_four_v3

    return {"connect_four_v3": connect_four_v3.env, "chess_v6": chess_v6.env}


def play_random_game(env, seed: int, rng: np.random.Generator) -> int:
    """One game of uniformly random legal play through the AEC API; returns its agent-steps."""
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        steps += 1
    return steps


def steps_per_second(env_fn: Callable, seconds: float, seed: int) -> float:
    """Agent-steps/s of uniformly random legal play, observations and masks included."""
    env = env_fn()
    rng = np.random.default_rng(seed)
    steps = 0
    game = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += play_random_game(env, seed + game, rng)
        game += 1
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def run(seconds: float, rounds: int, seed: int) -> dict:
    candidates: dict[str, Callable] = {name: (lambda n=name: make(n)) for name in env_names()}
    candidates.update(reference_envs())
    samples: dict[str, list[float]] = {name: [] for name in candidates}
    for round_index in range(rounds):
        for name, env_fn in candidates.items():
            samples[name].append(steps_per_second(env_fn, seconds, seed + 1000 * round_index))
    medians = {name: statistics.median(values) for name, values in samples.items()}
    # Ratios are paired per round (both measured moments apart), then the median is taken:
    # this machine's speed drifts, and a drift between rounds cancels within a pair.
    ratios = {
        name: statistics.median(v / r for v, r in zip(values, samples[REFERENCE]))
        for name, values in samples.items()
    }
    return {
        "reference": REFERENCE,
        "seconds_per_round": seconds,
        "rounds": rounds,
        "envs": {
            name: {
                "steps_per_second": round(medians[name], 1),
                "ratio_to_reference": round(ratios[name], 3),
                "rounds": [round(v, 1) for v in samples[name]],
            }
            for name in candidates
        },
    }


# -- memory --------------------------------------------------------------------------------
MEMORY_SAMPLES = 20  # RSS readings over the games, besides the first and the last


def parse_options(pairs: list[str]) -> dict:
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


def memory_of(name: str, games: int, seed: int, options: dict | None = None) -> dict:
    """Memory of one env object playing ``games`` random games (run in a fresh interpreter)."""
    imported = rss_mib()
    env = make(name, **(options or {})) if name in env_names() else reference_envs()[name]()
    rng = np.random.default_rng(seed)
    made = rss_mib()
    steps = play_random_game(env, seed, rng)
    first = rss_mib()
    every = max(1, games // MEMORY_SAMPLES)
    samples = [[1, round(first, 1)]]
    start = time.perf_counter()
    for game in range(1, games):
        steps += play_random_game(env, seed + game, rng)
        if (game + 1) % every == 0 or game + 1 == games:
            samples.append([game + 1, round(rss_mib(), 1)])
    elapsed = time.perf_counter() - start
    env.close()
    last = samples[-1][1]
    return {
        "env": name,
        "options": options or {},
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
    """:func:`memory_of` for each env, each in its own interpreter so nothing adds up."""
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


def _print_memory(result: dict) -> None:
    print(
        f"RSS (MiB) of one env object over {result['games']} random games, one interpreter per env"
    )
    print(
        f"{'env':<20} {'imported':>9} {'env made':>9} {'1st game':>9} {'last':>8} {'peak':>8} "
        f"{'growth':>7} {'seconds':>8}"
    )
    for name, figures in result["envs"].items():
        rss = figures["rss_mib"]
        print(
            f"{name:<20} {rss['imported']:>9.1f} {rss['env_made']:>9.1f} "
            f"{rss['after_first_game']:>9.1f} {rss['last']:>8.1f} {rss['peak']:>8.1f} "
            f"{rss['growth']:>7.1f} {figures['seconds']:>8.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m envs.bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per env per round")
    parser.add_argument(
        "--rounds", type=int, default=5, help="interleaved rounds (median is reported)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--memory",
        action="store_true",
        help="measure RSS over --games random games instead of speed",
    )
    parser.add_argument("--games", type=int, default=2000, help="games per env with --memory")
    parser.add_argument(
        "--env",
        action="append",
        default=None,
        metavar="NAME",
        help="with --memory: only this env (repeatable); default every "
        f"registered env and {REFERENCE}",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="with --memory: an env option for every env measured, the value "
        "read as YAML (scenario=highlands_melee)",
    )
    parser.add_argument("--memory-child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.option)
    except ValueError as error:
        parser.error(str(error))
    if args.memory_child is not None:
        print(json.dumps(memory_of(args.memory_child, args.games, args.seed, options)))
        return 0
    if args.memory:
        known = env_names() + list(reference_envs())
        names = args.env or env_names() + [REFERENCE]
        unknown = [n for n in names if n not in known]
        if unknown or args.games < 1:
            parser.error(
                f"--games must be >= 1 and --env one of {known}, got {unknown or args.games}"
            )
        result = run_memory(names, args.games, args.seed, args.option)
        if args.json:
            json.dump(result, sys.stdout, indent=2)
            print()
        else:
            _print_memory(result)
        return 0
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be > 0 and --rounds >= 1")
    result = run(args.seconds, args.rounds, args.seed)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
        return 0
    print(
        f"agent-steps/s of random legal play (median of {args.rounds} rounds x {args.seconds:g}s)"
    )
    print(f"{'env':<20} {'steps/s':>10} {'vs ' + REFERENCE:>22}")
    for name, figures in result["envs"].items():
        print(
            f"{name:<20} {figures['steps_per_second']:>10.0f} {figures['ratio_to_reference']:>21.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
