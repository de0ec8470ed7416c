"""The rule flags of envs.heroclix.flags: HC-4.21 and HC-6.15 both ways (their defaults are
on), each other flag's non-default behaviour (envs/heroclix/RULES.md P-SPD-2, P-SPD-3,
P-ATT-5, P-ATT-7, P-DMG-3), and bad flag values."""

from __future__ import annotations

import pytest

from envs import make
from envs.core.game import OptionError

LEAP = ("leap_climb", None, None, None)
PHASE = ("phasing", None, None, None)
SUPPORT = (None, None, None, "support")
PSYCHIC = (None, "psychic_blast", None, None)
STRONG = (None, "super_strength", None, None)
TK = (None, "telekinesis", None, None)


def plain(H, name, **kw):
    return H.fig(name.lower().replace(" ", "_"), name, **kw)


def duel(H, a, b, a_at=(5, 5), b_at=(5, 6), extra0=(), extra1=(), placements=None, **kw):
    place = {a["name"]: a_at, b["name"]: b_at, **(placements or {})}
    return H.build([[a, *extra0], [b, *extra1]], place, **kw)


@pytest.mark.parametrize(
    "option, value",
    [("support_min_heal", 2), ("leapclimb_hits_soaring", 1), ("psychic_blast_ignores_lof", "yes")],
)
def test_flags_reject_values_outside_their_choices(option, value):
    with pytest.raises(OptionError, match=option):
        make("heroclix_v0", **{option: value})


def test_HC_4_21_an_adjacent_hovering_enemy_can_be_shot_by_default(H):
    shooter = plain(H, "Shooter", range=6)
    game, state = duel(H, shooter, plain(H, "Hover", flyer=True))
    assert H.ranged_targets(game, state, "Shooter") == {"Hover"}
    game, state = duel(H, shooter, plain(H, "Walker"))
    assert H.ranged_targets(game, state, "Shooter") == set()  # HC-4.16 for any other enemy


def test_HC_4_21_next_to_a_hovering_enemy_only_it_can_be_shot(H):
    # the exception is for the hovering target alone: a far enemy stays out of reach (HC-4.16)
    shooter = plain(H, "Shooter", range=6)
    game, state = duel(
        H,
        shooter,
        plain(H, "Hover", flyer=True),
        extra1=[plain(H, "Far")],
        placements={"Far": (5, 9)},
    )
    assert H.ranged_targets(game, state, "Shooter") == {"Hover"}
    game, state = duel(
        H,
        shooter,
        plain(H, "Hover", flyer=True),
        extra1=[plain(H, "Walker")],
        placements={"Walker": (4, 5)},
    )
    assert H.ranged_targets(game, state, "Shooter") == set()  # a walker is adjacent too


def test_HC_4_21_flag_off_adjacency_forbids_shooting_a_hovering_enemy(H):
    shooter = plain(H, "Shooter", range=6)
    game, state = duel(
        H,
        shooter,
        plain(H, "Hover", flyer=True),
        options={"hover_adjacent_ranged_exception": False},
    )
    assert H.ranged_targets(game, state, "Shooter") == set()  # HC-4.16 prevails [2002]


@pytest.mark.parametrize("flag, reaches", [(None, False), (True, False), (False, True)])
def test_HC_6_15_the_5_square_hurl_limit_applies_to_hovering_flyers(H, flag, reaches):
    mover = plain(H, "Mover", powers=TK)
    hover = plain(H, "Hover", flyer=True)
    options = {} if flag is None else {"tk_flyer_limit_includes_hover": flag}
    game, state = duel(
        H,
        mover,
        hover,
        a_at=(5, 0),
        b_at=(5, 8),
        objects={"table": (5, 1)},
        dice=None,
        options=options,
    )
    H.select(game, state, "Mover")
    game.apply_string(state, "tk object (5,1)")
    hurls = [n for n in H.names(game, state) if n.startswith("tk hurl")]
    assert bool(hurls) is reaches  # 7 squares from the table: beyond 5, within 10


def test_HC_6_15_a_hovering_flyer_within_5_squares_can_be_hurled_at(H):
    mover = plain(H, "Mover", powers=TK)
    game, state = duel(
        H,
        mover,
        plain(H, "Hover", flyer=True),
        a_at=(5, 0),
        b_at=(5, 6),
        objects={"table": (5, 1)},
        dice=None,
    )
    H.select(game, state, "Mover")
    game.apply_string(state, "tk object (5,1)")
    assert any(n.startswith("tk hurl") for n in H.names(game, state))  # 5 squares


