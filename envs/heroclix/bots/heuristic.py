"""Scripted HeroClix players. ``HeuristicBot`` focuses fire on what it can KO, shoots from
out of reach, alternates its figures to avoid pushing, plays its powers' variants when they
pay more than the plain actions, and beats random play.

The prices live in :mod:`envs.heroclix.bots.evaluation` (victory points, the exact 2d6 odds of one attack under
any spec, pushing, breaking away, healing), the squares in :mod:`envs.heroclix.bots.position` (where a
figure could end a move and what standing there is worth) and the power variants in
:mod:`envs.heroclix.bots.variants` (what choosing one is worth, its steps in the VARIANT phase).

* ``ev``       expected value of one attack: ``P(hit) * (V(k) - V(k - damage))`` plus the
  critical hit, minus the critical miss. Close, ranged (one target, or several at 1 damage
  each), thrown objects (HC-6.12), Telekinesis (HC-6.18) and every variant use it; Support
  and Regeneration score the expected clicks healed the same way (R-5, R-6).
* ``position`` of each square a figure could end its move on (:mod:`envs.heroclix.bots.position`).
* ``push``     acting with a token from last turn costs a click (none with Willpower) and
  the next turn (HC-3.16, HC-3.17); never when that click would KO the figure.
* ``break_away`` a move that must break away is worth its gain times the chance of the d6
  (4-6; Plasticity 2-6 or 6, :func:`~envs.heroclix.movement.breakaway_target`).

The powers priced in their own modules join :data:`~envs.heroclix.bots.variants.PLAYS`:
Mind Control and the enemy it controls (:mod:`envs.heroclix.bots.control`), Hypersonic Speed
(:mod:`envs.heroclix.bots.hypersonic`), Smoke Cloud and Barrier (:mod:`envs.heroclix.bots.markers`), Outwit and Perplex
(:mod:`envs.heroclix.bots.free_powers`); switching powers off is :mod:`envs.heroclix.bots.switch_off`.

Each phase has one small function (``_PHASES``): ACTION uses a free power first when it
gains enough, then selects the figure with the best option (attack now, a power variant,
heal, move to its best square, or break away) over ``min_gain`` after pushing, else ends
the turn; FIGURE switches off what would hurt our side and carries out that plan (for an
enemy we Mind Control, its action for us); VARIANT plays the chosen variant's or free
power's steps (:data:`~envs.heroclix.bots.variants.PLAYS`); MOVE, PICKUP, DROP,
TARGETS and TELEKINESIS finish it; with ``setup="play"`` DRAFT fills the build total and
PLACE_OBJECT / PLACE_FIGURE pick squares. Nothing is simulated through the engine, so the bot
never sees a die before it is rolled; it reads the state and never changes it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

import numpy as np

from envs.bots import best_scored
from envs.core.lru import LRU
from envs.heroclix.bots import control, free_powers, hypersonic, markers
from envs.heroclix.bots.evaluation import FACTS_CACHE_SIZE, FAR, STRIKE, Weights, normal_hit
from envs.heroclix.bots.position import Positions
from envs.heroclix.bots.switch_off import switch_off
from envs.heroclix.bots.variants import (
    GROUPS,
    PLAYS,
    group_for,
    plain_group,
    variant_options,
    variant_step,
)
from envs.heroclix.combat.objects import telekinesis_objects, tk_targets
from envs.heroclix.combat.targets import close_targets, ranged_targets, throw_damage, throw_targets
from envs.heroclix.game import HeroclixBase
from envs.heroclix.movement import move_tables, needs_breakaway
from envs.heroclix.phases.attacks import shootable
from envs.heroclix.state import GROUND, NO_OBJECT, SOAR, Phase, State
from envs.lookahead import Weighing, ranked


class HeuristicBot:
    """A fast rule-based HeroClix player for any scenario; see the module docstring."""

    name = "heuristic"

    def __init__(self, weights: Weights | None = None):
        self.w = weights or Weights()
        self._plans: dict[tuple, tuple] = {}
        self._dist: dict[tuple, np.ndarray] = {}
        self._facts: LRU[tuple, dict] = LRU(FACTS_CACHE_SIZE)  # per position (position_key)
        self._geometry: dict[str, LRU] = {}  # lines of fire (bots.position.geometry_cache)
        self._across: dict[str, LRU] = {}  # rolls and damage (bots.evaluation.bot_cache)
        self._game: weakref.ref | None = None

    def _bind(self, game: HeroclixBase) -> None:
        """Forget the position caches when the bot moves to another game object: their keys
        name the game by id, which Python may give a new game once the old one is freed."""
        if self._game is None or self._game() is not game:
            self._game = weakref.ref(game)
            self._facts.clear()
            self._geometry.clear()
            self._across.clear()

    def act(self, game: HeroclixBase, state: State, rng: np.random.Generator) -> int:
        self._bind(game)
        mask = game.legal_mask(state)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(
                f"HeuristicBot asked to act with no legal action "
                f"(phase {state.phase.name}, variant {state.variant!r})"
            )
        if legal.size == 1:
            return int(legal[0])
        action = _PHASES.get(state.phase, _Turn.first_legal)(_Turn(self, game, state, mask))
        return int(action) if action is not None and mask[action] else int(legal[0])

    def scored(self, game: HeroclixBase, state: State) -> list[tuple[float, int]]:
        """(score, action) of what this phase's handler weighs now, best first (for lookahead):
        in ACTION the figures to select, in FIGURE the selected figure's options."""
        self._bind(game)
        turn = _Turn(self, game, state, game.legal_mask(state))
        turn.weighed = []
        _PHASES.get(state.phase, _Turn.first_legal)(turn)
        return ranked(turn.weighed)

    def distances(self, game: HeroclixBase, state: State, source: int) -> np.ndarray:
        """Walking squares from ``source`` (walls standing, no blocking square, levels by
        stairs or ladder only, HC-5.8; figures ignored); FAR where no walk leads."""
        terrain = (id(game), state.walls_intact.tobytes(), state.blocking.tobytes())
        dist = self._dist.get((terrain, source))
        if dist is None:
            if len(self._dist) > 4096:
                self._dist.clear()
            table = self._dist.get(terrain)
            if table is None:
                t, nb = move_tables(game), game.neighbors(state)
                ok = (
                    (nb >= 0)
                    & ~state.blocking[np.where(nb >= 0, nb, 0)]
                    & (~t.level_change | t.by_stairs | t.ladder_up | t.ladder_down)
                )
                table = self._dist[terrain] = np.where(ok, nb, -1)
            dist = np.full(game.n_cells, FAR, dtype=np.int16)
            dist[source] = 0
            frontier, step = np.array([source]), 0
            while frontier.size:
                step += 1
                nxt = np.unique(table[frontier].ravel())
                nxt = nxt[nxt >= 0]
                frontier = nxt[dist[nxt] == FAR]
                dist[frontier] = step
            self._dist[(terrain, source)] = dist
        return dist


