"""Icons drawn with Pillow's vector shapes: a registry from name to draw function.

Every icon draws into the square ``(cx - r, cy - r, cx + r, cy + r)`` of canvas pixels and
may take a ``tint`` that replaces its main colour (a red or a blue potion). Shapes are
given in unit coordinates (-1..1 across the square) so each icon reads at any size.
Games name icons in ``Piece.icon``, ``Scene.cell_icons`` and ``Piece.tags``; die faces
(:mod:`envs.core.dice_faces`) reuse the skull, shield and sword.

Add an icon with ``@icon("name")``; :func:`draw_icon` draws one, :data:`ICON_NAMES` gives
the default words for the legend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .drawing import BLACK, RGB, WHITE, mix

IconFn = Callable[..., None]
ICONS: dict[str, IconFn] = {}
ICON_NAMES: dict[str, str] = {}  # name -> default legend words


def icon(name: str, words: str | None = None):
    def register(fn: IconFn) -> IconFn:
        ICONS[name] = fn
        ICON_NAMES[name] = words or name.replace("_", " ")
        return fn

    return register


def draw_icon(draw, name: str, cx: float, cy: float, r: float, tint: RGB | None = None) -> bool:
    """Draw icon ``name``; False (nothing drawn) when there is no such icon."""
    fn = ICONS.get(name)
    if fn is None:
        return False
    fn(_Pen(draw, cx, cy, r), tint)
    return True


class _Pen:
    """Unit-square drawing: (-1, -1) is the icon's top-left corner, (1, 1) its bottom-right."""

    def __init__(self, draw, cx: float, cy: float, r: float):
        self.draw, self.cx, self.cy, self.r = draw, cx, cy, r
        self.w = max(1, round(r * 0.12))  # outline width

    def p(self, x: float, y: float) -> tuple[float, float]:
        return self.cx + x * self.r, self.cy + y * self.r

    def poly(self, points: Iterable[tuple[float, float]], fill, outline=BLACK, width=None):
        self.draw.polygon(
            [self.p(x, y) for x, y in points],
            fill=fill,
            outline=outline,
            width=self.w if width is None else width,
        )

    def rect(self, x0, y0, x1, y1, fill, outline=BLACK, radius=0.0):
        box = [*self.p(x0, y0), *self.p(x1, y1)]
        if radius:
            self.draw.rounded_rectangle(
                box, radius=radius * self.r, fill=fill, outline=outline, width=self.w
            )
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=self.w)

    def disc(self, x, y, radius, fill, outline=BLACK):
        (px, py), rr = self.p(x, y), radius * self.r
        self.draw.ellipse(
            [px - rr, py - rr, px + rr, py + rr],
            fill=fill,
            outline=outline,
            width=self.w if outline is not None else 0,
        )

    def line(self, points, fill=BLACK, width=None):
        self.draw.line(
            [self.p(x, y) for x, y in points],
            fill=fill,
            width=max(1, round((width or 0.12) * self.r)),
        )


# -- items and board pieces ---------------------------------------------------------------
@icon("chest", "treasure chest")
def _chest(pen: _Pen, tint):
    wood = tint or (150, 92, 40)
    pen.rect(-0.85, -0.2, 0.85, 0.75, wood)
    pen.poly([(-0.85, -0.2), (-0.7, -0.7), (0.7, -0.7), (0.85, -0.2)], mix(wood, WHITE, 0.2))
    pen.rect(-0.85, -0.3, 0.85, -0.12, (215, 175, 50))  # the metal band
    pen.rect(-0.16, -0.3, 0.16, 0.15, (240, 200, 60))  # the lock


@icon("potion")
def _potion(pen: _Pen, tint):
    liquid = tint or (210, 40, 50)
    pen.disc(0.0, 0.3, 0.62, (235, 240, 245))
    pen.draw.chord([*pen.p(-0.55, -0.25), *pen.p(0.55, 0.85)], 0, 180, fill=liquid)
    pen.disc(0.0, 0.3, 0.62, None)
    pen.rect(-0.22, -0.75, 0.22, -0.25, (235, 240, 245))
    pen.rect(-0.28, -0.95, 0.28, -0.7, (160, 110, 60))  # the cork


@icon("rock", "rocks")
def _rock(pen: _Pen, tint):
    stone = tint or (128, 124, 120)
    pen.poly([(-0.95, 0.8), (-0.8, 0.05), (-0.35, -0.35), (0.05, -0.1), (0.15, 0.8)], stone)
    pen.poly(
        [(-0.2, 0.8), (0.0, -0.25), (0.45, -0.75), (0.9, -0.2), (0.95, 0.8)], mix(stone, WHITE, 0.2)
    )
    pen.line([(0.45, -0.45), (0.55, 0.25)], fill=mix(stone, BLACK, 0.4), width=0.08)


