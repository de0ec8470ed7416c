"""Heroica modes: Epic Heroica (HE-18), the Scepter of Summoning (HE-19), Battle Heroica (HE-20)."""

from __future__ import annotations

import textwrap

import pytest

from envs.core.dice import ScriptedDice
from envs.heroica.data.mission import mission_from_text
from envs.heroica.rules import HeroicaGame
from envs.heroica.state import HeroField


# -- Epic Heroica (HE-18) -----------------------------------------------------------------------
def _mission(mid: str, rows: str, target: tuple[int, int]):
    body = "\n".join("  " + r for r in textwrap.dedent(rows).strip().splitlines())
    return mission_from_text(
        f"id: {mid}\nname: {mid}\ndescription: test\n"
        f"target: [{target[0]}, {target[1]}]\nmap: |\n{body}\n"
    )


MISSION_A = _mission(
    "a",
    """
########
#S.lt.b#
#......#
########
""",
    (2, 6),
)
MISSION_B = _mission(
    "b",
    """
#######
#S....#
#######
""",
    (1, 5),
)


@pytest.fixture
def epic(wrap):
    def build(dice, num_players=2, missions=(MISSION_A, MISSION_B)):
        game = HeroicaGame(mission=list(missions), num_players=num_players)
        return wrap(game, game.new_state(dice=ScriptedDice(dice)))

    return build


def patch(sc, seat: int, **fields):
    """Edit a Hero's Pack through the public JSON round trip (to_dict / from_dict)."""
    data = sc.game.to_dict(sc.state)
    for name, value in fields.items():
        data["heroes"][seat][HeroField[name.upper()]] = value
    sc.state = sc.game.from_dict(data)


def _win_mission_a(sc):
    """Seat 0 picks up the potion and torch, defeats the bat, then walks onto the target."""
    sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")
    assert sc.hero(0, "torch") == 1 and sc.hero(0, "life_potions") == 1
    sc.do("step (1,5)", "fight Bat (1,6)", "end turn")
    sc.do("roll", "end move", "end turn")  # seat 1 alone on the Start: stays
    patch(sc, 0, health=2, weapons=1)  # hurt, and holding the first weapon
    sc.do("roll", "step (1,6)", "step (2,6)")


def test_HE_18_2_4_next_mission_keeps_gold_potions_weapons_resets_the_rest(epic):
    sc = epic(["shield", "sword", "sword", "sword"])
    _win_mission_a(sc)
    assert sc.d["mission"] == 1 and sc.phase == "START" and sc.seat == 0
    assert sc.d["mission_winners"] == [0] and sc.hero(0, "missions_won") == 1
    assert sc.health(0) == 4  # HE-18.2 full Health
    assert sc.hero(0, "life_potions") == 1 and sc.hero(0, "weapons") == 1  # HE-18.4 kept
    assert sc.hero(0, "torch") == 0 and sc.kills(0) == 0  # torch and monsters returned
    assert sc.gold(0) == 1  # HE-18.3 the most defeated monsters: 1 gold
    assert sc.gold(1) == 0
    assert sc.pos(0) == (1, 1) and sc.pos(1) == (1, 1)  # both on mission B's Start


def test_HE_18_2_healing_ends_at_a_new_mission(epic):
    sc = epic(["shield", "sword", "sword", "sword"])
    sc.do(
        "roll",
        "step (1,2)",
        "step (1,3)",
        "step (1,4)",
        "step (1,5)",
        "fight Bat (1,6)",
        "end turn",
    )
    sc.do("roll", "end move", "end turn")
    patch(sc, 1, health=0, healing=1)
    sc.do("roll", "step (1,6)", "step (2,6)")
    assert sc.health(1) == 4 and sc.hero(1, "healing") == 0


def test_HE_18_3_tied_monster_counts_each_take_1_gold(epic):
    sc = epic(["sword"])
    patch(sc, 0, kills=1)
    data = sc.game.to_dict(sc.state)
    data["heroes"][1][HeroField.KILLS + 1] = 1  # seat 1: one Golem Guardian
    data["heroes"][0][HeroField.CELL] = sc.game.width * 2 + 4
    sc.state = sc.game.from_dict(data)
    sc.do("roll", "step (2,5)", "step (2,6)")
    assert sc.gold(0) == 1 and sc.gold(1) == 1


