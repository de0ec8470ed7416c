"""Power variants of the four actions (envs/heroclix/RULES.md P-SPD-1, 5, 8, 11; P-ATT-1, 2, 4, 6,
7; P-DMG-1, 4, 8): chosen on their own slot, then played step by step in the VARIANT phase.

Figures default to speed 6, attack 9, defense 16, damage 2: a 2d6 roll of 7 or more hits.
"""

from __future__ import annotations

CHARGE = ("charge", None, None, None)
FLURRY = ("flurry", None, None, None)
FORCE_BLAST = ("force_blast", None, None, None)
RUNNING = ("running_shot", None, None, None)
BLADES = (None, "blades_claws_fangs", None, None)
EXPLOSION = (None, "energy_explosion", None, None)
QUAKE = (None, "quake", None, None)
INCAP = (None, "incapacitate", None, None)
PSYCHIC = (None, "psychic_blast", None, None)
RCE = (None, None, None, "ranged_combat_expert")
EXPLOIT = (None, None, None, "exploit_weakness")
CCE = (None, None, None, "close_combat_expert")
TOUGH = (None, None, "toughness", None)


def plain(H, name, **kw):
    return H.fig(name.lower().replace(" ", "_"), name, **kw)


def duel(H, a, b, a_at=(5, 5), b_at=(5, 6), extra0=(), extra1=(), placements=None, **kw):
    place = {a["name"]: a_at, b["name"]: b_at, **(placements or {})}
    return H.build([[a, *extra0], [b, *extra1]], place, **kw)


def play(H, game, state, label, variant, *steps):
    """Select ``label``, choose ``variant`` and apply the named ``steps``."""
    events = H.select(game, state, label)
    events += game.apply_string(state, f"{variant} {label}")
    for step in steps:
        events += game.apply_string(state, step)
    return events


# -- the shape of a variant ---------------------------------------------------------------


def test_P_0_variants_are_offered_only_when_they_can_be_played(H):
    game, state = duel(H, plain(H, "Brute", powers=CCE), plain(H, "Foe"), b_at=(9, 9))
    assert "close combat expert Brute" not in H.options_of(game, state, "Brute", "close combat")
    game, state = duel(H, plain(H, "Brute", powers=CCE), plain(H, "Foe"))
    assert "close combat expert Brute" in H.options_of(game, state, "Brute", "close combat")


def test_P_0_a_variant_is_one_action_with_a_token_and_pushing(H):
    game, state = duel(
        H, plain(H, "Brute", powers=CCE), plain(H, "Foe"), tokens={"Brute": 1}, dice=["3", "4"]
    )
    play(H, game, state, "Brute", "close combat expert", "close combat expert Brute -> Foe (5,6)")
    assert H.tokens(game, state, "Brute") == 2
    assert H.clicks(game, state, "Brute") == 1  # pushed
    assert H.phase(game, state) == "ACTION" and H.seat(game, state) == 1


def test_HC_3_8_a_switched_off_variant_is_not_offered(H):
    game, state = duel(H, plain(H, "Charger", powers=CHARGE), plain(H, "Foe"), b_at=(9, 9))
    H.select(game, state, "Charger")
    game.apply_string(state, "switch off speed power")
    assert not [n for n in H.names(game, state) if n.startswith("charge")]


# -- P-SPD-5 Charge -----------------------------------------------------------------------


def test_P_SPD_5_charge_moves_half_then_attacks(H):
    game, state = duel(
        H,
        plain(H, "Charger", powers=CHARGE, speed=8),
        plain(H, "Foe"),
        a_at=(5, 1),
        b_at=(5, 6),
        dice=["3", "4"],
    )
    names = H.options_of(game, state, "Charger", "")
    assert "charge Charger" in names
    H.select(game, state, "Charger")
    game.apply_string(state, "charge Charger")
    dests = {n.rsplit("->", 1)[1] for n in H.names(game, state) if "->" in n}
    assert "(5,5)" in dests and "(5,6)" not in dests  # 4 squares of 8
    assert "(1,1)" in dests and "(0,1)" not in dests
    game.apply_string(state, "charge Charger (5,1)->(5,5)")
    assert H.names(game, state) == ["charge Charger -> Foe (5,6)", "end charge"]
    events = game.apply_string(state, "charge Charger -> Foe (5,6)")
    assert H.clicks(game, state, "Foe") == 2 and "attack" in H.kinds(events)
    assert H.tokens(game, state, "Charger") == 1


