"""HeroClix powers as effects in the hook registry :data:`HOOKS` (R-1 ... R-11).

A figure's powers are the keys its dial shows at its current click (HC-1.11, HC-3.7), less
optional powers its controller switched off (HC-3.8) and powers not implemented yet (the
catalogue's ``implemented`` flag). The flow asks :data:`HOOKS` with those keys and never
compares a power's name:

==================  ================  ========================================================
point               combine           used for
==================  ================  ========================================================
``traits``          any               what a figure may do while moving or fighting: the
                                      trait names below (Leap/Climb, Phasing, Super Strength,
                                      Telekinesis)
``damage_taken``    sum               reductions of attack and knockback damage (Toughness -1,
                                      Invulnerability -2, R-3/R-4)
``after_attack``    each              after an attack (Steal Energy heals, R-7)
``extra_actions``   lookup            action variants with their own targets (Support,
                                      Regeneration, throwing, Telekinesis):
                                      :mod:`.power_actions`
==================  ================  ========================================================

Adding a power is registering its effect under its key; the engine's flow stays as it is.
"""

from __future__ import annotations

from ..core.hooks import DAMAGE_TAKEN, STANDARD_POINTS, Combine, HookPoint, HookRegistry

TRAITS = HookPoint("traits", Combine.ANY, "does the figure have this trait")
HOOKS = HookRegistry("heroclix", STANDARD_POINTS + (TRAITS,))

# Trait names asked at TRAITS.
AUTO_BREAKAWAY = "auto_breakaway"  # breaks away without a roll
IGNORES_HINDERING = "ignores_hindering"  # hindering neither stops nor halves it
CLIMBS = "climbs"  # changes level anywhere, not only by stairs or ladder
CROSSES_BLOCKING_OUTDOORS = "crosses_blocking_outdoors"  # walls and blocking, outdoors
CROSSES_BLOCKING_INDOORS = "crosses_blocking_indoors"  # ... indoors too (HC-5.4, R-11)
PASSES_FIGURES = "passes_figures"  # moves through occupied squares
CLOSE_ANY_LEVEL = "close_any_level"  # close combat with a target at another level (P-SPD-2)
PICKS_UP_OBJECTS = "picks_up_objects"  # holds, strikes with and throws objects (HC-6.5)
MOVES_OBJECTS = "moves_objects"  # moves and hurls objects (HC-6.13)

_LEAP_CLIMB = frozenset({AUTO_BREAKAWAY, IGNORES_HINDERING, CLIMBS, CROSSES_BLOCKING_OUTDOORS,
                         CLOSE_ANY_LEVEL})
_PHASING = frozenset({AUTO_BREAKAWAY, IGNORES_HINDERING, CLIMBS, CROSSES_BLOCKING_OUTDOORS,
                      CROSSES_BLOCKING_INDOORS, PASSES_FIGURES})


def _traits(key: str, traits: frozenset[str]) -> None:
    HOOKS.register(TRAITS, key)(lambda trait: trait in traits)


_traits("leap_climb", _LEAP_CLIMB)  # P-SPD-2 / R-10
_traits("phasing", _PHASING)  # P-SPD-3 / R-11
_traits("super_strength", frozenset({PICKS_UP_OBJECTS}))  # P-ATT-5 / R-8
_traits("telekinesis", frozenset({MOVES_OBJECTS}))  # P-ATT-11 / R-9


def _reduction(key: str, amount: int) -> None:
    """R-3/R-4: attack and knockback damage only; the caller passes reducible kinds only."""
    HOOKS.register(DAMAGE_TAKEN, key)(lambda game, state, figure, kind: -amount)


_reduction("toughness", 1)  # P-DEF-2
_reduction("invulnerability", 2)  # P-DEF-11


def has_trait(powers: tuple[str, ...], trait: str) -> bool:
    return HOOKS.any(TRAITS, trait, keys=powers)
