"""Fuzz every env: random masked games, every step checked through the public env API.

Uniformly random legal games of every registered env in every shipped configuration
(:data:`CONFIGURATIONS`), at the users' default round caps, checked at every decision:
1. the observation ``last()`` gives the agent to act lies in ``observation_space(agent)``;
2. the mask is not empty, and another agent's ``action_mask`` is all zeros;
3. one action the mask forbids (now and then ``n`` or ``-1``, outside the space) raises
   ``IllegalActionError`` and changes nothing: the same ``to_json``, agent and mask after;
4. ``from_json(to_json(state))`` has the same legal mask and the acting seat's observation;
and after each game 5. the same seeds replay the same game through the Game API (every action,
the final ``to_json``). Any other exception fails too (its type, message, innermost frame);
the fuzz records it and goes on with the next game.

Options: ``--games N`` per env (default 100, round-robin over its configurations),
``--seconds S`` (start no game once S seconds have passed since the envs were made; each env's
first game always plays), ``--env NAME`` (repeatable, comma lists), ``--options k=v ...`` (one
configuration of one ``--env``, values read as YAML), ``--seed S`` (game i of a configuration:
env seed S+i, policy RNG seeded S+i), ``--workers W`` (forked processes; the games played do not
depend on W), ``--list`` (the configurations).

Output: a line per env (configurations, games, decisions, failures, seconds in its games summed
over workers, games/s per worker), totals over the wall time, the configurations ``make``
refused, and the first 20 failures, each with a command that replays exactly that game. Exit
status 0 without failures, 1 with, 2 for bad input. Example::

    python -m envs.fuzz --games 30 --workers 2
    python -m envs.fuzz --env heroclix_v0 --options scenario=mall setup=play --seed 17 --games 1
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import multiprocessing
import os
import shlex
import signal
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import yaml

from . import env_names as registered_env_names
from . import make
from .core.game import IllegalActionError, OptionError

Options = dict[str, Any]


# -- configurations: the one place a new env plugs in ---------------------------------------
def heroica_configurations() -> list[Options]:
    from .heroica.data.mission import list_missions

    return [{"mission": m, "num_players": 2} for m in list_missions()] + [
        {"mission": "fork", "num_players": 3},
        {"mission": ["tunnel", "arena"], "num_players": 2},
        {"mission": "tunnel", "num_players": 2, "battle": True},
        {"mission": "arena", "num_players": 4, "battle": True},
    ]


def heroscape_configurations() -> list[Options]:
    from .heroscape.data.scenario_file import list_scenarios

    return [{"scenario": s} for s in list_scenarios()]


def heroclix_configurations() -> list[Options]:
    from .heroclix.data.scenarios import scenario_ids

    return [{"scenario": s, "setup": setup} for s in scenario_ids() for setup in ("fixed", "play")]


CONFIGURATIONS: dict[str, Callable[[], list[Options]]] = {
    "heroica_v0": heroica_configurations,
    "heroscape_v0": heroscape_configurations,
    "heroclix_v0": heroclix_configurations,
}
"""Env name -> its configurations; a registered env missing here is fuzzed at its defaults."""

OUT_OF_RANGE_RATE = 1 / 16  # share of the illegal tries that use an action outside the space


class UsageError(Exception):
    """Bad input: an unknown env or option, --options without exactly one --env."""


class CheckFailed(Exception):
    """``CheckFailed(check, message[, step])``: which check failed ("mask", ...), how, where."""


@dataclass(frozen=True)
class GameResult:
    """One game, defined by (env, options, seed); ``check`` names what failed ("": nothing)."""

    env: str
    options: Options
    seed: int
    steps: int = -1  # decisions made; of a failed game: the one that failed (-1: in make)
    seconds: float = 0.0
    digest: str = ""  # of every action and the final to_json: equal digests, equal games
    check: str = ""
    message: str = ""

    def reproducer(self) -> str:
        options = f" --options {format_options(self.options)}" if self.options else ""
        return f"python -m envs.fuzz --env {self.env}{options} --seed {self.seed} --games 1"

    def __str__(self) -> str:
        return (
            f"{self.env} {format_options(self.options)} seed {self.seed} step {self.steps}: "
            f"{self.check}: {self.message}"
        )


@dataclass
class FuzzReport:
    games: list[GameResult] = field(default_factory=list)
    playable: dict[str, list[Options]] = field(default_factory=dict)  # env -> configurations
    skipped: list[tuple[str, Options, str]] = field(default_factory=list)  # make: OptionError
    broken: list[GameResult] = field(default_factory=list)  # make raised something else
    seconds: float = 0.0  # wall time
    workers: int = 1

    @property
    def failures(self) -> list[GameResult]:
        return self.broken + [game for game in self.games if game.check]

    def format(self, max_failures: int = 20) -> str:
        rows = [
            (name, len(configs), [game for game in self.games if game.env == name])
            for name, configs in self.playable.items()
        ]
        rows.append(("total", sum(map(len, self.playable.values())), self.games))
        lines = [
            f"{'env':<14} {'configs':>7} {'games':>6} {'steps':>9} {'failures':>8} "
            f"{'seconds':>8} {'games/s':>8}"
        ]
        for name, configs, games in rows:
            seconds = self.seconds if name == "total" else sum(game.seconds for game in games)
            failed = sum(name in ("total", failure.env) for failure in self.failures)
            lines.append(
                f"{name:<14} {configs:>7} {len(games):>6} {sum(g.steps for g in games):>9} "
                f"{failed:>8} {seconds:>8.1f} {len(games) / max(seconds, 1e-9):>8.2f}"
            )
        lines[-1] += f"  (wall time, {self.workers} worker{'s' * (self.workers > 1)})"
        lines += [
            f"skipped {name} {format_options(options)}: {reason}"
            for name, options, reason in self.skipped
        ]
        failures = self.failures
        lines += [f"{len(failures)} failure{'s' * (len(failures) > 1)}:"] if failures else []
        for failure in failures[:max_failures]:
            lines += [f"  {failure}", f"    {failure.reproducer()}"]
        if len(failures) > max_failures:
            lines.append(f"  ... and {len(failures) - max_failures} more")
        return "\n".join(lines)


def format_options(options: Options) -> str:
    """``k=v`` words that ``--options`` reads back (YAML values, quoted for the shell)."""
    return " ".join(shlex.quote(f"{key}={yaml_value(value)}") for key, value in options.items())


def yaml_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(map(yaml_value, value)) + "]"
    if (
        isinstance(value, str)
        and not set(value) & set(",[]{}#:'\" ")
        and yaml.safe_load(value) == value
    ):
        return value
    return json.dumps(value)  # JSON is YAML: true, null, 3, "a quoted string"


def parse_options(words: Sequence[str]) -> Options:
    pairs = [word.partition("=") for word in words]
    bad = [key + sep + value for key, sep, value in pairs if not (key and sep)]
    if bad:
        raise UsageError(f"--options takes KEY=VALUE words, got {bad[0]!r}")
    return {key: yaml.safe_load(value) for key, _, value in pairs}


# -- one game --------------------------------------------------------------------------------
def play_game(env, name: str, options: Options, seed: int) -> GameResult:
    """One checked random game; the first failed check or exception ends it."""
    start = time.perf_counter()
    # The illegal tries draw from their own RNG, so the policy's draws (and the replay) ignore them.
    policy, tries = np.random.default_rng(seed), np.random.default_rng([seed, 1])
    actions: list[int] = []
    doing, digest, check, why, at = "reset", "", "", "", []
    try:
        env.reset(seed=seed)
        game, agents = env.game, list(env.possible_agents)
        cap = getattr(getattr(game, "info", None), "max_game_length", None) or 10**6  # runaways
        while env.agents:
            agent = env.agent_selection
            doing = "last"
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if len(actions) >= cap:
                raise CheckFailed("length", f"more than {cap} decisions (GameInfo.max_game_length)")
            doing = "observation"
            mask = obs["action_mask"]  # the env's cached mask: never computed again here
            legal = np.flatnonzero(mask)
            if legal.size == 0:
                raise CheckFailed("mask", f"{agent}'s mask is empty while the game runs")
            if not env.observation_space(agent).contains(obs):
                raise CheckFailed("observation", outside(env.observation_space(agent), obs))
            others = [a for a in agents if a != agent]  # a different one each step
            if others and env.action_mask(other := others[len(actions) % len(others)]).any():
                raise CheckFailed("mask", f"{other} is not deciding but its mask is not all zeros")
            doing = "illegal action"
            before = game.to_json(env.game_state)
            check_illegal(env, agent, mask, legal.size, before, tries)
            doing = "round trip"
            check_round_trip(game, env.game_state, before, mask, obs["observation"])
            doing = "step"
            actions.append(int(legal[policy.integers(legal.size)]))
            env.step(actions[-1])
        final = game.to_json(env.game_state)
        doing = "replay"
        check_replay(game, seed, actions, final)
        digest = hashlib.sha1(json.dumps([actions, final]).encode()).hexdigest()[:16]
    except CheckFailed as failed:
        check, why, *at = failed.args
    except Exception as error:  # noqa: BLE001 - every exception is a finding; then the next game
        check, why = doing, describe(error)
    return GameResult(
        name,
        options,
        seed,
        at[0] if at else len(actions),
        time.perf_counter() - start,
        digest,
        check,
        why,
    )


def check_illegal(env, agent: str, mask: np.ndarray, legal: int, before: str, tries) -> None:
    if legal == mask.size or tries.random() < OUT_OF_RANGE_RATE:
        bad = mask.size if tries.random() < 0.5 else -1
    else:
        bad = int(tries.choice(np.flatnonzero(mask == 0)))
    try:
        env.step(bad)
    except IllegalActionError:  # any other exception: play_game names it
        pass
    else:
        raise CheckFailed("illegal action", f"action {bad} was accepted")
    if env.game.to_json(env.game_state) != before:
        raise CheckFailed("illegal action", f"the refused action {bad} changed the state")
    if env.agent_selection != agent or not np.array_equal(env.action_mask(agent), mask):
        raise CheckFailed(
            "illegal action", f"the refused action {bad} changed who decides or the mask"
        )


def check_round_trip(game, state, text: str, mask: np.ndarray, observation: np.ndarray) -> None:
    copy = game.from_json(text)
    copied = game.legal_mask(copy)
    if not np.array_equal(copied, mask):
        differ = np.flatnonzero(copied != mask.astype(bool))[:4].tolist()
        raise CheckFailed("round trip", f"from_json(to_json) changes the mask at actions {differ}")
    seat = game.current_player(state)
    planes = game.observe(copy, seat)
    if not np.array_equal(planes, observation):
        channels = np.flatnonzero((planes != observation).reshape(len(planes), -1).any(axis=1))
        raise CheckFailed(
            "round trip",
            f"from_json(to_json) changes seat {seat}'s observation "
            f"in channels {channels[:8].tolist()}",
        )


def check_replay(game, seed: int, actions: list[int], final: str) -> None:
    """The same seeds through the Game API, unchecked; stops at the first difference."""
    state, policy = game.new_state(seed), np.random.default_rng(seed)
    for step, played in enumerate(actions + [None]):  # None: the game had ended
        if game.is_terminal(state):
            break
        legal = np.flatnonzero(game.legal_mask(state))
        action = int(legal[policy.integers(legal.size)])
        if action != played:
            raise CheckFailed(
                "replay",
                f"the replay plays {action}, the game {'had ended' if played is None else played}",
                step,
            )
        game.apply_legal(state, action)
    if step < len(actions) or game.to_json(state) != final:
        raise CheckFailed(
            "replay",
            f"the replay ends after {step} of {len(actions)} steps, "
            "or in another final state (to_json)",
            step,
        )


def outside(space, obs) -> str:
    """What an observation that leaves its space holds: dtype, shape and range of each part."""
    parts = obs.items() if isinstance(obs, dict) else [("observation", obs)]
    return (
        "; ".join(
            f"{key} {np.asarray(part).dtype}{np.shape(part)} in [{np.min(part)}, {np.max(part)}]"
            for key, part in parts
        )
        + f" is not in {space}"
    )


def describe(error: BaseException) -> str:
    """Type, first message line and innermost frame, on one line."""
    frame = traceback.extract_tb(error.__traceback__)[-1]
    inside = os.path.abspath(frame.filename).startswith(os.getcwd() + os.sep)
    path = os.path.relpath(frame.filename) if inside else frame.filename
    return f"{type(error).__name__}: {(str(error).splitlines() or [''])[0][:240]} ({path}:{frame.lineno})"


# -- many games --------------------------------------------------------------------------------
class Runner:
    """Plays jobs with one env per configuration, made once per process (reset per game).

    Jobs come numbered; the first ``always`` play whatever the clock says, the others only
    before ``deadline`` (time.monotonic()).
    """

    def __init__(self, make_env: Callable[..., Any]):
        self.make_env = make_env
        self.deadline: float | None = None
        self.always = 0
        self.envs: dict[tuple[str, str], Any] = {}  # (env name, options as JSON) -> env

    def env(self, name: str, options: Options):
        key = (name, json.dumps(options, sort_keys=True, default=repr))
        if key not in self.envs:
            self.envs[key] = self.make_env(name, **options)
        return self.envs[key]

    def __call__(self, numbered: tuple[int, tuple[str, Options, int]]) -> GameResult | None:
        number, job = numbered
        late = self.deadline is not None and time.monotonic() >= self.deadline
        if late and number >= self.always:
            return None
        return play_game(self.env(job[0], job[1]), *job)


_RUNNER: Runner | None = None  # set before the workers fork: they inherit it, envs and all


def _default_signals() -> None:
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, signal.SIG_DFL)


def _play(numbered: tuple[int, tuple[str, Options, int]]) -> GameResult | None:
    assert _RUNNER is not None, "run() sets _RUNNER before it starts the workers"
    return _RUNNER(numbered)


def plan(
    env_names: Sequence[str] | None,
    options: Options | None,
    configurations: dict | None,
    runner: Runner,
) -> FuzzReport:
    """Check the input; make each configuration's env here, so forked workers inherit it."""
    table = CONFIGURATIONS if configurations is None else configurations
    known = sorted(set(registered_env_names()) | set(table))
    names = list(env_names or known)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise UsageError(
            f"unknown env {', '.join(map(repr, unknown))}; known envs: {', '.join(known)}"
        )
    if options is not None and len(names) != 1:
        raise UsageError(f"--options needs exactly one --env, got {len(names)}")
    report = FuzzReport()
    for name in names:
        report.playable[name] = []
        for config in [options] if options is not None else table.get(name, lambda: [{}])():
            try:
                runner.env(name, config)
                report.playable[name].append(config)
            except OptionError as error:
                if options is not None:
                    raise UsageError(str(error)) from None
                report.skipped.append((name, config, str(error)))
            except Exception as error:  # noqa: BLE001 - a finding like any other
                report.broken.append(
                    GameResult(name, config, 0, check="make", message=describe(error))
                )
    return report


