"""Scripted HeroClix players. ``HeuristicBot`` focuses fire on what it can KO, shoots from
out of reach, alternates its figures to avoid pushing, and beats random play.

Every score is in victory points. A figure with ``k`` of its ``L`` clicks left is worth
``V(k) = points * (1 + residual * k / L)`` and 0 once KO'd, so a click of damage is worth
``residual * points / L`` and the finishing blow the figure's whole points on top (HC-7.5,
HC-7.7: a KO takes its points off its owner's survivors and gives them to the attacker;
an archenemy's KO is worth half its points more, HC-7.6). The attack roll's distribution is
exact: ``P(2d6 + attack >= defense)`` for rolls 3..11, a 12 always hits for 1 more and a 2
always misses and costs the attacker a click (HC-4.2-4.7); damage is less the target's
Toughness / Invulnerability (the engine's ``damage_taken`` hooks), capped at 1 per target for
a multi-bolt attack (HC-4.25); a line of fire through hindering terrain adds 1 to defense.

* ``ev``       expected value of one attack: ``P(hit) * (V(k) - V(k - damage))`` plus the
  critical hit, minus the critical miss. Close, ranged (one target, or several at 1 damage
  each), thrown objects (HC-6.12) and Telekinesis (HC-6.18) use it; Support and
  Regeneration score the expected clicks healed the same way (R-5, R-6).
* ``position`` of each square (and flight mode) a figure could end its move on, vectorised
  over its reach: ``next_turn`` times the best attack it could make from there next turn, or,
  out of reach, that attack times ``gamma ** turns`` of walking still needed (through today's
  walls and stairs), so close-combat figures close in on weak or damaged enemies and ranged
  ones walk into range; minus ``danger``: the attacks enemies could make on it from where they
  stand (a figure moves *or* attacks), each weighted by the chance that its owner acts with
  it, plus at ``closing`` (over the rival players left) the close attacks of those that can
  walk up next turn. Lines of fire come from the engine's tables, one pass per enemy
  (hindering terrain on the line is cover); Super Strength counts the object it picks up on
  the way (HC-6.6). Danger weighs ``1 + cautious`` times more while the bot leads on points:
  a lead is kept by not trading figures.
* ``push``     acting with a token from last turn costs a click and the next turn (HC-3.16,
  HC-3.17); never when that click would KO the figure.

Each phase has one small function (``_PHASES``): ACTION selects the figure with the best
option (attack now, heal, move to its best square, or break away at half the gain) over
``min_gain`` after pushing, else ends the turn; FIGURE carries out that plan; MOVE, PICKUP,
DROP, TARGETS and TELEKINESIS finish it; with ``setup="play"`` DRAFT fills the build total and
PLACE_OBJECT / PLACE_FIGURE pick squares. Nothing is simulated through the engine, so the bot
never sees a die before it is rolled; it reads the state and never changes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..bots import LegalActions, best_scored
from ..core.hooks import DAMAGE_TAKEN
from ..core.modemove import reachable_modes
from .combat import CLOSE, RANGED, attack_total, defense_total
from .game import ClixBase
from .objects import telekinesis_objects, tk_targets
from .phases import needs_breakaway
from .power_actions import SUPPORT_DEFENSE
from .powers import CLIMBS, HOOKS, PICKS_UP_OBJECTS, has_trait
from .reach import mode_rules, move_budget, move_tables
from .state import GROUND, NO_CELL, NO_OBJECT, SOAR, Phase, State
from .turns import final_scores
from .targets import (HEAVY_THROW, LIGHT_THROW, OBJECT_STRIKE_BONUS, close_targets,
                      ranged_targets, throw_damage, throw_targets)

_COUNTS = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], dtype=np.float64) / 36.0  # 2d6
CRIT = FUMBLE = 1.0 / 36.0
HEAL = np.array([0, 0, 1, 2, 3, 4], dtype=np.float64)  # 1d6 - 2, minimum 0
FAR = 99
# variant of a Super Strength figure: 0 no object, 1 light, 2 heavy -> close bonus, throw
STRIKE = (0, *OBJECT_STRIKE_BONUS)
THROW = ((0, 0), LIGHT_THROW, HEAVY_THROW)  # (range, damage)


def normal_hit(need: int) -> float:
    """P(3 <= 2d6 <= 11 and 2d6 >= need): a hit that is neither critical nor a miss."""
    return float(_COUNTS[max(3, need):12].sum())


@dataclass(frozen=True)
class Weights:
    """The prices of the scores (victory points, see the module docstring)."""

    residual: float = 0.5  # value of a figure's remaining clicks, as a share of its points
    arch: float = 0.5  # extra share of the points for KO-ing an archenemy
    next_turn: float = 0.5  # an attack that can be made next turn, against one made now
    gamma: float = 0.6  # per turn of walking still needed to attack
    danger: float = 0.6  # one expected enemy attack on the square
    lock: float = 0.1  # share of a figure's points lost by its second token (HC-3.17)
    locked: float = 0.5  # the threat of an enemy with two tokens, against one free to act
    closing: float = 0.5  # a close attack the enemy can walk up to make the turn after
    cautious: float = 3.0  # more weight on danger while ahead on victory points (HC-7.4)
    push_margin: float = 2.0  # what a push must gain beyond its click
    min_gain: float = 0.3  # an action must gain this much, else end the turn


class HeuristicBot:
    """A fast rule-based HeroClix player for any scenario; see the module docstring."""

    name = "heuristic"

    def __init__(self, weights: Weights | None = None):
        self.w = weights or Weights()
        self._plans: dict[tuple, tuple] = {}
        self._dist: dict[tuple, np.ndarray] = {}

    def act(self, game: ClixBase, state: State, rng: np.random.Generator) -> int:
        mask = game.legal_mask(state)
        legal = np.flatnonzero(mask)
        if legal.size == 1:
            return int(legal[0])
        action = _PHASES.get(state.phase, _Turn.first_legal)(_Turn(self, game, state, mask))
        return int(action) if action is not None and mask[action] else int(legal[0])

    def distances(self, game: ClixBase, state: State, source: int) -> np.ndarray:
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
                ok = (nb >= 0) & ~state.blocking[np.where(nb >= 0, nb, 0)] & (
                    ~t.level_change | t.by_stairs | t.ladder_up | t.ladder_down)
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


class _Turn(LegalActions):
    """One decision: the facts every score needs, computed once."""

    def __init__(self, bot: HeuristicBot, game: ClixBase, state: State, mask: np.ndarray):
        self.bot, self.game, self.state, self.mask, self.w = bot, game, state, mask, bot.w
        self.layout = game.layout
        self.seat = int(state.seat)
        alive = state.cell != NO_CELL
        self.enemies = [int(e) for e in np.flatnonzero(alive & (game.owner != self.seat))]
        self.mine = [int(f) for f in np.flatnonzero(alive & (game.owner == self.seat))]
        f = np.arange(game.n_figures)
        self.length = game.dial_length.astype(np.float64)
        self.left = (game.dial_length - state.click).astype(np.int64)
        self.points = game.points.astype(np.float64)
        self.values = game.dial_values[f, state.click].astype(np.int64)  # speed, atk, def, dmg
        self._ev: dict[tuple, float] = {}
        scores = final_scores(game, state)  # HC-7.5-7.7 if the game ended now
        lead = scores[self.seat] - max(v for s, v in enumerate(scores) if s != self.seat)
        self.risk = self.w.danger * (1.0 + self.w.cautious * (lead > 0))
        rivals = len({int(game.owner[e]) for e in self.enemies})
        self.closing = self.w.closing / max(1, rivals)  # with more rivals, one walks at me
        self.reduction = [int(10 - HOOKS.total(DAMAGE_TAKEN, 10, game, state, int(i), "attack",
                                               keys=game.powers(state, int(i))))
                          if alive[i] else 0 for i in f]  # Toughness, Invulnerability
        # the chance that an enemy is the one its owner acts with next turn; with two tokens
        # it may not act next turn, but may before a move's follow-up lands (HC-3.17)
        self.p_act = {}
        for e in self.enemies:
            able = sum(1 for g in self.enemies if game.owner[g] == game.owner[e]
                       and state.tokens[g] < 2)
            self.p_act[e] = (min(1.0, game.actions_per_turn / max(able, 1))
                             * (self.w.locked if state.tokens[e] >= 2 else 1.0))

    def value(self, figure: int, left: int) -> float:
        length = self.length[figure]
        return 0.0 if left <= 0 else self.points[figure] * (
            1.0 + self.w.residual * min(left, length) / length)

    def loss(self, figure: int, clicks: int, bonus: float = 0.0) -> float:
        """Value taken by ``clicks`` of damage (``bonus`` added on a KO)."""
        k = int(self.left[figure])
        lost = self.value(figure, k) - self.value(figure, k - clicks)
        return lost + (bonus if clicks >= k and clicks > 0 else 0.0)

    def ev(self, attacker: int, target: int, damage: int, hindered: bool = False,
           multi: bool = False, kind: str = "close") -> float:
        """Expected value of one attack's damage on ``target`` (module docstring)."""
        key = (attacker, target, damage, hindered, multi, kind)
        found = self._ev.get(key)
        if found is None:
            found = self._ev[key] = self._attack_ev(*key)
        return found

    def _attack_ev(self, attacker: int, target: int, damage: int, hindered: bool,
                   multi: bool, kind: str) -> float:
        game, state = self.game, self.state
        spec = CLOSE if kind == "close" else RANGED
        need = (defense_total(game, state, spec, attacker, target, hindered)
                - attack_total(game, state, spec, attacker, target, 0))
        base = min(damage, 1) if multi else damage
        red = self.reduction[target]
        arch = self.w.arch * self.points[target] if game.archenemies(attacker, target) else 0.0
        normal = self.loss(target, max(0, base - red), arch)
        crit = self.loss(target, max(0, base + 1 - red), arch)
        return normal_hit(need) * normal + CRIT * crit

    def fumble(self, figure: int) -> float:
        return FUMBLE * self.loss(figure, 1)

    def push_cost(self, figure: int) -> float:
        if self.state.tokens[figure] < 1:
            return 0.0
        if self.left[figure] <= 1:
            return float("inf")  # the push would KO it (HC-3.16)
        return self.loss(figure, 1) + self.w.lock * self.points[figure] + self.w.push_margin

    def heal_value(self, figure: int, extra: float = 0.0) -> float:
        k, length = int(self.left[figure]), int(self.length[figure])
        gain = [self.value(figure, min(length, k + int(h + extra))) - self.value(figure, k)
                for h in HEAL]
        return float(np.mean(gain))

    def support_ev(self, helper: int, friend: int) -> float:
        """R-5: 2d6 + attack >= 10 heals 1d6 - 2 (a 12 one more; a 2 costs a click)."""
        need = SUPPORT_DEFENSE - int(self.values[helper, 1])
        return (normal_hit(need) * self.heal_value(friend) + CRIT * self.heal_value(friend, 1)
                - self.fumble(helper))

    def variant(self, figure: int) -> int:
        held = int(self.state.held[figure])
        return 0 if held == NO_OBJECT else 1 + int(self.game.object_heavy[held])

    # -- the options of one figure ------------------------------------------------------------
    def attacks(self, figure: int) -> list[tuple[float, str, int]]:
        """(value, plane, cell) of every attack and healing action ``figure`` may make now."""
        game, state = self.game, self.state
        dmg, fumble, cell_of = int(self.values[figure, 3]), self.fumble(figure), state.cell
        found = [(self.ev(figure, t, dmg + STRIKE[self.variant(figure)]) - fumble, "close",
                  int(cell_of[t])) for t in close_targets(game, state, figure)]
        shots = ranged_targets(game, state, figure)
        if shots:
            found.append(self.volley(figure, [], shots))
        held = int(state.held[figure])
        if held != NO_OBJECT:
            for t, hindered in throw_targets(game, state, figure).items():
                found.append((self.ev(figure, t, throw_damage(game, held), hindered, kind="ranged") - fumble,
                              "throw", int(cell_of[t])))
        for cell in telekinesis_objects(game, state, figure):
            obj = game.objects.at(state.objects, cell)[0]
            hurl = [self.ev(figure, int(state.occupant[c]), throw_damage(game, obj), kind="ranged")
                    for c in tk_targets(game, state, figure, obj)]
            if hurl:
                found.append((max(hurl) - fumble, "tk_object", cell))
        if "support" in game.powers(state, figure):  # an adjacent damaged friend
            found += [(self.support_ev(figure, f), "support", int(state.cell[f]))
                      for f in self.mine if f != figure and state.click[f] > 0
                      and game.is_adjacent(state, figure, f)]
        if "regeneration" in game.powers(state, figure) and state.click[figure] > 0:
            found.append((self.heal_value(figure), "regenerate", -1))
        return found

    def volley(self, figure: int, declared: list[int], shots: dict[int, bool]
               ) -> tuple[float, str, int]:
        """The best ranged attack adding to ``declared``: (value, "ranged", first new cell),
        or ``"fire"`` when adding no target is best (HC-4.24, HC-4.25)."""
        dmg, fumble, cell_of = int(self.values[figure, 3]), self.fumble(figure), self.state.cell

        def total(group: list[int]) -> float:
            return sum(self.ev(figure, g, dmg, shots.get(g, False), len(group) > 1, "ranged")
                       for g in group) - fumble

        new = sorted((t for t in shots if t not in declared),
                     key=lambda t: -self.ev(figure, t, dmg, shots[t], True, "ranged"))
        options = [(total(declared), "fire", -1)] if declared else []
        options += [(total(declared + [t]), "ranged", int(cell_of[t])) for t in new]
        room = int(self.game.bolts[figure]) - len(declared)
        if room >= 2 and len(new) >= 2:  # as many targets as the bolts allow
            options.append((total(declared + new[:room]), "ranged", int(cell_of[new[0]])))
        return max(options, key=lambda o: o[0])

    def plan(self, figure: int) -> tuple[float, str, int, int]:
        """(gain, plane, cell, mode) of ``figure``'s best action in this position, before
        pushing (cached per position)."""
        state = self.state
        key = (id(self.game), figure, self.seat, state.cell.tobytes(), state.click.tobytes(),
               state.mode.tobytes(), state.held.tobytes(), state.objects.tobytes(),
               state.tokens.tobytes(), state.walls_intact.tobytes(), state.blocking.tobytes())
        plan = self.bot._plans.get(key)
        if plan is None:
            if len(self.bot._plans) > 20_000:
                self.bot._plans.clear()
            plan = self.bot._plans[key] = self._plan(figure)
        return plan

    def _plan(self, figure: int) -> tuple[float, str, int, int]:
        game, state = self.game, self.state
        options = [(v, plane, cell, -1) for v, plane, cell in self.attacks(figure)]
        cells, modes = self.reach(figure)
        here, mode = int(state.cell[figure]), int(state.mode[figure])
        if cells.size:
            pickup = np.append(np.ones(cells.size, dtype=bool), False)
            score = self.position(figure, np.append(cells, here), np.append(modes, mode), pickup)
            stay, score = score[-1], score[:-1]
            best = int(np.argmax(score))
            gain = float(score[best] - stay)
            if needs_breakaway(game, state, figure):  # HC-3.23: 4-6 on a d6
                options.append((0.5 * gain, "break_away", -1, -1))
            else:
                options.append((gain, "soar" if modes[best] == SOAR else "move",
                                int(cells[best]), int(modes[best])))
        return max(options, key=lambda o: o[0]) if options else (-1.0, "pass", -1, -1)

    def reach(self, figure: int) -> tuple[np.ndarray, np.ndarray]:
        """(cells, modes) where ``figure`` could end a move started now (after breaking
        away, HC-3.25), or the legal ones once its move has begun."""
        game, state = self.game, self.state
        if state.selected == figure and state.phase in (Phase.MOVE, Phase.FIGURE) \
                and not self.can("break_away"):
            ground, soar = self.cells("move"), self.cells("soar")
            if ground or soar:
                return (np.array(ground + soar, dtype=np.int64),
                        np.array([GROUND] * len(ground) + [SOAR] * len(soar), dtype=np.int64))
        proxy = object.__new__(type(state))  # a shallow view: the same arrays, read only
        proxy.__dict__.update({k: v for k, v in state.__dict__.items() if not k.startswith("_")})
        proxy.passenger, proxy.move_spent = -1, 0
        proxy.move_budget = move_budget(game, state, figure)
        proxy.broke_away = game.adjacent_enemies(state, figure)
        seed = (int(state.cell[figure]), int(state.mode[figure]), 0)
        found = reachable_modes(game.walls.open_neighbors, [seed], proxy.move_budget,
                                mode_rules(game, proxy, figure))
        modes, cells = np.nonzero(found.ends)
        return cells.astype(np.int64), modes.astype(np.int64)

    def position(self, figure: int, cells: np.ndarray, modes: np.ndarray,
                 pickup: np.ndarray | bool = True) -> np.ndarray:
        """The score of ``figure`` standing on each (cell, mode) (module docstring); where
        ``pickup``, with the object it could pick up on the way."""
        game, state, w = self.game, self.state, self.w
        score = np.zeros(cells.size)
        if not self.enemies:
            return score
        soar = modes == SOAR
        flyer = bool(game.flyer[figure])
        variant = np.full(cells.size, self.variant(figure))
        if variant[0] == 0 and has_trait(game.powers(state, figure), PICKS_UP_OBJECTS):
            near = self.objects_near()
            start = 0 if state.mode[figure] == SOAR else near[int(state.cell[figure])]
            variant = np.maximum(start, np.where(soar, 0, near[cells])) * pickup
        snapshot = self._snapshot(figure)
        adjacency = game.adjacency(state)
        speed = max(1, int(self.values[figure, 0]))
        reach_range = int(game.range[figure])
        walks = not (flyer or has_trait(game.powers(state, figure), CLIMBS))
        dmg = int(self.values[figure, 3])
        hind_sq = game.hindering(state, movement=False)
        adjacent_any = np.zeros(cells.size, dtype=bool)
        per_enemy = []
        for e in self.enemies:
            ce = int(state.cell[e])
            e_soar = bool(state.mode[e] == SOAR)
            near_e = np.zeros(game.n_cells, dtype=bool)
            row = game.touching[ce] if e_soar else adjacency[ce]
            near_e[row[row >= 0]] = True
            adjacent = near_e[cells] & (soar == e_soar)
            adjacent_any |= adjacent
            lines = snapshot.targets_from(ce, cells, attacker_soaring=e_soar,
                                          attacker_flying=bool(game.flyer[e]),
                                          target_soaring=soar, target_flying=flyer)
            cheb = game.chebyshev[cells, ce].astype(np.int64)
            per_enemy.append((e, ce, e_soar, adjacent, lines.clear, lines.hindered, cheb))
        danger = np.zeros(cells.size)
        best = np.zeros(cells.size)
        for e, ce, e_soar, adjacent, clear, hind_in, cheb in per_enemy:
            # my attacks on e from each square next turn
            hind_out = clear & ((hind_in & ~hind_sq[cells]) | hind_sq[ce])
            offense = np.zeros(cells.size)
            approach = np.zeros(cells.size)
            walk = self.bot.distances(game, state, ce)[cells] if walks else cheb
            walk = np.where(walk >= FAR, cheb + 3, walk)
            for v in np.unique(variant):
                at_v = variant == v
                close = self.ev(figure, e, dmg + STRIKE[v])
                shoot = [(reach_range, dmg)] + ([THROW[v]] if v else [])
                best_v, reach_v = close, 1
                value = np.where(adjacent, close, 0.0)
                for rng_, dmg_ in shoot:
                    if rng_ <= 0:
                        continue
                    limit = (rng_ + 1) // 2 if e_soar else rng_
                    ok = ~adjacent_any & clear & (cheb <= limit)
                    clean = self.ev(figure, e, dmg_, kind="ranged")
                    hit = np.where(hind_out, self.ev(figure, e, dmg_, True, kind="ranged"), clean)
                    value = np.maximum(value, np.where(ok, hit, 0.0))
                    best_v, reach_v = max(best_v, clean), max(reach_v, limit)
                offense = np.where(at_v, value, offense)
                turns = 0.5 + np.maximum(walk - reach_v, 0) / speed
                approach = np.where(at_v, best_v * w.gamma ** turns, approach)
            best = np.maximum(best, np.maximum(offense, approach))
            danger += self.p_act[e] * self.threat(e, figure, cells, adjacent, clear, hind_in,
                                                  cheb, soar)
        score = w.next_turn * best - self.risk * danger
        if "support" in game.powers(state, figure):
            for friend in self.mine:
                if friend != figure and state.click[friend] > 0 and state.mode[friend] != SOAR:
                    row = adjacency[int(state.cell[friend])]
                    beside = np.isin(cells, row[row >= 0]) & ~soar
                    score += w.next_turn * np.where(beside, self.support_ev(figure, friend), 0.0)
        return score

    def threat(self, enemy: int, figure: int, cells, adjacent, clear, hindered, cheb, soar
               ) -> np.ndarray:
        """Expected value of ``enemy``'s attack on ``figure`` at each square next turn, from
        where it stands; at ``closing``, its close attack once it has walked up."""
        game, state = self.game, self.state
        dmg, held = int(self.values[enemy, 3]), self.variant(enemy)
        strike = self.ev(enemy, figure, dmg + STRIKE[held])
        walk = (cheb if game.flyer[enemy] or has_trait(game.powers(state, enemy), CLIMBS)
                else self.bot.distances(game, state, int(state.cell[enemy]))[cells])
        near = (~adjacent & (soar == (state.mode[enemy] == SOAR))
                & (walk <= self.values[enemy, 0] + 1))
        closing = np.where(near, self.closing * strike, 0.0)
        out = np.where(adjacent, strike, 0.0)
        if any(m != figure for m in game.adjacent_enemies(state, enemy)):
            return out + closing  # HC-4.16: it may not shoot while adjacent to a figure of mine
        for reach, damage in ((int(game.range[enemy]), dmg), THROW[held]):
            if reach > 0:
                limit = np.where(soar, (reach + 1) // 2, reach)
                ok = ~adjacent & clear & (cheb <= limit)
                hit = np.where(hindered, self.ev(enemy, figure, damage, True, kind="ranged"),
                               self.ev(enemy, figure, damage, kind="ranged"))
                out = np.maximum(out, np.where(ok, hit, 0.0))
        return out + closing

    def _snapshot(self, figure: int):
        """Lines of fire with ``figure`` lifted off its square (it is the one moving)."""
        game, state = self.game, self.state
        alive = state.cell != NO_CELL
        alive[figure] = False
        ground = np.zeros(game.n_cells, dtype=bool)
        soaring = np.zeros(game.n_cells, dtype=bool)
        ground[state.cell[alive & (state.mode != SOAR)]] = True
        soaring[state.cell[alive & (state.mode == SOAR)]] = True
        return game.fire.snapshot(walls_intact=state.walls_intact, blocking=state.blocking,
                                  hindering=game.hindering(state, movement=False),
                                  ground_figures=ground, soaring_figures=soaring,
                                  indoor=game.indoor)

    def objects_near(self) -> np.ndarray:
        """int[n]: the best object (1 light, 2 heavy) on or beside each square (HC-6.6)."""
        game, state = self.game, self.state
        near = np.zeros(game.n_cells, dtype=np.int64)
        adjacency = game.adjacency(state)
        for obj in game.objects.on_map(state.objects):
            cell = int(state.objects[obj])
            row = adjacency[cell]
            squares = np.append(row[row >= 0], cell)
            near[squares] = np.maximum(near[squares], 1 + int(game.object_heavy[obj]))
        return near

    def legal(self, plane: str, cell: int) -> int | None:
        """The action of ``plane`` (on ``cell``; a special action when it is -1) if legal."""
        action = self.special(plane) if cell < 0 else self.cell_action(plane, cell)
        return action if self.mask[action] else None

    def best_destination(self, figure: int) -> int:
        cells, modes = self.reach(figure)
        if not cells.size:
            return self.first_legal()
        score = self.position(figure, cells, modes)
        best = int(np.argmax(score))
        return self.cell_action("soar" if modes[best] == SOAR else "move", int(cells[best]))


# ==========================================================================================
# Phases
# ==========================================================================================
def _action(turn: _Turn) -> int:
    """HC-3.5: the figure whose best action gains most after pushing, else end the turn."""
    options = [(turn.w.min_gain, turn.special("end_turn"))]
    for cell in turn.cells("select"):
        figure = int(turn.state.occupant[cell])
        gain = turn.plan(figure)[0] - turn.push_cost(figure)
        options.append((gain, turn.cell_action("select", cell)))
    return best_scored(options)


def _figure(turn: _Turn) -> int:
    """Carry out the selected figure's plan; pick up an object first when it moves."""
    figure = turn.state.selected
    _, plane, cell, _ = turn.plan(figure)
    if plane in ("move", "soar", "break_away") and turn.cells("pick_up"):
        return _pick_up(turn)
    action = turn.legal(plane, cell)
    if action is not None:
        return action
    options = [(v, turn.legal(p, c)) for v, p, c in turn.attacks(figure)]
    options = [(v, a) for v, a in options if a is not None]
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
    heavy = [max(int(game.object_heavy[o]) for o in game.objects.at(state.objects, c))
             for c in cells]
    return turn.cell_action("pick_up", cells[int(np.argmax(heavy))])


def _drop(turn: _Turn) -> int:
    """HC-3.30: set the passenger down where it scores best."""
    cells = np.array(turn.cells("drop"))
    score = turn.position(turn.state.passenger, cells, np.zeros(cells.size, dtype=np.int64))
    return turn.cell_action("drop", int(cells[np.argmax(score)]))


def _targets(turn: _Turn) -> int:
    """HC-4.24: add the target that raises the volley's value, or fire."""
    state = turn.state
    shots = ranged_targets(turn.game, state, state.selected)
    _, plane, cell = turn.volley(state.selected, list(state.targets), shots)
    return turn.legal(plane, cell)


def _telekinesis(turn: _Turn) -> int:
    """HC-6.15: hurl the object at the enemy it hurts most; else move it (HC-6.14)."""
    game, state = turn.game, turn.state
    figure, obj = state.selected, state.tk_object
    damage = throw_damage(game, obj)
    hurls = [(turn.ev(figure, int(state.occupant[c]), damage, kind="ranged"), turn.cell_action("tk_hurl", c))
             for c in turn.cells("tk_hurl")]
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
    return best_scored([(pool[k].points + 1000 * (room - pool[k].points >= cheapest),
                         turn.layout.slot("draft", k)) for k in kinds])


def _place_object(turn: _Turn) -> int:
    """HC-2.7: objects near the own starting area for a force that uses them (Super
    Strength, Telekinesis), far from it otherwise."""
    game, state = turn.game, turn.state
    cells = np.array(turn.cells("place_object"))
    area = np.flatnonzero(game.start_areas.get(state.edges[turn.seat], game.start_area_any))
    gap = game.chebyshev[np.ix_(cells, area)].min(axis=1) if area.size else np.zeros(cells.size)
    force = np.flatnonzero((game.owner == turn.seat) & state.drafted)
    uses = any(k in ("super_strength", "telekinesis") for f in force
               for k in game.figures[int(f)].power_keys)
    return turn.cell_action("place_object", int(cells[np.argmin(gap if uses else -gap)]))


def _place_figure(turn: _Turn) -> int:
    """HC-2.9/2.10: the starting square (soaring for a flyer where it may) that scores best,
    the nearer the middle of the map the better."""
    game = turn.game
    ground, soar = turn.cells("place"), turn.cells("place_soar")
    cells = np.array(ground + soar, dtype=np.int64)
    modes = np.array([GROUND] * len(ground) + [SOAR] * len(soar), dtype=np.int64)
    middle = int(np.median(np.flatnonzero(game.board.exists)))
    score = (turn.position(turn.state.selected, cells, modes, False) + 0.1 * (modes == SOAR)
             - 0.01 * game.chebyshev[cells, middle])
    best = int(np.argmax(score))
    return turn.cell_action("place_soar" if modes[best] == SOAR else "place", int(cells[best]))


_PHASES: dict[Phase, Callable[[_Turn], int]] = {
    Phase.ACTION: _action,
    Phase.FIGURE: _figure,
    Phase.MOVE: _move,
    Phase.PICKUP: _pick_up,
    Phase.DROP: _drop,
    Phase.TARGETS: _targets,
    Phase.TELEKINESIS: _telekinesis,
    Phase.DRAFT: _draft,
    Phase.EDGE: _Turn.first_legal,
    Phase.PLACE_OBJECT: _place_object,
    Phase.PLACE_FIGURE: _place_figure,
}

__all__ = ["HeuristicBot", "Weights", "normal_hit"]
