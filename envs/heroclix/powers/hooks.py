"""HeroClix powers as effects in the hook registry :data:`HOOKS` (envs/heroclix/RULES.md, R-1 ... R-11).

A figure's powers are the keys its dial shows at its current click (HC-1.11, HC-3.7), less
optional powers its controller switched off (HC-3.8) and powers not implemented yet (the
catalogue's ``implemented`` flag). The flow asks :data:`HOOKS` with those keys and never
compares a power's name:

===================  ========  ============================================================
point                combine   used for
===================  ========  ============================================================
``traits``           any       what a figure may do or suffers: the trait names below
``defense_value``    sum       defense against one attack (Combat Reflexes +2 close,
                               Energy Shield/Deflection +2 ranged)
``damage_taken``     sum       fixed reductions of reducible damage (Toughness -1,
                               Invulnerability -2); pure, so bots may ask it
``reduction_roll``   sum       reductions that roll (Impervious), asked only when damage is
                               dealt
``evades``           any       a hit figure's roll to take nothing from the attack (Super
                               Senses)
``avoids_target``    any       a figure's roll, when declared a target, not to be one (Shape
                               Change)
``after_attack``     each      after an attack (Steal Energy heals, R-7)
``turn_start``       each      at the start of the controller's turn, by ``priority`` then
                               square (Leadership, then Poison): :mod:`envs.heroclix.powers.turn_start`
``extra_actions``    lookup    action powers with their own plane (Support, Regeneration,
                               throwing, Telekinesis): :mod:`envs.heroclix.powers.actions`
``variants``         lookup    power variants of the four actions (Charge, Flurry, ...),
                               chosen on their own slot then played in the VARIANT phase:
                               :mod:`envs.heroclix.powers.variant_base`, :mod:`envs.heroclix.powers.variants`,
                               :mod:`envs.heroclix.powers.move_variants`, :mod:`envs.heroclix.powers.markers`
``free_actions``     lookup    powers used in the ACTION phase without an action (Outwit,
                               Perplex): :mod:`envs.heroclix.powers.free`
``lasting``          each      (universal) ends lasting effects (markers, countered powers,
                               Perplex) when their time or their source's power is over:
                               asked with ``"dial"`` after a dial turns, ``"turn_start"``
                               and ``"turn_end"``
===================  ========  ============================================================

Adding a power is registering its effect under its key; the engine's flow stays as it is.
"""

from __future__ import annotations

from typing import Final, NewType

from envs.core.hooks import (
    DAMAGE_TAKEN,
    DEFENSE_VALUE,
    STANDARD_POINTS,
    Combine,
    HookPoint,
    HookRegistry,
)

TRAITS = HookPoint("traits", Combine.ANY, "does the figure have this trait", pure=True)
REDUCTION_ROLL = HookPoint("reduction_roll", Combine.SUM, "a reduction that rolls a die")
EVADES = HookPoint("evades", Combine.ANY, "does the hit figure evade the attack (rolls)")
AVOIDS_TARGET = HookPoint("avoids_target", Combine.ANY, "does the declared target avoid it")
VARIANTS = HookPoint("variants", Combine.LOOKUP, "a power's variant of an action")
FREE_ACTIONS = HookPoint("free_actions", Combine.LOOKUP, "a power used without an action")
LASTING = HookPoint("lasting", Combine.EACH, "end the lasting effects that are over")
HOOKS = HookRegistry(
    "heroclix",
    STANDARD_POINTS
    + (TRAITS, REDUCTION_ROLL, EVADES, AVOIDS_TARGET, VARIANTS, FREE_ACTIONS, LASTING),
)

