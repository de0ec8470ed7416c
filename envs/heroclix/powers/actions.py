"""Powers that are actions of their own: effects at ``extra_actions`` in :data:`HOOKS`, and
Steal Energy at ``after_attack`` (R-5 ... R-9, envs/heroclix/RULES.md P-DMG-3, P-DEF-10,
P-ATT-5, P-ATT-10, P-ATT-11).

Each :class:`PowerAction` names the action plane (or special action) it is offered on, the
squares it may be used on now (``targets``) and what it does (``perform``, True when the
figure's action is over). The FIGURE phase offers every action effect of the figure's
current powers and never names one.

===================  =========  ==========================================================
power                plane      action
===================  =========  ==========================================================
Support (R-5)        support    close: an adjacent damaged friend; 2d6 + attack >= 10 heals
                                1d6 - 2 (a 12 heals 1 more; a 2 fails and costs 1 click)
Regeneration (R-6)   regenerate move, without moving: heal 1d6 - 2 (minimum 0)
Super Strength       throw      ranged: throw the held object (HC-6.12)
Telekinesis          tk_object  choose an unheld object on or beside the figure's square,
                                then move it or hurl it (the TELEKINESIS phase, HC-6.13-6.20)
===================  =========  ==========================================================

Healing a figure that has taken no damage does nothing, so Support and Regeneration are
offered only for damaged figures. Support's flags (:mod:`.flags`): ``support_vs_target_defense``
rolls against the friend's defense, ``support_no_adjacent_enemies`` forbids it next to enemies,
``support_min_heal`` sets the least heal of a success.
"""

from __future__ import annotations

from envs.core.events import Event
from envs.core.hooks import AFTER_ATTACK, EXTRA_ACTIONS
from envs.core.tokens import GONE
from envs.heroclix.combat.attack import AttackKind, AttackResult, AttackSpec, DamageKind
from envs.heroclix.combat.objects import telekinesis_objects
from envs.heroclix.combat.resolve import avoids_targeting, deal_damage, heal, resolve_attack
from envs.heroclix.combat.targets import throw_damage, throw_targets
from envs.heroclix.game import HeroclixBase
from envs.heroclix.powers.hooks import HOOKS
from envs.heroclix.state import NO_CELL, NO_OBJECT, Phase, State

SUPPORT_DEFENSE = 10  # R-5 default


class PowerAction:
    plane = ""
    special = False  # offered as a special action (no square) rather than on a plane

    def targets(self, game: HeroclixBase, state: State, figure: int) -> list[int]:
        raise NotImplementedError

    def perform(
        self, game: HeroclixBase, state: State, figure: int, cell: int, events: list[Event]
    ) -> bool:
        raise NotImplementedError


def register(key: str):
    def add(cls: type[PowerAction]) -> type[PowerAction]:
        HOOKS.register(EXTRA_ACTIONS, key)(cls())
        return cls

    return add


def power_actions(game: HeroclixBase, state: State, figure: int) -> list[PowerAction]:
    return [
        HOOKS.get(EXTRA_ACTIONS, key)
        for key in game.powers(state, figure)
        if HOOKS.has(EXTRA_ACTIONS, key)
    ]


