"""HeroClix maps as the game reads them: :class:`ClixMap` (the board with its terrain, levels
and walls, the indoor squares, stairs, ladders and starting areas), the :class:`Terrain` types
and the limits every map keeps (envs/heroclix/RULES.md HC-2.5, HC-2.10, HC-5.1 to HC-5.14, R-18).

This is the model the engine, its view and the scenarios use; it is its own module because
none of them needs to know how a map is written. The map file format, its parser and renderer
and the loaders (:func:`~envs.heroclix.data.map_file.load_map`) are
:mod:`envs.heroclix.data.map_file`; the checks a map passes on load (starting areas, ladders,
stairs, every square in play) are :mod:`envs.heroclix.data.map_checks`. Cells are flat indices
``row * cols + col``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.core.board import Board
from envs.core.scenario import STRING_SOURCE

__all__ = ["EDGES", "MAX_LEVEL", "MAX_SIZE", "ClixMap", "Terrain"]

MAX_SIZE = 24
"""Most squares a map may have on a side (the env pads every map to one size)."""
MAX_LEVEL = 2
"""Highest level: 0 is the ground, 1 and 2 are elevated."""

EDGES = ("N", "E", "S", "W")
"""Map edges, clockwise from the north (row 0) edge; keys of :attr:`ClixMap.start_areas`."""


class Terrain(enum.IntEnum):
    """Terrain type of a square (HC-5.1); the values are what ``Board.terrain`` holds."""

    CLEAR = 0
    HINDERING = 1
    BLOCKING = 2
    WATER = 3  # shallow water (HC-5.13)


@dataclass(frozen=True, eq=False)
class ClixMap:
    """A loaded, validated map; arrays are flat (cell ``row * cols + col``) and read-only.

    Attributes:
        id, name, description: the file's fields.
        board: square8 :class:`~envs.core.board.Board`: every square exists; ``terrain``
            holds :class:`Terrain` values, ``level`` 0-2, ``walls`` the drawn walls.
        indoor: bool[n], indoor squares (HC-5.2 to HC-5.5).
        stairs: bool[n], stair squares (clear terrain, HC-5.8).
        ladder_to: int[n], -1 or the elevated cell a ladder square links to (HC-5.8).
        start_areas: edge (``"N"``, ``"E"``, ``"S"``, ``"W"``) -> bool[n], for the edges
            that have a starting area, in :data:`EDGES` order (HC-2.10).
        source: the file path or ``"<string>"`` (not compared by ``==``).
    """

    id: str
    name: str
    description: str
    board: Board
    indoor: np.ndarray
    stairs: np.ndarray
    ladder_to: np.ndarray
    start_areas: Mapping[str, np.ndarray]
    source: str = STRING_SOURCE

    @property
    def size(self) -> tuple[int, int]:
        """(rows, cols)."""
        return self.board.height, self.board.width

    def cell(self, row: int, col: int) -> int:
        """Flat cell index of (row, col); ValueError off the map."""
        return self.board.cell(row, col)

    def rc(self, cell: int) -> tuple[int, int]:
        """(row, col) of a flat cell index."""
        return self.board.rc(cell)

    def _key(self) -> tuple[Any, ...]:
        b = self.board
        areas = tuple((e, a.tobytes()) for e, a in self.start_areas.items())
        return (
            self.id,
            self.name,
            self.description,
            self.size,
            b.terrain.tobytes(),
            b.level.tobytes(),
            b.walls,
            self.indoor.tobytes(),
            self.stairs.tobytes(),
            self.ladder_to.tobytes(),
            areas,
        )

    def __eq__(self, other: object) -> bool:
        return self._key() == other._key() if isinstance(other, ClixMap) else NotImplemented

    def __hash__(self) -> int:
        return hash((self.id, self.size))
