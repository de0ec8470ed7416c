"""HeroClix combat: the attack roll and damage (HC-4.2-4.8), knockback (HC-4.9-4.13), ranged
combat (HC-4.15-4.26), close combat (HC-4.27), terrain and lines of fire (HC-5.11-5.22) and
breaking walls and blocking terrain (HC-5.16-5.17)."""

from __future__ import annotations

import pytest


def fight(H, a=None, b=None, a_at=(5, 5), b_at=(5, 6), extra0=(), extra1=(), placements=None, **kw):
    """Seat 0's Attacker against seat 1's Target (plus extras); seat 0 to play."""
    a = a or H.fig("attacker", "Attacker")
    b = b or H.fig("target", "Target")
    place = {"Attacker": a_at, "Target": b_at, **(placements or {})}
    return H.build([[a, *extra0], [b, *extra1]], place, **kw)


def shooter(H, range=6, targets=1, **kw):
    return H.fig("attacker", "Attacker", range=range, targets=targets, **kw)


ROOF = {(5, c): 1 for c in range(6, 9)} | {(6, c): 1 for c in range(6, 9)}
LADDER = {(5, 5): ">"}


# -- HC-4.2-4.3 the attack roll and damage ------------------------------------------------


def test_HC_4_2_an_attack_hits_when_2d6_plus_attack_reaches_defense(H):
    game, state = fight(H, dice=["3", "4"])  # 7 + 9 = 16 = defense
    events = H.close(game, state, "Attacker", "Target")
    assert H.of_kind(events, "attack")[0].dice == ("3", "4")
    assert H.clicks(game, state, "Target") == 2
    assert H.tokens(game, state, "Attacker") == 1


def test_HC_4_2_an_attack_below_defense_misses(H):
    game, state = fight(H, dice=["2", "4"])  # 6 + 9 = 15 < 16
    events = H.close(game, state, "Attacker", "Target")
    assert "miss" in H.kinds(events)
    assert H.clicks(game, state, "Target") == 0 and H.sq(game, state, "Target") == (5, 6)


