"""HeroClix movement: speed and steps (HC-3.19-3.22), breakaway (HC-3.23-3.25), flight and
carrying (HC-3.26-3.33), adjacency (HC-3.13) and terrain for movement (HC-5.1-5.18)."""

from __future__ import annotations

import pytest


def walker(H, name="Walker", speed=6, **kw):
    return H.fig(name.lower(), name, speed=speed, **kw)


def flyer(H, name="Flyer", speed=6, **kw):
    return H.fig(name.lower(), name, speed=speed, flyer=True, **kw)


def enemy(H, name="Foe", **kw):
    return H.fig(name.lower(), name, **kw)


def solo(H, mover, at, foes=(), foe_at=None, **kw):
    """``mover`` for seat 0 (with friends in ``kw['friends']``) against ``foes`` for seat 1;
    a far-away spare foe keeps seat 1 in the game."""
    friends = kw.pop("friends", [])
    spare = H.fig("spare", "Spare")
    place = {mover["name"]: at, "Spare": (11, 11), **(foe_at or {}), **kw.pop("placements", {})}
    return H.build([[mover, *friends], [*foes, spare]], place, **kw)


CORRIDOR = {**{(4, c): "#" for c in range(1, 11)}, **{(6, c): "#" for c in range(1, 11)}}


# -- HC-3.19 speed and steps --------------------------------------------------------------


def test_HC_3_19_a_move_goes_up_to_speed_squares_diagonals_count_one(H):
    game, state = solo(H, walker(H, speed=3), (5, 5))
    reach = H.dests(game, state, "Walker")
    assert {(5, 8), (2, 2), (8, 8), (5, 5), (2, 8)} <= reach
    assert (5, 9) not in reach and (1, 5) not in reach and (9, 9) not in reach


def test_HC_3_19_a_move_may_be_cut_short_or_be_zero_squares(H):
    game, state = solo(H, walker(H, speed=3), (5, 5))
    H.move(game, state, "Walker", (5, 5))
    assert H.sq(game, state, "Walker") == (5, 5)
    assert H.tokens(game, state, "Walker") == 1


def test_HC_3_19_no_diagonal_step_past_a_wall_corner(H):
    game, state = solo(H, walker(H, speed=1), (5, 5), walls=[((5, 5), (5, 6))])
    reach = H.dests(game, state, "Walker")
    assert (5, 6) not in reach  # the wall itself
    assert (4, 6) not in reach and (6, 6) not in reach  # grazing its ends
    assert {(4, 5), (6, 5), (5, 4), (4, 4)} <= reach


def test_HC_3_19_walls_stop_walkers_so_they_go_around(H):
    walls = [((r, 5), (r, 6)) for r in range(3, 8)]
    game, state = solo(H, walker(H, speed=3), (5, 5), walls=walls)
    reach = H.dests(game, state, "Walker")
    assert (5, 6) not in reach and (5, 7) not in reach
    # around the wall's end without grazing it: (4,5) (3,5) (2,5) (2,6) (3,6) (4,6) (5,6)
    game, state = solo(H, walker(H, speed=6), (5, 5), walls=walls)
    assert (5, 6) not in H.dests(game, state, "Walker")
    game, state = solo(H, walker(H, speed=7), (5, 5), walls=walls)
    assert (5, 6) in H.dests(game, state, "Walker")


# -- HC-3.20 friends passable, enemies not ------------------------------------------------


def test_HC_3_20_a_figure_moves_through_friends(H):
    friend = H.fig("pal", "Pal")
    game, state = solo(
        H, walker(H, speed=3), (5, 1), marks=CORRIDOR, friends=[friend], placements={"Pal": (5, 2)}
    )
    reach = H.dests(game, state, "Walker")
    assert (5, 4) in reach and (5, 2) not in reach


def test_HC_3_20_never_through_an_enemy_square(H):
    # after breaking away, the only way on along the corridor is through the enemy
    game, state = solo(
        H,
        walker(H, speed=3),
        (5, 1),
        foes=[enemy(H)],
        marks=CORRIDOR,
        foe_at={"Foe": (5, 2)},
        dice=["6"],
    )
    H.select(game, state, "Walker")
    game.apply_string(state, "break away")
    reach = H.dests(game, state, "Walker", selected=True)
    assert (5, 3) not in reach and (5, 4) not in reach
    assert (5, 0) in reach


