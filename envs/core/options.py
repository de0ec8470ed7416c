"""Options declared once: each option is one :class:`OptionSpec` (name, type, default,
choices, rule ID, one doc line), and everything else is derived from the specs: the
constructor's checks, the :class:`~envs.core.errors.OptionError` messages, and the options
tables in the env docstrings and the docs (:func:`rst_table`, :func:`markdown_table`; a test
fails when a table and its specs differ).

A game declares its options as a frozen dataclass of :func:`option` fields, so a type
checker and an IDE follow ``game.options.max_rounds``::

    @dataclasses.dataclass(frozen=True)
    class MyOptions(Options):
        max_rounds: int = option(100, "rounds before a draw", Integer())

    MyOptions.create({"max_rounds": 0})
    # OptionError: option 'max_rounds': must be a positive integer, got 0

Each kind (:class:`Integer`, :class:`Boolean`, :class:`OneOf`, ...) checks a value and returns
it normalised (a YAML list becomes the tuple ``board_size`` is), before it reaches arithmetic,
unpacking or a file system call that would fail with an error naming neither. ``bool`` is
refused where a number is meant (``True`` is an ``int`` to Python, but never what a caller of
``max_rounds=True`` meant). Checks that need the game's data (a mission larger than
``board_size``) stay in the game's constructor and raise the same error.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import os
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from .errors import OptionError

__all__ = [
    "Boolean",
    "BoardSize",
    "DataRefs",
    "Integer",
    "Kind",
    "OneOf",
    "OptionSpec",
    "Options",
    "PositiveNumber",
    "board_size",
    "boolean",
    "data_refs",
    "integer",
    "is_int",
    "markdown_table",
    "option",
    "positive_number",
    "rst_table",
]

OptionsT = TypeVar("OptionsT", bound="Options")


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def integer(
    option: str, value: Any, *, least: int = 1, most: int | None = None, none_means: str = ""
) -> Any:
    """An integer in ``least``..``most`` (no top when None); None too when ``none_means``
    says what None stands for."""
    if value is None and none_means:
        return None
    if not is_int(value) or value < least or (most is not None and value > most):
        raise OptionError(
            option, f"must be {_integer_words(least, most, none_means)}, got {value!r}"
        )
    return value


def _integer_words(least: int, most: int | None, none_means: str) -> str:
    if most is not None:
        allowed = f"an integer {least}..{most}"
    else:
        allowed = "a positive integer" if least == 1 else f"an integer >= {least}"
    return allowed + (f" or None ({none_means})" if none_means else "")


def positive_number(option: str, value: Any) -> float:
    """A finite number > 0."""
    if (
        not isinstance(value, (int, float))
        or isinstance(value, bool)
        or not math.isfinite(value)
        or value <= 0
    ):
        raise OptionError(option, f"must be a positive finite number, got {value!r}")
    return float(value)


def probability(option: str, value: Any) -> float:
    """A number in (0, 1]."""
    if positive_number(option, value) > 1:
        raise OptionError(option, f"must be in (0, 1], got {value!r}")
    return float(value)


def boolean(option: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise OptionError(option, f"must be true or false, got {value!r}")
    return value


def board_size(option: str, value: Any) -> tuple[int, int]:
    """``(rows, cols)``, two positive integers (a list is accepted: it comes from YAML/JSON)."""
    if (
        not isinstance(value, (tuple, list))
        or len(value) != 2
        or not all(is_int(v) and v > 0 for v in value)
    ):
        raise OptionError(option, f"must be two positive integers (rows, cols), got {value!r}")
    return int(value[0]), int(value[1])


def data_refs(
    option: str,
    value: Any,
    what: str,
    loaded: type | tuple[type, ...] = (),
    many: bool = False,
    ids: bool = True,
) -> list[Any]:
    """What names data files: an id (unless not ``ids``) or a path (``str`` /
    ``os.PathLike``) or an already loaded ``loaded`` object; with ``many`` also a non-empty
    list or tuple of them. Returns the list of them (one entry unless ``many``)."""
    single = (str, os.PathLike) + (loaded if isinstance(loaded, tuple) else (loaded,))
    items = list(value) if many and isinstance(value, (list, tuple)) else [value]
    wanted = f"a {what} id or a path to a {what} file" if ids else f"a path to a {what} file"
    wanted += ", or a list of them" if many else ""
    if many and isinstance(value, (list, tuple)) and not items:
        raise OptionError(option, f"give at least one {what}")
    for item in items:
        if not isinstance(item, single):
            got = f"{item!r}" if item is value else f"{item!r} in {value!r}"
            raise OptionError(option, f"must be {wanted}, got {got}")
    return items


# -- kinds: what values an option takes -----------------------------------------------------
class Kind:
    """Checks one option's value: returns it normalised or raises OptionError."""

    type_name: ClassVar[str] = "any"

    def __call__(self, option: str, value: Any) -> Any:
        return value


