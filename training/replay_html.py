"""A filmed episode as one self-contained HTML page: frames, controls and the action log.

::

    python -m training.record --env heroica_v0 --agents heuristic random --html
    write_replay(record_episode("heroica_v0", ["heuristic", "random"]), "outputs/demo.html")

The page needs no server and fetches nothing: the frames are data URIs, the style and the
script are inline, so the file can be mailed, attached to an issue or opened from disk in any
browser. It is never capped: every decision has its frame, each on screen for its beat's time
when playing (``training.storyboard``: 2 s for a KO or a score change down to 0.3 s for a
routine step), with a step slider, play / pause, prev / next, a speed control and full screen.
Under the slider a strip marks the KOs and score changes (click one to jump there) and the
game's scoreboard at the current frame is printed. Beside the frame, filling the rest of the
window, the action log with dice and events is grouped by turn; routine steps (selections,
card choices, passes, ends of turns) can be hidden. The decision of the current frame is
highlighted and scrolled into view. Keys: left / right step, space plays or pauses, Home /
End jump to the ends, f goes full screen, l hides the log (the frame takes the width).
Clicking a log line shows its frame.

The URL fragment selects a decision: ``replay.html#step=5`` opens at decision 5 (its line
highlighted, the frame that first shows it), ``#frame=3`` at the fourth frame, and ``&play=1``
starts playing; the fragment follows what is shown, so a copied address opens the same place.

Size: with ``image="png"`` (default) the frames are stored as GIFs store them: every
tenth frame whole (a key frame), the others as the rectangle that changed with the unchanged
pixels transparent, all 256-colour PNGs (``envs.core.video.palette_image``), near-lossless
for the renderer's flat colours; the page draws them on a canvas, a frame shown out of order
from the key frame before it. At 720p a 4-player Heroscape game is a few MB (about 20 KB a
frame), whole frames would be three times that. ``webp`` and ``jpeg`` store whole frames,
lossy at ``quality`` (WebP 100 = lossless), and come out larger for these pictures;
``height`` downscales.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from envs.core.game import Scoreboard
from envs.core.video import palette_image
from training.storyboard import SECONDS, Beat

__all__ = [
    "IMAGE_FORMATS",
    "FrameEncoder",
    "check_image_options",
    "frame_uri",
    "replay_page",
    "write_replay",
]

IMAGE_FORMATS = ("png", "webp", "jpeg")
# A frame shown out of order is drawn from the key frame before it: at most this many images.
KEY_EVERY = 10


def check_image_options(image: str, height: int | None, quality: int) -> None:
    """ValueError unless the options describe a way to embed frames."""
    if image not in IMAGE_FORMATS:
        raise ValueError(f"html image must be one of {', '.join(IMAGE_FORMATS)}, got {image!r}")
    if height is not None and (
        isinstance(height, bool) or not isinstance(height, int) or height < 16
    ):
        raise ValueError(f"html height must be an integer of at least 16, got {height!r}")
    if isinstance(quality, bool) or not isinstance(quality, int) or not 1 <= quality <= 100:
        raise ValueError(f"html quality must be an integer from 1 to 100, got {quality!r}")


def _scaled(frame: np.ndarray, height: int | None) -> np.ndarray:
    rgb = np.ascontiguousarray(np.asarray(frame)[:, :, :3])
    if not height or height >= rgb.shape[0]:
        return rgb
    width = max(1, round(rgb.shape[1] * height / rgb.shape[0]))
    return np.asarray(Image.fromarray(rgb).resize((width, height), Image.Resampling.LANCZOS))


def _uri(picture: Image.Image, image: str, quality: int) -> str:
    buffer = io.BytesIO()
    if image == "png":
        picture.save(buffer, format="PNG")
    elif image == "webp":
        picture.save(buffer, format="WEBP", quality=quality, lossless=quality == 100, method=4)
    else:
        picture.save(buffer, format="JPEG", quality=quality, optimize=True)
    return f"data:image/{image};base64,{base64.b64encode(buffer.getvalue()).decode('ascii')}"


def frame_uri(
    frame: np.ndarray, image: str = "png", height: int | None = None, quality: int = 80
) -> str:
    """``frame`` (``H x W x 3`` uint8) whole as a ``data:`` URI, at most ``height`` high."""
    check_image_options(image, height, quality)
    rgb = _scaled(frame, height)
    picture = palette_image(rgb) if image == "png" else Image.fromarray(rgb)
    return _uri(picture, image, quality)


class FrameEncoder:
    """The frames of a page, given in order, as pictures to draw on its canvas: dicts with
    ``src`` (a data URI), ``x``, ``y`` (where it goes) and ``key`` (True: a whole frame).

    A PNG frame after a key frame is the rectangle that changed since the frame before,
    its unchanged pixels transparent; lossy formats would smear such patches, so they are
    all key frames."""

    def __init__(self, image: str = "png", height: int | None = None, quality: int = 80) -> None:
        check_image_options(image, height, quality)
        self.image, self.height, self.quality = image, height, quality
        self._previous: np.ndarray | None = None
        self._count = 0

    def add(self, frame: np.ndarray) -> dict[str, Any]:
        rgb = _scaled(frame, self.height)
        previous, self._previous = self._previous, rgb
        key = (
            self.image != "png"
            or previous is None
            or previous.shape != rgb.shape
            or self._count % KEY_EVERY == 0
        )
        self._count += 1
        if key:
            return {
                "src": frame_uri(rgb, self.image, None, self.quality),
                "x": 0,
                "y": 0,
                "key": True,
            }
        changed = np.any(rgb != previous, axis=2)
        if not changed.any():  # the same picture: one pixel redrawn as it was
            changed[0, 0] = True
        rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
        top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
        patch = palette_image(rgb[top:bottom, left:right], ~changed[top:bottom, left:right])
        return {
            "src": _uri(patch, "png", self.quality),
            "x": int(left),
            "y": int(top),
            "key": False,
        }


def _seat_colours(episode: Any) -> list[str]:
    try:
        from envs.core.render import SEAT_COLORS

        colours = getattr(episode.frames.scene(0), "player_colors", None) or SEAT_COLORS
        return [
            "#{:02x}{:02x}{:02x}".format(*tuple(int(c) for c in colour[:3])) for colour in colours
        ]
    except (ImportError, IndexError, TypeError, ValueError):  # a log without colours is fine
        return []


def _log_item(step: Any, colour: str | None) -> str:
    """A decision's log line; its text is exactly ``step.line()`` without the padding. A
    routine step (``training.storyboard``) is marked so the page can hide it."""
    style = f' style="--seat:{colour}"' if colour else ""
    dice = (
        f'<span class="dice"> | dice: {html.escape(" ".join(step.dice))}</span>'
        if step.dice
        else ""
    )
    events = (
        f'<span class="events"> | {html.escape("; ".join(step.events))}</span>'
        if step.events
        else ""
    )
    routine = ' class="routine"' if step.beat == Beat.ROUTINE else ""
    return (
        f'<li data-step="{step.index}"{routine}><span class="n">{step.index}</span> '
        f'<span class="who"{style}>player_{step.seat} ({html.escape(step.agent)})</span>: '
        f'<span class="act">{html.escape(step.action_name)}</span>{dice}{events}</li>'
    )


def _log(episode: Any, colours: list[str]) -> str:
    """The log grouped by turn: a heading per seat's turn, then its decisions."""
    names = " vs ".join(episode.agent_names)
    items = [f'<li data-step="0"><span class="n">0</span> start: {html.escape(names)}</li>']
    previous = None
    for step in episode.steps:
        colour = colours[step.seat] if step.seat < len(colours) else None
        if (step.seat, step.turn) != previous:
            previous = (step.seat, step.turn)
            style = f' style="--seat:{colour}"' if colour else ""
            items.append(
                f'<li class="turn"><span class="who"{style}>turn {step.turn + 1}: '
                f"player_{step.seat} ({html.escape(step.agent)})</span></li>"
            )
        items.append(_log_item(step, colour))
    return "\n".join(items)


