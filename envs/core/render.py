"""One renderer for every game: a scene description drawn as RGB frames.

Games describe what to draw as a :class:`Scene` (board, terrain colours, pieces, last action,
dice, caption, status text, and what their marks mean); this module turns it into an
``H x W x 3`` uint8 frame (:func:`render_frame`). Nothing here knows any game's rules. The
same scene becomes a text picture with :func:`envs.core.textboard.render_text`, and frames
become an MP4 / GIF with :func:`envs.core.video.write_video`.

A frame reads without a rulebook: items, markers and ground features are drawn icons
(:mod:`envs.core.icons`), dice are drawn as their faces in labelled groups
(:mod:`envs.core.dice_faces`), levels are shading with contour lines, pieces sharing a cell
stand side by side, the caption wraps, and the side panel carries a key from labels to
names and a legend of every kind of mark on the board (:mod:`envs.core.legend`).
:func:`glyph_kinds`, :func:`legend_for`, :func:`piece_boxes` and :func:`caption_lines`
expose what a frame draws, for tests.

Frame size depends only on the board's shape, ``cell_px``, ``min_height`` and
``target_height``, never on the caption or the amount of status text, so every frame of an
episode has the same size and can go straight into a video. Sizes are always even because
H.264 with 4:2:0 chroma cannot encode odd ones. :func:`fit_cell_px` picks the ``cell_px``
that draws a board at about a video's height, so rescaling to it barely changes text sizes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .board import HEX_ROW_PITCH, Board, Topology
from .drawing import (
    BACKGROUND,
    CAPTION_BG,
    DEFAULT_TERRAIN,
    HEX_RADIUS,
    HIGHLIGHT,
    MONSTER_COLOR,
    NEUTRAL_COLOR,
    PANEL_BG,
    RGB,
    SEAT_COLORS,
    SUPERSAMPLE,
    TEXT,
    TOKEN_COLOR,
    Canvas,
    Layout,
    cell_polygon,
    contrast,
    font,
    int_rgb,
    mix,
    panel_metrics,
    pil,
    shared_edge,
    thick_line,
)
from .legend import (
    LegendEntry,
    explained,
    legend_for,
    level_range,
    level_shade,
    numbered_levels,
)
from .render_banner import draw_banner
from .render_panel import LINE_SPACING, draw_caption, draw_panel
from .render_panel import caption_lines as _caption_lines
from .render_pieces import (
    badge_boxes,
    draw_cell_icons,
    draw_edges,
    draw_fallen,
    draw_highlights,
    draw_last_move,
    draw_marks,
    draw_paths,
    draw_pieces,
    layout_pieces,
)
from .scene import DiceGroup, EdgeMark, FigureCard, PathMark, Piece, Scene

__all__ = [
    "BACKGROUND",
    "CAPTION_BG",
    "DEFAULT_TERRAIN",
    "HIGHLIGHT",
    "MONSTER_COLOR",
    "NEUTRAL_COLOR",
    "PANEL_BG",
    "RGB",
    "SEAT_COLORS",
    "SUPERSAMPLE",
    "TEXT",
    "TOKEN_COLOR",
    "HEX_RADIUS",
    "DiceGroup",
    "FigureCard",
    "EdgeMark",
    "LegendEntry",
    "PathMark",
    "Piece",
    "PieceBox",
    "Scene",
    "caption_lines",
    "explained",
    "fit_cell_px",
    "glyph_kinds",
    "legend_for",
    "piece_boxes",
    "render_frame",
]

# Older names, still imported by game code.
_mix, _contrast, _font = mix, contrast, font


# -- layout -------------------------------------------------------------------------------
def _board_extent(board: Board) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the board's outline in board units."""
    if board.topology is Topology.HEX:
        shift = 0.5 if board.height > 1 else 0.0
        return (
            -0.5,
            -HEX_RADIUS,
            board.width - 0.5 + shift,
            (board.height - 1) * HEX_ROW_PITCH + HEX_RADIUS,
        )
    return -0.5, -0.5, board.width - 0.5, board.height - 0.5


def coordinate_margin(cell_px: int) -> int:
    """Final-frame pixels around the board: room for the row and column numbers."""
    return max(14, round(cell_px * 0.36))


