"""Heroscape combat rules (envs/heroscape/RULES.md HS-3 dice, HS-8 .. HS-12 attacks).

Attacks are made by name, every die is scripted, and results are read from the attack event
(its dice), ``to_dict`` (cells, dice position) and the legal action names.
"""

from __future__ import annotations

import pytest

from envs.core.game import IllegalActionError
from envs.heroscape.dice import HEROSCAPE_COMBAT_DIE
from envs.heroscape.rules import HeroscapeGame


def row_map(*tokens: str) -> str:
    """One row; the left half is zone A, the rest zone B."""
    half = (len(tokens) + 1) // 2
    return " ".join(f"{t + ('A' if i < half else 'B'):<4}" for i, t in enumerate(tokens))


def duel(
    H,
    tokens,
    a_at,
    d_at,
    *,
    a_stats=None,
    d_stats=None,
    dice=(),
    a_double=False,
    d_double=False,
    extra0=(),
    extra1=(),
    placements=None,
):
    """Player 0's "Striker" against player 1's "Target" on a one-row map; the striker's card
    is chosen and its movement ended, so the game waits in ATTACK_SELECT (or has moved on)."""
    a = H.card("cb_striker", "Striker", double_space=a_double, **(a_stats or {}))
    d = H.card("cb_target", "Target", double_space=d_double, **(d_stats or {}))
    place = {"Striker": a_at, "Target": d_at, **(placements or {})}
    game, state = H.build(row_map(*tokens), [[a, *extra0], [d, *extra1]], place, dice=dice)
    game.apply_string(state, "choose Striker")
    game.apply_string(state, "end movement")
    return game, state


def dice_used(game, state) -> int:
    return game.to_dict(state)["dice"]["position"]


def attack_event(events):
    found = [e for e in events if e.kind == "attack"]
    assert len(found) == 1
    return found[0]


# -- HS-3.2 combat dice -------------------------------------------------------------------------


def test_HS_3_2_combat_die_has_three_skulls_two_shields_one_blank():
    assert sorted(HEROSCAPE_COMBAT_DIE.faces) == sorted(["skull"] * 3 + ["shield"] * 2 + ["blank"])
    assert HEROSCAPE_COMBAT_DIE.probability("skull") == pytest.approx(1 / 2)
    assert HEROSCAPE_COMBAT_DIE.probability("shield") == pytest.approx(1 / 3)
    assert HEROSCAPE_COMBAT_DIE.probability("blank") == pytest.approx(1 / 6)


def test_HS_3_2_engine_rolls_skulls_half_and_shields_a_third_of_the_time(H):
    # Unscripted dice: many attacks with 3 attack and 3 defense dice; count the faces.
    a = H.card("cb_striker", "Striker", attack=3)
    d = H.card("cb_target", "Target", defense=3)
    game, _ = H.build(
        row_map("1n", "1n", "1n", "1n"), [[a], [d]], {"Striker": [(0, 1)], "Target": [(0, 2)]}
    )
    counts = {"skull": 0, "shield": 0, "blank": 0}
    rolled = 0
    for seed in range(300):
        game2, state = HeroscapeGame.from_scenario(
            game.scenario, {"Striker": [(0, 1)], "Target": [(0, 2)]}, seed=seed, turn=0
        )
        game2.apply_string(state, "choose Striker")
        game2.apply_string(state, "end movement")
        event = attack_event(H.attack(game2, state, "Striker", "Target"))
        assert len(event.dice) == 6
        for symbol in event.dice:
            counts[symbol] += 1
        rolled += 6
    assert counts["skull"] / rolled == pytest.approx(1 / 2, abs=0.04)
    assert counts["shield"] / rolled == pytest.approx(1 / 3, abs=0.04)
    assert counts["blank"] / rolled == pytest.approx(1 / 6, abs=0.04)


# -- HS-8 who may attack -----------------------------------------------------------------------


def test_HS_8_1_figure_with_enemy_in_range_and_sight_may_attack(H):
    game, state = duel(H, ["1n"] * 6, [(0, 1)], [(0, 2)])
    assert H.phase(game, state) == "ATTACK_SELECT"
    assert "attack with Striker (0,1)" in H.names(game, state)
    assert H.targets(game, state, "Striker") == {"Target"}


