"""Benchmark: agent-steps/s of random legal play, where a step's time goes, the lookahead bot's
decisions/s, and the cost of a cold start; or, with ``--memory``, memory per env.

``python -m envs.bench`` measures *cases*: every registered env with its default options plus
named scenarios (``heroclix_v0[duel]``, ``heroclix_v0[mall]``, ``heroclix_v0[brawl]``,
``heroscape_v0[highlands_melee]``; a case ``env[value]`` sets the env's ``scenario``, or its
``mission`` where it has no scenario; HeroClix's default is its duel, measured once as
``heroclix_v0[duel]``), and PettingZoo's ``connect_four_v3`` (the reference) and ``chess_v6``
in the same process. Each figure comes with its ratio to ``connect_four_v3``. Machines here
are noisy, so everything is measured in interleaved rounds: in each round every case's speed,
then every case's split, then every game's lookahead bot, each for ``--seconds``. A figure is
the median of its rounds and its ratio the median of its per-round ratios to the reference
measured in the same round. Only ratios mean anything across machines. Per-map tables (line
of sight, movement) live for the whole process, so a case's first round runs with cold tables
and later rounds with warm ones. The sections:

* **speed**: agent-steps/s of seeded random legal play through the AEC API (``env.last()``
  for the observation and mask, then ``env.step``), ``--seconds`` per case per round.
* **split** (``--no-split`` skips it): mean microseconds per decision inside the game's
  ``legal_mask`` (*mask*), ``observe`` (*obs*) and ``apply_legal`` (*apply*), and the whole
  AEC step (*total*: ``last()`` + ``step()``, the agent's random choice left out); *other* is
  total minus the three, the wrapper's own work. The same seeded random play as *speed*,
  half of ``--seconds`` per case per round; the methods are timed on the game instance,
  exclusively (a mask that ``apply_legal`` reads for the position it made counts as mask), so
  the parts never add up to more than the total. The round shown is the one with the median
  total.
* **lookahead** (``--no-lookahead``): decisions/s of each game's ``lookahead`` bot, seat 0,
  against random play in the other seats, on the env's default options: seeded games for
  ``--seconds`` per game per round, counting only the bot's decisions and its time in
  ``act``; with the reference's random agent-steps/s measured in the same round and the
  ratio of the two.
* **cold start** (``--no-cold``; once, after the rounds): ``import envs`` in a fresh
  interpreter, and per env ``make``, ``reset``, the first ``last()`` + ``step`` and the rest
  of the first random game, each in a fresh interpreter: with the kernels built ahead of time
  (``aot``, when the build is current: :mod:`envs.core.compiled`), then on numba's JIT with
  a cold cache (``NUMBA_CACHE_DIR`` an empty temporary directory, so every kernel used is
  compiled) and warm (the same directory, now filled). ``cache files`` is what the cold run
  compiled (0: no compiled kernel ran). ``python -X importtime -c "import envs"`` breaks the import
  down further.

``--env NAME`` (repeatable) measures only some cases: an env name picks all its cases, a case
label (``heroclix_v0[mall]``, or any ``env[scenario]``) that case; the reference is measured
anyway, since every ratio needs it. ``--seconds`` (default 2) and ``--rounds`` (default 5)
set the time; the default run takes about three minutes. ``--json`` prints every figure,
each round's included, as JSON: ``envs`` (per case label: ``steps_per_second``,
``ratio_to_reference``, ``rounds``, and ``split_us`` with ``mask``, ``observe``, ``apply``,
``other``, ``total``), ``lookahead`` (per env: ``decisions_per_second``,
``ratio_to_reference``, ``reference_steps_per_second``) and ``cold_start`` (``import`` and
per env, ``aot``, ``cold`` and ``warm``, in seconds).

``python -m envs.bench --memory --games 2000 [--env NAME ...]`` measures memory instead: one
env object plays ``--games`` seeded random games, and the resident set size (VmRSS) is read
before anything is imported beyond numpy and the registry, after the env is made and its first
game played, and every ``games / 20`` games; the peak is the kernel's high-water mark
(``ru_maxrss``). Every env runs in a fresh interpreter, so one env's imports and per-process
tables never count against the next. ``--env`` takes case labels here too. ``connect_four_v3``
is measured too, as the cost of Python, numpy and PettingZoo with a trivial game. ``growth``
is the last reading minus the one after the first game: what the games themselves left
behind (caches, leaks).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import bench_memory as memory
from . import env_names, make

REFERENCE = "connect_four_v3"
REFERENCE_NAMES = ("connect_four_v3", "chess_v6")  # PettingZoo's envs measured beside ours
NAMED_CASES: dict[str, tuple[str, ...]] = {
    "heroclix_v0": ("duel", "mall", "brawl"),
    "heroscape_v0": ("highlands_melee",),
}
"""Scenarios measured besides each env's default (the issue's targets name them)."""
CASE_OPTIONS = ("scenario", "mission")  # what ``env[value]`` sets: the first the env declares
SPLIT_SHARE = 0.5  # of --seconds, per case per round, for the split


def reference_envs() -> dict[str, Callable]:
    from pettingzoo.classic import chess_v6, connect_four_v3

    return {"connect_four_v3": connect_four_v3.env, "chess_v6": chess_v6.env}


# -- cases ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One measured configuration: an env and the options it is made with."""

    label: str
    env: str
    options: dict[str, Any] = field(default_factory=dict)
    default: bool = True  # the env's default options (a named default scenario included)
    reference: bool = False

    def make(self) -> Any:
        if self.reference:
            return reference_envs()[self.env]()
        return make(self.env, **self.options)


