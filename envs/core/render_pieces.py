"""What lies on the board of a frame: pieces (laid out side by side when they share a
cell), their badges and tags, cell marks and icons, highlights, walls on edges, paths and
the last move (its start and end squares, lightened under the pieces). Every drawing step
notes the glyph id of what it drew in ``Canvas.drawn`` (ids as in :mod:`envs.core.legend`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from .board import Topology
from .drawing import (
    BLACK,
    FALLEN,
    HIGHLIGHT,
    LAST_MOVE,
    MONSTER_COLOR,
    NEUTRAL_COLOR,
    RGB,
    SUPERSAMPLE,
    TOKEN_COLOR,
    Canvas,
    cell_polygon,
    contrast,
    draw_centered,
    fit_text,
    fitting_font,
    int_rgb,
    mix,
    text_bbox,
)
from .glyphs import (
    MONSTER_RING,
    SPIKE,
    badge_box,
    draw_badge,
    draw_discs,
    draw_label_box,
    draw_mark,
    draw_path,
    draw_path_ring,
    draw_tag,
    draw_tile,
    draw_wall,
    path_style,
)
from .icons import ICONS, draw_icon
from .scene import Piece, Scene, key_covers, key_entries

# Where pieces sit in a cell, by how many share it: (dx, dy) in board units and the disc
# radius. Hex cells are narrower at the top and bottom, hence their tighter grids.
SINGLE_RADIUS = 0.4  # drawn extent, outline included
SINGLE_MONSTER = 0.44  # its spikes included: the disc inside is about a figure's size
SLOTS: dict[tuple[bool, int], tuple[tuple[tuple[float, float], ...], float]] = {
    # as large as the cell allows without two pieces touching: two sharing a square reach
    # a little past its sides (never into a neighbour's piece) rather than shrink
    (False, 2): (((-0.27, 0.04), (0.27, 0.04)), 0.26),
    (True, 2): (((-0.27, 0.04), (0.27, 0.04)), 0.26),
    (False, 3): (((-0.24, -0.2), (0.24, -0.2), (0.0, 0.25)), 0.22),
    (True, 3): (((-0.22, -0.16), (0.22, -0.16), (0.0, 0.24)), 0.2),
    (False, 4): (((-0.24, -0.23), (0.24, -0.23), (-0.24, 0.24), (0.24, 0.24)), 0.22),
    (True, 4): (((-0.21, -0.19), (0.21, -0.19), (-0.21, 0.22), (0.21, 0.22)), 0.19),
}
TOKEN_SCALE = 0.72  # a token's half size against a figure's radius in the same slot
BADGE_SIZE = 0.26  # badge text, board units, for a lone piece; shared cells scale it down
MIN_BADGE = 6 * SUPERSAMPLE  # canvas pixels: the smallest badge text still read in a video
KIND_ORDER = {"figure": 0, "monster": 0, "token": 1}  # figures first: the top slots


@dataclass
class Slot:
    """Where one piece is drawn: a centre per cell it covers (its own first) and its size
    (disc radius or token half-width), canvas pixels."""

    index: int  # into scene.pieces
    centres: list[tuple[float, float]]
    size: float
    grouped: bool
    below: bool = False  # in the lower row of a shared cell: its badge goes below it

    def boxes(self) -> list[tuple[float, float, float, float]]:
        r = self.size
        return [(x - r, y - r, x + r, y + r) for x, y in self.centres]


def _offsets(n: int, hexagonal: bool) -> tuple[tuple[tuple[float, float], ...], float]:
    if n == 1:
        return ((0.0, 0.0),), SINGLE_RADIUS
    if (hexagonal, n) in SLOTS:
        return SLOTS[(hexagonal, n)]
    cols = math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    box = 0.72 if hexagonal else 0.86
    step = box / cols
    spots = tuple(
        ((c - (cols - 1) / 2) * step, (r - (rows - 1) / 2) * step)
        for r in range(rows)
        for c in range(cols)
    )[:n]
    return spots, 0.44 * step


def layout_pieces(scene: Scene, layout) -> list[Slot]:
    """Each piece's place: alone it fills its cell; pieces sharing a cell (heroes passing
    one another, a carried figure) are drawn side by side, smaller, never on top of one
    another. A multi-space piece takes a slot in each cell it covers."""
    board = scene.board
    s = layout.scale
    at: dict[int, list[int]] = {}
    cells_of: list[list[int]] = []
    for i, piece in enumerate(scene.pieces):
        cells = [c for c in dict.fromkeys((piece.cell, *piece.cells)) if 0 <= c < board.n_cells]
        if not (0 <= piece.cell < board.n_cells):
            cells = []
        cells_of.append(cells)
        for cell in cells:
            at.setdefault(cell, []).append(i)
    hexagonal = board.topology is Topology.HEX
    place: dict[tuple[int, int], tuple[float, float, float, bool]] = {}
    below: set[int] = set()
    for cell, group in at.items():
        group.sort(key=lambda i: (KIND_ORDER.get(scene.pieces[i].kind, 0), i))
        spots, radius = _offsets(len(group), hexagonal)
        cx, cy = layout.px(board, cell)
        for i, (dx, dy) in zip(group, spots):
            place[(i, cell)] = (cx + dx * s, cy + dy * s, radius * s, len(group) > 1)
            if dy > 0.1 and cell == scene.pieces[i].cell:
                below.add(i)
    slots = []
    for i, cells in enumerate(cells_of):
        if not cells:
            continue
        places = [place[(i, c)] for c in cells]
        radius = min(r for _, _, r, _ in places)
        if scene.pieces[i].kind == "monster" and not places[0][3]:
            radius = SINGLE_MONSTER * s
        if scene.pieces[i].kind == "token":
            radius *= TOKEN_SCALE if places[0][3] else 0.67
        slots.append(
            Slot(
                i, [(x, y) for x, y, _, _ in places], radius, any(g for *_, g in places), i in below
            )
        )
    return slots


def badge_spot(slot: Slot, piece: Piece, scale: float) -> tuple[float, float, float]:
    """(x, y, text size) of a piece's badge. Alone: over its top-right edge, at most a
    cell wide. Sharing a cell: centred over it (under it in the lower row), at most about
    its own width, so that it covers none of its neighbours."""
    x, y = slot.centres[0]
    text = piece.value or ""
    if not slot.grouped:
        size = _badge_size(text, BADGE_SIZE * scale, 1.0 * scale)
        if piece.kind == "token":
            return x + slot.size, y - slot.size, size * 0.8
        return x + slot.size * 0.72, y - slot.size * 0.95, size
    size = _badge_size(text, 0.9 * slot.size, 2.15 * slot.size)
    box = badge_box(0.0, 0.0, text, size)
    shift = slot.size + (box[3] - box[1]) * 0.35
    return x, y + shift if slot.below else y - shift, size


@functools.lru_cache(maxsize=1024)
def _badge_size(text: str, size: float, max_width: float) -> float:
    """The largest text size up to ``size`` whose badge fits ``max_width`` (not below a
    readable minimum: a long badge may then be wider)."""
    while size > MIN_BADGE:
        box = badge_box(0.0, 0.0, text, size)
        if box[2] - box[0] <= max_width:
            break
        size -= 1
    return max(size, MIN_BADGE)


def badge_boxes(scene: Scene, slots: list[Slot], scale: float) -> dict[int, tuple]:
    out = {}
    for slot in slots:
        piece = scene.pieces[slot.index]
        if piece.value:
            x, y, size = badge_spot(slot, piece, scale)
            out[slot.index] = badge_box(x, y, piece.value, size)
    return out


def _fill(piece: Piece, canvas: Canvas) -> RGB:
    if piece.color is not None and not (piece.kind == "token" and piece.icon in ICONS):
        return tuple(int(c) for c in piece.color)  # type: ignore[return-value]
    seat = canvas.seat_color(piece.owner)
    if seat is not None:
        return seat
    return {"monster": MONSTER_COLOR, "token": TOKEN_COLOR}.get(piece.kind, NEUTRAL_COLOR)


def _labelled_token_icon(scene: Scene, piece: Piece) -> bool:
    """Whether an icon token also shows its label: when the key names that label, the
    label tells tokens of one icon apart; otherwise the label is the legend's name."""
    return any(key_covers(k, piece.label) for k, _, _ in key_entries(scene))


