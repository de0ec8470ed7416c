"""Film games between agents as MP4, GIF or an HTML replay, with a step-by-step log.

Command line::

    python -m training.record --env heroica_v0 --agents heuristic random
    python -m training.record --env heroscape_v0 --agents random random random random \\
        --option scenario=highlands_melee --option round_cap=2 --episodes 2 --seed 5
    python -m training.record --env heroica_v0 --agents ppo=runs/x/final_model.zip heuristic \\
        --height 720 --speed 1.5 --max-seconds 60 --out outputs/episodes --format mp4 gif
    python -m training.record --env heroscape_v0 --agents heuristic heuristic heuristic heuristic \\
        --option scenario=highlands_melee --frames turn --html     # + a replay page

``--agents`` lists one agent per seat: a bot name (``random``, ``heuristic``), a saved model
(``.zip``), tree search over one (``search:model.zip``) or ``name=target`` (see
``training.agents.load_agent``). ``--option key=value`` is
a game or env option, its value read as YAML (``max_rounds=3``, ``mission=[fork, tunnel]``).
Episode ``i`` uses seed ``seed + i`` and is written to
``<out>/<env>_<agent0>_vs_<agent1>_seed<k>.mp4`` (and ``.gif``, and ``.html`` with
``--html`` or ``--format html``); the paths and each result are printed. Bad input (unknown
env, agent or option) is reported on stderr with exit code 2.

From Python (a notebook)::

    episode = record_episode("heroica_v0", ["heuristic", "random"], seed=3)
    print(episode.text_log())
    episode.write("outputs/episodes/demo")   # demo.mp4 and demo.gif
    episode.write("outputs/episodes/demo", formats=["html"], frames="turn")   # demo.html

``Episode.write`` takes the command line's options as keywords, with the same defaults:
``speed``, ``max_seconds``, ``frames``, ``skip_forced``, ``gif_optimize`` and ``html_image``,
``html_height``, ``html_quality``.

Every frame comes from the shared renderer (``envs.core.render``): the game's scene after
each decision, captioned in large type with what just happened (``12. player_1 (random):``
and the decision's events in words, or the action's name when it has none) and under it, in
small type, what comes next (``next: round 3 | player_0 ...``) or the result with the
scoreboard. Frame 0 is the starting position, with a title banner over the board (the env,
its options, each seat's agent beside its colour); frame ``i`` follows decision ``i``; the
last one shows the result, with a banner naming the winner and each seat's score.

Memory: an episode keeps each decision's scene (under 10 KB), not its pixels (a 720p
frame is about 3 MB); ``episode.frames`` renders a frame when it is read, and ``write``
renders each frame once and streams it to every video file (``envs.core.video``), so a
recording needs a frame or two of pixels at any length.

How long a frame stays, and which frames a capped video keeps, follow each decision's *beat*
(``training.storyboard``, recorded as ``StepRecord.beat``): a KO, a score change (the game's
``scoreboard``), the start and the result 2 s; a dice roll 1.5 s; a move or other play
0.6 s; a selection, card choice, pass or end of turn 0.3 s. ``--speed`` divides them all.
The videos run at 10 frames a second, a frame repeated for its time.

Which frames a video shows (the text log always has every decision):

* ``--frames decision`` (default): one frame per decision. ``--skip-forced`` (default on;
  ``--no-skip-forced`` keeps them) drops the frames after forced decisions, those with one
  legal action ("end turn", "end move"), which only repeat the picture before; a forced
  decision that rolled dice, felled a figure or changed the score keeps its frame.
* ``--frames turn``: one frame per player turn, the position when the deciding seat changes
  or the game's turn number advances (``game.turn_number``), timed by the strongest beat of
  the turn; ``--skip-forced`` does not apply, as turns often end on a forced decision.

Frame 0 (the start) and the last frame (the result) are always shown. ``--max-seconds``
(default 60; 0 = no cap) caps a video's length: routine frames are dropped first, then
ordinary ones, each evenly over the game; dice rolls, KOs and score changes are never
dropped: when they alone are longer than the cap their times shrink (to 0.6 s for a roll and
1 s for a KO at least) and past that the video runs over the cap. The captions' decision
numbers show the gaps.

GIFs are palette-optimised (``envs.core.video``: per-frame tables of the changed pixels,
unchanged pixels transparent): the highlands game above is about 1.5 MB instead of 6.7 MB;
``--no-gif-optimize`` writes the plain adaptive palette.

The HTML replay (``training.replay_html``) is one self-contained file with every decision's
frame (never capped), embedded as data URIs (``--html-image png``, the default: 256-colour
key frames and patches of what changed; ``webp`` and ``jpeg`` take ``--html-quality``;
``--html-height`` downscales), a step slider with the KOs and score changes marked, play /
pause, prev / next, a speed control and the action log grouped by turn, with dice and
events, the current decision highlighted.
``replay.html#step=5`` opens it at decision 5.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from training.config import parse_env_options
from training.film import Frames
from training.storyboard import Beat, Shot, beat_of, plan

MAX_SECONDS = 60.0  # the default cap on a video's length
FRAME_MODES = ("decision", "turn")
FRAME_RATE = 10  # video frames per second: a shot's time is a whole number of them
FORMATS = ("mp4", "gif", "html")
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
    legal: int = 0  # legal actions the seat chose from (1 = forced)
    turn: int = 0  # the game's turn number when deciding (``game.turn_number``)
    kinds: tuple[str, ...] = ()  # the events' kinds
    scores: tuple[float, ...] = ()  # the game's scoreboard after it (none: empty)
    beat: Beat = Beat.PLAY  # how much its frame shows (training.storyboard)

    @property
    def forced(self) -> bool:
        return self.legal == 1

    def line(self) -> str:
        dice = f" | dice: {' '.join(self.dice)}" if self.dice else ""
        events = f" | {'; '.join(self.events)}" if self.events else ""
        return (
            f"{self.index:4d} player_{self.seat} ({self.agent}): {self.action_name}{dice}{events}"
        )


def check_timing(speed: float, max_seconds: float | None) -> None:
    """ValueError unless ``speed`` is positive and ``max_seconds`` None or at least 0."""
    if isinstance(speed, bool) or not isinstance(speed, (int, float)) or not speed > 0:
        raise ValueError(f"speed must be a positive number, got {speed!r}")
    if max_seconds is not None and not max_seconds >= 0:
        raise ValueError(f"max_seconds must be at least 0 (0 = no cap), got {max_seconds!r}")


def repeats(seconds: float) -> int:
    """Video frames at :data:`FRAME_RATE` that show a shot for ``seconds`` (at least one)."""
    return max(1, round(seconds * FRAME_RATE))


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

    score_label: str = ""  # what the scoreboard counts ("VP"); empty: the game has none
    start_scores: tuple[float, ...] = ()

    def beats(self) -> list[Beat]:
        """Per frame, the beat of the decision it follows (the start is DECISIVE)."""
        return [Beat.DECISIVE] + [step.beat for step in self.steps]

    def candidate_frames(self, frames: str = "decision", skip_forced: bool = True) -> list[int]:
        """The frames worth showing before any length cap, in order: per decision (less
        forced ones with nothing to show: no dice, no fall, no score change, with
        ``skip_forced``) or per turn (the last frame of each seat's turn), always with the
        start and the result."""
        if frames not in FRAME_MODES:
            raise ValueError(f"frames must be one of {', '.join(FRAME_MODES)}, got {frames!r}")
        steps = self.steps
        if frames == "turn":
            picked = [
                s.index
                for s, after in zip(steps, steps[1:])
                if (s.seat, s.turn) != (after.seat, after.turn)
            ]
        else:
            picked = [
                s.index for s in steps if not (skip_forced and s.forced and s.beat < Beat.ROLL)
            ]
        last = len(self.frames) - 1
        return [0] + [i for i in picked if 0 < i < last] + ([last] if last > 0 else [])

    def shots(
        self,
        max_seconds: float | None = MAX_SECONDS,
        frames: str = "decision",
        skip_forced: bool = True,
        speed: float = 1.0,
    ) -> list[Shot]:
        """The frames a video shows and how long each stays, in seconds at ``speed``: the
        :meth:`candidate_frames`, each with the strongest beat of the decisions since the one
        before, planned within ``max_seconds`` (None or 0 = no cap) by
        :func:`training.storyboard.plan`."""
        check_timing(speed, max_seconds)
        candidates = self.candidate_frames(frames, skip_forced)
        beats = self.beats()
        summed = [
            max(beats[previous + 1 : frame + 1], default=beats[frame])
            for previous, frame in zip([-1] + candidates, candidates)
        ]
        cap = max_seconds * speed if max_seconds else None
        shots = plan(candidates, summed, cap, tick=speed / FRAME_RATE)
        return [Shot(s.frame, s.seconds / speed, s.beat) for s in shots]

    def frame_indices(
        self,
        max_seconds: float | None = MAX_SECONDS,
        frames: str = "decision",
        skip_forced: bool = True,
        speed: float = 1.0,
    ) -> list[int]:
        """The frames a video shows, in order (:meth:`shots`)."""
        return [shot.frame for shot in self.shots(max_seconds, frames, skip_forced, speed)]

    def video_frames(
        self,
        max_seconds: float | None = MAX_SECONDS,
        frames: str = "decision",
        skip_forced: bool = True,
        speed: float = 1.0,
    ) -> Iterator[np.ndarray]:
        """The frames of a video at :data:`FRAME_RATE`, rendered one at a time: each shot's
        frame repeated for its time."""
        for shot in self.shots(max_seconds, frames, skip_forced, speed):
            frame = self.frames[shot.frame]
            for _ in range(repeats(shot.seconds)):
                yield frame

    def write(
        self,
        path: str | Path,
        speed: float = 1.0,
        formats: Sequence[str] = ("mp4", "gif"),
        max_seconds: float | None = MAX_SECONDS,
        frames: str = "decision",
        skip_forced: bool = True,
        gif_optimize: bool = True,
        html_image: str = "png",
        html_height: int | None = None,
        html_quality: int = 80,
    ) -> list[Path]:
        """Write one file per format (``mp4``, ``gif``, ``html``) to ``path`` with that suffix
        (a given suffix is replaced), all from one pass that renders each frame once, and
        return their paths. The videos show :meth:`shots` (``max_seconds``, ``frames``,
        ``skip_forced``, ``speed``); the HTML replay is never capped: it has every decision's
        frame, each timed by its beat. ``gif_optimize`` and the ``html_*`` options are those of
        ``envs.core.video`` and ``training.replay_html``."""
        from envs.core.video import write_videos

        names = [fmt.lower().lstrip(".") for fmt in formats]
        unknown = sorted(set(names) - set(FORMATS))
        if unknown or not names:
            raise ValueError(f"formats must be some of {', '.join(FORMATS)}, got {list(formats)}")
        base = Path(path)
        if base.suffix.lower() in tuple(f".{fmt}" for fmt in FORMATS):
            base = base.with_suffix("")
        paths = [base.parent / f"{base.name}.{fmt}" for fmt in names]
        videos = [p for p, fmt in zip(paths, names) if fmt != "html"]
        html = next((p for p, fmt in zip(paths, names) if fmt == "html"), None)
        shown = {
            shot.frame: shot.seconds for shot in self.shots(max_seconds, frames, skip_forced, speed)
        }
        every = range(len(self.frames))
        pictures: list[dict] = []  # the page's: every frame, drawn in the videos' pass
        encoder = None
        if html is not None:
            from training.replay_html import FrameEncoder, replay_page

            encoder = FrameEncoder(html_image, html_height, html_quality)

        def rendered() -> Iterator[np.ndarray]:
            for index in every if encoder is not None else sorted(shown):
                frame = self.frames[index]
                if encoder is not None:
                    pictures.append(encoder.add(frame))
                for _ in range(repeats(shown[index]) if index in shown else 0):
                    yield frame

        if videos:
            write_videos(rendered(), videos, fps=FRAME_RATE, gif_optimize=gif_optimize)
        else:
            for _ in rendered():
                pass
        if html is not None:
            html.parent.mkdir(parents=True, exist_ok=True)
            html.write_text(replay_page(self, pictures, speed), encoding="utf-8")
        return paths

    def text_log(self) -> str:
        """One line per decision: seat, agent, action, dice rolled and what happened."""
        return "\n".join(step.line() for step in self.steps)


def _resolve_agents(agents: Sequence[Any], env_name: str, game: Any) -> list[Any]:
    from training.agents import check_compatible, load_agent

    if len(agents) != game.num_players:
        raise ValueError(
            f"{env_name} with these options has {game.num_players} players but "
            f"{len(agents)} agents were given; give one agent per seat"
        )
    resolved = [load_agent(a, env_name) if isinstance(a, str) else a for a in agents]
    for agent in resolved:
        if not callable(getattr(agent, "act", None)):
            raise ValueError(f"agent {agent!r} has no act(game, state, rng) method")
        check_compatible(agent, game)
    return resolved


def _agent_name(agent: Any) -> str:
    return str(getattr(agent, "name", type(agent).__name__))


def record_episode(
    env_name: str,
    agents: Sequence[Any],
    seed: int = 0,
    options: dict | None = None,
    height: int = 720,
    max_steps: int = 2000,
) -> Episode:
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

    def film(headline: str, banner: list[str] | None = None) -> None:
        """The frame: what just happened in large type, what comes next under it, and on the
        first and last frames a banner with the title or the result."""
        state = env.game_state
        scene = game.scene(state, env.last_events)
        key = id(scene.board)
        if key not in cell_px:
            cell_px[key] = fit_cell_px(scene.board, height)
        if game.is_terminal(state):
            subtitle = "result: " + game.scene(state, []).caption + scores_text(game, state)
        else:
            subtitle = "next: " + game.scene(state, []).caption
        if game.is_terminal(state):
            banner = result_banner(game, state, names)
        scene = dataclasses.replace(scene, caption=headline, subtitle=subtitle, banner=banner or [])
        episode.frames.add(scene, cell_px[key], height)

    board = game.scoreboard(env.game_state)
    if board is not None:
        episode.score_label, episode.start_scores = board.label, board.values
    scores = episode.start_scores
    seats = " vs ".join(f"player_{k} {name}" for k, name in enumerate(names))
    shown_options = ", ".join(f"{k} {v}" for k, v in (options or {}).items())
    title = [env_name + (f" ({shown_options})" if shown_options else "")]
    title += [f"player_{k}: {name}" for k, name in enumerate(names)]
    film(f"{env_name}{f' ({shown_options})' if shown_options else ''}: {seats}", title)
    for index in range(1, max_steps + 1):
        agent = env.agent_selection
        if game.is_terminal(env.game_state) or env.truncations[agent]:
            break
        seat = env.possible_agents.index(agent)
        legal, turn = len(game.legal_actions(env.game_state)), game.turn_number(env.game_state)
        action = int(bots[seat].act(game, env.game_state, rng))
        action_name = game.action_to_string(env.game_state, action)
        env.step(action)
        events = list(env.last_events)
        before, board = scores, game.scoreboard(env.game_state)
        scores = board.values if board is not None else ()
        dice = tuple(d for e in events for d in e.dice)
        kinds = tuple(e.kind for e in events)
        episode.steps.append(
            StepRecord(
                index,
                seat,
                names[seat],
                action,
                action_name,
                dice,
                tuple(e.text for e in events),
                legal,
                turn,
                kinds,
                scores,
                beat_of(kinds, dice, forced=legal == 1, score_changed=scores != before),
            )
        )
        happened = "; ".join(e.text for e in events) or action_name
        film(f"{index}. {agent} ({names[seat]}): {happened}")
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


def result_banner(game: Any, state: Any, names: Sequence[str]) -> list[str]:
    """The last frame's banner: who won (or a draw), then each seat's score."""
    returns = [float(r) for r in game.returns(state)]
    winners = [seat for seat, r in enumerate(returns) if r > 0]
    if winners:
        lines = ["winner: " + ", ".join(f"player_{seat} ({names[seat]})" for seat in winners)]
    else:
        lines = ["draw"]
    board = game.scoreboard(state)
    for seat, name in enumerate(names):
        score = f" ({board.label} {board.values[seat]:g})" if board is not None else ""
        lines.append(f"player_{seat} {name}{score}")
    return lines


def scores_text(game: Any, state: Any) -> str:
    """`` | VP: player_0 105 · player_1 80`` from the game's scoreboard ("" without one)."""
    board = game.scoreboard(state)
    return "" if board is None else f" | {board.text()}"


# -- command line ---------------------------------------------------------------------------
def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "agent"


def build_parser() -> argparse.ArgumentParser:
    from training.replay_html import IMAGE_FORMATS

    parser = argparse.ArgumentParser(
        prog="python -m training.record",
        description="Film games between agents as MP4 / GIF / HTML.",
    )
    parser.add_argument("--env", required=True, help="registered env, e.g. heroica_v0")
    parser.add_argument("--agents", nargs="+", required=True, help="one agent spec per seat")
    parser.add_argument("--episodes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0, help="episode i uses seed + i")
    parser.add_argument("--height", type=int, default=720, help="frame height in pixels (even)")
    parser.add_argument(
        "--frames",
        choices=FRAME_MODES,
        default="decision",
        help="one frame per decision (default) or per player turn",
    )
    parser.add_argument(
        "--skip-forced",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="per decision: drop the frames after forced decisions (one legal "
        "action, no dice); the log keeps them (default: on)",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=1.0,
        help="playback speed: each frame's time (0.3 s for a routine step up to 2 s for "
        "a KO) divided by this (default 1)",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=MAX_SECONDS,
        help="cap on a video's length: routine frames go first, then ordinary ones; dice "
        "rolls, KOs and score changes are always kept (0 = no cap; default %(default)g)",
    )
    parser.add_argument("--out", default="outputs/episodes", help="output folder")
    parser.add_argument("--format", nargs="+", default=["mp4", "gif"], choices=FORMATS)
    parser.add_argument(
        "--html",
        action="store_true",
        help="also write a self-contained HTML replay (same as adding html to --format)",
    )
    parser.add_argument(
        "--gif-optimize",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="GIF: per-frame palettes of the changed pixels, the rest transparent (default: on)",
    )
    parser.add_argument(
        "--html-image",
        choices=IMAGE_FORMATS,
        default="png",
        help="HTML: how frames are embedded (default png, 256 colours)",
    )
    parser.add_argument(
        "--html-height",
        type=int,
        default=None,
        help="HTML: downscale frames to this height (default: --height)",
    )
    parser.add_argument(
        "--html-quality", type=int, default=80, help="HTML: webp / jpeg quality 1-100 (default 80)"
    )
    parser.add_argument(
        "--option",
        nargs="+",
        action="extend",
        default=[],
        metavar="KEY=VALUE",
        help="game or env option; the value is read as YAML",
    )
    parser.add_argument("--max-steps", type=int, default=2000, help="decision cap per episode")
    return parser


def _shown(episode: Episode, args: argparse.Namespace, shots: list[Shot]) -> str:
    """The video's length, and why fewer frames than decisions are shown, for the summary."""
    seconds = sum(repeats(shot.seconds) for shot in shots) / FRAME_RATE
    summary = f"; video {seconds:.0f} s"
    if len(shots) >= len(episode.frames):
        return summary
    reasons = []
    candidates = len(episode.candidate_frames(args.frames, args.skip_forced))
    if args.frames == "turn":
        reasons.append("one per turn")
    elif candidates < len(episode.frames):
        reasons.append("forced decisions skipped")
    if len(shots) < candidates:
        reasons.append(f"--max-seconds {args.max_seconds:g}: routine and ordinary frames first")
    return summary + f", {len(shots)} of {len(episode.frames)} frames ({', '.join(reasons)})"


def main(argv: Sequence[str] | None = None) -> int:
    from envs.core.game import GameError

    args = build_parser().parse_args(argv)
    formats = list(dict.fromkeys(args.format + (["html"] if args.html else [])))
    try:
        if args.episodes < 1:
            raise ValueError("--episodes must be at least 1")
        check_timing(args.speed, args.max_seconds)  # refused before a game is played
        if "html" in formats:
            from training.replay_html import check_image_options

            check_image_options(args.html_image, args.html_height, args.html_quality)
        options = parse_env_options(args.option)
        for i in range(args.episodes):
            seed = args.seed + i
            episode = record_episode(
                args.env,
                args.agents,
                seed=seed,
                options=options,
                height=args.height,
                max_steps=args.max_steps,
            )
            stem = f"{args.env}_{'_vs_'.join(_slug(n) for n in episode.agent_names)}_seed{seed}"
            shots = episode.shots(args.max_seconds, args.frames, args.skip_forced, args.speed)
            for path in episode.write(
                Path(args.out) / stem,
                speed=args.speed,
                formats=formats,
                max_seconds=args.max_seconds,
                frames=args.frames,
                skip_forced=args.skip_forced,
                gif_optimize=args.gif_optimize,
                html_image=args.html_image,
                html_height=args.html_height,
                html_quality=args.html_quality,
            ):
                print(path)
            print(
                f"seed {seed}: {episode.result}; {len(episode.steps)} decisions; "
                f"returns {episode.returns}{_shown(episode, args, shots)}"
            )
    except (ValueError, KeyError, FileNotFoundError, GameError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
