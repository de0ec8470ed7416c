"""Heroica rules: the die, setup, turn order, moving (HE-3, HE-4, HE-5), rocks (HE-13),
torches (HE-14) and winning (HE-16). Each test names the rule it checks."""

from __future__ import annotations

import pytest

from envs.core.game import OptionError
from envs.heroica.dice import HEROICA_DIE
from envs.heroica.rules import HeroicaGame

# A long corridor for seat 0 (row 1) and a parking corridor for seat 1 (row 3); the target
# (3,10) is far from every move below.
CORRIDOR = """
############
#0.........#
##########.#
#1.........#
############
"""
FAR = (3, 10)


# -- HE-3.3 the die ------------------------------------------------------------------------------
def test_HE_3_3_die_faces_and_probabilities():
    assert HEROICA_DIE.sides == 6
    assert HEROICA_DIE.probability("shield") == pytest.approx(1 / 6)
    assert HEROICA_DIE.probability("sword") == pytest.approx(2 / 6)
    assert HEROICA_DIE.probability("skull") == pytest.approx(2 / 6)
    assert HEROICA_DIE.probability("sword_skull") == pytest.approx(1 / 6)


@pytest.mark.parametrize(
    "face, steps", [("shield", 4), ("sword", 3), ("skull", 2), ("sword_skull", 1)]
)
def test_HE_3_3_movement_column(make, face, steps):
    sc = make(CORRIDOR, FAR, dice=[face])
    sc.do("roll")
    assert sc.phase == "MOVE" and sc.d["steps_left"] == steps and sc.d["die"] == face


def test_HE_3_3_seeded_rolls_are_roughly_uniform_over_faces():
    game = HeroicaGame(mission="tunnel")
    state = game.new_state(seed=7)
    counts = {}
    for _ in range(6000):
        sym = state.dice.roll_symbol(HEROICA_DIE)
        counts[sym] = counts.get(sym, 0) + 1
    assert counts["shield"] == pytest.approx(1000, abs=150)
    assert counts["sword"] == pytest.approx(2000, abs=200)
    assert counts["skull"] == pytest.approx(2000, abs=200)
    assert counts["sword_skull"] == pytest.approx(1000, abs=150)


# -- HE-3.4 / HE-3.5 setup -------------------------------------------------------------------
def test_HE_3_4_heroes_start_with_4_health_no_gold_on_the_start():
    game = HeroicaGame(mission="tunnel", num_players=3)
    state = game.new_state(seed=0)
    d = game.to_dict(state)
    start = game.starts[0]
    for seat in range(3):
        row = d["heroes"][seat]
        assert row[2] == 4 and row[4] == 0  # HeroField.HEALTH, GOLD
        assert row[1] == start  # HE-3.5 all share the Mission Start
    assert len(set(game.heroes)) == 3
    assert d["phase"] == "START" and game.current_player(state) == 0


def test_HE_3_4_each_hero_at_most_once_and_1_to_3_heroes():
    with pytest.raises(OptionError):
        HeroicaGame(mission="tunnel", num_players=2, heroes=["wizard", "wizard"])
    with pytest.raises(OptionError):
        HeroicaGame(mission="tunnel", num_players=4)  # 4 Heroes: there are only 3
    HeroicaGame(mission="tunnel", num_players=2, heroes=["thief", "wizard"])


# -- HE-4 turn order -----------------------------------------------------------------------------
def _pass_turn(sc):
    sc.do("roll", "end move", "end turn")


def test_HE_4_1_seat_order_wraps_clockwise(make):
    sc = make(
        """
    ########
    #0.....#
    #1.....#
    #2....L#
    ########
    """,
        (3, 6),
        num_players=3,
        dice=["sword"] * 4,
    )
    order = []
    for _ in range(4):
        order.append(sc.seat)
        _pass_turn(sc)
    assert order == [0, 1, 2, 0]


def test_HE_4_2_round_cap_is_a_draw(make):
    sc = make(CORRIDOR, FAR, dice=["sword"] * 4, max_rounds=2)
    for _ in range(3):
        _pass_turn(sc)
    assert sc.phase != "GAME_OVER"
    _pass_turn(sc)
    assert sc.phase == "GAME_OVER" and sc.winners == [] and sc.returns() == [0.0, 0.0]
    assert "draw" in sc.kinds("draw")


