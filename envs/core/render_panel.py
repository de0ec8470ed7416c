"""The text of a frame: the caption strip on top (wrapped onto up to three lines) and the
side panel: dice in labelled groups drawn as faces, the status lines, the key from labels
to names, and the legend. Sizes come from the layout only, so text never changes a frame's
size; what does not fit is shrunk a little, then cut.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict

from .dice_faces import die_width, draw_die
from .drawing import (
    CAPTION_BG,
    DIM_TEXT,
    PANEL_BG,
    SUPERSAMPLE,
    TEXT,
    Canvas,
    fit_text,
    font,
    panel_metrics,
    pil,
    text_bbox,
    text_width,
    wrap,
)
from .legend import LegendEntry, legend_for
from .scene import Scene, dice_groups, key_entries

_BLOCKS: OrderedDict = OrderedDict()  # drawn key-and-legend blocks, by what they show
_SEAT_PREFIX = re.compile(r"^\s*(?:player_?|p)(\d+)\b", re.IGNORECASE)
LINE_SPACING = 1.18  # caption line height / font size
KEY_SCALES = (0.9, 0.8, 0.7, 0.6)  # key and legend text against the status text
NEUTRAL_SWATCH = (120, 120, 130)
MIN_KEY_TEXT = 11  # final-frame pixels
TEXT_PER_HEIGHT = 34  # panel text is at most the frame's height / this
DIM_FACE = 0.6  # how far a die that does not count fades into the panel


# -- caption ----------------------------------------------------------------------------------
def caption_lines(caption: str, layout) -> tuple[list[str], int]:
    """The caption's lines and font size (canvas pixels): always the full size, wrapped onto
    up to three lines of the strip; the third is cut only when even that is not enough."""
    s = SUPERSAMPLE
    m = panel_metrics(layout.cell_px)
    size, room = m["caption"] * s, layout.width * s - 2 * m["pad"] * s
    fnt = font(size)
    for n in (1, 2, 3):
        lines = wrap(fnt, caption, room, n)
        if lines is not None:
            return lines, size
    words, lines = caption.split(" "), []
    while words and len(lines) < 3:  # greedy fill, the last line cut with '...'
        line = words.pop(0)
        while words and text_width(fnt, f"{line} {words[0]}") <= room:
            line += " " + words.pop(0)
        lines.append(line)
    if words:
        lines[-1] = fit_text(fnt, lines[-1] + " " + " ".join(words), room)
    return [fit_text(fnt, line, room) for line in lines], size


def draw_caption(canvas: Canvas, caption: str, subtitle: str = "") -> None:
    """What just happened in large type, then (``subtitle``) what comes next, smaller and
    dimmer, on one line under it; a caption that needs a third line takes its place."""
    layout, draw, s = canvas.layout, canvas.draw, SUPERSAMPLE
    draw.rectangle([0, 0, layout.width * s, layout.caption_h], fill=CAPTION_BG)
    m = panel_metrics(layout.cell_px)
    pad = m["pad"] * s
    lines, size = caption_lines(caption, layout)
    fnt = font(size)
    _, top, _, _ = text_bbox(fnt, "Hg")
    step = size * LINE_SPACING
    y = pad / 2 - top
    for k, line in enumerate(lines):
        draw.text((pad, y + k * step), line, font=fnt, fill=TEXT)
    if subtitle and len(lines) <= 2:
        small = font(m["subtitle"] * s)
        _, _, _, small_bottom = text_bbox(small, "Hg")
        bottom = layout.caption_h - pad / 2 - small_bottom
        line = fit_text(small, subtitle, layout.width * s - 2 * pad)
        draw.text((pad, bottom), line, font=small, fill=DIM_TEXT)


# -- panel --------------------------------------------------------------------------------------
def _swatch(draw, x: float, y: float, size: float, colour) -> None:
    draw.rectangle([x, y, x + size, y + size], fill=colour, outline=(0, 0, 0))


def _cards(canvas: Canvas, scene: Scene, x: float, y: float, inner: float, m) -> float:
    """The figure cards from ``y`` (see :class:`~envs.core.scene.FigureCard`): a header with
    the owner's swatch, the stats as large numbers over their names, then the lines; returns
    the height drawn."""
    draw, start = canvas.draw, y
    fnt, small = font(m["text"]), font(m["text"] * 0.75)
    big = font(m["text"] * 1.7)
    for card in scene.cards:
        tx = x
        colour = canvas.seat_color(card.owner)
        if colour is not None:
            _swatch(draw, x, y + m["line"] * 0.15, m["text"] * 0.8, colour)
            tx += m["text"] * 0.8 + m["pad"] // 2
        header = f"{card.role}: {card.title}" if card.role else card.title
        draw.text((tx, y), fit_text(fnt, header, inner - (tx - x)), font=fnt, fill=TEXT)
        y += m["line"]
        if card.stats:
            width = inner / len(card.stats)
            for k, (name, value) in enumerate(card.stats):
                cx = x + width * (k + 0.5)
                draw.text((cx, y), str(value), font=big, fill=TEXT, anchor="ma")
                draw.text(
                    (cx, y + m["text"] * 1.85),
                    fit_text(small, name, width),
                    font=small,
                    fill=DIM_TEXT,
                    anchor="ma",
                )
            y += m["text"] * 1.85 + m["line"] * 0.8
        for line in card.lines:
            for part in wrap(fnt, line, inner, 2) or [fit_text(fnt, line, inner)]:
                draw.text((x, y), part, font=fnt, fill=DIM_TEXT)
                y += m["line"]
        y += m["pad"] // 2
    return y - start


def _dim(canvas: Canvas, box: tuple[float, float, float, float]) -> None:
    """Fade what is drawn in ``box`` most of the way into the panel: a die that does not
    count stays readable but steps back."""
    if canvas.image is None:
        return
    region = tuple(int(round(v)) for v in box)
    region = (region[0], region[1], region[2] + 1, region[3] + 1)
    picture = canvas.image.crop(region)
    flat = pil()[0].new("RGB", picture.size, PANEL_BG)
    canvas.image.paste(pil()[0].blend(picture, flat, DIM_FACE), region[:2])


def _dice(canvas: Canvas, scene: Scene, x: float, y: float, inner: float, m) -> float:
    """Draw the dice groups from ``y``: per group its label, then its dice with the result
    in words beside them (below them when the dice leave no room); returns the height."""
    draw = canvas.draw
    fnt = font(m["text"])
    groups = dice_groups(scene)
    if not groups:
        draw.text((x, y), "no dice this step", font=fnt, fill=(130, 135, 150))
        return m["line"]
    die, gap = m["die"], m["pad"] // 2
    start = y
    for group in groups:
        tx = x
        colour = canvas.seat_color(group.owner)
        if colour is not None:
            _swatch(draw, x, y + m["line"] * 0.15, m["text"] * 0.8, colour)
            tx += m["text"] * 0.8 + m["pad"] // 2
        draw.text((tx, y), fit_text(fnt, group.label, inner - (tx - x)), font=fnt, fill=DIM_TEXT)
        y += m["line"]
        faces = [str(f) for f in group.faces]
        kinds = [group.kind] * len(faces)
        spots = _place([min(inner, die_width(group.kind, f, die)) for f in faces], x, inner, gap)
        keep = len(faces)
        while spots and spots[-1][0] > 1:  # two rows at most: the last die counts the rest
            keep -= 1
            faces, kinds = faces[:keep] + [f"+{len(group.faces) - keep}"], kinds[:keep] + ["text"]
            spots = _place(
                [min(inner, die_width(k, f, die)) for k, f in zip(kinds, faces)], x, inner, gap
            )
        for k, (face, kind, (row, dx, w)) in enumerate(zip(faces, kinds, spots)):
            top = y + row * (die + gap)
            draw_die(draw, kind, face, dx, top, die, w, SUPERSAMPLE)
            if k < len(group.counted) and not group.counted[k] and kind == group.kind:
                _dim(canvas, (dx, top, dx + w, top + die))
        rows = spots[-1][0] + 1 if spots else 0
        if group.result_text:
            row, dx, w = spots[-1] if spots else (0, x - gap, 0)
            rx = dx + w + gap * 2
            lines = wrap(fnt, group.result_text, x + inner - rx, 2) if rx < x + inner else None
            if lines is None:  # no room beside the dice: a line of its own below them
                lines, rx, row = [fit_text(fnt, group.result_text, inner)], x, rows
                rows += 1
            ty = y + row * (die + gap) + die / 2 - len(lines) * m["line"] / 2
            for k, line in enumerate(lines):
                draw.text((rx, ty + k * m["line"]), line, font=fnt, fill=TEXT)
        y += rows * (die + gap)
    return y - start


def _place(widths: list[float], x: float, inner: float, gap: float):
    """(row, x, width) of each die: left to right, wrapping onto new rows."""
    spots, dx, row = [], x, 0
    for w in widths:
        if dx + w > x + inner and dx > x:
            row, dx = row + 1, x
        spots.append((row, dx, w))
        dx += w + gap
    return spots


def _flow(entries: list[float], columns: int, col_w: float) -> list[tuple[int, int]]:
    """(row, column) of each entry of width ``entries[i]``: column by column in rows, an
    entry too wide for one column taking a whole row."""
    spots, row, col = [], 0, 0
    for width in entries:
        if width > col_w and columns > 1:
            if col:
                row, col = row + 1, 0
            spots.append((row, 0))
            row, col = row + 1, 0
            continue
        spots.append((row, col))
        col += 1
        if col >= columns:
            row, col = row + 1, 0
    return spots


def _key_block(
    canvas: Canvas, scene: Scene, legend: list[LegendEntry], inner: float, m, scale: float
):
    """The key's and legend's cells: (rows, drawer) for a given text scale."""
    size, line = m["text"] * scale, m["line"] * scale
    fnt = font(size)
    sw = line * 0.8  # a legend picture is sw high and 1.6 sw wide
    gap = m["pad"] * 0.5
    col_w = (inner - gap) / 2
    key = key_entries(scene)
    key_w = [sw + gap + text_width(fnt, f"{label}  {name}") for label, name, _ in key]
    leg_w = [e.width * sw + gap + text_width(fnt, e.text) for e in legend]
    key_spots, leg_spots = _flow(key_w, 2, col_w), _flow(leg_w, 2, col_w)
    key_rows = key_spots[-1][0] + 1 if key_spots else 0
    leg_rows = leg_spots[-1][0] + 1 if leg_spots else 0
    sep = m["pad"] * 0.5 if key_rows and leg_rows else 0

    def draw_block(draw, x: float, y: float) -> None:
        for (label, name, owner), (row, col), width in zip(key, key_spots, key_w):
            lx, ly = x + col * (col_w + gap), y + row * line
            span = inner if width > col_w else col_w
            _swatch(
                draw, lx, ly + line * 0.2, sw * 0.75, canvas.seat_color(owner) or NEUTRAL_SWATCH
            )
            tx = lx + sw + gap
            draw.text((tx, ly), label, font=fnt, fill=TEXT)
            nx = tx + text_width(fnt, label + "  ")
            draw.text((nx, ly), fit_text(fnt, name, lx + span - nx), font=fnt, fill=DIM_TEXT)
        top = y + key_rows * line + sep
        if sep:
            draw.line(
                [(x, top - sep / 2), (x + inner, top - sep / 2)],
                fill=(70, 74, 86),
                width=SUPERSAMPLE,
            )
        for entry, (row, col), width in zip(legend, leg_spots, leg_w):
            lx, ly = x + col * (col_w + gap), top + row * line
            span = inner if width > col_w else col_w
            entry.swatch(draw, lx, ly + line * 0.08, lx + entry.width * sw, ly + line * 0.08 + sw)
            tx = lx + entry.width * sw + gap
            draw.text(
                (tx, ly), fit_text(fnt, entry.text, lx + span - tx), font=fnt, fill=(205, 205, 210)
            )

    height = (key_rows + leg_rows) * line + sep

    def draw_at(x: float, y: float) -> None:
        # Drawn once and pasted: the key and legend rarely change from frame to frame, and
        # their text is most of the panel's drawing time.
        what = (
            tuple(key),
            tuple((e.glyph, e.text, e.width, e.detail) for e in legend),
            tuple(canvas.seat_colors),
            size,
            line,
            inner,
            height,
            gap,
        )
        tile = _BLOCKS.get(what)
        if tile is None:
            tile = pil()[0].new("RGB", (math.ceil(inner) + 2, math.ceil(height) + 2), PANEL_BG)
            draw_block(pil()[1].Draw(tile), 0, 0)
            _BLOCKS[what] = tile
            while len(_BLOCKS) > 32:
                _BLOCKS.popitem(last=False)
        assert canvas.image is not None, "a frame's canvas (render.py) always has its image"
        canvas.image.paste(tile, (int(x), int(y)))

    return height, draw_at


def _status_rows(canvas: Canvas, lines: list[str], x: float, right: float, m):
    """(x, text, swatch colour) per drawn row: a line naming a seat ("P1 ...",
    "player_1: ...") gets that seat's swatch; a long line wraps once, indented."""
    fnt = font(m["text"])
    swatch = m["text"] * 0.8
    rows = []
    for line in lines:
        tx, colour = x, None
        match = _SEAT_PREFIX.match(line)
        if match:
            colour = canvas.seat_colors[int(match.group(1)) % len(canvas.seat_colors)]
            tx = x + swatch + m["pad"] // 2
        indent = len(line) - len(line.lstrip(" "))
        parts = wrap(fnt, line.strip(), right - tx, 1) or wrap(
            fnt, line.strip(), right - tx - swatch, 2
        )
        if parts is None:
            parts = [fit_text(fnt, line.strip(), right - tx)]
        lead = " " * indent
        rows.append((tx, lead + parts[0], colour))
        rows += [(tx + swatch, lead + part, None) for part in parts[1:]]
    return rows


