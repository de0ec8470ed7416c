"""Heroscape game flow (envs/heroscape/RULES.md HS-1 setup, HS-2 cards, HS-4 initiative and turn
order, HS-5 the turn, HS-13 the end of the battle)."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.dice import ScriptedDice
from envs.core.game import GameError, IllegalActionError
from envs.heroscape.data.scenario_file import list_scenarios
from envs.heroscape.rules import HeroscapeGame

# Far apart on a wide field, nobody can attack: turns end right after movement (HS-8.2).
WIDE = """\
1nA 1nA 1nA 1n  1n  1n  1n  1n  1nB 1nB 1nB
  1nA 1nA 1nA 1n  1n  1n  1n  1n  1nB 1nB 1nB
1nC 1nC 1nC 1n  1n  1n  1n  1n  1nD 1nD 1nD
"""


def three_players(H, placements=None, **kwargs):
    armies = [[H.card(f"fl_p{p}", f"P{p}")] for p in range(3)]
    if placements is None:
        placements = {"P0": [(0, 0)], "P1": [(0, 10)], "P2": [(2, 0)]}
    return H.build(WIDE, armies, placements, zones=["A", "B", "C"], **kwargs)


def pass_turn(H, game, state):
    """Choose the first card and end movement; with no target in reach the turn ends."""
    seat = game.to_dict(state)["seat"]
    game.apply_string(state, [n for n in H.names(game, state) if n.startswith("choose")][0])
    game.apply_string(state, "end movement")
    if H.phase(game, state) == "ATTACK_SELECT":
        game.apply_string(state, "end turn")
    return seat


def skulls(n: int) -> list[str]:
    return ["skull"] * n + ["blank"] * (6 - n)


# -- HS-1.4 placement ---------------------------------------------------------------------------

MIXED_ZONE = """\
1nA 2nA 1nA 2nA 2nA 1n  1n  1nB 1nB
  3nA 1nA 2nA 3nA 1n  1n  1n  1nB 1nB
"""


@pytest.mark.parametrize("seed", range(25))
def test_HS_1_4_figures_start_in_their_zones_one_per_space(H, seed):
    armies = [
        [H.card("fl_big", "Big", double_space=True), H.card("fl_sq", "Sq", figures=3)],
        [H.card("fl_foe", "Foe", figures=2)],
    ]
    game, _ = H.build(MIXED_ZONE, armies, None)
    state = game.new_state(seed)
    data = game.to_dict(state)
    zone_a = set(game.battlefield.zones["A"])
    zone_b = set(game.battlefield.zones["B"])
    used = []
    for i, label in enumerate(game.figure_label):
        spaces = [c for c in (data["cell"][i], data["cell2"][i]) if c >= 0]
        flat = {r * game.battlefield.cols + c for r, c in (divmod(s, game.width) for s in spaces)}
        assert flat <= (zone_a if label in ("Big", "Sq #1", "Sq #2", "Sq #3") else zone_b)
        if label == "Big":
            a, b = spaces
            assert game.board.distance[a, b] == 1
            assert game.board.level[a] == game.board.level[b]
        else:
            assert len(spaces) == 1
        used += spaces
    assert len(used) == len(set(used)) == 2 + 3 + 2
    occupant = data["occupant"]
    assert sum(o >= 0 for o in occupant) == 7


@pytest.mark.parametrize("scenario_id", list_scenarios())
def test_HS_1_4_shipped_scenarios_place_every_figure_in_its_zone(scenario_id):
    game = HeroscapeGame(scenario_id)
    for seed in range(3):
        state = game.new_state(seed)
        data = game.to_dict(state)
        cells = [c for pair in zip(data["cell"], data["cell2"]) for c in pair if c >= 0]
        assert len(cells) == len(set(cells))
        assert all(c >= 0 for c in data["cell"])  # every figure is on the battlefield


def test_HS_1_4_position_setup_rejects_double_space_on_two_levels(H):
    armies = [[H.card("fl_big", "Big", double_space=True)], [H.card("fl_foe", "Foe")]]
    with pytest.raises(GameError):
        H.build(MIXED_ZONE, armies, {"Big": [(0, 0), (0, 1)], "Foe": [(0, 8)]})
    with pytest.raises(GameError):  # not adjacent
        H.build(MIXED_ZONE, armies, {"Big": [(0, 0), (0, 2)], "Foe": [(0, 8)]})
    game, state = H.build(MIXED_ZONE, armies, {"Big": [(0, 3), (0, 4)], "Foe": [(0, 8)]})
    assert H.where(game, state, "Big") == [(0, 3), (0, 4)]


def test_HS_1_4_position_setup_rejects_two_figures_on_one_space(H):
    armies = [[H.card("fl_a", "Ann")], [H.card("fl_foe", "Foe")]]
    with pytest.raises(ValueError):
        H.build(MIXED_ZONE, armies, {"Ann": [(0, 7)], "Foe": [(0, 7)]})


TIGHT_ZONE = """\
1nA 1nA 2nA 1n  1n  1nB 1nB
  1n  1n  1n  1n  1n  1nB 1nB
