"""HeroClix figures and their combat dials (envs/heroclix/RULES.md HC-1.3-1.12, HC-2.4, HC-3.10).

One figure per file (``figures/<id>.yaml``), validated on load; every problem is a
:class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field and what is
wrong. A scenario may write its own figures in the same format inline and load them with
:func:`figure_from_data` (or :func:`load_figure_text` for text).

Format
======

::

    id: bulwark_captain       # lower-case snake_case; must equal the file name
    ref: F-01                 # optional: the figure's id in envs/heroclix/RULES.md (F)
    name: Bulwark Captain     # no blanks at either end (names decide archenemies, HC-3.10)
    provenance: original      # optional flavour: where the design comes from
    points: 55                # point value, an integer 1..MAX_POINTS (HC-1.5, HC-2.3)
    team: null                # optional, default null: team symbol (HC-3.9; abilities off, R-13)
    range: 5                  # 0..20 squares; 0 = no ranged attack (HC-4.15); never changes
    targets: 1                # 1..5 lightning bolts: targets of one ranged attack (HC-4.24)
    flyer: false              # optional, default false: wing instead of boot (HC-1.12)
    unique: true              # optional, default false: silver ring, once per force (HC-2.4)
    archenemy_color: violet   # optional, default null: lower-case colour (HC-3.10)
    dial:                     # the clicks from the starting position (click 0, HC-2.8) on
      - {values: [8, 10, 17, 3], powers: [charge, ~, toughness, leadership]}
      - {values: [8, 10, 17, 2], powers: [charge, ~, toughness, leadership]}
      - {values: [6, 7, 14, 1]}         # powers may be left out: no colour on any value
      - KO                              # the first KO click: last entry, exactly once
                                        # (at most MAX_CLICKS clicks before it)
    notes: Free text.         # optional

Each click is a mapping of

``values``
    ``[speed, attack, defense, damage]``, integers: speed 0..20, attack 0..20, defense 0..30,
    damage 0..10 (HC-1.6-1.10).
``powers``
    optional, default ``[~, ~, ~, ~]``: the power key whose colour shows behind each of the
    four values, or ``~`` for none. Keys are those of :mod:`envs.heroclix.powers.catalog` (the 44 powers of
    envs/heroclix/RULES.md), and each must sit in its own column (``toughness`` is a defense
    power, so it goes third). ``earthbound`` (P-SPD-4) turns a flyer into a non-flyer, so only a
    figure with ``flyer: true`` may have it.

The dial ends with ``KO``: taking damage turns it click by click towards KO (HC-1.3); when the
click index reaches the KO entry the figure is defeated (HC-4.5). :attr:`Figure.clicks_to_ko` is
that index, the number of clicks before ``KO``. Range and targets are not on the dial because
they never change (HC-1.6).

Powers on a dial that the engine does not implement yet (:attr:`Power.implemented
<envs.heroclix.powers.catalog.Power.implemented>` false) stay in the file, so the figures are
complete; the engine treats them as absent (:meth:`Figure.usable_powers_at`) and
:attr:`Figure.unavailable_powers` lists them.

Shipped figures
===============

The twelve starter figures of envs/heroclix/RULES.md (F) (F-01 ... F-12). ``inert`` lists the
powers on each dial that are not implemented yet (a test keeps this table true)::

    bulwark_captain F-01  55 7 T2 unique violet  inert: -
    quarry          F-02  70 8 T1                inert: -
    razorback       F-03  50 6 T1 crimson        inert: -
    skylash         F-04  65 7 T2 crimson flyer  inert: -
    mindwarden      F-05  80 6 T2 unique         inert: -
    gloam           F-06  40 6 T2                inert: -
    mender          F-07  35 5 T1                inert: -
    tempest         F-08  60 7 T2 flyer          inert: -
    elastic         F-09  45 6 T1                inert: -
    shift           F-10  50 6 T1                inert: -
    overlord        F-11  90 8 T2 unique violet  inert: -
    street_thug     F-12  15 4 T1                inert: -

(columns: id, ref, points, clicks before KO, tier, unique, archenemy colour, flyer.)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any

import pydantic

from envs.core.scenario import (
    STRICT_MODEL,
    STRING_SOURCE,
    YAML_SUFFIXES,
    LineMap,
    ScenarioError,
    list_data_ids,
    load_yaml,
    read_text,
    resolve_data_file,
    validate,
)
from envs.heroclix.data.teams import teams
from envs.heroclix.powers.catalog import (
    COLUMNS,
    POWERS,
    Column,
    Tier,
    UnknownPowerError,
    close_power_keys,
)

__all__ = [
    "FIGURES_DIR",
    "KO",
    "MAX_CLICKS",
    "MAX_POINTS",
    "STARTING_CLICK",
    "VALUE_RANGES",
    "Click",
    "ClickFile",
    "Figure",
    "FigureFile",
    "archenemies",
    "figure_from_data",
    "figure_ids",
    "load_figure",
    "load_figure_text",
    "shipped_figures",
]

FIGURES_DIR = Path(__file__).resolve().parent / "figures"

KO = "KO"
"""The dial entry of the first KO click."""

STARTING_CLICK = 0
"""Every dial starts at click 0, the green line (HC-2.8); healing never goes past it."""

VALUE_RANGES: Mapping[Column, tuple[int, int]] = MappingProxyType(
    {Column.SPEED: (0, 20), Column.ATTACK: (0, 20), Column.DEFENSE: (0, 30), Column.DAMAGE: (0, 10)}
)
"""Allowed ``(lowest, highest)`` of each dial value, both included."""

MAX_POINTS = 1000
"""Most points a figure may cost: the engine keeps points in int16 and sums them per force."""
MAX_CLICKS = 30
"""Most clicks a dial may have before KO (published dials have at most 12): the dial turns
in an int8 click counter."""

ID_PATTERN = r"^[a-z][a-z0-9_]*$"

_Id = Annotated[str, pydantic.Field(pattern=ID_PATTERN, strict=True)]
_Text = Annotated[str, pydantic.Field(min_length=1, strict=True)]
_Ref = Annotated[str, pydantic.Field(pattern=r"^[A-Z][A-Z0-9]*-[0-9]+$", strict=True)]
_PowerKey = Annotated[str, pydantic.Field(strict=True)] | None


class ClickFile(pydantic.BaseModel):
    """The fields of one click of a ``dial:`` (every entry but ``KO``)."""

    model_config = STRICT_MODEL

    # Lists, not 4-tuples: the length is checked afterwards so that a short or long list gets
    # one message naming the four places instead of pydantic's per-item errors.
    values: list[pydantic.StrictInt]
    powers: list[_PowerKey] = [None, None, None, None]


class FigureFile(pydantic.BaseModel):
    """The fields of a figure file (and of a figure written inline in a scenario)."""

    model_config = STRICT_MODEL

    id: _Id
    ref: _Ref | None = None
    name: _Text
    provenance: _Text | None = None
    points: pydantic.StrictInt = pydantic.Field(gt=0, le=MAX_POINTS)
    team: _Text | None = None
    range: pydantic.StrictInt = pydantic.Field(ge=0, le=20)
    targets: pydantic.StrictInt = pydantic.Field(ge=1, le=5)
    flyer: pydantic.StrictBool = False
    unique: pydantic.StrictBool = False
    archenemy_color: _Id | None = None
    # Entries are a click mapping or "KO"; checked one by one below so that each error names
    # its own entry and line.
    dial: list[Any]
    notes: _Text | None = None


@dataclass(frozen=True)
class Click:
    """One click of a dial: the four values and the power (key or None) behind each.

    ``powers[i]`` belongs to the i-th value: speed, attack, defense, damage.
    """

    speed: int
    attack: int
    defense: int
    damage: int
    powers: tuple[str | None, str | None, str | None, str | None] = (None, None, None, None)

    @property
    def values(self) -> tuple[int, int, int, int]:
        """``(speed, attack, defense, damage)``."""
        return (self.speed, self.attack, self.defense, self.damage)

    def value(self, column: Column | str) -> int:
        return self.values[Column(column).position]

    def power_on(self, column: Column | str) -> str | None:
        """The key of the power behind ``column``'s value, or None."""
        return self.powers[Column(column).position]

    @property
    def power_keys(self) -> tuple[str, ...]:
        """The keys showing on this click, in column order."""
        return tuple(key for key in self.powers if key is not None)


