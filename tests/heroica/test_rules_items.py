"""Heroica rules: potions (HE-10), chests (HE-11), the shop and weapons (HE-12), torches (HE-14)."""

from __future__ import annotations

import pytest

LINE = """
############
#0..{m}......#
##########.#
#1.........#
############
"""
FAR = (3, 10)


def line(piece="."):
    return LINE.replace("{m}", piece)


# -- HE-10 potions -------------------------------------------------------------------------------
def test_HE_10_2_life_potion_restores_2_up_to_4(make):
    sc = make(line(), FAR, hero_state={0: {"health": 3, "life_potions": 2}}, dice=[])
    sc.do("drink life")
    assert sc.health(0) == 4 and sc.hero(0, "life_potions") == 1  # single use
    assert "drink life" not in sc.legal()  # full Health: nothing to restore
    sc2 = make(line(), FAR, hero_state={0: {"health": 1, "life_potions": 1}}, dice=[])
    sc2.do("drink life")
    assert sc2.health(0) == 3 and sc2.hero(0, "life_potions") == 0


def test_HE_10_1_life_potion_at_any_decision_point_of_own_turn(make):
    sc = make(
        line("b"), FAR, hero_state={0: {"health": 1, "life_potions": 3}}, dice=["shield", "skull"]
    )
    assert "drink life" in sc.legal()  # START
    sc.do("roll")
    assert "drink life" in sc.legal()  # MOVE, before the first step
    sc.do("step (1,2)")
    assert "drink life" in sc.legal()  # mid-move
    sc.do("step (1,3)")
    assert sc.phase == "FIGHT_CHOOSE" and "drink life" in sc.legal()  # before a fight roll
    sc.do("drink life")
    assert sc.health(0) == 3
    sc.do("fight Bat (1,4)")
    assert sc.phase == "END" and "drink life" in sc.legal()  # after the result is applied
    sc.do("end turn")
    assert sc.seat == 1 and "drink life" not in sc.legal()  # never on another player's turn


def test_HE_10_3_speed_potion_adds_4_only_while_moving(make):
    sc = make(line(), FAR, hero_state={0: {"speed_potions": 1}}, dice=["sword_skull"])
    assert "drink speed" not in sc.legal()  # START: no move yet
    sc.do("roll")
    assert sc.d["steps_left"] == 1 and "drink speed" in sc.legal()
    sc.do("drink speed")
    assert sc.d["steps_left"] == 5 and sc.hero(0, "speed_potions") == 0
    sc.do("step (1,2)", "step (1,3)", "step (1,4)", "step (1,5)", "step (1,6)")
    assert sc.pos(0) == (1, 6) and sc.phase == "END"
    assert "drink speed" not in sc.legal()


def test_HE_10_3_speed_potion_cannot_override_a_stop(make):
    sc = make(line("b"), FAR, hero_state={0: {"speed_potions": 1}}, dice=["shield"])
    sc.do("roll", "step (1,2)", "step (1,3)")
    assert sc.phase == "FIGHT_CHOOSE" and "drink speed" not in sc.legal()


def test_HE_10_3_no_speed_potion_on_a_healing_turn(make):
    sc = make(line(), FAR, hero_state={0: {"health": 0, "speed_potions": 1}}, dice=["skull"])
    sc.do("roll")
    assert "drink speed" not in sc.legal()


# -- HE-11 chests --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "face, gold, health",
    [("shield", 2, 4), ("sword", 1, 4), ("skull", 0, 3), ("sword_skull", 1, 3)],
)
def test_HE_11_3_chest_faces(make, face, gold, health):
    sc = make(line("c"), FAR, dice=["shield", face])
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    # HE-11.1 must stop on the chest (2 of 4 steps unused) and search it; no move back
    assert sc.pos(0) == (1, 4) and sc.phase == "END"
    assert sc.gold(0) == gold and sc.health(0) == health
    assert sc.piece(1, 4) == ""  # the chest is removed


def test_HE_11_3_trap_can_defeat_and_drops_the_torch(make):
    sc = make(line("c"), FAR, hero_state={0: {"health": 1, "torch": 1}}, dice=["skull", "skull"])
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    assert sc.health(0) == 0 and sc.hero(0, "healing") == 1 and sc.hero(0, "torch") == 0


# -- HE-12 shop ----------------------------------------------------------------------------------
def test_HE_12_1_buy_for_3_sell_for_2(make):
    sc = make(line(), FAR, hero_state={0: {"gold": 4}}, dice=["sword"])
    assert {"buy axe", "buy wand", "buy staff", "buy bow", "buy dagger", "buy sword"} <= set(
        sc.legal()
    )
    sc.do("buy axe")
    assert sc.gold(0) == 1 and sc.weapons(0) == {"axe"} and "axe" not in sc.store()
    assert not any(a.startswith("buy") for a in sc.legal())  # 1 gold: can't buy
    sc.do("sell axe")
    assert sc.gold(0) == 3 and sc.weapons(0) == set() and "axe" in sc.store()


