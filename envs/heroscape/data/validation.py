"""Checks shared by the Heroscape data files (battlefields, army cards, scenarios).

A scenario may hold a battlefield or cards inline, so a file's fields are validated either at
the document root or at a path inside it (``("battlefield",)``, ``("cards", 2)``);
:func:`validate_at` does both and reports the full field path with its real line. Every
error is a :class:`~envs.core.scenario.ScenarioError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pydantic

from envs.core.scenario import LineMap, ScenarioError, dotted, validate

__all__ = ["ID_PATTERN", "check_id_matches_file", "validate_at"]

ID_PATTERN = r"^[a-z][a-z0-9_]*$"
"""Ids of battlefields, cards and scenarios: lower-case letters, digits and ``_``."""


class _LinesAt:
    """A LineMap view rooted at ``at`` (for validating an embedded mapping)."""

    def __init__(self, lines: LineMap, at: tuple[str | int, ...]):
        self._lines, self._at = lines, at

    def line(self, path: Sequence[str | int] = ()) -> int | None:
        return self._lines.line(self._at + tuple(path))


def validate_at(
    model: type[pydantic.BaseModel], data: Any, lines: LineMap, at: tuple[str | int, ...]
) -> Any:
    """Validate the mapping found at path ``at`` of the document ``data`` with ``model``.

    Errors name the field from the document root (``battlefield.map``) and its line.
    """
    value: Any = data
    for part in at:
        value = value[int(part)] if isinstance(value, list) else value[part]
    if not at:
        return validate(model, value, lines.source, lines)
    try:
        return validate(model, value, lines.source, _LinesAt(lines, at))  # type: ignore[arg-type]
    except ScenarioError as exc:

        def rooted(err: ScenarioError, others=()) -> ScenarioError:
            field = dotted(at + tuple(err.field.split("."))) if err.field else dotted(at)
            return ScenarioError(err.source, err.message, line=err.line, field=field, others=others)

        raise rooted(exc, [rooted(o) for o in exc.others]) from None


def check_id_matches_file(
    spec_id: str, lines: LineMap, at: tuple[str | int, ...], file_name: str | None
) -> None:
    """Raise unless ``spec_id`` equals ``file_name`` without its ending (no check without a
    file name: text given directly)."""
    # Ids are how content is listed and referenced, so they must not drift from file names.
    if file_name is not None and spec_id != Path(file_name).stem:
        raise lines.error(
            at + ("id",),
            f"id '{spec_id}' does not match the file name "
            f"'{file_name}' (expected id '{Path(file_name).stem}')",
        )