def test_HS_8_1_only_enemy_figures_are_targets(H):
    friend = H.card("cb_friend", "Friend")
    game, state = duel(
        H, ["1n"] * 6, [(0, 1)], [(0, 3)], extra0=[friend], placements={"Friend": [(0, 2)]}
    )
    # The friend is adjacent but is not a target; the enemy is out of range 1.
    assert H.phase(game, state) == "CHOOSE_CARD"
    assert game.to_dict(state)["seat"] == 1


def test_HS_8_2_turn_ends_when_no_figure_can_attack(H):
    game, state = duel(H, ["1n"] * 6, [(0, 0)], [(0, 5)])
    d = game.to_dict(state)
    assert d["phase"] == "CHOOSE_CARD" and d["seat"] == 1
    assert H.names(game, state) == ["choose Target"]


def test_HS_8_2_attacking_is_optional(H):
    game, state = duel(H, ["1n"] * 6, [(0, 1)], [(0, 2)])
    assert "end turn" in H.names(game, state)
    game.apply_string(state, "end turn")
    d = game.to_dict(state)
    assert d["seat"] == 1 and d["phase"] == "CHOOSE_CARD"
    assert H.where(game, state, "Target") == [(0, 2)]
    assert dice_used(game, state) == 0


# -- HS-9 range ---------------------------------------------------------------------------------


@pytest.mark.parametrize("distance, ok", [(1, True), (3, True), (4, False)])
def test_HS_9_1_target_within_range_up_to_and_including(H, distance, ok):
    game, state = duel(H, ["1n"] * 8, [(0, 0)], [(0, distance)], a_stats={"range": 3})
    assert (H.targets(game, state, "Striker") == {"Target"}) is ok


def test_HS_9_2_range_one_attacks_only_adjacent(H):
    game, state = duel(H, ["1n"] * 6, [(0, 0)], [(0, 2)], a_stats={"range": 1})
    assert H.phase(game, state) == "CHOOSE_CARD"  # nothing to attack: the turn passed
    game, state = duel(H, ["1n"] * 6, [(0, 1)], [(0, 2)], a_stats={"range": 1})
    assert H.targets(game, state, "Striker") == {"Target"}


@pytest.mark.parametrize("a_level, d_level", [(1, 4), (4, 1), (1, 9)])
def test_HS_9_4_adjacent_is_range_one_at_any_level_difference(H, a_level, d_level):
    tokens = ["1n", f"{a_level}n", f"{d_level}n", "1n"]
    game, state = duel(H, tokens, [(0, 1)], [(0, 2)], a_stats={"range": 1})
    assert H.targets(game, state, "Striker") == {"Target"}


def test_HS_9_4_levels_do_not_add_to_range(H):
    # Two spaces away, the target 5 levels up: still range 2.
    game, state = duel(H, ["1n", "1n", "1n", "6n", "1n"], [(0, 1)], [(0, 3)], a_stats={"range": 2})
    assert H.targets(game, state, "Striker") == {"Target"}


GAP_MAP = """\
1nA .   1nB 1nB
  1nA 1nA 1nB 1nB
"""


@pytest.mark.parametrize("reach, ok", [(2, False), (3, True)])
def test_HS_9_5_range_counts_around_a_gap(H, reach, ok):
    # (0,0) and (0,2) are 2 apart in a straight line, but (0,1) has no tile: the path
    # round it, (0,0)-(1,0)-(1,1)-(0,2), is 3 steps.
    a = H.card("cb_striker", "Striker", range=reach)
    game, state = H.build(
        GAP_MAP, [[a], [H.card("cb_target", "Target")]], {"Striker": [(0, 0)], "Target": [(0, 2)]}
    )
    game.apply_string(state, "choose Striker")
    game.apply_string(state, "end movement")
    assert (H.targets(game, state, "Striker") == {"Target"}) is ok


def test_HS_9_5_figures_do_not_block_range_counting(H):
    # The row between them is full of figures; range (not sight) is still 2.
    friend = H.card("cb_friend", "Friend")
    game, state = H.build(
        "1nA 1nA 1nB 1nB\n  1nA 1nA 1nB 1nB",
        [[H.card("cb_striker", "Striker", range=2), friend], [H.card("cb_target", "Target")]],
        {"Striker": [(1, 0)], "Friend": [(0, 1)], "Target": [(1, 2)]},
    )
    game.apply_string(state, "choose Striker")
    game.apply_string(state, "end movement")
    assert H.targets(game, state, "Striker") == {"Target"}


