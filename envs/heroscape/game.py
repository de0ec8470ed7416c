"""The static Heroscape game: options, map tables, armies, the starting position and the rule
queries every phase asks (where a figure may move, whom it may attack).

Nothing here decides what happens next: the phases (:mod:`envs.heroscape.phases.turn`) own the decisions and
the state changes, :mod:`.rules` assembles the phase table and the view into
:class:`~envs.heroscape.rules.HeroscapeGame`. Movement searches are ``core.movement``'s
(Dijkstra with climb costs and water stops), compiled: single-space figures in :mod:`.reach`,
double-space figures in :mod:`envs.core.doublemove`;
line of sight from ``core.hexsight.HexSight``'s 3D segment test of HS-10.4 (its tables built
per pair by :mod:`envs.core.hexsight_pairs`), range from the board's all-pairs step distances (around
gaps, ignoring levels: HS-9.5).
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from envs.core.actions import ActionLayout, SlotFamily
from envs.core.dice import Dice
from envs.core.doublemove import double_destinations
from envs.core.game import GameInfo, GameView, OptionError, StandardGame
from envs.core.lru import LRU
from envs.heroscape.data.army_cards import ArmyCard
from envs.heroscape.data.scenario_file import MAX_PLAYERS, MIN_PLAYERS, Scenario, load_scenario
from envs.heroscape.dice import HEROSCAPE_COMBAT_DIE
from envs.heroscape.options import HeroscapeOptions
from envs.heroscape.reach import single_destinations
from envs.heroscape.state import NO_CELL, NO_FIGURE, Phase, State
from envs.heroscape.tables import map_tables


class ActionKind(enum.StrEnum):
    """The kinds of action (``DecodedAction.kind``): the cell planes, then the specials and
    slot families, in layout order; ``@handles``, masks and bots name them by member."""

    SELECT = "select"
    MOVE = "move"
    TAIL = "tail"
    ATTACK = "attack"

    CARD = "card"
    END_MOVEMENT = "end_movement"
    END_TURN = "end_turn"


PLANES = (ActionKind.SELECT, ActionKind.MOVE, ActionKind.TAIL, ActionKind.ATTACK)
MAX_CARDS = 4  # army cards per player (action slots card_0 .. card_3)
CARD_SLOTS = SlotFamily.of(ActionKind.CARD, [str(k) for k in range(MAX_CARDS)])
INITIATIVE_DICE = 6  # HS-4.1
# Repeats come within a turn (the same figure and occupancy asked by a bot's plan and by the
# next masks) and an occupancy seldom recurs later, so a small LRU catches them all; an entry
# (an occupancy's bytes and its destinations) is about 3 KB.
DEST_CACHE_SIZE = 256
# Targets per occupancy: the attack masks, start_attacks and a bot's attack choice ask about the
# same figures in one position; a miss leaves the position as it was.
TARGET_CACHE_SIZE = 64


class HeroscapeBase(StandardGame[State]):
    """Heroscape for 2-4 players without its phases: see the module docstring.

    Subclasses set ``phases`` (a :class:`~envs.core.flow.PhaseTable`) and ``make_view``
    (the view, built with the game at the end of ``__init__``).
    """

    STATE = State
    GAME_OVER_PHASE = Phase.GAME_OVER

    name = "heroscape"

    OPTIONS = HeroscapeOptions

    def __init__(self, *args: Any, **given: Any):
        """``HeroscapeGame("ridge_duel")`` or ``HeroscapeGame(HeroscapeOptions(...))``: the
        options of :class:`~envs.heroscape.options.HeroscapeOptions`."""
        self.options = opts = HeroscapeOptions.of(*args, **given)
        scenario, board_size = opts.scenario, opts.board_size
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        sc = self.scenario
        self.battlefield = sc.battlefield
        self.num_players = len(sc.players)
        self.height, self.width = board_size
        source = self.battlefield.board
        if source.height > self.height or source.width > self.width:
            raise OptionError(
                "board_size",
                f"battlefield {self.battlefield.id!r} is {source.height}x"
                f"{source.width}, larger than board_size {board_size}",
            )
        self.round_cap: int = sc.round_cap if opts.round_cap is None else opts.round_cap
        self.victory = str(sc.victory.type.value) if opts.victory is None else opts.victory
        self.hold_zone = sc.victory.zone if sc.victory.zone else "X"
        hold_rounds = opts.hold_rounds
        self.hold_target = hold_rounds if hold_rounds is not None else (sc.victory.rounds or 2)
        if self.victory == "hold" and not self.battlefield.zones.get(self.hold_zone):
            raise OptionError(
                "victory", f"the battlefield has no '{self.hold_zone}' spaces to hold"
            )
        tables = map_tables(self.battlefield, board_size, opts.level_height, opts.figure_radius)
        self.padded = tables.padded
        self.board, self.sight, self.climb = tables.padded.board, tables.sight, tables.climb
        self.pair_sight = tables.pair_sight
        self.water, self.distance_rows = tables.water, tables.distance_rows
        self.sight_blockers = tables.blockers
        self.steps = tables.steps
        self.levels = self.board.level.tolist()
        self._cell_names = [self.board.label(c) for c in range(self.board.n_cells)]
        self.hold_cells = self.zone_cells(self.hold_zone) if self.victory == "hold" else ()
        self._dest_cache: LRU[tuple, list[tuple[int, ...]]] = LRU(DEST_CACHE_SIZE)
        self._dest_cells: LRU[tuple, np.ndarray] = LRU(DEST_CACHE_SIZE)
        self._targets: LRU[bytes, dict[int, list[int]]] = LRU(TARGET_CACHE_SIZE)
        self._build_armies()
        self.player_names = tuple(f"player_{i}" for i in range(self.num_players))
        self.layout = ActionLayout.build(
            self.height * self.width,
            PLANES,
            [CARD_SLOTS, ActionKind.END_MOVEMENT, ActionKind.END_TURN],
            width=self.width,
        )
        self.card_members = [
            [int(f) for f in np.flatnonzero(self.fig_card == card)]
            for card in range(len(self.cards))
        ]
        self.view = self.make_view()
        self.observation_shape = self.view.shape

    def make_view(self) -> GameView[State]:
        """The observation view, built with the game at the end of ``__init__`` (the engine
        in ``rules.py`` makes its own)."""
        raise NotImplementedError

    @property
    def info(self) -> GameInfo:
        # An upper bound on the decisions of one game. One turn is at most: 1 card choice;
        # per figure of the card, select + destination + tail (3); 1 end_movement; per figure,
        # select attacker + target (2); 1 end_turn: 3 + 5 * F for a card of F figures. Players
        # without figures are skipped without a turn, so a round has at most num_players
        # turns, and the round cap ends the game after round_cap rounds.
        per_turn = 3 + 5 * max(card.figures for card in self.cards)
        return GameInfo(
            name=self.name,
            num_players=self.num_players,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            max_game_length=per_turn * self.num_players * self.round_cap,
        )

    # -- setup ----------------------------------------------------------------------------
    def zone_cells(self, zone: str) -> tuple[int, ...]:
        """The spaces of a battlefield zone, as cells of the padded board."""
        cells = self.battlefield.zones.get(zone, ())
        return tuple(self.padded.to_padded(c) for c in cells)

    def _build_armies(self) -> None:
        """Flatten armies into cards (Game.cards) and figures (per-figure static arrays)."""
        self.cards: list[ArmyCard] = []
        self.card_owner: list[int] = []
        self.player_cards: list[list[int]] = []
        owner, card_of, double, move, rng, attack, defense, height = [], [], [], [], [], [], [], []
        self.figure_label: list[str] = []
        for seat, player in enumerate(self.scenario.players):
            if len(player.army) > MAX_CARDS:
                raise OptionError(
                    "scenario", f"player {seat} has {len(player.army)} cards; at most {MAX_CARDS}"
                )
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
                    self.figure_label.append(
                        card.name if card.figures == 1 else f"{card.name} #{k + 1}"
                    )
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
        # per figure: its range as an int and the figures of the other players, for the
        # target search that every attack decision runs
        self._reach = [int(r) for r in rng]
        self._foes = [[f for f, o in enumerate(owner) if o != mine] for mine in owner]
        # owner per occupant value: NO_FIGURE (-1) reads the last entry, no owner
        self._cell_owner = np.append(self.fig_owner, np.int16(-1))
        self.n_figures = len(owner)

    def new_state(self, seed: int | None = None, dice: Dice | None = None) -> State:
        dice = dice if dice is not None else Dice(seed)
        n = self.board.n_cells
        state = State(
            cell=np.full(self.n_figures, NO_CELL, dtype=np.int16),
            cell2=np.full(self.n_figures, NO_CELL, dtype=np.int16),
            moved=np.zeros(self.n_figures, dtype=bool),
            attacked=np.zeros(self.n_figures, dtype=bool),
            occupant=np.full(n, NO_FIGURE, dtype=np.int16),
            hold_rounds=[0] * self.num_players,
            dice=dice,
        )
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
            zone = list(self.zone_cells(player.zone))
            mine = [int(f) for f in np.flatnonzero(self.fig_owner == seat)]
            doubles = [f for f in mine if self.fig_double[f]]
            for k, figure in enumerate(doubles):
                free = [c for c in zone if state.occupant[c] == NO_FIGURE]
                pairs = self._free_pairs(free)
                later = len(doubles) - k - 1
                if later:
                    pairs = [
                        p
                        for p in pairs
                        if self._has_disjoint_pairs(frozenset(free) - set(p), later)
                    ]
                if not pairs:
                    raise OptionError(
                        "scenario",
                        f"zone {player.zone} has no free same-level "
                        f"pair for {self.figure_label[figure]}",
                    )
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
        return [
            (int(a), int(b))
            for a in free
            for b in self.board.neighbors[a]
            if b > a and int(b) in free_set and self.board.level[a] == self.board.level[b]
        ]

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
            skulls = [
                sum(
                    state.dice.roll_symbol(HEROSCAPE_COMBAT_DIE) == "skull"
                    for _ in range(INITIATIVE_DICE)
                )
                if p in contenders
                else -1
                for p in range(self.num_players)
            ]
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
        levels = self.levels
        level = levels[state.cell[figure]]
        second = state.cell2[figure]
        return level if second == NO_CELL else max(level, levels[second])

    def cell_name(self, cell: int) -> str:
        return self._cell_names[cell]

    def alive(self, state: State) -> np.ndarray:
        return state.cell != NO_CELL

    def players_alive(self, state: State) -> list[int]:
        return sorted({o for o, c in zip(self._owners, state.cell.tolist()) if c != NO_CELL})

    def card_has_moved(self, state: State) -> bool:
        """Whether every living figure of the chosen card has moved (HS-5.1)."""
        cells, moved = state.cell.tolist(), state.moved.tolist()
        return all(moved[f] or cells[f] == NO_CELL for f in self.card_members[state.card])

    def card_figures(self, state: State, card: int | None = None) -> list[int]:
        """Living figures on ``card`` (default: the chosen card)."""
        cells = state.cell.tolist()
        return [
            f
            for f in self.card_members[state.card if card is None else card]
            if cells[f] != NO_CELL
        ]

    # -- movement -------------------------------------------------------------------------
    def destinations(self, state: State, figure: int) -> list[tuple[int, ...]]:
        """Legal final spaces (one cell, or a sorted pair for double-space figures).

        A pure function of the figure and the occupancy, memoised on both: a figure is asked
        about across several decisions with the same occupancy (a bot's plan at MOVE_SELECT
        and CHOOSE_CARD, the masks of MOVE_DEST and MOVE_TAIL), and the search is the costliest
        query of the game. The memo is a performance cache only.
        """
        return self._destinations((figure, state.occupant.tobytes()), state, figure)

    def _destinations(self, key: tuple, state: State, figure: int) -> list[tuple[int, ...]]:
        cached = self._dest_cache.get(key)
        if cached is None:
            if self.fig_double[figure]:
                cached = self._double_destinations(state, figure)
            else:
                cached = [(c,) for c in self._cells(key, state, figure).tolist()]
            self._dest_cache[key] = cached
        return cached

    def destination_cells(self, state: State, figure: int) -> np.ndarray:
        """Every space in some destination of ``figure`` (the cells MOVE_DEST offers), sorted,
        as an int array; memoised like :meth:`destinations`."""
        return self._cells((figure, state.occupant.tobytes()), state, figure)

    def _cells(self, key: tuple, state: State, figure: int) -> np.ndarray:
        cells = self._dest_cells.get(key)
        if cells is None:
            if self.fig_double[figure]:
                found = self._destinations(key, state, figure)
                cells = np.unique(np.array(found, dtype=np.intp))
            else:
                cells = self._single_destinations(state, figure)
            self._dest_cells[key] = cells
        return cells

    def _single_destinations(self, state: State, figure: int) -> np.ndarray:
        """``core.movement.reachable_destinations`` as one compiled call (:mod:`.reach`)."""
        return single_destinations(
            *self.steps,
            int(state.cell[figure]),
            int(self.fig_move[figure]),
            state.occupant,
            self.fig_owner,
            self.board.exists,
            self.water,
        )

    def _double_destinations(self, state: State, figure: int) -> list[tuple[int, ...]]:
        """``core.movement.reachable_double`` as ``core.doublemove``'s compiled search."""
        occupant = state.occupant
        can_end = occupant == NO_FIGURE
        passable = can_end | (self._cell_owner[occupant] == self._owners[figure])
        first, second = int(state.cell[figure]), int(state.cell2[figure])
        can_end[first] = can_end[second] = True
        return double_destinations(
            self.board.neighbors,
            self.climb,
            (first, second),
            int(self.fig_move[figure]),
            passable & self.board.exists,
            self.water,
            can_end,
            self.board.level,
        )

    def tails(self, state: State, figure: int, first: int) -> list[int]:
        """HS-7: the other space of each destination of a double-space figure that holds
        ``first``, sorted."""
        return sorted(
            b if a == first else a for a, b in self.destinations(state, figure) if first in (a, b)
        )

    # -- attacks --------------------------------------------------------------------------
    def in_range(self, state: State, attacker: int, target: int) -> bool:
        """HS-9: the shortest 2D path between any two of their spaces, levels ignored."""
        distance = self.board.distance
        reach = self.fig_range[attacker]
        return any(
            distance[a, t] <= reach
            for a in self.cells_of(state, attacker)
            for t in self.cells_of(state, target)
        )

    def can_see(
        self, state: State, attacker: int, target: int, occupant: list[int] | None = None
    ) -> bool:
        """HS-10.4: the 3D segment test; every other figure is a blocking cylinder.

        ``occupant`` is ``state.occupant.tolist()`` when the caller already has it.
        """
        return self._sees(
            attacker,
            self.cells_of(state, attacker),
            target,
            self.cells_of(state, target),
            state,
            occupant,
        )

    def _sees(
        self,
        attacker: int,
        a_cells: tuple[int, ...],
        target: int,
        t_cells: tuple[int, ...],
        state: State,
        occupant: list[int] | None,
    ) -> bool:
        """:meth:`can_see` for callers that know both figures' spaces. The terrain part and
        each space's blocking effect are precomputed per geometry by ``HexSight.blockers``,
        so a query only ORs the masks of the occupied spaces; ``PairSight`` builds each such
        table for the pair alone."""
        height_index = self.fig_height_index
        key = (a_cells, height_index[attacker], t_cells, height_index[target], self.blocker_heights)
        table = self.sight_blockers.get(key)
        if table is None:
            table = self.sight_blockers[key] = self.pair_sight.blockers(
                a_cells,
                float(self.fig_height[attacker]),
                t_cells,
                float(self.fig_height[target]),
                self.blocker_heights,
            )
        if occupant is None:
            occupant = state.occupant.tolist()
        return table.clear_among(occupant, height_index, attacker, target)

    def targets(self, state: State, attacker: int, first_only: bool = False) -> list[int]:
        """Enemy figures in range (HS-9) and sight (HS-10), by figure; ``first_only``: the
        first of them (a list of at most one).

        A pure function of the attacker and the occupancy, memoised per occupancy: the
        attack masks, ``start_attacks`` and a bot ask about the same figures in one position,
        and an attack that misses leaves it as it was. The memo is a performance cache only.
        """
        found = self._memo_targets(self._targets_here(state), state, attacker)
        return found[:1] if first_only else found[:]

    def _memo_targets(self, memo: dict[int, list[int]], state: State, attacker: int) -> list[int]:
        found = memo.get(attacker)
        if found is None:
            found = memo[attacker] = self._find_targets(state, attacker)
        return found

    def _targets_here(self, state: State) -> dict[int, list[int]]:
        """The memo of :meth:`targets` for the state's occupancy (attacker -> targets), keyed
        by the figures' spaces: the occupancy follows from them, in a few dozen bytes."""
        key = state.cell.tobytes() + state.cell2.tobytes()
        memo = self._targets.get(key)
        if memo is None:
            memo = self._targets[key] = {}
        return memo

    def _find_targets(self, state: State, attacker: int) -> list[int]:
        reach = self._reach[attacker]
        cells = state.cell.tolist()
        cells2 = state.cell2.tolist()
        first, second = cells[attacker], cells2[attacker]
        a_cells = (first,) if second == NO_CELL else (first, second)
        rows = [self.distance_rows[a] for a in a_cells]
        occupant = None
        found = []
        for target in self._foes[attacker]:
            cell = cells[target]
            if cell == NO_CELL:
                continue
            cell2 = cells2[target]
            for row in rows:  # HS-9: in range from one of its spaces to one of the target's
                if row[cell] <= reach or (cell2 != NO_CELL and row[cell2] <= reach):
                    break
            else:
                continue
            if occupant is None:
                occupant = state.occupant.tolist()
            t_cells = (cell,) if cell2 == NO_CELL else (cell, cell2)
            if self._sees(attacker, a_cells, target, t_cells, state, occupant):
                found.append(target)
        return found

    def attackers(self, state: State) -> list[int]:
        """HS-8.1: figures of the chosen card that have not attacked and have a target."""
        memo = self._targets_here(state)
        cells, attacked = state.cell.tolist(), state.attacked.tolist()
        found = []
        for figure in self.card_members[state.card]:
            if cells[figure] == NO_CELL or attacked[figure]:
                continue
            if self._memo_targets(memo, state, figure):
                found.append(figure)
        return found
