"""The compiled single-space search (envs.heroscape.reach) finds the destinations of core's
reachable_destinations, with the masks the rules give (HS-6.3, HS-6.5, HS-6.8)."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.movement import reachable_destinations
from envs.heroscape.rules import HeroscapeGame
from envs.heroscape.state import NO_CELL, NO_FIGURE


def reference(game, state, figure):
    """The search as core's entry point runs it, from masks built in numpy."""
    occupant = state.occupant
    occupied = occupant != NO_FIGURE
    enemy = occupied & (game.fig_owner[np.maximum(occupant, 0)] != game.fig_owner[figure])
    start = int(state.cell[figure])
    can_end = ~occupied
    can_end[start] = True
    return reachable_destinations(
        game.board, start, int(game.fig_move[figure]), game.climb, ~enemy, game.water, can_end
    )


def scattered(game, state, rng):
    """The figures of ``state`` moved to random spaces (single-space figures only)."""
    spaces = [int(c) for c in game.board.spaces()]
    for figure in range(game.n_figures):
        if state.cell[figure] != NO_CELL and not game.fig_double[figure]:
            free = [c for c in spaces if state.occupant[c] == NO_FIGURE]
            game.place(state, figure, free[rng.integers(len(free))])


@pytest.mark.parametrize("scenario", ["skirmish", "river_hold", "highlands_melee", "ridge_duel"])
def test_single_destinations_match_core(scenario):
    game = HeroscapeGame(scenario)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(12):
        state = game.new_state(seed)
        for step in range(60):
            if game.current_player(state) < 0:
                break
            if step % 3 == 0:
                probe = state.copy()
                if step % 2:
                    scattered(game, probe, rng)
                for figure in range(game.n_figures):
                    if probe.cell[figure] != NO_CELL and not game.fig_double[figure]:
                        got = game._single_destinations(probe, figure).tolist()
                        assert got == reference(game, probe, figure)
                        assert game.destination_cells(probe, figure).tolist() == got
                        checked += 1
            legal = np.flatnonzero(game.legal_mask(state))
            game.apply_legal(state, int(legal[rng.integers(legal.size)]))
    assert checked > 100
