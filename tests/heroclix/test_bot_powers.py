"""The heuristic bot and the powers: it plays the variants of envs/heroclix/RULES.md when they
pay more than the plain actions (P-SPD-1, 5, 6, 8, 9, 11; P-ATT-1, 2, 4, 6, 7, 8; P-DEF-6;
P-DMG-1, 4, 8), carries them out in the VARIANT phase, uses the free powers Outwit and
Perplex (P-DMG-10, 9), switches off optional powers that would hurt its side (HC-3.8) and
prices Willpower's push (P-DEF-8). Each use comes with a position where it is not made.

Positions are built with the ``H`` fixture; figures default to speed 6, attack 9, defense 16,
damage 2, 20 points and 6 clicks (a 2d6 roll of 7 or more hits).
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.bots import RandomBot
from envs.heroclix.bots.heuristic import HeuristicBot
from envs.heroclix.rules import HeroclixGame

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
INVULNERABLE = (None, None, "invulnerability", None)
WILLPOWER = (None, None, "willpower", None)


def step(game, state, bot=None) -> str:
    """Let the bot act once; returns the name of the action it took."""
    bot = bot or HeuristicBot()
    before = game.to_json(state)
    action = bot.act(game, state, np.random.default_rng(0))
    assert game.legal_mask(state)[action]
    assert game.to_json(state) == before, "the bot must not change the state"
    name = game.action_to_string(state, action)
    game.apply(state, action)
    return name


def plain(H, name, **kw):
    return H.fig(name.lower().replace(" ", "_"), name, **kw)


def duel(H, a, b, a_at=(5, 5), b_at=(5, 6), extra0=(), extra1=(), placements=None, **kw):
    place = {a["name"]: a_at, b["name"]: b_at, **(placements or {})}
    kw.setdefault("dice", None)  # seeded dice unless a test scripts them
    return H.build([[a, *extra0], [b, *extra1]], place, **kw)


def plays(game, state, n: int) -> list[str]:
    """The bot's next ``n`` actions (fewer if the turn passes to the other player)."""
    seat, out = H_seat(game, state), []
    for _ in range(n):
        if game.current_player(state) != seat:
            break
        out.append(step(game, state))
    return out


def H_seat(game, state) -> int:
    return game.current_player(state)


# -- close variants -------------------------------------------------------------------------------
def test_close_combat_expert_over_a_plain_close_attack(H):
    game, state = duel(H, plain(H, "Brute", powers=CCE), plain(H, "Foe"))
    assert plays(game, state, 3) == [
        "select Brute (5,5)",
        "close combat expert Brute",
        "close combat expert Brute -> Foe (5,6)",
    ]


def test_exploit_weakness_against_toughness_only(H):
    game, state = duel(H, plain(H, "Knife", powers=EXPLOIT), plain(H, "Tank", powers=TOUGH))
    assert plays(game, state, 2)[1] == "exploit weakness Knife"
    game, state = duel(
        H, plain(H, "Knife", powers=EXPLOIT, damage=1), plain(H, "Tank", powers=TOUGH)
    )
    assert plays(game, state, 2)[1] == "exploit weakness Knife"  # 1 click against none


def test_blades_roll_over_a_low_damage_value_not_over_a_high_one(H):
    game, state = duel(H, plain(H, "Claws", powers=BLADES, damage=1), plain(H, "Foe"))
    assert plays(game, state, 3)[1:] == [
        "blades claws fangs Claws",
        "blades claws fangs Claws -> Foe (5,6)",
    ]
    game, state = duel(H, plain(H, "Claws", powers=BLADES, damage=5), plain(H, "Foe", clicks=12))
    assert plays(game, state, 2)[1] == "close Foe (5,6)"  # 5 beats a d6's 3.5


def test_flurry_attacks_twice(H):
    game, state = duel(
        H, plain(H, "Fury", powers=FLURRY), plain(H, "Foe", clicks=12), dice=["3", "4", "3", "5"]
    )
    assert plays(game, state, 4)[1:] == [
        "flurry Fury",
        "flurry Fury -> Foe (5,6)",
        "flurry Fury -> Foe (5,6)",
    ]


