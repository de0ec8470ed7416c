"""Scripted Heroscape players. ``HeuristicBot`` focuses fire, takes the high ground and beats
random play.

In the basic game one successful attack destroys a figure (HS-12.6), so the currency of every
decision is the *kill probability* of one attack, ``KILL[a, d] = P(skulls > shields)`` with
``a`` attack dice (a skull is 1/2 per die) against ``d`` defense dice (a shield is 1/3 per die),
the height bonus of HS-12.4 included. It is computed exactly from the two binomials once, at
import (:func:`kill_table`).

Each space a figure could move to gets one cheap score (board distances and levels only; line
of sight is left to the attack phase), vectorised over the board's spaces for single-space
figures (one table per enemy layout and card profile, :class:`_Field`) and over its
destinations for double-space ones:

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

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from math import comb

import numpy as np

from envs.bots import LegalActions
from envs.core.board import UNREACHABLE
from envs.core.lru import LRU
from envs.heroscape.combat import combat_dice, dice_by_position
from envs.heroscape.game import HeroscapeBase
from envs.heroscape.state import NO_CELL, NO_FIGURE, Phase, State
from envs.lookahead import Weighing, ranked

P_SKULL = 1.0 / 2.0  # HS-3.2 default: 3 skull faces of 6
P_SHIELD = 1.0 / 3.0  # 2 shield faces of 6
MAX_DICE = 16
FAR = 10_000  # stands in for "no path" in distances
# Enemy layouts: one per player turn and the kills in it; a lookahead's playouts from one
# position revisit the first few.
FIELD_CACHE_SIZE = 512
# Positions whose attacks were weighed: one per attack phase and hit in it.
ATTACK_CACHE_SIZE = 256


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
_KILL_ROWS = KILL.tolist()  # the same numbers, cheaper to read one at a time


def kill_probability(attack: int, defense: int) -> float:
    """P(one attack destroys the defender): ``attack`` dice against ``defense`` dice."""
    return _KILL_ROWS[min(max(attack, 0), MAX_DICE)][min(max(defense, 0), MAX_DICE)]


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
        self._fields: LRU[tuple, _Field] = LRU(FIELD_CACHE_SIZE)
        self._attacks: LRU[tuple, dict[int, dict[int, float]]] = LRU(ATTACK_CACHE_SIZE)

    def act(self, game: HeroscapeBase, state: State, rng: np.random.Generator) -> int:
        mask = game.legal_mask(state)
        legal = mask.nonzero()[0]
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

    def attack_values(self, turn: _Turn, attacker: int) -> dict[int, float]:
        """:meth:`_Turn.attack_values`, cached by occupancy while the dice depend on the
        figures' spaces alone (``combat.dice_by_position``): the attackers are weighed again
        after every attack that misses, and in every playout from one position."""
        game, state = turn.game, turn.state
        if not dice_by_position():
            return {t: turn.attack_value(attacker, t) for t in game.targets(state, attacker)}
        key = (id(game), state.occupant.tobytes())
        memo = self._attacks.get(key)
        if memo is None:
            memo = self._attacks[key] = {}
        values = memo.get(attacker)
        if values is None:
            values = memo[attacker] = {
                t: turn.attack_value(attacker, t) for t in game.targets(state, attacker)
            }
        return values

    def field(self, game: HeroscapeBase, state: State) -> _Field:
        """The enemies of the player to move, as the scores see them (cached by their spaces:
        the player's own moves leave it as it is, so one serves a whole turn)."""
        seat = state.seat
        rivals = _static(game)[3][seat]
        key = (id(game), seat, state.cell[rivals].tobytes(), state.cell2[rivals].tobytes())
        found = self._fields.get(key)
        if found is None:
            found = self._fields[key] = _Field(game, state, self.w)
        return found


Profile = tuple[int, int, int]  # a figure's (attack, defense, range)
_Static = tuple[np.ndarray, np.ndarray, list[Profile], list[np.ndarray]]
_STATIC: weakref.WeakKeyDictionary[HeroscapeBase, _Static] = weakref.WeakKeyDictionary()


def _static(game: HeroscapeBase) -> _Static:
    """The battlefield's spaces, per cell its index among them (-1: not a space), per
    figure its profile, and per seat its rivals' figures."""
    found = _STATIC.get(game)
    if found is None:
        spaces = np.flatnonzero(game.board.exists)
        row = np.full(game.board.n_cells, -1, dtype=np.int64)
        row[spaces] = np.arange(spaces.size)
        profiles = list(
            zip(game.fig_attack.tolist(), game.fig_defense.tolist(), game.fig_range.tolist())
        )
        rivals = [np.flatnonzero(game.fig_owner != seat) for seat in range(game.num_players)]
        found = _STATIC[game] = (spaces, row, profiles, rivals)
    return found


class _Field:
    """The enemies of the player to move (the facts the scores need), and the scores of a
    single-space figure on every space of the board, per card profile, built when first asked.

    Every term of a destination's score is a function of its level and its board distance to
    each enemy, so a single-space figure's scores are one table per (attack, defense, range):
    a card's figures share it, and so do the turn's later decisions.
    """

    def __init__(self, game: HeroscapeBase, state: State, w: Weights):
        self.game, self.w = game, w
        seat = state.seat
        board = game.board
        distance = board.distance
        self.level = board.level
        # the scores are kept for the battlefield's spaces only (a padded board is mostly
        # padding); ``row[cell]`` is a space's row in them
        spaces, self.row, self.profiles, _ = _static(game)
        self.space_level = self.level[spaces].astype(np.int64)
        alive = state.cell != NO_CELL
        enemies = np.flatnonzero(alive & (game.fig_owner != seat))
        self.enemies = enemies
        # per enemy: its spaces (a second column for double-space figures), level, stats
        first = state.cell[enemies].astype(np.int64)
        second = np.where(
            state.cell2[enemies] != NO_CELL, state.cell2[enemies], state.cell[enemies]
        ).astype(np.int64)
        self.enemy_level = np.maximum(self.level[first], self.level[second]).astype(np.int64)
        self.enemy_attack = game.fig_attack[enemies].astype(np.int64)
        self.enemy_defense = game.fig_defense[enemies].astype(np.int64)
        self.enemy_reach = (game.fig_move[enemies] + game.fig_range[enemies]).astype(np.int64)
        self.enemy_value = 1.0 + w.target_attack * self.enemy_attack
        # chance that an enemy's card is the one its owner activates next (1 / living cards)
        live_cards: dict[int, set[int]] = {}
        for f in enemies:
            live_cards.setdefault(int(game.fig_owner[f]), set()).add(int(game.fig_card[f]))
        self.enemy_card_weight = np.array(
            [1.0 / len(live_cards[int(game.fig_owner[f])]) for f in enemies]
        )
        # per space and enemy: steps to the nearer of its spaces, FAR for no path
        from_spaces = distance[spaces]
        gap = np.minimum(from_spaces[:, first], from_spaces[:, second]).astype(np.int64)
        self.gap = np.where(gap >= UNREACHABLE, FAR, gap)
        # per space: steps to the objective (hold scenarios)
        self.to_hold = (
            from_spaces[:, np.array(game.hold_cells, dtype=np.int64)].min(axis=1)
            if game.victory == "hold"
            else None
        )
        self.tables: dict[Profile, tuple[np.ndarray, np.ndarray]] = {}

    def single(self, figure: int, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(total score, kill value) of single-space ``figure`` on each of ``cells``."""
        profile = self.profiles[figure]
        table = self.tables.get(profile)
        if table is None:
            to_hold = None if self.to_hold is None else self.to_hold.astype(np.float64)
            table = self.tables[profile] = self.score(profile, self.space_level, self.gap, to_hold)
        rows = self.row[cells]
        return table[0][rows], table[1][rows]

    def spaces(
        self, figure: int, destinations: list[tuple[int, ...]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """(total score, kill value) of ``figure`` standing on each of ``destinations``."""
        a = np.array([d[0] for d in destinations], dtype=np.int64)
        b = np.array([d[-1] for d in destinations], dtype=np.int64)
        level = np.maximum(self.level[a], self.level[b]).astype(np.int64)
        a, b = self.row[a], self.row[b]
        to_hold = (
            None
            if self.to_hold is None
            else np.minimum(self.to_hold[a], self.to_hold[b]).astype(np.float64)
        )
        return self.score(
            self.profiles[figure], level, np.minimum(self.gap[a], self.gap[b]), to_hold
        )

    def score(
        self,
        profile: Profile,
        level: np.ndarray,
        gap: np.ndarray,
        to_hold: np.ndarray | None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(total score, kill value) of a figure of ``profile`` (attack, defense, range) on
        spaces at ``level``, ``gap[:, e]`` steps from enemy ``e`` and ``to_hold`` steps from
        the objective."""
        w = self.w
        score = w.height * level
        if to_hold is not None:
            score = score - w.objective * np.minimum(to_hold, 30) + w.on_objective * (to_hold == 0)
        if self.enemies.size == 0:
            return score, np.zeros(len(level))
        my_attack, my_defense, rng = profile
        mine_up = level[:, None] > self.enemy_level[None, :]
        theirs_up = self.enemy_level[None, :] > level[:, None]
        # attacking from each destination (HS-12.4 height bonus both ways): a forecast for
        # spaces not yet stood on, vectorised; in play the dice come from combat.HOOKS
        attack = my_attack + mine_up
        defense = self.enemy_defense[None, :] + theirs_up
        p_kill = KILL[np.minimum(attack, MAX_DICE), np.minimum(defense, MAX_DICE)]
        in_range = gap <= rng
        kill = (np.where(in_range, p_kill, 0.0) * self.enemy_value[None, :]).max(axis=1)
        # being attacked there on the enemies' next turn
        their_attack = self.enemy_attack[None, :] + theirs_up
        defended = my_defense + mine_up
        p_lose = KILL[np.minimum(their_attack, MAX_DICE), np.minimum(defended, MAX_DICE)]
        threatened = gap <= self.enemy_reach[None, :]
        danger = (np.where(threatened, p_lose, 0.0) * self.enemy_card_weight[None, :]).sum(axis=1)
        # steps still needed to have an enemy in range; the weakest enemies count as nearer
        need = np.maximum(gap - rng, 0) + 0.5 * self.enemy_defense[None, :]
        approach = -np.minimum(need.min(axis=1), 40.0)
        score = score + w.kill * kill - w.danger * danger + w.approach * approach
        return score, w.kill * kill


class _Plan:
    """One figure's legal destinations, their scores and the parts of them."""

    def __init__(
        self,
        figure: int,
        destinations: list[tuple[int, ...]] | np.ndarray,
        score: np.ndarray,
        kill: np.ndarray,
        stay: int,
    ):
        self.figure = figure
        # a single-space figure's destinations stay an array of cells until asked for
        self._destinations = destinations
        self.score = score  # total score per destination
        self.kill = kill  # best expected kill value per destination
        self.stay = stay  # index of the current spaces in ``destinations``
        self.best = int(np.argmax(score))  # the best-scored destination (the first of equals)
        scores = score.tolist()
        # score gained by the best move over staying put
        self.gain: float = scores[self.best] - scores[stay]
        # score of the current spaces without this turn's attack (the card choice baseline)
        self.base = float(scores[stay] - kill[stay])

    @property
    def destinations(self) -> list[tuple[int, ...]]:
        found = self._destinations
        if isinstance(found, np.ndarray):
            found = self._destinations = [(c,) for c in found.tolist()]
        return found

    def destination(self, index: int) -> tuple[int, ...]:
        found = self._destinations
        if isinstance(found, np.ndarray):
            return (int(found[index]),)
        return found[index]

    @classmethod
    def build(cls, turn: _Turn, figure: int) -> _Plan:
        game, state = turn.game, turn.state
        field = turn.field
        if game.fig_double[figure]:
            destinations = game.destinations(state, figure)  # sorted pairs; shared, not changed
            here = tuple(sorted(game.cells_of(state, figure)))
            if here not in destinations:
                destinations = destinations + [here]
            score, kill = field.spaces(figure, destinations)
            return cls(figure, destinations, score, kill, destinations.index(here))
        cells = game.destination_cells(state, figure)  # sorted, its own space among them
        score, kill = field.single(figure, cells)
        return cls(figure, cells, score, kill, int(np.searchsorted(cells, state.cell[figure])))


class _Turn(LegalActions, Weighing):
    """One decision: the facts every scoring function needs, computed once."""

    def __init__(self, bot: HeuristicBot, game: HeroscapeBase, state: State, mask: np.ndarray):
        self.bot, self.game, self.state, self.mask, self.w = bot, game, state, mask, bot.w
        self.layout = game.layout
        self.seat = state.seat

    @cached_property
    def field(self) -> _Field:
        return self.bot.field(self.game, self.state)

    def plan(self, figure: int) -> _Plan:
        return self.bot.plan(self, figure)

    def card_figures(self, card: int) -> list[int]:
        return self.game.card_figures(self.state, card)

    def attack_values(self, attacker: int) -> dict[int, float]:
        """Per target of ``attacker`` (in ``game.targets`` order), :meth:`attack_value`."""
        return self.bot.attack_values(self, attacker)

    def attack_value(self, attacker: int, target: int) -> float:
        """Expected kill value of one attack now, with the dice the rules give (HS-12.4 height
        advantage included)."""
        game = self.game
        p = kill_probability(*combat_dice(game, self.state, attacker, target))
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
    best = plan.destination(plan.best)
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
    occupant = turn.state.occupant
    options = []
    for cell in turn.cells("select"):
        values = list(turn.attack_values(int(occupant[cell])).values())
        if values:
            options.append((-len(values) * 10.0 - max(values), turn.cell_action("select", cell)))
    return turn.pick(options) if options else turn.special("end_turn")


def _attack_target(turn: _Turn) -> int:
    """HS-12.1: the target most likely to be destroyed (the harder hitter on ties)."""
    state = turn.state
    values = turn.attack_values(state.selected)
    options = [
        (values[int(state.occupant[c])], turn.cell_action("attack", c))
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
