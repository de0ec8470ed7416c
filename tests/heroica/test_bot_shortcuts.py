"""The Heroica heuristic's shortcuts (kept choices, lone targets, the plain-move path) must
choose exactly what its full decision (``_decide`` over the phase's own legal actions) would,
and the legal actions it reads must be the engine's."""

from __future__ import annotations

import numpy as np
import pytest

from envs import make
from envs.heroica.bots.heuristic import HeuristicBot
from envs.heroica.bots.legal import legal_actions


def _positions(mission: str, num_players: int, seed: int, battle: bool = False):
    """Every position of one random game (states copied before each action)."""
    env = make("heroica_v0", mission=mission, num_players=num_players, battle=battle, max_rounds=30)
    game = env.game
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    while game.current_player(state) >= 0:
        yield game, state.copy()
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.integers(len(legal))])


@pytest.mark.parametrize(
    ("mission", "num_players", "battle"),
    [
        ("fork", 2, False),
        ("tunnel", 3, False),
        ("crossroads", 3, False),
        ("gauntlet", 2, False),
        ("arena", 3, True),
    ],
)
def test_shortcuts_choose_what_the_full_decision_chooses(mission, num_players, battle):
    shared = HeuristicBot()  # its kept choices carry over from position to position
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(3):
        for game, state in _positions(mission, num_players, seed, battle):
            legal = legal_actions(game, state)
            assert legal == np.flatnonzero(game.legal_mask(state)).tolist()
            full = HeuristicBot()._decide(game, state, legal)
            assert shared.act(game, state, rng) == full, game.action_to_string(state, full)
            checked += 1
    assert checked > 100


def test_step_events_name_both_cells():
    env = make("heroica_v0", mission="fork", num_players=2)
    game = env.game
    state = game.new_state(1)
    rng = np.random.default_rng(1)
    moves = 0
    while game.current_player(state) >= 0 and moves < 20:
        legal = game.legal_actions(state)
        for event in game.apply(state, legal[rng.integers(len(legal))]):
            if event.kind == "move" and " steps " in event.text:
                a, b = event.cells
                name = game.player_names[event.player]
                expected = f"{name} steps {game.cell_name(state, a)}->{game.cell_name(state, b)}"
                assert event.text == expected
                moves += 1
    assert moves