def test_quake_on_three_adjacent_enemies(H):
    foes = [plain(H, "North"), plain(H, "South")]
    game, state = duel(
        H,
        plain(H, "Quaker", powers=QUAKE),
        plain(H, "East"),
        extra1=foes,
        placements={"North": (4, 5), "South": (6, 5)},
    )
    assert plays(game, state, 2)[1] == "quake Quaker"
    game, state = duel(H, plain(H, "Quaker", powers=QUAKE), plain(H, "East"))
    assert plays(game, state, 2)[1] == "close East (5,6)"  # one enemy: the same attack


def test_force_blast_into_a_wall_against_a_hard_target(H):
    game, state = duel(
        H,
        plain(H, "Blaster", powers=FORCE_BLAST),
        plain(H, "Foe", defense=19),
        walls=[((5, 6), (5, 7))],
    )
    assert plays(game, state, 3)[1:] == ["force blast Blaster", "force blast Blaster -> Foe (5,6)"]
    game, state = duel(H, plain(H, "Blaster", powers=FORCE_BLAST), plain(H, "Foe", defense=19))
    assert "force blast Blaster" not in plays(game, state, 2)  # open ground: no damage


def test_incapacitate_what_it_cannot_hurt(H):
    game, state = duel(H, plain(H, "Binder", powers=INCAP), plain(H, "Wall", powers=INVULNERABLE))
    assert plays(game, state, 3)[1:] == ["incapacitate Binder", "incapacitate Binder -> Wall (5,6)"]
    game, state = duel(H, plain(H, "Binder", powers=INCAP), plain(H, "Foe"))
    assert plays(game, state, 2)[1] == "close Foe (5,6)"


# -- ranged variants ------------------------------------------------------------------------------
def test_ranged_combat_expert_and_psychic_blast(H):
    game, state = duel(H, plain(H, "Ace", powers=RCE, range=6), plain(H, "Foe"), b_at=(5, 9))
    assert plays(game, state, 3)[1:] == [
        "ranged combat expert Ace",
        "ranged combat expert Ace -> Foe (5,9)",
    ]
    game, state = duel(
        H, plain(H, "Mind", powers=PSYCHIC, range=6), plain(H, "Tank", powers=TOUGH), b_at=(5, 9)
    )
    assert plays(game, state, 3)[1:] == ["psychic blast Mind", "psychic blast Mind -> Tank (5,9)"]


def test_energy_explosion_on_a_crowd_of_enemies_not_next_to_friends(H):
    shooter = plain(H, "Blaster", powers=EXPLOSION, range=6)
    crowd = [plain(H, "Foe Two"), plain(H, "Foe Three")]
    game, state = duel(
        H,
        shooter,
        plain(H, "Foe"),
        b_at=(5, 9),
        extra1=crowd,
        placements={"Foe Two": (4, 9), "Foe Three": (6, 9)},
    )
    assert plays(game, state, 3)[1:] == [
        "energy explosion Blaster",
        "energy explosion Blaster -> Foe (5,9)",
    ]
    pals = [plain(H, "Pal"), plain(H, "Pal Two")]
    game, state = duel(
        H,
        shooter,
        plain(H, "Foe"),
        b_at=(5, 9),
        extra0=pals,
        placements={"Pal": (4, 9), "Pal Two": (6, 9)},
    )
    chosen = plays(game, state, 3)
    assert chosen and not any(c.startswith("energy explosion") for c in chosen)


# -- Charge and Running Shot ----------------------------------------------------------------------
def test_charges_into_an_enemy_in_half_move_reach(H):
    game, state = duel(
        H, plain(H, "Charger", powers=CHARGE, speed=8), plain(H, "Foe"), a_at=(5, 1), b_at=(5, 6)
    )
    first = plays(game, state, 4)
    assert first[:2] == ["select Charger (5,1)", "charge Charger"]
    assert first[2].startswith("charge Charger (5,1)->")
    assert first[3] == "charge Charger -> Foe (5,6)"


def test_no_charge_without_an_attack_at_its_end(H):
    game, state = duel(
        H, plain(H, "Charger", powers=CHARGE, speed=6), plain(H, "Foe"), a_at=(5, 0), b_at=(5, 11)
    )
    assert "charge Charger" not in plays(game, state, 2)


