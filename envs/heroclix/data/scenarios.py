"""HeroClix scenarios: the map, the build total, each player's force and placements, and the
objects (envs/heroclix/RULES.md HC-2, HC-6.2, HC-7.1).

A scenario file (``scenarios/<id>.yaml``) is validated on load together with its map
(:mod:`envs.heroclix.data.map_file`) and figures (:mod:`envs.heroclix.data.figures`); every problem is a
:class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field and what is
wrong.

Format
======

::

    id: duel                  # lower-case; must equal the file name
    name: Duel
    description: Two 100-point forces on the small map.
    map: small                # a shipped map id or a path (relative to this file)
    build_total: 100          # HC-2.2: a multiple of 100 up to MAX_BUILD_TOTAL; actions per
                              # turn = build_total / 100
    max_rounds: 30            # optional (HC-7.1 default 30)
    players:                  # 2-4, in seat order (clockwise, HC-2.11)
      - edge: S               # the map edge whose starting area the force sets up in (HC-2.10)
        force:
          - {figure: quarry, at: [14, 6]}                 # a figure id or path; [row, col]
          - {figure: skylash, at: [15, 9], mode: soar}    # flyers: hover (default) or soar
      - edge: N
        force: [...]
    objects:                  # HC-2.7 / HC-6.2: each object at most once
      - {object: dumpster, at: [7, 3]}
    figures: []               # optional: the scenario's own figures, each written as in a
                              # figure file (envs.heroclix.data.figures); forces name them by id
    pool: [quarry, mender]    # optional: what setup="play" drafts from (default: every
                              # shipped and inline figure)

With the env option ``setup="play"`` (HC-2 played as decisions) the forces, edges and object
squares are not used, so a scenario meant only for it may leave out ``force`` and ``edge``
and the objects' ``at`` (then ``setup="fixed"``, the default, refuses it).

Checks: every force within the build total, no unique figure twice, no archenemies on one
force (HC-2.2-2.4, HC-3.11); each figure on its player's starting area, one per square,
no two players on one edge (HC-2.10); soaring only for flyers and never indoors (HC-2.9,
HC-5.3); objects on clear, empty squares outside every starting area (HC-2.7). A fixed
scenario is the default for training; the first player is rolled at the start of every game
(HC-2.11).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, cast

import numpy as np
import pydantic

from envs.core.scenario import (
    STRICT_MODEL,
    STRING_SOURCE,
    YAML_SUFFIXES,
    LineMap,
    list_data_ids,
    load_yaml,
    looks_like_path,
    read_text,
    resolve_data_file,
    validate,
)
from envs.heroclix.data.figures import Figure, figure_from_data, figure_ids, load_figure
from envs.heroclix.data.forces import check_force
from envs.heroclix.data.map_file import load_map
from envs.heroclix.data.maps import ClixMap, Terrain

SCENARIOS_DIR = Path(__file__).resolve().parent / "scenarios"
DEFAULT_MAX_ROUNDS = 30  # HC-7.1 default
LIGHT_OBJECTS = ("table", "construction_material", "filing_cabinet")  # HC-6.2
HEAVY_OBJECTS = ("engine_block", "dumpster", "forklift")
OBJECT_KINDS = {**{k: 0 for k in LIGHT_OBJECTS}, **{k: 1 for k in HEAVY_OBJECTS}}
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_BUILD_TOTAL = 5000  # 50 actions a turn (HC-3.2): a typo must not make turns endless

Square = tuple[pydantic.StrictInt, pydantic.StrictInt]


class _Entry(pydantic.BaseModel):
    model_config = STRICT_MODEL
    figure: pydantic.StrictStr
    at: Square
    mode: Literal["hover", "soar"] | None = None


class _Player(pydantic.BaseModel):
    model_config = STRICT_MODEL
    edge: Literal["N", "E", "S", "W"] | None = None
    force: list[_Entry] = []


class _Object(pydantic.BaseModel):
    model_config = STRICT_MODEL
    object: Literal[LIGHT_OBJECTS + HEAVY_OBJECTS]  # type: ignore[valid-type]
    at: Square | None = None


class _ScenarioFile(pydantic.BaseModel):
    model_config = STRICT_MODEL
    id: str = pydantic.Field(pattern=r"^[a-z][a-z0-9_]*$", strict=True)
    name: str = pydantic.Field(min_length=1, strict=True)
    description: str = pydantic.Field(default="", strict=True)
    map: pydantic.StrictStr
    build_total: pydantic.StrictInt = pydantic.Field(le=MAX_BUILD_TOTAL)
    max_rounds: pydantic.StrictInt = pydantic.Field(default=DEFAULT_MAX_ROUNDS, ge=1)
    players: list[_Player] = pydantic.Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    objects: list[_Object] = []
    figures: list[Any] = []
    pool: list[pydantic.StrictStr] = []


@dataclass(frozen=True)
class ForceEntry:
    figure: Figure
    cell: int  # on the scenario's map
    mode: str  # "hover" (also for non-flyers: on the ground) or "soar"


@dataclass(frozen=True)
class PlayerSetup:
    edge: str
    force: tuple[ForceEntry, ...]


@dataclass(frozen=True)
class PlacedObject:
    kind: str
    cell: int  # -1: placed in play (setup="play", HC-2.7)


@dataclass(frozen=True, eq=False)
class Scenario:
    id: str
    name: str
    description: str
    map: ClixMap
    build_total: int
    max_rounds: int
    players: tuple[PlayerSetup, ...]
    objects: tuple[PlacedObject, ...]
    pool: tuple[Figure, ...]  # what setup="play" drafts from (HC-2.3)
    source: str = STRING_SOURCE

    @property
    def fixed(self) -> bool:
        """Whether forces, placements and objects are all given (setup="fixed")."""
        return all(p.force for p in self.players) and all(o.cell >= 0 for o in self.objects)


def scenario_ids() -> list[str]:
    return list_data_ids(SCENARIOS_DIR, YAML_SUFFIXES)


def load_scenario(id_or_path: str | os.PathLike[str]) -> Scenario:
    """A shipped scenario by id (``"duel"``) or a scenario file by path (cached per file)."""
    path = resolve_data_file(id_or_path, SCENARIOS_DIR, YAML_SUFFIXES, "scenario", must_exist=True)
    return _load_cached(str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime_ns: int) -> Scenario:
    return scenario_from_text(
        read_text(path), path, base=Path(path).parent, file_name=Path(path).name
    )


def scenario_from_text(
    text: str,
    source: str = STRING_SOURCE,
    *,
    base: Path | None = None,
    file_name: str | None = None,
) -> Scenario:
    """Parse and check a scenario; ``base`` resolves relative map and figure paths."""
    data, lines = load_yaml(text, source)
    spec = validate(_ScenarioFile, data, source, lines)
    if file_name is not None and spec.id != Path(file_name).stem:
        raise lines.error(("id",), f"id '{spec.id}' does not match the file name '{file_name}'")
    clix_map = _load_part(load_map, spec.map, base, lines, ("map",))
    inline = _inline_figures(data, spec, lines)
    players = []
    edges: dict[str, int] = {}
    taken: dict[int, tuple] = {}
    for seat, player in enumerate(spec.players):
        at = ("players", seat)
        if not player.force:  # setup="play" drafts it
            players.append(PlayerSetup(player.edge or "", ()))
            continue
        if player.edge is None:
            raise lines.error(at, "a player with a force needs its edge (HC-2.10)")
        if player.edge in edges:
            raise lines.error(
                at + ("edge",),
                f"edge {player.edge} is already player "
                f"{edges[player.edge]}'s (HC-2.6: one edge per player)",
            )
        edges[player.edge] = seat
        area = clix_map.start_areas.get(player.edge)
        if area is None:
            raise lines.error(
                at + ("edge",),
                f"map '{clix_map.id}' has no starting area on "
                f"edge {player.edge}; it has {', '.join(clix_map.start_areas)}",
            )
        entries = []
        for k, entry in enumerate(player.force):
            where = at + ("force", k)
            figure = inline.get(entry.figure) or _load_part(
                load_figure, entry.figure, base, lines, where + ("figure",)
            )
            cell = _square(clix_map, entry.at, lines, where + ("at",))
            if not area[cell]:
                raise lines.error(
                    where + ("at",),
                    f"{tuple(entry.at)} is outside the starting "
                    f"area of edge {player.edge} (HC-2.10)",
                )
            if cell in taken:
                raise lines.error(
                    where + ("at",),
                    f"{tuple(entry.at)} already holds the figure "
                    f"of {'.'.join(map(str, taken[cell]))} (one per square)",
                )
            taken[cell] = where
            mode = entry.mode or "hover"
            if mode == "soar" and not figure.flyer:
                raise lines.error(
                    where + ("mode",), f"{figure.name} is not a flyer; only flyers soar (HC-1.12)"
                )
            if mode == "soar" and clix_map.indoor[cell]:
                raise lines.error(
                    where + ("mode",),
                    f"{tuple(entry.at)} is indoors: a flyer there starts hovering (HC-2.9, HC-5.3)",
                )
            entries.append(ForceEntry(figure, cell, mode))
        check_force(
            [e.figure for e in entries],
            spec.build_total,
            lines=lines,
            at=at + ("force",),
            build_total_at=("build_total",),
            figure_paths=[at + ("force", k, "figure") for k in range(len(entries))],
        )
        players.append(PlayerSetup(player.edge, tuple(entries)))
    objects = _objects(spec, clix_map, taken, lines)
    pool = _pool(spec, inline, base, lines)
    return Scenario(
        spec.id,
        spec.name,
        spec.description,
        clix_map,
        spec.build_total,
        spec.max_rounds,
        tuple(players),
        objects,
        pool,
        source,
    )


def _pool(
    spec: _ScenarioFile, inline: dict[str, Figure], base: Path | None, lines: LineMap
) -> tuple[Figure, ...]:
    """The figures setup="play" drafts from: ``pool:`` ids, or every shipped and inline one."""
    if not spec.pool:
        return tuple([load_figure(i) for i in figure_ids()] + list(inline.values()))
    found: list[Figure] = []
    for k, name in enumerate(spec.pool):
        if name in (f.id for f in found):
            raise lines.error(("pool", k), f"figure '{name}' is in the pool twice")
        found.append(inline.get(name) or _load_part(load_figure, name, base, lines, ("pool", k)))
    return tuple(found)


def _inline_figures(data: Any, spec: _ScenarioFile, lines: LineMap) -> dict[str, Figure]:
    """The scenario's own figures (``figures:``, written as in a figure file), by id."""
    found: dict[str, Figure] = {}
    shipped = set(figure_ids())
    for k in range(len(spec.figures)):
        figure = figure_from_data(data, lines, ("figures", k))
        if figure.id in shipped or figure.id in found:
            raise lines.error(
                ("figures", k, "id"),
                f"figure id '{figure.id}' is already "
                f"{'a shipped figure' if figure.id in shipped else 'defined above'}",
            )
        found[figure.id] = figure
    return found


