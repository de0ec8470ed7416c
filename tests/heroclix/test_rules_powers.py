"""The nine powers of the basic game (envs/heroclix/RULES.md; R-3 ... R-11 of envs/heroclix/RULES.md):
Toughness, Invulnerability, Support, Regeneration, Steal Energy, Super Strength,
Telekinesis, Leap/Climb and Phasing."""

from __future__ import annotations

import pytest

TOUGH = (None, None, "toughness", None)
INVULN = (None, None, "invulnerability", None)
SUPPORT = (None, None, None, "support")
REGEN = (None, None, "regeneration", None)
STEAL = (None, "steal_energy", None, None)
LEAP = ("leap_climb", None, None, None)
PHASE = ("phasing", None, None, None)


def duel(H, a, b, a_at=(5, 5), b_at=(5, 6), extra0=(), extra1=(), placements=None, **kw):
    place = {a["name"]: a_at, b["name"]: b_at, **(placements or {})}
    return H.build([[a, *extra0], [b, *extra1]], place, **kw)


def plain(H, name, **kw):
    return H.fig(name.lower(), name, **kw)


def spare(H):
    return H.fig("spare", "Spare")


# -- P-DEF-2 / R-3 Toughness --------------------------------------------------------------


def test_P_DEF_2_toughness_reduces_attack_damage_by_one(H):
    game, state = duel(
        H, plain(H, "Hitter", damage=3), plain(H, "Tank", powers=TOUGH), dice=["3", "4"]
    )
    H.close(game, state, "Hitter", "Tank")
    assert H.clicks(game, state, "Tank") == 2


def test_P_DEF_2_toughness_reduces_knockback_damage(H):
    # a 2 hits for 2 - 1 = 1 and knocks 1 square into the wall: its 1 is reduced to 0
    game, state = duel(
        H,
        plain(H, "Hitter"),
        plain(H, "Tank", powers=TOUGH),
        walls=[((5, 7), (5, 8))],
        dice=["4", "4"],
    )
    events = H.close(game, state, "Hitter", "Tank")
    assert H.sq(game, state, "Tank") == (5, 7)
    assert H.clicks(game, state, "Tank") == 1
    assert "knockback" in H.kinds(events)


def test_P_DEF_2_toughness_to_zero_means_no_knockback(H):
    game, state = duel(
        H, plain(H, "Hitter", damage=1), plain(H, "Tank", powers=TOUGH), dice=["4", "4"]
    )
    events = H.close(game, state, "Hitter", "Tank")
    assert H.clicks(game, state, "Tank") == 0 and H.sq(game, state, "Tank") == (5, 6)
    assert "knockback" not in H.kinds(events)


def test_P_DEF_2_toughness_does_not_reduce_pushing_or_critical_miss_damage(H):
    game, state = duel(
        H, plain(H, "Tank", powers=TOUGH), plain(H, "Other"), tokens={"Tank": 1}, dice=["1", "1"]
    )
    H.close(game, state, "Tank", "Other")
    assert H.clicks(game, state, "Tank") == 2  # 1 critical miss + 1 pushing


def test_P_DEF_2_toughness_reduces_falling_damage(H):
    roof = {(5, c): 1 for c in range(6, 9)} | {(6, c): 1 for c in range(6, 9)}
    game, state = duel(
        H,
        plain(H, "Hitter", damage=3),
        plain(H, "Tank", powers=TOUGH),
        a_at=(5, 6),
        b_at=(5, 7),
        marks={(5, 5): ">"},
        levels=roof,
        dice=["4", "4"],
    )
    H.close(game, state, "Hitter", "Tank")
    assert H.sq(game, state, "Tank") == (5, 9)  # 2 squares: the second is the fall
    assert H.clicks(game, state, "Tank") == 3  # 3 - 1, then the fall's 2 - 1


# -- P-DEF-11 / R-4 Invulnerability ------------------------------------------------------


def test_P_DEF_11_invulnerability_reduces_attack_damage_by_two(H):
    game, state = duel(
        H, plain(H, "Hitter", damage=3), plain(H, "Wall", powers=INVULN), dice=["3", "4"]
    )
    H.close(game, state, "Hitter", "Wall")
    assert H.clicks(game, state, "Wall") == 1


def test_P_DEF_11_invulnerability_reduces_damage_to_no_less_than_zero(H):
    game, state = duel(
        H, plain(H, "Hitter", damage=1), plain(H, "Wall", powers=INVULN), dice=["3", "4"]
    )
    H.close(game, state, "Hitter", "Wall")
    assert H.clicks(game, state, "Wall") == 0


