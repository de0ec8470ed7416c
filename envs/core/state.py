"""Game states as flat records: numpy arrays, one phase enum, dice and plain values.

Every engine keeps its dynamic state in a dataclass that mixes in :class:`FlatState`; it
gets ``copy()`` (arrays and lists copied, dice cloned) and a lossless, validated JSON form
(``to_dict`` / ``from_dict``) without writing either by hand.

A state also carries the legal mask computed for it (under ``MASK_CACHE`` in its ``__dict__``,
written by ``StandardGame.legal_mask``), so the env, bots and ``Game.apply`` ask the phase once
per state change; ``StandardGame.apply_legal`` and ``forget_mask`` drop it.
The cache is not part of the position: ``to_dict`` leaves it out, ``copy()`` shares the
(read-only) array.

``from_dict`` checks a dict before the game may play it, so a tampered or hand-written dict
fails with a :class:`~envs.core.errors.StateError` naming the field, the entry and what is wrong
instead of an IndexError inside a view or a silently ended game. Three layers, all in
``from_dict`` only (``copy`` and ``apply`` trust their states):

1. the keys, and each field's type from the dataclass annotations (``int``, ``bool``, ``str``,
   ``float``, ``list[...]``); arrays by ``ARRAY_DTYPES`` (rectangular, integers within the
   dtype, no silent wrap-around); the phase by name; the dice state;
2. :meth:`FlatState.field_rules`: per field a :class:`FieldRule` (shape, least and greatest
   value, allowed values). The base class has the rules every game shares (``seat``,
   ``round``, ``turns``, ``winners``); each game adds what its board, pieces and data bound;
3. :meth:`FlatState.invariants`: what relates fields (occupancy, the seat of a finished game),
   as :class:`Problem` entries; the first one is raised.

Layers 2 and 3 need the game (``StandardGame.from_dict`` passes it); without one,
``from_dict`` runs layer 1 only.
"""

from __future__ import annotations

import copy as copy_module
import dataclasses
import enum
import functools
import operator
import types
import typing
import weakref
from collections.abc import Collection, Iterator, Sequence
from typing import Any, ClassVar, NamedTuple, TypeGuard

import numpy as np

from .dice import Dice, dice_from_state
from .errors import StateError

MASK_CACHE = "_legal_mask"  # the key of the cached legal mask in a state's __dict__


@dataclasses.dataclass(frozen=True)
class FieldRule:
    """What ``from_dict`` accepts for one field beyond its type.

    ``shape``: lengths along each axis of an array or (nested) list field, None = any length.
    ``low`` / ``high``: the least and greatest value of every entry, both included; an array
    broadcasts over the field (one maximum per column). ``choices``: the allowed values.
    ``axes``: names of the indices along each axis for messages (None = the number).
    ``note``: what the bounds come from, appended to the message.
    """

    shape: tuple[int | None, ...] | None = None
    low: Any = None
    high: Any = None
    choices: Collection[Any] | None = None
    axes: tuple[Sequence[str] | None, ...] = ()
    note: str = ""


class Problem(NamedTuple):
    """One broken invariant: the field, what is wrong, and the entry (``()``: the field)."""

    field: str
    problem: str
    # The field name shadows tuple.index (a method); StateError's argument is named the same.
    index: tuple[Any, ...] = ()  # type: ignore[assignment]


# -- layer 1: types ------------------------------------------------------------------------
def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# annotation -> (test, words for the message)
_SCALAR_TYPES: dict[Any, tuple[Any, str]] = {
    int: (_is_int, "an integer"),
    bool: (lambda v: isinstance(v, bool), "true or false"),
    float: (_is_number, "a number"),
    str: (lambda v: isinstance(v, str), "a string"),
}


def _type_problem(
    value: Any, hint: Any, index: tuple[int, ...] = ()
) -> tuple[tuple[int, ...], str] | None:
    """Where ``value`` differs from the annotation ``hint``: a scalar type, ``list[...]``, or a
    union of them (``int | None``)."""
    origin = typing.get_origin(hint)
    if origin is list:
        (item,) = typing.get_args(hint)
        if not isinstance(value, list):
            return index, f"= {_show(value)} is not a list"
        for k, entry in enumerate(value):
            found = _type_problem(entry, item, index + (k,))
            if found:
                return found
        return None
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        problems = [_type_problem(value, o, index) for o in options if o is not type(None)]
        return None if not all(problems) else problems[0]
    if hint not in _SCALAR_TYPES:
        # A state field whose type from_dict cannot check is the engine's bug, not the user's.
        raise TypeError(f"FlatState.from_dict cannot check fields annotated {hint!r}")
    test, words = _SCALAR_TYPES[hint]
    return None if test(value) else (index, f"= {_show(value)} is not {words}")


