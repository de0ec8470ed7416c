"""The attack variants of envs/heroclix/RULES.md: power variants of the close or ranged action
that change the attack itself (its targets, rolls, damage or knockback) and leave the figure
where it stands, each registered under its power's key (:mod:`envs.heroclix.powers.variant_base`
explains the steps; ``[impl]`` marks our choices where the card is silent).

======================  ======  ==========================================================
power                   action  variant
======================  ======  ==========================================================
Flurry (P-SPD-1)        close   two close attacks, each rolled and resolved in turn; the
                                second (same or another adjacent enemy) only while Flurry
                                still shows; it may be left out [impl] (``end_action``)
Force Blast (P-SPD-8)   close   an adjacent enemy (not one with Charge) is knocked back 1d6
                                squares straight away: no roll, only knockback damage
Blades/Claws/Fangs      close   a close attack whose damage is a d6 roll (then a 12's +1, an
(P-ATT-1)                       object's bonus); against a blocking square, an object or a
                                wall of its square, 3-6 breaks it (no attack roll, HC-5.16)
Energy Explosion        ranged  damage 1; the roll is also compared with every figure next to
(P-ATT-2)                       each target, friends included (1 per time hit; a 12 +1 each)
Quake (P-ATT-4)         close   one roll against every adjacent enemy, clockwise from north;
                                damage at most 2; everyone damaged is knocked back; a held
                                object is not used [impl]
Incapacitate (P-ATT-6)  close,  an attack (close, or ranged with its bolts) dealing no damage;
                        ranged  each enemy hit with 0 or 1 tokens gets a token
Psychic Blast (P-ATT-7) ranged  a ranged attack whose damage is penetrating
Ranged Combat Expert    ranged  one target, +2 damage
(P-DMG-1)
Exploit Weakness        close   a close attack whose damage is penetrating
(P-DMG-4)
Close Combat Expert     close   +2 damage; not while holding an object (HC-6.11 would use it)
(P-DMG-8)
Pulse Wave (P-ATT-3)    ranged  at half range every figure with a line of fire that
                                ignores figures, one roll; 1 damage each if two or more
======================  ======  ==========================================================

The variants that move the figure as part of the action (Charge, Running Shot, Hypersonic
Speed) are :mod:`envs.heroclix.powers.move_variants`.
"""

from __future__ import annotations

from envs.core.events import Event
from envs.core.knockback import compass_direction
from envs.heroclix.combat.attack import AttackKind, AttackSpec
from envs.heroclix.combat.resolve import avoids_targeting, knock_back, resolve_attack
from envs.heroclix.combat.targets import (
    BREAK_DAMAGE,
    close_breakables,
    close_targets,
    close_walls,
    lines_to,
    ranged_targets,
    shots,
)
from envs.heroclix.game import WALL_PLANES, ActionKind
from envs.heroclix.phases.attacks import break_square, close_attack, declare_ranged
from envs.heroclix.phases.endings import finish_action
from envs.heroclix.powers.hooks import NO_KNOCKBACK, NO_RANGED, has_trait
from envs.heroclix.powers.variant_base import (
    CloseVariant,
    RangedVariant,
    Variant,
    back_to_figure,
    cells_of,
    register_variant,
)
from envs.heroclix.state import NO_OBJECT, SOAR, Phase

COMBAT_EXPERT_BONUS = 2  # P-DMG-1, P-DMG-8
QUAKE_DAMAGE = 2  # P-ATT-4
BLADES_BREAK = 3  # P-ATT-1: 3-6 breaks terrain


@register_variant
class ExploitWeakness(CloseVariant):
    key = "exploit_weakness"

    def spec(self, game, state, figure):
        return AttackSpec(AttackKind.CLOSE, power=self.key, penetrating=True)


@register_variant
class CloseCombatExpert(CloseVariant):
    key = "close_combat_expert"

    def offered(self, game, state, figure, options):
        return bool(options.close) and state.held[figure] == NO_OBJECT

    def spec(self, game, state, figure):
        return AttackSpec(AttackKind.CLOSE, power=self.key, bonus=COMBAT_EXPERT_BONUS)


