"""Helpers for the HeroClix rule tests (envs/heroclix/RULES.md HC-1 ... HC-8, envs/heroclix/RULES.md).

Every rule test writes a small map and a scenario with its own inline figures (dials chosen
by the test) into pytest's ``tmp_path``, places figures by label with
``HeroclixGame.from_scenario``, scripts every die, applies actions by their names and checks
the public API only: legal action names, ``game.to_dict(state)``, the events returned by
``apply``, ``game.render_text`` and ``game.returns``.

Maps are drawn from a ``rows x cols`` grid of square glyphs (default 12 x 12, all clear, the
N starting area on rows 0-1 and the S one on rows 10-11, columns 3-8). Squares are (row, col).
"""

from __future__ import annotations

import builtins
import itertools
import types
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import pytest
import yaml

from envs.heroclix.rules import HeroclixGame

ROWS = COLS = 12
_counter = itertools.count()


# -- maps -------------------------------------------------------------------------------------


def grid(
    marks: Mapping[tuple[int, int], str] | None = None,
    rows: int = ROWS,
    cols: int = COLS,
    edges: str = "NS",
) -> list[list[str]]:
    """Square glyphs: clear, the starting areas of ``edges``, then ``marks`` on top."""
    g = [["."] * cols for _ in range(rows)]
    for edge in edges:
        for r, c in _start_squares(edge, rows, cols):
            g[r][c] = edge
    for (r, c), glyph in (marks or {}).items():
        g[r][c] = glyph
    return g


def _start_squares(edge: str, rows: int, cols: int) -> list[tuple[int, int]]:
    if edge == "N":
        return [(r, c) for r in (0, 1) for c in range(3, cols - 3)]
    if edge == "S":
        return [(r, c) for r in (rows - 1, rows - 2) for c in range(3, cols - 3)]
    if edge == "W":
        return [(r, c) for c in (0, 1) for r in range(3, rows - 3)]
    return [(r, c) for c in (cols - 1, cols - 2) for r in range(3, rows - 3)]


def draw(glyphs: Sequence[Sequence[str]], walls: Iterable = ()) -> str:
    """The map drawing of HC map files: squares, walls between them, the frame."""
    rows, cols = len(glyphs), len(glyphs[0])
    wall_set = {tuple(sorted((tuple(a), tuple(b)))) for a, b in walls}
    lines = ["+" + "-+" * cols]
    for r in range(rows):
        line = "|"
        for c in range(cols):
            line += glyphs[r][c]
            if c < cols - 1:
                line += "|" if ((r, c), (r, c + 1)) in wall_set else " "
        lines.append(line + "|")
        if r < rows - 1:
            edge = "+"
            for c in range(cols):
                edge += "-" if ((r, c), (r + 1, c)) in wall_set else " "
                edge += "+" if c < cols - 1 else ""
            lines.append(edge + "+")
    lines.append("+" + "-+" * cols)
    return "\n".join(lines)


def map_yaml(
    glyphs,
    walls=(),
    levels: Mapping[tuple[int, int], int] | None = None,
    indoor: bool | Iterable[tuple[int, int]] = False,
    map_id: str = "testmap",
) -> str:
    rows, cols = len(glyphs), len(glyphs[0])
    text = f"id: {map_id}\nname: Test map\n"
    if isinstance(indoor, bool):
        text += f"indoor: {'true' if indoor else 'false'}\n"
    else:
        inside = set(map(tuple, indoor))
        text += "indoor: |\n" + "".join(
            "  " + "".join("i" if (r, c) in inside else "." for c in range(cols)) + "\n"
            for r in range(rows)
        )
    text += "map: |\n" + "".join(f"  {line}\n" for line in draw(glyphs, walls).splitlines())
    if levels:
        text += "levels: |\n" + "".join(
            "  " + "".join(str(levels.get((r, c), 0) or ".") for c in range(cols)) + "\n"
            for r in range(rows)
        )
    return text


# -- figures ----------------------------------------------------------------------------------


def click(speed=6, attack=9, defense=16, damage=2, powers=(None, None, None, None)) -> dict:
    return {"values": [speed, attack, defense, damage], "powers": list(powers)}