# Trait names asked at TRAITS: a Trait is a typed name, so has_trait takes no stray string.
Trait = NewType("Trait", str)
AUTO_BREAKAWAY: Final = Trait("auto_breakaway")  # breaks away without a roll
IGNORES_HINDERING: Final = Trait(
    "ignores_hindering"
)  # hindering neither stops nor halves it
CLIMBS: Final = Trait("climbs")  # changes level anywhere, not only by stairs or ladder
CROSSES_BLOCKING_OUTDOORS: Final = Trait(
    "crosses_blocking_outdoors"
)  # walls and blocking, outdoors
CROSSES_BLOCKING_INDOORS: Final = Trait(
    "crosses_blocking_indoors"
)  # ... indoors too (HC-5.4, R-11)
PASSES_FIGURES: Final = Trait("passes_figures")  # moves through occupied squares
CLOSE_ANY_LEVEL: Final = Trait(
    "close_any_level"
)  # close combat with a target at another level (P-SPD-2)
PICKS_UP_OBJECTS: Final = Trait(
    "picks_up_objects"
)  # holds, strikes with and throws objects (HC-6.5)
MOVES_OBJECTS: Final = Trait("moves_objects")  # moves and hurls objects (HC-6.13)
SLIPPERY: Final = Trait("slippery")  # breaks away on 2-6; enemies leaving it need a 6 (P-SPD-7)
NO_KNOCKBACK: Final = Trait("no_knockback")  # never knocked back, not Force Blasted (P-SPD-5)
HIDDEN_BY_HINDERING: Final = Trait(
    "hidden_by_hindering"
)  # a hindered line of fire to it is blocked (P-SPD-10)
NO_PUSHING_DAMAGE: Final = Trait(
    "no_pushing_damage"
)  # pushing gives the token, not the click (P-DEF-8)
LENDS_DEFENSE: Final = Trait(
    "lends_defense"
)  # adjacent friends may use its defense value (P-DEF-3)
NO_RANGED: Final = Trait("no_ranged")  # makes no ranged attack of any kind (P-DMG-2)
NOT_CARRIED: Final = Trait("not_carried")  # may not be carried (P-DMG-2)
NOT_CONTROLLED: Final = Trait("not_controlled")  # may not be targeted by Mind Control (P-DMG-2)
ENHANCES_RANGED: Final = Trait(
    "enhances_ranged"
)  # +1 damage to adjacent friends' ranged attacks (P-DMG-5)
GROUNDED: Final = Trait("grounded")  # a flyer that counts as a non-flyer while it shows (P-SPD-4)
UNCOUNTERABLE: Final = Trait("uncounterable")  # Outwit cannot counter it (P-SPD-4)
TRANSFERS_DAMAGE: Final = Trait(
    "transfers_damage"
)  # may pass its damage to a lesser friend (P-DEF-7)
REROLLS: Final = Trait(
    "rerolls"
)  # may have rolls near it rerolled (P-DMG-6, flag probability_control)
# team abilities (teams.yaml, envs/heroclix/RULES.md TA): effects among a figure's powers
# only with the team_abilities option
FREE_MOVE: Final = Trait(
    "free_move"
)  # its move action uses none of the player's actions (TA-AVG, TA-BRO)
LENDS_DEFENSE_TEAM: Final = Trait("lends_defense_team")  # members use each other's defense (TA-DEF)
RALLIES: Final = Trait("rallies")  # heals 1 when another member is KO'd (TA-FF)
AIMS_FOR_FRIENDS: Final = Trait(
    "aims_for_friends"
)  # -1 defense to a friend's ranged target (TA-HYD)
ACTS_EXHAUSTED: Final = Trait("acts_exhausted")  # may act with 2 tokens, for 1 click (TA-MOE)
RETALIATES: Final = Trait("retaliates")  # an attacker that damages it takes 1 (TA-MYS)
LENDS_ATTACK: Final = Trait("lends_attack")  # members attack with each other's attack value (TA-SS)

_LEAP_CLIMB = frozenset(
    {AUTO_BREAKAWAY, IGNORES_HINDERING, CLIMBS, CROSSES_BLOCKING_OUTDOORS, CLOSE_ANY_LEVEL}
)
_PHASING = frozenset(
    {
        AUTO_BREAKAWAY,
        IGNORES_HINDERING,
        CLIMBS,
        CROSSES_BLOCKING_OUTDOORS,
        CROSSES_BLOCKING_INDOORS,
        PASSES_FIGURES,
    }
)


def _traits(key: str, traits: frozenset[str]) -> None:
    HOOKS.register(TRAITS, key)(lambda trait: trait in traits)


