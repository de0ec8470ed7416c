"""Heroica's observation planes (the channel table is in ``heroica_v0``'s docstring).

Built once per env step, so the work is laid out for speed: the board planes come from a
per-mission template holding the pieces (rebuilt only when a piece moves), the constant planes
from values memoised by what they read, and the few per-step marks are single writes.
"""

from __future__ import annotations

import array
from collections.abc import Callable
from typing import Any

import numpy as np

from envs.core.lru import LRU
from envs.core.planes import PlaneLayout
from envs.heroica.dice import DIE_SYMBOLS
from envs.heroica.game import HeroicaBase
from envs.heroica.state import CELL, NO_CELL, HeroField, Phase, State

GOLD_SCALE = 10.0
STEPS_SCALE = 10.0
KILLS_SCALE = 5.0
POTIONS_SCALE = 3.0
TURN_SCALARS = ("steps_left", "round", "monster_player_defeats", "mission", "store_gold")


class Memo:
    """key -> ``build(key)`` as float32 values, built on first use and kept in the core's
    bounded LRU, so a long run's memory stays bounded."""

    SIZE = 4096

    def __init__(self, build: Callable[[Any], list[float]]):
        self.build = build
        self._values: LRU[Any, array.array] = LRU(self.SIZE)

    def __getitem__(self, key: Any) -> array.array:
        value = self._values.get(key)
        if value is None:
            value = self._values[key] = array.array("f", self.build(key))
        return value