def test_P_DEF_11_invulnerability_applies_after_the_multi_target_cap(H):
    shooter = plain(H, "Hitter", range=6, targets=2, damage=5)
    game, state = duel(
        H,
        shooter,
        plain(H, "Wall", powers=INVULN),
        b_at=(5, 8),
        extra1=[plain(H, "Other")],
        placements={"Other": (3, 8)},
        dice=["6", "6"],
    )
    H.ranged(game, state, "Hitter", "Wall", "Other")
    assert H.clicks(game, state, "Wall") == 0  # 1 + 1 (critical) - 2
    assert H.clicks(game, state, "Other") == 2


def test_P_DEF_11_invulnerability_reduces_knockback_damage(H):
    game, state = duel(
        H,
        plain(H, "Hitter", damage=3),
        plain(H, "Wall", powers=INVULN),
        a_at=(5, 10),
        b_at=(5, 11),
        dice=["4", "4"],
    )
    H.close(game, state, "Hitter", "Wall")
    assert H.clicks(game, state, "Wall") == 1  # 3 - 2; the edge's 1 - 2 = 0


# -- P-DMG-3 / R-5 Support -------------------------------------------------------------


def support_game(H, dice, clicks=3, attack=5, **kw):
    medic = plain(H, "Medic", attack=attack, powers=SUPPORT)
    pal = plain(H, "Pal")
    return duel(
        H,
        medic,
        spare(H),
        b_at=(11, 11),
        extra0=[pal],
        placements={"Pal": (5, 6), **kw.pop("placements", {})},
        clicks={"Pal": clicks},
        dice=dice,
        **kw,
    )


def test_R_5_support_heals_adjacent_friend(H):
    game, state = support_game(H, ["2", "3", "5"])  # 5 + 5 >= 10; heal 5 - 2 = 3
    H.select(game, state, "Medic")
    events = game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 0
    assert "heal" in H.kinds(events)
    assert H.tokens(game, state, "Medic") == 1


def test_R_5_support_fails_below_10(H):
    game, state = support_game(H, ["2", "2"])  # 4 + 5 = 9
    H.select(game, state, "Medic")
    game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 3
    assert H.d(game, state)["dice"]["position"] == 2  # no heal die


def test_R_5_support_heal_is_1d6_minus_2_minimum_0(H):
    game, state = support_game(H, ["3", "3", "2"])
    H.select(game, state, "Medic")
    game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 3


def test_R_5_support_never_heals_past_the_starting_click(H):
    game, state = support_game(H, ["3", "3", "6"], clicks=1)
    H.select(game, state, "Medic")
    game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 0


def test_R_5_support_targets_adjacent_damaged_friends_only(H):
    game, state = support_game(H, [], clicks=0)
    assert not H.options_of(game, state, "Medic", "support")
    game, state = support_game(H, [], placements={"Pal": (5, 7)})
    assert not H.options_of(game, state, "Medic", "support")
    game, state = support_game(H, [])
    assert H.options_of(game, state, "Medic", "support") == {"support Pal (5,6)"}


def test_R_5_support_never_heals_itself(H):
    medic = plain(H, "Medic", powers=SUPPORT)
    game, state = duel(H, medic, spare(H), b_at=(11, 11), clicks={"Medic": 2})
    assert not H.options_of(game, state, "Medic", "support")


def test_R_5_support_is_not_prevented_by_adjacent_enemies(H):
    game, state = support_game(H, ["3", "3", "4"], placements={"Spare": (4, 5)})
    assert "break away" in H.options_of(game, state, "Medic", "")
    H.select(game, state, "Medic")
    game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 1


def test_R_5_support_roll_of_2_fails_and_costs_the_supporter_a_click(H):
    game, state = support_game(H, ["1", "1"], attack=20)
    H.select(game, state, "Medic")
    game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 3 and H.clicks(game, state, "Medic") == 1


def test_R_5_support_roll_of_12_heals_one_more(H):
    game, state = support_game(H, ["6", "6", "3"], attack=0, clicks=4)
    H.select(game, state, "Medic")
    game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 2  # 3 - 2 + 1


# -- P-DEF-10 / R-6 Regeneration --------------------------------------------------------


def regen_game(H, dice, clicks=4, **kw):
    troll = plain(H, "Troll", powers=REGEN)
    return duel(H, troll, spare(H), b_at=(11, 11), clicks={"Troll": clicks}, dice=dice, **kw)