_traits("leap_climb", _LEAP_CLIMB)  # P-SPD-2 / R-10
_traits("phasing", _PHASING)  # P-SPD-3 / R-11
_traits("earthbound", frozenset({GROUNDED, UNCOUNTERABLE}))  # P-SPD-4 (landing: combat.after_click)
_traits("charge", frozenset({NO_KNOCKBACK}))  # P-SPD-5 (its action: powers.move_variants)
_traits("plasticity", frozenset({SLIPPERY}))  # P-SPD-7
_traits("stealth", frozenset({HIDDEN_BY_HINDERING}))  # P-SPD-10
_traits("super_strength", frozenset({PICKS_UP_OBJECTS}))  # P-ATT-5 / R-8
_traits("telekinesis", frozenset({MOVES_OBJECTS}))  # P-ATT-11 / R-9
_traits("defend", frozenset({LENDS_DEFENSE}))  # P-DEF-3
_traits("willpower", frozenset({NO_PUSHING_DAMAGE}))  # P-DEF-8
_traits("mastermind", frozenset({TRANSFERS_DAMAGE}))  # P-DEF-7 (combat.damage_recipient)
_traits("probability_control", frozenset({REROLLS}))  # P-DMG-6 (probability.roll_for)
_traits("battle_fury", frozenset({NO_RANGED, NOT_CARRIED, NOT_CONTROLLED}))  # P-DMG-2
_traits("enhancement", frozenset({ENHANCES_RANGED}))  # P-DMG-5
_traits("team_free_move", frozenset({FREE_MOVE}))
_traits("team_defend", frozenset({LENDS_DEFENSE_TEAM}))
_traits("team_rally", frozenset({RALLIES}))
_traits("team_hydra_aim", frozenset({AIMS_FOR_FRIENDS}))
_traits("team_exhausted_action", frozenset({ACTS_EXHAUSTED}))
_traits("team_retaliation", frozenset({RETALIATES}))
_traits("team_borrowed_attack", frozenset({LENDS_ATTACK}))


def _reduction(key: str, amount: int) -> None:
    """R-3/R-4: reducible damage only; the caller passes reducible kinds only."""
    HOOKS.register(DAMAGE_TAKEN, key)(lambda game, state, figure, kind: -amount)


_reduction("toughness", 1)  # P-DEF-2
_reduction("invulnerability", 2)  # P-DEF-11

IMPERVIOUS_IGNORES = 5  # P-DEF-9: 5-6 reduce the damage to 0, else by 2
IMPERVIOUS_REDUCTION = 2


@HOOKS.register(REDUCTION_ROLL, "impervious")
def impervious(game, state, figure: int, kind: str, amount: int) -> int:
    """P-DEF-9: one d6 per damage instance (attack, knockback)."""
    return (
        -amount if game.roll_for(state, figure)[0] >= IMPERVIOUS_IGNORES else -IMPERVIOUS_REDUCTION
    )


def _defense_bonus(key: str, amount: int, attack_kind: str) -> None:
    HOOKS.register(DEFENSE_VALUE, key)(
        lambda game, state, spec, attacker, target: amount if spec.kind == attack_kind else 0
    )


_defense_bonus("combat_reflexes", 2, "close")  # P-DEF-4
_defense_bonus("energy_shield_deflection", 2, "ranged")  # P-DEF-5 (thrown and hurled too)

EVADE_ON = 5  # P-DEF-1: 5-6
SHAPE_CHANGE_ON = 5  # P-DMG-7: 5-6


@HOOKS.register(EVADES, "super_senses")
def super_senses(game, state, spec, target: int) -> bool:
    return game.roll_for(state, target)[0] >= EVADE_ON


@HOOKS.register(AVOIDS_TARGET, "shape_change")
def shape_change(game, state, attacker: int, target: int) -> bool:
    return game.roll_for(state, target)[0] >= SHAPE_CHANGE_ON


def has_trait(powers: tuple[str, ...], trait: Trait) -> bool:
    return HOOKS.any(TRAITS, trait, keys=powers)


def registered_keys() -> set[str]:
    """Every power key with an effect at some hook point (the implemented powers)."""
    return {key for point in HOOKS.points for key in HOOKS.keyed(point)}