def _case_option(env: str) -> tuple[str, Any]:
    """The option an ``env[value]`` label sets, and its default."""
    from .match import game_class

    declared = getattr(game_class(env), "OPTIONS", None)
    for spec in declared.specs() if declared else ():
        if spec.name in CASE_OPTIONS:
            return spec.name, spec.default
    raise ValueError(f"{env} has no {' or '.join(CASE_OPTIONS)} option for a case label")


def parse_case(label: str) -> Case:
    """``heroica_v0``, ``chess_v6`` or ``heroclix_v0[mall]`` as a case; ValueError if unknown."""
    if label in env_names():
        return Case(label, label)
    if label in REFERENCE_NAMES:
        return Case(label, label, reference=True)
    found = re.fullmatch(r"([\w.-]+)\[([^\[\]]+)\]", label)
    if found is None or found[1] not in env_names():
        raise ValueError(
            f"unknown env or case {label!r}; envs: {env_names() + list(REFERENCE_NAMES)}, "
            "cases: ENV[SCENARIO]"
        )
    option, default = _case_option(found[1])
    return Case(label, found[1], {option: found[2]}, default=found[2] == default)


def default_cases() -> list[Case]:
    """Every env's default and named scenarios, then the reference envs."""
    cases = []
    for env in env_names():
        named = NAMED_CASES.get(env, ())
        if not named or str(_case_option(env)[1]) not in named:
            cases.append(Case(env, env))
        cases.extend(parse_case(f"{env}[{value}]") for value in named)
    return cases + [Case(name, name, reference=True) for name in REFERENCE_NAMES]


def select_cases(selectors: list[str] | None) -> list[Case]:
    """The cases ``--env`` names (an env name: all its cases), the reference always among them;
    ValueError (the game's, naming the option) for a case the env cannot make."""
    every = default_cases()
    if not selectors:
        return every
    chosen: list[Case] = []
    for selector in selectors:
        matches = [c for c in every if selector in (c.env, c.label)]
        if not matches:
            matches = [parse_case(selector)]
            matches[0].make().close()  # a bad scenario is a usage error now, not a crash later
        chosen.extend(c for c in matches if c not in chosen)
    if not any(c.label == REFERENCE for c in chosen):
        chosen.append(Case(REFERENCE, REFERENCE, reference=True))
    return chosen


# -- speed ---------------------------------------------------------------------------------
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


def _paired_ratio(values: list[float], reference: list[float]) -> float:
    # Ratios are paired per round (both measured moments apart), then the median is taken:
    # this machine's speed drifts, and a drift between rounds cancels within a pair.
    return statistics.median(v / r for v, r in zip(values, reference))


def lookahead_games(cases: list[Case]) -> list[str]:
    from .bots import bot_names

    envs = dict.fromkeys(c.env for c in cases if not c.reference)
    return [env for env in envs if "lookahead" in bot_names(env)]