# -- HC-3.21 stopping next to enemies ----------------------------------------------------


def test_HC_3_21_a_figure_stops_on_entering_a_square_next_to_an_enemy(H):
    marks = {**CORRIDOR, (4, 5): "."}
    game, state = solo(
        H, walker(H, speed=6), (5, 1), foes=[enemy(H)], marks=marks, foe_at={"Foe": (4, 5)}
    )
    reach = H.dests(game, state, "Walker")
    assert (5, 5) in reach
    assert (5, 6) not in reach and (5, 7) not in reach
    game2, state2 = solo(H, walker(H, speed=6), (5, 1), marks=marks)
    assert (5, 7) in H.dests(game2, state2, "Walker")


def test_HC_3_21_no_stop_next_to_an_enemy_behind_a_wall(H):
    game, state = solo(
        H,
        walker(H, speed=4),
        (5, 1),
        foes=[enemy(H)],
        foe_at={"Foe": (4, 3)},
        walls=[((4, c), (5, c)) for c in range(1, 6)],
    )
    assert (5, 5) in H.dests(game, state, "Walker")


# -- HC-3.22 not ending on an occupied square ----------------------------------------------


def test_HC_3_22_a_move_may_not_end_on_an_occupied_square(H):
    friend = H.fig("pal", "Pal")
    game, state = solo(H, walker(H, speed=3), (5, 5), friends=[friend], placements={"Pal": (5, 6)})
    reach = H.dests(game, state, "Walker")
    assert (5, 6) not in reach and (5, 7) in reach


# -- HC-3.13 adjacency -------------------------------------------------------------------


def test_HC_3_13_enemies_across_a_wall_are_not_adjacent(H):
    game, state = solo(
        H,
        walker(H),
        (5, 5),
        foes=[enemy(H, range=0)],
        foe_at={"Foe": (5, 6)},
        walls=[((5, 5), (5, 6))],
    )
    legal = H.options_of(game, state, "Walker", "")
    assert "break away" not in legal and "close Foe (5,6)" not in legal
    assert "move Walker to (5,4)" in legal


def test_HC_3_13_enemies_diagonal_past_a_blocking_square_are_not_adjacent(H):
    game, state = solo(
        H, walker(H), (5, 5), foes=[enemy(H)], foe_at={"Foe": (4, 6)}, marks={(4, 5): "#"}
    )
    legal = H.options_of(game, state, "Walker", "")
    assert "break away" not in legal and "close Foe (4,6)" not in legal


# -- HC-3.23-3.25 breakaway --------------------------------------------------------------


def test_HC_3_23_a_figure_next_to_an_enemy_must_break_away_to_move(H):
    game, state = solo(H, walker(H), (5, 5), foes=[enemy(H)], foe_at={"Foe": (5, 6)})
    legal = H.options_of(game, state, "Walker", "")
    assert "break away" in legal
    assert not [n for n in legal if n.startswith("move ")]


@pytest.mark.parametrize("roll", ["4", "5", "6"])
def test_HC_3_23_breakaway_succeeds_on_4_to_6(H, roll):
    game, state = solo(H, walker(H), (5, 5), foes=[enemy(H)], foe_at={"Foe": (5, 6)}, dice=[roll])
    H.select(game, state, "Walker")
    events = game.apply_string(state, "break away")
    assert H.phase(game, state) == "MOVE"
    assert H.of_kind(events, "breakaway")[0].dice == (roll,)
    game.apply_string(state, "move Walker to (5,2)")
    assert H.sq(game, state, "Walker") == (5, 2)
    assert H.tokens(game, state, "Walker") == 1


@pytest.mark.parametrize("roll", ["1", "2", "3"])
def test_HC_3_23_failed_breakaway_uses_the_action_and_earns_a_token(H, roll):
    game, state = solo(H, walker(H), (5, 5), foes=[enemy(H)], foe_at={"Foe": (5, 6)}, dice=[roll])
    H.select(game, state, "Walker")
    game.apply_string(state, "break away")
    assert H.sq(game, state, "Walker") == (5, 5)
    assert H.tokens(game, state, "Walker") == 1
    assert H.seat(game, state) == 1


