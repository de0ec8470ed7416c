"""HeroClix frames: the :class:`~envs.core.render.Scene` of a position and its last events.

What the frame shows (envs/heroclix/RULES.md numbers in brackets):

* **squares**: clear, hindering, blocking, shallow water (HC-5.7-5.14), *rubble* (a broken
  wall's two squares and a broken blocking square: hindering, HC-5.16/5.17); indoor squares
  (HC-5.2) in a floor colour of their own; the starting areas (HC-2.10) tinted in the colour
  of the seat that starts there; elevated squares lighter by level, with the level written
  (the renderer's shading of ``board.level``); stairs and ladders (HC-5.8) as icons;
* **walls** on square edges as :class:`EdgeMark` s: ``wall`` standing, ``broken_wall``
  broken (HC-5.16); the scene's board keeps only the walls still standing (the map's board
  would have the renderer draw a broken wall standing for ever);
* **objects** lying on the map (light / heavy icons, HC-6.1-6.3); a held one is the
  ``held`` tag of its holder (HC-6.5);
* **markers**: Smoke Cloud (hindering, P-ATT-8) and Barrier (blocking, P-DEF-6), in the
  colour of the seat whose figure placed them;
* **figures**: a short unique label (``Scene.key`` names it), a badge with the dial's values
  now (speed/attack/defense/damage), the tags ``soaring`` / ``hovering`` (flyers, HC-1.12),
  ``token`` / ``token2`` (action tokens, HC-3.14), ``held`` and ``carried`` (a passenger,
  HC-3.30, drawn beside its carrier);
* **the last action**: its moves as the arrow, each ranged attack's line of fire to each
  target with the hindering squares it crosses marked (HC-5.11), each knockback's path
  (HC-4.9), the dice in labelled groups (an attack's 2d6, a breakaway's d6, ...).

Fields of :class:`Scene` that the renderer in use lacks are left out (see ``_optional``),
so the scene works with older renderers.
"""

from __future__ import annotations

import dataclasses
import re
from collections import OrderedDict
from typing import Any

import numpy as np

from envs.core import render
from envs.core.events import Event
from envs.core.render import EdgeMark, FigureCard, PathMark, Piece, Scene
from envs.heroclix.data.maps import Terrain
from envs.heroclix.dials import COLUMNS
from envs.heroclix.powers.catalog import POWERS
from envs.heroclix.state import NO_CELL, NO_FIGURE, NO_OBJECT, SOAR, State

# Scene terrain codes (the scene board's ``terrain``; not the map's Terrain values).
CLEAR, HINDERING, BLOCKING, WATER, RUBBLE = 0, 1, 2, 3, 4
INDOOR = 10  # added to the code of an indoor square
START = 20  # + seat: a starting area's clear square; START + FREE_START: nobody's
FREE_START = 4
BASE_COLORS = {
    CLEAR: (200, 200, 190),
    HINDERING: (120, 160, 90),
    BLOCKING: (70, 70, 80),
    WATER: (140, 200, 220),  # pale: a blue figure must stand out on it
    RUBBLE: (186, 116, 78),
}
BASE_NAMES = {
    CLEAR: "clear",
    HINDERING: "hindering",
    BLOCKING: "blocking",
    WATER: "shallow water",
    RUBBLE: "rubble (hindering)",
}
INDOOR_FLOOR = (226, 208, 172)
BADGE_MEANING = "speed/attack/defense/damage"
WALL_SIDES = (1, 2)  # a wall between a and b > a lies on a's east (b = a + 1) or south side
DICE_LABELS = {
    "attack": "attack",
    "support": "support",
    "breakaway": "breakaway",
    "damage_roll": "damage roll",
    "regenerate": "regeneration",
    "leadership": "leadership",
    "force_blast": "force blast distance",
}
ARROW_WORDS = {
    "attack": "close attack",
    "break_wall": "breaks a wall",
    "break": "breaks",
    "support": "support",
    "hypersonic": "hypersonic strike",
}
OBJECT_WORDS = ("light object", "heavy object")  # HC-6.1: what the legend says of the icons
MARKER_WORDS = {"smoke": "smoke cloud marker (hindering)", "barrier": "barrier marker (blocking)"}
SQUARE_LABEL = re.compile(r"\((\d+),(\d+)\)")  # game.cell_label's "(row,col)"
MAX_BOARDS = 8  # scene boards kept per view (one per terrain state seen lately)


