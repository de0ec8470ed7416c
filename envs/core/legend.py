"""The legend of a frame: one entry per kind of glyph the scene puts on the board.

:func:`legend_for` works from the scene alone; the renderer notes what it actually drew
(``Canvas.drawn``) with the same glyph ids, so a test can check that nothing is drawn
without a line that explains it. Glyph ids:

``terrain:<code>``, ``levels``, ``edge:wall`` / ``edge:broken_wall``, ``icon:<name>``,
``mark:<text>``, ``highlight``, ``arrow``, ``fallen``, ``path:<kind>``, ``path_mark:<kind>``,
``shape:monster``, ``badge:<piece kind>``, ``tag:<name>``, and ``label:<text>`` (named by
the scene's key, drawn in the panel, not here).

Texts come from the scene where only it knows the meaning (terrain names, badge meaning,
cell marks, key, highlight, arrow); a glyph it leaves unexplained gets no entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .board import Topology
from .drawing import (
    BLACK,
    DEFAULT_TERRAIN,
    FALLEN,
    HIGHLIGHT,
    LAST_MOVE,
    MONSTER_COLOR,
    RGB,
    draw_centered,
    font,
    int_rgb,
    mix,
)
from .glyphs import (
    MONSTER_RING,
    draw_badge,
    draw_discs,
    draw_mark,
    draw_path,
    draw_path_ring,
    draw_tag,
    draw_tile,
    draw_wall,
    path_style,
)
from .icons import ICON_NAMES, ICONS, draw_icon
from .scene import Scene, badge_meaning, key_covers, key_entries

Swatch = Callable[..., None]  # (draw, x0, y0, x1, y1): fills the entry's picture box


@dataclass(frozen=True)
class LegendEntry:
    glyph: str  # the glyph id it explains (see the module docstring)
    text: str
    swatch: Swatch
    width: float = 1.6  # the picture's width in picture heights
    detail: str = ""  # what else the picture shows (a badge's sample value)


def level_shade(base: RGB, level: int, lo: int, hi: int) -> RGB:
    """A cell's colour at ``level`` on a board whose levels span ``lo..hi``: lower darker,
    higher lighter, so height reads at a glance without numbers."""
    if hi <= lo:
        return base
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    t = (level - mid) / half
    return mix(base, (0, 0, 0), -t * 0.4) if t < 0 else mix(base, (255,) * 3, t * 0.3)


NUMBERED_LEVELS = 3  # from this many levels, shades alone blur: each space shows its number


def numbered_levels(board) -> bool:
    """Whether ``board``'s spaces show their level numbers (three levels or more)."""
    return len(np.unique(board.level[board.exists])) >= NUMBERED_LEVELS


def level_range(board) -> tuple[int, int]:
    """The lowest and highest level among ``board``'s spaces."""
    levels = board.level[board.exists]
    return (int(levels.min()), int(levels.max())) if levels.size else (0, 0)


def _common_terrain(scene: Scene) -> RGB:
    codes = scene.board.terrain[scene.board.exists]
    if not codes.size:
        return DEFAULT_TERRAIN
    code = int(np.bincount(codes.astype(np.int64) - codes.min()).argmax() + codes.min())
    return scene.terrain_colors.get(code, DEFAULT_TERRAIN)


# -- swatches -------------------------------------------------------------------------------
def _square(colour: RGB) -> Swatch:
    def swatch(draw, x0, y0, x1, y1):
        h = y1 - y0
        draw.rectangle([x0, y0, x0 + h, y1], fill=colour, outline=BLACK)

    return swatch


def _levels(base: RGB, lo: int, hi: int) -> Swatch:
    def swatch(draw, x0, y0, x1, y1):
        n = hi - lo + 1
        w = (x1 - x0) / n
        fnt = font((y1 - y0) * 0.7)
        for k in range(n):
            fill = level_shade(base, lo + k, lo, hi)
            box = [x0 + k * w, y0, x0 + (k + 1) * w, y1]
            draw.rectangle(box, fill=fill, outline=mix(fill, BLACK, 0.6))
            draw_centered(
                draw,
                ((box[0] + box[2]) / 2, (y0 + y1) / 2),
                str(lo + k),
                fnt,
                (0, 0, 0) if sum(fill) > 380 else (255, 255, 255),
            )

    return swatch