def test_HS_9_3_double_space_attacker_counts_range_from_either_space(H):
    game, state = duel(
        H, ["1n"] * 8, [(0, 0), (0, 1)], [(0, 3)], a_double=True, a_stats={"range": 2}
    )
    assert H.targets(game, state, "Striker") == {"Target"}
    game, state = duel(
        H, ["1n"] * 8, [(0, 0), (0, 1)], [(0, 4)], a_double=True, a_stats={"range": 2}
    )
    assert H.phase(game, state) == "CHOOSE_CARD"


def test_HS_9_3_range_to_a_double_space_target_counts_to_its_nearer_space(H):
    game, state = duel(
        H, ["1n"] * 8, [(0, 0)], [(0, 2), (0, 3)], d_double=True, a_stats={"range": 2}
    )
    assert H.targets(game, state, "Striker") == {"Target"}
    game, state = duel(
        H, ["1n"] * 8, [(0, 0)], [(0, 3), (0, 4)], d_double=True, a_stats={"range": 2}
    )
    assert H.phase(game, state) == "CHOOSE_CARD"


# -- HS-10 line of sight ------------------------------------------------------------------------


def test_HS_10_4_column_blocks_sight(H):
    game, state = duel(H, ["1n", "9n", "1n", "1n"], [(0, 0)], [(0, 2)], a_stats={"range": 3})
    assert H.phase(game, state) == "CHOOSE_CARD"  # in range, but nothing can be seen
    game, state = duel(H, ["1n", "1n", "1n", "1n"], [(0, 0)], [(0, 2)], a_stats={"range": 3})
    assert H.targets(game, state, "Striker") == {"Target"}


def test_HS_10_3_low_wall_blocks_from_the_ground_but_not_from_height(H):
    # A level-6 wall hides a level-1 target from a level-1 attacker (eye at 5.5 levels) but
    # not from an attacker standing on level 9 behind it.
    game, state = duel(H, ["1n", "6n", "1n", "1n"], [(0, 0)], [(0, 2)], a_stats={"range": 3})
    assert H.phase(game, state) == "CHOOSE_CARD"
    game, state = duel(H, ["9n", "6n", "1n", "1n"], [(0, 0)], [(0, 2)], a_stats={"range": 3})
    assert H.targets(game, state, "Striker") == {"Target"}


def test_HS_10_1_target_hidden_behind_a_tall_column_on_high_ground(H):
    # The target stands on level 8 right behind a level-9 column: invisible from level 1.
    game, state = duel(H, ["1n", "9n", "8n", "1n"], [(0, 0)], [(0, 2)], a_stats={"range": 3})
    assert H.phase(game, state) == "CHOOSE_CARD"


def test_HS_10_4_figures_block_sight(H):
    blocker = H.card("cb_blocker", "Blocker")
    game, state = duel(
        H,
        ["1n"] * 6,
        [(0, 0)],
        [(0, 2)],
        a_stats={"range": 3},
        extra1=[blocker],
        placements={"Blocker": [(0, 1)]},
    )
    assert H.targets(game, state, "Striker") == {"Blocker"}


def test_HS_10_4_friendly_figures_block_sight_too(H):
    friend = H.card("cb_friend", "Friend")
    game, state = duel(
        H,
        ["1n"] * 6,
        [(0, 0)],
        [(0, 2)],
        a_stats={"range": 3},
        extra0=[friend],
        placements={"Friend": [(0, 1)]},
    )
    assert H.phase(game, state) == "CHOOSE_CARD"


def test_HS_10_4_sight_passes_over_gaps(H):
    a = H.card("cb_striker", "Striker", range=3)
    game, state = H.build(
        GAP_MAP, [[a], [H.card("cb_target", "Target")]], {"Striker": [(0, 0)], "Target": [(0, 2)]}
    )
    game.apply_string(state, "choose Striker")
    game.apply_string(state, "end movement")
    assert H.targets(game, state, "Striker") == {"Target"}


def test_HS_10_4_tall_figure_on_low_ground_sees_over_a_figure(H):
    # A height-12 attacker's eye is far above a height-5 figure in between.
    blocker = H.card("cb_blocker", "Blocker")
    game, state = duel(
        H,
        ["1n"] * 6,
        [(0, 0)],
        [(0, 2)],
        a_stats={"range": 3, "height": 12},
        extra1=[blocker],
        placements={"Blocker": [(0, 1)]},
    )
    assert H.targets(game, state, "Striker") == {"Blocker", "Target"}


# -- HS-11 squads -------------------------------------------------------------------------------


