"""Heroica game state: small, flat and cheap to copy.

Per-cell pieces live in one int8 array (``piece[cell]`` = 0 or a piece code, HE-M.3: a cell
holds at most one monster, rocks, chest or item). Per-seat hero data lives in one int32 array
``heroes[seat, field]``. The turn's progress is a handful of scalars plus ``visited`` (a bitset
of cells entered during the current move, HE-5.1 "no space entered twice").
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.core.dice import Dice
from envs.core.state import FieldRule, FlatState, Problem
from envs.heroica.dice import DIE_SYMBOLS


class Phase(enum.IntEnum):
    """Which decision the current player faces (one decision per env step)."""

    START = 0  # shop, potions, then roll / heal roll / pick a fight (HE-4.2 (1)-(3))
    MOVE = 1  # step by step after a movement roll (HE-5); Shield options before the 1st step
    FORWARD = 2  # HE-5.6: ended on another Hero; keep stepping to a Hero-free space
    FIGHT_CHOOSE = 3  # HE-6.7: pick which adjacent monster to fight next
    FIGHT_SHIELD = 4  # HE-6.2: defeat the monster or use a melee skill
    SKILL_TARGET = 5  # a ranged skill or the Sword: pick the monster to defeat
    SKILL_STEP = 6  # Barbarian / Sword: the optional single step (HE-7.2, HE-12.4)
    MOVE_BACK = 7  # HE-6.9: choose where to move back to when several spaces qualify
    ROCKS_CHOOSE = 8  # HE-13.3: with several rocks adjacent, choose one to explore
    SCEPTER_TAKE = 9  # HE-19.3: choose whose defeated monster to take
    SCEPTER_PLACE = 10  # HE-19.3: choose the empty space to place it on
    END = 11  # HE-4.2 (4): shop, potions, end the turn
    MONSTER_SELECT = 12  # HE-20.4: the Monster Player picks a monster
    MONSTER_MOVE = 13  # HE-20.4: step the selected monster
    MONSTER_FORWARD = 14  # HE-20.5: ended on a monster or item; keep stepping
    MONSTER_FIGHT_CHOOSE = 15  # HE-20.6: several Heroes adjacent; pick one
    GAME_OVER = 16


class HeroField(enum.IntEnum):
    """Columns of ``State.heroes``; HE-15.1 lists what a Hero Pack holds."""

    HERO = 0  # index into Game.hero_ids, -1 for the Monster Player
    CELL = 1
    HEALTH = 2
    HEALING = 3
    GOLD = 4
    LIFE_POTIONS = 5
    SPEED_POTIONS = 6
    TORCH = 7
    SCEPTER = 8
    WEAPONS = 9  # bitset over Game.weapon_ids
    MISSIONS_WON = 10
    DEFEATED_BY_MONSTERS = 11  # times monster damage took this Hero to 0 (HE-20.3)
    KILLS = 12  # first of one column per monster kind (defeated monsters on the Pack)


NO_CELL = -1
# HeroField.CELL as a plain int for the hottest reads: Python 3.11's EnumType has a
# __getattr__, which puts every member lookup on the class on a slow path.
CELL = int(HeroField.CELL)


@dataclass
class State(FlatState):
    ARRAY_DTYPES = {"piece": np.int8, "heroes": np.int32}
    PHASE = Phase

    piece: np.ndarray  # int8[n_cells]
    heroes: np.ndarray  # int32[num_players, KILLS + n_monster_kinds]
    store_weapons: int  # bitset: weapons still in the Store (HE-12.5)
    store_gold: int = -1  # gold left in the Store; -1 = unlimited (HE-12.6 default)
    mission: int = 0  # index into Game.missions (Epic Heroica, HE-18)
    seat: int = 0  # who decides now
    turn_seat: int = 0  # whose turn it is
    phase: Phase = Phase.START
    die: str = ""  # symbol of the roll that governs the current phase ("" = none)
    steps_left: int = 0
    steps_taken: int = 0
    move_start: int = NO_CELL
    last_free_cell: int = NO_CELL  # last Hero-free space entered this move (HE-5.6)
    entered_from: int = NO_CELL  # where the mover came from into its current space (HE-6.9)
    visited: int = 0  # bitset of cells entered during the current move
    fight_target: int = NO_CELL  # monster (or rocks) cell being fought / explored
    skill_source: int = -1  # 0 = the Hero's own skill, 1 + w = weapon w
    selected: int = NO_CELL  # Battle: the monster the Monster Player moves
    rocks_pending: bool = False  # the move ended next to rocks: explore after fights
    last_fight_won: bool = False  # HE-6.7: keep fighting only after a win
    moving_monster: int = 0  # Battle: piece code of the monster being moved (off the board)
    torch_counted: bool = False  # the torch's +1 was already added to this move (HE-14.1)
    monster_fought: bool = False  # Battle: one fight per Monster Player turn
    scepter_monster: int = -1  # monster kind taken with the Scepter, waiting to be placed
    move_back_from: int = NO_CELL  # what the Hero moves back away from (HE-6.9)
    round: int = 0
    turns: int = 0
    monster_player_defeats: int = 0  # HE-20.3
    winners: list[int] = field(default_factory=list)
    mission_winners: list[int] = field(default_factory=list)  # seat per finished mission, -1 = none
    dice: Dice = field(default_factory=lambda: Dice(0))

    # -- what from_dict accepts (envs.core.state: field rules, then invariants) ------------
    @classmethod
    def field_rules(cls, game: Any) -> dict[str, FieldRule]:
        rules = super().field_rules(game)
        n_cells, n_kinds = game.height * game.width, len(game.piece_kinds)
        monsters, weapons = game.n_monster_kinds, len(game.weapon_ids)
        cell = FieldRule(
            low=NO_CELL,
            high=n_cells - 1,
            note=f"a cell 0..{n_cells - 1} of the {game.height}x{game.width} board, or {NO_CELL}",
        )
        columns = HERO_COLUMNS + tuple(f"kills_{m}" for m in game.monster_ids)
        # One bound per Hero Pack column; counts the rules do not bound stay within int32.
        maxima: dict[int, int] = {
            HeroField.HERO: len(game.hero_ids) - 1,
            HeroField.CELL: n_cells - 1,
            HeroField.HEALTH: game.max_health,
            HeroField.HEALING: 1,
            HeroField.TORCH: 1,
            HeroField.WEAPONS: (1 << weapons) - 1,
            HeroField.MISSIONS_WON: len(game.missions),
        }
        high = np.array([maxima.get(c, np.iinfo(np.int32).max) for c in range(len(columns))])
        # -1: the Monster Player has no Hero and no cell
        low = np.array(
            [-1 if c in (HeroField.HERO, HeroField.CELL) else 0 for c in range(len(columns))]
        )
        rules.update(
            {
                "piece": FieldRule(
                    shape=(n_cells,),
                    low=0,
                    high=n_kinds,
                    note=f"one per cell; 0 or a piece code 1..{n_kinds}",
                ),
                "heroes": FieldRule(
                    shape=(game.num_players, len(columns)),
                    low=low,
                    high=high,
                    axes=(None, columns),
                    note="one Hero Pack per seat; health at most the pieces' health",
                ),
                "store_weapons": FieldRule(
                    low=0, high=(1 << weapons) - 1, note=f"a bitset of the {weapons} weapons"
                ),
                "store_gold": (
                    FieldRule(low=-1, high=-1, note="unlimited Store gold is -1")
                    if game.store_gold is None
                    else FieldRule(low=0, note="the finite Store's gold")
                ),
                "mission": FieldRule(
                    low=0, high=len(game.missions) - 1, note=f"{len(game.missions)} mission(s)"
                ),
                "turn_seat": FieldRule(low=0, high=game.num_players - 1),
                "die": FieldRule(choices=("",) + DIE_SYMBOLS),
                "steps_left": FieldRule(low=0),
                "steps_taken": FieldRule(low=0),
                "visited": FieldRule(
                    low=0, high=(1 << n_cells) - 1, note=f"a bitset of the {n_cells} cells"
                ),
                "skill_source": FieldRule(
                    low=-1, high=weapons, note="-1, 0 (own skill) or 1 + weapon"
                ),
                "moving_monster": FieldRule(
                    low=0, high=monsters, note="0 or a monster's piece code"
                ),
                "scepter_monster": FieldRule(
                    low=-1, high=monsters - 1, note=f"-1 or a monster kind 0..{monsters - 1}"
                ),
                "monster_player_defeats": FieldRule(
                    low=0,
                    high=2 if game.battle else 0,
                    note="two defeats end Battle Heroica (HE-20.3)",
                ),
                "mission_winners": FieldRule(shape=(None,), low=-1, high=game.num_players - 1),
            }
        )
        rules.update({name: cell for name in CELL_FIELDS})
        return rules

    @classmethod
    def invariants(cls, game: Any, state: Any) -> Iterator[Problem]:
        yield from super().invariants(game, state)
        exists = game.boards[state.mission].exists
        off = np.flatnonzero((state.piece != 0) & ~exists)
        if off.size:
            yield Problem(
                "piece",
                f"= {int(state.piece[off[0]])} lies on a wall, not a space of "
                f"mission {game.missions[state.mission].id!r}",
                (int(off[0]),),
            )
        for seat in range(game.num_players):
            hero, cell = state.heroes[seat, HeroField.HERO], state.heroes[seat, HeroField.CELL]
            if seat == game.monster_seat:
                if hero != -1 or cell != NO_CELL:
                    yield Problem(
                        "heroes", "the Monster Player has no Hero and no cell (-1)", (seat,)
                    )
                continue
            plays = game.hero_ids.index(game.heroes[seat])
            if hero != plays:
                yield Problem(
                    "heroes",
                    f"= {int(hero)}: seat {seat} plays {game.heroes[seat]} (hero {plays})",
                    (seat, "hero"),
                )
            if cell < 0 or not exists[cell]:
                yield Problem(
                    "heroes",
                    f"= {int(cell)} is not a space of mission {game.missions[state.mission].id!r}",
                    (seat, "cell"),
                )
        over = state.phase is Phase.GAME_OVER
        played = len(state.mission_winners) - state.mission
        if played not in ((0, 1) if over else (0,)):
            yield Problem(
                "mission_winners",
                f"has {len(state.mission_winners)} entries in "
                f"mission {state.mission}: one per finished mission",
            )


HERO_COLUMNS = tuple(f.name.lower() for f in HeroField if f < HeroField.KILLS)
CELL_FIELDS = (
    "move_start",
    "last_free_cell",
    "entered_from",
    "fight_target",
    "selected",
    "move_back_from",
)