def test_P_SPD_5_charge_attack_is_optional(H):
    game, state = duel(
        H, plain(H, "Charger", powers=CHARGE), plain(H, "Foe"), a_at=(5, 3), b_at=(5, 6)
    )
    play(H, game, state, "Charger", "charge", "charge Charger (5,3)->(5,5)", "end charge")
    assert H.sq(game, state, "Charger") == (5, 5) and H.clicks(game, state, "Foe") == 0
    assert H.tokens(game, state, "Charger") == 1


def test_P_SPD_5_charge_halves_after_hindering_halves(H):
    game, state = duel(
        H,
        plain(H, "Charger", powers=CHARGE, speed=8),
        plain(H, "Foe"),
        a_at=(5, 1),
        b_at=(11, 11),
        marks={(5, 1): "%"},
    )
    H.select(game, state, "Charger")
    game.apply_string(state, "charge Charger")
    dests = {n.rsplit("->", 1)[1] for n in H.names(game, state) if "->" in n}
    assert "(5,3)" in dests and "(5,4)" not in dests  # 8 -> 4 (hindering) -> 2 (charge)


def test_P_SPD_5_failed_breakaway_ends_the_charge(H):
    game, state = duel(H, plain(H, "Charger", powers=CHARGE), plain(H, "Foe"), dice=["3"])
    events = play(H, game, state, "Charger", "charge")
    assert "breakaway" in H.kinds(events)
    assert H.sq(game, state, "Charger") == (5, 5) and H.tokens(game, state, "Charger") == 1
    assert H.phase(game, state) == "ACTION"


def test_P_SPD_5_a_charging_figure_ignores_knockback(H):
    game, state = duel(H, plain(H, "Hitter"), plain(H, "Charger", powers=CHARGE), dice=["4", "4"])
    events = H.close(game, state, "Hitter", "Charger")
    assert H.clicks(game, state, "Charger") == 2 and H.sq(game, state, "Charger") == (5, 6)
    assert "knockback" not in H.kinds(events)


# -- P-SPD-1 Flurry -----------------------------------------------------------------------


def test_P_SPD_1_flurry_makes_two_close_attacks(H):
    game, state = duel(
        H, plain(H, "Fury", powers=FLURRY), plain(H, "Foe"), dice=["3", "4", "5", "2"]
    )
    events = play(H, game, state, "Fury", "flurry", "flurry Fury -> Foe (5,6)")
    assert H.phase(game, state) == "VARIANT"
    assert "end flurry" in H.names(game, state)
    events += game.apply_string(state, "flurry Fury -> Foe (5,6)")
    assert H.kinds(events).count("attack") == 2
    assert H.clicks(game, state, "Foe") == 4 and H.tokens(game, state, "Fury") == 1


def test_P_SPD_1_flurry_second_attack_lost_when_the_only_target_is_knocked_away(H):
    game, state = duel(H, plain(H, "Fury", powers=FLURRY), plain(H, "Foe"), dice=["4", "4"])
    play(H, game, state, "Fury", "flurry", "flurry Fury -> Foe (5,6)")
    assert H.sq(game, state, "Foe") == (5, 8)  # knocked back 2
    assert H.phase(game, state) == "ACTION" and H.tokens(game, state, "Fury") == 1


def test_P_SPD_1_flurry_second_attack_lost_when_the_power_is_gone(H):
    dial = [H.click(powers=FLURRY), H.click()]
    game, state = duel(H, plain(H, "Fury", dial=dial), plain(H, "Foe"), dice=["1", "1"])
    play(H, game, state, "Fury", "flurry", "flurry Fury -> Foe (5,6)")
    assert H.clicks(game, state, "Fury") == 1  # critical miss turned Flurry off
    assert H.phase(game, state) == "ACTION"


# -- P-SPD-8 Force Blast -------------------------------------------------------------------


