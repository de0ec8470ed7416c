"""The 44 HeroClix powers as data: the Powers and Abilities card of envs/heroclix/RULES.md (R-1).

Each :class:`Power` is one entry of that file: its data key (what a dial file writes), its rule
id (``P-SPD-1`` ... ``P-DMG-11``, the names tests use), display name, the column whose value it
sits behind (speed, attack, defense, damage), its colour, whether its controller may switch it
off (HC-3.8, R-2), its action type, its tier and whether the engine implements it yet.

The card lists each column in one colour order (:data:`COLOURS`), so a power's number in its
column gives its colour: ``P-DEF-2`` is the second colour, orange.

Action types (envs/heroclix/RULES.md P-0): ``move``, ``close`` and ``ranged`` are the 2002
actions of HC-3.5 (a power that "uses a power action" is a variant of one of them: the same
action, token and pushing); ``free`` uses no action; ``passive`` is on while its colour shows.
A power with several (Mind Control: close or ranged) lists them all in :attr:`Power.actions`;
:attr:`Power.action_note` keeps the card's remark ("power variant", "start of turn", ...).

``implemented`` says the engine registers the power's effect in its hook registry (the test
suite checks that the registry holds exactly these keys). All 44 powers of the card are
implemented; the flag stays so that a dial may carry a power whose effect is still to come
(it then counts as absent, :meth:`~envs.heroclix.data.figures.Figure.usable_powers_at`).

Lookups: :data:`POWERS` (read-only mapping, card order), :func:`power` (one key; an unknown
key raises :class:`UnknownPowerError` naming close matches), :func:`powers_in_column`.
"""

from __future__ import annotations

import difflib
import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = [
    "COLOURS",
    "COLUMNS",
    "IMPLEMENTED",
    "POWERS",
    "ActionType",
    "Column",
    "Power",
    "Tier",
    "UnknownPowerError",
    "close_power_keys",
    "power",
    "powers_in_column",
]


class Column(str, enum.Enum):
    """The four dial values a power can sit behind, in the dial's order (HC-1.6, HC-1.11)."""

    SPEED = "speed"
    ATTACK = "attack"
    DEFENSE = "defense"
    DAMAGE = "damage"

    @property
    def position(self) -> int:
        """Position of this value in a click's ``[speed, attack, defense, damage]``."""
        return COLUMNS.index(self)

    @property
    def rule_prefix(self) -> str:
        return _RULE_PREFIX[self]


COLUMNS: tuple[Column, ...] = (Column.SPEED, Column.ATTACK, Column.DEFENSE, Column.DAMAGE)
"""The columns in the order of a click's four values."""

_RULE_PREFIX = {
    Column.SPEED: "P-SPD",
    Column.ATTACK: "P-ATT",
    Column.DEFENSE: "P-DEF",
    Column.DAMAGE: "P-DMG",
}

COLOURS: tuple[str, ...] = (
    "red",
    "orange",
    "yellow",
    "lime",
    "green",
    "blue",
    "dark blue",
    "purple",
    "brown",
    "black",
    "gray",
)
"""The card's colour order, the same in every column: power n of a column has colour n."""


class ActionType(str, enum.Enum):
    """How a power is used (envs/heroclix/RULES.md P-0)."""

    MOVE = "move"
    CLOSE = "close"
    RANGED = "ranged"
    FREE = "free"
    PASSIVE = "passive"


class Tier(str, enum.Enum):
    """T1 fits the basic game directly; T2 needs extra machinery (markers, interrupts)."""

    T1 = "T1"
    T2 = "T2"


@dataclass(frozen=True)
class Power:
    """One power of the card.

    Attributes:
        key: the data key dial files write (``leap_climb``).
        rule_id: ``P-SPD-2``; tests are named after it.
        name: display name (``Leap/Climb``).
        column: the value it sits behind on a dial.
        number: its place in the column, 1..11; it fixes the colour.
        colour: ``COLOURS[number - 1]``.
        optional: its controller may switch it off (HC-3.8).
        actions: the action types that use it (one for most powers).
        action_note: the card's remark on the action, or ``""``.
        tier: T1 or T2.
        implemented: the engine applies it now; a power that is not is treated as absent.
    """

    key: str
    rule_id: str
    name: str
    column: Column
    number: int
    colour: str
    optional: bool
    actions: tuple[ActionType, ...]
    action_note: str
    tier: Tier
    implemented: bool

    def __str__(self) -> str:
        return f"{self.rule_id} {self.name} ({self.key})"