def test_HE_18_3_no_bonus_without_monsters(epic):
    sc = epic(["sword"])
    data = sc.game.to_dict(sc.state)
    data["heroes"][0][HeroField.CELL] = sc.game.width * 2 + 4
    sc.state = sc.game.from_dict(data)
    sc.do("roll", "step (2,5)", "step (2,6)")
    assert sc.gold(0) == 0 and sc.gold(1) == 0


def _to_mission_b(sc, won, gold):
    data = sc.game.to_dict(sc.state)
    for seat in range(sc.game.num_players):
        data["heroes"][seat][HeroField.MISSIONS_WON] = won[seat]
        data["heroes"][seat][HeroField.GOLD] = gold[seat]
    sc.state = sc.game.from_dict(data)


def test_HE_18_1_epic_winner_by_missions_then_gold_then_shared(epic):
    # Two one-corridor missions; seat 0 wins the first, seat 1 the second: 1-1, gold decides.
    corridor = _mission(
        "c",
        """
    ########
    #S.....#
    ########
    """,
        (1, 6),
    )
    for gold, winners, returns in [
        ((5, 2), [0], [1.0, -1.0]),
        ((2, 5), [1], [-1.0, 1.0]),
        ((3, 3), [0, 1], [0.0, 0.0]),
    ]:
        sc = epic(["shield", "sword", "shield", "shield", "shield"], missions=(corridor, corridor))
        sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)", "step (1,5)", "end turn")
        sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)")  # ends on no one
        sc.do("end turn")
        sc.do("roll", "step (1,6)")  # seat 0 wins mission 1 (no monsters: no bonus)
        assert sc.d["mission"] == 1 and sc.hero(0, "missions_won") == 1
        _to_mission_b(sc, won=(1, 0), gold=gold)
        sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)", "step (1,5)", "end turn")
        sc.do("roll", "step (1,2)", "step (1,3)", "step (1,4)", "step (1,5)")
        assert sc.phase == "FORWARD"  # ended on seat 0 (HE-5.6): forward onto the target
        sc.do("step (1,6)")
        assert sc.phase == "GAME_OVER" and sc.d["mission_winners"] == [0, 1]
        assert sc.winners == winners and sc.returns() == returns


# -- Scepter of Summoning (HE-19) -----------------------------------------------------------------
SCEPTER = """
##########
#0.P.....#
#.......R#
#1..l...L#
##########
"""


def test_HE_19_1_scepter_picked_up_like_an_item(make):
    sc = make(SCEPTER, (3, 8), dice=["skull"])
    sc.do("roll", "step (1,2)", "step (1,3)")
    assert sc.hero(0, "scepter") == 1 and sc.piece(1, 3) == ""


def test_HE_19_3_summon_a_monster_from_another_pack(make):
    sc = make(
        SCEPTER,
        (3, 8),
        hero_state={0: {"scepter": 1}, 1: {"kills": {"bat": 1, "guardian": 1}}},
        dice=["shield"],
    )
    sc.do("roll")
    assert "use scepter" in sc.legal()
    sc.do("use scepter")
    assert set(sc.legal()) == {"take bat from 1", "take guardian from 1"}
    sc.do("take guardian from 1")
    places = set(sc.legal())
    # empty = no Hero, monster, rocks or item
    for busy in ["(1,1)", "(3,1)", "(1,3)", "(2,8)", "(3,4)", "(3,8)"]:
        assert f"place monster {busy}" not in places
    assert "place monster (2,4)" in places
    sc.do("place monster (2,4)")
    assert sc.piece(2, 4) == "guardian" and sc.kills(1, "guardian") == 0 and sc.kills(1, "bat") == 1
    assert sc.pos(0) == (1, 1) and sc.phase == "END"  # instead of moving
    assert sc.hero(0, "scepter") == 1  # reusable


def test_HE_19_3_needs_a_shield_and_another_players_monster(make):
    sc = make(SCEPTER, (3, 8), hero_state={0: {"scepter": 1, "kills": {"bat": 2}}}, dice=["shield"])
    sc.do("roll")
    assert "use scepter" not in sc.legal()  # own monsters don't count
    sc = make(
        SCEPTER, (3, 8), hero_state={0: {"scepter": 1}, 1: {"kills": {"bat": 1}}}, dice=["sword"]
    )
    sc.do("roll")
    assert "use scepter" not in sc.legal()


