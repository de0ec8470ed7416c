"""The heuristic bot keeps what it computed across decisions and positions (facts per
position, lines of fire and reaches per geometry, hit rolls and the best attacks of a pair
per what the engine's totals read), and the game keeps what its rules ask again (adjacency,
hindering, fire snapshots, traits); those caches must never change a choice: a bot that has
played a whole game on one game object picks what a fresh bot picks on a fresh game object
with empty caches, in every position of it (the brawl: its first decisions), and weighs its
options at the same scores."""

from __future__ import annotations

import numpy as np
import pytest

from envs.heroclix.bots.heuristic import HeuristicBot
from envs.heroclix.rules import HeroclixGame


@pytest.mark.parametrize("scenario,seed,steps", [("duel", 3, 400), ("brawl", 1, 60)])
def test_cached_choices_match_a_fresh_bot(scenario, seed, steps):
    game = HeroclixGame(scenario)
    state = game.new_state(seed)
    seasoned = HeuristicBot()
    rng = np.random.default_rng(seed)
    for step in range(steps):
        if game.current_player(state) < 0:
            break
        action = seasoned.act(game, state, rng)
        fresh_game = HeroclixGame(scenario)
        assert action == HeuristicBot().act(fresh_game, state.copy(), rng)
        if step % 4 == 0:
            assert seasoned.scored(game, state) == HeuristicBot().scored(fresh_game, state.copy())
        game.apply(state, action)