def _show(value: Any) -> str:
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _array(name: str, value: Any, dtype: Any) -> np.ndarray:
    """``value`` (nested lists) as an array of ``dtype``, refusing what would not round-trip."""
    want = np.dtype(dtype)
    try:
        raw = np.asarray(value)
    except (ValueError, TypeError):
        raise StateError(name, f"is not a rectangular array of {want.name}") from None
    if raw.size == 0:
        return raw.astype(want)
    if want.kind == "b":
        if raw.dtype.kind != "b":
            raise StateError(name, f"must hold true or false, got {raw.dtype.name} entries")
        return raw.astype(want)
    if raw.dtype.kind not in "iu":
        raise StateError(name, f"must hold integers ({want.name}), got {raw.dtype.name} entries")
    info = np.iinfo(want)
    outside = (raw < info.min) | (raw > info.max)
    if outside.any():
        index = tuple(int(i) for i in np.argwhere(outside)[0])
        raise StateError(
            name, f"= {_show(raw[index])} does not fit {want.name} ({info.min}..{info.max})", index
        )
    return raw.astype(want)


def _dice(value: Any) -> Dice:
    if not isinstance(value, dict) or value.get("kind") not in ("random", "scripted"):
        raise StateError(
            "dice",
            f"= {_show(value)} is not a dice state saved by to_dict (kind 'random' or 'scripted')",
        )
    if value["kind"] == "scripted":
        script, position = value.get("script"), value.get("position")
        if not (
            isinstance(script, list)
            and all(_is_int(e) or isinstance(e, str) for e in script)
            and _is_int(position)
            and 0 <= position <= len(script)
        ):
            raise StateError(
                "dice",
                "is not a scripted dice state: a 'script' of faces (integers "
                "or symbols) and a 'position' 0..len(script)",
            )
    try:
        return dice_from_state(value)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StateError(
            "dice", f"is not a dice state saved by to_dict ({type(exc).__name__}: {exc})"
        ) from None


# -- layer 2: rules ------------------------------------------------------------------------
def _shape_problem(
    value: Any, shape: tuple[int | None, ...], index: tuple[int, ...] = ()
) -> tuple[tuple[int, ...], str] | None:
    if isinstance(value, np.ndarray):
        if value.size == 0 and any(n == 0 for n in shape):
            return None
        if value.ndim != len(shape):
            return index, f"has {value.ndim} dimensions, expected {len(shape)}"
        for axis, (got, want) in enumerate(zip(value.shape, shape)):
            if want is not None and got != want:
                return index, (
                    f"has {_count(got)}, expected {want}"
                    if axis == 0
                    else f"has shape {value.shape}, expected "
                    f"({', '.join('any' if n is None else str(n) for n in shape)})"
                )
        return None
    if not isinstance(value, list):
        return index, f"= {_show(value)} is not a list"
    if shape[0] is not None and len(value) != shape[0]:
        return index, f"has {_count(len(value))}, expected {shape[0]}"
    for k, item in enumerate(value if len(shape) > 1 else ()):
        found = _shape_problem(item, shape[1:], index + (k,))
        if found:
            return found
    return None


def _count(n: int) -> str:
    return f"{n} entry" if n == 1 else f"{n} entries"


def _first(mask: Any) -> tuple[int, ...] | None:
    mask = np.asarray(mask, dtype=bool)
    if not mask.any():
        return None
    return tuple(int(i) for i in np.argwhere(mask)[0]) if mask.ndim else ()


def _entries(value: Any, index: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Any]]:
    """The scalars of a (nested, possibly ragged) list, with their indices."""
    if not isinstance(value, list):
        yield index, value
        return
    for k, item in enumerate(value):
        yield from _entries(item, index + (k,))


def _bound_at(bound: Any, index: tuple[int, ...]) -> Any:
    # A sequence bound holds one limit per position of the last axis (per column of rows).
    return bound[index[-1]] if isinstance(bound, (list, tuple, np.ndarray)) else bound


_LIMITS = (
    ("low", operator.lt, "is below its minimum"),
    ("high", operator.gt, "is above its maximum"),
)


