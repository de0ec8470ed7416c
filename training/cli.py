"""The ``heroarena`` command: one entry point for the project's tools.

Usage::

    heroarena --help                      # the subcommands, one line each
    heroarena <subcommand> --help         # that tool's own options
    heroarena train --config configs/heroica.yaml ppo.learning_rate=1e-4
    heroarena evaluate --env heroica_v0 --agents random heuristic runs/x/final_model.zip
    heroarena record --env heroica_v0 --agents heuristic random
    heroarena match heroica_v0 heuristic random --games 200
    heroarena bench --seconds 1
    heroarena fuzz --games 20 --workers 2
    heroarena play heroica_v0 --opponent heuristic

Each subcommand runs the ``main(argv)`` of an existing module with the rest of the command
line, so ``heroarena match ...`` is exactly ``python -m envs.match ...`` (whose name the
tools' own help still shows); every ``python -m`` entry point keeps working. A tool is imported
only when it runs: ``heroarena play`` or ``match`` never loads torch. Installed by
``[project.scripts] heroarena = "training.cli:main"``; ``python -m training.cli`` works too.

Exit status: the tool's own (0 success, 2 bad input), or 2 for a missing or unknown subcommand.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from collections.abc import Sequence

SUBCOMMANDS: dict[str, str] = {
    "train": "training.train",
    "evaluate": "training.evaluate",
    "record": "training.record",
    "match": "envs.match",
    "bench": "envs.bench",
    "fuzz": "envs.fuzz",
    "play": "envs.play",
}
"""Subcommand -> the module whose ``main(argv) -> int`` it runs."""


def summary(module: str) -> str:
    """The first line of a module's docstring, read from its source so help imports nothing."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        return f"({module} is not installed)"
    try:
        with open(spec.origin, encoding="utf-8") as source:
            docstring = ast.get_docstring(ast.parse(source.read())) or ""
    except (OSError, SyntaxError, ValueError):
        return f"(see python -m {module} --help)"
    return docstring.strip().split("\n")[0]


def usage() -> str:
    width = max(len(name) for name in SUBCOMMANDS)
    lines = [
        "usage: heroarena <subcommand> [args ...]",
        "",
        "RL environments for LEGO Heroica, Heroscape and HeroClix: train, evaluate, play.",
        "",
        "subcommands:",
    ]
    lines += [f"  {name:<{width}}  {summary(module)}" for name, module in SUBCOMMANDS.items()]
    lines += [
        "",
        "heroarena <subcommand> --help shows that tool's options; each subcommand is also",
        "python -m <module>: " + ", ".join(SUBCOMMANDS.values()) + ".",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print(usage(), file=sys.stderr)
        print("error: a subcommand is required", file=sys.stderr)
        return 2
    name, rest = args[0], args[1:]
    if name in ("-h", "--help", "help"):
        print(usage())
        return 0
    if name not in SUBCOMMANDS:
        print(
            f"error: unknown subcommand {name!r}; choose one of: {', '.join(SUBCOMMANDS)} "
            "(heroarena --help)",
            file=sys.stderr,
        )
        return 2
    tool = importlib.import_module(SUBCOMMANDS[name])
    try:
        status = tool.main(rest)
    except SystemExit as exit_:  # argparse exits on --help (0) and on bad arguments (2)
        status = exit_.code
    if status is None or isinstance(status, int):
        return status or 0
    print(status, file=sys.stderr)  # sys.exit("message") convention
    return 1


if __name__ == "__main__":
    sys.exit(main())
