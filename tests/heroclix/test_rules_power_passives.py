"""Passive and start-of-turn powers of the card (envs/heroclix/RULES.md P-SPD-7, P-SPD-10, P-ATT-9,
P-DEF-1, 3, 4, 5, 8, 9, P-DMG-2, 5, 7, 11).

Figures default to speed 6, attack 9, defense 16, damage 2: a 2d6 roll of 7 or more hits.
"""

from __future__ import annotations

PLASTIC = ("plasticity", None, None, None)
STEALTH = ("stealth", None, None, None)
POISON = (None, "poison", None, None)
SENSES = (None, None, "super_senses", None)
DEFEND = (None, None, "defend", None)
REFLEXES = (None, None, "combat_reflexes", None)
SHIELD = (None, None, "energy_shield_deflection", None)
WILL = (None, None, "willpower", None)
IMPERVIOUS = (None, None, "impervious", None)
FURY = (None, None, None, "battle_fury")
ENHANCE = (None, None, None, "enhancement")
SHAPE = (None, None, None, "shape_change")
LEADER = (None, None, None, "leadership")


def plain(H, name, **kw):
    return H.fig(name.lower().replace(" ", "_"), name, **kw)


def duel(H, a, b, a_at=(5, 5), b_at=(5, 6), extra0=(), extra1=(), placements=None, **kw):
    place = {a["name"]: a_at, b["name"]: b_at, **(placements or {})}
    return H.build([[a, *extra0], [b, *extra1]], place, **kw)


def breaks_away(H, game, state, label) -> bool:
    H.select(game, state, label)
    game.apply_string(state, "break away")
    return H.phase(game, state) == "MOVE"


# -- P-SPD-7 Plasticity -----------------------------------------------------------------------


def test_P_SPD_7_plasticity_breaks_away_on_a_2(H):
    game, state = duel(H, plain(H, "Goo", powers=PLASTIC), plain(H, "Foe"), dice=["2"])
    assert breaks_away(H, game, state, "Goo")


def test_P_SPD_7_leaving_a_plasticity_enemy_needs_a_6(H):
    game, state = duel(H, plain(H, "Runner"), plain(H, "Goo", powers=PLASTIC), dice=["5"])
    assert not breaks_away(H, game, state, "Runner")
    game, state = duel(H, plain(H, "Runner"), plain(H, "Goo", powers=PLASTIC), dice=["6"])
    assert breaks_away(H, game, state, "Runner")


def test_P_SPD_7_two_plasticity_figures_ignore_each_other(H):
    game, state = duel(
        H, plain(H, "Goo", powers=PLASTIC), plain(H, "Ooze", powers=PLASTIC), dice=["3"]
    )
    assert not breaks_away(H, game, state, "Goo")
    game, state = duel(
        H, plain(H, "Goo", powers=PLASTIC), plain(H, "Ooze", powers=PLASTIC), dice=["4"]
    )
    assert breaks_away(H, game, state, "Goo")


# -- P-SPD-10 Stealth -------------------------------------------------------------------------


def test_P_SPD_10_stealth_blocks_a_hindered_line_of_fire(H):
    shooter = plain(H, "Shooter", range=6)
    game, state = duel(
        H, shooter, plain(H, "Ghost", powers=STEALTH), b_at=(5, 9), marks={(5, 7): "%"}
    )
    assert H.ranged_targets(game, state, "Shooter") == set()
    game, state = duel(H, shooter, plain(H, "Ghost", powers=STEALTH), b_at=(5, 9))
    assert H.ranged_targets(game, state, "Shooter") == {"Ghost"}


def test_P_SPD_10_stealth_in_hindering_terrain_is_hidden_but_close_combat_still_reaches(H):
    shooter = plain(H, "Shooter", range=6)
    game, state = duel(
        H, shooter, plain(H, "Ghost", powers=STEALTH), b_at=(5, 9), marks={(5, 9): "%"}
    )
    assert H.ranged_targets(game, state, "Shooter") == set()
    game, state = duel(H, shooter, plain(H, "Ghost", powers=STEALTH), marks={(5, 6): "%"})
    assert H.close_targets(game, state, "Shooter") == {"Ghost"}


# -- P-ATT-9 Poison ---------------------------------------------------------------------------