def test_HC_3_23_friends_next_to_a_figure_need_no_breakaway(H):
    friend = H.fig("pal", "Pal")
    game, state = solo(H, walker(H), (5, 5), friends=[friend], placements={"Pal": (5, 6)})
    assert "break away" not in H.options_of(game, state, "Walker", "")


def test_HC_3_24_one_roll_however_many_enemies_are_adjacent(H):
    foes = [enemy(H, "Foe"), enemy(H, "Other")]
    game, state = solo(
        H, walker(H), (5, 5), foes=foes, foe_at={"Foe": (5, 6), "Other": (4, 4)}, dice=["4"]
    )
    H.select(game, state, "Walker")
    game.apply_string(state, "break away")
    assert H.d(game, state)["dice"]["position"] == 1
    game.apply_string(state, "move Walker to (8,5)")
    assert H.sq(game, state, "Walker") == (8, 5)


def test_HC_3_25_after_breaking_away_pass_squares_next_to_those_enemies(H):
    game, state = solo(
        H, walker(H, speed=2), (5, 5), foes=[enemy(H)], foe_at={"Foe": (5, 4)}, dice=["5"]
    )
    H.select(game, state, "Walker")
    game.apply_string(state, "break away")
    # (3,3) is two diagonal steps away, only through (4,4), next to Foe
    assert (3, 3) in H.dests(game, state, "Walker", selected=True)


def test_HC_3_25_a_new_enemy_still_stops_the_move(H):
    foes = [enemy(H, "Foe"), enemy(H, "Other")]
    game, state = solo(
        H,
        walker(H, speed=3),
        (5, 5),
        foes=foes,
        foe_at={"Foe": (5, 4), "Other": (2, 4)},
        dice=["5"],
    )
    H.select(game, state, "Walker")
    game.apply_string(state, "break away")
    reach = H.dests(game, state, "Walker", selected=True)
    assert (3, 3) in reach  # next to Other: it stops there
    assert (2, 2) not in reach  # only via (4,4), (3,3)


# -- HC-3.26-3.29 flight -----------------------------------------------------------------


def test_HC_3_26_switching_to_soaring_costs_one_square(H):
    game, state = solo(H, flyer(H, speed=3), (5, 5))
    hover = H.dests(game, state, "Flyer")
    soar = H.dests(game, state, "Flyer", soar=True)
    assert (5, 8) in hover and (5, 8) not in soar
    assert (5, 7) in soar and (5, 5) in soar  # a switch alone is a move


def test_HC_3_26_a_soaring_flyer_lands_by_switching_back(H):
    game, state = solo(H, flyer(H, speed=3), (5, 5, "soar"))
    hover = H.dests(game, state, "Flyer")
    soar = H.dests(game, state, "Flyer", soar=True)
    assert (5, 8) in soar and (5, 8) not in hover and (5, 7) in hover
    H.move(game, state, "Flyer", (5, 7))
    assert not H.soaring(game, state, "Flyer")


def test_HC_3_26_a_hovering_flyer_next_to_an_enemy_breaks_away_before_soaring(H):
    game, state = solo(H, flyer(H), (5, 5), foes=[enemy(H)], foe_at={"Foe": (5, 6)})
    legal = H.options_of(game, state, "Flyer", "")
    assert "break away" in legal
    assert not [n for n in legal if n.startswith(("soar ", "move "))]


def test_HC_3_27_no_figure_shares_a_square_with_a_soaring_flyer(H):
    friend = flyer(H, "Wing")
    game, state = solo(
        H, walker(H, speed=3), (5, 5), friends=[friend], placements={"Wing": (5, 6, "soar")}
    )
    reach = H.dests(game, state, "Walker")
    assert (5, 6) not in reach and (5, 7) in reach


def test_HC_3_29_soaring_passes_over_ground_enemies_without_stopping(H):
    game, state = solo(
        H, flyer(H, speed=4), (5, 2, "soar"), foes=[enemy(H)], foe_at={"Foe": (5, 4)}
    )
    soar = H.dests(game, state, "Flyer", soar=True)
    assert (5, 6) in soar and (5, 4) not in soar
    assert "break away" not in H.options_of(game, state, "Flyer", "")