def test_P_SPD_2_flag_leap_climb_ignores_characters(H):
    game, state = duel(
        H, plain(H, "Leaper", powers=LEAP), plain(H, "Foe"), a_at=(5, 2), b_at=(5, 6)
    )
    assert (5, 8) not in H.dests(game, state, "Leaper")  # stops next to Foe by default
    game, state = duel(
        H,
        plain(H, "Leaper", powers=LEAP),
        plain(H, "Foe"),
        a_at=(5, 2),
        b_at=(5, 6),
        options={"leapclimb_ignores_characters": True},
    )
    assert (5, 8) in H.dests(game, state, "Leaper")


def test_P_SPD_2_flag_leap_climb_hits_soaring_figures(H):
    soarer = plain(H, "Soarer", flyer=True)
    game, state = duel(
        H, plain(H, "Leaper", powers=LEAP), soarer, placements={"Soarer": (5, 6, "soar")}
    )
    assert H.close_targets(game, state, "Leaper") == set()
    game, state = duel(
        H,
        plain(H, "Leaper", powers=LEAP),
        soarer,
        placements={"Soarer": (5, 6, "soar")},
        options={"leapclimb_hits_soaring": True},
    )
    assert H.close_targets(game, state, "Leaper") == {"Soarer"}


def test_P_SPD_3_flag_phasing_ignores_characters(H):
    game, state = duel(
        H,
        plain(H, "Phaser", powers=PHASE),
        plain(H, "Foe"),
        a_at=(5, 2),
        b_at=(5, 6),
        options={"phasing_ignores_characters": True},
    )
    assert (5, 7) in H.dests(game, state, "Phaser")  # through Foe's square and past it
    game, state = duel(
        H, plain(H, "Phaser", powers=PHASE), plain(H, "Foe"), a_at=(5, 2), b_at=(5, 6)
    )
    assert (5, 7) not in H.dests(game, state, "Phaser")


def test_P_ATT_5_flag_super_strength_adds_2_against_walls(H):
    strong = plain(H, "Strong", damage=1, powers=STRONG)
    walls = [((5, 5), (5, 6))]
    game, state = duel(H, strong, plain(H, "Foe"), b_at=(11, 11), walls=walls)
    assert not H.options_of(game, state, "Strong", "break")
    game, state = duel(
        H,
        strong,
        plain(H, "Foe"),
        b_at=(11, 11),
        walls=walls,
        options={"superstrength_2008_wall_bonus": True},
    )
    assert H.options_of(game, state, "Strong", "break") == {"break the east wall of (5,5)"}


def test_P_ATT_7_flag_psychic_blast_ignores_figures_in_the_way(H):
    mind = plain(H, "Mind", powers=PSYCHIC, range=6)
    kw = dict(b_at=(5, 9), extra0=[plain(H, "Blocker")], placements={"Blocker": (5, 7)})
    game, state = duel(H, mind, plain(H, "Foe"), **kw)
    assert not H.options_of(game, state, "Mind", "psychic")  # a friend blocks the line
    game, state = duel(
        H, mind, plain(H, "Foe"), options={"psychic_blast_ignores_lof": True}, dice=["3", "4"], **kw
    )
    H.select(game, state, "Mind")
    game.apply_string(state, "psychic blast Mind")
    game.apply_string(state, "psychic blast Mind -> Foe (5,9)")
    assert H.clicks(game, state, "Foe") == 2


def support_game(H, dice, **kw):
    medic = plain(H, "Medic", attack=5, powers=SUPPORT)
    return duel(
        H,
        medic,
        plain(H, "Foe"),
        b_at=(11, 11),
        extra0=[plain(H, "Pal", defense=14)],
        placements={"Pal": (5, 6), **kw.pop("placements", {})},
        clicks={"Pal": 3},
        dice=dice,
        **kw,
    )


def test_P_DMG_3_flag_support_rolls_against_the_friends_defense(H):
    game, state = support_game(H, ["4", "4", "6"], options={"support_vs_target_defense": True})
    H.select(game, state, "Medic")
    game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 3  # 8 + 5 = 13 < 14
    game, state = support_game(H, ["4", "5", "6"], options={"support_vs_target_defense": True})
    H.select(game, state, "Medic")
    game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 0  # 14 >= 14; heals 6 - 2 = 4, to the start


def test_P_DMG_3_flag_support_not_next_to_enemies(H):
    game, state = support_game(
        H, [], placements={"Foe": (4, 5)}, options={"support_no_adjacent_enemies": True}
    )
    assert not H.options_of(game, state, "Medic", "support")
    game, state = support_game(H, [], placements={"Foe": (4, 5)})
    assert H.options_of(game, state, "Medic", "support") == {"support Pal (5,6)"}


def test_P_DMG_3_flag_support_min_heal_1(H):
    game, state = support_game(H, ["3", "3", "1"], options={"support_min_heal": 1})
    H.select(game, state, "Medic")
    game.apply_string(state, "support Pal (5,6)")
    assert H.clicks(game, state, "Pal") == 2  # 1d6 - 2 = -1, raised to 1


