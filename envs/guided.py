"""``guided``: the lookahead bot with a *proposer* (a trained policy) in the heuristic's place
at the root. With a model as the proposer (``training.agents``) this is the
``lookahead:model.zip`` player.

Per decision (one legal action: played at once):

1. the proposer gives its priors over the legal actions; its most probable action is the
   *choice*, the action played unless the playouts say clearly that another is better (an
   action it gives no weight is not one of its proposals);
2. with ``confident``, a choice whose prior (renormalised over the legal actions) reaches it
   is played at once, unsearched, so the time goes to the decisions the policy is unsure of;
3. it searches the decisions the lookahead bot searches, those where the heuristic lists
   alternatives worth playing out (a game's ``rank`` hook keeps those its value can judge:
   HeroClix's only what the selected figure does); elsewhere the choice is played;
4. the candidates are the choice, then the proposer's and the heuristic's next best
   interleaved by rank (the proposer's second, the heuristic's choice, the proposer's third,
   the heuristic's second ...), distinct and legal, ``candidates`` at most;
5. the game's lookahead bot plays them out as it plays its own (:mod:`envs.lookahead`: the
   heuristic for every seat after the candidate, common dice seeds across candidates, weak
   candidates dropped halfway, an override only by more than ``margin`` and ``z`` standard
   errors), with the choice in the place of the heuristic's.

So the playouts judge the policy's choice against its own runners-up and the heuristic's,
one decision deep, as the lookahead bot judges the heuristic's: a policy that is better than
the heuristic keeps its play wherever the playouts cannot tell, and loses the blunders they
can see. The options are the lookahead bot's :class:`~envs.lookahead.Budget` (the game's own
defaults unless given) and ``confident``. Pure Python + numpy; the proposer is where a
network may come in.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from .core.game import Game
from .core.options import probability
from .lookahead import Budget, Search, lookahead_bot, ranked


class Proposer(Protocol):
    """``priors(game, state)``: a float array over the whole action space, higher for the
    actions more worth playing (only the legal ones are read; they need not sum to 1). It must
    not change ``state`` nor roll its dice."""

    def priors(self, game: Game, state: Any) -> np.ndarray: ...


class GuidedLookahead:
    """The lookahead bot over a proposer's choice (module docstring). ``stats`` counts
    decisions, searches, ``confident`` decisions played unsearched and overrides of the
    proposer's choice (``lookahead.stats`` the playouts); ``last`` is the latest searched
    decision (None until one)."""

    def __init__(
        self,
        proposer: Proposer,
        game_name: str,
        name: str = "guided",
        confident: float | None = None,
        **options: Any,
    ):
        if confident is not None:
            probability("confident", confident)
        self.proposer = proposer
        self.name = name
        self.confident = confident
        self.lookahead = lookahead_bot(game_name, **options)
        self.last: Search | None = None
        self.stats = {"decisions": 0, "searches": 0, "confident": 0, "overrides": 0}

    @property
    def budget(self) -> Budget:
        return self.lookahead.budget

    def act(self, game: Game, state: Any, rng: np.random.Generator) -> int:
        mask = game.legal_mask(state)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(
                "GuidedLookahead asked to act with no legal action (is the game over?)"
            )
        self.stats["decisions"] += 1
        if legal.size == 1:
            return int(legal[0])
        weights = np.maximum(np.asarray(self.proposer.priors(game, state), dtype=float)[legal], 0)
        order = np.argsort(-weights, kind="stable")  # ties keep the action order
        choice = int(legal[order[0]])
        total = weights.sum()
        if self.confident is not None and total > 0 and weights[order[0]] / total >= self.confident:
            self.stats["confident"] += 1
            return choice
        proposed = [int(legal[k]) for k in order if k == order[0] or weights[k] > 0]
        candidates = self.candidates(game, state, mask, proposed, rng)
        if len(candidates) == 1:
            return choice
        search = self.lookahead.search(game, state, candidates, rng)
        self.last = search
        self.stats["searches"] += 1
        self.stats["overrides"] += search.choice != choice
        return search.choice

    def candidates(
        self,
        game: Game,
        state: Any,
        mask: np.ndarray,
        proposed: list[int],
        rng: np.random.Generator,
    ) -> list[int]:
        """The proposer's choice, then its runners-up and the heuristic's options interleaved
        by rank, ``candidates`` at most (``proposed``: the legal actions the proposer gives
        weight, most probable first); the choice alone where the lookahead bot would not
        search (the heuristic lists no alternative worth playing out)."""
        limit = self.lookahead.budget.candidates
        lookahead = self.lookahead
        heuristic = lookahead.candidates(
            game, state, mask, int(lookahead.heuristic.act(game, state, rng))
        )
        if limit == 1 or len(heuristic) == 1:
            return proposed[:1]  # not a decision the lookahead bot would search
        runners_up = [(0.0, a) for a in proposed[1:limit]]
        options = ranked([runners_up, [(0.0, a) for a in heuristic]])
        return [proposed[0]] + [a for _, a in options if a != proposed[0]][: limit - 1]


__all__ = ["GuidedLookahead", "Proposer"]
