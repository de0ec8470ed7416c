"""Results of training runs as one table: what the docs (docs/results.md) and the evaluation notebook show.

    python -m training.results runs/heroica_v0_x runs/heroscape_v0_y runs/heroclix_v0_z
    python -m training.results --newest            # the newest run of every env under runs/

One row per run, from its ``summary.json`` (written at the end of ``training.train``): the env,
learner steps, wall time, and for each opponent of the final evaluation the win rate with its
95% Wilson interval and the games played, then the rate in each seat (``s0``, ``s1``, ...).
A run that was interrupted, or has not finished, is listed with what it has and marked.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

OPPONENT_ORDER = ("random", "heuristic", "lookahead")


def load_summary(run: Path) -> dict[str, Any]:
    path = run / "summary.json"
    if not path.is_file():
        raise FileNotFoundError(f"{run}: no summary.json (not a finished training run folder)")
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None


def run_env(run: Path) -> str | None:
    path = run / "config.yaml"
    if not path.is_file():
        return None
    config = yaml.safe_load(path.read_text()) or {}
    return (config.get("env") or {}).get("name")


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


def table_rows(runs: Sequence[Path]) -> tuple[list[str], list[list[str]]]:
    """The header and one row of cells per run."""
    summaries = [load_summary(run) for run in runs]
    opponents = opponents_of(summaries)
    header = (
        ["env", "steps", "wall (min)"]
        + [f"vs {name}" for name in opponents]
        + [f"{name} per seat" for name in opponents]
    )
    rows = []
    for _run, summary in zip(runs, summaries):
        final = summary.get("final") or {}
        env = summary["env"] + (" (interrupted)" if summary.get("interrupted") else "")
        rows.append(
            [env, str(summary["timesteps"]), f"{summary['train_minutes']:g}"]
            + [rate_cell(final.get(name)) for name in opponents]
            + [seats_cell(final.get(name)) for name in opponents]
        )
    return header, rows


def markdown_table(runs: Sequence[Path]) -> str:
    header, rows = table_rows(runs)
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
    args = parser.parse_args(argv)
    runs = list(args.runs) + (newest_runs(args.root) if args.newest else [])
    if not runs:
        parser.error("give run folders, or --newest")
    try:
        print(markdown_table(runs))
    except (FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