def _squad_vs_two(H, dice):
    # Three archers in a column on the left, two enemies on the right; every archer sees
    # (and is in range 4 of) both enemies.
    squad = H.card("cb_squad", "Archer", figures=3, range=4, attack=1)
    a = H.card("cb_ta", "Orc", defense=1)
    b = H.card("cb_tb", "Ogre", defense=1)
    game, state = H.build(
        "1nA 1nA 1nA 1nB 1nB 1nB\n  1nA 1nA 1nA 1nB 1nB 1nB\n1nA 1nA 1nA 1nB 1nB 1nB",
        [[squad], [a, b]],
        {
            "Archer #1": [(0, 0)],
            "Archer #2": [(1, 0)],
            "Archer #3": [(2, 0)],
            "Orc": [(0, 3)],
            "Ogre": [(2, 3)],
        },
        dice=dice,
    )
    game.apply_string(state, "choose Archer")
    game.apply_string(state, "end movement")
    return game, state


def test_HS_11_1_each_squad_figure_attacks_once_in_any_order(H):
    game, state = _squad_vs_two(H, ["blank", "blank"] * 3)
    assert {n for n in H.names(game, state) if n.startswith("attack with")} == {
        "attack with Archer #1 (0,0)",
        "attack with Archer #2 (1,0)",
        "attack with Archer #3 (2,0)",
    }
    H.attack(game, state, "Archer #3", "Orc")
    legal = H.names(game, state)
    assert "attack with Archer #3 (2,0)" not in legal
    assert "attack with Archer #1 (0,0)" in legal and "attack with Archer #2 (1,0)" in legal
    H.attack(game, state, "Archer #1", "Orc")
    H.attack(game, state, "Archer #2", "Orc")
    # Every figure has attacked: the turn is over (HS-12.8).
    assert game.to_dict(state)["seat"] == 1 and H.phase(game, state) == "CHOOSE_CARD"


def test_HS_11_3_squad_figures_may_pick_different_targets(H):
    game, state = _squad_vs_two(H, ["blank", "blank"] * 3)
    assert H.targets(game, state, "Archer #1") == {"Orc", "Ogre"}
    events = H.attack(game, state, "Archer #1", "Orc")
    events += H.attack(game, state, "Archer #2", "Ogre")
    texts = [e.text for e in events if e.kind == "attack"]
    assert "Orc" in texts[0] and "Ogre" in texts[1]


def test_HS_11_3_hero_attacks_at_most_once(H):
    game, state = duel(H, ["1n"] * 6, [(0, 1)], [(0, 2)], dice=["blank"] * 4)
    H.attack(game, state, "Striker", "Target")
    d = game.to_dict(state)
    assert d["seat"] == 1 and d["phase"] == "CHOOSE_CARD"


def test_HS_11_2_figure_cannot_attack_twice(H):
    game, state = _squad_vs_two(H, ["blank", "blank"] * 3)
    H.attack(game, state, "Archer #1", "Orc")
    with pytest.raises(IllegalActionError):
        game.apply_string(state, "attack with Archer #1 (0,0)")


# -- HS-12 attack procedure ---------------------------------------------------------------------


def test_HS_12_2_and_12_3_roll_attack_then_defense_dice(H):
    game, state = duel(
        H,
        ["1n"] * 6,
        [(0, 1)],
        [(0, 2)],
        a_stats={"attack": 3},
        d_stats={"defense": 2},
        dice=["skull", "shield", "blank", "shield", "skull"],
    )
    event = attack_event(H.attack(game, state, "Striker", "Target"))
    assert event.dice == ("skull", "shield", "blank", "shield", "skull")
    assert dice_used(game, state) == 5
    # 1 skull vs 1 shield: blocked (HS-12.7); the defense skull and attack shield count nothing.
    assert H.where(game, state, "Target") == [(0, 2)]


def test_HS_12_6_more_skulls_than_shields_destroys(H):
    game, state = duel(
        H,
        ["1n"] * 6,
        [(0, 1)],
        [(0, 2)],
        a_stats={"attack": 2},
        d_stats={"defense": 2},
        dice=["skull", "skull", "shield", "blank"],
        extra1=[H.card("cb_other", "Other")],
        placements={"Other": [(0, 5)]},
    )
    events = H.attack(game, state, "Striker", "Target")
    assert "destroyed" in attack_event(events).text
    assert H.where(game, state, "Target") == []
    assert game.to_dict(state)["occupant"][game.board.cell(0, 2)] == -1