def test_P_SPD_8_force_blast_knocks_back_1d6_squares_without_an_attack(H):
    game, state = duel(H, plain(H, "Blaster", powers=FORCE_BLAST), plain(H, "Foe"), dice=["3"])
    events = play(H, game, state, "Blaster", "force blast", "force blast Blaster -> Foe (5,6)")
    assert "attack" not in H.kinds(events)
    assert H.sq(game, state, "Foe") == (5, 9) and H.clicks(game, state, "Foe") == 0


def test_P_SPD_8_force_blast_into_a_wall_deals_knockback_damage(H):
    game, state = duel(
        H,
        plain(H, "Blaster", powers=FORCE_BLAST),
        plain(H, "Foe"),
        walls=[((5, 7), (5, 8))],
        dice=["5"],
    )
    play(H, game, state, "Blaster", "force blast", "force blast Blaster -> Foe (5,6)")
    assert H.sq(game, state, "Foe") == (5, 7) and H.clicks(game, state, "Foe") == 1


def test_P_SPD_8_charge_figures_cannot_be_force_blasted(H):
    game, state = duel(
        H, plain(H, "Blaster", powers=FORCE_BLAST), plain(H, "Charger", powers=CHARGE)
    )
    assert not H.options_of(game, state, "Blaster", "force blast")


# -- P-SPD-11 Running Shot -------------------------------------------------------------------


def test_P_SPD_11_running_shot_moves_half_to_a_square_with_a_shot_then_fires(H):
    shooter = plain(H, "Runner", powers=RUNNING, range=4, speed=6)
    game, state = duel(H, shooter, plain(H, "Foe"), a_at=(1, 0), b_at=(7, 6), dice=["3", "4"])
    H.select(game, state, "Runner")
    game.apply_string(state, "running shot Runner")
    dests = {
        tuple(int(x) for x in n.rsplit("->", 1)[1][1:-1].split(","))
        for n in H.names(game, state)
        if "->" in n
    }
    assert dests and all(max(abs(r - 7), abs(c - 6)) <= 4 for r, c in dests)  # Foe in range
    assert (4, 3) in dests and (1, 0) not in dests and (4, 0) not in dests
    game.apply_string(state, "running shot Runner (1,0)->(4,3)")
    game.apply_string(state, "running shot Runner -> Foe (7,6)")
    assert H.sq(game, state, "Runner") == (4, 3) and H.clicks(game, state, "Foe") == 2


def test_P_SPD_11_running_shot_not_offered_without_a_shot_anywhere(H):
    shooter = plain(H, "Runner", powers=RUNNING, range=2)
    game, state = duel(H, shooter, plain(H, "Foe"), a_at=(1, 0), b_at=(10, 10))
    assert not H.options_of(game, state, "Runner", "running shot")


# -- P-ATT-1 Blades/Claws/Fangs --------------------------------------------------------------


def test_P_ATT_1_blades_roll_replaces_the_damage_value(H):
    game, state = duel(H, plain(H, "Claws", powers=BLADES), plain(H, "Foe"), dice=["3", "4", "5"])
    events = play(
        H, game, state, "Claws", "blades claws fangs", "blades claws fangs Claws -> Foe (5,6)"
    )
    assert "damage_roll" in H.kinds(events) and H.clicks(game, state, "Foe") == 5


def test_P_ATT_1_blades_break_a_wall_on_3_to_6(H):
    game, state = duel(
        H,
        plain(H, "Claws", powers=BLADES, damage=1),
        plain(H, "Foe"),
        b_at=(11, 11),
        walls=[((5, 5), (5, 6))],
        dice=["3"],
    )
    play(
        H,
        game,
        state,
        "Claws",
        "blades claws fangs",
        "blades claws fangs Claws breaks the E wall of (5,5)",
    )
    assert H.dests(game, state, "Foe", selected=False)  # the game goes on
    assert not any("wall" in n for n in H.options_of(game, state, "Foe", ""))
    assert not H.d(game, state)["walls_intact"][game.walls.edge_id(5 * 12 + 5, 5 * 12 + 6)]