def test_HC_3_29_soaring_is_stopped_only_by_soaring_enemies(H):
    game, state = solo(
        H,
        flyer(H, speed=4),
        (5, 2, "soar"),
        foes=[flyer(H, "Hawk")],
        foe_at={"Hawk": (5, 4, "soar")},
    )
    soar = H.dests(game, state, "Flyer", soar=True)
    assert (5, 3) in soar and (5, 6) not in soar


def test_HC_3_29_a_soaring_figure_next_to_a_soaring_enemy_breaks_away(H):
    game, state = solo(
        H, flyer(H), (5, 2, "soar"), foes=[flyer(H, "Hawk")], foe_at={"Hawk": (5, 3, "soar")}
    )
    assert "break away" in H.options_of(game, state, "Flyer", "")


def test_HC_3_29_soaring_flies_over_blocking_terrain_but_walkers_go_around(H):
    marks = {(r, 4): "#" for r in range(3, 8)}
    game, state = solo(H, flyer(H, speed=4), (5, 2, "soar"), marks=marks)
    assert (5, 6) in H.dests(game, state, "Flyer", soar=True)
    assert (5, 4) not in H.dests(game, state, "Flyer", soar=True)  # not ending on blocking
    game, state = solo(H, walker(H, speed=4), (5, 2), marks=marks)
    assert (5, 6) not in H.dests(game, state, "Walker")


def test_HC_5_3_indoors_flyers_cannot_soar(H):
    game, state = solo(H, flyer(H, speed=4), (5, 5), indoor=True)
    assert H.dests(game, state, "Flyer", soar=True) == set()
    assert (5, 8) in H.dests(game, state, "Flyer")


def test_HC_5_3_a_soaring_flyer_does_not_enter_indoor_squares(H):
    inside = [(r, c) for r in range(3, 9) for c in range(6, 12)]
    game, state = solo(H, flyer(H, speed=3), (5, 4, "soar"), indoor=inside)
    soar = H.dests(game, state, "Flyer", soar=True)
    assert (5, 5) in soar and (5, 6) not in soar
    assert (5, 6) in H.dests(game, state, "Flyer")  # hovering in (switch 1 + 2 squares)


def test_HC_3_28_hovering_outdoors_ignores_hindering_terrain(H):
    marks = {(r, 4): "%" for r in range(12)}
    game, state = solo(H, flyer(H, speed=6), (5, 2), marks=marks)
    assert (5, 7) in H.dests(game, state, "Flyer")
    game, state = solo(H, walker(H, speed=6), (5, 2), marks=marks)
    reach = H.dests(game, state, "Walker")
    assert (5, 4) in reach and (5, 5) not in reach


def test_HC_3_28_hovering_indoors_follows_the_hindering_rules(H):
    marks = {(r, 4): "%" for r in range(12)}
    game, state = solo(H, flyer(H, speed=6), (5, 2), marks=marks, indoor=True)
    reach = H.dests(game, state, "Flyer")
    assert (5, 4) in reach and (5, 5) not in reach


def test_HC_5_1_hovering_outdoors_crosses_walls_and_blocking_but_not_indoors(H):
    walls = [((r, 4), (r, 5)) for r in range(3, 8)]
    marks = {(8, 8): "#"}
    game, state = solo(H, flyer(H, speed=2), (5, 4), walls=walls, marks=marks)
    reach = H.dests(game, state, "Flyer")
    assert (5, 5) in reach and (8, 9) in H.dests(
        *solo(H, flyer(H, speed=2), (8, 7), marks=marks), "Flyer"
    )
    assert (8, 8) not in H.dests(*solo(H, flyer(H, speed=2), (8, 7), marks=marks), "Flyer")
    game, state = solo(H, walker(H, speed=2), (5, 4), walls=walls)
    assert (5, 5) not in H.dests(game, state, "Walker")
    game, state = solo(H, flyer(H, speed=2), (5, 4), walls=walls, indoor=True)
    assert (5, 5) not in H.dests(game, state, "Flyer")


# -- HC-3.30-3.33 carrying ----------------------------------------------------------------