def _array_problem(values: np.ndarray, rule: FieldRule) -> tuple[tuple[int, ...], str] | None:
    for attribute, outside, words in _LIMITS:
        bound = getattr(rule, attribute)
        index = None if bound is None else _first(outside(values, bound))
        if index is not None:
            limit = np.broadcast_to(np.asarray(bound), values.shape)[index]
            return index, f"= {_show(values[index])} {words} {_show(limit)}"
    if rule.choices is not None:
        index = _first(~np.isin(values, list(rule.choices)))
        if index is not None:
            return index, f"= {_show(values[index])} is not one of {_listed(rule.choices)}"
    return None


def _listed(choices: Collection[Any]) -> str:
    return ", ".join(_show(c) for c in choices)


def _rule_problem(value: Any, rule: FieldRule) -> tuple[tuple[int, ...], str] | None:
    if rule.shape is not None:
        found = _shape_problem(value, rule.shape)
        if found:
            return found
    if isinstance(value, np.ndarray):
        return _array_problem(value, rule)
    for index, entry in _entries(value):
        for attribute, outside, words in _LIMITS:
            bound = getattr(rule, attribute)
            limit = None if bound is None else _bound_at(bound, index)
            if limit is not None and outside(entry, limit):
                return index, f"= {_show(entry)} {words} {_show(limit)}"
        if rule.choices is not None and entry not in rule.choices:
            return index, f"= {_show(entry)} is not one of {_listed(rule.choices)}"
    return None


@functools.cache
def _field_hints(cls: type) -> dict[str, Any]:
    # Evaluating string annotations costs more than the checks; a class's never change.
    return typing.get_type_hints(cls)


def _named(index: tuple[int, ...], axes: tuple[Sequence[str] | None, ...]) -> tuple[Any, ...]:
    return tuple(_name_at(axes[k] if k < len(axes) else None, i) for k, i in enumerate(index))


def _name_at(names: Sequence[str] | None, i: int) -> str | int:
    return names[i] if names is not None and i < len(names) else i


_FIELD_RULES: weakref.WeakKeyDictionary[Any, dict[type[FlatState], dict[str, FieldRule]]] = (
    weakref.WeakKeyDictionary()
)


def _cached_field_rules(cls: type[FlatState], game: Any) -> dict[str, FieldRule]:
    # A game's tables never change once built, so neither do the bounds they give; building
    # them per from_dict cost more than the checks (the fuzz round-trips every step).
    per_class = _FIELD_RULES.setdefault(game, {})
    if cls not in per_class:
        per_class[cls] = cls.field_rules(game)
    return per_class[cls]


_ATOMS = frozenset({int, float, str, bool, type(None)})


