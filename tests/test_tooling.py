"""The lint, format and type checks as tests: ``ruff check`` and ``ruff format --check`` over
envs, training and tests, and mypy over envs, each with its config from pyproject.toml and
each clean (exit status 0). The tools come with the ``lint`` extra, in the venv that runs the
tests; nothing is written to the tree (ruff without its cache, mypy's cache in tmp_path)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent  # the venv's bin, where pip put ruff and mypy
CHECKED = ("envs", "training", "tests")


def run_tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    tool = shutil.which(name, path=str(BIN))
    assert tool is not None, f"{name} is not in {BIN}: pip install -e '.[lint]'"
    return subprocess.run(
        [tool, *args], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )


def assert_clean(done: subprocess.CompletedProcess[str]) -> None:
    command = " ".join(Path(done.args[0]).name if i == 0 else a for i, a in enumerate(done.args))
    assert done.returncode == 0, (
        f"`{command}` exited with {done.returncode}:\n{done.stdout}{done.stderr}"
    )


def test_ruff_check_finds_nothing():
    assert_clean(run_tool("ruff", "check", "--no-cache", *CHECKED))


def test_ruff_format_changes_nothing():
    assert_clean(run_tool("ruff", "format", "--check", "--no-cache", *CHECKED))


@pytest.mark.slow  # about 30 s from a cold cache
def test_mypy_finds_nothing(tmp_path):
    # The files to check (envs) and the options come from [tool.mypy] in pyproject.toml.
    assert_clean(run_tool("mypy", "--cache-dir", str(tmp_path / "mypy_cache")))