def test_R_6_regeneration_heals_1d6_minus_2_without_moving(H):
    game, state = regen_game(H, ["5"])
    H.select(game, state, "Troll")
    events = game.apply_string(state, "regenerate")
    assert H.clicks(game, state, "Troll") == 1
    assert H.sq(game, state, "Troll") == (5, 5)
    assert H.tokens(game, state, "Troll") == 1
    assert "regenerate" in H.kinds(events)


@pytest.mark.parametrize("roll", ["1", "2"])
def test_R_6_regeneration_minimum_zero(H, roll):
    game, state = regen_game(H, [roll])
    H.select(game, state, "Troll")
    game.apply_string(state, "regenerate")
    assert H.clicks(game, state, "Troll") == 4


def test_R_6_regeneration_never_heals_past_the_start(H):
    game, state = regen_game(H, ["6"], clicks=2)
    H.select(game, state, "Troll")
    game.apply_string(state, "regenerate")
    assert H.clicks(game, state, "Troll") == 0


def test_R_6_regeneration_only_for_a_damaged_figure(H):
    game, state = regen_game(H, [], clicks=0)
    assert "regenerate" not in H.options_of(game, state, "Troll", "")


def test_R_6_regeneration_next_to_enemies_needs_no_breakaway(H):
    game, state = regen_game(H, ["6"], placements={"Spare": (5, 6)})
    H.select(game, state, "Troll")
    assert "regenerate" in H.names(game, state) and "break away" in H.names(game, state)
    game.apply_string(state, "regenerate")
    assert H.clicks(game, state, "Troll") == 0


def test_R_6_regeneration_counts_for_pushing_after_the_heal(H):
    game, state = regen_game(H, ["6"], clicks=4, tokens={"Troll": 1})
    H.select(game, state, "Troll")
    game.apply_string(state, "regenerate")
    assert H.clicks(game, state, "Troll") == 1  # 4 - 4 = 0, then pushed to 1
    assert H.tokens(game, state, "Troll") == 2


# -- P-ATT-10 / R-7 Steal Energy ----------------------------------------------------------


def test_R_7_steal_energy_heals_one_when_a_close_attack_damages(H):
    game, state = duel(
        H, plain(H, "Leech", powers=STEAL), plain(H, "Prey"), clicks={"Leech": 2}, dice=["3", "4"]
    )
    H.close(game, state, "Leech", "Prey")
    assert H.clicks(game, state, "Prey") == 2
    assert H.clicks(game, state, "Leech") == 1


def test_R_7_steal_energy_needs_damage_dealt(H):
    game, state = duel(
        H, plain(H, "Leech", powers=STEAL), plain(H, "Prey"), clicks={"Leech": 2}, dice=["2", "3"]
    )
    H.close(game, state, "Leech", "Prey")
    assert H.clicks(game, state, "Leech") == 2
    game, state = duel(
        H,
        plain(H, "Leech", powers=STEAL, damage=1),
        plain(H, "Prey", powers=TOUGH),
        clicks={"Leech": 2},
        dice=["3", "4"],
    )
    H.close(game, state, "Leech", "Prey")
    assert H.clicks(game, state, "Leech") == 2  # hit, but Toughness took the damage


def test_R_7_steal_energy_works_in_close_combat_only(H):
    game, state = duel(
        H,
        plain(H, "Leech", powers=STEAL, range=6),
        plain(H, "Prey"),
        b_at=(5, 8),
        clicks={"Leech": 2},
        dice=["3", "4"],
    )
    H.ranged(game, state, "Leech", "Prey")
    assert H.clicks(game, state, "Prey") == 2
    assert H.clicks(game, state, "Leech") == 2


def test_R_7_steal_energy_never_heals_past_the_start(H):
    game, state = duel(H, plain(H, "Leech", powers=STEAL), plain(H, "Prey"), dice=["3", "4"])
    H.close(game, state, "Leech", "Prey")
    assert H.clicks(game, state, "Leech") == 0


# -- P-ATT-5 / R-8 Super Strength (objects: test_rules_objects.py) ------------------------


def test_R_8_super_strength_switched_off_picks_up_nothing(H):
    hero = plain(H, "Lifter", powers=(None, "super_strength", None, None))
    game, state = duel(H, hero, spare(H), a_at=(5, 4), b_at=(11, 11), objects={"table": (5, 5)})
    H.select(game, state, "Lifter")
    assert "pick up (5,5)" in H.names(game, state)
    game.apply_string(state, "switch off attack power")
    assert "pick up (5,5)" not in H.names(game, state)