def _fields() -> set[str]:
    return {f.name for f in dataclasses.fields(Scene)}


def _optional(**values: Any) -> dict[str, Any]:
    """The keyword arguments whose field the renderer's Scene has."""
    have = _fields()
    return {k: v for k, v in values.items() if k in have}


def terrain_colors() -> dict[int, tuple[int, int, int]]:
    colors: dict[int, tuple[int, int, int]] = {}
    for code, rgb in BASE_COLORS.items():
        colors[code] = rgb
        colors[INDOOR + code] = render._mix(rgb, INDOOR_FLOOR, 0.45 if code else 1.0)
    for seat in range(FREE_START + 1):
        tint = render.SEAT_COLORS[seat] if seat < FREE_START else (255, 255, 255)
        colors[START + seat] = render._mix(BASE_COLORS[CLEAR], tint, 0.38)
        colors[INDOOR + START + seat] = render._mix(INDOOR_FLOOR, tint, 0.38)
    return colors


def terrain_names(player_names: tuple[str, ...]) -> dict[int, str]:
    names: dict[int, str] = {}
    for code, name in BASE_NAMES.items():
        names[code] = name
        names[INDOOR + code] = "indoor floor" if code == CLEAR else f"{name}, indoor"
    for seat in range(FREE_START + 1):
        who = player_names[seat] if seat < len(player_names) else "free"
        names[START + seat] = f"start area: {who}"
        names[INDOOR + START + seat] = f"start area: {who}, indoor"
    return names


def short_labels(game) -> list[str]:
    """Per figure, a label of at most 4 characters, unique in the game: the name's first
    three letters (initials for names of several words), numbered when they repeat."""
    bases = []
    for figure in game.figures:
        words = [w for w in figure.name.replace("-", " ").split() if w[:1].isalnum()]
        base = "".join(w[0] for w in words)[:3] if len(words) > 1 else figure.name[:3]
        bases.append(base.upper())
    labels = []
    for i, base in enumerate(bases):
        if bases.count(base) > 1:
            base = f"{base[: 3 if bases.count(base) < 10 else 2]}{bases[: i + 1].count(base)}"
        labels.append(base)
    return labels


