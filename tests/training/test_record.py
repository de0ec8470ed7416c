"""training.record: filmed episodes decode with every frame, each on screen for its beat's
time, steps and captions tell the game, frames drawn late show the moment they were filmed,
forced decisions are skipped and turns filmed once, a length cap keeps every roll, KO and
score change and a 4-player game under a minute, GIF palettes shrink the file, bad agents /
envs / options fail clearly, and the command line writes the named files."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import envs.core.render as render
from envs import make
from envs.core.render import fit_cell_px
from training.record import FRAME_RATE, MAX_SECONDS, main, record_episode, repeats
from training.storyboard import SECONDS, Beat

SHORT = {"heroica_v0": {"max_rounds": 3}, "heroscape_v0": {"round_cap": 2}}


def _mp4_frames(path: Path) -> tuple[int, tuple[int, ...]]:
    import imageio.v2 as imageio

    with imageio.get_reader(path, format="FFMPEG") as reader:
        return reader.count_frames(), reader.get_data(0).shape


def _gif_durations(path: Path) -> tuple[list[int], tuple[int, int]]:
    from PIL import Image, ImageSequence

    with Image.open(path) as gif:
        return [frame.info["duration"] for frame in ImageSequence.Iterator(gif)], gif.size


@pytest.mark.parametrize(
    "env_name, height",
    [pytest.param("heroica_v0", 720, marks=pytest.mark.slow), ("heroscape_v0", 360)],
)
def test_videos_hold_one_frame_per_decision_plus_the_result(tmp_path, env_name, height):
    episode = record_episode(
        env_name, ["heuristic", "random"], seed=0, options=SHORT[env_name], height=height
    )
    assert episode.finished and len(episode.steps) > 5
    shapes = {frame.shape for frame in episode.frames}
    assert len(shapes) == 1 and all(f.dtype == np.uint8 for f in episode.frames)
    ((h, w, c),) = shapes
    assert (h, c) == (height, 3) and w % 2 == 0
    assert len(episode.frames) == len(episode.steps) + 1

    mp4, gif = episode.write(tmp_path / "episode", skip_forced=False, max_seconds=0)
    assert (mp4.name, gif.name) == ("episode.mp4", "episode.gif")
    # every frame, each for its beat's time: the start and the result 2 s, a roll 1.5 s ...
    beats = [Beat.DECISIVE] + [step.beat for step in episode.steps[:-1]] + [Beat.DECISIVE]
    ticks = [round(SECONDS[beat] * FRAME_RATE) for beat in beats]
    count, shape = _mp4_frames(mp4)
    assert count == sum(ticks) and shape == (h, w, 3)
    # the GIF shows each frame once, for its time (the captions differ from frame to frame)
    durations, size = _gif_durations(gif)
    assert size == (w, h)
    assert durations == [tick * 1000 // FRAME_RATE for tick in ticks]
    assert {Beat.ROLL, Beat.PLAY, Beat.ROUTINE} <= set(beats)


RULE_ID = re.compile(r"\b(?:HC|HS|HE|P|R|TA)-[A-Z]*-?\d")


def test_captions_say_what_just_happened_and_what_comes_next(monkeypatch):
    scenes = []
    original = render.render_frame

    def spy(scene, **kwargs):
        scenes.append(scene)
        return original(scene, **kwargs)

    monkeypatch.setattr(render, "render_frame", spy)
    episode = record_episode(
        "heroica_v0", ["heuristic", "random"], seed=1, options={"max_rounds": 2}, height=240
    )
    scenes.clear()  # filming draws a board's first frame once, to learn its size
    for _ in episode.frames:
        pass
    assert len(scenes) == len(episode.frames)
    title = scenes[0].caption
    assert title.startswith("heroica_v0 (max_rounds 2): player_0 heuristic vs player_1 random")
    assert scenes[0].subtitle.startswith("next: round 1")
    for step, scene in zip(episode.steps, scenes[1:]):
        # the large line: who did what, in the events' words (the action's when it has none)
        happened = "; ".join(step.events) or step.action_name
        assert scene.caption == f"{step.index}. player_{step.seat} ({step.agent}): {happened}"
        assert not RULE_ID.search(scene.caption), scene.caption
    assert all(s.subtitle.startswith("next: ") for s in scenes[1:-1])
    assert scenes[-1].subtitle.startswith("result: game over")
    assert "kills: player_0" in scenes[-1].subtitle  # with the scoreboard
    # a title over the first frame (each seat's agent, beside its colour), the result over
    # the last, and nothing over the others
    assert scenes[0].banner == [
        "heroica_v0 (max_rounds 2)",
        "player_0: heuristic",
        "player_1: random",
    ]
    winners = [
        f"player_{s} ({episode.agent_names[s]})" for s, r in enumerate(episode.returns) if r > 0
    ]
    assert scenes[-1].banner[0] == ("winner: " + ", ".join(winners) if winners else "draw")
    kills = episode.steps[-1].scores
    assert scenes[-1].banner[1:] == [
        f"player_{s} {name} (kills {kills[s]:g})" for s, name in enumerate(episode.agent_names)
    ]
    assert not any(scene.banner for scene in scenes[1:-1])


@pytest.mark.parametrize("env_name", ["heroica_v0", "heroscape_v0"])
def test_steps_replay_the_game_with_round_trip_names_and_dice(env_name):
    episode = record_episode(
        env_name, ["random", "heuristic"], seed=4, options=SHORT[env_name], height=120
    )
    assert episode.agent_names == ["random", "heuristic"]
    env = make(env_name, **SHORT[env_name])
    env.reset(seed=4)
    game = env.game
    for step in episode.steps:
        assert step.agent == episode.agent_names[step.seat]
        assert env.agent_selection == f"player_{step.seat}"
        assert step.legal == len(game.legal_actions(env.game_state)) >= 1
        assert step.turn == game.turn_number(env.game_state)
        assert game.action_to_string(env.game_state, step.action) == step.action_name
        assert game.string_to_action(env.game_state, step.action_name) == step.action
        env.step(step.action)
        assert step.dice == tuple(d for e in env.last_events for d in e.dice)
        assert step.events == tuple(e.text for e in env.last_events)
    assert game.is_terminal(env.game_state)
    assert episode.returns == [float(r) for r in game.returns(env.game_state)]
    assert any(step.dice for step in episode.steps)


@pytest.mark.parametrize(
    "env_name, options",
    [
        ("heroica_v0", {"max_rounds": 2}),
        ("heroscape_v0", {"round_cap": 1}),
        ("heroclix_v0", {"max_turns": 6}),
    ],
)
def test_frames_drawn_late_show_the_position_when_it_was_filmed(monkeypatch, env_name, options):
    """Frames are drawn from kept scenes after the game: each must still be the picture of its
    own moment, although the game went on (and may reuse objects) since."""
    now: list[np.ndarray] = []
    original = render.render_frame

    def draw_now(scene, **kwargs):
        frame = original(scene, **kwargs)
        now.append(frame)
        return frame

    import training.record as record

    add = record.Frames.add

    def add_and_draw(self, scene, cell_px, height):
        add(self, scene, cell_px, height)
        draw_now(scene, cell_px=cell_px, target_height=height)

    monkeypatch.setattr(record.Frames, "add", add_and_draw)
    episode = record_episode(env_name, ["random"] * 2, seed=3, options=options, height=120)
    drawn = [frame for frame in episode.frames]
    assert len(drawn) == len(now) == len(episode.steps) + 1 > 3
    for k, (late, early) in enumerate(zip(drawn, now)):
        assert np.array_equal(late, early), f"frame {k} changed after filming"


def test_max_seconds_drops_routine_frames_first_and_keeps_every_roll_ko_and_score(tmp_path):
    episode = record_episode(
        "heroscape_v0", ["heuristic", "heuristic"], seed=0, options={"round_cap": 3}, height=120
    )
    beats = [Beat.DECISIVE] + [step.beat for step in episode.steps]
    before = [episode.start_scores] + [step.scores for step in episode.steps[:-1]]
    scored = [s.index for s, b in zip(episode.steps, before) if s.scores != b]
    assert scored and all(beats[i] is Beat.DECISIVE for i in scored)
    uncapped = episode.shots(max_seconds=0, skip_forced=False)
    full = sum(shot.seconds for shot in uncapped)
    routine = sum(shot.seconds for shot in uncapped if shot.beat is Beat.ROUTINE)
    cap = full - routine / 2  # half the routine frames must go, and nothing else
    shots = episode.shots(max_seconds=cap, skip_forced=False)
    kept = [shot.frame for shot in shots]
    assert kept[0] == 0 and kept[-1] == len(episode.frames) - 1
    assert {i for i, beat in enumerate(beats) if beat >= Beat.ROLL} <= set(kept)
    dropped = set(range(len(episode.frames))) - set(kept)
    assert dropped and all(beats[i] is Beat.ROUTINE for i in dropped)
    (mp4,) = episode.write(tmp_path / "capped", formats=["mp4"], max_seconds=cap, skip_forced=False)
    count, _ = _mp4_frames(mp4)
    assert count == sum(repeats(shot.seconds) for shot in shots) and count <= cap * FRAME_RATE
    # the last written frame is the result, the first the start
    import imageio.v2 as imageio

    with imageio.get_reader(mp4, format="FFMPEG") as reader:
        last = reader.get_data(count - 1)
    assert np.abs(last.astype(int) - episode.frames[-1].astype(int)).mean() < 6
    # a cap longer than the game keeps every frame; skipping forced frames comes first
    every = list(range(len(episode.frames)))
    assert episode.frame_indices(10_000, skip_forced=False) == every
    assert set(episode.frame_indices(cap)) <= set(episode.candidate_frames())
    # faster playback fits more frames in the same cap
    assert len(episode.frame_indices(cap, skip_forced=False, speed=2.0)) > len(kept)
    for bad in (dict(speed=0), dict(speed=-1.0), dict(max_seconds=-1)):
        with pytest.raises(ValueError, match="speed|max_seconds"):
            episode.shots(**bad)


@pytest.mark.parametrize("gif_optimize", [True, False])
def test_streamed_gif_and_mp4_decode_to_the_frames(tmp_path, gif_optimize):
    """Both files are written frame by frame (GIF frames cut to what changed, optimised with
    the unchanged pixels transparent): decoded, every frame is the episode's picture."""
    import imageio.v3 as iio

    from envs.core.video import write_video, write_videos

    episode = record_episode(
        "heroscape_v0", ["heuristic", "random"], seed=1, options={"round_cap": 1}, height=120
    )
    frames = list(episode.frames)
    (gif,) = write_videos(
        iter(frames),
        [tmp_path / "stream.gif"],
        fps=4,  # any iterable will do
        gif_optimize=gif_optimize,
    )
    mp4 = write_video(iter(frames), tmp_path / "stream.mp4", fps=4)
    decoded = iio.imread(gif, index=None)[..., :3]
    merged = [f for k, f in enumerate(frames) if k == 0 or not np.array_equal(f, frames[k - 1])]
    assert decoded.shape == (len(merged), *frames[0].shape)
    for picture, frame in zip(decoded, merged):  # 256 colours a frame: close, not exact
        error = np.abs(picture.astype(int) - frame.astype(int))
        assert error.mean() < 3
        if gif_optimize:  # flat colours: no pixel far off
            assert error.max() <= 24
    assert _mp4_frames(mp4)[0] == len(frames)


