"""Per-battlefield tables: everything computed once per map and shared by every game on it in
a process (several envs, training copies): the padded board, line of sight and its blocker
tables, climbing costs, water, and step distances as nested lists for the hot loops."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.core.board import PaddedBoard
from envs.core.hexsight import HexSight, HexSightConfig
from envs.core.hexsight_pairs import PairSight
from envs.core.kernels import csr_steps
from envs.core.lru import LRU
from envs.core.movement import climb_cost
from envs.heroscape.data.battlefield import Terrain

# An env plays one map; a process seldom uses more than a few (tests, tournaments).
MAX_CACHED_MAPS = 8
# Sight tables per (attacker spaces, target spaces, heights). A miss builds the pair's table
# (PairSight, microseconds). A game's working set stays well under the bound: some 3,500 on
# the skirmish map, a few thousand in 40 4-player highlands games.
BLOCKER_CACHE_SIZE = 1 << 15


@dataclass
class MapTables:
    padded: PaddedBoard  # the battlefield's own board in the corner of the board_size grid
    sight: HexSight
    pair_sight: PairSight  # builds HexSight.blockers' tables one pair at a time
    climb: np.ndarray  # HS-6.6 / HS-6.7 step costs, read-only
    water: np.ndarray  # bool per cell: entering stops the move (HS-6.8)
    steps: tuple[np.ndarray, np.ndarray, np.ndarray]  # ``climb`` as the search kernel's CSR
    distance_rows: list[list[int]]  # board.distance as lists (range checks, HS-9)
    blockers: LRU[tuple, Any] = field(  # sight geometry -> SightBlockers
        default_factory=lambda: LRU(BLOCKER_CACHE_SIZE)
    )


_MAP_TABLES: LRU[tuple, MapTables] = LRU(MAX_CACHED_MAPS)


def shared_int_rows(matrix: np.ndarray) -> list[list[int]]:
    """``matrix.tolist()`` with one int object per distinct value: tolist() boxes every int
    above 256 anew, and the UNREACHABLE entries of a padded board alone cost megabytes."""
    seen: dict[int, int] = {}
    return [[seen.setdefault(value, value) for value in row] for row in matrix.tolist()]


def map_tables(
    battlefield: Any, board_size: tuple[int, int], level_height: float, figure_radius: float
) -> MapTables:
    """The tables of ``battlefield`` padded to ``board_size`` (cached per process)."""
    key = (battlefield.map_text(), tuple(board_size), level_height, figure_radius)
    tables = _MAP_TABLES.get(key)
    if tables is None:
        padded = PaddedBoard.create(battlefield.board, *board_size)
        board = padded.board
        climb = climb_cost(board)  # HS-6.6 / HS-6.7
        climb.setflags(write=False)  # lets the movement search reuse its list form
        sight = HexSight(
            board, HexSightConfig(level_height=level_height, figure_radius=figure_radius)
        )
        tables = MapTables(
            padded,
            sight,
            PairSight(sight),
            climb,
            board.terrain == Terrain.WATER,
            # in direction order, as core.movement's searches walk it (ties resolve alike)
            csr_steps(board.neighbors, climb, by_cost=False),
            shared_int_rows(board.distance),
        )
        _MAP_TABLES[key] = tables
    return tables
