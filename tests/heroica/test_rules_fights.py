"""Heroica rules: fights (HE-6), Hero skills (HE-7), monsters (HE-8) and healing (HE-9)."""

from __future__ import annotations

import pytest

# Seat 0 walks row 1 towards a monster at (1,4); seat 1 is parked on row 3; target far away.
LINE = """
############
#0..{m}......#
##########.#
#1.........#
############
"""
FAR = (3, 10)
NAMES = {"b": "Bat", "g": "Golem Guardian", "L": "Golem Lord"}


def _to_fight(make, fight_dice, monster="b", **kw):
    """Seat 0 moves next to the monster at (1,4) and is asked to fight it."""
    sc = make(LINE.replace("{m}", monster), FAR, dice=["skull"] + list(fight_dice), **kw)
    sc.do("roll", "step (1,2)", "step (1,3)")
    assert sc.phase == "FIGHT_CHOOSE"
    return sc


# -- HE-6.1..6.6 one fight ---------------------------------------------------------------------
def test_HE_6_3_sword_defeats_the_monster(make):
    sc = _to_fight(make, ["sword"])
    events = sc.do("fight Bat (1,4)")
    assert sc.piece(1, 4) == "" and sc.kills(0, "bat") == 1  # HE-6.6 onto the Hero Pack
    assert sc.health(0) == 4 and sc.pos(0) == (1, 3) and sc.phase == "END"
    assert [e.kind for e in events][:2] == ["roll", "defeat"]  # HE-6.1 a fresh roll


def test_HE_6_4_skull_costs_health_and_moves_back(make):
    sc = _to_fight(make, ["skull"])
    sc.do("fight Bat (1,4)")
    assert sc.piece(1, 4) == "bat" and sc.kills(0) == 0
    assert sc.health(0) == 3 and sc.pos(0) == (1, 2) and sc.phase == "END"


def test_HE_6_5_sword_skull_defeats_and_costs_health_and_moves_back(make):
    sc = _to_fight(make, ["sword_skull"], monster="g")
    sc.do("fight Golem Guardian (1,4)")
    assert sc.piece(1, 4) == "" and sc.kills(0, "guardian") == 1
    assert sc.health(0) == 2 and sc.pos(0) == (1, 2)


def test_HE_6_2_shield_defeat_or_melee_skill(make):
    sc = _to_fight(make, ["shield"])
    sc.do("fight Bat (1,4)")
    assert sc.phase == "FIGHT_SHIELD" and set(sc.legal()) == {"defeat", "use skill"}
    sc.do("defeat")
    assert sc.kills(0, "bat") == 1 and sc.health(0) == 4


@pytest.mark.parametrize("monster, strength", [("b", 1), ("g", 2), ("L", 3)])
def test_HE_8_1_strength_is_the_health_lost(make, monster, strength):
    sc = _to_fight(make, ["skull"], monster=monster)
    sc.do(f"fight {NAMES[monster]} (1,4)")
    assert sc.health(0) == 4 - strength


def test_HE_8_1_monsters_never_move_outside_battle(make):
    sc = _to_fight(make, ["skull"])
    sc.do("fight Bat (1,4)", "end turn")
    assert sc.piece(1, 4) == "bat" and sc.seat == 1


def test_HE_6_9_move_back_even_at_zero_health(make):
    sc = _to_fight(make, ["skull"], monster="L", hero_state={0: {"health": 2}})
    sc.do("fight Golem Lord (1,4)")
    assert sc.health(0) == 0 and sc.hero(0, "healing") == 1  # HE-9.1
    assert sc.pos(0) == (1, 2)


# -- HE-6.7 several monsters ---------------------------------------------------------------------
TWO = """
###########
#0..b.....#
###g#####.#
#1........#
###########
"""


def test_HE_6_7_choose_which_monster_then_chain_after_a_win(make):
    sc = make(TWO, (3, 9), dice=["skull", "sword", "sword"])
    sc.do("roll", "step (1,2)", "step (1,3)")
    assert set(sc.legal()) == {"fight Bat (1,4)", "fight Golem Guardian (2,3)"}
    sc.do("fight Golem Guardian (2,3)")
    assert sc.legal() == ["fight Bat (1,4)"]  # a win: immediately fight the next
    sc.do("fight Bat (1,4)")
    assert sc.kills(0) == 2 and sc.phase == "END"


def test_HE_6_7_no_chain_after_a_loss(make):
    sc = make(TWO, (3, 9), dice=["skull", "skull"])
    sc.do("roll", "step (1,2)", "step (1,3)", "fight Bat (1,4)")
    assert sc.phase == "END" and sc.pos(0) == (1, 2) and sc.piece(2, 3) == "guardian"


def test_HE_6_7_chain_continues_after_sword_skull_if_still_adjacent(make):
    # Sword & Skull wins but moves back; from (1,2) no monster is adjacent, so the chain ends.
    sc = make(TWO, (3, 9), dice=["skull", "sword_skull"])
    sc.do("roll", "step (1,2)", "step (1,3)", "fight Bat (1,4)")
    assert sc.kills(0) == 1 and sc.pos(0) == (1, 2) and sc.phase == "END"


