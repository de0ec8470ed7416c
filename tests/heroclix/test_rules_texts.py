"""What a person reads of a HeroClix game: the attack events show the arithmetic the rules did
(HC-4.2 roll + attack against defense, HC-4.3 damage, HC-4.6/4.7 criticals, HC-5.11 the
hindering +1, the powers that change a value), labelled by the attack's kind (HC-4.14,
HC-4.27) whatever the distance; and the victory points shown are the tally the game ends with
(HC-7.4-7.8), at every step.

Positions and scripted dice come from the rule-test helpers (tests/heroclix/conftest.py); the
checks read apply's events, ``render_text`` and the frame's panel only.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from envs.heroclix.rules import HeroclixGame

TOUGHNESS = (None, None, "toughness", None)
DEFLECTION = (None, None, "energy_shield_deflection", None)
DEFEND = (None, None, "defend", None)
RULE_ID = re.compile(r"\b(HC|P|R|TA)-[A-Z]*-?\d")
PANEL_VP = re.compile(r"^(\S+): (-?[\d.]+) VP")
STATUS_VP = re.compile(r"^(\S+) \((-?[\d.]+) VP\): ")
RESULT_VP = re.compile(r"([^\s(]+) (-?[\d.]+)(?:,| VP\))")


def fight(H, a=None, b=None, a_at=(5, 5), b_at=(5, 6), **kw):
    """Seat 0's Attacker against seat 1's Target; seat 0 to play."""
    a = a or H.fig("attacker", "Attacker")
    b = b or H.fig("target", "Target")
    return H.build([[a], [b]], {"Attacker": a_at, "Target": b_at}, **kw)


def shooter(H, **kw):
    return H.fig("attacker", "Attacker", range=6, **kw)


def attack_text(events) -> str:
    found = [e.text for e in events if e.kind == "attack"]
    assert len(found) == 1, found
    return found[0]


# -- HC-4.2-4.3: the sum, and what it came to -------------------------------------------------


def test_HC_4_2_attack_event_shows_the_sum_of_a_hit_and_its_damage(H):
    game, state = fight(H, dice=["5", "3"])  # 8 + attack 9 = 17 >= defense 16
    events = H.close(game, state, "Attacker", "Target")
    assert attack_text(events) == (
        "Attacker close attack on Target: rolls 5+3 + attack 9 = 17 vs defense 16: hit, 2 damage"
    )
    assert H.clicks(game, state, "Target") == 2


def test_HC_5_11_attack_event_shows_the_hindering_one_of_a_miss(H):
    game, state = fight(H, a=shooter(H), b_at=(5, 8), marks={(5, 6): "%"}, dice=["4", "3"])
    events = H.ranged(game, state, "Attacker", "Target")  # 7 + 9 = 16 < 16 + 1
    assert attack_text(events) == (
        "Attacker ranged attack on Target: rolls 4+3 + attack 9 = 16 "
        "vs defense 17 (16 +1 hindering): miss"
    )
    assert H.clicks(game, state, "Target") == 0


def test_HC_4_2_a_defense_power_and_a_lent_defense_are_named_in_the_sum(H):
    target = H.fig("target", "Target", powers=DEFLECTION)
    game, state = fight(H, a=shooter(H), b=target, b_at=(5, 8), dice=["5", "4"])
    events = H.ranged(game, state, "Attacker", "Target")  # 9 + 9 = 18 vs 16 + 2
    assert attack_text(events).endswith(
        ": rolls 5+4 + attack 9 = 18 vs defense 18 (16 +2 energy shield deflection): hit, 2 damage"
    )
    guard = H.fig("guard", "Guard", defense=18, powers=DEFEND)
    game, state = H.build(
        [[H.fig("attacker", "Attacker")], [H.fig("target", "Target"), guard]],
        {"Attacker": (5, 5), "Target": (5, 6), "Guard": (5, 7)},
        dice=["4", "3"],
    )
    events = H.close(game, state, "Attacker", "Target")  # 7 + 9 = 16 < Guard's 18
    assert attack_text(events).endswith(
        ": rolls 4+3 + attack 9 = 16 vs defense 18 (Guard's 18): miss"
    )


def test_R_3_a_damage_event_names_the_reduction_that_applied(H):
    target = H.fig("target", "Target", powers=TOUGHNESS)
    game, state = fight(H, b=target, dice=["5", "3"])
    events = H.close(game, state, "Attacker", "Target")
    assert [e.text for e in events if e.kind == "damage"] == [
        "Target takes 1 (attack 2 -1 toughness)"
    ]


def test_HC_4_7_a_12_says_critical_hit_and_its_extra_damage(H):
    a = H.fig("attacker", "Attacker", attack=1)
    game, state = fight(H, a=a, dice=["6", "6"])  # 12 + 1 < 16: the 12 decides
    events = H.close(game, state, "Attacker", "Target")
    assert attack_text(events) == (
        "Attacker close attack on Target: rolls 6+6 = 12: critical hit, 3 damage (2 +1 critical)"
    )


def test_HC_4_6_a_2_says_critical_miss(H):
    a = H.fig("attacker", "Attacker", attack=20)
    game, state = fight(H, a=a, dice=["1", "1"])  # 2 + 20 would reach 16: the 2 decides
    events = H.close(game, state, "Attacker", "Target")
    assert attack_text(events) == "Attacker close attack on Target: rolls 1+1 = 2: critical miss"


def test_HC_4_25_several_targets_each_get_their_defense_and_outcome(H):
    a = H.fig("attacker", "Attacker", range=8, targets=2)
    foes = [H.fig("target", "Target"), H.fig("other", "Other", defense=18)]
    game, state = H.build(
        [[a], foes], {"Attacker": (8, 5), "Target": (2, 5), "Other": (4, 9)}, dice=["4", "4"]
    )
    events = H.ranged(game, state, "Attacker", "Target", "Other")  # 8 + 9 = 17
    assert attack_text(events) == (
        "Attacker ranged attack on Target, Other: rolls 4+4 + attack 9 = 17; "
        "vs Target's defense 16: hit, 1 damage (2 capped at 1 for several targets); "
        "vs Other's defense 18: miss"
    )


# -- HC-4.14 / HC-4.27: labelled by the attack's kind ------------------------------------------


def ranged_at_distance_1(H):
    """HC-4.21: a ground figure shooting a soaring flyer on a touching square."""
    target = H.fig("target", "Target", flyer=True)
    game, state = fight(H, a=shooter(H), b=target, b_at=(5, 6, "soar"), dice=["5", "3"])
    return game, state, H.ranged(game, state, "Attacker", "Target")


def test_HC_4_14_a_ranged_attack_at_distance_1_is_labelled_ranged(H):
    game, state, events = ranged_at_distance_1(H)
    text = attack_text(events)
    assert text.startswith("Attacker ranged attack on Target: rolls 5+3")
    assert "close" not in text


def test_P_DMG_1_a_power_variant_names_its_attack_kind_and_its_bonus(H):
    expert = shooter(H, powers=(None, None, None, "ranged_combat_expert"))
    game, state = fight(H, a=expert, b_at=(5, 9), dice=["3", "4"])
    events = H.select(game, state, "Attacker")
    events += game.apply_string(state, "ranged combat expert Attacker")
    events += game.apply_string(state, "ranged combat expert Attacker -> Target (5,9)")
    assert attack_text(events) == (
        "Attacker ranged combat expert (ranged attack) on Target: rolls 3+4 + attack 9 = 16 "
        "vs defense 16: hit, 4 damage (2 +2 ranged combat expert)"
    )


def test_HC_4_14_the_frame_calls_a_ranged_attack_at_distance_1_ranged(H):
    game, state, events = ranged_at_distance_1(H)
    assert game.scene(state, events).arrow_meaning == "ranged attack"


# -- texts of whole games ----------------------------------------------------------------------


def played(scenario: str, seed: int, steps: int = 1000):
    """(game, state, events) after each step of a seeded game: random, but attacking when it
    can and seldom ending its turn early, so that figures meet and fall."""
    game = HeroclixGame(scenario=scenario, max_rounds=20)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_terminal(state):
            return
        legal = game.legal_actions(state)
        words = [game.action_to_string(state, a).split(" ")[0] for a in legal]
        fights = [a for a, w in zip(legal, words) if w in ("close", "ranged", "fire")]
        busy = [a for a, w in zip(legal, words) if w not in ("end", "pass")]
        pool = fights if fights and rng.random() < 0.8 else busy or legal
        events = game.apply(state, int(rng.choice(pool)))
        yield game, state, events


GAMES = [("duel", 0), ("brawl", 1), ("mall", 3), ("street", 3)]


@pytest.mark.parametrize("scenario,seed", GAMES)
def test_HC_4_2_every_attack_text_adds_up_and_no_text_names_a_rule(scenario, seed):
    sums = re.compile(r": rolls (\d)\+(\d)(?: \+ \D*(\d+)(?: [+-]\d+ [a-z ]+)* = (\d+))?")
    attacks = 0
    for _, _, events in played(scenario, seed):
        for e in events:
            assert not RULE_ID.search(e.text), e.text
            if e.kind != "attack":
                continue
            attacks += 1
            found = sums.search(e.text)
            assert found, e.text
            a, b = int(found[1]), int(found[2])
            assert e.dice == (str(a), str(b))
            if a + b in (2, 12):
                assert f" = {a + b}: critical " in e.text
            else:
                assert found[4], e.text
                terms = [int(t) for t in re.findall(r" ([+-]\d+) ", e.text.split(" = ")[0])]
                assert int(found[4]) == a + b + int(found[3]) + sum(terms), e.text
    assert attacks


def vp_of(pattern: re.Pattern, lines) -> dict[str, float]:
    return {m[1]: float(m[2]) for m in map(pattern.match, lines) if m}


@pytest.mark.parametrize("scenario,seed", GAMES)
def test_HC_7_4_the_panel_shows_the_tally_the_game_ends_with(scenario, seed):
    final = None
    for game, state, events in played(scenario, seed):
        names = list(game.player_names)
        board = game.scoreboard(state)
        expected = dict(zip(names, board.values))
        panel = game.scene(state, events).status_lines
        assert vp_of(PANEL_VP, panel) == expected
        assert vp_of(STATUS_VP, game.render_text(state).splitlines()) == expected
        over = [e.text for e in events if e.kind == "game_over"]
        if over:
            final = dict((m[0], float(m[1])) for m in RESULT_VP.findall(over[0]))
            assert vp_of(PANEL_VP, panel) == final
    assert final is not None, "the game should end within its rounds"