def _draw_token(canvas: Canvas, scene: Scene, piece: Piece, slot: Slot) -> None:
    x, y = slot.centres[0]
    half = slot.size
    if piece.icon in ICONS:
        tint = int_rgb(piece.color) if piece.color is not None else None
        draw_tile(canvas.draw, x, y, half, piece.icon, tint, canvas.seat_color(piece.owner))
        canvas.drawn.add(f"icon:{piece.icon}")
        if piece.label and _labelled_token_icon(scene, piece):
            fnt = fitting_font(piece.label, 2.2 * half, 0.75 * half, 0.45 * half)
            _outlined_text(canvas.draw, (x, y + half * 0.95), piece.label, fnt)
            canvas.drawn.add(f"label:{piece.label}")
        return
    draw_label_box(canvas.draw, x, y, half, piece.label, _fill(piece, canvas))
    if piece.label:
        canvas.drawn.add(f"label:{piece.label}")


def _outlined_text(draw, xy, text: str, fnt) -> None:
    left, top, right, bottom = text_bbox(fnt, text)
    x, y = xy[0] - (left + right) / 2, xy[1] - (top + bottom) / 2
    draw.text(
        (x, y),
        text,
        font=fnt,
        fill=(255, 255, 255),
        stroke_width=max(1, SUPERSAMPLE),
        stroke_fill=BLACK,
    )


