"""Events: what happened inside ``apply`` (rolls, moves, fights, wins), for transcripts,
captions and video; and :func:`last_action`, the decorations a frame draws from them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


@dataclass
class Event:
    """Something that happened inside ``apply``: a roll, a move, a fight, a win.

    ``text`` is human-readable; ``kind`` is a short tag; ``cells`` lets the renderer draw the
    last action as its start and end squares (from, to); ``dice`` lists rolled symbols.
    """

    kind: str
    text: str
    player: int = -1
    cells: tuple[int, ...] = ()
    dice: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "player": self.player,
            "cells": list(self.cells),
            "dice": list(self.dice),
        }


class LastAction(NamedTuple):
    arrow: tuple[int, int] | None  # from the first move's start to the last move's end
    dice: list[str]  # every symbol rolled, in order
    text: str  # the last event's text ("" without events)


def last_action(events: Sequence[Event] | None, local: Callable[[int], int] = int) -> LastAction:
    """What a frame shows of the last decision: an arrow over its moves, its dice, the text of
    its last event. ``local`` maps the engine's cells to the scene board's cells."""
    if not events:
        return LastAction(None, [], "")
    moves = [e for e in events if len(e.cells) == 2]
    arrow = (local(moves[0].cells[0]), local(moves[-1].cells[1])) if moves else None
    return LastAction(arrow, [d for e in events for d in e.dice], events[-1].text)
