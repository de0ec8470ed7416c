"""Heroscape movement rules (envs/heroscape/RULES.md HS-6 single-space, HS-7 double-space).

Each test builds a tiny battlefield inline. One-row maps keep paths unambiguous: on a single
row of hexes the only way from (0,a) to (0,b) runs through every space between them.
"""

from __future__ import annotations

import pytest

from envs.core.game import IllegalActionError

HERO = dict(card_id="mv_hero", name="Hero")
FOE = dict(card_id="mv_foe", name="Foe")


def one_row(*tokens: str) -> str:
    """A one-row map; the left half is start zone A and the rest zone B (HS-1.4)."""
    half = (len(tokens) + 1) // 2
    tokens = [t + ("A" if i < half else "B") for i, t in enumerate(tokens)]
    return " ".join(f"{t:<3}" for t in tokens)


def solo(H, tokens, move, at, *, foe_at=None, double=False, friend=None, enemy=None):
    """A hero with Move ``move`` at ``at`` (two spaces when double); optionally a friend
    (another card of player 0) and an enemy blocker; the foe sits at the far end."""
    cols = len(tokens)
    hero = H.card(**HERO, move=move, double_space=double)
    army0 = [hero]
    placements = {"Hero": at}
    if friend is not None:
        army0.append(H.card("mv_friend", "Friend"))
        placements["Friend"] = [friend]
    army1 = [H.card(**FOE)]
    placements["Foe"] = [foe_at or (0, cols - 1)]
    if enemy is not None:
        army1.append(H.card("mv_enemy", "Enemy"))
        placements["Enemy"] = [enemy]
    game, state = H.build(one_row(*tokens), [army0, army1], placements, turn=0)
    game.apply_string(state, "choose Hero")
    return game, state


def row_cells(*cols):
    return {(0, c) for c in cols}


def pairs(*pairs_of_cols):
    return {frozenset({(0, a), (0, b)}) for a, b in pairs_of_cols}


# -- HS-6.1 Move limit and staying -------------------------------------------------------------


def test_HS_6_1_move_up_to_move_value_in_spaces(H):
    game, state = solo(H, ["1n"] * 8, move=3, at=[(0, 0)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1, 2, 3)


def test_HS_6_1_moving_zero_spaces_is_legal(H):
    game, state = solo(H, ["1n"] * 8, move=3, at=[(0, 2)])
    assert (0, 2) in H.destinations(game, state, "Hero")
    events = H.move(game, state, "Hero", (0, 2))
    assert [e.kind for e in events].count("move") == 1
    assert H.where(game, state, "Hero") == [(0, 2)]


def test_HS_6_1_move_beyond_limit_is_illegal(H):
    game, state = solo(H, ["1n"] * 8, move=3, at=[(0, 0)])
    game.apply_string(state, "move with Hero (0,0)")
    with pytest.raises(IllegalActionError):
        game.apply_string(state, "move Hero to (0,4)")


def test_HS_6_1_two_rows_take_the_shortest_path(H):
    # Two rows: (0,0) -> (0,3) is 3 steps; the second row offers no shortcut.
    game, state = H.build(
        "1nA 1n  1n  1n  1n  1nB\n  1n  1n  1n  1n  1n  1n",
        [[H.card(**HERO, move=2)], [H.card(**FOE)]],
        {"Hero": [(0, 0)], "Foe": [(0, 5)]},
    )
    game.apply_string(state, "choose Hero")
    assert H.destinations(game, state, "Hero") == {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)}


# -- HS-6.6 / HS-6.7 levels ---------------------------------------------------------------------


