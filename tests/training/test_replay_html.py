"""training.replay_html: the replay page is one self-contained file holding every decision's
frame (key frames and patches that rebuild them), never capped, each timed by its beat, and
the log grouped by turn; in a real headless Chromium it draws the frame, honours ``#step=N``
(that decision's line highlighted and scrolled into view, its frame rebuilt exactly on the
canvas), marks KOs and score changes on a strip, prints the scoreboard, and its keys,
buttons and play / pause move through the frames, each for its own time."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from training.record import main, record_episode
from training.replay_html import check_image_options, frame_uri, write_replay
from training.storyboard import SECONDS, Beat

AGENTS = ["heuristic", "random"]
OPTIONS = {"max_rounds": 3}
ARGS = [
    "--env",
    "heroica_v0",
    "--agents",
    *AGENTS,
    "--seed",
    "0",
    "--height",
    "240",
    "--option",
    "max_rounds=3",
]
HIGHLIGHT = (0x4A, 0x42, 0x16)  # #log li.current's background in the page's style
PAGE_COLOURS = [
    (0x16, 0x17, 0x1D),
    (0x22, 0x24, 0x2D),
    (0x26, 0x28, 0x33),
    (0x30, 0x32, 0x3C),
    HIGHLIGHT,
    (0, 0, 0),
    (0xFF, 0xFF, 0xFF),
]


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _browser(*args: str, timeout: float = 60) -> str:
    """Run headless Chromium (``args`` end with the URL) and return its stdout."""
    chromium = _chromium()
    if chromium is None:
        pytest.skip("chromium not installed: apt-get install chromium")
    done = subprocess.run(
        [
            chromium,
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _data(page: str) -> dict:
    """The frames embedded in a page (``{"decisions", "frames": [{"step", "seconds", "beat",
    "score", "src", "key", ...}]}``)."""
    payload = re.search(
        r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S
    )
    assert payload, "no replay data in the page"
    return json.loads(payload.group(1))


def _log_lines(page: str) -> dict[int, tuple[str, str]]:
    """data-step -> (class attribute, text) of each log line."""
    lines = {}
    for match in re.finditer(r'<li data-step="(\d+)"(?: class="([^"]*)")?>(.*?)</li>', page, re.S):
        lines[int(match.group(1))] = (
            match.group(2) or "",
            html.unescape(re.sub(r"<[^>]+>", "", match.group(3))),
        )
    return lines


def _decode(uri: str, mode: str = "RGB") -> Image.Image:
    head, _, body = uri.partition(",")
    assert head.startswith("data:image/") and head.endswith(";base64"), head
    return Image.open(io.BytesIO(base64.b64decode(body))).convert(mode)


def _rebuilt(frames: list[dict]) -> list[np.ndarray]:
    """The pictures the page's frames make, each drawn over the one before (as its canvas)."""
    canvas, out = None, []
    for frame in frames:
        picture = _decode(frame["src"], "RGBA")
        if frame["key"]:
            canvas = picture
        else:
            assert canvas is not None, "a patch before any key frame"
            canvas = canvas.copy()
            canvas.alpha_composite(picture, (frame["x"], frame["y"]))
        out.append(np.asarray(canvas.convert("RGB")))
    return out


def _close(picture: np.ndarray, frame: np.ndarray) -> bool:
    """256 colours a frame: near, not equal."""
    return picture.shape == frame.shape and np.abs(picture.astype(int) - frame).mean() < 2


@pytest.fixture(scope="module")
def replay(tmp_path_factory) -> tuple[Path, object]:
    """A short Heroica game written by the command line with ``--html`` (and its episode)."""
    out = tmp_path_factory.mktemp("replay")
    assert main([*ARGS, "--out", str(out), "--html", "--format", "gif"]) == 0
    (page,) = out.glob("*.html")
    assert sorted(p.suffix for p in out.iterdir()) == [".gif", ".html"]
    episode = record_episode("heroica_v0", AGENTS, seed=0, options=OPTIONS, height=240)
    return page, episode