class ClixScene:
    """Builds the scenes of one game (cached scene boards and labels)."""

    def __init__(
        self, view: Any
    ):  # the ClixView whose game and tables it reads (view.py builds it)
        self.view = view
        game = self.game = view.game
        self.labels = short_labels(game)
        self.colors = terrain_colors()
        self.names = terrain_names(game.player_names)
        source = game.map.board
        self.local = game.padded.to_source
        self.to_padded = np.asarray([game.padded.to_padded(c) for c in range(source.n_cells)])
        self.static = np.asarray(game.map.board.terrain)
        self._boards: OrderedDict[bytes, Any] = OrderedDict()
        stairs = [("stairs", int(c)) for c in np.flatnonzero(game.map.stairs)]
        ladders = [("ladder", int(c)) for c in np.flatnonzero(game.map.ladder_to >= 0)]
        self.fixtures = stairs + ladders

    # -- the board: terrain as it stands, only the walls standing -----------------------
    def start_seats(self, state: State) -> dict[str, int]:
        """Starting edge -> the seat that sets up there (FREE_START: nobody)."""
        game = self.game
        if game.setup == "play":
            edges = list(state.edges)
        else:
            edges = [p.edge for p in game.scenario.players]
        return {
            edge: (edges.index(edge) if edge in edges else FREE_START)
            for edge in game.map.start_areas
        }

    def codes(self, state: State) -> np.ndarray:
        """int8[source cells]: the scene terrain code of each square now."""
        game = self.game
        p = self.to_padded
        static = self.static
        blocking, rubble = state.blocking[p], state.rubble[p]
        code = np.full(static.shape, CLEAR, dtype=np.int8)
        code[static == Terrain.HINDERING] = HINDERING
        code[static == Terrain.WATER] = WATER
        code[(static == Terrain.BLOCKING) & blocking] = BLOCKING
        code[rubble | ((static == Terrain.BLOCKING) & ~blocking)] = RUBBLE
        for edge, seat in self.start_seats(state).items():
            area = game.map.start_areas[edge]
            code[area & (code == CLEAR)] = START + seat
        code[game.map.indoor] += INDOOR
        return code

    def board(self, state: State):
        """The map's board with today's terrain codes and only the walls still standing
        (a renderer that draws ``board.walls`` never shows a broken wall standing; the
        EdgeMarks show every wall, broken or not). One object per terrain state: the
        renderer caches its board layer by it."""
        codes = self.codes(state)
        key = codes.tobytes() + state.walls_intact.tobytes()
        board = self._boards.get(key)
        if board is None:
            source = self.game.map.board
            terrain = codes.astype(np.int8)
            terrain.setflags(write=False)
            standing = frozenset(
                (self.local(a), self.local(b))
                for wall, (a, b) in enumerate(self.game.walls.edges.tolist())
                if state.walls_intact[wall]
            )
            board = dataclasses.replace(source, terrain=terrain, walls=standing)
            self._boards[key] = board
            while len(self._boards) > MAX_BOARDS:
                self._boards.popitem(last=False)
        else:
            self._boards.move_to_end(key)
        return board

    def edges(self, state: State) -> list[EdgeMark]:
        """Every wall of the map on the side of its lower square: standing or broken."""
        game = self.game
        marks = []
        for wall, (a, b) in enumerate(game.walls.edges.tolist()):
            side = WALL_SIDES[0] if b == a + 1 else WALL_SIDES[1]
            kind = "wall" if state.walls_intact[wall] else "broken_wall"
            marks.append(EdgeMark(self.local(a), side, kind))
        return marks

    # -- pieces ---------------------------------------------------------------------------
    def figure_tags(self, state: State, figure: int) -> tuple[str, ...]:
        game = self.game
        tags = []
        if state.mode[figure] == SOAR:
            tags.append("soaring")
        elif game.flies(state, figure):
            tags.append("hovering")
        if state.tokens[figure] >= 2:
            tags.append("token2")
        elif state.tokens[figure] == 1:
            tags.append("token")
        if state.held[figure] != NO_OBJECT:
            tags.append("held")
        if figure == state.passenger:
            tags.append("carried")
        return tuple(tags)

    def badge(self, state: State, figure: int) -> str:
        game = self.game
        return "/".join(str(game.value(state, figure, c)) for c in range(4))

    def pieces(self, state: State) -> list[Piece]:
        """Tokens (stairs and ladders without ``cell_icons``, objects, markers) then the
        figures; an icon token's label is its legend's words."""
        game, local = self.game, self.local
        pieces = []
        for kind, cell in self.fixtures if "cell_icons" not in _fields() else ():
            pieces.append(Piece(cell, kind, kind="token", icon=kind))
        for obj, cell in enumerate(state.objects.tolist()):
            if cell >= 0:
                heavy = bool(game.object_heavy[obj])
                pieces.append(
                    Piece(
                        local(cell),
                        OBJECT_WORDS[heavy],
                        kind="token",
                        icon="object_heavy" if heavy else "object_light",
                    )
                )
        for name, where in (("smoke", state.smoke), ("barrier", state.barrier)):
            for cell in np.flatnonzero(where >= 0).tolist():
                pieces.append(
                    Piece(
                        local(cell),
                        MARKER_WORDS[name],
                        kind="token",
                        owner=int(game.owner[where[cell]]),
                        icon=f"{name}_marker",
                    )
                )
        carrier = state.selected if state.passenger != NO_FIGURE else NO_FIGURE
        for figure in np.flatnonzero(state.cell != NO_CELL).tolist():
            if figure == state.passenger:  # it rides on its carrier's square (HC-3.30)
                if carrier == NO_FIGURE or state.cell[carrier] == NO_CELL:
                    continue
                cell = int(state.cell[carrier])
            else:
                cell = int(state.cell[figure])
            pieces.append(
                Piece(
                    local(cell),
                    self.labels[figure],
                    owner=int(game.owner[figure]),
                    value=self.badge(state, figure),
                    tags=self.figure_tags(state, figure),
                )
            )
        return pieces

    def key(self, state: State) -> dict[str, tuple[str, int | None]]:
        """Frame label -> (the figure's name, its seat), for the figures on the map."""
        game = self.game
        return {
            self.labels[f]: (game.label(f), int(game.owner[f]))
            for f in np.flatnonzero(state.cell != NO_CELL).tolist()
        }

    def cell_icons(self) -> dict[int, str]:
        return {cell: kind for kind, cell in self.fixtures}

    # -- the last action ------------------------------------------------------------------
    def paths(self, state: State, events: list[Event]) -> list[PathMark]:
        game = self.game
        local = self.local
        paths = []
        by_label = {game.label(f): f for f in range(game.n_figures)}
        for i, event in enumerate(events):
            if event.kind == "attack" and len(event.cells) == 2:
                source = event.cells[0]
                for target, cell in self._targets(state, events, i, by_label):
                    if int(game.chebyshev[source, cell]) <= 1:
                        continue  # a close attack: the arrow shows it
                    marks = self.hindering_crossed(state, source, cell, event, target)
                    paths.append(
                        PathMark(
                            (local(source), local(cell)),
                            "line_of_fire",
                            tuple(local(c) for c in marks),
                        )
                    )
            elif event.kind == "knockback" and len(event.cells) == 2:
                paths.append(
                    PathMark(tuple(local(c) for c in self.straight(*event.cells)), "knockback")
                )
        legs = [e for e in events if e.kind == "move" and len(e.cells) == 2]
        if len(legs) > 1:  # a move in legs (a pick-up between): the squares it stopped on
            cells = [legs[0].cells[0]] + [e.cells[1] for e in legs]
            paths.append(PathMark(tuple(local(c) for c in cells), "move"))
        return paths

    def _targets(
        self, state: State, events: list[Event], i: int, by_label: dict[str, int]
    ) -> list[tuple[int, int]]:
        """(figure, its square when shot) of each target named by the attack ``events[i]``:
        the first from the event's cells, the others from the first later event of this
        attack that places them (damage, evade), else where they stand now."""
        event = events[i]
        head = event.text.rsplit(": rolls ", 1)[0]
        named: list[int] = []
        at = head.find(" on ")
        while at >= 0:
            parts = head[at + 4 :].split(", ")
            if all(p in by_label for p in parts):
                named = [by_label[p] for p in parts]
                break
            at = head.find(" on ", at + 1)
        found = [(named[0] if named else int(state.occupant[event.cells[1]]), event.cells[1])]
        later = []
        for e in events[i + 1 :]:
            if e.kind == "attack":
                break
            later.append(e)
        for figure in named[1:]:
            label = self.game.label(figure) + " "
            where = next((e.cells[0] for e in later if e.cells and e.text.startswith(label)), None)
            if where is None and state.cell[figure] != NO_CELL:
                where = int(state.cell[figure])
            if where is not None:
                found.append((figure, int(where)))
        return found

    def hindering_crossed(
        self, state: State, a: int, b: int, event: Event, target: int
    ) -> list[int]:
        """The hindering squares that count on the line ``a -> b`` (HC-5.11, HC-5.19-5.21,
        HC-4.23): crossed squares and the target's own, as envs.core.firelines counts them;
        none outdoors when a flyer shoots or is shot."""
        game = self.game
        hindering = game.hindering(state, movement=False)
        elevated = game.board.level > 0
        attacker = int(state.occupant[a]) if state.occupant[a] != NO_FIGURE else NO_FIGURE
        flyers = [f for f in (attacker, target) if f != NO_FIGURE and f >= 0]
        if any(game.flies(state, f) or state.mode[f] == SOAR for f in flyers) and not (
            game.indoor[a] or game.indoor[b]
        ):
            return []
        crossed = [int(c) for c in game.fire.sight.crossed(a, b)]
        if elevated[a] != elevated[b]:  # shooting up or down: the target's square only
            crossed = []
        elif elevated[a]:  # roof to roof: the elevated squares between
            crossed = [c for c in crossed if elevated[c]]
        return [c for c in crossed + [b] if hindering[c]]

    def straight(self, a: int, b: int) -> list[int]:
        """The squares of the straight (orthogonal or diagonal) push from ``a`` to ``b``."""
        width = self.game.width
        (r0, c0), (r1, c1) = divmod(a, width), divmod(b, width)
        steps = max(abs(r1 - r0), abs(c1 - c0))
        dr, dc = np.sign(r1 - r0), np.sign(c1 - c0)
        return [int((r0 + k * dr) * width + c0 + k * dc) for k in range(steps + 1)]

    def arrow(self, events: list[Event]) -> tuple[tuple[int, int] | None, str]:
        """(arrow, what it means): from the first move's start to the last move's end;
        without moves, a close attack, a break, a support or a carry (what a line of fire
        or a knockback path does not already show)."""
        local, game = self.local, self.game
        moves = [e for e in events if e.kind in ("move", "tk_move") and len(e.cells) == 2]
        if moves:
            what = "last move" if moves[0].kind == "move" else "telekinesis: moved"
            return (local(moves[0].cells[0]), local(moves[-1].cells[1])), what
        for e in events:
            if len(e.cells) != 2 or e.kind == "knockback":
                continue
            if e.kind == "attack" and int(game.chebyshev[e.cells[0], e.cells[1]]) > 1:
                continue  # drawn as its line of fire
            what = ARROW_WORDS.get(e.kind, e.kind.replace("_", " "))
            if e.kind == "attack":  # HC-4.14: by its kind, which the event's head names
                head = e.text.split(": rolls ", 1)[0]
                what = "ranged attack" if "ranged attack" in head else "close attack"
            end = self.across_wall(e) if e.kind == "break_wall" else e.cells[1]
            return (local(e.cells[0]), local(end)), what
        return None, ""

    def across_wall(self, event: Event) -> int:
        """A broken wall's square on the far side from the breaker (the event names both
        squares of the wall: "... breaks the wall between (r,c) and (r,c)")."""
        game = self.game
        found = [int(r) * game.width + int(c) for r, c in SQUARE_LABEL.findall(event.text)]
        if len(found) < 2:
            return event.cells[1]
        breaker = event.cells[0]
        return max(found[-2:], key=lambda c: int(game.chebyshev[breaker, c]))

    def named(self, text: str) -> int | None:
        """The figure whose name ``text`` starts with (the longest name), or None."""
        game = self.game
        found = [
            f
            for f in range(game.n_figures)
            if text.startswith(game.label(f))
            and text[len(game.label(f)) : len(game.label(f)) + 1] in ("", " ", ":", ",", ";")
        ]
        return max(found, key=lambda f: len(game.label(f))) if found else None

    def cards(self, state: State, events: list[Event]) -> list[FigureCard]:
        """The dial cards of the figure that acted and of the one it attacked (HC-2.8:
        the values and powers its dial shows now), for the side panel."""
        if not events:
            return []
        acting = target = None
        for event in events:
            if acting is None:
                acting = self.named(event.text)
            if event.kind == "attack" and len(event.cells) == 2 and target is None:
                there = int(state.occupant[event.cells[1]])
                _, _, rest = event.text.partition(" on ")
                target = there if there != NO_FIGURE else self.named(rest)
        if acting is None and state.selected != NO_FIGURE:
            acting = int(state.selected)
        cards = [] if acting is None else [FigureCard("acting", *self.dial_card(state, acting))]
        if target is not None and target != acting:
            cards.append(FigureCard("target", *self.dial_card(state, target)))
        return cards

    def dial_card(self, state: State, figure: int) -> tuple[str, int, list, list[str]]:
        """(title, owner, stats, lines) of ``figure``'s card: its name and frame label, its
        click, speed / attack / defense / damage / range as they are now and the powers its
        dial shows (or that it was KO'd)."""
        game = self.game
        owner = int(game.owner[figure])
        name = f"{game.label(figure)} ({self.labels[figure]})"
        if state.cell[figure] == NO_CELL:
            return name, owner, [], ["KO'd"]
        click = int(state.click[figure])
        stats = [
            (column, str(game.value(state, figure, k))) for k, column in enumerate(COLUMNS)
        ] + [("range", str(game.range_value(state, figure)))]
        powers = [
            f"{COLUMNS[col]}: {POWERS[key].name}"
            for col, key in enumerate(game.dial_powers[figure][click])
            if key is not None and key in POWERS
        ]
        title = f"{name}, click {click + 1} of {int(game.dial_length[figure])}"
        return title, owner, stats, powers or ["no powers at this click"]

    def who(self, event: Event) -> str:
        """The frame label of the figure an event's text starts with ("" if none)."""
        figure = self.named(event.text)
        return "" if figure is None else self.labels[figure]

    def dice_groups(self, events: list[Event]) -> list[Any]:
        """One group per roll of the last decision: who rolled for what, the faces, the
        result in words (an attack's total and hit or miss)."""
        group = getattr(render, "DiceGroup", None)
        if group is None:
            return []
        out = []
        for i, event in enumerate(events):
            if not event.dice:
                continue
            label = DICE_LABELS.get(event.kind, event.kind.replace("_", " "))
            who = self.who(event)
            out.append(
                group(
                    f"{who} {label}" if who else label,
                    "d6",
                    tuple(event.dice),
                    self.result(events, i),
                    owner=event.player if event.player >= 0 else None,
                )
            )
        return out

    def result(self, events: list[Event], i: int) -> str:
        event = events[i]
        faces = [int(d) for d in event.dice if d.isdigit()]
        total = sum(faces)
        if event.kind == "breakaway":
            return "breaks away" if "succeeds" in event.text else "fails"
        if event.kind in ("attack", "support"):
            after = []
            for e in events[i + 1 :]:
                if e.kind in ("attack", "support"):
                    break
                after.append(e.kind)
            if total == 2:
                return f"{total}: critical miss"
            what = (
                "critical hit"
                if total == 12
                else (
                    "miss"
                    if "miss" in after and not {"damage", "heal", "evade", "token"} & set(after)
                    else "hit"
                )
            )
            return f"{total}: {what}"
        return str(total)

    def scene(
        self, state: State, events: list[Event] | None, caption: str, status: list[str]
    ) -> Scene:
        events = list(events or [])
        arrow, arrow_meaning = self.arrow(events)
        highlight, meaning = self.highlight(state)
        extra = _optional(
            badge_meaning=BADGE_MEANING,
            key=self.key(state),
            dice_groups=self.dice_groups(events),
            cards=self.cards(state, events),
            cell_icons=self.cell_icons(),
            highlight_meaning=meaning,
            arrow_meaning=arrow_meaning,
        )
        return Scene(
            board=self.board(state),
            terrain_colors=self.colors,
            terrain_names=self.names,
            pieces=self.pieces(state),
            highlight=highlight,
            arrow=arrow,
            fallen=[self.local(e.cells[0]) for e in events if e.kind == "ko" and e.cells],
            dice=[d for e in events for d in e.dice],
            caption=caption,
            status_lines=status,
            edges=self.edges(state),
            paths=self.paths(state, events),
            **extra,
        )

    def highlight(self, state: State) -> tuple[list[int], str]:
        """The figure in the middle of its action and the targets it declared."""
        cells, words = [], []
        figure = state.selected
        if (
            figure != NO_FIGURE
            and state.cell[figure] != NO_CELL
            and state.phase.name not in ("ACTION", "GAME_OVER")
        ):
            cells.append(self.local(int(state.cell[figure])))
            words.append("the figure acting")
        targets = [
            self.local(int(state.cell[t])) for t in state.targets if state.cell[t] != NO_CELL
        ]
        if targets and state.phase.name == "TARGETS":
            cells += targets
            words.append("its targets")
        return cells, " and ".join(words)