def carry_game(H, **kw):
    friend = walker(H, "Pal")
    return solo(
        H,
        flyer(H, speed=5),
        (5, 5),
        friends=[friend],
        placements={"Pal": (5, 4), **kw.pop("placements", {})},
        **kw,
    )


def test_HC_3_30_a_hovering_flyer_carries_an_adjacent_friend_and_sets_it_down(H):
    game, state = carry_game(H, build_total=200)
    H.select(game, state, "Flyer")
    game.apply_string(state, "carry Pal (5,4)")
    assert H.phase(game, state) == "MOVE"
    assert not [n for n in H.names(game, state) if n.startswith("soar ")]  # must end hovering
    game.apply_string(state, "move Flyer to (5,9)")
    assert H.phase(game, state) == "DROP"
    drops = {n for n in H.names(game, state) if n.startswith("drop ")}
    assert "drop (5,10)" in drops and "drop (4,8)" in drops and "drop (5,7)" not in drops
    game.apply_string(state, "drop (5,10)")
    assert H.sq(game, state, "Flyer") == (5, 9) and H.sq(game, state, "Pal") == (5, 10)


def test_HC_3_30_carrying_needs_a_hovering_flyer_and_an_adjacent_friend(H):
    game, state = carry_game(H, placements={"Pal": (5, 3)})
    assert not H.options_of(game, state, "Flyer", "carry")
    game, state = carry_game(H, placements={"Flyer": (5, 5, "soar")})
    assert not H.options_of(game, state, "Flyer", "carry")
    game, state = carry_game(H)
    assert H.options_of(game, state, "Flyer", "carry") == {"carry Pal (5,4)"}


def test_HC_3_30_the_carrier_may_soar_on_the_way_but_must_land(H):
    # a line of enemies: hovering must go far around; soaring passes over them
    foes = [H.fig(f"foe{k}", f"Foe{k}", points=10) for k in range(5)]
    friend = walker(H, "Pal", points=10)
    place = {"Pal": (5, 4), **{f"Foe{k}": (3 + k, 8) for k in range(5)}}
    game, state = solo(
        H, flyer(H, speed=8, points=10), (5, 5), foes=foes, friends=[friend], placements=place
    )
    H.select(game, state, "Flyer")
    game.apply_string(state, "carry Pal (5,4)")
    legal = H.names(game, state)
    assert "move Flyer to (5,11)" in legal  # up (1), six squares, down (1)
    assert not [n for n in legal if n.startswith("soar ")]
    game.apply_string(state, "move Flyer to (5,11)")
    game.apply_string(state, "drop (5,10)")
    assert H.sq(game, state, "Pal") == (5, 10) and not H.soaring(game, state, "Flyer")


def test_HC_3_30_only_the_flyer_rolls_breakaway(H):
    game, state = carry_game(H, foes=[enemy(H)], foe_at={"Foe": (4, 3)}, dice=["5"])
    H.select(game, state, "Flyer")
    events = game.apply_string(state, "carry Pal (5,4)")  # Pal is next to Foe, Flyer is not
    assert not H.of_kind(events, "breakaway")
    assert H.phase(game, state) == "MOVE"


def test_HC_3_31_a_friend_holding_an_object_may_not_be_carried(H):
    friend = walker(H, "Pal", powers=(None, "super_strength", None, None))
    game, state = solo(
        H,
        flyer(H, speed=5),
        (5, 5),
        friends=[friend],
        placements={"Pal": (5, 4)},
        objects={"table": (8, 8)},
        held={"Pal": "table"},
    )
    assert not H.options_of(game, state, "Flyer", "carry")


def test_HC_3_31_a_carrier_holding_an_object_may_still_carry(H):
    # HC-3.31 limits only the passenger; the carrier may hold an object
    carrier = flyer(H, speed=5, powers=(None, "super_strength", None, None))
    game, state = solo(
        H,
        carrier,
        (5, 5),
        friends=[walker(H, "Pal")],
        placements={"Pal": (5, 4)},
        objects={"table": (8, 8)},
        held={"Flyer": "table"},
    )
    assert H.options_of(game, state, "Flyer", "carry") == {"carry Pal (5,4)"}


