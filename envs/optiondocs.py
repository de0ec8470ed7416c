"""The options tables of the env docstrings, generated from the options' specs.

Each env module's docstring has an ``Options`` section whose table is
:func:`envs.core.options.rst_table` of the env's specs (its game's, then the env's own,
:func:`envs.pettingzoo_env.option_specs`). ``python -m envs.optiondocs --write`` rewrites the
tables after a spec changes; ``--check`` (and a test) fails when one differs.
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from . import env_module, env_names
from .core.options import rst_table
from .pettingzoo_env import option_specs
from .registry import ENVS, load

# the section title, then the table: its three rule lines and everything up to the last
TABLE = re.compile(r"(\nOptions\n-------\n)(=+ +=+ +=+\n.*?\n=+ +=+ +=+\n.*?\n=+ +=+ +=+\n)", re.S)


def module_file(env_name: str) -> Path:
    return Path(inspect.getfile(env_module(env_name)))


def expected_table(env_name: str) -> str:
    return rst_table(option_specs(load(ENVS[env_name].game))) + "\n"


def rewritten(env_name: str) -> tuple[Path, str, str]:
    """(file, its text now, its text with the generated table)."""
    path = module_file(env_name)
    text = path.read_text(encoding="utf-8")
    found = TABLE.search(text)
    if found is None:
        raise ValueError(f"{path}: no 'Options' section with a three-column table")
    new = text[: found.start(2)] + expected_table(env_name) + text[found.end(2) :]
    return path, text, new


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m envs.optiondocs", description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the tables that differ")
    args = parser.parse_args(argv)
    stale = []
    for name in env_names():
        path, text, new = rewritten(name)
        if new != text:
            stale.append(path)
            if args.write:
                path.write_text(new, encoding="utf-8")
    for path in stale:
        print(f"{path}: options table {'rewritten' if args.write else 'differs from the specs'}")
    return 1 if stale and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
