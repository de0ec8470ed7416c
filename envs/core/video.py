"""Video files from rendered frames: MP4 (H.264, yuv420p) or looping GIF.

:func:`write_video` takes the ``H x W x 3`` uint8 frames of
:func:`envs.core.render.render_frame` (any equal-sized RGB frames work) and pads odd sizes
to even, since H.264 with 4:2:0 chroma cannot encode them. ``imageio`` (with its ffmpeg
plugin) is imported only when a video is written, so rendering frames never needs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
from PIL import Image

__all__ = ["write_video"]


def _even_rgb(frame: np.ndarray, index: int) -> np.ndarray:
    array = np.asarray(frame)
    if array.ndim == 2:
        array = np.stack([array] * 3, axis=-1)
    if array.ndim != 3 or array.shape[2] not in (3, 4):
        raise ValueError(f"frame {index} has shape {array.shape}, expected H x W x 3")
    array = array[:, :, :3]
    if array.dtype != np.uint8:
        array = np.clip(array, 0, 255).astype(np.uint8)
    pad_h, pad_w = array.shape[0] % 2, array.shape[1] % 2
    if pad_h or pad_w:  # H.264 needs even sizes; pad rather than let ffmpeg rescale
        array = np.pad(array, ((0, pad_h), (0, pad_w), (0, 0)), mode="edge")
    return array


def write_video(frames: Sequence[np.ndarray], path: str | Path, fps: float = 2) -> Path:
    """Write RGB frames to ``path``: ``.mp4`` (H.264, yuv420p) or ``.gif`` (loops forever).

    All frames must have the same size; odd sizes are padded by one pixel to even. Raises
    ValueError for an unknown suffix, no frames or frames of different sizes. Returns the path.
    """
    import imageio.v2 as imageio  # imported here so that rendering frames never needs it

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".mp4", ".gif"):
        raise ValueError(f"unsupported video suffix {path.suffix!r}; use .mp4 or .gif")
    frames = list(frames)
    if not frames:
        raise ValueError("write_video needs at least one frame")
    if fps <= 0:
        raise ValueError(f"fps must be positive, got {fps}")
    first = np.asarray(frames[0]).shape
    for i, frame in enumerate(frames):
        if np.asarray(frame).shape != first:
            raise ValueError(f"frame {i} has shape {np.asarray(frame).shape}, "
                             f"but frame 0 has shape {first}; all frames must match")
    arrays = [_even_rgb(frame, i) for i, frame in enumerate(frames)]
    path.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".mp4":
        # macro_block_size=1: sizes are already even, and the default (16) would resize.
        with imageio.get_writer(path, format="FFMPEG", mode="I", fps=fps, codec="libx264",
                                pixelformat="yuv420p", macro_block_size=1, quality=7,
                                ffmpeg_log_level="error") as writer:
            for array in arrays:
                writer.append_data(array)
    else:
        images = [Image.fromarray(array) for array in arrays]
        images[0].save(path, save_all=True, append_images=images[1:], loop=0,
                       duration=max(20, round(1000 / fps)), disposal=1)
    return path