def test_the_page_is_self_contained_with_the_videos_frames_and_every_decision(replay):
    path, episode = replay
    page = path.read_text(encoding="utf-8")
    # nothing to fetch: no URL but the data URIs, no external script, style or font
    assert not re.search(r"https?://|<link\b|\bsrc=\"(?!data:)|@import|url\(", page)
    data = _data(page)
    shown = list(range(len(episode.frames)))  # never capped: every decision has its frame
    assert len(episode.frame_indices()) < len(shown)  # while the video is
    assert [f["step"] for f in data["frames"]] == shown
    assert data["decisions"] == len(episode.steps)
    beats = [Beat.DECISIVE] + [step.beat for step in episode.steps[:-1]] + [Beat.DECISIVE]
    assert [f["seconds"] for f in data["frames"]] == [SECONDS[b] for b in beats]
    assert [f["beat"] for f in data["frames"]] == [b.name.lower() for b in beats]
    assert data["frames"][0]["score"] == "kills: player_0 0 \u00b7 player_1 0"
    keys = [k for k, frame in enumerate(data["frames"]) if frame["key"]]
    assert keys == list(range(0, len(shown), 10))  # the rest are patches: what changed
    for picture, index in zip(_rebuilt(data["frames"]), shown):
        assert _close(picture, episode.frames[index]), f"frame {index}"
    lines = _log_lines(page)
    assert sorted(lines) == list(range(len(episode.steps) + 1))
    for step in episode.steps:  # every decision, routine ones marked so they can be hidden
        assert lines[step.index][1] == step.line().strip()
        assert ("routine" in lines[step.index][0]) == (step.beat is Beat.ROUTINE)
    assert any(step.dice for step in episode.steps)
    # grouped by turn: a heading each time the seat or the turn number changes
    turns = re.findall(r'<li class="turn">(.*?)</li>', page, re.S)
    changes = {(step.seat, step.turn) for step in episode.steps}
    assert len(turns) == len(changes) > 2
    first = episode.steps[0]
    assert html.unescape(re.sub(r"<[^>]+>", "", turns[0])) == (
        f"turn {first.turn + 1}: player_{first.seat} ({first.agent})"
    )
    assert path.stat().st_size < 30_000 * len(shown)


def test_frames_per_turn_and_image_options_apply_to_the_page(tmp_path):
    episode = record_episode("heroica_v0", AGENTS, seed=0, options=OPTIONS, height=240)
    (per_turn,) = episode.write(tmp_path / "turn", formats=["html"], frames="turn")
    data = _data(per_turn.read_text(encoding="utf-8"))
    # the video's choices (per turn, a cap) leave the page whole
    assert [f["step"] for f in data["frames"]] == list(range(len(episode.frames)))
    same = write_replay(episode, tmp_path / "same.html", max_seconds=5)
    assert same.read_text(encoding="utf-8") == per_turn.read_text(encoding="utf-8")
    fast = _data(write_replay(episode, tmp_path / "fast.html", speed=2).read_text("utf-8"))
    assert [f["seconds"] * 2 for f in fast["frames"]] == [f["seconds"] for f in data["frames"]]
    (small,) = episode.write(
        tmp_path / "small", formats=["html"], html_image="jpeg", html_height=120, html_quality=50
    )
    frames = _data(small.read_text(encoding="utf-8"))["frames"]
    assert all(frame["key"] for frame in frames)  # lossy patches would smear: all whole
    uri = frames[0]["src"]
    assert uri.startswith("data:image/jpeg;base64,") and _decode(uri).height == 120
    webp = frame_uri(episode.frames[0], "webp", quality=100)  # 100 = lossless
    assert np.array_equal(np.asarray(_decode(webp)), episode.frames[0])
    for bad in [("gif", None, 80), ("png", 8, 80), ("webp", None, 0), ("jpeg", None, 101)]:
        with pytest.raises(ValueError, match="html"):
            check_image_options(*bad)


def test_heroarena_record_html_is_the_same_command(tmp_path, capsys):
    from training.cli import main as heroarena

    assert (
        heroarena(["record", *ARGS, "--out", str(tmp_path), "--format", "html", "--frames", "turn"])
        == 0
    )
    (page,) = tmp_path.iterdir()
    assert page.suffix == ".html" and str(page) in capsys.readouterr().out
    assert main([*ARGS, "--out", str(tmp_path), "--html", "--html-quality", "0"]) == 2
    assert "html quality" in capsys.readouterr().err


