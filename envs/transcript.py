"""Text transcripts of seeded games, and the golden playthroughs kept under ``tests/golden``.

A transcript lists every step of one game: the step and turn number, the deciding agent, the
action's name and the events it produced (dice included), then the final position and the
returns. Same env, seed, options and bots -> the same text, so a stored transcript is a
regression test for the rules: any change in them shows up as a diff.

>>> from envs.transcript import transcript
>>> print(transcript("heroica_v0", seed=7, options={"mission": "arena"}))   # doctest: +SKIP

Regenerate the golden files after an intended rules change (and read the diff)::

    python -m envs.transcript --write

Other uses::

    python -m envs.transcript                       # print every golden transcript
    python -m envs.transcript --check               # exit 1 if a golden file is stale
    python -m envs.transcript --env heroica_v0 --seed 3 --options '{"mission": "tunnel"}'

Without ``bots`` the game is played with uniformly random legal actions drawn from
``numpy.random.default_rng(seed)`` (separate from the dice, which ``reset(seed)`` seeds), so the
golden files do not depend on any bot's code.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
REGENERATE = "python -m envs.transcript --write"


@dataclass(frozen=True)
class Golden:
    env_name: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.env_name}_seed{self.seed}.txt"

    def transcript(self) -> str:
        return transcript(self.env_name, self.seed, self.options)


# The stored playthroughs: short games (a small mission, a round cap) so the files stay readable.
GOLDENS: list[Golden] = [
    Golden("heroica_v0", 7, {"mission": "arena", "num_players": 2, "max_rounds": 40}),
    Golden("heroscape_v0", 3, {"scenario": "skirmish", "round_cap": 12}),
    Golden("heroclix_v0", 5, {"scenario": "duel", "max_rounds": 12}),
]


def _policy_for(bots: Any, seat: int):
    if bots is None:
        return None
    if hasattr(bots, "act"):
        return bots
    return bots[seat]


def transcript(
    env_name: str,
    seed: int,
    options: dict[str, Any] | None = None,
    bots: Any | Sequence[Any] | None = None,
    max_steps: int = 100_000,
) -> str:
    """The transcript of one game of ``env_name`` with ``options``, dice seeded with ``seed``.

    ``bots``: None (random legal play from ``numpy.random.default_rng(seed)``), one bot for
    every seat, or one per seat; a bot has ``act(game, state, rng) -> int`` (``envs.bots.Bot``).
    """
    from envs import make

    options = dict(options or {})
    env = make(env_name, **options)
    env.reset(seed=seed)
    game = env.game
    rng = np.random.default_rng(seed)
    names = list(getattr(game, "player_names", env.possible_agents))
    play = (
        "uniformly random legal actions from numpy.random.default_rng(seed)"
        if bots is None
        else "bots "
        + ", ".join(
            getattr(_policy_for(bots, s), "name", type(_policy_for(bots, s)).__name__)
            for s in range(len(env.possible_agents))
        )
    )
    lines = [
        f"# {env_name} seed {seed} options {json.dumps(options, sort_keys=True)}",
        f"# play: {play}",
        f"# regenerate: {REGENERATE}",
        "# players: " + ", ".join(f"{a} = {n}" for a, n in zip(env.possible_agents, names)),
        "",
    ]
    step = 0
    while not game.is_terminal(env.game_state):
        if step >= max_steps:
            lines.append(f"# stopped after {max_steps} steps")
            break
        state = env.game_state
        seat = game.current_player(state)
        agent = env.agent_selection
        policy = _policy_for(bots, seat)
        if policy is None:
            legal = np.flatnonzero(env.legal_mask())
            action = int(legal[rng.integers(legal.size)])
        else:
            action = int(policy.act(game, state, rng))
        name = game.action_to_string(state, action)
        turn = game.turn_number(state)
        env.step(action)
        lines.append(f"{step:4d} t{turn:<3d} {agent} ({names[seat]}): {name}")
        for event in env.last_events:
            text = event.text
            if event.dice and not all(d in text for d in event.dice):
                text += f"  [dice: {' '.join(event.dice)}]"
            lines.append(f"           {text}")
        step += 1
    lines += ["", "# final position:"]
    lines += [f"#   {row}" if row else "#" for row in game.render_text(env.game_state).splitlines()]
    returns = game.returns(env.game_state)
    lines.append(
        "# returns: " + ", ".join(f"{a} {r:+.3f}" for a, r in zip(env.possible_agents, returns))
    )
    lines.append(f"# steps: {step}, turns: {game.turn_number(env.game_state)}")
    return "\n".join(lines) + "\n"


def diff(expected: str, actual: str, name: str) -> str:
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"{name} (stored)",
            tofile=f"{name} (now)",
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m envs.transcript", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--write", action="store_true", help="regenerate the golden files in tests/golden"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if a golden file differs")
    parser.add_argument("--env", help="print the transcript of this env instead of the goldens")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--options", default="{}", help="env options as JSON")
    args = parser.parse_args(argv)
    if args.env:
        sys.stdout.write(transcript(args.env, args.seed, json.loads(args.options)))
        return 0
    status = 0
    for golden in GOLDENS:
        text = golden.transcript()
        if args.write:
            golden.path.parent.mkdir(parents=True, exist_ok=True)
            old = golden.path.read_text() if golden.path.exists() else ""
            golden.path.write_text(text)
            changed = "unchanged" if old == text else "written"
            print(f"{golden.path}: {changed} ({text.count(chr(10))} lines)")
        elif args.check:
            old = golden.path.read_text() if golden.path.exists() else ""
            if old != text:
                sys.stdout.write(diff(old, text, golden.path.name) or f"{golden.path}: missing\n")
                status = 1
        else:
            sys.stdout.write(text)
    if args.check and status:
        print(f"golden transcripts are stale; if the change is intended run: {REGENERATE}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
