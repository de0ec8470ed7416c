"""The Heroica heuristic's shortcuts (kept choices, lone targets, the plain-move path) must
choose exactly what its full decision (``_decide`` over the phase's own legal actions) would,
and the legal actions it reads must be the engine's."""

from __future__ import annotations

import numpy as np
import pytest

from envs import make
from envs.heroica.bots.heuristic import HeuristicBot
from envs.heroica.bots.legal import legal_actions
from envs.heroica.state import HeroField, Phase


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
    def texts(game, seed):
        """Every event text of a seeded random game, and the step events' cells."""
        state = game.new_state(seed)
        rng = np.random.default_rng(seed)
        found = []
        while game.current_player(state) >= 0 and len(found) < 400:
            legal = game.legal_actions(state)
            for event in game.apply(state, legal[rng.integers(len(legal))]):
                found.append(event.text)
                if event.kind == "move" and " steps " in event.text:
                    a, b = event.cells
                    name = game.player_names[event.player]
                    step = f"{name} steps {game.cell_name(state, a)}->{game.cell_name(state, b)}"
                    assert event.text == step
        return found

    # The step texts are cached per game: a game that has played others (warm cache) tells
    # a game exactly as a new game object does.
    warm = make("heroica_v0", mission="fork", num_players=2).game
    for seed in range(2, 6):
        texts(warm, seed)
    cold = make("heroica_v0", mission="fork", num_players=2).game
    told = texts(warm, 1)
    assert any(" steps " in text for text in told)
    assert told == texts(cold, 1)


def test_HE_10_3_speed_potion_moves_are_kept_by_the_steps_left():
    # With a Speed Potion in hand, whether to drink it depends on where the steps left end,
    # so a kept MOVE choice must tell the steps left apart (move_key); each MOVE position of
    # heuristic games is asked as it is and with a potion handed to the Hero.
    shared = HeuristicBot()
    player = HeuristicBot()
    rng = np.random.default_rng(1)
    game = make("heroica_v0", mission="fork", num_players=2).game
    drinks = checked = 0
    for seed in range(12):
        state = game.new_state(seed)
        while game.current_player(state) >= 0:
            if state.phase is Phase.MOVE:
                for potions in (None, 1):
                    position = state.copy()
                    if potions is not None:
                        position.heroes[position.seat, HeroField.SPEED_POTIONS] = potions
                    full = HeuristicBot()._decide(game, position, legal_actions(game, position))
                    assert shared.act(game, position, rng) == full
                    drinks += game.action_to_string(position, full).startswith("drink")
                    checked += 1
            game.apply_legal(state, player.act(game, state, rng))
    assert checked > 200 and drinks > 0
