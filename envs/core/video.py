"""Video files from rendered frames: MP4 (H.264, yuv420p) or looping GIF, written as they come.

:class:`VideoWriter` takes the ``H x W x 3`` uint8 frames of
:func:`envs.core.render.render_frame` (any equal-sized RGB frames work) one at a time and
encodes each at once, so a video of any length needs memory for a frame or two, never for
the whole film. Odd sizes are padded to even, since H.264 with 4:2:0 chroma cannot encode
them. :func:`write_video` writes a sequence (or any iterable, e.g. a generator rendering
frame after frame) through one writer; :func:`write_videos` feeds several files (an MP4 and a
GIF) from one pass over the frames, so each frame is rendered once.

MP4 goes through ``imageio``'s ffmpeg writer, which pipes each frame to the encoder. A GIF is
assembled here from single-frame GIFs that Pillow encodes (Pillow's own animated-GIF writer
keeps every frame until it closes): each frame after the first is cut to the rectangle that
changed, and a frame equal to the one before only lengthens that frame's display time, as
Pillow's writer does. ``imageio`` is imported only when an MP4 is written, so rendering
frames never needs it.

GIF palettes (``gif_optimize``, on by default): each image gets its own table, quantised
(fast octree, no dithering: the renderer's colours are flat, and dither noise defeats LZW)
from the pixels that changed only, and the unchanged pixels inside the cut rectangle are
transparent, so the frame below shows through. Between two decisions little changes (a
caption, a figure, the dice) but the rectangle spans them all; long transparent runs are what
LZW compresses well. On a 4-player Heroscape game this writes a quarter of the bytes of a
plain adaptive palette over the whole rectangle (``gif_optimize=False``, the old encoder:
6.7 MB down to 1.5 MB for a minute of 720p), a third on a 2-player Heroica game.
A global table (one palette for the film) was not used: it saves at most 768 bytes a frame
and would misrepresent colours that first appear late.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np
from PIL import Image

if TYPE_CHECKING:  # imageio is imported where an mp4 is written (see _open)
    from imageio.core.format import Format

__all__ = ["VideoWriter", "palette_image", "write_video", "write_videos"]

SUFFIXES = (".mp4", ".gif")


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
    return np.ascontiguousarray(array)


def _check_path(path: str | Path, fps: float) -> Path:
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise ValueError(f"unsupported video suffix {path.suffix!r}; use .mp4 or .gif")
    if fps <= 0:
        raise ValueError(f"fps must be positive, got {fps}")
    return path


class _GifStream:
    """An animated GIF (looping forever) written frame by frame to ``fp``."""

    def __init__(self, fp: IO[bytes], frame_ms: int, optimize: bool = True) -> None:
        self.fp = fp
        self.frame_ms = frame_ms
        self.optimize = optimize
        self._shown: np.ndarray | None = None  # the picture the file shows so far
        self._pending: np.ndarray | None = None  # the newest picture, its time still growing
        self._pending_ms = 0

    def append(self, rgb: np.ndarray, repeat: int = 1) -> None:
        if self._pending is not None and np.array_equal(rgb, self._pending):
            self._pending_ms += self.frame_ms * repeat
            return
        self._flush()
        self._pending, self._pending_ms = rgb, self.frame_ms * repeat

    def close(self) -> None:
        self._flush()
        if self._shown is not None:
            self.fp.write(b";")

    def _flush(self) -> None:
        rgb = self._pending
        if rgb is None:
            return
        unchanged = None
        if self._shown is None:
            top, left, crop = 0, 0, rgb
        else:
            changed = np.any(rgb != self._shown, axis=2)
            rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
            top, left = int(rows[0]), int(cols[0])
            bottom, right = int(rows[-1]) + 1, int(cols[-1]) + 1
            crop = rgb[top:bottom, left:right]
            if self.optimize:
                unchanged = ~changed[top:bottom, left:right]
        palette, interlace, lzw, transparent = _encode_gif_image(crop, unchanged, self.optimize)
        if self._shown is None:
            height, width = rgb.shape[:2]
            # Header, a logical screen with the first frame's palette as global table, and
            # the NETSCAPE2.0 extension with loop count 0 (forever).
            self.fp.write(
                b"GIF89a"
                + struct.pack("<HHBBB", width, height, 0x80 | _table_bits(palette), 0, 0)
                + palette
                + b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
            )
        # Graphic control: disposal 1 (keep this frame under the next, which only covers
        # what changed), the transparent index if any, delay in hundredths of a second; then
        # the image with a local table.
        delay = min(0xFFFF, self._pending_ms // 10)
        flags = 1 << 2 | (transparent is not None)
        self.fp.write(
            b"!\xf9\x04"
            + struct.pack("<BHBB", flags, delay, transparent or 0, 0)
            + b","
            + struct.pack(
                "<HHHHB",
                left,
                top,
                crop.shape[1],
                crop.shape[0],
                0x80 | interlace | _table_bits(palette),
            )
            + palette
            + lzw
        )
        self._shown, self._pending = rgb, None


def _table_bits(palette: bytes) -> int:
    """The size field of a colour table of ``len(palette) // 3`` entries (2 ** (bits + 1))."""
    return max(0, (len(palette) // 3).bit_length() - 2)


def palette_image(
    rgb: np.ndarray, unchanged: np.ndarray | None = None, optimize: bool = True
) -> Image.Image:
    """``rgb`` as a palette image (see the module docstring); with ``unchanged``, those pixels
    take a transparent index. The HTML replay embeds its frames this way too."""
    if not optimize:
        return Image.fromarray(rgb).convert("P", palette=Image.Palette.ADAPTIVE)
    if unchanged is None or not unchanged.any():
        return Image.fromarray(rgb).quantize(
            256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    changed = ~unchanged
    index = np.full(rgb.shape[:2], 255, np.uint8)
    colours: list[int] = []
    if changed.any():
        # The palette is spent on the new pixels alone: they are all this image shows.
        quantised = Image.fromarray(rgb[changed][None]).quantize(
            255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
        index[changed] = np.asarray(quantised)[0]
        colours = (quantised.getpalette() or [])[: 3 * 255]
    image = Image.fromarray(index, "P")
    image.putpalette(colours + [0] * (3 * 256 - len(colours)))
    image.info["transparency"] = 255
    return image


def _encode_gif_image(
    rgb: np.ndarray, unchanged: np.ndarray | None = None, optimize: bool = True
) -> tuple[bytes, int, bytes, int | None]:
    """(colour table, interlace flag, LZW code size and data sub-blocks, transparent index or
    None) of ``rgb`` as one GIF image, the ``unchanged`` pixels transparent when optimising.

    Pillow encodes; the pieces are cut out of the single-frame file it writes. Pillow trims
    the table to the colours used and renumbers them, so the transparent index is read back
    from the graphic control extension it writes."""
    buffer = io.BytesIO()
    palette_image(rgb, unchanged, optimize).save(buffer, format="GIF", interlace=False)
    data = buffer.getvalue()
    flags = data[10]
    at = 13
    palette = b""
    transparent = None
    if flags & 0x80:
        size = 3 << ((flags & 7) + 1)
        palette, at = data[at : at + size], at + size
    while data[at] == 0x21:  # extensions before the image: only the graphic control matters
        if data[at + 1] == 0xF9 and data[at + 3] & 1:
            transparent = data[at + 6]
        at += 2
        while data[at]:
            at += data[at] + 1
        at += 1
    if data[at] != 0x2C:
        raise RuntimeError("Pillow wrote a GIF without an image block")
    local = data[at + 9]
    at += 10
    if local & 0x80:  # a local table replaces the global one for this image
        size = 3 << ((local & 7) + 1)
        palette, at = data[at : at + size], at + size
    start = at
    at += 1  # LZW minimum code size, then sub-blocks up to an empty one
    while data[at]:
        at += data[at] + 1
    return palette, local & 0x40, data[start : at + 1], transparent


class VideoWriter:
    """Frames appended to ``path`` (``.mp4``: H.264, yuv420p; ``.gif``: loops forever) are
    encoded as they come. Every frame must have the size of the first; odd sizes are padded
    by one pixel to even. Use as a context manager: leaving on an exception deletes the
    partial file, a clean exit closes it. ``gif_optimize=False`` turns off the GIF palette
    optimisation (see the module docstring)."""

    def __init__(self, path: str | Path, fps: float = 2, gif_optimize: bool = True) -> None:
        self.path = _check_path(path, fps)
        self.fps = fps
        self.gif_optimize = gif_optimize
        self.frames = 0  # frames written so far, repeats included
        self._shape: tuple[int, ...] | None = None
        self._mp4: Format.Writer | None = None
        self._gif: _GifStream | None = None
        self._file: IO[bytes] | None = None

    def append(self, frame: np.ndarray, repeat: int = 1) -> None:
        """Write ``frame`` ``repeat`` times (a held picture)."""
        shape = np.asarray(frame).shape
        if self._shape is None:
            array = _even_rgb(frame, 0)
            self._open()
            self._shape = shape
        elif shape != self._shape:
            raise ValueError(
                f"frame {self.frames} has shape {shape}, but frame 0 has shape "
                f"{self._shape}; all frames must match"
            )
        else:
            array = _even_rgb(frame, self.frames)
        if self._mp4 is not None:
            for _ in range(repeat):
                self._mp4.append_data(array)
        else:
            self._gif.append(array, repeat)  # type: ignore[union-attr]
        self.frames += repeat

    def _open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.suffix.lower() == ".mp4":
            import imageio.v2 as imageio  # imported here so that rendering frames never needs it

            # macro_block_size=1: sizes are already even, and the default (16) would resize.
            self._mp4 = imageio.get_writer(
                self.path,
                format="FFMPEG",
                mode="I",
                fps=self.fps,
                codec="libx264",
                pixelformat="yuv420p",
                macro_block_size=1,
                quality=7,
                ffmpeg_log_level="error",
            )
        else:
            self._file = open(self.path, "wb")
            self._gif = _GifStream(self._file, max(20, round(1000 / self.fps)), self.gif_optimize)

    def close(self) -> Path:
        """Finish the file; raises ValueError if no frame was appended. Returns the path."""
        if self._shape is None:
            raise ValueError("write_video needs at least one frame")
        if self._mp4 is not None:
            self._mp4.close()
            self._mp4 = None
        if self._gif is not None:
            self._gif.close()
            self._file.close()  # type: ignore[union-attr]
            self._gif = self._file = None
        return self.path

    def discard(self) -> None:
        """Stop writing and delete what was written."""
        for closer in (self._mp4, self._file):
            if closer is not None:
                try:
                    closer.close()
                except Exception:  # noqa: BLE001 - the file goes anyway
                    pass
        self._mp4 = self._gif = self._file = None
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> VideoWriter:
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            self.close()
        else:
            self.discard()


def write_videos(
    frames: Iterable[np.ndarray],
    paths: Sequence[str | Path],
    fps: float = 2,
    repeat_last: int = 0,
    gif_optimize: bool = True,
) -> list[Path]:
    """Write the same frames to each of ``paths`` in one pass (each frame is read once), the
    last one shown ``1 + repeat_last`` times. On any error no partial file is left."""
    writers = [VideoWriter(path, fps, gif_optimize) for path in paths]
    last = None
    try:
        for frame in frames:
            if last is not None:
                for writer in writers:
                    writer.append(last)
            last = frame
        if last is None:
            raise ValueError("write_video needs at least one frame")
        for writer in writers:
            writer.append(last, 1 + repeat_last)
        return [writer.close() for writer in writers]
    except BaseException:
        for writer in writers:
            writer.discard()
        raise


def write_video(frames: Iterable[np.ndarray], path: str | Path, fps: float = 2) -> Path:
    """Write RGB frames to ``path``: ``.mp4`` (H.264, yuv420p) or ``.gif`` (loops forever).

    ``frames`` may be any iterable; each frame is encoded as it is read. All frames must
    have the same size; odd sizes are padded by one pixel to even. Raises ValueError for an
    unknown suffix, no frames or frames of different sizes (leaving no file). Returns the path.
    """
    return write_videos(frames, [path], fps)[0]
