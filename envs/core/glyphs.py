"""The renderer's marks, drawn the same way on the board and in the legend: badges, cell
marks, token tiles, tags, walls, paths and the piece discs. Positions are canvas pixels;
sizes are given by the caller (a board cell or a legend line).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .drawing import (
    BLACK,
    RGB,
    SUPERSAMPLE,
    TOKEN_COLOR,
    WHITE,
    contrast,
    dashed_line,
    draw_centered,
    font,
    mix,
    text_bbox,
    thick_line,
)
from .icons import draw_icon

# Per piece kind: badge fill, outline, text. Monster badges are reddish so that "strength"
# and "health" read apart at a glance.
BADGE_STYLES: dict[str, tuple[RGB, RGB, RGB]] = {
    "figure": (WHITE, BLACK, BLACK),
    "monster": ((255, 212, 200), (140, 20, 20), (110, 0, 0)),
    "token": ((255, 244, 200), BLACK, BLACK),
}
MONSTER_RING: RGB = (185, 35, 30)
TAG_BG: RGB = (30, 32, 40)
SPIKES: RGB = (240, 228, 200)  # bone-coloured, to read on light and dark ground
SPIKE = 1.32  # a monster's spike tips, against its disc radius


def badge_box(x: float, y: float, text: str, size: float) -> tuple[float, float, float, float]:
    left, top, right, bottom = text_bbox(font(size), text)
    w, h = right - left + size * 0.6, bottom - top + size * 0.45
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def draw_badge(draw, x: float, y: float, text: str, size: float, kind: str = "figure") -> None:
    fill, outline, ink = BADGE_STYLES.get(kind, BADGE_STYLES["figure"])
    box = badge_box(x, y, text, size)
    draw.rounded_rectangle(
        box, radius=(box[3] - box[1]) * 0.35, fill=fill, outline=outline, width=max(1, SUPERSAMPLE)
    )
    draw_centered(draw, (x, y), text, font(size), ink)


def draw_mark(draw, x: float, y: float, text: str, size: float) -> None:
    fnt = font(size)
    left, top, right, bottom = text_bbox(fnt, text)
    pad = size * 0.2
    draw.rounded_rectangle(
        [
            x - (right - left) / 2 - pad,
            y - (bottom - top) / 2 - pad,
            x + (right - left) / 2 + pad,
            y + (bottom - top) / 2 + pad,
        ],
        radius=pad * 1.5,
        fill=(20, 20, 20),
    )
    draw_centered(draw, (x, y), text, fnt, WHITE)


def draw_tile(
    draw, cx: float, cy: float, half: float, icon: str, tint: RGB | None, ring: RGB | None = None
) -> None:
    """A token: a light rounded tile with its icon; ``ring`` (a seat colour) outlines it."""
    width = max(SUPERSAMPLE, round(half * (0.16 if ring else 0.08)))
    draw.rounded_rectangle(
        [cx - half, cy - half, cx + half, cy + half],
        radius=half * 0.3,
        fill=mix(TOKEN_COLOR, WHITE, 0.45),
        outline=ring or BLACK,
        width=width,
    )
    draw_icon(draw, icon, cx, cy, half * 0.78, tint)


def draw_label_box(draw, cx: float, cy: float, half: float, label: str, fill: RGB) -> None:
    """A token without an icon: a square with its label (the scene's key names it)."""
    from .drawing import fit_text, fitting_font

    draw.rectangle(
        [cx - half, cy - half, cx + half, cy + half],
        fill=fill,
        outline=BLACK,
        width=max(2, round(half * 0.12)),
    )
    fnt = fitting_font(label, 1.8 * half, 1.3 * half, max(6, 0.5 * half))
    draw_centered(draw, (cx, cy), fit_text(fnt, label, 1.9 * half), fnt, contrast(fill))


def draw_tag(draw, cx: float, cy: float, r: float, name: str) -> None:
    """A tag beside a figure: its icon on a dark disc, or its initial without one."""
    draw.ellipse(
        [cx - r, cy - r, cx + r, cy + r], fill=TAG_BG, outline=WHITE, width=max(1, round(r * 0.12))
    )
    if not draw_icon(draw, name, cx, cy, r * 0.72):
        draw_centered(draw, (cx, cy), name[:1].upper(), font(r * 1.2), WHITE)


def draw_discs(
    draw,
    centres: list[tuple[float, float]],
    radius: float,
    fill: RGB,
    ring: RGB,
    outline: float,
    spiky: bool = False,
) -> None:
    """A figure's disc (joined discs for a multi-space one); ``spiky`` gives the ring
    spikes, which marks a monster whatever its colour."""
    if spiky:
        for x, y in centres:
            spikes = 7
            points = [
                (
                    x + radius * (SPIKE if k % 2 else 0.92) * math.sin(math.pi * k / spikes),
                    y - radius * (SPIKE if k % 2 else 0.92) * math.cos(math.pi * k / spikes),
                )
                for k in range(2 * spikes)
            ]
            draw.polygon(points, fill=SPIKES, outline=BLACK, width=max(1, round(outline / 2)))
    # Outline pass then fill pass, so joined multi-space figures get one outline.
    for colour, r in ((ring, radius + outline), (fill, radius)):
        for x, y in centres[1:]:
            draw.line([centres[0], (x, y)], fill=colour, width=int(2 * r * 0.85))
        for x, y in centres:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)