def test_HC_3_32_the_passenger_gets_no_token_and_may_act_after_landing(H):
    game, state = carry_game(H, build_total=200)
    H.select(game, state, "Flyer")
    game.apply_string(state, "carry Pal (5,4)")
    game.apply_string(state, "move Flyer to (5,9)")
    game.apply_string(state, "drop (5,10)")
    assert H.tokens(game, state, "Flyer") == 1 and H.tokens(game, state, "Pal") == 0
    assert "select Pal (5,10)" in H.names(game, state)


def test_HC_3_33_passenger_may_act_after_drop_false_forbids_it(H):
    game, state = carry_game(H, build_total=200, options={"passenger_may_act_after_drop": False})
    H.select(game, state, "Flyer")
    game.apply_string(state, "carry Pal (5,4)")
    game.apply_string(state, "move Flyer to (5,9)")
    game.apply_string(state, "drop (5,10)")
    assert H.tokens(game, state, "Pal") == 0
    assert "select Pal (5,10)" not in H.names(game, state)


# -- HC-5.8 stairs and ladders -----------------------------------------------------------

ROOF = {(5, c): 1 for c in range(6, 9)} | {(6, c): 1 for c in range(6, 9)}


def test_HC_5_8_climbing_a_ladder_costs_one_extra_square(H):
    marks = {(5, 5): ">"}
    game, state = solo(H, walker(H, speed=3), (5, 4), marks=marks, levels=ROOF)
    reach = H.dests(game, state, "Walker")
    assert (5, 6) in reach and (5, 7) not in reach
    game, state = solo(H, walker(H, speed=2), (5, 4), marks=marks, levels=ROOF)
    assert (5, 6) not in H.dests(game, state, "Walker")


def test_HC_5_8_climbing_down_a_ladder_costs_one(H):
    marks = {(5, 5): ">"}
    game, state = solo(H, walker(H, speed=2), (5, 6), marks=marks, levels=ROOF)
    assert (5, 4) in H.dests(game, state, "Walker")


def test_HC_5_8_levels_change_only_by_stairs_or_ladder(H):
    marks = {(5, 5): ">"}
    game, state = solo(H, walker(H, speed=2), (7, 7), marks=marks, levels=ROOF)
    reach = H.dests(game, state, "Walker")
    assert not {(6, 6), (6, 7), (6, 8)} & reach and (7, 9) in reach
    game, state = solo(H, walker(H, speed=1), (6, 7), marks=marks, levels=ROOF)
    reach = H.dests(game, state, "Walker")
    assert (7, 7) not in reach and (6, 8) in reach


def test_HC_5_8_going_up_stairs_costs_nothing_extra(H):
    marks = {(5, 4): "=", (5, 5): "="}
    levels = {**ROOF, (5, 5): 1}
    game, state = solo(H, walker(H, speed=3), (5, 3), marks=marks, levels=levels)
    reach = H.dests(game, state, "Walker")
    assert (5, 6) in reach and (5, 7) not in reach


def test_HC_5_18_flyers_reach_elevated_squares_without_stairs(H):
    game, state = solo(H, flyer(H, speed=1), (7, 7), marks={(5, 5): ">"}, levels=ROOF)
    assert (6, 7) in H.dests(game, state, "Flyer")


def test_HC_5_22_figures_on_touching_squares_at_different_levels_need_no_breakaway(H):
    game, state = solo(
        H,
        walker(H, speed=2),
        (6, 7),
        foes=[enemy(H)],
        foe_at={"Foe": (7, 7)},
        marks={(5, 5): ">"},
        levels=ROOF,
    )
    legal = H.options_of(game, state, "Walker", "")
    assert "break away" not in legal and "close Foe (7,7)" not in legal
    assert "move Walker to (5,8)" in legal


# -- HC-5.10 and HC-5.13 hindering terrain and water -------------------------------------

HEDGE = {(r, 4): "%" for r in range(12)}


def test_HC_5_10_a_figure_stops_on_entering_hindering_terrain(H):
    game, state = solo(H, walker(H, speed=6), (5, 2), marks=HEDGE)
    reach = H.dests(game, state, "Walker")
    assert (5, 4) in reach and (3, 4) in reach
    assert not {(5, 5), (4, 5), (6, 5)} & reach