def test_gif_palette_optimisation_shrinks_the_file(tmp_path):
    episode = record_episode(
        "heroica_v0", ["heuristic", "random"], seed=0, options={"max_rounds": 3}, height=240
    )
    (plain,) = episode.write(tmp_path / "plain", formats=["gif"], gif_optimize=False)
    (small,) = episode.write(tmp_path / "small", formats=["gif"])
    assert small.stat().st_size < 0.6 * plain.stat().st_size
    assert _gif_durations(small) == _gif_durations(plain)


def test_skip_forced_drops_frames_of_forced_decisions_but_not_of_rolls(tmp_path):
    episode = record_episode(
        "heroica_v0", ["heuristic", "random"], seed=0, options={"max_rounds": 3}, height=120
    )
    steps, last = episode.steps, len(episode.frames) - 1
    forced = {s.index for s in steps if s.forced}
    rolls = {s.index for s in steps if s.forced and s.dice}
    assert forced - rolls - {last} and rolls  # "end turn" and forced "roll"s both occur
    kept = episode.candidate_frames()
    dropped = forced - rolls - {last}
    assert kept == [0] + [s.index for s in steps if s.index not in dropped]
    assert episode.candidate_frames(skip_forced=False) == list(range(last + 1))
    (mp4,) = episode.write(tmp_path / "skipped", formats=["mp4"], max_seconds=0)
    shots = episode.shots(max_seconds=0)
    assert [shot.frame for shot in shots] == kept
    assert _mp4_frames(mp4)[0] == sum(repeats(shot.seconds) for shot in shots)