def fig(
    fid: str,
    name: str | None = None,
    *,
    points: int = 20,
    range: int = 0,
    targets: int = 1,
    flyer: bool = False,
    archenemy: str | None = None,
    clicks: int = 6,
    speed: int = 6,
    attack: int = 9,
    defense: int = 16,
    damage: int = 2,
    powers=(None, None, None, None),
    dial: Sequence[dict] | None = None,
) -> dict:
    """An inline figure: ``dial`` clicks (``click(...)``) then KO; by default ``clicks``
    identical clicks of the given values and powers."""
    if dial is None:
        dial = [click(speed, attack, defense, damage, powers) for _ in builtins.range(clicks)]
    data = {
        "id": fid,
        "name": name or fid.replace("_", " ").title(),
        "points": points,
        "range": range,
        "targets": targets,
        "flyer": flyer,
        "dial": [*dial, "KO"],
    }
    if archenemy:
        data["archenemy_color"] = archenemy
    return data


# -- games ------------------------------------------------------------------------------------


def build(
    tmp_path: Path,
    forces: Sequence[Sequence[dict]],
    placements: Mapping | None = None,
    *,
    glyphs=None,
    marks=None,
    walls=(),
    levels=None,
    indoor=False,
    edges: str | None = None,
    objects: Mapping[str, tuple[int, int]] | None = None,
    build_total: int = 100,
    max_rounds: int = 30,
    turn: int | None = 0,
    dice: Sequence[str] | None = (),
    options: dict | None = None,
    seed: int = 0,
    **position,
):
    """(game, state): one force of inline figures per player (seats in order), placed at
    ``placements`` (label -> (row, col[, "soar"]) or None) from starting squares; the turn
    given to ``turn`` and the dice scripted (``dice=None`` keeps the seeded dice)."""
    edge_order = edges or ("NS" if len(forces) == 2 else "NSEW"[: len(forces)])
    glyphs = glyphs or grid(marks, edges=edge_order)
    rows, cols = len(glyphs), len(glyphs[0])
    tag = next(_counter)
    map_path = tmp_path / f"map{tag}.yaml"
    map_path.write_text(map_yaml(glyphs, walls, levels, indoor, map_id=f"map{tag}"))
    figures, seen = [], set()
    players = []
    for seat, force in enumerate(forces):
        squares = iter(
            [
                (r, c)
                for r, c in _start_squares(edge_order[seat], rows, cols)
                if glyphs[r][c] == edge_order[seat]
            ]
        )
        entries = []
        for f in force:
            if f["id"] not in seen:
                seen.add(f["id"])
                figures.append(f)
            r, c = next(squares)
            entries.append({"figure": f["id"], "at": [r, c]})
        players.append({"edge": edge_order[seat], "force": entries})
    scenario = {
        "id": f"sc{tag}",
        "name": "Test",
        "map": map_path.name,
        "build_total": build_total,
        "max_rounds": max_rounds,
        "players": players,
        "figures": figures,
    }
    if objects:
        # scenario objects go on clear squares outside the starting areas; moved below
        free = [(r, c) for r in range(3, rows - 3) for c in range(cols) if glyphs[r][c] == "."]
        scenario["objects"] = [
            {"object": kind, "at": list(free[k])} for k, kind in enumerate(objects)
        ]
    sc_path = tmp_path / f"sc{tag}.yaml"
    sc_path.write_text(yaml.safe_dump(scenario, sort_keys=False))
    pos = dict(position)
    if placements is not None:
        pos["placements"] = dict(placements)
    if objects:
        pos["objects"] = {
            **{k: tuple(v) if v is not None else None for k, v in objects.items()},
            **pos.get("objects", {}),
        }
    if turn is not None:
        pos["turn"] = turn
    if dice is not None:
        pos["dice"] = list(dice)
    return HeroclixGame.from_scenario(str(sc_path), seed=seed, options=options, **pos)


# -- reading the game -------------------------------------------------------------------------


def names(game, state) -> list[str]:
    return [game.action_to_string(state, a) for a in game.legal_actions(state)]


