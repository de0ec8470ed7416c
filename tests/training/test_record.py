"""training.record: filmed episodes decode with every frame, steps and captions tell the game,
bad agents / envs / options fail clearly, and the command line writes the named files."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import envs.core.render as render
from envs import make
from envs.core.render import fit_cell_px
from training.record import HOLD_SECONDS, main, record_episode

SHORT = {"heroica_v0": {"max_rounds": 3}, "heroscape_v0": {"round_cap": 2}}


def _mp4_frames(path: Path) -> tuple[int, tuple[int, ...]]:
    import imageio.v2 as imageio

    with imageio.get_reader(path, format="FFMPEG") as reader:
        return reader.count_frames(), reader.get_data(0).shape


def _gif_durations(path: Path) -> tuple[list[int], tuple[int, int]]:
    from PIL import Image, ImageSequence

    with Image.open(path) as gif:
        return [frame.info["duration"] for frame in ImageSequence.Iterator(gif)], gif.size


@pytest.mark.parametrize("env_name, height", [("heroica_v0", 720), ("heroscape_v0", 360)])
def test_videos_hold_one_frame_per_decision_plus_the_result(tmp_path, env_name, height):
    episode = record_episode(env_name, ["heuristic", "random"], seed=0, options=SHORT[env_name],
                             height=height)
    assert episode.finished and len(episode.steps) > 5
    shapes = {frame.shape for frame in episode.frames}
    assert len(shapes) == 1 and all(f.dtype == np.uint8 for f in episode.frames)
    (h, w, c), = shapes
    assert (h, c) == (height, 3) and w % 2 == 0
    assert len(episode.frames) == len(episode.steps) + 1

    fps = 2.0
    hold = round(HOLD_SECONDS * fps)
    mp4, gif = episode.write(tmp_path / "episode", fps=fps)
    assert (mp4.name, gif.name) == ("episode.mp4", "episode.gif")
    count, shape = _mp4_frames(mp4)
    assert count == len(episode.steps) + 1 + hold and shape == (h, w, 3)
    # Pillow merges identical GIF frames, so the held result is one long last frame.
    durations, size = _gif_durations(gif)
    assert size == (w, h)
    assert durations == [500] * len(episode.steps) + [500 * (1 + hold)]


def test_captions_name_decision_seat_agent_and_action_then_the_game_caption(monkeypatch):
    captions: list[str] = []
    original = render.render_frame

    def spy(scene, **kwargs):
        captions.append(scene.caption)
        return original(scene, **kwargs)

    monkeypatch.setattr(render, "render_frame", spy)
    episode = record_episode("heroica_v0", ["heuristic", "random"], seed=1,
                             options={"max_rounds": 2}, height=240)
    assert len(captions) == len(episode.frames)
    assert captions[0].startswith("start | heuristic vs random | round 1")
    for step, caption in zip(episode.steps, captions[1:]):
        prefix = f"decision {step.index} | player_{step.seat} ({step.agent}): {step.action_name} | "
        assert caption.startswith(prefix), caption
        assert len(caption) > len(prefix)  # the game's own caption follows
    assert "game over" in captions[-1]


@pytest.mark.parametrize("env_name", ["heroica_v0", "heroscape_v0"])
def test_steps_replay_the_game_with_round_trip_names_and_dice(env_name):
    episode = record_episode(env_name, ["random", "heuristic"], seed=4,
                             options=SHORT[env_name], height=120)
    assert episode.agent_names == ["random", "heuristic"]
    env = make(env_name, **SHORT[env_name])
    env.reset(seed=4)
    game = env.game
    for step in episode.steps:
        assert step.agent == episode.agent_names[step.seat]
        assert env.agent_selection == f"player_{step.seat}"
        assert game.action_to_string(env.game_state, step.action) == step.action_name
        assert game.string_to_action(env.game_state, step.action_name) == step.action
        env.step(step.action)
        assert step.dice == tuple(d for e in env.last_events for d in e.dice)
        assert step.events == tuple(e.text for e in env.last_events)
    assert game.is_terminal(env.game_state)
    assert episode.returns == [float(r) for r in game.returns(env.game_state)]
    assert any(step.dice for step in episode.steps)


def test_text_log_has_one_line_per_decision_with_its_dice():
    episode = record_episode("heroica_v0", ["heuristic", "random"], seed=2,
                             options={"max_rounds": 2}, height=120)
    lines = episode.text_log().splitlines()
    assert len(lines) == len(episode.steps)
    for step, line in zip(episode.steps, lines):
        assert f"player_{step.seat} ({step.agent}): {step.action_name}" in line
        assert ("dice: " + " ".join(step.dice) in line) == bool(step.dice)


def test_same_seed_replays_the_same_game_with_random_bots():
    first = record_episode("heroscape_v0", ["random", "random"], seed=9,
                           options={"round_cap": 1}, height=120)
    again = record_episode("heroscape_v0", ["random", "random"], seed=9,
                           options={"round_cap": 1}, height=120)
    assert first.steps == again.steps


def test_four_player_scenario_needs_four_agents():
    with pytest.raises(ValueError, match="4 players but 2 agents"):
        record_episode("heroscape_v0", ["random", "random"],
                       options={"scenario": "highlands_melee"})


def test_unknown_agent_spec_is_a_clear_error():
    with pytest.raises(ValueError, match="'cheater'.*neither a bot"):
        record_episode("heroica_v0", ["heuristic", "cheater"])


def test_model_trained_for_another_game_is_refused():
    model = SimpleNamespace(observation_space=SimpleNamespace(shape=(3, 4, 4)),
                            action_space=SimpleNamespace(n=7))
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
    code = main(["--env", "heroica_v0", "--agents", "heuristic", "random", "--episodes", "2",
                 "--seed", "5", "--height", "120", "--out", str(out),
                 "--option", "max_rounds=1", "--option", "mission=fork"])
    assert code == 0
    expected = [out / f"heroica_v0_heuristic_vs_random_seed{k}.{ext}" for k in (5, 6)
                for ext in ("mp4", "gif")]
    assert sorted(out.iterdir()) == sorted(expected)
    printed = capsys.readouterr().out
    assert all(str(path) in printed for path in expected)
    assert "seed 5:" in printed and "seed 6:" in printed
    assert _mp4_frames(expected[0])[1][0] == 120


@pytest.mark.parametrize("args, message", [
    (["--env", "heroica_v0", "--agents", "heuristic", "cheater"], "cheater"),
    (["--env", "chess_v9", "--agents", "random", "random"], "unknown env"),
    (["--env", "heroica_v0", "--agents", "random", "random", "--option", "lives=3"], "lives"),
    (["--env", "heroica_v0", "--agents", "random", "random", "--option", "max_rounds"], "key=value"),
])
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
    episode = record_episode("heroica_v0", ["random", "random"], seed=seed, options={"max_rounds": 6}, height=120)
    assert episode.returns == [float(r) for r in returns]
