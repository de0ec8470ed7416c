"""The heuristic bot's squares: where a figure could end a move, and what standing there is
worth.

* ``position`` of each square (and flight mode) a figure could end its move on, vectorised
  over its reach: ``next_turn`` times the best attack it could make from there next turn
  (its best close variant: Close Combat Expert, Exploit Weakness, Blades/Claws/Fangs; with
  Charge, from half a move away too), or, out of reach, that attack times ``gamma ** turns``
  of walking still needed (through today's walls and stairs), so close-combat figures close
  in on weak or damaged enemies and ranged ones walk into range; minus ``danger``: the
  attacks enemies could make on it from where they stand (a figure moves *or* attacks; a
  Charge figure does both), each weighted by the chance that its owner acts with it, plus at
  ``closing`` (over the rival players left) the close attacks of those that can walk up next
  turn, and the Poison of adjacent enemies. Lines of fire come from the engine's tables, one
  pass per enemy (hindering terrain on the line is cover, a Stealth figure behind it is out
  of sight); Super Strength counts the object it picks up on the way (HC-6.6). Danger weighs
  ``1 + cautious`` times more while the bot leads on points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from envs.core.lru import LRU, named_lru
from envs.core.modemove import ModeReach
from envs.heroclix.bots.control import controlled_by_us, hostile_scores
from envs.heroclix.bots.evaluation import FAR, THROW, Evaluator
from envs.heroclix.bots.variants import best_shot, best_strike
from envs.heroclix.combat.targets import lifted_snapshot
from envs.heroclix.movement import figure_reach, move_budget
from envs.heroclix.powers.hooks import CLIMBS, HIDDEN_BY_HINDERING, PICKS_UP_OBJECTS, has_trait
from envs.heroclix.state import GROUND, SOAR, Phase

POISON_STAYS = 0.8  # the chance that a poisoned neighbour is still there next turn (P-ATT-9)
GEOMETRY_CACHE_SIZE = 4096  # lines of fire, snapshots and reaches kept per bot, per kind


def geometry_cache(bot, name: str) -> LRU:
    """The bot's ``name`` results by geometry (:meth:`Positions.geometry`)."""
    return named_lru(bot.__dict__.setdefault("_geometry", {}), name, GEOMETRY_CACHE_SIZE)


@dataclass
class Lines:
    """One enemy seen from a set of squares (the moving figure lifted off its own)."""

    enemy: int
    cell: int
    soaring: bool
    adjacent: np.ndarray  # bool per square: adjacent to the enemy (same flight class)
    clear: np.ndarray  # bool: a line of fire between the square and the enemy
    hindered: np.ndarray  # bool: the enemy's line to the square is hindered
    cheb: np.ndarray  # int: squares between them (HC-4.18)
    walk: np.ndarray  # int: squares walked between them (:meth:`Positions.walking`)