def _scores(episode: Any) -> list[str]:
    """Per frame, the scoreboard as a line (empty for a game without one)."""
    if not episode.score_label:
        return [""] * len(episode.frames)
    rows = [episode.start_scores] + [step.scores for step in episode.steps]
    return [Scoreboard(episode.score_label, row).text() for row in rows]


def replay_page(episode: Any, pictures: Sequence[dict[str, Any]], speed: float = 1.0) -> str:
    """The page for ``episode``: every frame (frame ``i`` follows decision ``i``), drawn
    from ``pictures`` (one per frame, from a :class:`FrameEncoder`, the first a key frame),
    each on screen for its beat's time (``training.storyboard``) divided by ``speed`` at
    1x."""
    if len(pictures) != len(episode.frames) or not pictures or not pictures[0]["key"]:
        raise ValueError(
            f"{len(episode.frames)} frames but {len(pictures)} pictures; need one a frame, "
            "the first whole"
        )
    width, height = Image.open(
        io.BytesIO(base64.b64decode(pictures[0]["src"].partition(",")[2]))
    ).size
    colours = _seat_colours(episode)
    names = " vs ".join(episode.agent_names)
    title = f"{episode.env_name} seed {episode.seed}: {names}"
    returns = ", ".join(f"{r:g}" for r in episode.returns)
    beats = episode.beats()
    beats[-1] = Beat.DECISIVE  # the result
    scores = _scores(episode)
    data = {
        "decisions": len(episode.steps),
        "frames": [
            {
                "step": i,
                "seconds": round(SECONDS[beats[i]] / speed, 3),
                "beat": beats[i].name.lower(),
                "score": scores[i],
                **picture,
            }
            for i, picture in enumerate(pictures)
        ],
    }
    # "</" would end the script element early; JSON allows the escaped form
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    fields = {
        "title": html.escape(title),
        "last": str(len(pictures) - 1),
        "width": str(width),
        "height": str(height),
        "summary": html.escape(
            f"{episode.result}; {len(episode.steps)} decisions; returns {returns}"
        ),
        "log": _log(episode, colours),
        "result": html.escape(episode.result),
        "data": payload,
    }
    # one pass: a log line reading "{{data}}" stays text
    return re.sub(r"\{\{(\w+)\}\}", lambda match: fields[match.group(1)], _PAGE)


