"""The HeroClix heuristic bot: legal play on every scenario, its choices in set-up positions
(focus fire, pushing, objects, healing, Telekinesis, several bolts) and a win over random."""

from __future__ import annotations

import numpy as np
import pytest

from envs.bots import Bot, RandomBot, play_match
from envs.heroclix.bots.heuristic import HeuristicBot, normal_hit
from envs.heroclix.rules import HeroclixGame


def step(game, state, bot=None) -> str:
    """Let the bot act once; returns the name of the action it took."""
    bot = bot or HeuristicBot()
    action = bot.act(game, state, np.random.default_rng(0))
    assert game.legal_mask(state)[action]
    name = game.action_to_string(state, action)
    game.apply(state, action)
    return name


def test_protocol_and_hit_table():
    assert isinstance(HeuristicBot(), Bot) and HeuristicBot.name == "heuristic"
    assert normal_hit(7) == pytest.approx(20 / 36)  # 7..11 (HC-4.2; a 12 is a critical hit)
    assert normal_hit(-5) == normal_hit(3) == pytest.approx(34 / 36)  # a 2 always misses
    assert normal_hit(12) == normal_hit(20) == 0.0


# -- legal play on every shipped scenario -----------------------------------------------------
@pytest.mark.parametrize(
    "scenario,games,setup",
    [
        ("duel", 2, "fixed"),
        ("mall", 1, "fixed"),
        ("street", 1, "fixed"),
        ("brawl", 1, "fixed"),
        ("duel", 1, "play"),
    ],
)
def test_only_legal_actions_and_no_mutation(scenario, games, setup):
    game = HeroclixGame(scenario, setup=setup)
    bot, other = HeuristicBot(), RandomBot()
    for seed in range(games):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        seats = [bot if s == seed % game.num_players else other for s in range(game.num_players)]
        for _ in range(20_000):
            seat = game.current_player(state)
            if seat < 0:
                break
            mask = game.legal_mask(state)
            before = game.to_json(state)
            action = seats[seat].act(game, state, rng)
            assert mask[action], f"{scenario} seed {seed}: illegal action {action}"
            assert game.to_json(state) == before, "the bot must not change the state"
            game.apply(state, action)
        assert game.current_player(state) < 0, "the game did not end"


def test_scored_weighs_every_decision_of_whole_games():
    # The lookahead asks scored() for any position; a Running Shot that moved to a square
    # with no target left once made it raise (brawl seeds 2 and 5).
    game = HeroclixGame("brawl")
    for seed in (2, 5):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        bot = HeuristicBot()
        while game.current_player(state) >= 0:
            for score, action in bot.scored(game, state):
                assert game.legal_mask(state)[action] and not np.isnan(score)
            game.apply(state, bot.act(game, state, rng))


# -- choices in set-up positions (duel: Quarry, Street Thug 1 v Razorback, Mender, Thug 2) --
def duel(**position):
    return HeroclixGame.from_scenario("duel", **position)


def test_close_attack_finishes_the_enemy_it_can_ko():
    game, state = duel(
        placements={
            "Quarry": (10, 8),
            "Razorback": (10, 9),
            "Street Thug 2": (10, 7),
            "Street Thug 1": None,
            "Mender": (0, 0),
        },
        clicks={"Street Thug 2": 3},
        turn=0,
    )
    assert step(game, state).startswith("select Quarry")
    assert step(game, state).startswith("close Street Thug 2")
    game, state = duel(
        placements={
            "Quarry": (10, 8),
            "Razorback": (10, 9),
            "Street Thug 2": (10, 7),
            "Street Thug 1": None,
            "Mender": (0, 0),
        },
        clicks={"Razorback": 3},
        turn=0,
    )
    step(game, state)
    assert step(game, state).startswith("close Razorback")  # now Razorback is the KO


