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
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Callable

import numpy as np

from . import env_names, make

REFERENCE = "connect_four_v3"


def reference_envs() -> dict[str, Callable]:
    from pettingzoo.classic import chess_v6, connect_four_v3

    return {"connect_four_v3": connect_four_v3.env, "chess_v6": chess_v6.env}


def steps_per_second(env_fn: Callable, seconds: float, seed: int) -> float:
    """Agent-steps/s of uniformly random legal play, observations and masks included."""
    env = env_fn()
    rng = np.random.default_rng(seed)
    steps = 0
    game = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + game)
        game += 1
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            steps += 1
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
    ratios = {name: statistics.median(v / r for v, r in zip(values, samples[REFERENCE]))
              for name, values in samples.items()}
    return {
        "reference": REFERENCE,
        "seconds_per_round": seconds,
        "rounds": rounds,
        "envs": {name: {"steps_per_second": round(medians[name], 1),
                        "ratio_to_reference": round(ratios[name], 3),
                        "rounds": [round(v, 1) for v in samples[name]]}
                 for name in candidates},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m envs.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per env per round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median is reported)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be > 0 and --rounds >= 1")
    result = run(args.seconds, args.rounds, args.seed)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
        return 0
    print(f"agent-steps/s of random legal play (median of {args.rounds} rounds x {args.seconds:g}s)")
    print(f"{'env':<20} {'steps/s':>10} {'vs ' + REFERENCE:>22}")
    for name, figures in result["envs"].items():
        print(f"{name:<20} {figures['steps_per_second']:>10.0f} {figures['ratio_to_reference']:>21.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