def _draw_figure(canvas: Canvas, scene: Scene, piece: Piece, slot: Slot) -> None:
    s = canvas.layout.scale
    monster = piece.kind == "monster"
    outline = max(2, round(s * 0.04 * (0.7 if slot.grouped else 1.0)))
    # The slot is the whole drawn extent: the outline, and a monster's spikes, inside it.
    radius = slot.size / SPIKE if monster else slot.size - outline
    fill = _fill(piece, canvas)
    draw_discs(
        canvas.draw,
        slot.centres,
        radius,
        fill,
        MONSTER_RING if monster else BLACK,
        outline,
        spiky=monster,
    )
    if monster:
        canvas.drawn.add("shape:monster")
    centres = slot.centres
    # A multi-space figure is labelled across its whole body, where there is room.
    lx = sum(x for x, _ in centres) / len(centres)
    ly = sum(y for _, y in centres) / len(centres)
    room = 1.75 * radius + max(abs(x - lx) for x, _ in centres) * 2
    if piece.label:
        fnt = fitting_font(piece.label, room, 0.85 * radius, 0.4 * radius)
        draw_centered(
            canvas.draw, (lx, ly), fit_text(fnt, piece.label, room * 1.05), fnt, contrast(fill)
        )
        canvas.drawn.add(f"label:{piece.label}")
    elif piece.icon and draw_icon(canvas.draw, piece.icon, lx, ly, radius * 0.7):
        canvas.drawn.add(f"icon:{piece.icon}")


def _draw_tags(canvas: Canvas, piece: Piece, slot: Slot) -> None:
    x, y = slot.centres[0]
    r = max(3.0 * SUPERSAMPLE, slot.size * 0.36)
    for k, tag in enumerate(piece.tags):
        tx = x - slot.size * 0.75 + k * 2.1 * r
        draw_tag(canvas.draw, tx, y + slot.size * 0.8, r, tag)
        canvas.drawn.add(f"tag:{tag}")


def draw_pieces(canvas: Canvas, scene: Scene) -> list[Slot]:
    slots = layout_pieces(scene, canvas.layout)
    for slot in slots:
        piece = scene.pieces[slot.index]
        if piece.kind == "token":
            _draw_token(canvas, scene, piece, slot)
        else:
            _draw_figure(canvas, scene, piece, slot)
    for slot in slots:  # badges and tags last: a neighbour's disc never covers them
        piece = scene.pieces[slot.index]
        if piece.tags:
            _draw_tags(canvas, piece, slot)
        if piece.value:
            x, y, size = badge_spot(slot, piece, canvas.layout.scale)
            kind = piece.kind if piece.kind in ("monster", "token") else "figure"
            draw_badge(canvas.draw, x, y, piece.value, size, kind)
            canvas.drawn.add(f"badge:{kind}")
    return slots


# -- the ground's decorations -----------------------------------------------------------------
def draw_highlights(canvas: Canvas, scene: Scene) -> None:
    board, s = scene.board, canvas.layout.scale
    width = max(3, round(s * 0.07))
    for cell in scene.highlight:
        if 0 <= cell < board.n_cells:
            canvas.draw.polygon(
                cell_polygon(board, canvas.layout, cell, inset=0.06), outline=HIGHLIGHT, width=width
            )
            canvas.drawn.add("highlight")


def draw_cell_icons(canvas: Canvas, scene: Scene) -> None:
    """Ground features (stairs, ladders): large on a free cell, in its corner under a piece."""
    board, s = scene.board, canvas.layout.scale
    taken = {p.cell for p in scene.pieces} | {c for p in scene.pieces for c in p.cells}
    for cell, name in scene.cell_icons.items():
        if not (0 <= cell < board.n_cells) or name not in ICONS:
            continue
        cx, cy = canvas.layout.px(board, cell)
        if cell in taken:
            draw_icon(canvas.draw, name, cx + 0.32 * s, cy + 0.3 * s, 0.15 * s)
        else:
            draw_icon(canvas.draw, name, cx, cy, 0.3 * s)
        canvas.drawn.add(f"icon:{name}")


