"""The guided lookahead (envs.guided): the lookahead bot over a proposer's choice, through its
public API, on the three real games.

A proposer that ranks as the heuristic does must make it the lookahead bot itself, decision
for decision; a confident proposer is played unsearched; a proposer of poor moves is
overridden where the playouts see it, on the decisions the lookahead bot searches.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.core.errors import OptionError
from envs.guided import GuidedLookahead
from envs.lookahead import lookahead_bot
from envs.match import game_class

GAMES = ("heroica_v0", "heroscape_v0", "heroclix_v0")
TINY = {"playouts": 2, "candidates": 3, "horizon": 1}
ZERO_RNG = np.random.default_rng(0)  # the heuristics draw nothing from their rng


class HeuristicRanking:
    """Priors that rank the lookahead bot's own candidates as it does (first highest), and
    give every other action nothing."""

    def __init__(self, game_name: str):
        self.lookahead = lookahead_bot(game_name, **TINY)

    def priors(self, game: Any, state: Any) -> np.ndarray:
        mask = game.legal_mask(state)
        choice = self.lookahead.heuristic.act(game, state, ZERO_RNG)
        ranked = self.lookahead.candidates(game, state, mask, choice)
        priors = np.zeros(mask.size)
        priors[ranked] = np.arange(len(ranked), 0, -1)
        return priors


class Worst(HeuristicRanking):
    """The lookahead bot's candidates ranked backwards (its last first, the heuristic's choice
    last), every other legal action a little weight: a proposer of poor moves on the decisions
    the lookahead bot searches, the heuristic's choice elsewhere, always runners-up."""

    def priors(self, game: Any, state: Any) -> np.ndarray:
        priors = super().priors(game, state)
        ranked = priors > 0
        priors[ranked] = priors.max() + 1 - priors[ranked]
        priors[~ranked & game.legal_mask(state)] = 1e-3
        return priors


def decisions(game: Any, bots: list[Any], seed: int, limit: int) -> list[list[int]]:
    """Each bot's action at each of the first ``limit`` decisions of one game that ``bots[0]``
    plays for every seat (the others are asked the same positions, with the same rng seed)."""
    state = game.new_state(seed)
    found: list[list[int]] = []
    for step in range(limit):
        if game.current_player(state) < 0:
            break
        chosen = [bot.act(game, state, np.random.default_rng(step)) for bot in bots]
        assert all(game.legal_mask(state)[a] for a in chosen)
        found.append(chosen)
        game.apply_legal(state, chosen[0])
    return found


@pytest.mark.parametrize("game_name", GAMES)
def test_guided_by_the_heuristics_own_ranking_is_the_lookahead_bot(game_name):
    game = game_class(game_name)()
    guided = GuidedLookahead(HeuristicRanking(game_name), game_name, **TINY)
    plain = lookahead_bot(game_name, **TINY)
    found = decisions(game, [plain, guided], seed=3, limit=60)
    assert found and all(a == b for a, b in found)
    assert guided.stats["searches"] == plain.stats["searches"] > 0
    assert guided.stats["overrides"] == plain.stats["overrides"]


@pytest.mark.parametrize("game_name", GAMES)
def test_a_confident_proposer_is_played_unsearched(game_name):
    game = game_class(game_name)()
    proposer = Worst(game_name)
    guided = GuidedLookahead(proposer, game_name, confident=0.4, **TINY)
    decisions(game, [guided], seed=5, limit=40)
    assert guided.stats["searches"] == 0 and guided.stats["confident"] > 0
    state = game.new_state(5)
    while len(np.flatnonzero(game.legal_mask(state))) < 2:
        game.apply_legal(state, int(np.flatnonzero(game.legal_mask(state))[0]))
    assert guided.act(game, state, ZERO_RNG) == int(np.argmax(proposer.priors(game, state)))


@pytest.mark.parametrize("game_name", GAMES)
def test_poor_proposals_are_overridden_where_the_lookahead_bot_searches(game_name):
    game = game_class(game_name)()
    budget = {"playouts": 8, "candidates": 3, "horizon": 2}
    guided = GuidedLookahead(Worst(game_name), game_name, **budget)
    plain = lookahead_bot(game_name, **budget)
    decisions(game, [guided, plain], seed=7, limit=80)
    assert guided.stats["searches"] > 0 and guided.stats["overrides"] > 0
    # the same decisions searched (HeroClix: only FIGURE, its rank hook's), other candidates
    assert guided.stats["searches"] == plain.stats["searches"]


def test_options_are_checked_and_named():
    with pytest.raises(OptionError, match="confident"):
        GuidedLookahead(Worst("heroica_v0"), "heroica_v0", confident=1.5)
    with pytest.raises(OptionError, match="'depth': is not a lookahead option"):
        GuidedLookahead(Worst("heroica_v0"), "heroica_v0", depth=3)
    with pytest.raises(ValueError, match="no_such_game has no lookahead bot"):
        lookahead_bot("no_such_game")
