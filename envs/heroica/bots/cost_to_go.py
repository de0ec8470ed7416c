"""The cost to go that the Heroica heuristic plans with: for one Hero, one number per space,
the price in "steps" (one die pip) of getting from there to the win. It is a Dijkstra from the
mission's target over the current pieces, where entering a space costs 1 plus

* ``stop``   when the space is next to a monster or rocks (the move must end there, HE-5.8),
* ``fight``  to pass through a monster's space (it must be defeated first; strength and the
  Hero's Health set the price, with extra for a fight that may defeat the Hero),
* ``rocks``  to pass through rocks (exploring often takes a few turns, HE-13),
* ``chest``  for a chest (a forced stop and a trap; the gold partly pays for it),
* minus small bonuses for items (a torch, potions, the Scepter) on the way.

The prices are :class:`Weights`; the maps are cached per (mission, pieces, Health, torch).
This is the heuristic's model of the board, computed apart from any decision, so it is its own
module: :class:`~envs.heroica.bots.heuristic.HeuristicBot` is a :class:`CostToGo` whose phase
handlers read the maps (and ask for them with a piece removed or added), and the lookahead bot
prices its leaves with them.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from envs.core.lru import LRU
from envs.heroica.dice import HEROICA_DIE, MOVE_VALUE
from envs.heroica.state import HeroField, State

if TYPE_CHECKING:  # pragma: no cover
    from envs.heroica.rules import HeroicaGame

__all__ = ["INF", "CostToGo", "MissionTables", "Weights"]

INF = float("inf")
WIN = 1e6  # score of an action that wins the mission now
MEAN_MOVE = float(np.mean([MOVE_VALUE[face] for face in HEROICA_DIE.faces]))  # 2.5 pips a roll
_HEALTH, _HEALING, _TORCH = int(HeroField.HEALTH), int(HeroField.HEALING), int(HeroField.TORCH)


@dataclass(frozen=True)
class Weights:
    """Prices in steps (die pips) used by the cost-to-go map and the action scores."""

    stop: float = 1.0  # a forced stop wastes the rest of the roll
    fight_base: float = 1.5  # a fight costs about half a turn on average (4/6 win)
    fight_per_strength: float = 1.2  # expected Health lost, priced per point of strength
    fight_defeat: float = 5.0  # extra when the monster could defeat the Hero (healing turns)
    rocks: float = 4.0  # exploring takes about two tries (Sword or Shield get through)
    chest: float = 1.0  # a forced stop and a trap, minus the gold
    torch: float = 0.6  # +1 step per turn until hurt
    potion: float = 0.3
    scepter: float = 0.3
    health: float = 1.5  # one point of Health (for heals)
    gold: float = 0.5  # one gold piece (Thief / Dagger)
    buy_order: tuple[str, ...] = ("wand", "bow", "sword")  # weapons worth buying, best first
    reentry: float = 10.0  # staying next to rocks that are never explored goes nowhere
    mp_fight: float = 50.0  # Monster Player: value of fighting now
    mp_reach: float = 5.0  # Monster Player: a Hero is within one average roll


class MissionTables:
    """Per-mission tables in plain Python lists (faster than numpy in small loops)."""

    def __init__(self, game: HeroicaGame, mission: int):
        board = game.boards[mission]
        self.board = board
        self.target = game.targets[mission]
        self.valid = board.neighbors >= 0
        self.safe_nb = np.where(self.valid, board.neighbors, 0)  # index-safe neighbour table
        self.neighbors: list[list[int]] = [
            [int(c) for c in row if c >= 0] for row in board.neighbors
        ]
        self.distance = board.distance


class CostToGo:
    """The cost-to-go maps of one set of :class:`Weights`, with their caches."""

    def __init__(self, weights: Weights | None = None, cache_size: int = 4096):
        self.w = weights or Weights()
        self.cache_size = cache_size
        self._static: LRU[tuple[int, int], MissionTables] = LRU(8)  # per (game, mission)
        self._costs: LRU[tuple, list[float]] = LRU(cache_size)

    def static(self, game: HeroicaGame, mission: int) -> MissionTables:
        key = (id(game), mission)
        if key not in self._static:
            self._static[key] = MissionTables(game, mission)
        return self._static[key]

    def cost_to_go(
        self, game: HeroicaGame, state: State, seat: int, piece: np.ndarray | None = None
    ) -> list[float]:
        """Cost (in steps) from every space to the win for the Hero in ``seat``."""
        piece = state.piece if piece is None else piece
        heroes = state.heroes  # .item: a plain int, without indexing a row first
        healing = heroes.item(seat, _HEALING)
        health = heroes.item(seat, _HEALTH) if not healing else game.max_health
        torch = bool(heroes.item(seat, _TORCH))
        key = (id(game), state.mission, piece.tobytes(), health, torch)
        cached = self._costs.get(key)
        if cached is None:
            cached = self._costs[key] = self._dijkstra(game, state.mission, piece, health, torch)
        return cached

    def _enter_costs(
        self, game: HeroicaGame, st: MissionTables, piece: np.ndarray, health: int, torch: bool
    ) -> np.ndarray:
        w = self.w
        monster = game.is_monster[piece].copy()
        monster[st.target] = False  # fighting the target is the goal, not a detour
        rocks = piece == game.ROCKS
        blocks = monster | rocks
        stop = (blocks[st.safe_nb] & st.valid).any(axis=1)
        strength = game.strength[piece]
        fight = (
            w.fight_base + w.fight_per_strength * strength + w.fight_defeat * (strength >= health)
        )
        enter = 1.0 + w.stop * stop + np.where(monster, fight, 0.0) + w.rocks * rocks
        enter += w.chest * (piece == game.CHEST)
        bonus = {
            "life_potion": w.potion,
            "speed_potion": w.potion,
            "scepter": w.scepter,
            "torch": 0.0 if torch else w.torch,
        }
        for code, item in game.ITEMS.items():
            enter -= bonus[item] * (piece == code)
        enter[st.target] = 1.0
        return np.maximum(enter, 0.1)

    def _dijkstra(
        self, game: HeroicaGame, mission: int, piece: np.ndarray, health: int, torch: bool
    ) -> list[float]:
        st = self.static(game, mission)
        enter = self._enter_costs(game, st, piece, health, torch).tolist()
        neighbors = st.neighbors
        dist = [INF] * len(enter)
        dist[st.target] = 0.0
        heap = [(0.0, st.target)]
        while heap:
            d, cell = heapq.heappop(heap)
            if d > dist[cell]:
                continue
            through = d + enter[cell]  # cost of a path that enters ``cell`` from a neighbour
            for prev in neighbors[cell]:
                if through < dist[prev]:
                    dist[prev] = through
                    heapq.heappush(heap, (through, prev))
        return dist