"""


@pytest.mark.parametrize("seed", range(12))
def test_HS_1_4_double_space_figure_always_finds_its_pair(H, seed):
    # Zone A has exactly 3 spaces and one same-level pair; the single-space card comes first
    # in the army, yet the double-space figure must still get the pair (HS-1.4, HS-7.2).
    armies = [
        [H.card("fl_sq", "Scout"), H.card("fl_big", "Big", double_space=True)],
        [H.card("fl_foe", "Foe")],
    ]
    game, _ = H.build(TIGHT_ZONE, armies, None)
    state = game.new_state(seed)
    assert H.where(game, state, "Big") == [(0, 0), (0, 1)]
    assert H.where(game, state, "Scout") == [(0, 2)]


@pytest.mark.parametrize("seed", range(12))
def test_HS_1_4_two_double_space_figures_share_a_tight_zone(H, seed):
    # Four level-1 spaces in a row, (0,0)-(0,3): only {0,1} + {2,3} fits two pairs.
    tokens = "1nA 1nA 1nA 1nA 1n  1nB 1nB"
    armies = [
        [
            H.card("fl_big", "Big", double_space=True),
            H.card("fl_big2", "Bigger", double_space=True),
        ],
        [H.card("fl_foe", "Foe")],
    ]
    game, _ = H.build(tokens, armies, None)
    state = game.new_state(seed)
    assert {tuple(H.where(game, state, "Big")), tuple(H.where(game, state, "Bigger"))} == {
        ((0, 0), (0, 1)),
        ((0, 2), (0, 3)),
    }


# -- HS-2 army cards ----------------------------------------------------------------------------


def test_HS_2_2_hero_has_one_figure_squad_several_sharing_the_card(H):
    armies = [
        [H.card("fl_hero", "Knight"), H.card("fl_sq", "Pike", figures=3, move=2)],
        [H.card("fl_foe", "Foe")],
    ]
    game, state = H.build(
        WIDE,
        armies,
        {
            "Knight": [(0, 0)],
            "Pike #1": [(0, 1)],
            "Pike #2": [(0, 2)],
            "Pike #3": [(1, 0)],
            "Foe": [(0, 10)],
        },
    )
    assert [label for label in game.figure_label if label.startswith("Knight")] == ["Knight"]
    assert [label for label in game.figure_label if label.startswith("Pike")] == [
        "Pike #1",
        "Pike #2",
        "Pike #3",
    ]
    game.apply_string(state, "choose Pike")
    assert {n for n in H.names(game, state) if n.startswith("move with")} == {
        "move with Pike #1 (0,1)",
        "move with Pike #2 (0,2)",
        "move with Pike #3 (1,0)",
    }
    # HS-2.3: every squad figure uses the card's Move (2).
    assert (0, 4) in H.destinations(game, state, "Pike #2")
    assert (0, 5) not in H.destinations(game, state, "Pike #2")


# -- HS-4 initiative ----------------------------------------------------------------------------


def test_HS_4_2_most_skulls_takes_the_first_turn(H):
    game2, _ = H.build(
        WIDE, [[H.card("fl_p0", "P0")], [H.card("fl_p1", "P1")]], {"P0": [(0, 0)], "P1": [(0, 10)]}
    )
    state = game2.new_state(dice=ScriptedDice(skulls(2) + skulls(4)))
    data = game2.to_dict(state)
    assert data["first_player"] == 1 and data["seat"] == 1
    assert data["initiative"] == [[2, 4]]
    assert data["dice"]["position"] == 12  # HS-4.1: six dice each


def test_HS_4_1_only_skulls_count_for_initiative(H):
    game, _ = H.build(
        WIDE, [[H.card("fl_p0", "P0")], [H.card("fl_p1", "P1")]], {"P0": [(0, 0)], "P1": [(0, 10)]}
    )
    state = game.new_state(
        dice=ScriptedDice(["skull", "shield", "shield", "shield", "shield", "blank"] + skulls(0))
    )
    assert game.to_dict(state)["first_player"] == 0
    assert game.to_dict(state)["initiative"] == [[1, 0]]


def test_HS_4_3_tie_re_rolls(H):
    game, _ = H.build(
        WIDE, [[H.card("fl_p0", "P0")], [H.card("fl_p1", "P1")]], {"P0": [(0, 0)], "P1": [(0, 10)]}
    )
    state = game.new_state(dice=ScriptedDice(skulls(3) + skulls(3) + skulls(5) + skulls(1)))
    data = game.to_dict(state)
    assert data["initiative"] == [[3, 3], [5, 1]]
    assert data["first_player"] == 0


def test_HS_4_3_with_three_players_only_the_tied_re_roll(H):
    game, _ = three_players(H)
    script = skulls(4) + skulls(1) + skulls(4) + skulls(2) + skulls(3)
    state = game.new_state(dice=ScriptedDice(script))
    data = game.to_dict(state)
    # Player 1 is out after the first roll; only players 0 and 2 roll again (12 dice).
    assert data["initiative"][0] == [4, 1, 4]
    assert data["initiative"][1][0] == 2 and data["initiative"][1][2] == 3
    assert data["initiative"][1][1] < 0
    assert data["dice"]["position"] == len(script)
    assert data["first_player"] == 2 and data["seat"] == 2


def test_HS_4_3_repeat_until_one_player_has_most(H):
    game, _ = three_players(H)
    script = (
        skulls(2) * 3 + skulls(1) * 3 + skulls(0) + skulls(6) + skulls(6) + skulls(4) + skulls(3)
    )
    state = game.new_state(dice=ScriptedDice(script))
    data = game.to_dict(state)
    assert len(data["initiative"]) == 4
    assert data["first_player"] == 1


# -- HS-4.4 turn order --------------------------------------------------------------------------


def test_HS_4_4_two_players_alternate(H):
    game, state = H.build(
        WIDE,
        [[H.card("fl_p0", "P0")], [H.card("fl_p1", "P1")]],
        {"P0": [(0, 0)], "P1": [(0, 10)]},
        turn=1,
    )
    seats = [pass_turn(H, game, state) for _ in range(5)]
    assert seats == [1, 0, 1, 0, 1]
    assert game.to_dict(state)["round"] == 2


def test_HS_4_4_three_players_pass_clockwise_from_the_first(H):
    game, state = three_players(H, turn=1)
    seats = [pass_turn(H, game, state) for _ in range(7)]
    assert seats == [1, 2, 0, 1, 2, 0, 1]
    assert game.to_dict(state)["round"] == 2


def test_HS_4_4_players_without_figures_are_skipped(H):
    game, state = three_players(H, placements={"P0": [(0, 0)], "P2": [(2, 0)]}, turn=0)
    seats = [pass_turn(H, game, state) for _ in range(4)]
    assert seats == [0, 2, 0, 2]
    assert game.to_dict(state)["round"] == 2


def test_HS_4_4_player_eliminated_mid_game_is_skipped(H):
    armies = [
        [H.card("fl_p0", "P0", attack=1)],
        [H.card("fl_p1", "P1", defense=1)],
        [H.card("fl_p2", "P2")],
    ]
    game, state = H.build(
        WIDE,
        armies,
        {"P0": [(0, 4)], "P1": [(0, 5)], "P2": [(2, 0)]},
        zones=["A", "B", "C"],
        dice=["skull", "blank"],
        turn=0,
    )
    game.apply_string(state, "choose P0")
    game.apply_string(state, "end movement")
    H.attack(game, state, "P0", "P1")
    data = game.to_dict(state)
    assert data["phase"] == "CHOOSE_CARD" and data["winners"] == []
    assert data["seat"] == 2  # player 1 has no figures left
    assert pass_turn(H, game, state) == 2
    assert game.to_dict(state)["seat"] == 0


def test_HS_4_4_round_counted_when_the_first_player_is_eliminated(H):
    armies = [
        [H.card("fl_p0", "P0", defense=1)],
        [H.card("fl_p1", "P1", attack=1)],
        [H.card("fl_p2", "P2")],
    ]
    game, state = H.build(
        WIDE,
        armies,
        {"P0": [(0, 4)], "P1": [(0, 5)], "P2": [(2, 0)]},
        zones=["A", "B", "C"],
        dice=["skull", "blank"],
        turn=0,
    )
    assert pass_turn(H, game, state) == 0
    game.apply_string(state, "choose P1")
    game.apply_string(state, "end movement")
    H.attack(game, state, "P1", "P0")  # the first player is gone
    assert H.where(game, state, "P0") == []
    assert game.to_dict(state)["round"] == 0
    assert pass_turn(H, game, state) == 2
    data = game.to_dict(state)
    assert data["seat"] == 1 and data["round"] == 1


def test_HS_4_4_position_turn_must_go_to_a_player_with_figures(H):
    with pytest.raises(GameError):
        three_players(H, placements={"P1": [(0, 10)], "P2": [(2, 0)]}, turn=0)


@pytest.mark.parametrize("seed", range(4))
def test_HS_4_4_position_without_turn_starts_with_a_player_with_figures(H, seed):
    game, _ = H.build(
        WIDE, [[H.card("fl_p0", "P0")], [H.card("fl_p1", "P1")]], {"P0": [(0, 0)], "P1": [(0, 10)]}
    )
    game, state = HeroscapeGame.from_scenario(game.scenario, {"P1": [(0, 10)]}, seed=seed)
    assert game.to_dict(state)["seat"] == 1
    assert H.names(game, state) == ["choose P1"]


# -- HS-5 the turn ------------------------------------------------------------------------------


def _two_cards(H, dice=(), **placements):
    armies = [
        [H.card("fl_hero", "Knight"), H.card("fl_sq", "Pike", figures=2)],
        [H.card("fl_foe", "Foe")],
    ]
    place = {"Knight": [(0, 0)], "Pike #1": [(0, 1)], "Pike #2": [(0, 2)], "Foe": [(0, 10)]}
    place.update(placements)
    return H.build(WIDE, armies, {k: v for k, v in place.items() if v}, dice=dice, turn=0)


def test_HS_5_2_any_card_with_figures_may_be_chosen(H):
    game, state = _two_cards(H)
    assert H.names(game, state) == ["choose Knight", "choose Pike"]


def test_HS_5_2_card_without_figures_cannot_be_chosen(H):
    game, state = _two_cards(H, **{"Pike #1": None, "Pike #2": None})
    assert H.names(game, state) == ["choose Knight"]
    with pytest.raises(IllegalActionError):
        game.apply_string(state, "choose Pike")


def test_HS_5_2_the_same_card_may_be_chosen_every_turn(H):
    game, state = _two_cards(H)
    for _ in range(3):
        assert game.to_dict(state)["seat"] == 0
        game.apply_string(state, "choose Knight")
        game.apply_string(state, "end movement")
        pass_turn(H, game, state)
    assert "choose Knight" in H.names(game, state)


def test_HS_5_1_only_the_chosen_cards_figures_move(H):
    game, state = _two_cards(H)
    game.apply_string(state, "choose Pike")
    movers = {n for n in H.names(game, state) if n.startswith("move with")}
    assert movers == {"move with Pike #1 (0,1)", "move with Pike #2 (0,2)"}


def test_HS_5_1_only_the_chosen_cards_figures_attack(H):
    # The Knight stands next to the enemy, but the Pike card was chosen.
    game, state = _two_cards(H, Knight=[(0, 9)])
    game.apply_string(state, "choose Pike")
    game.apply_string(state, "end movement")
    assert H.phase(game, state) == "CHOOSE_CARD" and game.to_dict(state)["seat"] == 1


def test_HS_5_1_moving_is_optional_and_all_movement_comes_before_attacks(H):
    game, state = _two_cards(H, **{"Pike #1": [(0, 8)]})
    game.apply_string(state, "choose Pike")
    assert "end movement" in H.names(game, state)
    H.move(game, state, "Pike #1", (0, 9))
    game.apply_string(state, "end movement")
    legal = H.names(game, state)
    assert not any(n.startswith("move") for n in legal)
    assert "attack with Pike #1 (0,9)" in legal


def test_HS_5_1_no_movement_after_an_attack(H):
    game, state = _two_cards(H, dice=["blank"] * 4, **{"Pike #1": [(0, 9)], "Pike #2": [(1, 9)]})
    game.apply_string(state, "choose Pike")
    game.apply_string(state, "end movement")
    H.attack(game, state, "Pike #1", "Foe")
    legal = H.names(game, state)
    assert not any(n.startswith("move") for n in legal)
    assert "attack with Pike #2 (1,9)" in legal


# -- HS-13 end of the battle --------------------------------------------------------------------


def test_HS_13_1_destroying_every_enemy_figure_wins(H):
    game, state = H.build(
        WIDE,
        [[H.card("fl_p0", "P0", attack=1)], [H.card("fl_p1", "P1", defense=1)]],
        {"P0": [(0, 4)], "P1": [(0, 5)]},
        dice=["skull", "blank"],
        turn=0,
    )
    game.apply_string(state, "choose P0")
    game.apply_string(state, "end movement")
    events = H.attack(game, state, "P0", "P1")
    assert any(e.kind == "win" for e in events)
    data = game.to_dict(state)
    assert data["phase"] == "GAME_OVER" and data["winners"] == [0]
    assert game.is_terminal(state)
    assert list(game.returns(state)) == [1.0, -1.0]
    assert game.legal_actions(state) == []


def test_HS_13_1_game_goes_on_while_two_players_have_figures(H):
    armies = [
        [H.card("fl_p0", "P0", attack=1)],
        [H.card("fl_p1", "P1", defense=1)],
        [H.card("fl_p2", "P2")],
    ]
    game, state = H.build(
        WIDE,
        armies,
        {"P0": [(0, 4)], "P1": [(0, 5)], "P2": [(2, 0)]},
        zones=["A", "B", "C"],
        dice=["skull", "blank"],
        turn=0,
    )
    game.apply_string(state, "choose P0")
    game.apply_string(state, "end movement")
    H.attack(game, state, "P0", "P1")
    assert not game.is_terminal(state)
    assert list(game.returns(state)) == [0.0, 0.0, 0.0]


def test_HS_13_1_last_player_standing_wins_among_three(H):
    armies = [
        [H.card("fl_p0", "P0", attack=1)],
        [H.card("fl_p1", "P1", defense=1)],
        [H.card("fl_p2", "P2")],
    ]
    game, state = H.build(
        WIDE,
        armies,
        {"P0": [(0, 4)], "P1": [(0, 5)]},
        zones=["A", "B", "C"],
        dice=["skull", "blank"],
        turn=0,
    )
    game.apply_string(state, "choose P0")
    game.apply_string(state, "end movement")
    H.attack(game, state, "P0", "P1")
    assert game.to_dict(state)["winners"] == [0]
    assert list(game.returns(state)) == [1.0, -0.5, -0.5]


def test_HS_13_1_round_cap_is_a_draw(H):
    game, state = H.build(
        WIDE,
        [[H.card("fl_p0", "P0")], [H.card("fl_p1", "P1")]],
        {"P0": [(0, 0)], "P1": [(0, 10)]},
        turn=0,
        round_cap=2,
    )
    for _ in range(3):
        pass_turn(H, game, state)
    assert not game.is_terminal(state)
    pass_turn(H, game, state)
    data = game.to_dict(state)
    assert data["phase"] == "GAME_OVER" and data["winners"] == []
    assert list(game.returns(state)) == [0.0, 0.0]


HOLD_MAP = """\
1nA 1nA 1n  1nX 1nX 1n  1nB 1nB
  1nA 1nA 1n  1nX 1n  1n  1nB 1nB
