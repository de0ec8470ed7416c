"""``python -m envs.play``: a person against a bot, driven here by scripted standard input.

Every game env is played with small options so a test takes a second or two. ``Typist`` is a
fake stdin that answers each prompt from the menu the program just showed (captured by
wrapping ``envs.play.format_menu``), so the scripts work whatever the dice and the opponent
do before the person's turn.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable

import pytest

from envs import play

SMALL = {
    "heroica_v0": ["--option", "max_rounds=3"],
    "heroscape_v0": ["--option", "round_cap=2"],
    "heroclix_v0": ["--option", "max_rounds=2"],
}
ENVS = sorted(SMALL)
REAL_MENU = play.format_menu


class Typist(io.StringIO):
    """stdin whose next line is ``answer(menus, asked)``: the menus shown so far (lists of
    action names) and how many lines were read before; ``None`` is end of input."""

    def __init__(self, answer: Callable[[list[list[str]], int], str | None]):
        super().__init__()
        self.answer = answer
        self.menus: list[list[str]] = []
        self.asked = 0

    def readline(self, size: int = -1) -> str:
        assert self.asked < 5000, "the program keeps asking"
        line = self.answer(self.menus, self.asked)
        self.asked += 1
        return "" if line is None else line + "\n"


def run(monkeypatch, capsys, argv, stdin) -> tuple[int, str, str, list[list[str]]]:
    menus: list[list[str]] = []

    def spy(names, width=None):
        menus.append(list(names))
        return REAL_MENU(names, width)

    if isinstance(stdin, Typist):
        stdin.menus = menus
    monkeypatch.setattr(play, "format_menu", spy)
    monkeypatch.setattr(sys, "stdin", stdin)
    code = play.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err, menus


def script(*lines: str) -> io.StringIO:
    return io.StringIO("".join(line + "\n" for line in lines))


def args(env: str, *extra: str) -> list[str]:
    return [env, "--opponent", "random", "--seed", "0", *SMALL[env], *extra]


def unique_prefix(names: list[str]) -> tuple[str, str] | None:
    """A shortest prefix, shorter than the name, that only one of ``names`` starts with."""
    lowered = [n.lower() for n in names]
    for name, low in zip(names, lowered):
        for k in range(1, len(low)):
            if sum(other.startswith(low[:k]) for other in lowered) == 1:
                return low[:k], name
    return None


def shared_word(names: list[str]) -> str | None:
    """A first word that two or more of ``names`` start with (an ambiguous prefix)."""
    words = [n.split(" ")[0].lower() for n in names]
    return next((w for w in words if words.count(w) > 1), None)


# -- choosing -----------------------------------------------------------------------------------
@pytest.mark.parametrize("env", ENVS)
def test_a_number_plays_that_action_of_the_menu(monkeypatch, capsys, env):
    def answer(menus, asked):
        return ("2" if len(menus[-1]) > 1 else "1") if asked == 0 else "quit"

    code, out, _, menus = run(monkeypatch, capsys, args(env), Typist(answer))
    first = menus[0]
    chosen = first[1] if len(first) > 1 else first[0]
    assert code == 0
    assert f"1) {first[0]}" in out  # the menu is printed, numbered from 1
    assert f"player_0 (you): {chosen}" in out
    assert "quit: leaving the game" in out


@pytest.mark.parametrize("env", ENVS)
def test_a_unique_prefix_plays_the_one_action_it_starts(monkeypatch, capsys, env):
    picked: list[str] = []

    def answer(menus, asked):
        found = unique_prefix(menus[-1])
        if picked or found is None:
            return "quit" if picked else "1"
        picked.append(found[1])
        return found[0].upper()  # case does not matter

    code, out, _, _ = run(monkeypatch, capsys, args(env), Typist(answer))
    assert code == 0 and picked
    assert f"player_0 (you): {picked[0]}" in out


@pytest.mark.parametrize("env", ENVS)
def test_an_ambiguous_prefix_lists_the_candidates_and_asks_again(monkeypatch, capsys, env):
    state = {"typed": None, "menus_then": 0}

    def answer(menus, asked):
        if state["typed"] is None:
            word = shared_word(menus[-1])
            if word is None:
                return "1"
            state["typed"], state["menus_then"] = word, len(menus)
            return word
        assert len(menus) == state["menus_then"]  # no action was played: still the same decision
        return "quit"

    code, out, _, menus = run(monkeypatch, capsys, args(env), Typist(answer))
    word = state["typed"]
    assert code == 0 and word
    message = next(line for line in out.splitlines() if "is ambiguous" in line)
    candidates = [(i + 1, n) for i, n in enumerate(menus[-1]) if n.lower().startswith(word)]
    assert len(candidates) > 1
    for number, name in candidates:
        assert f"{number}) {name}" in message
    assert out.index(message) < out.rindex("> quit")  # asked again after the message


@pytest.mark.parametrize("env", ENVS)
def test_an_unknown_name_or_number_says_so_and_asks_again(monkeypatch, capsys, env):
    code, out, _, _ = run(monkeypatch, capsys, args(env), script("zzz-nothing", "999", "quit"))
    assert code == 0
    assert "unknown action 'zzz-nothing': no legal action starts with it" in out
    assert "no action number 999: choose 1.." in out
    assert out.count("player_0> ") == 3
    assert "(you):" not in out


@pytest.mark.parametrize("env", ENVS)
def test_help_and_question_mark_list_the_actions_again(monkeypatch, capsys, env):
    code, out, _, menus = run(monkeypatch, capsys, args(env), script("help", "?", "quit"))
    assert code == 0
    assert len(menus) == 3 and menus[0] == menus[1] == menus[2]
    assert out.count(REAL_MENU(menus[0])) == 3


@pytest.mark.parametrize("env", ENVS)
def test_quit_and_end_of_input_leave_cleanly_with_status_0(monkeypatch, capsys, env):
    code, out, err, _ = run(monkeypatch, capsys, args(env), script("quit"))
    assert (code, err) == (0, "") and out.rstrip().endswith("quit: leaving the game")
    code, out, err, _ = run(monkeypatch, capsys, args(env), script("board", "exit"))
    assert code == 0 and out.rstrip().endswith("quit: leaving the game")
    code, out, err, _ = run(monkeypatch, capsys, args(env), io.StringIO(""))
    assert (code, err) == (0, "") and out.rstrip().endswith("end of input: leaving the game")


# -- whole games --------------------------------------------------------------------------------
@pytest.mark.parametrize("env", ENVS)
def test_a_whole_game_against_random_always_choosing_1(monkeypatch, capsys, env):
    code, out, err, menus = run(monkeypatch, capsys, args(env), script(*["1"] * 3000))
    assert (code, err) == (0, "")
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("game over: ") and "player_0" in last and "player_1" in last
    assert menus and out.count("player_0 (you): ") == len(menus)
    assert out.count("player_1 (random): ") >= 1
    assert "round" in out  # the boards (render_text) were printed


def test_the_board_and_the_dice_are_shown_after_each_step(monkeypatch, capsys):
    code, out, _, _ = run(monkeypatch, capsys, args("heroica_v0"), script(*["1"] * 3000))
    assert code == 0
    assert " * Barbarian rolls " in out  # the event of the first roll
    boards = out.count("P0 Barbarian hp ")
    decisions = out.count("(you): ") + out.count("(random): ")
    assert boards == decisions + 1  # once at the start and after every decision


def test_the_same_seed_replays_the_same_game(monkeypatch, capsys):
    first = run(monkeypatch, capsys, args("heroscape_v0"), script(*["1"] * 3000))[1]
    again = run(monkeypatch, capsys, args("heroscape_v0"), script(*["1"] * 3000))[1]
    assert first == again


def test_seat_and_more_players_every_other_seat_is_the_opponent(monkeypatch, capsys):
    argv = [
        "heroica_v0",
        "--opponent",
        "random",
        "--seed",
        "1",
        "--seat",
        "2",
        "--option",
        "num_players=3",
        "--option",
        "max_rounds=2",
    ]
    code, out, _, _ = run(monkeypatch, capsys, argv, script(*["1"] * 3000))
    assert code == 0
    assert "you are player_2, player_0, player_1: random" in out
    assert (
        "player_0 (random): " in out and "player_1 (random): " in out and "player_2 (you): " in out
    )
    assert out.rstrip().splitlines()[-1].startswith("game over: ")


def test_the_heuristic_bot_is_the_default_opponent(monkeypatch, capsys):
    code, out, _, _ = run(
        monkeypatch, capsys, ["heroica_v0", "--seed", "2", "--seat", "1"], script("quit")
    )
    assert code == 0 and "player_0 (heuristic): " in out


def test_max_turns_stops_the_game(monkeypatch, capsys):
    code, out, _, _ = run(
        monkeypatch, capsys, args("heroica_v0", "--option", "max_turns=1"), script(*["1"] * 3000)
    )
    assert code == 0 and "game stopped: max_turns reached after 1 turns" in out


def test_a_window_can_be_opened_too(monkeypatch, capsys):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    code, out, err, _ = run(
        monkeypatch, capsys, args("heroica_v0", "--window"), script("1", "quit")
    )
    assert (code, err) == (0, "") and "player_0 (you): roll" in out


# -- bad command lines ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, names",
    [
        (
            ["heroica_v0", "--opponent", "grandmaster"],
            ["--opponent 'grandmaster'", "heuristic, lookahead, random", ".zip"],
        ),
        (
            ["heroscape_v0", "--opponent", "missing.zip"],
            ["--opponent", "missing.zip", "does not exist"],
        ),
        (["heroica_v0", "--seat", "2"], ["--seat 2", "seats 0..1"]),
        (["heroclix_v0", "--seat", "-1"], ["--seat -1", "seats 0..1"]),
        (["chess_v9"], ["unknown env 'chess_v9'", "heroica_v0"]),
        (["heroica_v0", "--option", "colour=red"], ["--option", "colour"]),
        (["heroica_v0", "--option", "oops"], ["key=value", "'oops'"]),
    ],
)
def test_a_bad_command_line_is_one_error_line_and_status_2(monkeypatch, capsys, argv, names):
    code, out, err, _ = run(monkeypatch, capsys, argv, script("quit"))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    for name in names:
        assert name in err
    assert "(you)" not in out


def test_argparse_errors_and_help_return_a_status(monkeypatch, capsys):
    code, out, err, _ = run(monkeypatch, capsys, ["heroica_v0", "--seat", "one"], script())
    assert code == 2 and "--seat" in err
    code, out, err, _ = run(monkeypatch, capsys, ["--help"], script())
    assert code == 0 and "--opponent" in out and "heroica_v0" in out


# -- a saved model as the opponent ------------------------------------------------------------------
@pytest.mark.slow
def test_a_saved_model_plays_and_a_model_for_another_board_is_refused(
    monkeypatch, capsys, tmp_path
):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from training.selfplay import SelfPlayEnv

    # Untrained is enough: the test is about loading and seating a model, not skill.
    model = MaskablePPO(
        "MlpPolicy",
        SelfPlayEnv("heroica_v0", {}, seed=0),
        n_steps=16,
        batch_size=16,
        device="cpu",
        policy_kwargs=dict(net_arch=[8]),
    )
    path = tmp_path / "tiny.zip"
    model.save(str(path))
    code, out, err, _ = run(
        monkeypatch,
        capsys,
        ["heroica_v0", "--opponent", str(path), "--seed", "0", "--option", "max_rounds=2"],
        script(*["1"] * 3000),
    )
    assert (code, err) == (0, "")
    assert "player_1 (tiny): " in out and out.rstrip().splitlines()[-1].startswith("game over: ")
    code, out, err, _ = run(
        monkeypatch,
        capsys,
        ["heroica_v0", "--opponent", str(path), "--option", "board_size=20,20"],
        script("quit"),
    )
    assert code == 2 and "was trained on observations" in err and len(err.strip().splitlines()) == 1


# -- the matcher and the menu on their own -----------------------------------------------------------
def test_match_action_rules():
    names = ["step (1,2)", "step (1,2) again", "Buy Bow", "end  turn"]
    assert play.match_action("1", names) == (0, "")
    assert play.match_action(" 4 ", names) == (3, "")
    assert play.match_action("step (1,2)", names) == (0, "")  # exact beats the longer name
    assert play.match_action("STEP   (1,2) a", names) == (1, "")
    assert play.match_action("b", names) == (2, "")
    assert play.match_action("end turn", names) == (3, "")  # spaces are normalised on both sides
    index, message = play.match_action("st", names)
    assert index is None and "1) step (1,2), 2) step (1,2) again" in message
    index, message = play.match_action("0", names)
    assert index is None and "choose 1..4" in message
    index, message = play.match_action("x", names)
    assert index is None and "unknown action 'x'" in message


def test_a_long_menu_is_laid_out_in_columns_in_order():
    names = [f"move (0,{i})" for i in range(30)]
    text = play.format_menu(names, width=80)
    lines = text.splitlines()
    assert len(lines) < 30 and all(len(line) <= 80 for line in lines)
    for i, name in enumerate(names):
        assert f"{i + 1}) {name}" in text
    assert lines[0].split()[:2] == ["1)", "move"] and " 2) move (0,1)" in lines[1]