@register_variant
class BladesClawsFangs(CloseVariant):
    key = "blades_claws_fangs"

    def offered(self, game, state, figure, options):
        return bool(
            options.close
            or close_breakables(game, state, figure)
            or close_walls(game, state, figure)
        )

    def spec(self, game, state, figure):
        return AttackSpec(AttackKind.CLOSE, power=self.key, damage_roll=True)

    def mask(self, game, state, legal):
        figure = state.selected
        super().mask(game, state, legal)
        legal.cells(ActionKind.SMASH, close_breakables(game, state, figure))
        for cell, side in close_walls(game, state, figure):
            legal.cells(WALL_PLANES[side], [cell])

    def apply(self, game, state, action, events):
        if action.kind == ActionKind.CLOSE:
            super().apply(game, state, action, events)
            return
        figure = state.selected
        roll = game.roll_for(state, figure)[0]
        events.append(
            Event(
                "damage_roll",
                f"{game.label(figure)} slashes: {roll}",
                state.seat,
                dice=(str(roll),),
            )
        )
        if roll >= BLADES_BREAK:
            if action.kind == ActionKind.SMASH:
                break_square(game, state, figure, action.cell, BREAK_DAMAGE, events)
            else:
                side = WALL_PLANES.index(action.kind)
                game.break_wall(state, int(game.walls.around[action.cell, side]))
                events.append(
                    Event(
                        "break_wall",
                        f"{game.label(figure)} breaks a wall",
                        state.seat,
                        cells=(action.cell,),
                    )
                )
        finish_action(game, state, figure, events)


@register_variant
class Flurry(CloseVariant):
    key = "flurry"

    def mask(self, game, state, legal):
        super().mask(game, state, legal)
        if state.variant_stage:
            legal.special(ActionKind.END_ACTION)

    def apply(self, game, state, action, events):
        figure = state.selected
        if action.kind == ActionKind.END_ACTION:
            finish_action(game, state, figure, events)
            return
        target = int(state.occupant[action.cell])
        if avoids_targeting(game, state, figure, target, events):
            if not state.variant_stage:
                back_to_figure(state)
            return
        close_attack(game, state, figure, target, self.spec(game, state, figure), events)
        if (
            state.variant_stage == 0
            and self.key in game.powers(state, figure)
            and close_targets(game, state, figure)
        ):
            state.variant_stage = 1  # P-SPD-1: the second attack, after the first resolved
        else:
            finish_action(game, state, figure, events)


@register_variant
class Quake(Variant):
    key = "quake"
    action = "close"

    def offered(self, game, state, figure, options):
        return bool(game.adjacent_enemies(state, figure))

    def begin(self, game, state, figure, events):
        here = int(state.cell[figure])
        foes = sorted(
            game.adjacent_enemies(state, figure),
            key=lambda e: compass_direction(game.board, here, int(state.cell[e])),
        )
        resolve_attack(
            game,
            state,
            figure,
            foes,
            AttackSpec(
                AttackKind.CLOSE, power=self.key, damage_cap=QUAKE_DAMAGE, always_knockback=True
            ),
            events,
        )
        finish_action(game, state, figure, events)


def blastable(game, state, figure) -> list[int]:
    return [
        e
        for e in game.adjacent_enemies(state, figure)
        if not has_trait(game.powers(state, e), NO_KNOCKBACK)
    ]


@register_variant
class ForceBlast(Variant):
    key = "force_blast"
    action = "close"

    def offered(self, game, state, figure, options):
        return bool(blastable(game, state, figure))

    def mask(self, game, state, legal):
        legal.cells(ActionKind.CLOSE, cells_of(state, blastable(game, state, state.selected)))

    def apply(self, game, state, action, events):
        figure = state.selected
        target = int(state.occupant[action.cell])
        distance = game.roll_for(state, figure)[0]
        events.append(
            Event(
                "force_blast",
                f"{game.label(figure)} blasts {game.label(target)} {distance} squares",
                state.seat,
                cells=(int(state.cell[figure]), action.cell),
                dice=(str(distance),),
            )
        )
        knock_back(
            game, state, target, int(state.cell[figure]), action.cell, distance, figure, events
        )
        finish_action(game, state, figure, events)


@register_variant
class EnergyExplosion(RangedVariant):
    key = "energy_explosion"

    def spec(self, game, state, figure):
        return AttackSpec(AttackKind.RANGED, power=self.key, damage=1, splash=True)


