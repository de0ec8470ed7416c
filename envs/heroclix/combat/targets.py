"""Whom (and what) a HeroClix figure may attack now: close (HC-4.27), ranged (HC-4.15-4.24),
thrown objects (HC-6.12), walls and blocking squares (HC-5.16) and objects (HC-6.4).

Lines of fire come from :class:`~envs.core.firelines.FireLines` under one
:func:`fire_snapshot` of the state (walls standing, blocking, hindering without water
(HC-5.13), ground and soaring figures, indoor squares); range is the square count of
HC-4.18 (``max(|dr|, |dc|)``), halved rounding up against a soaring target (HC-4.22).
"""

from __future__ import annotations

import functools
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from envs.core.firelines import FireSnapshot, FireTargets
from envs.core.lru import named_lru
from envs.heroclix.flags import CLOSE_SOARING
from envs.heroclix.game import HeroclixBase
from envs.heroclix.powers.hooks import (
    CLOSE_ANY_LEVEL,
    HIDDEN_BY_HINDERING,
    NO_RANGED,
    PICKS_UP_OBJECTS,
    has_trait,
)
from envs.heroclix.state import NO_CELL, NO_OBJECT, SOAR, State

LIGHT_THROW, HEAVY_THROW = (6, 2), (4, 3)  # HC-6.12: (range, damage); HC-6.18 the same damage
BREAK_DAMAGE = 3  # HC-5.16
SIGHT_REACH = 10  # envs/heroclix/RULES.md P-0: "within 10 squares and line of fire"
OBJECT_STRIKE_BONUS = (1, 2)  # HC-6.11: light, heavy


FIRE_SNAPSHOTS = 16  # positions whose snapshots are kept: a mask, its apply, a bot's plan
TERRAIN_MEMO_SIZE = 8  # terrain states whose close breakables and walls are kept, per square


def fire_snapshot(game: HeroclixBase, state: State) -> FireSnapshot:
    """The lines of fire of the position now; a snapshot copies what it reads, so one is kept
    per position (walls, blocking, hindering, figures and their flight) and asked again by
    the mask, the attack it allows and the bots."""
    hindering = game.hindering(state, movement=False)
    key = (
        state.walls_intact.tobytes(),
        state.blocking.tobytes(),
        hindering.tobytes(),
        state.cell.tobytes(),
        state.mode.tobytes(),
    )
    cache = named_lru(game.caches, "fire_snapshot", FIRE_SNAPSHOTS)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _fire_snapshot(game, state, hindering)
    return found


def lifted_snapshot(game: HeroclixBase, state: State, figure: int) -> FireSnapshot:
    """The lines of fire of the position with ``figure`` lifted off the board: its lines from
    any square it could stand on, since a line's own ends never block it (HC-4.17). One
    snapshot serves every square a moving figure is tried on."""
    return _fire_snapshot(game, state, game.hindering(state, movement=False), lifted=figure)


def _fire_snapshot(
    game: HeroclixBase, state: State, hindering: np.ndarray, lifted: int = -1
) -> FireSnapshot:
    alive = state.cell != NO_CELL
    if lifted >= 0:
        alive[lifted] = False
    ground = np.zeros(game.n_cells, dtype=bool)
    soaring = np.zeros(game.n_cells, dtype=bool)
    ground[state.cell[alive & (state.mode != SOAR)]] = True
    soaring[state.cell[alive & (state.mode == SOAR)]] = True
    return game.fire.snapshot(
        walls_intact=state.walls_intact,
        blocking=state.blocking,
        hindering=hindering,
        ground_figures=ground,
        soaring_figures=soaring,
        indoor=game.indoor,
    )


class LineSource(Protocol):
    """What the target searches ask lines of fire of: a :class:`FireSnapshot`, or a
    :class:`LazySnapshot` that builds one when first asked."""

    def targets_from(
        self,
        a: int,
        targets: npt.ArrayLike | None = None,
        *,
        attacker_soaring: bool = False,
        attacker_flying: bool = False,
        target_soaring: bool | np.ndarray = False,
        target_flying: bool | np.ndarray = False,
    ) -> FireTargets: ...