def test_P_ATT_9_poison_damages_every_adjacent_enemy_at_the_start_of_its_turn(H):
    game, state = duel(
        H,
        plain(H, "Venom", powers=POISON),
        plain(H, "Foe"),
        extra1=[plain(H, "Foe Two"), plain(H, "Far")],
        placements={"Foe Two": (4, 5), "Far": (9, 9)},
        turn=1,
    )
    game.apply_string(state, "end turn")  # seat 0's turn begins
    assert H.clicks(game, state, "Foe") == 1 and H.clicks(game, state, "Foe Two") == 1
    assert H.clicks(game, state, "Far") == 0
    assert H.tokens(game, state, "Venom") == 0 and H.seat(game, state) == 0


def test_P_ATT_9_poison_damage_is_reduced_by_toughness(H):
    game, state = duel(
        H,
        plain(H, "Venom", powers=POISON),
        plain(H, "Tank", powers=(None, None, "toughness", None)),
        turn=1,
    )
    game.apply_string(state, "end turn")
    assert H.clicks(game, state, "Tank") == 0


# -- P-DEF-1 Super Senses ------------------------------------------------------------------------


def test_P_DEF_1_super_senses_evades_on_5_or_6(H):
    game, state = duel(H, plain(H, "Hitter"), plain(H, "Seer", powers=SENSES), dice=["4", "4", "5"])
    events = H.close(game, state, "Hitter", "Seer")
    assert H.clicks(game, state, "Seer") == 0 and "knockback" not in H.kinds(events)
    assert "evade" in H.kinds(events)


def test_P_DEF_1_super_senses_fails_on_1_to_4(H):
    game, state = duel(H, plain(H, "Hitter"), plain(H, "Seer", powers=SENSES), dice=["3", "4", "4"])
    H.close(game, state, "Hitter", "Seer")
    assert H.clicks(game, state, "Seer") == 2


# -- P-DEF-3 Defend -----------------------------------------------------------------------------


def test_P_DEF_3_an_adjacent_friend_lends_its_higher_defense(H):
    guard = plain(H, "Guard", defense=19, powers=DEFEND)
    game, state = duel(
        H,
        plain(H, "Hitter"),
        plain(H, "Ward"),
        extra1=[guard],
        placements={"Guard": (6, 6)},
        dice=["5", "5"],
    )  # 10 + 9 = 19
    H.close(game, state, "Hitter", "Ward")
    assert H.clicks(game, state, "Ward") == 2  # 19 >= 19: hit
    game, state = duel(
        H,
        plain(H, "Hitter"),
        plain(H, "Ward"),
        extra1=[guard],
        placements={"Guard": (6, 6)},
        dice=["5", "4"],
    )  # 18 < 19
    H.close(game, state, "Hitter", "Ward")
    assert H.clicks(game, state, "Ward") == 0


def test_P_DEF_3_defend_needs_adjacency_and_never_lowers_defense(H):
    guard = plain(H, "Guard", defense=19, powers=DEFEND)
    game, state = duel(
        H,
        plain(H, "Hitter"),
        plain(H, "Ward"),
        extra1=[guard],
        placements={"Guard": (9, 9)},
        dice=["5", "3"],
    )  # 17 >= 16
    H.close(game, state, "Hitter", "Ward")
    assert H.clicks(game, state, "Ward") == 2
    weak = plain(H, "Guard", defense=10, powers=DEFEND)
    game, state = duel(
        H,
        plain(H, "Hitter"),
        plain(H, "Ward"),
        extra1=[weak],
        placements={"Guard": (6, 6)},
        dice=["4", "2"],
    )  # 15 < 16
    H.close(game, state, "Hitter", "Ward")
    assert H.clicks(game, state, "Ward") == 0


# -- P-DEF-4 Combat Reflexes, P-DEF-5 Energy Shield/Deflection ----------------------------------


def test_P_DEF_4_combat_reflexes_add_2_against_close_attacks_only(H):
    game, state = duel(
        H, plain(H, "Hitter"), plain(H, "Dodger", powers=REFLEXES), dice=["4", "4"]
    )  # 17 < 18
    H.close(game, state, "Hitter", "Dodger")
    assert H.clicks(game, state, "Dodger") == 0
    game, state = duel(
        H,
        plain(H, "Hitter", range=6),
        plain(H, "Dodger", powers=REFLEXES),
        b_at=(5, 9),
        dice=["4", "3"],
    )  # 16 >= 16
    H.ranged(game, state, "Hitter", "Dodger")
    assert H.clicks(game, state, "Dodger") == 2


