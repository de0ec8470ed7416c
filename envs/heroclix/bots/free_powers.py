"""The heuristic bot's free powers (:mod:`envs.heroclix.powers.free`): Outwit (P-DMG-10) and Perplex
(P-DMG-9), used in the ACTION phase before the action they help, never costing one.

Each choice (a target, then a column to counter or a value to change) is priced on a copy of
the state with the choice made, by a fresh evaluator of that copy:

* **our attacks this turn**: each figure of ours that may still act is worth its plan, or
  its best close or ranged attack after the choice (plain or variant,
  :func:`~envs.heroclix.bots.variants.best_strike` / ``best_shot``) where that is more; the
  turn is worth its best ``actions_left`` figures, so a choice helps only a figure that
  will act;
* **the enemy's threat** (Outwit only: a counter lasts until the start of our next turn):
  the countered enemy's best attack on a figure of ours where it stands, as the position
  score's ``danger`` prices it (:meth:`~envs.heroclix.bots.position.Positions.threat`).

Perplex's change lasts until the end of this turn, so only our attacks count: +1 attack,
damage or range on a figure of ours, or -1 defense on an enemy; a -1 on an enemy that threatens
us would be gone before it acts. The bot uses the power when its best choice gains at least
``FREE_MIN`` (:func:`free_option`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from envs.bots import best_scored
from envs.heroclix.bots.variants import Play, best_shot, best_strike
from envs.heroclix.combat.targets import close_targets, fire_snapshot, ranged_targets
from envs.heroclix.dials import RANGE_STAT
from envs.heroclix.game import PERPLEX_STATS
from envs.heroclix.powers.hooks import FREE_ACTIONS, HOOKS
from envs.heroclix.state import GROUND, SOAR

FREE_MIN = 0.05  # VP a free power must gain to be worth a decision
ATTACK, DEFENSE, DAMAGE = (PERPLEX_STATS.index(s) for s in ("attack", "defense", "damage"))
UP, DOWN = 0, 1  # the perplex slots: 2 * stat + way

Choice = tuple[float, int, str, int]  # (gain, target, choice plane or special, its index)


def able(turn) -> list[int]:
    """Our figures that may still act this turn (and would survive a push)."""
    state = turn.state
    return [
        f for f in turn.mine if turn.game.can_act(state, f) and turn.push_cost(f) < float("inf")
    ]


def snapshot(turn):
    memo = turn.memo.setdefault("free", {})
    if "snapshot" not in memo:
        memo["snapshot"] = fire_snapshot(turn.game, turn.state)
    return memo["snapshot"]


def strikes(ev, figure: int, snap, only: int | None = None) -> float:
    """The best close or ranged attack ``figure`` could make now under ``ev``'s state and
    prices (on ``only`` if given); -inf when it has none."""
    game, state = ev.game, ev.state
    held = ev.held_class(figure)
    values = [
        best_strike(ev, figure, t, held)
        for t in close_targets(game, state, figure)
        if only in (None, t)
    ]
    values += [
        best_shot(ev, figure, t)[int(h)]
        for t, h in ranged_targets(game, state, figure, snap).items()
        if only in (None, t)
    ]
    return max(values, default=-np.inf) - ev.fumble(figure)


def attack_gain(turn, view, figures: list[int], only: int | None = None, snap=None) -> float:
    """What the turn's actions gain in the copy ``view``: each of ``figures`` is worth its
    plan after pushing, or its best attack in ``view`` where that is more, and the turn the
    best ``actions_left`` of them (only the figures that will act profit)."""
    if not figures:
        return 0.0
    now, then = [], []
    for f in figures:
        cost = turn.push_cost(f)
        plan = turn.plan(f)[0] - cost
        now.append(plan)
        then.append(max(plan, strikes(view, f, snap or snapshot(turn), only) - cost))
    k = max(1, int(turn.state.actions_left))

    def best(values: list[float]) -> float:
        return float(np.sum(np.maximum(np.sort(values)[::-1][:k], 0.0)))

    return best(then) - best(now)


def view_of(turn, trial):
    return type(turn)(turn.bot, turn.game, trial, turn.mask)


def threat_of(ev, enemy: int, lines: dict[int, dict]) -> float:
    """``enemy``'s best attack on a figure of ours where both stand (:meth:`threat`)."""
    state = ev.state
    best = 0.0
    for g in ev.mine:
        line = lines[g].get(enemy)
        if line is not None:
            cells = np.array([int(state.cell[g])])
            soar = np.array([state.mode[g] == SOAR])
            best = max(best, float(ev.threat(enemy, g, cells, line, soar)[0]))
    return best


