"""Observation layout declared once: named views -> slices of planes, and the channel names.

A game declares its observation as an ordered list of views, each a name and its channels::

    planes = PlaneLayout([
        View("space"),                                   # one plane
        View("piece", ["bat", "golem", "rocks"]),        # one plane per piece kind
        View("hero", [f"seat+{k}" for k in range(n)]),
        View("phase", [p.name for p in Phase], constant=True),
    ])
    obs[planes["piece"]]            # the piece planes (a slice)
    planes.start("hero")            # first channel of a view
    planes.channel("phase", "MOVE") # one channel by view and name
    planes.channel_names            # ("space", "piece:bat", ..., "phase:MOVE", ...)

Views marked ``constant`` are scalars broadcast over the board; they must come after every
board view, so ``planes.board_channels`` splits the two. Views write through these names;
no view hard-codes a channel number.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class View:
    name: str
    channels: tuple[str, ...] = ()  # names within the view; empty = one plane named like the view
    constant: bool = False
    sep: str = ":"  # channel name = view name + sep + channel ("piece:bat", "hero@seat+0")

    def __init__(
        self, name: str, channels: Sequence[str] = (), constant: bool = False, sep: str = ":"
    ):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "channels", tuple(channels))
        object.__setattr__(self, "constant", constant)
        object.__setattr__(self, "sep", sep)

    @property
    def size(self) -> int:
        return max(1, len(self.channels))

    def channel_names(self) -> list[str]:
        return (
            [f"{self.name}{self.sep}{c}" for c in self.channels] if self.channels else [self.name]
        )


class PlaneLayout:
    def __init__(self, views: Sequence[View]):
        self.views = tuple(views)
        self._slices: dict[str, slice] = {}
        self._channel: dict[tuple[str, str], int] = {}
        names: list[str] = []
        seen_constant = False
        for view in self.views:
            if view.name in self._slices:
                raise ValueError(f"observation view {view.name!r} declared twice")
            if seen_constant and not view.constant:
                raise ValueError(f"board view {view.name!r} comes after constant views")
            seen_constant = seen_constant or view.constant
            start = len(names)
            self._slices[view.name] = slice(start, start + view.size)
            for k, channel in enumerate(view.channels):
                self._channel[(view.name, channel)] = start + k
            names += view.channel_names()
        self.channel_names: tuple[str, ...] = tuple(names)
        self.board_channels = next(
            (self._slices[v.name].start for v in self.views if v.constant), len(names)
        )

    def __len__(self) -> int:
        return len(self.channel_names)

    def __getitem__(self, view: str) -> slice:
        try:
            return self._slices[view]
        except KeyError:
            raise KeyError(f"no observation view {view!r}; views: {list(self._slices)}") from None

    def start(self, view: str) -> int:
        return self[view].start

    def channel(self, view: str, name: str) -> int:
        return self._channel[(view, name)]

    @property
    def constant_channels(self) -> int:
        return len(self.channel_names) - self.board_channels
