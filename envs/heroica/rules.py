"""LEGO Heroica rules engine (HE-1 ... HE-20 of ../shared/rules/heroica.md).

Static data (missions, boards padded to ``board_size``, pieces, action layout) lives on
:class:`HeroicaGame`; everything that changes lives on :class:`~envs.heroica.state.State`.
Each ``apply`` is one decision; dice are rolled inside it. The turn flow::

    START --roll--> MOVE --steps/end--> [FORWARD] --> chest -> FIGHT_CHOOSE.. -> ROCKS_CHOOSE -> END
      |  \\--heal roll (healing Hero)-----------------------------------------------------> END
      \\--fight <monster> (turn starts next to one, HE-6.10) --> FIGHT_SHIELD / MOVE_BACK ... -> END
    MOVE on a Shield, before the first step: a ranged skill (SKILL_TARGET / SKILL_STEP), the Staff,
    or the Scepter (SCEPTER_TAKE -> SCEPTER_PLACE), each instead of moving.
    Battle Heroica, Monster Player: MONSTER_SELECT -> MONSTER_MOVE -> [MONSTER_FORWARD] -> fight.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..core.actions import ActionLayout
from ..core.board import Board, Topology
from ..core.dice import Dice
from ..core.game import Event, OptionError, StandardGame
from .mission import Mission, load_mission
from .pieces import Pieces, Skill, default_pieces, load_pieces_file
from . import legal
from .state import NO_CELL, HeroField, Phase, State

PLANES = ("step", "target", "place")
DEFAULT_MISSION = "fork"
DEFAULT_BOARD_SIZE = (16, 16)


class HeroicaGame(StandardGame[State]):
    """Heroica for 2-4 seats: 1-3 Heroes, plus the Monster Player in Battle Heroica."""

    STATE = State
    RULES = legal
    GAME_OVER_PHASE = Phase.GAME_OVER

    name = "heroica"

    def __init__(
        self,
        mission: str | Mission | Sequence[str | Mission] = DEFAULT_MISSION,
        num_players: int = 2,
        heroes: Sequence[str] | None = None,
        battle: bool = False,
        max_rounds: int = 100,
        board_size: tuple[int, int] = DEFAULT_BOARD_SIZE,
        pieces: str | Path | None = None,
        store_gold: int | None = None,
    ):
        if pieces is not None and not Path(pieces).is_file():
            raise OptionError("pieces", f"no pieces file at {str(pieces)!r}")
        self.pieces: Pieces = default_pieces() if pieces is None else load_pieces_file(Path(pieces))
        self.hero_ids = tuple(self.pieces.heroes)
        self.monster_ids = tuple(self.pieces.monsters)
        self.weapon_ids = tuple(self.pieces.weapons)
        self.max_health = self.pieces.health
        if not isinstance(battle, bool):
            raise OptionError("battle", f"must be True or False, got {battle!r}")
        self.battle = battle
        if not isinstance(num_players, int) or not (2 <= num_players <= len(self.hero_ids) + battle):
            raise OptionError("num_players", f"must be 2..{len(self.hero_ids) + battle} "
                              f"{'with' if battle else 'without'} battle, got {num_players!r}")
        self.num_players = num_players
        self.num_heroes = num_players - 1 if battle else num_players
        self.monster_seat = num_players - 1 if battle else -1  # HE-20.2: plays last
        heroes = list(heroes) if heroes is not None else list(self.hero_ids[: self.num_heroes])
        for hero in heroes:
            if hero not in self.hero_ids:
                raise OptionError("heroes", f"unknown hero {hero!r}; known: {list(self.hero_ids)}")
        if len(heroes) != self.num_heroes or len(set(heroes)) != len(heroes):
            raise OptionError("heroes", f"need {self.num_heroes} different heroes (HE-3.4), got {heroes}")
        self.heroes = tuple(heroes)
        if not isinstance(max_rounds, int) or max_rounds < 1:
            raise OptionError("max_rounds", f"must be a positive integer, got {max_rounds!r}")
        self.max_rounds = max_rounds
        if store_gold is not None and (not isinstance(store_gold, int) or store_gold < 0):
            raise OptionError("store_gold", f"must be None (unlimited, HE-12.6) or gold >= 0, got {store_gold!r}")
        self.store_gold = store_gold
        mission_ids = [mission] if isinstance(mission, (str, Path, Mission)) else list(mission)
        if not mission_ids:
            raise OptionError("mission", "give at least one mission")
        if battle and len(mission_ids) > 1:
            raise OptionError("mission", "Battle Heroica plays one mission, not an Epic sequence")
        self.missions: list[Mission] = [m if isinstance(m, Mission) else load_mission(m)
                                        for m in mission_ids]
        self.height, self.width = board_size
        for m in self.missions:
            if m.board.height > self.height or m.board.width > self.width:
                raise OptionError("board_size", f"mission {m.id!r} is {m.board.height}x"
                                  f"{m.board.width}, larger than board_size {board_size}")
        self._build_piece_codes()
        self.boards = [self._padded_board(m) for m in self.missions]
        self.starts = [self._pad_cell(m, m.start) for m in self.missions]
        self.targets = [self._pad_cell(m, m.target) for m in self.missions]
        self.initial_pieces = [self._initial_pieces(m) for m in self.missions]
        self.player_names = tuple(
            self.pieces.heroes[h].name for h in self.heroes) + (("Monster Player",) if battle else ())
        n_cells = self.height * self.width
        self.source_names = ("skill",) + self.weapon_ids
        specials = ["roll", "end_move", "end_turn", "defeat", "stay", "drink_life", "drink_speed"]
        specials += [f"use_{source}" for source in self.source_names]
        specials += ["use_scepter"]
        specials += [f"buy_{w}" for w in self.weapon_ids] + [f"sell_{w}" for w in self.weapon_ids]
        specials += ["sell_scepter"]
        specials += [f"take_{k}_from_{seat}" for seat in range(num_players) for k in self.monster_ids]
        self.layout = ActionLayout.build(n_cells, PLANES, specials)
        self.buy_action = [self.layout.special(f"buy_{w}") for w in self.weapon_ids]
        self.sell_action = [self.layout.special(f"sell_{w}") for w in self.weapon_ids]
        from . import view  # observation planes depend on the layout above

        self.view = view.HeroicaView(self)
        self.observation_shape = self.view.shape

    # -- setup ----------------------------------------------------------------------------
    def _build_piece_codes(self) -> None:
        kinds = [("monster", k) for k in self.monster_ids] + [
            ("obstacle", "rocks"), ("obstacle", "chest")] + [
            ("item", k) for k in ("life_potion", "speed_potion", "torch", "scepter")]
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
        self.ROCKS, self.CHEST = self.code["rocks"], self.code["chest"]
        self.ITEMS = {self.code[k]: k for k in ("life_potion", "speed_potion", "torch", "scepter")}

    def _pad_cell(self, mission: Mission, cell: int) -> int:
        row, col = mission.board.rc(cell)
        return row * self.width + col

    def _padded_board(self, mission: Mission) -> Board:
        exists = np.zeros((self.height, self.width), dtype=bool)
        mb = mission.board
        exists[: mb.height, : mb.width] = mb.exists.reshape(mb.height, mb.width)
        return Board.create(Topology.SQUARE4, exists)

    def _initial_pieces(self, mission: Mission) -> np.ndarray:
        piece = np.zeros(self.height * self.width, dtype=np.int8)
        for cell, symbol in mission.pieces.items():
            if symbol not in self.symbol_to_piece:
                raise ValueError(f"{mission.source}: map symbol {symbol!r} is not a Heroica piece")
            piece[self._pad_cell(mission, cell)] = self.code[self.symbol_to_piece[symbol]]
        return piece

    @classmethod
    def from_scenario(cls, map: str, target: tuple[int, int], **kwargs: Any) -> tuple["HeroicaGame", State]:
        """Any position from text: see :func:`envs.heroica.position.from_scenario`."""
        from .position import from_scenario

        return from_scenario(map, target, **kwargs)

    def board_of(self, state: State) -> Board:
        return self.boards[state.mission]

    def new_state(self, seed: int | None = None, dice: Dice | None = None) -> State:
        n_fields = HeroField.KILLS + self.n_monster_kinds
        heroes = np.zeros((self.num_players, n_fields), dtype=np.int32)
        heroes[:, HeroField.HERO] = -1
        heroes[:, HeroField.CELL] = NO_CELL
        for seat, hero in enumerate(self.heroes):
            heroes[seat, HeroField.HERO] = self.hero_ids.index(hero)
        state = State(piece=self.initial_pieces[0].copy(), heroes=heroes,
                      store_weapons=(1 << len(self.weapon_ids)) - 1,
                      store_gold=-1 if self.store_gold is None else self.store_gold,
                      dice=dice if dice is not None else Dice(seed))
        self._start_mission(state, 0)
        return state

    def hero_seats(self) -> range:
        return range(self.num_heroes)

    def _start_mission(self, state: State, index: int) -> None:
        state.mission = index
        state.piece = self.initial_pieces[index].copy()
        for seat in self.hero_seats():
            hero = state.heroes[seat]
            hero[HeroField.CELL] = self.starts[index]  # HE-3.5: all share the Start
            hero[HeroField.HEALTH] = self.max_health  # HE-18.2
            hero[HeroField.HEALING] = 0
            hero[HeroField.TORCH] = 0  # HE-18.4: torches go back in the box
            hero[HeroField.KILLS:] = 0
        state.round = 0
        self._begin_turn(state, 0)

    # -- queries used by rules, skills, bots and the view --------------------------------
    def hero_cell(self, state: State, seat: int) -> int:
        return int(state.heroes[seat, HeroField.CELL])

    def hero_at(self, state: State, cell: int, exclude: int = -1) -> int:
        for seat in self.hero_seats():
            if seat != exclude and state.heroes[seat, HeroField.CELL] == cell:
                return seat
        return -1

    def adjacent_monsters(self, state: State, cell: int) -> list[int]:
        board = self.board_of(state)
        return [int(c) for c in board.neighbors[cell] if c >= 0 and self.is_monster[state.piece[c]]]

    def adjacent_rocks(self, state: State, cell: int) -> list[int]:
        board = self.board_of(state)
        return [int(c) for c in board.neighbors[cell] if c >= 0 and state.piece[c] == self.ROCKS]

    def adjacent_heroes(self, state: State, cell: int, healing_ok: bool = True) -> list[int]:
        board = self.board_of(state)
        near = set(int(c) for c in board.neighbors[cell] if c >= 0)
        return [s for s in self.hero_seats() if int(state.heroes[s, HeroField.CELL]) in near
                and (healing_ok or not state.heroes[s, HeroField.HEALING])]

    def _hero_passable(self, state: State, cell: int) -> bool:
        code = state.piece[cell]
        return not self.is_monster[code] and code != self.ROCKS

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
        found: list[int] = []
        if skill.straight:
            for direction in range(board.n_directions):
                cell = start
                for _ in range(reach):
                    cell = int(board.neighbors[cell, direction])
                    if cell < 0 or state.piece[cell] == self.ROCKS:
                        break
                    if self.is_monster[state.piece[cell]]:
                        found.append(cell)
                        break
            return sorted(found)
        # Shortest orthogonal path; it may cross Heroes and items, not rocks or other monsters.
        seen = {start: 0}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            if seen[cell] == reach:
                continue
            for nxt in board.neighbors[cell]:
                nxt = int(nxt)
                if nxt < 0 or nxt in seen or state.piece[nxt] == self.ROCKS:
                    continue
                seen[nxt] = seen[cell] + 1
                if self.is_monster[state.piece[nxt]]:
                    found.append(nxt)
                else:
                    queue.append(nxt)
        return sorted(found)

    def sword_steps(self, state: State, seat: int) -> list[int]:
        """Cells one step away from which a monster would be adjacent (HE-12.4 Sword)."""
        board = self.board_of(state)
        here = self.hero_cell(state, seat)
        return [int(c) for c in board.neighbors[here] if c >= 0 and self._skill_step_ok(state, seat, int(c))
                and self.adjacent_monsters(state, int(c))]

    def _skill_step_ok(self, state: State, seat: int, cell: int) -> bool:
        # A skill's single step may not end on another Hero (HE-5.6 would need a forward move).
        return self._hero_passable(state, cell) and self.hero_at(state, cell, exclude=seat) < 0

    def empty_cells(self, state: State) -> list[int]:
        """HE-19.3 "empty": a space with no Hero, monster, rocks or item."""
        board = self.board_of(state)
        occupied = {self.hero_cell(state, s) for s in self.hero_seats()}
        return [int(c) for c in board.spaces() if state.piece[c] == 0 and int(c) not in occupied]


    # -- primitive state changes (shared by legal.py and skills.py) ----------------------
    def _begin_turn(self, state: State, seat: int) -> None:
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
        if seat == self.monster_seat:
            state.phase = Phase.MONSTER_SELECT
        else:
            state.phase = Phase.START

    def end_turn(self, state: State, events: list[Event] | None = None) -> None:
        # ``events`` receives the round-cap draw event (it used to be dropped).
        state.turns += 1
        nxt = (state.turn_seat + 1) % self.num_players
        if nxt == 0:
            state.round += 1
            if state.round >= self.max_rounds:  # HE-4.2 default: round cap
                self._mission_over(state, winner=-1, events=events if events is not None else [])
                return
        self._begin_turn(state, nxt)
        if nxt == self.monster_seat and not self.is_monster[state.piece].any():
            self.end_turn(state, events)  # HE-20.4: no monsters left, the Monster Player skips

    def enter_end_phase(self, state: State) -> None:
        state.seat = state.turn_seat
        if state.turn_seat == self.monster_seat:
            self.end_turn(state)
        else:
            state.phase = Phase.END

    def store_can_pay(self, state: State, amount: int) -> bool:
        return state.store_gold < 0 or state.store_gold >= amount

    def gain_gold(self, state: State, seat: int, amount: int, events: list[Event], reason: str) -> None:
        """Gold from the Store; in finite mode the taker gets min(owed, stock) (HE-12.6)."""
        if state.store_gold >= 0:
            amount = min(amount, state.store_gold)
            state.store_gold -= amount
        if amount:
            state.heroes[seat, HeroField.GOLD] += amount
            events.append(Event("gold", f"{self.player_names[seat]} takes {amount} gold ({reason})", seat))

    def heal(self, state: State, seat: int, amount: int, events: list[Event], reason: str) -> None:
        hero = state.heroes[seat]
        before = int(hero[HeroField.HEALTH])
        hero[HeroField.HEALTH] = min(self.max_health, before + amount)
        if hero[HeroField.HEALTH] == self.max_health:
            hero[HeroField.HEALING] = 0  # HE-9.3/9.4: full again, moves next turn
        events.append(Event("heal", f"{self.player_names[seat]} heals {before}->"
                            f"{int(hero[HeroField.HEALTH])} ({reason})", seat))

    def damage(self, state: State, seat: int, amount: int, events: list[Event], by_monster: bool) -> None:
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
            events.append(Event("defeated", f"{self.player_names[seat]} is defeated and must heal", seat))
            if by_monster and self.battle:
                hero[HeroField.DEFEATED_BY_MONSTERS] += 1
                state.monster_player_defeats += 1
                if state.monster_player_defeats >= 2:  # HE-20.3
                    events.append(Event("win", "the Monster Player has defeated two Heroes",
                                        self.monster_seat))
                    self._finish(state, [self.monster_seat])

    def defeat_monster(self, state: State, seat: int, cell: int, events: list[Event]) -> None:
        code = int(state.piece[cell])
        kind = code - 1
        state.piece[cell] = 0
        state.heroes[seat, HeroField.KILLS + kind] += 1  # HE-6.6
        events.append(Event("defeat", f"{self.player_names[seat]} defeats the "
                            f"{self.pieces.monsters[self.monster_ids[kind]].name} at "
                            f"{self.board_of(state).label(cell)}", seat, cells=(cell,)))
        if cell == self.targets[state.mission] and seat != self.monster_seat:
            self._mission_over(state, seat, events)  # HE-16.1

    def after_fight(self, state: State, events: list[Event]) -> None:
        """HE-6.7: keep fighting after a win; then rocks (HE-5.9 order); then the turn's end."""
        if state.phase is Phase.GAME_OVER:
            return
        seat = state.turn_seat
        here = self.hero_cell(state, seat)
        alive = state.heroes[seat, HeroField.HEALTH] > 0
        if alive and state.last_fight_won and self.adjacent_monsters(state, here):
            state.phase = Phase.FIGHT_CHOOSE
            return
        if alive and state.rocks_pending and self.adjacent_rocks(state, here):
            state.phase = Phase.ROCKS_CHOOSE
            return
        state.rocks_pending = False
        self.enter_end_phase(state)

    def _mission_over(self, state: State, winner: int, events: list[Event]) -> None:
        state.mission_winners.append(winner)
        if winner >= 0:
            state.heroes[winner, HeroField.MISSIONS_WON] += 1
            events.append(Event("win", f"{self.player_names[winner]} completes mission "
                                f"'{self.missions[state.mission].name}'", winner))
        else:
            events.append(Event("draw", f"mission '{self.missions[state.mission].name}' ends after "
                                f"{self.max_rounds} rounds without a winner"))
        if self.battle:
            self._finish(state, [winner] if winner >= 0 else [])
            return
        # HE-18.3: most defeated monsters takes 1 gold (every tied player with at least one).
        kills = state.heroes[: self.num_heroes, HeroField.KILLS:].sum(axis=1)
        if kills.max() > 0:
            for seat in np.flatnonzero(kills == kills.max()):
                self.gain_gold(state, int(seat), 1, events, reason="most monsters (HE-18.3)")
        if state.mission + 1 < len(self.missions):
            self._start_mission(state, state.mission + 1)
            return
        won = state.heroes[: self.num_heroes, HeroField.MISSIONS_WON]
        best = np.flatnonzero(won == won.max())
        if won.max() == 0:
            self._finish(state, [])
            return
        if len(best) > 1:  # HE-18.1: tie -> most gold; still tied -> shared win
            gold = state.heroes[best, HeroField.GOLD]
            best = best[gold == gold.max()]
        self._finish(state, [int(s) for s in best])

    def _finish(self, state: State, winners: list[int]) -> None:
        state.winners = sorted(winners)
        state.phase = Phase.GAME_OVER
        state.seat = -1
