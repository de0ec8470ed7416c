"""Die faces as pictures: a registry from die kind to how its faces are drawn.

Built in: ``"d6"`` (pips for 1-6, the number beyond) and ``"text"`` (each face as a word).
A game declares its own dice with :func:`register_symbol_die`: for each face, the icons
(:data:`envs.core.icons.ICONS`) drawn on it and a small number in its corner (the Heroica
die's movement value), so this module stays free of any game's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .drawing import BLACK, RGB, draw_centered, fit_text, font, text_width
from .icons import draw_icon

FACE: RGB = (250, 250, 245)
PIP_SPOTS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


@dataclass(frozen=True)
class DieKind:
    """How one kind of die is drawn: ``draw(draw, face, box)`` fills the face's box;
    ``faces`` are the faces it knows (None: any); ``wide`` dice grow to fit their text."""

    draw: Callable[..., None]
    faces: frozenset[str] | None = None
    wide: bool = False
    color: RGB = FACE


DIE_KINDS: dict[str, DieKind] = {}


def _pips(draw, face: str, box) -> None:
    x0, y0, x1, y1 = box
    size = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    value = int(face) if face.isdigit() else 0
    if value not in PIP_SPOTS:
        fnt = font(size * 0.55)
        draw_centered(draw, (cx, cy), fit_text(fnt, face, size * 0.9), fnt, BLACK)
        return
    r, step = size * 0.09, size * 0.27
    for dx, dy in PIP_SPOTS[value]:
        px, py = cx + dx * step, cy + dy * step
        draw.ellipse([px - r, py - r, px + r, py + r], fill=BLACK)


def _text(draw, face: str, box) -> None:
    x0, y0, x1, y1 = box
    fnt = font((y1 - y0) * 0.42)
    draw_centered(
        draw,
        ((x0 + x1) / 2, (y0 + y1) / 2),
        fit_text(fnt, face.replace("_", " "), (x1 - x0) * 0.92),
        fnt,
        BLACK,
    )


DIE_KINDS["d6"] = DieKind(_pips)
DIE_KINDS["2d6"] = DIE_KINDS["d6"]
DIE_KINDS["text"] = DieKind(_text, wide=True)


def register_symbol_die(
    kind: str, faces: Mapping[str, tuple[Sequence[str], str]], color: RGB = FACE
) -> None:
    """Declare die ``kind``: ``faces[face] = (icon names, corner text)``. Several icons sit
    side by side; a face with no icons is blank."""
    table = {face: (tuple(icons), corner) for face, (icons, corner) in faces.items()}

    def draw_face(draw, face: str, box) -> None:
        icons, corner = table.get(face, ((), ""))
        x0, y0, x1, y1 = box
        size = x1 - x0
        if face not in table:
            _text(draw, face, box)
            return
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if corner:
            cx, cy = cx - size * 0.06, cy - size * 0.06
        r = size * (0.36 if len(icons) < 2 else 0.22)
        for k, name in enumerate(icons):
            offset = (k - (len(icons) - 1) / 2) * 2.1 * r
            draw_icon(draw, name, cx + offset, cy, r)
        if corner:
            fnt = font(size * 0.3)
            draw_centered(draw, (x1 - size * 0.18, y1 - size * 0.2), corner, fnt, BLACK)

    DIE_KINDS[kind] = DieKind(draw_face, frozenset(table), color=color)


def guess_kind(faces: Sequence[str]) -> str:
    """The die kind of a flat list of faces (the older ``Scene.dice``): a declared die that
    has every face, else ``d6`` for numbers 1-6, else ``text``."""
    wanted = set(faces)
    for name, kind in DIE_KINDS.items():
        if kind.faces is not None and wanted <= kind.faces:
            return name
    if all(f.isdigit() and 1 <= int(f) <= 6 for f in faces):
        return "d6"
    return "text"


def die_width(kind: str, face: str, size: float) -> float:
    spec = DIE_KINDS.get(kind, DIE_KINDS["text"])
    if not spec.wide:
        return size
    return max(size, text_width(font(size * 0.42), face.replace("_", " ")) + size * 0.4)


def draw_die(
    draw, kind: str, face: str, x: float, y: float, size: float, width: float, outline: float = 1
) -> None:
    """One die of ``kind`` showing ``face`` in the box at ``(x, y)``, ``width x size``."""
    spec = DIE_KINDS.get(kind, DIE_KINDS["text"])
    draw.rounded_rectangle(
        [x, y, x + width, y + size],
        radius=size * 0.18,
        fill=spec.color,
        outline=BLACK,
        width=max(1, int(outline)),
    )
    spec.draw(draw, face, (x, y, x + width, y + size))
