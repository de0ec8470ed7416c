"""Heroscape game state: per-figure arrays plus a few turn scalars, cheap to copy."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.dice import Dice, dice_from_state

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
class State:
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
    turns_this_round: int = 0
    hold_rounds: list[int] = field(default_factory=list)  # per seat, for the hold objective
    initiative: list[list[int]] = field(default_factory=list)  # skulls per player per roll-off
    winners: list[int] = field(default_factory=list)
    dice: Dice = field(default_factory=lambda: Dice(0))

    def copy(self) -> "State":
        clone = State.__new__(State)
        clone.__dict__.update(self.__dict__)
        for name in ("cell", "cell2", "moved", "attacked", "occupant"):
            setattr(clone, name, getattr(self, name).copy())
        clone.hold_rounds = list(self.hold_rounds)
        clone.initiative = [list(r) for r in self.initiative]
        clone.winners = list(self.winners)
        clone.dice = self.dice.copy()
        return clone

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for name, value in self.__dict__.items():
            if isinstance(value, np.ndarray):
                data[name] = value.tolist()
            elif isinstance(value, Phase):
                data[name] = value.name
            elif isinstance(value, Dice):
                data[name] = value.get_state()
            else:
                data[name] = value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        known = set(cls.__dataclass_fields__)
        if set(data) != known:
            raise ValueError(f"Heroscape state dict: unknown keys {sorted(set(data) - known)}, "
                             f"missing keys {sorted(known - set(data))}")
        values = dict(data)
        for name in ("cell", "cell2", "occupant"):
            values[name] = np.asarray(data[name], dtype=np.int16)
        for name in ("moved", "attacked"):
            values[name] = np.asarray(data[name], dtype=bool)
        values["phase"] = Phase[data["phase"]]
        values["dice"] = dice_from_state(data["dice"])
        return cls(**values)