def test_HE_6_8_no_diagonal_fights(make):
    sc = make(
        """
    ##########
    #0.......#
    #...b....#
    #1.......#
    ##########
    """,
        (3, 8),
        dice=["sword_skull"],
    )
    sc.do("roll", "step (1,2)")  # (2,3)... the bat at (2,4) is diagonal to (1,3), not to (1,2)
    assert sc.phase == "END"
    sc2 = make(
        """
    ##########
    #.0......#
    #...b....#
    #1.......#
    ##########
    """,
        (3, 8),
        dice=["sword_skull"],
    )
    sc2.do("roll", "step (1,3)")  # (1,3) is diagonal to the bat at (2,4)
    assert sc2.phase == "END"


# -- HE-6.9 move back ------------------------------------------------------------------------------
ROOM = """
#########
#S......#
#...0b..#
#.......#
#1.....L#
#########
"""


def test_HE_6_10_turn_starting_next_to_a_monster_fights_without_rolling(make):
    sc = make(ROOM, (4, 7), dice=["sword"])
    assert sc.legal() == ["fight Bat (2,5)"]
    sc.do("fight Bat (2,5)")
    assert sc.kills(0) == 1 and sc.phase == "END"


def test_HE_6_9_controller_chooses_when_several_spaces_qualify(make):
    sc = make(ROOM, (4, 7), dice=["skull"])
    sc.do("fight Bat (2,5)")
    # not entered from anywhere this turn: (1,4), (2,3), (3,4) are all farther from the bat
    assert sc.phase == "MOVE_BACK" and sc.seat == 0
    assert set(sc.legal()) == {"move back to (1,4)", "move back to (2,3)", "move back to (3,4)"}
    sc.do("move back to (3,4)")
    assert sc.pos(0) == (3, 4) and sc.phase == "END"


def test_HE_6_9_prefers_the_space_entered_from(make):
    sc = make(ROOM.replace("#...0b..#", "#..0.b..#"), (4, 7), dice=["sword_skull", "skull"])
    sc.do("roll", "step (2,4)", "fight Bat (2,5)")
    assert sc.pos(0) == (2, 3) and sc.phase == "END"


def test_HE_6_9_move_back_skips_heroes_monsters_chests_and_picks_up_items(make):
    sc = make(
        """
    ########
    #S.c...#
    #.10b..#
    #..l...#
    #.....L#
    ########
    """,
        (4, 6),
        dice=["skull"],
    )
    sc.do("fight Bat (2,4)")
    # (2,2) holds a Hero, (1,3) a chest: only (3,3) qualifies, and its potion is picked up
    assert sc.pos(0) == (3, 3) and sc.hero(0, "life_potions") == 1 and sc.piece(3, 3) == ""


def test_HE_6_9_no_space_to_move_back_stays(make):
    sc = make(
        """
    ########
    #0b....#
    ####.#.#
    #1....L#
    ########
    """,
        (3, 6),
        dice=["skull"],
    )
    sc.do("fight Bat (1,2)")
    assert sc.pos(0) == (1, 1) and sc.health(0) == 3 and sc.phase == "END"


# -- HE-7 skills ---------------------------------------------------------------------------------
def test_HE_7_1_melee_skill_only_on_a_fight_shield(make):
    sc = _to_fight(make, ["sword"])
    assert "use skill" not in sc.legal()
    sc2 = make(LINE.replace("{m}", "b"), FAR, dice=["shield"])
    sc2.do("roll")
    assert "use skill" not in sc2.legal()  # Barbarian: melee, not on a movement Shield


def test_HE_7_1_ranged_skill_only_on_a_movement_shield(make):
    sc = make(LINE.replace("{m}", "b"), FAR, heroes=["wizard", "thief"], dice=["sword"])
    sc.do("roll")
    assert "use skill" not in sc.legal()
    sc = make(LINE.replace("{m}", "b"), FAR, heroes=["wizard", "thief"], dice=["shield"])
    sc.do("roll")
    assert "use skill" in sc.legal()
    sc.do("step (1,2)")
    assert "use skill" not in sc.legal()  # instead of moving, not after a step


def test_HE_7_2_barbarian_defeats_all_adjacent_then_optional_step(make):
    sc = make(TWO.replace("#0..b.....#", "#0..bl....#"), (3, 9), dice=["skull", "shield"])
    sc.do("roll", "step (1,2)", "step (1,3)", "fight Bat (1,4)", "use skill")
    assert sc.kills(0, "bat") == 1 and sc.kills(0, "guardian") == 1
    assert sc.phase == "SKILL_STEP"
    assert set(sc.legal()) == {"step (1,4)", "step (1,2)", "step (2,3)", "stay"}
    sc.do("step (1,4)")  # 1 step only; it follows HE-5, so nothing further is triggered here
    assert sc.pos(0) == (1, 4) and sc.phase == "END"
    assert not any(a.startswith("step") for a in sc.legal())


