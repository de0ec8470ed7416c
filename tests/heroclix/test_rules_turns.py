"""HeroClix turn rules: the first player (HC-2.11), actions (HC-3.2-3.6), tokens and pushing
(HC-3.14-3.17), optional powers (HC-3.8), the end of the game and victory points (HC-7),
observations (HC-8.1) and the ``reward`` option."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.dice import Dice
from envs.heroclix.dice import D6


def end_game(game, state, limit: int = 8) -> None:
    """End turns until the game is over (at most ``limit`` turns)."""
    for _ in range(limit):
        if game.to_dict(state)["phase"] == "GAME_OVER":
            return
        game.apply_string(state, "end turn")
    assert game.to_dict(state)["phase"] == "GAME_OVER"


def duel(H, a=None, b=None, placements=None, **kw):
    a = a or H.fig("alpha", "Alpha")
    b = b or H.fig("beta", "Beta")
    place = {"Alpha": (5, 2), "Beta": (5, 9), **(placements or {})}
    return H.build([[a], [b]], place, **kw)


# -- HC-2.11 the first player -------------------------------------------------------------


def _expected_first(seed: int, players: int) -> int:
    dice = Dice(seed)
    contenders = list(range(players))
    while len(contenders) > 1:
        totals = [dice.roll(D6) + 1 + dice.roll(D6) + 1 for _ in contenders]
        contenders = [s for s, t in zip(contenders, totals) if t == max(totals)]
    return contenders[0]


def test_HC_2_11_highest_2d6_roll_takes_the_first_turn_ties_reroll(H):
    seen = set()
    for seed in range(40):
        game, state = duel(H, turn=None, dice=None, seed=seed)
        data = H.d(game, state)
        assert data["first_player"] == _expected_first(seed, 2)
        assert data["seat"] == data["first_player"]
        assert data["phase"] == "ACTION"
        seen.add(data["first_player"])
    assert seen == {0, 1}
    forces = [[H.fig(f"p{k}", f"P{k}")] for k in range(4)]
    seen = set()
    for seed in range(40):
        game, state = H.build(forces, {}, turn=None, dice=None, seed=seed)
        assert H.d(game, state)["first_player"] == _expected_first(seed, 4)
        seen.add(H.seat(game, state))
    assert seen == {0, 1, 2, 3}


def test_HC_2_11_play_passes_clockwise_from_the_first_player(H):
    forces = [[H.fig(f"p{k}", f"P{k}")] for k in range(3)]
    game, state = H.build(forces, {"P0": (2, 5), "P1": (9, 5), "P2": (5, 10)}, turn=1)
    order = []
    for _ in range(4):
        order.append(H.seat(game, state))
        game.apply_string(state, "end turn")
    assert order == [1, 2, 0, 1]


# -- HC-3.2 actions per turn --------------------------------------------------------------


@pytest.mark.parametrize("build_total, actions", [(100, 1), (200, 2), (300, 3)])
def test_HC_3_2_one_action_per_100_points_of_the_build_total(H, build_total, actions):
    forces = [[H.fig(f"a{k}", f"A{k}") for k in range(3)], [H.fig("beta", "Beta")]]
    game, state = H.build(
        forces, {"A0": (5, 0), "A1": (5, 1), "A2": (6, 0), "Beta": (5, 10)}, build_total=build_total
    )
    assert H.d(game, state)["actions_left"] == actions
    for k in range(actions):
        assert H.seat(game, state) == 0
        H.move(game, state, f"A{k}", (4, k))
    assert H.seat(game, state) == 1
    assert H.d(game, state)["actions_left"] == actions


def test_HC_3_2_actions_per_turn_never_change_after_a_figure_is_defeated(H):
    forces = [
        [H.fig("a0", "A0"), H.fig("a1", "A1"), H.fig("a2", "A2")],
        [H.fig("beta", "Beta", damage=1)],
    ]
    game, state = H.build(
        forces,
        {"A0": (5, 5), "A1": (9, 0), "A2": (9, 1), "Beta": (5, 6)},
        build_total=200,
        clicks={"A0": 5},
        turn=1,
        dice=["3", "4"],
    )
    H.close(game, state, "Beta", "A0")
    assert H.sq(game, state, "A0") is None
    assert H.seat(game, state) == 0
    assert H.d(game, state)["actions_left"] == 2


# -- HC-3.4 one action per figure ---------------------------------------------------------


def test_HC_3_4_a_figure_that_acted_may_not_act_again_this_turn(H):
    forces = [[H.fig("a0", "A0"), H.fig("a1", "A1")], [H.fig("beta", "Beta")]]
    game, state = H.build(forces, {"A0": (5, 0), "A1": (7, 0), "Beta": (5, 10)}, build_total=200)
    H.move(game, state, "A0", (5, 1))
    legal = H.names(game, state)
    assert "select A0 (5,1)" not in legal
    assert "select A1 (7,0)" in legal


def test_HC_3_4_actions_beyond_the_number_of_figures_are_lost(H):
    game, state = duel(H, build_total=300)
    H.move(game, state, "Alpha", (5, 3))
    assert H.seat(game, state) == 1  # two actions left but no figure that may act


def test_HC_3_4_unused_actions_do_not_carry_over(H):
    game, state = duel(H, build_total=200)
    game.apply_string(state, "pass")
    game.apply_string(state, "end turn")
    game.apply_string(state, "end turn")
    assert H.seat(game, state) == 0
    assert H.d(game, state)["actions_left"] == 2


# -- HC-3.5 the four actions; pass and end_turn --------------------------------------------


def test_HC_3_5_pass_uses_one_action_and_affects_no_figure(H):
    game, state = duel(H, build_total=200)
    events = game.apply_string(state, "pass")
    data = H.d(game, state)
    assert data["actions_left"] == 1 and data["seat"] == 0
    assert data["tokens"] == [0, 0] and data["acted"] == [False, False]
    assert "pass" in H.kinds(events)
    game.apply_string(state, "pass")
    assert H.seat(game, state) == 1


def test_HC_3_5_end_turn_passes_every_action_left(H):
    game, state = duel(H, build_total=300)
    game.apply_string(state, "end turn")
    assert H.seat(game, state) == 1
    assert H.d(game, state)["actions_left"] == 3
    assert H.d(game, state)["tokens"] == [0, 0]


def test_HC_3_5_a_selected_figure_moves_or_attacks(H):
    game, state = duel(H, a=H.fig("alpha", "Alpha", range=8), placements={"Beta": (5, 6)})
    H.select(game, state, "Alpha")
    legal = H.names(game, state)
    assert "move Alpha to (5,3)" in legal and "ranged Beta (5,6)" in legal
    assert H.phase(game, state) == "FIGURE"


# -- HC-3.14-3.17 action tokens and pushing ------------------------------------------------


def test_HC_3_14_acting_gives_an_action_token(H):
    forces = [[H.fig("a0", "A0"), H.fig("a1", "A1")], [H.fig("beta", "Beta")]]
    game, state = H.build(forces, {"A0": (5, 0), "A1": (7, 0), "Beta": (5, 10)}, build_total=200)
    H.move(game, state, "A0", (5, 1))
    assert H.tokens(game, state, "A0") == 1 and H.tokens(game, state, "A1") == 0
    assert H.d(game, state)["acted"][H.idx(game, "A0")] is True
    game.apply_string(state, "pass")  # a pass earns no token
    assert H.tokens(game, state, "A1") == 0
    assert H.tokens(game, state, "A0") == 1  # it acted this turn: the token stays


def test_HC_3_15_tokens_leave_figures_that_did_nothing_this_turn(H):
    forces = [[H.fig("a0", "A0"), H.fig("a1", "A1")], [H.fig("beta", "Beta")]]
    game, state = H.build(forces, {"A0": (5, 0), "A1": (7, 0), "Beta": (5, 10)}, tokens={"A0": 1})
    H.move(game, state, "A1", (7, 1))
    assert H.tokens(game, state, "A0") == 0
    assert H.tokens(game, state, "A1") == 1


def test_HC_3_16_pushing_costs_one_click_and_a_second_token(H):
    game, state = duel(H, tokens={"Alpha": 1})
    events = H.move(game, state, "Alpha", (5, 3))
    assert H.sq(game, state, "Alpha") == (5, 3)
    assert H.clicks(game, state, "Alpha") == 1
    assert H.tokens(game, state, "Alpha") == 2
    assert "push" in H.kinds(events)


def test_HC_3_16_pushing_damage_comes_after_the_action(H):
    # the attack is rolled and resolved with the unpushed dial; the click comes afterwards
    a = H.fig("alpha", "Alpha", dial=[H.click(attack=9), H.click(attack=0), H.click(attack=0)])
    game, state = duel(H, a=a, placements={"Beta": (5, 3)}, tokens={"Alpha": 1}, dice=["3", "4"])
    events = H.close(game, state, "Alpha", "Beta")
    assert H.clicks(game, state, "Beta") == 2  # 7 + 9 >= 16: hit with the first click's attack
    assert H.clicks(game, state, "Alpha") == 1
    kinds = H.kinds(events)
    assert kinds.index("attack") < kinds.index("push")


def test_HC_3_16_pushing_damage_is_not_reduced_by_toughness(H):
    a = H.fig("alpha", "Alpha", powers=(None, None, "toughness", None))
    game, state = duel(H, a=a, tokens={"Alpha": 1})
    H.move(game, state, "Alpha", (5, 3))
    assert H.clicks(game, state, "Alpha") == 1


def test_HC_3_16_a_failed_breakaway_counts_for_pushing(H):
    game, state = duel(H, placements={"Beta": (5, 3)}, tokens={"Alpha": 1}, dice=["2"])
    H.select(game, state, "Alpha")
    game.apply_string(state, "break away")
    assert H.sq(game, state, "Alpha") == (5, 2)
    assert H.clicks(game, state, "Alpha") == 1
    assert H.tokens(game, state, "Alpha") == 2


def test_HC_3_16_pushing_into_ko_removes_the_figure(H):
    game, state = duel(H, tokens={"Alpha": 1}, clicks={"Alpha": 5})
    events = H.move(game, state, "Alpha", (5, 3))
    assert H.sq(game, state, "Alpha") is None
    assert "ko" in H.kinds(events)


def test_HC_3_17_a_figure_with_two_tokens_may_not_act(H):
    forces = [[H.fig("a0", "A0"), H.fig("a1", "A1")], [H.fig("beta", "Beta")]]
    game, state = H.build(forces, {"A0": (5, 0), "A1": (7, 0), "Beta": (5, 10)}, tokens={"A0": 2})
    legal = H.names(game, state)
    assert "select A0 (5,0)" not in legal and "select A1 (7,0)" in legal


def test_HC_3_17_both_tokens_leave_after_a_turn_of_doing_nothing(H):
    game, state = duel(H, tokens={"Alpha": 2})
    assert not [n for n in H.names(game, state) if n.startswith("select")]
    game.apply_string(state, "end turn")
    assert H.tokens(game, state, "Alpha") == 0
    game.apply_string(state, "end turn")
    assert "select Alpha (5,2)" in H.names(game, state)


def test_HC_3_17_no_figure_acts_in_three_turns_in_a_row(H):
    game, state = duel(H)
    for _k, dest in enumerate([(5, 3), (5, 4)]):
        H.move(game, state, "Alpha", dest)
        game.apply_string(state, "end turn")
    assert H.tokens(game, state, "Alpha") == 2
    assert "select Alpha (5,4)" not in H.names(game, state)


# -- HC-3.8 optional powers switched off ---------------------------------------------------


def test_HC_3_8_an_optional_power_may_be_switched_off_until_the_next_turn(H):
    a = H.fig("alpha", "Alpha", powers=("leap_climb", None, "toughness", None))
    game, state = duel(H, a=a)
    legal = H.options_of(game, state, "Alpha", "switch off")
    assert legal == {"switch off speed power"}  # toughness is not optional
    H.select(game, state, "Alpha")
    game.apply_string(state, "switch off speed power")
    assert H.d(game, state)["power_off"][H.idx(game, "Alpha")] == [True, False, False, False]
    assert H.phase(game, state) == "FIGURE"
    game.apply_string(state, "move Alpha to (5,3)")
    assert H.d(game, state)["power_off"][H.idx(game, "Alpha")][0] is True
    game.apply_string(state, "end turn")  # Beta's turn ends: Alpha's controller's turn starts
    assert H.d(game, state)["power_off"][H.idx(game, "Alpha")] == [False] * 4


# -- HC-7.1 the end of the game ------------------------------------------------------------


def test_HC_7_1_the_game_ends_when_a_player_has_no_figures_left(H):
    game, state = duel(H, placements={"Beta": (5, 3)}, clicks={"Beta": 5}, dice=["3", "4"])
    events = H.close(game, state, "Alpha", "Beta")
    assert H.phase(game, state) == "GAME_OVER"
    assert H.d(game, state)["winners"] == [0]
    assert "game_over" in H.kinds(events)
    assert list(game.returns(state)) == [1.0, -1.0]
    assert game.legal_actions(state) == []


def test_HC_7_1_the_game_ends_after_max_rounds(H):
    game, state = duel(H, max_rounds=2, turn=None, dice=None)
    for _ in range(3):
        game.apply_string(state, "end turn")
        assert H.phase(game, state) != "GAME_OVER"
    game.apply_string(state, "end turn")
    assert H.phase(game, state) == "GAME_OVER"
    assert H.d(game, state)["winners"] == []  # 20 standing points each, equal forces: a draw


def test_HC_7_1_max_rounds_option_overrides_the_scenario(H):
    game, state = duel(H, max_rounds=30, options={"max_rounds": 1}, turn=None, dice=None)
    game.apply_string(state, "end turn")
    game.apply_string(state, "end turn")
    assert H.phase(game, state) == "GAME_OVER"


def test_HC_7_1_eliminated_players_are_skipped_and_the_last_one_standing_ends_it(H):
    forces = [[H.fig("p0", "P0")], [H.fig("p1", "P1")], [H.fig("p2", "P2")]]
    game, state = H.build(
        forces,
        {"P0": (5, 5), "P1": (5, 6), "P2": (9, 9)},
        clicks={"P1": 5},
        turn=0,
        dice=["3", "4"],
    )
    H.close(game, state, "P0", "P1")
    assert H.sq(game, state, "P1") is None and H.phase(game, state) == "ACTION"
    assert H.seat(game, state) == 2  # seat 1 has no figures: skipped
    game.apply_string(state, "end turn")
    assert H.seat(game, state) == 0


# -- HC-7.4-7.9 victory points -------------------------------------------------------------


def test_HC_7_5_a_defeated_figure_gives_its_points_to_whoever_defeated_it(H):
    forces = [
        [H.fig("alpha", "Alpha", points=30)],
        [H.fig("beta", "Beta", points=25), H.fig("gamma", "Gamma", points=40)],
    ]
    game, state = H.build(
        forces,
        {"Alpha": (5, 2), "Beta": (5, 3), "Gamma": (9, 9)},
        clicks={"Beta": 5},
        dice=["3", "4"],
    )
    H.close(game, state, "Alpha", "Beta")
    assert H.d(game, state)["vp"] == [25.0, 0.0]


def test_HC_7_5_a_ko_by_knockback_damage_counts_for_the_attacker(H):
    a = H.fig("attacker", "Attacker", damage=1, points=30)
    b = H.fig("target", "Target", points=25)
    game, state = H.build(
        [[a], [b, H.fig("spare", "Spare")]],
        {"Attacker": (5, 5), "Target": (5, 6), "Spare": (11, 11)},
        walls=[((5, 6), (5, 7))],
        clicks={"Target": 4},
        dice=["4", "4"],
    )
    events = H.close(game, state, "Attacker", "Target")
    assert H.sq(game, state, "Target") is None
    assert "knockback" in H.of_kind(events, "ko")[0].text
    assert H.d(game, state)["vp"] == [25.0, 0.0]


def test_HC_7_6_defeating_an_archenemy_scores_double(H):
    a = H.fig("alpha", "Alpha", points=30, archenemy="crimson")
    b = H.fig("beta", "Beta", points=25, archenemy="crimson")
    c = H.fig("gamma", "Gamma", points=40)
    game, state = H.build(
        [[a], [b, c]],
        {"Alpha": (5, 2), "Beta": (5, 3), "Gamma": (9, 9)},
        clicks={"Beta": 5},
        dice=["3", "4"],
    )
    H.close(game, state, "Alpha", "Beta")
    assert H.d(game, state)["vp"] == [50.0, 0.0]


def test_HC_7_7_survivors_give_their_points_to_their_owner(H):
    forces = [
        [H.fig("alpha", "Alpha", points=30)],
        [H.fig("beta", "Beta", points=25), H.fig("gamma", "Gamma", points=40)],
    ]
    game, state = H.build(
        forces,
        {"Alpha": (5, 2), "Beta": (5, 3), "Gamma": (9, 9)},
        clicks={"Beta": 5},
        max_rounds=1,
        dice=["3", "4"],
        options={"reward": "vp"},
    )
    H.close(game, state, "Alpha", "Beta")
    end_game(game, state)
    # scores: seat 0 25 (KO) + 30 (Alpha) = 55, seat 1 40 (Gamma): seat 0 wins
    assert H.d(game, state)["winners"] == [0]
    assert np.allclose(game.returns(state), [(55 - 47.5) / 100, (40 - 47.5) / 100])


def test_HC_7_8_self_inflicted_ko_goes_to_the_last_player_who_damaged_it(H):
    forces = [
        [H.fig("p0", "P0", points=20)],
        [H.fig("p1", "P1", points=30)],
        [H.fig("p2", "P2", points=20, range=6)],
    ]
    game, state = H.build(
        forces,
        {"P0": (2, 2), "P1": (5, 5), "P2": (5, 9)},
        clicks={"P1": 3},
        tokens={"P1": 1},
        turn=2,
        dice=["3", "4"],
    )
    H.ranged(game, state, "P2", "P1")
    assert H.clicks(game, state, "P1") == 5  # its last click
    game.apply_string(state, "end turn")  # seat 0
    events = H.move(game, state, "P1", (5, 4))  # pushed: KO by its own pushing
    assert H.sq(game, state, "P1") is None
    assert "ko" in H.kinds(events)
    assert H.d(game, state)["vp"] == [0.0, 0.0, 30.0]


def test_HC_7_8_self_inflicted_ko_with_no_damager_is_split_among_the_opponents(H):
    forces = [
        [H.fig("p0", "P0", points=20)],
        [H.fig("p1", "P1", points=30)],
        [H.fig("p2", "P2", points=20)],
    ]
    game, state = H.build(
        forces,
        {"P0": (2, 2), "P1": (5, 5), "P2": (9, 9)},
        clicks={"P1": 5},
        tokens={"P1": 1},
        turn=1,
    )
    H.move(game, state, "P1", (5, 4))
    assert H.sq(game, state, "P1") is None
    assert H.d(game, state)["vp"] == [15.0, 0.0, 15.0]


def test_HC_7_8_critical_miss_ko_counts_as_self_inflicted(H):
    forces = [
        [H.fig("p0", "P0", points=20)],
        [H.fig("p1", "P1", points=30)],
        [H.fig("p2", "P2", points=20)],
    ]
    game, state = H.build(
        forces,
        {"P0": (2, 2), "P1": (5, 5), "P2": (5, 6)},
        clicks={"P1": 5},
        turn=1,
        dice=["1", "1"],
    )
    H.close(game, state, "P1", "P2")
    assert H.sq(game, state, "P1") is None
    assert H.clicks(game, state, "P2") == 0
    assert H.d(game, state)["vp"] == [15.0, 0.0, 15.0]


def test_HC_7_9_tied_points_and_tied_forces_are_a_draw(H):
    forces = [
        [H.fig("alpha", "Alpha", points=30), H.fig("delta", "Delta", points=10)],
        [H.fig("beta", "Beta", points=40)],
    ]
    game, state = H.build(forces, {"Alpha": (5, 2), "Delta": (9, 9), "Beta": (5, 8)}, max_rounds=1)
    end_game(game, state)
    assert H.d(game, state)["winners"] == []  # 40 v 40 VP and 40 v 40 spent
    assert list(game.returns(state)) == [0.0, 0.0]


def test_HC_7_9_tied_victory_points_go_to_the_player_who_spent_fewer_points(H):
    forces = [
        [H.fig("alpha", "Alpha", points=40)],
        [H.fig("beta", "Beta", points=50), H.fig("gamma", "Gamma", points=10)],
    ]
    game, state = H.build(
        forces,
        {"Alpha": (5, 2), "Beta": (5, 8), "Gamma": (9, 9)},
        max_rounds=1,
        clicks={"Gamma": 5},
        tokens={"Gamma": 1},
        turn=1,
    )
    H.move(game, state, "Gamma", (9, 10))  # pushed into KO: its 10 points go to seat 0
    assert H.d(game, state)["vp"] == [10.0, 0.0]
    end_game(game, state)
    # 50 v 50 VP: seat 0 spent 40, seat 1 spent 60
    assert H.d(game, state)["winners"] == [0]
    assert list(game.returns(state)) == [1.0, -1.0]


def test_HC_7_4_most_victory_points_win(H):
    forces = [[H.fig("alpha", "Alpha", points=20)], [H.fig("beta", "Beta", points=60)]]
    game, state = H.build(forces, {"Alpha": (5, 2), "Beta": (5, 8)}, max_rounds=1)
    end_game(game, state)
    assert H.d(game, state)["winners"] == [1]
    assert list(game.returns(state)) == [-1.0, 1.0]


# -- HC-8.1 what agents observe ------------------------------------------------------------


def test_HC_8_1_full_dial_visibility_adds_the_next_clicks(H):
    dial = [H.click(6, 9, 16, 2), H.click(5, 8, 15, 1), H.click(4, 7, 14, 1)]
    a = H.fig("alpha", "Alpha", dial=dial)
    game, state = duel(H, a=a)
    seen, _ = duel(H, a=a, options={"full_dial_visibility": True})
    names_plain = game.view.channel_names
    names_full = seen.view.channel_names
    assert not any(n.startswith("dial") for n in names_plain)
    assert "dial:1/speed" in names_full and "dial:8/damage" in names_full
    assert seen.observe(state, 0).shape[0] == game.observe(state, 0).shape[0] + 32
    obs = seen.observe(state, 1)
    r, c = H.sq(seen, state, "Alpha")
    ch = list(names_full).index
    assert obs[ch("dial:1/speed"), r, c] == pytest.approx(5 / 20)
    assert obs[ch("dial:2/defense"), r, c] == pytest.approx(14 / 20)
    assert obs[ch("dial:3/speed"), r, c] == 0.0  # past KO


def test_HC_8_1_observations_show_only_the_current_click_by_default(H):
    dial = [H.click(6, 9, 16, 2), H.click(5, 8, 15, 1)]
    game, state = duel(H, a=H.fig("alpha", "Alpha", dial=dial), clicks={"Alpha": 1})
    obs = game.observe(state, 0)
    ch = list(game.view.channel_names).index
    r, c = H.sq(game, state, "Alpha")
    assert obs[ch("stats:speed"), r, c] == pytest.approx(5 / 20)
    assert obs[ch("stats:defense"), r, c] == pytest.approx(15 / 20)


# -- the reward option ---------------------------------------------------------------------


def test_reward_vp_is_final_victory_points_minus_the_mean_over_the_build_total(H):
    forces = [
        [H.fig("alpha", "Alpha", points=30)],
        [H.fig("beta", "Beta", points=20), H.fig("gamma", "Gamma", points=50)],
    ]
    game, state = H.build(
        forces,
        {"Alpha": (5, 2), "Beta": (5, 3), "Gamma": (9, 9)},
        clicks={"Beta": 5},
        max_rounds=1,
        dice=["3", "4"],
        options={"reward": "vp"},
    )
    assert list(game.returns(state)) == [0.0, 0.0]  # not over yet
    H.close(game, state, "Alpha", "Beta")
    end_game(game, state)
    # seat 0: 20 + 30 = 50; seat 1: 50; equal VP, seat 0 spent less (30 v 70)
    assert np.allclose(game.returns(state), [0.0, 0.0])
    assert H.d(game, state)["winners"] == [0]


def test_reward_win_default_is_zero_sum_plus_minus_one(H):
    forces = [
        [H.fig("alpha", "Alpha", points=30)],
        [H.fig("beta", "Beta", points=20), H.fig("gamma", "Gamma", points=50)],
    ]
    game, state = H.build(
        forces,
        {"Alpha": (5, 2), "Beta": (5, 3), "Gamma": (9, 9)},
        clicks={"Beta": 5},
        max_rounds=1,
        dice=["3", "4"],
    )
    H.close(game, state, "Alpha", "Beta")
    end_game(game, state)
    assert list(game.returns(state)) == [1.0, -1.0]


def test_HC_3_10_figures_with_the_same_name_are_never_archenemies(H):
    a = H.fig("alpha", "Twin", points=30, archenemy="crimson")
    b = H.fig("beta", "Twin", points=25, archenemy="crimson")
    c = H.fig("gamma", "Gamma", points=40)
    game, state = H.build(
        [[a], [b, c]],
        {"Twin 1": (5, 2), "Twin 2": (5, 3), "Gamma": (9, 9)},
        clicks={"Twin 2": 5},
        dice=["3", "4"],
    )
    H.close(game, state, "Twin 1", "Twin 2")
    assert H.sq(game, state, "Twin 2") is None
    assert H.d(game, state)["vp"] == [25.0, 0.0]
