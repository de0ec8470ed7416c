"""Checks of the options ``make`` passes to a game: each returns the value (normalised) or
raises :class:`~envs.core.errors.OptionError` naming the option, the value and what it must be,
before the value reaches arithmetic, unpacking or a file system call that would fail with an
error naming neither::

    option 'board_size': must be two positive integers (rows, cols), got 'big'

``bool`` is refused where a number is meant (``True`` is an ``int`` to Python, but never what
a caller of ``max_rounds=True`` meant).
"""

from __future__ import annotations

import math
import os
from typing import Any

from .errors import OptionError

__all__ = ["board_size", "boolean", "data_refs", "integer", "is_int", "positive_number"]


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(option: str, value: Any, *, least: int = 1, most: int | None = None,
            none_means: str = "") -> Any:
    """An integer in ``least``..``most`` (no top when None); None too when ``none_means``
    says what None stands for."""
    if value is None and none_means:
        return None
    if not is_int(value) or value < least or (most is not None and value > most):
        if most is not None:
            allowed = f"an integer {least}..{most}"
        else:
            allowed = "a positive integer" if least == 1 else f"an integer >= {least}"
        alternative = f" or None ({none_means})" if none_means else ""
        raise OptionError(option, f"must be {allowed}{alternative}, got {value!r}")
    return value


def positive_number(option: str, value: Any) -> float:
    """A finite number > 0."""
    if (not isinstance(value, (int, float)) or isinstance(value, bool)
            or not math.isfinite(value) or value <= 0):
        raise OptionError(option, f"must be a positive finite number, got {value!r}")
    return float(value)


def boolean(option: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise OptionError(option, f"must be True or False, got {value!r}")
    return value


def board_size(option: str, value: Any) -> tuple[int, int]:
    """``(rows, cols)``, two positive integers (a list is accepted: it comes from YAML/JSON)."""
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(is_int(v) and v > 0 for v in value)):
        raise OptionError(option, f"must be two positive integers (rows, cols), got {value!r}")
    return int(value[0]), int(value[1])


def data_refs(option: str, value: Any, what: str, loaded: type | tuple[type, ...] = (),
              many: bool = False, ids: bool = True) -> list[Any]:
    """What names data files: an id (unless not ``ids``) or a path (``str`` /
    ``os.PathLike``) or an already loaded ``loaded`` object; with ``many`` also a non-empty
    list or tuple of them. Returns the list of them (one entry unless ``many``)."""
    single = (str, os.PathLike) + (loaded if isinstance(loaded, tuple) else (loaded,))
    items = list(value) if many and isinstance(value, (list, tuple)) else [value]
    wanted = (f"a {what} id or a path to a {what} file" if ids else f"a path to a {what} file")
    wanted += ", or a list of them" if many else ""
    if many and isinstance(value, (list, tuple)) and not items:
        raise OptionError(option, f"give at least one {what}")
    for item in items:
        if not isinstance(item, single):
            got = f"{item!r}" if item is value else f"{item!r} in {value!r}"
            raise OptionError(option, f"must be {wanted}, got {got}")
    return items