def test_HE_7_2_barbarian_step_can_start_a_new_fight(make):
    sc = make(TWO.replace("#0..b.....#", "#0..bg....#"), (3, 9), dice=["skull", "shield", "sword"])
    sc.do("roll", "step (1,2)", "step (1,3)", "fight Bat (1,4)", "use skill")
    assert sc.kills(0) == 2  # the bat and the Guardian at (2,3); (1,5) is not adjacent
    sc.do("step (1,4)")  # the step follows HE-5: next to the Guardian at (1,5) -> fight
    assert sc.phase == "FIGHT_CHOOSE" and sc.legal() == ["fight Golem Guardian (1,5)"]
    sc.do("fight Golem Guardian (1,5)")
    assert sc.kills(0) == 3


def test_HE_7_2_barbarian_may_stay(make):
    sc = _to_fight(make, ["shield"])
    sc.do("fight Bat (1,4)", "use skill", "stay")
    assert sc.pos(0) == (1, 3) and sc.kills(0) == 1 and sc.phase == "END"


WIZ = """
#########
#0..#...#
###.#...#
###b....#
###.g...#
#1.....L#
#########
"""


def test_HE_7_3_wizard_range_4_around_corners_does_not_move(make):
    sc = make(WIZ, (5, 7), heroes=["wizard", "thief"], dice=["shield"])
    sc.do("roll", "use skill")
    # the bat is 4 steps away around a corner; the Guardian is behind it (monsters block)
    assert sc.legal() == ["defeat Bat (3,3)"]
    sc.do("defeat Bat (3,3)")
    assert sc.kills(0, "bat") == 1 and sc.pos(0) == (1, 1) and sc.phase == "END"


def test_HE_7_3_wizard_out_of_range_at_5(make):
    sc = make(
        WIZ.replace("###b....#", "###.....#").replace("###.g...#", "###b....#"),
        (5, 7),
        heroes=["wizard", "thief"],
        dice=["shield"],
    )
    sc.do("roll")
    assert "use skill" not in sc.legal()


def test_HE_7_3_wizard_blocked_by_rocks_but_crosses_heroes(make):
    sc = make(
        WIZ.replace("###.#...#", "###R#...#"), (5, 7), heroes=["wizard", "thief"], dice=["shield"]
    )
    sc.do("roll")
    assert "use skill" not in sc.legal()
    sc = make(WIZ.replace("#0..#", "#01.#"), (5, 7), heroes=["wizard", "thief"], dice=["shield"])
    sc.do("roll", "use skill")
    assert sc.legal() == ["defeat Bat (3,3)"]


def test_HE_7_4_thief_defeats_and_takes_gold(make):
    sc = _to_fight(make, ["shield"], heroes=["thief", "wizard"])
    sc.do("fight Bat (1,4)")
    assert set(sc.legal()) == {"defeat", "use skill"}
    sc.do("use skill")
    assert sc.kills(0, "bat") == 1 and sc.gold(0) == 1 and sc.phase == "END"


# -- HE-9 healing --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "face, health", [("shield", 4), ("sword", 3), ("skull", 2), ("sword_skull", 1)]
)
def test_HE_9_2_healing_roll(make, face, health):
    sc = make(LINE.replace("{m}", "."), FAR, hero_state={0: {"health": 0}}, dice=[face])
    assert sc.hero(0, "healing") == 1 and sc.legal() == ["roll"]
    sc.do("roll")
    assert sc.health(0) == health and sc.pos(0) == (1, 1) and sc.phase == "END"
    assert sc.hero(0, "healing") == (0 if health == 4 else 1)


def test_HE_9_3_heal_once_per_turn_until_full_then_move(make):
    sc = make(
        LINE.replace("{m}", "."),
        FAR,
        hero_state={0: {"health": 0}},
        dice=["skull", "sword", "sword", "sword", "sword"],
    )
    sc.do("roll", "end turn")
    sc.do("roll", "end move", "end turn")  # seat 1
    assert sc.health(0) == 2 and sc.hero(0, "healing") == 1
    sc.do("roll", "end turn")  # 2 + 3 -> 4 (max): full
    assert sc.health(0) == 4 and sc.hero(0, "healing") == 0
    sc.do("roll", "end move", "end turn")
    sc.do("roll")
    assert sc.phase == "MOVE"  # the next turn is a normal move


def test_HE_9_4_no_healing_roll_unless_all_health_lost(make):
    sc = make(LINE.replace("{m}", "."), FAR, hero_state={0: {"health": 1}}, dice=["shield"])
    sc.do("roll")
    assert sc.phase == "MOVE" and sc.health(0) == 1


def test_HE_9_4_healing_hero_may_shop_and_drink(make):
    sc = make(
        LINE.replace("{m}", "."),
        FAR,
        hero_state={0: {"health": 0, "gold": 3, "life_potions": 1}},
        dice=["sword_skull"],
    )
    assert {"roll", "buy axe", "drink life"} <= set(sc.legal())
    sc.do("drink life")
    assert sc.health(0) == 2 and sc.hero(0, "healing") == 1  # still healing: not full
    sc.do("roll")
    assert sc.health(0) == 3 and sc.phase == "END"