def draw_marks(canvas: Canvas, scene: Scene, slots: list[Slot]) -> None:
    board, s = scene.board, canvas.layout.scale
    # In a corner clear of a lone piece's badge (top right) and of the badges over the top
    # row of a shared cell: top left, bottom left in a shared cell.
    shared = {scene.pieces[slot.index].cell for slot in slots if slot.grouped}
    hexagonal = board.topology is Topology.HEX
    for cell, mark in scene.cell_marks.items():
        if not (0 <= cell < board.n_cells) or not mark:
            continue
        dx, dy = (-0.22, -0.3) if hexagonal else (-0.38, -0.38)
        cx, cy = canvas.layout.px(board, cell)
        draw_mark(
            canvas.draw, cx + dx * s, cy + (-dy if cell in shared else dy) * s, mark, s * 0.18
        )
        canvas.drawn.add(f"mark:{mark}")


# Square sides as (from corner, to corner) in half-cell units: N, E, S, W.
SIDE_CORNERS = (((-1, -1), (1, -1)), ((1, -1), (1, 1)), ((-1, 1), (1, 1)), ((-1, -1), (-1, 1)))


def draw_edges(canvas: Canvas, scene: Scene) -> None:
    board, s = scene.board, canvas.layout.scale
    if board.topology is Topology.HEX:
        return  # sides are defined for square cells only
    width = max(3 * SUPERSAMPLE, round(s * 0.11))
    for edge in scene.edges:
        if not (0 <= edge.cell < board.n_cells and 0 <= edge.side < 4):
            continue
        cx, cy = canvas.layout.px(board, edge.cell)
        (ax, ay), (bx, by) = SIDE_CORNERS[edge.side]
        draw_wall(
            canvas.draw,
            (cx + ax * s / 2, cy + ay * s / 2),
            (cx + bx * s / 2, cy + by * s / 2),
            edge.kind,
            width,
        )
        canvas.drawn.add(f"edge:{edge.kind}")


def draw_paths(canvas: Canvas, scene: Scene) -> None:
    board, s = scene.board, canvas.layout.scale
    for path in scene.paths:
        cells = [c for c in path.cells if 0 <= c < board.n_cells]
        if len(cells) < 2:
            continue
        style = path_style(path.kind)
        draw_path(canvas.draw, [canvas.layout.px(board, c) for c in cells], style, s)
        canvas.drawn.add(f"path:{path.kind}")
        for cell in path.marks:
            if 0 <= cell < board.n_cells:
                x, y = canvas.layout.px(board, cell)
                draw_path_ring(canvas.draw, x, y, 0.2 * s, style)
                canvas.drawn.add(f"path_mark:{path.kind}")


def draw_fallen(canvas: Canvas, scene: Scene) -> None:
    """A red cross on each square where a figure fell this decision (KO'd, destroyed,
    defeated), under whatever stands there now: the figure vanished, the cross says why."""
    board, s, draw = scene.board, canvas.layout.scale, canvas.draw
    width = max(4, round(s * 0.1))
    for cell in scene.fallen:
        if not 0 <= cell < board.n_cells:
            continue
        x, y = canvas.layout.px(board, cell)
        r = 0.3 * s
        for (x0, y0), (x1, y1) in (
            ((x - r, y - r), (x + r, y + r)),
            ((x - r, y + r), (x + r, y - r)),
        ):
            draw.line([(x0, y0), (x1, y1)], fill=BLACK, width=width + 2 * SUPERSAMPLE)
            draw.line([(x0, y0), (x1, y1)], fill=FALLEN, width=width)
        canvas.drawn.add("fallen")


def draw_last_move(canvas: Canvas, scene: Scene) -> None:
    """The last move as its start and end squares, lightened under the pieces (an arrow on
    top covered the badges): the start faintly, the end strongly and outlined; a move in
    place lightens one square."""
    board, s, draw = scene.board, canvas.layout.scale, canvas.draw
    a, b = scene.arrow  # type: ignore[misc]
    if not (0 <= a < board.n_cells and 0 <= b < board.n_cells):
        return
    canvas.drawn.add("arrow")
    width = max(3, round(s * 0.07))
    for cell, amount, outline in ((a, 0.3, False), (b, 0.55, True)):
        if cell == a and a == b:
            continue
        polygon = cell_polygon(board, canvas.layout, cell, inset=0.03)
        ground = _ground(canvas, cell)
        draw.polygon(polygon, fill=mix(ground, LAST_MOVE, amount))
        if outline:
            draw.polygon(polygon, outline=LAST_MOVE, width=width)


def _ground(canvas: Canvas, cell: int) -> RGB:
    """The colour the board shows at a cell's centre (terrain and level shading)."""
    x, y = canvas.layout.px(canvas.board, cell)
    if canvas.image is None:
        return NEUTRAL_COLOR
    pixel = canvas.image.getpixel((int(x), int(y)))
    if not isinstance(pixel, tuple):  # a one-band image: grey
        return (int(pixel or 0),) * 3
    red, green, blue = (int(v) for v in pixel[:3])
    return red, green, blue
