"""The compiled move search of a figure (envs.heroclix.reach, through movement.figure_reach)
finds what ``reachable_modes(mode_rules(...))`` finds: the same costs, ends and paths, on the
positions of random games and on the same positions with figures soaring, enemies broken away
from, powers switched off, blocking squares added, passengers carried and enemies ignored
(HC-3.19-3.30, HC-5.1-5.18, R-10, R-11)."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.modemove import reachable_modes
from envs.heroclix.movement import figure_reach, mode_rules
from envs.heroclix.rules import HeroclixGame
from envs.heroclix.state import NO_CELL, NO_FIGURE, SOAR


def varied(game, state, rng):
    """``state`` with random modes, breakaways, powers off, blocking squares, a passenger
    and enemy stops ignored."""
    odd = state.copy()
    n = game.n_figures
    odd.mode[:] = np.where(rng.random(n) < 0.3, SOAR, 0)
    on_map = np.flatnonzero(odd.cell != NO_CELL)
    odd.broke_away = [int(f) for f in on_map if rng.random() < 0.3]
    odd.power_off[:] = rng.random(odd.power_off.shape) < 0.2
    odd.blocking = odd.blocking | (rng.random(game.n_cells) < 0.05)
    odd.passenger = int(rng.choice(on_map)) if rng.random() < 0.3 else NO_FIGURE
    odd.move_ignores_enemies = bool(rng.random() < 0.2)
    return odd


def same_reach(game, state, figure, seed, budget, rng) -> int:
    """Assert the two searches agree; returns the states reached."""
    fast = figure_reach(game, state, figure, seed, budget)
    plain = reachable_modes(
        game.walls.open_neighbors, [seed], budget, mode_rules(game, state, figure)
    )
    np.testing.assert_array_equal(fast.cost, plain.cost)
    np.testing.assert_array_equal(fast.going_on, plain.going_on)
    np.testing.assert_array_equal(fast.ends, plain.ends)
    modes, cells = np.nonzero(plain.reached())
    for k in rng.choice(cells.size, size=min(cells.size, 6), replace=False):
        assert fast.path_to(int(cells[k]), int(modes[k])) == plain.path_to(
            int(cells[k]), int(modes[k])
        )
    return cells.size


@pytest.mark.parametrize(
    "scenario, options",
    [
        ("duel", {}),
        ("mall", {}),
        ("brawl", {}),
        ("street", {"hindering_to_hindering_continues": True}),
    ],
)
def test_compiled_figure_search_matches_the_rules_masks(scenario, options):
    game = HeroclixGame(scenario=scenario, **options)
    rng = np.random.default_rng(11)
    searches = reached = 0
    for seed in range(3):
        state = game.new_state(seed=seed)
        for _ in range(60):
            if game.is_terminal(state):
                break
            for position in (state, varied(game, state, rng)):
                for figure in np.flatnonzero(position.cell != NO_CELL).tolist():
                    if figure == position.passenger:
                        continue
                    flying = game.flies(position, figure)
                    mode = int(rng.integers(2)) if flying else 0
                    budget = int(rng.integers(0, 11))
                    spent = int(rng.integers(0, budget + 1))
                    seed_state = (int(position.cell[figure]), mode, spent)
                    reached += same_reach(game, position, figure, seed_state, budget, rng)
                    searches += 1
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert searches > 300 and reached > 10 * searches