def _layout(board: Board, cell_px: int, min_height: int | None) -> Layout:
    m = panel_metrics(cell_px)
    margin = coordinate_margin(cell_px)
    x0, y0, x1, y1 = _board_extent(board)
    board_w = math.ceil((x1 - x0) * cell_px) + 2 * margin
    board_h = math.ceil((y1 - y0) * cell_px) + 2 * margin
    # two lines of what just happened and one of what comes next, at full size (a third
    # line of the first, when needed, takes the place of the second)
    caption_h = round((2 * m["caption"] + m["subtitle"]) * LINE_SPACING + m["pad"])
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
    return Layout(
        cell_px * s,
        origin,
        caption_h * s,
        board_w * s,
        m["width"] * s,
        body_h * s,
        width,
        height,
        cell_px,
    )


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


# -- board layer (cached: the same for every frame of a board) ---------------------------
def _neighbour_pairs(board: Board):
    """Each pair of touching spaces once, walls or not (the neighbour table skips walls)."""
    if board.topology is Topology.HEX:
        for cell in np.flatnonzero(board.exists).tolist():
            for other in board.neighbors[cell].tolist():
                if other > cell:
                    yield cell, other
        return
    exists = board.exists
    for cell in np.flatnonzero(exists).tolist():
        row, col = divmod(cell, board.width)
        if col + 1 < board.width and exists[cell + 1]:
            yield cell, cell + 1
        if row + 1 < board.height and exists[cell + board.width]:
            yield cell, cell + board.width


@functools.lru_cache(maxsize=16)
def _board_layer(
    board: Board,
    cell_px: int,
    min_height: int | None,
    colors_key: tuple[tuple[int, RGB], ...],
    walls: bool,
):
    layout = _layout(board, cell_px, min_height)
    s = SUPERSAMPLE
    image = pil()[0].new("RGB", (layout.width * s, layout.height * s), BACKGROUND)
    draw = pil()[1].Draw(image)
    colors = dict(colors_key)
    lo, hi = level_range(board)
    drawn = set()
    grid_w = max(1, s)
    for cell in np.flatnonzero(board.exists).tolist():
        code = int(board.terrain[cell])
        fill = level_shade(colors.get(code, DEFAULT_TERRAIN), int(board.level[cell]), lo, hi)
        draw.polygon(
            cell_polygon(board, layout, cell),
            fill=fill,
            outline=mix(fill, (0, 0, 0), 0.45),
            width=grid_w,
        )
        drawn.add(f"terrain:{code}")
    if hi > lo:
        drawn.add("levels")
        # Contour lines where the level changes, so a step up reads even between similar
        # shades; thicker for a bigger step.
        for a, b in _neighbour_pairs(board):
            step = abs(int(board.level[a]) - int(board.level[b]))
            if step:
                width = max(s, round(layout.scale * (0.035 + 0.015 * min(step, 3))))
                thick_line(draw, list(shared_edge(board, layout, a, b)), (25, 25, 30), width)
        if numbered_levels(board):
            _level_numbers(draw, board, layout, colors, lo, hi)
    _coordinates(draw, board, layout)
    if walls and board.walls and board.topology is not Topology.HEX:
        wall_w = max(3 * s, round(layout.scale * 0.11))
        for a, b in sorted(board.walls):
            thick_line(draw, list(shared_edge(board, layout, a, b)), (0, 0, 0), wall_w)
        drawn.add("edge:wall")
    return image, layout, frozenset(drawn)


COORDINATES = (150, 155, 170)


def _coordinates(draw, board: Board, layout: Layout) -> None:
    """Row numbers left of the board and column numbers above it, as the notation counts
    them ((row,col) in action names and events): a square named in a caption can be found."""
    s = SUPERSAMPLE
    margin = coordinate_margin(layout.cell_px) * s
    fnt = font(max(10 * s, min(margin * 0.62, round(layout.scale * 0.24))))
    x0, y0, _, _ = _board_extent(board)
    left = layout.origin[0] + x0 * layout.scale - margin / 2
    top = layout.origin[1] + y0 * layout.scale - margin / 2
    for col in range(board.width):
        x, _ = layout.px(board, board.cell(0, col))
        draw.text((x, top), str(col), font=fnt, fill=COORDINATES, anchor="mm")
    for row in range(board.height):
        _, y = layout.px(board, board.cell(row, 0))
        draw.text((left, y), str(row), font=fnt, fill=COORDINATES, anchor="mm")


def _level_numbers(draw, board: Board, layout: Layout, colors: dict, lo: int, hi: int) -> None:
    """Each space's level as a small number at its foot, below where a piece stands."""
    size = max(11 * SUPERSAMPLE, round(layout.scale * 0.24))
    fnt = font(size)
    for cell in np.flatnonzero(board.exists).tolist():
        level = int(board.level[cell])
        base = colors.get(int(board.terrain[cell]), DEFAULT_TERRAIN)
        x, y = layout.px(board, cell)
        fill = mix(contrast(level_shade(base, level, lo, hi)), (128, 128, 128), 0.25)
        draw.text((x, y + layout.scale * 0.47), str(level), font=fnt, fill=fill, anchor="mm")