_OPT, _NOT = True, False
_M, _C, _R, _F, _P = (
    ActionType.MOVE,
    ActionType.CLOSE,
    ActionType.RANGED,
    ActionType.FREE,
    ActionType.PASSIVE,
)
_T1, _T2 = Tier.T1, Tier.T2

# One row per power, in card order inside each column (so the row's place is its number and its
# colour). Row: key, display name, optional, action types, action note, tier.
_CARD: dict[Column, tuple[tuple[str, str, bool, tuple[ActionType, ...], str, Tier], ...]] = {
    Column.SPEED: (
        ("flurry", "Flurry", _OPT, (_C,), "", _T1),
        ("leap_climb", "Leap/Climb", _OPT, (_P,), "modifies move + close", _T1),
        ("phasing", "Phasing/Teleport", _OPT, (_M,), "power variant", _T1),
        ("earthbound", "Earthbound", _NOT, (_P,), "", _T2),
        ("charge", "Charge", _OPT, (_C,), "power variant", _T1),
        ("mind_control", "Mind Control", _OPT, (_C, _R), "power variant", _T2),
        ("plasticity", "Plasticity", _OPT, (_P,), "", _T1),
        ("force_blast", "Force Blast", _OPT, (_C,), "power variant", _T1),
        ("hypersonic_speed", "Hypersonic Speed", _OPT, (_M,), "power variant", _T2),
        ("stealth", "Stealth", _OPT, (_P,), "", _T1),
        ("running_shot", "Running Shot", _OPT, (_R,), "power variant", _T1),
    ),
    Column.ATTACK: (
        ("blades_claws_fangs", "Blades/Claws/Fangs", _OPT, (_P,), "close", _T1),
        ("energy_explosion", "Energy Explosion", _OPT, (_R,), "variant of the ranged action", _T1),
        ("pulse_wave", "Pulse Wave", _OPT, (_R,), "variant", _T2),
        ("quake", "Quake", _OPT, (_C,), "variant", _T1),
        ("super_strength", "Super Strength", _OPT, (_P,), "", _T1),
        ("incapacitate", "Incapacitate", _OPT, (_C, _R), "variant", _T1),
        ("psychic_blast", "Psychic Blast", _OPT, (_R,), "variant", _T1),
        ("smoke_cloud", "Smoke Cloud", _OPT, (_R,), "power variant", _T2),
        ("poison", "Poison", _OPT, (_F,), "start of turn", _T1),
        ("steal_energy", "Steal Energy", _NOT, (_P,), "close", _T1),
        # T1 is the default option 3 (objects); options 1-2 are T2 and off by default.
        ("telekinesis", "Telekinesis", _OPT, (_M, _C, _R), "power variant", _T1),
    ),
    Column.DEFENSE: (
        ("super_senses", "Super Senses", _OPT, (_P,), "", _T1),
        ("toughness", "Toughness", _NOT, (_P,), "", _T1),
        ("defend", "Defend", _OPT, (_P,), "", _T1),
        ("combat_reflexes", "Combat Reflexes", _OPT, (_P,), "", _T1),
        ("energy_shield_deflection", "Energy Shield/Deflection", _NOT, (_P,), "", _T1),
        ("barrier", "Barrier", _OPT, (_R,), "power variant", _T2),
        ("mastermind", "Mastermind", _OPT, (_P,), "interrupt", _T2),
        ("willpower", "Willpower", _OPT, (_P,), "", _T1),
        ("impervious", "Impervious", _NOT, (_P,), "", _T1),
        ("regeneration", "Regeneration", _OPT, (_M,), "power variant, no movement", _T1),
        ("invulnerability", "Invulnerability", _NOT, (_P,), "", _T1),
    ),
    Column.DAMAGE: (
        ("ranged_combat_expert", "Ranged Combat Expert", _OPT, (_R,), "variant", _T1),
        ("battle_fury", "Battle Fury", _NOT, (_P,), "", _T1),
        ("support", "Support", _OPT, (_C,), "variant", _T1),
        ("exploit_weakness", "Exploit Weakness", _OPT, (_C,), "variant", _T1),
        ("enhancement", "Enhancement", _OPT, (_P,), "", _T1),
        ("probability_control", "Probability Control", _OPT, (_F,), "interrupt", _T2),
        ("shape_change", "Shape Change", _NOT, (_P,), "", _T1),
        ("close_combat_expert", "Close Combat Expert", _OPT, (_C,), "variant", _T1),
        ("perplex", "Perplex", _OPT, (_F,), "", _T2),
        ("outwit", "Outwit", _OPT, (_F,), "", _T2),
        ("leadership", "Leadership", _OPT, (_F,), "start of turn", _T1),
    ),
}