def compiled_backend() -> str:
    """How this process runs the compiled kernels: ``aot`` or ``jit`` (envs.core.compiled)."""
    from .core.compiled import backend

    return backend()


def run(
    cases: list[Case],
    seconds: float,
    rounds: int,
    seed: int,
    split: bool = True,
    lookahead: bool = True,
    cold: bool = True,
) -> dict:
    from . import bench_probes as probes

    games = lookahead_games(cases) if lookahead else []
    speed: dict[str, list[float]] = {c.label: [] for c in cases}
    splits: dict[str, list[dict]] = {c.label: [] for c in cases if split and not c.reference}
    thinking: dict[str, list[dict]] = {env: [] for env in games}
    started = time.perf_counter()
    for round_index in range(rounds):
        round_seed = seed + 1000 * round_index
        for case in cases:
            speed[case.label].append(steps_per_second(case.make, seconds, round_seed))
        for case in cases:
            if case.label in splits:
                sample = probes.split_sample(case.make, seconds * SPLIT_SHARE, round_seed)
                splits[case.label].append(sample)
        for env in games:
            sample = probes.lookahead_sample(lambda e=env: make(e), env, seconds, round_seed)
            thinking[env].append(sample)
    reference = speed[REFERENCE]
    result: dict[str, Any] = {
        "reference": REFERENCE,
        "seconds_per_round": seconds,
        "rounds": rounds,
        "seed": seed,
        "kernels": compiled_backend(),
        "envs": {},
    }
    for case in cases:
        figures: dict[str, Any] = {
            "env": case.env,
            "options": case.options,
            "default": case.default,
            "steps_per_second": round(statistics.median(speed[case.label]), 1),
            "ratio_to_reference": round(_paired_ratio(speed[case.label], reference), 3),
            "rounds": [round(v, 1) for v in speed[case.label]],
        }
        if case.label in splits:
            figures["split_us"] = probes.median_split(splits[case.label])
        result["envs"][case.label] = figures
    if lookahead:
        result["lookahead"] = {}
        for env, samples in thinking.items():
            rates = [s["decisions_per_second"] for s in samples]
            result["lookahead"][env] = {
                "decisions_per_second": round(statistics.median(rates), 2),
                "ratio_to_reference": round(_paired_ratio(rates, reference), 6),
                "reference_steps_per_second": round(statistics.median(reference), 1),
                "decisions": sum(s["decisions"] for s in samples),
                "searches": sum(s["searches"] or 0 for s in samples),
                "rounds": [round(r, 2) for r in rates],
            }
    result["rounds_seconds"] = round(time.perf_counter() - started, 1)
    if cold:
        own = dict.fromkeys(c.env for c in cases if not c.reference)
        result["cold_start"] = probes.cold_start(list(own), seed)
    return result


# -- printing ------------------------------------------------------------------------------
def print_result(result: dict) -> None:
    envs = result["envs"]
    width = max([20] + [len(label) for label in envs])
    print(
        f"agent-steps/s of random legal play (median of {result['rounds']} rounds x "
        f"{result['seconds_per_round']:g}s; kernels: {result['kernels']})"
    )
    print(f"{'case':<{width}} {'steps/s':>10} {'vs ' + REFERENCE:>22}")
    for label, figures in envs.items():
        print(
            f"{label:<{width}} {figures['steps_per_second']:>10.0f} "
            f"{figures['ratio_to_reference']:>21.2f}x"
        )
    split = {label: f["split_us"] for label, f in envs.items() if "split_us" in f}
    if split:
        print()
        print("microseconds per decision (the round with the median total)")
        head = ["mask", "obs", "apply", "other", "total"]
        print(f"{'case':<{width}} " + " ".join(f"{h:>9}" for h in head) + f" {'decisions':>10}")
        for label, s in split.items():
            cells = [s["mask"], s["observe"], s["apply"], s["other"], s["total"]]
            print(
                f"{label:<{width}} "
                + " ".join(f"{c:>9.1f}" for c in cells)
                + f" {s['decisions']:>10}"
            )
    if result.get("lookahead"):
        print()
        print("lookahead bot (seat 0) against random play: its decisions/s")
        print(
            f"{'game':<{width}} {'decisions/s':>12} {REFERENCE + ' steps/s':>24} {'ratio':>9} "
            f"{'decisions':>10} {'searches':>9}"
        )
        for env, f in result["lookahead"].items():
            print(
                f"{env:<{width}} {f['decisions_per_second']:>12.1f} "
                f"{f['reference_steps_per_second']:>24.0f} {f['ratio_to_reference']:>9.5f} "
                f"{f['decisions']:>10} {f['searches']:>9}"
            )
    if "cold_start" in result:
        _print_cold(result["cold_start"], width)