class _Turn(Positions, Weighing):
    """One decision: the facts every score needs, computed once, and each figure's plan."""

    def attacks(self, figure: int) -> list[tuple[float, str, int]]:
        """(value, plane, cell) of every attack, healing action and power variant (plane
        ``power``, the variant's slot index for ``cell``) ``figure`` may make now."""
        game, state = self.game, self.state
        dmg, fumble, cell_of = int(self.values[figure, 3]), self.fumble(figure), state.cell
        found = [
            (
                self.ev(figure, t, dmg + STRIKE[self.held_class(figure)]) - fumble,
                "close",
                int(cell_of[t]),
            )
            for t in close_targets(game, state, figure)
        ]
        shots = ranged_targets(game, state, figure)
        if shots:
            found.append(self.volley(figure, [], shots))
        held = int(state.held[figure])
        if held != NO_OBJECT:
            for t, hindered in throw_targets(game, state, figure).items():
                found.append(
                    (
                        self.ev(figure, t, throw_damage(game, held), hindered, kind="ranged")
                        - fumble,
                        "throw",
                        int(cell_of[t]),
                    )
                )
        for cell in telekinesis_objects(game, state, figure):
            obj = game.objects.at(state.objects, cell)[0]
            hurl = [
                self.ev(figure, int(state.occupant[c]), throw_damage(game, obj), kind="ranged")
                for c in tk_targets(game, state, figure, obj)
            ]
            if hurl:
                found.append((max(hurl) - fumble, "tk_object", cell))
        if "support" in self.keys[figure]:  # an adjacent damaged friend
            found += [
                (self.support_ev(figure, f), "support", int(state.cell[f]))
                for f in self.mine
                if f != figure and state.click[f] > 0 and game.is_adjacent(state, figure, f)
            ]
        if "regeneration" in self.keys[figure] and state.click[figure] > 0:
            found.append((self.heal_value(figure), "regenerate", -1))
        return found + variant_options(self, figure)

    def volley(
        self,
        figure: int,
        declared: list[int],
        shots: dict[int, bool],
        total: Callable | None = None,
        bolts: int | None = None,
    ) -> tuple[float, str, int]:
        """The best ranged attack adding to ``declared``: (value, "ranged", first new cell),
        or ``"fire"`` when adding no target is best (HC-4.24, HC-4.25); ``total`` prices a
        group of targets (a plain attack's by default), ``bolts`` caps it."""
        total = total or plain_group(self, figure)
        cell_of = self.state.cell
        new = sorted(
            (t for t in shots if t not in declared), key=lambda t: -total([*declared, t], shots)
        )
        options = [(total(declared, shots), "fire", -1)] if declared else []
        options += [(total(declared + [t], shots), "ranged", int(cell_of[t])) for t in new]
        room = (int(self.game.bolts[figure]) if bolts is None else bolts) - len(declared)
        if room >= 2 and len(new) >= 2:  # as many targets as the bolts allow
            options.append((total(declared + new[:room], shots), "ranged", int(cell_of[new[0]])))
        return max(options, key=lambda o: o[0])

    def plan(self, figure: int) -> tuple[float, str, int, int]:
        """(gain, plane, cell, mode) of ``figure``'s best action in this position, before
        pushing (cached per position; the round and the points scored set its caution)."""
        return self.cached(("plan", figure), lambda: self._plan(figure))

    def cached(self, tag: tuple, compute: Callable):
        """``compute()``, kept per position (everything a price reads, not the phase) so
        the decisions of one action share it."""
        key = (tag, self.key)  # the position (evaluation.position_key)
        found = self.bot._plans.get(key)
        if found is None:
            if len(self.bot._plans) > 20_000:
                self.bot._plans.clear()
            found = self.bot._plans[key] = compute()
        return found

    def _plan(self, figure: int) -> tuple[float, str, int, int]:
        options = self.plan_options(figure)
        return max(options, key=lambda o: o[0]) if options else (-1.0, "pass", -1, -1)

    def plan_options(self, figure: int) -> list[tuple[float, str, int, int]]:
        """(gain, plane, cell, mode) of each action ``figure`` weighs now (the plan is the
        best): its attacks and variants, and its best move or breaking away."""
        if control.controlled_by_us(self, figure):
            return [control.controlled_plan(self, figure)]
        game, state = self.game, self.state
        options = [(v, plane, cell, -1) for v, plane, cell in self.attacks(figure)]
        cells, modes = self.reach(figure)
        here, mode = int(state.cell[figure]), int(state.mode[figure])
        if cells.size:
            pickup = np.append(np.ones(cells.size, dtype=bool), False)
            score = self.position(figure, np.append(cells, here), np.append(modes, mode), pickup)
            stay, score = score[-1], score[:-1]
            self.keep_scores(figure, cells, modes, score)
            best = int(np.argmax(score))
            gain = float(score[best] - stay)
            if needs_breakaway(game, state, figure):  # HC-3.23: 4-6 on a d6, Plasticity
                options.append((self.breakaway_chance(figure) * gain, "break_away", -1, -1))
            else:
                options.append(
                    (
                        gain,
                        "soar" if modes[best] == SOAR else "move",
                        int(cells[best]),
                        int(modes[best]),
                    )
                )
        return options