def test_HE_4_2_healing_hero_rolls_to_heal_then_ends(make):
    sc = make(CORRIDOR, FAR, hero_state={0: {"health": 0}}, dice=["skull"])
    assert sc.legal() == ["roll"]
    sc.do("roll")
    assert sc.health(0) == 2 and sc.pos(0) == (1, 1) and sc.phase == "END"


# -- HE-5 moving ---------------------------------------------------------------------------------
def test_HE_5_1_move_up_to_the_roll_then_stop(make):
    sc = make(CORRIDOR, FAR, dice=["sword"])
    sc.do("roll", "step (1,2)", "step (1,3)")
    assert sc.can("step (1,4)")
    sc.do("step (1,4)")
    assert sc.phase == "END" and sc.pos(0) == (1, 4)  # 3 steps used: the move ends


def test_HE_5_1_zero_steps_allowed(make):
    sc = make(CORRIDOR, FAR, dice=["sword"])
    sc.do("roll", "end move")
    assert sc.phase == "END" and sc.pos(0) == (1, 1)


def test_HE_5_1_no_space_entered_twice(make):
    sc = make(
        """
    #######
    #0....#
    #.....#
    #1...L#
    #######
    """,
        (3, 5),
        dice=["shield"],
    )
    sc.do("roll", "step (1,2)", "step (2,2)", "step (2,1)")
    assert not sc.can("step (1,1)")  # the space the move started on counts as entered
    sc2 = make(CORRIDOR, FAR, dice=["shield"])
    sc2.do("roll", "step (1,2)", "step (1,3)")
    assert not sc2.can("step (1,2)") and sc2.can("step (1,4)")


def test_HE_5_1_never_enter_monster_or_rocks(make):
    sc = make(
        """
    #########
    #.R0.b..#
    #.......#
    #1.....L#
    #########
    """,
        (3, 7),
        dice=["shield"],
    )
    sc.do("roll")
    assert not sc.can("step (1,2)")  # rocks
    sc.do("step (1,4)")  # next to the bat: must stop (HE-5.8)
    assert not sc.can("step (1,5)")


def test_HE_5_2_shield_moves_up_to_4(make):
    sc = make(CORRIDOR, FAR, dice=["shield"])
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)", "step (1,5)")
    assert sc.phase == "END" and sc.pos(0) == (1, 5)


def test_HE_5_5_one_moves_one_space(make):
    sc = make(CORRIDOR, FAR, dice=["sword_skull"])
    sc.do("roll", "step (1,2)")
    assert sc.phase == "END" and sc.pos(0) == (1, 2)