def test_HE_19_3_summoned_monster_next_to_a_hero_is_fought_and_kept_by_the_defeater(make):
    sc = make(
        SCEPTER,
        (3, 8),
        hero_state={0: {"scepter": 1}, 1: {"kills": {"bat": 1}}},
        dice=["shield", "sword"],
    )
    sc.do("roll", "use scepter", "take bat from 1", "place monster (2,1)", "end turn")
    assert sc.legal() == ["fight Bat (2,1)"]  # HE-6.10: seat 1 starts next to it
    sc.do("fight Bat (2,1)")
    assert sc.kills(1, "bat") == 1


def test_HE_19_2_sell_the_scepter_for_2(make):
    sc = make(SCEPTER, (3, 8), hero_state={0: {"scepter": 1}}, dice=[])
    sc.do("sell scepter")
    assert sc.gold(0) == 2 and sc.hero(0, "scepter") == 0 and "sell scepter" not in sc.legal()


def test_HE_19_2_scepter_kept_between_missions(epic):
    sc = epic(["sword"])
    data = sc.game.to_dict(sc.state)
    data["heroes"][0][HeroField.CELL] = sc.game.width * 2 + 4
    data["heroes"][0][HeroField.SCEPTER] = 1
    sc.state = sc.game.from_dict(data)
    sc.do("roll", "step (2,5)", "step (2,6)")
    assert sc.d["mission"] == 1 and sc.hero(0, "scepter") == 1


# -- Battle Heroica (HE-20) ------------------------------------------------------------------------
ARENA = """
#########
#0......#
#.......#
#...b...#
#......L#
#########
"""


def battle(make, dice, map_text=ARENA, turn=1, target=(4, 7), **kw):
    return make(map_text, target, battle=True, dice=dice, turn=turn, **kw)


def test_HE_20_1_2_monster_player_is_the_last_seat_and_plays_last(make):
    sc = battle(make, ["sword", "sword_skull"], turn=0)
    assert sc.game.num_players == 2 and sc.game.player_names[1] == "Monster Player"
    sc.do("roll", "end move", "end turn")
    assert sc.seat == 1 and sc.phase == "MONSTER_SELECT"
    assert set(sc.legal()) == {"select Bat (3,4)", "select Golem Lord (4,7)"}
    sc.do("select Golem Lord (4,7)", "step (4,6)")
    assert sc.seat == 0 and sc.d["round"] == 1  # the round ends after the Monster Player


def test_HE_20_4_move_a_monster_up_to_the_roll(make):
    sc = battle(make, ["skull"])
    sc.do("select Bat (3,4)", "step (3,5)")
    assert sc.phase == "MONSTER_MOVE" and sc.can("end move")
    sc.do("step (3,6)")
    assert sc.piece(3, 6) == "bat" and sc.piece(3, 4) == "" and sc.seat == 0


def test_HE_20_4_shield_moves_up_to_4(make):
    sc = battle(make, ["shield"])
    sc.do("select Bat (3,4)", "step (3,3)", "step (3,2)", "step (3,1)", "step (4,1)")
    assert sc.piece(4, 1) == "bat" and sc.seat == 0


def test_HE_20_4_monsters_pass_monsters_and_items(make):
    sc = battle(
        make,
        ["sword"],
        map_text="""
    #########
    #0......#
    #.......#
    #.b.lg..#
    #......L#
    #########
    """,
    )
    sc.do("select Bat (3,2)", "step (3,3)", "step (3,4)", "step (3,5)")  # over potion, Guardian
    # ended on the Guardian: HE-20.5 forward to the first available space
    # (the nearest available spaces tie; the Monster Player picks, as HE-5.6's default)
    assert sc.phase == "MONSTER_FORWARD"
    assert set(sc.legal()) == {"step (2,5)", "step (3,6)", "step (4,5)"}
    sc.do("step (3,6)")
    assert (
        sc.piece(3, 6) == "bat" and sc.piece(3, 4) == "life_potion" and sc.piece(3, 5) == "guardian"
    )


def test_HE_20_4_monsters_do_not_pass_heroes_or_rocks(make):
    sc = battle(
        make,
        ["sword"],
        map_text="""
    #########
    #S......#
    #.......#
    #Rb0....#
    #......L#
    #########
    """,
        hero_state={0: {"health": 0}},
    )  # healing: no forced fight, but still blocks
    sc.do("select Bat (3,2)")
    assert set(sc.legal()) == {"step (2,2)", "step (4,2)", "end move"}


