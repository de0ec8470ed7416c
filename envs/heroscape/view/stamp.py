"""``HeroscapeView.observe`` in one compiled call.

Written with numpy, the observation spent most of its time in the overhead of a dozen small
calls (copy, fancy indexing, ``put``, broadcasting) on a ~12k-float array; :func:`stamp`
makes the same writes in one pass. ``tests/heroscape/test_stamp.py`` checks it against a
channel-by-channel reading of the plane layout on random states.
"""

from __future__ import annotations

import numpy as np

from envs.core.compiled import kernel

# Columns of the per-observer figure table, after the flat offset of each value column.
OWNER, CARD, DOUBLE = 0, 1, 2
STAT_SCALE = 10.0  # figures left are counted in tens, like the cards' stats


@kernel(
    "void("
    "float32[::1], int64[:, ::1], float32[:, ::1], int64[::1], int16[::1], "
    "int16[::1], boolean[::1], boolean[::1], int64, int64, int64, int64, int64, "
    "int64, int64, float64, int64[::1], int64, int64[:, ::1], float32[::1], int64[::1])"
)
def stamp(
    out: np.ndarray,
    table: np.ndarray,
    values: np.ndarray,
    turn_cols: np.ndarray,
    cell: np.ndarray,
    cell2: np.ndarray,
    moved: np.ndarray,
    attacked: np.ndarray,
    card: int,
    selected: int,
    destination: int,
    n_channels: int,
    constant_start: int,
    phase_channel: int,
    round_value_channel: int,
    round_value: float,
    hold: np.ndarray,
    hold_scale: int,
    seat_channels: np.ndarray,
    constants: np.ndarray,
    counts: np.ndarray,
) -> None:
    """Fill the flat observation ``out`` of ``n_channels`` x ``n_cells``, which holds the
    board planes (zero elsewhere), with each figure's values at its spaces and the constant
    channels. ``constants`` (one per constant channel) and ``counts`` (one per seat) are
    scratch space the caller keeps, so a call allocates nothing.

    ``table[f]``: the flat offset of each of ``values``' columns for figure ``f`` (the
    observer's channels), then its owner, card and double-space flag; ``turn_cols``: the
    value columns of moved, attacked, chosen card and selected; ``destination``: a flat index
    or -1. Constant channels from ``constant_start``: 1 at ``phase_channel``,
    ``round_value``, and per seat (``seat_channels`` rows: hold, figures left) its
    ``hold / hold_scale`` and figures left / 10 (at most 1).
    """
    n_figures, n_columns = values.shape
    # The numpy version wrote every figure's first space, then the double-space figures'
    # second spaces; the same order keeps the result the same should two writes meet.
    for second in range(2):
        for f in range(n_figures):
            if second and not table[f, n_columns + DOUBLE]:
                continue
            at = cell2[f] if second else cell[f]
            if at < 0:
                continue
            for c in range(n_columns):
                out[table[f, c] + at] = values[f, c]
            # the turn columns of ``values`` are 0, written over with the state's flags
            out[table[f, turn_cols[0]] + at] = moved[f]
            out[table[f, turn_cols[1]] + at] = attacked[f]
            out[table[f, turn_cols[2]] + at] = table[f, n_columns + CARD] == card
            out[table[f, turn_cols[3]] + at] = f == selected
    if destination >= 0:
        out[destination] = 1.0
    n_seats = seat_channels.shape[1]
    constants[:] = 0.0
    constants[phase_channel - constant_start] = 1.0
    constants[round_value_channel - constant_start] = round_value
    counts[:] = 0
    for f in range(n_figures):
        if cell[f] >= 0:
            counts[table[f, n_columns + OWNER]] += 1
    for seat in range(n_seats):
        constants[seat_channels[0, seat] - constant_start] = hold[seat] / hold_scale
        constants[seat_channels[1, seat] - constant_start] = min(1.0, counts[seat] / STAT_SCALE)
    n_cells = out.shape[0] // n_channels
    for k in range(constants.shape[0]):
        start = (constant_start + k) * n_cells
        out[start : start + n_cells] = constants[k]