"""
HOLD = "{type: hold, zone: X, rounds: 2}"


def _hold_game(H, placements, turn=0):
    armies = [[H.card("fl_p0", "P0", move=1)], [H.card("fl_p1", "P1", move=1)]]
    return H.build(HOLD_MAP, armies, placements, victory=HOLD, turn=turn)


def test_HS_13_1_holding_the_objective_for_n_rounds_wins(H):
    game, state = _hold_game(H, {"P0": [(0, 3)], "P1": [(0, 7)]})
    pass_turn(H, game, state)
    pass_turn(H, game, state)
    data = game.to_dict(state)
    assert data["hold_rounds"] == [1, 0] and not game.is_terminal(state)
    pass_turn(H, game, state)
    pass_turn(H, game, state)
    data = game.to_dict(state)
    assert data["phase"] == "GAME_OVER" and data["winners"] == [0]
    assert list(game.returns(state)) == [1.0, -1.0]


def test_HS_13_1_contested_objective_is_held_by_nobody(H):
    game, state = _hold_game(H, {"P0": [(0, 3)], "P1": [(1, 3)]})
    # Both stand on X hexes (adjacent, but both decline to attack): nobody holds it.
    for _ in range(6):
        pass_turn(H, game, state)
    data = game.to_dict(state)
    assert data["hold_rounds"] == [0, 0] and not game.is_terminal(state)


def test_HS_13_1_leaving_the_objective_resets_the_count(H):
    game, state = _hold_game(H, {"P0": [(0, 3)], "P1": [(0, 7)]})
    pass_turn(H, game, state)
    pass_turn(H, game, state)
    assert game.to_dict(state)["hold_rounds"] == [1, 0]
    game.apply_string(state, "choose P0")
    H.move(game, state, "P0", (0, 2))
    pass_turn(H, game, state)
    assert game.to_dict(state)["hold_rounds"] == [0, 0]


def test_HS_13_1_elimination_still_wins_in_a_hold_game(H):
    armies = [[H.card("fl_p0", "P0", attack=1)], [H.card("fl_p1", "P1", defense=1)]]
    game, state = H.build(
        HOLD_MAP,
        armies,
        {"P0": [(0, 0)], "P1": [(0, 1)]},
        victory=HOLD,
        dice=["skull", "blank"],
        turn=0,
    )
    game.apply_string(state, "choose P0")
    game.apply_string(state, "end movement")
    H.attack(game, state, "P0", "P1")
    assert game.to_dict(state)["winners"] == [0]


def test_HS_13_1_state_round_trips_through_to_dict(H):
    game, state = _hold_game(H, {"P0": [(0, 3)], "P1": [(0, 7)]})
    pass_turn(H, game, state)
    again = game.from_dict(game.to_dict(state))
    assert game.to_dict(again) == game.to_dict(state)
    assert np.array_equal(game.legal_mask(again), game.legal_mask(state))
