"""Scripted Heroica players. ``HeuristicBot`` races for the target and beats random play.

The bot plans with one number per space, the *cost to go* to the win
(:mod:`envs.heroica.bots.cost_to_go`: a Dijkstra from the mission's target over the current
pieces, in die pips, that prices forced stops, fights, rocks, chests and the items on the way).

Every decision then scores the legal actions with a few small functions, one per phase
(``_PHASE_HANDLERS``): step to the neighbour with the lowest cost to go; on a movement Shield
compare the gain of moving with the gain of a ranged kill (the target itself wins at once), a
heal or a Scepter summon in the leading opponent's way; in fights take on the target first,
then the weakest monster; move back towards the goal; drink a Life Potion when low or before a
fight that could defeat the Hero; buy a ranged weapon when gold allows. As Monster Player
(Battle Heroica) it fights in place when a Hero is adjacent, otherwise moves the monster that
is closest to a non-healing Hero straight at it, and never walks the target's guard away.

Nothing is simulated through the engine, so the bot never sees a die before it is rolled, and
cost maps are cached per (mission, pieces, Health, torch), so one decision costs microseconds
to a fraction of a millisecond.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from envs.bots import LegalActions, best_scored
from envs.core.lru import LRU
from envs.heroica.bots.cost_to_go import INF, WIN, CostToGo, Weights
from envs.heroica.bots.legal import (
    legal_actions,
    lone_target,
    move_key,
    plain_move_legal,
    shop_key,
)
from envs.heroica.bots.monster_player import monster_fight_choose, monster_select, monster_step
from envs.heroica.dice import SHIELD
from envs.heroica.game import ActionKind
from envs.heroica.state import CELL, NO_CELL, HeroField, Phase, State
from envs.lookahead import Weighing, ranked

if TYPE_CHECKING:  # pragma: no cover
    from envs.heroica.rules import HeroicaGame


class HeuristicBot(CostToGo):
    """A fast rule-based Heroica player (Hero or Monster Player); see the module docstring.

    Its prices (``w``), cost-to-go maps and their caches are those of
    :class:`~envs.heroica.bots.cost_to_go.CostToGo`."""

    name = "heuristic"

    # ======================================================================================
    # Entry point
    # ======================================================================================
    def __init__(self, weights: Weights | None = None, cache_size: int = 4096):
        super().__init__(weights, cache_size)
        self._shop_choices: LRU[tuple, int] = LRU(cache_size)
        self._move_choices: LRU[tuple, int] = LRU(cache_size)

    def act(self, game: HeroicaGame, state: State, rng: np.random.Generator) -> int:
        phase = state.phase
        if phase is Phase.START or phase is Phase.END:
            # A quarter of all decisions, and (without a fight on offer) a function of a few
            # numbers: the Hero's purse and Health, the Store. Playouts repeat them endlessly.
            key = shop_key(game, state)
            if key is not None:
                action = self._shop_choices.get(key)
                if action is None:
                    action = self._shop_choices[key] = self._decide(
                        game, state, legal_actions(game, state)
                    )
                return action
        if phase is Phase.MOVE:
            # Half the decisions. Playouts from one root walk the same first steps again and
            # again, so the choice is kept by all it reads (``move_key``).
            key = move_key(game, state)
            if key is not None:
                action = self._move_choices.get(key)
                if action is None:
                    legal = plain_move_legal(game, state)
                    if legal is None:  # a Life or Speed Potion on offer: the full decision
                        action = self._decide(game, state, legal_actions(game, state))
                    elif len(legal) == 1:
                        action = legal[0]
                    else:  # no _Turn, straight to the step
                        action = self._plain_step(game, state, legal)
                    self._move_choices[key] = action
                return action
        elif phase is Phase.FIGHT_CHOOSE or phase is Phase.ROCKS_CHOOSE:
            action = lone_target(game, state)  # nothing to choose; skip building the legal set
            if action is not None:
                return action
        return self._decide(game, state, legal_actions(game, state))

    def _plain_step(self, game: HeroicaGame, state: State, legal: list[int]) -> int:
        """What ``_move`` picks among ``plain_move_legal``'s actions: ``_step_or_stop``."""
        offset = game.layout.plane_offset(ActionKind.STEP)
        steps = [a - offset for a in legal[:-1]]  # ``end_move`` comes last
        target = int(game.targets[state.mission])
        if target in steps:
            return offset + target
        seat = state.seat
        dist = self.cost_to_go(game, state, seat)
        here = state.heroes.item(seat, CELL)
        return best_scored(_step_options(self, game, state, here, dist, steps, legal[-1]))

    def _decide(self, game: HeroicaGame, state: State, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        turn = _Turn(self, game, state, legal)
        for rule in (_drink_life, _shop):  # free actions first; each returns None to pass
            action = rule(turn)
            if action is not None:
                return action
        action = _PHASE_HANDLERS.get(state.phase, _first_legal)(turn)
        return int(action)

    def scored(self, game: HeroicaGame, state: State) -> list[tuple[float, int]]:
        """(score, action) of what this phase's handler weighs now, best first (for lookahead)."""
        turn = _Turn(self, game, state, legal_actions(game, state))
        turn.weighed = []
        _PHASE_HANDLERS.get(state.phase, _first_legal)(turn)
        return ranked(turn.weighed)


# ==========================================================================================
# One decision: the facts every scoring function needs, computed once and lazily
# ==========================================================================================
class _Turn(LegalActions, Weighing):
    def __init__(self, bot: HeuristicBot, game: HeroicaGame, state: State, legal: list[int]):
        self.bot, self.game, self.state, self.w = bot, game, state, bot.w
        self.legal = legal  # ascending (legal_actions)
        self.legal_set = set(legal)
        self.layout = game.layout
        self.seat = state.seat
        self.here = state.heroes.item(self.seat, CELL)
        self.st = bot.static(game, state.mission)
        self.target = self.st.target
        self.is_monster_player = self.seat == game.monster_seat
        self._dist: list[float] | None = None

    # -- the legal actions, read from the list instead of LegalActions' numpy mask ---------
    def can(self, special: str) -> bool:
        return self.layout.special(special) in self.legal_set

    def cells(self, plane: str) -> list[int]:
        offset = self.layout.plane_offset(plane)
        end = offset + self.layout.n_cells
        return [a - offset for a in self.legal if offset <= a < end]

    def first_legal(self) -> int:
        return self.legal[0]

    # -- planning -------------------------------------------------------------------------
    @property
    def dist(self) -> list[float]:
        if self._dist is None:
            self._dist = self.bot.cost_to_go(self.game, self.state, self.seat)
        return self._dist

    def dist_without(self, cell: int, seat: int | None = None) -> list[float]:
        """Cost to go if the piece on ``cell`` were gone (a monster defeated, rocks cleared)."""
        piece = self.state.piece.copy()
        piece[cell] = 0
        return self.bot.cost_to_go(
            self.game, self.state, self.seat if seat is None else seat, piece
        )

    def kill_gain(self, cell: int) -> float:
        """Steps saved by defeating the monster on ``cell`` now (the target wins outright)."""
        if cell == self.target:
            return WIN
        gain = self.dist[self.here] - self.dist_without(cell)[self.here]
        return gain + self.w.fight_base  # a kill always saves the fight it replaces, a little

    def strength(self, cell: int) -> int:
        return int(self.game.strength[self.state.piece[cell]])

    def health(self, seat: int | None = None) -> int:
        return int(self.state.heroes[self.seat if seat is None else seat, HeroField.HEALTH])

    def monster_neighbours(self, cell: int) -> list[int]:
        return self.game.adjacent_monsters(self.state, cell)

    def opponents(self) -> list[int]:
        return [s for s in self.game.hero_seats() if s != self.seat]

    def walk(self, steps: int, dist: list[float] | None = None) -> int:
        """Where greedy stepping down ``dist`` ends after ``steps`` steps (forced stops included)."""
        dist = self.dist if dist is None else dist
        game, state = self.game, self.state
        visited = state.visited
        cell = self.here
        for _ in range(steps):
            options = [
                c
                for c in self.st.neighbors[cell]
                if not (visited >> c) & 1 and game.hero_passable(state, c)
            ]
            if not options:
                break
            nxt = min(options, key=dist.__getitem__)
            if dist[nxt] >= dist[cell]:
                break
            cell = nxt
            visited |= 1 << cell
            if cell == self.target or self.forces_stop(cell):
                break
        return cell

    def forces_stop(self, cell: int) -> bool:
        game, state = self.game, self.state
        return state.piece.item(cell) == game.CHEST or game.next_to_blocker(state, cell)

    def move_gain(self, steps: int) -> float:
        return self.dist[self.here] - self.dist[self.walk(steps)]


def _first_legal(turn: _Turn) -> int:
    return turn.first_legal()


# ==========================================================================================
# Free actions: Life Potions and the shop
# ==========================================================================================
def _next_fight_strength(turn: _Turn) -> int:
    """Strength of the monster the Hero is about to fight now (0 if none)."""
    phase = turn.state.phase
    if phase in (Phase.START, Phase.FIGHT_CHOOSE):
        targets = turn.cells("target")
        return max((turn.strength(c) for c in targets), default=0) if targets else 0
    return 0


def _drink_life(turn: _Turn) -> int | None:
    if not turn.can("drink_life"):
        return None
    game = turn.game
    heal = game.pieces.items["life_potion"].heal
    health = turn.health()
    if health <= game.max_health - heal:  # no Health wasted (and it shortens healing)
        return turn.special("drink_life")
    if 0 < health <= _next_fight_strength(turn):  # a lost fight would defeat the Hero
        return turn.special("drink_life")
    return None


def _weapon_wanted(turn: _Turn, weapon: str) -> bool:
    """A weapon is worth buying if it adds a kind of Shield skill the Hero lacks."""
    game = turn.game
    skill = game.pieces.weapons[weapon].skill
    own = game.skill_of(turn.seat, 0)
    if skill.effect == "ranged_defeat" and own.effect == "ranged_defeat":
        return bool(skill.straight) != bool(own.straight) or (skill.range or 0) > (own.range or 0)
    return True


def _shop(turn: _Turn) -> int | None:
    if turn.state.phase not in (Phase.START, Phase.END) or turn.is_monster_player:
        return None
    for weapon in turn.w.buy_order:
        name = f"buy_{weapon}"
        if name in turn.layout.specials and turn.can(name) and _weapon_wanted(turn, weapon):
            return turn.special(name)
    return None


# ==========================================================================================
# Hero phases
# ==========================================================================================
def _start(turn: _Turn) -> int:
    if turn.cells("target"):
        return _choose_fight(turn)
    return turn.special("roll") if turn.can("roll") else turn.first_legal()


def _fight_order(turn: _Turn, cell: int) -> float:
    """Fight the target first (a win ends the game), then the weakest monster."""
    return WIN if cell == turn.target else -turn.strength(cell) + 0.01 * turn.kill_gain(cell)


def _choose_fight(turn: _Turn) -> int:
    return turn.pick(
        [(_fight_order(turn, c), turn.cell_action("target", c)) for c in turn.cells("target")]
    )


def _ranged_value(turn: _Turn, source: int) -> float:
    """Value of using Shield skill ``source`` instead of moving."""
    game, state, seat = turn.game, turn.state, turn.seat
    skill = game.skill_of(seat, source)
    if skill.effect == "ranged_defeat":
        targets = game.ranged_targets(state, seat, skill)
        return max((turn.kill_gain(c) for c in targets), default=-INF)
    if skill.effect == "step_then_defeat":
        return max((turn.kill_gain(c) for c in _sword_reach(turn)), default=-INF)
    if skill.effect == "heal":
        missing = game.max_health - turn.health()
        return turn.w.health * min(skill.amount or 0, missing) if turn.health() <= 2 else -INF
    return -INF


def _sword_reach(turn: _Turn) -> set[int]:
    game, state = turn.game, turn.state
    cells = set(game.adjacent_monsters(state, turn.here))
    for step in game.sword_steps(state, turn.seat):
        cells.update(game.adjacent_monsters(state, step))
    return cells


def _move(turn: _Turn) -> int:
    state, game = turn.state, turn.game
    options: list[tuple[float, int]] = [(0.0, _step_or_stop(turn))]  # listed first: wins ties
    if state.die == SHIELD and state.steps_taken == 0:
        move_value = turn.move_gain(state.steps_left)
        for source, source_name in enumerate(game.source_names):
            if turn.can(f"use_{source_name}"):
                options.append(
                    (_ranged_value(turn, source) - move_value, turn.special(f"use_{source_name}"))
                )
        if turn.can("use_scepter"):
            options.append((_scepter_plan(turn)[0] - move_value, turn.special("use_scepter")))
    if turn.can("drink_speed") and _speed_helps(turn):
        options.append((0.5, turn.special("drink_speed")))
    return turn.pick(options)


def _speed_helps(turn: _Turn) -> bool:
    """Drink a Speed Potion when the roll runs out before a forced stop or the goal."""
    state = turn.state
    end = turn.walk(state.steps_left)
    if end == turn.target or turn.forces_stop(end):
        return False
    return turn.walk(state.steps_left + turn.game.pieces.items["speed_potion"].steps) != end


def _step_or_stop(turn: _Turn) -> int:
    """Step down the cost-to-go; end the move only when no step gets closer."""
    steps = turn.cells("step")
    if turn.target in steps:
        return turn.cell_action("step", turn.target)
    end = turn.special("end_move") if turn.can("end_move") else None
    options = _step_options(turn.bot, turn.game, turn.state, turn.here, turn.dist, steps, end)
    return turn.pick(options) if options else turn.first_legal()


def _step_options(
    bot: HeuristicBot,
    game: HeroicaGame,
    state: State,
    here: int,
    dist: list[float],
    steps: list[int],
    end_move: int | None,
) -> list[tuple[float, int]]:
    """(score, action) of ending the move (``end_move``, if legal) and of each step."""
    stay = dist[here] + (bot.w.reentry if _rocks_need_reentry(game, state, here, dist) else 0.0)
    options = [(-stay - 1e-9, end_move)] if end_move is not None else []
    offset = game.layout.plane_offset(ActionKind.STEP)
    options += [(-dist[c], offset + c) for c in steps]
    return options


def _rocks_need_reentry(game: HeroicaGame, state: State, here: int, dist: list[float]) -> bool:
    """Rocks on the route next to a Hero that has not entered its space this turn: ending the
    move here explores nothing (HE-13.2 needs a move *into* the space), so step out first."""
    if state.entered_from != NO_CELL:
        return False
    return any(dist[r] < dist[here] for r in game.adjacent_rocks(state, here))


def _forward(turn: _Turn) -> int:
    return turn.pick([(-turn.dist[c], turn.cell_action("step", c)) for c in turn.cells("step")])


def _fight_shield(turn: _Turn) -> int:
    """Plain defeat or a melee skill: count the monsters it removes, gold and the free step."""
    game, state, seat, w = turn.game, turn.state, turn.seat, turn.w
    adjacent = turn.monster_neighbours(turn.here)

    def value(skill_effect: str | None, gold: int = 0) -> float:
        killed = (
            adjacent
            if skill_effect in ("defeat_all_adjacent", "defeat_all_adjacent_then_step")
            else [state.fight_target]
        )
        score = sum(WIN if c == turn.target else 10.0 for c in killed) + w.gold * gold
        return score + (0.1 if skill_effect == "defeat_all_adjacent_then_step" else 0.0)

    options = [(value(None), turn.special("defeat"))]
    for source, source_name in enumerate(game.source_names):
        if turn.can(f"use_{source_name}"):
            skill = game.skill_of(seat, source)
            options.append(
                (value(skill.effect, skill.gold or 0), turn.special(f"use_{source_name}"))
            )
    return turn.pick(options)


def _skill_target(turn: _Turn) -> int:
    return turn.pick(
        [(turn.kill_gain(c), turn.cell_action("target", c)) for c in turn.cells("target")]
    )


def _skill_step(turn: _Turn) -> int:
    game, state = turn.game, turn.state
    sword = game.skill_of(turn.seat, state.skill_source).effect == "step_then_defeat"
    stay = [(turn.here, turn.special("stay"))] if turn.can("stay") else []
    options = stay + [(c, turn.cell_action("step", c)) for c in turn.cells("step")]
    if sword:  # step next to the best monster to defeat

        def score(cell: int) -> float:
            kills = [turn.kill_gain(m) for m in game.adjacent_monsters(state, cell)]
            return max(kills, default=-INF) - 0.01 * turn.dist[cell]
    else:  # Barbarian: a free step towards the goal

        def score(cell: int) -> float:
            return -turn.dist[cell] + (1e-9 if cell == turn.here else 0.0)

    return turn.pick([(score(cell), action) for cell, action in options])


def _move_back(turn: _Turn) -> int:
    """Towards the goal, then away from the monster (HE-6.9 lets the controller choose)."""
    away = turn.state.move_back_from
    distance = turn.st.distance
    return turn.pick(
        [
            (-turn.dist[c] + 0.01 * float(distance[c, away]), turn.cell_action("step", c))
            for c in turn.cells("step")
        ]
    )


def _rocks(turn: _Turn) -> int:
    return turn.pick([(-turn.dist[c], turn.cell_action("target", c)) for c in turn.cells("target")])


# -- the Scepter of Summoning (HE-19.3): put a monster in the leading opponent's way ------------
def _strongest_take(turn: _Turn) -> tuple[int, int] | None:
    """(strength, action) of the strongest monster the Scepter can take."""
    game = turn.game
    best = None
    for owner in turn.opponents():
        for kind, monster in enumerate(game.monster_ids):
            name = f"take_{monster}_from_{owner}"
            if turn.state.heroes[owner, HeroField.KILLS + kind] > 0:
                strength = game.pieces.monsters[monster].strength
                if best is None or strength > best[0]:
                    best = (strength, turn.special(name))
    return best


def _scepter_plan(
    turn: _Turn, strength: int | None = None, places: list[int] | None = None
) -> tuple[float, int]:
    """(value in steps, cell): where a summoned monster slows the leading opponent most."""
    game, state = turn.game, turn.state
    if strength is None:
        take = _strongest_take(turn)
        if take is None:
            return -INF, NO_CELL
        strength = take[0]
    rivals = turn.opponents()
    if not rivals:
        return -INF, NO_CELL
    dists = {s: turn.bot.cost_to_go(game, state, s) for s in rivals}
    rival = min(rivals, key=lambda s: dists[s][game.hero_cell(state, s)])
    rival_dist = dists[rival]
    start = game.hero_cell(state, rival)
    path = [start]
    cell = start
    for _ in range(6):  # the cells the rival is about to walk through
        nxt = min(turn.st.neighbors[cell], key=rival_dist.__getitem__)
        if rival_dist[nxt] >= rival_dist[cell] or nxt == turn.target:
            break
        path.append(nxt)
        cell = nxt
    empty = set(game.empty_cells(state)) if places is None else set(places)
    candidates = {c for p in path for c in [p, *turn.st.neighbors[p]]} & empty
    code = 1 + next(
        k for k, m in enumerate(game.monster_ids) if game.pieces.monsters[m].strength == strength
    )
    best = (-INF, NO_CELL)
    for cell in sorted(candidates):
        piece = state.piece.copy()
        piece[cell] = code
        slowed = turn.bot.cost_to_go(game, state, rival, piece)[start]
        mine = turn.bot.cost_to_go(game, state, turn.seat, piece)[turn.here]
        value = (slowed - rival_dist[start]) - (mine - turn.dist[turn.here])
        if cell in turn.st.neighbors[start]:
            value += turn.w.fight_base + turn.w.fight_per_strength * strength  # fights at once
        if value > best[0]:
            best = (value, cell)
    return best


def _scepter_take(turn: _Turn) -> int:
    take = _strongest_take(turn)
    return take[1] if take is not None else turn.first_legal()


def _scepter_place(turn: _Turn) -> int:
    kind = turn.state.scepter_monster
    strength = turn.game.pieces.monsters[turn.game.monster_ids[kind]].strength
    places = turn.cells("place")
    value, cell = _scepter_plan(turn, strength, places)
    if cell == NO_CELL:  # nowhere useful: as far from this Hero as possible
        distance = turn.st.distance
        cell = max(places, key=lambda c: int(distance[turn.here, c]))
    return turn.cell_action("place", cell)


def _end(turn: _Turn) -> int:
    return turn.special("end_turn") if turn.can("end_turn") else turn.first_legal()


_PHASE_HANDLERS: dict[Phase, Callable[[_Turn], int]] = {
    Phase.START: _start,
    Phase.MOVE: _move,
    Phase.FORWARD: _forward,
    Phase.FIGHT_CHOOSE: _choose_fight,
    Phase.FIGHT_SHIELD: _fight_shield,
    Phase.SKILL_TARGET: _skill_target,
    Phase.SKILL_STEP: _skill_step,
    Phase.MOVE_BACK: _move_back,
    Phase.ROCKS_CHOOSE: _rocks,
    Phase.SCEPTER_TAKE: _scepter_take,
    Phase.SCEPTER_PLACE: _scepter_place,
    Phase.END: _end,
    Phase.MONSTER_SELECT: monster_select,
    Phase.MONSTER_MOVE: monster_step,
    Phase.MONSTER_FORWARD: monster_step,
    Phase.MONSTER_FIGHT_CHOOSE: monster_fight_choose,
}
