"""HeroClix objects (HC-6): terrain while unheld, Super Strength pick-up, strikes and throws,
Telekinesis moves and hurls (HC-6.13-6.20)."""

from __future__ import annotations

import pytest

SS = (None, "super_strength", None, None)
TK = (None, "telekinesis", None, None)


def lifter(H, name="Lifter", **kw):
    return H.fig(name.lower(), name, powers=SS, **kw)


def mover(H, name="Mind", **kw):
    return H.fig(name.lower(), name, powers=TK, **kw)


def game_with(H, hero, at, objects, foes=(), foe_at=None, friends=(), **kw):
    spare = H.fig("spare", "Spare")
    place = {hero["name"]: at, "Spare": (11, 11), **(foe_at or {}), **kw.pop("placements", {})}
    return H.build([[hero, *friends], [*foes, spare]], place, objects=objects, **kw)


def foe(H, name="Foe", **kw):
    return H.fig(name.lower(), name, **kw)


# -- HC-6.3 objects are hindering terrain until held -------------------------------------


def test_HC_6_3_an_unheld_object_is_hindering_terrain_for_movement(H):
    walker = H.fig("walker", "Walker", speed=6)
    walls = [((r, 5), (r, 6)) for r in range(3, 9) if r != 5]
    game, state = game_with(H, walker, (5, 4), {"table": (5, 5)}, walls=walls)
    reach = H.dests(game, state, "Walker")
    assert (5, 5) in reach and (5, 6) not in reach
    game, state = game_with(H, walker, (5, 4), {"table": None}, walls=walls)
    assert (5, 6) in H.dests(game, state, "Walker")


def test_HC_6_3_an_unheld_object_hinders_lines_of_fire(H):
    shooter = H.fig("walker", "Walker", range=6)
    game, state = game_with(
        H,
        shooter,
        (5, 4),
        {"table": (5, 6)},
        foes=[foe(H)],
        foe_at={"Foe": (5, 8)},
        dice=["3", "4"],
    )  # 16 v 16 + 1
    H.ranged(game, state, "Walker", "Foe")
    assert H.clicks(game, state, "Foe") == 0


def test_HC_6_3_a_held_object_is_not_terrain(H):
    game, state = game_with(H, lifter(H), (5, 4), {"table": (8, 8)}, held={"Lifter": "table"})
    ch = list(game.view.channel_names).index
    obs = game.observe(state, 0)
    assert obs[ch("objects:light"), 8, 8] == 0.0 and obs[ch("objects:held"), 5, 4] == 0.5  # light
    assert obs[ch("terrain:hindering")].sum() == 0.0


# -- HC-6.4-6.8 Super Strength: picking up ------------------------------------------------


def test_HC_6_5_only_super_strength_picks_up_objects(H):
    plain = H.fig("lifter", "Lifter")
    game, state = game_with(H, plain, (5, 4), {"table": (5, 5)})
    assert not H.options_of(game, state, "Lifter", "pick up")
    game, state = game_with(H, lifter(H), (5, 4), {"table": (5, 5)})
    assert H.options_of(game, state, "Lifter", "pick up") == {"pick up (5,5)"}


def test_HC_6_6_pick_up_an_adjacent_object_during_a_move_and_keep_moving(H):
    game, state = game_with(H, lifter(H, speed=4), (5, 2), {"table": (5, 5)})
    H.move(game, state, "Lifter", (5, 4))
    assert H.phase(game, state) == "PICKUP"
    assert set(H.names(game, state)) == {"pick up (5,5)", "end move"}
    game.apply_string(state, "pick up (5,5)")
    assert H.held_by(game, state, "Lifter") == "table"
    assert H.object_at(game, state, "table") == "held"
    assert H.phase(game, state) == "MOVE"
    reach = {n for n in H.names(game, state) if n.startswith("move ")}
    assert "move Lifter to (5,6)" in reach and "move Lifter to (5,7)" not in reach
    game.apply_string(state, "move Lifter to (5,6)")
    assert H.sq(game, state, "Lifter") == (5, 6)
    assert H.tokens(game, state, "Lifter") == 1


