"""Drawing helpers shared by the renderer's modules: Pillow on demand, fonts, text
measuring and wrapping, colours, the frame's geometry and the canvas being drawn on.

Nothing here knows a game. Coordinates are canvas pixels: the frame is drawn at
:data:`SUPERSAMPLE` times its final size and box-downsampled, because Pillow draws polygons
and discs without anti-aliasing and hex edges look jagged at 1x.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .board import Board, Topology

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

SUPERSAMPLE = 2
HEX_RADIUS = 1.0 / math.sqrt(3.0)  # centre-to-vertex when adjacent centres are 1.0 apart

# Okabe-Ito colours, safe for the common colour blindnesses: blue, orange, reddish purple,
# vermillion. Bluish green is left out: figures must never take the colour of grass.
SEAT_COLORS: tuple[RGB, ...] = ((0, 114, 178), (230, 159, 0), (204, 121, 167), (213, 94, 0))
NEUTRAL_COLOR: RGB = (175, 175, 175)
MONSTER_COLOR: RGB = (70, 62, 66)
TOKEN_COLOR: RGB = (214, 196, 150)
DEFAULT_TERRAIN: RGB = (150, 150, 150)
BACKGROUND: RGB = (26, 28, 34)
PANEL_BG: RGB = (40, 43, 52)
CAPTION_BG: RGB = (14, 15, 19)
TEXT: RGB = (232, 232, 232)
DIM_TEXT: RGB = (170, 175, 190)
HIGHLIGHT: RGB = (255, 230, 40)
FALLEN: RGB = (225, 40, 40)  # the cross where a figure fell
LAST_MOVE: RGB = (255, 255, 255)  # the last move's squares are lightened toward it
BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)


def pil():
    """Pillow, imported on the first frame: an env that never renders does not pay its
    memory (a few MiB per process, which matters with many envs in subprocesses)."""
    from PIL import Image, ImageDraw, ImageFont

    return Image, ImageDraw, ImageFont


# -- text -------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=128)
def font(size: float) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return pil()[2].load_default(size=max(6, int(size)))
    except (TypeError, OSError, ImportError):  # old Pillow / no FreeType: fixed bitmap font
        return pil()[2].load_default()


@functools.lru_cache(maxsize=16384)
def text_bbox(fnt, text: str) -> tuple[float, float, float, float]:
    # Cached: every frame measures the same labels, badges, key and legend texts again.
    return fnt.getbbox(text)


def text_width(fnt, text: str) -> float:
    left, _, right, _ = text_bbox(fnt, text)
    return right - left


def fit_text(fnt, text: str, max_width: float) -> str:
    """``text`` cut down with '...' so it fits ``max_width`` pixels."""
    if text_width(fnt, text) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(fnt, text[:mid] + "...") <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "..." if lo else ""


def fitting_font(text: str, max_width: float, size: float, min_size: float):
    size = int(size)
    while size > min_size and text_width(font(size), text) > max_width:
        size -= 1
    return font(size)


def wrap(fnt, text: str, max_width: float, max_lines: int) -> list[str] | None:
    """``text`` broken at spaces into lines no wider than ``max_width``; None when it needs
    more than ``max_lines`` lines (or one word is wider than the line)."""
    words = text.split(" ")
    lines: list[str] = []
    while words:
        if len(lines) == max_lines:
            return None
        # The most words that fit, by bisection: a caption is measured a few times, not
        # once per word.
        lo, hi = 0, len(words)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if text_width(fnt, " ".join(words[:mid])) <= max_width:
                lo = mid
            else:
                hi = mid - 1
        if lo == 0:
            return None
        lines.append(" ".join(words[:lo]))
        words = words[lo:]
    return lines


def draw_centered(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt, fill: RGB
) -> None:
    # Centre on the ink box rather than relying on anchors, which bitmap fonts lack.
    left, top, right, bottom = text_bbox(fnt, text)
    draw.text((xy[0] - (left + right) / 2, xy[1] - (top + bottom) / 2), text, font=fnt, fill=fill)


# -- colour -----------------------------------------------------------------------------------
def contrast(color: RGB) -> RGB:
    luminance = 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2]
    return BLACK if luminance > 140 else WHITE


def int_rgb(color: RGB) -> RGB:
    """``color`` with plain ints (a scene's colours may hold numpy integers)."""
    red, green, blue = color
    return (int(red), int(green), int(blue))


def mix(color: RGB, target: RGB, amount: float) -> RGB:
    return tuple(int(round(c + (t - c) * amount)) for c, t in zip(color, target))  # type: ignore


# -- geometry ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Layout:
    """Canvas geometry in supersampled pixels; ``width``/``height`` are final-frame pixels."""

    scale: float  # canvas pixels per board unit
    origin: tuple[float, float]  # canvas position of board point (0, 0)
    caption_h: int
    board_right: int
    panel_w: int
    body_h: int
    width: int
    height: int
    cell_px: int

    def px(self, board: Board, cell: int) -> tuple[float, float]:
        x, y = board.center(cell)
        return self.origin[0] + x * self.scale, self.origin[1] + y * self.scale


def panel_metrics(cell_px: int) -> dict[str, int]:
    """Final-frame pixel sizes of the panel's and caption's text and dice."""
    text = max(11, round(cell_px * 0.3))
    return {
        "text": text,
        "line": round(text * 1.4),
        "pad": max(8, cell_px // 5),
        "die": max(22, round(cell_px * 0.62)),
        "width": max(260, 6 * cell_px),
        # the caption never shrinks below legibility at 720p, nor grows past a headline
        "caption": min(22, max(16, round(cell_px * 0.36))),
        "subtitle": min(17, max(14, round(cell_px * 0.28))),
    }


def cell_polygon(board: Board, layout: Layout, cell: int, inset: float = 0.0):
    cx, cy = layout.px(board, cell)
    s = layout.scale
    if board.topology is Topology.HEX:
        r = (HEX_RADIUS - inset) * s
        return [
            (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
            for a in (-90, -30, 30, 90, 150, 210)
        ]
    h = (0.5 - inset) * s
    return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]


def shared_edge(board: Board, layout: Layout, a: int, b: int):
    """The two canvas end points of the edge between neighbouring cells ``a`` and ``b``."""
    (ax, ay), (bx, by) = layout.px(board, a), layout.px(board, b)
    half_edge = HEX_RADIUS / 2 if board.topology is Topology.HEX else 0.5
    mx, my = (ax + bx) / 2, (ay + by) / 2
    length = math.hypot(bx - ax, by - ay) or 1.0
    k = half_edge * layout.scale / length
    px, py = -(by - ay) * k, (bx - ax) * k
    return (mx - px, my - py), (mx + px, my + py)


def thick_line(draw, points, fill: RGB, width: float) -> None:
    """A polyline with round joints and caps, so corners and wall ends meet cleanly."""
    width = max(1, int(round(width)))
    draw.line(points, fill=fill, width=width)
    r = width / 2
    for x, y in points:
        draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)


def dashed_line(draw, a, b, fill: RGB, width: float, dash: float, gap: float) -> None:
    (x0, y0), (x1, y1) = a, b
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1e-6:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    t = 0.0
    while t < length:
        end = min(length, t + dash)
        draw.line(
            [(x0 + ux * t, y0 + uy * t), (x0 + ux * end, y0 + uy * end)],
            fill=fill,
            width=max(1, int(round(width))),
        )
        t = end + gap


@dataclass
class Canvas:
    """What every drawing step needs; ``drawn`` collects the glyph ids of what was drawn
    (see :mod:`envs.core.legend`), which the tests compare with the legend."""

    draw: ImageDraw.ImageDraw
    layout: Layout
    board: Board
    seat_colors: Sequence[RGB]
    drawn: set[str] = field(default_factory=set)
    image: Image.Image | None = None  # what ``draw`` draws on

    def seat_color(self, owner: int | None) -> RGB | None:
        if owner is None or owner < 0:
            return None
        return self.seat_colors[owner % len(self.seat_colors)]
