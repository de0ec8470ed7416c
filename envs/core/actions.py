"""Action layout: named cell planes plus named special actions <-> one flat ``Discrete(N)``.

::

    index:  0 .. C-1      plane 0 over the C board cells   (e.g. "step" to cell c)
            C .. 2C-1     plane 1                          (e.g. "target" cell c)
            ...
            P*C ..        specials in declared order       (e.g. "roll", "end_turn", "buy_axe")

Games build one layout at load and never do arithmetic on action numbers themselves: they
ask the layout (``plane_action``, ``special``, ``decode``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence


class DecodedAction(NamedTuple):
    plane: str | None  # plane name, or None for a special action
    cell: int  # cell index for plane actions, -1 for specials
    special: str | None  # special action name, or None for a plane action


@dataclass(frozen=True)
class ActionLayout:
    n_cells: int
    planes: tuple[str, ...]
    specials: tuple[str, ...]

    def __post_init__(self) -> None:
        names = list(self.planes) + list(self.specials)
        duplicates = {name for name in names if names.count(name) > 1}
        if duplicates:
            raise ValueError(f"action names used twice: {sorted(duplicates)}")
        object.__setattr__(self, "_plane_index", {p: i for i, p in enumerate(self.planes)})
        object.__setattr__(
            self, "_special_index",
            {s: len(self.planes) * self.n_cells + i for i, s in enumerate(self.specials)},
        )

    @classmethod
    def build(cls, n_cells: int, planes: Sequence[str], specials: Sequence[str]) -> "ActionLayout":
        return cls(n_cells, tuple(planes), tuple(specials))

    @property
    def size(self) -> int:
        return len(self.planes) * self.n_cells + len(self.specials)

    def plane_offset(self, plane: str) -> int:
        return self._plane_index[plane] * self.n_cells  # type: ignore[attr-defined]

    def plane_action(self, plane: str, cell: int) -> int:
        if not 0 <= cell < self.n_cells:
            raise ValueError(f"cell {cell} is outside 0..{self.n_cells - 1}")
        return self.plane_offset(plane) + int(cell)

    def special(self, name: str) -> int:
        try:
            return self._special_index[name]  # type: ignore[attr-defined]
        except KeyError:
            raise ValueError(f"no special action named {name!r}") from None

    def decode(self, action: int) -> DecodedAction:
        action = int(action)
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is outside the action space 0..{self.size - 1}")
        plane_count = len(self.planes) * self.n_cells
        if action < plane_count:
            plane, cell = divmod(action, self.n_cells)
            return DecodedAction(self.planes[plane], cell, None)
        return DecodedAction(None, -1, self.specials[action - plane_count])

    def table(self) -> list[tuple[str, str]]:
        """(index range, meaning) rows for documentation."""
        rows = []
        for i, plane in enumerate(self.planes):
            rows.append((f"{i * self.n_cells}..{(i + 1) * self.n_cells - 1}", f"{plane} <cell>"))
        base = len(self.planes) * self.n_cells
        for i, special in enumerate(self.specials):
            rows.append((str(base + i), special))
        return rows