def _load_part(loader, value: str, base: Path | None, lines: LineMap, at: tuple):
    """A map or figure named by id, or by a path relative to the scenario file."""
    target = value
    if base is not None and looks_like_path(value, YAML_SUFFIXES) and not os.path.isabs(value):
        target = str(base / value)
    try:
        return loader(target)
    except ValueError as exc:
        raise lines.error(at, str(exc)) from exc


def _square(clix_map: ClixMap, at: tuple[int, int], lines: LineMap, where: tuple) -> int:
    rows, cols = clix_map.size
    row, col = at
    if not (0 <= row < rows and 0 <= col < cols):
        raise lines.error(where, f"{tuple(at)} is off the {rows}x{cols} map '{clix_map.id}'")
    return clix_map.cell(row, col)


def _objects(
    spec: _ScenarioFile, clix_map: ClixMap, taken: dict, lines: LineMap
) -> tuple[PlacedObject, ...]:
    seen: dict[str, int] = {}
    used: set[int] = set()
    # A sum of arrays is an array (a map has at least two starting areas); mypy sees the
    # start value 0 in it too.
    in_area = cast(np.ndarray, sum(a.astype(int) for a in clix_map.start_areas.values()) > 0)
    placed = []
    for k, obj in enumerate(spec.objects):
        where = ("objects", k)
        if obj.object in seen:
            raise lines.error(
                where + ("object",),
                f"the {obj.object} is already objects."
                f"{seen[obj.object]} (the box has one of each, HC-6.2)",
            )
        seen[obj.object] = k
        if obj.at is None:  # placed in play (setup="play")
            placed.append(PlacedObject(obj.object, -1))
            continue
        cell = _square(clix_map, obj.at, lines, where + ("at",))
        terrain = Terrain(int(clix_map.board.terrain[cell]))
        problem = None
        if terrain is not Terrain.CLEAR:
            problem = f"is {terrain.name.lower()} terrain, not a clear square"
        elif in_area[cell]:
            problem = "is in a starting area"
        elif cell in taken or cell in used:
            problem = "is not empty"
        if problem:
            raise lines.error(
                where + ("at",),
                f"{tuple(obj.at)} {problem}: objects go on clear, "
                "empty squares outside every starting area (HC-2.7)",
            )
        used.add(cell)
        placed.append(PlacedObject(obj.object, cell))
    return tuple(placed)