def fuzz(
    env_names: Sequence[str] | None = None,
    games: int = 100,
    seconds: float | None = None,
    seed: int = 0,
    workers: int = 1,
    options: Options | None = None,
    make_env: Callable[..., Any] | None = None,
    configurations: dict[str, Callable[[], list[Options]]] | None = None,
) -> FuzzReport:
    """Fuzz ``games`` games per env (module docstring); ``make_env(name, **options)`` and
    ``configurations`` replace :func:`envs.make` and :data:`CONFIGURATIONS`; UsageError: bad input."""
    if games < 1 or workers < 1 or seed < 0 or (seconds is not None and seconds <= 0):
        raise UsageError("--games and --workers must be >= 1, --seed >= 0 and --seconds > 0")
    start = time.monotonic()
    runner = Runner(make_env or make)
    report = plan(env_names, options, configurations, runner)
    report.workers = workers
    per_env = [
        [
            (name, playable[i % len(playable)], seed + i // len(playable))
            for i in range(games if playable else 0)
        ]
        for name, playable in report.playable.items()
    ]
    # Envs take turns game by game and each one's first game plays whatever the clock says, so
    # a --seconds limit leaves none of them unplayed; the clock starts once the envs are made,
    # so a slow ``make`` on a busy machine does not eat the time meant for games.
    in_turns = itertools.chain.from_iterable(itertools.zip_longest(*per_env))
    jobs = list(enumerate(job for job in in_turns if job is not None))
    runner.always = sum(1 for games_of_env in per_env if games_of_env)
    runner.deadline = None if seconds is None else time.monotonic() + seconds
    if workers == 1 or "fork" not in multiprocessing.get_all_start_methods():
        results = list(map(runner, jobs))
    else:
        global _RUNNER
        _RUNNER = runner
        # A forked worker inherits the caller's signal handlers (a test runner's, a training
        # run's); with a Python SIGTERM handler it survives Pool.terminate() while blocked on
        # the queue's lock, and terminate() waits for it forever. So workers take the default
        # handlers, and the pool shuts down by close/join, which needs no signal at all.
        with multiprocessing.get_context("fork").Pool(workers, _default_signals) as pool:
            results = list(pool.imap(_play, jobs, chunksize=1))  # in job order, whoever plays
            pool.close()
            pool.join()
    report.games = [result for result in results if result is not None]
    report.seconds = time.monotonic() - start
    return report


def main(
    argv: Sequence[str] | None = None,
    *,
    make_env: Callable[..., Any] | None = None,
    configurations: dict[str, Callable[[], list[Options]]] | None = None,
) -> int:
    parser = argparse.ArgumentParser(prog="python -m envs.fuzz", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per env (default 100)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="start no game this long after the envs are made (each env's first game plays)",
    )
    parser.add_argument("--env", action="append", metavar="NAME", help="only this env (repeatable)")
    parser.add_argument(
        "--options",
        nargs="+",
        action="extend",
        metavar="KEY=VALUE",
        help="only this configuration of the one --env (YAML values)",
    )
    parser.add_argument("--seed", type=int, default=0, help="game i of a configuration: seed + i")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--list", action="store_true", help="print the configurations and exit")
    args = parser.parse_args(argv)
    names = [name for value in args.env or [] for name in value.split(",") if name] or None
    try:
        options = None if args.options is None else parse_options(args.options)
        if args.list:
            report = plan(names, options, configurations, Runner(make_env or make))
            for name, playable in report.playable.items():
                print("\n  ".join([name] + [format_options(c) or "(defaults)" for c in playable]))
            notes = [
                f"skipped {name} {format_options(c)}: {why}" for name, c, why in report.skipped
            ]
            notes += [f"make fails: {failure}" for failure in report.broken]
            print("\n".join(notes), end="\n" * bool(notes))
            return 0
        report = fuzz(
            names,
            args.games,
            args.seconds,
            args.seed,
            args.workers,
            options,
            make_env,
            configurations,
        )
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(report.format())
    return 1 if report.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