# ==========================================================================================
# Phases
# ==========================================================================================
def _action(turn: _Turn) -> int:
    """HC-3.5: a free power first when it pays (it uses no action); then the figure whose
    best action gains most after pushing, else end the turn."""
    free = free_powers.free_option(turn)
    if free is not None and free[0] >= free_powers.FREE_MIN:
        return free[1]
    options = [(turn.min_gain, turn.special("end_turn"))]
    for cell in turn.cells("select"):
        figure = int(turn.state.occupant[cell])
        gain = turn.plan(figure)[0] - turn.push_cost(figure)
        options.append((gain, turn.cell_action("select", cell)))
    return turn.pick(options)


def _figure(turn: _Turn) -> int:
    """Switch off a power that would hurt our side (:mod:`envs.heroclix.bots.switch_off`), then carry out
    the selected figure's plan; pick up an object first when it moves."""
    figure = turn.state.selected
    off = switch_off(turn, figure)
    if off is not None:
        return off
    _, plane, cell, _ = turn.plan(figure)
    if turn.weighed is not None:
        turn.note(
            [
                (v, a)
                for v, p, c, _ in turn.plan_options(figure)
                if (a := turn.legal(p, c)) is not None
            ]
        )
    if plane in ("move", "soar", "break_away") and turn.cells("pick_up"):
        return _pick_up(turn)
    action = turn.legal(plane, cell)
    if action is not None:
        return action
    attacks = [(v, turn.legal(p, c)) for v, p, c in turn.attacks(figure)]
    options = [(v, a) for v, a in attacks if a is not None]
    if turn.can("break_away"):
        options.append((-0.5, turn.special("break_away")))
    return best_scored(options) if options else turn.best_destination(figure)


