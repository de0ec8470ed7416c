"""The figures' part of ``ClixView.observe`` in one compiled call.

Written with numpy, each figure column (its plane, its row of stats and powers, what it
holds, the clicks ahead) was a fancy-indexed scatter, and a step paid the overhead of a dozen
such calls; :func:`stamp_figures` makes the same writes in one pass over the figures.
``tests/heroclix/test_stamp.py`` checks the whole observation against a plain numpy reading
of the plane layout on the states of random games.
"""

from __future__ import annotations

import numpy as np

from envs.core.compiled import kernel


@kernel(
    "void("
    "float32[::1], int64, boolean[::1], int16[::1], int8[::1], int64[::1], "
    "float32[:, :, ::1], int64[::1], int64, int8[::1], int64, boolean[::1], int64, "
    "int8[::1], int64, int8[::1], boolean[::1], int64, int8[:, :, ::1], int64, "
    "int64, float64)"
)
def stamp_figures(
    out: np.ndarray,
    n_cells: int,
    shown: np.ndarray,
    cell: np.ndarray,
    click: np.ndarray,
    figure_offset: np.ndarray,
    rows: np.ndarray,
    row_offsets: np.ndarray,
    tokens_column: int,
    tokens: np.ndarray,
    acted_column: int,
    acted: np.ndarray,
    soaring_column: int,
    mode: np.ndarray,
    soar: int,
    held: np.ndarray,
    object_heavy: np.ndarray,
    held_offset: int,
    dial_values: np.ndarray,
    dial_offset: int,
    dial_ahead: int,
    stat_scale: float,
) -> None:
    """Write each ``shown`` figure's columns on its square of the flat observation ``out``.

    ``figure_offset[f]``: the flat offset of the observer's ``figures`` channel for ``f``'s
    owner; ``rows[f, click]``: the values written at ``row_offsets``, except the turn's
    columns, written as they are now: half the action ``tokens``, ``acted``, and whether
    ``mode`` is ``soar``. A figure that ``held`` an object (>= 0) gets 0.5, or 1 for a heavy
    one, at ``held_offset``. With ``dial_offset`` >= 0, the next ``dial_ahead`` clicks' four
    values (over ``stat_scale``, at most 1) follow it.
    The writes go channel group by channel group, as the numpy version made them.
    """
    n_figures = shown.shape[0]
    for f in range(n_figures):
        if shown[f]:
            out[figure_offset[f] + cell[f]] = 1.0
    n_columns = row_offsets.shape[0]
    for f in range(n_figures):
        if not shown[f]:
            continue
        at = cell[f]
        row = rows[f, click[f]]
        for c in range(n_columns):
            out[row_offsets[c] + at] = row[c]
        out[row_offsets[tokens_column] + at] = tokens[f] * 0.5
        out[row_offsets[acted_column] + at] = acted[f]
        out[row_offsets[soaring_column] + at] = mode[f] == soar
    for f in range(n_figures):
        if shown[f] and held[f] >= 0:
            # halves keep the plane inside the declared [0, 1] observation bounds
            out[held_offset + cell[f]] = 0.5 + 0.5 * object_heavy[held[f]]
    if dial_offset < 0:
        return
    n_clicks, n_values = dial_values.shape[1], dial_values.shape[2]
    for f in range(n_figures):
        if not shown[f]:
            continue
        at = cell[f]
        for j in range(dial_ahead):
            k = click[f] + 1 + j
            if k >= n_clicks:
                break
            for s in range(n_values):
                value = dial_values[f, k, s] / stat_scale
                out[dial_offset + (j * n_values + s) * n_cells + at] = min(value, 1.0)
