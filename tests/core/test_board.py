"""Board topologies: neighbour tables, distances, walls, input validation."""

import math

import numpy as np
import pytest

from envs.core.board import UNREACHABLE, Board, Topology


def full(topology, height, width, **kwargs):
    return Board.create(topology, np.ones((height, width), dtype=bool), **kwargs)


def test_square4_neighbours_are_n_e_s_w():
    board = full("square4", 3, 3)
    assert board.neighbors[4].tolist() == [1, 5, 7, 3]
    assert board.neighbors[0].tolist() == [-1, 1, 3, -1]
    assert board.direction_names == ("N", "E", "S", "W")


def test_square8_neighbours_go_clockwise_from_north():
    board = full("square8", 3, 3)
    assert board.neighbors[4].tolist() == [1, 2, 5, 8, 7, 6, 3, 0]
    assert board.neighbors[8].tolist() == [5, -1, -1, -1, -1, -1, 7, 4]


def test_hex_odd_rows_are_shifted_right():
    board = full("hex", 3, 3)
    # Directions: E NE NW W SW SE.
    assert board.neighbors[4].tolist() == [5, 2, 1, 3, 7, 8]  # (1,1), odd row
    assert board.neighbors[7].tolist() == [8, 4, 3, 6, -1, -1]  # (2,1), even row
    assert board.neighbors[0].tolist() == [1, -1, -1, -1, -1, 3]


def test_hex_neighbour_centres_are_one_apart():
    board = full("hex", 4, 5)
    centres = board.centers()
    for cell in range(board.n_cells):
        assert board.center(cell) == pytest.approx(tuple(centres[cell]))
        for other in board.neighbors[cell]:
            if other >= 0:
                assert math.dist(centres[cell], centres[other]) == pytest.approx(1.0)


def test_neighbour_tables_are_symmetric():
    for topology in Topology:
        exists = np.ones((4, 5), dtype=bool)
        exists[1, 2] = exists[3, 0] = False
        board = Board.create(topology, exists)
        for cell in range(board.n_cells):
            for other in board.neighbors[cell]:
                if other >= 0:
                    assert cell in board.neighbors[other]


def test_missing_cells_are_not_neighbours_and_distance_goes_around():
    exists = np.ones((3, 3), dtype=bool)
    exists[1, 1] = False
    board = Board.create("square4", exists)
    assert 4 not in board.neighbors[1]
    assert board.distance[3, 5] == 4  # (1,0) -> (1,2) around the hole
    assert board.distance[4, 0] == UNREACHABLE
    assert board.distance[0, 0] == 0


def test_hex_distance_goes_around_a_gap():
    exists = np.ones((3, 5), dtype=bool)
    exists[1, 1] = exists[1, 2] = False
    board = Board.create("hex", exists)
    # (1,0) to (1,3) is 3 steps straight, but the straight path is missing.
    assert board.distance[5, 8] == 4


def test_disconnected_spaces_are_unreachable():
    exists = np.array([[True, False, True]])
    board = Board.create("square8", exists)
    assert board.distance[0, 2] == UNREACHABLE


def test_square8_distance_counts_diagonals_as_one():
    board = full("square8", 4, 4)
    assert board.distance[0, 15] == 3
    assert full("square4", 4, 4).distance[0, 15] == 6


def test_wall_blocks_orthogonal_step_both_ways():
    board = full("square4", 2, 2, walls={((0, 0), (0, 1))})
    assert board.is_wall_between(0, 1) and board.is_wall_between(1, 0)
    assert board.step(0, 1) == -1 and board.step(1, 3) == -1
    assert board.distance[0, 1] == 3


def test_wall_blocks_diagonal_steps_past_its_end():
    board = full("square8", 2, 2, walls={((0, 0), (0, 1))})
    assert 3 not in board.neighbors[0]  # through the wall's end point
    assert 2 not in board.neighbors[1]
    assert 3 in board.neighbors[2]  # the orthogonal step below the wall is fine
    assert board.distance[0, 3] == 2


def test_direction_between_and_step_agree():
    board = full("hex", 3, 3)
    for direction in range(6):
        other = board.step(4, direction)
        assert board.direction_between(4, other) == direction
    assert board.direction_between(0, 8) == -1


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Board.create("square4", np.ones(5, dtype=bool)), "2-D"),
        (lambda: Board.create("square4", np.ones((2, 2)), terrain=np.zeros((3, 2))), "terrain"),
        (lambda: Board.create("hex", np.ones((2, 2)), level=np.zeros((2, 3))), "level"),
        (lambda: full("square4", 3, 3, walls={((0, 0), (1, 1))}), "orthogonally adjacent"),
        (lambda: full("square4", 3, 3, walls={((0, 2), (0, 3))}), "off the 3x3 board"),
        (lambda: full("hex", 3, 3, walls={((0, 0), (0, 1))}), "square boards"),
        (lambda: full("square4", 3, 3).cell(3, 0), "off the 3x3 board"),
        (lambda: Board.create("octagon", np.ones((2, 2))), "octagon"),
    ],
)
def test_bad_inputs_raise_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()
