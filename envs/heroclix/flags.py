"""What the rule flags change beyond a yes/no in one rule: the traits some flags give a power.

The flags themselves are options, declared with their rule IDs in
:class:`~envs.heroclix.options.HeroclixOptions` (and tabled from there in the env's docstring).
A flag that only gives a power one more trait says so in :data:`FLAG_TRAITS`; the engine asks
:meth:`HeroclixBase.has_trait <envs.heroclix.dials.DialForces.has_trait>`, which adds them.
"""

from __future__ import annotations

from typing import Final

from envs.heroclix.options import HeroclixOptions
from envs.heroclix.powers.hooks import Trait

IGNORES_ENEMY_STOPS: Final = Trait(
    "ignores_enemy_stops"
)  # squares next to enemies do not stop its move
CLOSE_SOARING: Final = Trait(
    "close_soaring"
)  # close combat with soaring figures on touching squares
ROLLS_WITH_HITS: Final = Trait(
    "rolls_with_hits"
)  # may take knockback from any damage, and no click of it


# flag -> (power key, trait the power gains while the flag is on)
FLAG_TRAITS: dict[str, tuple[str, Trait]] = {
    "leapclimb_ignores_characters": ("leap_climb", IGNORES_ENEMY_STOPS),
    "leapclimb_hits_soaring": ("leap_climb", CLOSE_SOARING),
    "phasing_ignores_characters": ("phasing", IGNORES_ENEMY_STOPS),
    "combat_reflexes_2008": ("combat_reflexes", ROLLS_WITH_HITS),
}


def flag_traits(options: HeroclixOptions) -> dict[str, frozenset[str]]:
    """Power key -> the traits the flags that are on add to it."""
    extra: dict[str, set[str]] = {}
    for name, (key, trait) in FLAG_TRAITS.items():
        if getattr(options, name):
            extra.setdefault(key, set()).add(trait)
    return {key: frozenset(traits) for key, traits in extra.items()}
