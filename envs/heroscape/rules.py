"""Heroscape basic game rules engine (HS-0 ... HS-14 of ../shared/rules/heroscape.md).

Turn flow (one decision per env step)::

    CHOOSE_CARD -> MOVE_SELECT <-> MOVE_DEST [-> MOVE_TAIL] ... end_movement
                -> ATTACK_SELECT <-> ATTACK_TARGET ... end_turn -> next player's CHOOSE_CARD

Movement searches come from ``core.movement`` (Dijkstra with climb costs and water stops),
line of sight from ``core.sight.HexSight`` (the 3D segment test of HS-10.4), range from the
board's all-pairs step distances (around gaps, ignoring levels: HS-9.5).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..core.actions import ActionLayout
from ..core.board import Board, Topology
from ..core.dice import HEROSCAPE_COMBAT_DIE, Dice
from ..core.game import OptionError, StandardGame
from ..core.movement import climb_cost, reachable_destinations, reachable_double
from ..core.sight import HexSight, HexSightConfig
from .data import ArmyCard, Scenario, Terrain, load_scenario
from . import legal
from .state import NO_CELL, NO_FIGURE, Phase, State

PLANES = ("select", "move", "tail", "attack")
DEFAULT_SCENARIO = "skirmish"
DEFAULT_BOARD_SIZE = (16, 20)
MAX_CARDS = 4  # army cards per player (action slots card_0 .. card_3)
INITIATIVE_DICE = 6  # HS-4.1
DEST_CACHE_SIZE = 20_000


class HeroscapeGame(StandardGame[State]):
    """Heroscape for 2-4 players: armies of hero and squad cards on a hex battlefield."""

    STATE = State
    RULES = legal
    GAME_OVER_PHASE = Phase.GAME_OVER

    name = "heroscape"

    def __init__(self, scenario: str | Scenario = DEFAULT_SCENARIO,
                 board_size: tuple[int, int] = DEFAULT_BOARD_SIZE,
                 round_cap: int | None = None,
                 victory: str | None = None,
                 hold_rounds: int | None = None,
                 level_height: float = 1.0 / 6.0,
                 figure_radius: float = 0.3):
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        sc = self.scenario
        self.battlefield = sc.battlefield
        self.num_players = len(sc.players)
        self.height, self.width = board_size
        source = self.battlefield.board
        if source.height > self.height or source.width > self.width:
            raise OptionError("board_size", f"battlefield {self.battlefield.id!r} is {source.height}x"
                              f"{source.width}, larger than board_size {board_size}")
        self.round_cap = sc.round_cap if round_cap is None else round_cap
        if not isinstance(self.round_cap, int) or self.round_cap < 1:
            raise OptionError("round_cap", f"must be a positive integer, got {self.round_cap!r}")
        self.victory = victory if victory is not None else str(sc.victory.type.value)
        if self.victory not in ("eliminate", "hold"):
            raise OptionError("victory", f"must be 'eliminate' or 'hold', got {self.victory!r}")
        self.hold_zone = sc.victory.zone if sc.victory.zone else "X"
        if hold_rounds is not None and (not isinstance(hold_rounds, int) or isinstance(hold_rounds, bool)
                                        or hold_rounds < 1):
            raise OptionError("hold_rounds", f"must be a positive integer or None, got {hold_rounds!r}")
        self.hold_target = hold_rounds if hold_rounds is not None else (sc.victory.rounds or 2)
        self.hold_cells = self._zone_cells(self.hold_zone) if self.victory == "hold" else ()
        if self.victory == "hold" and not self.hold_cells:
            raise OptionError("victory", f"the battlefield has no '{self.hold_zone}' spaces to hold")
        for option, value in (("level_height", level_height), ("figure_radius", figure_radius)):
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
                raise OptionError(option, f"must be a positive number, got {value!r}")
        if figure_radius >= 0.5:
            raise OptionError("figure_radius", f"must be below 0.5 (half a hex), got {figure_radius!r}")
        tables = _map_tables(self.battlefield, board_size, float(level_height), float(figure_radius))
        self.board, self.sight, self.climb = tables.board, tables.sight, tables.climb
        self.water, self._distance_rows = tables.water, tables.distance_rows
        self._blockers = tables.blockers
        self._dest_cache: dict[tuple, list[tuple[int, ...]]] = {}
        self._build_armies()
        self.player_names = tuple(f"player_{i}" for i in range(self.num_players))
        specials = [f"card_{k}" for k in range(MAX_CARDS)] + ["end_movement", "end_turn"]
        self.layout = ActionLayout.build(self.height * self.width, PLANES, specials)
        self.card_actions = [self.layout.special(f"card_{k}") for k in range(MAX_CARDS)]
        self.card_members = [[int(f) for f in np.flatnonzero(self.fig_card == card)]
                             for card in range(len(self.cards))]
        from .view import HeroscapeView

        self.view = HeroscapeView(self)
        self.observation_shape = self.view.shape

    # -- setup ----------------------------------------------------------------------------
    def _zone_cells(self, zone: str) -> tuple[int, ...]:
        cells = self.battlefield.zones.get(zone, ())
        return tuple(self._pad_cell(c) for c in cells)

    def _pad_cell(self, cell: int) -> int:
        row, col = divmod(int(cell), self.battlefield.board.width)
        return row * self.width + col

    def _build_armies(self) -> None:
        """Flatten armies into cards (Game.cards) and figures (per-figure static arrays)."""
        self.cards: list[ArmyCard] = []
        self.card_owner: list[int] = []
        self.player_cards: list[list[int]] = []
        owner, card_of, double, move, rng, attack, defense, height = [], [], [], [], [], [], [], [], 
        self.figure_label: list[str] = []
        for seat, player in enumerate(self.scenario.players):
            if len(player.army) > MAX_CARDS:
                raise OptionError("scenario", f"player {seat} has {len(player.army)} cards; at most {MAX_CARDS}")
            mine = []
            for card in player.army:
                index = len(self.cards)
                self.cards.append(card)
                self.card_owner.append(seat)
                mine.append(index)
                for k in range(card.figures):
                    owner.append(seat)
                    card_of.append(index)
                    double.append(card.double_space)
                    move.append(card.move)
                    rng.append(card.range)
                    attack.append(card.attack)
                    defense.append(card.defense)
                    height.append(card.height)
                    self.figure_label.append(card.name if card.figures == 1 else f"{card.name} #{k + 1}")
            self.player_cards.append(mine)
        self.fig_owner = np.array(owner, dtype=np.int16)
        self.fig_card = np.array(card_of, dtype=np.int16)
        self.fig_double = np.array(double, dtype=bool)
        self.fig_move = np.array(move, dtype=np.int16)
        self.fig_range = np.array(rng, dtype=np.int16)
        self.fig_attack = np.array(attack, dtype=np.int16)
        self.fig_defense = np.array(defense, dtype=np.int16)
        self.fig_height = np.array(height, dtype=np.float64)
        self.blocker_heights = tuple(sorted(set(float(h) for h in height)))
        self.fig_height_index = [self.blocker_heights.index(float(h)) for h in height]
        self._owners = [int(o) for o in owner]
        self.n_figures = len(owner)

    def new_state(self, seed: int | None = None, dice: Dice | None = None) -> State:
        dice = dice if dice is not None else Dice(seed)
        n = self.board.n_cells
        state = State(cell=np.full(self.n_figures, NO_CELL, dtype=np.int16),
                      cell2=np.full(self.n_figures, NO_CELL, dtype=np.int16),
                      moved=np.zeros(self.n_figures, dtype=bool),
                      attacked=np.zeros(self.n_figures, dtype=bool),
                      occupant=np.full(n, NO_FIGURE, dtype=np.int16),
                      hold_rounds=[0] * self.num_players, dice=dice)
        self._deploy(state)
        state.first_player = self._roll_initiative(state)
        state.seat = state.first_player
        state.phase = Phase.CHOOSE_CARD
        return state

    def _deploy(self, state: State) -> None:
        """HS-1.4 default: random placements inside each player's start zone.

        Double-space figures go first, each on a random free same-level pair that leaves
        enough disjoint pairs for the double-space figures still to come; the single-space
        figures then take random free spaces (the scenario checks that they fit).
        """
        for seat, player in enumerate(self.scenario.players):
            zone = list(self._zone_cells(player.zone))
            mine = [int(f) for f in np.flatnonzero(self.fig_owner == seat)]
            doubles = [f for f in mine if self.fig_double[f]]
            for k, figure in enumerate(doubles):
                free = [c for c in zone if state.occupant[c] == NO_FIGURE]
                pairs = self._free_pairs(free)
                later = len(doubles) - k - 1
                if later:
                    pairs = [p for p in pairs
                             if self._has_disjoint_pairs(frozenset(free) - set(p), later)]
                if not pairs:
                    raise OptionError("scenario", f"zone {player.zone} has no free same-level "
                                      f"pair for {self.figure_label[figure]}")
                a, b = pairs[state.dice.choice(len(pairs))]
                self.place(state, figure, a, b)
            for figure in mine:
                if self.fig_double[figure]:
                    continue
                free = [c for c in zone if state.occupant[c] == NO_FIGURE]
                if not free:
                    raise OptionError("scenario", f"zone {player.zone} is full")
                self.place(state, figure, free[state.dice.choice(len(free))])

    def _free_pairs(self, free) -> list[tuple[int, int]]:
        """Adjacent same-level pairs (a < b) of the spaces ``free`` (HS-7.2)."""
        free_set = set(int(c) for c in free)
        return [(int(a), int(b)) for a in free for b in self.board.neighbors[a]
                if b > a and int(b) in free_set and self.board.level[a] == self.board.level[b]]

    def _has_disjoint_pairs(self, cells: frozenset, need: int) -> bool:
        """Whether ``cells`` hold ``need`` disjoint adjacent same-level pairs."""
        if need == 0:
            return True
        pairs = self._free_pairs(sorted(cells))
        if len(pairs) < need:
            return False
        first = min(c for pair in pairs for c in pair)
        for a, b in pairs:
            if first in (a, b) and self._has_disjoint_pairs(cells - {a, b}, need - 1):
                return True
        return self._has_disjoint_pairs(cells - {first}, need)

    def _roll_initiative(self, state: State) -> int:
        """HS-4.1..4.3: six combat dice each; most skulls goes first; only the tied re-roll."""
        contenders = list(range(self.num_players))
        while True:
            skulls = [sum(state.dice.roll_symbol(HEROSCAPE_COMBAT_DIE) == "skull"
                          for _ in range(INITIATIVE_DICE)) if p in contenders else -1
                      for p in range(self.num_players)]
            state.initiative.append(skulls)
            best = max(skulls)
            contenders = [p for p in contenders if skulls[p] == best]
            if len(contenders) == 1:
                return contenders[0]

    # -- figure geometry ------------------------------------------------------------------
    def place(self, state: State, figure: int, cell: int, cell2: int = NO_CELL) -> None:
        for old in (state.cell[figure], state.cell2[figure]):
            if old != NO_CELL and state.occupant[old] == figure:
                state.occupant[old] = NO_FIGURE
        state.cell[figure] = cell
        state.cell2[figure] = cell2
        for new in (cell, cell2):
            if new != NO_CELL:
                if state.occupant[new] != NO_FIGURE:
                    raise ValueError(f"space {self.cell_name(new)} is already occupied")
                state.occupant[new] = figure

    def remove(self, state: State, figure: int) -> None:
        for old in (state.cell[figure], state.cell2[figure]):
            if old != NO_CELL:
                state.occupant[old] = NO_FIGURE
        state.cell[figure] = state.cell2[figure] = NO_CELL

    def cells_of(self, state: State, figure: int) -> tuple[int, ...]:
        a, b = int(state.cell[figure]), int(state.cell2[figure])
        return (a,) if b == NO_CELL else (a, b)

    def base_level(self, state: State, figure: int) -> int:
        """HS-12.4: a double-space figure uses its higher space."""
        return int(max(self.board.level[c] for c in self.cells_of(state, figure)))

    def cell_name(self, cell: int) -> str:
        return self.board.label(cell)

    def alive(self, state: State) -> np.ndarray:
        return state.cell != NO_CELL

    def players_alive(self, state: State) -> list[int]:
        return sorted(set(int(o) for o in self.fig_owner[self.alive(state)]))

    # -- movement -------------------------------------------------------------------------
    def destinations(self, state: State, figure: int) -> list[tuple[int, ...]]:
        """Legal final spaces (one cell, or a sorted pair for double-space figures).

        Memoised per (figure, occupancy): the mask and the move itself ask the same question.
        """
        key = (figure, state.occupant.tobytes())
        cached = self._dest_cache.get(key)
        if cached is None:
            if len(self._dest_cache) > DEST_CACHE_SIZE:
                self._dest_cache.clear()
            cached = self._dest_cache[key] = self._search_destinations(state, figure)
        return cached

    def _search_destinations(self, state: State, figure: int) -> list[tuple[int, ...]]:
        owner = self.fig_owner[figure]
        occupant = state.occupant
        occupied = occupant != NO_FIGURE
        enemy = occupied & (self.fig_owner[np.maximum(occupant, 0)] != owner)
        own = self.cells_of(state, figure)
        can_end = ~occupied
        can_end[list(own)] = True
        if not self.fig_double[figure]:
            return [(c,) for c in reachable_destinations(
                self.board, own[0], int(self.fig_move[figure]), self.climb, ~enemy, self.water, can_end)]
        reach2 = reachable_double(self.board, own, int(self.fig_move[figure]), step_cost=self.climb,
                                  can_enter=~enemy, stops_after_entering=self.water, can_end=can_end)
        return [tuple(pair) for pair in reach2.destinations()]

    # -- attacks --------------------------------------------------------------------------
    def in_range(self, state: State, attacker: int, target: int) -> bool:
        """HS-9: the shortest 2D path between any two of their spaces, levels ignored."""
        distance = self.board.distance
        reach = self.fig_range[attacker]
        return any(distance[a, t] <= reach for a in self.cells_of(state, attacker)
                   for t in self.cells_of(state, target))

    def can_see(self, state: State, attacker: int, target: int,
                occupant: list[int] | None = None) -> bool:
        """HS-10.4: the 3D segment test; every other figure is a blocking cylinder.

        The terrain part and each space's blocking effect are precomputed per geometry by
        ``HexSight.blockers``, so a query only ORs the masks of the occupied spaces.
        ``occupant`` is ``state.occupant.tolist()`` when the caller already has it.
        """
        a_cells, t_cells = self.cells_of(state, attacker), self.cells_of(state, target)
        key = (a_cells, self.fig_height_index[attacker], t_cells, self.fig_height_index[target],
               self.blocker_heights)
        table = self._blockers.get(key)
        if table is None:
            table = self._blockers[key] = self.sight.blockers(
                a_cells, float(self.fig_height[attacker]), t_cells, float(self.fig_height[target]),
                self.blocker_heights)
        if not table.clear_segments:
            return False
        if occupant is None:
            occupant = state.occupant.tolist()
        height_index = self.fig_height_index
        return table.clear((cell, height_index[figure]) for cell in table.masks
                           if (figure := occupant[cell]) != NO_FIGURE and figure != attacker
                           and figure != target)

    def targets(self, state: State, attacker: int, first_only: bool = False) -> list[int]:
        """Enemy figures in range (HS-9) and sight (HS-10); ``first_only`` stops at one."""
        owner = int(self.fig_owner[attacker])
        reach = int(self.fig_range[attacker])
        cells = state.cell.tolist()
        cells2 = state.cell2.tolist()
        a_cells = [c for c in (cells[attacker], cells2[attacker]) if c != NO_CELL]
        distance = self._distance_rows
        occupant = None
        found = []
        for target, cell in enumerate(cells):
            if cell == NO_CELL or self._owners[target] == owner:
                continue
            t_cells = (cell,) if cells2[target] == NO_CELL else (cell, cells2[target])
            if not any(distance[a][t] <= reach for a in a_cells for t in t_cells):  # HS-9
                continue
            if occupant is None:
                occupant = state.occupant.tolist()
            if self.can_see(state, attacker, target, occupant):
                found.append(target)
                if first_only:
                    break
        return found


    @classmethod
    def from_scenario(cls, scenario: str | Scenario, placements: dict[str, Sequence[int]] | None = None,
                      **kwargs: Any) -> tuple["HeroscapeGame", State]:
        """Any position: see :func:`envs.heroscape.position.from_scenario`."""
        from .position import from_scenario

        return from_scenario(scenario, placements, **kwargs)


@dataclass
class _MapTables:
    """Everything computed once per battlefield, shared by every game on it in a process
    (several envs, training copies): the padded board, sight and its blocker tables, costs."""

    board: Board
    sight: HexSight
    climb: np.ndarray
    water: np.ndarray
    distance_rows: list[list[int]]
    blockers: dict[tuple, Any] = field(default_factory=dict)


_MAP_TABLES: dict[tuple, _MapTables] = {}


def _map_tables(battlefield: Any, board_size: tuple[int, int], level_height: float,
                figure_radius: float) -> _MapTables:
    key = (battlefield.map_text(), tuple(board_size), level_height, figure_radius)
    tables = _MAP_TABLES.get(key)
    if tables is None:
        board = _pad(battlefield.board, *board_size)
        climb = climb_cost(board)  # HS-6.6 / HS-6.7
        climb.setflags(write=False)  # lets the movement search reuse its list form
        sight = HexSight(board, HexSightConfig(level_height=level_height, figure_radius=figure_radius))
        tables = _MapTables(board, sight, climb, board.terrain == Terrain.WATER, board.distance.tolist())
        if len(_MAP_TABLES) > 32:
            _MAP_TABLES.clear()
        _MAP_TABLES[key] = tables
    return tables


def _pad(board: Board, height: int, width: int) -> Board:
    """The same battlefield on a larger grid; odd-r rows keep their parity, so hex
    adjacency is unchanged."""
    exists = np.zeros((height, width), dtype=bool)
    terrain = np.zeros((height, width), dtype=np.int8)
    level = np.zeros((height, width), dtype=np.int16)
    exists[: board.height, : board.width] = board.exists.reshape(board.height, board.width)
    terrain[: board.height, : board.width] = board.terrain.reshape(board.height, board.width)
    level[: board.height, : board.width] = board.level.reshape(board.height, board.width)
    return Board.create(Topology.HEX, exists, terrain, level)