def _wall(kind: str) -> Swatch:
    def swatch(draw, x0, y0, x1, y1):
        h = y1 - y0
        draw.rectangle([x0, y0, x1, y1], fill=(200, 200, 190))
        draw_wall(draw, (x0 + h * 0.2, (y0 + y1) / 2), (x1 - h * 0.2, (y0 + y1) / 2), kind, h * 0.3)

    return swatch


def _icon(name: str, tint: RGB | None, tile: bool) -> Swatch:
    def swatch(draw, x0, y0, x1, y1):
        h = y1 - y0
        if tile:
            draw_tile(draw, x0 + h / 2, (y0 + y1) / 2, h / 2, name, tint)
        else:
            draw.rectangle([x0, y0, x0 + h, y1], fill=(200, 200, 190), outline=BLACK)
            draw_icon(draw, name, x0 + h / 2, (y0 + y1) / 2, h * 0.42, tint)

    return swatch


def _mark(text: str) -> Swatch:
    def swatch(draw, x0, y0, x1, y1):
        h = y1 - y0
        draw_mark(draw, x0 + h / 2, (y0 + y1) / 2, text, h * 0.6)

    return swatch


def _highlight(draw, x0, y0, x1, y1):
    h = y1 - y0
    draw.rectangle(
        [x0, y0, x0 + h, y1], fill=(200, 200, 190), outline=HIGHLIGHT, width=max(2, round(h * 0.14))
    )


def _fallen(draw, x0, y0, x1, y1):
    h = y1 - y0
    for a, b in (((x0, y0), (x0 + h, y1)), ((x0, y1), (x0 + h, y0))):
        draw.line([a, b], fill=FALLEN, width=max(2, round(h * 0.18)))


def _arrow(draw, x0, y0, x1, y1):
    """The last move's squares: the start faintly lightened, the end strongly and outlined."""
    h = y1 - y0
    half = h * 0.45
    draw.rectangle([x0, y0 + h * 0.15, x0 + half, y1 - h * 0.15], fill=(150, 150, 150))
    end = [x0 + h - half, y0 + h * 0.15, x0 + h, y1 - h * 0.15]
    draw.rectangle(end, fill=(215, 215, 215), outline=LAST_MOVE, width=max(2, round(h * 0.1)))


def _path(kind: str, ring: bool) -> Swatch:
    style = path_style(kind)

    def swatch(draw, x0, y0, x1, y1):
        h, y = y1 - y0, (y0 + y1) / 2
        if ring:
            draw_path_ring(draw, x0 + h / 2, y, h * 0.38, style)
        else:
            draw_path(draw, [(x0, y), (x1, y)], style, h * 1.1)

    return swatch


def _monster(draw, x0, y0, x1, y1):
    h = y1 - y0
    r = h * 0.36
    draw_discs(
        draw,
        [(x0 + h / 2, y0 + h * 0.6)],
        r,
        MONSTER_COLOR,
        MONSTER_RING,
        max(1, h * 0.06),
        spiky=True,
    )


def _badge(text: str, kind: str) -> Swatch:
    def swatch(draw, x0, y0, x1, y1):
        h = y1 - y0
        draw_badge(draw, x0 + (x1 - x0) / 2, (y0 + y1) / 2, text, h * 0.62, kind)

    return swatch


def _tag(name: str) -> Swatch:
    def swatch(draw, x0, y0, x1, y1):
        h = y1 - y0
        draw_tag(draw, x0 + h / 2, (y0 + y1) / 2, h * 0.48, name)

    return swatch


# -- entries ----------------------------------------------------------------------------------
def _terrain_entries(scene: Scene) -> list[LegendEntry]:
    board = scene.board
    lo, hi = level_range(board)
    codes = board.terrain[board.exists].astype(np.int64)
    levels = board.level[board.exists].astype(np.int64)
    out = []
    for code in sorted({int(c) for c in codes}):
        if code not in scene.terrain_names:
            continue
        # The swatch shows the terrain at its most common level, as most of its cells look.
        level = int(np.bincount(levels[codes == code] - lo).argmax()) + lo
        colour = level_shade(scene.terrain_colors.get(code, DEFAULT_TERRAIN), level, lo, hi)
        out.append(LegendEntry(f"terrain:{code}", scene.terrain_names[code], _square(colour)))
    if hi > lo:
        out.append(
            LegendEntry(
                "levels",
                ("level (its number)" if numbered_levels(scene.board) else "level")
                + ": lighter is higher",
                _levels(_common_terrain(scene), lo, hi),
                max(1.6, 0.9 * (hi - lo + 1)),
            )
        )
    return out