@pytest.mark.parametrize("defense", [16, 22])
def test_never_ends_a_charge_before_attacking_when_it_can(H, defense):
    game, state = duel(
        H,
        plain(H, "Charger", powers=CHARGE, speed=8),
        plain(H, "Foe", defense=defense),
        a_at=(5, 1),
        b_at=(5, 6),
    )
    H.select(game, state, "Charger")
    game.apply_string(state, "charge Charger")
    game.apply_string(state, "charge Charger (5,1)->(5,5)")
    assert H.phase(game, state) == "VARIANT" and "end charge" in H.names(game, state)
    assert step(game, state) == "charge Charger -> Foe (5,6)"


def test_running_shot_when_the_shot_is_half_a_move_away(H):
    shooter = plain(H, "Runner", powers=RUNNING, range=4)
    game, state = duel(H, shooter, plain(H, "Foe"), a_at=(1, 0), b_at=(7, 6))
    assert not H.ranged_targets(game, state, "Runner")  # nothing to shoot from (1,0)
    chosen = plays(game, state, 4)
    assert chosen[:2] == ["select Runner (1,0)", "running shot Runner"]
    assert chosen[2].startswith("running shot Runner (1,0)->")
    assert chosen[3] == "running shot Runner -> Foe (7,6)"
    assert H.clicks(game, state, "Foe") >= 0 and H.tokens(game, state, "Runner") == 1


# -- pushing --------------------------------------------------------------------------------------
def test_willpower_makes_a_push_cheaper(H):
    """P-DEF-8: no pushing click, so a smaller gain pays for acting with a token."""

    def first(powers):
        shooter = plain(H, "Shooter", powers=powers, range=6, damage=3, points=40)
        game, state = duel(
            H,
            shooter,
            plain(H, "Foe", points=10),
            b_at=(5, 10),
            tokens={"Shooter": 1},
            clicks={"Foe": 3},
        )
        return step(game, state)

    assert first((None, None, None, None)) == "end turn"
    assert first(WILLPOWER).startswith("select Shooter")


# -- whole games ----------------------------------------------------------------------------------
def test_legal_and_read_only_in_a_brawl_of_powers():
    """brawl holds most of the variant figures: heuristic against heuristic and random."""
    game = HeroclixGame("brawl")
    bot = HeuristicBot()
    for seats in ([bot] * game.num_players, [bot] + [RandomBot()] * (game.num_players - 1)):
        state = game.new_state(3)
        rng = np.random.default_rng(3)
        for _ in range(20_000):
            seat = game.current_player(state)
            if seat < 0:
                break
            before = game.to_json(state)
            action = seats[seat].act(game, state, rng)
            assert game.legal_mask(state)[action]
            assert game.to_json(state) == before
            game.apply(state, action)
        assert game.current_player(state) < 0


def test_P_DEF_7_the_bot_passes_a_killing_blow_to_a_cheap_friend(H):
    boss = H.fig("boss", "Boss", points=60, powers=(None, None, "mastermind", None), clicks=3)
    minion = H.fig("minion", "Minion", points=15, clicks=6)
    game, state = H.build(
        [[H.fig("hitter", "Hitter", damage=3)], [boss, minion]],
        {"Hitter": (5, 5), "Boss": (5, 6), "Minion": (6, 6)},
        dice=["3", "4"],
    )
    H.close(game, state, "Hitter", "Boss")
    assert H.phase(game, state) == "INTERRUPT"
    action = HeuristicBot().act(game, state, np.random.default_rng(0))
    assert game.action_to_string(state, action) == "transfer 3 from Boss to Minion (6,6)"


def test_P_ATT_3_the_bot_sends_a_pulse_wave_through_two_enemies(H):
    pulser = H.fig("pulser", "Pulser", range=8, powers=(None, "pulse_wave", None, None), attack=11)
    game, state = H.build(
        [[pulser], [H.fig("foe", "Foe"), H.fig("foe_two", "Foe Two")]],
        {"Pulser": (5, 5), "Foe": (5, 8), "Foe Two": (3, 8)},
    )
    H.select(game, state, "Pulser")
    action = HeuristicBot().act(game, state, np.random.default_rng(0))
    # with one bolt, the wave (one roll on both) is worth more than one shot
    assert game.action_to_string(state, action) == "pulse wave Pulser"