@pytest.mark.parametrize(
    "a_roll, d_roll",
    [
        (["skull", "skull"], ["shield", "shield"]),  # tie: fails
        (["skull", "blank"], ["shield", "blank"]),  # tie
        (["blank", "blank"], ["blank", "blank"]),  # 0 vs 0
        (["shield", "shield"], ["blank", "blank"]),  # attack shields are not skulls
        (["skull", "blank"], ["shield", "skull"]),  # defense skulls are not shields; 1 v 1
    ],
)
def test_HS_12_7_attack_fails_unless_skulls_exceed_shields(H, a_roll, d_roll):
    game, state = duel(
        H,
        ["1n"] * 6,
        [(0, 1)],
        [(0, 2)],
        a_stats={"attack": 2},
        d_stats={"defense": 2},
        dice=a_roll + d_roll,
    )
    events = H.attack(game, state, "Striker", "Target")
    assert "blocked" in attack_event(events).text
    assert H.where(game, state, "Target") == [(0, 2)]
    assert H.where(game, state, "Striker") == [(0, 1)]


def test_HS_12_5_blank_defense_does_not_block_a_skull(H):
    game, state = duel(
        H,
        ["1n"] * 6,
        [(0, 1)],
        [(0, 2)],
        a_stats={"attack": 1},
        d_stats={"defense": 2},
        dice=["skull", "blank", "skull"],
        extra1=[H.card("cb_other", "Other")],
        placements={"Other": [(0, 5)]},
    )
    H.attack(game, state, "Striker", "Target")
    assert H.where(game, state, "Target") == []


def test_HS_12_6_destroyed_figure_stops_blocking_at_once(H):
    # Archer #2 cannot see the Ogre behind the Orc until Archer #1 destroys the Orc.
    squad = H.card("cb_squad", "Archer", figures=2, range=2, attack=1)
    game, state = H.build(
        "1nA 1nA 1nB 1nB 1nB\n  1nA 1nA 1nB 1nB 1nB",
        [[squad], [H.card("cb_ta", "Orc", defense=1), H.card("cb_tb", "Ogre", defense=1)]],
        {"Archer #2": [(0, 0)], "Orc": [(0, 1)], "Ogre": [(0, 2)], "Archer #1": [(1, 0)]},
        dice=["skull", "blank"],
    )
    game.apply_string(state, "choose Archer")
    game.apply_string(state, "end movement")
    assert H.targets(game, state, "Archer #2") == {"Orc"}
    H.attack(game, state, "Archer #1", "Orc")
    assert H.where(game, state, "Orc") == []
    assert H.targets(game, state, "Archer #2") == {"Ogre"}


def test_HS_12_6_destroyed_figure_stops_blocking_movement(H):
    # After an attack the next turn's movement may pass where the figure stood.
    game, state = duel(
        H,
        ["1n"] * 6,
        [(0, 1)],
        [(0, 2)],
        d_stats={"defense": 1},
        dice=["skull", "skull", "blank"],
        extra1=[H.card("cb_other", "Other")],
        placements={"Other": [(0, 5)]},
    )
    H.attack(game, state, "Striker", "Target")
    game.apply_string(state, "choose Other")
    assert (0, 2) in H.destinations(game, state, "Other")


@pytest.mark.parametrize(
    "a_level, d_level, a_dice, d_dice",
    [
        (2, 1, 3, 2),  # attacker higher: +1 attack die
        (1, 2, 2, 3),  # defender higher: +1 defense die
        (1, 1, 2, 2),  # same level: no bonus
        (5, 1, 3, 2),  # any difference: exactly +1
        (1, 6, 2, 3),
    ],
)
def test_HS_12_4_higher_figure_rolls_one_more_die(H, a_level, d_level, a_dice, d_dice):
    tokens = ["1n", f"{a_level}n", f"{d_level}n", "1n"]
    dice = ["blank"] * (a_dice + d_dice)
    game, state = duel(
        H, tokens, [(0, 1)], [(0, 2)], a_stats={"attack": 2}, d_stats={"defense": 2}, dice=dice
    )
    event = attack_event(H.attack(game, state, "Striker", "Target"))
    assert len(event.dice) == a_dice + d_dice
    assert dice_used(game, state) == a_dice + d_dice


