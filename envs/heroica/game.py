"""The static Heroica game and the primitive changes every phase uses.

:class:`HeroicaBase` holds everything fixed for one game (options, pieces, missions padded
to ``board_size``, piece codes, the action layout) and answers the questions the rules ask
(who stands where, which monsters are adjacent, which monsters a ranged skill reaches). Its
small named state changes (damage, defeat a monster, take gold, start and end turns, end a
mission) are the only places that write the turn's bookkeeping; the phases
(``envs.heroica.phases.heroes``) call them. :class:`~envs.heroica.rules.HeroicaGame` adds the
phase table, the view and the Game protocol on top.
"""

from __future__ import annotations

import enum
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.actions import ActionLayout, SlotFamily
from envs.core.board import PaddedBoard
from envs.core.game import Event, OptionError, StandardGame
from envs.core.movement import NOT_REACHED, step_counts, straight_line
from envs.core.options import is_int
from envs.heroica.data.mission import Mission, load_mission
from envs.heroica.data.pieces import (
    PIECES_FILE,
    ItemKind,
    Pieces,
    Skill,
    default_pieces,
    load_pieces_file,
)
from envs.heroica.options import HeroicaOptions
from envs.heroica.state import CELL, NO_CELL, HeroField, Phase, State


class ActionKind(enum.StrEnum):
    """The kinds of action (``DecodedAction.kind``): the cell planes, then the specials and
    slot families, in layout order; ``@handles``, masks and bots name them by member."""

    STEP = "step"
    TARGET = "target"
    PLACE = "place"

    ROLL = "roll"
    END_MOVE = "end_move"
    END_TURN = "end_turn"
    DEFEAT = "defeat"
    STAY = "stay"
    DRINK_LIFE = "drink_life"
    DRINK_SPEED = "drink_speed"
    USE = "use"
    USE_SCEPTER = "use_scepter"
    BUY = "buy"
    SELL = "sell"
    SELL_SCEPTER = "sell_scepter"
    TAKE = "take"


PLANES = (ActionKind.STEP, ActionKind.TARGET, ActionKind.PLACE)
ITEM_KINDS: tuple[ItemKind, ...] = ("life_potion", "speed_potion", "torch", "scepter")


