"""One renderer for every game: a scene description drawn as RGB frames.

Games describe what to draw as a :class:`Scene` (board, terrain colours, pieces, last action,
dice, caption, status text); this module turns it into an ``H x W x 3`` uint8 frame
(:func:`render_frame`). Nothing here knows any game's rules. The same scene becomes a text
picture with :func:`envs.core.textboard.render_text`, and frames become an MP4 / GIF with
:func:`envs.core.video.write_video`.

Frame size depends only on the board's shape, ``cell_px``, ``min_height`` and
``target_height``, never on the caption or the amount of status text, so every frame of an
episode has the same size and can go straight into a video. Sizes are always even because
H.264 with 4:2:0 chroma cannot encode odd ones. :func:`fit_cell_px` picks the ``cell_px``
that draws a board at about a video's height, so rescaling to it barely changes text sizes.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

import numpy as np

from .board import HEX_ROW_PITCH, Board, Topology

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont


def _pil():
    """Pillow, imported on the first frame: an env that never renders does not pay its
    memory (a few MiB per process, which matters with many envs in subprocesses)."""
    from PIL import Image, ImageDraw, ImageFont

    return Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]

# Okabe-Ito colours: distinguishable under the common forms of colour blindness.
SEAT_COLORS: tuple[RGB, ...] = ((0, 114, 178), (230, 159, 0), (0, 158, 115), (204, 121, 167))
NEUTRAL_COLOR: RGB = (175, 175, 175)
MONSTER_COLOR: RGB = (70, 62, 66)
TOKEN_COLOR: RGB = (214, 196, 150)
DEFAULT_TERRAIN: RGB = (150, 150, 150)
BACKGROUND: RGB = (26, 28, 34)
PANEL_BG: RGB = (40, 43, 52)
CAPTION_BG: RGB = (14, 15, 19)
TEXT: RGB = (232, 232, 232)
HIGHLIGHT: RGB = (255, 230, 40)
ARROW: RGB = (235, 35, 35)

# Drawn at this multiple and box-downsampled: Pillow draws polygons and discs without
# anti-aliasing, and hex edges look jagged at 1x.
SUPERSAMPLE = 2
HEX_RADIUS = 1.0 / math.sqrt(3.0)  # centre-to-vertex when adjacent centres are 1.0 apart


@dataclass
class Piece:
    """A figure or token drawn on a cell.

    ``owner`` picks the seat colour (``None`` = neutral); ``color`` overrides it. ``kind`` is
    ``"figure"`` or ``"monster"`` (a disc) or ``"token"`` (a small square: items, rocks,
    chests). ``value`` is drawn as a badge (health, dial). ``cells`` lists extra cells of a
    multi-space figure, drawn joined to ``cell``.
    """

    cell: int
    label: str
    owner: int | None = None
    kind: str = "figure"
    value: str | None = None
    color: RGB | None = None
    cells: tuple[int, ...] = ()
    icon: str | None = None  # a drawn icon's name (tokens): chest, potion, object_heavy, ...
    tags: tuple[str, ...] = ()  # small marks beside it: soaring, hovering, token, held, ...


@dataclass
class EdgeMark:
    """Something on one side of a square cell: a wall standing or broken."""

    cell: int
    side: int  # 0 north, 1 east, 2 south, 3 west
    kind: str = "wall"  # "wall" or "broken_wall"


@dataclass
class PathMark:
    """A line through cell centres: a ranged attack's line of fire, a knockback's path."""

    cells: tuple[int, ...]
    kind: str  # "line_of_fire", "knockback", "move"
    marks: tuple[int, ...] = ()  # cells marked along it (hindering squares crossed)


@dataclass
class Scene:
    """Everything one frame shows. Games build one per step; see the module docstring."""

    board: Board
    terrain_colors: dict[int, RGB]
    terrain_names: dict[int, str] = field(default_factory=dict)
    pieces: list[Piece] = field(default_factory=list)
    cell_marks: dict[int, str] = field(default_factory=dict)
    highlight: list[int] = field(default_factory=list)
    arrow: tuple[int, int] | None = None
    dice: list[str] = field(default_factory=list)
    caption: str = ""
    player_colors: list[RGB] | None = None
    status_lines: list[str] = field(default_factory=list)
    edges: list[EdgeMark] = field(default_factory=list)
    paths: list[PathMark] = field(default_factory=list)


# -- text helpers -------------------------------------------------------------------------
@functools.lru_cache(maxsize=128)
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return _pil()[2].load_default(size=max(6, int(size)))
    except (TypeError, OSError, ImportError):  # old Pillow / no FreeType: fixed bitmap font
        return _pil()[2].load_default()


def _text_size(font, text: str) -> tuple[float, float, float, float]:
    return font.getbbox(text)


def _text_width(font, text: str) -> float:
    left, _, right, _ = font.getbbox(text)
    return right - left


def _fit_text(font, text: str, max_width: float) -> str:
    """``text`` cut down with '...' so it fits ``max_width`` pixels."""
    if _text_width(font, text) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if _text_width(font, text[:mid] + "...") <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "..." if lo else ""


def _fitting_font(text: str, max_width: float, size: float, min_size: float):
    size = int(size)
    while size > min_size and _text_width(_font(size), text) > max_width:
        size -= 1
    return _font(size)


def _draw_centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font,
                   fill: RGB) -> None:
    # Centre on the ink box rather than relying on anchors, which bitmap fonts lack.
    left, top, right, bottom = _text_size(font, text)
    draw.text((xy[0] - (left + right) / 2, xy[1] - (top + bottom) / 2), text, font=font,
              fill=fill)


def _contrast(color: RGB) -> RGB:
    luminance = 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2]
    return (0, 0, 0) if luminance > 140 else (255, 255, 255)


def _mix(color: RGB, target: RGB, amount: float) -> RGB:
    return tuple(int(round(c + (t - c) * amount)) for c, t in zip(color, target))  # type: ignore


# -- layout -------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Layout:
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


def _board_extent(board: Board) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the board's outline in board units."""
    if board.topology is Topology.HEX:
        shift = 0.5 if board.height > 1 else 0.0
        return (-0.5, -HEX_RADIUS, board.width - 0.5 + shift,
                (board.height - 1) * HEX_ROW_PITCH + HEX_RADIUS)
    return -0.5, -0.5, board.width - 0.5, board.height - 0.5


