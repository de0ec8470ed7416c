"""HeroClix's map as it stands in a game: the static tables of the map padded to the board
(walls, lines of fire, distances, start areas, stairs and ladders) and the terrain questions
that depend on what has broken so far (HC-5.16, HC-5.17): neighbours, adjacency (HC-3.13),
hindering squares, knockback paths (HC-4.9-4.13).

:class:`MapTerrain` is one part of :class:`~envs.heroclix.game.HeroclixBase`; the static
tables take the state's masks, so nothing is rebuilt when a wall breaks.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from envs.core.adjacency import adjacency_table
from envs.core.board import Board, PaddedBoard
from envs.core.firelines import FireLines
from envs.core.game import OptionError
from envs.core.knockback import Knockback, compass_direction, knockback
from envs.core.lru import LRU, named_lru
from envs.core.modemove import touching_table
from envs.core.tokens import TokenLayer
from envs.core.walls import WallGeometry
from envs.heroclix.data.maps import ClixMap, Terrain
from envs.heroclix.state import NO_CELL, SOAR, State


@lru_cache(maxsize=16)
def _map_tables(clix_map: ClixMap, board_size: tuple[int, int]) -> tuple[Any, ...]:
    """Per-map tables shared by every game on the map in a process."""
    padded = PaddedBoard.create(clix_map.board, *board_size)
    board = padded.board
    walls = WallGeometry(board)
    fire = FireLines(board, walls)
    rows, cols = np.divmod(np.arange(board.n_cells), board.width)
    chebyshev = np.maximum(
        np.abs(rows[:, None] - rows[None, :]), np.abs(cols[:, None] - cols[None, :])
    ).astype(np.int16)
    chebyshev.setflags(write=False)
    return padded, walls, fire, chebyshev


def _pad_mask(padded: PaddedBoard, mask: np.ndarray) -> np.ndarray:
    out = np.zeros(padded.board.n_cells, dtype=mask.dtype)
    for cell in np.flatnonzero(mask):
        out[padded.to_padded(int(cell))] = mask[cell]
    out.setflags(write=False)
    return out


ADJACENT_MEMO_SIZE = 512  # positions whose adjacencies are kept; a mask asks about one
HINDERING_MEMO_SIZE = 64  # terrain states (rubble, objects, smoke) whose hindering is kept


class MapTerrain:
    """The map's tables and the terrain as it stands now."""

    map: ClixMap
    objects: TokenLayer
    n_figures: int
    caches: dict[str, Any]

    def flies(self, state: State, figure: int) -> bool:
        raise NotImplementedError  # the dial's part (envs.heroclix.dials)

    def side(self, state: State, figure: int) -> int:
        raise NotImplementedError  # the game's (envs.heroclix.game)

    def _build_terrain(self, board_size: tuple[int, int] | None) -> None:
        """The map padded to ``board_size`` (None: the map's own size) and its tables."""
        source = self.map.board
        self.height, self.width = (
            (source.height, source.width) if board_size is None else board_size
        )
        if source.height > self.height or source.width > self.width:
            raise OptionError(
                "board_size",
                f"map {self.map.id!r} is {source.height}x"
                f"{source.width}, larger than board_size {board_size}",
            )
        self.padded, self.walls, self.fire, self.chebyshev = _map_tables(
            self.map, (self.height, self.width)
        )
        self.board: Board = self.padded.board
        self.n_cells = self.board.n_cells
        terrain = self.board.terrain
        self.static_hindering = terrain == Terrain.HINDERING  # for lines of fire (HC-5.13)
        self.water = terrain == Terrain.WATER
        self.static_blocking = (terrain == Terrain.BLOCKING) | ~self.board.exists
        self.indoor = _pad_mask(self.padded, self.map.indoor)
        self.stairs = _pad_mask(self.padded, self.map.stairs)
        ladder = np.full(self.n_cells, -1, dtype=np.int32)
        for cell in np.flatnonzero(self.map.ladder_to >= 0):
            ladder[self.padded.to_padded(int(cell))] = self.padded.to_padded(
                int(self.map.ladder_to[cell])
            )
        self.ladder_to = ladder
        self.start_areas = {
            edge: _pad_mask(self.padded, area) for edge, area in self.map.start_areas.items()
        }
        self.start_area_any = np.any(list(self.start_areas.values()), axis=0)
        self._adjacency_cache: LRU[bytes, np.ndarray] = LRU(64)  # per terrain state
        self.touching = touching_table(self.board)  # soaring adjacency (HC-3.13)

    def cell_label(self, cell: int) -> str:
        row, col = divmod(int(cell), self.width)
        return f"({row},{col})"

    def break_wall(self, state: State, wall: int) -> None:
        """HC-5.16/5.17: the wall is gone; both its squares are hindering from now on."""
        state.walls_intact[wall] = False
        state.rubble[self.walls.edges[wall]] = True

    # -- terrain as it stands now ---------------------------------------------------------
    def neighbors(self, state: State) -> np.ndarray:
        return self.walls.neighbors(state.walls_intact)

    def adjacency(self, state: State) -> np.ndarray:
        """HC-3.13 adjacency for non-soaring figures under the walls and blocking squares
        standing now (cached per terrain state)."""
        key = state.walls_intact.tobytes() + state.blocking.tobytes()
        table = self._adjacency_cache.get(key)
        if table is None:
            table = adjacency_table(self.board, state.blocking, neighbors=self.neighbors(state))
            table.setflags(write=False)  # read-only: squares_next_to keeps its reverse index
            self._adjacency_cache[key] = table
        return table

    def hindering(self, state: State, *, movement: bool) -> np.ndarray:
        """Hindering squares now: terrain, rubble (HC-5.17), unheld objects (HC-6.3) and
        Smoke Cloud markers (P-ATT-8); shallow water hinders movement only (HC-5.13).
        Read-only: asked several times a decision, the last answers are kept by what they
        read."""
        key = (movement, state.rubble.tobytes(), state.objects.tobytes(), state.smoke.tobytes())
        memo = named_lru(self.caches, "hindering", HINDERING_MEMO_SIZE)
        mask = memo.get(key)
        if mask is None:
            mask = (
                self.static_hindering
                | state.rubble
                | self.objects.lying(state.objects)
                | (state.smoke >= 0)
            )
            if movement:
                mask |= self.water
            mask.setflags(write=False)
            memo[key] = mask
        return mask

    def is_adjacent(self, state: State, a: int, b: int) -> bool:
        """HC-3.13 between two figures, flight modes included."""
        soar_a, soar_b = state.mode[a] == SOAR, state.mode[b] == SOAR
        if soar_a != soar_b:
            return False
        ca, cb = int(state.cell[a]), int(state.cell[b])
        row = self.touching[ca] if soar_a else self.adjacency(state)[ca]
        return cb in row.tolist()

    def adjacent_figures(self, state: State, figure: int) -> list[int]:
        """Figures adjacent to ``figure`` (HC-3.13), ascending: on the squares of its
        adjacency row, in the same flight class (soaring with soaring only)."""
        # A mask asks this of the same figure several times (breakaway, close targets, shots,
        # terrain); the answer is kept by everything it reads.
        key = (
            figure,
            state.cell.tobytes(),
            state.occupant.tobytes(),
            state.mode.tobytes(),
            state.walls_intact.tobytes(),
            state.blocking.tobytes(),
        )
        memo = named_lru(self.caches, "adjacent_figures", ADJACENT_MEMO_SIZE)
        found = memo.get(key)
        if found is None:
            cell = int(state.cell[figure])
            soaring = state.mode[figure] == SOAR
            row = self.touching[cell] if soaring else self.adjacency(state)[cell]
            near = []
            for there in row.tolist():
                if there >= 0:
                    other = int(state.occupant[there])
                    if other >= 0 and (state.mode[other] == SOAR) == soaring:
                        near.append(other)
            found = memo[key] = tuple(sorted(near))
        return list(found)

    def adjacent_enemies(self, state: State, figure: int) -> list[int]:
        side = self.side(state, figure)
        return [e for e in self.adjacent_figures(state, figure) if self.side(state, e) != side]

    def knockback_path(
        self, state: State, target: int, source_cell: int, distance: int
    ) -> Knockback:
        """HC-4.9-4.13: straight away from ``source_cell`` under today's terrain."""
        cell = int(state.cell[target])
        direction = compass_direction(self.board, source_cell, cell)
        soaring = state.mode[target] == SOAR
        others = (state.cell != NO_CELL) & (np.arange(self.n_figures) != target)
        occupied = np.zeros(self.n_cells, dtype=bool)
        occupied[state.cell[others & (state.mode == SOAR) if soaring else others]] = True
        no_end = None
        if soaring:  # over ground figures and blocking terrain, never onto them (HC-3.29)
            no_end = state.blocking.copy()
            no_end[state.cell[others]] = True
        return knockback(
            self.board,
            cell,
            direction,
            distance,
            blocking=state.blocking,
            occupied=occupied,
            flyer=self.flies(state, target),
            soaring=bool(soaring),
            may_not_end=no_end,
            neighbors=self.neighbors(state),
        )
