"""What an attack adds up (HC-4.2, HC-4.3, envs/heroclix/RULES.md P-0), and the same sums
written out for its event, so that a viewer can redo the arithmetic.

The hit is decided by :func:`attack_total` >= :func:`defense_total` and the damage by
:func:`damage_per_hit`. The bots ask the first two for every plan they weigh, so they stay bare
numbers; :func:`attack_words` and :func:`defense_words` name the same parts once per attack,
only to write its text. They are handed the totals the rules used and end with them: a part
they could not name shows as "other" rather than as a sum that does not add up.

A *term* is ``(value, name)``: ``(1, "hindering")`` reads "+1 hindering".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from envs.core.hooks import ATTACK_VALUE, DEFENSE_VALUE, HookPoint
from envs.heroclix.combat.attack import AttackKind, AttackSpec
from envs.heroclix.combat.targets import fire_snapshot
from envs.heroclix.game import HeroclixBase
from envs.heroclix.powers.hooks import (
    AIMS_FOR_FRIENDS,
    ENHANCES_RANGED,
    HOOKS,
    LENDS_ATTACK,
    LENDS_DEFENSE,
    LENDS_DEFENSE_TEAM,
    Trait,
    has_trait,
)
from envs.heroclix.state import State

Term = tuple[int, str]
ATTACK_COLUMN, DEFENSE_COLUMN, DAMAGE_COLUMN = 1, 2, 3  # the dial's columns (HC-1.6)


# -- the numbers the rules use ----------------------------------------------------------------


def attack_total(
    game: HeroclixBase, state: State, spec: AttackSpec, attacker: int, target: int, roll: int
) -> int:
    return int(
        HOOKS.total(
            ATTACK_VALUE,
            roll + attack_source(game, state, attacker)[0],
            game,
            state,
            spec,
            attacker,
            target,
            keys=game.powers(state, attacker),
        )
    )


def attack_source(game: HeroclixBase, state: State, attacker: int) -> tuple[int, int | None]:
    """(attack value, the friend it is taken from or None): the attacker's own, or an
    adjacent TA-SS member's when higher [impl]."""
    lenders = []
    if has_trait(game.powers(state, attacker), LENDS_ATTACK):
        lenders = members_beside(game, state, attacker, LENDS_ATTACK)
    return _highest(game.attack_value, state, attacker, lenders)


def _highest(value, state: State, figure: int, others: list[int]) -> tuple[int, int | None]:
    """The highest ``value`` of ``figure`` and ``others``, and the first other holding it
    when it beats the figure's own (None when the figure's own is the highest)."""
    best, source = value(state, figure), None
    for other in others:
        theirs = value(state, other)
        if theirs > best:
            best, source = theirs, other
    return best, source


def members_beside(game: HeroclixBase, state: State, figure: int, trait: Trait) -> list[int]:
    """Adjacent friends whose powers (team abilities included) have ``trait``; friends by the
    side they fight for now, so a Mind Controlled figure lends to and takes from its
    controller's figures, not its owner's (P-SPD-6)."""
    sides = game.sides(state)
    side = sides[figure]
    return [
        f
        for f in game.adjacent_figures(state, figure)
        if sides[f] == side and has_trait(game.powers(state, f), trait)
    ]


def defense_lenders(game: HeroclixBase, state: State, target: int) -> list[int]:
    lenders = members_beside(game, state, target, LENDS_DEFENSE)
    if has_trait(game.powers(state, target), LENDS_DEFENSE_TEAM):
        lenders += members_beside(game, state, target, LENDS_DEFENSE_TEAM)
    return lenders


def defense_source(game: HeroclixBase, state: State, target: int) -> tuple[int, int | None]:
    """(defense value, the friend it is taken from or None): the target's own, or an
    adjacent Defend friend's when higher (P-DEF-3; TA-DEF between members)."""
    return _highest(game.defense_value, state, target, defense_lenders(game, state, target))


def defense_total(
    game: HeroclixBase, state: State, spec: AttackSpec, attacker: int, target: int, hindered: bool
) -> int:
    base = defense_source(game, state, target)[0] + int(hindered)
    if spec.kind == AttackKind.RANGED and hydra_aim(game, state, attacker, target):
        base -= 1  # TA-HYD
    return int(
        HOOKS.total(
            DEFENSE_VALUE,
            base,
            game,
            state,
            spec,
            attacker,
            target,
            keys=game.powers(state, target),
        )
    )


def hydra_aim(game: HeroclixBase, state: State, attacker: int, target: int) -> bool:
    """TA-HYD: a member next to the attacker with a clear line of fire to the target."""
    helpers = members_beside(game, state, attacker, AIMS_FOR_FRIENDS)
    if not helpers:
        return False
    snapshot = fire_snapshot(game, state)
    return any(
        snapshot.targets_from(
            int(state.cell[h]), [int(state.cell[target])], attacker_flying=game.flies(state, h)
        ).clear[0]
        for h in helpers
    )


def enhancement(game: HeroclixBase, state: State, attacker: int) -> int:
    """P-DMG-5: +1 per adjacent friend with Enhancement (not the attacker itself)."""
    return len(members_beside(game, state, attacker, ENHANCES_RANGED))


