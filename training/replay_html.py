"""A filmed episode as one self-contained HTML page: frames, controls and the action log.

::

    python -m training.record --env heroica_v0 --agents heuristic random --html
    write_replay(record_episode("heroica_v0", ["heuristic", "random"]), "outputs/demo.html")

The page needs no server and fetches nothing: the frames are data URIs, the style and the
script are inline, so the file can be mailed, attached to an issue or opened from disk in any
browser. It shows the frames a video of the episode would show (``Episode.frame_indices``:
per decision or per turn, forced decisions skipped, the length cap), with a step slider,
play / pause, prev / next, a speed control (relative to the video's fps) and, beside the
frame, the whole action log (every decision, shown or not) with dice and events. The
decision of the current frame is highlighted and scrolled into view; the decisions the frame
sums up since the one before are shaded. Keys: left / right step, space plays or pauses,
Home / End jump to the ends. Clicking a log line shows the first frame at or after it.

The URL fragment selects a decision: ``replay.html#step=5`` opens at decision 5 (its line
highlighted, the frame that first shows it), ``#frame=3`` at the fourth frame, and ``&play=1``
starts playing; the fragment follows what is shown, so a copied address opens the same place.

Size: with ``image="png"`` (default) the frames are stored as GIFs store them: every
tenth frame whole (a key frame), the others as the rectangle that changed with the unchanged
pixels transparent, all 256-colour PNGs (``envs.core.video.palette_image``), near-lossless
for the renderer's flat colours; the page draws them on a canvas, a frame shown out of order
from the key frame before it. At 720p a one-minute 4-player Heroscape game (116 frames) is
about 2.4 MB (0.8 MB per turn), a 2-player Heroica game (27 frames) 1 MB; whole frames would
be three times that. ``webp`` and ``jpeg`` store whole frames, lossy at ``quality`` (WebP
100 = lossless), and come out larger for these pictures; ``height`` downscales.
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

from envs.core.video import palette_image

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
    """A decision's log line; its text is exactly ``step.line()`` without the padding."""
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
    return (
        f'<li data-step="{step.index}"><span class="n">{step.index}</span> '
        f'<span class="who"{style}>player_{step.seat} ({html.escape(step.agent)})</span>: '
        f'<span class="act">{html.escape(step.action_name)}</span>{dice}{events}</li>'
    )


def replay_page(
    episode: Any, shown: Sequence[int], pictures: Sequence[dict[str, Any]], fps: float = 2.0
) -> str:
    """The page for ``episode`` showing frames ``shown`` (frame ``i`` follows decision ``i``),
    drawn from ``pictures`` (one per frame, from a :class:`FrameEncoder`, the first a key
    frame), played at ``fps`` frames a second at 1x."""
    if len(shown) != len(pictures) or not shown or not pictures[0]["key"]:
        raise ValueError(
            f"{len(shown)} frames but {len(pictures)} pictures; need one a frame, the first whole"
        )
    width, height = Image.open(
        io.BytesIO(base64.b64decode(pictures[0]["src"].partition(",")[2]))
    ).size
    colours = _seat_colours(episode)
    names = " vs ".join(episode.agent_names)
    title = f"{episode.env_name} seed {episode.seed}: {names}"
    returns = ", ".join(f"{r:g}" for r in episode.returns)
    items = [f'<li data-step="0"><span class="n">0</span> start: {html.escape(names)}</li>']
    items += [
        _log_item(step, colours[step.seat] if step.seat < len(colours) else None)
        for step in episode.steps
    ]
    data = {
        "fps": fps,
        "decisions": len(episode.steps),
        "frames": [{"step": int(i), **picture} for i, picture in zip(shown, pictures)],
    }
    # "</" would end the script element early; JSON allows the escaped form
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    fields = {
        "title": html.escape(title),
        "last": str(len(shown) - 1),
        "width": str(width),
        "height": str(height),
        "summary": html.escape(
            f"{episode.result}; {len(episode.steps)} decisions; "
            f"returns {returns}; {len(shown)} of "
            f"{len(episode.frames)} frames shown"
        ),
        "log": "\n".join(items),
        "result": html.escape(episode.result),
        "data": payload,
    }
    # one pass: a log line reading "{{data}}" stays text
    return re.sub(r"\{\{(\w+)\}\}", lambda match: fields[match.group(1)], _PAGE)


def write_replay(episode: Any, path: str | Path, **options: Any) -> Path:
    """Write ``episode``'s replay page to ``path`` (``.html``); ``options`` are
    ``Episode.write``'s (``fps``, ``max_seconds``, ``frames``, ``skip_forced``,
    ``html_image``, ``html_height``, ``html_quality``)."""
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
#view { flex: 3 1 560px; min-width: 300px; }
#frame { display: block; width: 100%; height: auto; background: #000; }
#controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 8px; }
#controls button { min-width: 40px; padding: 4px 10px; }
#slider { flex: 1 1 200px; }
#where { color: #a8abb8; font-variant-numeric: tabular-nums; }
#log { position: relative; flex: 1 1 340px; min-width: 280px; max-height: calc(100vh - 96px);
       overflow-y: auto; margin: 0; padding: 0; list-style: none; border: 1px solid #30323c;
       font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
#log li { padding: 2px 8px; border-left: 4px solid transparent; cursor: pointer; }
#log li:hover { background: #262833; }
#log li.covered { background: #22242d; }
#log li.current { background: #4a4216; border-left-color: #f2c84b; color: #fff; }
#log li.result { cursor: default; color: #f2c84b; }
#log li.unshown { color: #9a9cab; }
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
<span id="where"></span>
</div>
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
  // decisions without a frame of their own (skipped, sampled out, inside a turn) are dimmed
  var own = {};
  frames.forEach(function (frame) { own[frame.step] = true; });
  Object.keys(lines).forEach(function (key) {
    if (!own[key]) { lines[key].classList.add("unshown"); }
  });

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
    if (timer !== null) { clearInterval(timer); timer = null; }
    playButton.innerHTML = "&#9654; play";
  }
  function start() {
    stop();
    if (current >= last) { show(0); }
    timer = setInterval(function () {
      if (current >= last) { stop(); } else { show(current + 1); }
    }, 1000 / (data.fps * Number(speed.value)));
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
                 End: function () { stop(); show(last); } };
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
