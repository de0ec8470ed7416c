"""The attack actions of the FIGURE phase and the TARGETS phase (HC-4, HC-5.16, HC-6).

:class:`AttackHandlers` is the part of the FIGURE phase that offers and carries out attacks:
close (HC-4.27, with a held object HC-6.11), ranged (HC-4.15-4.26; several bolts continue in
TARGETS), breaking terrain (``smash`` a blocking square or object; ``wall_n/e/s/w`` a wall on
that side of the marked square, HC-5.16, HC-5.17, HC-6.4) and the action powers of
:mod:`.power_actions` (each on its own plane; the flow never names a power).
"""

from __future__ import annotations

from ..core.events import Event
from ..core.flow import LegalMask, PhaseRule
from ..core.hooks import EXTRA_ACTIONS
from ..core.tokens import GONE
from .combat import resolve_attack
from .game import WALL_PLANES, ClixBase
from .power_actions import power_actions
from .powers import HOOKS
from .state import NO_OBJECT, Phase, State
from .targets import (BREAK_DAMAGE, LazySnapshot, break_shot, close_targets, ranged_targets,
                      strike_bonus, terrain_targets, throw_damage, wall_targets)
from .turns import finish_action

Rule = PhaseRule[ClixBase, State]
POWER_PLANES = sorted({HOOKS.get(EXTRA_ACTIONS, k).plane for k in HOOKS.keys(EXTRA_ACTIONS)})


class AttackHandlers(Rule):
    attack_handlers = {"close": "close", "ranged": "ranged", "smash": "smash",
                       **{plane: "wall" for plane in WALL_PLANES},
                       **{plane: "use_power" for plane in POWER_PLANES}}

    def mark_attacks(self, game: ClixBase, state: State, legal: LegalMask, figure: int) -> None:
        snapshot = LazySnapshot(game, state)
        legal.cells("close", [int(state.cell[t]) for t in close_targets(game, state, figure)])
        legal.cells("ranged", [int(state.cell[t]) for t in
                               ranged_targets(game, state, figure, snapshot)])
        legal.cells("smash", terrain_targets(game, state, figure, snapshot)[0])
        for cell, side in wall_targets(game, state, figure, snapshot):
            legal.cells(WALL_PLANES[side], [cell])
        for effect in power_actions(game, state, figure):
            cells = effect.targets(game, state, figure)
            if effect.special and cells:
                legal.special(effect.plane)
            elif not effect.special:
                legal.cells(effect.plane, cells)

    def close(self, game, state, action, events):
        figure = state.selected
        target = int(state.occupant[action.cell])
        bonus = strike_bonus(game, state, figure)
        use_held_object(game, state, figure, events)  # HC-6.11: it must use the object
        resolve_attack(game, state, figure, [target], "close", events, bonus=bonus)
        finish_action(game, state, figure, events)

    def ranged(self, game, state, action, events):
        figure = state.selected
        state.targets = [int(state.occupant[action.cell])]
        found = ranged_targets(game, state, figure)
        if len(state.targets) < game.bolts[figure] and len(found) > 1:
            state.phase = Phase.TARGETS
        else:
            fire(game, state, figure, events, found)

    def smash(self, game, state, action, events):
        figure = state.selected
        _, is_close = terrain_targets(game, state, figure)
        damage = breaking_damage(game, state, figure, action.cell, is_close, events)
        break_square(game, state, figure, action.cell, damage, events)
        finish_action(game, state, figure, events)

    def wall(self, game, state, action, events):
        figure = state.selected
        side = WALL_PLANES.index(action.kind)
        wall = int(game.walls.around[action.cell, side])
        close = action.cell == state.cell[figure]
        # the mask offers only attacks that deal the 3 damage (wall_targets)
        breaking_damage(game, state, figure, action.cell, close, events)
        game.break_wall(state, wall)
        a, b = (int(c) for c in game.walls.edges[wall])
        events.append(Event("break_wall", f"{game.label(figure)} breaks the wall between "
                            f"{game.cell_label(a)} and {game.cell_label(b)}", state.seat,
                            cells=(int(state.cell[figure]), action.cell)))
        finish_action(game, state, figure, events)

    def use_power(self, game, state, action, events):
        figure = state.selected
        for effect in power_actions(game, state, figure):
            if effect.plane == action.kind:
                cell = action.cell if action.on_cell else int(state.cell[figure])
                if effect.perform(game, state, figure, cell, events):
                    finish_action(game, state, figure, events)
                return
        raise AssertionError(f"no power of {game.label(figure)} acts on {action.kind}")