@dataclass(frozen=True)
class CheckedByGame(Kind):
    """A value only the game can judge, against its data (``num_players`` against the
    pieces); the game's constructor raises the OptionError."""

    type_name: ClassVar[str] = "int"


@dataclass(frozen=True)
class Integer(Kind):
    least: int = 1
    most: int | None = None
    none_means: str = ""  # None is allowed, and stands for this
    type_name: ClassVar[str] = "int"

    def __call__(self, option: str, value: Any) -> Any:
        return integer(option, value, least=self.least, most=self.most, none_means=self.none_means)


@dataclass(frozen=True)
class Boolean(Kind):
    type_name: ClassVar[str] = "bool"

    def __call__(self, option: str, value: Any) -> bool:
        return boolean(option, value)


@dataclass(frozen=True)
class PositiveNumber(Kind):
    below: float | None = None  # exclusive upper bound
    type_name: ClassVar[str] = "float"

    def __call__(self, option: str, value: Any) -> float:
        number = positive_number(option, value)
        if self.below is not None and number >= self.below:
            raise OptionError(option, f"must be below {self.below}, got {value!r}")
        return number


@dataclass(frozen=True)
class OneOf(Kind):
    """One of ``choices``, of the same type (``1`` is not ``True``); ``rule`` prefixes the
    message so that a flag's error names the rule it changes."""

    choices: tuple[Any, ...]
    rule: str = ""
    type_name: ClassVar[str] = "choice"

    def __call__(self, option: str, value: Any) -> Any:
        if not any(type(value) is type(c) and value == c for c in self.choices):
            *first, last = map(repr, self.choices)
            listed = f"{', '.join(first)} or {last}" if first else last
            prefix = f"{self.rule}: " if self.rule else ""
            raise OptionError(option, f"{prefix}must be {listed}, got {value!r}")
        return value


@dataclass(frozen=True)
class BoardSize(Kind):
    none_means: str = ""
    type_name: ClassVar[str] = "(int, int)"

    def __call__(self, option: str, value: Any) -> tuple[int, int] | None:
        if value is None and self.none_means:
            return None
        return board_size(option, value)


@dataclass(frozen=True)
class DataRefs(Kind):
    """An id or path of a data file (or the loaded object); ``many``: a list of them too;
    ``none_means``: None allowed. Normalised to the value given (the game loads it)."""

    what: str
    loaded: type | tuple[type, ...] = ()
    many: bool = False
    ids: bool = True
    none_means: str = ""
    type_name: ClassVar[str] = "str | path"

    def __call__(self, option: str, value: Any) -> Any:
        if value is None and self.none_means:
            return None
        data_refs(option, value, self.what, self.loaded, many=self.many, ids=self.ids)
        return list(value) if self.many and isinstance(value, tuple) else value


@dataclass(frozen=True)
class Strings(Kind):
    """A list of strings (ids the game checks against its data), or None when
    ``none_means`` says what None stands for."""

    what: str
    none_means: str = ""
    type_name: ClassVar[str] = "list[str]"

    def __call__(self, option: str, value: Any) -> tuple[str, ...] | None:
        if value is None and self.none_means:
            return None
        if not (isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)):
            raise OptionError(option, f"must be a list of {self.what} ids, got {value!r}")
        return tuple(value)


# -- the spec -------------------------------------------------------------------------------
@dataclass(frozen=True)
class OptionSpec:
    """One option: everything its check, its error messages and its docs are made from."""

    name: str
    default: Any
    doc: str  # one line (the table wraps it)
    kind: Kind
    rule: str = ""  # the rule ID whose reading it chooses, if any
    shown_default: str = ""  # how the docs show a default that stands for something else

    def check(self, value: Any) -> Any:
        return self.kind(self.name, value)

    @property
    def default_text(self) -> str:
        if self.shown_default:
            return self.shown_default
        if isinstance(self.default, str):
            return f'"{self.default}"'
        return repr(self.default)

    @property
    def meaning(self) -> str:
        return f"{self.rule}: {self.doc}" if self.rule else self.doc


_SPEC = "heroarena.option"


