"""The heuristic bot's Hypersonic Speed (P-SPD-9, option 1): a full move that breaks away
without a roll and is not stopped next to enemies, one attack on the way (close, or a shot
at half range from a square not next to an enemy), then the rest of the move.

Priced like Charge and Running Shot (:func:`~envs.heroclix.bots.variants.rush_play`), with
the rest of the move on top: for the few squares with the best attack, the attack plus the
best square still reachable from there with the speed left, over staying where it is (the
position score, :mod:`envs.heroclix.bots.position`). Without an attack it is a move that ignores enemies,
priced as that move and a hair under it, so a plain move that gets as far wins the tie; with
no enemy within a move and half its range it is not priced at all.
"""

from __future__ import annotations

import numpy as np

from envs.bots import best_scored
from envs.heroclix.bots.variants import Play, close_from, shots_from, strike_value
from envs.heroclix.combat.attack import AttackKind, AttackSpec
from envs.heroclix.movement import move_budget
from envs.heroclix.powers.hooks import HOOKS, VARIANTS
from envs.heroclix.state import SOAR

KEY = "hypersonic_speed"
FOLLOW = 2  # attack squares whose rest of the move is searched
TIE = 1e-6
PLAIN = AttackSpec(AttackKind.CLOSE)


def hyper_best(turn, figure: int) -> tuple[float, int, int] | None:
    """(value, cell, mode) of the square to stop at first: where it attacks from, or the
    end of a move without an attack."""
    memo = turn.memo.setdefault(KEY, {})
    if figure in memo:
        return memo[figure]
    game, state = turn.game, turn.state
    budget = move_budget(game, state, figure)
    half = (turn.shot_range(figure) + 1) // 2
    gaps = [int(game.chebyshev[state.cell[figure], state.cell[e]]) for e in turn.enemies]
    if min(gaps, default=budget + 2 + half) > budget + 1 + half:
        memo[figure] = None  # no attack on the way: a plain move goes as far
        return None
    found = turn.search(figure, budget, ignore_enemies=True)
    modes, cells = np.nonzero(found.ends)
    best = None
    if cells.size:
        here = turn.position(
            figure, np.array([int(state.cell[figure])]), np.array([int(state.mode[figure])]), False
        )[0]
        pos = turn.position(figure, cells, modes, False)
        attack = close_from(turn, figure, cells, modes)
        if half > 0:
            attack = np.maximum(attack, shots_from(turn, figure, cells, modes, half, bolts=1))
        top = int(np.argmax(pos))
        best = (float(pos[top] - here) - TIE, int(cells[top]), int(modes[top]))
        spent = found.cost[modes, cells]
        for i in np.argsort(-attack)[:FOLLOW]:
            if not np.isfinite(attack[i]):
                break
            rest = turn.search(figure, budget, True, (int(cells[i]), int(modes[i]), int(spent[i])))
            follow = float(pos[rest.ends[modes, cells]].max(initial=pos[i]))
            value = float(attack[i]) + follow - here
            if value > best[0]:
                best = (value, int(cells[i]), int(modes[i]))
    memo[figure] = best
    return best


def hyper_plan(turn, figure):
    best = hyper_best(turn, figure)
    return None if best is None else best[0]


def _attack(turn, figure: int) -> int | None:
    """The attack on the way, or going on without one when none is worth it."""
    state = turn.state
    half = HOOKS.get(VARIANTS, KEY).shots(turn.game, state, figure)
    options = [
        (strike_value(turn, figure, int(state.occupant[c]), PLAIN), turn.cell_action("close", c))
        for c in turn.cells("close")
    ]
    options += [
        (
            turn.ev(
                figure,
                int(state.occupant[c]),
                turn.enhanced(figure),
                half.get(int(state.occupant[c]), False),
                kind="ranged",
            )
            - turn.fumble(figure),
            turn.cell_action("ranged", c),
        )
        for c in turn.cells("ranged")
    ]
    if turn.can("end_action"):
        options.append((0.0, turn.special("end_action")))
    return best_scored(options) if options else None


def hyper_step(turn) -> int | None:
    state = turn.state
    figure = state.selected
    if state.variant_stage == 1:
        return _attack(turn, figure)
    if state.variant_stage == 0:
        best = hyper_best(turn, figure)
        if best is not None:
            action = turn.cell_action("soar" if best[2] == SOAR else "move", best[1])
            if turn.mask[action]:
                return action
    return turn.best_destination(figure)  # the rest of the move


PLAYS = {KEY: Play(hyper_plan, hyper_step)}