def test_P_ATT_1_blades_fail_to_break_a_wall_on_1_or_2(H):
    game, state = duel(
        H,
        plain(H, "Claws", powers=BLADES, damage=1),
        plain(H, "Foe"),
        b_at=(11, 11),
        walls=[((5, 5), (5, 6))],
        dice=["2"],
    )
    play(
        H,
        game,
        state,
        "Claws",
        "blades claws fangs",
        "blades claws fangs Claws breaks the E wall of (5,5)",
    )
    assert H.d(game, state)["walls_intact"][game.walls.edge_id(5 * 12 + 5, 5 * 12 + 6)]


# -- P-ATT-2 Energy Explosion ----------------------------------------------------------------


def test_P_ATT_2_energy_explosion_hits_everyone_next_to_the_target(H):
    shooter = plain(H, "Blaster", powers=EXPLOSION, range=6, damage=4)
    game, state = duel(
        H,
        shooter,
        plain(H, "Foe"),
        b_at=(5, 9),
        extra0=[plain(H, "Pal")],
        extra1=[plain(H, "Foe Two")],
        placements={"Pal": (6, 9), "Foe Two": (4, 9)},
        dice=["3", "4"],
    )
    play(H, game, state, "Blaster", "energy explosion", "energy explosion Blaster -> Foe (5,9)")
    assert H.clicks(game, state, "Foe") == 1  # damage 1, not 4
    assert H.clicks(game, state, "Foe Two") == 1 and H.clicks(game, state, "Pal") == 1


def test_P_ATT_2_energy_explosion_hits_a_figure_once_per_target_beside_it(H):
    shooter = plain(H, "Blaster", powers=EXPLOSION, range=6, targets=2)
    game, state = duel(
        H,
        shooter,
        plain(H, "Foe"),
        b_at=(4, 9),
        extra1=[plain(H, "Foe Two")],
        extra0=[plain(H, "Pal")],
        placements={"Foe Two": (6, 9), "Pal": (5, 9)},
        dice=["3", "4"],
    )
    play(
        H,
        game,
        state,
        "Blaster",
        "energy explosion",
        "energy explosion Blaster -> Foe (4,9)",
        "ranged Foe Two (6,9)",
    )
    assert H.clicks(game, state, "Pal") == 2  # next to both targets
    assert H.clicks(game, state, "Foe") == 1 and H.clicks(game, state, "Foe Two") == 1


def test_P_ATT_2_energy_explosion_critical_adds_one_to_each_figure(H):
    shooter = plain(H, "Blaster", powers=EXPLOSION, range=6)
    game, state = duel(
        H,
        shooter,
        plain(H, "Foe"),
        b_at=(5, 9),
        extra1=[plain(H, "Foe Two")],
        placements={"Foe Two": (4, 9)},
        dice=["6", "6"],
    )
    play(H, game, state, "Blaster", "energy explosion", "energy explosion Blaster -> Foe (5,9)")
    assert H.clicks(game, state, "Foe") == 2 and H.clicks(game, state, "Foe Two") == 2


# -- P-ATT-4 Quake --------------------------------------------------------------------------


def test_P_ATT_4_quake_hits_every_adjacent_enemy_for_at_most_2_and_knocks_back(H):
    quaker = plain(H, "Quaker", powers=QUAKE, damage=4)
    game, state = duel(
        H,
        quaker,
        plain(H, "East"),
        extra1=[plain(H, "North")],
        placements={"North": (4, 5)},
        dice=["3", "4"],
    )
    events = play(H, game, state, "Quaker", "quake")
    assert H.kinds(events).count("attack") == 1
    assert H.clicks(game, state, "East") == 2 and H.clicks(game, state, "North") == 2
    assert H.sq(game, state, "East") == (5, 8) and H.sq(game, state, "North") == (2, 5)


def test_P_ATT_4_quake_misses_everyone_on_a_2(H):
    game, state = duel(H, plain(H, "Quaker", powers=QUAKE), plain(H, "East"), dice=["1", "1"])
    play(H, game, state, "Quaker", "quake")
    assert H.clicks(game, state, "East") == 0 and H.clicks(game, state, "Quaker") == 1


# -- P-ATT-6 Incapacitate -------------------------------------------------------------------