class LazySnapshot:
    """A :func:`fire_snapshot` built on the first line asked for: most masks ask none."""

    def __init__(self, game: HeroclixBase, state: State) -> None:
        self.game, self.state = game, state
        self._snapshot: FireSnapshot | None = None

    def targets_from(self, *args: Any, **kwargs: Any) -> FireTargets:
        if self._snapshot is None:
            self._snapshot = fire_snapshot(self.game, self.state)
        return self._snapshot.targets_from(*args, **kwargs)


def close_targets(game: HeroclixBase, state: State, figure: int) -> list[int]:
    """HC-4.27: adjacent enemies (HC-3.13: one level; soaring only with soaring); with
    Leap/Climb also an enemy on a touching square at another level that does not soar. Not
    those that avoided this action's targeting (P-DMG-7)."""
    found = [e for e in game.adjacent_enemies(state, figure) if e not in state.untargetable]
    if game.has_trait(state, figure, CLOSE_SOARING) and state.mode[figure] != SOAR:
        touching = game.touching[int(state.cell[figure])].tolist()  # flag leapclimb_hits_soaring
        found += [
            e
            for e in game.enemies_of(state, figure)
            if state.mode[e] == SOAR
            and int(state.cell[e]) in touching
            and e not in state.untargetable
        ]
    if has_trait(game.powers(state, figure), CLOSE_ANY_LEVEL) and state.mode[figure] != SOAR:
        cell = int(state.cell[figure])
        open_steps = game.neighbors(state)[cell]
        for enemy in game.enemies_of(state, figure):
            there = int(state.cell[enemy])
            if (
                enemy not in found
                and state.mode[enemy] != SOAR
                and enemy not in state.untargetable
                and game.board.level[there] != game.board.level[cell]
                and there in open_steps
                and not state.blocking[there]
            ):
                found.append(enemy)
    return sorted(found)


def reach_against(state: State, target: int, reach: int) -> int:
    """HC-4.22: a soaring target is shot at half the range, rounded up."""
    return (reach + 1) // 2 if state.mode[target] == SOAR else reach


def in_range(game: HeroclixBase, state: State, cell: int, target: int, reach: int) -> bool:
    return int(game.chebyshev[cell, state.cell[target]]) <= reach_against(state, target, reach)


def squares_in_range(game: HeroclixBase, state: State, figure: int) -> np.ndarray:
    """bool[n]: the squares from which ``figure`` would have a targetable enemy within its
    range (HC-4.18, HC-4.22): where a shot may be, before lines of fire and adjacency are
    asked (:func:`shots` finds nothing elsewhere)."""
    near = np.zeros(game.n_cells, dtype=bool)
    reach = game.range_value(state, figure)
    if reach <= 0:
        return near
    for enemy in game.enemies_of(state, figure):
        if enemy not in state.untargetable:
            near |= game.chebyshev[int(state.cell[enemy])] <= reach_against(state, enemy, reach)
    return near


def shootable_while_adjacent(game: HeroclixBase, state: State, figure: int) -> list[int] | None:
    """What the enemies next to ``figure`` leave its ranged attacks (HC-4.16, HC-4.21): None
    when no enemy is adjacent (any target); else the adjacent hovering enemies, when they are
    all the adjacent enemies and ``hover_adjacent_ranged_exception`` is on (its default: the
    exception lets the figure shoot them, and only them); else none ([])."""
    adjacent = game.adjacent_enemies(state, figure)
    if not adjacent:
        return None
    if game.options.hover_adjacent_ranged_exception and all(
        game.flies(state, e) and state.mode[e] != SOAR for e in adjacent
    ):
        return adjacent
    return []