def breaking_damage(game: ClixBase, state: State, figure: int, square: int, close: bool,
                    events: list[Event]) -> int:
    """HC-5.16 default: the damage of an attack on terrain. Close: the damage value and a
    held object's strike bonus (the object is used up, HC-6.9); ranged: the figure's own
    shot, or its held object thrown when only that reaches or breaks (HC-6.12)."""
    if close:
        damage = game.damage_value(state, figure) + strike_bonus(game, state, figure)
        use_held_object(game, state, figure, events)
        return damage
    shot = break_shot(game, state, figure, square)
    if shot is None:
        raise AssertionError(f"{game.label(figure)} has no shot that breaks {square}")
    if shot[2]:
        use_held_object(game, state, figure, events)
    return shot[1]


def use_held_object(game: ClixBase, state: State, figure: int, events: list[Event]) -> None:
    """HC-6.9: an object used in an attack is destroyed, hit or miss."""
    obj = int(state.held[figure])
    if obj != NO_OBJECT:
        state.held[figure] = NO_OBJECT
        state.objects[obj] = GONE
        events.append(Event("object_used", f"the {game.objects.names[obj]} is destroyed",
                            state.seat))


def break_square(game: ClixBase, state: State, figure: int, cell: int, damage: int,
                 events: list[Event]) -> None:
    """HC-5.16/5.17 and HC-6.4: 3 damage in one attack breaks a blocking square (it becomes
    hindering) or destroys every unheld object on the square."""
    if damage < BREAK_DAMAGE:
        return
    if state.blocking[cell]:
        state.blocking[cell] = False
        state.rubble[cell] = True
        what = "blocking terrain"
    else:
        for obj in game.objects.at(state.objects, cell):
            state.objects[obj] = GONE
        what = "object"
    events.append(Event("break", f"{game.label(figure)} breaks the {what} at "
                        f"{game.cell_label(cell)}", state.seat,
                        cells=(int(state.cell[figure]), cell)))


def more_targets(game: ClixBase, state: State, figure: int) -> list[int]:
    """HC-4.24: further enemies for the same ranged attack, each once."""
    return [t for t in ranged_targets(game, state, figure) if t not in state.targets]


def fire(game: ClixBase, state: State, figure: int, events: list[Event],
         hindered: dict[int, bool] | None = None) -> None:
    """Shoot the declared targets; ``hindered``: :func:`ranged_targets` of this position."""
    if hindered is None:
        hindered = ranged_targets(game, state, figure)
    resolve_attack(game, state, figure, list(state.targets), "ranged", events,
                   hindered={t: hindered.get(t, False) for t in state.targets})
    finish_action(game, state, figure, events)


class Targets(Rule):
    """HC-4.24: another target (up to the figure's bolts) or fire at those declared."""

    handlers = {"ranged": "add", "fire": "fire"}

    def mask(self, game, state, legal):
        legal.cells("ranged", [int(state.cell[t]) for t in more_targets(game, state,
                                                                         state.selected)])
        legal.special("fire")

    def add(self, game, state, action, events):
        figure = state.selected
        state.targets = [*state.targets, int(state.occupant[action.cell])]
        if len(state.targets) >= game.bolts[figure] or not more_targets(game, state, figure):
            fire(game, state, figure, events)

    def fire(self, game, state, action, events):
        fire(game, state, state.selected, events)


def hurl_object(game: ClixBase, state: State, figure: int, obj: int, cell: int,
                events: list[Event]) -> None:
    """HC-6.15-6.20: a ranged attack with the Telekinesis figure's attack value; the object
    sets the damage and is destroyed, hit or miss; no +1 for hindering."""
    target = int(state.occupant[cell])
    state.objects[obj] = GONE
    resolve_attack(game, state, figure, [target], "ranged", events,
                   damage=throw_damage(game, obj))
