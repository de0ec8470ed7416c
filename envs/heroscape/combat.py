"""Heroscape combat (HS-12): the dice of an attack, asked of the hook registry, and one attack
resolved.

The rules that change how many dice an attack or a defense rolls are effects registered in
:data:`HOOKS` at ``ATTACK_VALUE`` / ``DEFENSE_VALUE``; the attack code asks for the total and
never names an effect. The basic game has one, a rule for every figure (``universal=True``):
the height advantage of HS-12.4. Effects are called ``(game, state, attacker, defender)``
and return the dice they add.

The attack event spells out that arithmetic (the card's value, each effect's dice by name, the
skulls and shields counted, the outcome) so that a person watching can follow the attack.
"""

from __future__ import annotations

from typing import NamedTuple

from envs.core.events import Event
from envs.core.hooks import ATTACK_VALUE, DEFENSE_VALUE, HookPoint, HookRegistry
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


def height_dice(game: HeroscapeBase, state: State, attacker: int, defender: int) -> tuple[int, int]:
    """HS-12.4's extra (attack, defense) die: the two effects the registry holds in the basic
    game, called directly."""
    args = (game, state, attacker, defender)
    return attack_from_above(*args), defend_from_above(*args)


def combat_dice(game: HeroscapeBase, state: State, attacker: int, defender: int) -> tuple[int, int]:
    """(attack dice, defense dice) of ``attacker`` against ``defender``.

    While the registry holds only the height advantage (the basic game), its two effects are
    worked out here from the two levels at once: bots and playouts ask for the dice of every
    attacker and target, and the registry's generic call costs several times the sum.
    """
    attack, defense = int(game.fig_attack[attacker]), int(game.fig_defense[defender])
    if dice_by_position():
        up, down = height_dice(game, state, attacker, defender)
        return attack + up, defense + down
    return (
        HOOKS.total(ATTACK_VALUE, attack, game, state, attacker, defender),
        HOOKS.total(DEFENSE_VALUE, defense, game, state, attacker, defender),
    )


# The word an attack event uses for the dice an effect adds ("attack 2 + 1 height"); an
# effect not listed here is named by its registry key.
BONUS_WORDS = {"height_advantage": "height"}


class Dice(NamedTuple):
    """One side's dice in an attack: the card's value and the (word, dice) each effect adds."""

    base: int
    bonuses: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int:
        return self.base + sum(n for _, n in self.bonuses)

    def describe(self, side: str) -> str:
        """``3 attack dice (attack 2 + 1 height)``; no sum when nothing adds dice."""
        dice = f"{self.total} {side} {'die' if self.total == 1 else 'dice'}"
        if not self.bonuses:
            return dice
        added = "".join(f" {'-' if n < 0 else '+'} {abs(n)} {word}" for word, n in self.bonuses)
        return f"{dice} ({side} {self.base}{added})"


def dice_terms(
    game: HeroscapeBase, state: State, attacker: int, defender: int
) -> tuple[Dice, Dice]:
    """The sums behind :func:`combat_dice` (same totals), for the attack event to show."""
    attack, defense = int(game.fig_attack[attacker]), int(game.fig_defense[defender])
    if dice_by_position():
        up, down = height_dice(game, state, attacker, defender)
        return Dice(attack, (("height", up),) if up else ()), Dice(
            defense, (("height", down),) if down else ()
        )
    args = (game, state, attacker, defender)
    return Dice(attack, _bonuses(ATTACK_VALUE, args)), Dice(defense, _bonuses(DEFENSE_VALUE, args))


def _bonuses(point: HookPoint, args: tuple) -> tuple[tuple[str, int], ...]:
    """Each active effect's dice, asked once as ``HOOKS.total`` would; those adding 0 left out."""
    keys = {id(HOOKS.get(point, key)): key for key in HOOKS.keys(point)}
    found = []
    for effect in HOOKS.active(point):
        extra = int(effect(*args))
        if extra:
            key = keys.get(id(effect), getattr(effect, "__name__", "effect"))
            found.append((BONUS_WORDS.get(key, key.replace("_", " ")), extra))
    return tuple(found)


def roll(state: State, count: int) -> list[str]:
    return [state.dice.roll_symbol(HEROSCAPE_COMBAT_DIE) for _ in range(count)]


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def attack_text(
    attacker: str, defender: str, dice: tuple[Dice, Dice], skulls: int, shields: int, hit: bool
) -> str:
    """``A attacks B: 2 skulls from 3 attack dice (attack 2 + 1 height) vs 1 shield from 3
    defense dice: destroyed``. Each side says how many dice it rolled, so a reader (and a
    renderer splitting the event's dice, attack first) can tell the two apart."""
    attack, defense = dice
    return (
        f"{attacker} attacks {defender}: "
        f"{_count(skulls, 'skull')} from {attack.describe('attack')} vs "
        f"{_count(shields, 'shield')} from {defense.describe('defense')}: "
        f"{'destroyed' if hit else 'blocked'}"
    )


def resolve_attack(
    game: HeroscapeBase, state: State, attacker: int, defender: int, events: list[Event]
) -> bool:
    """HS-12: attack dice need skulls, defense dice shields; more skulls destroys (HS-12.6).

    Marks the attacker as having attacked, removes a destroyed defender at once and returns
    whether it was destroyed. The event's dice are the attack dice, then the defense dice.
    """
    attack, defense = dice_terms(game, state, attacker, defender)
    a_roll = roll(state, attack.total)
    d_roll = roll(state, defense.total)
    skulls, shields = a_roll.count("skull"), d_roll.count("shield")
    state.attacked[attacker] = True
    state.selected = NO_FIGURE
    hit = skulls > shields
    target_cell = int(state.cell[defender])
    text = attack_text(
        game.figure_label[attacker],
        game.figure_label[defender],
        (attack, defense),
        skulls,
        shields,
        hit,
    )
    events.append(
        Event(
            "attack",
            text,
            state.seat,
            cells=(int(state.cell[attacker]), target_cell),
            dice=tuple(a_roll + d_roll),
        )
    )
    if hit:
        game.remove(state, defender)  # HS-12.6: removed at once
    return hit
