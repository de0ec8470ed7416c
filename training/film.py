"""An episode's frames, kept as scenes and drawn when read (``training.record``)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from collections.abc import Sequence as SequenceABC
from typing import Any

import numpy as np

__all__ = ["Frames"]


class Frames(SequenceABC):
    """An episode's frames, drawn when read: the scenes are kept, not their pixels.

    ``frames[i]`` renders frame ``i`` (``H x W x 3`` uint8); iterating renders one frame
    after another, so a loop over a long episode holds one frame at a time. Every frame has
    the episode's widest size: narrower boards (the next Epic Heroica mission) are centred
    on the background.
    """

    def __init__(self) -> None:
        self._scenes: list[tuple[Any, int, int]] = []  # (scene, cell_px, target height)
        self._widths: dict[tuple[int, int], int] = {}  # (board id, cell_px) -> frame width
        self.width = 0

    def add(self, scene: Any, cell_px: int, height: int) -> None:
        """Keep ``scene`` as the next frame, drawn ``height`` pixels high at ``cell_px``."""
        # A snapshot: a game may reuse objects from state to state, and the frame must show
        # this moment. The board is static and large, so it is shared, not copied.
        scene = copy.deepcopy(scene, {id(scene.board): scene.board})
        key = (id(scene.board), cell_px)
        if key not in self._widths:  # size never depends on the caption: one render tells it
            self._widths[key] = self._render(scene, cell_px, height).shape[1]
            self.width = max(self.width, self._widths[key])
        self._scenes.append((scene, cell_px, height))

    @staticmethod
    def _render(scene: Any, cell_px: int, height: int) -> np.ndarray:
        from envs.core import render

        return render.render_frame(scene, cell_px=cell_px, target_height=height)

    def scene(self, index: int) -> Any:
        """The scene frame ``index`` draws."""
        return self._scenes[index][0]

    def __len__(self) -> int:
        return len(self._scenes)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        scene, cell_px, height = self._scenes[index]
        return _pad_to_width(self._render(scene, cell_px, height), self.width)

    def __iter__(self) -> Iterator[np.ndarray]:
        for index in range(len(self)):
            yield self[index]


def _pad_to_width(frame: np.ndarray, width: int) -> np.ndarray:
    """``frame`` centred on a background ``width`` pixels wide."""
    from envs.core.render import BACKGROUND

    extra = width - frame.shape[1]
    if extra <= 0:
        return frame
    padded = np.empty((frame.shape[0], width, 3), np.uint8)
    padded[:] = BACKGROUND
    padded[:, extra // 2 : extra // 2 + frame.shape[1]] = frame
    return padded