def test_HC_6_6_pick_up_before_moving_costs_nothing(H):
    game, state = game_with(H, lifter(H, speed=3), (5, 4), {"table": (5, 5)})
    H.select(game, state, "Lifter")
    game.apply_string(state, "pick up (5,5)")
    assert H.phase(game, state) == "MOVE"
    assert "move Lifter to (5,7)" in H.names(game, state)


def test_HC_6_6_no_pick_up_after_a_failed_breakaway(H):
    game, state = game_with(
        H, lifter(H), (5, 4), {"table": (5, 3)}, foes=[foe(H)], foe_at={"Foe": (5, 5)}, dice=["2"]
    )
    legal = H.options_of(game, state, "Lifter", "")
    assert "pick up (5,3)" not in legal and "break away" in legal
    H.select(game, state, "Lifter")
    game.apply_string(state, "break away")
    assert H.object_at(game, state, "table") == (5, 3)
    assert H.seat(game, state) == 1


def test_HC_6_5_a_figure_holds_only_one_object(H):
    game, state = game_with(
        H, lifter(H), (5, 4), {"table": (8, 8), "dumpster": (5, 5)}, held={"Lifter": "table"}
    )
    assert not H.options_of(game, state, "Lifter", "pick up")


def test_HC_6_7_there_is_no_way_to_drop_an_object(H):
    game, state = game_with(H, lifter(H), (5, 4), {"table": (8, 8)}, held={"Lifter": "table"})
    H.move(game, state, "Lifter", (5, 6))
    assert H.held_by(game, state, "Lifter") == "table"
    assert H.object_at(game, state, "table") == "held"


def test_HC_6_8_no_pick_up_during_a_combat_action(H):
    game, state = game_with(
        H,
        lifter(H),
        (5, 4),
        {"table": (4, 4)},
        foes=[foe(H)],
        foe_at={"Foe": (5, 5)},
        dice=["3", "4"],
    )
    H.close(game, state, "Lifter", "Foe")
    assert H.object_at(game, state, "table") == (4, 4)
    assert H.seat(game, state) == 1


# -- HC-6.9-6.11 striking with an object --------------------------------------------------


@pytest.mark.parametrize("kind, bonus", [("table", 1), ("dumpster", 2)])
def test_HC_6_11_a_close_attack_with_an_object_adds_1_light_or_2_heavy(H, kind, bonus):
    game, state = game_with(
        H,
        lifter(H),
        (5, 4),
        {kind: (8, 8)},
        held={"Lifter": kind},
        foes=[foe(H)],
        foe_at={"Foe": (5, 5)},
        dice=["3", "4"],
    )
    H.close(game, state, "Lifter", "Foe")
    assert H.clicks(game, state, "Foe") == 2 + bonus
    assert H.object_at(game, state, kind) == "gone"  # HC-6.9
    assert H.held_by(game, state, "Lifter") is None


def test_HC_6_9_an_object_used_in_a_missed_attack_is_destroyed(H):
    game, state = game_with(
        H,
        lifter(H),
        (5, 4),
        {"table": (8, 8)},
        held={"Lifter": "table"},
        foes=[foe(H)],
        foe_at={"Foe": (5, 5)},
        dice=["1", "2"],
    )
    H.close(game, state, "Lifter", "Foe")
    assert H.clicks(game, state, "Foe") == 0
    assert H.object_at(game, state, "table") == "gone"


def test_HC_6_11_the_object_bonus_stacks_with_a_critical_hit(H):
    game, state = game_with(
        H,
        lifter(H),
        (5, 4),
        {"dumpster": (8, 8)},
        held={"Lifter": "dumpster"},
        foes=[foe(H, clicks=8)],
        foe_at={"Foe": (5, 5)},
        dice=["6", "6"],
    )
    H.close(game, state, "Lifter", "Foe")
    assert H.clicks(game, state, "Foe") == 5


# -- HC-6.4 objects destroyed like walls ---------------------------------------------------