def test_HE_12_1_cannot_buy_without_enough_gold(make):
    sc = make(line(), FAR, hero_state={0: {"gold": 2}}, dice=[])
    assert not any(a.startswith("buy") for a in sc.legal())


def test_HE_12_1_shop_at_start_and_end_not_while_moving(make):
    sc = make(line(), FAR, hero_state={0: {"gold": 6}}, dice=["sword"])
    sc.do("roll")
    assert not any(a.startswith("buy") for a in sc.legal())
    sc.do("end move")
    assert "buy bow" in sc.legal()
    sc.do("buy bow", "buy wand", "end turn")
    assert sc.weapons(0) == {"bow", "wand"}


def test_HE_12_5_one_copy_of_each_weapon(make):
    sc = make(line(), FAR, hero_state={0: {"gold": 9}, 1: {"weapons": ["bow"]}}, dice=[])
    assert "buy bow" not in sc.legal() and "buy axe" in sc.legal()
    sc.do("buy axe")
    assert "buy axe" not in sc.legal() and "sell axe" in sc.legal()


# -- HE-12.4 weapons -----------------------------------------------------------------------------
BOW = """
##########
#0....b..#
#.####...#
#.b..#...#
#1.......#
##########
"""


def test_HE_12_4_bow_straight_line_up_to_5(make):
    sc = make(BOW, (4, 8), hero_state={0: {"weapons": ["bow"]}}, dice=["shield"])
    sc.do("roll")
    assert "use bow" in sc.legal()
    sc.do("use bow")
    assert sc.legal() == ["defeat Bat (1,6)"]  # 5 in a row; (3,2) is not in a straight line
    sc.do("defeat Bat (1,6)")
    assert sc.kills(0, "bat") == 1 and sc.pos(0) == (1, 1) and sc.phase == "END"


def test_HE_12_4_bow_not_beyond_5_and_blocked_by_rocks(make):
    far = BOW.replace("#0....b..#", "#0.....b.#")
    sc = make(far, (4, 8), hero_state={0: {"weapons": ["bow"]}}, dice=["shield"])
    sc.do("roll")
    assert "use bow" not in sc.legal()  # 6 away
    rocks = BOW.replace("#0....b..#", "#0..R.b..#")
    sc = make(rocks, (4, 8), hero_state={0: {"weapons": ["bow"]}}, dice=["shield"])
    sc.do("roll")
    assert "use bow" not in sc.legal()


def test_HE_12_4_wand_range_3_around_corners(make):
    sc = make(
        """
    #######
    #0.#..#
    ##.#..#
    ##b...#
    #1...L#
    #######
    """,
        (4, 5),
        hero_state={0: {"weapons": ["wand"]}},
        dice=["shield"],
    )
    sc.do("roll", "use wand")
    assert sc.legal() == ["defeat Bat (3,2)"]  # (1,2),(2,2),(3,2): 3 steps with a turn
    sc = make(
        """
    #######
    #0.#..#
    ##.#..#
    ##....#
    ##b...#
    #1...L#
    #######
    """,
        (5, 5),
        hero_state={0: {"weapons": ["wand"]}},
        dice=["shield"],
    )
    sc.do("roll")
    assert "use wand" not in sc.legal()  # 4 steps: out of range


def test_HE_12_4_staff_restores_up_to_2(make):
    sc = make(line(), FAR, hero_state={0: {"weapons": ["staff"], "health": 1}}, dice=["shield"])
    sc.do("roll", "use staff")
    assert sc.health(0) == 3 and sc.pos(0) == (1, 1) and sc.phase == "END"
    sc = make(line(), FAR, hero_state={0: {"weapons": ["staff"]}}, dice=["shield"])
    sc.do("roll")
    assert "use staff" not in sc.legal()  # full Health


def test_HE_12_4_sword_steps_then_defeats(make):
    sc = make(
        line("b").replace("#0..", "#.0."),
        FAR,
        hero_state={0: {"weapons": ["sword"]}},
        dice=["shield"],
    )
    sc.do("roll", "use sword")
    assert sc.legal() == ["step (1,3)"]  # only a step that ends next to a monster
    sc.do("step (1,3)")
    assert sc.legal() == ["defeat Bat (1,4)"]
    sc.do("defeat Bat (1,4)")
    assert sc.kills(0, "bat") == 1 and sc.pos(0) == (1, 3) and sc.phase == "END"


