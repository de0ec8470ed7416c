"""Plain references for HeroClix's lines of fire (:mod:`envs.core.firelines`): the module
docstring's rules read one square and one wall at a time, exact segment geometry, and random
boards to check the compiled query on."""

from __future__ import annotations

import numpy as np

from envs.core.board import Board
from envs.core.sight import square_line_cells


def box(top, left, bottom, right, height, width):
    """Walls around the rectangle rows top..bottom, cols left..right (inclusive)."""
    walls = set()
    for r in range(top, bottom + 1):
        for c, out in ((left, left - 1), (right, right + 1)):
            if 0 <= out < width:
                walls.add(((r, c), (r, out)))
    for c in range(left, right + 1):
        for r, out in ((top, top - 1), (bottom, bottom + 1)):
            if 0 <= out < height:
                walls.add(((r, c), (out, c)))
    return walls


def segments_meet(a, b, p, q):
    """Closed segments a-b and p-q meet (exact on integers, collinear overlap included)."""

    def orient(o, u, v):
        value = (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
        return (value > 0) - (value < 0)

    def on(o, u, v):
        return min(o[0], u[0]) <= v[0] <= max(o[0], u[0]) and min(o[1], u[1]) <= v[1] <= max(
            o[1], u[1]
        )

    o1, o2, o3, o4 = orient(a, b, p), orient(a, b, q), orient(p, q, a), orient(p, q, b)
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and on(a, b, p))
        or (o2 == 0 and on(a, b, q))
        or (o3 == 0 and on(p, q, a))
        or (o4 == 0 and on(p, q, b))
    )


def wall_segment(board, lo, hi):
    """A wall in doubled coordinates (x = 2*col, y = 2*row)."""
    (r, c), (r2, _) = board.rc(lo), board.rc(hi)
    if r == r2:
        return (2 * c + 1, 2 * r - 1), (2 * c + 1, 2 * r + 1)
    return (2 * c - 1, 2 * r + 1), (2 * c + 1, 2 * r + 1)


def reference_line(board, a, b, standing, m, a_soar, a_fly, t_soar, t_fly):
    """The rules of envs.core.firelines' docstring, read one square and one wall at a time."""
    cells = square_line_cells(board, a, b).cells.tolist()
    (ra, ca), (rb, cb) = board.rc(a), board.rc(b)
    touched = [
        (p, q)
        for p, q in standing
        if segments_meet((2 * ca, 2 * ra), (2 * cb, 2 * rb), *wall_segment(board, p, q))
    ]
    up = board.level > 0
    stops = m["blocking"] | ~board.exists
    figures = (
        (m["soaring_figures"] if a_soar else m["ground_figures"])
        if a_soar == t_soar
        else np.zeros(board.n_cells, dtype=bool)
    )
    if not up[a] and not up[b]:
        blocked = any(stops[c] or up[c] or figures[c] for c in cells) or bool(touched)
        between = any(m["hindering"][c] for c in cells)
    elif up[a] and up[b]:
        blocked = any(up[c] and (stops[c] or figures[c]) for c in cells) or any(
            up[p] and up[q] for p, q in touched
        )
        between = any(up[c] and m["hindering"][c] for c in cells)
    else:
        roof = a if up[a] else b
        blocked = any(stops[c] or up[c] for c in cells) or any(
            roof not in (p, q) for p, q in touched
        )
        between = False
    flyer = a_soar or a_fly or t_soar or t_fly
    hindered = (
        not blocked
        and (between or m["hindering"][b])
        and (m["indoor"][a] or m["indoor"][b] or not flyer)
    )
    return not blocked, bool(hindered)


def random_board(rng, height, width):
    """Two roofs (one taller, still "elevated"), walls around them and strewn about, a few
    missing squares."""
    levels = np.zeros((height, width), dtype=np.int16)
    walls = set()
    for level in (1, 2):
        top, left = int(rng.integers(0, height - 1)), int(rng.integers(0, width - 1))
        bottom = min(height - 1, top + int(rng.integers(0, 3)))
        right = min(width - 1, left + int(rng.integers(0, 3)))
        levels[top : bottom + 1, left : right + 1] = level
        walls |= box(top, left, bottom, right, height, width)
    for _ in range(height * width // 4):
        r, c = int(rng.integers(0, height - 1)), int(rng.integers(0, width - 1))
        walls.add(((r, c), (r, c + 1)) if rng.random() < 0.5 else ((r, c), (r + 1, c)))
    exists = rng.random((height, width)) > 0.05
    return Board.create("square8", exists, level=levels, walls=walls)
