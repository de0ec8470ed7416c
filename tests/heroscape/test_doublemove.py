"""The compiled double-space search (envs.core.doublemove) finds the destinations of
core's reachable_double."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.doublemove import double_destinations
from envs.core.movement import reachable_double
from envs.heroscape.rules import HeroscapeGame


@pytest.mark.parametrize("scenario", ["ridge_duel", "highlands_melee", "river_hold"])
def test_double_destinations_match_core(scenario):
    game = HeroscapeGame(scenario)
    board = game.board
    rng = np.random.default_rng(3)
    spaces = board.spaces()
    pairs = [
        (int(a), int(b))
        for a in spaces
        for b in board.neighbors[a]
        if b > a and board.exists[b] and board.level[a] == board.level[b]
    ]
    for trial in range(150):
        halves = pairs[rng.integers(len(pairs))]
        can_enter = rng.random(board.n_cells) < 0.85
        can_enter[list(halves)] = True
        can_end = can_enter & (rng.random(board.n_cells) < 0.8)
        can_end[list(halves)] = True
        stops = game.water if trial % 2 else rng.random(board.n_cells) < 0.3
        budget = int(rng.integers(0, 9))
        expected = reachable_double(
            board, halves, budget, step_cost=game.climb, can_enter=can_enter,
            stops_after_entering=stops, can_end=can_end,
        ).destinations()  # fmt: skip
        got = double_destinations(
            board.neighbors, game.climb, halves, budget, can_enter & board.exists, stops,
            can_end, board.level,
        )  # fmt: skip
        assert got == [tuple(p) for p in expected]
