"""Scripted Heroscape players. ``HeuristicBot`` focuses fire, takes the high ground and beats
random play.

In the basic game one successful attack destroys a figure (HS-12.6), so the currency of every
decision is the *kill probability* of one attack, ``KILL[a, d] = P(skulls > shields)`` with
``a`` attack dice (a skull is 1/2 per die) against ``d`` defense dice (a shield is 1/3 per die),
the height bonus of HS-12.4 included. It is computed exactly from the two binomials once, at
import (:func:`kill_table`).

Each space a figure could move to gets one cheap score, vectorised over all its destinations
(board distances and levels only; line of sight is left to the attack phase):

* ``kill``     the best kill probability against an enemy in range from there (times the
  target's value: a little more for enemies that hit hard),
* ``danger``   the kill probabilities of the enemies that could reach and attack that space on
  their next turn (move + range; melee threat = move + 1), each weighted by the chance that
  its card is the one chosen; ranged figures therefore stay in range but out of reach,
* ``approach`` minus the steps still needed to get a (weak) enemy in range, so melee figures
  close in on the weakest reachable enemy and ranged ones walk into range,
* ``height``   the level (attack from above, HS-12.4) and ``objective`` (hold scenarios:
  stand on, or walk to, the objective spaces).

The decisions (``_PHASE_HANDLERS``, one small function per phase) then follow from those
scores: choose the card whose figures gain most (expected kills this turn first, then position),
move the figure with the largest gain first to its best space, always attack when a target
exists (attackers with the fewest options and the weakest dice first, so the strong ones can
finish what is left), each at the target it is most likely to destroy. Nothing is simulated
through the engine, so the bot never sees a die before it is rolled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import comb

import numpy as np

from envs.bots import LegalActions
from envs.core.board import UNREACHABLE
from envs.core.lru import LRU
from envs.heroscape.combat import attack_dice, defense_dice
from envs.heroscape.game import HeroscapeBase
from envs.heroscape.state import NO_CELL, NO_FIGURE, Phase, State
from envs.lookahead import Weighing, ranked

P_SKULL = 1.0 / 2.0  # HS-3.2 default: 3 skull faces of 6
P_SHIELD = 1.0 / 3.0  # 2 shield faces of 6
MAX_DICE = 16
FAR = 10_000  # stands in for "no path" in distances


def _binomial(n: int, p: float) -> np.ndarray:
    return np.array([comb(n, k) * p**k * (1.0 - p) ** (n - k) for k in range(n + 1)])


def kill_table(max_dice: int = MAX_DICE) -> np.ndarray:
    """``table[a, d]`` = P(skulls > shields) for ``a`` attack and ``d`` defense dice (HS-12.6)."""
    table = np.zeros((max_dice + 1, max_dice + 1))
    for a in range(max_dice + 1):
        skulls = _binomial(a, P_SKULL)
        for d in range(max_dice + 1):
            shields_cdf = np.cumsum(_binomial(d, P_SHIELD))  # P(shields <= s)
            # P(skulls > shields) = sum_k P(skulls = k) P(shields <= k - 1)
            table[a, d] = sum(skulls[k] * shields_cdf[min(k - 1, d)] for k in range(1, a + 1))
    return table


KILL = kill_table()


def kill_probability(attack: int, defense: int) -> float:
    """P(one attack destroys the defender): ``attack`` dice against ``defense`` dice."""
    return float(KILL[min(max(attack, 0), MAX_DICE), min(max(defense, 0), MAX_DICE)])


@dataclass(frozen=True)
class Weights:
    """Prices in "kills" used by the destination score and the card choice."""

    kill: float = 1.0  # one expected kill this turn
    target_attack: float = 0.08  # extra value of a target per attack die it rolls
    danger: float = 0.45  # one expected loss next enemy turn (times the card's chance)
    approach: float = 0.06  # one step closer to having an enemy in range
    height: float = 0.05  # one level up
    objective: float = 0.12  # one step closer to the objective (hold scenarios)
    on_objective: float = 0.6  # standing on an objective space
    min_gain: float = 1e-6  # a move must gain at least this much to be made


class HeuristicBot:
    """A fast rule-based Heroscape player for any scenario; see the module docstring."""

    name = "heuristic"

    def __init__(self, weights: Weights | None = None, cache_size: int = 4096):
        self.w = weights or Weights()
        self.cache_size = cache_size
        self._plans: LRU[tuple, _Plan] = LRU(cache_size)

    def act(self, game: HeroscapeBase, state: State, rng: np.random.Generator) -> int:
        mask = game.legal_mask(state)
        legal = np.flatnonzero(mask)
        if legal.size == 1:
            return int(legal[0])
        turn = _Turn(self, game, state, mask)
        return int(_PHASE_HANDLERS.get(state.phase, _first_legal)(turn))

    def scored(self, game: HeroscapeBase, state: State) -> list[tuple[float, int]]:
        """(score, action) of what this phase's handler weighs now, best first (for lookahead)."""
        turn = _Turn(self, game, state, game.legal_mask(state))
        turn.weighed = []
        _PHASE_HANDLERS.get(state.phase, _first_legal)(turn)
        return ranked(turn.weighed)

    def plan(self, turn: _Turn, figure: int) -> _Plan:
        """The scored destinations of ``figure`` in this position (cached by occupancy)."""
        state = turn.state
        key = (id(turn.game), figure, state.occupant.tobytes())
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = _Plan.build(turn, figure)
        return plan