def test_per_turn_frames_show_the_position_at_the_end_of_each_turn():
    options = {"scenario": "highlands_melee"}
    episode = record_episode("heroscape_v0", ["heuristic"] * 4, seed=1, options=options, height=120)
    env = make("heroscape_v0", **options)
    env.reset(seed=1)
    game = env.game
    ends = []
    for step in episode.steps:  # a turn ends when the seat to decide or the turn number changes
        env.step(step.action)
        state = env.game_state
        if game.is_terminal(state) or (game.current_player(state), game.turn_number(state)) != (
            step.seat,
            step.turn,
        ):
            ends.append(step.index)
    turns = episode.candidate_frames("turn")
    assert turns == [0] + ends and len(set(s.seat for s in episode.steps)) == 4
    assert turns == episode.candidate_frames("turn", skip_forced=False)  # turns skip nothing
    # the defaults keep this 4-player game, over 200 decisions, within a minute either way
    assert len(episode.steps) > 200
    for frames in ("decision", "turn"):
        shots = episode.shots(frames=frames)
        assert sum(repeats(shot.seconds) for shot in shots) / FRAME_RATE <= MAX_SECONDS <= 60
        assert shots[0].frame == 0 and shots[-1].frame == len(episode.frames) - 1
        # no roll or fall is left out, whatever the cap
        shown = {shot.frame for shot in shots}
        key = {s.index for s in episode.steps if s.beat >= Beat.ROLL}
        if frames == "decision":
            assert key <= shown
    with pytest.raises(ValueError, match="frames must be one of"):
        episode.frame_indices(frames="round")


