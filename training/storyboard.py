"""Which frames a recording shows, and for how long: each decision's *beat*.

A viewer follows a game by its turning points, so a decision's frame is timed by what it
shows (:func:`beat_of`), from its events (their ``kind``), its dice and the scoreboard:

========== ============================================================== ========
beat       the decision                                                     on screen
========== ============================================================== ========
DECISIVE   a figure falls (``ko``, ``defeat``), the score changes, the      2.0 s
           game ends; the start and the result
ROLL       dice were rolled                                                 1.5 s
PLAY       anything else that changes the picture (a move, a pick-up)       0.6 s
ROUTINE    a selection, a card choice, a pass, the end of a turn, a         0.3 s
           forced step with nothing to show
========== ============================================================== ========

A length cap (:func:`plan`) drops ROUTINE frames first, then PLAY frames, each evenly over
the game, and never a ROLL or DECISIVE one; when those alone are longer than the cap their
times shrink, to at least :data:`FLOOR_SECONDS`, and past that the video runs longer than
the cap rather than lose a roll or a fall. A shown frame carries the strongest beat of the
decisions since the frame before it.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "DECISIVE_KINDS",
    "FLOOR_SECONDS",
    "ROUTINE_KINDS",
    "SECONDS",
    "Beat",
    "Shot",
    "beat_of",
    "plan",
    "sample_evenly",
]


class Beat(enum.IntEnum):
    ROUTINE = 0
    PLAY = 1
    ROLL = 2
    DECISIVE = 3


SECONDS = {Beat.ROUTINE: 0.3, Beat.PLAY: 0.6, Beat.ROLL: 1.5, Beat.DECISIVE: 2.0}
"""How long a frame of each beat stays on screen, uncapped (at speed 1)."""
FLOOR_SECONDS = {Beat.ROUTINE: 0.3, Beat.PLAY: 0.6, Beat.ROLL: 0.6, Beat.DECISIVE: 1.0}
"""The shortest a cap may squeeze a kept frame (ROUTINE and PLAY are dropped instead)."""

DECISIVE_KINDS = frozenset({"ko", "defeat", "defeated", "destroyed", "win", "draw", "game_over"})
"""Event kinds that end a figure or the game, in any of the games."""
ROUTINE_KINDS = frozenset({"card", "end_turn", "pass", "switch_off", "select"})
"""Event kinds that change nothing a viewer needs to see at length."""


def beat_of(kinds: Iterable[str], dice: Sequence[str], forced: bool, score_changed: bool) -> Beat:
    """The beat of one decision: its events' ``kinds``, the ``dice`` it rolled, whether it
    was ``forced`` (one legal action) and whether it changed the scoreboard."""
    kinds = set(kinds)
    if score_changed or kinds & DECISIVE_KINDS:
        return Beat.DECISIVE
    if dice:
        return Beat.ROLL
    if forced or kinds <= ROUTINE_KINDS:  # no events at all: a selection
        return Beat.ROUTINE
    return Beat.PLAY


@dataclass(frozen=True)
class Shot:
    """One shown frame: which, how long (seconds at speed 1), and its beat."""

    frame: int
    seconds: float
    beat: Beat


def sample_evenly(count: int, keep: int) -> list[int]:
    """``keep`` of the indices ``0 .. count-1`` spread evenly, the first and the last among
    them (all of them when ``keep >= count``)."""
    if keep >= count:
        return list(range(count))
    if keep <= 0:
        return []
    if keep == 1:
        return [count - 1]
    return [round(i * (count - 1) / (keep - 1)) for i in range(keep)]


def plan(
    frames: Sequence[int],
    beats: Sequence[Beat],
    max_seconds: float | None = None,
    tick: float | None = None,
) -> list[Shot]:
    """The shots of ``frames`` (candidate frame indices, in order, the first the start and
    the last the result) with their ``beats`` (one per frame), within ``max_seconds`` when
    given (see the module docstring). The first and the last frame are always kept, as
    DECISIVE. With ``tick`` (the time of one video frame), every shot lasts a whole number
    of ticks, so the cap holds for the video as written."""
    if len(beats) != len(frames):
        raise ValueError(f"{len(frames)} frames but {len(beats)} beats")
    if not frames:
        return []

    def ticks(seconds: float, rounding=round) -> float:
        return seconds if tick is None else max(1, rounding(seconds / tick + 1e-9)) * tick

    last = len(frames) - 1
    beats = [Beat.DECISIVE if i in (0, last) else Beat(b) for i, b in enumerate(beats)]
    shots = [Shot(f, ticks(SECONDS[b]), b) for f, b in zip(frames, beats)]
    if not max_seconds:
        return shots
    for level in (Beat.ROUTINE, Beat.PLAY):
        excess = sum(s.seconds for s in shots) - max_seconds
        if excess <= 1e-9:
            return shots
        droppable = [i for i, s in enumerate(shots) if s.beat == level and 0 < i < len(shots) - 1]
        drop = min(len(droppable), math.ceil(excess / ticks(SECONDS[level]) - 1e-9))
        kept = {droppable[k] for k in sample_evenly(len(droppable), len(droppable) - drop)}
        gone = set(droppable) - kept
        shots = [s for i, s in enumerate(shots) if i not in gone]
    total = sum(s.seconds for s in shots)
    if total <= max_seconds + 1e-9:
        return shots
    scale = max_seconds / total
    return [
        Shot(
            s.frame, max(ticks(FLOOR_SECONDS[s.beat]), ticks(s.seconds * scale, math.floor)), s.beat
        )
        for s in shots
    ]
