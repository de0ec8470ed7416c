"""Game states as flat records: numpy arrays, one phase enum, dice and plain values.

Every engine keeps its dynamic state in a dataclass that mixes in :class:`FlatState`; it
gets ``copy()`` (arrays and lists copied, dice cloned) and a lossless, validated JSON form
(``to_dict`` / ``from_dict``) without writing either by hand.

A state also carries the legal mask computed for it (under ``MASK_CACHE`` in its ``__dict__``,
written by ``StandardGame.legal_mask``), so the env, bots and ``Game.apply`` ask the phase once
per state change; ``StandardGame.apply_legal`` and ``forget_mask`` drop it.
The cache is not part of the position: ``to_dict`` leaves it out, ``copy()`` shares the
(read-only) array.
"""

from __future__ import annotations

import copy as copy_module
import dataclasses
import enum
from typing import Any, ClassVar

import numpy as np

from .dice import Dice, dice_from_state


MASK_CACHE = "_legal_mask"  # the key of the cached legal mask in a state's __dict__


class FlatState:
    """Mixin for state dataclasses. Subclasses name their array fields' dtypes in
    ``ARRAY_DTYPES`` and their phase enum in ``PHASE``."""

    ARRAY_DTYPES: ClassVar[dict[str, Any]] = {}
    PHASE: ClassVar[type[enum.Enum]]
    # Every game's state has these (StandardGame reads them); declared here for type checkers.
    phase: enum.Enum
    seat: int  # who decides now (-1 once the game is over)
    round: int
    turns: int
    winners: list[int]
    _MASK: ClassVar[str] = MASK_CACHE

    def forget_mask(self) -> None:
        self.__dict__.pop(self._MASK, None)

    def copy(self):
        clone = object.__new__(type(self))
        for name, value in self.__dict__.items():
            if name == self._MASK:
                pass  # read-only, valid for the copy until either changes
            elif isinstance(value, np.ndarray):
                value = value.copy()
            elif isinstance(value, list):
                value = copy_module.deepcopy(value)
            elif isinstance(value, Dice):
                value = value.copy()
            clone.__dict__[name] = value
        return clone

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for name, value in self.__dict__.items():
            if name == self._MASK:
                continue
            if isinstance(value, np.ndarray):
                data[name] = value.tolist()
            elif isinstance(value, enum.Enum):
                data[name] = value.name
            elif isinstance(value, Dice):
                data[name] = value.get_state()
            else:
                data[name] = copy_module.deepcopy(value)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]):
        known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        if set(data) != known:
            raise ValueError(f"{cls.__module__}.{cls.__name__} dict: unknown keys "
                             f"{sorted(set(data) - known)}, missing keys {sorted(known - set(data))}")
        values = copy_module.deepcopy(dict(data))
        for name, dtype in cls.ARRAY_DTYPES.items():
            values[name] = np.asarray(data[name], dtype=dtype)
        values["phase"] = cls.PHASE[data["phase"]]
        values["dice"] = dice_from_state(data["dice"])
        return cls(**values)
