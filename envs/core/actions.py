"""Action layout: named cell planes plus slot families <-> one flat ``Discrete(N)``.

::

    index:  0 .. C-1      plane 0 over the C board cells   (e.g. "step" to cell c)
            C .. 2C-1     plane 1                          (e.g. "target" cell c)
            ...
            P*C ..        slots in declared order: single specials ("roll", "end_turn")
                          and families of slots ("buy" x weapons, "card" x army cards)

Every action decodes to a :class:`DecodedAction` ``(kind, index, param)``: ``kind`` is the
plane or family name, ``index`` the cell or slot number, ``param`` the value the family
declared for that slot (a weapon index, a ``(monster, seat)`` pair). Engines dispatch on
``kind`` and read ``param``; nothing parses an action's name to get its parameter. A single
special is a family of one slot whose ``param`` is ``None``.

Games build one layout at load and never do arithmetic on action numbers themselves: they
ask the layout (``plane_action``, ``special``, ``slot``, ``decode``).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class DecodedAction(NamedTuple):
    kind: str  # plane name, or the slot family's name (a special's own name)
    # cell for plane actions, slot number within the family otherwise; the field shadows
    # tuple.index (a method), and every rule reads it by this name
    index: int  # type: ignore[assignment]
    param: Any  # cell for plane actions, the slot's declared value for families
    name: str  # plane name for plane actions; the slot's full name ("buy_bow") otherwise
    on_cell: bool

    @property
    def cell(self) -> int:
        return self.index if self.on_cell else -1


@dataclass(frozen=True)
class SlotFamily:
    """Slots of one kind: ``name`` + one label and one parameter per slot.

    Slot ``k`` is named ``f"{name}_{labels[k]}"`` (``buy_bow``); a family without labels is one
    special action named ``name``.
    """

    name: str
    labels: tuple[str, ...] = ()
    params: tuple[Hashable, ...] = ()

    @classmethod
    def of(
        cls, name: str, labels: Sequence[str] = (), params: Sequence[Hashable] | None = None
    ) -> SlotFamily:
        labels = tuple(labels)
        params = tuple(range(len(labels))) if params is None else tuple(params)
        if len(params) != len(labels):
            raise ValueError(f"family {name!r}: {len(labels)} labels but {len(params)} params")
        return cls(name, labels, params)

    @property
    def size(self) -> int:
        return max(1, len(self.labels))

    def slot_names(self) -> list[str]:
        return [f"{self.name}_{label}" for label in self.labels] if self.labels else [self.name]


@dataclass(frozen=True)
class ActionLayout:
    n_cells: int
    planes: tuple[str, ...]
    families: tuple[SlotFamily, ...]
    width: int = 0  # board width, so a cell reads (row,col) in :meth:`describe`; 0: its index
    _decoded: tuple[DecodedAction, ...] = field(repr=False, compare=False, default=())
    _family_base: dict[str, int] = field(repr=False, compare=False, default_factory=dict)
    _by_name: dict[str, int] = field(repr=False, compare=False, default_factory=dict)
    _family_span: dict[str, tuple[int, int]] = field(
        repr=False, compare=False, default_factory=dict
    )
    _plane_offset: dict[str, int] = field(repr=False, compare=False, default_factory=dict)

    @classmethod
    def build(
        cls, n_cells: int, planes: Sequence[str], slots: Sequence[str | SlotFamily], width: int = 0
    ) -> ActionLayout:
        """``slots``: special names (one slot each) and :class:`SlotFamily` objects, in order;
        ``width``: the board's width, for cell names in :meth:`describe`."""
        families = tuple(s if isinstance(s, SlotFamily) else SlotFamily(s) for s in slots)
        names = list(planes) + [f.name for f in families]
        slot_names = [n for f in families for n in f.slot_names()]
        all_names = names + [n for f in families if f.labels for n in f.slot_names()]
        duplicates = {n for n in all_names if all_names.count(n) > 1}
        if duplicates:
            raise ValueError(f"action names used twice: {sorted(duplicates)}")
        decoded = [
            DecodedAction(plane, cell, cell, plane, True)
            for plane in planes
            for cell in range(n_cells)
        ]
        base: dict[str, int] = {}
        for family in families:
            base[family.name] = len(decoded)
            for k, slot_name in enumerate(family.slot_names()):
                param = family.params[k] if family.labels else None
                decoded.append(DecodedAction(family.name, k, param, slot_name, False))
        by_name = {name: len(planes) * n_cells + i for i, name in enumerate(slot_names)}
        spans = {f.name: (base[f.name], f.size) for f in families}
        offsets = {plane: i * n_cells for i, plane in enumerate(planes)}
        if width and n_cells % width:
            raise ValueError(f"{n_cells} cells do not make rows of width {width}")
        return cls(
            n_cells, tuple(planes), families, width, tuple(decoded), base, by_name, spans, offsets
        )

    @functools.cached_property
    def size(self) -> int:
        # cached: every step's legality check and mask ask it
        return len(self._decoded)

    @property
    def specials(self) -> tuple[str, ...]:
        """Every slot's full name, in action order (``roll``, ``buy_bow``, ...)."""
        return tuple(self._by_name)

    def plane_offset(self, plane: str) -> int:
        try:
            return self._plane_offset[plane]
        except KeyError:
            raise ValueError(
                f"no action plane named {plane!r}; planes: {list(self.planes)}"
            ) from None

    def plane_action(self, plane: str, cell: int) -> int:
        if not 0 <= cell < self.n_cells:
            raise ValueError(f"cell {cell} is outside 0..{self.n_cells - 1}")
        return self.plane_offset(plane) + int(cell)

    def special(self, name: str) -> int:
        """The action of a slot by its full name (``"roll"``, ``"buy_bow"``)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise ValueError(f"no special action named {name!r}") from None

    def slot(self, family: str, index: int = 0) -> int:
        """The action of slot ``index`` of ``family``."""
        try:
            base, size = self._family_span[family]
        except KeyError:
            raise ValueError(f"no slot family named {family!r}") from None
        if not 0 <= index < size:
            raise ValueError(f"family {family!r} has no slot {index}")
        return base + index

    def family(self, name: str) -> SlotFamily:
        for family in self.families:
            if family.name == name:
                return family
        raise ValueError(f"no slot family named {name!r}")

    def decode(self, action: int) -> DecodedAction:
        decoded = self._decoded
        if not 0 <= action < len(decoded):
            raise ValueError(f"action {action} is outside the action space 0..{len(decoded) - 1}")
        return decoded[int(action)]

    def describe(self, action: int) -> str:
        """The action by its place in the layout, whatever the position: ``step (1,4)``,
        ``buy_bow``. Error messages name an action that is not legal now this way, since
        what it would do (the game's own name) may mean nothing in this position."""
        decoded = self.decode(action)
        if not decoded.on_cell:
            return decoded.name
        where = (
            f"({decoded.cell // self.width},{decoded.cell % self.width})"
            if self.width
            else f"cell {decoded.cell}"
        )
        return f"{decoded.kind} {where}"

    def table(self) -> list[tuple[str, str]]:
        """(index range, meaning) rows for documentation."""
        rows = []
        for i, plane in enumerate(self.planes):
            rows.append((f"{i * self.n_cells}..{(i + 1) * self.n_cells - 1}", f"{plane} <cell>"))
        for family in self.families:
            start = self._family_base[family.name]
            if family.labels:
                rows.append(
                    (
                        f"{start}..{start + family.size - 1}",
                        f"{family.name}_<{'|'.join(family.labels)}>",
                    )
                )
            else:
                rows.append((str(start), family.name))
        return rows