def test_HE_20_5_monster_ending_on_an_item_moves_forward(make):
    sc = battle(make, ["sword_skull"], map_text=ARENA.replace("#...b...#", "#...bl..#"))
    sc.do("select Bat (3,4)", "step (3,5)")
    assert sc.phase == "MONSTER_FORWARD" and sc.piece(3, 5) == "life_potion"
    sc.do("step (3,6)")
    assert sc.piece(3, 6) == "bat" and sc.piece(3, 5) == "life_potion"  # not picked up
    assert sc.seat == 0


def test_HE_20_6_forced_stop_next_to_a_hero_and_fight(make):
    sc = battle(make, ["shield", "skull"], map_text=ARENA.replace("#0......#", "#..0....#"))
    sc.do("select Bat (3,4)", "step (3,3)")
    # (2,3) would be next to the Hero at (1,3): the monster must stop and fight
    sc.do("step (2,3)")
    assert sc.piece(2, 3) == "" and sc.kills(0, "bat") == 1  # Skull: the monster is defeated
    assert sc.seat == 0 and sc.health(0) == 4


def test_HE_20_6_healing_hero_forces_no_stop_and_cannot_be_fought(make):
    sc = battle(
        make,
        ["shield"],
        map_text=ARENA.replace("#0......#", "#..0....#"),
        hero_state={0: {"health": 0}},
    )
    sc.do("select Bat (3,4)", "step (3,3)", "step (2,3)")
    assert sc.phase == "MONSTER_MOVE"  # no stop next to a healing Hero
    sc.do("end move")
    assert sc.health(0) == 0 and sc.seat == 0


def test_HE_20_4_monster_starting_next_to_a_hero_fights_without_moving(make):
    sc = battle(
        make,
        ["sword"],
        map_text=ARENA.replace("#.......#\n#...b", "#...0...#\n#...b").replace(
            "#0......#", "#S......#"
        ),
    )
    sc.do("select Bat (3,4)")
    assert sc.health(0) == 3 and sc.piece(3, 4) == "bat"  # Sword: Hero hurt, no move roll


@pytest.mark.parametrize(
    "face, health, monster_left, moved_back",
    [
        ("shield", 2, True, True),  # strength + 1 and move back
        ("sword", 3, True, True),  # strength and move back
        ("skull", 4, False, False),  # monster defeated
        ("sword_skull", 3, False, True),  # both
    ],
)
def test_HE_20_7_fight_table(make, face, health, monster_left, moved_back):
    sc = battle(
        make,
        [face],
        map_text="""
    ##########
    #S..0b...#
    #####.####
    #.......L#
    ##########
    """,
        target=(3, 8),
    )
    sc.do("select Bat (1,5)")
    assert sc.health(0) == health
    assert (sc.piece(1, 5) == "bat") == monster_left
    assert sc.pos(0) == ((1, 3) if moved_back else (1, 4))
    if not monster_left:
        assert sc.kills(0, "bat") == 1  # onto the fought Hero's Pack


def test_HE_16_1_a_monster_player_fight_that_moves_a_hero_back_onto_the_target_ends_the_game(make):
    """HE-20.7 moves the Hero back (HE-6.9) onto the target space: HE-16.1 ends Battle Heroica
    there, with that Hero the winner; the Monster Player's turn does not go on (it used to,
    leaving a finished game's winners in a running game)."""
    sc = battle(
        make,
        ["sword"],
        map_text="""
    ##########
    #S..0b...#
    #####.####
    #.......L#
    ##########
    """,
        target=(1, 3),
    )
    sc.do("select Bat (1,5)")
    assert sc.pos(0) == (1, 3)
    assert sc.phase == "GAME_OVER" and sc.winners == [0]
    assert sc.game.from_json(sc.game.to_json(sc.state)).phase.name == "GAME_OVER"


def test_HE_20_7_hero_chooses_where_to_move_back_and_cannot_drink(make):
    sc = battle(
        make,
        ["sword"],
        map_text=ARENA.replace("#.......#\n#...b", "#...0...#\n#...b").replace(
            "#0......#", "#S......#"
        ),
        hero_state={0: {"life_potions": 1}},
    )
    sc.do("select Bat (3,4)")
    assert sc.phase == "MOVE_BACK" and sc.seat == 0 and sc.health(0) == 3
    # HE-10.1: the Hero decides here, but it is not its own turn: no potion
    assert set(sc.legal()) == {"move back to (1,4)", "move back to (2,3)", "move back to (2,5)"}
    sc.do("move back to (2,5)")
    assert sc.pos(0) == (2, 5) and sc.seat == 0 and sc.phase == "START"


