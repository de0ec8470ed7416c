"""Results of training runs as one table: what the docs (docs/results.md) and the evaluation notebook show.

    python -m training.results runs/heroica_v0_x runs/heroscape_v0_y runs/heroclix_v0_z
    python -m training.results --newest            # the newest run of every env under runs/
    python -m training.results --pool runs/heroica_s0 runs/heroica_s1 runs/heroica_s2
    python -m training.results --pool --player "search(simulations=8)" runs/heroica_s*

One row per run, from its ``summary.json`` (written at the end of ``training.train``): the env
and the run's seed, learner steps, wall time, and for each opponent of the final evaluation
the win rate with its 95% Wilson interval and the games played, then the rate in each seat
(``s0``, ``s1``, ...). A run that was interrupted, or has not finished, is listed with what it
has and marked "(interrupted)"; one stopped while its final game was being filmed has all its
results and is marked "(no video)".

``--pool``: after the runs of each env (in the order given), one more row pools them, as one
claim over several seeds should: the games and wins of every run summed, per opponent and
per seat, and the interval of the sum. An opponent some run was not evaluated against is not
pooled ("-"); a pool with an interrupted run says so; runs of one env that share a seed are
an error (the same seed twice is one run's luck counted twice).

``--player P``: the results ``training.judge`` recorded for the player ``P`` on each run
(``policy``, or search over the run's model such as ``search(simulations=8)``) in place of the
final evaluation's, the same columns, then the thinking time per decision against each
opponent, the player's / the opponent's (pooled over all the decisions of the runs): what a
claim of search within the lookahead bot's budget rests on.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from envs.bots import per_decision, wilson_interval

from .evaluate import load_eval_csv

OPPONENT_ORDER = ("random", "heuristic", "lookahead")
JUDGED = "judged"  # a run's folder of judged players (training.judge)
VIDEO_PHASE = "video"  # training.train's phase while it films the final game (stopped_during)


def load_summary(run: Path) -> dict[str, Any]:
    path = run / "summary.json"
    if not path.is_file():
        raise FileNotFoundError(f"{run}: no summary.json (not a finished training run folder)")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None


def stopped_while_filming(summary: dict[str, Any]) -> bool:
    """An interrupted run whose learning and final evaluation had both ended: the stop came
    while the final game was being filmed (``training.train`` writes the results first), so
    only the video is missing."""
    return (
        bool(summary.get("interrupted"))
        and summary.get("stopped_during") == VIDEO_PHASE
        and summary.get("final") is not None
    )


def cut_short(summary: dict[str, Any]) -> bool:
    """An interrupted run that misses more than its video."""
    return bool(summary.get("interrupted")) and not stopped_while_filming(summary)


def interruption_mark(summary: dict[str, Any]) -> str:
    """What a run's row says after its name: nothing for a finished run."""
    if stopped_while_filming(summary):
        return " (no video)"
    return " (interrupted)" if summary.get("interrupted") else ""


def judged_path(run: Path, player: str) -> Path:
    """Where ``training.judge`` keeps ``player``'s results on ``run``."""
    return run / JUDGED / (re.sub(r"[^A-Za-z0-9.]+", "_", player).strip("_") + ".json")


def load_judged(run: Path, player: str) -> dict[str, Any]:
    """The run's judged results of ``player`` (a missing file names the command that makes it)."""
    path = judged_path(run, player)
    if not path.is_file():
        raise FileNotFoundError(
            f"{run}: {player!r} has not been judged (python -m training.judge {run} "
            f"--player '{player}')"
        )
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None


def run_config(run: Path) -> dict[str, Any]:
    """The run's ``config.yaml`` as a plain mapping (empty if it has none)."""
    path = run / "config.yaml"
    return (yaml.safe_load(path.read_text()) or {}) if path.is_file() else {}


def run_env(run: Path) -> str | None:
    return (run_config(run).get("env") or {}).get("name")


def newest_runs(root: Path) -> list[Path]:
    """The newest run folder (by its summary.json) of every env under ``root``."""
    newest: dict[str, Path] = {}
    for summary in root.glob("*/summary.json"):
        env = run_env(summary.parent)
        if env and (
            env not in newest
            or summary.stat().st_mtime > (newest[env] / "summary.json").stat().st_mtime
        ):
            newest[env] = summary.parent
    return [newest[env] for env in sorted(newest)]


SEED_SUFFIX = re.compile(r"(?P<base>.+)_seed(?P<seed>\d+)")


