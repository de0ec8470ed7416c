"""The attack actions of the FIGURE phase and the TARGETS phase (HC-4, HC-5.16, HC-6).

:class:`AttackHandlers` is the part of the FIGURE phase that offers and carries out attacks:
close (HC-4.27, with a held object HC-6.11), ranged (HC-4.15-4.26; several bolts continue in
TARGETS), breaking terrain (``smash`` a blocking square or object; ``wall_n/e/s/w`` a wall on
that side of the marked square, HC-5.16, HC-5.17, HC-6.4) and the action powers of
:mod:`envs.heroclix.powers.actions` (each on its own plane; the flow never names a power).
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.events import Event
from envs.core.flow import LegalMask, PhaseRule, handles
from envs.core.hooks import EXTRA_ACTIONS
from envs.core.tokens import GONE
from envs.heroclix.combat.attack import RANGED, AttackKind, AttackResult, AttackSpec
from envs.heroclix.combat.resolve import avoids_targeting, resolve_attack
from envs.heroclix.combat.targets import (
    BREAK_DAMAGE,
    BreakMeans,
    LazySnapshot,
    break_shot,
    close_break_damage,
    close_targets,
    ranged_targets,
    strike_bonus,
    terrain_targets,
    throw_damage,
    wall_targets,
)
from envs.heroclix.game import WALL_PLANES, ActionKind, HeroclixBase
from envs.heroclix.phases.endings import finish_action
from envs.heroclix.powers.actions import power_actions
from envs.heroclix.powers.hooks import HOOKS, VARIANTS
from envs.heroclix.state import NO_FIGURE, NO_OBJECT, Phase, State

Rule = PhaseRule[HeroclixBase, State]
POWER_PLANES = sorted({HOOKS.get(EXTRA_ACTIONS, k).plane for k in HOOKS.keys(EXTRA_ACTIONS)})


@dataclass(frozen=True)
class AttackOptions:
    """The plain attacks the FIGURE phase found: power variants of them reuse the search."""

    close: list[int]  # enemies it may attack in close combat
    ranged: dict[int, bool]  # enemies it may shoot -> hindered
    snapshot: LazySnapshot


class AttackHandlers(Rule):
    def mark_attacks(
        self, game: HeroclixBase, state: State, legal: LegalMask, figure: int
    ) -> AttackOptions:
        snapshot = LazySnapshot(game, state)
        close = close_targets(game, state, figure)
        ranged = ranged_targets(game, state, figure, snapshot)
        legal.cells(ActionKind.CLOSE, [int(state.cell[t]) for t in close])
        legal.cells(ActionKind.RANGED, [int(state.cell[t]) for t in ranged])
        means = BreakMeans(game, state, figure)
        legal.cells(ActionKind.SMASH, terrain_targets(game, state, figure, snapshot, means)[0])
        for cell, side in wall_targets(game, state, figure, snapshot, means):
            legal.cells(WALL_PLANES[side], [cell])
        for effect in power_actions(game, state, figure):
            cells = effect.targets(game, state, figure)
            if effect.special and cells:
                legal.special(effect.plane)
            elif not effect.special:
                legal.cells(effect.plane, cells)
        return AttackOptions(close, ranged, snapshot)

    @handles(ActionKind.CLOSE)
    def close(self, game, state, action, events):
        figure = state.selected
        target = int(state.occupant[action.cell])
        if avoids_targeting(game, state, figure, target, events):
            return  # P-DMG-7: another target or another action; nothing is spent
        close_attack(game, state, figure, target, AttackSpec(AttackKind.CLOSE), events)
        finish_action(game, state, figure, events)

    @handles(ActionKind.RANGED)
    def ranged(self, game, state, action, events):
        declare_ranged(game, state, state.selected, action.cell, events)

    @handles(ActionKind.SMASH)
    def smash(self, game, state, action, events):
        figure = state.selected
        _, is_close = terrain_targets(game, state, figure)
        damage = breaking_damage(game, state, figure, action.cell, is_close, events)
        break_square(game, state, figure, action.cell, damage, events)
        finish_action(game, state, figure, events)

    @handles(*WALL_PLANES)
    def wall(self, game, state, action, events):
        figure = state.selected
        side = WALL_PLANES.index(action.kind)
        wall = int(game.walls.around[action.cell, side])
        close = action.cell == state.cell[figure]
        # the mask offers only attacks that deal the 3 damage (wall_targets)
        breaking_damage(game, state, figure, action.cell, close, events)
        game.break_wall(state, wall)
        a, b = (int(c) for c in game.walls.edges[wall])
        events.append(
            Event(
                "break_wall",
                f"{game.label(figure)} breaks the wall between "
                f"{game.cell_label(a)} and {game.cell_label(b)}",
                state.seat,
                cells=(int(state.cell[figure]), action.cell),
            )
        )
        finish_action(game, state, figure, events)

    @handles(*POWER_PLANES)
    def use_power(self, game, state, action, events):
        figure = state.selected
        for effect in power_actions(game, state, figure):
            if effect.plane == action.kind:
                cell = action.cell if action.on_cell else int(state.cell[figure])
                if effect.perform(game, state, figure, cell, events):
                    finish_action(game, state, figure, events)
                return
        raise AssertionError(f"no power of {game.label(figure)} acts on {action.kind}")


def breaking_damage(
    game: HeroclixBase, state: State, figure: int, square: int, close: bool, events: list[Event]
) -> int:
    """HC-5.16 default: the damage of an attack on terrain. Close: the damage value and a
    held object's strike bonus (the object is used up, HC-6.9); ranged: the figure's own
    shot, or its held object thrown when only that reaches or breaks (HC-6.12)."""
    if close:
        damage = close_break_damage(game, state, figure)
        use_held_object(game, state, figure, events)
        return damage
    shot = break_shot(game, state, figure, square)
    if shot is None:
        raise AssertionError(f"{game.label(figure)} has no shot that breaks {square}")
    if shot[2]:
        use_held_object(game, state, figure, events)
    return shot[1]


def use_held_object(game: HeroclixBase, state: State, figure: int, events: list[Event]) -> None:
    """HC-6.9: an object used in an attack is destroyed, hit or miss."""
    obj = int(state.held[figure])
    if obj != NO_OBJECT:
        state.held[figure] = NO_OBJECT
        state.objects[obj] = GONE
        events.append(
            Event("object_used", f"the {game.objects.names[obj]} is destroyed", state.seat)
        )


def close_attack(
    game: HeroclixBase,
    state: State,
    figure: int,
    target: int,
    spec: AttackSpec,
    events: list[Event],
) -> AttackResult:
    """A close attack; a held object adds its strike bonus and is used (HC-6.11)."""
    bonus = strike_bonus(game, state, figure)
    if bonus:
        spec = AttackSpec(
            **{
                **spec.__dict__,
                "bonus": spec.bonus + bonus,
                "object_bonus": spec.object_bonus + bonus,
            }
        )
    use_held_object(game, state, figure, events)
    return resolve_attack(game, state, figure, [target], spec, events)


def declare_ranged(
    game: HeroclixBase,
    state: State,
    figure: int,
    cell: int,
    events: list[Event],
    bolts: int | None = None,
) -> bool:
    """HC-4.24: the first target of a ranged attack (a plain one, or the variant's in
    ``state.variant``); more bolts continue in TARGETS, else it fires. False when the target
    avoided it (P-DMG-7): the decision stays open."""
    target = int(state.occupant[cell])
    if avoids_targeting(game, state, figure, target, events):
        return False
    state.targets = [target]
    bolts = int(game.bolts[figure]) if bolts is None else bolts
    found = shootable(game, state, figure)
    if len(state.targets) < bolts and more_targets(game, state, figure):
        state.phase = Phase.TARGETS
    else:
        fire(game, state, figure, events, found)
    return True


def break_square(
    game: HeroclixBase, state: State, figure: int, cell: int, damage: int, events: list[Event]
) -> None:
    """HC-5.16/5.17 and HC-6.4: 3 damage in one attack breaks a blocking square (it becomes
    hindering; a Barrier marker is just removed, P-DEF-6) or destroys every unheld object
    on the square."""
    if damage < BREAK_DAMAGE:
        return
    if state.barrier[cell] != NO_FIGURE:
        state.barrier[cell] = NO_FIGURE
        state.blocking[cell] = False
        what = "barrier"
    elif state.blocking[cell]:
        state.blocking[cell] = False
        state.rubble[cell] = True
        what = "blocking terrain"
    else:
        for obj in game.objects.at(state.objects, cell):
            state.objects[obj] = GONE
        what = "object"
    events.append(
        Event(
            "break",
            f"{game.label(figure)} breaks the {what} at {game.cell_label(cell)}",
            state.seat,
            cells=(int(state.cell[figure]), cell),
        )
    )


def shootable(game: HeroclixBase, state: State, figure: int) -> dict[int, bool]:
    """The targets of the ranged attack being declared: the variant's own, or
    :func:`ranged_targets` (enemy -> hindered)."""
    if state.variant:
        return HOOKS.get(VARIANTS, state.variant).shootable(game, state, figure)
    return ranged_targets(game, state, figure)


def more_targets(game: HeroclixBase, state: State, figure: int) -> list[int]:
    """HC-4.24: further enemies for the same ranged attack, each once."""
    return [t for t in shootable(game, state, figure) if t not in state.targets]


def ranged_spec(game: HeroclixBase, state: State, figure: int) -> AttackSpec:
    """The ranged attack being declared: the variant's (``state.variant``) or a plain one."""
    if state.variant:
        return HOOKS.get(VARIANTS, state.variant).spec(game, state, figure)
    return RANGED


