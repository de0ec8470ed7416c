"""HeroClix's options, declared once (:mod:`envs.core.options`): the env docstring's options
table, the docs' table and every check and error message come from these fields.

The rule flags are the options with a rule ID: each is the alternative its rule names beside
its *Default:* line (``envs/heroclix/RULES.md``), off (or 0) unless its default says
otherwise; :mod:`envs.heroclix.flags` says which of them only give a power one more trait.
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from typing import ClassVar

from envs.core.options import BoardSize, Boolean, DataRefs, Integer, OneOf, Options, option
from envs.heroclix.data.scenarios import Scenario

REWARDS = ("win", "vp")
SETUPS = ("fixed", "play")


def flag(rule: str, doc: str, default: bool = False) -> bool:
    """A rule flag: True/False, its error naming the rule."""
    choices = (default, not default)
    return option(default, doc, OneOf(choices, rule), rule=rule)


@dataclass(frozen=True)
class HeroclixOptions(Options):
    owner: ClassVar[str] = "heroclix_v0"

    scenario: str | PathLike[str] | Scenario = option(
        "duel",
        "scenario id (envs.heroclix.data.scenarios.scenario_ids()) or a path to a scenario file",
        DataRefs("scenario", Scenario),
    )
    board_size: tuple[int, int] | None = option(
        None,
        "(H, W) of observations and action cells; None: the map's size",
        BoardSize(none_means="the map's size"),
    )
    max_rounds: int | None = option(
        None,
        "rounds before the game ends on points",
        Integer(none_means="the scenario's"),
        shown_default="scenario",
    )
    reward: str = option("win", '"win" or "vp" (see Rewards)', OneOf(REWARDS))
    full_dial_visibility: bool = option(
        False, "observe the next clicks of every dial", Boolean(), rule="HC-8.1"
    )
    passenger_may_act_after_drop: bool = option(
        True, "as written; False: the Nexus reading", Boolean(), rule="HC-3.32"
    )
    setup: str = option(
        "fixed",
        '"fixed": the scenario\'s forces and placements; "play": setup as decisions '
        "(see Setup played)",
        OneOf(SETUPS),
        rule="HC-2",
    )
    hover_adjacent_ranged_exception: bool = flag(
        "HC-4.21",
        "an adjacent hovering enemy can be shot (only it); False: HC-4.16 prevails [2002]",
        default=True,
    )
    tk_flyer_limit_includes_hover: bool = flag(
        "HC-6.15", "hurling reaches every flyer at 5; False: soaring ones only", default=True
    )
    hindering_to_hindering_continues: bool = flag(
        "HC-5.10", "[2002]: a step from hindering into hindering does not end the move"
    )
    leapclimb_ignores_characters: bool = flag("P-SPD-2", "Leap/Climb: no stop next to enemies")
    leapclimb_hits_soaring: bool = flag(
        "P-SPD-2", "Leap/Climb: close attacks on soaring figures on touching squares"
    )
    phasing_ignores_characters: bool = flag("P-SPD-3", "Phasing: no stop next to enemies")
    superstrength_2008_wall_bonus: bool = flag(
        "P-ATT-5", "Super Strength: +2 close damage on walls, blocking squares and objects"
    )
    psychic_blast_ignores_lof: bool = flag(
        "P-ATT-7", "Psychic Blast: figures and hindering terrain do not block its line of fire"
    )
    support_vs_target_defense: bool = flag(
        "P-DMG-3", "Support rolls against the friend's defense value instead of 10"
    )
    support_no_adjacent_enemies: bool = flag(
        "P-DMG-3", "no Support while either figure is next to an enemy"
    )
    support_min_heal: int = option(
        0, "the least a successful Support heals (0 or 1)", OneOf((0, 1), "P-DMG-3"), rule="P-DMG-3"
    )
    pulse_wave_while_adjacent: bool = flag("P-ATT-3", "Pulse Wave may be used next to an enemy")
    probability_control: bool = flag(
        "P-DMG-6",
        "Probability Control works (off is the card's Default): rerolls as "
        "INTERRUPT decisions after each roll",
    )
    mastermind_pushing: bool = flag("P-DEF-7", "Mastermind passes on pushing damage too")
    combat_reflexes_2008: bool = flag(
        "P-DEF-4",
        "Combat Reflexes may be knocked back by any damaging attack (an INTERRUPT), "
        "and takes no knockback damage",
    )
    tk_move_friend: bool = flag(
        "P-ATT-11", "option 2: Telekinesis moves an adjacent friend 10 squares (power_telekinesis)"
    )
    tk_move_enemy: bool = flag(
        "P-ATT-11", "option 1: ... or an adjacent enemy it hits in close combat for no damage"
    )
    hypersonic_option2: bool = flag(
        "P-SPD-9",
        "option 2: Hypersonic Speed may make a streak of close attacks, each harder, "
        "for rising damage",
    )
    team_abilities: bool = option(
        False,
        "the team abilities of teams.yaml (TA-*) for figures with a team",
        Boolean(),
        rule="R-13",
    )