@register("support")
class Support(PowerAction):
    plane = "support"

    @staticmethod
    def defense(game: HeroclixBase, state: State, friend: int) -> int:
        """R-5: 10; flag support_vs_target_defense: the friend's defense value (P-DMG-3)."""
        if game.options.support_vs_target_defense:
            return game.defense_value(state, friend)
        return SUPPORT_DEFENSE

    def targets(self, game, state, figure):
        calm = game.options.support_no_adjacent_enemies  # P-DMG-3 flag: neither figure
        if calm and game.adjacent_enemies(state, figure):
            return []
        return sorted(
            int(state.cell[f])
            for f in game.alive(state, int(game.owner[figure]))
            if f != figure
            and state.click[f] > 0
            and game.is_adjacent(state, figure, f)
            and not (calm and game.adjacent_enemies(state, f))
        )

    def perform(self, game, state, figure, cell, events):
        friend = int(state.occupant[cell])
        dice = game.roll_for(state, figure, 2)
        total = sum(dice)
        announce = Event(
            "support",
            f"{game.label(figure)} supports {game.label(friend)}: rolls {dice[0]}+{dice[1]}",
            state.seat,
            cells=(int(state.cell[figure]), cell),
            dice=tuple(str(d) for d in dice),
        )
        events.append(announce)
        if total in (2, 12):
            announce.text += f" = {total}: critical " + ("miss" if total == 2 else "success")
        else:
            attack, defense = game.attack_value(state, figure), self.defense(game, state, friend)
            against = "defense " if game.options.support_vs_target_defense else ""
            announce.text += f" + attack {attack} = {total + attack} vs {against}{defense}: " + (
                "success" if total + attack >= defense else "failure"
            )
        if total == 2:  # critical miss: no heal, 1 click to the supporter [impl]
            deal_damage(game, state, figure, 1, DamageKind.CRITICAL_MISS, figure, events)
        elif total == 12 or total + game.attack_value(state, figure) >= self.defense(
            game, state, friend
        ):
            least = game.options.support_min_heal
            roll = game.roll_for(state, figure)[0]
            heal(game, state, friend, max(least, roll - 2) + int(total == 12), events)
        return True


@register("regeneration")
class Regeneration(PowerAction):
    plane = "regenerate"
    special = True

    def targets(self, game, state, figure):
        return [int(state.cell[figure])] if state.click[figure] > 0 else []

    def perform(self, game, state, figure, cell, events):
        state.action_kind = "move"  # a move action without moving
        roll = game.roll_for(state, figure)[0]
        amount = max(0, roll - 2)
        events.append(
            Event(
                "regenerate",
                f"{game.label(figure)} regenerates {amount}",
                state.seat,
                cells=(int(state.cell[figure]),),
                dice=(str(roll),),
            )
        )
        heal(game, state, figure, amount, events)
        return True


@register("super_strength")
class Throw(PowerAction):
    plane = "throw"

    def targets(self, game, state, figure):
        return sorted(int(state.cell[t]) for t in throw_targets(game, state, figure))

    def perform(self, game, state, figure, cell, events):
        target = int(state.occupant[cell])
        if avoids_targeting(game, state, figure, target, events):
            return False  # P-DMG-7: the action is not spent
        hindered = throw_targets(game, state, figure)
        obj = int(state.held[figure])
        state.held[figure] = NO_OBJECT
        state.objects[obj] = GONE  # HC-6.9: used, destroyed whether it hits or not
        resolve_attack(
            game,
            state,
            figure,
            [target],
            AttackSpec(AttackKind.RANGED, damage=throw_damage(game, obj)),
            events,
            hindered=hindered,
        )
        return True


@register("telekinesis")
class Telekinesis(PowerAction):
    plane = "tk_object"

    def targets(self, game, state, figure):
        return telekinesis_objects(game, state, figure)

    def perform(self, game, state, figure, cell, events):
        state.tk_object = game.objects.at(state.objects, cell)[0]
        state.phase = Phase.TELEKINESIS
        return False


@HOOKS.register(AFTER_ATTACK, "steal_energy")
def steal_energy(
    game: HeroclixBase, state: State, result: AttackResult, events: list[Event]
) -> None:
    """R-7 / P-ATT-10: each enemy a close attack damaged heals the attacker 1 click (Quake:
    one per enemy)."""
    owner = game.owner[result.attacker]
    damaged = sum(
        1 for f, taken in result.damage_taken.items() if taken > 0 and game.owner[f] != owner
    )
    if result.kind == "close" and state.cell[result.attacker] != NO_CELL and damaged:
        heal(game, state, result.attacker, damaged, events)