def fire(
    game: HeroclixBase,
    state: State,
    figure: int,
    events: list[Event],
    hindered: dict[int, bool] | None = None,
) -> None:
    """Shoot the declared targets; ``hindered``: :func:`shootable` of this position."""
    if hindered is None:
        hindered = shootable(game, state, figure)
    result = resolve_attack(
        game,
        state,
        figure,
        list(state.targets),
        ranged_spec(game, state, figure),
        events,
        hindered={t: hindered.get(t, False) for t in state.targets},
    )
    if state.variant and HOOKS.get(VARIANTS, state.variant).after_fire(
        game, state, figure, result, events
    ):
        return  # the variant goes on (Mind Control's controlled actions)
    finish_action(game, state, figure, events)


class Targets(Rule):
    """HC-4.24: another target (up to the figure's bolts) or fire at those declared."""

    def mask(self, game, state, legal):
        legal.cells(
            "ranged", [int(state.cell[t]) for t in more_targets(game, state, state.selected)]
        )
        legal.special(ActionKind.FIRE)

    @handles(ActionKind.RANGED)
    def add(self, game, state, action, events):
        figure = state.selected
        target = int(state.occupant[action.cell])
        if avoids_targeting(game, state, figure, target, events):
            return
        state.targets = [*state.targets, target]
        if len(state.targets) >= game.bolts[figure] or not more_targets(game, state, figure):
            fire(game, state, figure, events)

    @handles(ActionKind.FIRE)
    def fire(self, game, state, action, events):
        fire(game, state, state.selected, events)


def hurl_object(
    game: HeroclixBase, state: State, figure: int, obj: int, cell: int, events: list[Event]
) -> None:
    """HC-6.15-6.20: a ranged attack with the Telekinesis figure's attack value; the object
    sets the damage and is destroyed, hit or miss; no +1 for hindering."""
    target = int(state.occupant[cell])
    state.objects[obj] = GONE
    spec = AttackSpec(AttackKind.RANGED, damage=throw_damage(game, obj))
    resolve_attack(game, state, figure, [target], spec, events)