@icon("torch")
def _torch(pen: _Pen, tint):
    pen.poly([(-0.12, -0.15), (0.12, -0.15), (0.08, 0.95), (-0.08, 0.95)], (120, 75, 35))
    flame = tint or (240, 120, 20)
    pen.poly([(0.0, -0.95), (0.4, -0.4), (0.3, -0.1), (-0.3, -0.1), (-0.4, -0.45)], flame)
    pen.poly([(0.0, -0.6), (0.17, -0.3), (0.0, -0.15), (-0.17, -0.3)], (255, 225, 80), outline=None)


@icon("item")
def _item(pen: _Pen, tint):
    gem = tint or (150, 90, 210)
    pen.poly([(-0.8, -0.25), (-0.4, -0.75), (0.4, -0.75), (0.8, -0.25), (0.0, 0.85)], gem)
    pen.poly([(-0.8, -0.25), (0.8, -0.25), (0.0, 0.85)], mix(gem, BLACK, 0.2))


@icon("scepter", "scepter")
def _scepter(pen: _Pen, tint):
    pen.line([(-0.6, 0.85), (0.35, -0.35)], fill=(190, 150, 60), width=0.22)
    pen.disc(0.45, -0.5, 0.35, tint or (150, 90, 210))


@icon("weapon")
def _weapon(pen: _Pen, tint):
    _sword(pen, tint)


@icon("gold")
def _gold(pen: _Pen, tint):
    coin = tint or (235, 190, 40)
    for x, y in ((-0.35, 0.35), (0.35, 0.35), (0.0, -0.25)):
        pen.disc(x, y, 0.5, coin)
        pen.disc(x, y, 0.28, None, outline=mix(coin, BLACK, 0.35))


@icon("monster")
def _monster(pen: _Pen, tint):
    skin = tint or (95, 60, 110)
    for side in (-1, 1):  # horns first, so the head covers their roots
        pen.poly([(0.3 * side, -0.45), (0.85 * side, -0.95), (0.65 * side, -0.2)], (235, 225, 200))
    pen.disc(0.0, 0.15, 0.72, skin)
    for side in (-1, 1):
        pen.disc(0.28 * side, 0.0, 0.14, (250, 60, 40), outline=None)
    pen.line([(-0.3, 0.45), (0.3, 0.45)], fill=BLACK, width=0.1)


# -- HeroClix objects, markers and map features ---------------------------------------------
@icon("object_light", "light object")
def _object_light(pen: _Pen, tint):
    wood = tint or (205, 160, 95)
    pen.rect(-0.55, -0.55, 0.55, 0.55, wood)
    pen.line([(-0.55, -0.55), (0.55, 0.55)], fill=mix(wood, BLACK, 0.45), width=0.1)
    pen.line([(-0.55, 0.55), (0.55, -0.55)], fill=mix(wood, BLACK, 0.45), width=0.1)


@icon("object_heavy", "heavy object")
def _object_heavy(pen: _Pen, tint):
    metal = tint or (95, 100, 110)
    pen.rect(-0.9, -0.7, 0.9, 0.8, metal, radius=0.12)
    pen.rect(-0.9, -0.7, 0.9, -0.35, mix(metal, WHITE, 0.25), radius=0.12)
    for x in (-0.6, 0.6):
        for y in (-0.1, 0.5):
            pen.disc(x, y, 0.1, (220, 220, 225), outline=None)


@icon("smoke_marker", "smoke cloud")
def _smoke(pen: _Pen, tint):
    grey = tint or (150, 150, 160)
    for x, y, rr in ((-0.45, 0.2, 0.45), (0.4, 0.25, 0.45), (0.0, -0.2, 0.55)):
        pen.disc(x, y, rr, mix(grey, WHITE, 0.45), outline=mix(grey, BLACK, 0.3))
    pen.rect(-0.7, 0.2, 0.7, 0.65, mix(grey, WHITE, 0.45), outline=None)


@icon("barrier_marker", "barrier")
def _barrier(pen: _Pen, tint):
    brick = tint or (190, 80, 50)
    pen.rect(-0.9, -0.6, 0.9, 0.6, brick)
    pen.line([(-0.9, 0.0), (0.9, 0.0)], fill=BLACK, width=0.08)
    for x, y0, y1 in (
        (-0.3, -0.6, 0.0),
        (0.4, -0.6, 0.0),
        (0.05, 0.0, 0.6),
        (-0.6, 0.0, 0.6),
        (0.65, 0.0, 0.6),
    ):
        pen.line([(x, y0), (x, y1)], fill=BLACK, width=0.08)