def test_HC_6_4_three_damage_destroys_an_object(H):
    game, state = game_with(H, H.fig("smasher", "Smasher", damage=3), (5, 4), {"forklift": (5, 5)})
    assert "smash (5,5)" in H.options_of(game, state, "Smasher", "smash")
    H.select(game, state, "Smasher")
    game.apply_string(state, "smash (5,5)")
    assert H.object_at(game, state, "forklift") == "gone"
    game, state = game_with(H, H.fig("smasher", "Smasher", damage=2), (5, 4), {"forklift": (5, 5)})
    assert not H.options_of(game, state, "Smasher", "smash")


# -- HC-6.10 dropped on KO or losing Super Strength ---------------------------------------


def test_HC_6_10_a_defeated_holder_leaves_the_object_on_its_square(H):
    game, state = game_with(
        H,
        lifter(H),
        (5, 4),
        {"table": (8, 8)},
        held={"Lifter": "table"},
        clicks={"Lifter": 5},
        foes=[foe(H)],
        foe_at={"Foe": (5, 5)},
        turn=1,
        dice=["3", "4"],
    )
    H.close(game, state, "Foe", "Lifter")
    assert H.sq(game, state, "Lifter") is None
    assert H.object_at(game, state, "table") == (5, 4)


def test_HC_6_10_a_holder_that_loses_super_strength_drops_the_object(H):
    dial = [H.click(powers=SS), H.click(powers=SS), H.click(), H.click()]
    game, state = game_with(
        H,
        H.fig("lifter", "Lifter", dial=dial),
        (5, 4),
        {"table": (8, 8)},
        held={"Lifter": "table"},
        clicks={"Lifter": 1},
        foes=[foe(H)],
        foe_at={"Foe": (5, 5)},
        turn=1,
        dice=["3", "5"],
    )
    H.close(game, state, "Foe", "Lifter")
    assert H.clicks(game, state, "Lifter") == 3
    assert H.held_by(game, state, "Lifter") is None
    assert H.object_at(game, state, "table") == (5, 4)


# -- HC-6.12 throwing ---------------------------------------------------------------------


@pytest.mark.parametrize("kind, reach, damage", [("table", 6, 2), ("dumpster", 4, 3)])
def test_HC_6_12_throwing_light_6_for_2_heavy_4_for_3_even_at_range_0(H, kind, reach, damage):
    hero = lifter(H, range=0, damage=1)
    game, state = game_with(
        H,
        hero,
        (5, 1),
        {kind: (8, 8)},
        held={"Lifter": kind},
        foes=[foe(H)],
        foe_at={"Foe": (5, 1 + reach)},
        dice=["3", "4"],
    )
    assert H.options_of(game, state, "Lifter", "throw") == {f"throw Foe (5,{1 + reach})"}
    assert not H.options_of(game, state, "Lifter", "ranged")
    H.select(game, state, "Lifter")
    game.apply_string(state, f"throw Foe (5,{1 + reach})")
    assert H.clicks(game, state, "Foe") == damage
    assert H.object_at(game, state, kind) == "gone"
    game, state = game_with(
        H,
        hero,
        (5, 1),
        {kind: (8, 8)},
        held={"Lifter": kind},
        foes=[foe(H)],
        foe_at={"Foe": (5, 2 + reach)},
    )
    assert not H.options_of(game, state, "Lifter", "throw")


def test_HC_6_12_no_throw_while_adjacent_to_an_enemy(H):
    game, state = game_with(
        H,
        lifter(H),
        (5, 1),
        {"table": (8, 8)},
        held={"Lifter": "table"},
        foes=[foe(H), foe(H, "Near")],
        foe_at={"Foe": (5, 5), "Near": (4, 1)},
    )
    assert not H.options_of(game, state, "Lifter", "throw")


