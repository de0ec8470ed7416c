"""The power variants of envs/heroclix/RULES.md, each registered under its power's key
(:mod:`envs.heroclix.powers.variant_base` explains the steps; ``[impl]`` marks our choices where the card is silent).

======================  ======  ==========================================================
power                   action  variant
======================  ======  ==========================================================
Flurry (P-SPD-1)        close   two close attacks, each rolled and resolved in turn; the
                                second (same or another adjacent enemy) only while Flurry
                                still shows; it may be left out [impl] (``end_action``)
Charge (P-SPD-5)        close   break away if needed, move up to half the move (after
                                hindering's halving), then one close attack or none
Force Blast (P-SPD-8)   close   an adjacent enemy (not one with Charge) is knocked back 1d6
                                squares straight away: no roll, only knockback damage
Running Shot (P-SPD-11) ranged  break away if needed, move up to half the move to a square
                                with a shot (declared before moving), then the ranged attack
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
Hypersonic Speed        move    full move, automatic breakaway, no stops next to enemies;
(P-SPD-9)                       once on the way a close attack or a half-range shot
======================  ======  ==========================================================
"""

from __future__ import annotations

from envs.core.events import Event
from envs.core.knockback import compass_direction
from envs.heroclix.combat.resolve import (
    AttackSpec,
    attack_total,
    avoids_targeting,
    deal_damage,
    defense_total,
    knock_back,
    land_damage,
    resolve_attack,
)
from envs.heroclix.combat.targets import (
    BREAK_DAMAGE,
    close_breakables,
    close_targets,
    close_walls,
    lines_to,
    ranged_targets,
    shots,
)
from envs.heroclix.game import WALL_PLANES
from envs.heroclix.movement import mark_destinations, reach, walk_to
from envs.heroclix.phases.attacks import break_square, close_attack, declare_ranged
from envs.heroclix.phases.endings import finish_action
from envs.heroclix.powers.hooks import EVADES, HOOKS, NO_KNOCKBACK, NO_RANGED, has_trait
from envs.heroclix.powers.variant_base import (
    CloseVariant,
    RangedVariant,
    Variant,
    back_to_figure,
    break_away_first,
    cells_of,
    register_variant,
)
from envs.heroclix.state import NO_CELL, NO_FIGURE, NO_OBJECT, SOAR, Phase

COMBAT_EXPERT_BONUS = 2  # P-DMG-1, P-DMG-8
QUAKE_DAMAGE = 2  # P-ATT-4
BLADES_BREAK = 3  # P-ATT-1: 3-6 breaks terrain


@register_variant
class ExploitWeakness(CloseVariant):
    key = "exploit_weakness"

    def spec(self, game, state, figure):
        return AttackSpec("close", power=self.key, penetrating=True)


@register_variant
class CloseCombatExpert(CloseVariant):
    key = "close_combat_expert"

    def offered(self, game, state, figure, options):
        return bool(options.close) and state.held[figure] == NO_OBJECT

    def spec(self, game, state, figure):
        return AttackSpec("close", power=self.key, bonus=COMBAT_EXPERT_BONUS)


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
        return AttackSpec("close", power=self.key, damage_roll=True)

    def mask(self, game, state, legal):
        figure = state.selected
        super().mask(game, state, legal)
        legal.cells("smash", close_breakables(game, state, figure))
        for cell, side in close_walls(game, state, figure):
            legal.cells(WALL_PLANES[side], [cell])

    def apply(self, game, state, action, events):
        if action.kind == "close":
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
            if action.kind == "smash":
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
            legal.special("end_action")

    def apply(self, game, state, action, events):
        figure = state.selected
        if action.kind == "end_action":
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
            AttackSpec("close", power=self.key, damage_cap=QUAKE_DAMAGE, always_knockback=True),
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
        legal.cells("close", cells_of(state, blastable(game, state, state.selected)))

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


class MoveThenAttack(Variant):
    """Half a move (HC-5.10's halving first, then this one), then the attack of stage 1."""

    def offered(self, game, state, figure, options):
        return True  # a move of 0 squares is a move

    def begin(self, game, state, figure, events):
        if not break_away_first(game, state, figure, events):
            return
        state.move_budget = (state.move_budget + 1) // 2
        super().begin(game, state, figure, events)

    def mask(self, game, state, legal):
        if state.variant_stage == 0:
            self.mark_moves(game, state, legal)
        else:
            self.mark_attack(game, state, legal)
            legal.special("end_action")

    def mark_moves(self, game, state, legal):
        mark_destinations(game, state, legal, state.selected)

    def apply(self, game, state, action, events):
        figure = state.selected
        if action.kind in ("move", "soar"):
            walk_to(game, state, figure, action, events)
            state.variant_stage = 1
            if not self.can_attack(game, state, figure):
                finish_action(game, state, figure, events)
        elif action.kind == "end_action":
            finish_action(game, state, figure, events)
        else:
            self.attack(game, state, figure, action, events)