def write_replay(episode: Any, path: str | Path, **options: Any) -> Path:
    """Write ``episode``'s replay page to ``path`` (``.html``); ``options`` are
    ``Episode.write``'s (``speed``, ``html_image``, ``html_height``, ``html_quality``)."""
    return episode.write(path, formats=("html",), **options)[0]


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}}</title>
<style>
:root { color-scheme: dark; }
body { margin: 0; background: #16171d; color: #e4e4e4; font: 14px/1.4 system-ui, sans-serif; }
header { padding: 8px 14px; border-bottom: 1px solid #30323c; }
h1 { font-size: 16px; margin: 0; }
#summary { color: #a8abb8; font-size: 13px; }
main { display: flex; flex-wrap: wrap; gap: 12px; padding: 12px; align-items: flex-start; }
#view { flex: 1 1 640px; min-width: 300px; }
/* the frame fills the width left by the log and the height left by the controls */
#frame { display: block; width: 100%; height: auto; max-height: calc(100vh - 170px);
         object-fit: contain; background: #000; }
#frame:fullscreen { max-height: none; height: 100%; }
#strip { position: relative; height: 14px; margin: 6px 0 0; background: #22242d; }
#strip button { position: absolute; top: 0; width: 6px; height: 14px; padding: 0;
                margin-left: -3px; border: 0; background: #e0533d; cursor: pointer; }
#score { color: #f2c84b; font-variant-numeric: tabular-nums; margin-top: 4px; min-height: 1.4em; }
#controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 8px; }
#controls button { min-width: 40px; padding: 4px 10px; }
#slider { flex: 1 1 200px; }
#where { color: #a8abb8; font-variant-numeric: tabular-nums; }
#log { position: relative; flex: 0 1 380px; min-width: 280px; max-height: calc(100vh - 120px);
       overflow-y: auto; margin: 0; padding: 0; list-style: none; border: 1px solid #30323c;
       font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
#log li { padding: 2px 8px; border-left: 4px solid transparent; cursor: pointer; }
#log li:hover { background: #262833; }
#log li.covered { background: #22242d; }
#log li.current { background: #4a4216; border-left-color: #f2c84b; color: #fff; }
#log li.result { cursor: default; color: #f2c84b; }
#log li.turn { cursor: default; margin-top: 4px; border-top: 1px solid #30323c; }
#log.hide-routine li.routine { display: none; }
body.no-log #log { display: none; }
#filter { color: #a8abb8; font-size: 13px; }
.n { color: #7d8090; }
.who { color: var(--seat, inherit); font-weight: 600; }
.dice { color: #f2c84b; }
.events { color: #9cb8d6; }
</style>
</head>
<body>
<header><h1>{{title}}</h1><div id="summary">{{summary}}</div></header>
<main>
<section id="view">
<canvas id="frame" width="{{width}}" height="{{height}}" role="img"
        aria-label="the game after the current decision"></canvas>
<div id="controls">
<button id="prev" type="button" title="previous frame (left arrow)">&#9664;</button>
<button id="play" type="button" title="play / pause (space)">&#9654; play</button>
<button id="next" type="button" title="next frame (right arrow)">&#9654;</button>
<input id="slider" type="range" min="0" max="{{last}}" step="1" value="0" aria-label="frame">
<label>speed <select id="speed">
<option value="0.25">0.25&times;</option><option value="0.5">0.5&times;</option>
<option value="1" selected>1&times;</option><option value="2">2&times;</option>
<option value="4">4&times;</option><option value="8">8&times;</option>
</select></label>
<button id="full" type="button" title="full screen (f)">&#x26F6;</button>
<button id="wide" type="button" title="hide or show the log: the frame takes the width (l)">log</button>
<span id="where"></span>
</div>
<div id="strip" title="KOs and score changes: click to jump"></div>
<div id="score"></div>
<label id="filter"><input id="routine" type="checkbox"> hide routine steps in the log</label>
</section>
<ol id="log">
{{log}}
<li class="result">result: {{result}}</li>
</ol>
</main>
<script id="replay-data" type="application/json">{{data}}</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var frames = data.frames, last = frames.length - 1;
  var canvas = document.getElementById("frame"), context = canvas.getContext("2d");
  var slider = document.getElementById("slider");
  var playButton = document.getElementById("play"), speed = document.getElementById("speed");
  var where = document.getElementById("where"), log = document.getElementById("log");
  var lines = {};
  Array.prototype.forEach.call(log.querySelectorAll("li[data-step]"), function (li) {
    lines[li.getAttribute("data-step")] = li;
  });
  var current = 0, selected = 0, timer = null, drawn = -1, ready = false;
  var pictures = frames.map(function (frame) {
    var picture = new Image();
    picture.src = frame.src;
    return picture;
  });
  // KOs and score changes as marks on a strip under the slider
  var strip = document.getElementById("strip"), score = document.getElementById("score");
  frames.forEach(function (frame, j) {
    if (frame.beat !== "decisive" || j === 0) { return; }
    var mark = document.createElement("button");
    mark.type = "button";
    mark.style.left = (100 * j / Math.max(1, last)) + "%";
    mark.title = "decision " + frame.step + (frame.score ? " \u00b7 " + frame.score : "");
    mark.addEventListener("click", function () { stop(); show(j); });
    strip.appendChild(mark);
  });
  document.getElementById("routine").addEventListener("change", function (event) {
    log.classList.toggle("hide-routine", event.target.checked);
  });
  document.getElementById("full").addEventListener("click", function () {
    if (canvas.requestFullscreen) { canvas.requestFullscreen(); }
  });
  function wide() { document.body.classList.toggle("no-log"); }
  document.getElementById("wide").addEventListener("click", wide);

  // The first frame that shows a decision: a frame sums up every decision since the last one.
  function frameOf(step) {
    for (var j = 0; j <= last; j++) { if (frames[j].step >= step) { return j; } }
    return last;
  }

  function show(j, step) {
    current = Math.max(0, Math.min(last, j));
    var frame = frames[current];
    selected = step === undefined ? frame.step : step;
    draw(current);
    slider.value = String(current);
    var from = current > 0 ? frames[current - 1].step + 1 : 0;
    Object.keys(lines).forEach(function (key) {
      var s = Number(key), li = lines[key];
      li.classList.toggle("covered", s >= from && s <= frame.step);
      li.classList.toggle("current", s === selected);
    });
    where.textContent = "frame " + (current + 1) + "/" + frames.length + " \\u00b7 decision " +
      frame.step + "/" + data.decisions;
    score.textContent = frame.score;
    var line = lines[String(selected)];
    if (line) {
      var top = line.offsetTop, bottom = top + line.offsetHeight;
      if (top < log.scrollTop || bottom > log.scrollTop + log.clientHeight) {
        log.scrollTop = Math.max(0, top - log.clientHeight / 2);
      }
    }
    try { history.replaceState(null, "", "#step=" + selected); } catch (e) { /* file: may */ }
  }

  function paint(j) { context.drawImage(pictures[j], frames[j].x, frames[j].y); }
  // Frame j + 1 is a patch over frame j; any other is drawn up from the key frame before it.
  function draw(j) {
    if (!ready || j === drawn) { return; }
    if (j === drawn + 1) {
      paint(j);
    } else {
      var from = j;
      while (from > 0 && !frames[from].key) { from--; }
      for (var i = from; i <= j; i++) { paint(i); }
    }
    drawn = j;
  }

  function stop() {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    playButton.innerHTML = "&#9654; play";
  }
  // each frame stays for its own time: a KO longer than a selection
  function later() {
    timer = setTimeout(function () {
      if (current >= last) { stop(); } else { show(current + 1); later(); }
    }, 1000 * frames[current].seconds / Number(speed.value));
  }
  function start() {
    stop();
    if (current >= last) { show(0); }
    later();
    playButton.innerHTML = "&#10074;&#10074; pause";
  }
  function toggle() { if (timer === null) { start(); } else { stop(); } }
  function step(by) { stop(); show(current + by); }

  document.getElementById("prev").addEventListener("click", function () { step(-1); });
  document.getElementById("next").addEventListener("click", function () { step(1); });
  playButton.addEventListener("click", toggle);
  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  speed.addEventListener("change", function () { if (timer !== null) { start(); } });
  log.addEventListener("click", function (event) {
    var li = event.target.closest("li[data-step]");
    if (li) { stop(); var s = Number(li.getAttribute("data-step")); show(frameOf(s), s); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target === speed) { return; }
    var keys = { ArrowLeft: function () { step(-1); }, ArrowRight: function () { step(1); },
                 " ": toggle, Home: function () { stop(); show(0); },
                 End: function () { stop(); show(last); },
                 f: function () { if (canvas.requestFullscreen) { canvas.requestFullscreen(); } },
                 l: wide };
    var action = keys[event.key];
    if (!action) { return; }
    // the page's keys win over a focused button's or the slider's own handling
    event.preventDefault();
    if (event.target && event.target.blur) { event.target.blur(); }
    action();
  });

  function fromHash() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    var s = parseInt(params.get("step"), 10), f = parseInt(params.get("frame"), 10);
    if (!isNaN(s)) {
      s = Math.max(0, Math.min(data.decisions, s));
      show(frameOf(s), s);
    } else {
      show(isNaN(f) ? 0 : f);
    }
    if (params.get("play") === "1") { start(); }
  }
  // not picture.decode(): headless Chromium's virtual time never settles it
  function loaded(picture) {
    return new Promise(function (resolve, reject) {
      if (picture.complete && picture.naturalWidth) { resolve(); return; }
      picture.onload = resolve;
      picture.onerror = reject;
    });
  }
  window.addEventListener("hashchange", function () {
    if (location.hash !== "#step=" + selected) { stop(); fromHash(); }
  });
  fromHash();
  Promise.all(pictures.map(loaded)).then(function () {
    ready = true;
    draw(current);
    document.body.setAttribute("data-ready", "1");
  }, function () { where.textContent = "a frame failed to load"; });
}());
</script>
</body>
</html>
"""