def test_HC_4_3_a_hit_turns_the_dial_one_click_per_damage(H):
    a = H.fig("attacker", "Attacker", damage=3)
    dial = [
        H.click(6, 9, 16, 2),
        H.click(5, 8, 15, 2),
        H.click(4, 7, 14, 1),
        H.click(3, 6, 13, 1),
        H.click(3, 6, 13, 1),
    ]
    game, state = fight(H, a, H.fig("target", "Target", dial=dial), dice=["3", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 3
    obs = game.observe(state, 0)
    ch = list(game.view.channel_names).index
    assert obs[ch("stats:speed"), 5, 6] == pytest.approx(3 / 20)


def test_HC_4_4_no_attack_on_friends(H):
    friend = H.fig("pal", "Pal")
    game, state = fight(H, a=shooter(H), extra0=[friend], b_at=(9, 9), placements={"Pal": (5, 6)})
    legal = H.options_of(game, state, "Attacker", "")
    assert not [n for n in legal if "Pal" in n]


def test_HC_4_5_a_figure_whose_dial_shows_ko_is_removed(H):
    game, state = fight(
        H,
        clicks={"Target": 4},
        extra1=[H.fig("spare", "Spare")],
        placements={"Spare": (11, 11)},
        dice=["3", "4"],
    )
    events = H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") is None
    assert "ko" in H.kinds(events)
    assert H.d(game, state)["occupant"][5 * game.width + 6] == -1


# -- HC-4.6-4.8 critical misses, critical hits, knockback ---------------------------------


def test_HC_4_6_a_roll_of_2_misses_and_costs_the_attacker_one_click(H):
    a = H.fig("attacker", "Attacker", attack=20, powers=(None, None, "invulnerability", None))
    game, state = fight(H, a, H.fig("target", "Target", defense=5), dice=["1", "1"])
    events = H.close(game, state, "Attacker", "Target")
    assert "critical_miss" in H.kinds(events)
    assert H.clicks(game, state, "Target") == 0
    assert H.clicks(game, state, "Attacker") == 1  # not reduced by Invulnerability
    assert H.sq(game, state, "Target") == (5, 6)


def test_HC_4_7_a_roll_of_12_always_hits_for_one_more_damage(H):
    a = H.fig("attacker", "Attacker", attack=0)
    game, state = fight(H, a, H.fig("target", "Target", defense=30), b_at=(5, 6), dice=["6", "6"])
    H.close(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 3


def test_HC_4_8_doubles_on_a_hit_knock_the_target_back(H):
    game, state = fight(H, dice=["4", "4"])
    events = H.close(game, state, "Attacker", "Target")
    assert "knockback" in H.kinds(events)
    assert H.sq(game, state, "Target") == (5, 8)
    assert H.clicks(game, state, "Target") == 2


def test_HC_4_8_no_knockback_without_doubles_or_on_a_miss(H):
    game, state = fight(H, dice=["4", "5"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 6)
    game, state = fight(H, H.fig("attacker", "Attacker", attack=1), dice=["4", "4"])
    events = H.close(game, state, "Attacker", "Target")
    assert "knockback" not in H.kinds(events) and H.sq(game, state, "Target") == (5, 6)


# -- HC-4.9-4.13 knockback ------------------------------------------------------------------


def test_HC_4_9_knockback_goes_straight_away_diagonally_too(H):
    game, state = fight(H, b_at=(6, 6), dice=["4", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (8, 8)


def test_HC_4_9_knockback_from_a_ranged_attack_follows_the_nearest_compass_direction(H):
    game, state = fight(H, a=shooter(H), a_at=(5, 1), b_at=(6, 5), dice=["4", "4"])
    H.ranged(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (6, 7)  # (1, 4) is nearest to east


def test_HC_4_10_knockback_into_a_wall_stops_with_one_more_damage(H):
    game, state = fight(H, walls=[((5, 7), (5, 8))], dice=["4", "4"])
    events = H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 7)
    assert H.clicks(game, state, "Target") == 3
    assert "wall" in H.of_kind(events, "knockback")[0].text


def test_HC_4_10_knockback_against_the_map_edge_stops_with_one_more_damage(H):
    game, state = fight(H, a_at=(5, 10), b_at=(5, 11), dice=["4", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 11)
    assert H.clicks(game, state, "Target") == 3


def test_HC_4_10_knockback_into_blocking_terrain_stops_with_one_more_damage(H):
    game, state = fight(H, marks={(5, 8): "#"}, dice=["4", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 7)
    assert H.clicks(game, state, "Target") == 3


def test_HC_4_10_hindering_terrain_does_not_stop_knockback(H):
    game, state = fight(H, marks={(5, 7): "%"}, dice=["4", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 8)
    assert H.clicks(game, state, "Target") == 2


def test_HC_4_10_knockback_against_higher_ground_stops_with_one_more_damage(H):
    game, state = fight(H, a_at=(5, 3), b_at=(5, 4), marks=LADDER, levels=ROOF, dice=["4", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 5)
    assert H.clicks(game, state, "Target") == 3


def test_HC_4_11_knocked_off_higher_ground_the_figure_falls_for_two_more(H):
    game, state = fight(H, a_at=(5, 6), b_at=(5, 7), marks=LADDER, levels=ROOF, dice=["4", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 9)
    assert H.clicks(game, state, "Target") == 4


def test_HC_4_11_flyers_take_no_falling_damage(H):
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(
        H, b=b, a_at=(5, 6), b_at=(5, 7), marks=LADDER, levels=ROOF, dice=["4", "4"]
    )
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 9)
    assert H.clicks(game, state, "Target") == 2


def test_HC_4_11_an_occupied_landing_square_keeps_the_figure_up(H):
    game, state = fight(
        H,
        a_at=(5, 6),
        b_at=(5, 7),
        marks=LADDER,
        levels=ROOF,
        extra0=[H.fig("pal", "Pal")],
        placements={"Pal": (5, 9)},
        dice=["4", "4"],
    )
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 8)
    assert H.clicks(game, state, "Target") == 2


def test_HC_4_13_knockback_into_a_figure_stops_before_it_without_damage(H):
    game, state = fight(
        H, extra1=[H.fig("spare", "Spare")], placements={"Spare": (5, 8)}, dice=["4", "4"]
    )
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 7)
    assert H.clicks(game, state, "Target") == 2


def test_HC_4_13_a_soaring_figure_is_stopped_by_the_edge_not_by_walls(H):
    a = H.fig("attacker", "Attacker", flyer=True)
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(
        H, a, b, a_at=(5, 5, "soar"), b_at=(5, 6, "soar"), walls=[((5, 7), (5, 8))], dice=["4", "4"]
    )
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 8)
    assert H.clicks(game, state, "Target") == 2
    game, state = fight(H, a, b, a_at=(5, 10, "soar"), b_at=(5, 11, "soar"), dice=["4", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 11)
    assert H.clicks(game, state, "Target") == 3


def test_HC_4_12_knockback_damage_is_its_own_instance(H):
    # a 12 deals 3; doubles knock the target 3 squares; the wall after 1 adds 1 more
    game, state = fight(H, walls=[((5, 7), (5, 8))], dice=["6", "6"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (5, 7)
    assert H.clicks(game, state, "Target") == 4


# -- HC-4.15-4.26 ranged combat -----------------------------------------------------------


def test_HC_4_15_range_0_has_no_ranged_attack(H):
    game, state = fight(H, a=shooter(H, range=0), b_at=(5, 8))
    assert not H.options_of(game, state, "Attacker", "ranged")


def test_HC_4_18_range_counts_squares_to_the_target_diagonals_one(H):
    game, state = fight(H, a=shooter(H, range=4), b_at=(9, 9))  # 4 diagonal squares
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}
    game, state = fight(H, a=shooter(H, range=4), b_at=(5, 10))
    assert H.ranged_targets(game, state, "Attacker") == set()
    game, state = fight(H, a=shooter(H, range=4), b_at=(5, 9))
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}


def test_HC_4_16_no_ranged_attack_while_adjacent_to_an_enemy(H):
    game, state = fight(
        H, a=shooter(H), b_at=(5, 9), extra1=[H.fig("near", "Near")], placements={"Near": (4, 5)}
    )
    legal = H.options_of(game, state, "Attacker", "")
    assert not [n for n in legal if n.startswith("ranged")]
    assert "close Near (4,5)" in legal


def test_HC_4_17_a_figure_in_the_way_blocks_the_line_of_fire(H):
    game, state = fight(
        H, a=shooter(H), b_at=(5, 9), extra0=[H.fig("pal", "Pal")], placements={"Pal": (5, 7)}
    )
    assert H.ranged_targets(game, state, "Attacker") == set()


def test_HC_4_17_blocking_terrain_and_walls_block_the_line_of_fire(H):
    game, state = fight(H, a=shooter(H), b_at=(5, 9), marks={(5, 7): "#"})
    assert H.ranged_targets(game, state, "Attacker") == set()
    game, state = fight(H, a=shooter(H), b_at=(5, 9), walls=[((5, 7), (5, 8))])
    assert H.ranged_targets(game, state, "Attacker") == set()
    game, state = fight(H, a=shooter(H), b_at=(5, 9))
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}


def test_HC_4_20_an_enemy_next_to_a_friend_may_be_shot_if_the_friend_is_not_in_the_way(H):
    game, state = fight(
        H, a=shooter(H), b_at=(5, 9), extra0=[H.fig("pal", "Pal")], placements={"Pal": (4, 9)}
    )
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}


def test_HC_4_21_a_ground_figure_may_shoot_a_soaring_figure_on_a_touching_square(H):
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(H, a=shooter(H), b=b, b_at=(5, 6, "soar"))
    legal = H.options_of(game, state, "Attacker", "")
    assert "ranged Target (5,6)" in legal and "close Target (5,6)" not in legal


def test_HC_4_22_range_is_halved_against_a_soaring_target(H):
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(H, a=shooter(H, range=5), b=b, b_at=(5, 8, "soar"))  # 3 = ceil(5/2)
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}
    game, state = fight(H, a=shooter(H, range=5), b=b, b_at=(5, 9, "soar"))
    assert H.ranged_targets(game, state, "Attacker") == set()
    game, state = fight(H, a=shooter(H, range=5), b=b, b_at=(5, 9))  # hovering: full range
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}


def test_HC_4_23_blocking_terrain_blocks_lines_to_flyers(H):
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(H, a=shooter(H), b=b, b_at=(5, 8, "soar"), marks={(5, 7): "#"})
    assert H.ranged_targets(game, state, "Attacker") == set()


def test_HC_4_23_outdoors_hindering_gives_no_bonus_when_a_flyer_is_involved(H):
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(
        H, a=shooter(H), b=b, b_at=(5, 8), marks={(5, 7): "%"}, dice=["3", "4"]
    )  # 16 against 16: a hit only without the +1
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


def test_HC_5_5_indoors_hindering_gives_its_bonus_against_flyers(H):
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(
        H, a=shooter(H), b=b, b_at=(5, 8), marks={(5, 7): "%"}, indoor=True, dice=["3", "4"]
    )
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 0


def test_HC_4_24_several_bolts_declare_several_targets_then_fire(H):
    game, state = fight(
        H,
        a=shooter(H, targets=2),
        b_at=(5, 8),
        extra1=[H.fig("other", "Other")],
        placements={"Other": (3, 7)},
        dice=["3", "4"],
    )
    H.ranged(game, state, "Attacker", "Target")
    assert H.phase(game, state) == "TARGETS"
    legal = H.names(game, state)
    assert "ranged Other (3,7)" in legal and "ranged Target (5,8)" not in legal
    assert "fire" in legal
    game.apply_string(state, "ranged Other (3,7)")  # the last bolt: fires at once
    assert H.clicks(game, state, "Target") == 1 and H.clicks(game, state, "Other") == 1


def test_HC_4_24_fire_early_at_the_targets_declared(H):
    game, state = fight(
        H,
        a=shooter(H, targets=2),
        b_at=(5, 8),
        extra1=[H.fig("other", "Other")],
        placements={"Other": (3, 7)},
        dice=["3", "4"],
    )
    H.ranged(game, state, "Attacker", "Target", fire=True)
    assert H.clicks(game, state, "Target") == 2  # one target: normal damage (HC-4.25)
    assert H.clicks(game, state, "Other") == 0


def test_HC_4_25_multi_target_attacks_deal_one_each_two_on_a_12(H):
    a = shooter(H, targets=2, damage=4)
    for dice, want in ((["3", "4"], 1), (["6", "6"], 2)):
        game, state = fight(
            H,
            a=a,
            b_at=(5, 8),
            extra1=[H.fig("other", "Other")],
            placements={"Other": (3, 7)},
            dice=dice,
        )
        H.ranged(game, state, "Attacker", "Target", "Other")
        assert H.clicks(game, state, "Target") == want
        assert H.clicks(game, state, "Other") == want


def test_HC_4_25_a_multi_bolt_figure_shooting_one_target_deals_normal_damage(H):
    game, state = fight(H, a=shooter(H, targets=2, damage=3), b_at=(5, 8), dice=["3", "4"])
    H.ranged(game, state, "Attacker", "Target")  # the only target: it fires at once
    assert H.clicks(game, state, "Target") == 3


def test_HC_4_26_one_roll_against_each_target_some_hit_some_miss(H):
    other = H.fig("other", "Other", defense=18)
    game, state = fight(
        H,
        a=shooter(H, targets=2),
        b_at=(5, 8),
        extra1=[other],
        placements={"Other": (3, 7)},
        dice=["3", "4"],
    )
    events = H.ranged(game, state, "Attacker", "Target", "Other")
    assert len(H.of_kind(events, "attack")) == 1
    assert H.clicks(game, state, "Target") == 1 and H.clicks(game, state, "Other") == 0


# -- HC-4.27 close combat -----------------------------------------------------------------


def test_HC_4_27_close_combat_needs_an_adjacent_target(H):
    game, state = fight(H, b_at=(5, 7))
    assert H.close_targets(game, state, "Attacker") == set()
    game, state = fight(H, b_at=(6, 6))
    assert H.close_targets(game, state, "Attacker") == {"Target"}


def test_HC_4_27_close_combat_only_on_the_same_level(H):
    game, state = fight(H, a_at=(5, 6), b_at=(4, 6), marks=LADDER, levels=ROOF)
    assert H.close_targets(game, state, "Attacker") == set()


def test_HC_4_27_a_hovering_flyer_may_be_attacked_in_close_combat_a_soaring_one_not(H):
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(H, b=b)
    assert H.close_targets(game, state, "Attacker") == {"Target"}
    game, state = fight(H, b=b, b_at=(5, 6, "soar"))
    assert H.close_targets(game, state, "Attacker") == set()


def test_HC_4_27_a_soaring_figure_fights_only_soaring_figures_in_close_combat(H):
    a = H.fig("attacker", "Attacker", flyer=True)
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(H, a, b, a_at=(5, 5, "soar"), b_at=(5, 6, "soar"))
    assert H.close_targets(game, state, "Attacker") == {"Target"}
    game, state = fight(H, a, b, a_at=(5, 5, "soar"), b_at=(5, 6))
    assert H.close_targets(game, state, "Attacker") == set()


# -- HC-5.11-5.13 hindering terrain and lines of fire -------------------------------------


def test_HC_5_11_hindering_terrain_on_the_line_adds_one_to_defense(H):
    game, state = fight(H, a=shooter(H), b_at=(5, 8), marks={(5, 6): "%"}, dice=["3", "4"])
    events = H.ranged(game, state, "Attacker", "Target")
    assert "miss" in H.kinds(events) and H.clicks(game, state, "Target") == 0
    game, state = fight(H, a=shooter(H), b_at=(5, 8), marks={(5, 6): "%"}, dice=["4", "4"])
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


def test_HC_5_11_the_bonus_counts_once_however_many_squares(H):
    marks = {(5, 6): "%", (5, 7): "%", (5, 8): "%"}
    game, state = fight(H, a=shooter(H), b_at=(5, 9), marks=marks, dice=["4", "5"])  # 18 v 17
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


def test_HC_5_11_the_targets_own_hindering_square_counts(H):
    game, state = fight(H, a=shooter(H), b_at=(5, 8), marks={(5, 8): "%"}, dice=["3", "4"])
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 0


def test_HC_5_11_shooting_from_cover_gives_no_bonus(H):
    game, state = fight(H, a=shooter(H), b_at=(5, 8), marks={(5, 5): "%"}, dice=["3", "4"])
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


def test_HC_5_12_hindering_terrain_does_not_affect_close_combat(H):
    game, state = fight(H, marks={(5, 6): "%", (5, 5): "%"}, dice=["3", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


def test_HC_5_13_shallow_water_does_not_hinder_lines_of_fire(H):
    game, state = fight(H, a=shooter(H), b_at=(5, 8), marks={(5, 6): "~"}, dice=["3", "4"])
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


# -- HC-5.14-5.17 walls and blocking terrain ----------------------------------------------


def test_HC_5_15_figures_with_a_wall_between_need_no_breakaway(H):
    game, state = fight(H, walls=[((5, 5), (5, 6))])
    legal = H.options_of(game, state, "Attacker", "")
    assert "break away" not in legal and "move Attacker to (5,4)" in legal


# -- HC-5.19-5.21 elevation and lines of fire ---------------------------------------------

BIG_ROOF = {(r, c): 1 for r in range(3, 8) for c in range(3, 9)}
BIG_LADDER = {(2, 3): "v"}


TWO_ROOFS = {(r, c): 1 for r in range(3, 8) for c in (2, 3, 4, 7, 8, 9)}
TWO_LADDERS = {(2, 2): "v", (2, 9): "v"}


def test_HC_5_19_between_two_roofs_ground_figures_and_terrain_do_not_count(H):
    marks = {**TWO_LADDERS, (5, 6): "%"}
    game, state = fight(
        H,
        a=shooter(H),
        a_at=(5, 4),
        b_at=(5, 7),
        marks=marks,
        levels=TWO_ROOFS,
        extra1=[H.fig("down", "Down")],
        placements={"Down": (5, 5)},
        dice=["3", "4"],
    )  # 16 v 16
    assert "Target" in H.ranged_targets(game, state, "Attacker")
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


def test_HC_5_20_shooting_down_from_the_roof_edge(H):
    game, state = fight(
        H, a=shooter(H), a_at=(5, 8), b_at=(5, 10), marks=BIG_LADDER, levels=BIG_ROOF
    )
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}
    game, state = fight(
        H, a=shooter(H), a_at=(5, 6), b_at=(5, 10), marks=BIG_LADDER, levels=BIG_ROOF
    )
    assert H.ranged_targets(game, state, "Attacker") == set()  # the roof is in the way


def test_HC_5_21_shooting_up_at_the_roof_edge(H):
    game, state = fight(
        H, a=shooter(H), a_at=(5, 10), b_at=(5, 8), marks=BIG_LADDER, levels=BIG_ROOF
    )
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}
    game, state = fight(
        H, a=shooter(H), a_at=(5, 10), b_at=(5, 6), marks=BIG_LADDER, levels=BIG_ROOF
    )
    assert H.ranged_targets(game, state, "Attacker") == set()


def test_HC_5_20_shooting_down_ignores_figures_and_hindering_in_between(H):
    marks = {**BIG_LADDER, (5, 10): "%"}
    game, state = fight(
        H,
        a=shooter(H),
        a_at=(5, 8),
        b_at=(5, 11),
        marks=marks,
        levels=BIG_ROOF,
        extra1=[H.fig("mid", "Mid")],
        placements={"Mid": (5, 9)},
        dice=["3", "4"],
    )  # 16 v 16
    assert "Target" in H.ranged_targets(game, state, "Attacker")
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


def test_HC_5_20_shooting_down_at_a_target_in_hindering_terrain_adds_one(H):
    marks = {**BIG_LADDER, (5, 11): "%"}
    game, state = fight(
        H, a=shooter(H), a_at=(5, 8), b_at=(5, 11), marks=marks, levels=BIG_ROOF, dice=["3", "4"]
    )
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 0


def test_HC_5_21_shooting_up_ignores_figures_and_hindering_in_between(H):
    marks = {**BIG_LADDER, (5, 9): "%"}
    game, state = fight(
        H,
        a=shooter(H),
        a_at=(5, 11),
        b_at=(5, 8),
        marks=marks,
        levels=BIG_ROOF,
        extra0=[H.fig("mid", "Mid")],
        placements={"Mid": (5, 10)},
        dice=["3", "4"],
    )
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


def test_HC_5_19_ground_blocking_between_two_roofs_does_not_block(H):
    marks = {**TWO_LADDERS, (5, 5): "#"}
    game, state = fight(H, a=shooter(H), a_at=(5, 4), b_at=(5, 7), marks=marks, levels=TWO_ROOFS)
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}


def test_HC_4_17_a_line_touching_only_a_corner_of_a_figures_square_is_clear(H):
    game, state = fight(
        H, a=shooter(H), b_at=(7, 7), extra0=[H.fig("pal", "Pal")], placements={"Pal": (5, 6)}
    )
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}
    game, state = fight(
        H, a=shooter(H), b_at=(7, 7), extra0=[H.fig("pal", "Pal")], placements={"Pal": (6, 6)}
    )
    assert H.ranged_targets(game, state, "Attacker") == set()


def test_HC_4_17_soaring_and_ground_figures_never_block_each_others_lines(H):
    wing = H.fig("pal", "Pal", flyer=True)
    game, state = fight(
        H, a=shooter(H), b_at=(5, 8), extra0=[wing], placements={"Pal": (5, 6, "soar")}
    )
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}
    a = shooter(H, flyer=True)
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(
        H,
        a=a,
        b=b,
        a_at=(5, 5, "soar"),
        b_at=(5, 8, "soar"),
        extra0=[H.fig("pal", "Pal")],
        placements={"Pal": (5, 6)},
    )
    assert H.ranged_targets(game, state, "Attacker") == {"Target"}


def test_HC_4_23_outdoors_a_flying_shooter_gets_no_hindering_penalty_either(H):
    game, state = fight(
        H, a=shooter(H, flyer=True), b_at=(5, 8), marks={(5, 7): "%"}, dice=["3", "4"]
    )
    H.ranged(game, state, "Attacker", "Target")
    assert H.clicks(game, state, "Target") == 2


def test_HC_4_8_every_target_hit_with_doubles_is_knocked_back(H):
    game, state = fight(
        H,
        a=shooter(H, targets=2),
        a_at=(5, 2),
        b_at=(5, 6),
        extra1=[H.fig("other", "Other")],
        placements={"Other": (3, 6)},
        dice=["4", "4"],
    )
    H.ranged(game, state, "Attacker", "Target", "Other")
    assert H.sq(game, state, "Target") == (5, 7)  # 1 damage each: 1 square
    assert H.sq(game, state, "Other") == (2, 7)  # (-2, 4) is nearest to north-east


def test_HC_4_6_a_critical_miss_costs_one_click_once_per_attack(H):
    game, state = fight(
        H,
        a=shooter(H, targets=2),
        a_at=(5, 2),
        b_at=(5, 6),
        extra1=[H.fig("other", "Other")],
        placements={"Other": (3, 6)},
        dice=["1", "1"],
    )
    H.ranged(game, state, "Attacker", "Target", "Other")
    assert H.clicks(game, state, "Attacker") == 1
    assert H.clicks(game, state, "Target") == 0 and H.clicks(game, state, "Other") == 0


def test_HC_4_10_a_diagonal_knockback_grazing_a_wall_corner_stops(H):
    game, state = fight(H, b_at=(6, 6), walls=[((6, 6), (6, 7))], dice=["4", "4"])
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") == (6, 6)
    assert H.clicks(game, state, "Target") == 3


def test_HC_3_22_a_soaring_figure_is_not_knocked_onto_a_ground_figures_square(H):
    a = H.fig("attacker", "Attacker", flyer=True)
    b = H.fig("target", "Target", flyer=True)
    game, state = fight(
        H,
        a,
        b,
        a_at=(5, 5, "soar"),
        b_at=(5, 6, "soar"),
        extra1=[H.fig("ground", "Ground")],
        placements={"Ground": (5, 8)},
        dice=["4", "4"],
    )
    H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Ground") == (5, 8)
    assert H.sq(game, state, "Target") == (5, 7)
    assert H.d(game, state)["occupant"][5 * game.width + 8] == H.idx(game, "Ground")