def lines_of(ev) -> dict[int, dict]:
    """Each enemy's lines to each figure of ours, where they stand."""
    memo = ev.memo.setdefault("free", {})
    if "lines" not in memo:
        state = ev.state
        memo["lines"] = {
            g: {
                line.enemy: line
                for line in ev.lines(
                    g, np.array([int(state.cell[g])]), np.array([int(state.mode[g])])
                )
            }
            for g in ev.mine
        }
    return memo["lines"]


# -- Outwit ---------------------------------------------------------------------------------------
def outwit_gain(turn, trial, enemy: int, figures: list[int], moved: bool) -> float:
    """Our attacks on ``enemy`` this turn and its threat until our next turn, in ``trial``
    (``moved``: its flight changed, so the lines of fire too)."""
    view = view_of(turn, trial)
    snap = fire_snapshot(turn.game, trial) if moved else None
    offense = attack_gain(turn, view, figures, enemy, snap)
    lines = lines_of(turn)
    before = threat_of(turn, enemy, lines)
    after = threat_of(view, enemy, lines_of(view) if moved else lines)
    return offense + turn.risk * turn.p_act.get(enemy, 1.0) * (before - after)


def outwit_choices(turn, figure: int) -> list[Choice]:
    game, state = turn.game, turn.state
    power = HOOKS.get(FREE_ACTIONS, "outwit")
    figures = able(turn)
    out = []
    for e in power.targets(game, state, figure):
        for column in power.counterable(game, state, e):
            trial = state.copy()
            trial.outwits = [*state.outwits, [e, column, figure]]
            out.append((outwit_gain(turn, trial, e, figures, False), e, "counter", column))
        if state.mode[e] == SOAR:  # forced to hover: ground figures may reach it
            trial = state.copy()
            trial.mode[e] = GROUND
            out.append((outwit_gain(turn, trial, e, figures, True), e, "force_hover", -1))
    return out


# -- Perplex --------------------------------------------------------------------------------------
def perplexed(turn, figure: int, target: int, stat: int, delta: int):
    trial = turn.state.copy()
    trial.perplex = [*trial.perplex, [target, stat, delta, figure]]
    return view_of(turn, trial)


def perplex_choices(turn, figure: int) -> list[Choice]:
    game, state = turn.game, turn.state
    figures = able(turn)
    out = []
    for t in HOOKS.get(FREE_ACTIONS, "perplex").targets(game, state, figure):
        if t in figures:  # +1 on the attacker: only its own attacks change
            stats = (ATTACK, DAMAGE) + ((RANGE_STAT,) if turn.shot_range(t) > 0 else ())
            for stat in stats:
                view = perplexed(turn, figure, t, stat, +1)
                out.append((attack_gain(turn, view, [t]), t, "perplex", 2 * stat + UP))
        elif game.owner[t] != turn.seat:
            view = perplexed(turn, figure, t, DEFENSE, -1)
            out.append((attack_gain(turn, view, figures, t), t, "perplex", 2 * DEFENSE + DOWN))
    return out


CHOICES: dict[str, Callable[[object, int], list[Choice]]] = {
    "outwit": outwit_choices,
    "perplex": perplex_choices,
}


def choices(turn, key: str, figure: int) -> list[Choice]:
    state = turn.state  # who may still act, and how many actions are left, set the prices
    return turn.cached(
        (key, figure, state.acted.tobytes(), state.actions_left), lambda: CHOICES[key](turn, figure)
    )


def free_option(turn) -> tuple[float, int] | None:
    """(gain, the ``free`` action) of the best free power to use now, if any."""
    options = []
    for cell in turn.cells("free"):
        figure = int(turn.state.occupant[cell])
        key = next((k for k in turn.keys[figure] if k in CHOICES), None)
        found = choices(turn, key, figure) if key else []
        if found:
            options.append((max(c[0] for c in found), turn.cell_action("free", cell)))
    return max(options) if options else None


def free_step(turn) -> int | None:
    """The free power's target (stage 0), then its choice for that target."""
    state = turn.state
    found = choices(turn, state.variant, state.selected)
    if state.variant_stage == 0:
        return (
            best_scored(
                [(v, turn.cell_action("target", int(state.cell[t]))) for v, t, _, _ in found]
            )
            if found
            else None
        )
    target = state.targets[0]
    options = [
        (v, turn.special(plane) if index < 0 else turn.layout.slot(plane, index))
        for v, t, plane, index in found
        if t == target
    ]
    return best_scored(options) if options else None


PLAYS = {key: Play(lambda turn, figure: None, free_step) for key in CHOICES}