class HeroicaBase(StandardGame[State]):
    """Heroica for 2-4 seats: 1-3 Heroes, plus the Monster Player in Battle Heroica."""

    name = "heroica"

    OPTIONS = HeroicaOptions

    def __init__(self, *args: Any, **given: Any):
        """``HeroicaGame("tunnel", num_players=3)`` or ``HeroicaGame(HeroicaOptions(...))``:
        the options of :class:`~envs.heroica.options.HeroicaOptions`."""
        self.options = opts = HeroicaOptions.of(*args, **given)
        pieces, battle, num_players = opts.pieces, opts.battle, opts.num_players
        if pieces is not None and not Path(pieces).is_file():
            raise OptionError("pieces", f"no pieces file at {str(pieces)!r}")
        self.pieces_source = PIECES_FILE if pieces is None else Path(pieces)
        self.pieces: Pieces = default_pieces() if pieces is None else load_pieces_file(Path(pieces))
        self.hero_ids = tuple(self.pieces.heroes)
        self.monster_ids = tuple(self.pieces.monsters)
        self.weapon_ids = tuple(self.pieces.weapons)
        self.weapon_specs = tuple(self.pieces.weapons.values())  # in weapon_ids order
        self.max_health = self.pieces.health
        self.battle = battle
        if not is_int(num_players) or not 2 <= num_players <= len(self.hero_ids) + battle:
            raise OptionError(
                "num_players",
                f"must be 2..{len(self.hero_ids) + battle} "
                f"{'with' if battle else 'without'} battle, got {num_players!r}",
            )
        self.num_players = num_players
        self.num_heroes = num_players - 1 if battle else num_players
        self.monster_seat = num_players - 1 if battle else -1  # HE-20.2: plays last
        heroes = list(self.hero_ids[: self.num_heroes] if opts.heroes is None else opts.heroes)
        for hero in heroes:
            if hero not in self.hero_ids:
                raise OptionError("heroes", f"unknown hero {hero!r}; known: {list(self.hero_ids)}")
        if len(heroes) != self.num_heroes or len(set(heroes)) != len(heroes):
            raise OptionError(
                "heroes", f"need {self.num_heroes} different heroes (HE-3.4), got {heroes}"
            )
        self.heroes = tuple(heroes)
        self.max_rounds = opts.max_rounds
        self.store_gold = opts.store_gold
        mission = opts.mission
        mission_ids = [mission] if isinstance(mission, (str, PathLike, Mission)) else list(mission)
        if battle and len(mission_ids) > 1:
            raise OptionError("mission", "Battle Heroica plays one mission, not an Epic sequence")
        self.missions: list[Mission] = [
            m if isinstance(m, Mission) else load_mission(m) for m in mission_ids
        ]
        self.height, self.width = board_size = opts.board_size
        for m in self.missions:
            if m.board.height > self.height or m.board.width > self.width:
                raise OptionError(
                    "board_size",
                    f"mission {m.id!r} is {m.board.height}x"
                    f"{m.board.width}, larger than board_size {board_size}",
                )
        self._build_piece_codes()
        self.padded = [PaddedBoard.create(m.board, self.height, self.width) for m in self.missions]
        self.boards = [p.board for p in self.padded]
        # Per board, each cell's spaces in direction order as plain ints: the rules ask
        # about neighbours at every decision, and numpy scalars are slow to loop over.
        self.adjacent = [
            [[int(c) for c in row if c >= 0] for row in board.neighbors] for board in self.boards
        ]
        # Per board, each cell's "(row,col)": every step's event names two cells.
        self.labels = [[board.label(c) for c in range(board.n_cells)] for board in self.boards]
        # "<name> steps (r,c)->(r,c)" by (mission, seat, from, to): playouts repeat the same
        # few hundred steps, and the f-string with two labels was a tenth of a step's cost.
        self.step_texts: dict[tuple[int, int, int, int], str] = {}
        self.roll_texts: dict[tuple[int, str, str], str] = {}
        self.starts = [p.to_padded(m.start) for p, m in zip(self.padded, self.missions)]
        self.targets = [p.to_padded(m.target) for p, m in zip(self.padded, self.missions)]
        self.initial_pieces = [
            self._initial_pieces(m, p) for m, p in zip(self.missions, self.padded)
        ]
        self.player_names = tuple(self.pieces.heroes[h].name for h in self.heroes) + (
            ("Monster Player",) if battle else ()
        )
        self.source_names = ("skill",) + self.weapon_ids
        # Flat action order (kept from v0): planes, then these slots.
        slots: list[str | SlotFamily] = [
            ActionKind.ROLL,
            ActionKind.END_MOVE,
            ActionKind.END_TURN,
            ActionKind.DEFEAT,
            ActionKind.STAY,
            ActionKind.DRINK_LIFE,
            ActionKind.DRINK_SPEED,
        ]
        slots += [SlotFamily.of(ActionKind.USE, self.source_names), ActionKind.USE_SCEPTER]
        slots += [
            SlotFamily.of(ActionKind.BUY, self.weapon_ids),
            SlotFamily.of(ActionKind.SELL, self.weapon_ids),
            ActionKind.SELL_SCEPTER,
        ]
        takes = [
            (kind, seat) for seat in range(num_players) for kind in range(len(self.monster_ids))
        ]
        slots += [
            SlotFamily.of(
                ActionKind.TAKE, [f"{self.monster_ids[k]}_from_{seat}" for k, seat in takes], takes
            )
        ]
        self.layout = ActionLayout.build(self.height * self.width, PLANES, slots, width=self.width)
        self.finish_setup()

    def finish_setup(self) -> None:
        """Called at the end of ``__init__``: the engine checks its effects and builds its view."""

    # -- setup ----------------------------------------------------------------------------
    def _build_piece_codes(self) -> None:
        kinds = (
            [("monster", k) for k in self.monster_ids]
            + [("obstacle", "rocks"), ("obstacle", "chest")]
            + [("item", k) for k in ITEM_KINDS]
        )
        self.piece_kinds = kinds  # code = index + 1; 0 = empty
        self.code = {name: i + 1 for i, (_, name) in enumerate(kinds)}
        self.n_monster_kinds = len(self.monster_ids)
        symbols = {m.symbol: k for k, m in self.pieces.monsters.items()}
        symbols.update({o.symbol: k for k, o in self.pieces.obstacles.items()})
        symbols.update({i.symbol: k for k, i in self.pieces.items.items()})
        self.symbol_to_piece = symbols
        strength = np.zeros(len(kinds) + 1, dtype=np.int32)
        for k, m in self.pieces.monsters.items():
            strength[self.code[k]] = m.strength
        self.strength = strength
        self.is_monster = strength > 0
        self.monster_code = self.is_monster.tolist()  # the same, indexed by a plain int
        self.ROCKS, self.CHEST = self.code["rocks"], self.code["chest"]
        # HE-5.1: piece code -> whether it keeps a Hero out (a monster or rocks)
        self.blocks_hero = [m or code == self.ROCKS for code, m in enumerate(self.monster_code)]
        self.ITEMS = {self.code[k]: k for k in ITEM_KINDS}

    def _initial_pieces(self, mission: Mission, padded: PaddedBoard) -> np.ndarray:
        piece = np.zeros(self.height * self.width, dtype=np.int8)
        for cell, symbol in mission.pieces.items():
            if symbol not in self.symbol_to_piece:
                raise ValueError(f"{mission.source}: map symbol {symbol!r} is not a Heroica piece")
            piece[padded.to_padded(cell)] = self.code[self.symbol_to_piece[symbol]]
        return piece

    def board_of(self, state: State):
        return self.boards[state.mission]

    def hero_seats(self) -> range:
        return range(self.num_heroes)

    def start_mission(self, state: State, index: int) -> None:
        state.mission = index
        state.piece = self.initial_pieces[index].copy()
        for seat in self.hero_seats():
            hero = state.heroes[seat]
            hero[HeroField.CELL] = self.starts[index]  # HE-3.5: all share the Start
            hero[HeroField.HEALTH] = self.max_health  # HE-18.2
            hero[HeroField.HEALING] = 0
            hero[HeroField.TORCH] = 0  # HE-18.4: torches go back in the box
            hero[HeroField.KILLS :] = 0
        state.round = 0
        self.begin_turn(state, 0)

    # -- queries --------------------------------------------------------------------------
    def hero_cell(self, state: State, seat: int) -> int:
        return state.heroes.item(seat, CELL)

    def hero_at(self, state: State, cell: int, exclude: int = -1) -> int:
        item = state.heroes.item
        for seat in range(self.num_heroes):
            if seat != exclude and item(seat, CELL) == cell:
                return seat
        return -1

    # ``piece.item(c)``: a plain int, which indexes the lists below faster than a numpy scalar.
    def adjacent_monsters(self, state: State, cell: int) -> list[int]:
        piece, monster = state.piece.item, self.monster_code
        return [c for c in self.adjacent[state.mission][cell] if monster[piece(c)]]

    def adjacent_rocks(self, state: State, cell: int) -> list[int]:
        piece, rocks = state.piece.item, self.ROCKS
        return [c for c in self.adjacent[state.mission][cell] if piece(c) == rocks]

    def next_to_blocker(self, state: State, cell: int) -> bool:
        """A monster or rocks next to ``cell``: a move stops there (HE-5.8, HE-13.2)."""
        piece, blocks = state.piece.item, self.blocks_hero
        for c in self.adjacent[state.mission][cell]:
            if blocks[piece(c)]:
                return True
        return False

    def adjacent_heroes(self, state: State, cell: int, healing_ok: bool = True) -> list[int]:
        near = set(self.adjacent[state.mission][cell])
        return [
            s
            for s in self.hero_seats()
            if int(state.heroes[s, HeroField.CELL]) in near
            and (healing_ok or not state.heroes[s, HeroField.HEALING])
        ]

    def hero_passable(self, state: State, cell: int) -> bool:
        """HE-5.1: a Hero may enter a space without a monster or rocks."""
        return not self.blocks_hero[state.piece.item(cell)]

    def skill_step_ok(self, state: State, seat: int, cell: int) -> bool:
        """A skill's single step may not end on another Hero (HE-5.6 would need a forward move)."""
        return self.hero_passable(state, cell) and self.hero_at(state, cell, exclude=seat) < 0

    def skill_of(self, seat: int, source: int) -> Skill:
        if source == 0:
            return self.pieces.heroes[self.heroes[seat]].skill
        return self.pieces.weapons[self.weapon_ids[source - 1]].skill

    def owns_source(self, state: State, seat: int, source: int) -> bool:
        return source == 0 or bool(state.heroes[seat, HeroField.WEAPONS] >> (source - 1) & 1)

    def ranged_targets(self, state: State, seat: int, skill: Skill) -> list[int]:
        """Monster cells a ranged_defeat skill reaches (HE-7.3 around corners, HE-12.4 Bow)."""
        board = self.board_of(state)
        start = self.hero_cell(state, seat)
        reach = skill.range or 0
        monsters = self.is_monster[state.piece]
        rocks = state.piece == self.ROCKS
        if skill.straight:  # the shot flies until the first monster or rocks
            found = []
            for direction in range(board.n_directions):
                line = straight_line(board, start, direction, reach, stop_at=monsters | rocks)
                if line and monsters[line[-1]]:
                    found.append(line[-1])
            return sorted(found)
        # Shortest orthogonal path; it may cross Heroes and items, not rocks or other monsters.
        counts = step_counts(board, start, ~rocks, reach, stops_after_entering=monsters)
        monster_cells = np.flatnonzero(monsters).tolist()
        return [c for c in monster_cells if counts[c] != NOT_REACHED]

    def sword_steps(self, state: State, seat: int) -> list[int]:
        """Cells one step away from which a monster would be adjacent (HE-12.4 Sword)."""
        here = self.hero_cell(state, seat)
        return [
            c
            for c in self.adjacent[state.mission][here]
            if self.skill_step_ok(state, seat, c) and self.adjacent_monsters(state, c)
        ]

    def empty_cells(self, state: State) -> list[int]:
        """HE-19.3 "empty": a space with no Hero, monster, rocks or item."""
        board = self.board_of(state)
        occupied = {self.hero_cell(state, s) for s in self.hero_seats()}
        return [int(c) for c in board.spaces() if state.piece[c] == 0 and int(c) not in occupied]

    def store_can_pay(self, state: State, amount: int) -> bool:
        return state.store_gold < 0 or state.store_gold >= amount

    def cell_name(self, state: State, cell: int) -> str:
        labels = self.labels[state.mission]
        if 0 <= cell < len(labels):
            return labels[cell]
        return self.board_of(state).label(cell)  # off the board (NO_CELL): as the board says

    def monster_name(self, state: State, cell: int) -> str:
        return self.pieces.monsters[self.monster_ids[int(state.piece[cell]) - 1]].name

    # -- turns ----------------------------------------------------------------------------
    def begin_turn(self, state: State, seat: int) -> None:
        state.turn_seat = state.seat = seat
        state.die = ""
        state.steps_left = state.steps_taken = 0
        state.visited = 0
        state.entered_from = state.last_free_cell = NO_CELL
        state.move_start = self.hero_cell(state, seat) if seat != self.monster_seat else NO_CELL
        state.fight_target = state.selected = NO_CELL
        state.skill_source = -1
        state.rocks_pending = state.torch_counted = state.monster_fought = False
        state.last_fight_won = False
        state.moving_monster = 0
        state.scepter_monster = -1
        state.move_back_from = NO_CELL
        state.phase = Phase.MONSTER_SELECT if seat == self.monster_seat else Phase.START

    def monster_player_may_play(self, state: State, seat: int) -> bool:
        # HE-20.4: with no monsters left, the Monster Player skips its turn.
        return seat != self.monster_seat or bool(self.is_monster[state.piece].any())

    def end_turn(self, state: State, events: list[Event]) -> None:
        nxt = self.next_turn(
            state,
            state.turn_seat,
            first_player=0,
            count_skipped=True,
            may_play=lambda seat: self.monster_player_may_play(state, seat),
        )
        if nxt.new_round and state.round >= self.max_rounds:  # HE-4.2 default: round cap
            self.mission_over(state, winner=-1, events=events)
            return
        self.begin_turn(state, nxt.seat)

    def enter_end_phase(self, state: State, events: list[Event]) -> None:
        """The turn's actions are over: a Hero may still shop (END); the Monster Player is done."""
        state.seat = state.turn_seat
        if state.turn_seat == self.monster_seat:
            self.end_turn(state, events)
        else:
            state.phase = Phase.END

    def after_fight(self, state: State, events: list[Event]) -> None:
        """HE-6.7: keep fighting after a win; then rocks (HE-5.9 order); then the turn's end."""
        if state.phase is Phase.GAME_OVER:
            return
        seat = state.turn_seat
        here = state.heroes.item(seat, CELL)
        alive = state.heroes.item(seat, HeroField.HEALTH) > 0
        if alive and state.last_fight_won and self.adjacent_monsters(state, here):
            state.phase = Phase.FIGHT_CHOOSE
            return
        if alive and state.rocks_pending and self.adjacent_rocks(state, here):
            state.phase = Phase.ROCKS_CHOOSE
            return
        state.rocks_pending = False
        self.enter_end_phase(state, events)

    # -- gold, health, monsters -----------------------------------------------------------
    def gain_gold(
        self, state: State, seat: int, amount: int, events: list[Event], reason: str
    ) -> None:
        """Gold from the Store; in finite mode the taker gets min(owed, stock) (HE-12.6)."""
        if state.store_gold >= 0:
            amount = min(amount, state.store_gold)
            state.store_gold -= amount
        if amount:
            state.heroes[seat, HeroField.GOLD] += amount
            events.append(
                Event("gold", f"{self.player_names[seat]} takes {amount} gold ({reason})", seat)
            )

    def heal(self, state: State, seat: int, amount: int, events: list[Event], reason: str) -> None:
        hero = state.heroes[seat]
        before = int(hero[HeroField.HEALTH])
        hero[HeroField.HEALTH] = min(self.max_health, before + amount)
        if hero[HeroField.HEALTH] == self.max_health:
            hero[HeroField.HEALING] = 0  # HE-9.3/9.4: full again, moves next turn
        events.append(
            Event(
                "heal",
                f"{self.player_names[seat]} heals {before}->"
                f"{int(hero[HeroField.HEALTH])} ({reason})",
                seat,
            )
        )

    def damage(
        self, state: State, seat: int, amount: int, events: list[Event], by_monster: bool
    ) -> None:
        hero = state.heroes[seat]
        before = int(hero[HeroField.HEALTH])
        hero[HeroField.HEALTH] = max(0, before - amount)  # HE-9.4: Health stays in 0..4
        text = f"{self.player_names[seat]} loses {before - int(hero[HeroField.HEALTH])} Health"
        if amount > 0 and hero[HeroField.TORCH]:
            hero[HeroField.TORCH] = 0  # HE-14.3
            text += " and drops the torch"
        events.append(Event("damage", text, seat, cells=(int(hero[HeroField.CELL]),)))
        if before > 0 and hero[HeroField.HEALTH] == 0:
            hero[HeroField.HEALING] = 1  # HE-9.1: temporarily defeated
            events.append(
                Event("defeated", f"{self.player_names[seat]} is defeated and must heal", seat)
            )
            if by_monster and self.battle:
                hero[HeroField.DEFEATED_BY_MONSTERS] += 1
                state.monster_player_defeats += 1
                if state.monster_player_defeats >= 2:  # HE-20.3
                    events.append(
                        Event(
                            "win", "the Monster Player has defeated two Heroes", self.monster_seat
                        )
                    )
                    self.finish(state, [self.monster_seat])

    def defeat_monster(self, state: State, seat: int, cell: int, events: list[Event]) -> None:
        code = int(state.piece[cell])
        kind = code - 1
        state.piece[cell] = 0
        state.heroes[seat, HeroField.KILLS + kind] += 1  # HE-6.6
        events.append(
            Event(
                "defeat",
                f"{self.player_names[seat]} defeats the "
                f"{self.pieces.monsters[self.monster_ids[kind]].name} at "
                f"{self.board_of(state).label(cell)}",
                seat,
                cells=(cell,),
            )
        )
        if cell == self.targets[state.mission] and seat != self.monster_seat:
            self.mission_over(state, seat, events)  # HE-16.1

    def mission_over(self, state: State, winner: int, events: list[Event]) -> None:
        state.mission_winners.append(winner)
        if winner >= 0:
            state.heroes[winner, HeroField.MISSIONS_WON] += 1
            events.append(
                Event(
                    "win",
                    f"{self.player_names[winner]} completes mission "
                    f"'{self.missions[state.mission].name}'",
                    winner,
                )
            )
        else:
            events.append(
                Event(
                    "draw",
                    f"mission '{self.missions[state.mission].name}' ends after "
                    f"{self.max_rounds} rounds without a winner",
                )
            )
        if self.battle:
            self.finish(state, [winner] if winner >= 0 else [])
            return
        # HE-18.3: most defeated monsters takes 1 gold (every tied player with at least one).
        # Plain lists: every playout ends here, and numpy's reductions cost more on 2-4 rows.
        rows = state.heroes[: self.num_heroes].tolist()
        kills = [sum(row[HeroField.KILLS :]) for row in rows]
        most = max(kills)
        if most > 0:
            for seat, k in enumerate(kills):
                if k == most:
                    self.gain_gold(state, seat, 1, events, reason="most monsters defeated")
        if state.mission + 1 < len(self.missions):
            self.start_mission(state, state.mission + 1)
            return
        won = [row[HeroField.MISSIONS_WON] for row in rows]
        most = max(won)
        if most == 0:
            self.finish(state, [])
            return
        best = [s for s, w in enumerate(won) if w == most]
        if len(best) > 1:  # HE-18.1: tie -> most gold; still tied -> shared win
            gold = state.heroes[:, HeroField.GOLD].tolist()  # gain_gold above may have changed it
            richest = max(gold[s] for s in best)
            best = [s for s in best if gold[s] == richest]
        self.finish(state, best)