class Positions(Evaluator):
    """Reach, positions and threats (module docstring)."""

    _geometry_key: tuple | None = None  # this decision's (geometry)

    def reach(self, figure: int, half: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """(cells, modes) where ``figure`` could end a move started now (after breaking
        away, HC-3.25), or the legal ones once its move has begun; ``half``: the half move of
        Charge and Running Shot (P-SPD-5, P-SPD-11)."""
        game, state = self.game, self.state
        if (
            not half
            and state.selected == figure
            and not self.can("break_away")
            and state.phase in (Phase.MOVE, Phase.FIGURE, Phase.VARIANT)
        ):
            ground, soar = self.cells("move"), self.cells("soar")
            if ground or soar:
                return (
                    np.array(ground + soar, dtype=np.int64),
                    np.array([GROUND] * len(ground) + [SOAR] * len(soar), dtype=np.int64),
                )
        budget = move_budget(game, state, figure)
        steps = (budget + 1) // 2 if half else budget
        # The search reads the squares, walls, blocking and hindering terrain, who fights
        # for whom and the mover's powers: kept across positions that differ in clicks or
        # tokens only (an attack elsewhere, the turn's end).
        key = (
            self.geometry(),
            state.barrier.tobytes(),
            state.controlled,
            state.controller,
            figure,
            game.powers(state, figure),
            steps,
        )
        memo = geometry_cache(self.bot, "reach")
        found = memo.get(key)
        if found is None:
            modes, cells = np.nonzero(self.search(figure, steps).ends)
            found = (cells.astype(np.int64), modes.astype(np.int64))
            for array in found:
                array.setflags(write=False)
            memo[key] = found
        return found

    def search(
        self,
        figure: int,
        budget: int,
        ignore_enemies: bool = False,
        seed: tuple[int, int, int] | None = None,
    ) -> ModeReach:
        """The move search of a move started now (after breaking away) within ``budget``,
        from ``seed`` (cell, mode, spent) or the figure's square; ``ignore_enemies``: not
        stopped next to enemies (Hypersonic Speed, P-SPD-9)."""
        game, state = self.game, self.state
        proxy = object.__new__(type(state))  # a shallow view: the same arrays, read only
        proxy.__dict__.update({k: v for k, v in state.__dict__.items() if not k.startswith("_")})
        proxy.passenger, proxy.move_spent, proxy.move_budget = -1, 0, budget
        proxy.move_ignores_enemies = ignore_enemies
        proxy.broke_away = game.adjacent_enemies(state, figure)
        seed = seed or (int(state.cell[figure]), int(state.mode[figure]), 0)
        return figure_reach(game, proxy, figure, seed, budget)

    def lines(self, figure: int, cells: np.ndarray, modes: np.ndarray) -> list[Lines]:
        """Each enemy seen from ``cells`` (with ``figure`` lifted off its square); kept by
        geometry (:meth:`geometry`), as the position score and the variants ask about the
        same squares, and so do later positions where only clicks and tokens changed."""
        memo = geometry_cache(self.bot, "lines")
        key = (
            self.geometry(),
            tuple(self.enemies),
            figure,
            cells.dtype.str,
            cells.tobytes(),
            modes.dtype.str,
            modes.tobytes(),
        )
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._lines(figure, cells, modes)
        return found

    def geometry(self) -> tuple:
        """What lines of fire read: the figures' squares and flight, walls, blocking and
        hindering squares. Lines stand while only clicks and tokens change, so they are
        kept across positions (an attack, the turn's end)."""
        found = self._geometry_key
        if found is None:
            state = self.state
            found = self._geometry_key = (
                id(self.game),
                state.cell.tobytes(),
                state.mode.tobytes(),
                state.walls_intact.tobytes(),
                state.blocking.tobytes(),
                self.game.hindering(state, movement=False).tobytes(),
            )
        return found

    def _lines(self, figure: int, cells: np.ndarray, modes: np.ndarray) -> list[Lines]:
        game, state = self.game, self.state
        snapshot = self._snapshot(figure)
        adjacency = game.adjacency(state)
        soar = modes == SOAR
        flyer = bool(game.flyer[figure])
        out = []
        for e in self.enemies:
            ce = int(state.cell[e])
            e_soar = bool(state.mode[e] == SOAR)
            near_e = np.zeros(game.n_cells, dtype=bool)
            row = game.touching[ce] if e_soar else adjacency[ce]
            near_e[row[row >= 0]] = True
            found = snapshot.targets_from(
                ce,
                cells,
                attacker_soaring=e_soar,
                attacker_flying=bool(game.flyer[e]),
                target_soaring=soar,
                target_flying=flyer,
            )
            cheb = game.chebyshev[cells, ce].astype(np.int64)
            walk = self.bot.distances(game, state, ce)[cells]
            out.append(
                Lines(
                    e,
                    ce,
                    e_soar,
                    near_e[cells] & (soar == e_soar),
                    found.clear,
                    found.hindered,
                    cheb,
                    # no walk leads there: as far as the squares between, plus a detour
                    np.where(walk >= FAR, cheb + 3, walk),
                )
            )
        return out

    def walking(self, mover: int, line: Lines) -> np.ndarray:
        """Squares ``mover`` walks between the enemy of ``line`` and each of its squares (walls
        standing, stairs and ladders; as the crow flies for a flyer or a climber)."""
        if self.game.flyer[mover] or has_trait(self.keys[mover], CLIMBS):
            return line.cheb
        return line.walk

    def position(
        self, figure: int, cells: np.ndarray, modes: np.ndarray, pickup: np.ndarray | bool = True
    ) -> np.ndarray:
        """The score of ``figure`` standing on each (cell, mode) (module docstring); where
        ``pickup``, with the object it could pick up on the way."""
        key = self.scores_key(figure, cells, modes, pickup)
        found = self._scores.get(key)
        if found is None:
            found = self._scores[key] = self._position(figure, cells, modes, pickup)
        return found.copy()

    def scores_key(
        self, figure: int, cells: np.ndarray, modes: np.ndarray, pickup: np.ndarray | bool
    ) -> tuple:
        picks = pickup.tobytes() if isinstance(pickup, np.ndarray) else bool(pickup)
        return (figure, cells.dtype.str, cells.tobytes(), modes.tobytes(), picks)

    def keep_scores(
        self, figure: int, cells: np.ndarray, modes: np.ndarray, score: np.ndarray
    ) -> None:
        """Keep scores computed along with others (each square's score is its own): the
        MOVE phase asks for the squares the plan weighed."""
        self._scores.setdefault(self.scores_key(figure, cells, modes, True), score.copy())

    def _position(
        self, figure: int, cells: np.ndarray, modes: np.ndarray, pickup: np.ndarray | bool
    ) -> np.ndarray:
        game, state, w = self.game, self.state, self.w
        score = np.zeros(cells.size)
        if not self.enemies:
            return score
        soar = modes == SOAR
        variant = np.full(cells.size, self.held_class(figure))
        if variant[0] == 0 and has_trait(self.keys[figure], PICKS_UP_OBJECTS):
            near = self.objects_near()
            start = 0 if state.mode[figure] == SOAR else near[int(state.cell[figure])]
            variant = np.maximum(start, np.where(soar, 0, near[cells])) * pickup
        speed = max(1, int(self.values[figure, 0]))
        reach_range = self.shot_range(figure)
        charges = "charge" in self.keys[figure]
        hind_sq = game.hindering(state, movement=False)
        seen = self.lines(figure, cells, modes)
        adjacent_any = np.zeros(cells.size, dtype=bool)
        for line in seen:
            adjacent_any |= line.adjacent
        danger = np.zeros(cells.size)
        best = np.zeros(cells.size)
        for line in seen:
            e, ce = line.enemy, line.cell
            # my attacks on e from each square next turn
            hind_out = line.clear & ((line.hindered & ~hind_sq[cells]) | hind_sq[ce])
            clear = (
                line.clear & ~hind_out
                if has_trait(self.keys[e], HIDDEN_BY_HINDERING)
                else line.clear
            )
            offense = np.zeros(cells.size)
            approach = np.zeros(cells.size)
            walk = self.walking(figure, line)
            for v in np.unique(variant):
                at_v = variant == v
                close = best_strike(self, figure, e, int(v))
                shoot = [(reach_range, None)] + ([THROW[v]] if v else [])
                best_v, reach_v = close, 1
                value = np.where(line.adjacent, close, 0.0)
                if charges:  # P-SPD-5: half a move, then the attack
                    rush = ~line.adjacent & (walk <= (speed + 1) // 2 + 1)
                    value = np.maximum(value, np.where(rush, close, 0.0))
                    reach_v = 1 + (speed + 1) // 2
                for rng_, dmg_ in shoot:
                    if rng_ <= 0:
                        continue
                    limit = (rng_ + 1) // 2 if line.soaring else rng_
                    ok = ~adjacent_any & clear & (line.cheb <= limit)
                    clean, cover = best_shot(self, figure, e, dmg_)
                    hit = np.where(hind_out, cover, clean)
                    value = np.maximum(value, np.where(ok, hit, 0.0))
                    best_v, reach_v = max(best_v, clean), max(reach_v, limit)
                offense = np.where(at_v, value, offense)
                turns = 0.5 + np.maximum(walk - reach_v, 0) / speed
                approach = np.where(at_v, best_v * w.gamma**turns, approach)
            best = np.maximum(best, np.maximum(offense, approach))
            danger += self.p_act[e] * self.threat(e, figure, cells, line, soar)
            if "poison" in self.keys[e]:  # P-ATT-9: at the start of its turn, no roll
                danger += np.where(line.adjacent, self.hurt(figure, 1), 0.0)
            if "poison" in self.keys[figure]:
                best += np.where(line.adjacent, POISON_STAYS * self.hurt(e, 1), 0.0)
        score = w.next_turn * best - self.risk * danger
        if "support" in self.keys[figure]:
            adjacency = game.adjacency(state)
            for friend in self.mine:
                if friend != figure and state.click[friend] > 0 and state.mode[friend] != SOAR:
                    row = adjacency[int(state.cell[friend])]
                    beside = np.isin(cells, row[row >= 0]) & ~soar
                    score += w.next_turn * np.where(beside, self.support_ev(figure, friend), 0.0)
        return score

    def threat(
        self, enemy: int, figure: int, cells: np.ndarray, line: Lines, soar: np.ndarray
    ) -> np.ndarray:
        """Expected value of ``enemy``'s attack on ``figure`` at each square next turn, from
        where it stands; at ``closing``, its close attack once it has walked up (in full
        with Charge: half a move, then the attack)."""
        state = self.state
        held = self.held_class(enemy)
        strike = best_strike(self, enemy, figure, held)
        walk = self.walking(enemy, line)
        speed = int(self.values[enemy, 0])
        near = ~line.adjacent & (soar == (state.mode[enemy] == SOAR)) & (walk <= speed + 1)
        closing = np.where(near, self.closing * strike, 0.0)
        out = np.where(line.adjacent, strike, 0.0)
        if "charge" in self.keys[enemy]:
            out = np.maximum(out, np.where(near & (walk <= (speed + 1) // 2 + 1), strike, 0.0))
        if any(m != figure for m in self.foes_beside(enemy)):
            return out + closing  # HC-4.16: next to another of mine, it may not shoot this one
        hidden = has_trait(self.keys[figure], HIDDEN_BY_HINDERING)
        for reach, damage in ((self.shot_range(enemy), None), THROW[held]):
            if reach > 0:
                limit = np.where(soar, (reach + 1) // 2, reach)
                ok = ~line.adjacent & line.clear & (line.cheb <= limit)
                if hidden:
                    ok &= ~line.hindered  # P-SPD-10
                clean, cover = best_shot(self, enemy, figure, damage)
                out = np.maximum(out, np.where(ok, np.where(line.hindered, cover, clean), 0.0))
        return out + closing

    def foes_beside(self, figure: int) -> list[int]:
        """The enemies adjacent to ``figure`` (asked per square scored, the same each time)."""
        found = self._best.get(("beside", figure))
        if found is None:
            found = self._best[("beside", figure)] = self.game.adjacent_enemies(self.state, figure)
        return found

    def _snapshot(self, figure: int):
        """Lines of fire with ``figure`` lifted off its square (it is the one moving)."""
        memo = geometry_cache(self.bot, "snapshot")
        key = (self.geometry(), figure)
        found = memo.get(key)
        if found is None:
            found = memo[key] = lifted_snapshot(self.game, self.state, figure)
        return found

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

    def action_of(self, plane: str, cell: int) -> int:
        """The action of ``plane`` on ``cell``: a special action when ``cell`` is -1, and for
        ``power`` the slot of variant number ``cell``."""
        if plane == "power":
            return self.layout.slot("power", cell)
        return self.special(plane) if cell < 0 else self.cell_action(plane, cell)

    def legal(self, plane: str, cell: int) -> int | None:
        """The action of ``plane`` (:meth:`action_of`) if legal."""
        action = self.action_of(plane, cell)
        return action if self.mask[action] else None

    def best_destination(self, figure: int) -> int:
        cells, modes = self.reach(figure)
        if not cells.size:
            return self.first_legal()
        if controlled_by_us(self, figure):  # an enemy's move we choose: its owner's worst
            score = hostile_scores(self, figure, cells, modes)
        else:
            score = self.position(figure, cells, modes)
        best = int(np.argmax(score))
        return self.cell_action("soar" if modes[best] == SOAR else "move", int(cells[best]))