def seed_groups(root: Path) -> dict[str, list[Path]]:
    """Finished runs under ``root`` named ``<base>_seed<k>`` (``training.seeds``), by base,
    each group in seed order; newest group first."""
    groups: dict[str, list[tuple[int, Path]]] = {}
    for summary in root.glob("*_seed*/summary.json"):
        found = SEED_SUFFIX.fullmatch(summary.parent.name)
        if found:
            groups.setdefault(found["base"], []).append((int(found["seed"]), summary.parent))

    def finished(base: str) -> float:
        return max((folder / "summary.json").stat().st_mtime for _, folder in groups[base])

    ordered = sorted(groups, key=finished, reverse=True)
    return {base: [folder for _, folder in sorted(groups[base])] for base in ordered}


def seed_curves(runs: Sequence[Path]) -> dict[str, dict[str, Any]]:
    """The learning curves of several runs of one config (seeds), per opponent.

    ``timesteps``: the evaluation steps every run has; ``mean``, ``low``, ``high``: the mean,
    smallest and largest win rate of the runs there; ``runs``: each run's own
    ``(timesteps, win_rate)``. Where a run evaluated twice at one step (its final evaluation
    on the last periodic one's step) the two are pooled (wins over games)."""
    per_run = [load_eval_csv(run / "eval.csv") for run in runs]
    curves: dict[str, dict[str, Any]] = {}
    shared = set.intersection(*(set(c) for c in per_run)) if per_run else set()
    ordered = [o for o in OPPONENT_ORDER if o in shared] + sorted(shared - set(OPPONENT_ORDER))
    for opponent in ordered:
        rates = []
        for curves_of_run in per_run:
            curve = curves_of_run[opponent]
            steps = np.unique(curve["timesteps"])
            wins = np.array([curve["wins"][curve["timesteps"] == t].sum() for t in steps])
            games = np.array([curve["games"][curve["timesteps"] == t].sum() for t in steps])
            rates.append(dict(zip(steps.tolist(), (wins / np.maximum(games, 1)).tolist())))
        common = sorted(set.intersection(*(set(r) for r in rates)))
        table = np.array([[r[t] for t in common] for r in rates]).reshape(len(rates), len(common))
        curves[opponent] = {
            "timesteps": np.array(common, dtype=np.int64),
            "mean": table.mean(axis=0),
            "low": table.min(axis=0),
            "high": table.max(axis=0),
            "runs": [(np.array(sorted(r)), np.array([r[t] for t in sorted(r)])) for r in rates],
        }
    return curves


def opponents_of(summaries: Sequence[dict[str, Any]]) -> list[str]:
    seen = {name for summary in summaries for name in (summary.get("final") or {})}
    return [name for name in OPPONENT_ORDER if name in seen] + sorted(seen - set(OPPONENT_ORDER))


def rate_cell(result: dict[str, Any] | None) -> str:
    if result is None:
        return "-"
    return f"{result['win_rate']:.3f} [{result['ci_low']:.3f}, {result['ci_high']:.3f}] ({result['games']})"


def seats_cell(result: dict[str, Any] | None) -> str:
    if result is None or not result.get("seats"):
        return "-"
    return " / ".join(
        "-" if seat["win_rate"] is None else f"s{k} {seat['win_rate']:.2f}"
        for k, seat in enumerate(result["seats"])
    )


def rate(wins: int, games: int) -> dict[str, Any]:
    """Games, wins and the win rate with its 95% Wilson interval, as ``summary.json`` records
    a seat's (rates to 4 decimals; None with no games)."""
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 4) if games else None,
        "ci_low": round(low, 4),
        "ci_high": round(high, 4),
    }


def result_fields(result: Any) -> dict[str, Any]:
    """A MatchResult as eval.csv and summary.json record it (rates to 4 decimals)."""
    return {
        "games": result.games,
        "wins": result.wins,
        "draws": result.draws,
        "losses": result.losses,
        "win_rate": round(result.win_rate, 4),
        "ci_low": round(result.ci_low, 4),
        "ci_high": round(result.ci_high, 4),
    }


def final_record(result: Any) -> dict[str, Any]:
    """A final evaluation against one opponent as summary.json keeps it: the MatchResult's
    fields and the learner's rate in each seat."""
    seats = [rate(wins, games) for games, wins in zip(result.seat_games, result.seat_wins)]
    return {**result_fields(result), "seats": seats}