def test_P_DEF_5_energy_shield_adds_2_against_ranged_attacks_only(H):
    game, state = duel(
        H,
        plain(H, "Hitter", range=6),
        plain(H, "Shield", powers=SHIELD),
        b_at=(5, 9),
        dice=["4", "4"],
    )  # 17 < 18
    H.ranged(game, state, "Hitter", "Shield")
    assert H.clicks(game, state, "Shield") == 0
    game, state = duel(H, plain(H, "Hitter"), plain(H, "Shield", powers=SHIELD), dice=["4", "3"])
    H.close(game, state, "Hitter", "Shield")
    assert H.clicks(game, state, "Shield") == 2


# -- P-DEF-8 Willpower ---------------------------------------------------------------------------


def test_P_DEF_8_willpower_takes_no_pushing_damage_but_gets_the_token(H):
    game, state = duel(
        H, plain(H, "Stoic", powers=WILL), plain(H, "Foe"), b_at=(9, 9), tokens={"Stoic": 1}
    )
    H.move(game, state, "Stoic", (5, 6))
    assert H.clicks(game, state, "Stoic") == 0 and H.tokens(game, state, "Stoic") == 2


# -- P-DEF-9 Impervious --------------------------------------------------------------------------


def test_P_DEF_9_impervious_ignores_the_damage_on_5_or_6(H):
    game, state = duel(
        H, plain(H, "Hitter", damage=4), plain(H, "Rock", powers=IMPERVIOUS), dice=["3", "4", "6"]
    )
    H.close(game, state, "Hitter", "Rock")
    assert H.clicks(game, state, "Rock") == 0


def test_P_DEF_9_impervious_reduces_by_2_on_1_to_4(H):
    game, state = duel(
        H, plain(H, "Hitter", damage=4), plain(H, "Rock", powers=IMPERVIOUS), dice=["3", "4", "4"]
    )
    H.close(game, state, "Hitter", "Rock")
    assert H.clicks(game, state, "Rock") == 2


def test_P_DEF_9_impervious_does_not_reduce_pushing(H):
    game, state = duel(
        H, plain(H, "Rock", powers=IMPERVIOUS), plain(H, "Foe"), b_at=(9, 9), tokens={"Rock": 1}
    )
    H.move(game, state, "Rock", (5, 6))
    assert H.clicks(game, state, "Rock") == 1


# -- P-DMG-2 Battle Fury -------------------------------------------------------------------------


def test_P_DMG_2_battle_fury_makes_no_ranged_attacks(H):
    game, state = duel(H, plain(H, "Berserker", range=6, powers=FURY), plain(H, "Foe"), b_at=(5, 9))
    assert H.ranged_targets(game, state, "Berserker") == set()


def test_P_DMG_2_battle_fury_cannot_be_carried(H):
    flyer = plain(H, "Flyer", flyer=True)
    game, state = duel(
        H,
        flyer,
        plain(H, "Foe"),
        b_at=(11, 11),
        extra0=[plain(H, "Berserker", powers=FURY), plain(H, "Pal")],
        placements={"Berserker": (5, 6), "Pal": (4, 5)},
    )
    assert H.options_of(game, state, "Flyer", "carry") == {"carry Pal (4,5)"}


# -- P-DMG-5 Enhancement -------------------------------------------------------------------------


def test_P_DMG_5_enhancement_adds_1_to_an_adjacent_friends_ranged_attack(H):
    game, state = duel(
        H,
        plain(H, "Shooter", range=6),
        plain(H, "Foe"),
        b_at=(5, 9),
        extra0=[plain(H, "Booster", powers=ENHANCE)],
        placements={"Booster": (4, 5)},
        dice=["3", "4"],
    )
    H.ranged(game, state, "Shooter", "Foe")
    assert H.clicks(game, state, "Foe") == 3


def test_P_DMG_5_enhancement_before_the_multi_target_cap_and_not_close(H):
    shooter = plain(H, "Shooter", range=6, targets=2)
    game, state = duel(
        H,
        shooter,
        plain(H, "Foe"),
        b_at=(5, 9),
        extra0=[plain(H, "Booster", powers=ENHANCE)],
        extra1=[plain(H, "Foe Two")],
        placements={"Booster": (4, 5), "Foe Two": (7, 9)},
        dice=["3", "4"],
    )
    H.ranged(game, state, "Shooter", "Foe", "Foe Two")
    assert H.clicks(game, state, "Foe") == 1 and H.clicks(game, state, "Foe Two") == 1
    game, state = duel(
        H,
        plain(H, "Shooter"),
        plain(H, "Foe"),
        extra0=[plain(H, "Booster", powers=ENHANCE)],
        placements={"Booster": (4, 5)},
        dice=["3", "4"],
    )
    H.close(game, state, "Shooter", "Foe")
    assert H.clicks(game, state, "Foe") == 2