@icon("stairs")
def _stairs(pen: _Pen, tint):
    colour = tint or (235, 235, 225)
    pen.poly(
        [
            (-0.85, 0.8),
            (-0.85, 0.3),
            (-0.3, 0.3),
            (-0.3, -0.2),
            (0.25, -0.2),
            (0.25, -0.7),
            (0.85, -0.7),
            (0.85, 0.8),
        ],
        colour,
    )


@icon("ladder")
def _ladder(pen: _Pen, tint):
    wood = tint or (200, 150, 80)
    lines = [[(-0.45, -0.9), (-0.45, 0.9)], [(0.45, -0.9), (0.45, 0.9)]]
    lines += [[(-0.45, y), (0.45, y)] for y in (-0.55, -0.1, 0.35, 0.75)]
    for colour, width in ((BLACK, 0.28), (wood, 0.14)):  # outlined, to read on any ground
        for points in lines:
            pen.line(points, fill=colour, width=width)


# -- die symbols ----------------------------------------------------------------------------
@icon("skull")
def _skull(pen: _Pen, tint):
    bone = tint or (245, 242, 232)
    pen.rect(-0.4, 0.15, 0.4, 0.75, bone, radius=0.15)
    pen.disc(0.0, -0.15, 0.7, bone)
    pen.rect(-0.38, 0.2, 0.38, 0.55, bone, outline=None)
    for side in (-1, 1):
        pen.disc(0.3 * side, -0.1, 0.2, (30, 30, 30), outline=None)
    pen.poly([(0.0, 0.1), (0.1, 0.3), (-0.1, 0.3)], (30, 30, 30), outline=None)
    for x in (-0.18, 0.0, 0.18):
        pen.line([(x, 0.5), (x, 0.75)], fill=(30, 30, 30), width=0.07)


@icon("shield")
def _shield(pen: _Pen, tint):
    face = tint or (40, 110, 200)
    outline = [(-0.75, -0.8), (0.75, -0.8), (0.75, -0.1), (0.0, 0.9), (-0.75, -0.1)]
    pen.poly(outline, face)
    pen.poly([(0.0, -0.8), (0.75, -0.8), (0.75, -0.1), (0.0, 0.9)], mix(face, WHITE, 0.25))
    pen.poly(outline, None)


@icon("sword")
def _sword(pen: _Pen, tint):
    steel = tint or (200, 205, 215)
    pen.poly([(0.85, -0.85), (0.7, -0.45), (-0.3, 0.55), (-0.55, 0.3), (0.45, -0.7)], steel)
    pen.line([(-0.62, 0.12), (-0.12, 0.62)], fill=(170, 130, 50), width=0.18)  # crossguard
    pen.line([(-0.4, 0.4), (-0.8, 0.8)], fill=(110, 70, 35), width=0.18)  # grip


@icon("sword_skull", "sword and skull")
def _sword_skull(pen: _Pen, tint):
    _skull(_Pen(pen.draw, *pen.p(0.3, 0.3), pen.r * 0.6), None)
    _sword(_Pen(pen.draw, *pen.p(-0.35, -0.35), pen.r * 0.6), tint)


# -- tags beside a figure --------------------------------------------------------------------
@icon("soaring")
def _soaring(pen: _Pen, tint):
    sky = tint or (120, 200, 255)
    for y in (-0.35, 0.35):
        pen.poly([(-0.8, y + 0.35), (0.0, y - 0.45), (0.8, y + 0.35), (0.0, y - 0.05)], sky)


@icon("hovering")
def _hovering(pen: _Pen, tint):
    wing = tint or (190, 225, 255)
    for side in (-1, 1):
        pen.poly(
            [
                (0.1 * side, 0.1),
                (0.9 * side, -0.55),
                (0.75 * side, 0.1),
                (0.95 * side, 0.15),
                (0.15 * side, 0.45),
            ],
            wing,
        )


def _action_tokens(pen: _Pen, tint, count: int):
    colour = tint or (20, 20, 20)
    offsets = (0.0,) if count == 1 else (-0.4, 0.4)
    for x in offsets:
        pen.disc(x, 0.0, 0.55 if count == 1 else 0.5, colour, outline=WHITE)


@icon("token", "action token")
def _token(pen: _Pen, tint):
    _action_tokens(pen, tint, 1)


@icon("token2", "two action tokens")
def _token2(pen: _Pen, tint):
    _action_tokens(pen, tint, 2)


@icon("held", "holds an object")
def _held(pen: _Pen, tint):
    _object_light(pen, tint)


@icon("carried", "carried by the figure beside it")
def _carried(pen: _Pen, tint):
    colour = tint or (250, 250, 250)
    pen.line([(-0.8, 0.0), (0.5, 0.0)], fill=colour, width=0.25)
    pen.poly([(0.3, -0.5), (0.95, 0.0), (0.3, 0.5)], colour)