def pooled_final(summaries: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per opponent every run was evaluated against: the games and wins summed over the runs,
    overall and per seat, with the interval of the sums."""
    finals = [summary.get("final") or {} for summary in summaries]
    pooled = {}
    for name in opponents_of(summaries):
        found = [final.get(name) for final in finals]
        results = [result for result in found if result is not None]
        if len(results) < len(found):
            continue
        seat_count = max(len(result.get("seats") or []) for result in results)
        seats = []
        for k in range(seat_count):
            per_run = [r["seats"][k] for r in results if k < len(r.get("seats") or [])]
            seats.append(rate(sum(s["wins"] for s in per_run), sum(s["games"] for s in per_run)))
        pooled[name] = {
            **rate(sum(r["wins"] for r in results), sum(r["games"] for r in results)),
            "seats": seats,
            **pooled_thinking(results),
        }
    return pooled


def pooled_thinking(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Judged results' thinking times over all their decisions (none if a result lacks them)."""
    pooled: dict[str, Any] = {}
    for side in ("", "opponent_"):
        ms, count = f"{side}ms_per_decision", f"{side}decisions"
        if all(ms in r and count in r for r in results):
            pooled[ms], pooled[count] = per_decision([(r[ms], r[count]) for r in results])
    return pooled


def thinking_cell(result: dict[str, Any] | None) -> str:
    if result is None or "ms_per_decision" not in result:
        return "-"
    return f"{result['ms_per_decision']:.1f} / {result['opponent_ms_per_decision']:.1f}"


def _row(label: str, summary: dict[str, Any], opponents: list[str], judged: bool) -> list[str]:
    final = summary.get("final") or {}
    return (
        [label, str(summary["timesteps"]), f"{summary['train_minutes']:g}"]
        + [rate_cell(final.get(name)) for name in opponents]
        + [seats_cell(final.get(name)) for name in opponents]
        + ([thinking_cell(final.get(name)) for name in opponents] if judged else [])
    )


def _check_distinct_seeds(env: str, group: Sequence[dict[str, Any]]) -> None:
    seeds = [summary["seed"] for summary in group]
    repeated = sorted({str(seed) for seed in seeds if seeds.count(seed) > 1})
    if repeated:
        raise ValueError(
            f"--pool: runs of {env} share seed {', '.join(repeated)}; pooling one seed twice "
            "would count one run's luck twice (train each with its own seed=)"
        )


def table_rows(
    runs: Sequence[Path], pool: bool = False, player: str | None = None
) -> tuple[list[str], list[list[str]]]:
    """The header and one row of cells per run (with ``pool``, then a pooled row per env);
    with ``player``, the results ``training.judge`` recorded for it on each run instead of
    the final evaluation's, and each opponent's thinking times (ms a decision: the player /
    the opponent)."""
    summaries = [load_summary(run) for run in runs]
    if player is not None:
        for run, summary in zip(runs, summaries):
            summary["final"] = load_judged(run, player)["final"]
    opponents = opponents_of(summaries)
    header = (
        ["env", "steps", "wall (min)"]
        + [f"vs {name}" for name in opponents]
        + [f"{name} per seat" for name in opponents]
        + ([f"ms/decision vs {name}" for name in opponents] if player is not None else [])
    )
    judged = player is not None
    who = f" {player}" if judged else ""
    by_env: dict[str, list[dict[str, Any]]] = {}
    for run, summary in zip(runs, summaries):
        by_env.setdefault(summary["env"], []).append(summary)
        summary["seed"] = run_config(run).get("seed")
    rows = []
    for env, group in by_env.items():
        for summary in group:
            seed = "" if summary["seed"] is None else f" (seed {summary['seed']})"
            marked = interruption_mark(summary)
            rows.append(_row(env + seed + marked + who, summary, opponents, judged))
        if pool:
            _check_distinct_seeds(env, group)
            pooled = {
                "timesteps": sum(s["timesteps"] for s in group),
                "train_minutes": round(sum(s["train_minutes"] for s in group), 1),
                "final": pooled_final(group),
            }
            interrupted = ", one interrupted" if any(map(cut_short, group)) else ""
            runs_text = f"{len(group)} run" + ("s" if len(group) != 1 else "")
            label = f"**{env} pooled ({runs_text}{interrupted}){who}**"
            rows.append(_row(label, pooled, opponents, judged))
    return header, rows


def markdown_table(runs: Sequence[Path], pool: bool = False, player: str | None = None) -> str:
    header, rows = table_rows(runs, pool, player)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.results", description=__doc__.split("\n")[0]
    )
    parser.add_argument("runs", nargs="*", type=Path, help="run folders (with summary.json)")
    parser.add_argument(
        "--newest", action="store_true", help="the newest run of every env under --root"
    )
    parser.add_argument(
        "--root", type=Path, default=Path("runs"), help="where --newest looks (default runs/)"
    )
    parser.add_argument(
        "--pool", action="store_true", help="a row pooling each env's runs (several seeds)"
    )
    parser.add_argument(
        "--player",
        default=None,
        help="the results training.judge recorded for this player (policy, search(...))",
    )
    args = parser.parse_args(argv)
    runs = list(args.runs) + (newest_runs(args.root) if args.newest else [])
    if not runs:
        parser.error("give run folders, or --newest")
    try:
        print(markdown_table(runs, pool=args.pool, player=args.player))
    except (FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
