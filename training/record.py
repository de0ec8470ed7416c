"""Film games between agents as MP4 and GIF, with a step-by-step log.

Command line::

    python -m training.record --env heroica_v0 --agents heuristic random
    python -m training.record --env heroscape_v0 --agents random random random random \\
        --option scenario=highlands_melee --option round_cap=2 --episodes 2 --seed 5
    python -m training.record --env heroica_v0 --agents ppo=runs/x/final_model.zip heuristic \\
        --height 720 --fps 2 --out outputs/episodes --format mp4 gif

``--agents`` lists one agent per seat: a bot name (``random``, ``heuristic``), a saved model
(``.zip``) or ``name=target`` (see ``training.agents.load_agent``). ``--option key=value`` is
a game or env option, its value read as YAML (``max_rounds=3``, ``mission=[fork, tunnel]``).
Episode ``i`` uses seed ``seed + i`` and is written to
``<out>/<env>_<agent0>_vs_<agent1>_seed<k>.mp4`` (and ``.gif``); the paths and each result
are printed. Bad input (unknown env, agent or option) is reported on stderr with exit code 2.

From Python (a notebook)::

    episode = record_episode("heroica_v0", ["heuristic", "random"], seed=3)
    print(episode.text_log())
    episode.write("outputs/episodes/demo")   # demo.mp4 and demo.gif

Every frame comes from the shared renderer (``envs.core.render``): the game's scene after
each decision, with a caption naming the decision, the seat, its agent and the action,
followed by the game's own caption (round, phase, last event). Frame 0 is the starting
position, frame ``i`` follows decision ``i``; the last one shows the result and is held
for about two seconds in the videos.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from training.config import parse_env_options

HOLD_SECONDS = 2.0
# Bots draw from their own streams, never the dice's, so a seed replays the same game.
BOT_STREAM = 0xB075


@dataclass(frozen=True)
class StepRecord:
    """One decision: who made it, what it was, and what it led to."""

    index: int  # 1-based; frame ``index`` of the episode shows the position after it
    seat: int
    agent: str
    action: int
    action_name: str
    dice: tuple[str, ...] = ()
    events: tuple[str, ...] = ()

    def line(self) -> str:
        dice = f" | dice: {' '.join(self.dice)}" if self.dice else ""
        events = f" | {'; '.join(self.events)}" if self.events else ""
        return f"{self.index:4d} player_{self.seat} ({self.agent}): {self.action_name}{dice}{events}"


@dataclass
class Episode:
    """A filmed game: ``frames[0]`` is the start, ``frames[i]`` follows ``steps[i - 1]``."""

    env_name: str
    seed: int
    agent_names: list[str]
    frames: list[np.ndarray] = field(default_factory=list)
    steps: list[StepRecord] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    finished: bool = False
    result: str = ""

    def hold_frames(self, fps: float) -> int:
        """Extra copies of the last frame written so that the result stays on screen."""
        return max(1, round(HOLD_SECONDS * fps))

    def video_frames(self, fps: float = 2.0) -> list[np.ndarray]:
        return self.frames + [self.frames[-1]] * self.hold_frames(fps)

    def write(self, path: str | Path, fps: float = 2.0,
              formats: Sequence[str] = ("mp4", "gif")) -> list[Path]:
        """Write one video per format to ``path`` with that suffix (a given suffix is replaced)."""
        from envs.core.video import write_video

        base = Path(path)
        if base.suffix.lower() in (".mp4", ".gif"):
            base = base.with_suffix("")
        frames = self.video_frames(fps)
        return [write_video(frames, base.parent / f"{base.name}.{fmt.lower().lstrip('.')}", fps=fps)
                for fmt in formats]

    def text_log(self) -> str:
        """One line per decision: seat, agent, action, dice rolled and what happened."""
        return "\n".join(step.line() for step in self.steps)


def _resolve_agents(agents: Sequence[Any], env_name: str, game: Any) -> list[Any]:
    from training.agents import check_compatible, load_agent

    if len(agents) != game.num_players:
        raise ValueError(f"{env_name} with these options has {game.num_players} players but "
                         f"{len(agents)} agents were given; give one agent per seat")
    resolved = [load_agent(a, env_name) if isinstance(a, str) else a for a in agents]
    for agent in resolved:
        if not callable(getattr(agent, "act", None)):
            raise ValueError(f"agent {agent!r} has no act(game, state, rng) method")
        check_compatible(agent, game)
    return resolved


def _agent_name(agent: Any) -> str:
    return str(getattr(agent, "name", type(agent).__name__))


def _same_width(frames: list[np.ndarray]) -> list[np.ndarray]:
    """Pad narrower frames (another board, e.g. the next Epic Heroica mission) to the widest."""
    from envs.core.render import BACKGROUND

    width = max(f.shape[1] for f in frames)
    out = []
    for frame in frames:
        extra = width - frame.shape[1]
        if extra:
            padded = np.empty((frame.shape[0], width, 3), np.uint8)
            padded[:] = BACKGROUND
            padded[:, extra // 2: extra // 2 + frame.shape[1]] = frame
            frame = padded
        out.append(frame)
    return out


def record_episode(env_name: str, agents: Sequence[Any], seed: int = 0,
                   options: dict | None = None, height: int = 720, max_steps: int = 2000) -> Episode:
    """Play one game of ``env_name`` between ``agents`` (one per seat) and film it.

    ``agents`` are spec strings (``load_agent``) or bots. ``options`` go to ``envs.make``.
    Frames are ``height`` pixels high; ``max_steps`` caps the decisions of an endless game.
    """
    from envs import make
    from envs.core.render import fit_cell_px, render_frame

    if isinstance(height, bool) or not isinstance(height, int) or height < 64 or height % 2:
        raise ValueError(f"height must be an even integer of at least 64, got {height!r}")
    env = make(env_name, **{**(options or {}), "render_mode": "rgb_array"})
    env.reset(seed=seed)
    game = env.game
    bots = _resolve_agents(agents, env_name, game)
    names = [_agent_name(b) for b in bots]
    # one stream shared by the seats, as in envs.bots.play_game: a seed from a tournament or an
    # evaluation replays the same game here
    rng = np.random.default_rng([seed, BOT_STREAM])
    episode = Episode(env_name, seed, names)
    cell_px: dict[int, int] = {}  # per board: Epic missions change boards mid-game

    def film(prefix: str) -> None:
        scene = game.scene(env.game_state, env.last_events)
        key = id(scene.board)
        if key not in cell_px:
            cell_px[key] = fit_cell_px(scene.board, height)
        scene = dataclasses.replace(scene, caption=f"{prefix} | {scene.caption}")
        episode.frames.append(render_frame(scene, cell_px=cell_px[key], target_height=height))

    film(f"start | {' vs '.join(names)}")
    for index in range(1, max_steps + 1):
        agent = env.agent_selection
        if game.is_terminal(env.game_state) or env.truncations[agent]:
            break
        seat = env.possible_agents.index(agent)
        action = int(bots[seat].act(game, env.game_state, rng))
        action_name = game.action_to_string(env.game_state, action)
        env.step(action)
        events = list(env.last_events)
        episode.steps.append(StepRecord(index, seat, names[seat], action, action_name,
                                        tuple(d for e in events for d in e.dice),
                                        tuple(e.text for e in events)))
        film(f"decision {index} | {agent} ({names[seat]}): {action_name}")
    episode.frames = _same_width(episode.frames)
    episode.finished = bool(game.is_terminal(env.game_state))
    if episode.finished:
        episode.returns = [float(r) for r in game.returns(env.game_state)]
        winners = [f"player_{s} ({names[s]})" for s, r in enumerate(episode.returns) if r > 0]
        episode.result = ("won by " + ", ".join(winners)) if winners else "draw"
    else:
        episode.returns = [0.0] * len(bots)
        episode.result = f"unfinished after {len(episode.steps)} decisions"
    env.close()
    return episode


# -- command line ---------------------------------------------------------------------------
def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "agent"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training.record",
                                     description="Film games between agents as MP4 / GIF.")
    parser.add_argument("--env", required=True, help="registered env, e.g. heroica_v0")
    parser.add_argument("--agents", nargs="+", required=True, help="one agent spec per seat")
    parser.add_argument("--episodes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0, help="episode i uses seed + i")
    parser.add_argument("--height", type=int, default=720, help="frame height in pixels (even)")
    parser.add_argument("--fps", type=float, default=2.0)
    parser.add_argument("--out", default="outputs/episodes", help="output folder")
    parser.add_argument("--format", nargs="+", default=["mp4", "gif"], choices=["mp4", "gif"])
    parser.add_argument("--option", nargs="+", action="extend", default=[], metavar="KEY=VALUE",
                        help="game or env option; the value is read as YAML")
    parser.add_argument("--max-steps", type=int, default=2000, help="decision cap per episode")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from envs.core.game import GameError

    args = build_parser().parse_args(argv)
    try:
        if args.episodes < 1 or args.fps <= 0:
            raise ValueError("--episodes must be at least 1 and --fps positive")
        options = parse_env_options(args.option)
        for i in range(args.episodes):
            seed = args.seed + i
            episode = record_episode(args.env, args.agents, seed=seed, options=options,
                                     height=args.height, max_steps=args.max_steps)
            stem = f"{args.env}_{'_vs_'.join(_slug(n) for n in episode.agent_names)}_seed{seed}"
            for path in episode.write(Path(args.out) / stem, fps=args.fps, formats=args.format):
                print(path)
            print(f"seed {seed}: {episode.result}; {len(episode.steps)} decisions; "
                  f"returns {episode.returns}")
    except (ValueError, KeyError, FileNotFoundError, GameError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