@register_variant
class Charge(MoveThenAttack):
    key = "charge"
    action = "close"

    def can_attack(self, game, state, figure):
        return bool(close_targets(game, state, figure))

    def mark_attack(self, game, state, legal):
        legal.cells("close", cells_of(state, close_targets(game, state, state.selected)))

    def attack(self, game, state, figure, action, events):
        target = int(state.occupant[action.cell])
        if avoids_targeting(game, state, figure, target, events):
            return
        close_attack(game, state, figure, target, self.spec(game, state, figure), events)
        finish_action(game, state, figure, events)


@register_variant
class RunningShot(MoveThenAttack):
    key = "running_shot"
    action = "ranged"

    def offered(self, game, state, figure, options):
        if options.ranged:
            return True  # a move of 0 squares, then the shot
        probe = state.copy()  # the move it would get: half of the FIGURE phase's budget
        probe.move_budget = (probe.move_budget + 1) // 2
        return bool(self.shot_squares(game, probe, figure, first=True))

    def mark_moves(self, game, state, legal):
        for mode, cells in self.shot_squares(game, state.copy(), state.selected).items():
            legal.cells("soar" if mode == SOAR else "move", cells)

    def shot_squares(self, game, probe, figure, first: bool = False) -> dict[int, list[int]]:
        """P-SPD-11 default: the ends of the half move from which a target can be shot
        (the target is declared before moving). ``probe``: a copy of the state, in which
        the figure is tried on each square."""
        found = reach(game, probe, figure)
        out: dict[int, list[int]] = {}
        for mode in range(found.n_modes):
            for cell in found.ends[mode].nonzero()[0].tolist():
                if cell != int(probe.cell[figure]):
                    game.move_figure(probe, figure, cell)
                probe.mode[figure] = mode
                if ranged_targets(game, probe, figure):
                    out.setdefault(mode, []).append(cell)
                    if first:
                        return out
        return out

    def can_attack(self, game, state, figure):
        return bool(ranged_targets(game, state, figure))

    def mark_attack(self, game, state, legal):
        legal.cells("ranged", cells_of(state, ranged_targets(game, state, state.selected)))

    def attack(self, game, state, figure, action, events):
        declare_ranged(game, state, figure, action.cell, events)


@register_variant
class EnergyExplosion(RangedVariant):
    key = "energy_explosion"

    def spec(self, game, state, figure):
        return AttackSpec("ranged", power=self.key, damage=1, splash=True)


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
        return AttackSpec("ranged", power=self.key, penetrating=True)


@register_variant
class RangedCombatExpert(RangedVariant):
    key = "ranged_combat_expert"
    single = True

    def spec(self, game, state, figure):
        return AttackSpec("ranged", power=self.key, bonus=COMBAT_EXPERT_BONUS)


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
        legal.cells("close", cells_of(state, close_targets(game, state, figure)))
        legal.cells("ranged", cells_of(state, ranged_targets(game, state, figure)))

    def apply(self, game, state, action, events):
        figure = state.selected
        if action.kind == "ranged":
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
        spec = AttackSpec("ranged", power=self.key, damage=1 if len(victims) >= 2 else None)
        state.powers_ignored = [figure, *self.in_range(game, state, figure)]
        try:
            resolve_attack(game, state, figure, victims, spec, events, hindered=caught)
        finally:
            state.powers_ignored = []
        finish_action(game, state, figure, events)