def _move(turn: _Turn) -> int:
    """The rest of a move: pick up an object on the way, then the best square."""
    if turn.cells("pick_up"):
        return _pick_up(turn)
    return turn.best_destination(turn.state.selected)


def _pick_up(turn: _Turn) -> int:
    """HC-6.6: take the heaviest object in reach (it adds to close and thrown damage)."""
    game, state = turn.game, turn.state
    cells = turn.cells("pick_up")
    if not cells:
        return turn.special("end_move") if turn.can("end_move") else turn.first_legal()
    heavy = [
        max(int(game.object_heavy[o]) for o in game.objects.at(state.objects, c)) for c in cells
    ]
    return turn.cell_action("pick_up", cells[int(np.argmax(heavy))])


def _drop(turn: _Turn) -> int:
    """HC-3.30: set the passenger down where it scores best."""
    cells = np.array(turn.cells("drop"))
    score = turn.position(turn.state.passenger, cells, np.zeros(cells.size, dtype=np.int64))
    return turn.cell_action("drop", int(cells[np.argmax(score)]))


def _targets(turn: _Turn) -> int:
    """HC-4.24: add the target that raises the volley's value, or fire (a ranged variant's
    targets priced as that variant's, :func:`~envs.heroclix.bots.variants.group_for`)."""
    state = turn.state
    figure = state.selected
    shots = shootable(turn.game, state, figure)
    _, plane, cell = turn.volley(figure, list(state.targets), shots, group_for(turn, figure))
    action = turn.legal(plane, cell)
    assert action is not None, "volley picks a legal plane and cell"
    return action


def _telekinesis(turn: _Turn) -> int:
    """HC-6.15: hurl the object at the enemy it hurts most; else move it (HC-6.14)."""
    game, state = turn.game, turn.state
    figure, obj = state.selected, state.tk_object
    damage = throw_damage(game, obj)
    hurls = [
        (
            turn.ev(figure, int(state.occupant[c]), damage, kind="ranged"),
            turn.cell_action("tk_hurl", c),
        )
        for c in turn.cells("tk_hurl")
    ]
    return best_scored(hurls) if hurls else turn.first_legal()