# -- Hypersonic Speed (P-SPD-9) -------------------------------------------------------------------
HYPERSONIC = ("hypersonic_speed", None, None, None)
MIND_CONTROL = ("mind_control", None, None, None)
SMOKE = (None, "smoke_cloud", None, None)
BARRIER = (None, None, "barrier", None)
OUTWIT = (None, None, None, "outwit")
PERPLEX = (None, None, None, "perplex")


def adjacent(a, b) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def test_P_SPD_9_hypersonic_strikes_on_the_way_and_moves_on(H):
    game, state = duel(
        H, plain(H, "Dart", powers=HYPERSONIC, speed=10), plain(H, "Foe"), a_at=(5, 1), b_at=(5, 7)
    )
    chosen = plays(game, state, 5)
    assert chosen[:2] == ["select Dart (5,1)", "hypersonic speed Dart"]
    assert chosen[2].startswith("hypersonic speed Dart (5,1)->")
    assert chosen[3] == "hypersonic speed Dart -> Foe (5,7)"
    assert chosen[4].startswith("hypersonic speed Dart (")  # the rest of the move
    assert not adjacent(H.sq(game, state, "Dart"), (5, 7))  # away from the Foe's blow


def test_P_SPD_9_no_hypersonic_without_an_enemy_in_reach(H):
    game, state = duel(
        H,
        plain(H, "Dart", powers=HYPERSONIC, speed=9),
        plain(H, "Foe", points=60, clicks=1),
        a_at=(0, 0),
        b_at=(11, 11),
    )  # 10 squares to a square beside it
    chosen = plays(game, state, 2)  # a plain move on, as far as the variant would go
    assert chosen[0] == "select Dart (0,0)" and chosen[1].startswith("move Dart")


# -- Mind Control (P-SPD-6) -----------------------------------------------------------------------
def controller_game(H, friend_at=(5, 11), **kw):
    """Warden (Mind Control, range 6) sees Brute (damage 4) five squares away; Brute's friend
    Prize (50 points, 2 clicks) stands at ``friend_at``, out of Warden's range."""
    warden = plain(H, "Warden", powers=MIND_CONTROL, range=6)
    brute = plain(H, "Brute", damage=4)
    prize = plain(H, "Prize", points=50, clicks=2)
    return duel(
        H,
        warden,
        brute,
        a_at=(5, 2),
        b_at=(5, 7),
        extra1=[prize],
        placements={"Prize": friend_at},
        **kw,
    )


def test_P_SPD_6_mind_control_turns_an_enemy_on_its_valuable_friend(H):
    game, state = controller_game(H, friend_at=(5, 8), dice=["3", "4", "3", "5"])
    assert plays(game, state, 3) == [
        "select Warden (5,2)",
        "mind control Warden",
        "mind control Warden -> Brute (5,7)",
    ]
    assert H.phase(game, state) == "FIGURE" and game.current_player(state) == 0
    assert step(game, state) == "close Prize (5,8)"  # the controlled Brute hits its friend
    assert H.sq(game, state, "Prize") is None  # 4 damage on 2 clicks: KO'd


def test_P_SPD_6_no_mind_control_when_the_enemy_has_nothing_to_hit(H):
    game, state = controller_game(H, friend_at=(5, 11))
    chosen = plays(game, state, 2)
    assert chosen[0] == "select Warden (5,2)" and "mind control Warden" not in chosen


# -- switching off (HC-3.8) -----------------------------------------------------------------------
def controlled_brute(H, powers, tokens=0, build_total=100, pal=False):
    """Warden's Mind Control has hit Brute (next to its friend Prize): Brute's action is ours."""
    warden = plain(H, "Warden", powers=MIND_CONTROL, range=6)
    brute = plain(H, "Brute", damage=4, powers=powers)
    prize = plain(H, "Prize", points=50, clicks=6)
    extra0 = [plain(H, "Pal", range=6)] if pal else []
    game, state = duel(
        H,
        warden,
        brute,
        a_at=(5, 2),
        b_at=(5, 7),
        extra0=extra0,
        extra1=[prize],
        placements={"Prize": (5, 8), **({"Pal": (3, 2)} if pal else {})},
        tokens={"Brute": tokens},
        build_total=build_total,
        dice=["3", "4"] * 4,
    )
    H.select(game, state, "Warden")
    game.apply_string(state, "mind control Warden")
    game.apply_string(state, "mind control Warden -> Brute (5,7)")
    assert H.phase(game, state) == "FIGURE" and "switch off defense power" in H.names(game, state)
    return game, state