def test_HE_12_4_sword_chest_searched_after_the_kill_then_next_fight(make):
    sc = make(
        """
    ###########
    #.0cb.....#
    ###g#####.#
    #1........#
    ###########
    """,
        (3, 9),
        hero_state={0: {"weapons": ["sword"]}},
        dice=["shield", "shield", "sword"],
    )
    sc.do("roll", "use sword", "step (1,3)")
    assert set(sc.legal()) == {"defeat Bat (1,4)", "defeat Golem Guardian (2,3)"}
    sc.do("defeat Bat (1,4)")
    assert sc.gold(0) == 2 and sc.piece(1, 3) == ""  # chest searched after the kill
    assert sc.legal() == ["fight Golem Guardian (2,3)"]  # other adjacent monsters: HE-6.7
    sc.do("fight Golem Guardian (2,3)")
    assert sc.kills(0) == 2


def test_HE_12_4_axe_defeats_all_adjacent_without_moving(make):
    sc = make(
        """
    ###########
    #0..b.....#
    ###g#####.#
    #1........#
    ###########
    """,
        (3, 9),
        hero_state={0: {"weapons": ["axe"]}},
        dice=["skull", "shield"],
    )
    sc.do("roll", "step (1,2)", "step (1,3)", "fight Bat (1,4)")
    assert set(sc.legal()) == {"defeat", "use skill", "use axe"}  # HE-12.3 one of them
    sc.do("use axe")
    assert sc.kills(0) == 2 and sc.pos(0) == (1, 3) and sc.phase == "END"


def test_HE_12_4_dagger_defeats_and_takes_gold(make):
    sc = make(line("b"), FAR, hero_state={0: {"weapons": ["dagger"]}}, dice=["skull", "shield"])
    sc.do("roll", "step (1,2)", "step (1,3)", "fight Bat (1,4)", "use dagger")
    assert sc.kills(0, "bat") == 1 and sc.gold(0) == 1


def test_HE_12_3_one_skill_per_shield(make):
    sc = make(
        BOW,
        (4, 8),
        heroes=["wizard", "thief"],
        hero_state={0: {"weapons": ["bow", "wand"]}},
        dice=["shield"],
    )
    sc.do("roll", "use bow", "defeat Bat (1,6)")
    assert sc.phase == "END" and not any(a.startswith("use") for a in sc.legal())


# -- HE-14 torch ---------------------------------------------------------------------------------
@pytest.mark.parametrize("face, steps", [("sword", 4), ("shield", 5), ("sword_skull", 2)])
def test_HE_14_1_torch_adds_one_step(make, face, steps):
    sc = make(line(), FAR, hero_state={0: {"torch": 1}}, dice=[face])
    sc.do("roll")
    assert sc.d["steps_left"] == steps


def test_HE_14_1_torch_picked_up_mid_move_counts_at_once(make):
    sc = make(LINE.replace("#0..{m}", "#0t.."), FAR, dice=["skull"])
    sc.do("roll", "step (1,2)")
    assert sc.hero(0, "torch") == 1 and sc.d["steps_left"] == 2


def test_HE_14_2_only_one_torch(make):
    sc = make(LINE.replace("#0..{m}", "#0t.."), FAR, hero_state={0: {"torch": 1}}, dice=["skull"])
    sc.do("roll", "step (1,2)")
    assert sc.hero(0, "torch") == 1 and sc.piece(1, 2) == "torch"  # it stays on its space
    assert sc.d["steps_left"] == 2  # 2 + 1 (own torch) - 1 step


def test_HE_14_3_torch_dropped_on_damage(make):
    sc = make(line("b"), FAR, hero_state={0: {"torch": 1}}, dice=["sword_skull", "skull"])
    sc.do("roll", "step (1,2)", "step (1,3)", "fight Bat (1,4)")
    assert sc.health(0) == 3 and sc.hero(0, "torch") == 0


# -- HE-12.6 the Store's gold ------------------------------------------------------------------
def test_HE_12_6_default_store_gold_is_unlimited(make):
    sc = make(line("c"), FAR, dice=["shield", "shield"])
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    assert sc.gold(0) == 2 and sc.d["store_gold"] == -1


def test_HE_12_6_finite_store_pays_at_most_its_stock(make):
    sc = make(line("c"), FAR, dice=["shield", "shield"], store_gold=1)
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    assert sc.gold(0) == 1 and sc.d["store_gold"] == 0  # owed 2, the Store had 1


def test_HE_12_6_finite_store_refuses_a_sale_it_cannot_pay(make):
    sc = make(line(), FAR, hero_state={0: {"gold": 3, "weapons": ["bow"]}}, dice=[], store_gold=1)
    assert "sell bow" not in sc.legal()  # the Bow sells for 2
    sc.do("buy axe")  # buying pays the Store: 1 + 3
    assert sc.d["store_gold"] == 4 and "sell bow" in sc.legal()
    sc.do("sell bow")
    assert sc.gold(0) == 2 and sc.d["store_gold"] == 2
