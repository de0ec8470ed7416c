"""Heroica's hooks for :mod:`envs.lookahead`: the heuristic, the value of a race in progress
and the default budget.

A Heroica game is short and cheap to play out (about 2 ms from a middle position), so the
playouts run to the end by default and the value is seldom needed. Where a horizon cuts
them, a seat's position is its *effective cost to go*: the heuristic's cost to go (steps,
fights and rocks priced in die pips) plus the Health it lacks (``Weights.health`` steps a
point) or, while healing, a turn of rolls; the value is that lead over the nearest rival in
units of two average rolls, through tanh. The Monster Player (Battle Heroica) counts the
Heroes it has defeated (two win, HE-20.3) and how far the nearest Hero still is.
"""

from __future__ import annotations

import math

from envs import lookahead
from envs.heroica.bots.cost_to_go import MEAN_MOVE
from envs.heroica.bots.heuristic import HeuristicBot
from envs.heroica.state import HeroField, State

SCALE = 2.0 * MEAN_MOVE  # a lead of two average rolls is worth tanh(1) of a win
HEALING_STEPS = MEAN_MOVE  # a healing Hero spends its next turn rolling to heal (HE-9.2)
MONSTER_CLOCK = (
    4.0 * MEAN_MOVE
)  # a Hero this far from the goal is an even race for the Monster Player


def effective_cost(heuristic: HeuristicBot, game, state: State, seat: int) -> float:
    hero = state.heroes[seat]
    cost = heuristic.cost_to_go(game, state, seat)[int(hero[HeroField.CELL])]
    if hero[HeroField.HEALING]:
        return cost + HEALING_STEPS
    return cost + heuristic.w.health * (game.max_health - int(hero[HeroField.HEALTH]))


def value(heuristic: HeuristicBot, game, state: State, seat: int) -> float:
    costs = {s: effective_cost(heuristic, game, state, s) for s in game.hero_seats()}
    if seat == game.monster_seat:
        defeats = 0.5 * state.monster_player_defeats
        return defeats + math.tanh((min(costs.values()) - MONSTER_CLOCK) / SCALE)
    rivals = [c for s, c in costs.items() if s != seat]
    rival = min(rivals) if rivals else MONSTER_CLOCK
    lead = min(rival, 1e6) - min(costs[seat], 1e6)  # an unreachable goal is a lost race
    return math.tanh(lead / SCALE)


HOOKS = lookahead.Hooks(
    heuristic=HeuristicBot,
    value=value,
    defaults={"playouts": 32, "candidates": 4, "horizon": None, "margin": 0.05},
)


class LookaheadBot(lookahead.LookaheadBot):
    """Heroica's lookahead bot (:mod:`envs.lookahead`); budget options as keywords."""

    hooks = HOOKS
