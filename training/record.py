"""Film games between agents as MP4 and GIF, with a step-by-step log.

Command line::

    python -m training.record --env heroica_v0 --agents heuristic random
    python -m training.record --env heroscape_v0 --agents random random random random \\
        --option scenario=highlands_melee --option round_cap=2 --episodes 2 --seed 5
    python -m training.record --env heroica_v0 --agents ppo=runs/x/final_model.zip heuristic \\
        --height 720 --fps 2 --max-seconds 60 --out outputs/episodes --format mp4 gif

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

Memory: an episode keeps each decision's scene (under 10 KB), not its pixels (a 720p
frame is about 3 MB); ``episode.frames`` renders a frame when it is read, and ``write``
renders each frame once and streams it to every video file (``envs.core.video``), so a
recording needs a frame or two of pixels at any length.

Length: ``--fps`` (default 2) sets decisions per second, ``--max-seconds`` (default 60; 0 =
no cap) caps a video's length. A game with more frames than fit is sampled evenly: the
start and the result are always shown, the frames between are spread over the whole game
(every k-th decision, k varying by at most one), and the captions' decision numbers show
the gaps; the text log always has every decision.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import re
import sys
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from training.config import parse_env_options

HOLD_SECONDS = 2.0
MAX_SECONDS = 60.0  # the command line's default cap on a video's length
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


class Frames(SequenceABC):
    """An episode's frames, drawn when read: the scenes are kept, not their pixels.

    ``frames[i]`` renders frame ``i`` (``H x W x 3`` uint8); iterating renders one frame
    after another, so a loop over a long episode holds one frame at a time. Every frame has
    the episode's widest size: narrower boards (the next Epic Heroica mission) are centred
    on the background.
    """

    def __init__(self) -> None:
        self._scenes: list[tuple[Any, int, int]] = []  # (scene, cell_px, target height)
        self._widths: dict[tuple[int, int], int] = {}  # (board id, cell_px) -> frame width
        self.width = 0

    def add(self, scene: Any, cell_px: int, height: int) -> None:
        """Keep ``scene`` as the next frame, drawn ``height`` pixels high at ``cell_px``."""
        # A snapshot: a game may reuse objects from state to state, and the frame must show
        # this moment. The board is static and large, so it is shared, not copied.
        scene = copy.deepcopy(scene, {id(scene.board): scene.board})
        key = (id(scene.board), cell_px)
        if key not in self._widths:  # size never depends on the caption: one render tells it
            self._widths[key] = self._render(scene, cell_px, height).shape[1]
            self.width = max(self.width, self._widths[key])
        self._scenes.append((scene, cell_px, height))

    @staticmethod
    def _render(scene: Any, cell_px: int, height: int) -> np.ndarray:
        from envs.core import render

        return render.render_frame(scene, cell_px=cell_px, target_height=height)

    def scene(self, index: int) -> Any:
        """The scene frame ``index`` draws."""
        return self._scenes[index][0]

    def __len__(self) -> int:
        return len(self._scenes)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        scene, cell_px, height = self._scenes[index]
        return _pad_to_width(self._render(scene, cell_px, height), self.width)

    def __iter__(self) -> Iterator[np.ndarray]:
        for index in range(len(self)):
            yield self[index]


def _pad_to_width(frame: np.ndarray, width: int) -> np.ndarray:
    """``frame`` centred on a background ``width`` pixels wide."""
    from envs.core.render import BACKGROUND

    extra = width - frame.shape[1]
    if extra <= 0:
        return frame
    padded = np.empty((frame.shape[0], width, 3), np.uint8)
    padded[:] = BACKGROUND
    padded[:, extra // 2: extra // 2 + frame.shape[1]] = frame
    return padded


def hold_frames(fps: float) -> int:
    """Extra copies of the last frame written so that the result stays on screen."""
    return max(1, round(HOLD_SECONDS * fps))


def frames_within(fps: float, max_seconds: float) -> int:
    """How many distinct frames a video of at most ``max_seconds`` shows besides the hold;
    ValueError when that is not even the start and the end."""
    room = int(max_seconds * fps) - hold_frames(fps)
    if room < 2:
        raise ValueError(f"max_seconds={max_seconds:g} at fps={fps:g} leaves no room for the "
                         f"start, the end and the {HOLD_SECONDS:g}-second hold of the result")
    return room


def sample_evenly(count: int, keep: int) -> list[int]:
    """``keep`` of the indices ``0 .. count-1`` spread evenly, the first and the last among
    them (all of them when ``keep >= count``)."""
    if keep >= count:
        return list(range(count))
    if keep <= 1:
        return [count - 1]
    return [round(i * (count - 1) / (keep - 1)) for i in range(keep)]


@dataclass
class Episode:
    """A filmed game: ``frames[0]`` is the start, ``frames[i]`` follows ``steps[i - 1]``."""

    env_name: str
    seed: int
    agent_names: list[str]
    frames: Frames = field(default_factory=Frames)
    steps: list[StepRecord] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    finished: bool = False
    result: str = ""

    def hold_frames(self, fps: float) -> int:
        """Extra copies of the last frame written so that the result stays on screen."""
        return hold_frames(fps)

    def frame_indices(self, fps: float = 2.0, max_seconds: float | None = None) -> list[int]:
        """The frames a video shows, in order, before the held last one's copies: all of
        them, or, when ``max_seconds`` is shorter than the game at ``fps``, as many as fit
        (hold included), sampled evenly with the first and the last kept."""
        count = len(self.frames)
        return sample_evenly(count, frames_within(fps, max_seconds) if max_seconds else count)

    def video_frames(self, fps: float = 2.0, max_seconds: float | None = None) -> Iterator[np.ndarray]:
        """The frames of a video, rendered one at a time: :meth:`frame_indices`, then the
        hold (copies of the last frame)."""
        frame = None
        for index in self.frame_indices(fps, max_seconds):
            frame = self.frames[index]
            yield frame
        for _ in range(self.hold_frames(fps)):
            yield frame

    def write(self, path: str | Path, fps: float = 2.0,
              formats: Sequence[str] = ("mp4", "gif"), max_seconds: float | None = None) -> list[Path]:
        """Write one video per format to ``path`` with that suffix (a given suffix is replaced),
        all from one pass that renders each frame once. ``max_seconds`` caps the length by
        sampling frames evenly (:meth:`frame_indices`); None or 0 = every frame."""
        from envs.core.video import write_videos

        base = Path(path)
        if base.suffix.lower() in (".mp4", ".gif"):
            base = base.with_suffix("")
        paths = [base.parent / f"{base.name}.{fmt.lower().lstrip('.')}" for fmt in formats]
        indices = self.frame_indices(fps, max_seconds)
        return write_videos((self.frames[i] for i in indices), paths, fps=fps,
                            repeat_last=self.hold_frames(fps))

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


def record_episode(env_name: str, agents: Sequence[Any], seed: int = 0,
                   options: dict | None = None, height: int = 720, max_steps: int = 2000) -> Episode:
    """Play one game of ``env_name`` between ``agents`` (one per seat) and film it.

    ``agents`` are spec strings (``load_agent``) or bots. ``options`` go to ``envs.make``.
    Frames are ``height`` pixels high; ``max_steps`` caps the decisions of an endless game.
    The frames are drawn when read or written (see :class:`Frames`).
    """
    from envs import make
    from envs.core.render import fit_cell_px

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
        episode.frames.add(scene, cell_px[key], height)

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
    parser.add_argument("--fps", type=float, default=2.0, help="frames (decisions) per second")
    parser.add_argument("--max-seconds", type=float, default=MAX_SECONDS,
                        help="cap on a video's length; a longer game is sampled evenly, keeping "
                             "the start and the result (0 = no cap)")
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
        if args.episodes < 1 or args.fps <= 0 or args.max_seconds < 0:
            raise ValueError("--episodes must be at least 1, --fps positive and --max-seconds "
                             "at least 0")
        if args.max_seconds:  # refused before a game is played, not after
            frames_within(args.fps, args.max_seconds)
        options = parse_env_options(args.option)
        for i in range(args.episodes):
            seed = args.seed + i
            episode = record_episode(args.env, args.agents, seed=seed, options=options,
                                     height=args.height, max_steps=args.max_steps)
            stem = f"{args.env}_{'_vs_'.join(_slug(n) for n in episode.agent_names)}_seed{seed}"
            shown = len(episode.frame_indices(args.fps, args.max_seconds))
            for path in episode.write(Path(args.out) / stem, fps=args.fps, formats=args.format,
                                      max_seconds=args.max_seconds):
                print(path)
            sampled = (f"; {shown} of {len(episode.frames)} frames shown (--max-seconds "
                       f"{args.max_seconds:g})" if shown < len(episode.frames) else "")
            print(f"seed {seed}: {episode.result}; {len(episode.steps)} decisions; "
                  f"returns {episode.returns}{sampled}")
    except (ValueError, KeyError, FileNotFoundError, GameError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