@dataclass(frozen=True)
class Figure:
    """One HeroClix figure and its dial.

    Attributes:
        id: short name; the file name without ``.yaml`` for shipped figures.
        ref: its id in envs/heroclix/RULES.md (F) (``F-01``), or None.
        name: for people; two figures with one name are never archenemies (HC-3.10).
        points: point value (HC-2.3, HC-7.5).
        team: team symbol or None (HC-3.9).
        range: squares; 0 means no ranged attack (HC-4.15). Never changes (HC-1.6).
        targets: lightning bolts, the most targets of one ranged attack (HC-4.24).
        flyer: has the wing symbol (HC-1.12).
        unique: silver ring; at most one per force (HC-2.4).
        archenemy_color: dial colour marker, or None (HC-3.10).
        dial: the clicks from click 0 up to, not including, the first KO click.
        provenance, notes: text only.
        source: where the figure was defined.
    """

    id: str
    ref: str | None
    name: str
    points: int
    team: str | None
    range: int
    targets: int
    flyer: bool
    unique: bool
    archenemy_color: str | None
    dial: tuple[Click, ...] = field(repr=False)
    provenance: str | None = field(default=None, repr=False)
    notes: str | None = field(default=None, repr=False)
    source: str = field(default=STRING_SOURCE, repr=False)

    @property
    def clicks_to_ko(self) -> int:
        """Index of the first KO click: damage that takes the click index here defeats it."""
        return len(self.dial)

    @property
    def starting_click(self) -> int:
        return STARTING_CLICK

    def is_ko(self, click: int) -> bool:
        """Whether the dial turned to ``click`` shows KO (HC-4.5)."""
        return click >= self.clicks_to_ko

    def click(self, click: int) -> Click:
        """The values and powers at ``click`` (0 .. clicks_to_ko - 1)."""
        if not 0 <= click < self.clicks_to_ko:
            raise IndexError(
                f"{self.id} has clicks 0..{self.clicks_to_ko - 1} before KO "
                f"(click {self.clicks_to_ko}); no click {click}"
            )
        return self.dial[click]

    def powers_at(self, click: int) -> tuple[str, ...]:
        """Every power key showing at ``click``, implemented or not, in column order."""
        return self.click(click).power_keys

    def usable_powers_at(self, click: int) -> tuple[str, ...]:
        """The powers at ``click`` that the engine applies (the rest count as absent)."""
        return tuple(key for key in self.powers_at(click) if POWERS[key].implemented)

    @property
    def power_keys(self) -> tuple[str, ...]:
        """Every power key anywhere on the dial, sorted."""
        return tuple(sorted({key for c in self.dial for key in c.power_keys}))

    @property
    def unavailable_powers(self) -> tuple[str, ...]:
        """The keys on the dial whose power is not implemented yet, sorted."""
        return tuple(key for key in self.power_keys if not POWERS[key].implemented)

    @property
    def tier(self) -> Tier:
        """T2 if any power on the dial needs the T2 machinery, else T1."""
        tiers = {POWERS[key].tier for key in self.power_keys}
        return Tier.T2 if Tier.T2 in tiers else Tier.T1