class Observer:
    """The (C, H, W) float32 observation of a state from a seat's viewpoint."""

    def __init__(self, game: HeroicaBase, planes: PlaneLayout):
        self.game = game
        self.planes = planes
        self.scalar_start = planes.board_channels
        self.shape = (len(planes), game.height, game.width)
        self._flat_shape = (len(planes), game.height * game.width)
        self._n_seats, self._n_heroes = game.num_players, game.num_heroes
        self._piece0 = planes.start("piece") - 1  # piece code k (1-based) -> its plane
        self._hero0 = planes.start("hero@seat")
        self._fight_target = planes.start("fight_target")
        self._monster_selected = planes.start("monster_selected")
        self._move_back_from = planes.start("move_back_from")
        self._visited = planes.start("visited")
        self._build_scalar_tables()
        n_cells = game.height * game.width
        self.static: list[np.ndarray] = []
        for m, board in enumerate(game.boards):
            static = np.zeros((self.scalar_start, n_cells), dtype=np.float32)
            static[planes.start("space"), board.exists] = 1.0
            static[planes.start("start"), game.starts[m]] = 1.0
            static[planes.start("target"), game.targets[m]] = 1.0
            self.static.append(static)
        # The board planes of the last (mission, pieces) seen: pieces change a few times a
        # game, observations every step.
        self._board_key: tuple[int, bytes] | None = None
        self._board = self.static[0]
        # The constant planes in three slices, each cached by what it reads: a Hero Pack, the
        # turn's progress and the game's, each of which changes a few times a game at most.
        self._seat_memo = Memo(self._seat_values)
        self._turn_memo = Memo(self._turn_values)
        self._game_memo = Memo(self._game_values)

    def _build_scalar_tables(self) -> None:
        # Per seat: one slot per feature; each slot reads one column of the Hero row
        # times a scale, or a bit of the weapons bitset, or the Hero one-hot.
        game = self.game
        n_weapons = len(game.weapon_ids)
        plain = [
            (HeroField.HEALTH, 1.0 / game.max_health),
            (HeroField.HEALING, 1.0),
            (HeroField.GOLD, 1.0 / GOLD_SCALE),
            (HeroField.LIFE_POTIONS, 1.0 / POTIONS_SCALE),
            (HeroField.SPEED_POTIONS, 1.0 / POTIONS_SCALE),
            (HeroField.TORCH, 1.0),
            (HeroField.SCEPTER, 1.0),
        ]
        self._plain = [(int(col), scale) for col, scale in plain]
        self._kills = [
            (int(HeroField.KILLS) + k, 1.0 / KILLS_SCALE) for k in range(game.n_monster_kinds)
        ]
        self._missions_scale = 1.0 / len(game.missions)
        self._weapon_bits = [
            ((i >> w) & 1) * 1.0 for i in range(1 << n_weapons) for w in range(n_weapons)
        ]
        self._n_weapons = n_weapons
        n_heroes = len(game.hero_ids)
        self._hero_onehot = [
            [1.0 if h == k else 0.0 for k in range(n_heroes)] for h in range(n_heroes)
        ]
        # The turn's constant planes: phase, die and steps left (the turn's progress), then
        # round .. store (the game's), in the order of HeroicaView's layout.
        planes, turn0 = self.planes, self.planes.start("phase")
        die0 = planes.start("die") - turn0
        self._die_at = {symbol: die0 + i for i, symbol in enumerate(DIE_SYMBOLS)}
        turn_size = planes.start("round") - turn0
        self._phase_onehot = [
            [1.0 if k == phase else 0.0 for k in range(turn_size)] for phase in Phase
        ]

    # -- observation ------------------------------------------------------------------------
    def observe(self, state: State, player: int) -> np.ndarray:
        # Board planes start from the mission's template with its pieces; the constant planes
        # are written once below, never copied as zeros first.
        obs = np.empty(self._flat_shape, dtype=np.float32)
        start = self.scalar_start
        obs[:start] = self._board_planes(state)
        rows = state.heroes.tolist()
        hero0, n = self._hero0, self._n_seats
        for seat in range(self._n_heroes):
            obs[hero0 + (seat - player) % n, rows[seat][CELL]] = 1.0
        visited = state.visited
        if visited:
            plane = obs[self._visited]  # zeros from the template
            while visited:  # a move enters a few cells: one write per set bit
                low = visited & -visited
                plane[low.bit_length() - 1] = 1.0
                visited ^= low
        if state.fight_target != NO_CELL:
            obs[self._fight_target, state.fight_target] = 1.0
        if state.selected != NO_CELL:
            obs[self._monster_selected, state.selected] = 1.0
        if state.move_back_from != NO_CELL:
            obs[self._move_back_from, state.move_back_from] = 1.0
        obs[start:] = self._scalars(state, player, rows)[:, None]
        return obs.reshape(self.shape)

    def _board_planes(self, state: State) -> np.ndarray:
        """The static planes and the piece planes of ``state`` (zeros elsewhere)."""
        key = (state.mission, state.piece.tobytes())
        if key != self._board_key:
            board = self.static[state.mission].copy()
            occupied = np.flatnonzero(state.piece)
            board[self._piece0 + state.piece[occupied].astype(np.intp), occupied] = 1.0
            self._board_key, self._board = key, board
        return self._board

    def _scalars(self, state: State, player: int, rows: list[list[int]]) -> np.ndarray:
        values = array.array("f")
        seat_memo = self._seat_memo
        n = self._n_seats
        for k in range(n):
            row = rows[(player + k) % n]
            row[CELL] = 0  # the cell has planes of its own
            values += seat_memo[tuple(row)]
        values += self._turn_memo[(state.phase, state.die, state.steps_left)]
        values += self._game_memo[
            (
                state.round,
                state.monster_player_defeats,
                state.mission,
                state.store_gold,
                state.store_weapons,
            )
        ]
        return np.frombuffer(values, dtype=np.float32)

    # Gold, potions, kills and steps have no fixed maximum: past its scale a count reads 1,
    # as the docstring says, so the planes stay in their [0, 1] space.
    def _turn_values(self, key: tuple[Phase, str, int]) -> list[float]:
        """Phase one-hot, die one-hot and steps left."""
        phase, die, steps_left = key
        values = self._phase_onehot[phase].copy()
        if die:
            values[self._die_at[die]] = 1.0
        values[-1] = min(steps_left / STEPS_SCALE, 1.0)
        return values

    def _game_values(self, key: tuple[int, int, int, int, int]) -> list[float]:
        """Round, Monster Player defeats, mission, Store gold and Store stock."""
        game = self.game
        rounds, defeats, mission, store_gold, store_weapons = key
        values = [
            min(rounds / game.max_rounds, 1.0),
            min(defeats / 2.0, 1.0),
            min(mission / max(1, len(game.missions) - 1), 1.0),
            min(max(store_gold, 0) / GOLD_SCALE, 1.0),
        ]
        nw = self._n_weapons
        store = store_weapons * nw
        return values + self._weapon_bits[store : store + nw]

    def _seat_values(self, row: tuple[int, ...]) -> list[float]:
        """One seat's constant-plane values from its Hero row, each at most 1."""
        values = [row[col] * scale for col, scale in self._plain]
        weapons = row[HeroField.WEAPONS] * self._n_weapons
        values += self._weapon_bits[weapons : weapons + self._n_weapons]
        values += [row[col] * scale for col, scale in self._kills]
        hero = row[HeroField.HERO]
        values += [
            row[HeroField.MISSIONS_WON] * self._missions_scale,
            1.0 if hero < 0 else 0.0,
            row[HeroField.DEFEATED_BY_MONSTERS] / 2.0,
        ]  # two end Battle Heroica
        values += self._hero_onehot[hero] if hero >= 0 else [0.0] * len(self._hero_onehot)
        return [min(value, 1.0) for value in values]