def test_HS_12_4_higher_attacker_rolls_one_more_die_at_range(H):
    tokens = ["3n", "1n", "1n", "1n"]
    game, state = duel(
        H,
        tokens,
        [(0, 0)],
        [(0, 3)],
        a_stats={"attack": 1, "range": 3},
        d_stats={"defense": 1},
        dice=["skull", "skull", "shield"],
    )
    # 2 attack dice (1 + height) then 1 defense die: 2 skulls beat 1 shield.
    event = attack_event(H.attack(game, state, "Striker", "Target"))
    assert event.dice == ("skull", "skull", "shield")
    assert H.where(game, state, "Target") == []


def test_HS_12_4_higher_defender_extra_die_can_save_it(H):
    tokens = ["1n", "1n", "2n", "1n"]
    game, state = duel(
        H,
        tokens,
        [(0, 1)],
        [(0, 2)],
        a_stats={"attack": 1},
        d_stats={"defense": 1},
        dice=["skull", "blank", "shield"],
    )
    H.attack(game, state, "Striker", "Target")
    assert H.where(game, state, "Target") == [(0, 2)]


def test_HS_12_4_double_space_figure_uses_its_level(H):
    tokens = ["2n", "2n", "1n", "1n", "1n"]
    game, state = duel(
        H,
        tokens,
        [(0, 0), (0, 1)],
        [(0, 2)],
        a_double=True,
        a_stats={"attack": 1},
        d_stats={"defense": 1},
        dice=["blank", "blank", "blank"],
    )
    event = attack_event(H.attack(game, state, "Striker", "Target"))
    assert len(event.dice) == 3


def test_HS_12_1_target_must_be_legal(H):
    game, state = duel(
        H,
        ["1n"] * 6,
        [(0, 1)],
        [(0, 2)],
        extra1=[H.card("cb_far", "Far")],
        placements={"Far": [(0, 5)]},
    )
    game.apply_string(state, "attack with Striker (0,1)")
    assert [n for n in H.names(game, state)] == ["attack Target (0,2)"]
    with pytest.raises(IllegalActionError):
        game.apply_string(state, "attack Far (0,5)")


def test_HS_12_2_attack_dice_equal_attack_value(H):
    for attack_value in (1, 4):
        game, state = duel(
            H,
            ["1n"] * 6,
            [(0, 1)],
            [(0, 2)],
            a_stats={"attack": attack_value},
            d_stats={"defense": 3},
            dice=["blank"] * (attack_value + 3),
        )
        event = attack_event(H.attack(game, state, "Striker", "Target"))
        assert len(event.dice) == attack_value + 3


SIGHT_MAP = """\
1nA 1nA {a} 1n  1n  1nB
  1nA 1n  1n  1n  1nB 1nB
1nA 1nA 1n  1n  1n  1nB
"""


def _sight_game(H, column, a_at, t_at, *, a_double=False, t_double=False):
    text = SIGHT_MAP.format(a=f"{column}n ")
    game, state = H.build(
        text,
        [
            [H.card("cb_striker", "Striker", range=4, double_space=a_double)],
            [H.card("cb_target", "Target", double_space=t_double)],
        ],
        {"Striker": a_at, "Target": t_at},
    )
    game.apply_string(state, "choose Striker")
    game.apply_string(state, "end movement")
    return game, state


def test_HS_10_4_double_space_attacker_may_look_from_either_space(H):
    # A level-9 column at (0,2) hides (0,4) from (0,1); a double-space striker on (0,1)
    # and (1,1) looks past the column from (1,1).
    game, state = _sight_game(H, 9, [(0, 1)], [(0, 4)])
    assert H.phase(game, state) == "CHOOSE_CARD"
    game, state = _sight_game(H, 9, [(0, 1), (1, 1)], [(0, 4)], a_double=True)
    assert H.targets(game, state, "Striker") == {"Target"}


def test_HS_10_3_seeing_any_part_of_a_double_space_target_is_enough(H):
    # From (1,0), the column at (0,2) hides (0,4) but not (1,4).
    game, state = _sight_game(H, 9, [(1, 0)], [(0, 4)])
    assert H.phase(game, state) == "CHOOSE_CARD"
    game, state = _sight_game(H, 9, [(1, 0)], [(1, 4)])
    assert H.targets(game, state, "Striker") == {"Target"}
    game, state = _sight_game(H, 9, [(1, 0)], [(0, 4), (1, 4)], t_double=True)
    assert H.targets(game, state, "Striker") == {"Target"}
    # The column flattened: every placement is visible.
    game, state = _sight_game(H, 1, [(1, 0)], [(0, 4)])
    assert H.targets(game, state, "Striker") == {"Target"}