def test_HC_5_10_starting_in_hindering_terrain_halves_speed_rounding_up(H):
    game, state = solo(H, walker(H, speed=5), (5, 4), marks=HEDGE)
    reach = H.dests(game, state, "Walker")
    assert (5, 7) in reach and (5, 8) not in reach


def test_HC_5_10_a_step_from_hindering_into_hindering_ends_the_move(H):
    marks = {**HEDGE, **{(r, 5): "%" for r in range(12)}}
    game, state = solo(H, walker(H, speed=6), (5, 4), marks=marks)
    reach = H.dests(game, state, "Walker")
    assert (5, 5) in reach and (4, 5) in reach  # budget 3: it stops on the next hedge square
    assert not {(5, 6), (5, 7), (4, 6)} & reach
    assert (5, 1) in reach  # stepping out of hindering goes on


def test_HC_5_10_flag_hindering_to_hindering_continues(H):
    marks = {**HEDGE, **{(r, 5): "%" for r in range(12)}}
    game, state = solo(
        H,
        walker(H, speed=6),
        (5, 4),
        marks=marks,
        options={"hindering_to_hindering_continues": True},
    )
    reach = H.dests(game, state, "Walker")
    assert (5, 7) in reach  # [2002]: budget 3: (5,5) hindering, (5,6), (5,7)
    assert (5, 1) in reach


def test_HC_5_13_shallow_water_hinders_movement(H):
    marks = {(r, 4): "~" for r in range(12)}
    game, state = solo(H, walker(H, speed=6), (5, 2), marks=marks)
    reach = H.dests(game, state, "Walker")
    assert (5, 4) in reach and (5, 5) not in reach


def test_HC_3_30_the_carrier_may_end_where_the_passenger_stood(H):
    # the passenger's square is empty once it is taken along; the carrier ends there and
    # must still stand there after the drop
    game, state = carry_game(H, build_total=200)
    H.select(game, state, "Flyer")
    game.apply_string(state, "carry Pal (5,4)")
    assert "move Flyer to (5,4)" in H.names(game, state)
    game.apply_string(state, "move Flyer to (5,4)")
    game.apply_string(state, "drop (5,3)")
    assert H.sq(game, state, "Flyer") == (5, 4) and H.sq(game, state, "Pal") == (5, 3)
    assert H.d(game, state)["occupant"][5 * game.width + 4] == H.idx(game, "Flyer")
    assert game.render_text(state).splitlines()[5].split()[4] == "A0"
    assert (5, 4) not in H.dests(game, state, "Pal")  # nobody may end on the Flyer's square


def test_HC_3_33_a_passenger_that_may_not_act_still_loses_its_old_token(H):
    # HC-3.15: the passenger did nothing this turn, so last turn's token leaves it
    game, state = carry_game(H, tokens={"Pal": 1}, options={"passenger_may_act_after_drop": False})
    H.select(game, state, "Flyer")
    game.apply_string(state, "carry Pal (5,4)")
    game.apply_string(state, "move Flyer to (5,8)")
    game.apply_string(state, "drop (5,9)")
    assert H.seat(game, state) == 1
    assert H.tokens(game, state, "Pal") == 0


def test_HC_5_10_indoors_a_hovering_flyer_starting_in_hindering_moves_at_half_speed(H):
    game, state = solo(H, flyer(H, speed=5), (5, 4), marks=HEDGE, indoor=True)
    reach = H.dests(game, state, "Flyer")
    assert (5, 7) in reach and (5, 8) not in reach
    game, state = solo(H, flyer(H, speed=5), (5, 4), marks=HEDGE)
    assert (5, 9) in H.dests(game, state, "Flyer")  # outdoors: not halved


def test_HC_3_30_a_carrier_next_to_an_enemy_breaks_away_first_and_may_fail(H):
    game, state = carry_game(H, foes=[enemy(H)], foe_at={"Foe": (5, 6)}, dice=["3"])
    H.select(game, state, "Flyer")
    events = game.apply_string(state, "carry Pal (5,4)")
    assert H.of_kind(events, "breakaway")
    assert H.sq(game, state, "Flyer") == (5, 5) and H.sq(game, state, "Pal") == (5, 4)
    assert H.tokens(game, state, "Flyer") == 1 and H.tokens(game, state, "Pal") == 0
    assert H.seat(game, state) == 1