def shots(
    game: HeroclixBase, state: State, figure: int, reach: int, snapshot: LineSource | None = None
) -> dict[int, bool]:
    """Enemies ``figure`` may shoot at ``reach`` squares: enemy -> hindered (+1, HC-5.11).
    Only adjacent hovering enemies, or none, while an enemy is adjacent
    (:func:`shootable_while_adjacent`); none when ``reach`` is 0 (HC-4.15) or the figure makes
    no ranged attacks (Battle Fury, P-DMG-2). Stealth (P-SPD-10) turns a hindered line to
    the figure into a blocked one; targets that avoided this action (P-DMG-7) are left out."""
    allowed = shootable_while_adjacent(game, state, figure)
    if reach <= 0 or allowed == [] or has_trait(game.powers(state, figure), NO_RANGED):
        return {}
    cell = int(state.cell[figure])
    enemies = [
        e
        for e in (game.enemies_of(state, figure) if allowed is None else allowed)
        if in_range(game, state, cell, e, reach) and e not in state.untargetable
    ]
    if not enemies:
        return {}
    return lines_to(game, state, figure, enemies, snapshot or fire_snapshot(game, state))


def lines_to(
    game: HeroclixBase,
    state: State,
    figure: int,
    others: list[int],
    snapshot: LineSource,
    stealth: bool = True,
) -> dict[int, bool]:
    """The figures of ``others`` (not ``figure``) with a clear line of fire from ``figure``
    under ``snapshot``: figure -> hindered (HC-5.11), flight included (HC-4.23). With
    ``stealth``, Stealth (P-SPD-10) turns a hindered line to a figure into a blocked one."""
    if not others:
        return {}
    found = snapshot.targets_from(
        int(state.cell[figure]),
        np.asarray([state.cell[f] for f in others]),
        attacker_soaring=bool(state.mode[figure] == SOAR),
        attacker_flying=game.flies(state, figure),
        target_soaring=np.asarray([state.mode[f] == SOAR for f in others]),
        target_flying=np.asarray([game.flies(state, f) for f in others]),
    )
    return {
        f: bool(h)
        for f, c, h in zip(others, found.clear, found.hindered)
        if c and not (stealth and h and has_trait(game.powers(state, f), HIDDEN_BY_HINDERING))
    }


def ranged_targets(
    game: HeroclixBase, state: State, figure: int, snapshot: LineSource | None = None
) -> dict[int, bool]:
    """HC-4.15-4.24 with the figure's own range."""
    return shots(game, state, figure, game.range_value(state, figure), snapshot)


def throw_targets(
    game: HeroclixBase, state: State, figure: int, snapshot: LineSource | None = None
) -> dict[int, bool]:
    """HC-6.12: a held object thrown at range 6 (light) or 4 (heavy), one target."""
    held = int(state.held[figure])
    if held == NO_OBJECT or not has_trait(game.powers(state, figure), PICKS_UP_OBJECTS):
        return {}
    return shots(game, state, figure, object_throw(game, held)[0], snapshot)


def object_throw(game: HeroclixBase, obj: int) -> tuple[int, int]:
    """(range, damage) of the object thrown (HC-6.12); hurled, its damage (HC-6.18)."""
    return HEAVY_THROW if game.object_heavy[obj] else LIGHT_THROW


def throw_damage(game: HeroclixBase, obj: int) -> int:
    return object_throw(game, obj)[1]


SUPER_STRENGTH_WALL_BONUS = 2  # P-ATT-5 flag superstrength_2008_wall_bonus


def close_break_damage(game: HeroclixBase, state: State, figure: int) -> int:
    """A close attack's damage on terrain or an object: the damage value and a held
    object's bonus (HC-6.11), + 2 for Super Strength under the 2008 flag."""
    damage = game.damage_value(state, figure) + strike_bonus(game, state, figure)
    if game.options.superstrength_2008_wall_bonus and has_trait(
        game.powers(state, figure), PICKS_UP_OBJECTS
    ):
        damage += SUPER_STRENGTH_WALL_BONUS
    return damage


