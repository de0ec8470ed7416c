"""Tokens on the map: things that are not figures but lie on squares and can be picked up,
moved or destroyed (HeroClix objects, HC-6).

A token layer is the static list of tokens (their kinds) plus one dynamic int array the game
keeps in its state, ``where[token]``:

* ``>= 0``: the cell the token lies on. Tokens may share a square with a figure; several may
  share one square (a holder KO'd on an object's square drops its own there, HC-6.10);
* :data:`HELD` (-1): a figure holds it; the game tracks which (a held object is not terrain,
  HC-6.3);
* :data:`GONE` (-2): destroyed or used up (HC-6.4, HC-6.9), for the rest of the game.

:meth:`TokenLayer.lying` gives the squares holding a token as a mask, which the game ORs into
its hindering mask (unheld objects are hindering terrain, HC-6.3). Conservation is checkable:
every token is always in exactly one of the three states, and :meth:`TokenLayer.check` says
which ``where`` arrays are valid. Pure numpy; no game rules beyond that.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["GONE", "HELD", "TokenLayer"]

HELD = -1
GONE = -2


class TokenLayer:
    """Static description of a game's tokens: ``kinds[token]`` is a small int code the game
    defines (e.g. 0 light, 1 heavy object); ``names[token]`` labels it for text and errors."""

    def __init__(self, kinds: Sequence[int], names: Sequence[str], n_cells: int) -> None:
        if len(kinds) != len(names):
            raise ValueError(f"{len(kinds)} token kinds but {len(names)} names")
        self.kinds = np.asarray(kinds, dtype=np.int8)
        self.kinds.setflags(write=False)
        self.names = tuple(names)
        self.n_cells = int(n_cells)
        self._last_lying: tuple[bytes, int | None, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.names)

    def new_where(self, cells: Sequence[int]) -> np.ndarray:
        """The dynamic array for tokens starting on ``cells`` (one per token)."""
        where = np.asarray(cells, dtype=np.int16)
        self.check(where)
        return where

    def check(self, where: np.ndarray) -> None:
        """Raise ValueError unless ``where`` has one valid entry per token."""
        if where.shape != (len(self),):
            raise ValueError(f"token positions have shape {where.shape}, expected ({len(self)},)")
        bad = (where < GONE) | (where >= self.n_cells)
        if bad.any():
            token = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"token {self.names[token]!r} has position {int(where[token])}: "
                f"not a cell of 0..{self.n_cells - 1}, HELD ({HELD}) or GONE ({GONE})"
            )

    def lying(self, where: np.ndarray, kind: int | None = None) -> np.ndarray:
        """bool[n_cells], read-only: squares with at least one unheld token (of ``kind`` if
        given)."""
        # Asked several times per decision of positions where no token moved: the last
        # answer is kept by the positions it was made from.
        key = where.tobytes()
        last = self._last_lying
        if last is not None and last[0] == key and last[1] == kind:
            return last[2]
        mask = np.zeros(self.n_cells, dtype=bool)
        chosen = where >= 0
        if kind is not None:
            chosen &= self.kinds == kind
        mask[where[chosen]] = True
        mask.setflags(write=False)
        self._last_lying = (key, kind, mask)
        return mask

    def at(self, where: np.ndarray, cell: int) -> list[int]:
        """Tokens lying on ``cell``, lowest index first."""
        return [int(t) for t in np.flatnonzero(where == cell)]

    def on_map(self, where: np.ndarray) -> list[int]:
        """Tokens lying on some square."""
        return [int(t) for t in np.flatnonzero(where >= 0)]
