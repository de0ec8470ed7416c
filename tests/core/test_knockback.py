"""Knockback on hand-made square8 boards (HC-4.9 ... HC-4.13), before HeroClix uses it.

Boards are drawn as text: ``.`` ground, ``^`` an elevated square (level 1), ``#`` not a space,
``B`` blocking terrain, ``o`` another figure; ``A`` is the attacker, ``T`` the pushed figure.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.board import Board
from envs.core.knockback import KnockbackStop, compass_direction, knockback

N, NE, E, SE, S, SW, W, NW = range(8)


def board_from(text: str, walls=frozenset()):
    rows = [r for r in text.strip().splitlines()]
    grid = np.array([list(r.strip()) for r in rows])
    board = Board.create("square8", grid != "#", level=(grid == "^").astype(np.int16), walls=walls)
    cells = {ch: [int(i) for i in np.flatnonzero(grid.reshape(-1) == ch)] for ch in "ATBo"}
    blocking = np.zeros(board.n_cells, dtype=bool)
    blocking[cells["B"]] = True
    occupied = np.zeros(board.n_cells, dtype=bool)
    occupied[cells["o"]] = True
    return board, cells, blocking, occupied


def push(text, distance, walls=frozenset(), **kw):
    board, cells, blocking, occupied = board_from(text, walls)
    attacker, target = cells["A"][0], cells["T"][0]
    direction = compass_direction(board, attacker, target)
    result = knockback(
        board, target, direction, distance, blocking=blocking, occupied=occupied, **kw
    )
    return board, result


@pytest.mark.parametrize(
    "vector,expected",
    [
        ((0, 3), E),
        ((-2, 0), N),
        ((2, 2), SE),
        ((2, 1), SE),
        ((3, 1), S),
        ((1, 3), E),
        ((-1, -2), NW),
        ((-1, -3), W),
        ((1, -1), SW),
    ],
)
def test_HC_4_9_direction_is_the_compass_point_closest_in_angle(vector, expected):
    board = Board.create("square8", np.ones((9, 9), dtype=bool))
    source = board.cell(4, 4)
    target = board.cell(4 + vector[0], 4 + vector[1])
    assert compass_direction(board, source, target) == expected


def test_HC_4_9_one_square_per_damage_straight_away_diagonals_included():
    board, result = push(
        """
        A.....
        .T....
        ......
        ......
    """,
        2,
    )
    assert [board.label(c) for c in result.path] == ["(2,2)", "(3,3)"]
    assert result.reason is KnockbackStop.DONE and result.extra_damage == 0


def test_HC_4_10_map_edge_stops_the_push_with_1_damage():
    board, result = push("AT..", 5)
    assert board.label(result.stop) == "(0,3)"
    assert result.reason is KnockbackStop.EDGE and result.extra_damage == 1


def test_HC_4_10_wall_stops_the_push_with_1_damage():
    board, result = push("AT...", 3, walls={((0, 2), (0, 3))})
    assert board.label(result.stop) == "(0,2)" and result.reason is KnockbackStop.WALL
    assert result.extra_damage == 1


def test_HC_4_10_a_diagonal_push_grazing_a_wall_corner_stops():
    board, result = push(
        """
        A...
        .T..
        ....
    """,
        2,
        walls={((1, 2), (2, 2))},
    )
    assert result.path == () and result.reason is KnockbackStop.WALL


def test_HC_4_10_blocking_terrain_and_higher_ground_stop_with_1_damage():
    _, blocked = push("AT.B.", 4)
    assert blocked.reason is KnockbackStop.BLOCKING and len(blocked.path) == 1
    assert blocked.extra_damage == 1
    _, higher = push("AT.^.", 4)
    assert higher.reason is KnockbackStop.HIGHER and len(higher.path) == 1
    assert higher.extra_damage == 1


def test_HC_4_11_knocked_off_higher_ground_lands_and_takes_2():
    board2, cells, _, _ = board_from(
        "A^^.."
    )  # the pushed figure stands on the first rooftop square
    start = cells["A"][0] + 1
    fall = knockback(board2, start, E, 3)
    assert [board2.label(c) for c in fall.path] == ["(0,2)", "(0,3)"]
    assert fall.reason is KnockbackStop.FALL and fall.extra_damage == 2
    assert knockback(board2, start, E, 3, flyer=True).extra_damage == 0  # flyers do not fall


def test_HC_4_11_occupied_landing_square_keeps_the_figure_up_without_damage():
    board, cells, _, occupied = board_from("A^^o.")
    fall = knockback(board, cells["A"][0] + 1, E, 3, occupied=occupied)
    assert board.label(fall.stop) == "(0,2)"
    assert fall.reason is KnockbackStop.FALL_BLOCKED and fall.extra_damage == 0


def test_HC_4_13_another_figure_stops_the_push_without_damage():
    board, result = push("AT.o..", 4)
    assert board.label(result.stop) == "(0,2)"
    assert result.reason is KnockbackStop.FIGURE and result.extra_damage == 0


def test_HC_4_13_soaring_figures_pass_walls_terrain_and_levels():
    board, result = push("AT.B^..", 4, walls={((0, 1), (0, 2))}, soaring=True)
    assert board.label(result.stop) == "(0,5)" and result.reason is KnockbackStop.DONE
    _, edge = push("AT.B", 5, soaring=True)
    assert edge.reason is KnockbackStop.EDGE and edge.extra_damage == 1
    _, stopped = push("AT.o.", 5, soaring=True)  # "o": another soaring figure here
    assert stopped.reason is KnockbackStop.FIGURE and stopped.extra_damage == 0


def test_zero_damage_means_no_push_and_bad_input_is_named():
    board, result = push("AT..", 0)
    assert result.path == () and result.reason is KnockbackStop.DONE and result.extra_damage == 0
    with pytest.raises(ValueError, match="distance must be >= 0"):
        knockback(board, 1, E, -1)
    with pytest.raises(ValueError, match="direction 8 out of range"):
        knockback(board, 1, 8, 1)
    with pytest.raises(ValueError, match="blocking has shape"):
        knockback(board, 1, E, 1, blocking=np.zeros(3, dtype=bool))
    with pytest.raises(ValueError, match="square8 boards, not square4"):
        knockback(Board.create("square4", np.ones((2, 2), dtype=bool)), 0, E, 1)
    with pytest.raises(ValueError, match="to itself"):
        compass_direction(board, 1, 1)


def test_HC_3_22_a_push_stops_before_squares_it_may_not_end_on():
    board = Board.create("square8", np.ones((1, 6), dtype=bool))
    no_end = np.zeros(6, dtype=bool)
    no_end[[3, 4]] = True
    push = knockback(board, 0, 2, 4, soaring=True, may_not_end=no_end)
    assert push.path == (1, 2) and push.reason is KnockbackStop.FIGURE and push.extra_damage == 0
    clear = knockback(board, 0, 2, 2, soaring=True, may_not_end=no_end)
    assert clear.path == (1, 2) and clear.reason is KnockbackStop.DONE