def test_HC_6_12_thrown_range_is_halved_against_soaring_targets(H):
    bird = H.fig("foe", "Foe", flyer=True)
    game, state = game_with(
        H,
        lifter(H),
        (5, 1),
        {"table": (8, 8)},
        held={"Lifter": "table"},
        foes=[bird],
        foe_at={"Foe": (5, 4, "soar")},
    )
    assert H.options_of(game, state, "Lifter", "throw") == {"throw Foe (5,4)"}
    game, state = game_with(
        H,
        lifter(H),
        (5, 1),
        {"table": (8, 8)},
        held={"Lifter": "table"},
        foes=[bird],
        foe_at={"Foe": (5, 5, "soar")},
    )
    assert not H.options_of(game, state, "Lifter", "throw")


def test_HC_6_12_a_thrown_object_needs_a_line_of_fire_and_gets_the_hindering_bonus(H):
    game, state = game_with(
        H,
        lifter(H),
        (5, 1),
        {"table": (8, 8)},
        held={"Lifter": "table"},
        foes=[foe(H)],
        foe_at={"Foe": (5, 5)},
        marks={(5, 3): "#"},
    )
    assert not H.options_of(game, state, "Lifter", "throw")
    game, state = game_with(
        H,
        lifter(H),
        (5, 1),
        {"table": (8, 8)},
        held={"Lifter": "table"},
        foes=[foe(H)],
        foe_at={"Foe": (5, 5)},
        marks={(5, 3): "%"},
        dice=["3", "4"],
    )
    H.select(game, state, "Lifter")
    game.apply_string(state, "throw Foe (5,5)")
    assert H.clicks(game, state, "Foe") == 0


# -- HC-6.13-6.20 Telekinesis --------------------------------------------------------------


def test_HC_6_13_telekinesis_uses_an_object_on_or_beside_its_square(H):
    game, state = game_with(H, mover(H), (5, 4), {"table": (5, 5), "dumpster": (5, 7)})
    assert H.options_of(game, state, "Mind", "tk object") == {"tk object (5,5)"}
    game, state = game_with(H, mover(H), (5, 5), {"table": (5, 5)})
    assert H.options_of(game, state, "Mind", "tk object") == {"tk object (5,5)"}


def test_HC_6_14_telekinesis_moves_an_object_up_to_10_squares_to_an_empty_clear_square(H):
    game, state = game_with(
        H,
        mover(H),
        (5, 0),
        {"table": (5, 1), "dumpster": (7, 7)},
        marks={(6, 6): "#", (4, 4): "%"},
        foes=[foe(H)],
        foe_at={"Foe": (3, 3)},
    )
    H.select(game, state, "Mind")
    game.apply_string(state, "tk object (5,1)")
    assert H.phase(game, state) == "TELEKINESIS"
    legal = {n for n in H.names(game, state) if n.startswith("tk move")}
    assert "tk move (5,11)" in legal  # 10 squares
    assert "tk move (6,6)" not in legal and "tk move (4,4)" not in legal  # blocking, hindering
    assert "tk move (7,7)" not in legal and "tk move (3,3)" not in legal  # object, figure
    assert "tk move (5,0)" not in legal
    game.apply_string(state, "tk move (5,11)")
    assert H.object_at(game, state, "table") == (5, 11)
    assert H.sq(game, state, "Mind") == (5, 0)
    assert H.tokens(game, state, "Mind") == 1


def test_HC_6_15_a_hurled_object_travels_up_to_10_squares_around_blocking(H):
    walls = [((r, 3), (r, 4)) for r in range(0, 12) if r != 9]
    game, state = game_with(
        H, mover(H), (5, 1), {"table": (5, 2)}, foes=[foe(H)], foe_at={"Foe": (5, 8)}, walls=walls
    )
    H.select(game, state, "Mind")
    game.apply_string(state, "tk object (5,2)")
    # from (5,2) around the wall's gap at row 9: (6,3) (7,3) (8,3) (9,4) ... to (5,8): 9
    assert "tk hurl Foe (5,8)" in H.names(game, state)


