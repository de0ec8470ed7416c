"""Running Shot (P-SPD-11) asks its lines of fire from every square of its half move through one
snapshot with the mover lifted off the board (``targets.lifted_snapshot``): a line's own ends
never block it (HC-4.17), so that snapshot must give the squares that a fresh snapshot of the
figure standing on each square gives, on the positions of random games and on the same
positions with figures soaring and blocking squares added."""

from __future__ import annotations

import numpy as np
import pytest

from envs import make
from envs.heroclix.combat.targets import ranged_targets, squares_in_range
from envs.heroclix.movement import reach
from envs.heroclix.powers.move_variants import RunningShot
from envs.heroclix.state import NO_CELL, SOAR


def squares_seen_one_by_one(game, probe, figure) -> dict[int, list[int]]:
    """The plain statement: the figure stands on each square in turn, lines from scratch."""
    found = reach(game, probe, figure)
    near = squares_in_range(game, probe, figure)
    out: dict[int, list[int]] = {}
    for mode in range(found.n_modes):
        for cell in np.flatnonzero(found.ends[mode] & near).tolist():
            if cell != int(probe.cell[figure]):
                game.move_figure(probe, figure, cell)
            probe.mode[figure] = mode
            if ranged_targets(game, probe, figure):
                out.setdefault(mode, []).append(cell)
    return out


@pytest.mark.parametrize("scenario", ["mall", "brawl", "street"])
def test_P_SPD_11_running_shot_squares_match_a_fresh_line_per_square(scenario):
    game = make("heroclix_v0", scenario=scenario).game
    rng = np.random.default_rng(11)
    compared = with_squares = 0
    for seed in range(2):
        state = game.new_state(seed)
        for _ in range(300):
            if game.current_player(state) < 0:
                break
            for odd in (False, True):
                position = state.copy()
                if odd:  # soaring figures and extra blocking squares
                    position.mode[:] = np.where(rng.random(game.n_figures) < 0.3, SOAR, 0)
                    position.blocking = position.blocking | (rng.random(game.n_cells) < 0.04)
                for figure in range(game.n_figures):
                    if position.cell[figure] == NO_CELL or "running_shot" not in game.powers(
                        position, figure
                    ):
                        continue
                    fast = RunningShot().shot_squares(game, position.copy(), figure)
                    plain = squares_seen_one_by_one(game, position.copy(), figure)
                    assert fast == plain
                    compared += 1
                    with_squares += bool(plain)
            legal = np.flatnonzero(game.legal_mask(state))
            game.apply_legal(state, int(rng.choice(legal)))
    assert compared > 100 and with_squares > 20