def option(default: Any, doc: str, kind: Kind, *, rule: str = "", shown_default: str = "") -> Any:
    """A field of an :class:`Options` dataclass: its default and its spec (the name is the
    field's)."""
    meta = OptionSpec("", default, doc, kind, rule, shown_default)
    return dataclasses.field(default=default, metadata={_SPEC: meta})


@dataclass(frozen=True)
class Options:
    """Base of a game's (or env's) options dataclass: every field is an :func:`option`, and
    each value is checked and normalised by its spec when the object is made."""

    owner: ClassVar[str] = "the game"  # names the env or game in "unknown option" errors
    _specs: ClassVar[tuple[OptionSpec, ...]]  # per subclass, made on first use

    def __post_init__(self) -> None:
        for spec in self.specs():
            object.__setattr__(self, spec.name, spec.check(getattr(self, spec.name)))

    @classmethod
    def specs(cls) -> tuple[OptionSpec, ...]:
        found: tuple[OptionSpec, ...] | None = cls.__dict__.get("_specs")
        if found is None:
            found = tuple(
                dataclasses.replace(f.metadata[_SPEC], name=f.name)
                for f in dataclasses.fields(cls)
                if _SPEC in f.metadata
            )
            cls._specs = found
        return found

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(spec.name for spec in cls.specs())

    @classmethod
    def create(
        cls: type[OptionsT], given: Mapping[str, Any], *, also_known: Iterable[str] = ()
    ) -> OptionsT:
        """The options from keyword values; an unknown name is an OptionError that lists the
        known ones (``also_known``: names a caller takes out before, shown too) and the
        closest."""
        unknown_option(cls.owner, given, cls.names(), also_known)
        return cls(**given)

    @classmethod
    def of(cls: type[OptionsT], *args: Any, **given: Any) -> OptionsT:
        """What a game constructor takes: an options object alone, or values by position (in
        field order: ``HeroclixGame("mall")``) and by name."""
        if len(args) == 1 and isinstance(args[0], cls) and not given:
            return args[0]
        names = cls.names()
        if len(args) > len(names) or any(isinstance(a, Options) for a in args):
            raise OptionError(
                "*", f"{cls.owner} takes one options object, or values ({', '.join(names)})"
            )
        by_position = dict(zip(names, args))
        for name in given:
            if name in by_position:
                raise OptionError(name, "given both by position and by name")
        return cls.create({**by_position, **given})

    def changed(self) -> dict[str, Any]:
        """The options that differ from their defaults."""
        return {
            s.name: getattr(self, s.name)
            for s in self.specs()
            if getattr(self, s.name) != s.kind(s.name, s.default)
        }


def unknown_option(
    owner: str, given: Iterable[str], known: Iterable[str], also_known: Iterable[str] = ()
) -> None:
    """Raise an OptionError for the first name in ``given`` that is not known."""
    known = list(known) + list(also_known)
    for name in given:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            raise OptionError(
                name, f"unknown option for {owner}{hint} known: {', '.join(sorted(known))}"
            )


# -- the tables -----------------------------------------------------------------------------
TABLE_WIDTH = 96


def rst_table(specs: Iterable[OptionSpec], width: int = TABLE_WIDTH) -> str:
    """An RST simple table (option, default, meaning), the meaning wrapped to ``width``."""
    specs = list(specs)
    name_w = max(len("option"), *(len(s.name) for s in specs)) + 2
    default_w = max(len("default"), *(len(s.default_text) for s in specs)) + 2
    meaning_w = width - name_w - default_w
    rule = f"{'=' * (name_w - 2)}  {'=' * (default_w - 2)}  {'=' * meaning_w}"
    lines = [rule, f"{'option':<{name_w}}{'default':<{default_w}}meaning", rule]
    for spec in specs:
        wrapped = textwrap.wrap(spec.meaning, meaning_w, break_on_hyphens=False) or [""]
        lines.append(f"{spec.name:<{name_w}}{spec.default_text:<{default_w}}{wrapped[0]}")
        lines += [" " * (name_w + default_w) + more for more in wrapped[1:]]
    lines.append(rule)
    return "\n".join(line.rstrip() for line in lines)


def markdown_table(specs: Iterable[OptionSpec]) -> str:
    """The same table in Markdown (option and default as code)."""
    lines = ["| option | default | meaning |", "|---|---|---|"]
    for spec in specs:
        meaning = spec.meaning.replace("|", "\\|").replace("``", "`")
        lines.append(f"| `{spec.name}` | `{spec.default_text}` | {meaning} |")
    return "\n".join(lines)