def _build() -> dict[str, Power]:
    table: dict[str, Power] = {}
    for column in COLUMNS:
        for number, (key, name, optional, actions, note, tier) in enumerate(_CARD[column], 1):
            table[key] = Power(
                key=key,
                rule_id=f"{column.rule_prefix}-{number}",
                name=name,
                column=column,
                number=number,
                colour=COLOURS[number - 1],
                optional=optional,
                actions=actions,
                action_note=note,
                tier=tier,
                implemented=True,
            )
    return table


POWERS: Mapping[str, Power] = MappingProxyType(_build())
"""Every power by key, in card order (speed 1..11, attack 1..11, defense, damage)."""

IMPLEMENTED: frozenset[str] = frozenset(k for k, p in POWERS.items() if p.implemented)
"""Keys of the powers the engine applies now."""

_BY_COLUMN: Mapping[Column, tuple[Power, ...]] = MappingProxyType(
    {c: tuple(p for p in POWERS.values() if p.column is c) for c in COLUMNS}
)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


# Display names and rule ids as people type them, so "Leap/Climb" or "P-DEF-2" finds its key.
_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        **{_slug(p.name): k for k, p in POWERS.items()},
        **{_slug(p.rule_id): k for k, p in POWERS.items()},
    }
)


class UnknownPowerError(KeyError):
    """A power key that is not on the card; the message names close matches."""

    def __init__(self, key: object, suggestions: tuple[str, ...]):
        self.key = key
        self.suggestions = suggestions
        super().__init__(key)

    def __str__(self) -> str:
        hint = (
            f"; did you mean {' or '.join(repr(s) for s in self.suggestions)}?"
            if self.suggestions
            else "; see POWERS for the 44 keys"
        )
        return f"unknown power key {self.key!r}{hint}"


def close_power_keys(key: str, n: int = 3) -> tuple[str, ...]:
    """Up to ``n`` power keys that ``key`` was probably meant to be (a display name or rule id
    written instead of the key counts as a match)."""
    slug = _slug(key)
    if slug in _ALIASES:
        return (_ALIASES[slug],)
    # A clipped key ("regen") is too short for difflib's ratio, so prefixes count as well.
    found = [k for k in POWERS if len(slug) >= 3 and k.startswith(slug)][:n]
    for candidate in difflib.get_close_matches(slug, list(POWERS), n=n, cutoff=0.6):
        if candidate not in found:
            found.append(candidate)
    for alias in difflib.get_close_matches(slug, list(_ALIASES), n=n, cutoff=0.75):
        if _ALIASES[alias] not in found:
            found.append(_ALIASES[alias])
    return tuple(found[:n])


def power(key: str) -> Power:
    """The power with data key ``key``; :class:`UnknownPowerError` if there is none."""
    try:
        return POWERS[key]
    except (KeyError, TypeError):
        raise UnknownPowerError(
            key, close_power_keys(key) if isinstance(key, str) else ()
        ) from None


def powers_in_column(column: Column | str) -> tuple[Power, ...]:
    """The 11 powers of one column, in card order."""
    return _BY_COLUMN[Column(column)]