# -- P-ATT-11 / R-9 Telekinesis ---------------------------------------------------------


def test_R_9_telekinesis_does_not_move_friendly_figures_by_default(H):
    hero = plain(H, "Mind", powers=(None, "telekinesis", None, None))
    game, state = duel(
        H, hero, spare(H), b_at=(11, 11), extra0=[plain(H, "Pal")], placements={"Pal": (5, 6)}
    )
    legal = H.options_of(game, state, "Mind", "")
    assert not [n for n in legal if n.startswith("tk")]


# -- P-SPD-2 / R-10 Leap/Climb ---------------------------------------------------------


def test_R_10_leap_climb_breaks_away_automatically(H):
    game, state = duel(H, plain(H, "Jumper", powers=LEAP), plain(H, "Foe"), dice=[])
    legal = H.options_of(game, state, "Jumper", "")
    assert "break away" not in legal and "move Jumper to (5,2)" in legal
    H.move(game, state, "Jumper", (5, 2))
    assert H.sq(game, state, "Jumper") == (5, 2)


def test_R_10_leap_climb_ignores_hindering_terrain(H):
    marks = {(r, 4): "%" for r in range(12)}
    game, state = duel(
        H,
        plain(H, "Jumper", powers=LEAP, speed=5),
        spare(H),
        a_at=(5, 4),
        b_at=(11, 11),
        marks=marks,
    )
    reach = H.dests(game, state, "Jumper")
    assert (5, 9) in reach  # not halved, not stopped


def test_R_10_leap_climb_climbs_anywhere(H):
    roof = {(5, c): 1 for c in range(6, 9)} | {(6, c): 1 for c in range(6, 9)}
    game, state = duel(
        H,
        plain(H, "Jumper", powers=LEAP, speed=1),
        spare(H),
        a_at=(7, 7),
        b_at=(11, 11),
        marks={(5, 5): ">"},
        levels=roof,
    )
    assert (6, 7) in H.dests(game, state, "Jumper")


def test_R_10_leap_climb_crosses_walls_and_blocking_outdoors_not_indoors(H):
    walls = [((r, 4), (r, 5)) for r in range(3, 8)]
    marks = {(8, 5): "#"}
    jumper = plain(H, "Jumper", powers=LEAP, speed=2)
    game, state = duel(H, jumper, spare(H), a_at=(5, 4), b_at=(11, 11), walls=walls, marks=marks)
    assert (5, 5) in H.dests(game, state, "Jumper")  # over the wall
    game, state = duel(H, jumper, spare(H), a_at=(8, 4), b_at=(11, 11), marks=marks)
    reach = H.dests(game, state, "Jumper")
    assert (8, 6) in reach and (8, 5) not in reach  # over the blocking square, not onto it
    game, state = duel(H, jumper, spare(H), a_at=(5, 4), b_at=(11, 11), walls=walls, indoor=True)
    assert (5, 5) not in H.dests(game, state, "Jumper")


def test_R_10_leap_climb_still_stops_next_to_a_new_enemy(H):
    game, state = duel(
        H, plain(H, "Jumper", powers=LEAP, speed=3), plain(H, "Foe"), a_at=(5, 5), b_at=(2, 4)
    )
    reach = H.dests(game, state, "Jumper")
    assert (3, 3) in reach and (2, 2) not in reach


def test_R_10_leap_climb_passes_squares_next_to_enemies_it_started_beside(H):
    game, state = duel(
        H, plain(H, "Jumper", powers=LEAP, speed=2), plain(H, "Foe"), a_at=(5, 5), b_at=(5, 4)
    )
    assert (3, 3) in H.dests(game, state, "Jumper")


def test_P_SPD_2_leap_climb_close_combat_at_another_level(H):
    roof = {(5, c): 1 for c in range(6, 9)} | {(6, c): 1 for c in range(6, 9)}
    game, state = duel(
        H,
        plain(H, "Jumper", powers=LEAP),
        plain(H, "Foe"),
        a_at=(4, 6),
        b_at=(5, 6),
        marks={(5, 5): ">"},
        levels=roof,
        dice=["3", "4"],
    )
    assert H.close_targets(game, state, "Jumper") == {"Foe"}
    H.close(game, state, "Jumper", "Foe")
    assert H.clicks(game, state, "Foe") == 2


def test_P_SPD_2_leap_climb_cannot_close_on_a_soaring_target(H):
    game, state = duel(
        H, plain(H, "Jumper", powers=LEAP), plain(H, "Foe", flyer=True), b_at=(5, 6, "soar")
    )
    assert H.close_targets(game, state, "Jumper") == set()