def d(game, state) -> dict:
    return game.to_dict(state)


def idx(game, label: str) -> int:
    return game.figure_label.index(label)


def rc(game, cell: int):
    return None if cell < 0 else divmod(int(cell), game.width)


def sq(game, state, label: str):
    """(row, col) of a figure, None once KO'd."""
    return rc(game, d(game, state)["cell"][idx(game, label)])


def clicks(game, state, label: str) -> int:
    return d(game, state)["click"][idx(game, label)]


def tokens(game, state, label: str) -> int:
    return d(game, state)["tokens"][idx(game, label)]


def soaring(game, state, label: str) -> bool:
    return d(game, state)["mode"][idx(game, label)] == 1


def phase(game, state) -> str:
    return d(game, state)["phase"]


def seat(game, state) -> int:
    return d(game, state)["seat"]


def object_at(game, state, kind: str):
    """(row, col) of an object, "held" or "gone"."""
    k = list(game.objects.names).index(kind)
    cell = d(game, state)["objects"][k]
    if cell >= 0:
        return rc(game, cell)
    held = [i for i, h in enumerate(d(game, state)["held"]) if h == k]
    return "held" if held else "gone"


def held_by(game, state, label: str):
    k = d(game, state)["held"][idx(game, label)]
    return None if k < 0 else game.objects.names[k]


def at(r, c) -> str:
    return f"({r},{c})"


def select(game, state, label: str) -> list:
    r, c = sq(game, state, label)
    return game.apply_string(state, f"select {label} {at(r, c)}")


def move(game, state, label: str, dest, soar: bool = False) -> list:
    """Select ``label`` and move it to ``dest`` (one leg)."""
    events = select(game, state, label)
    word = "soar" if soar else "move"
    return events + game.apply_string(state, f"{word} {label} to {at(*dest)}")


def dests(game, state, label: str, soar: bool = False, selected: bool = False) -> set:
    """Squares ``label`` may move to now (after selecting it on a copy)."""
    s = copy(game, state)
    if not selected:
        select(game, s, label)
    prefix = f"{'soar' if soar else 'move'} {label} to "
    return {
        tuple(int(x) for x in n[len(prefix) + 1 : -1].split(","))
        for n in names(game, s)
        if n.startswith(prefix)
    }


def close(game, state, attacker: str, target: str) -> list:
    events = select(game, state, attacker)
    return events + game.apply_string(state, f"close {target} {at(*sq(game, state, target))}")


def ranged(game, state, attacker: str, *targets: str, fire: bool = False) -> list:
    events = select(game, state, attacker)
    for t in targets:
        events += game.apply_string(state, f"ranged {t} {at(*sq(game, state, t))}")
    if fire:
        events += game.apply_string(state, "fire")
    return events


def options_of(game, state, label: str, prefix: str) -> set[str]:
    """Names starting with ``prefix`` once ``label`` is selected (on a copy)."""
    s = copy(game, state)
    select(game, s, label)
    return {n for n in names(game, s) if n.startswith(prefix)}


def close_targets(game, state, label: str) -> set[str]:
    return {n[len("close ") :].rsplit(" (", 1)[0] for n in options_of(game, state, label, "close ")}


def ranged_targets(game, state, label: str) -> set[str]:
    return {
        n[len("ranged ") :].rsplit(" (", 1)[0] for n in options_of(game, state, label, "ranged ")
    }


def copy(game, state):
    return game.from_dict(game.to_dict(state))


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def of_kind(events, kind: str) -> list:
    return [e for e in events if e.kind == kind]


@pytest.fixture
def H(tmp_path):
    """The helpers, with ``H.build(...)`` bound to this test's ``tmp_path``."""
    ns = types.SimpleNamespace(
        **{
            k: v
            for k, v in globals().items()
            if isinstance(v, types.FunctionType)
            and not k.startswith("_")
            and v.__module__ == __name__
            and k != "H"
        }
    )
    ns.build = lambda *a, **k: build(tmp_path, *a, **k)
    ns.tmp_path = tmp_path
    return ns
