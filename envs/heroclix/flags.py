"""Rule flags: the alternatives the rules specs name beside their *Default:* lines.

Every flag is an env option, off (or 0) unless the table says **on by default**:
``make("heroclix_v0", support_min_heal=1)``. A flag that only gives a power one more trait
says so in :data:`FLAG_TRAITS`; the engine asks :meth:`HeroclixBase.has_trait
<envs.heroclix.game.HeroclixBase.has_trait>`, which adds them.

====================================  =======  ===============================================
flag                                  rule     what it changes
====================================  =======  ===============================================
``hover_adjacent_ranged_exception``   HC-4.21  **on by default** (the rule as written): an
                                               adjacent *hovering* enemy may be shot; only it,
                                               and only when no other enemy is adjacent. Off:
                                               HC-4.16 prevails [2002]
``tk_flyer_limit_includes_hover``     HC-6.15  **on by default**: the 5-square hurl limit
                                               against every flyer; off: soaring ones only
``hindering_to_hindering_continues``  HC-5.10  [2002]: a step from hindering into hindering
                                               does not end the move (default: it does)
``leapclimb_ignores_characters``      P-SPD-2  Leap/Climb is not stopped next to enemies
``leapclimb_hits_soaring``            P-SPD-2  Leap/Climb attacks soaring figures on touching
                                               squares in close combat
``phasing_ignores_characters``        P-SPD-3  Phasing is not stopped next to enemies
``superstrength_2008_wall_bonus``     P-ATT-5  +2 damage for Super Strength's close attacks on
                                               walls, blocking squares and objects
``psychic_blast_ignores_lof``         P-ATT-7  Psychic Blast's line of fire ignores hindering
                                               terrain and figures
``support_vs_target_defense``         P-DMG-3  Support rolls against the friend's defense value
                                               instead of 10
``support_no_adjacent_enemies``       P-DMG-3  no Support while either figure is next to an
                                               enemy
``support_min_heal``                  P-DMG-3  the least a successful Support heals: 0 or 1
``pulse_wave_while_adjacent``         P-ATT-3  Pulse Wave may be used next to an enemy
``probability_control``               P-DMG-6  Probability Control works (its Default: off):
                                               rerolls as decisions after each roll
``mastermind_pushing``                P-DEF-7  Mastermind may pass on pushing damage too
``tk_move_friend``                    P-ATT-11 Telekinesis may move an adjacent friendly figure
                                               10 squares (option 2: ``power_telekinesis``)
``tk_move_enemy``                     P-ATT-11 ... or an adjacent enemy it hits in close combat
                                               for no damage (option 1)
``hypersonic_option2``                P-SPD-9  Hypersonic Speed may also make a streak of close
                                               attacks, each harder, for rising damage
``combat_reflexes_2008``              P-DEF-4  Combat Reflexes also chooses to be knocked back
                                               by any damaging attack (an INTERRUPT), and
                                               takes no knockback damage
====================================  =======  ===============================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envs.core.game import OptionError

IGNORES_ENEMY_STOPS = "ignores_enemy_stops"  # squares next to enemies do not stop its move
CLOSE_SOARING = "close_soaring"  # close combat with soaring figures on touching squares
ROLLS_WITH_HITS = "rolls_with_hits"  # may take knockback from any damage, and no click of it


@dataclass(frozen=True)
class Flag:
    name: str
    rule: str
    choices: tuple = (False, True)  # the default first

    @property
    def default(self) -> Any:
        return self.choices[0]


FLAGS: tuple[Flag, ...] = (
    Flag("hover_adjacent_ranged_exception", "HC-4.21", (True, False)),
    Flag("tk_flyer_limit_includes_hover", "HC-6.15", (True, False)),
    Flag("hindering_to_hindering_continues", "HC-5.10"),
    Flag("leapclimb_ignores_characters", "P-SPD-2"),
    Flag("leapclimb_hits_soaring", "P-SPD-2"),
    Flag("phasing_ignores_characters", "P-SPD-3"),
    Flag("superstrength_2008_wall_bonus", "P-ATT-5"),
    Flag("psychic_blast_ignores_lof", "P-ATT-7"),
    Flag("support_vs_target_defense", "P-DMG-3"),
    Flag("support_no_adjacent_enemies", "P-DMG-3"),
    Flag("support_min_heal", "P-DMG-3", (0, 1)),
    Flag("pulse_wave_while_adjacent", "P-ATT-3"),
    Flag("probability_control", "P-DMG-6"),
    Flag("mastermind_pushing", "P-DEF-7"),
    Flag("combat_reflexes_2008", "P-DEF-4"),
    Flag("tk_move_friend", "P-ATT-11"),
    Flag("tk_move_enemy", "P-ATT-11"),
    Flag("hypersonic_option2", "P-SPD-9"),
)
FLAG_DEFAULTS = {flag.name: flag.default for flag in FLAGS}

# flag -> (power key, trait the power gains while the flag is on)
FLAG_TRAITS = {
    "leapclimb_ignores_characters": ("leap_climb", IGNORES_ENEMY_STOPS),
    "leapclimb_hits_soaring": ("leap_climb", CLOSE_SOARING),
    "phasing_ignores_characters": ("phasing", IGNORES_ENEMY_STOPS),
    "combat_reflexes_2008": ("combat_reflexes", ROLLS_WITH_HITS),
}


def checked_flags(values: dict[str, Any]) -> dict[str, Any]:
    """The flags' values, each checked against its choices (an OptionError names the flag)."""
    out = {}
    for flag in FLAGS:
        value = values[flag.name]
        if isinstance(value, bool) != isinstance(flag.default, bool) or value not in flag.choices:
            raise OptionError(flag.name, f"{flag.rule}: must be one of "
                              f"{', '.join(map(repr, flag.choices))}, got {value!r}")
        out[flag.name] = value
    return out


def flag_traits(values: dict[str, Any]) -> dict[str, frozenset[str]]:
    """Power key -> the traits the flags that are on add to it."""
    extra: dict[str, set[str]] = {}
    for name, (key, trait) in FLAG_TRAITS.items():
        if values[name]:
            extra.setdefault(key, set()).add(trait)
    return {key: frozenset(traits) for key, traits in extra.items()}