# -- a frame ------------------------------------------------------------------------------------
def _render(scene: Scene, cell_px: int, min_height: int | None):
    """The supersampled image and the canvas it was drawn with (layout, glyphs drawn)."""
    if cell_px < 8:
        raise ValueError(f"cell_px must be at least 8, got {cell_px}")
    colors_key = tuple(
        sorted((int(k), tuple(int(c) for c in v)) for k, v in scene.terrain_colors.items())
    )
    base, layout, board_glyphs = _board_layer(
        scene.board, int(cell_px), min_height, colors_key, not scene.edges
    )
    image = base.copy()
    seat_colors = [int_rgb(col) for col in (scene.player_colors or SEAT_COLORS)]
    canvas = Canvas(
        pil()[1].Draw(image),
        layout,
        scene.board,
        seat_colors or list(SEAT_COLORS),
        set(board_glyphs),
        image,
    )
    if scene.arrow is not None:
        draw_last_move(canvas, scene)  # under everything that stands on the squares
    draw_highlights(canvas, scene)
    draw_fallen(canvas, scene)
    draw_cell_icons(canvas, scene)
    draw_edges(canvas, scene)
    draw_paths(canvas, scene)
    draw_marks(canvas, scene, draw_pieces(canvas, scene))
    draw_banner(canvas, scene.banner)
    # Caption after the board: a long label must never spill into it.
    draw_caption(canvas, scene.caption, scene.subtitle)
    draw_panel(canvas, scene)
    return image, canvas


def render_frame(
    scene: Scene, cell_px: int = 48, min_height: int | None = None, target_height: int | None = None
) -> np.ndarray:
    """Draw ``scene`` as an ``H x W x 3`` uint8 RGB frame.

    ``cell_px`` is the distance in pixels between adjacent cell centres. ``min_height`` pads
    the frame to at least that height; ``target_height`` rescales the finished frame to that
    height (rounded up to even; width keeps the aspect ratio, also even), e.g. 720 for video.
    Size never depends on caption, dice or status text, which are wrapped or cut to fit.
    """
    image, _ = _render(scene, cell_px, min_height)
    frame = image.reduce(SUPERSAMPLE)
    if target_height:
        height = int(target_height) + int(target_height) % 2
        width = round(frame.width * height / frame.height / 2) * 2
        frame = frame.resize((max(2, width), height), pil()[0].LANCZOS)
    return np.asarray(frame, dtype=np.uint8).copy()


# -- what a frame draws, for tests ------------------------------------------------------------
def glyph_kinds(scene: Scene, cell_px: int = 16) -> set[str]:
    """The glyph ids (see :mod:`envs.core.legend`) of everything drawn on ``scene``'s
    board; each should be in :func:`explained`."""
    return set(_render(scene, cell_px, None)[1].drawn)


@dataclass(frozen=True)
class PieceBox:
    """Where a piece was drawn, final-frame pixels: one box per cell it covers, and its
    badge's box (None without a badge)."""

    index: int  # into scene.pieces
    boxes: tuple[tuple[float, float, float, float], ...]
    badge: tuple[float, float, float, float] | None


def piece_boxes(scene: Scene, cell_px: int = 48, min_height: int | None = None) -> list[PieceBox]:
    """The layout :func:`render_frame` gives ``scene``'s pieces (before ``target_height``)."""
    layout = _layout(scene.board, int(cell_px), min_height)
    slots = layout_pieces(scene, layout)
    badges = badge_boxes(scene, slots, layout.scale)

    def final(box):
        return tuple(v / SUPERSAMPLE for v in box)

    return [
        PieceBox(
            slot.index,
            tuple(final(b) for b in slot.boxes()),
            final(badges[slot.index]) if slot.index in badges else None,
        )
        for slot in slots
    ]


def caption_lines(scene: Scene, cell_px: int = 48, min_height: int | None = None):
    """(lines, font, room) of the caption as drawn: each line measured with ``font`` is at
    most ``room`` canvas pixels wide (canvas = final frame x SUPERSAMPLE)."""
    layout = _layout(scene.board, int(cell_px), min_height)
    lines, size = _caption_lines(scene.caption, layout)
    room = layout.width * SUPERSAMPLE - 2 * panel_metrics(int(cell_px))["pad"] * SUPERSAMPLE
    return lines, font(size), room
