"""The per-pair sight tables (envs.core.hexsight_pairs) equal core's HexSight.blockers."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.hexsight import HexSight
from envs.core.hexsight_pairs import PairSight
from envs.heroscape.rules import HeroscapeGame


def _pairs(game: HeroscapeGame, rng: np.random.Generator, count: int):
    """Random single and double (adjacent, same-level) attacker/target space groups."""
    board = game.board
    spaces = [int(c) for c in board.spaces()]
    doubles = [
        (a, int(b))
        for a in spaces
        for b in board.neighbors[a]
        if b > a and board.exists[b] and board.level[a] == board.level[b]
    ]
    for _ in range(count):
        groups = []
        for _side in range(2):
            if rng.random() < 0.3:
                groups.append(doubles[rng.integers(len(doubles))])
            else:
                groups.append((spaces[rng.integers(len(spaces))],))
        if set(groups[0]) & set(groups[1]):
            continue
        yield groups[0], groups[1]


@pytest.mark.parametrize("scenario", ["skirmish", "ridge_duel", "river_hold", "highlands_melee"])
def test_pair_tables_equal_core_batches(scenario):
    game = HeroscapeGame(scenario)
    heights = (5.0, 6.0, 7.0)
    core = HexSight(game.board, game.sight.config)
    mine = PairSight(core)
    rng = np.random.default_rng(7)
    # core batches a single-space attacker against the whole map: few pairs on the big one
    for attacker, target in _pairs(game, rng, 120 if scenario == "highlands_melee" else 400):
        a_h, t_h = float(rng.choice(heights)), float(rng.choice(heights))
        expected = core.blockers(attacker, a_h, target, t_h, heights)
        assert mine.blockers(attacker, a_h, target, t_h, heights) == expected, (attacker, target)