# -- P-DMG-6 Probability Control (flag probability_control; its Default is off) -------------

PROB = (None, None, None, "probability_control")
PC_ON = {"probability_control": True}


def test_P_DMG_6_off_by_default_no_reroll_is_offered(H):
    game, state = duel(H, plain(H, "Seer", powers=PROB), plain(H, "Foe"), dice=["1", "2"])
    H.close(game, state, "Seer", "Foe")
    assert H.phase(game, state) == "ACTION"  # no question asked


def test_P_DMG_6_flag_reroll_your_own_roll_once_in_your_turn(H):
    game, state = duel(
        H, plain(H, "Seer", powers=PROB), plain(H, "Foe"), options=PC_ON, dice=["1", "2", "4", "4"]
    )
    events = H.close(game, state, "Seer", "Foe")
    assert "interrupt" in H.kinds(events)
    assert H.phase(game, state) == "INTERRUPT" and H.seat(game, state) == 0
    assert set(H.names(game, state)) == {"reroll the 3", "let the 3 stand"}
    game.apply_string(state, "reroll the 3")
    assert H.clicks(game, state, "Foe") == 2 and H.sq(game, state, "Foe") == (5, 8)  # 4+4


def test_P_DMG_6_flag_let_it_stand(H):
    game, state = duel(
        H, plain(H, "Seer", powers=PROB), plain(H, "Foe"), options=PC_ON, dice=["1", "2"]
    )
    H.close(game, state, "Seer", "Foe")
    game.apply_string(state, "let the 3 stand")
    assert H.clicks(game, state, "Foe") == 0 and H.phase(game, state) == "ACTION"


def test_P_DMG_6_flag_force_an_opponent_to_reroll_in_its_turn(H):
    game, state = duel(
        H,
        plain(H, "Hitter"),
        plain(H, "Seer", powers=PROB),
        options=PC_ON,
        dice=["4", "4", "1", "2"],
    )
    H.close(game, state, "Hitter", "Seer")
    assert H.phase(game, state) == "INTERRUPT" and H.seat(game, state) == 1
    game.apply_string(state, "reroll the 8")
    assert H.clicks(game, state, "Seer") == 0  # 1 + 2 + 9 < 16


def test_P_DMG_6_flag_needs_10_squares_and_line_of_fire(H):
    game, state = duel(
        H,
        plain(H, "Hitter"),
        plain(H, "Foe"),
        options=PC_ON,
        extra1=[plain(H, "Seer", powers=PROB)],
        placements={"Seer": (11, 11)},
        dice=["4", "4"],
        a_at=(0, 0),
        b_at=(0, 1),
    )
    H.close(game, state, "Hitter", "Foe")
    assert H.phase(game, state) == "ACTION"  # 11 squares away: no question


def test_P_DEF_7_flag_mastermind_passes_on_pushing_damage(H):
    boss = plain(H, "Boss", points=60, powers=(None, None, "mastermind", None))
    kw = dict(
        b_at=(11, 11),
        extra0=[plain(H, "Minion", points=15)],
        placements={"Minion": (6, 5)},
        tokens={"Boss": 1},
    )
    game, state = duel(H, boss, plain(H, "Foe"), **kw)
    H.move(game, state, "Boss", (5, 6))
    assert H.clicks(game, state, "Boss") == 1  # default: attacks and knockback only
    game, state = duel(H, boss, plain(H, "Foe"), options={"mastermind_pushing": True}, **kw)
    H.move(game, state, "Boss", (5, 6))
    assert H.phase(game, state) == "INTERRUPT"
    game.apply_string(state, "transfer 1 from Boss to Minion (6,5)")
    assert H.clicks(game, state, "Boss") == 0 and H.clicks(game, state, "Minion") == 1


def test_P_DEF_4_flag_combat_reflexes_chooses_knockback_and_takes_no_knockback_damage(H):
    dodger = plain(H, "Dodger", powers=(None, None, "combat_reflexes", None))
    walls = [((5, 7), (5, 8))]
    game, state = duel(
        H,
        plain(H, "Hitter", damage=2, attack=11),
        dodger,
        walls=walls,
        options={"combat_reflexes_2008": True},
        dice=["5", "3"],
    )  # 8+11 >= 18
    H.close(game, state, "Hitter", "Dodger")
    assert H.phase(game, state) == "INTERRUPT" and H.seat(game, state) == 1
    game.apply_string(state, "Dodger rolls back 2")
    assert H.sq(game, state, "Dodger") == (5, 7)  # stopped by the wall
    assert H.clicks(game, state, "Dodger") == 2  # the wall's click is not taken
    game, state = duel(
        H, plain(H, "Hitter", damage=2, attack=11), dodger, walls=walls, dice=["5", "3"]
    )
    H.close(game, state, "Hitter", "Dodger")
    assert H.phase(game, state) == "ACTION" and H.sq(game, state, "Dodger") == (5, 6)