def test_write_refuses_unknown_formats(tmp_path):
    episode = record_episode(
        "heroica_v0", ["random", "random"], seed=0, options={"max_rounds": 1}, height=120
    )
    with pytest.raises(ValueError, match="formats must be some of mp4, gif, html"):
        episode.write(tmp_path / "x", formats=["avi"])
    assert not list(tmp_path.iterdir())


def test_a_bad_frame_mid_stream_leaves_no_file(tmp_path):
    from envs.core.video import write_videos

    def frames():
        yield np.zeros((8, 8, 3), np.uint8)
        yield np.full((8, 8, 3), 50, np.uint8)
        yield np.zeros((6, 8, 3), np.uint8)

    with pytest.raises(ValueError, match="frame 2"):
        write_videos(frames(), [tmp_path / "a.mp4", tmp_path / "a.gif"], fps=2)
    assert not list(tmp_path.iterdir())


def test_text_log_has_one_line_per_decision_with_its_dice():
    episode = record_episode(
        "heroica_v0", ["heuristic", "random"], seed=2, options={"max_rounds": 2}, height=120
    )
    lines = episode.text_log().splitlines()
    assert len(lines) == len(episode.steps)
    for step, line in zip(episode.steps, lines):
        assert f"player_{step.seat} ({step.agent}): {step.action_name}" in line
        assert ("dice: " + " ".join(step.dice) in line) == bool(step.dice)


def test_same_seed_replays_the_same_game_with_random_bots():
    first = record_episode(
        "heroscape_v0", ["random", "random"], seed=9, options={"round_cap": 1}, height=120
    )
    again = record_episode(
        "heroscape_v0", ["random", "random"], seed=9, options={"round_cap": 1}, height=120
    )
    assert first.steps == again.steps


def test_four_player_scenario_needs_four_agents():
    with pytest.raises(ValueError, match="4 players but 2 agents"):
        record_episode(
            "heroscape_v0", ["random", "random"], options={"scenario": "highlands_melee"}
        )


def test_unknown_agent_spec_is_a_clear_error():
    with pytest.raises(ValueError, match="'cheater'.*neither a bot"):
        record_episode("heroica_v0", ["heuristic", "cheater"])