def test_HE_5_1_heroes_may_be_passed(make):
    sc = make(
        """
    ############
    #0.1.......#
    ##########.#
    #..........#
    ############
    """,
        FAR,
        dice=["sword"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    assert sc.pos(0) == (1, 4) and sc.pos(1) == (1, 3)


def test_HE_5_6_ending_on_a_hero_moves_forward(make):
    sc = make(
        """
    ############
    #0..1......#
    ##########.#
    #..........#
    ############
    """,
        FAR,
        dice=["sword", "sword"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    assert sc.phase == "FORWARD" and sc.legal() == ["step (1,5)"]
    sc.do("step (1,5)")
    assert sc.pos(0) == (1, 5) and sc.phase == "END"


def test_HE_5_6_end_move_on_a_hero_also_moves_forward(make):
    sc = make(
        """
    ############
    #0.1.......#
    ##########.#
    #..........#
    ############
    """,
        FAR,
        dice=["sword"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "end move")
    assert sc.phase == "FORWARD"
    sc.do("step (1,4)")
    assert sc.pos(0) == (1, 4)


def test_HE_5_6_forward_steps_pick_up_items(make):
    sc = make(
        """
    ############
    #0.1l......#
    ##########.#
    #..........#
    ############
    """,
        FAR,
        dice=["skull"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    assert sc.hero(0, "life_potions") == 1 and sc.piece(1, 4) == ""


def test_HE_5_6_no_free_space_forward_returns_to_last_free_space(make):
    sc = make(
        """
    #######
    #0.12L#
    #######
    """,
        (1, 5),
        num_players=3,
        dice=["skull"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)")
    # (1,3) and (1,4) hold Heroes, (1,5) a monster: no Hero-free space ahead, so the mover
    # goes back to the last Hero-free space it entered.
    assert sc.pos(0) == (1, 2) and sc.phase == "END"


def test_HE_5_7_items_picked_up_on_the_way(make):
    sc = make(
        """
    ############
    #0ls.......#
    ##########.#
    #1.........#
    ############
    """,
        FAR,
        dice=["sword"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    assert sc.hero(0, "life_potions") == 1 and sc.hero(0, "speed_potions") == 1
    assert sc.piece(1, 2) == "" and sc.piece(1, 3) == ""


def test_HE_5_8_must_stop_next_to_a_monster_and_fight(make):
    sc = make(
        """
    ############
    #0...b.....#
    ##########.#
    #1.........#
    ############
    """,
        FAR,
        dice=["shield", "sword"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    assert sc.phase == "FIGHT_CHOOSE" and sc.legal() == ["fight Bat (1,5)"]
    sc.do("fight Bat (1,5)")
    assert sc.kills(0, "bat") == 1


def test_HE_5_9_no_diagonal_moves(make):
    sc = make(
        """
    #######
    #0....#
    #.....#
    #1...L#
    #######
    """,
        (3, 5),
        dice=["sword"],
    )
    sc.do("roll")
    assert set(sc.legal()) == {"step (1,2)", "step (2,1)", "end move"}


def test_HE_5_9_trigger_order_chest_then_fight_then_rocks(make):
    sc = make(
        """
    ###########
    #0.cb.....#
    ###R#####.#
    #1........#
    ###########
    """,
        (3, 9),
        dice=["sword", "sword", "sword", "sword"],
    )
    sc.do("roll", "step (1,2)")
    # (1,2) is next to the rocks at (2,3)? no: (2,2) is a wall; step on into the chest
    sc.do("step (1,3)")
    # chest searched first (rolled at once), then the fight is offered
    rolls = [e.text for e in sc.events if e.kind == "roll"]
    assert "treasure chest" in rolls[-1] and sc.gold(0) == 1
    assert sc.phase == "FIGHT_CHOOSE"
    sc.do("fight Bat (1,4)")
    assert sc.phase == "ROCKS_CHOOSE"  # rocks come last
    sc.do("explore rocks (2,3)")
    assert sc.piece(2, 3) == ""


def test_HE_5_9_no_rocks_after_a_defeat(make):
    sc = make(
        """
    ###########
    #0..b.....#
    ###R#####.#
    #1........#
    ###########
    """,
        (3, 9),
        hero_state={0: {"health": 1}},
        dice=["sword", "skull"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "fight Bat (1,4)")
    assert sc.health(0) == 0 and sc.phase == "END"  # Health 0: the rocks are not explored


# -- HE-13 rocks ---------------------------------------------------------------------------------
ROCKS = """
############
#0.R{beyond}......#
##.#######.#
#1.........#
############
"""


def _rocks(make, dice, beyond=".", **kw):
    sc = make(ROCKS.replace("{beyond}", beyond), FAR, dice=["skull"] + dice, **kw)
    sc.do("roll", "step (1,2)")
    assert sc.phase == "ROCKS_CHOOSE" and sc.legal() == ["explore rocks (1,3)"]  # HE-13.2
    return sc


def test_HE_13_1_cannot_move_through_rocks(make):
    sc = make(ROCKS.replace("{beyond}", "."), FAR, dice=["shield"])
    sc.do("roll", "step (1,2)")
    assert sc.phase == "ROCKS_CHOOSE"
    sc2 = make(ROCKS.replace("{beyond}", ".").replace("#0.R", "#.0R"), FAR, dice=["shield"])
    sc2.do("roll")
    assert not sc2.can("step (1,3)")


def test_HE_13_2_must_stop_next_to_rocks(make):
    sc = make(ROCKS.replace("{beyond}", "."), FAR, dice=["shield"])
    sc.do("roll", "step (1,2)")
    assert "step (2,2)" not in sc.legal() and sc.pos(0) == (1, 2)


def test_HE_13_3_sword_removes_the_rocks(make):
    sc = _rocks(make, ["sword"])
    sc.do("explore rocks (1,3)")
    assert sc.piece(1, 3) == "" and sc.pos(0) == (1, 2) and sc.phase == "END"


def test_HE_13_3_shield_passes_straight_through_and_lands(make):
    sc = _rocks(make, ["shield"], beyond="l")
    sc.do("explore rocks (1,3)")
    assert sc.pos(0) == (1, 4) and sc.piece(1, 3) == "rocks"
    assert sc.hero(0, "life_potions") == 1  # landing counts as moving into (HE-5.7)


def test_HE_13_3_shield_skips_a_hero_beyond(make):
    sc = make(
        ROCKS.replace("{beyond}", "1").replace("#1....", "#....."), FAR, dice=["skull", "shield"]
    )
    sc.do("roll", "step (1,2)")
    sc.do("explore rocks (1,3)")
    assert sc.pos(0) == (1, 5) and sc.pos(1) == (1, 4)


@pytest.mark.parametrize("beyond", ["#", "b", "R"])
def test_HE_13_3_shield_blocked_beyond_nothing_happens(make, beyond):
    sc = make(ROCKS.replace("{beyond}", beyond), FAR, dice=["skull", "shield"])
    sc.do("roll", "step (1,2)", "explore rocks (1,3)")
    assert sc.pos(0) == (1, 2) and sc.piece(1, 3) == "rocks" and sc.health(0) == 4
    assert sc.phase == "END"


@pytest.mark.parametrize("face", ["skull", "sword_skull"])
def test_HE_13_3_skull_moves_back_to_the_space_entered_from(make, face):
    sc = _rocks(make, [face])
    # both (1,1) and (2,2) are farther from the rocks; the space entered from is preferred
    sc.do("explore rocks (1,3)")
    assert sc.pos(0) == (1, 1) and sc.health(0) == 4 and sc.piece(1, 3) == "rocks"


def test_HE_13_3_several_rocks_choose_one(make):
    sc = make(
        """
    ############
    #0..R......#
    ###R######.#
    #1.........#
    ############
    """,
        FAR,
        dice=["sword", "sword"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)")
    assert set(sc.legal()) == {"explore rocks (1,4)", "explore rocks (2,3)"}
    sc.do("explore rocks (2,3)")
    assert sc.piece(2, 3) == "" and sc.piece(1, 4) == "rocks" and sc.phase == "END"


def test_HE_13_3_starting_next_to_rocks_forces_nothing(make):
    sc = make(ROCKS.replace("{beyond}", ".").replace("#0.R", "#.0R"), FAR, dice=["sword"])
    sc.do("roll", "end move")
    assert sc.phase == "END"


def test_HE_13_3_pass_through_onto_the_target_wins(make):
    sc = make(ROCKS.replace("{beyond}", "."), (1, 4), dice=["skull", "shield"])
    sc.do("roll", "step (1,2)", "explore rocks (1,3)")
    assert sc.phase == "GAME_OVER" and sc.winners == [0]


# -- HE-16 winning -------------------------------------------------------------------------------
def test_HE_16_1_moving_into_the_target_wins_at_once(make):
    sc = make(CORRIDOR.replace("#0.........#", "#0.........#"), (1, 3), dice=["sword"])
    sc.do("roll", "step (1,2)", "step (1,3)")  # 1 step left: the game still ends at once
    assert sc.phase == "GAME_OVER" and sc.winners == [0] and sc.returns() == [1.0, -1.0]
    assert sc.legal() == []


def test_HE_16_1_defeating_the_target_monster_wins(make):
    sc = make(
        """
    #######
    #0...L#
    #1....#
    #######
    """,
        (1, 5),
        dice=["sword", "sword"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)", "fight Golem Lord (1,5)")
    assert sc.winners == [0] and sc.returns() == [1.0, -1.0]


def test_HE_16_1_defeating_the_target_monster_by_skill_wins(make):
    sc = make(
        """
    #######
    #0...L#
    #1....#
    #######
    """,
        (1, 5),
        heroes=["wizard", "barbarian"],
        dice=["shield"],
    )
    sc.do("roll", "use skill", "defeat Golem Lord (1,5)")
    assert sc.winners == [0] and sc.phase == "GAME_OVER"


def test_HE_16_1_other_monster_defeat_does_not_win(make):
    sc = make(
        """
    #######
    #0..b.#
    #1...L#
    #######
    """,
        (2, 5),
        dice=["sword", "sword"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "fight Bat (1,4)")
    assert sc.phase == "END" and sc.winners == []


def test_HE_5_6_zero_step_move_on_a_shared_space_still_moves_forward(make):
    # Engine choice (HE-5.6 is silent on a 0-step move): ending the move on a space shared
    # with another Hero, even without stepping, triggers the forward move.
    sc = make(
        """
    ########
    #S.....#
    #.....L#
    ########
    """,
        (2, 6),
        dice=["sword"],
    )
    sc.do("roll", "end move")
    assert sc.phase == "FORWARD" and set(sc.legal()) == {"step (1,2)", "step (2,1)"}