def test_HC_6_17_hurling_counts_squares_from_the_object_not_the_figure(H):
    game, state = game_with(
        H, mover(H), (5, 0), {"table": (5, 1)}, foes=[foe(H)], foe_at={"Foe": (5, 11)}
    )
    H.select(game, state, "Mind")
    game.apply_string(state, "tk object (5,1)")
    assert "tk hurl Foe (5,11)" in H.names(game, state)  # 10 from the object, 11 from Mind
    game, state = game_with(
        H, mover(H), (5, 1), {"table": (5, 0)}, foes=[foe(H)], foe_at={"Foe": (5, 11)}
    )
    H.select(game, state, "Mind")
    game.apply_string(state, "tk object (5,0)")
    assert "tk hurl Foe (5,11)" not in H.names(game, state)  # 11 from the object


def test_HC_6_15_against_soaring_targets_the_object_travels_5(H):
    bird = H.fig("foe", "Foe", flyer=True)
    for col, ok in ((6, True), (7, False)):
        game, state = game_with(
            H, mover(H), (5, 0), {"table": (5, 1)}, foes=[bird], foe_at={"Foe": (5, col, "soar")}
        )
        H.select(game, state, "Mind")
        game.apply_string(state, "tk object (5,1)")
        assert (f"tk hurl Foe (5,{col})" in H.names(game, state)) is ok


def test_HC_6_16_a_higher_target_counts_one_more(H):
    levels = {(r, c): 1 for r in range(3, 8) for c in range(9, 12)}
    marks = {(2, 10): "v"}
    for col, ok in ((10, True), (11, False)):
        game, state = game_with(
            H,
            mover(H),
            (5, 0),
            {"table": (5, 1)},
            foes=[foe(H)],
            foe_at={"Foe": (5, col)},
            levels=levels,
            marks=marks,
            edges="NS",
        )
        H.select(game, state, "Mind")
        game.apply_string(state, "tk object (5,1)")
        assert (f"tk hurl Foe (5,{col})" in H.names(game, state)) is ok


@pytest.mark.parametrize("kind, damage", [("table", 2), ("forklift", 3)])
def test_HC_6_18_a_hurled_object_uses_the_figures_attack_and_the_objects_damage(H, kind, damage):
    hero = mover(H, attack=9, damage=1)
    game, state = game_with(
        H, hero, (5, 0), {kind: (5, 1)}, foes=[foe(H)], foe_at={"Foe": (5, 8)}, dice=["3", "4"]
    )
    H.select(game, state, "Mind")
    game.apply_string(state, "tk object (5,1)")
    events = game.apply_string(state, "tk hurl Foe (5,8)")
    assert H.of_kind(events, "attack")
    assert H.clicks(game, state, "Foe") == damage
    assert H.object_at(game, state, kind) == "gone"


def test_HC_6_18_hurled_objects_ignore_hindering_on_the_way(H):
    game, state = game_with(
        H,
        mover(H),
        (5, 0),
        {"table": (5, 1)},
        foes=[foe(H)],
        foe_at={"Foe": (5, 8)},
        marks={(5, 4): "%"},
        dice=["3", "4"],
    )
    H.select(game, state, "Mind")
    game.apply_string(state, "tk object (5,1)")
    game.apply_string(state, "tk hurl Foe (5,8)")
    assert H.clicks(game, state, "Foe") == 2


def test_HC_6_19_telekinesis_hurls_even_next_to_the_target(H):
    game, state = game_with(
        H,
        mover(H),
        (5, 4),
        {"table": (4, 4)},
        foes=[foe(H)],
        foe_at={"Foe": (5, 5)},
        dice=["3", "4"],
    )
    legal = H.options_of(game, state, "Mind", "")
    assert "tk object (4,4)" in legal and "break away" in legal
    H.select(game, state, "Mind")
    game.apply_string(state, "tk object (4,4)")
    game.apply_string(state, "tk hurl Foe (5,5)")
    assert H.clicks(game, state, "Foe") == 2


def test_HC_6_20_a_hurled_object_is_destroyed_even_on_a_miss(H):
    game, state = game_with(
        H,
        mover(H),
        (5, 0),
        {"table": (5, 1)},
        foes=[foe(H)],
        foe_at={"Foe": (5, 8)},
        dice=["1", "3"],
    )
    H.select(game, state, "Mind")
    game.apply_string(state, "tk object (5,1)")
    game.apply_string(state, "tk hurl Foe (5,8)")
    assert H.clicks(game, state, "Foe") == 0
    assert H.object_at(game, state, "table") == "gone"
    assert H.tokens(game, state, "Mind") == 1