def test_HS_6_6_climbing_costs_one_per_level_plus_the_space(H):
    # (0,1) level 1 -> (0,2) level 3 costs 1 + 2 = 3.
    tokens = ["1n", "1n", "3n", "1n", "1n", "1n"]
    game, state = solo(H, tokens, move=3, at=[(0, 1)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1, 2)
    game, state = solo(H, tokens, move=2, at=[(0, 1)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1)


def test_HS_6_6_no_limit_on_levels_climbed_in_one_step(H):
    game, state = solo(H, ["1n", "7n", "1n"], move=7, at=[(0, 0)])
    assert (0, 1) in H.destinations(game, state, "Hero")
    game, state = solo(H, ["1n", "7n", "1n"], move=6, at=[(0, 0)])
    assert (0, 1) not in H.destinations(game, state, "Hero")


def test_HS_6_7_descending_is_free(H):
    # From level 6 down to level 1: each step still costs exactly 1.
    game, state = solo(H, ["6n", "1n", "1n", "1n", "1n", "1n"], move=3, at=[(0, 0)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1, 2, 3)


def test_HS_6_6_climb_then_descend_counts_only_the_climb(H):
    # 1 -> 3 (cost 3) -> 1 (cost 1): (0,2) costs 4 from (0,0).
    tokens = ["1n", "3n", "1n", "1n", "1n"]
    game, state = solo(H, tokens, move=4, at=[(0, 0)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1, 2)


# -- HS-6.8 water ------------------------------------------------------------------------------


def test_HS_6_8_water_stops_movement(H):
    game, state = solo(H, ["1n", "1n", "1w", "1n", "1n", "1n"], move=5, at=[(0, 0)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1, 2)


def test_HS_6_8_water_to_water_also_stops(H):
    game, state = solo(H, ["1w", "1w", "1w", "1n", "1n"], move=5, at=[(0, 0)])
    # Starting in water the figure may leave, but entering the next water stops it.
    assert H.destinations(game, state, "Hero") == row_cells(0, 1)


def test_HS_6_8_figure_starting_in_water_may_leave(H):
    game, state = solo(H, ["1n", "1w", "1n", "1n", "1n", "1n"], move=3, at=[(0, 1)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1, 2, 3, 4)


def test_HS_6_8_occupied_water_cannot_be_entered_even_by_a_friend(H):
    game, state = solo(H, ["1n", "1n", "1w", "1n", "1n", "1n"], move=5, at=[(0, 0)], friend=(0, 2))
    # Entering the friend's water space would stop the figure on an occupied space.
    assert H.destinations(game, state, "Hero") == row_cells(0, 1)


def test_HS_6_8_water_stop_applies_on_two_rows(H):
    # Row 0: water wall at (0,2); row 1 has a dry way round, so (0,3) is reachable.
    game, state = H.build(
        "1nA 1n  1w  1n  1nB\n  1n  1n  1n  1n  1n",
        [[H.card(**HERO, move=4)], [H.card(**FOE)]],
        {"Hero": [(0, 1)], "Foe": [(0, 4)]},
    )
    game.apply_string(state, "choose Hero")
    dests = H.destinations(game, state, "Hero")
    assert (0, 2) in dests and (0, 3) in dests
    # The straight path through the water would stop at (0,2); (0,3) comes via row 1.
    game, state = H.build(
        "1nA 1n  1w  1n  1nB\n  1n  1n  1w  1w  1w",
        [[H.card(**HERO, move=4)], [H.card(**FOE)]],
        {"Hero": [(0, 1)], "Foe": [(0, 4)]},
    )
    game.apply_string(state, "choose Hero")
    assert (0, 3) not in H.destinations(game, state, "Hero")


# -- HS-6.9 / HS-6.10 shadow and leaving low terrain -------------------------------------------


def test_HS_6_9_shadow_does_not_stop_movement(H):
    game, state = solo(H, ["1n", "1s", "1s", "1n", "1n", "1n"], move=4, at=[(0, 0)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1, 2, 3, 4)


def test_HS_6_9_shadow_costs_like_normal_terrain(H):
    game, state = solo(H, ["1s", "3s", "1s", "1s"], move=3, at=[(0, 0)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1)


@pytest.mark.parametrize("low", ["1w", "1s"])
def test_HS_6_10_climbing_out_of_low_water_or_shadow_costs_levels(H, low):
    tokens = [low, "3n", "3n", "1n"]
    game, state = solo(H, tokens, move=2, at=[(0, 0)])
    assert H.destinations(game, state, "Hero") == row_cells(0)
    game, state = solo(H, tokens, move=4, at=[(0, 0)])
    assert H.destinations(game, state, "Hero") == row_cells(0, 1, 2)


# -- HS-6.3 .. HS-6.5 other figures -------------------------------------------------------------


def test_HS_6_3_pass_through_friendly_figures(H):
    game, state = solo(H, ["1n"] * 6, move=3, at=[(0, 0)], friend=(0, 1))
    assert H.destinations(game, state, "Hero") == row_cells(0, 2, 3)


def test_HS_6_4_enemy_figures_cannot_be_passed(H):
    game, state = solo(H, ["1n"] * 6, move=3, at=[(0, 0)], enemy=(0, 2))
    assert H.destinations(game, state, "Hero") == row_cells(0, 1)


def test_HS_6_4_enemy_blocks_on_two_rows_forcing_a_detour(H):
    # Enemy on (0,2): (0,3) is 3 steps in line but 4 round it, (0,1)-(1,1)-(1,2)-(0,3).
    game, state = H.build(
        "1nA 1n  1n  1n  1n  1nB\n  1n  1n  1n  1n  1n  1nB",
        [[H.card(**HERO, move=4)], [H.card(**FOE), H.card("mv_enemy", "Enemy")]],
        {"Hero": [(0, 0)], "Foe": [(0, 5)], "Enemy": [(0, 2)]},
    )
    game.apply_string(state, "choose Hero")
    dests = H.destinations(game, state, "Hero")
    assert (0, 2) not in dests
    assert (0, 3) in dests
    assert (0, 4) not in dests  # 4 steps in line, 5 round the enemy


def test_HS_6_5_never_end_on_an_occupied_space(H):
    game, state = solo(H, ["1n"] * 6, move=5, at=[(0, 0)], friend=(0, 1), enemy=(0, 3))
    dests = H.destinations(game, state, "Hero")
    assert (0, 1) not in dests and (0, 3) not in dests
    game.apply_string(state, "move with Hero (0,0)")
    with pytest.raises(IllegalActionError):
        game.apply_string(state, "move Hero to (0,1)")


# -- HS-6.2 order of movement ------------------------------------------------------------------


def _squad_game(H, move=1):
    squad = H.card("mv_squad", "Guard", figures=3, move=move)
    return H.build(
        one_row(*["1n"] * 8),
        [[squad], [H.card(**FOE)]],
        {"Guard #1": [(0, 0)], "Guard #2": [(0, 1)], "Guard #3": [(0, 4)], "Foe": [(0, 7)]},
    )


def test_HS_6_2_each_figure_moves_at_most_once(H):
    game, state = _squad_game(H)
    game.apply_string(state, "choose Guard")
    H.move(game, state, "Guard #3", (0, 5))
    legal = H.names(game, state)
    assert "move with Guard #3 (0,5)" not in legal
    assert {"move with Guard #1 (0,0)", "move with Guard #2 (0,1)", "end movement"} <= set(legal)


def test_HS_6_2_positions_update_after_each_figure(H):
    game, state = _squad_game(H)
    game.apply_string(state, "choose Guard")
    assert (0, 1) not in H.destinations(game, state, "Guard #1")
    H.move(game, state, "Guard #2", (0, 2))
    assert (0, 1) in H.destinations(game, state, "Guard #1")


def test_HS_6_2_one_figure_at_a_time_then_the_next(H):
    game, state = _squad_game(H)
    game.apply_string(state, "choose Guard")
    game.apply_string(state, "move with Guard #1 (0,0)")
    # While Guard #1 is choosing its destination no other figure can be picked.
    assert not any(n.startswith("move with") for n in H.names(game, state))


def test_HS_6_2_after_every_figure_moved_movement_ends(H):
    game, state = _squad_game(H)
    game.apply_string(state, "choose Guard")
    for label, dest in (("Guard #1", (0, 0)), ("Guard #2", (0, 2)), ("Guard #3", (0, 5))):
        H.move(game, state, label, dest)
    assert not any(n.startswith("move") for n in H.names(game, state))
    assert H.phase(game, state) in ("ATTACK_SELECT", "CHOOSE_CARD")


# -- HS-7 double-space figures ------------------------------------------------------------------


def test_HS_7_1_leader_moves_and_follower_takes_its_space(H):
    game, state = solo(H, ["1n"] * 7, move=2, at=[(0, 0), (0, 1)], double=True)
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (1, 2), (2, 3))


def test_HS_7_1_either_half_may_lead(H):
    game, state = solo(H, ["1n"] * 7, move=1, at=[(0, 2), (0, 3)], double=True)
    assert H.destinations(game, state, "Hero") == pairs((2, 3), (1, 2), (3, 4))


def test_HS_7_1_move_and_climbing_count_only_the_leader(H):
    # Leader climbs to level 2 once (cost 2) and steps on (cost 1); the follower's climb
    # onto (0,2) is free.
    tokens = ["1n", "1n", "2n", "2n", "2n"]
    game, state = solo(H, tokens, move=3, at=[(0, 0), (0, 1)], double=True)
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (2, 3))
    game, state = solo(H, tokens, move=2, at=[(0, 0), (0, 1)], double=True)
    assert H.destinations(game, state, "Hero") == pairs((0, 1))


def test_HS_7_1_both_halves_pass_through_friends_but_never_end_on_them(H):
    game, state = solo(H, ["1n"] * 8, move=4, at=[(0, 0), (0, 1)], double=True, friend=(0, 3))
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (1, 2), (4, 5))


def test_HS_7_1_double_space_cannot_pass_enemies(H):
    game, state = solo(H, ["1n"] * 8, move=4, at=[(0, 0), (0, 1)], double=True, enemy=(0, 3))
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (1, 2))


def test_HS_7_2_must_end_on_two_spaces_of_one_level(H):
    tokens = ["1n", "1n", "1n", "2n", "2n", "1n", "1n"]
    game, state = solo(H, tokens, move=5, at=[(0, 0), (0, 1)], double=True)
    # {2,3} and {4,5} straddle two levels; {3,4} is level 2 at cost 1+2+1 = 4.
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (1, 2), (3, 4))


def test_HS_7_3_halves_may_be_on_different_terrain_of_one_level(H):
    tokens = ["1n", "1n", "1s", "1n", "1n", "1n"]
    game, state = solo(H, tokens, move=3, at=[(0, 0), (0, 1)], double=True)
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (1, 2), (2, 3), (3, 4))


def test_HS_7_4_single_water_between_normal_spaces_does_not_stop(H):
    tokens = ["1n", "1n", "1w", "1n", "1n", "1n", "1n"]
    game, state = solo(H, tokens, move=4, at=[(0, 0), (0, 1)], double=True)
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (1, 2), (2, 3), (3, 4), (4, 5))


def test_HS_7_5_two_water_spaces_in_a_row_stop(H):
    tokens = ["1n", "1n", "1w", "1w", "1n", "1n", "1n"]
    game, state = solo(H, tokens, move=5, at=[(0, 0), (0, 1)], double=True)
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (1, 2), (2, 3))


