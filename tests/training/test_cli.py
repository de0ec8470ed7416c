"""The ``heroarena`` command (``training.cli.main``): subcommands dispatched to the tools' mains."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from training import cli

SUBCOMMANDS = ["train", "evaluate", "record", "match", "bench", "fuzz", "play"]


def test_help_lists_every_subcommand_one_line_each(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for name in SUBCOMMANDS:
        line = next(line for line in lines if line.startswith(f"  {name} "))
        assert len(line.split()) > 3  # the tool's one-line summary follows the name
    assert "Play a game yourself in the terminal" in out  # read from envs.play's docstring
    assert cli.main(["-h"]) == 0 and capsys.readouterr().out == out


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["dance"], "unknown subcommand 'dance'"),
        ([], "a subcommand is required"),
        (["--verbose"], "unknown subcommand '--verbose'"),
    ],
)
def test_a_missing_or_unknown_subcommand_is_an_error_with_status_2(capsys, argv, expected):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert expected in err and "play" in err


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_subcommand_help_is_the_tools_own_help(capsys, name):
    assert cli.main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert f"usage: python -m {cli.SUBCOMMANDS[name]}" in out


def test_match_runs_through_the_command(capsys):
    assert cli.main(["match", "heroica_v0", "random", "random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "random vs random: 2 games" in out and "win rate" in out


def test_fuzz_runs_through_the_command(capsys):
    assert (
        cli.main(["fuzz", "--env", "heroscape_v0", "--options", "scenario=mirror", "--games", "1"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("env ") and "heroscape_v0 " in out and "total" in out
    assert cli.main(["fuzz", "--env", "chess_v6"]) == 2
    assert "unknown env 'chess_v6'" in capsys.readouterr().err


def test_a_tools_bad_arguments_keep_its_status_2(capsys):
    assert cli.main(["match", "heroica_v0"]) == 2  # argparse: bot_a, bot_b missing
    assert "bot_a" in capsys.readouterr().err
    assert cli.main(["match", "heroica_v0", "random", "nobody", "--games", "2"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err


def test_play_with_scripted_input_quits(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\nquit\n"))
    assert cli.main(["play", "heroica_v0", "--opponent", "random", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "player_0 (you) to move" in out and out.rstrip().endswith("quit: leaving the game")


def test_play_and_match_do_not_load_torch_or_the_training_tools():
    code = (
        "import io, sys; sys.stdin = io.StringIO('quit\\n'); from training import cli; "
        "assert cli.main(['play', 'heroica_v0', '--opponent', 'random']) == 0; "
        "assert cli.main(['match', 'heroscape_v0', 'random', 'random', '--games', '1']) == 0; "
        "loaded = [m for m in ('torch', 'sb3_contrib', 'training.agents', 'training.train') "
        "if m in sys.modules]; assert not loaded, loaded"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