# -- P-DMG-7 Shape Change ------------------------------------------------------------------------


def test_P_DMG_7_shape_change_on_5_or_6_the_target_is_dropped_and_nothing_spent(H):
    game, state = duel(H, plain(H, "Hitter"), plain(H, "Shifter", powers=SHAPE), dice=["5"])
    events = H.close(game, state, "Hitter", "Shifter")
    assert "shape_change" in H.kinds(events) and "attack" not in H.kinds(events)
    assert H.phase(game, state) == "FIGURE" and H.tokens(game, state, "Hitter") == 0
    assert not [n for n in H.names(game, state) if n.startswith("close")]
    assert any(n.startswith("break away") for n in H.names(game, state))


def test_P_DMG_7_shape_change_on_1_to_4_the_attack_goes_on(H):
    game, state = duel(
        H, plain(H, "Hitter"), plain(H, "Shifter", powers=SHAPE), dice=["4", "3", "4"]
    )
    H.close(game, state, "Hitter", "Shifter")
    assert H.clicks(game, state, "Shifter") == 2


def test_P_DMG_7_shape_change_drops_one_of_several_ranged_targets(H):
    shooter = plain(H, "Shooter", range=6, targets=2)
    game, state = duel(
        H,
        shooter,
        plain(H, "Foe"),
        b_at=(5, 9),
        extra1=[plain(H, "Shifter", powers=SHAPE)],
        placements={"Shifter": (7, 9)},
        dice=["6", "3", "4"],
    )
    events = H.ranged(game, state, "Shooter", "Foe")
    events += game.apply_string(state, "ranged Shifter (7,9)")
    assert "shape_change" in H.kinds(events) and H.phase(game, state) == "TARGETS"
    events += game.apply_string(state, "fire")
    assert H.clicks(game, state, "Foe") == 2 and H.clicks(game, state, "Shifter") == 0


# -- P-DMG-11 Leadership -------------------------------------------------------------------------


def test_P_DMG_11_leadership_on_4_to_6_gives_one_more_action(H):
    game, state = duel(
        H,
        plain(H, "Chief", powers=LEADER),
        plain(H, "Foe"),
        b_at=(11, 11),
        extra0=[plain(H, "Pal")],
        placements={"Pal": (5, 2)},
        dice=["4"],
    )
    assert H.d(game, state)["actions_left"] == 2
    H.move(game, state, "Chief", (5, 6))
    assert H.seat(game, state) == 0  # the second action
    H.move(game, state, "Pal", (5, 3))
    assert H.seat(game, state) == 1


def test_P_DMG_11_leadership_fails_on_1_to_3_and_gives_at_most_one(H):
    game, state = duel(
        H, plain(H, "Chief", powers=LEADER), plain(H, "Foe"), b_at=(11, 11), dice=["3"]
    )
    assert H.d(game, state)["actions_left"] == 1
    chiefs = [plain(H, "Chief", powers=LEADER), plain(H, "Chief Two", powers=LEADER)]
    game, state = duel(
        H,
        chiefs[0],
        plain(H, "Foe"),
        b_at=(11, 11),
        extra0=[chiefs[1]],
        placements={"Chief Two": (5, 2)},
        dice=["5"],
    )
    assert H.d(game, state)["actions_left"] == 2  # one extra at most: the second never rolls
    # (a second roll would have run out of scripted dice)


# -- P-SPD-4 Earthbound ---------------------------------------------------------------------------


def earthbound_flyer(H):
    dial = [H.click()] + [H.click(powers=("earthbound", None, None, None))] * 4
    return plain(H, "Skyfall", flyer=True, dial=dial)


def test_P_SPD_4_earthbound_appearing_grounds_a_soaring_figure_with_1_damage(H):
    game, state = duel(
        H,
        plain(H, "Shooter", range=8),
        earthbound_flyer(H),
        b_at=(5, 9),
        placements={"Skyfall": (5, 9, "soar")},
        dice=["3", "4"],
    )
    events = game.apply_string(state, "select Shooter (5,5)")
    events += game.apply_string(state, "ranged Skyfall (5,9)")
    assert "earthbound" in H.kinds(events)
    assert not H.soaring(game, state, "Skyfall")
    assert H.clicks(game, state, "Skyfall") == 3  # 2 from the shot, 1 from the landing


