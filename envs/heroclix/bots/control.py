"""The heuristic bot and Mind Control (P-SPD-6): when to use it, and what to do with the
enemy it controls.

* **Choosing it.** Each enemy the attack may hit (close, or ranged with the figure's bolts,
  range 4 without range) is worth, on a hit, the token its given action earns it (priced as
  Incapacitate's, :meth:`~envs.heroclix.bots.evaluation.Evaluator.token_value`: a pushed enemy
  loses a click and its next turn) plus the best attack it could then make on a figure of
  its own side (its plain or variant close attack, its best shot, from where it stands);
  an enemy with two tokens is given no action. Then the Mind Controller loses
  ``floor(points hit / 100)`` clicks, unreduced: the expectation over which targets are hit.
* **The controlled figure** attacks its own side with the actions whose price does not
  depend on whose figure it is (:data:`CONTROLLED_PLAYS`; no healing of it); with nothing to
  attack, it moves to the square its owner would like least (its owner's position score,
  :func:`owner_view`).
"""

from __future__ import annotations

import itertools

import numpy as np

from envs.bots import best_scored
from envs.heroclix.bots.variants import Group, Play, best_shot, best_strike
from envs.heroclix.combat.attack import AttackKind, AttackSpec
from envs.heroclix.combat.targets import close_targets, ranged_targets
from envs.heroclix.movement import needs_breakaway
from envs.heroclix.powers.hooks import HOOKS, VARIANTS
from envs.heroclix.state import NO_FIGURE, NO_SEAT, SOAR

KEY = "mind_control"
POINTS_PER_CLICK = 100  # P-SPD-6: 1 click per full 100 points hit
CLOSE_MC = AttackSpec(AttackKind.CLOSE, power=KEY, deals_damage=False)
RANGED_MC = AttackSpec(AttackKind.RANGED, power=KEY, deals_damage=False)
# variants a controlled enemy may play for us: their prices read only "its targets"
CONTROLLED_PLAYS = frozenset(
    {
        "close_combat_expert",
        "exploit_weakness",
        "blades_claws_fangs",
        "flurry",
        "quake",
        "incapacitate",
        "psychic_blast",
        "ranged_combat_expert",
    }
)
HEALS = ("support", "regenerate")  # never heal the enemy we control


def controlled_by_us(turn, figure: int) -> bool:
    state = turn.state
    return figure == state.controlled and int(turn.game.owner[figure]) != turn.seat


def _variant():
    return HOOKS.get(VARIANTS, KEY)


def controlled_attack(turn, enemy: int) -> float:
    """The best attack ``enemy`` could make on its own side if given an action now (asked
    of a copy of the state with it controlled: its targets are then its friends)."""
    memo = turn.memo.setdefault("controlled_attack", {})
    if enemy not in memo:
        game = turn.game
        trial = turn.state.copy()
        trial.controlled, trial.controller = enemy, turn.seat
        held = turn.held_class(enemy)
        values = [best_strike(turn, enemy, t, held) for t in close_targets(game, trial, enemy)]
        values += [
            best_shot(turn, enemy, t)[int(h)] for t, h in ranged_targets(game, trial, enemy).items()
        ]
        memo[enemy] = max(values, default=0.0)
    return memo[enemy]


def control_value(turn, enemy: int) -> float:
    """What one hit is worth: its token, and the attack it makes for us (none with two
    tokens: it is given no action)."""
    if turn.state.tokens[enemy] >= 2:
        return 0.0
    return turn.token_value(enemy) + controlled_attack(turn, enemy)


def control_group(turn, figure: int, spec: AttackSpec = RANGED_MC) -> Group:
    """The value of a Mind Control attack on ``group``: each hit's :func:`control_value`,
    less the expected clicks the user takes for the points it hit and its critical miss."""
    points = turn.game.points

    def total(group, shots):
        hits = []
        for g in group:
            normal, crit = turn.p_hit(figure, g, shots.get(g, False), spec)
            hits.append(normal + crit)
        value = sum(p * control_value(turn, g) for p, g in zip(hits, group))
        if int(sum(points[g] for g in group)) >= POINTS_PER_CLICK:
            for outcome in itertools.product((0, 1), repeat=len(group)):
                clicks = (
                    int(sum(points[g] for g, hit in zip(group, outcome) if hit)) // POINTS_PER_CLICK
                )
                if clicks:
                    chance = np.prod([p if hit else 1.0 - p for p, hit in zip(hits, outcome)])
                    value -= chance * turn.loss(figure, clicks)
        return value - turn.fumble(figure)

    return total


def mind_control_plan(turn, figure):
    game, state = turn.game, turn.state
    variant = _variant()
    close = control_group(turn, figure, CLOSE_MC)
    options = [close([t], {}) for t in variant.close_options(game, state, figure)]
    shots = variant.shootable(game, state, figure)
    if shots:
        options.append(turn.volley(figure, [], shots, control_group(turn, figure))[0])
    return max(options) if options else None


def mind_control_step(turn):
    game, state = turn.game, turn.state
    figure = state.selected
    close = control_group(turn, figure, CLOSE_MC)
    options = [
        (close([int(state.occupant[c])], {}), turn.cell_action("close", c))
        for c in turn.cells("close")
    ]
    shots = _variant().shootable(game, state, figure)
    if shots and turn.cells("ranged"):
        value, plane, cell = turn.volley(figure, [], shots, control_group(turn, figure))
        options.append((value, turn.action_of(plane, cell)))
    return best_scored(options) if options else None


PLAYS = {KEY: Play(mind_control_plan, mind_control_step)}
GROUPS = {KEY: control_group}


# -- the enemy we control -------------------------------------------------------------------------
def owner_view(turn, figure: int):
    """The position as ``figure``'s owner would price it (no one controlled)."""
    memo = turn.memo.setdefault("owner_view", {})
    owner = int(turn.game.owner[figure])
    if owner not in memo:
        trial = turn.state.copy()
        trial.seat, trial.controlled, trial.controller = owner, NO_FIGURE, NO_SEAT
        memo[owner] = type(turn)(turn.bot, turn.game, trial, turn.mask)
    return memo[owner]


def hostile_scores(turn, figure: int, cells: np.ndarray, modes: np.ndarray) -> np.ndarray:
    """Our score of the enemy we control ending its move on each square: what its owner
    loses there."""
    return -owner_view(turn, figure).position(figure, cells, modes, False)


def controlled_plan(turn, figure: int) -> tuple[float, str, int, int]:
    """(gain, plane, cell, mode) of the controlled enemy's action for us."""
    game, state = turn.game, turn.state
    options = [
        (v, plane, cell, -1)
        for v, plane, cell in turn.attacks(figure)
        if plane not in HEALS and (plane != "power" or game.variant_keys[cell] in CONTROLLED_PLAYS)
    ]
    cells, modes = turn.reach(figure)
    if cells.size:
        here = np.array([int(state.cell[figure])]), np.array([int(state.mode[figure])])
        score = hostile_scores(turn, figure, np.append(cells, here[0]), np.append(modes, here[1]))
        best = int(np.argmax(score[:-1]))
        gain = float(score[best] - score[-1])
        if needs_breakaway(game, state, figure):
            options.append((turn.breakaway_chance(figure) * gain, "break_away", -1, -1))
        else:
            options.append(
                (
                    gain,
                    "soar" if modes[best] == SOAR else "move",
                    int(cells[best]),
                    int(modes[best]),
                )
            )
    return max(options, key=lambda o: o[0]) if options else (-1.0, "pass", -1, -1)


__all__ = ["PLAYS", "GROUPS", "controlled_by_us", "controlled_plan", "hostile_scores"]