def test_P_ATT_6_incapacitate_deals_no_damage_and_gives_a_token(H):
    game, state = duel(H, plain(H, "Binder", powers=INCAP), plain(H, "Foe"), dice=["6", "6"])
    play(H, game, state, "Binder", "incapacitate", "incapacitate Binder -> Foe (5,6)")
    assert H.clicks(game, state, "Foe") == 0 and H.tokens(game, state, "Foe") == 1


def test_P_ATT_6_incapacitate_ranged_and_never_a_third_token(H):
    binder = plain(H, "Binder", powers=INCAP, range=6)
    game, state = duel(H, binder, plain(H, "Foe"), b_at=(5, 9), tokens={"Foe": 2}, dice=["3", "4"])
    play(H, game, state, "Binder", "incapacitate", "incapacitate Binder -> Foe (5,9)")
    assert H.tokens(game, state, "Foe") == 2 and H.clicks(game, state, "Foe") == 0


# -- P-ATT-7 Psychic Blast, P-DMG-4 Exploit Weakness ------------------------------------------


def test_P_ATT_7_psychic_blast_is_not_reduced_by_toughness(H):
    mind = plain(H, "Mind", powers=PSYCHIC, range=6)
    game, state = duel(H, mind, plain(H, "Tank", powers=TOUGH), b_at=(5, 9), dice=["3", "4"])
    play(H, game, state, "Mind", "psychic blast", "psychic blast Mind -> Tank (5,9)")
    assert H.clicks(game, state, "Tank") == 2


def test_P_DMG_4_exploit_weakness_is_not_reduced_by_toughness(H):
    game, state = duel(
        H, plain(H, "Knife", powers=EXPLOIT), plain(H, "Tank", powers=TOUGH), dice=["3", "4"]
    )
    play(H, game, state, "Knife", "exploit weakness", "exploit weakness Knife -> Tank (5,6)")
    assert H.clicks(game, state, "Tank") == 2


# -- P-DMG-1 Ranged Combat Expert, P-DMG-8 Close Combat Expert ---------------------------------


def test_P_DMG_1_ranged_combat_expert_one_target_plus_2(H):
    ace = plain(H, "Ace", powers=RCE, range=6, targets=2)
    game, state = duel(
        H,
        ace,
        plain(H, "Foe"),
        b_at=(5, 9),
        extra1=[plain(H, "Foe Two")],
        placements={"Foe Two": (3, 9)},
        dice=["3", "4"],
    )
    play(H, game, state, "Ace", "ranged combat expert", "ranged combat expert Ace -> Foe (5,9)")
    assert H.clicks(game, state, "Foe") == 4 and H.clicks(game, state, "Foe Two") == 0
    assert H.phase(game, state) == "ACTION"


def test_P_DMG_8_close_combat_expert_plus_2(H):
    game, state = duel(H, plain(H, "Brute", powers=CCE), plain(H, "Foe"), dice=["3", "4"])
    play(H, game, state, "Brute", "close combat expert", "close combat expert Brute -> Foe (5,6)")
    assert H.clicks(game, state, "Foe") == 4


def test_P_DMG_8_close_combat_expert_not_with_a_held_object(H):
    brute = plain(H, "Brute", powers=("super_strength", None, None, "close_combat_expert"))
    brute["dial"] = [H.click(powers=(None, "super_strength", None, "close_combat_expert"))] * 6 + [
        "KO"
    ]
    game, state = duel(H, brute, plain(H, "Foe"), objects={"table": None}, held={"Brute": "table"})
    assert not H.options_of(game, state, "Brute", "close combat expert")


# -- P-ATT-3 Pulse Wave ----------------------------------------------------------------------

PULSE = (None, "pulse_wave", None, None)


