"""HeroClix setup played as decisions (setup="play", envs/heroclix/RULES.md HC-2.1-2.11).

Positions come from the shipped scenarios with scripted dice; everything is read through
action names, ``to_dict`` and events.
"""

from __future__ import annotations

import pytest

from envs.core.dice import ScriptedDice
from envs.core.game import OptionError
from envs.heroclix.rules import HeroclixGame


def new(scenario: str = "duel", dice=()):
    game = HeroclixGame(scenario, setup="play")
    state = game.new_state(0)
    state.dice = ScriptedDice(list(dice))
    return game, state


def names(game, state) -> list[str]:
    return [game.action_to_string(state, a) for a in game.legal_actions(state)]


def drafts(game, state) -> list[str]:
    return sorted(n.removeprefix("draft ") for n in names(game, state) if n.startswith("draft "))


def test_HC_2_3_draft_offers_only_what_fits_the_build_total():
    game, state = new()
    assert "done" not in names(game, state)  # a force needs a figure
    assert "Overlord" in drafts(game, state)  # 90 <= 100
    game.apply_string(state, "draft Overlord")
    # nothing costs 10 points or less: the draft moved on to seat 1 by itself
    assert game.to_dict(state)["seat"] == 1 and game.to_dict(state)["phase"] == "DRAFT"
    game.apply_string(state, "draft Quarry")  # 70
    assert drafts(game, state) == ["Street Thug"]  # 15 of the 30 left


def test_HC_2_4_a_unique_figure_is_drafted_once():
    game, state = new("mall")  # 200 points
    game.apply_string(state, "draft Mindwarden")
    assert "Mindwarden" not in drafts(game, state)
    game.apply_string(state, "draft Street Thug")
    assert "Street Thug" in drafts(game, state)  # copies are allowed


def test_HC_3_11_archenemies_are_not_drafted_together():
    game, state = new("mall")
    game.apply_string(state, "draft Razorback")
    assert "Skylash" not in drafts(game, state)  # crimson archenemies
    assert "Bulwark Captain" in drafts(game, state)
    game.apply_string(state, "done")
    assert "Skylash" in drafts(game, state)  # on the other force they may meet


def draft_both(game, state, first=("Razorback",), second=("Skylash",)):
    for name in first:
        game.apply_string(state, f"draft {name}")
    if game.to_dict(state)["seat"] == 0:
        game.apply_string(state, "done")
    for name in second:
        game.apply_string(state, f"draft {name}")
    if game.to_dict(state)["phase"] == "DRAFT":
        game.apply_string(state, "done")


def test_HC_2_6_highest_roll_chooses_the_edge_and_the_other_takes_the_opposite():
    game, state = new(dice=["1", "2", "6", "6"])  # seat 0 rolls 3, seat 1 rolls 12
    draft_both(game, state)
    d = game.to_dict(state)
    assert d["phase"] == "EDGE" and d["seat"] == 1 and d["setup_order"] == [1, 0]
    assert sorted(names(game, state)) == [
        "take the E edge",
        "take the N edge",
        "take the S edge",
        "take the W edge",
    ]
    game.apply_string(state, "take the E edge")
    d = game.to_dict(state)
    assert d["edges"] == ["W", "E"] and d["phase"] == "PLACE_OBJECT"


def test_HC_2_6_tied_rolls_are_rolled_again():
    game, state = new(dice=["3", "3", "4", "2", "1", "1", "6", "1"])  # 6 v 6, then 2 v 7
    draft_both(game, state)
    assert game.to_dict(state)["setup_order"] == [1, 0]


def test_HC_2_7_objects_go_face_down_on_clear_squares_outside_starting_areas():
    game, state = new(dice=["6", "6", "1", "1"])  # seat 0 wins the edge roll
    draft_both(game, state)
    game.apply_string(state, "take the S edge")
    offered = [n for n in names(game, state)]
    assert all(n.startswith("place object") for n in offered)
    assert "place object (15,6)" not in offered  # a starting square (S)
    assert "place object (3,4)" not in offered  # hindering terrain
    assert "place object (5,2)" in offered
    game.apply_string(state, "place object (5,2)")
    d = game.to_dict(state)
    assert d["seat"] == 1  # HC-2.7 default: the winner first, then clockwise
    obs = game.observe(state, 0)
    face_down = game.view.channel_names.index("objects:face_down")
    light = game.view.channel_names.index("objects:light")
    heavy = game.view.channel_names.index("objects:heavy")
    assert obs[face_down, 5, 2] == 1.0 and obs[light].sum() == obs[heavy].sum() == 0.0
    assert "place object (5,2)" not in names(game, state)


def place_all_objects(game, state):
    for square in ["(5,2)", "(10,12)", "(5,13)", "(10,3)", "(3,8)", "(12,8)"]:
        game.apply_string(state, f"place object {square}")


def test_HC_2_10_figures_are_placed_in_the_starting_area_then_the_first_roll():
    game, state = new(dice=["6", "6", "1", "1", "5", "6", "2", "3"])
    draft_both(game, state)
    game.apply_string(state, "take the S edge")
    place_all_objects(game, state)
    d = game.to_dict(state)
    assert d["phase"] == "PLACE_FIGURE" and d["seat"] == 0
    offered = names(game, state)
    assert (
        "place Razorback 1 (p0) at (15,6)" in offered
        and "place Razorback 1 (p0) at (10,6)" not in offered
    )
    assert not any(n.startswith("place soar") for n in offered)  # not a flyer
    game.apply_string(state, "place Razorback 1 (p0) at (15,6)")
    offered = names(game, state)
    assert "place soar Skylash (p1) at (0,6)" in offered  # HC-2.9: a flyer may start soaring
    game.apply_string(state, "place soar Skylash (p1) at (0,6)")
    d = game.to_dict(state)
    assert d["phase"] == "ACTION" and d["first_player"] == 0  # 11 against 5 (HC-2.11)
    light = game.view.channel_names.index("objects:light")
    heavy = game.view.channel_names.index("objects:heavy")
    obs = game.observe(state, 0)
    assert obs[light].sum() + obs[heavy].sum() == 6.0  # face up now


def test_HC_2_9_a_flyer_indoors_starts_hovering():
    game, state = new("mall", dice=["6", "6", "1", "1"])
    draft_both(game, state, first=("Street Thug",), second=("Skylash",))
    game.apply_string(state, "take the S edge")
    while game.to_dict(state)["phase"] == "PLACE_OBJECT":
        game.apply_string(state, names(game, state)[0])
    game.apply_string(state, names(game, state)[0])  # the thug
    offered = names(game, state)
    assert any(n.startswith("place Skylash 1 (p1)") for n in offered)
    assert not any(n.startswith("place soar") for n in offered)  # the mall is indoors


def test_fixed_setup_refuses_a_scenario_that_leaves_forces_open(tmp_path):
    path = tmp_path / "open.yaml"
    path.write_text(
        "id: open\nname: Open\nmap: small\nbuild_total: 100\n"
        "players: [{}, {}]\nobjects: [{object: table}]\n"
    )
    with pytest.raises(OptionError, match="setup='play'"):
        HeroclixGame(str(path))
    game = HeroclixGame(str(path), setup="play")
    assert game.to_dict(game.new_state(0))["phase"] == "DRAFT"
