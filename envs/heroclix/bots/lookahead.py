"""HeroClix's hooks for :mod:`envs.lookahead`: the heuristic, the value of a game in progress,
the decisions worth playing out and the default budget.

A duel lasts about 60 player turns of one action each and a decision of the heuristic costs a
few milliseconds, so playouts stop after four turns (two actions each). The value is the
victory points the game would give if it ended now (HC-7.5-7.7: points of KO'd enemies, plus
the points of each survivor), with survivors priced by their clicks left as the heuristic
prices them (``Weights.residual``: a figure one click from KO is worth ``1 / (1 + residual)``
of a fresh one); the difference to the strongest rival over all the points in play, in
[-1, 1]. One click is about 0.015 of that, hence the small margin.

Only the FIGURE phase is searched (what the selected figure does: which attack, a variant,
or its best move). ACTION's choice (which figure acts, or none) pays off beyond an affordable
horizon: a push costs its click at once while a move shows its worth in later attacks, so
truncated playouts favour ending the turn, and measured matches lost by it.
"""

from __future__ import annotations

import numpy as np

from envs import lookahead
from envs.heroclix.bots.heuristic import HeuristicBot
from envs.heroclix.state import NO_CELL, Phase, State


def scores(heuristic: HeuristicBot, game, state: State) -> np.ndarray:
    """Per seat: victory points scored, plus its survivors' points weighted by clicks left."""
    residual = heuristic.w.residual
    alive = state.cell != NO_CELL
    left = (game.dial_length - state.click) / game.dial_length.astype(np.float64)
    worth = game.points * (1.0 + residual * left) / (1.0 + residual) * alive
    survivors = np.bincount(game.owner, weights=worth, minlength=game.num_players)
    return np.asarray(state.vp, dtype=np.float64) + survivors


def value(heuristic: HeuristicBot, game, state: State, seat: int) -> float:
    score = scores(heuristic, game, state)
    rival = max(v for s, v in enumerate(score) if s != seat)
    total = float(sum(game.force_points(state, s) for s in range(game.num_players)))
    return float((score[seat] - rival) / total) if total > 0 else 0.0


SEARCHED = {Phase.FIGURE}


def rank(heuristic: HeuristicBot, game, state: State) -> list[tuple[float, int]]:
    return heuristic.scored(game, state) if state.phase in SEARCHED else []


HOOKS = lookahead.Hooks(
    heuristic=HeuristicBot,
    value=value,
    rank=rank,
    defaults={"playouts": 8, "candidates": 3, "horizon": 4, "margin": 0.01},
)


class LookaheadBot(lookahead.LookaheadBot):
    """HeroClix's lookahead bot (:mod:`envs.lookahead`); budget options as keywords."""

    hooks = HOOKS