def damage_per_hit(
    game: HeroclixBase, state: State, spec: AttackSpec, attacker: int, n_targets: int
) -> tuple[int, str]:
    """Damage per hit before a 12 and the target's reductions (step 4 of
    :mod:`~envs.heroclix.combat.resolve`), and how it adds up ("2 +1 enhancement")."""
    if spec.damage is None:
        base = game.damage_value(state, attacker)
        how = _stat(game, state, attacker, DAMAGE_COLUMN, base)
    else:
        base = spec.damage
        how = f"{words(spec.power) or 'object'} {base}"
    if spec.damage_cap is not None and base > spec.damage_cap:
        base = spec.damage_cap
        how += f" capped at {base}"
    amount = base + spec.bonus
    how += signed(bonus_terms(spec))
    if spec.kind == AttackKind.RANGED:
        extra = enhancement(game, state, attacker)
        amount += extra
        how += signed([(extra, "enhancement")])
        if n_targets > 1 and not spec.splash:
            if amount > 1:
                how += " capped at 1 for several targets"  # HC-4.25
            amount = min(amount, 1)
    return amount, how


# -- the same numbers in words ----------------------------------------------------------------


def signed(terms: Sequence[Term]) -> str:
    """The terms as they follow a value: ' +1 hindering -1 hydra aim' (0s left out)."""
    return "".join(f" {value:+d} {name}" for value, name in terms if value)


def bonus_terms(spec: AttackSpec) -> list[Term]:
    """The attacker's damage modifiers of ``spec.bonus``: the power's and a held object's."""
    own = spec.bonus - spec.object_bonus
    return [(own, words(spec.power) or "bonus"), (spec.object_bonus, "held object")]


def attack_words(
    game: HeroclixBase,
    state: State,
    spec: AttackSpec,
    attacker: int,
    target: int,
    roll: int,
    total: int,
) -> str:
    """How ``total`` (:func:`attack_total`) adds up past the roll: "attack 8 = 15"."""
    best, lender = attack_source(game, state, attacker)
    if lender is not None:
        start = f"{game.label(lender)}'s attack {best}"
    else:
        start = _stat(game, state, attacker, ATTACK_COLUMN, best, "attack ")
    terms = hook_terms(
        ATTACK_VALUE, game.powers(state, attacker), game, state, spec, attacker, target
    )
    terms += rest_term(total - roll - best, terms)
    return f"{start}{signed(terms)} = {total}"


def defense_words(
    game: HeroclixBase,
    state: State,
    spec: AttackSpec,
    attacker: int,
    target: int,
    hindered: bool,
    total: int,
    extra: Sequence[Term] = (),
) -> str:
    """How ``total`` (:func:`defense_total`, plus ``extra``) adds up: "defense 16", or with
    modifiers "defense 17 (16 +1 hindering)"."""
    base, lender = defense_source(game, state, target)
    if lender is not None:
        start = f"{game.label(lender)}'s {base}"
    else:
        start = _stat(game, state, target, DEFENSE_COLUMN, base)
    terms = [(int(hindered), "hindering")]
    if spec.kind == AttackKind.RANGED and hydra_aim(game, state, attacker, target):
        terms.append((-1, "hydra aim"))
    terms += hook_terms(
        DEFENSE_VALUE, game.powers(state, target), game, state, spec, attacker, target
    )
    terms += [*extra, *rest_term(total - base, [*terms, *extra])]
    how = f"{start}{signed(terms)}"
    return f"defense {total}" if how == str(total) else f"defense {total} ({how})"


def damage_words(per_hit: int, how: str, times: int, critical: bool) -> str:
    """The damage one figure hit takes before its reductions: "3 damage (2 +1 critical)"."""
    amount = per_hit * times + int(critical)
    if times > 1:  # P-ATT-2: next to several targets of an Energy Explosion
        how = f"{how}, x{times} hits"
    how += signed([(int(critical), "critical")])  # HC-4.7
    return f"{amount} damage" + ("" if how == str(amount) else f" ({how})")


def _stat(
    game: HeroclixBase, state: State, figure: int, column: int, value: int, prefix: str = ""
) -> str:
    """The dial's value as printed, and Perplex's change to it when there is one (P-DMG-9)."""
    printed = int(game.dial_values[figure, state.click[figure], column])
    return f"{prefix}{printed}{signed([(value - printed, 'perplex')])}"


def hook_terms(point: HookPoint, keys: tuple[str, ...], *args: Any) -> list[Term]:
    """Each power's answer at ``point``, named by the power (``HOOKS.total`` sums them)."""
    return [
        (int(HOOKS.get(point, key)(*args)), words(key)) for key in keys if HOOKS.has(point, key)
    ]


def rest_term(missing: int, terms: Sequence[Term]) -> list[Term]:
    """What no named term accounts for (a rule-wide effect), so the text still adds up."""
    rest = missing - sum(value for value, _ in terms)
    return [(rest, "other")] if rest else []


def words(key: str) -> str:
    """A power or effect key as it reads in an event: ``toughness``, ``energy shield``."""
    return key.replace("_", " ")
