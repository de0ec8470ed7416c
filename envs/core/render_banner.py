"""A banner over the board: the title of a game on its first frame, the result on its last.

The lines are drawn large, centred on the board in a darkened box that lets the position show
around it; a line naming a seat (``player_1: ...``) gets that seat's colour swatch, so the
title says which colour plays which agent.
"""

from __future__ import annotations

import re

from .drawing import SUPERSAMPLE, TEXT, Canvas, font, panel_metrics, pil, text_bbox, text_width

_SEAT = re.compile(r"^player_(\d+)\b")
BANNER_SCALE = 1.5  # banner text against the caption's
SHADE = 0.78  # how far the box darkens the board under it


def draw_banner(canvas: Canvas, lines: list[str]) -> None:
    """``lines`` centred over the board (the first one larger: the title or the result)."""
    if not lines or canvas.image is None:
        return
    layout, s = canvas.layout, SUPERSAMPLE
    m = panel_metrics(layout.cell_px)
    swatch_room = m["pad"] * s  # between a seat's swatch and its text

    def measured(size: float):
        """The lines' fonts (the first larger) and widths, a seat's swatch included."""
        fonts = [font(size * 1.25)] + [font(size)] * (len(lines) - 1)
        widths = [
            text_width(fnt, line) + (size * 0.8 + swatch_room if _SEAT.match(line) else 0)
            for line, fnt in zip(lines, fonts)
        ]
        return fonts, widths

    size = m["caption"] * s * BANNER_SCALE
    fonts, widths = measured(size)
    # a box no wider than the board: the text shrinks (not below the caption's size) to fit
    room = layout.board_right * 0.9
    while max(widths) > room and size > m["caption"] * s:
        size *= max(0.8, room / max(widths))
        fonts, widths = measured(size)
    swatch = size * 0.8
    step = [getattr(fnt, "size", size) * 1.35 for fnt in fonts]
    pad = m["pad"] * s * 1.5
    box_w, box_h = max(widths) + 2 * pad, sum(step) + 2 * pad
    cx = layout.board_right / 2
    cy = layout.caption_h + layout.body_h / 2
    box = (int(cx - box_w / 2), int(cy - box_h / 2), int(cx + box_w / 2), int(cy + box_h / 2))
    image = pil()[0]
    region = canvas.image.crop(box)
    canvas.image.paste(
        image.blend(region, image.new("RGB", region.size, (0, 0, 0)), SHADE), box[:2]
    )
    canvas.draw.rectangle(box, outline=TEXT, width=max(2, s))
    y = box[1] + pad
    for line, fnt, height, width in zip(lines, fonts, step, widths):
        x = cx - width / 2
        seat = _SEAT.match(line)
        if seat:
            colour = canvas.seat_colors[int(seat.group(1)) % len(canvas.seat_colors)]
            _, top, _, bottom = text_bbox(fnt, "Hg")
            mid = y + (top + bottom) / 2
            canvas.draw.rectangle(
                [x, mid - swatch / 2, x + swatch, mid + swatch / 2], fill=colour, outline=(0, 0, 0)
            )
            x += swatch + swatch_room
        canvas.draw.text((x, y), line, font=fnt, fill=TEXT)
        y += height
