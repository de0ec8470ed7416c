"""Heroscape combat (HS-12): the dice of an attack, asked of the hook registry, and one attack
resolved.

The rules that change how many dice an attack or a defense rolls are effects registered in
:data:`HOOKS` at ``ATTACK_VALUE`` / ``DEFENSE_VALUE``; the attack code asks for the total and
never names an effect. The basic game has one, a rule for every figure (``universal=True``):
the height advantage of HS-12.4. Effects are called ``(game, state, attacker, defender)``
and return the dice they add.
"""

from __future__ import annotations

from envs.core.events import Event
from envs.core.hooks import ATTACK_VALUE, DEFENSE_VALUE, HookRegistry
from envs.heroscape.dice import HEROSCAPE_COMBAT_DIE
from envs.heroscape.game import HeroscapeBase
from envs.heroscape.state import NO_FIGURE, State

HOOKS = HookRegistry("heroscape")


@HOOKS.register(ATTACK_VALUE, "height_advantage", universal=True)
def attack_from_above(game: HeroscapeBase, state: State, attacker: int, defender: int) -> int:
    """HS-12.4: +1 attack die when the attacker stands higher than the defender."""
    return int(game.base_level(state, attacker) > game.base_level(state, defender))


@HOOKS.register(DEFENSE_VALUE, "height_advantage", universal=True)
def defend_from_above(game: HeroscapeBase, state: State, attacker: int, defender: int) -> int:
    """HS-12.4: +1 defense die when the defender stands higher than the attacker."""
    return int(game.base_level(state, defender) > game.base_level(state, attacker))


def attack_dice(game: HeroscapeBase, state: State, attacker: int, defender: int) -> int:
    """The attack dice ``attacker`` rolls against ``defender``: its card's Attack plus effects."""
    return combat_dice(game, state, attacker, defender)[0]


def defense_dice(game: HeroscapeBase, state: State, attacker: int, defender: int) -> int:
    """The defense dice ``defender`` rolls against ``attacker``: its card's Defense plus effects."""
    return combat_dice(game, state, attacker, defender)[1]


_HEIGHT_ONLY = ((attack_from_above,), (defend_from_above,))


def dice_by_position() -> bool:
    """Whether the registry holds only the height advantage (the basic game), so an attack's
    dice depend on the two figures and their spaces alone (what callers may cache them by)."""
    return (HOOKS.active(ATTACK_VALUE), HOOKS.active(DEFENSE_VALUE)) == _HEIGHT_ONLY


def combat_dice(game: HeroscapeBase, state: State, attacker: int, defender: int) -> tuple[int, int]:
    """(attack dice, defense dice) of ``attacker`` against ``defender``.

    While the registry holds only the height advantage (the basic game), its two effects are
    worked out here from the two levels at once: bots and playouts ask for the dice of every
    attacker and target, and the registry's generic call costs several times the sum.
    """
    attack, defense = int(game.fig_attack[attacker]), int(game.fig_defense[defender])
    if dice_by_position():
        mine, theirs = game.base_level(state, attacker), game.base_level(state, defender)
        return attack + (mine > theirs), defense + (theirs > mine)
    return (
        HOOKS.total(ATTACK_VALUE, attack, game, state, attacker, defender),
        HOOKS.total(DEFENSE_VALUE, defense, game, state, attacker, defender),
    )


def roll(state: State, count: int) -> list[str]:
    return [state.dice.roll_symbol(HEROSCAPE_COMBAT_DIE) for _ in range(count)]


def resolve_attack(
    game: HeroscapeBase, state: State, attacker: int, defender: int, events: list[Event]
) -> bool:
    """HS-12: attack dice need skulls, defense dice shields; more skulls destroys (HS-12.6).

    Marks the attacker as having attacked, removes a destroyed defender at once and returns
    whether it was destroyed.
    """
    attack, defense = combat_dice(game, state, attacker, defender)
    a_roll = roll(state, attack)
    d_roll = roll(state, defense)
    skulls, shields = a_roll.count("skull"), d_roll.count("shield")
    state.attacked[attacker] = True
    state.selected = NO_FIGURE
    hit = skulls > shields
    target_cell = int(state.cell[defender])
    events.append(
        Event(
            "attack",
            f"{game.figure_label[attacker]} attacks {game.figure_label[defender]}: "
            f"{skulls} skull(s) vs {shields} shield(s) -> "
            f"{'destroyed' if hit else 'blocked'}",
            state.seat,
            cells=(int(state.cell[attacker]), target_cell),
            dice=tuple(a_roll + d_roll),
        )
    )
    if hit:
        game.remove(state, defender)  # HS-12.6: removed at once
    return hit
