"""What one frame shows, as data: :class:`Scene` and its parts. Games build these; the
renderer (:mod:`envs.core.render`) and the text picture (:mod:`envs.core.textboard`) draw
them. ``envs.core.render`` re-exports every name here.

A frame must explain itself to a newcomer, so a scene also says what its marks mean:
``badge_meaning`` (the number badges), ``key`` (labels to full names), ``mark_names`` (the
cell marks), ``kind_names`` (the piece shapes), ``highlight_meaning``, ``arrow_meaning``.
The renderer builds its legend from these and from what it draws itself (terrain, levels,
walls, paths, tags, icons); a glyph whose meaning the scene leaves out has no legend line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .board import Board
from .drawing import RGB


@dataclass
class Piece:
    """A figure or token drawn on a cell.

    ``owner`` picks the seat colour (``None`` = neutral); ``color`` overrides it (for a token
    with an icon it tints the icon: a red or a blue potion). ``kind`` is ``"figure"`` (a
    disc), ``"monster"`` (a horned dark disc) or ``"token"`` (items, rocks, chests, objects).
    ``value`` is drawn as a badge, whose meaning ``Scene.badge_meaning`` gives. ``cells``
    lists extra cells of a multi-space figure, drawn joined to ``cell``. Pieces sharing a
    cell are drawn side by side, smaller.

    A token with an ``icon`` (a name in :data:`envs.core.icons.ICONS`) is drawn as that icon
    and its ``label`` is the legend's name for it ("life potion"); any other piece shows
    its ``label``, which ``Scene.key`` should name.
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
class DiceGroup:
    """One labelled roll, drawn as die faces with its result in words beside them.

    ``kind`` names the die (:data:`envs.core.dice_faces.DIE_KINDS`: ``"heroica"``,
    ``"heroscape_combat"``, ``"d6"``; ``"text"`` draws each face as a word); ``faces`` are
    the faces shown (``("skull", "blank")``, ``("3", "5")`` for 2d6). ``owner`` colours the
    label's swatch with the seat who rolled. ``counted`` (one flag per face; empty: all)
    dims the faces that do not count, such as an attack's shields.
    """

    label: str  # "attack", "defense", "movement", "breakaway"
    kind: str
    faces: Sequence[str]
    result_text: str = ""  # "2 skulls", "8: hit"
    owner: int | None = None
    counted: Sequence[bool] = ()  # per face, whether it counts: the others are dimmed


@dataclass
class FigureCard:
    """A figure's numbers at a glance, drawn large at the top of the side panel: the figure
    acting and the one it acts on. ``stats`` are ``(name, value)`` pairs ("speed", "8"),
    ``lines`` what else matters now (the powers its dial shows at this click)."""

    role: str  # "acting", "target"
    title: str  # the figure's name, and its frame label
    owner: int | None
    stats: Sequence[tuple[str, str]]
    lines: Sequence[str] = ()


KeyEntries = Sequence[tuple[str, str, int | None]] | Mapping[str, tuple[str, int | None]]


@dataclass
class Scene:
    """Everything one frame shows. Games build one per step; see the module docstring.

    ``dice`` is the older flat list of rolled symbols; ``dice_groups``, when given, is drawn
    instead. ``edges``, when given, are all the walls drawn (the board's own ``walls`` are
    then left out, so a broken wall is not also drawn standing). ``key`` lists
    ``(label, full name, owner seat)`` or maps ``label -> (full name, owner seat)``; a key
    label also names the pieces labelled with it followed by a number ("AA" names "AA1").
    ``badge_meaning`` is one text for every badge or ``{piece kind: text}``.
    ``cell_icons`` draws an icon on a cell as part of the ground (stairs, ladders).
    """

    board: Board
    terrain_colors: dict[int, RGB]
    terrain_names: dict[int, str] = field(default_factory=dict)
    pieces: list[Piece] = field(default_factory=list)
    cell_marks: dict[int, str] = field(default_factory=dict)
    highlight: list[int] = field(default_factory=list)
    fallen: list[int] = field(default_factory=list)  # where a figure fell this decision
    arrow: tuple[int, int] | None = None
    dice: list[str] = field(default_factory=list)
    caption: str = ""
    subtitle: str = ""  # one smaller line under the caption: what comes next
    banner: list[str] = field(default_factory=list)  # over the board: a title or the result
    player_colors: list[RGB] | None = None
    status_lines: list[str] = field(default_factory=list)
    edges: list[EdgeMark] = field(default_factory=list)
    paths: list[PathMark] = field(default_factory=list)
    dice_groups: list[DiceGroup] = field(default_factory=list)
    cards: list[FigureCard] = field(default_factory=list)
    badge_meaning: str | dict[str, str] = ""
    key: KeyEntries = field(default_factory=list)
    mark_names: dict[str, str] = field(default_factory=dict)  # cell mark -> its meaning
    kind_names: dict[str, str] = field(default_factory=dict)  # "figure" -> "hero", ...
    cell_icons: dict[int, str] = field(default_factory=dict)  # cell -> icon name
    highlight_meaning: str = ""
    arrow_meaning: str = "last move"
    # Dice groups the panel keeps room for, so the text under them stays put from frame
    # to frame (more groups push it down).
    dice_slots: int = 2


def key_entries(scene: Scene) -> list[tuple[str, str, int | None]]:
    """``scene.key`` as ``(label, full name, owner)`` triples, either form accepted."""
    key = scene.key
    if isinstance(key, Mapping):
        return [(label, name, owner) for label, (name, owner) in key.items()]
    return [(label, name, owner) for label, name, owner in key]


def key_covers(key_label: str, label: str) -> bool:
    """Whether key label ``AA`` names piece label ``label`` (``AA`` or ``AA`` + digits)."""
    return label == key_label or (label.startswith(key_label) and label[len(key_label) :].isdigit())


def badge_meaning(scene: Scene, kind: str) -> str:
    meaning = scene.badge_meaning
    if isinstance(meaning, Mapping):
        return meaning.get(kind, "")
    return meaning


def dice_groups(scene: Scene) -> list[DiceGroup]:
    """The groups to draw: ``dice_groups``, else the flat ``dice`` as one group."""
    if scene.dice_groups:
        return list(scene.dice_groups)
    if not scene.dice:
        return []
    from .dice_faces import guess_kind

    return [DiceGroup("dice", guess_kind(scene.dice), tuple(scene.dice), "")]