def test_HC_3_8_switches_off_the_willpower_of_an_enemy_it_pushes(H):
    """P-DEF-8 + P-SPD-6: the action we give Brute is its push; without Willpower it costs
    Brute the click."""
    willpower = (None, None, "willpower", None)
    game, state = controlled_brute(H, willpower, tokens=1)
    before = H.clicks(game, state, "Brute")
    assert step(game, state) == "switch off defense power"
    assert step(game, state) == "close Prize (5,8)"
    assert H.clicks(game, state, "Brute") == before + 1
    game, state = controlled_brute(H, willpower, tokens=0)  # no push: nothing to gain
    assert step(game, state) == "close Prize (5,8)"


def test_HC_3_8_switches_off_super_senses_of_a_controlled_enemy_before_more_attacks(H):
    senses = (None, None, "super_senses", None)
    game, state = controlled_brute(H, senses, build_total=200, pal=True)  # Pal acts next
    assert step(game, state) == "switch off defense power"
    game, state = controlled_brute(H, senses)  # one action a turn: nobody attacks it later
    assert step(game, state) == "close Prize (5,8)"


def test_HC_3_8_switches_off_its_own_attack_power_in_an_enemy_mind_controllers_reach(H):
    """P-SPD-6: Blades would serve the enemy Warden's controlled Razor against us; Razor's
    plain blow (damage 5 beats a d6) does not need it."""

    def first_two(enemies):
        razor = plain(H, "Razor", powers=BLADES, damage=5)
        game, state = duel(
            H, razor, plain(H, "Foe", clicks=12), extra1=enemies, placements={"Warden": (5, 0)}
        )
        return plays(game, state, 3)

    warden = plain(H, "Warden", powers=MIND_CONTROL, range=6)
    assert first_two([warden]) == [
        "select Razor (5,5)",
        "switch off attack power",
        "close Foe (5,6)",
    ]
    assert first_two([plain(H, "Warden", range=6)])[:2] == ["select Razor (5,5)", "close Foe (5,6)"]


def test_HC_3_8_switches_off_super_strength_to_strike_with_close_combat_expert(H):
    """P-DMG-8: no CCE while holding; HC-6.10: without Super Strength the table stays on
    the square, so CCE's +2 replaces the table's +1 (and the table is kept)."""

    def first(powers):
        brute = plain(H, "Brute", powers=powers)
        game, state = duel(
            H, brute, plain(H, "Foe", clicks=12), objects={"table": None}, held={"Brute": "table"}
        )
        return plays(game, state, 3), game, state

    chosen, game, state = first((None, "super_strength", None, "close_combat_expert"))
    assert chosen == ["select Brute (5,5)", "switch off attack power", "close combat expert Brute"]
    assert H.object_at(game, state, "table") == (5, 5)
    chosen, game, state = first((None, "super_strength", None, None))
    assert chosen[:2] == ["select Brute (5,5)", "close Foe (5,6)"]


# -- Outwit and Perplex (P-DMG-10, P-DMG-9) -------------------------------------------------------
def test_P_DMG_10_outwit_counters_the_invulnerability_of_the_target(H):
    sage = plain(H, "Sage", powers=OUTWIT)
    game, state = duel(
        H,
        plain(H, "Hitter"),
        plain(H, "Tank", powers=INVULNERABLE),
        extra0=[sage],
        placements={"Sage": (2, 6)},
    )
    assert plays(game, state, 5) == [
        "free Sage (2,6)",
        "outwit Sage -> Tank (5,6)",
        "outwit Tank: counter the defense power",
        "select Hitter (5,5)",
        "close Tank (5,6)",
    ]


