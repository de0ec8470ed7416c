"""Adjacency under HC-3.13 on hand-made square8 boards, before HeroClix uses it.

Boards as text: ``.`` ground, ``^`` elevated (level 1), ``B`` blocking terrain, ``#`` no space.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.adjacency import adjacency_table, adjacent
from envs.core.board import Board


def board_from(text: str, walls=frozenset()):
    grid = np.array([list(r.strip()) for r in text.strip().splitlines()])
    board = Board.create("square8", grid != "#", level=(grid == "^").astype(np.int16), walls=walls)
    return board, (grid == "B").reshape(-1)


def near(board, table, a, b, **kw):
    return adjacent(board, table, board.cell(*a), board.cell(*b), **kw)


def test_HC_3_13_touching_squares_are_adjacent_straight_and_diagonally():
    board, blocking = board_from("""
        ...
        ...
        ...
    """)
    table = adjacency_table(board, blocking)
    assert all(
        near(board, table, (1, 1), other)
        for other in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
    )
    assert not near(board, table, (0, 0), (0, 2))


def test_HC_3_13_a_wall_between_or_at_a_diagonal_corner_breaks_adjacency():
    board, blocking = board_from(
        """
        ...
        ...
    """,
        walls={((0, 0), (0, 1))},
    )
    table = adjacency_table(board, blocking)
    assert not near(board, table, (0, 0), (0, 1))  # the wall between
    assert not near(board, table, (0, 0), (1, 1))  # the wall touches the diagonal's corner
    assert not near(board, table, (1, 0), (0, 1))  # the other diagonal through that corner
    assert near(board, table, (1, 0), (1, 1)) and near(board, table, (0, 1), (0, 2))


def test_HC_3_13_blocking_terrain_beside_a_diagonal_breaks_adjacency():
    board, blocking = board_from("""
        .B.
        ...
    """)
    table = adjacency_table(board, blocking)
    assert not near(board, table, (0, 0), (1, 1))  # the diagonal's corner touches B
    assert not near(board, table, (0, 2), (1, 1))
    assert near(board, table, (1, 0), (1, 1)) and near(board, table, (0, 0), (1, 0))
    assert near(board, adjacency_table(board), (0, 0), (1, 1))  # without the blocking mask


def test_HC_3_13_one_figure_higher_up_is_not_adjacent():
    board, blocking = board_from("""
        .^^
        ...
    """)
    table = adjacency_table(board, blocking)
    assert not near(board, table, (0, 0), (0, 1)) and not near(board, table, (1, 1), (0, 2))
    assert near(board, table, (0, 1), (0, 2))  # both on the rooftop


def test_HC_3_13_soaring_figures_are_adjacent_only_to_soaring_figures():
    board, blocking = board_from(
        """
        .B^
        ...
    """,
        walls={((0, 0), (1, 0))},
    )
    table = adjacency_table(board, blocking)
    assert near(board, table, (0, 0), (1, 0), soaring_a=True, soaring_b=True)  # over the wall
    assert near(board, table, (1, 1), (0, 2), soaring_a=True, soaring_b=True)  # over levels
    assert not near(board, table, (1, 0), (1, 1), soaring_a=True)
    assert not near(board, table, (0, 0), (0, 2), soaring_a=True, soaring_b=True)


def test_adjacency_needs_a_square8_board_and_a_matching_mask():
    with pytest.raises(ValueError, match="square8 boards, not hex"):
        adjacency_table(Board.create("hex", np.ones((2, 2), dtype=bool)))
    board, _ = board_from("..")
    with pytest.raises(ValueError, match="blocking has shape"):
        adjacency_table(board, np.zeros(5, dtype=bool))