def _wall_entries(scene: Scene) -> list[LegendEntry]:
    kinds = {e.kind for e in scene.edges} if scene.edges else set()
    if not scene.edges and scene.board.walls:
        kinds.add("wall")
    if scene.board.topology is Topology.HEX:
        kinds = set()
    words = {"wall": "wall", "broken_wall": "broken wall"}
    return [
        LegendEntry(f"edge:{k}", words.get(k, k.replace("_", " ")), _wall(k)) for k in sorted(kinds)
    ]


def _marks_and_lines(scene: Scene) -> list[LegendEntry]:
    out = [
        LegendEntry(f"icon:{name}", ICON_NAMES[name], _icon(name, None, False))
        for name in dict.fromkeys(scene.cell_icons.values())
        if name in ICONS
    ]
    marks = dict.fromkeys(m for m in scene.cell_marks.values() if m)
    out += [
        LegendEntry(f"mark:{m}", scene.mark_names[m], _mark(m))
        for m in marks
        if m in scene.mark_names
    ]
    if scene.highlight:
        out.append(LegendEntry("highlight", scene.highlight_meaning or "selected", _highlight))
    if scene.arrow is not None and scene.arrow_meaning:
        out.append(LegendEntry("arrow", scene.arrow_meaning, _arrow))
    if scene.fallen:
        out.append(LegendEntry("fallen", "a figure fell here", _fallen))
    for kind in dict.fromkeys(p.kind for p in scene.paths if len(p.cells) > 1):
        style = path_style(kind)
        out.append(LegendEntry(f"path:{kind}", style.words, _path(kind, False)))
        if any(p.marks for p in scene.paths if p.kind == kind):
            out.append(LegendEntry(f"path_mark:{kind}", style.mark_words, _path(kind, True)))
    return out


def _piece_entries(scene: Scene) -> list[LegendEntry]:
    out: list[LegendEntry] = []
    pieces = scene.pieces
    if any(p.kind == "monster" for p in pieces):
        out.append(
            LegendEntry("shape:monster", scene.kind_names.get("monster", "monster"), _monster)
        )
    keys = [k for k, _, _ in key_entries(scene)]
    seen: set[tuple] = set()
    for p in pieces:
        if p.kind != "token" or p.icon not in ICONS:
            continue
        named = any(key_covers(k, p.label) for k in keys)
        text = ICON_NAMES[p.icon] if named or not p.label else p.label
        tint = int_rgb(p.color) if p.color is not None else None
        if (p.icon, tint, text) not in seen:
            seen.add((p.icon, tint, text))
            out.append(LegendEntry(f"icon:{p.icon}", text, _icon(p.icon, tint, True)))
    for kind in ("figure", "monster", "token"):
        sample = next(
            (
                p.value
                for p in pieces
                if p.value and (p.kind if p.kind in ("monster", "token") else "figure") == kind
            ),
            None,
        )
        meaning = badge_meaning(scene, kind)
        if sample and meaning:
            # Text at 0.62 of the picture's height: about 0.34 of it per character.
            width = max(1.6, 0.34 * len(sample) + 0.5)
            out.append(LegendEntry(f"badge:{kind}", meaning, _badge(sample, kind), width, sample))
    for tag in dict.fromkeys(t for p in pieces for t in p.tags):
        out.append(LegendEntry(f"tag:{tag}", ICON_NAMES.get(tag, tag.replace("_", " ")), _tag(tag)))
    return out


def legend_for(scene: Scene) -> list[LegendEntry]:
    """The legend of ``scene``'s frame, in the order it is drawn."""
    return (
        _terrain_entries(scene)
        + _wall_entries(scene)
        + _marks_and_lines(scene)
        + _piece_entries(scene)
    )


def explained(scene: Scene) -> set[str]:
    """Every glyph id the frame explains: the legend's and the key's labels."""
    ids = {e.glyph for e in legend_for(scene)}
    keys = [k for k, _, _ in key_entries(scene)]
    labels = {p.label for p in scene.pieces if p.label}
    ids |= {f"label:{lab}" for lab in labels if any(key_covers(k, lab) for k in keys)}
    return ids