def test_HS_7_5_stop_on_waters_of_different_levels_is_not_taken(H):
    tokens = ["1n", "1n", "1w", "2w", "2n", "2n", "2n"]
    game, state = solo(H, tokens, move=6, at=[(0, 0), (0, 1)], double=True)
    # The step onto (0,3) would stop on water levels 1 and 2: illegal, so nothing beyond.
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (1, 2))


def test_HS_7_5_starting_with_both_halves_in_water_may_step_out(H):
    tokens = ["1w", "1w", "1n", "1n", "1n"]
    game, state = solo(H, tokens, move=2, at=[(0, 0), (0, 1)], double=True)
    assert H.destinations(game, state, "Hero") == pairs((0, 1), (1, 2), (2, 3))


def test_HS_7_2_tail_choice_is_offered_when_two_pairs_share_a_space(H):
    # Two rows: leading to (0,2) the figure can end as {(0,1),(0,2)} or {(0,2),(1,1)}...
    game, state = H.build(
        "1nA 1nA 1n  1n  1nB\n  1n  1n  1n  1n  1n",
        [[H.card(**HERO, move=2, double_space=True)], [H.card(**FOE)]],
        {"Hero": [(0, 0), (0, 1)], "Foe": [(0, 4)]},
    )
    game.apply_string(state, "choose Hero")
    dests = H.destinations(game, state, "Hero")
    for pair in dests:
        a, b = sorted(pair)
        assert game.board.distance[game.board.cell(*a), game.board.cell(*b)] == 1
    with_02 = [p for p in dests if (0, 2) in p]
    assert len(with_02) >= 2
    game.apply_string(state, "move with Hero (0,0)")
    game.apply_string(state, "move Hero to (0,2)")
    assert H.phase(game, state) == "MOVE_TAIL"
    assert len([n for n in H.names(game, state) if n.startswith("other half")]) == len(with_02)