@register_variant
class PsychicBlast(RangedVariant):
    key = "psychic_blast"

    def own_lines(self, game):
        return game.options.psychic_blast_ignores_lof

    def shootable(self, game, state, figure):
        if not self.own_lines(game):
            return ranged_targets(game, state, figure)
        # flag psychic_blast_ignores_lof: only walls and blocking terrain stop the line
        snapshot = game.fire.snapshot(
            walls_intact=state.walls_intact, blocking=state.blocking, indoor=game.indoor
        )
        return shots(game, state, figure, game.range_value(state, figure), snapshot)

    def spec(self, game, state, figure):
        return AttackSpec(AttackKind.RANGED, power=self.key, penetrating=True)


@register_variant
class RangedCombatExpert(RangedVariant):
    key = "ranged_combat_expert"
    single = True

    def spec(self, game, state, figure):
        return AttackSpec(AttackKind.RANGED, power=self.key, bonus=COMBAT_EXPERT_BONUS)


@register_variant
class Incapacitate(Variant):
    key = "incapacitate"
    action = "close"

    def offered(self, game, state, figure, options):
        return bool(options.close or options.ranged)

    def spec(self, game, state, figure):
        kind = "ranged" if state.phase is Phase.TARGETS or state.targets else "close"
        return AttackSpec(kind, power=self.key, deals_damage=False, extra_token=True)

    def mask(self, game, state, legal):
        figure = state.selected
        legal.cells(ActionKind.CLOSE, cells_of(state, close_targets(game, state, figure)))
        legal.cells(ActionKind.RANGED, cells_of(state, ranged_targets(game, state, figure)))

    def apply(self, game, state, action, events):
        figure = state.selected
        if action.kind == ActionKind.RANGED:
            if not declare_ranged(game, state, figure, action.cell, events):
                back_to_figure(state)
            return
        target = int(state.occupant[action.cell])
        if avoids_targeting(game, state, figure, target, events):
            back_to_figure(state)
            return
        close_attack(game, state, figure, target, self.spec(game, state, figure), events)
        finish_action(game, state, figure, events)


@register_variant
class PulseWave(Variant):
    """P-ATT-3: at half range, one roll against every figure, friend or enemy, with a line of
    fire that ignores figures; damage 1 each when two or more are caught; the powers of the
    figures in range (its own others too) are ignored meanwhile; no targeting (no Shape
    Change). Not next to an enemy unless the ``pulse_wave_while_adjacent`` flag."""

    key = "pulse_wave"
    action = "ranged"

    def reach(self, game, state, figure) -> int:
        return (game.range_value(state, figure) + 1) // 2

    def in_range(self, game, state, figure) -> list[int]:
        cell, reach = int(state.cell[figure]), self.reach(game, state, figure)
        return [
            f
            for f in game.alive(state)
            if f != figure
            and int(game.chebyshev[cell, state.cell[f]])
            <= ((reach + 1) // 2 if state.mode[f] == SOAR else reach)
        ]

    def caught(self, game, state, figure) -> dict[int, bool]:
        """Figure -> hindered, for every figure the wave reaches."""
        if self.reach(game, state, figure) <= 0 or has_trait(game.powers(state, figure), NO_RANGED):
            return {}
        if game.adjacent_enemies(state, figure) and not game.options.pulse_wave_while_adjacent:
            return {}
        near = self.in_range(game, state, figure)
        if not near:
            return {}
        snapshot = game.fire.snapshot(
            walls_intact=state.walls_intact,
            blocking=state.blocking,
            hindering=game.hindering(state, movement=False),
            indoor=game.indoor,
        )  # figures do not block it
        return lines_to(game, state, figure, near, snapshot, stealth=False)  # powers ignored

    def offered(self, game, state, figure, options):
        owner = game.owner[figure]
        return any(game.owner[f] != owner for f in self.caught(game, state, figure))

    def begin(self, game, state, figure, events):
        caught = self.caught(game, state, figure)
        victims = sorted(caught, key=lambda f: int(state.cell[f]))
        spec = AttackSpec(
            AttackKind.RANGED, power=self.key, damage=1 if len(victims) >= 2 else None
        )
        state.powers_ignored = [figure, *self.in_range(game, state, figure)]
        try:
            resolve_attack(game, state, figure, victims, spec, events, hindered=caught)
        finally:
            state.powers_ignored = []
        finish_action(game, state, figure, events)
