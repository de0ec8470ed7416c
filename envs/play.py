"""Play a game yourself in the terminal, against a bot or a saved model.

Usage::

    python -m envs.play heroica_v0                                # seat 0 against the heuristic bot
    python -m envs.play heroica_v0 --opponent random --seat 1 --seed 3
    python -m envs.play heroscape_v0 --opponent runs/x/final_model.zip
    python -m envs.play heroica_v0 --option mission=tunnel --option num_players=3
    python -m envs.play heroclix_v0 --window                      # also draw the board (pygame)

You play ``--seat k`` (default 0; ``player_k``); every other seat is the ``--opponent``: a bot
name (``random``, ``heuristic``; ``envs.bots.bot_names``), a saved MaskablePPO model
(``.zip``, or ``name=path.zip``) or tree search over one (``search:path.zip``); models are
loaded by ``training.agents.load_agent``, which needs torch and is only imported for a
model. ``--option key=value`` passes a game or env option as in ``python -m envs.match``
(values read as JSON when they parse, ``a,b`` as a list; e.g. ``mission=tunnel``,
``max_rounds=20``, ``scenario=duel``, ``max_turns=50``). ``--seed`` fixes the dice and the
bots' choices; without it a seed is drawn and printed so a game can be replayed.
``--window`` also shows the board in a pygame window (it is redrawn after every
decision; it does not react to the mouse, and while the prompt waits for you some window
managers mark it "not responding").

After every decision the events of that step (dice rolls, moves, fights) and the board (the
game's ``render_text``) are printed. At your turn the legal actions are listed, numbered.

Keys at the prompt
------------------
==================  ======================================================================
input               effect
==================  ======================================================================
``3``               the action numbered 3 in the list
``fight``           the action whose name starts with ``fight`` (case and repeated spaces
                    do not matter; an exact name wins over longer names it begins): a
                    unique prefix plays it, an ambiguous one lists the candidates, an
                    unknown one says so; then you are asked again
``help`` or ``?``   list the legal actions again
``board``           print the board again
``quit`` / ``exit`` leave the game (end of input, Ctrl-D, too): exit status 0
==================  ======================================================================

Exit status: 0 when the game ends or you quit, 2 for a bad command line (unknown env,
opponent, seat or option; the error names it on one line), 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import env_names, make
from .bots import bot_names, get_bot
from .core.game import GameError
from .match import UsageError, load_player, parse_options
from .registry import ENVS

HELP_WORDS = ("help", "?")
QUIT_WORDS = ("quit", "exit")
BOARD_WORDS = ("board",)


# ==========================================================================================
# Choosing an action from typed text
# ==========================================================================================
def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip()).lower()


def match_action(text: str, names: Sequence[str]) -> tuple[int | None, str]:
    """Resolve typed ``text`` against the legal action ``names`` (in menu order).

    Returns ``(index, "")`` for a choice, or ``(None, message)`` explaining why there is none:
    a number out of range, an ambiguous prefix (the message lists the candidates with their
    numbers) or a name that no legal action starts with.
    """
    wanted = _normal(text)
    if wanted.isdigit():
        number = int(wanted)
        if 1 <= number <= len(names):
            return number - 1, ""
        return None, f"no action number {number}: choose 1..{len(names)} (help lists them)"
    normal = [_normal(name) for name in names]
    exact = [i for i, name in enumerate(normal) if name == wanted]
    if len(exact) == 1:
        return exact[0], ""
    candidates = exact or [i for i, name in enumerate(normal) if name.startswith(wanted)]
    if len(candidates) == 1:
        return candidates[0], ""
    if not candidates:
        return (
            None,
            f"unknown action {text.strip()!r}: no legal action starts with it (help lists them)",
        )
    listed = ", ".join(f"{i + 1}) {names[i]}" for i in candidates)
    return None, f"{text.strip()!r} is ambiguous: {len(candidates)} actions start with it: {listed}"


def format_menu(names: Sequence[str], width: int | None = None) -> str:
    """The numbered legal actions, in columns when they do not fit one per line nicely."""
    entries = [f"{i + 1:>{len(str(len(names)))}}) {name}" for i, name in enumerate(names)]
    if len(entries) <= 12:
        return "\n".join("  " + entry for entry in entries)
    width = width or shutil.get_terminal_size((80, 24)).columns
    cell = max(len(entry) for entry in entries) + 3
    columns = max(1, (width - 2) // cell)
    rows = -(-len(entries) // columns)
    lines = []
    for r in range(rows):
        row = [entries[c * rows + r] for c in range(columns) if c * rows + r < len(entries)]
        lines.append("  " + "".join(entry.ljust(cell) for entry in row).rstrip())
    return "\n".join(lines)


# ==========================================================================================
# Setting up the game
# ==========================================================================================
def load_opponent(spec: str, env_name: str, game: Any, seats: int) -> list[Any]:
    """One player per opponent seat from ``spec``: a fresh bot each, or one shared model."""
    if spec in bot_names(env_name):
        return [get_bot(env_name, spec) for _ in range(seats)]
    return [load_player(spec, env_name, game, "--opponent")] * seats


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m envs.play",
        description=__doc__.split("\n")[0],
        epilog="At the prompt: a number, a name or its prefix, help, board, "
        "quit. See the module docstring for more.",
    )
    parser.add_argument("env", help=f"registered env name: {', '.join(env_names())}")
    parser.add_argument(
        "--opponent",
        default="heuristic",
        help="bot name (random, heuristic), a saved model .zip, search:MODEL.zip or "
        "lookahead:MODEL.zip; plays "
        "every other seat (default: heuristic)",
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    parser.add_argument(
        "--seed", type=int, default=None, help="game seed (default: drawn and printed)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="game or env option, repeatable (e.g. mission=tunnel, max_rounds=20)",
    )
    parser.add_argument(
        "--window", action="store_true", help="also draw the board in a pygame window"
    )
    return parser


def make_env(env_name: str, options: dict[str, Any], window: bool) -> Any:
    if env_name not in ENVS:
        raise UsageError(f"unknown env {env_name!r}; registered: {', '.join(env_names())}")
    if isinstance(options.get("board_size"), list):
        options["board_size"] = tuple(options["board_size"])
    if "render_mode" in options:
        raise UsageError("--option render_mode: not for play; use --window for a window")
    try:
        return make(env_name, render_mode="human" if window else None, **options)
    except (GameError, ValueError, TypeError) as error:
        raise UsageError(f"bad --option for {env_name}: {error}") from None


# ==========================================================================================
# The game loop
# ==========================================================================================
def _say(text: str = "") -> None:
    print(text, flush=True)


def _show_events(env: Any) -> None:
    for event in env.last_events:
        dice = (
            ""
            if not event.dice or all(d in event.text for d in event.dice)
            else f"  [dice: {' '.join(event.dice)}]"
        )
        _say(f"  * {event.text}{dice}")


def _show_board(env: Any) -> None:
    _say(env.game.render_text(env.game_state))


def _ask(prompt: str) -> str | None:
    """A line from standard input, or None at end of input."""
    try:
        line = input(prompt)
    except EOFError:
        return None
    if not sys.stdin.isatty():
        print(line, flush=True)  # piped or scripted input: make the transcript read like a session
    return line


def human_turn(env: Any, agent: str) -> int | None:
    """The action the person chooses, or None when they quit."""
    game, state = env.game, env.game_state
    actions = [int(a) for a in np.flatnonzero(env.legal_mask())]
    names = [game.action_to_string(state, a) for a in actions]
    _say(f"{agent} (you) to move; legal actions:")
    _say(format_menu(names))
    while True:
        line = _ask(f"{agent}> ")
        if line is None:
            _say("end of input: leaving the game")
            return None
        word = _normal(line)
        if not word:
            _say("type a number, an action name (or its start), help, board or quit")
        elif word in QUIT_WORDS:
            _say("quit: leaving the game")
            return None
        elif word in HELP_WORDS:
            _say(format_menu(names))
        elif word in BOARD_WORDS:
            _show_board(env)
        else:
            index, message = match_action(line, names)
            if index is not None:
                return actions[index]
            _say(message)


def _result_line(env: Any, seat: int) -> str:
    returns = env.game.returns(env.game_state)
    mine = float(returns[seat])
    verdict = "you win" if mine > 0 else "you lose" if mine < 0 else "no winner (draw)"
    scores = ", ".join(f"player_{i} {float(r):+g}" for i, r in enumerate(returns))
    return f"game over: {verdict} ({scores})"


def play(args: argparse.Namespace) -> int:
    options = parse_options(args.option)
    env = make_env(args.env, options, args.window)
    game = env.game
    if not 0 <= args.seat < game.num_players:
        raise UsageError(
            f"--seat {args.seat}: {args.env} with these options has seats "
            f"0..{game.num_players - 1} ({game.num_players} players)"
        )
    others = [s for s in range(game.num_players) if s != args.seat]
    opponents = dict(zip(others, load_opponent(args.opponent, args.env, game, len(others))))
    seed = (
        args.seed if args.seed is not None else int(np.random.SeedSequence().generate_state(1)[0])
    )
    rng = np.random.default_rng([seed, 0xB075])  # the bots' own randomness, apart from the dice
    env.reset(seed=seed)
    me = env.possible_agents[args.seat]
    _say(
        f"{args.env} {options or ''}".rstrip() + f", seed {seed}: you are {me}, "
        f"{', '.join(f'player_{s}' for s in others)}: {args.opponent}"
    )
    _say("at the prompt: a number, a name or its start, help, board, quit")
    if args.window:
        env.render()
    _show_board(env)
    try:
        while not game.is_terminal(env.game_state):
            agent = env.agent_selection
            if env.truncations[agent]:
                _say(
                    f"game stopped: max_turns reached after {game.turn_number(env.game_state)} turns"
                )
                return 0
            seat = game.current_player(env.game_state)
            if seat == args.seat:
                action = human_turn(env, agent)
                if action is None:
                    return 0
                who = f"{agent} (you)"
            else:
                bot = opponents[seat]
                action = int(bot.act(game, env.game_state, rng))
                who = f"{agent} ({bot.name})"
            _say(f"\n{who}: {game.action_to_string(env.game_state, action)}")
            env.step(action)
            _show_events(env)
            _show_board(env)
        _say(_result_line(env, args.seat))
        return 0
    finally:
        env.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help (0) or an argparse error (2): a status, not an exception
        return int(exit_.code or 0)
    try:
        return play(args)
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