def test_P_ATT_3_pulse_wave_hits_every_figure_in_half_range_for_1(H):
    pulser = plain(H, "Pulser", powers=PULSE, range=8, damage=3)
    game, state = duel(
        H,
        pulser,
        plain(H, "Foe"),
        b_at=(5, 9),
        extra0=[plain(H, "Pal")],
        extra1=[plain(H, "Far"), plain(H, "Shielded")],
        placements={"Pal": (3, 5), "Far": (5, 10), "Shielded": (8, 8)},
        walls=[
            ((7, 8), (8, 8)),
            ((7, 7), (8, 7)),
            ((7, 9), (8, 9)),
            ((8, 7), (8, 8)),
            ((8, 8), (8, 9)),
        ],
        dice=["3", "4"],
    )
    events = play(H, game, state, "Pulser", "pulse wave")
    assert H.kinds(events).count("attack") == 1
    assert H.clicks(game, state, "Foe") == 1 and H.clicks(game, state, "Pal") == 1
    assert H.clicks(game, state, "Far") == 0  # 5 squares: range 8 halves to 4
    assert H.clicks(game, state, "Shielded") == 0  # walls block the line
    assert H.tokens(game, state, "Pulser") == 1


def test_P_ATT_3_pulse_wave_ignores_figures_in_the_way_and_one_target_takes_full_damage(H):
    pulser = plain(H, "Pulser", powers=PULSE, range=8, damage=3)
    game, state = duel(H, pulser, plain(H, "Foe"), b_at=(5, 9), dice=["3", "4"])
    play(H, game, state, "Pulser", "pulse wave")
    assert H.clicks(game, state, "Foe") == 3


def test_P_ATT_3_pulse_wave_ignores_the_powers_of_figures_in_range(H):
    pulser = plain(H, "Pulser", powers=PULSE, range=8, damage=3)
    tank = plain(H, "Tank", powers=(None, None, "toughness", None))
    game, state = duel(H, pulser, tank, b_at=(5, 9), dice=["3", "4"])
    play(H, game, state, "Pulser", "pulse wave")
    assert H.clicks(game, state, "Tank") == 3  # Toughness ignored


def test_P_ATT_3_pulse_wave_not_next_to_an_enemy_unless_the_flag(H):
    pulser = plain(H, "Pulser", powers=PULSE, range=8)
    game, state = duel(H, pulser, plain(H, "Foe"))
    assert not H.options_of(game, state, "Pulser", "pulse wave")
    game, state = duel(H, pulser, plain(H, "Foe"), options={"pulse_wave_while_adjacent": True})
    assert H.options_of(game, state, "Pulser", "pulse wave") == {"pulse wave Pulser"}


# -- P-SPD-9 Hypersonic Speed -----------------------------------------------------------------

HYPER = ("hypersonic_speed", None, None, None)


def test_P_SPD_9_hypersonic_speed_attacks_on_the_way_and_moves_on(H):
    game, state = duel(
        H,
        plain(H, "Streak", powers=HYPER, speed=8),
        plain(H, "Foe"),
        a_at=(5, 1),
        b_at=(5, 6),
        dice=["3", "4"],
    )
    events = play(
        H,
        game,
        state,
        "Streak",
        "hypersonic speed",
        "hypersonic speed Streak (5,1)->(5,5)",
        "hypersonic speed Streak -> Foe (5,6)",
    )
    assert "breakaway" not in H.kinds(events) and H.clicks(game, state, "Foe") == 2
    assert H.phase(game, state) == "VARIANT"
    dests = {n.rsplit("->", 1)[1] for n in H.names(game, state) if "->" in n}
    assert "(4,9)" in dests and "(4,10)" not in dests  # 4 squares left of 8, past the Foe
    game.apply_string(state, "hypersonic speed Streak (5,5)->(4,9)")
    assert H.sq(game, state, "Streak") == (4, 9) and H.tokens(game, state, "Streak") == 1


def test_P_SPD_9_hypersonic_speed_breaks_away_and_passes_enemies_without_stopping(H):
    game, state = duel(
        H,
        plain(H, "Streak", powers=HYPER),
        plain(H, "Foe"),
        extra1=[plain(H, "Guard")],
        placements={"Guard": (7, 8)},
    )
    H.select(game, state, "Streak")
    game.apply_string(state, "hypersonic speed Streak")
    dests = {n.rsplit("->", 1)[1] for n in H.names(game, state) if "->" in n}
    assert "(8,10)" in dests  # past squares next to Guard, no roll