def draw_panel(canvas: Canvas, scene: Scene) -> list[LegendEntry]:
    """Dice, figure cards, status, key and legend; returns the legend drawn."""
    s = SUPERSAMPLE
    layout, draw = canvas.layout, canvas.draw
    m = {k: v * s for k, v in panel_metrics(layout.cell_px).items()}
    # Text sized by the cell gets large on small boards: a cap by the frame's height keeps
    # a 720p panel at about 21 px text, with room for more lines.
    cap = max(11 * s, layout.height * s / TEXT_PER_HEIGHT)
    if m["text"] > cap:
        m["line"] = round(m["line"] * cap / m["text"])
        m["text"] = round(cap)
    x0, y0 = layout.board_right, layout.caption_h
    x1, y1 = layout.width * s, layout.height * s
    draw.rectangle([x0, y0, x1, y1], fill=PANEL_BG)
    inner = x1 - x0 - 2 * m["pad"]
    y: float  # grows by the dice block's height, a float
    x, y = x0 + m["pad"], y0 + m["pad"]
    reserve = max(1, scene.dice_slots) * (m["line"] + m["die"] + m["pad"] // 2)
    y += max(reserve, _dice(canvas, scene, x, y, inner, m)) + m["pad"] // 2
    y += _cards(canvas, scene, x, y, inner, m)
    legend = legend_for(scene)
    lines = list(scene.status_lines)
    bottom = y1 - m["pad"]
    # The key and legend must show whole: they shrink (not below a readable size) while
    # that lets more status lines show.
    rows = _status_rows(canvas, lines, x, x1 - m["pad"], m)
    scales = [k for k in KEY_SCALES if m["text"] * k >= MIN_KEY_TEXT * s] or [KEY_SCALES[0]]
    blocks = [_key_block(canvas, scene, legend, inner, m, k) for k in scales]

    def shown(block) -> int:
        return min(len(rows), max(0, int((bottom - block[0] - m["pad"] // 2 - y) // m["line"])))

    height, draw_block = max(blocks, key=shown)  # the first (largest) of the best
    draw_block(x, bottom - height)
    room = max(0, int((bottom - height - m["pad"] // 2 - y) // m["line"]))
    if len(rows) > room:
        cut = f"... (+{len(rows) - room + 1} more lines)"
        rows = rows[: max(0, room - 1)] + [(x, cut, None)] if room else []
    fnt = font(m["text"])
    swatch = m["text"] * 0.8
    for tx, text, colour in rows:
        if colour is not None:
            _swatch(draw, x, y + m["line"] * 0.15, swatch, colour)
        draw.text((tx, y), text, font=fnt, fill=TEXT)
        y += m["line"]
    return legend