def test_P_DMG_10_outwit_counters_a_threat_and_ignores_a_harmless_power(H):
    def first(power):
        slasher = plain(H, "Slasher", powers=(None, None, None, power), damage=3)
        game, state = duel(
            H,
            plain(H, "Sage", powers=OUTWIT, defense=20),
            slasher,
            a_at=(5, 2),
            b_at=(5, 3),
            dice=None,
        )
        return plays(game, state, 3)

    assert first("close_combat_expert")[:3] == [
        "free Sage (5,2)",
        "outwit Sage -> Slasher (5,3)",
        "outwit Slasher: counter the damage power",
    ]
    assert first("leadership")[0] == "select Sage (5,2)"


def test_P_DMG_9_perplex_helps_the_attack_about_to_be_made(H):
    sage = plain(H, "Sage", powers=PERPLEX)
    game, state = duel(
        H, plain(H, "Hitter"), plain(H, "Foe", clicks=2), extra0=[sage], placements={"Sage": (2, 2)}
    )
    chosen = plays(game, state, 5)
    assert chosen[0] == "free Sage (2,2)"
    assert chosen[1] in ("perplex Sage -> Hitter (5,5)", "perplex Sage -> Foe (5,6)")
    assert chosen[2] in (
        "perplex Hitter: attack +1",
        "perplex Hitter: damage +1",
        "perplex Foe: defense -1",
    )
    assert chosen[3:] == ["select Hitter (5,5)", "close Foe (5,6)"]


def test_P_DMG_9_no_perplex_with_nothing_to_attack(H):
    sage = plain(H, "Sage", powers=PERPLEX)
    game, state = duel(
        H,
        plain(H, "Walker"),
        plain(H, "Foe"),
        a_at=(2, 1),
        b_at=(9, 10),
        extra0=[sage],
        placements={"Sage": (2, 3)},
    )
    assert not plays(game, state, 1)[0].startswith("free")


# -- Smoke Cloud and Barrier (P-ATT-8, P-DEF-6) ---------------------------------------------------
def marker_game(H, powers, sniper_range=8, speed=1):
    """Mason (range 4, slow) beside Pal; the Sniper shoots at them from eight squares."""
    mason = plain(H, "Mason", powers=powers, range=4, speed=speed)
    pal = plain(H, "Pal", points=50, clicks=2)
    sniper = plain(H, "Sniper", range=sniper_range, damage=3, speed=1)
    return duel(
        H,
        mason,
        sniper,
        a_at=(6, 1),
        b_at=(6, 9),
        extra0=[pal],
        placements={"Pal": (5, 1)},
        tokens={"Pal": 2},
    )  # Pal may not walk away


def markers(game, state, layer: str) -> list:
    return [rc_of(game, c) for c, who in enumerate(game.to_dict(state)[layer]) if who >= 0]


def rc_of(game, cell: int):
    return divmod(int(cell), game.width)


def test_P_DEF_6_a_barrier_cuts_the_enemy_line_of_fire(H):
    game, state = marker_game(H, BARRIER)
    assert H.ranged_targets(game, state, "Mason") == set()  # nothing to shoot
    chosen = plays(game, state, 6)
    assert chosen[:3] == ["select Mason (6,1)", "barrier Mason", "barrier Mason marker (6,5)"]
    assert H.seat(game, state) == 1 and H.ranged_targets(game, state, "Sniper") == set()


def test_P_ATT_8_smoke_covers_the_figure_the_enemy_would_shoot(H):
    game, state = marker_game(H, SMOKE)
    chosen = plays(game, state, 6)
    assert chosen[:2] == ["select Mason (6,1)", "smoke cloud Mason"]
    assert (5, 1) in markers(game, state, "smoke")  # Pal's square: hindered, +1 defense
    assert H.seat(game, state) == 1


@pytest.mark.parametrize("powers,name", [(BARRIER, "barrier"), (SMOKE, "smoke cloud")])
def test_P_DEF_6_P_ATT_8_no_markers_without_an_enemy_shooter(H, powers, name):
    game, state = marker_game(H, powers, sniper_range=0)
    assert f"{name} Mason" not in plays(game, state, 2)