def archenemies(a: Figure, b: Figure) -> bool:
    """HC-3.10: the same archenemy colour (not None) and different names."""
    return (
        a.archenemy_color is not None
        and a.archenemy_color == b.archenemy_color
        and a.name != b.name
    )


# -- loading -----------------------------------------------------------------------------------


def figure_ids() -> list[str]:
    """Ids of the shipped figures, sorted."""
    return list_data_ids(FIGURES_DIR, YAML_SUFFIXES)


def load_figure(id_or_path: str | os.PathLike[str]) -> Figure:
    """A shipped figure by id, or the figure of a file path.

    Parsed once per file content: loading the same unchanged file again returns the same
    (immutable) object; an edited file is read afresh.
    """
    path = resolve_data_file(id_or_path, FIGURES_DIR, YAML_SUFFIXES, "figure", must_exist=True)
    return _parse(read_text(path), str(path), path.name)


def load_figure_text(text: str, source: str = STRING_SOURCE) -> Figure:
    """The figure written in the YAML ``text``; ``source`` names it in errors. No id check
    against a file name."""
    return _parse(text, source, None)


@lru_cache(maxsize=1)
def shipped_figures() -> Mapping[str, Figure]:
    """The shipped figures by id (read once; read-only)."""
    return MappingProxyType({fid: load_figure(fid) for fid in figure_ids()})


@lru_cache(maxsize=256)
def _parse(text: str, source: str, file_name: str | None) -> Figure:
    data, lines = load_yaml(text, source=source)
    return figure_from_data(data, lines, (), file_name=file_name)


def figure_from_data(
    data: Any, lines: LineMap, at: Sequence[str | int] = (), *, file_name: str | None = None
) -> Figure:
    """The figure written at path ``at`` of a parsed YAML document (``()`` = the whole
    document; ``("figures", 2)`` = an inline figure of a scenario). Errors name fields from the
    document root. With ``file_name``, the id must equal the file name without its ending."""
    at = tuple(at)
    spec = _validate_at(FigureFile, _value_at(data, at), lines, at)
    if spec.name != spec.name.strip():
        # Names decide archenemies (HC-3.10: one name, never archenemies), so a stray blank
        # would silently make two copies of one character archenemies.
        raise lines.error(at + ("name",), f"name {spec.name!r} has blanks at its start or end")
    if file_name is not None and spec.id != Path(file_name).stem:
        # Ids are how figures are listed and referenced, so they must not drift from files.
        raise lines.error(
            at + ("id",),
            f"id '{spec.id}' does not match the file name "
            f"'{file_name}' (expected id '{Path(file_name).stem}')",
        )
    if spec.team is not None and spec.team not in teams():
        raise lines.error(
            at + ("team",),
            f"unknown team {spec.team!r}; known: {', '.join(sorted(teams()))} (teams.yaml)",
        )
    dial = _build_dial(spec, lines, at + ("dial",))
    return Figure(
        id=spec.id,
        ref=spec.ref,
        name=spec.name,
        points=spec.points,
        team=spec.team,
        range=spec.range,
        targets=spec.targets,
        flyer=spec.flyer,
        unique=spec.unique,
        archenemy_color=spec.archenemy_color,
        dial=dial,
        provenance=spec.provenance,
        notes=spec.notes,
        source=lines.source,
    )


