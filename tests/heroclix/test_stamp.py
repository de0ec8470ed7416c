"""The compiled figure columns of the observation (envs.heroclix.view.stamp) write what the
numpy scatters they replaced wrote, on the states of random games and on the same states with
shuffled turn flags, switched-off powers and perplexed values (HC-3.8, P-DMG-9, P-DMG-10)."""

from __future__ import annotations

import numpy as np
import pytest

from envs.heroclix.rules import HeroclixGame
from envs.heroclix.state import NO_CELL, NO_FIGURE, SOAR
from envs.heroclix.view.planes import DIAL_AHEAD, STAT_SCALE, STATS


def figure_columns(view, state, player):
    """The figures' channels of the observation, written with numpy from the view's tables
    (the board and constant channels are left at zero)."""
    game = view.game
    obs = np.zeros(view.shape, dtype=np.float32).reshape(len(view.planes), game.n_cells)
    flat = obs.reshape(-1)
    on_map = state.cell != NO_CELL
    if state.passenger != NO_FIGURE:
        on_map[state.passenger] = False
    alive = on_map.nonzero()[0]
    cells = state.cell[alive].astype(np.intp)
    clicks = state.click[alive].astype(np.intp)
    flat[view.figure_offset[player, alive] + cells] = 1.0
    rows = view.rows[alive, clicks]
    rows[:, STATS.index("tokens")] = state.tokens[alive] * 0.5
    rows[:, STATS.index("acted")] = state.acted[alive]
    rows[:, STATS.index("soaring")] = state.mode[alive] == SOAR
    countered = np.zeros_like(state.power_off)
    for target, col, _ in state.outwits:
        countered[target, col] = True
    column = view.power_column[alive, clicks]
    either = state.power_off[alive] | countered[alive]
    off = np.take_along_axis(either, np.maximum(column, 0), axis=1)
    rows[:, len(STATS) :][off & (column >= 0)] = 0.0
    for k, how in enumerate((state.power_off, countered)):
        for i, figure in enumerate(alive.tolist()):
            for col in np.flatnonzero(how[figure]).tolist():
                obs[view.power_state + 4 * k + col, cells[i]] = 1.0
    for target, stat, delta, _ in state.perplex:
        where = np.flatnonzero(alive == target)
        if where.size:
            rows[where[0], stat] = min(1.0, max(0.0, rows[where[0], stat] + delta / STAT_SCALE))
    flat[view.row_offsets[None, :] + cells[:, None]] = rows
    holders = alive[state.held[alive] >= 0]
    flat[view.held_channel * game.n_cells + state.cell[holders]] = (
        0.5 + 0.5 * game.object_heavy[state.held[holders]]
    )
    if view.dial_start >= 0:
        for figure, cell, click in zip(alive.tolist(), cells.tolist(), clicks.tolist()):
            ahead = game.dial_values[figure, click + 1 : click + 1 + DIAL_AHEAD].reshape(-1)
            obs[view.dial_start : view.dial_start + ahead.size, cell] = np.minimum(
                ahead / STAT_SCALE, 1.0
            )
    return obs


def figure_channels(view) -> np.ndarray:
    """bool[channels]: the channels :func:`figure_columns` writes."""
    planes = view.planes
    chosen = np.zeros(len(planes), dtype=bool)
    for name in ("figures", "stats", "powers", "power_state"):
        chosen[planes[name]] = True
    chosen[planes.channel("objects", "held")] = True
    if view.dial_start >= 0:
        chosen[planes["dial"]] = True
    return chosen


def shuffled(game, state, rng):
    """``state`` with random tokens, flags, modes, powers off, Outwits and Perplexes."""
    odd = state.copy()
    n = game.n_figures
    odd.tokens[:] = rng.integers(0, 3, n)
    odd.acted[:] = rng.random(n) < 0.5
    odd.mode[:] = np.where(rng.random(n) < 0.3, SOAR, odd.mode)
    odd.power_off[:] = rng.random(odd.power_off.shape) < 0.2
    odd.outwits = [
        (int(rng.integers(n)), int(rng.integers(odd.power_off.shape[1])), 0) for _ in range(2)
    ]
    odd.perplex = [
        (int(rng.integers(n)), int(rng.integers(4)), int(rng.integers(-3, 4)), 0) for _ in range(3)
    ]
    return odd


@pytest.mark.parametrize(
    "scenario,full_dial", [("duel", False), ("mall", False), ("brawl", True), ("street", True)]
)
def test_observe_writes_the_figure_columns_of_the_numpy_scatters(scenario, full_dial):
    game = HeroclixGame(scenario=scenario, full_dial_visibility=full_dial)
    view = game.view
    channels = figure_channels(view)
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        for _ in range(80):
            if game.is_terminal(state):
                break
            for position in (state, shuffled(game, state, rng)):
                for player in range(game.num_players):
                    obs = game.observe(position, player)
                    np.testing.assert_array_equal(
                        obs.reshape(len(view.planes), -1)[channels],
                        figure_columns(view, position, player)[channels],
                    )
            checked += 1
            game.apply(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert checked > 150