@dataclass
class _Plan:
    """One figure's legal destinations, their scores and the parts of them."""

    figure: int
    destinations: list[tuple[int, ...]]
    score: np.ndarray  # total score per destination
    kill: np.ndarray  # best expected kill value per destination
    stay: int  # index of the current spaces in ``destinations``

    @property
    def best(self) -> int:
        return int(np.argmax(self.score))

    @property
    def gain(self) -> float:
        """Score gained by the best move over staying put."""
        return float(self.score[self.best] - self.score[self.stay])

    @property
    def base(self) -> float:
        """Score of the current spaces without this turn's attack (the card choice baseline)."""
        return float(self.score[self.stay] - self.kill[self.stay])

    @classmethod
    def build(cls, turn: _Turn, figure: int) -> _Plan:
        game, state = turn.game, turn.state
        here = tuple(sorted(game.cells_of(state, figure)))
        destinations = [tuple(sorted(d)) for d in game.destinations(state, figure)]
        if here not in destinations:
            destinations.append(here)
        score, kill = turn.score_spaces(figure, destinations)
        return cls(figure, destinations, score, kill, destinations.index(here))


class _Turn(LegalActions, Weighing):
    """One decision: the facts every scoring function needs, computed once."""

    def __init__(self, bot: HeuristicBot, game: HeroscapeBase, state: State, mask: np.ndarray):
        self.bot, self.game, self.state, self.mask, self.w = bot, game, state, mask, bot.w
        self.layout = game.layout
        self.seat = state.seat
        board = game.board
        self.distance = board.distance
        self.level = board.level
        alive = state.cell != NO_CELL
        enemies = np.flatnonzero(alive & (game.fig_owner != self.seat))
        self.enemies = enemies
        # per enemy: its spaces (a second column for double-space figures), level, stats
        first = state.cell[enemies].astype(np.int64)
        second = np.where(
            state.cell2[enemies] != NO_CELL, state.cell2[enemies], state.cell[enemies]
        )
        self.enemy_cells = (first, second.astype(np.int64))
        self.enemy_level = np.maximum(self.level[first], self.level[second]).astype(np.int64)
        self.enemy_attack = game.fig_attack[enemies].astype(np.int64)
        self.enemy_defense = game.fig_defense[enemies].astype(np.int64)
        self.enemy_reach = (game.fig_move[enemies] + game.fig_range[enemies]).astype(np.int64)
        self.enemy_value = 1.0 + self.w.target_attack * self.enemy_attack
        # chance that an enemy's card is the one its owner activates next (1 / living cards)
        live_cards: dict[int, set[int]] = {}
        for f in enemies:
            live_cards.setdefault(int(game.fig_owner[f]), set()).add(int(game.fig_card[f]))
        self.enemy_card_weight = np.array(
            [1.0 / len(live_cards[int(game.fig_owner[f])]) for f in enemies]
        )
        self.hold = np.array(game.hold_cells, dtype=np.int64) if game.victory == "hold" else None

    # -- scoring --------------------------------------------------------------------------
    def score_spaces(
        self, figure: int, destinations: list[tuple[int, ...]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """(total score, kill value) of ``figure`` standing on each of ``destinations``."""
        game, w = self.game, self.w
        a = np.array([d[0] for d in destinations], dtype=np.int64)
        b = np.array([d[-1] for d in destinations], dtype=np.int64)
        level = np.maximum(self.level[a], self.level[b]).astype(np.int64)
        score = w.height * level
        if self.hold is not None:
            to_hold = np.minimum(
                self.distance[np.ix_(a, self.hold)].min(axis=1),
                self.distance[np.ix_(b, self.hold)].min(axis=1),
            ).astype(np.float64)
            score = score - w.objective * np.minimum(to_hold, 30) + w.on_objective * (to_hold == 0)
        if self.enemies.size == 0:
            return score, np.zeros(len(destinations))
        e1, e2 = self.enemy_cells
        dist = self.distance
        gap = np.minimum.reduce(
            [dist[np.ix_(a, e1)], dist[np.ix_(a, e2)], dist[np.ix_(b, e1)], dist[np.ix_(b, e2)]]
        ).astype(np.int64)
        gap = np.where(gap >= UNREACHABLE, FAR, gap)
        mine_up = level[:, None] > self.enemy_level[None, :]
        theirs_up = self.enemy_level[None, :] > level[:, None]
        # attacking from each destination (HS-12.4 height bonus both ways): a forecast for
        # spaces not yet stood on, vectorised; in play the dice come from combat.HOOKS
        attack = int(game.fig_attack[figure]) + mine_up
        defense = self.enemy_defense[None, :] + theirs_up
        p_kill = KILL[np.minimum(attack, MAX_DICE), np.minimum(defense, MAX_DICE)]
        rng = int(game.fig_range[figure])
        in_range = gap <= rng
        kill = (np.where(in_range, p_kill, 0.0) * self.enemy_value[None, :]).max(axis=1)
        # being attacked there on the enemies' next turn
        their_attack = self.enemy_attack[None, :] + theirs_up
        my_defense = int(game.fig_defense[figure]) + mine_up
        p_lose = KILL[np.minimum(their_attack, MAX_DICE), np.minimum(my_defense, MAX_DICE)]
        threatened = gap <= self.enemy_reach[None, :]
        danger = (np.where(threatened, p_lose, 0.0) * self.enemy_card_weight[None, :]).sum(axis=1)
        # steps still needed to have an enemy in range; the weakest enemies count as nearer
        need = np.maximum(gap - rng, 0) + 0.5 * self.enemy_defense[None, :]
        approach = -np.minimum(need.min(axis=1), 40.0)
        score = score + w.kill * kill - w.danger * danger + w.approach * approach
        return score, w.kill * kill

    def plan(self, figure: int) -> _Plan:
        return self.bot.plan(self, figure)

    def card_figures(self, card: int) -> list[int]:
        state = self.state
        return [
            int(f) for f in np.flatnonzero((self.game.fig_card == card) & (state.cell != NO_CELL))
        ]

    def attack_value(self, attacker: int, target: int) -> float:
        """Expected kill value of one attack now, with the dice the rules give (HS-12.4 height
        advantage included)."""
        game, state = self.game, self.state
        p = kill_probability(
            attack_dice(game, state, attacker, target), defense_dice(game, state, attacker, target)
        )
        return p * (1.0 + self.w.target_attack * int(game.fig_attack[target]))


def _first_legal(turn: _Turn) -> int:
    return turn.first_legal()


# ==========================================================================================
# Phases
# ==========================================================================================
def _choose_card(turn: _Turn) -> int:
    """HS-5.2: the card whose figures gain most: expected kills this turn, then position."""
    game = turn.game
    options = []
    for slot, card in enumerate(game.player_cards[turn.seat]):
        action = turn.layout.slot("card", slot)
        if not turn.mask[action]:
            continue
        value = 0.0
        for figure in turn.card_figures(card):
            plan = turn.plan(figure)
            value += float(plan.score[plan.best]) - plan.base
        options.append((value, action))
    return turn.pick(options) if options else turn.first_legal()


def _move_select(turn: _Turn) -> int:
    """HS-6.2: move the figure that gains most first; stop when no move gains anything."""
    state = turn.state
    options = [(turn.w.min_gain, turn.special("end_movement"))]
    for cell in turn.cells("select"):
        plan = turn.plan(int(state.occupant[cell]))
        options.append((plan.gain, turn.cell_action("select", cell)))
    return turn.pick(options)


def _move_dest(turn: _Turn) -> int:
    plan = turn.plan(turn.state.selected)
    best = plan.destinations[plan.best]
    legal = set(turn.cells("move"))
    if turn.weighed is not None:  # a destination is entered by its first legal space
        turn.note(
            [
                (float(score), turn.cell_action("move", next(c for c in dest if c in legal)))
                for score, dest in zip(plan.score, plan.destinations)
                if legal & set(dest)
            ]
        )
    cell = best[0] if best[0] in legal else next((c for c in best if c in legal), None)
    return turn.cell_action("move", cell) if cell is not None else turn.first_legal()


def _move_tail(turn: _Turn) -> int:
    """HS-7: the other space of the best destination that holds the chosen one."""
    state = turn.state
    plan = turn.plan(state.selected)
    first = state.destination
    tails = set(turn.cells("tail"))
    options = []
    for score, dest in zip(plan.score, plan.destinations):
        if first in dest:
            other = dest[1] if dest[0] == first else dest[0]
            if other in tails:
                options.append((float(score), turn.cell_action("tail", other)))
    return turn.pick(options) if options else turn.first_legal()


def _attack_select(turn: _Turn) -> int:
    """HS-11: always attack. Attackers with the fewest targets and the weakest dice go first,
    so the strongest are left to finish what survives."""
    game, state = turn.game, turn.state
    options = []
    for cell in turn.cells("select"):
        attacker = int(state.occupant[cell])
        values = [turn.attack_value(attacker, t) for t in game.targets(state, attacker)]
        if values:
            options.append((-len(values) * 10.0 - max(values), turn.cell_action("select", cell)))
    return turn.pick(options) if options else turn.special("end_turn")


def _attack_target(turn: _Turn) -> int:
    """HS-12.1: the target most likely to be destroyed (the harder hitter on ties)."""
    state = turn.state
    attacker = state.selected
    options = [
        (turn.attack_value(attacker, int(state.occupant[c])), turn.cell_action("attack", c))
        for c in turn.cells("attack")
    ]
    return turn.pick(options)


_PHASE_HANDLERS: dict[Phase, Callable[[_Turn], int]] = {
    Phase.CHOOSE_CARD: _choose_card,
    Phase.MOVE_SELECT: _move_select,
    Phase.MOVE_DEST: _move_dest,
    Phase.MOVE_TAIL: _move_tail,
    Phase.ATTACK_SELECT: _attack_select,
    Phase.ATTACK_TARGET: _attack_target,
}

__all__ = ["HeuristicBot", "Weights", "KILL", "kill_probability", "kill_table", "NO_FIGURE"]