def _drive(
    page: Path, tmp_path: Path, fragment: str, script: str, budget: int = 4000, *window: str
) -> list:
    """Open ``page`` with ``script`` added (run once its frames are loaded; it calls
    ``done(result)``) and return the result, read back from the dumped DOM."""
    driven = tmp_path / f"driven_{page.name}"
    driver = (
        "<script>\nfunction done(result) {\n"
        "  document.body.setAttribute('data-test', JSON.stringify(result));\n}\n"
        "function canvas() { return document.getElementById('frame').toDataURL(); }\n"
        "function state() {\n"
        "  var li = document.querySelector('#log li.current');\n"
        "  return [Number(document.getElementById('slider').value),\n"
        "          li && Number(li.dataset.step), location.hash];\n}\n"
        "function key(name) {\n"
        "  var event = new KeyboardEvent('keydown', {key: name, bubbles: true});\n"
        "  document.dispatchEvent(event);\n}\n"
        "(function wait() {\n"
        "  if (document.body.dataset.ready) { (function () {" + script + "}()); }\n"
        "  else { setTimeout(wait, 20); }\n}());\n</script>\n</body>"
    )
    driven.write_text(page.read_text(encoding="utf-8").replace("</body>", driver), encoding="utf-8")
    dom = _browser(
        f"--virtual-time-budget={budget}", *window, "--dump-dom", f"{driven.as_uri()}{fragment}"
    )
    found = re.search(r'data-test="([^"]*)"', dom)
    assert found, "the driver script did not finish: the page never drew its frames"
    return json.loads(html.unescape(found.group(1)))


def test_chromium_draws_the_frame_and_highlights_the_step_in_the_url(replay, tmp_path):
    path, episode = replay
    url = f"{path.as_uri()}#step=5"
    dom = _browser("--virtual-time-budget=2000", "--dump-dom", url)
    lines = _log_lines(dom)
    current = [step for step, (classes, _) in lines.items() if "current" in classes.split()]
    assert current == [5], current
    assert lines[5][1] == episode.steps[4].line().strip()
    shown = list(range(len(episode.frames)))
    frame = 5  # every decision has its own frame
    assert frame % 10, "pick a step whose frame is a patch, to see the canvas rebuild it"
    assert f"frame {frame + 1}/{len(shown)}" in dom
    covered = sorted(s for s, (classes, _) in lines.items() if "covered" in classes.split())
    assert covered == [5]
    # the scoreboard of that frame is printed under the slider
    score = re.search(r'<div id="score">(.*?)</div>', dom, re.S)
    assert score and html.unescape(score.group(1)) == "kills: " + " \u00b7 ".join(
        f"player_{seat} {value:g}" for seat, value in enumerate(episode.steps[4].scores)
    )
    # the canvas shows exactly that frame, drawn up from the key frame before it
    (drawn,) = _drive(path, tmp_path, "#step=5", "done([canvas()]);")
    assert _close(np.asarray(_decode(drawn)), episode.frames[shown[frame]])

    shot = tmp_path / "shot.png"
    _browser("--virtual-time-budget=2000", f"--screenshot={shot}", "--window-size=1280,800", url)
    pixels = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    colours = np.unique(pixels.reshape(-1, 3), axis=0)
    assert len(colours) > 50, f"a blank page: {len(colours)} colours"
    # the frame is on screen (scaled up): its commonest colours, those the page itself does
    # not use, cover at least as much of the screenshot as of the frame
    picture = np.asarray(_decode(drawn)).reshape(-1, 3).astype(int)
    values, counts = np.unique(picture, axis=0, return_counts=True)
    own = [
        colour
        for colour in values[np.argsort(-counts)]
        if np.abs(np.array(PAGE_COLOURS) - colour).max(axis=1).min() > 16
    ][:3]
    assert len(own) == 3
    for colour in own:
        on_screen = np.all(np.abs(pixels - colour) <= 3, axis=2).sum()
        in_frame = np.all(picture == colour, axis=1).sum()
        assert on_screen >= in_frame, f"frame colour {colour} not on screen"
    assert np.all(np.abs(pixels - HIGHLIGHT) <= 3, axis=2).sum() > 500


def test_chromium_scrolls_a_late_step_into_view(replay, tmp_path):
    path, episode = replay
    last = len(episode.steps)
    shot = tmp_path / "late.png"
    # a short window: the log holds a dozen lines, the last decision is far below them
    _browser(
        "--virtual-time-budget=2000",
        f"--screenshot={shot}",
        "--window-size=1280,400",
        f"{path.as_uri()}#step={last}",
    )
    pixels = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    assert np.all(np.abs(pixels - HIGHLIGHT) <= 3, axis=2).sum() > 500, "highlight not in view"


