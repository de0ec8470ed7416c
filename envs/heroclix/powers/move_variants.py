"""The power variants that move the figure as part of the action (envs/heroclix/RULES.md
P-SPD-5, P-SPD-9, P-SPD-11), each registered under its power's key
(:mod:`envs.heroclix.powers.variant_base` explains the steps; ``[impl]`` marks our choices
where the card is silent).

======================  ======  ==========================================================
power                   action  variant
======================  ======  ==========================================================
Charge (P-SPD-5)        close   break away if needed, move up to half the move (after
                                hindering's halving), then one close attack or none
Running Shot (P-SPD-11) ranged  break away if needed, move up to half the move to a square
                                with a shot (declared before moving), then the ranged attack
Hypersonic Speed        move    full move, automatic breakaway, no stops next to enemies;
(P-SPD-9)                       once on the way a close attack or a half-range shot
======================  ======  ==========================================================

They are the variants that walk (breakaway, the reach of a move, its destinations and steps)
and attack from where the walk ends or on the way, so they live apart from the attack
variants of :mod:`envs.heroclix.powers.variants`, which never move the figure.
"""

from __future__ import annotations

import numpy as np

from envs.core.events import Event
from envs.heroclix.combat.attack import AttackKind, AttackSpec, DamageKind
from envs.heroclix.combat.resolve import avoids_targeting, deal_damage, land_damage, resolve_attack
from envs.heroclix.combat.sums import attack_total, attack_words, defense_total, defense_words
from envs.heroclix.combat.targets import (
    close_targets,
    lifted_snapshot,
    ranged_targets,
    shots,
    squares_in_range,
)
from envs.heroclix.game import ActionKind
from envs.heroclix.movement import mark_destinations, reach, walk_to
from envs.heroclix.phases.attacks import close_attack, declare_ranged
from envs.heroclix.phases.endings import finish_action
from envs.heroclix.powers.hooks import EVADES, HOOKS
from envs.heroclix.powers.variant_base import (
    Variant,
    back_to_figure,
    break_away_first,
    cells_of,
    register_variant,
)
from envs.heroclix.state import NO_CELL, NO_FIGURE, SOAR


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
            legal.special(ActionKind.END_ACTION)

    def mark_moves(self, game, state, legal):
        mark_destinations(game, state, legal, state.selected)

    def apply(self, game, state, action, events):
        figure = state.selected
        if action.kind in (ActionKind.MOVE, ActionKind.SOAR):
            walk_to(game, state, figure, action, events)
            state.variant_stage = 1
            if not self.can_attack(game, state, figure):
                finish_action(game, state, figure, events)
        elif action.kind == ActionKind.END_ACTION:
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
        legal.cells(ActionKind.CLOSE, cells_of(state, close_targets(game, state, state.selected)))

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
            legal.cells(ActionKind.SOAR if mode == SOAR else "move", cells)

    def shot_squares(self, game, probe, figure, first: bool = False) -> dict[int, list[int]]:
        """P-SPD-11 default: the ends of the half move from which a target can be shot
        (the target is declared before moving). ``probe``: a copy of the state, in which
        the figure is tried on each square."""
        found = reach(game, probe, figure)
        near = squares_in_range(game, probe, figure)  # elsewhere no shot: nothing to try
        lines = lifted_snapshot(game, probe, figure)  # the same lines from every square
        out: dict[int, list[int]] = {}
        for mode in range(found.n_modes):
            for cell in np.flatnonzero(found.ends[mode] & near).tolist():
                if cell != int(probe.cell[figure]):
                    game.move_figure(probe, figure, cell)
                probe.mode[figure] = mode
                if ranged_targets(game, probe, figure, lines):
                    out.setdefault(mode, []).append(cell)
                    if first:
                        return out
        return out

    def can_attack(self, game, state, figure):
        return bool(ranged_targets(game, state, figure))

    def mark_attack(self, game, state, legal):
        legal.cells(ActionKind.RANGED, cells_of(state, ranged_targets(game, state, state.selected)))

    def attack(self, game, state, figure, action, events):
        declare_ranged(game, state, figure, action.cell, events)


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
                legal.cells(ActionKind.CLOSE, [int(state.cell[target])])
            legal.special(ActionKind.END_ACTION)
        elif state.variant_stage == 1:
            legal.cells(ActionKind.CLOSE, cells_of(state, close_targets(game, state, figure)))
            legal.cells(ActionKind.RANGED, cells_of(state, self.shots(game, state, figure)))
            legal.special(ActionKind.END_ACTION)
        else:
            mark_destinations(game, state, legal, figure)
            if state.variant_stage == 0 and game.options.hypersonic_option2:
                legal.cells(ActionKind.CLOSE, cells_of(state, close_targets(game, state, figure)))

    def apply(self, game, state, action, events):
        figure = state.selected
        if state.variant_stage >= self.STREAK or (
            state.variant_stage == 0 and action.kind == ActionKind.CLOSE
        ):
            self.streak(game, state, figure, action, events)
            return
        if action.kind in (ActionKind.MOVE, ActionKind.SOAR):
            walk_to(game, state, figure, action, events)
            if state.variant_stage == 0 and (
                close_targets(game, state, figure) or self.shots(game, state, figure)
            ):
                state.variant_stage = 1
            else:
                finish_action(game, state, figure, events)
            return
        if action.kind == ActionKind.END_ACTION:
            finish_action(game, state, figure, events)
            return
        target = int(state.occupant[action.cell])
        if avoids_targeting(game, state, figure, target, events):
            return
        if action.kind == ActionKind.CLOSE:
            close_attack(
                game, state, figure, target, AttackSpec(AttackKind.CLOSE, power=self.key), events
            )
        else:
            resolve_attack(
                game,
                state,
                figure,
                [target],
                AttackSpec(AttackKind.RANGED, power=self.key),
                events,
                hindered=self.shots(game, state, figure),
            )
        if state.cell[figure] == NO_CELL or state.move_spent >= state.move_budget:
            finish_action(game, state, figure, events)
        else:
            state.variant_stage = 2  # the rest of the move

    def streak(self, game, state, figure, action, events):
        """Option 2: one more close attack of the streak, or its end."""
        if action.kind == ActionKind.END_ACTION:
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
        spec = AttackSpec(AttackKind.CLOSE, power=self.key)
        dice = game.roll_for(state, figure, 2)
        total = sum(dice)
        announce = Event(
            "attack",
            f"{game.label(figure)} hypersonic strike {hits + 1} ({spec.kind} attack) on "
            f"{game.label(target)}: rolls {dice[0]}+{dice[1]}",
            state.seat,
            cells=(int(state.cell[figure]), action.cell),
            dice=tuple(str(d) for d in dice),
        )
        events.append(announce)
        if total == 2:  # HC-4.6: a miss that costs a click
            announce.text += " = 2: critical miss"
            deal_damage(game, state, figure, 1, DamageKind.CRITICAL_MISS, figure, events)
            self.streak_damage(game, state, figure, events)
            return
        hit = total == 12
        if hit:
            announce.text += " = 12: critical hit"
        else:
            attack = attack_total(game, state, spec, figure, target, total)
            defense = defense_total(game, state, spec, figure, target, False) + hits
            hit = attack >= defense
            announce.text += (
                f" + {attack_words(game, state, spec, figure, target, total, attack)} vs "
                + defense_words(
                    game, state, spec, figure, target, False, defense, [(hits, "earlier hits")]
                )
                + (": hit" if hit else ": miss")
            )
        if hit:
            doubles = int(bool(state.variant_memory[1]) or dice[0] == dice[1])
            state.variant_memory = [hits + 1 + int(total == 12), doubles]
            state.variant_stage += 1
            return
        self.streak_damage(game, state, figure, events)

    def streak_damage(self, game, state, figure, events):
        target, (value, doubles) = state.targets[0], state.variant_memory
        spec = AttackSpec(AttackKind.CLOSE, power=self.key)
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