# -- P-SPD-3 / R-11 Phasing --------------------------------------------------------------


def test_R_11_phasing_ignores_blocking_terrain_and_walls_even_indoors(H):
    walls = [((r, 4), (r, 5)) for r in range(3, 8)]
    ghost = plain(H, "Ghost", powers=PHASE, speed=2)
    game, state = duel(
        H,
        ghost,
        spare(H),
        a_at=(5, 4),
        b_at=(11, 11),
        walls=walls,
        marks={(5, 6): "#"},
        indoor=True,
    )
    reach = H.dests(game, state, "Ghost")
    assert (5, 5) in reach and (5, 6) not in reach  # through the wall; not onto blocking
    game, state = duel(
        H, ghost, spare(H), a_at=(5, 5), b_at=(11, 11), indoor=True, marks={(5, 6): "#"}
    )
    assert (5, 7) in H.dests(game, state, "Ghost")  # through the blocking square


def test_R_11_phasing_passes_through_figures_but_never_ends_on_them(H):
    ghost = plain(H, "Ghost", powers=PHASE, speed=3)
    corridor = {**{(4, c): "#" for c in range(1, 11)}, **{(6, c): "#" for c in range(1, 11)}}
    game, state = duel(H, ghost, plain(H, "Foe"), a_at=(5, 1), b_at=(5, 2), marks=corridor)
    reach = H.dests(game, state, "Ghost")
    assert (5, 3) in reach and (5, 4) in reach  # through the enemy it started next to
    assert (5, 2) not in reach


def test_R_11_phasing_breaks_away_automatically(H):
    game, state = duel(H, plain(H, "Ghost", powers=PHASE), plain(H, "Foe"), dice=[])
    assert "break away" not in H.options_of(game, state, "Ghost", "")
    H.move(game, state, "Ghost", (5, 2))
    assert H.sq(game, state, "Ghost") == (5, 2)


def test_R_11_phasing_still_stops_next_to_a_new_enemy(H):
    game, state = duel(
        H, plain(H, "Ghost", powers=PHASE, speed=3), plain(H, "Foe"), a_at=(5, 5), b_at=(2, 4)
    )
    reach = H.dests(game, state, "Ghost")
    assert (3, 3) in reach and (2, 2) not in reach


def test_R_11_phasing_ignores_hindering_and_levels(H):
    roof = {(5, c): 1 for c in range(6, 9)} | {(6, c): 1 for c in range(6, 9)}
    marks = {(5, 5): ">", **{(r, 3): "%" for r in range(12)}}
    game, state = duel(
        H,
        plain(H, "Ghost", powers=PHASE, speed=4),
        spare(H),
        a_at=(5, 3),
        b_at=(11, 11),
        marks=marks,
        levels=roof,
    )
    reach = H.dests(game, state, "Ghost")
    assert (5, 7) in reach and (6, 7) in reach  # speed 4 from hindering; up without the ladder


def test_HC_3_8_a_switched_off_speed_power_works_like_no_power(H):
    game, state = duel(H, plain(H, "Jumper", powers=LEAP), plain(H, "Foe"), dice=[])
    H.select(game, state, "Jumper")
    game.apply_string(state, "switch off speed power")
    assert "break away" in H.names(game, state)


def test_P_SPD_3_no_carrying_a_passenger_through_blocking_terrain_with_phasing(H):
    walls = [((r, 6), (r, 7)) for r in range(3, 9)]
    ghost = plain(H, "Ghost", flyer=True, speed=4, powers=PHASE)
    game, state = duel(
        H,
        ghost,
        spare(H),
        a_at=(5, 6),
        b_at=(11, 11),
        walls=walls,
        indoor=True,
        extra0=[plain(H, "Pal")],
        placements={"Pal": (5, 5)},
    )
    assert (5, 8) in H.dests(game, state, "Ghost")  # alone it phases through the wall
    if H.options_of(game, state, "Ghost", "carry"):
        H.select(game, state, "Ghost")
        game.apply_string(state, "carry Pal (5,5)")
        assert "move Ghost to (5,8)" not in H.names(game, state)


def test_R_6_the_regeneration_event_shows_the_die_rolled(H):
    game, state = regen_game(H, ["1"])
    H.select(game, state, "Troll")
    events = game.apply_string(state, "regenerate")
    assert H.of_kind(events, "regenerate")[0].dice == ("1",)