def test_P_ATT_11_flag_tk_move_friend_moves_an_adjacent_friend_10_squares(H):
    mover = plain(H, "Mover", powers=TK)
    kw = dict(b_at=(11, 11), extra0=[plain(H, "Pal")], placements={"Pal": (5, 6)})
    game, state = duel(H, mover, plain(H, "Foe"), **kw)
    assert not H.options_of(game, state, "Mover", "telekinesis")  # option 2 is off
    game, state = duel(H, mover, plain(H, "Foe"), options={"tk_move_friend": True}, **kw)
    H.select(game, state, "Mover")
    game.apply_string(state, "telekinesis Mover")
    game.apply_string(state, "telekinesis Mover -> Pal (5,6)")
    moves = H.names(game, state)
    assert (
        "telekinesis Mover: Pal to (0,5)" in moves
        and "telekinesis Mover: Pal to (5,5)" not in moves
        and "telekinesis Mover: Pal to (11,11)" not in moves
    )  # Foe is there
    assert "telekinesis Mover: Pal to (5,11)" in moves  # Pal does not block its own line
    events = game.apply_string(state, "telekinesis Mover: Pal to (0,5)")
    assert H.sq(game, state, "Pal") == (0, 5) and "tk_move" in H.kinds(events)
    assert H.tokens(game, state, "Pal") == 0 and H.tokens(game, state, "Mover") == 1


def test_P_ATT_11_flag_tk_move_enemy_hits_for_no_damage_then_moves_the_enemy(H):
    mover = plain(H, "Mover", powers=TK)
    game, state = duel(H, mover, plain(H, "Foe"), options={"tk_move_enemy": True}, dice=["3", "4"])
    H.select(game, state, "Mover")
    game.apply_string(state, "telekinesis Mover")
    game.apply_string(state, "telekinesis Mover -> Foe (5,6)")
    assert H.clicks(game, state, "Foe") == 0 and H.phase(game, state) == "VARIANT"
    game.apply_string(state, "telekinesis Mover: Foe to (11,11)")
    assert H.sq(game, state, "Foe") == (11, 11) and H.tokens(game, state, "Mover") == 1
    game, state = duel(
        H, mover, plain(H, "Foe"), options={"tk_move_enemy": True}, dice=["1", "3"]
    )  # a miss ends the action
    H.select(game, state, "Mover")
    game.apply_string(state, "telekinesis Mover")
    game.apply_string(state, "telekinesis Mover -> Foe (5,6)")
    assert H.sq(game, state, "Foe") == (5, 6) and H.phase(game, state) == "ACTION"


def test_P_SPD_9_flag_hypersonic_option2_streak_of_harder_attacks(H):
    streak = plain(H, "Streak", powers=("hypersonic_speed", None, None, None))
    # hits 8 >= 7 (16 - 9), then 9 >= 8, then 7 < 9 misses: the last hit's value, 2
    game, state = duel(
        H,
        streak,
        plain(H, "Foe"),
        options={"hypersonic_option2": True},
        dice=["3", "5", "4", "5", "3", "4"],
    )
    H.select(game, state, "Streak")
    game.apply_string(state, "hypersonic speed Streak")
    game.apply_string(state, "hypersonic speed Streak -> Foe (5,6)")
    assert H.phase(game, state) == "VARIANT" and H.clicks(game, state, "Foe") == 0
    game.apply_string(state, "hypersonic speed Streak -> Foe (5,6)")
    game.apply_string(state, "hypersonic speed Streak -> Foe (5,6)")
    assert H.clicks(game, state, "Foe") == 2 and H.phase(game, state) == "ACTION"


def test_P_SPD_9_flag_hypersonic_option2_may_stop_and_deal_the_streaks_damage(H):
    streak = plain(H, "Streak", powers=("hypersonic_speed", None, None, None))
    game, state = duel(
        H, streak, plain(H, "Foe"), options={"hypersonic_option2": True}, dice=["3", "5"]
    )
    H.select(game, state, "Streak")
    game.apply_string(state, "hypersonic speed Streak")
    game.apply_string(state, "hypersonic speed Streak -> Foe (5,6)")
    game.apply_string(state, "end hypersonic speed")
    assert H.clicks(game, state, "Foe") == 1
    game, state = duel(H, streak, plain(H, "Foe"))
    H.select(game, state, "Streak")
    game.apply_string(state, "hypersonic speed Streak")
    assert not [n for n in H.names(game, state) if n.endswith("-> Foe (5,6)")]  # flag off