def test_model_trained_for_another_game_is_refused():
    model = SimpleNamespace(
        observation_space=SimpleNamespace(shape=(3, 4, 4)), action_space=SimpleNamespace(n=7)
    )
    agent = SimpleNamespace(name="alien", model=model, act=lambda game, state, rng: 0)
    with pytest.raises(ValueError, match="'alien' was trained on"):
        record_episode("heroica_v0", [agent, "random"])


def test_odd_height_is_refused():
    with pytest.raises(ValueError, match="even"):
        record_episode("heroica_v0", ["random", "random"], height=721)


def test_fit_cell_px_is_the_largest_size_within_the_height():
    for env_name in ("heroica_v0", "heroscape_v0"):
        env = make(env_name)
        env.reset(seed=0)
        scene = env.game.scene(env.game_state, [])
        cell_px = fit_cell_px(scene.board, 720)
        assert render.render_frame(scene, cell_px=cell_px).shape[0] <= 720
        assert render.render_frame(scene, cell_px=cell_px + 1).shape[0] > 720


def test_cli_writes_one_named_video_pair_per_episode(tmp_path, capsys):
    out = tmp_path / "videos"
    code = main(
        [
            "--env",
            "heroica_v0",
            "--agents",
            "heuristic",
            "random",
            "--episodes",
            "2",
            "--seed",
            "5",
            "--height",
            "120",
            "--out",
            str(out),
            "--option",
            "max_rounds=1",
            "--option",
            "mission=fork",
        ]
    )
    assert code == 0
    expected = [
        out / f"heroica_v0_heuristic_vs_random_seed{k}.{ext}"
        for k in (5, 6)
        for ext in ("mp4", "gif")
    ]
    assert sorted(out.iterdir()) == sorted(expected)
    printed = capsys.readouterr().out
    assert all(str(path) in printed for path in expected)
    assert "seed 5:" in printed and "seed 6:" in printed
    assert _mp4_frames(expected[0])[1][0] == 120


def test_cli_speed_and_max_seconds_set_the_video_length(tmp_path, capsys):
    out = tmp_path / "videos"
    code = main(
        [
            "--env",
            "heroica_v0",
            "--agents",
            "heuristic",
            "random",
            "--height",
            "120",
            "--out",
            str(out),
            "--option",
            "max_rounds=3",
            "--speed",
            "2",
            "--max-seconds",
            "8",
            "--format",
            "mp4",
        ]
    )
    assert code == 0
    (mp4,) = out.iterdir()
    count, _ = _mp4_frames(mp4)
    assert count <= 8 * FRAME_RATE
    printed = capsys.readouterr().out
    assert f"video {count / FRAME_RATE:.0f} s" in printed
    assert "forced decisions skipped, --max-seconds 8: routine and ordinary frames first" in printed


@pytest.mark.parametrize(
    "args, message",
    [
        (["--env", "heroica_v0", "--agents", "heuristic", "cheater"], "cheater"),
        (["--env", "chess_v9", "--agents", "random", "random"], "unknown env"),
        (["--env", "heroica_v0", "--agents", "random", "random", "--option", "lives=3"], "lives"),
        (
            ["--env", "heroica_v0", "--agents", "random", "random", "--option", "max_rounds"],
            "key=value",
        ),
        (
            ["--env", "heroica_v0", "--agents", "random", "random", "--max-seconds", "-1"],
            "max_seconds must be at least 0",
        ),
        (
            ["--env", "heroica_v0", "--agents", "random", "random", "--speed", "0"],
            "speed must be a positive number",
        ),
        (
            ["--env", "heroica_v0", "--agents", "random", "random", "--html", "--html-height", "8"],
            "html height",
        ),
    ],
)
def test_cli_bad_input_exits_2_with_a_message_and_no_traceback(tmp_path, capsys, args, message):
    assert main([*args, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("seed", [5, 6])
def test_a_seed_replays_the_game_that_play_game_and_tournaments_played(seed):
    from envs.bots import get_bot, play_game

    game = make("heroica_v0", max_rounds=6).game
    returns = play_game(game, [get_bot("heroica", "random"), get_bot("heroica", "random")], seed)
    episode = record_episode(
        "heroica_v0", ["random", "random"], seed=seed, options={"max_rounds": 6}, height=120
    )
    assert episode.returns == [float(r) for r in returns]