def _panel_metrics(cell_px: int) -> dict[str, int]:
    text = max(11, round(cell_px * 0.3))
    return {
        "text": text,
        "line": round(text * 1.4),
        "pad": max(8, cell_px // 5),
        "die": max(22, round(cell_px * 0.62)),
        "width": max(260, 6 * cell_px),
        "caption": max(12, round(cell_px * 0.36)),
    }


def _layout(board: Board, cell_px: int, min_height: int | None) -> _Layout:
    m = _panel_metrics(cell_px)
    margin = max(8, cell_px // 4)
    x0, y0, x1, y1 = _board_extent(board)
    board_w = math.ceil((x1 - x0) * cell_px) + 2 * margin
    board_h = math.ceil((y1 - y0) * cell_px) + 2 * margin
    caption_h = round(m["caption"] * 1.9)
    # The panel needs room for its header, two rows of dice and about ten status lines.
    panel_min = m["pad"] * 3 + m["line"] + 2 * (m["die"] + m["pad"]) + 10 * m["line"]
    body_h = max(board_h, panel_min, (min_height or 0) - caption_h)
    width, height = board_w + m["width"], caption_h + body_h
    width += width % 2
    height += height % 2
    body_h = height - caption_h
    s = SUPERSAMPLE
    # Centre the board vertically when the panel makes the body taller than the board.
    extra_y = (body_h - board_h) / 2
    origin = ((margin - x0 * cell_px) * s, (caption_h + extra_y + margin - y0 * cell_px) * s)
    return _Layout(cell_px * s, origin, caption_h * s, board_w * s, m["width"] * s,
                   body_h * s, width, height, cell_px)


def fit_cell_px(board: Board, height: int, min_height: int | None = None) -> int:
    """The largest ``cell_px`` whose frame of ``board`` is at most ``height`` pixels high.

    Rendering at this size and then passing ``target_height=height`` keeps the final resize
    close to 1x, so text and lines stay sharp at any video height: a small board is not
    blurred by upscaling and a large one does not shrink its labels below legibility.
    Never below 8, the smallest size :func:`render_frame` accepts.
    """
    lo, hi = 8, 8
    while _layout(board, hi * 2, min_height).height <= height and hi < 4096:
        hi *= 2
    hi *= 2
    # Frame height never decreases as cell_px grows, so bisection finds the boundary.
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if _layout(board, mid, min_height).height <= height:
            lo = mid
        else:
            hi = mid
    return lo


def _cell_polygon(board: Board, layout: _Layout, cell: int, inset: float = 0.0):
    cx, cy = layout.px(board, cell)
    s = layout.scale
    if board.topology is Topology.HEX:
        r = (HEX_RADIUS - inset) * s
        return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
                for a in (-90, -30, 30, 90, 150, 210)]
    h = (0.5 - inset) * s
    return [(cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)]


# -- board layer (cached: the same for every frame of a board) ---------------------------
def _shaded(board: Board, colors: dict[int, RGB]) -> list[RGB]:
    levels = board.level[board.exists]
    lo, hi = (int(levels.min()), int(levels.max())) if levels.size else (0, 0)
    mid, half = (lo + hi) / 2, max((hi - lo) / 2, 1e-9)
    fills = []
    for cell in range(board.n_cells):
        base = colors.get(int(board.terrain[cell]), DEFAULT_TERRAIN)
        t = (int(board.level[cell]) - mid) / half if hi > lo else 0.0
        # Lower is darker, higher is lighter, so height reads at a glance without numbers.
        fills.append(_mix(base, (0, 0, 0), -t * 0.4) if t < 0 else _mix(base, (255,) * 3, t * 0.3))
    return fills


@functools.lru_cache(maxsize=16)
def _board_layer(board: Board, cell_px: int, min_height: int | None,
                 colors_key: tuple[tuple[int, RGB], ...]) -> tuple[Image.Image, _Layout]:
    layout = _layout(board, cell_px, min_height)
    s = SUPERSAMPLE
    pil_image, pil_draw, _ = _pil()
    image = pil_image.new("RGB", (layout.width * s, layout.height * s), BACKGROUND)
    draw = pil_draw.Draw(image)
    fills = _shaded(board, dict(colors_key))
    grid_w = max(1, s)
    for cell in np.flatnonzero(board.exists):
        cell = int(cell)
        draw.polygon(_cell_polygon(board, layout, cell), fill=fills[cell],
                     outline=_mix(fills[cell], (0, 0, 0), 0.45), width=grid_w)
    levels = board.level[board.exists]
    if levels.size and levels.min() != levels.max():
        # Sized to stay readable in a 720p video of a 14-row hex battlefield (~50 px cells).
        font = _font(layout.scale * 0.27)
        for cell in np.flatnonzero(board.exists):
            cx, cy = layout.px(board, int(cell))
            dx, dy = (0.0, 0.45) if board.topology is Topology.HEX else (0.32, 0.33)
            _draw_centered(draw, (cx + dx * layout.scale, cy + dy * layout.scale),
                           str(int(board.level[cell])), font, _contrast(fills[int(cell)]))
    wall_w = max(3 * s, round(layout.scale * 0.11))
    half_edge = 0.5 if board.topology is not Topology.HEX else HEX_RADIUS / 2
    for a, b in sorted(board.walls):
        (ax, ay), (bx, by) = layout.px(board, a), layout.px(board, b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        length = math.hypot(bx - ax, by - ay) or 1.0
        k = half_edge * layout.scale / length
        px, py = -(by - ay) * k, (bx - ax) * k
        draw.line([(mx - px, my - py), (mx + px, my + py)], fill=(0, 0, 0), width=wall_w)
        for ex, ey in ((mx - px, my - py), (mx + px, my + py)):  # round caps join corners
            r = wall_w / 2
            draw.ellipse([ex - r, ey - r, ex + r, ey + r], fill=(0, 0, 0))
    return image, layout


# -- dynamic layers -----------------------------------------------------------------------
def _piece_fill(piece: Piece, seat_colors: Sequence[RGB]) -> RGB:
    if piece.color is not None:
        return tuple(int(c) for c in piece.color)  # type: ignore[return-value]
    if piece.owner is not None and piece.owner >= 0:
        return seat_colors[piece.owner % len(seat_colors)]
    return {"monster": MONSTER_COLOR, "token": TOKEN_COLOR}.get(piece.kind, NEUTRAL_COLOR)


def _draw_badge(draw, xy: tuple[float, float], text: str, size: float) -> None:
    font = _font(size)
    left, top, right, bottom = _text_size(font, text)
    w, h = right - left + size * 0.6, bottom - top + size * 0.45
    x, y = xy
    draw.rounded_rectangle([x - w / 2, y - h / 2, x + w / 2, y + h / 2], radius=h * 0.35,
                           fill=(255, 255, 255), outline=(0, 0, 0), width=max(1, SUPERSAMPLE))
    _draw_centered(draw, (x, y), text, font, (0, 0, 0))


def _draw_pieces(draw, scene: Scene, layout: _Layout, seat_colors: Sequence[RGB]) -> None:
    board, s = scene.board, layout.scale
    valid = [p for p in scene.pieces if 0 <= p.cell < board.n_cells]
    figures_at: dict[int, list[Piece]] = {}
    for piece in valid:
        if piece.kind != "token":
            figures_at.setdefault(piece.cell, []).append(piece)
    outline = max(2, round(s * 0.04))
    # Tokens first so that a figure standing on an item covers it but leaves a corner showing.
    tokens_at: dict[int, int] = {}
    for piece in (p for p in valid if p.kind == "token"):
        cx, cy = layout.px(board, piece.cell)
        k = tokens_at.get(piece.cell, 0)
        tokens_at[piece.cell] = k + 1
        if piece.cell in figures_at:
            half, cx, cy = 0.14 * s, cx - 0.27 * s + k * 0.12 * s, cy + 0.25 * s
        else:
            half, cx = 0.22 * s, cx + k * 0.12 * s
        fill = _piece_fill(piece, seat_colors)
        draw.rectangle([cx - half, cy - half, cx + half, cy + half], fill=fill,
                       outline=(0, 0, 0), width=outline)
        label = piece.label
        font = _fitting_font(label, 1.8 * half, 1.3 * half, max(6, 0.5 * half))
        _draw_centered(draw, (cx, cy), _fit_text(font, label, 1.9 * half), font, _contrast(fill))
        if piece.value:
            _draw_badge(draw, (cx + half, cy - half), piece.value, max(8, 0.2 * s))
    for cell, group in figures_at.items():
        for k, piece in enumerate(group):
            shift = (k - (len(group) - 1) / 2) * 0.3 * s
            radius = (0.36 if len(group) == 1 else 0.26) * s
            fill = _piece_fill(piece, seat_colors)
            centres = [layout.px(board, c) for c in (piece.cell, *piece.cells)
                       if 0 <= c < board.n_cells]
            centres = [(x + shift, y) for x, y in centres]
            ring = (0, 0, 0) if piece.kind != "monster" else (150, 20, 20)
            # Outline pass then fill pass, so joined multi-space figures get one outline.
            for colour, r in ((ring, radius + outline), (fill, radius)):
                for x, y in centres[1:]:
                    draw.line([centres[0], (x, y)], fill=colour, width=int(2 * r * 0.85))
                for x, y in centres:
                    draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
            cx, cy = centres[0]
            # A multi-space figure is labelled across its whole body, where there is room.
            lx = sum(x for x, _ in centres) / len(centres)
            ly = sum(y for _, y in centres) / len(centres)
            room = 1.75 * radius + max(abs(x - lx) for x, _ in centres) * 2
            font = _fitting_font(piece.label, room, 0.85 * radius, 0.4 * radius)
            _draw_centered(draw, (lx, ly), _fit_text(font, piece.label, room * 1.05), font,
                           _contrast(fill))
            if piece.value:
                _draw_badge(draw, (cx + radius * 0.72, cy - radius * 0.95), piece.value,
                            max(8, 0.26 * s))


def _draw_arrow(draw, scene: Scene, layout: _Layout) -> None:
    board, s = scene.board, layout.scale
    a, b = scene.arrow  # type: ignore[misc]
    if not (0 <= a < board.n_cells and 0 <= b < board.n_cells):
        return
    (x0, y0), (x1, y1) = layout.px(board, a), layout.px(board, b)
    width = max(3, round(s * 0.08))
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1e-6:  # acting in place (e.g. searching): ring the cell
        r = 0.46 * s
        draw.ellipse([x0 - r, y0 - r, x0 + r, y0 + r], outline=ARROW, width=width)
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    # Stop short of both centres so the labels of the pieces there stay readable.
    trim = min(0.3 * s, length * 0.3)
    sx, sy = x0 + ux * trim, y0 + uy * trim
    tx, ty = x1 - ux * trim, y1 - uy * trim
    head = min(0.3 * s, (length - 2 * trim) * 0.6 + 0.15 * s)
    hw = head * 0.6
    bx, by = tx - ux * head, ty - uy * head
    tip = [(tx, ty), (bx - uy * hw, by + ux * hw), (bx + uy * hw, by - ux * hw)]
    for colour, extra in (((0, 0, 0), 2 * SUPERSAMPLE), (ARROW, 0)):
        draw.line([(sx, sy), (bx, by)], fill=colour, width=width + 2 * extra)
        r = (width + 2 * extra) / 2
        draw.ellipse([sx - r, sy - r, sx + r, sy + r], fill=colour)
    draw.polygon(tip, fill=ARROW, outline=(0, 0, 0), width=SUPERSAMPLE)


_SEAT_PREFIX = re.compile(r"^\s*(?:player_?|p)(\d+)\b", re.IGNORECASE)


def _draw_panel(draw, scene: Scene, layout: _Layout, seat_colors: Sequence[RGB]) -> None:
    s = SUPERSAMPLE
    m = {k: v * s for k, v in _panel_metrics(layout.cell_px).items()}
    x0, y0 = layout.board_right, layout.caption_h
    x1, y1 = layout.width * s, layout.height * s
    draw.rectangle([x0, y0, x1, y1], fill=PANEL_BG)
    font = _font(m["text"])
    inner = x1 - x0 - 2 * m["pad"]
    x, y = x0 + m["pad"], y0 + m["pad"]
    draw.text((x, y), "Dice", font=font, fill=(170, 175, 190))
    y += m["line"]
    die, gap = m["die"], m["pad"] // 2
    die_font = _font(die * 0.42)

    def place(symbols: list[str]) -> list[tuple[int, float, float]]:
        # Dice grow sideways for long symbol names ("shield") and wrap onto a new row.
        spots, dx, row = [], x, 0
        for symbol in symbols:
            w = min(inner, max(die, _text_width(die_font, symbol) + die * 0.4))
            if dx + w > x + inner and dx > x:
                row, dx = row + 1, x
            spots.append((row, dx, w))
            dx += w + gap
        return spots

    symbols = list(scene.dice)
    spots = place(symbols)
    keep = len(symbols)
    while spots and spots[-1][0] > 1:  # two rows at most: the last die counts the rest
        keep -= 1
        symbols = list(scene.dice[:keep]) + [f"+{len(scene.dice) - keep}"]
        spots = place(symbols)
    for symbol, (row, dx, w) in zip(symbols, spots):
        dy = y + row * (die + gap)
        draw.rounded_rectangle([dx, dy, dx + w, dy + die], radius=die * 0.18,
                               fill=(250, 250, 245), outline=(0, 0, 0), width=s)
        _draw_centered(draw, (dx + w / 2, dy + die / 2), _fit_text(die_font, symbol, w * 0.92),
                       die_font, (0, 0, 0))
    if not symbols:
        draw.text((x, y + die / 2 - m["line"] / 2), "-", font=font, fill=(130, 135, 150))
    y += 2 * (die + gap) + m["pad"] // 2
    legend = _legend_entries(scene)
    legend_rows = math.ceil(len(legend) / 2)
    legend_top = y1 - m["pad"] - legend_rows * m["line"]
    lines = list(scene.status_lines)
    room = max(0, int((legend_top - m["pad"] // 2 - y) // m["line"]))
    if len(lines) > room:
        lines = lines[: max(0, room - 1)] + [f"... (+{len(lines) - room + 1} more)"] if room else []
    swatch = m["text"] * 0.8
    for line in lines:
        tx = x
        match = _SEAT_PREFIX.match(line)
        if match:
            colour = seat_colors[int(match.group(1)) % len(seat_colors)]
            draw.rectangle([x, y + m["line"] * 0.15, x + swatch, y + m["line"] * 0.15 + swatch],
                           fill=colour, outline=(0, 0, 0))
            tx = x + swatch + m["pad"] // 2
        draw.text((tx, y), _fit_text(font, line, x1 - m["pad"] - tx), font=font, fill=TEXT)
        y += m["line"]
    col_w = inner / 2
    for i, (colour, name) in enumerate(legend[: 2 * legend_rows]):
        lx, ly = x + (i % 2) * col_w, legend_top + (i // 2) * m["line"]
        draw.rectangle([lx, ly + m["line"] * 0.15, lx + swatch, ly + m["line"] * 0.15 + swatch],
                       fill=colour, outline=(0, 0, 0))
        name = _fit_text(font, name, col_w - swatch - m["pad"])
        draw.text((lx + swatch + m["pad"] // 2, ly), name, font=_font(m["text"] * 0.85),
                  fill=(200, 200, 205))


def _legend_entries(scene: Scene) -> list[tuple[RGB, str]]:
    present = sorted({int(t) for t in scene.board.terrain[scene.board.exists]})
    entries = [(scene.terrain_colors.get(code, DEFAULT_TERRAIN), scene.terrain_names[code])
               for code in present if code in scene.terrain_names]
    return entries[:8]  # a fixed cap keeps the status area from being squeezed out


def render_frame(scene: Scene, cell_px: int = 48, min_height: int | None = None,
                 target_height: int | None = None) -> np.ndarray:
    """Draw ``scene`` as an ``H x W x 3`` uint8 RGB frame.

    ``cell_px`` is the distance in pixels between adjacent cell centres. ``min_height`` pads
    the frame to at least that height; ``target_height`` rescales the finished frame to that
    height (rounded up to even; width keeps the aspect ratio, also even), e.g. 720 for video.
    Size never depends on caption, dice or status text, which are truncated to fit.
    """
    if cell_px < 8:
        raise ValueError(f"cell_px must be at least 8, got {cell_px}")
    colors_key = tuple(sorted((int(k), tuple(int(c) for c in v))
                              for k, v in scene.terrain_colors.items()))
    base, layout = _board_layer(scene.board, int(cell_px), min_height, colors_key)
    image = base.copy()
    draw = _pil()[1].Draw(image)
    board, s = scene.board, layout.scale
    seat_colors = [tuple(int(c) for c in col) for col in (scene.player_colors or SEAT_COLORS)]
    seat_colors = seat_colors or list(SEAT_COLORS)
    hl_w = max(3, round(s * 0.07))
    for cell in scene.highlight:
        if 0 <= cell < board.n_cells:
            draw.polygon(_cell_polygon(board, layout, cell, inset=0.06), outline=HIGHLIGHT,
                         width=hl_w)
    mark_font = _font(s * 0.22)
    for cell, mark in scene.cell_marks.items():
        if not (0 <= cell < board.n_cells) or not mark:
            continue
        cx, cy = layout.px(board, cell)
        dx, dy = (-0.22, -0.3) if board.topology is Topology.HEX else (-0.32, -0.32)
        mx, my = cx + dx * s, cy + dy * s
        left, top, right, bottom = _text_size(mark_font, mark)
        pad = s * 0.04
        draw.rounded_rectangle([mx - (right - left) / 2 - pad, my - (bottom - top) / 2 - pad,
                                mx + (right - left) / 2 + pad, my + (bottom - top) / 2 + pad],
                               radius=pad * 1.5, fill=(20, 20, 20))
        _draw_centered(draw, (mx, my), mark, mark_font, (255, 255, 255))
    _draw_pieces(draw, scene, layout, seat_colors)
    if scene.arrow is not None:
        _draw_arrow(draw, scene, layout)
    # Caption last: a long label must never spill into it.
    draw.rectangle([0, 0, layout.width * SUPERSAMPLE, layout.caption_h], fill=CAPTION_BG)
    cap_size = _panel_metrics(layout.cell_px)["caption"] * SUPERSAMPLE
    pad = _panel_metrics(layout.cell_px)["pad"] * SUPERSAMPLE
    room = layout.width * SUPERSAMPLE - 2 * pad
    # Shrink a long caption a little before cutting it: its end (the last event) matters.
    cap_font = _fitting_font(scene.caption, room, cap_size, cap_size * 0.75)
    caption = _fit_text(cap_font, scene.caption, room)
    _, top, _, bottom = _text_size(cap_font, "Hg")
    draw.text((pad, (layout.caption_h - (top + bottom)) / 2), caption, font=cap_font, fill=TEXT)
    _draw_panel(draw, scene, layout, seat_colors)
    frame = image.reduce(SUPERSAMPLE)
    if target_height:
        height = int(target_height) + int(target_height) % 2
        width = round(frame.width * height / frame.height / 2) * 2
        frame = frame.resize((max(2, width), height), _pil()[0].LANCZOS)
    return np.asarray(frame, dtype=np.uint8).copy()