DRIVER = """
var out = [state()];
key("ArrowRight"); out.push(state());
key("ArrowLeft"); key("ArrowLeft"); out.push(state());
key("End"); out.push(state()); var end = canvas();
key("Home"); out.push(state());
document.getElementById("next").click(); out.push(state());
document.getElementById("speed").value = "2";
key(" ");
setTimeout(function () {
  key(" "); out.push(state()); var played = canvas();
  setTimeout(function () { out.push(state()); done([out, end, played]); }, 2000);
}, 1100);
"""


def test_chromium_keys_buttons_and_play_pause_step_through_the_frames(replay, tmp_path):
    path, episode = replay
    states, end, played = _drive(path, tmp_path, "#frame=3", DRIVER, budget=10000)
    shown = list(range(len(episode.frames)))
    last = len(shown) - 1
    expected = [
        (3, shown[3]),
        (4, shown[4]),
        (2, shown[2]),
        (last, shown[last]),
        (0, 0),
        (1, shown[1]),
    ]
    assert [(k, step) for k, step, _ in states[:6]] == expected
    assert states[5][2] == f"#step={shown[1]}"  # the address follows what is shown
    # 1.1 s at 2x from frame 1: as many frames on as their beats' times allow, then paused
    data = _data(path.read_text(encoding="utf-8"))
    elapsed, reached = 0.0, 1
    while elapsed + data["frames"][reached]["seconds"] / 2 <= 1.1:
        elapsed += data["frames"][reached]["seconds"] / 2
        reached += 1
    playing, paused = states[6], states[7]
    assert abs(playing[0] - reached) <= 1 and playing[0] > 1 and paused == playing, states
    # jumping to the end and playing frame by frame both draw the right picture
    assert _close(np.asarray(_decode(end)), episode.frames[shown[last]])
    assert _close(np.asarray(_decode(played)), episode.frames[shown[playing[0]]])


def test_chromium_marks_kos_and_score_changes_on_the_strip_and_hides_routine_steps(tmp_path):
    episode = record_episode(
        "heroscape_v0", ["heuristic", "heuristic"], seed=0, options={"round_cap": 3}, height=120
    )
    (page,) = episode.write(tmp_path / "scape", formats=["html"])
    decisive = [
        step.index
        for step in episode.steps
        if step.beat is Beat.DECISIVE and step.index < len(episode.steps)
    ] + [len(episode.steps)]
    script = (
        "var marks = Array.prototype.map.call(document.querySelectorAll('#strip button'),"
        " function (b) { return b.title; });"
        "document.querySelectorAll('#strip button')[1].click();"
        "var routine = document.getElementById('routine'); routine.click();"
        "var hidden = Array.prototype.filter.call(document.querySelectorAll('#log li.routine'),"
        " function (li) { return li.offsetParent === null; }).length;"
        "done([marks, state(), hidden, document.getElementById('score').textContent]);"
    )
    marks, now, hidden, score = _drive(page, tmp_path, "", script)
    assert [int(title.split()[1]) for title in marks] == decisive
    assert now[0] == decisive[1] and now[1] == decisive[1]  # a mark jumps to its frame
    routine = [step for step in episode.steps if step.beat is Beat.ROUTINE]
    assert hidden == len(routine) > 0
    values = episode.steps[decisive[1] - 1].scores
    assert score == "figures: " + " \u00b7 ".join(
        f"player_{seat} {value:g}" for seat, value in enumerate(values)
    )


def test_chromium_hiding_the_log_gives_the_frame_the_window(replay, tmp_path):
    path, _ = replay
    script = (
        "var before = document.getElementById('frame').getBoundingClientRect().width;"
        "key('l');"
        "var after = document.getElementById('frame').getBoundingClientRect().width;"
        "done([before, after, window.innerWidth]);"
    )
    page = path.read_text(encoding="utf-8")
    wide = tmp_path / "wide.html"
    wide.write_text(page, encoding="utf-8")
    # a 1400 x 900 window: the log beside the frame took a third of the width
    before, after, window = _drive(wide, tmp_path, "", script, 4000, "--window-size=1400,900")
    assert window == 1400 and after > 1.2 * before and after >= 0.85 * window