# -- walls and paths -----------------------------------------------------------------------
WALL: RGB = (0, 0, 0)
BROKEN_WALL: RGB = (110, 72, 45)


def draw_wall(draw, a, b, kind: str, width: float) -> None:
    """A wall on a cell edge; a broken one as a dashed, thinner brown line (cracked)."""
    if kind == "broken_wall":
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        dash = max(width, length / 5)
        dashed_line(draw, a, b, BLACK, width + 2 * SUPERSAMPLE, dash, dash * 0.6)
        dashed_line(draw, a, b, BROKEN_WALL, width, dash, dash * 0.6)
        return
    thick_line(draw, [a, b], WALL, width)


@dataclass(frozen=True)
class PathStyle:
    color: RGB
    width: float  # in board units
    dash: float | None  # dash length in board units; None = solid
    head: bool  # an arrowhead at the end
    words: str
    mark_words: str  # what a ring along the path means


PATH_STYLES: dict[str, PathStyle] = {
    "line_of_fire": PathStyle(
        (255, 70, 60), 0.05, 0.16, False, "line of fire", "hindering square on the line"
    ),
    "knockback": PathStyle((255, 150, 20), 0.09, None, True, "knockback", "knocked through"),
    "move": PathStyle((250, 250, 250), 0.04, 0.08, False, "move path", "stop on the way"),
}
DEFAULT_PATH = PathStyle((200, 120, 255), 0.05, None, False, "", "marked")


def path_style(kind: str) -> PathStyle:
    return PATH_STYLES.get(kind) or replace(DEFAULT_PATH, words=kind.replace("_", " "))


def draw_path(draw, points: list[tuple[float, float]], style: PathStyle, scale: float) -> None:
    width = max(2, style.width * scale)
    for colour, w in ((BLACK, width + 2 * SUPERSAMPLE), (style.color, width)):
        for a, b in zip(points, points[1:]):
            if style.dash:
                dashed_line(draw, a, b, colour, w, style.dash * scale, style.dash * scale * 0.6)
            else:
                thick_line(draw, [a, b], colour, w)
    if style.head and len(points) > 1:
        (x0, y0), (x1, y1) = points[-2], points[-1]
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        head = 0.22 * scale
        bx, by = x1 - ux * head, y1 - uy * head
        draw.polygon(
            [
                (x1, y1),
                (bx - uy * head * 0.6, by + ux * head * 0.6),
                (bx + uy * head * 0.6, by - ux * head * 0.6),
            ],
            fill=style.color,
            outline=BLACK,
            width=SUPERSAMPLE,
        )


def draw_path_ring(draw, x: float, y: float, r: float, style: PathStyle) -> None:
    w = max(2, round(r * 0.3))
    draw.ellipse([x - r, y - r, x + r, y + r], outline=BLACK, width=w + 2 * SUPERSAMPLE)
    draw.ellipse([x - r, y - r, x + r, y + r], outline=style.color, width=w)
