"""The main job: play one seeded Heroica game, heuristic bot vs random bot, and film it.

``python -m training.main`` plays 2-player ``heroica_v0`` on the default mission through the
PettingZoo API, prints every decision and the result, and writes an MP4 of the game
(``outputs/heroica_heuristic_vs_random.mp4`` by default). The training issue replaces this
with train -> evaluate -> record.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from envs import make
from envs.bots import get_bot
from envs.core.render import write_video


def play(seed: int, out: Path, fps: float, quiet: bool) -> dict:
    env = make("heroica_v0", render_mode="rgb_array")
    env.reset(seed=seed)
    game = env.game
    bots = {"player_0": get_bot("heroica", "heuristic"), "player_1": get_bot("heroica", "random")}
    names = {"player_0": "heuristic", "player_1": "random"}
    rng = np.random.default_rng(seed)
    frames = [env.render()]
    steps = 0
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = bots[agent].act(game, env.state_, rng)
        name = game.action_to_string(env.state_, action)
        env.step(action)
        steps += 1
        frames.append(env.render())
        if not quiet:
            rolled = [d for e in env.last_events for d in e.dice]
            print(f"{steps:4d} {agent} ({names[agent]}): {name}" + (f"  [rolled {', '.join(rolled)}]" if rolled else ""))
    final = game.returns(env.state_)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_video(frames + [frames[-1]] * int(fps * 2), out, fps=fps)
    winner = [names[f"player_{i}"] for i, r in enumerate(final) if r > 0]
    summary = {"seed": seed, "steps": steps, "returns": {names[a]: float(final[i]) for i, a in enumerate(env.possible_agents)},
               "winner": winner[0] if winner else "draw", "video": str(out)}
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.main", description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("outputs/heroica_heuristic_vs_random.mp4"))
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    args = parser.parse_args(argv)
    summary = play(args.seed, args.out, args.fps, args.quiet)
    print(f"result: {summary['winner']} wins after {summary['steps']} decisions "
          f"(returns {summary['returns']}); video: {summary['video']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