def _print_cold(cold: dict, width: int) -> None:
    print()
    imports = cold["import"]
    aot = imports.get("aot")
    print(
        "cold start in fresh interpreters (ms): import envs "
        + (f"{aot['import_s'] * 1e3:.1f} with the AOT kernels, " if aot else "")
        + f"{imports['cold']['import_s'] * 1e3:.1f} JIT with a cold numba cache, "
        f"{imports['warm']['import_s'] * 1e3:.1f} JIT warm"
    )
    head = ["import", "make", "reset", "1st step", "to 1st", "1st game", "process"]
    print(f"{'env':<{width}} {'kernels':<8} " + " ".join(f"{h:>8}" for h in head) + "  cache files")
    keys = ["import_s", "make_s", "reset_s", "first_step_s", "to_first_step_s", "first_game_s"]
    for env, figures in cold["envs"].items():
        for which in ("aot", "cold", "warm"):
            if which not in figures:
                continue
            f = figures[which]
            cells = [f[k] * 1e3 for k in keys + ["process_s"]]
            files = figures["numba_cache_files"] if which == "cold" else ""
            label = {"aot": "aot", "cold": "jit cold", "warm": "jit warm"}[which]
            print(
                f"{env:<{width}} {label:<8} " + " ".join(f"{c:>8.1f}" for c in cells) + f"  {files}"
            )


# -- command line --------------------------------------------------------------------------
def _memory_child(args: argparse.Namespace, options: dict) -> int:
    imported = memory.rss_mib()  # before the case is resolved: that may import its game
    case = parse_case(args.memory_child)
    options = {**case.options, **options}
    env_fn = case.make if case.reference else (lambda: make(case.env, **options))
    figures = memory.memory_of(
        case.label, env_fn, play_random_game, args.games, args.seed, options, imported
    )
    print(json.dumps(figures))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m envs.bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="time per case (and game) per round"
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="interleaved rounds (median is reported)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument("--no-split", action="store_true", help="skip the per-step split")
    parser.add_argument("--no-lookahead", action="store_true", help="skip the lookahead bot")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-start runs")
    parser.add_argument(
        "--memory",
        action="store_true",
        help="measure RSS over --games random games instead of speed",
    )
    parser.add_argument("--games", type=int, default=2000, help="games per env with --memory")
    parser.add_argument(
        "--env",
        "--case",
        action="append",
        default=None,
        metavar="NAME",
        help="only this env's cases, or this case (heroclix_v0[mall]); repeatable. Default: "
        f"every case, or with --memory every registered env and {REFERENCE}",
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
        options = memory.parse_options(args.option)
    except ValueError as error:
        parser.error(str(error))
    if args.memory_child is not None:
        return _memory_child(args, options)
    if args.memory:
        names = args.env or env_names() + [REFERENCE]
        try:
            for name in names:
                parse_case(name)
        except ValueError as error:
            parser.error(str(error))
        if args.games < 1:
            parser.error(f"--games must be >= 1, got {args.games}")
        result = memory.run_memory(names, args.games, args.seed, args.option)
        if args.json:
            json.dump(result, sys.stdout, indent=2)
            print()
        else:
            memory.print_memory(result)
        return 0
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be > 0 and --rounds >= 1")
    try:
        cases = select_cases(args.env)
    except ValueError as error:
        parser.error(str(error))
    result = run(
        cases,
        args.seconds,
        args.rounds,
        args.seed,
        split=not args.no_split,
        lookahead=not args.no_lookahead,
        cold=not args.no_cold,
    )
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        print_result(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
