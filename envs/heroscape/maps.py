"""Per-battlefield tables: everything computed once per map and shared by every game on it in
a process (several envs, training copies): the padded board, line of sight and its blocker
tables, climbing costs, water, and step distances as nested lists for the hot loops."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.board import PaddedBoard
from ..core.hexsight import HexSight, HexSightConfig
from ..core.movement import climb_cost
from .data import Terrain

MAX_CACHED_MAPS = 32


@dataclass
class MapTables:
    padded: PaddedBoard  # the battlefield's own board in the corner of the board_size grid
    sight: HexSight
    climb: np.ndarray  # HS-6.6 / HS-6.7 step costs, read-only
    water: np.ndarray  # bool per cell: entering stops the move (HS-6.8)
    distance_rows: list[list[int]]  # board.distance as lists (range checks, HS-9)
    blockers: dict[tuple, Any] = field(default_factory=dict)  # sight geometry -> SightBlockers


_MAP_TABLES: dict[tuple, MapTables] = {}


def map_tables(battlefield: Any, board_size: tuple[int, int], level_height: float,
               figure_radius: float) -> MapTables:
    """The tables of ``battlefield`` padded to ``board_size`` (cached per process)."""
    key = (battlefield.map_text(), tuple(board_size), level_height, figure_radius)
    tables = _MAP_TABLES.get(key)
    if tables is None:
        padded = PaddedBoard.create(battlefield.board, *board_size)
        board = padded.board
        climb = climb_cost(board)  # HS-6.6 / HS-6.7
        climb.setflags(write=False)  # lets the movement search reuse its list form
        sight = HexSight(board, HexSightConfig(level_height=level_height, figure_radius=figure_radius))
        tables = MapTables(padded, sight, climb, board.terrain == Terrain.WATER, board.distance.tolist())
        if len(_MAP_TABLES) > MAX_CACHED_MAPS:
            _MAP_TABLES.clear()
        _MAP_TABLES[key] = tables
    return tables
