"""The performance paths give the answers of the plain ones: the heuristic's per-space score
tables, the memoised targets and the height-only combat dice."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.hooks import ATTACK_VALUE, DEFENSE_VALUE
from envs.heroscape.bots.heuristic import HeuristicBot, _Field
from envs.heroscape.combat import HOOKS, combat_dice
from envs.heroscape.rules import HeroscapeGame
from envs.heroscape.state import NO_CELL

SCENARIOS = ["skirmish", "river_hold", "highlands_melee", "ridge_duel"]


def positions(game, games=4, steps=80):
    """States along seeded heuristic games."""
    bot = HeuristicBot()
    for seed in range(games):
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        for step in range(steps):
            if game.current_player(state) < 0:
                break
            if step % 4 == 0:
                yield state.copy()
            game.apply_legal(state, bot.act(game, state, rng))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_space_tables_score_like_destinations(scenario):
    game = HeroscapeGame(scenario)
    for state in positions(game):
        field = _Field(game, state, HeuristicBot().w)
        for figure in game.card_members[game.player_cards[state.seat][0]]:
            if state.cell[figure] == NO_CELL or game.fig_double[figure]:
                continue
            cells = game.destination_cells(state, figure)
            table = field.single(figure, cells)
            direct = field.spaces(figure, [(int(c),) for c in cells])
            for got, expected in zip(table, direct):
                assert np.array_equal(got, expected)  # bit for bit: the bot's ties depend on it


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_memoised_targets_and_dice(scenario):
    game = HeroscapeGame(scenario)
    for state in positions(game):
        for attacker in range(game.n_figures):
            if state.cell[attacker] == NO_CELL:
                continue
            found = game._find_targets(state, attacker)
            assert game.targets(state, attacker) == found
            assert game.targets(state, attacker, first_only=True) == found[:1]
            for target in found:
                assert combat_dice(game, state, attacker, target) == (
                    HOOKS.total(
                        ATTACK_VALUE, int(game.fig_attack[attacker]), game, state, attacker, target
                    ),
                    HOOKS.total(
                        DEFENSE_VALUE, int(game.fig_defense[target]), game, state, attacker, target
                    ),
                )
