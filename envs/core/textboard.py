"""ASCII boards: the text picture of a scene and a row builder for games' own text boards.

:func:`render_text` turns a :class:`envs.core.render.Scene` into plain text, one character
per cell followed by caption, dice and status lines. :func:`text_grid` is the generic row
assembly underneath it: one string per board row from a per-cell token, with an optional
indent for odd rows (hex boards). Nothing here needs Pillow or knows any game's rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .board import Board, Topology

if TYPE_CHECKING:
    from .render import Scene

__all__ = ["render_text", "text_grid"]


def text_grid(
    board: Board,
    rows: int,
    cols: int,
    token: Callable[[int], str],
    *,
    odd_row_indent: str = "",
    row_width: int | None = None,
) -> list[str]:
    """One string per row ``0..rows-1``: ``token(cell)`` concatenated for the ``cols`` cells
    ``cell = row * (row_width or board.width) + col`` of the row, odd rows prefixed with
    ``odd_row_indent``. Rows are returned as built, not stripped.
    """
    width = row_width or board.width
    return [
        (odd_row_indent if row & 1 else "")
        + "".join(token(row * width + col) for col in range(cols))
        for row in range(rows)
    ]


def render_text(scene: Scene, terrain_glyphs: dict[int, str] | None = None) -> str:
    """ASCII picture of ``scene``: one character per cell, then caption, dice and status.
    Dice groups, when the scene has them, take a line each: ``label: faces (result)``.

    A cell shows the first character of a piece's label (figures before tokens), else its
    cell mark, else its terrain glyph: ``terrain_glyphs[code]`` when given, otherwise '.'
    for terrain 0 and the lower-case initial of ``terrain_names[code]`` (or the code's last
    digit). Non-spaces are '#'. Hex rows are spaced out and odd rows shifted by one
    character, which is half a cell.
    """
    board = scene.board
    grid: list[str] = []
    for cell in range(board.n_cells):
        code = int(board.terrain[cell])
        if not board.exists[cell]:
            glyph = "#"
        elif terrain_glyphs is not None and code in terrain_glyphs:
            glyph = terrain_glyphs[code][:1] or " "
        elif code == 0:
            glyph = "."
        elif scene.terrain_names.get(code):
            glyph = scene.terrain_names[code][0].lower()
        else:
            glyph = str(code)[-1]
        grid.append(glyph)
    for cell, mark in scene.cell_marks.items():
        if 0 <= cell < board.n_cells and mark:
            grid[cell] = mark[0]
    ordered = sorted(scene.pieces, key=lambda p: p.kind != "token")  # figures drawn last win
    for piece in ordered:
        for cell in (piece.cell, *piece.cells):
            if 0 <= cell < board.n_cells and piece.label:
                grid[cell] = piece.label[0]
    if board.topology is Topology.HEX:
        # Cells are space-separated: every cell but a row's first brings its separator.
        lines = text_grid(
            board,
            board.height,
            board.width,
            lambda cell: (" " + grid[cell]) if cell % board.width else grid[cell],
            odd_row_indent=" ",
        )
    else:
        lines = text_grid(board, board.height, board.width, grid.__getitem__)
    if scene.caption:
        lines.append(scene.caption)
    if scene.dice_groups:
        lines += [
            f"{g.label}: {' '.join(str(f) for f in g.faces)}"
            + (f" ({g.result_text})" if g.result_text else "")
            for g in scene.dice_groups
        ]
    elif scene.dice:
        lines.append("dice: " + " ".join(scene.dice))
    lines.extend(scene.status_lines)
    return "\n".join(lines)
