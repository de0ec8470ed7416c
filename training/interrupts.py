"""Stopping a training run cleanly on SIGINT or SIGTERM (``training.train``).

:class:`StopSignals` turns the signals into a request the learning loop checks at every env
step (:class:`~training.callbacks.StopOnSignal`), so the run saves a checkpoint, the final
model and ``summary.json`` before it exits with the shell's 128 + signal;
:class:`Interrupted` carries what was saved. SubprocVecEnv workers ignore both signals
(:func:`ignore_stop_signals`): Ctrl-C reaches the whole process group, and the trainer closes
the workers itself.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class Interrupted(KeyboardInterrupt):
    """The run was stopped by SIGINT or SIGTERM. Once ``train`` has saved what it had, ``run``,
    ``timesteps`` and ``checkpoint`` say where; ``exit_code`` is the shell's 128 + signal."""

    def __init__(self, signum: int):
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum
        self.signal_name = signal.Signals(signum).name
        self.run: Path | None = None
        self.timesteps: int | None = None
        self.checkpoint: Path | None = None

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    def report(self) -> str:
        if self.checkpoint is None:
            return f"interrupted by {self.signal_name} before the model existed; nothing to resume from"
        return (
            f"interrupted by {self.signal_name} at step {self.timesteps}: saved {self.checkpoint}, "
            f"final_model.zip and summary.json in {self.run}; continue with resume_from={self.checkpoint}"
        )


class StopSignals:
    """SIGINT and SIGTERM as a request to stop the run cleanly, while ``with``-entered.

    The first signal is recorded in ``signum`` and puts the previous handlers back, so that a
    second one stops the process the usual way: a clean stop that hangs can still be forced.
    Outside :meth:`deferred` blocks the first signal raises :class:`Interrupted` at once; inside
    them (PPO's rollouts and updates) an exception could leave a half-made optimizer step or
    SubprocVecEnv behind, so the signal is only recorded: :class:`StopOnSignal` ends ``learn()``
    at the next env step and :meth:`check` raises afterwards. A signal ignored when the run
    started (``nohup``, a shell's background job) stays ignored. Signal handlers belong to the
    main thread, so elsewhere this does nothing.
    """

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.signum: int | None = None
        self._deferred = 0
        self._previous: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return self.signum is not None

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in self.SIGNALS:
                if signal.getsignal(signum) is not signal.SIG_IGN:
                    self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self._restore()

    def _restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        self._previous = {}

    def _handle(self, signum: int, frame: Any) -> None:
        self.signum = signum
        self._restore()
        if not self._deferred:
            raise Interrupted(signum)

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        self._deferred += 1
        try:
            yield
        finally:
            self._deferred -= 1

    @contextlib.contextmanager
    def immediate(self) -> Iterator[None]:
        """Inside a :meth:`deferred` block: work that a stop may cut short (an evaluation)."""
        deferred, self._deferred = self._deferred, 0
        try:
            yield
        finally:
            self._deferred = deferred

    def check(self) -> None:
        if self.signum is not None:
            raise Interrupted(self.signum)


def ignore_stop_signals() -> None:
    """For SubprocVecEnv workers: a terminal's Ctrl-C reaches the whole process group (and so may a
    service manager's SIGTERM), and SB3's worker loop quits on KeyboardInterrupt, which would take
    the env away from the trainer's clean stop. The trainer closes its workers itself."""
    for signum in StopSignals.SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
