"""The Heroscape heuristic bot: legal play, its kill-probability table, and a win over random."""

from __future__ import annotations

import time
from math import comb

import numpy as np
import pytest

from envs.bots import RandomBot, bot_names, get_bot, play_match
from envs.heroscape.bots.heuristic import KILL, HeuristicBot, kill_probability
from envs.heroscape.rules import HeroscapeGame


# -- the kill-probability table (HS-3.2, HS-12.5, HS-12.6) ----------------------------------
def _brute_force(attack: int, defense: int) -> float:
    total = 0.0
    for skulls in range(attack + 1):
        p_a = comb(attack, skulls) * 0.5**attack
        for shields in range(defense + 1):
            p_d = comb(defense, shields) * (1 / 3) ** shields * (2 / 3) ** (defense - shields)
            total += p_a * p_d * (skulls > shields)
    return total


def test_kill_table_known_values():
    assert kill_probability(1, 0) == pytest.approx(0.5)
    assert kill_probability(0, 0) == 0.0
    assert kill_probability(0, 5) == 0.0
    assert kill_probability(2, 0) == pytest.approx(0.75)
    assert kill_probability(1, 1) == pytest.approx(0.5 * 2 / 3)
    assert kill_probability(2, 1) == pytest.approx(7 / 12)


def test_kill_table_matches_brute_force_and_is_monotone():
    for a in range(9):
        for d in range(9):
            assert KILL[a, d] == pytest.approx(_brute_force(a, d), abs=1e-12)
    assert (np.diff(KILL, axis=0) >= -1e-12).all()  # more attack dice never hurt
    assert (np.diff(KILL, axis=1) <= 1e-12).all()  # more defense dice never help the attacker
    assert ((KILL >= 0) & (KILL <= 1)).all()


# -- registry --------------------------------------------------------------------------------
def test_registered():
    assert {"random", "heuristic"} <= set(bot_names("heroscape_v0"))
    assert isinstance(get_bot("heroscape_v0", "heuristic"), HeuristicBot)
    assert isinstance(get_bot("heroscape", "random"), RandomBot)


# -- legal play on every shipped scenario --------------------------------------------------
@pytest.mark.parametrize(
    "scenario,games",
    [("skirmish", 4), ("mirror", 2), ("ridge_duel", 2), ("river_hold", 2), ("highlands_melee", 1)],
)
def test_only_legal_actions(scenario, games):
    game = HeroscapeGame(scenario)
    bot, other = HeuristicBot(), RandomBot()
    for seed in range(games):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        seats = [bot if s % 2 == seed % 2 else other for s in range(game.num_players)]
        for _ in range(20_000):
            seat = game.current_player(state)
            if seat < 0:
                break
            mask = game.legal_mask(state)
            before = game.to_dict(state)
            action = seats[seat].act(game, state, rng)
            assert mask[action], (
                f"{scenario} seed {seed}: illegal {game.action_to_string(state, action)}"
            )
            assert game.to_dict(state) == before, "the bot must not mutate the state"
            game.apply(state, action)
        assert game.current_player(state) < 0, "the game did not end"


def test_self_play_ends():
    game = HeroscapeGame()
    result = play_match(game, HeuristicBot(), HeuristicBot(), games=4, seed=7)
    assert result.games == 4


# -- strength ----------------------------------------------------------------------------------
def test_beats_random_on_the_default_scenario():
    start = time.perf_counter()
    result = play_match(HeroscapeGame(), HeuristicBot(), RandomBot(), games=40, seed=1000)
    assert result.win_rate >= 0.6, result.summary()
    assert time.perf_counter() - start < 20.0, result.summary()


def test_attacks_whenever_possible():
    """In the attack phases it never ends the turn while a target exists."""
    game = HeroscapeGame()
    bot, other = HeuristicBot(), RandomBot()
    end_turn = game.layout.special("end_turn")
    attacks_seen = 0
    for seed in range(3):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while game.current_player(state) >= 0:
            seat = game.current_player(state)
            player = bot if seat == 0 else other
            action = player.act(game, state, rng)
            if player is bot and state.phase.name == "ATTACK_SELECT":
                assert action != end_turn
                attacks_seen += 1
            game.apply(state, action)
    assert attacks_seen > 0