def test_P_SPD_4_earthbound_figure_moves_like_a_non_flyer(H):
    hedge = {(r, 6): "%" for r in range(2, 10)}  # a hovering flyer outdoors ignores it
    game, state = duel(
        H,
        earthbound_flyer(H),
        plain(H, "Foe"),
        b_at=(11, 11),
        extra0=[plain(H, "Pal")],
        placements={"Pal": (5, 4)},
        marks=hedge,
    )
    assert (5, 7) in H.dests(game, state, "Skyfall") and H.dests(game, state, "Skyfall", soar=True)
    game, state = duel(
        H,
        earthbound_flyer(H),
        plain(H, "Foe"),
        b_at=(11, 11),
        extra0=[plain(H, "Pal")],
        placements={"Pal": (5, 4)},
        marks=hedge,
        clicks={"Skyfall": 1},
    )
    assert not H.dests(game, state, "Skyfall", soar=True)
    assert (5, 7) not in H.dests(game, state, "Skyfall")  # hindering stops it (HC-5.10)
    assert not H.options_of(game, state, "Skyfall", "carry")


# -- P-DEF-7 Mastermind (an interrupt: a decision for the defender inside the attack) ---------

MASTER = (None, None, "mastermind", None)


def mastermind_game(H, dice, **kw):
    boss = plain(H, "Boss", powers=MASTER, points=60)
    return duel(
        H,
        plain(H, "Hitter", damage=3),
        boss,
        extra1=[plain(H, "Minion", points=15)],
        placements={"Minion": (6, 6)},
        dice=dice,
        **kw,
    )


def test_P_DEF_7_mastermind_may_pass_the_damage_to_a_lesser_adjacent_friend(H):
    game, state = mastermind_game(H, ["3", "4"])
    events = H.close(game, state, "Hitter", "Boss")
    assert H.phase(game, state) == "INTERRUPT" and H.seat(game, state) == 1
    assert "interrupt" in H.kinds(events)
    assert set(H.names(game, state)) == {"transfer 3 from Boss to Minion (6,6)", "Boss takes the 3"}
    events = game.apply_string(state, "transfer 3 from Boss to Minion (6,6)")
    assert H.clicks(game, state, "Boss") == 0 and H.clicks(game, state, "Minion") == 3
    assert "attack" in H.kinds(events)  # the attack's events, from the replay
    assert H.phase(game, state) == "ACTION" and H.seat(game, state) == 1  # Hitter's turn over


def test_P_DEF_7_mastermind_may_take_the_damage(H):
    game, state = mastermind_game(H, ["3", "4"])
    H.close(game, state, "Hitter", "Boss")
    game.apply_string(state, "Boss takes the 3")
    assert H.clicks(game, state, "Boss") == 3 and H.clicks(game, state, "Minion") == 0


def test_P_DEF_7_the_knockback_goes_to_the_friend_and_the_ko_counts_for_the_attacker(H):
    game, state = mastermind_game(H, ["4", "4"], clicks={"Minion": 3})
    H.close(game, state, "Hitter", "Boss")
    game.apply_string(state, "transfer 3 from Boss to Minion (6,6)")
    assert H.sq(game, state, "Minion") is None  # 3 + 3 clicks: KO
    assert H.d(game, state)["vp"][0] == 15


def test_P_DEF_7_no_interrupt_without_a_lesser_adjacent_friend(H):
    boss = plain(H, "Boss", powers=MASTER, points=60)
    game, state = duel(H, plain(H, "Hitter", damage=3), boss, dice=["3", "4"])
    H.close(game, state, "Hitter", "Boss")
    assert H.clicks(game, state, "Boss") == 3 and H.phase(game, state) == "ACTION"


def test_P_DEF_7_the_state_round_trips_during_the_interrupt(H):
    game, state = mastermind_game(H, ["3", "4"])
    H.close(game, state, "Hitter", "Boss")
    copy = H.copy(game, state)
    game.apply_string(copy, "transfer 3 from Boss to Minion (6,6)")
    assert H.clicks(game, copy, "Minion") == 3


def test_P_DEF_7_no_one_is_asked_outside_a_decision(H):
    # Poison at the start of a turn set up directly (no decision in progress): Mastermind
    # keeps the damage rather than stopping the game to ask
    boss = plain(H, "Boss", powers=MASTER, points=60)
    game, state = duel(
        H,
        plain(H, "Venom", powers=(None, "poison", None, None)),
        boss,
        extra1=[plain(H, "Minion", points=15)],
        placements={"Minion": (6, 6)},
        turn=0,
    )
    assert H.clicks(game, state, "Boss") == 1 and H.phase(game, state) == "ACTION"
