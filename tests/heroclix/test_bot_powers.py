"""The heuristic bot and the powers: it plays the variants of heroclix_powers.md when they
pay more than the plain actions (P-SPD-1, 5, 8, 11; P-ATT-1, 2, 4, 6, 7; P-DMG-1, 4, 8),
carries them out in the VARIANT phase, and prices Willpower's push (P-DEF-8).

Positions are built with the ``H`` fixture; figures default to speed 6, attack 9, defense 16,
damage 2, 20 points and 6 clicks (a 2d6 roll of 7 or more hits).
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.bots import RandomBot
from envs.heroclix.bots import HeuristicBot
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
    assert plays(game, state, 3) == ["select Brute (5,5)", "close combat expert Brute",
                                     "close combat expert Brute -> Foe (5,6)"]


def test_exploit_weakness_against_toughness_only(H):
    game, state = duel(H, plain(H, "Knife", powers=EXPLOIT), plain(H, "Tank", powers=TOUGH))
    assert plays(game, state, 2)[1] == "exploit weakness Knife"
    game, state = duel(H, plain(H, "Knife", powers=EXPLOIT, damage=1),
                       plain(H, "Tank", powers=TOUGH))
    assert plays(game, state, 2)[1] == "exploit weakness Knife"  # 1 click against none


def test_blades_roll_over_a_low_damage_value_not_over_a_high_one(H):
    game, state = duel(H, plain(H, "Claws", powers=BLADES, damage=1), plain(H, "Foe"))
    assert plays(game, state, 3)[1:] == ["blades claws fangs Claws",
                                         "blades claws fangs Claws -> Foe (5,6)"]
    game, state = duel(H, plain(H, "Claws", powers=BLADES, damage=5),
                       plain(H, "Foe", clicks=12))
    assert plays(game, state, 2)[1] == "close Foe (5,6)"  # 5 beats a d6's 3.5


def test_flurry_attacks_twice(H):
    game, state = duel(H, plain(H, "Fury", powers=FLURRY), plain(H, "Foe", clicks=12),
                       dice=["3", "4", "3", "5"])
    assert plays(game, state, 4)[1:] == ["flurry Fury", "flurry Fury -> Foe (5,6)",
                                         "flurry Fury -> Foe (5,6)"]


def test_quake_on_three_adjacent_enemies(H):
    foes = [plain(H, "North"), plain(H, "South")]
    game, state = duel(H, plain(H, "Quaker", powers=QUAKE), plain(H, "East"), extra1=foes,
                       placements={"North": (4, 5), "South": (6, 5)})
    assert plays(game, state, 2)[1] == "quake Quaker"
    game, state = duel(H, plain(H, "Quaker", powers=QUAKE), plain(H, "East"))
    assert plays(game, state, 2)[1] == "close East (5,6)"  # one enemy: the same attack


def test_force_blast_into_a_wall_against_a_hard_target(H):
    game, state = duel(H, plain(H, "Blaster", powers=FORCE_BLAST), plain(H, "Foe", defense=19),
                       walls=[((5, 6), (5, 7))])
    assert plays(game, state, 3)[1:] == ["force blast Blaster",
                                         "force blast Blaster -> Foe (5,6)"]
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
    assert plays(game, state, 3)[1:] == ["ranged combat expert Ace",
                                         "ranged combat expert Ace -> Foe (5,9)"]
    game, state = duel(H, plain(H, "Mind", powers=PSYCHIC, range=6),
                       plain(H, "Tank", powers=TOUGH), b_at=(5, 9))
    assert plays(game, state, 3)[1:] == ["psychic blast Mind", "psychic blast Mind -> Tank (5,9)"]


def test_energy_explosion_on_a_crowd_of_enemies_not_next_to_friends(H):
    shooter = plain(H, "Blaster", powers=EXPLOSION, range=6)
    crowd = [plain(H, "Foe Two"), plain(H, "Foe Three")]
    game, state = duel(H, shooter, plain(H, "Foe"), b_at=(5, 9), extra1=crowd,
                       placements={"Foe Two": (4, 9), "Foe Three": (6, 9)})
    assert plays(game, state, 3)[1:] == ["energy explosion Blaster",
                                         "energy explosion Blaster -> Foe (5,9)"]
    pals = [plain(H, "Pal"), plain(H, "Pal Two")]
    game, state = duel(H, shooter, plain(H, "Foe"), b_at=(5, 9), extra0=pals,
                       placements={"Pal": (4, 9), "Pal Two": (6, 9)})
    chosen = plays(game, state, 3)
    assert chosen and not any(c.startswith("energy explosion") for c in chosen)


# -- Charge and Running Shot ----------------------------------------------------------------------
def test_charges_into_an_enemy_in_half_move_reach(H):
    game, state = duel(H, plain(H, "Charger", powers=CHARGE, speed=8), plain(H, "Foe"),
                       a_at=(5, 1), b_at=(5, 6))
    first = plays(game, state, 4)
    assert first[:2] == ["select Charger (5,1)", "charge Charger"]
    assert first[2].startswith("charge Charger (5,1)->")
    assert first[3] == "charge Charger -> Foe (5,6)"


def test_no_charge_without_an_attack_at_its_end(H):
    game, state = duel(H, plain(H, "Charger", powers=CHARGE, speed=6), plain(H, "Foe"),
                       a_at=(5, 0), b_at=(5, 11))
    assert "charge Charger" not in plays(game, state, 2)


@pytest.mark.parametrize("defense", [16, 22])
def test_never_ends_a_charge_before_attacking_when_it_can(H, defense):
    game, state = duel(H, plain(H, "Charger", powers=CHARGE, speed=8),
                       plain(H, "Foe", defense=defense), a_at=(5, 1), b_at=(5, 6))
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


# -- pushing ----------------------------------------------------------------------------------------
def test_willpower_makes_a_push_cheaper(H):
    """P-DEF-8: no pushing click, so a smaller gain pays for acting with a token."""
    def first(powers):
        shooter = plain(H, "Shooter", powers=powers, range=6, damage=3, points=40)
        game, state = duel(H, shooter, plain(H, "Foe", points=10), b_at=(5, 10),
                           tokens={"Shooter": 1}, clicks={"Foe": 3})
        return step(game, state)
    assert first((None, None, None, None)) == "end turn"
    assert first(WILLPOWER).startswith("select Shooter")


# -- whole games ------------------------------------------------------------------------------------
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
    game, state = H.build([[H.fig("hitter", "Hitter", damage=3)], [boss, minion]],
                          {"Hitter": (5, 5), "Boss": (5, 6), "Minion": (6, 6)},
                          dice=["3", "4"])
    H.close(game, state, "Hitter", "Boss")
    assert H.phase(game, state) == "INTERRUPT"
    action = HeuristicBot().act(game, state, np.random.default_rng(0))
    assert game.action_to_string(state, action) == "transfer 3 from Boss to Minion (6,6)"


def test_P_ATT_3_the_bot_sends_a_pulse_wave_through_two_enemies(H):
    pulser = H.fig("pulser", "Pulser", range=8, powers=(None, "pulse_wave", None, None),
                   attack=11)
    game, state = H.build([[pulser], [H.fig("foe", "Foe"), H.fig("foe_two", "Foe Two")]],
                          {"Pulser": (5, 5), "Foe": (5, 8), "Foe Two": (3, 8)})
    H.select(game, state, "Pulser")
    action = HeuristicBot().act(game, state, np.random.default_rng(0))
    # with one bolt, the wave (one roll on both) is worth more than one shot
    assert game.action_to_string(state, action) == "pulse wave Pulser"
