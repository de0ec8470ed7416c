"""HeroClix dice: six-sided, rolled one at a time (breakaway HC-3.23, powers) or two at a
time (attacks HC-4.2, the setup rolls HC-2.6 and HC-2.11)."""

from __future__ import annotations

from envs.core.dice import DieSpec
from envs.heroclix.state import State

D6 = DieSpec("d6", ("1", "2", "3", "4", "5", "6"))


def roll_d6(state: State) -> int:
    return state.dice.roll(D6) + 1


def roll_2d6(state: State) -> tuple[int, int]:
    return roll_d6(state), roll_d6(state)