def _value_at(data: Any, at: tuple[str | int, ...]) -> Any:
    value = data
    for part in at:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def _validate_at(
    model: type[pydantic.BaseModel], value: Any, lines: LineMap, at: tuple[str | int, ...]
) -> Any:
    # validate() reports fields relative to ``value``; re-root them so an inline figure's
    # errors name the whole path ("figures.2.dial.0.values") and its real line.
    try:
        return validate(model, value, lines.source)
    except ScenarioError as exc:
        rooted = []
        for err in (exc, *exc.others):
            path = at + (tuple(err.field.split(".")) if err.field else ())
            rooted.append(lines.error(path, err.message))
        first = rooted[0]
        raise ScenarioError(
            first.source, first.message, line=first.line, field=first.field, others=rooted[1:]
        ) from None


def _build_dial(spec: FigureFile, lines: LineMap, at: tuple[str | int, ...]) -> tuple[Click, ...]:
    entries = spec.dial
    if not entries:
        raise lines.error(
            at, "the dial is empty: list its clicks from the starting position (click 0), then KO"
        )
    if len(entries) > MAX_CLICKS + 1:
        raise lines.error(
            at,
            f"the dial has {len(entries)} entries; a dial has at most "
            f"{MAX_CLICKS} clicks before KO",
        )
    clicks: list[Click] = []
    for index, entry in enumerate(entries):
        here = at + (index,)
        if entry == KO:
            if index != len(entries) - 1:
                raise lines.error(
                    here,
                    f"KO is the first KO click and must be the dial's last "
                    f"entry, exactly once; entry {index} is KO but "
                    f"{len(entries) - 1 - index} more entries follow it",
                )
            if not clicks:
                raise lines.error(here, "the dial needs at least one click before KO")
            return tuple(clicks)
        if not isinstance(entry, dict):
            raise lines.error(
                here,
                f"expected a click such as {{values: [8, 10, 17, 3], "
                f"powers: [~, ~, toughness, ~]}} or KO, got {entry!r}",
            )
        clicks.append(_build_click(_validate_at(ClickFile, entry, lines, here), spec, lines, here))
    raise lines.error(
        at + (len(entries) - 1,),
        f"the dial must end with KO (the first KO click, HC-4.5); its last entry "
        f"(entry {len(entries) - 1}) is a click",
    )


def _build_click(
    click: ClickFile, spec: FigureFile, lines: LineMap, at: tuple[str | int, ...]
) -> Click:
    for name, got in (("values", click.values), ("powers", click.powers)):
        if len(got) != len(COLUMNS):
            raise lines.error(
                at + (name,),
                f"{name} has {len(got)} entries; write exactly 4: [speed, attack, defense, damage]",
            )
    for column, value in zip(COLUMNS, click.values):
        low, high = VALUE_RANGES[column]
        if not low <= value <= high:
            raise lines.error(
                at + ("values", column.position),
                f"{column.value} {value} is out of range {low}..{high}",
            )
    for column, key in zip(COLUMNS, click.powers):
        if key is not None:
            _check_power(key, column, spec, lines, at + ("powers", column.position))
    speed, attack, defense, damage = click.values
    # Both lists have exactly four entries (checked above); unpacked so the 4-tuple is typed.
    on_speed, on_attack, on_defense, on_damage = click.powers
    return Click(
        speed, attack, defense, damage, powers=(on_speed, on_attack, on_defense, on_damage)
    )


def _check_power(
    key: str, column: Column, spec: FigureFile, lines: LineMap, at: tuple[str | int, ...]
) -> None:
    found = POWERS.get(key)
    if found is None:
        raise lines.error(at, str(UnknownPowerError(key, close_power_keys(key))))
    if found.column is not column:
        raise lines.error(
            at,
            f"'{key}' ({found.rule_id} {found.name}) is a "
            f"{found.column.value} power: write it in the {found.column.value} "
            f"place (powers[{found.column.position}]), not under "
            f"{column.value} (powers[{column.position}])",
        )
    if key == "earthbound" and not spec.flyer:
        raise lines.error(
            at,
            "'earthbound' (P-SPD-4) makes a flyer count as a non-flyer; "
            "only a figure with 'flyer: true' may have it",
        )
