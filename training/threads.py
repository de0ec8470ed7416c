"""Torch's thread count for gradient work, chosen by timing it (``torch_threads: auto``).

On the 2-core machine a run has to itself, PPO's updates made 1.4x the learner steps an hour
with 2 threads than with 1 (Heroscape, 6-minute runs); with another process busy on a core,
2 threads cloned 9x slower than 1 (the threads wait on each other). Neither count is right
everywhere, so :class:`ThreadTuner` times the repeated work under each candidate count,
keeps the faster, and tries the other again now and then in case the machine's load has
changed: first after :data:`FIRST_RECHECK` rounds, then twice as long after each recheck
that confirms the choice (a slow candidate costs little), and back to the start after a
recheck that changes it.
"""

from __future__ import annotations

import time

import torch

FIRST_RECHECK = 8  # rounds on the chosen count before the other is tried again


class ThreadTuner:
    """The thread count for each round of a repeated piece of work of about the same size
    (a PPO update, a block of cloning minibatches): ``threads()`` before a round,
    ``record(seconds)`` after it. The first round runs on the first candidate untimed: it
    pays for warming up (allocations, the first passes)."""

    def __init__(self, candidates: tuple[int, ...] | None = None) -> None:
        every_core = torch.get_num_threads()  # torch's default: what torch_threads: null gives
        found = candidates if candidates is not None else (every_core, 1)
        if not found or any(not isinstance(c, int) or c < 1 for c in found):
            raise ValueError(f"thread candidates must be positive ints, got {found!r}")
        self.candidates = tuple(dict.fromkeys(found))  # each once, in order
        self.timings: dict[int, float] = {}  # the last timed round's seconds under each count
        self.chosen = self.candidates[0]
        self.warming_up = True
        self.trying: list[int] = list(self.candidates)  # counts to time before choosing
        self.recheck_every = FIRST_RECHECK
        self.until_recheck = 0
        self.current = self.chosen
        self.history: list[int] = []  # the count chosen at each choice, in order

    def threads(self) -> int:
        """The count for the next round (a count to try, or the chosen one)."""
        if self.warming_up:
            self.current = self.candidates[0]
        else:
            self.current = self.trying[0] if self.trying else self.chosen
        return self.current

    def record(self, seconds: float) -> None:
        """The round just done took ``seconds`` under :meth:`threads`' count."""
        if self.warming_up:
            self.warming_up = False
            return
        self.timings[self.current] = seconds
        if self.trying:
            self.trying.remove(self.current)
            if not self.trying:
                self._choose()
            return
        self.until_recheck -= 1
        if self.until_recheck <= 0 and len(self.candidates) > 1:
            self.trying = [c for c in self.candidates if c != self.chosen]

    def _choose(self) -> None:
        best = min(self.candidates, key=lambda c: self.timings[c])
        if self.history and best == self.chosen:
            self.recheck_every *= 2  # confirmed: look again less often
        else:
            self.recheck_every = FIRST_RECHECK
        self.chosen = best
        self.history.append(best)
        self.until_recheck = self.recheck_every

    def summary(self) -> dict[str, object]:
        """For ``summary.json``: the count in use, the last timings, every choice made."""
        return {
            "threads": self.chosen,
            "seconds_by_threads": {str(k): round(v, 3) for k, v in self.timings.items()},
            "choices": list(self.history),
        }


class TunedBlocks:
    """A loop's iterations in rounds of ``size`` for a :class:`ThreadTuner`: ``tick()`` before
    each iteration starts a new round every ``size`` of them (timing the one before), on the
    count the tuner gives. A last, unfinished round is not timed."""

    def __init__(self, tuner: ThreadTuner, size: int) -> None:
        self.tuner, self.size = tuner, size
        self.count = 0
        self.started: float | None = None

    def tick(self) -> None:
        if self.count % self.size == 0:
            now = time.monotonic()
            if self.started is not None:
                self.tuner.record(now - self.started)
            torch.set_num_threads(self.tuner.threads())
            self.started = now
        self.count += 1
