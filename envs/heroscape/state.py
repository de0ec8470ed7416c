"""Heroscape game state: per-figure arrays plus a few turn scalars, cheap to copy."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
import numpy as np

from ..core.dice import Dice
from ..core.state import FlatState

NO_CELL = -1
NO_FIGURE = -1


class Phase(enum.IntEnum):
    CHOOSE_CARD = 0  # HS-5.2
    MOVE_SELECT = 1  # HS-6.2: pick the next figure to move, or end movement
    MOVE_DEST = 2  # HS-6.1: pick the destination (double-space: one of its two spaces)
    MOVE_TAIL = 3  # HS-7: a double-space figure's other space
    ATTACK_SELECT = 4  # HS-11: pick the next attacker, or end the turn
    ATTACK_TARGET = 5  # HS-12.1: pick the defender
    GAME_OVER = 6


@dataclass
class State(FlatState):
    ARRAY_DTYPES = {"cell": np.int16, "cell2": np.int16, "occupant": np.int16,
                    "moved": bool, "attacked": bool}
    PHASE = Phase

    cell: np.ndarray  # int16[F]: a figure's (first) space, NO_CELL once destroyed
    cell2: np.ndarray  # int16[F]: a double-space figure's other space, else NO_CELL
    moved: np.ndarray  # bool[F]: moved this turn (HS-6.2)
    attacked: np.ndarray  # bool[F]: attacked this turn (HS-11.2)
    occupant: np.ndarray  # int16[n_cells]: figure on each space or NO_FIGURE
    seat: int = 0
    phase: Phase = Phase.CHOOSE_CARD
    card: int = -1  # the chosen card (index into Game.cards) for this turn
    selected: int = NO_FIGURE
    destination: int = NO_CELL  # MOVE_TAIL: the space already chosen
    first_player: int = 0
    round: int = 0
    turns: int = 0
    hold_rounds: list[int] = field(default_factory=list)  # per seat, for the hold objective
    initiative: list[list[int]] = field(default_factory=list)  # skulls per player per roll-off
    winners: list[int] = field(default_factory=list)
    dice: Dice = field(default_factory=lambda: Dice(0))