@register_variant
class HypersonicSpeed(Variant):
    """P-SPD-9 option 1 (the default): a move of full speed that breaks away without a roll
    and is not stopped next to enemies; once, from a square where it could end, one close
    attack or a ranged attack at half range on one target [impl: one] (not next to an
    enemy, HC-4.16); then the rest of the move. No passenger (it is not offered while
    carrying).

    Option 2, with the ``hypersonic_option2`` flag (stage 0 also offers ``close``): close
    attacks on one adjacent enemy, each after a hit against its defense +1 more, for as
    long as they hit and the figure goes on (``close`` again, or ``end_action``); then the
    last hit's value (1 per hit so far, +1 on a 12) is dealt once, and knockback if a hit
    rolled doubles [impl: Super Senses rolls once, then]. ``state.variant_memory``: that
    value and whether doubles were rolled."""

    key = "hypersonic_speed"
    action = "move"
    STREAK = 10  # variant_stage from here on: option 2, plus the hits so far

    def offered(self, game, state, figure, options):
        return state.passenger == NO_FIGURE

    def begin(self, game, state, figure, events):
        state.move_ignores_enemies = True
        state.action_kind = "move"
        super().begin(game, state, figure, events)

    def shots(self, game, state, figure) -> dict[int, bool]:
        return shots(game, state, figure, (game.range_value(state, figure) + 1) // 2)

    def mask(self, game, state, legal):
        figure = state.selected
        if state.variant_stage >= self.STREAK:
            target = state.targets[0]
            if target in close_targets(game, state, figure):
                legal.cells("close", [int(state.cell[target])])
            legal.special("end_action")
        elif state.variant_stage == 1:
            legal.cells("close", cells_of(state, close_targets(game, state, figure)))
            legal.cells("ranged", cells_of(state, self.shots(game, state, figure)))
            legal.special("end_action")
        else:
            mark_destinations(game, state, legal, figure)
            if state.variant_stage == 0 and game.options.hypersonic_option2:
                legal.cells("close", cells_of(state, close_targets(game, state, figure)))

    def apply(self, game, state, action, events):
        figure = state.selected
        if state.variant_stage >= self.STREAK or (
            state.variant_stage == 0 and action.kind == "close"
        ):
            self.streak(game, state, figure, action, events)
            return
        if action.kind in ("move", "soar"):
            walk_to(game, state, figure, action, events)
            if state.variant_stage == 0 and (
                close_targets(game, state, figure) or self.shots(game, state, figure)
            ):
                state.variant_stage = 1
            else:
                finish_action(game, state, figure, events)
            return
        if action.kind == "end_action":
            finish_action(game, state, figure, events)
            return
        target = int(state.occupant[action.cell])
        if avoids_targeting(game, state, figure, target, events):
            return
        if action.kind == "close":
            close_attack(game, state, figure, target, AttackSpec("close", power=self.key), events)
        else:
            resolve_attack(
                game,
                state,
                figure,
                [target],
                AttackSpec("ranged", power=self.key),
                events,
                hindered=self.shots(game, state, figure),
            )
        if state.cell[figure] == NO_CELL or state.move_spent >= state.move_budget:
            finish_action(game, state, figure, events)
        else:
            state.variant_stage = 2  # the rest of the move

    def streak(self, game, state, figure, action, events):
        """Option 2: one more close attack of the streak, or its end."""
        if action.kind == "end_action":
            self.streak_damage(game, state, figure, events)
            return
        target = int(state.occupant[action.cell])
        if state.variant_stage < self.STREAK:
            if avoids_targeting(game, state, figure, target, events):
                back_to_figure(state)
                return
            state.targets, state.variant_memory = [target], [0, 0]
            state.variant_stage = self.STREAK
        hits = state.variant_stage - self.STREAK
        spec = AttackSpec("close", power=self.key)
        dice = game.roll_for(state, figure, 2)
        total = sum(dice)
        events.append(
            Event(
                "attack",
                f"{game.label(figure)} hypersonic strike {hits + 1} on "
                f"{game.label(target)}: rolls {dice[0]}+{dice[1]}",
                state.seat,
                cells=(int(state.cell[figure]), action.cell),
                dice=tuple(str(d) for d in dice),
            )
        )
        if total == 2:  # HC-4.6: a miss that costs a click
            deal_damage(game, state, figure, 1, "critical_miss", figure, events)
        elif (
            total == 12
            or attack_total(game, state, spec, figure, target, total)
            >= defense_total(game, state, spec, figure, target, False) + hits
        ):
            doubles = int(bool(state.variant_memory[1]) or dice[0] == dice[1])
            state.variant_memory = [hits + 1 + int(total == 12), doubles]
            state.variant_stage += 1
            return
        self.streak_damage(game, state, figure, events)

    def streak_damage(self, game, state, figure, events):
        target, (value, doubles) = state.targets[0], state.variant_memory
        spec = AttackSpec("close", power=self.key)
        if (
            value
            and state.cell[target] != NO_CELL
            and state.cell[figure] != NO_CELL
            and not HOOKS.any(EVADES, game, state, spec, target, keys=game.powers(state, target))
        ):
            land_damage(
                game,
                state,
                spec,
                figure,
                target,
                value,
                bool(doubles),
                int(state.cell[figure]),
                events,
            )
        finish_action(game, state, figure, events)
