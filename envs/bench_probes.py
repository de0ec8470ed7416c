"""What ``python -m envs.bench`` measures besides agent-steps/s: where a step's time goes
(:func:`split_sample`), the lookahead bot's decisions/s (:func:`lookahead_sample`) and the
cost of a cold start (:func:`cold_start`). :mod:`envs.bench`'s docstring documents them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

PARTS = ("mask", "observe", "apply")
"""The game methods a step is split into: ``legal_mask``, ``observe``, ``apply_legal``."""
_METHODS = {"mask": "legal_mask", "observe": "observe", "apply": "apply_legal"}
LOOKAHEAD_SEAT = 0  # the lookahead bot's seat; random play fills the others
PROJECT_ROOT = Path(__file__).resolve().parent.parent


# -- the split of a step ---------------------------------------------------------------------
class SplitTimer:
    """Exclusive seconds spent inside a game's ``legal_mask``, ``observe`` and ``apply_legal``.

    The methods are wrapped on the game *instance*, so the env's calls and the game's calls to
    itself both pass through the wrappers. Time is exclusive: a phase's ``apply_legal`` that
    reads the mask of the position it made (to resolve a forced decision) charges that mask to
    ``mask``, not ``apply``, and nested parts never count twice, so the parts of a step can
    never add up to more than the step.
    """

    def __init__(self, game: Any):
        self.seconds = dict.fromkeys(PARTS, 0.0)
        self._inner: list[float] = []  # per open call: time spent in wrapped calls it made
        for part, method in _METHODS.items():
            setattr(game, method, self._timed(part, getattr(game, method)))

    def _timed(self, part: str, method: Callable) -> Callable:
        seconds, inner, clock = self.seconds, self._inner, time.perf_counter

        def timed(*args: Any, **kwargs: Any) -> Any:
            inner.append(0.0)
            start = clock()
            try:
                return method(*args, **kwargs)
            finally:
                elapsed = clock() - start
                seconds[part] += elapsed - inner.pop()
                if inner:
                    inner[-1] += elapsed

        return timed

    def totals(self) -> tuple[float, ...]:
        return tuple(self.seconds[part] for part in PARTS)


def split_sample(env_fn: Callable, seconds: float, seed: int) -> dict:
    """Mean microseconds per decision in the mask, the observation and the apply, and in the
    whole AEC step (``last()`` + ``step()``; ``other`` is the rest: the wrapper's own work).

    The play is :func:`envs.bench.play_random_game`'s (same seeds, same draws), so these are
    the decisions whose agent-steps/s the speed table reports. The random choice between
    ``last()`` and ``step()`` is the agent's, not the env's, and is left out; so are the
    finished agents' ``step(None)`` at the end of a game.
    """
    env = env_fn()
    timer = SplitTimer(env.game)
    clock = time.perf_counter
    rng = np.random.default_rng(seed)
    parts = [0.0] * len(PARTS)
    total = 0.0
    decisions = game = 0
    start = clock()
    while clock() - start < seconds:
        env.reset(seed=seed + game)
        game += 1
        for _agent in env.agent_iter():
            before = timer.totals()
            t0 = clock()
            obs, _, terminated, truncated, _ = env.last()
            t1 = clock()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(legal.size)])
            t2 = clock()
            env.step(action)
            t3 = clock()
            for i, (old, new) in enumerate(zip(before, timer.totals())):
                parts[i] += new - old
            total += (t1 - t0) + (t3 - t2)
            decisions += 1
    env.close()
    scale = 1e6 / max(decisions, 1)
    figures = {part: round(seconds_in * scale, 2) for part, seconds_in in zip(PARTS, parts)}
    # Timer readings nest inside the step's, so the rest is >= 0 but for rounding.
    figures["other"] = round(max(0.0, total - sum(parts)) * scale, 2)
    figures["total"] = round(total * scale, 2)
    return {"decisions": decisions, **figures}


def median_split(samples: list[dict]) -> dict:
    """The split of the round whose total is the median (the lower one of an even count):
    medians taken part by part need not add up to the median total."""
    chosen = median_by(samples, "total")
    return {**chosen, "rounds_total": [s["total"] for s in samples]}


# -- the lookahead bot -----------------------------------------------------------------------
def lookahead_sample(env_fn: Callable, env_name: str, seconds: float, seed: int) -> dict:
    """Decisions/s of the ``lookahead`` bot in seat 0 against random play in the other seats.

    Seeded games (game ``i``: dice seed ``seed + i``, the bots' draws seeded as in
    :func:`envs.bots.play_game`) are played until ``seconds`` have passed (and the bot has
    decided at least once); only the lookahead's time in ``act`` and its decisions count,
    forced ones (a single legal action) included, as the bot counts them. Every round replays
    the same games, so a faster bot covers a longer stretch of the same sequence of decisions.
    """
    from .bots import RandomBot, get_bot

    game = env_fn().game
    bot = get_bot(env_name, "lookahead")
    opponent = RandomBot()
    clock = time.perf_counter
    thinking = 0.0
    decisions = games = 0
    state: Any = None
    rng = np.random.default_rng()
    start = clock()
    while decisions == 0 or clock() - start < seconds:  # at least one, however short the time
        seat = -1 if state is None else game.current_player(state)
        if seat < 0:
            state = game.new_state(seed + games)
            rng = np.random.default_rng([seed + games, 0xB075])
            games += 1
            continue
        if seat == LOOKAHEAD_SEAT:
            t0 = clock()
            action = bot.act(game, state, rng)
            thinking += clock() - t0
            decisions += 1
        else:
            action = opponent.act(game, state, rng)
        game.apply_legal(state, action)
    stats = getattr(bot, "stats", {})
    return {
        "decisions": decisions,
        "searches": stats.get("searches"),
        "playouts": stats.get("playouts"),
        "thinking_seconds": round(thinking, 3),
        "decisions_per_second": decisions / thinking if thinking > 0 else 0.0,
    }


# -- cold start ------------------------------------------------------------------------------
# Run with ``python -c`` in a fresh interpreter: ``-m envs.bench`` would import envs before the
# clock starts. numpy is not imported first, so the first figure it is needed in pays for it.
_CHILD = """
import json, sys, time
clock = time.perf_counter
t0 = clock()
import envs
t1 = clock()
name, seed = sys.argv[1], int(sys.argv[2])
report = {"import_s": t1 - t0}
if name:
    env = envs.make(name)
    t2 = clock()
    env.reset(seed=seed)
    t3 = clock()
    import numpy as np
    rng = np.random.default_rng(seed)
    obs = env.last()[0]
    legal = np.flatnonzero(obs["action_mask"])
    env.step(int(legal[rng.integers(legal.size)]))
    t4 = clock()
    steps = 1
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        steps += 1
    t5 = clock()
    report.update(
        make_s=t2 - t1, reset_s=t3 - t2, first_step_s=t4 - t3, to_first_step_s=t4 - t0,
        first_game_s=t5 - t3, first_game_steps=steps,
    )
report["numba_loaded"] = "numba" in sys.modules
from envs.core.compiled import backend
report["kernels"] = backend()
print(json.dumps(report))
"""


def _child(name: str, seed: int, cache_dir: str, kernels: str) -> dict:
    """One fresh interpreter's figures with the ``kernels`` backend (``aot`` or ``jit``),
    numba caching its kernels in ``cache_dir`` alone."""
    from envs.core.compiled import BACKEND_VARIABLE

    environ = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, **{BACKEND_VARIABLE: kernels})
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, name, str(seed)],
        capture_output=True,
        text=True,
        env=environ,
        cwd=PROJECT_ROOT,
    )
    process = time.perf_counter() - start
    if out.returncode:
        raise RuntimeError(f"cold-start run of {name or 'import envs'} failed:\n{out.stderr}")
    report = json.loads(out.stdout.strip().splitlines()[-1])
    figures = {k: round(v, 6) if isinstance(v, float) else v for k, v in report.items()}
    figures["process_s"] = round(process, 6)
    return figures


def _cached_files(cache_dir: str) -> int:
    return sum(len(files) for _, _, files in os.walk(cache_dir))


def cold_start(env_names: list[str], seed: int, warm_repeats: int = 3) -> dict:
    """``import envs`` alone, and each env's way to its first step, in fresh interpreters.

    Per kernel backend (:mod:`envs.core.compiled`): *aot*, the kernels built ahead of time
    (measured only where the build is current); *cold*, numba's JIT with an empty cache
    (``NUMBA_CACHE_DIR``), so every kernel the run calls is compiled; *warm*, the JIT again
    with that directory, now holding what the cold run compiled. Python's bytecode caches are
    warm in all three. ``numba_cache_files`` counts what the cold run left (0: no compiled
    kernel was used). The import figures are the median of ``warm_repeats`` interpreters;
    they are small and noisy.
    """
    from envs.core import compiled

    result: dict[str, Any] = {"numba_cache_dir": "fresh temporary directory per env"}
    aot = compiled.backend() == "aot"
    with tempfile.TemporaryDirectory(prefix="bench-numba-") as cache_dir:
        result["import"] = {
            "cold": _child("", seed, cache_dir, "jit"),
            "warm": median_by(
                [_child("", seed, cache_dir, "jit") for _ in range(warm_repeats)], "import_s"
            ),
        }
        if aot:
            aot_runs = [_child("", seed, cache_dir, "aot") for _ in range(warm_repeats)]
            result["import"]["aot"] = median_by(aot_runs, "import_s")
    per_env: dict[str, dict] = {}
    for name in env_names:
        with tempfile.TemporaryDirectory(prefix="bench-numba-") as cache_dir:
            figures: dict[str, Any] = {"cold": _child(name, seed, cache_dir, "jit")}
            figures["numba_cache_files"] = _cached_files(cache_dir)
            figures["warm"] = _child(name, seed, cache_dir, "jit")
            if aot:
                figures["aot"] = _child(name, seed, cache_dir, "aot")
            per_env[name] = figures
    result["envs"] = per_env
    return result


def median_by(reports: list[dict], key: str) -> dict:
    """The report whose ``key`` is the median (the lower one of an even count)."""
    return sorted(reports, key=lambda r: r[key])[(len(reports) - 1) // 2]