def test_pushing_only_for_a_ko():
    """HC-3.16: a figure with last turn's token acts only when the gain pays the click."""
    where = {
        "Street Thug 1": (13, 8),
        "Mender": (13, 12),
        "Quarry": None,
        "Razorback": (0, 0),
        "Street Thug 2": (0, 15),
    }
    game, state = duel(placements=where, turn=0)
    assert step(game, state).startswith("select Street Thug 1")  # no token: shoot Mender
    assert step(game, state).startswith("ranged Mender")
    game, state = duel(placements=where, tokens={"Street Thug 1": 1}, turn=0)
    assert step(game, state) == "end turn"  # a push for a 42% chance of 2 clicks: no
    game, state = duel(placements=where, tokens={"Street Thug 1": 1}, clicks={"Mender": 3}, turn=0)
    assert step(game, state).startswith("select Street Thug 1")  # the push may finish a KO
    assert step(game, state).startswith("ranged Mender")


def test_super_strength_picks_up_the_object_beside_it():
    game, state = duel(
        placements={
            "Quarry": (11, 8),
            "Street Thug 1": None,
            "Razorback": (0, 0),
            "Mender": (0, 1),
            "Street Thug 2": (0, 2),
        },
        turn=0,
    )
    assert step(game, state).startswith("select Quarry")
    assert step(game, state).startswith("pick up")  # the forklift at (12, 8), heavy
    assert game.objects.names[int(state.held[game.figure_label.index("Quarry")])] == "forklift"


def test_support_heals_a_damaged_friend():
    game, state = duel(
        placements={
            "Mender": (3, 3),
            "Razorback": (3, 2),
            "Quarry": (15, 0),
            "Street Thug 1": None,
            "Street Thug 2": (0, 15),
        },
        clicks={"Razorback": 2},
        turn=1,
    )
    assert step(game, state).startswith("select Mender")
    assert step(game, state).startswith("support Razorback")


def test_telekinesis_hurls_an_object_out_of_shooting_range():
    """HC-6.15: the object counts from itself, so it reaches what the shooter cannot."""
    gone = {k: None for k in ("Skylash", "Shift", "Quarry", "Razorback", "Gloam", "Street Thug 2")}
    game, state = HeroclixGame.from_scenario(
        "street",
        placements={**gone, "Mindwarden": (12, 6), "Street Thug 1": (13, 15)},
        clicks={"Mindwarden": 1},
        turn=1,
    )
    assert step(game, state).startswith("select Mindwarden")
    assert step(game, state).startswith("tk object")  # the engine block at (13, 6)
    assert step(game, state).startswith("tk hurl Street Thug 1")


def test_two_bolts_on_two_enemies_it_can_ko():
    """HC-4.24/4.25: two targets at 1 damage each when each of them is one click from KO."""
    gone = {
        k: None for k in ("Bulwark Captain", "Mender", "Street Thug 1", "Street Thug 2", "Overlord")
    }
    game, state = HeroclixGame.from_scenario(
        "mall",
        placements={**gone, "Skylash": (22, 10), "Tempest": (21, 15), "Elastic": (22, 16)},
        clicks={"Tempest": 6, "Elastic": 5},
        turn=0,
    )
    assert step(game, state).startswith("select Skylash")
    assert step(game, state).startswith("ranged")
    assert step(game, state).startswith("ranged")  # the second target, then it fires


def test_a_carried_friend_is_set_down_on_a_legal_square():
    game, state = HeroclixGame.from_scenario(
        "mall", placements={"Skylash": (21, 8), "Mender": (21, 9)}, turn=0
    )
    game.apply_string(state, "select Skylash (21,8)")
    carry = game.layout.plane_action("carry", 21 * game.width + 9)
    game.apply(state, carry)
    bot, phases = HeuristicBot(), []
    while state.phase.name in ("MOVE", "PICKUP", "DROP"):
        phases.append(state.phase.name)
        step(game, state, bot)
    assert "DROP" in phases and state.cell[game.figure_label.index("Mender")] >= 0


# -- a small match (the 500-game measurement is in the bot's report, not here) ------------
def test_beats_random_in_a_small_match():
    result = play_match(HeroclixGame, HeuristicBot(), RandomBot(), games=20, seed=0)
    assert result.wins >= 15, result.summary()
    assert result.seat_games == [10, 10]