def _copied(value: typing.Any) -> typing.Any:
    """A deep copy of a state's list field (ints, strings and nested lists or tuples of
    them), without deepcopy's memo bookkeeping: lookahead playouts copy states by the
    thousand, and deepcopy of a dozen short lists was most of a HeroClix state's copy."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        return [_copied(item) for item in value]
    if kind is tuple:
        return tuple([_copied(item) for item in value])
    return copy_module.deepcopy(value)


class _DicePosition(typing.NamedTuple):
    dice: Dice
    position: dict


class FlatState:
    """Mixin for state dataclasses. Subclasses name their array fields' dtypes in
    ``ARRAY_DTYPES`` and their phase enum in ``PHASE``; they extend :meth:`field_rules` and
    :meth:`invariants` with what their game bounds (see the module docstring)."""

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

    def copy(self, dice: Dice | None = None):
        """An independent copy; with ``dice``, the copy rolls those instead of a copy of the
        state's (a playout that re-seeds its dice need not pay for a copy it drops)."""
        clone = object.__new__(type(self))
        clone.__dict__ = self._copied_fields(Dice.copy if dice is None else lambda _: dice)
        return clone

    def snapshot(self) -> dict[str, Any]:
        """The fields as they are now, for one :meth:`restore`: like :meth:`copy`, but the
        dice keep only their position (a state put back after a replay, HeroClix's
        interrupts, need not pay for a second generator)."""
        return self._copied_fields(lambda dice: _DicePosition(dice, dice.get_state()))

    def _copied_fields(self, copy_dice: typing.Callable[[Dice], Any]) -> dict[str, Any]:
        """Every field, arrays and lists copied (the cached mask is read-only and stays
        valid for the copy until either changes, so it is shared), dice by ``copy_dice``."""
        fields = dict(self.__dict__)
        fields.pop(self._MASK, None)
        # Exact types first: playouts copy states by the thousand, and most fields are ints.
        for name, value in fields.items():
            kind = type(value)
            if kind in _ATOMS:
                continue
            if kind is np.ndarray:
                fields[name] = value.copy()
            elif kind is list:
                fields[name] = _copied(value) if value else []
            elif isinstance(value, np.ndarray):
                fields[name] = value.copy()
            elif isinstance(value, list):
                fields[name] = _copied(value)
            elif isinstance(value, Dice):
                fields[name] = copy_dice(value)
        return fields

    def restore(self, saved: dict[str, Any]) -> None:
        """Put the state back as :meth:`snapshot` found it (its cached mask forgotten); the
        snapshot's arrays become the state's, so restore a snapshot once."""
        self.__dict__.clear()
        for name, value in saved.items():
            if isinstance(value, _DicePosition):
                value.dice.set_state(value.position)
                value = value.dice
            self.__dict__[name] = value
        self.forget_mask()

    def to_dict(self, *, copy: bool = True) -> dict[str, Any]:
        """The state as JSON-compatible values. ``copy=False`` shares the list fields with the
        state: for a caller that only reads the dict at once (``to_json`` encoding it)."""
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
                data[name] = copy_module.deepcopy(value) if copy else value
        return data

    # -- from_dict and its checks --------------------------------------------------------
    @classmethod
    def field_rules(cls, game: Any) -> dict[str, FieldRule]:
        """The rules of the fields every game has; subclasses add theirs to this dict."""
        last = game.num_players - 1
        return {
            "seat": FieldRule(low=-1, high=last, note=f"seats 0..{last}; -1 once the game is over"),
            "round": FieldRule(low=0),
            "turns": FieldRule(low=0),
            "winners": FieldRule(shape=(None,), low=0, high=last, note=f"seats 0..{last}"),
        }

    @classmethod
    def invariants(cls, game: Any, state: Any) -> Iterator[Problem]:
        """What relates fields; subclasses ``yield from super().invariants(game, state)``."""
        over = state.phase is game.GAME_OVER_PHASE
        if over != (state.seat == -1):
            yield Problem(
                "seat",
                f"= {state.seat} in phase {state.phase.name}: the seat is -1 "
                "exactly when the game is over",
            )
        if state.winners != sorted(set(state.winners)):
            yield Problem("winners", f"= {state.winners} is not sorted without repeats")
        if state.winners and not over:
            yield Problem(
                "winners",
                f"= {state.winners} while the game is not over (phase {state.phase.name})",
            )

    @classmethod
    def from_dict(cls, data: dict[str, Any], game: Any = None, *, owned: bool = False):
        """The state ``data`` describes, checked (see the module docstring). ``owned=True``: the
        caller gives ``data`` away (``from_json``'s freshly parsed dict), so its lists become
        the state's without a copy."""
        if not isinstance(data, dict):
            raise StateError(None, f"expected a dict from to_dict, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        if set(data) != known:
            raise StateError(
                None,
                f"{cls.__module__}.{cls.__name__} dict: unknown keys "
                f"{sorted(set(data) - known, key=str)}, missing keys "
                f"{sorted(known - set(data))}",
            )
        values = cls._typed_values(data, owned)
        state = cls(**values)
        if game is not None:
            cls._check(game, state)
        return state

    @classmethod
    def _typed_values(cls, data: dict[str, Any], owned: bool) -> dict[str, Any]:
        # mypy checks a class object against Hashable with its instances' unbound __hash__.
        hints = _field_hints(cls)  # type: ignore[arg-type]
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            name, value, hint = f.name, data[f.name], hints[f.name]
            if name in cls.ARRAY_DTYPES:
                values[name] = _array(name, value, cls.ARRAY_DTYPES[name])
            elif hint is cls.PHASE:
                if not isinstance(value, str) or value not in cls.PHASE.__members__:
                    raise StateError(
                        name,
                        f"= {_show(value)} is not a phase; phases: "
                        f"{', '.join(cls.PHASE.__members__)}",
                    )
                values[name] = cls.PHASE[value]
            elif isinstance(hint, type) and issubclass(hint, Dice):
                values[name] = _dice(value)
            else:
                found = _type_problem(value, hint)
                if found:
                    raise StateError(name, found[1], found[0])
                values[name] = value if owned else copy_module.deepcopy(value)
        return values

    @classmethod
    def _check(cls, game: Any, state: Any) -> None:
        for name, rule in _cached_field_rules(cls, game).items():
            found = _rule_problem(getattr(state, name), rule)
            if found:
                index, problem = found
                note = f" ({rule.note})" if rule.note else ""
                raise StateError(name, problem + note, _named(index, rule.axes))
        for broken in cls.invariants(game, state):
            raise StateError(broken.field, broken.problem, broken.index)


__all__ = ["MASK_CACHE", "FieldRule", "FlatState", "Problem"]