def strike_bonus(game: HeroclixBase, state: State, figure: int) -> int:
    """HC-6.11: a held object adds 1 (light) or 2 (heavy) to a close attack's damage."""
    held = int(state.held[figure])
    return 0 if held == NO_OBJECT else OBJECT_STRIKE_BONUS[int(game.object_heavy[held])]


def break_shots(game: HeroclixBase, state: State, figure: int) -> list[tuple[int, int, bool]]:
    """HC-5.16 default: the ranged attacks that could break terrain, as (range, damage,
    thrown): the figure's own shot, then a held object thrown (HC-6.12: 6 or 4 squares for
    2 or 3). Only those dealing 3 count; none while an enemy is adjacent (HC-4.16)."""
    if (
        state.mode[figure] == SOAR
        or game.adjacent_enemies(state, figure)
        or has_trait(game.powers(state, figure), NO_RANGED)
    ):
        return []
    shots = []
    reach = game.range_value(state, figure)
    if reach > 0 and game.damage_value(state, figure) >= BREAK_DAMAGE:
        shots.append((reach, game.damage_value(state, figure), False))
    held = int(state.held[figure])
    if held != NO_OBJECT and has_trait(game.powers(state, figure), PICKS_UP_OBJECTS):
        reach, damage = object_throw(game, held)
        if damage >= BREAK_DAMAGE:
            shots.append((reach, damage, True))
    return shots


def break_shot(
    game: HeroclixBase, state: State, figure: int, square: int
) -> tuple[int, int, bool] | None:
    """The first of :func:`break_shots` that reaches ``square`` (the one the attack uses)."""
    distance = int(game.chebyshev[state.cell[figure], square])
    return next((s for s in break_shots(game, state, figure) if distance <= s[0]), None)


def _per_square(game: HeroclixBase, name: str, terrain: Any) -> dict[int, Any]:
    """The answers of ``name`` per square under the terrain state ``terrain`` (a key of what
    it reads), kept for the last :data:`TERRAIN_MEMO_SIZE` terrain states."""
    memo = named_lru(game.caches, name, TERRAIN_MEMO_SIZE)
    per_square = memo.get(terrain)
    if per_square is None:
        per_square = memo[terrain] = {}
    return per_square


def close_breakables(game: HeroclixBase, state: State, figure: int) -> list[int]:
    """Blocking squares and unheld objects a close attack on terrain reaches (HC-5.16,
    HC-6.4): touching squares with no wall between, at its level (a blocking square at any
    level), and an object on its own square; none while soaring."""
    if state.mode[figure] == SOAR:
        return []
    cell = int(state.cell[figure])
    # Per square, kept by the terrain it reads (walls, blocking, objects): every mask of a
    # figure on a walled or cluttered map asks it, and the terrain seldom changes.
    per_square = _per_square(
        game,
        "close_breakables",
        (state.walls_intact.tobytes(), state.blocking.tobytes(), state.objects.tobytes()),
    )
    found = per_square.get(cell)
    if found is None:
        objects = game.objects.lying(state.objects)
        breakable = (state.blocking & game.board.exists) | objects
        level = game.board.level
        close = {
            int(c)
            for c in game.neighbors(state)[cell]
            if c >= 0 and breakable[c] and (level[c] == level[cell] or state.blocking[c])
        }
        if objects[cell]:
            close.add(cell)
        found = per_square[cell] = tuple(sorted(close))
    return list(found)


def close_walls(game: HeroclixBase, state: State, figure: int) -> list[tuple[int, int]]:
    """(square, side) of the walls standing on the sides of the figure's own square."""
    if state.mode[figure] == SOAR:
        return []
    cell = int(state.cell[figure])
    per_square = _per_square(game, "close_walls", state.walls_intact.tobytes())
    found = per_square.get(cell)
    if found is None:
        standing = game.walls.standing_sides(state.walls_intact)
        found = per_square[cell] = tuple(
            (cell, side) for side in np.flatnonzero(standing[cell]).tolist()
        )
    return list(found)


