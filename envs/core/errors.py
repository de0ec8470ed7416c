"""The errors a user can cause through the public API, all :class:`GameError` (a ValueError).

Their own module so that every core module may raise them (``state.py`` raises
:class:`StateError`; ``game.py``, which imports ``state.py``, re-exports them all).
"""

from __future__ import annotations

from typing import Any

__all__ = ["GameError", "GameOverError", "IllegalActionError", "OptionError", "StateError"]


class GameError(ValueError):
    """Base class for errors a user can cause through the public API."""


class IllegalActionError(GameError):
    """The action is in range but not legal in this state."""


class GameOverError(GameError):
    """An action was applied to a finished game."""


class OptionError(GameError):
    """A bad option passed to ``make`` or a game constructor; names the option."""

    def __init__(self, option: str, problem: str):
        super().__init__(f"option '{option}': {problem}")
        self.option = option


class StateError(GameError):
    """A state dict that ``from_dict`` refuses; names the field, the entry and what is wrong::

        from_dict: field 'heroes'[0, health] = 99 is above its maximum 4 (one Hero Pack per
        seat; health at most the pieces' health)

    ``field`` is None for a problem of the whole dict (unknown or missing keys); ``index``
    locates the entry inside an array or list field (``()`` for the field itself).
    """

    def __init__(self, field: str | None, problem: str, index: tuple[Any, ...] = ()):
        where = "" if field is None else f" field '{field}'"
        if index:
            where += "[" + ", ".join(str(part) for part in index) + "]"
        super().__init__(f"from_dict:{where} {problem}")
        self.field = field
        self.index = index
