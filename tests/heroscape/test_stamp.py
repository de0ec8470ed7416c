"""The compiled observation (envs.heroscape.view.stamp) writes what the plane layout says,
checked against a plain per-figure reading of the channels on random states."""

from __future__ import annotations

import numpy as np
import pytest

from envs.heroscape.data.battlefield import Terrain
from envs.heroscape.rules import HeroscapeGame
from envs.heroscape.state import NO_CELL, NO_FIGURE, Phase
from envs.heroscape.view.planes import (
    LEVEL_SCALE,
    STAT_SCALE,
    STATS,
    card_label,
    seat_label,
)


def reference(game, state, player):
    """The observation written channel by channel from the layout's names."""
    view, board = game.view, game.board
    planes, n = view.planes, game.num_players
    obs = np.zeros((len(planes), board.n_cells), dtype=np.float32)
    obs[planes.start("space"), board.exists] = 1.0
    obs[planes.start("level")] = board.level / LEVEL_SCALE
    obs[planes.start("water")] = board.terrain == Terrain.WATER
    obs[planes.start("shadow")] = board.terrain == Terrain.SHADOW
    obs[planes.start("objective"), list(game.hold_cells)] = 1.0
    stats = {
        "move": game.fig_move,
        "range": game.fig_range,
        "attack": game.fig_attack,
        "defense": game.fig_defense,
        "height": game.fig_height,
    }
    for figure in range(game.n_figures):
        k = (int(game.fig_owner[figure]) - player) % n
        card = int(game.fig_card[figure])
        slot = game.player_cards[int(game.fig_owner[figure])].index(card)
        flags = {
            "moved": state.moved[figure],
            "attacked": state.attacked[figure],
            "chosen_card": card == state.card,
            "selected": figure == state.selected,
        }
        for cell in (int(state.cell[figure]), int(state.cell2[figure])):
            if cell == NO_CELL:
                continue
            obs[planes.channel("figures", seat_label(k)), cell] = 1.0
            obs[planes.channel("card", card_label(k, slot)), cell] = 1.0
            for name in STATS:
                value = (
                    float(game.fig_double[figure])
                    if name == "double_space"
                    else min(1.0, float(np.float32(stats[name][figure]) / np.float32(STAT_SCALE)))
                )
                obs[planes.channel("stats", name), cell] = value
            for name, flag in flags.items():
                obs[planes.channel("this_turn", name), cell] = float(flag)
    if state.destination != NO_CELL:
        obs[planes.start("destination"), state.destination] = 1.0
    obs[planes.channel("phase", Phase(state.phase).name)] = 1.0
    obs[planes.start("round")] = state.round / game.round_cap
    for seat in range(n):
        k = seat_label((seat - player) % n)
        obs[planes.channel("hold_rounds", k)] = state.hold_rounds[seat] / max(1, game.hold_target)
        alive = sum(
            1 for f in range(game.n_figures) if game.fig_owner[f] == seat and state.cell[f] >= 0
        )
        obs[planes.channel("figures_left", k)] = min(1.0, alive / STAT_SCALE)
    return obs.reshape(view.shape)


def shuffled_turn(game, state, rng):
    """``state`` with random turn flags, card, selection, destination, round and holds, and
    some figures destroyed: what the observation reads, whether or not play reaches it."""
    state.moved[:] = rng.random(game.n_figures) < 0.5
    state.attacked[:] = rng.random(game.n_figures) < 0.5
    state.card = int(rng.integers(-1, len(game.cards)))
    state.selected = int(rng.integers(NO_FIGURE, game.n_figures))
    spaces = np.flatnonzero(game.board.exists)
    state.destination = int(rng.choice(spaces)) if rng.random() < 0.5 else NO_CELL
    state.phase = Phase(int(rng.integers(len(Phase))))
    state.round = int(rng.integers(game.round_cap))
    state.hold_rounds = [int(h) for h in rng.integers(0, game.hold_target + 1, game.num_players)]
    for figure in range(game.n_figures):
        if state.cell[figure] != NO_CELL and rng.random() < 0.2:
            game.remove(state, figure)


@pytest.mark.parametrize(
    "scenario", ["skirmish", "river_hold", "highlands_melee", "ridge_duel", "mirror"]
)
def test_observe_matches_the_layout(scenario):
    game = HeroscapeGame(scenario)
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        for _ in range(60):
            if game.is_terminal(state):
                break
            for player in range(game.num_players):
                np.testing.assert_array_equal(
                    game.observe(state, player), reference(game, state, player)
                )
            odd = state.copy()
            shuffled_turn(game, odd, rng)
            for player in range(game.num_players):
                np.testing.assert_array_equal(
                    game.observe(odd, player), reference(game, odd, player)
                )
            checked += 1
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert checked > 100