class BreakMeans:
    """What ``figure`` could break terrain with now, each part worked out when first asked:
    the mask asks both :func:`terrain_targets` and :func:`wall_targets`, which share them."""

    def __init__(self, game: HeroclixBase, state: State, figure: int) -> None:
        self.game, self.state, self.figure = game, state, figure

    @functools.cached_property
    def close_damage(self) -> int:
        return close_break_damage(self.game, self.state, self.figure)

    @functools.cached_property
    def shots(self) -> list[tuple[int, int, bool]]:
        return break_shots(self.game, self.state, self.figure)


def terrain_targets(
    game: HeroclixBase,
    state: State,
    figure: int,
    snapshot: LineSource | None = None,
    means: BreakMeans | None = None,
) -> tuple[list[int], bool]:
    """HC-5.16 / HC-6.4: blocking squares and unheld objects the figure can break now, and
    whether that is a close attack (:func:`close_breakables`) or ranged. Close wins when
    both are possible (its damage is never lower)."""
    cell = int(state.cell[figure])
    objects = game.objects.lying(state.objects)
    breakable = (state.blocking & game.board.exists) | objects
    if state.mode[figure] == SOAR:
        return [], True
    if not breakable.any():  # the common case on open maps: nothing to break, close or far
        return [], False
    means = means or BreakMeans(game, state, figure)
    if means.close_damage >= BREAK_DAMAGE:
        close = close_breakables(game, state, figure)
        if close:
            return close, True
    shots = means.shots
    if not shots:
        return [], False
    reach = max(s[0] for s in shots)
    near = np.flatnonzero(breakable & (game.chebyshev[cell] <= reach))
    near = near[near != cell]
    if not near.size:
        return [], False
    snapshot = snapshot or fire_snapshot(game, state)
    found = snapshot.targets_from(cell, near, attacker_flying=game.flies(state, figure))
    return [int(c) for c in near[found.clear]], False


def wall_targets(
    game: HeroclixBase,
    state: State,
    figure: int,
    snapshot: LineSource | None = None,
    means: BreakMeans | None = None,
) -> list[tuple[int, int]]:
    """HC-5.16 default: (square, side 0..3 = N, E, S, W) of each wall the figure can break:
    close, a wall on its own square's side; ranged, a wall on the far side of a square in
    range and line of fire (the square in front of the wall)."""
    if state.mode[figure] == SOAR or not state.walls_intact.any():  # no wall left to break
        return []
    cell = int(state.cell[figure])
    standing = game.walls.standing_sides(state.walls_intact)
    found: list[tuple[int, int]] = []
    means = means or BreakMeans(game, state, figure)
    if means.close_damage >= BREAK_DAMAGE:
        found += close_walls(game, state, figure)
    shots = means.shots
    if not shots:
        return found
    reach = max(s[0] for s in shots)
    near = np.flatnonzero(
        standing.any(axis=1) & (game.chebyshev[cell] <= reach) & game.board.exists
    )
    near = near[near != cell]
    if not near.size:
        return found
    snapshot = snapshot or fire_snapshot(game, state)
    clear = snapshot.targets_from(cell, near, attacker_flying=game.flies(state, figure)).clear
    distance = game.chebyshev[cell]
    for square in near[clear].tolist():
        for side in np.flatnonzero(standing[square]).tolist():
            across = game.walls.other_side(int(game.walls.around[square, side]), square)
            if distance[across] >= distance[square]:  # the wall faces away from the shooter
                found.append((square, side))
    return found


def within_sight(game: HeroclixBase, state: State, figure: int, others: list[int]) -> list[int]:
    """``others`` within 10 squares and a clear line of fire of ``figure`` (not an attack:
    no adjacency rule, no bolts); Stealth blocks a hindered line (P-SPD-10)."""
    cell = int(state.cell[figure])
    near = [
        f for f in others if f != figure and int(game.chebyshev[cell, state.cell[f]]) <= SIGHT_REACH
    ]
    seen = list(lines_to(game, state, figure, near, fire_snapshot(game, state))) if near else []
    return sorted(seen + [figure] * (figure in others))