def test_HE_20_3_monster_player_wins_after_two_defeats(make):
    fight_next = ARENA.replace("#.......#\n#...b", "#...0...#\n#...b").replace(
        "#0......#", "#S......#"
    )
    sc = battle(make, ["sword"], map_text=fight_next, hero_state={0: {"health": 1}})
    sc.do("select Bat (3,4)")
    assert sc.health(0) == 0 and sc.d["monster_player_defeats"] == 1 and sc.phase == "MOVE_BACK"
    sc2 = battle(make, ["sword"], map_text=fight_next, hero_state={0: {"health": 1}})
    data = sc2.game.to_dict(sc2.state)
    data["monster_player_defeats"] = 1  # one Hero was defeated by monsters before
    sc2.state = sc2.game.from_dict(data)
    sc2.do("select Bat (3,4)")
    assert sc2.phase == "GAME_OVER" and sc2.winners == [1] and sc2.returns() == [-1.0, 1.0]


def test_HE_20_3_same_hero_twice_counts(make):
    lord_next = ARENA.replace("#.......#\n#...b", "#...0...#\n#...L").replace(
        "#0......#", "#S......#"
    )
    sc = battle(
        make,
        ["sword", "shield", "sword", "shield"],
        map_text=lord_next,
        hero_state={0: {"health": 1}},
    )
    sc.do("select Golem Lord (3,4)", "move back to (1,4)")  # Sword: 3 damage -> defeated
    assert sc.hero(0, "defeated_by_monsters") == 1
    sc.do("roll", "end turn")  # healing Shield: full Health
    assert sc.health(0) == 4 and sc.seat == 1
    sc.do("select Golem Lord (3,4)", "step (2,4)")  # must stop next to the Hero; Shield: 3 + 1
    assert sc.health(0) == 0 and sc.hero(0, "defeated_by_monsters") == 2
    assert sc.phase == "GAME_OVER" and sc.winners == [1]


def test_HE_20_3_traps_do_not_count(make):
    sc = battle(
        make,
        ["skull", "skull"],
        turn=0,
        map_text=ARENA.replace("#0......#", "#0c.....#"),
        hero_state={0: {"health": 1}},
    )
    sc.do("roll", "step (1,2)")
    assert sc.health(0) == 0 and sc.d["monster_player_defeats"] == 0


def test_HE_20_4_no_monsters_turn_skipped(make):
    sc = battle(
        make,
        ["sword", "sword"],
        turn=0,
        map_text="""
    #######
    #0....#
    #.....#
    #######
    """,
        target=(2, 5),
    )
    sc.do("roll", "end move", "end turn")
    assert sc.seat == 0 and sc.d["round"] == 1


def test_HE_4_2_battle_round_cap_draw_after_the_monster_turn_is_an_event(make):
    # The round ends after the Monster Player's turn; at the cap the mission is a draw, and
    # the decision that ended it reports the draw (it used to be dropped).
    sc = battle(make, ["skull"], max_rounds=1)
    events = sc.do("select Bat (3,4)", "step (3,5)", "step (3,6)")
    assert sc.phase == "GAME_OVER" and list(sc.game.returns(sc.state)) == [0.0, 0.0]
    assert [e.kind for e in events][-1] == "draw"
    assert "ends after 1 rounds without a winner" in events[-1].text


def test_HE_4_2_battle_round_cap_draw_is_in_the_transcript():
    from envs.transcript import transcript

    class MonsterFirst:
        """Ends every Hero turn at once, so the Monster Player's turn closes each round."""

        name = "quick"

        def act(self, game, state, rng):
            names = {game.action_to_string(state, a): a for a in game.legal_actions(state)}
            for wanted in ("end move", "end turn", "roll"):
                if wanted in names:
                    return names[wanted]
            return min(names.values())

    text = transcript(
        "heroica_v0",
        0,
        {"mission": "arena", "battle": True, "num_players": 2, "max_rounds": 2},
        bots=MonsterFirst(),
    )
    assert "mission 'Arena' ends after 2 rounds without a winner" in text
    assert "# returns: player_0 +0.000, player_1 +0.000" in text