def test_HC_6_13_held_objects_are_out_of_telekinesis_reach(H):
    game, state = game_with(
        H,
        mover(H),
        (5, 4),
        {"table": (8, 8)},
        friends=[lifter(H)],
        placements={"Lifter": (5, 5)},
        held={"Lifter": "table"},
    )
    assert not H.options_of(game, state, "Mind", "tk object")


def test_HC_6_10_switching_off_super_strength_drops_the_object(H):
    game, state = game_with(
        H,
        lifter(H),
        (5, 4),
        {"table": (8, 8)},
        held={"Lifter": "table"},
        foes=[foe(H)],
        foe_at={"Foe": (5, 5)},
        dice=["3", "4"],
    )
    H.select(game, state, "Lifter")
    game.apply_string(state, "switch off attack power")
    assert H.held_by(game, state, "Lifter") is None
    assert H.object_at(game, state, "table") == (5, 4)
    game.apply_string(state, "close Foe (5,5)")
    assert H.clicks(game, state, "Foe") == 2  # no object bonus without Super Strength


# -- HC-5.16-5.17 breaking walls and blocking terrain (HC-6.4: objects break the same way) --


def fight(H, a=None, b_at=(9, 9), a_at=(5, 5), **kw):
    """Seat 0's Attacker (damage 2 by default) against a far-away Target."""
    a = a or H.fig("attacker", "Attacker")
    place = {"Attacker": a_at, "Target": b_at, **kw.pop("placements", {})}
    return H.build([[a], [H.fig("target", "Target")]], place, **kw)


def shooter(H, range=6, **kw):
    return H.fig("attacker", "Attacker", range=range, **kw)


def test_HC_5_16_three_damage_breaks_a_wall_in_close_combat(H):
    a = H.fig("attacker", "Attacker", damage=3)
    game, state = fight(H, a, b_at=(9, 9), walls=[((5, 5), (5, 6))])
    legal = H.options_of(game, state, "Attacker", "break")
    assert legal == {"break the east wall of (5,5)"}
    H.select(game, state, "Attacker")
    events = game.apply_string(state, "break the east wall of (5,5)")
    assert "break_wall" in H.kinds(events)
    assert not any(H.d(game, state)["walls_intact"])
    assert H.tokens(game, state, "Attacker") == 1
    assert H.d(game, state)["dice"]["position"] == 0  # it hits automatically: no dice


def test_HC_5_16_a_figure_that_cannot_deal_3_damage_cannot_break_walls(H):
    game, state = fight(H, b_at=(9, 9), walls=[((5, 5), (5, 6))])  # damage 2
    assert not H.options_of(game, state, "Attacker", "break")
    assert not H.options_of(game, state, "Attacker", "smash")


def test_HC_5_16_a_ranged_attack_breaks_a_wall_in_range_and_line_of_fire(H):
    a = shooter(H, range=4, damage=3)
    game, state = fight(H, a, a_at=(5, 2), b_at=(9, 9), walls=[((5, 5), (5, 6))])
    legal = H.options_of(game, state, "Attacker", "break")
    assert "break the east wall of (5,5)" in legal
    H.select(game, state, "Attacker")
    game.apply_string(state, "break the east wall of (5,5)")
    assert not any(H.d(game, state)["walls_intact"])


def test_HC_5_16_blocking_squares_break_under_three_damage(H):
    a = H.fig("attacker", "Attacker", damage=3)
    game, state = fight(H, a, b_at=(9, 9), marks={(5, 6): "#"})
    assert "smash (5,6)" in H.options_of(game, state, "Attacker", "smash")
    H.select(game, state, "Attacker")
    game.apply_string(state, "smash (5,6)")
    cell = 5 * game.width + 6
    assert H.d(game, state)["blocking"][cell] is False
    assert H.d(game, state)["rubble"][cell] is True