# -- setup="play" (HC-2) -----------------------------------------------------------------
def _draft(turn: _Turn) -> int:
    """HC-2.3: the dearest figure that still leaves room for the cheapest, so the force
    fills the build total with two figures or more (HC-3.18); ``done`` when none fits."""
    game = turn.game
    pool = game.scenario.pool
    kinds = [k for k in range(len(pool)) if turn.mask[turn.layout.slot("draft", k)]]
    if not kinds:
        return turn.special("done")
    room = game.build_total - game.force_points(turn.state, turn.seat)
    cheapest = min(f.points for f in pool)
    return best_scored(
        [
            (
                pool[k].points + 1000 * (room - pool[k].points >= cheapest),
                turn.layout.slot("draft", k),
            )
            for k in kinds
        ]
    )


def _place_object(turn: _Turn) -> int:
    """HC-2.7: objects near the own starting area for a force that uses them (Super
    Strength, Telekinesis), far from it otherwise."""
    game, state = turn.game, turn.state
    cells = np.array(turn.cells("place_object"))
    any_area: np.ndarray = game.start_area_any  # np.any(..., axis=0) is typed Any
    area = np.flatnonzero(game.start_areas.get(state.edges[turn.seat], any_area))
    gap = game.chebyshev[np.ix_(cells, area)].min(axis=1) if area.size else np.zeros(cells.size)
    force = np.flatnonzero((game.owner == turn.seat) & state.drafted)
    uses = any(
        k in ("super_strength", "telekinesis")
        for f in force
        for k in game.figures[int(f)].power_keys
    )
    return turn.cell_action("place_object", int(cells[np.argmin(gap if uses else -gap)]))


def _place_figure(turn: _Turn) -> int:
    """HC-2.9/2.10: the starting square (soaring for a flyer where it may) that scores best,
    the nearer the middle of the map the better."""
    game = turn.game
    ground, soar = turn.cells("place"), turn.cells("place_soar")
    cells = np.array(ground + soar, dtype=np.int64)
    modes = np.array([GROUND] * len(ground) + [SOAR] * len(soar), dtype=np.int64)
    middle = int(np.median(np.flatnonzero(game.board.exists)))
    score = (
        turn.position(turn.state.selected, cells, modes, False)
        + 0.1 * (modes == SOAR)
        - 0.01 * game.chebyshev[cells, middle]
    )
    best = int(np.argmax(score))
    return turn.cell_action("place_soar" if modes[best] == SOAR else "place", int(cells[best]))


def _interrupt(turn: _Turn) -> int:
    """Mastermind (P-DEF-7): give the damage to the friend it costs least, when that is less
    than taking it. Probability Control's question (only with its flag): the roll stands."""
    _, _, figure, amount, *squares = turn.state.interrupt
    options = [(turn.hurt(figure, amount), turn.special("decline"))]
    options += [
        (turn.hurt(int(turn.state.occupant[c]), amount), turn.cell_action("target", c))
        for c in squares
    ]
    return min(options)[1]


# the variants and free powers priced outside bots.variants
for module in (control, free_powers, hypersonic, markers):
    PLAYS.update(module.PLAYS)
GROUPS.update(control.GROUPS)

_PHASES: dict[Phase, Callable[[_Turn], int]] = {
    Phase.ACTION: _action,
    Phase.FIGURE: _figure,
    Phase.MOVE: _move,
    Phase.PICKUP: _pick_up,
    Phase.DROP: _drop,
    Phase.TARGETS: _targets,
    Phase.VARIANT: variant_step,
    Phase.INTERRUPT: _interrupt,
    Phase.TELEKINESIS: _telekinesis,
    Phase.DRAFT: _draft,
    Phase.EDGE: _Turn.first_legal,
    Phase.PLACE_OBJECT: _place_object,
    Phase.PLACE_FIGURE: _place_figure,
}

__all__ = ["HeuristicBot", "Weights", "normal_hit"]
