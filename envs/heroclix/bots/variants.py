"""The heuristic bot's power variants (envs/heroclix/RULES.md P-0,
:mod:`envs.heroclix.powers.variants`, :mod:`envs.heroclix.powers.move_variants`): what choosing
one is worth in the FIGURE phase, and its steps in the VARIANT phase.

Each variant the bot plays is a :class:`Play` in :data:`PLAYS` under its power's key:
``plan(turn, figure)`` prices choosing it now with the same expected values as the plain
actions (None when it cannot be played), ``step(turn)`` picks its next action in the VARIANT
phase from the legal mask (re-evaluated from the state), and ``group`` prices a ranged
variant's targets for the TARGETS phase. A variant missing here is never chosen; should the
bot find itself in one anyway, :func:`fallback_step` plays it out.

=====================  ==================================================================
variant                price
=====================  ==================================================================
close_combat_expert    a close attack at +2 damage (no object held)
exploit_weakness       a close attack ignoring the target's reductions
blades_claws_fangs     a close attack whose damage is a d6 (its mean over the faces)
flurry                 the best close attack, then a second one (lost with a KO'd or
                       knocked-back only target)
quake                  one roll on every adjacent enemy at damage <= 2
pulse_wave             one roll on every figure in half range and line: enemies gain,
                       friends loss, 1 each when two or more
force_blast            the expected knockback damage into walls and edges (1d6 squares),
                       plus ``separation`` of its close threat when the figure shoots
incapacitate           a token (``token_value``) per enemy hit, close or ranged
psychic_blast          a ranged attack ignoring reductions (its own lines of fire)
ranged_combat_expert   one ranged target at +2 damage
energy_explosion       damage 1 on each target and every figure beside it: enemies gain,
                       friends loss
charge                 breakaway chance x the best square of half a move: the close attack
                       from there plus the square's position gain
running_shot           the same for the ranged attack from the squares with a shot
=====================  ==================================================================

Mind Control, Hypersonic Speed, Smoke Cloud, Barrier and the free powers Outwit and Perplex
are priced in their own modules (:mod:`envs.heroclix.bots.control`, :mod:`envs.heroclix.bots.hypersonic`,
:mod:`envs.heroclix.bots.markers`, :mod:`envs.heroclix.bots.free_powers`), which :mod:`envs.heroclix.bots.heuristic` adds to :data:`PLAYS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from envs.bots import best_scored
from envs.heroclix.bots.evaluation import D6, STRIKE, Evaluator
from envs.heroclix.combat.attack import AttackKind, AttackSpec
from envs.heroclix.combat.resolve import enhancement
from envs.heroclix.combat.targets import close_targets, ranged_targets
from envs.heroclix.movement import move_budget
from envs.heroclix.powers.hooks import HIDDEN_BY_HINDERING, HOOKS, NO_KNOCKBACK, VARIANTS, has_trait
from envs.heroclix.powers.variants import COMBAT_EXPERT_BONUS, QUAKE_DAMAGE
from envs.heroclix.state import NO_OBJECT, SOAR, Phase

# The specs of powers.variants' variants, as the engine resolves them.
CCE = AttackSpec(AttackKind.CLOSE, power="close_combat_expert", bonus=COMBAT_EXPERT_BONUS)
EXPLOIT = AttackSpec(AttackKind.CLOSE, power="exploit_weakness", penetrating=True)
BLADES = AttackSpec(AttackKind.CLOSE, power="blades_claws_fangs", damage_roll=True)
QUAKE = AttackSpec(AttackKind.CLOSE, power="quake", damage_cap=QUAKE_DAMAGE, always_knockback=True)
INCAP_CLOSE = AttackSpec(
    AttackKind.CLOSE, power="incapacitate", deals_damage=False, extra_token=True
)
INCAP_RANGED = AttackSpec(
    AttackKind.RANGED, power="incapacitate", deals_damage=False, extra_token=True
)
PSYCHIC = AttackSpec(AttackKind.RANGED, power="psychic_blast", penetrating=True)
RCE = AttackSpec(AttackKind.RANGED, power="ranged_combat_expert", bonus=COMBAT_EXPERT_BONUS)
EXPLOSION = AttackSpec(AttackKind.RANGED, power="energy_explosion", damage=1, splash=True)
PULSE = AttackSpec(
    AttackKind.RANGED, power="pulse_wave", penetrating=True
)  # powers in range ignored
PLAIN_RANGED = AttackSpec(AttackKind.RANGED)

CLOSE_SPECS = {
    "close_combat_expert": CCE,
    "exploit_weakness": EXPLOIT,
    "blades_claws_fangs": BLADES,
}
RANGED_SPECS = {"ranged_combat_expert": RCE, "psychic_blast": PSYCHIC}
DOUBLES = 1.0 / 6.0  # a hit rolled on doubles knocks the target back (HC-4.8)

Group = Callable[[list[int], dict[int, bool]], float]


def close_damage(turn: Evaluator, figure: int, spec: AttackSpec, held: int) -> int:
    """The ``damage`` argument of :meth:`Evaluator.ev` for a close spec: the damage value
    (none for a d6 spec), capped, + the spec's bonus and a held object's (not for Quake)."""
    base = 0 if spec.damage_roll else int(turn.values[figure, 3])
    if spec.damage_cap is not None:
        return min(base, spec.damage_cap) + spec.bonus
    return base + spec.bonus + STRIKE[held]


def best_strike(turn: Evaluator, attacker: int, target: int, held: int) -> float:
    """The best close attack of ``attacker`` on ``target``: plain or a close variant."""
    key = ("strike", attacker, target, held)
    found = turn._best.get(key)
    if found is None:
        found = turn._best[key] = turn.across("best", key, attacker, target, _best_strike, held)
    return found


def _best_strike(turn: Evaluator, attacker: int, target: int, held: int) -> float:
    best = turn.ev(attacker, target, int(turn.values[attacker, 3]) + STRIKE[held])
    for key in turn.keys[attacker]:
        spec = CLOSE_SPECS.get(key)
        if spec is not None and not (spec is CCE and held):
            best = max(
                best, turn.ev(attacker, target, close_damage(turn, attacker, spec, held), spec=spec)
            )
    return best


def best_shot(
    turn: Evaluator, attacker: int, target: int, damage: int | None = None
) -> tuple[float, float]:
    """(clear, hindered) value of the best single-target ranged attack: its own shot (or a
    thrown object's ``damage``), Ranged Combat Expert, Psychic Blast."""
    key = ("shot", attacker, target, damage)
    found = turn._best.get(key)
    if found is None:
        found = turn._best[key] = turn.across("best", key, attacker, target, _best_shot, damage)
    return found


def _best_shot(
    turn: Evaluator, attacker: int, target: int, damage: int | None
) -> tuple[float, float]:
    if damage is not None:
        return (
            turn.ev(attacker, target, damage, kind="ranged"),
            turn.ev(attacker, target, damage, True, kind="ranged"),
        )
    dmg = int(turn.values[attacker, 3])
    specs = [(PLAIN_RANGED, dmg)] + [
        (s, dmg + s.bonus) for k, s in RANGED_SPECS.items() if k in turn.keys[attacker]
    ]
    return (
        max(turn.ev(attacker, target, d, spec=s) for s, d in specs),
        max(turn.ev(attacker, target, d, True, spec=s) for s, d in specs),
    )


# -- targets in the VARIANT phase ---------------------------------------------------------------
def pick(turn, plane: str, score: Callable[[int], float], end: float | None = None) -> int | None:
    """The best legal ``plane`` action by ``score(target)``; ``end_action`` (worth ``end``)
    when it is legal and scores more."""
    state = turn.state
    options = [
        (score(int(state.occupant[c])), turn.cell_action(plane, c)) for c in turn.cells(plane)
    ]
    if end is not None and turn.can("end_action"):
        options.append((end, turn.special("end_action")))
    return best_scored(options) if options else None


def strike_value(turn, figure: int, target: int, spec: AttackSpec) -> float:
    damage = close_damage(turn, figure, spec, turn.held_class(figure))
    return turn.ev(figure, target, damage, spec=spec) - turn.fumble(figure)


def close_play(
    spec: AttackSpec, allowed: Callable[[Evaluator, int], bool] = lambda t, f: True
) -> Play:
    """A close attack on one adjacent enemy under ``spec``."""

    def plan(turn, figure):
        targets = close_targets(turn.game, turn.state, figure)
        if not targets or not allowed(turn, figure):
            return None
        return max(strike_value(turn, figure, t, spec) for t in targets)

    def step(turn):
        return pick(turn, "close", lambda t: strike_value(turn, turn.state.selected, t, spec))

    return Play(plan, step)


# -- Flurry, Quake, Force Blast -----------------------------------------------------------------
def flurry_plan(turn, figure):
    targets = close_targets(turn.game, turn.state, figure)
    if not targets:
        return None
    plain = AttackSpec(AttackKind.CLOSE)
    values = sorted(((strike_value(turn, figure, t, plain), t) for t in targets), reverse=True)
    first, target = values[0]
    normal, crit = turn.p_hit(figure, target, False, plain)
    damage = close_damage(turn, figure, plain, turn.held_class(figure))
    ko = damage - turn.reduction[target] >= turn.left[target]
    knocked = 0.0 if has_trait(turn.keys[target], NO_KNOCKBACK) else DOUBLES
    again = (1.0 - (normal + crit) * (1.0 if ko else knocked)) * first
    return first + max([again] + [v for v, _ in values[1:]])


def flurry_step(turn):
    end = 0.0 if turn.state.variant_stage else None
    return pick(
        turn,
        "close",
        lambda t: strike_value(turn, turn.state.selected, t, AttackSpec(AttackKind.CLOSE)),
        end,
    )


def quake_plan(turn, figure):
    foes = turn.game.adjacent_enemies(turn.state, figure)
    if not foes:
        return None
    damage = close_damage(turn, figure, QUAKE, 0)
    return sum(turn.ev(figure, e, damage, spec=QUAKE) for e in foes) - turn.fumble(figure)


def pulse_plan(turn, figure):
    """P-ATT-3: every figure the wave reaches, enemies as gain and friends as loss; damage 1
    each when two or more are caught (their powers ignored: no reductions)."""
    caught = HOOKS.get(VARIANTS, "pulse_wave").caught(turn.game, turn.state, figure)
    if not caught:
        return None
    damage = 1 if len(caught) >= 2 else int(turn.values[figure, 3])
    owner = turn.game.owner[figure]
    value = sum(
        (1.0 if turn.game.owner[f] != owner else -1.0)
        * turn.ev(figure, f, damage, hindered, kind="ranged", spec=PULSE)
        for f, hindered in caught.items()
    )
    return value - turn.fumble(figure)


def blast_value(turn, figure: int, target: int) -> float:
    """P-SPD-8: knocked back 1d6 squares, no roll: a wall or edge on the way hurts."""
    game, state = turn.game, turn.state
    here = int(state.cell[figure])
    hurt = np.mean(
        [turn.hurt(target, game.knockback_path(state, target, here, d).extra_damage) for d in D6]
    )
    shooter = turn.shot_range(figure) > 0
    away = (
        turn.w.separation
        * turn.p_act.get(target, 0.0)
        * best_strike(turn, target, figure, turn.held_class(target))
        if shooter
        else 0.0
    )
    return float(hurt) + away


def blastable(turn, figure: int) -> list[int]:
    return [
        e
        for e in turn.game.adjacent_enemies(turn.state, figure)
        if not has_trait(turn.keys[e], NO_KNOCKBACK)
    ]


def blast_plan(turn, figure):
    foes = blastable(turn, figure)
    return max(blast_value(turn, figure, e) for e in foes) if foes else None


def blast_step(turn):
    return pick(turn, "close", lambda t: blast_value(turn, turn.state.selected, t))


# -- ranged variants and their targets ------------------------------------------------------------
def plain_group(turn, figure: int, spec: AttackSpec = PLAIN_RANGED) -> Group:
    """HC-4.24/4.25: each target at the damage value, 1 each for several."""
    dmg = turn.enhanced(figure) + spec.bonus

    def total(group, shots):
        return sum(
            turn.ev(figure, g, dmg, shots.get(g, False), len(group) > 1, spec=spec) for g in group
        ) - turn.fumble(figure)

    return total


def explosion_group(turn, figure: int) -> Group:
    """P-ATT-2: damage 1 on each target and on every figure beside one, once per target it
    is beside (friends count against)."""
    game, state = turn.game, turn.state
    per = 1 + enhancement(game, state, figure)
    mine = int(game.owner[figure])

    def total(group, shots):
        times = {t: 1 for t in group}
        for t in group:
            for near in game.adjacent_figures(state, t):
                if near != figure:
                    times[near] = times.get(near, 0) + 1
        value = 0.0
        for f, n in times.items():
            ev = turn.ev(figure, f, per * n, f in group and shots.get(f, False), spec=EXPLOSION)
            value += -ev if game.owner[f] == mine else ev
        return value - turn.fumble(figure)

    return total


GROUPS: dict[str, Callable[[Evaluator, int], Group]] = {
    "": plain_group,
    "running_shot": plain_group,
    "psychic_blast": lambda turn, figure: plain_group(turn, figure, PSYCHIC),
    "ranged_combat_expert": lambda turn, figure: plain_group(turn, figure, RCE),
    "incapacitate": lambda turn, figure: plain_group(turn, figure, INCAP_RANGED),
    "energy_explosion": explosion_group,
}


def variant_shots(turn, figure: int, key: str) -> dict[int, bool]:
    """The variant's ranged targets (enemy -> hindered), as the engine offers them."""
    return HOOKS.get(VARIANTS, key).shootable(turn.game, turn.state, figure)


def ranged_play(key: str, bolts: int | None = None) -> Play:
    def plan(turn, figure):
        shots = variant_shots(turn, figure, key)
        if not shots:
            return None
        return turn.volley(figure, [], shots, GROUPS[key](turn, figure), bolts)[0]

    def step(turn):
        figure = turn.state.selected
        _, plane, cell = turn.volley(
            figure, [], variant_shots(turn, figure, key), GROUPS[key](turn, figure), bolts
        )
        return turn.legal(plane, cell)

    return Play(plan, step)


def incapacitate_plan(turn, figure):
    options = [
        strike_value(turn, figure, t, INCAP_CLOSE)
        for t in close_targets(turn.game, turn.state, figure)
    ]
    shots = ranged_targets(turn.game, turn.state, figure)
    if shots:
        options.append(turn.volley(figure, [], shots, GROUPS["incapacitate"](turn, figure))[0])
    return max(options) if options else None


def incapacitate_step(turn):
    figure = turn.state.selected
    close = [
        (
            strike_value(turn, figure, int(turn.state.occupant[c]), INCAP_CLOSE),
            turn.cell_action("close", c),
        )
        for c in turn.cells("close")
    ]
    shots = ranged_targets(turn.game, turn.state, figure)
    if shots and turn.cells("ranged"):
        value, plane, cell = turn.volley(figure, [], shots, GROUPS["incapacitate"](turn, figure))
        close.append((value, turn.action_of(plane, cell)))
    return best_scored(close) if close else None


# -- Charge and Running Shot: half a move, then the attack -----------------------------------------
def close_from(turn, figure: int, cells: np.ndarray, modes: np.ndarray) -> np.ndarray:
    """The best close attack from each square (-inf where none)."""
    best = np.full(cells.size, -np.inf)
    spec = AttackSpec(AttackKind.CLOSE)
    for line in turn.lines(figure, cells, modes):
        if line.enemy in turn.state.untargetable:  # P-DMG-7: out of this action
            continue
        value = strike_value(turn, figure, line.enemy, spec)
        best = np.maximum(best, np.where(line.adjacent, value, -np.inf))
    return best


def shots_from(
    turn,
    figure: int,
    cells: np.ndarray,
    modes: np.ndarray,
    reach: int | None = None,
    bolts: int | None = None,
) -> np.ndarray:
    """The best ranged attack from each square (-inf where no enemy can be shot), at
    ``reach`` (the figure's range by default) with ``bolts`` targets at most."""
    game, state = turn.game, turn.state
    seen = turn.lines(figure, cells, modes)
    reach = turn.shot_range(figure) if reach is None else reach
    # HC-4.16: no ranged attack from a square next to an enemy; HC-4.21: unless every enemy
    # next to it hovers, and then only at those
    adjacent = np.zeros(cells.size, dtype=bool)
    beside_walker = np.zeros(cells.size, dtype=bool)
    exception = game.options.hover_adjacent_ranged_exception
    hovering = {
        line.enemy: exception and not line.soaring and game.flies(state, line.enemy)
        for line in seen
    }
    for line in seen:
        adjacent |= line.adjacent
        if not hovering[line.enemy]:
            beside_walker |= line.adjacent
    hind_sq = game.hindering(state, movement=False)
    dmg = int(turn.values[figure, 3])
    singles: list[np.ndarray] = []  # per line of fire, the score on each cell
    multis: list[np.ndarray] = []
    for line in seen:
        if line.enemy in state.untargetable:  # P-DMG-7: out of this action
            continue
        limit = (reach + 1) // 2 if line.soaring else reach
        free = ~beside_walker & (line.adjacent | ~adjacent) if hovering[line.enemy] else ~adjacent
        ok = free & line.clear & (line.cheb <= limit)
        cover = line.clear & ((line.hindered & ~hind_sq[cells]) | hind_sq[line.cell])
        if has_trait(turn.keys[line.enemy], HIDDEN_BY_HINDERING):
            ok &= ~cover  # P-SPD-10
        for out, multi in ((singles, False), (multis, True)):
            clean = turn.ev(figure, line.enemy, dmg, False, multi, "ranged")
            hit = turn.ev(figure, line.enemy, dmg, True, multi, "ranged")
            out.append(np.where(ok, np.where(cover, hit, clean), -np.inf))
    if not singles:
        return np.full(cells.size, -np.inf)
    single = np.max(singles, axis=0)
    bolts = int(game.bolts[figure]) if bolts is None else bolts
    if bolts > 1 and len(multis) > 1:
        top = -np.sort(-np.where(np.isfinite(multis), multis, 0.0), axis=0)[:bolts]
        single = np.where(np.isfinite(single), np.maximum(single, top.sum(axis=0)), single)
    return single - turn.fumble(figure)


def rush_scores(
    turn, figure: int, cells: np.ndarray, modes: np.ndarray, attack: Callable
) -> np.ndarray:
    """Attack from each square (-inf where none) plus the square's position gain over
    staying."""
    state = turn.state
    here = turn.position(
        figure, np.array([int(state.cell[figure])]), np.array([int(state.mode[figure])]), False
    )[0]
    return attack(turn, figure, cells, modes) + turn.position(figure, cells, modes, False) - here


def engine_shot_squares(turn, figure: int) -> bool:
    """Whether the engine's half move of Running Shot has a square with a shot, asked on a
    copy of the state (the search moves the figure about; the dice are not rolled)."""
    game, state = turn.game, turn.state
    trial = state.copy()
    trial.move_spent = 0
    trial.move_budget = (move_budget(game, state, figure) + 1) // 2
    trial.broke_away = game.adjacent_enemies(state, figure)
    return bool(HOOKS.get(VARIANTS, "running_shot").shot_squares(game, trial, figure, first=True))


def rush_play(
    attack: Callable, plane: str, end: float | None, check: Callable | None = None
) -> Play:
    """Charge (close, the attack optional) or Running Shot (ranged, from a shot square);
    ``check`` confirms with the engine that the variant can go on once chosen."""

    def plan(turn, figure):
        cells, modes = turn.reach(figure, half=True)
        if not cells.size:
            return None
        best = float(np.max(rush_scores(turn, figure, cells, modes, attack)))
        if not np.isfinite(best) or (check is not None and not check(turn, figure)):
            return None
        return turn.breakaway_chance(figure) * best

    def step(turn):
        figure = turn.state.selected
        if turn.state.variant_stage == 0:
            ground, soar = turn.cells("move"), turn.cells("soar")
            if not ground + soar:
                return None
            cells = np.array(ground + soar, dtype=np.int64)
            modes = np.array([0] * len(ground) + [SOAR] * len(soar), dtype=np.int64)
            scores = rush_scores(turn, figure, cells, modes, attack)
            if not np.isfinite(scores).any():  # no attack anywhere: the best square
                scores = turn.position(figure, cells, modes, False)
            best = int(np.argmax(scores))
            return turn.cell_action("soar" if modes[best] == SOAR else "move", int(cells[best]))
        if plane == "close":
            return pick(
                turn,
                "close",
                lambda t: strike_value(turn, figure, t, AttackSpec(AttackKind.CLOSE)),
                end,
            )
        shots = ranged_targets(turn.game, turn.state, figure)
        if not shots:  # moved where no target is left: nothing to weigh (the phase ends it)
            return None
        _, p, cell = turn.volley(figure, [], shots)
        return turn.legal(p, cell)

    return Play(plan, step)


@dataclass(frozen=True)
class Play:
    """How the bot prices and plays one power variant (module docstring)."""

    plan: Callable[[Evaluator, int], float | None]
    step: Callable[[Evaluator], int | None]


def no_object(turn, figure) -> bool:
    return turn.state.held[figure] == NO_OBJECT


PLAYS: dict[str, Play] = {
    "close_combat_expert": close_play(CCE, no_object),
    "exploit_weakness": close_play(EXPLOIT),
    "blades_claws_fangs": close_play(BLADES),
    "flurry": Play(flurry_plan, flurry_step),
    "quake": Play(quake_plan, lambda turn: None),
    "pulse_wave": Play(pulse_plan, lambda turn: None),
    "force_blast": Play(blast_plan, blast_step),
    "incapacitate": Play(incapacitate_plan, incapacitate_step),
    "psychic_blast": ranged_play("psychic_blast"),
    "ranged_combat_expert": ranged_play("ranged_combat_expert", bolts=1),
    "energy_explosion": ranged_play("energy_explosion"),
    "charge": rush_play(close_from, "close", end=0.0),
    "running_shot": rush_play(shots_from, "ranged", end=None, check=engine_shot_squares),
}


def fallback_step(turn) -> int:
    """A variant the bot does not know: attack if it can, else move well, else go on."""
    figure = turn.state.selected
    spec = AttackSpec(AttackKind.CLOSE)
    action = pick(turn, "close", lambda t: strike_value(turn, figure, t, spec))
    if action is None and turn.cells("ranged"):
        action = pick(
            turn, "ranged", lambda t: turn.ev(figure, t, int(turn.values[figure, 3]), kind="ranged")
        )
    if action is None and (turn.cells("move") or turn.cells("soar")):
        action = turn.best_destination(figure)
    if action is None:
        legal = [int(a) for a in np.flatnonzero(turn.mask)]
        end = turn.special("end_action")
        action = next((a for a in legal if a != end), end)
    return action


def variant_step(turn) -> int:
    """The VARIANT phase: the step of the variant being played."""
    play = PLAYS.get(turn.state.variant)
    action = play.step(turn) if play is not None else None
    return fallback_step(turn) if action is None or not turn.mask[action] else action


def variant_options(turn, figure: int) -> list[tuple[float, str, int]]:
    """(value, "power", slot index) of each variant ``figure`` could choose now; once it is
    selected, only those the legal mask offers."""
    game, state = turn.game, turn.state
    chosen = state.selected == figure and state.phase is Phase.FIGURE
    found = []
    for key in turn.keys[figure]:
        play = PLAYS.get(key)
        index = game.variant_index.get(key)
        if play is None or index is None:
            continue
        if chosen and not turn.mask[turn.layout.slot("power", index)]:
            continue
        value = play.plan(turn, figure)
        if value is not None:
            found.append((float(value), "power", index))
    return found


def group_for(turn, figure: int) -> Group:
    """The value of a ranged attack's target group for the variant being played."""
    return GROUPS.get(turn.state.variant, plain_group)(turn, figure)
