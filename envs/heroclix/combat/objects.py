"""Objects in play (HC-6): what Super Strength may pick up and what Telekinesis may move or
hurl, and where.

* Pick-up (HC-6.6 default): during a move, at no cost, an unheld object on the figure's
  square or a square adjacent to it (HC-3.13, figures ignored); one object at a time (HC-6.5).
* Telekinesis (HC-6.13-6.20 defaults): an unheld object on or beside the figure's square.
  Moved: up to 10 squares by a path crossing no blocking terrain or wall, onto a clear square
  with no figure and no object. Hurled: the count is the shortest such path from the object
  (not counted) to the target (counted), +1 when the target stands higher than the object;
  at most 10, or 5 against a soaring target; no line of fire, no +1 for hindering.
"""

from __future__ import annotations

import numpy as np

from envs.heroclix.data.maps import Terrain
from envs.heroclix.game import HeroclixBase
from envs.heroclix.powers.hooks import MOVES_OBJECTS, NO_RANGED, PICKS_UP_OBJECTS, has_trait
from envs.heroclix.state import NO_OBJECT, SOAR, State

TK_REACH = 10  # HC-6.14, HC-6.15
TK_REACH_SOARING = 5  # HC-6.15 default


def objects_beside(game: HeroclixBase, state: State, cell: int) -> list[int]:
    """Squares (ascending) holding an unheld object on ``cell`` or adjacent to it."""
    lying = game.objects.lying(state.objects)
    squares = [int(c) for c in game.adjacency(state)[cell] if c >= 0 and lying[c]]
    if lying[cell]:
        squares.append(int(cell))
    return sorted(squares)


def pickup_squares(game: HeroclixBase, state: State, figure: int) -> list[int]:
    """HC-6.5/6.6: where ``figure`` may pick up an object now (none if it holds one)."""
    if (
        state.held[figure] != NO_OBJECT
        or state.mode[figure] == SOAR
        or not has_trait(game.powers(state, figure), PICKS_UP_OBJECTS)
    ):
        return []
    return objects_beside(game, state, int(state.cell[figure]))


def pick_up(game: HeroclixBase, state: State, figure: int, cell: int) -> int:
    obj = game.objects.at(state.objects, cell)[0]
    state.objects[obj] = -1  # HELD
    state.held[figure] = obj
    return obj


def telekinesis_objects(game: HeroclixBase, state: State, figure: int) -> list[int]:
    if not has_trait(game.powers(state, figure), MOVES_OBJECTS) or state.mode[figure] == SOAR:
        return []
    return objects_beside(game, state, int(state.cell[figure]))


def object_paths(game: HeroclixBase, state: State, start: int, limit: int) -> np.ndarray:
    """int16[n] squares from ``start`` along paths that cross no blocking square or wall
    (-1 beyond ``limit`` or unreachable)."""
    table = game.neighbors(state)
    passable = game.board.exists & ~state.blocking
    dist = np.full(game.n_cells, -1, dtype=np.int16)
    dist[start] = 0
    frontier = [start]
    for step in range(1, limit + 1):
        nxt = []
        for cell in frontier:
            for there in table[cell]:
                if there >= 0 and dist[there] < 0 and passable[there]:
                    dist[there] = step
                    nxt.append(int(there))
        frontier = nxt
        if not frontier:
            break
    return dist


def tk_destinations(game: HeroclixBase, state: State, obj: int) -> list[int]:
    dist = object_paths(game, state, int(state.objects[obj]), TK_REACH)
    clear = (
        (game.board.terrain == Terrain.CLEAR) & ~state.rubble & game.board.exists & ~state.blocking
    )
    free = clear & (state.occupant < 0) & ~game.objects.lying(state.objects)
    return [int(c) for c in np.flatnonzero((dist > 0) & free)]


def tk_targets(game: HeroclixBase, state: State, figure: int, obj: int) -> list[int]:
    """Squares of enemies the object can be hurled at (HC-6.15-6.17): a ranged attack, so
    none for Battle Fury (P-DMG-2), nor enemies that avoided this action (P-DMG-7)."""
    if has_trait(game.powers(state, figure), NO_RANGED):
        return []
    start = int(state.objects[obj])
    dist = object_paths(game, state, start, TK_REACH)
    level = game.board.level
    found = []
    for enemy in game.enemies_of(state, figure):
        cell = int(state.cell[enemy])
        if dist[cell] < 0 or enemy in state.untargetable:
            continue
        count = int(dist[cell]) + int(level[cell] > level[start])
        high = state.mode[enemy] == SOAR or (
            game.options.tk_flyer_limit_includes_hover and game.flies(state, enemy)
        )
        if count <= (TK_REACH_SOARING if high else TK_REACH):
            found.append(cell)
    return sorted(found)