def test_P_SPD_9_hypersonic_ranged_attack_at_half_range(H):
    streak = plain(H, "Streak", powers=HYPER, range=6, speed=4)
    game, state = duel(H, streak, plain(H, "Foe"), a_at=(5, 0), b_at=(5, 8), dice=["3", "4"])
    play(H, game, state, "Streak", "hypersonic speed", "hypersonic speed Streak (5,0)->(5,4)")
    assert H.phase(game, state) == "ACTION"  # 4 squares: no shot at 3, the move is over
    game2, state2 = duel(H, streak, plain(H, "Foe"), a_at=(5, 0), b_at=(5, 7), dice=["3", "4"])
    play(H, game2, state2, "Streak", "hypersonic speed", "hypersonic speed Streak (5,0)->(5,4)")
    assert "hypersonic speed Streak -> Foe (5,7)" in H.names(game2, state2)  # 3 of 6


# -- P-SPD-6 Mind Control ---------------------------------------------------------------------

MIND = ("mind_control", None, None, None)


def test_P_SPD_6_mind_control_hits_for_no_damage_and_gives_the_target_an_action(H):
    game, state = duel(
        H,
        plain(H, "Mind", powers=MIND),
        plain(H, "Foe", damage=3, points=40),
        extra1=[plain(H, "Pal", points=30)],
        placements={"Pal": (5, 7)},
        dice=["3", "4", "3", "4"],
    )
    events = play(H, game, state, "Mind", "mind control", "mind control Mind -> Foe (5,6)")
    assert H.clicks(game, state, "Foe") == 0 and "mind_control" in H.kinds(events)
    assert H.phase(game, state) == "FIGURE" and H.seat(game, state) == 0
    names = H.names(game, state)
    assert "close Pal (5,7)" in names and "close Mind (5,5)" not in names  # it fights for seat 0
    events = game.apply_string(state, "close Pal (5,7)")
    assert H.clicks(game, state, "Pal") == 3
    assert H.d(game, state)["vp"] == [0.0, 0.0]
    assert H.tokens(game, state, "Foe") == 1 and H.tokens(game, state, "Mind") == 1
    assert H.clicks(game, state, "Mind") == 0  # 40 points hit: less than 100
    assert H.seat(game, state) == 1  # Mind's action (the player's only one) is over
    assert "select Foe (5,6)" in H.names(game, state)  # free to act in its owner's turn


def test_P_SPD_6_mind_controller_takes_1_per_100_points_hit(H):
    game, state = duel(
        H,
        plain(H, "Mind", powers=MIND, range=6, targets=2, points=50),
        plain(H, "Foe", points=80),
        b_at=(5, 9),
        build_total=200,
        extra1=[plain(H, "Foe Two", points=70)],
        placements={"Foe Two": (3, 9)},
        dice=["4", "4"],
    )
    play(
        H,
        game,
        state,
        "Mind",
        "mind control",
        "mind control Mind -> Foe (5,9)",
        "ranged Foe Two (3,9)",
    )
    assert H.sq(game, state, "Foe") == (5, 9)  # no damage, so no knockback
    game.apply_string(state, "move Foe to (5,9)")
    game.apply_string(state, "move Foe Two to (3,9)")
    assert H.clicks(game, state, "Mind") == 1  # 150 points: 1 click


def test_P_SPD_6_battle_fury_cannot_be_mind_controlled(H):
    fury = plain(H, "Berserker", powers=(None, None, None, "battle_fury"))
    game, state = duel(H, plain(H, "Mind", powers=MIND), fury)
    assert not H.options_of(game, state, "Mind", "mind control")


def test_P_SPD_11_running_shot_is_offered_only_for_a_shot_within_half_the_move(H):
    # a shot square 5 squares away: within the full move of 6, not within its half of 3
    shooter = plain(H, "Runner", powers=RUNNING, range=2, speed=6)
    game, state = duel(H, shooter, plain(H, "Foe"), a_at=(1, 0), b_at=(8, 0))
    assert not H.options_of(game, state, "Runner", "running shot")
    game, state = duel(H, shooter, plain(H, "Foe"), a_at=(1, 0), b_at=(6, 0))
    assert H.options_of(game, state, "Runner", "running shot") == {"running shot Runner"}