def test_HC_5_17_a_broken_wall_leaves_hindering_terrain_on_both_sides(H):
    a = H.fig("attacker", "Attacker", damage=3)
    game, state = fight(H, a, b_at=(9, 9), walls=[((5, 5), (5, 6))])
    H.select(game, state, "Attacker")
    game.apply_string(state, "break the east wall of (5,5)")
    obs = game.observe(state, 0)
    ch = list(game.view.channel_names).index
    assert obs[ch("terrain:hindering"), 5, 5] == 1.0 and obs[ch("terrain:hindering"), 5, 6] == 1.0
    assert obs[ch("wall:e"), 5, 5] == 0.0


def test_HC_5_17_broken_walls_hinder_movement(H):
    walls = [((r, 5), (r, 6)) for r in range(3, 9)]
    game, state = fight(
        H,
        a=H.fig("attacker", "Attacker", speed=4),
        a_at=(5, 4),
        b_at=(9, 9),
        walls=walls,
        broken_walls=[((5, 5), (5, 6))],
    )
    reach = H.dests(game, state, "Attacker")
    assert (5, 5) in reach  # the broken wall's squares are hindering: it stops there
    assert (5, 6) not in reach and (5, 7) not in reach


def test_HC_5_17_a_broken_blocking_square_is_hindering(H):
    a = H.fig("attacker", "Attacker", damage=3, range=6)
    game, state = fight(H, a, b_at=(9, 9), marks={(5, 6): "#"})
    ch = list(game.view.channel_names).index
    assert game.observe(state, 0)[ch("terrain:blocking"), 5, 6] == 1.0
    H.select(game, state, "Attacker")
    game.apply_string(state, "smash (5,6)")
    obs = game.observe(state, 0)
    assert obs[ch("terrain:blocking"), 5, 6] == 0.0 and obs[ch("terrain:hindering"), 5, 6] == 1.0
    assert "%" == game.render_text(state).splitlines()[5].split()[6]


def test_HC_5_16_a_held_object_adds_its_bonus_to_break_a_wall_and_is_used_up(H):
    a = H.fig("attacker", "Attacker", damage=2, powers=(None, "super_strength", None, None))
    game, state = fight(
        H,
        a,
        b_at=(9, 9),
        walls=[((5, 5), (5, 6))],
        objects={"table": (8, 8)},
        held={"Attacker": "table"},
    )
    H.select(game, state, "Attacker")
    game.apply_string(state, "break the east wall of (5,5)")
    assert not any(H.d(game, state)["walls_intact"])
    assert H.object_at(game, state, "table") == "gone"


def test_HC_5_16_a_thrown_heavy_object_breaks_a_wall_out_of_reach_of_the_own_attack(H):
    # range 0, damage 2: only the held heavy object, thrown for 3 (HC-6.12), can break it
    strong = H.fig("attacker", "Attacker", powers=(None, "super_strength", None, None))
    game, state = fight(
        H,
        strong,
        a_at=(5, 2),
        b_at=(9, 9),
        walls=[((5, 5), (5, 6))],
        objects={"dumpster": None},
        held={"Attacker": "dumpster"},
    )
    assert "break the east wall of (5,5)" in H.options_of(game, state, "Attacker", "break")
    H.select(game, state, "Attacker")
    game.apply_string(state, "break the east wall of (5,5)")
    assert not any(H.d(game, state)["walls_intact"])
    assert H.held_by(game, state, "Attacker") is None
    assert H.object_at(game, state, "dumpster") == "gone"  # used up (HC-6.9)


def test_HC_5_16_a_thrown_light_object_deals_2_and_breaks_nothing(H):
    strong = H.fig("attacker", "Attacker", powers=(None, "super_strength", None, None))
    game, state = fight(
        H,
        strong,
        a_at=(5, 2),
        b_at=(9, 9),
        walls=[((5, 5), (5, 6))],
        objects={"table": None},
        held={"Attacker": "table"},
    )
    assert not H.options_of(game, state, "Attacker", "break")
