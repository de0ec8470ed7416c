"""Rolls made for a figure, and Probability Control's rerolls (P-DMG-6).

Every roll the rules make for a figure (its attack, breakaway, Super Senses, Impervious,
Shape Change, Support, Regeneration, Leadership, a d6 of damage or knockback) goes through
:func:`roll_for`; the roller is the figure's controller. With the flag
``probability_control`` (off by default: the card's Default), a seat with a figure showing
Probability Control within 10 squares and line of fire of that figure (itself included) is
asked right after the roll whether to reroll it (an interrupt, :mod:`envs.heroclix.phases.interrupts`):

* its own roll in its own turn, once per turn;
* an opponent's roll in that opponent's turn, once per round.

The new result stands. Eligible seats are asked in seat order from the roller's; the first
to reroll ends the question.
"""

from __future__ import annotations

from envs.heroclix.combat.targets import within_sight
from envs.heroclix.dice import roll_d6
from envs.heroclix.game import HeroclixBase
from envs.heroclix.phases.interrupts import PROBABILITY, REROLL, ask
from envs.heroclix.state import State

POWER = "probability_control"
OWN_TURN, OPPONENTS_TURN = 0, 1


def roll_for(game: HeroclixBase, state: State, figure: int, dice: int = 1) -> tuple[int, ...]:
    result = tuple(roll_d6(state) for _ in range(dice))
    if not game.options.probability_control or figure < 0:
        return result
    roller = int(game.owner[figure])
    if state.seat != roller:
        return result  # both windows are for rolls of the player whose turn it is
    for seat in [(roller + k) % game.num_players for k in range(game.num_players)]:
        window = (
            [OWN_TURN, seat, state.turns] if seat == roller else [OPPONENTS_TURN, seat, state.round]
        )
        if window in state.rerolls or not _controls_near(game, state, seat, figure):
            continue
        if ask(state, [PROBABILITY, seat, figure, sum(result)]) == REROLL:
            state.rerolls = [*state.rerolls, window]
            return tuple(roll_d6(state) for _ in range(dice))
    return result


def _controls_near(game: HeroclixBase, state: State, seat: int, figure: int) -> bool:
    controllers = [f for f in game.alive(state, seat) if POWER in game.powers(state, f)]
    return any(within_sight(game, state, f, [figure]) for f in controllers)
