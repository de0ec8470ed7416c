"""Heroscape's hooks for :mod:`envs.lookahead`: the heuristic, the value of a battle in
progress and the default budget.

A whole game is about 10 ms of heuristic play, too dear for every decision, so playouts stop
after six player turns (three each). One attack destroys a figure (HS-12.6) and the cards carry no
points in the basic game, so a figure is priced by its dice (attack + defense) and a seat's
army by its living figures; the value is the difference between its army and the strongest
rival's over their sum, in [-1, 1].
"""

from __future__ import annotations

import numpy as np

from envs import lookahead
from envs.heroscape.bots.heuristic import HeuristicBot
from envs.heroscape.state import NO_CELL, State


def armies(game, state: State) -> np.ndarray:
    """Per seat: the attack + defense dice of its living figures."""
    alive = state.cell != NO_CELL
    worth = (game.fig_attack + game.fig_defense).astype(np.float64) * alive
    return np.bincount(game.fig_owner, weights=worth, minlength=game.num_players)


def value(heuristic: HeuristicBot, game, state: State, seat: int) -> float:
    army = armies(game, state)
    rival = max(a for s, a in enumerate(army) if s != seat)
    total = army[seat] + rival
    return float((army[seat] - rival) / total) if total > 0 else 0.0


HOOKS = lookahead.Hooks(
    heuristic=HeuristicBot, value=value, defaults={"playouts": 8, "candidates": 3, "horizon": 6}
)


class LookaheadBot(lookahead.LookaheadBot):
    """Heroscape's lookahead bot (:mod:`envs.lookahead`); budget options as keywords."""

    hooks = HOOKS
