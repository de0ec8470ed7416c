"""Walls as dynamic state (HC-5.14, HC-5.16, HC-5.17) on hand-made square8 boards:
WallGeometry ids and neighbour tables, and adjacency / knockback / line of fire once a wall
breaks.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.adjacency import adjacency_table, adjacent
from envs.core.board import Board
from envs.core.firelines import FireLines
from envs.core.knockback import KnockbackStop, knockback
from envs.core.walls import WallGeometry

N, NE, E, SE, S, SW, W, NW = range(8)


def square(height, width, walls=frozenset(), exists=None, level=None):
    exists = np.ones((height, width), dtype=bool) if exists is None else exists
    return Board.create("square8", exists, level=level, walls=walls)


def random_walls(rng, height, width, count):
    walls = set()
    for _ in range(count):
        r, c = int(rng.integers(0, height)), int(rng.integers(0, width))
        if rng.random() < 0.5 and c + 1 < width:
            walls.add(((r, c), (r, c + 1)))
        elif r + 1 < height:
            walls.add(((r, c), (r + 1, c)))
    return walls


def box(top, left, bottom, right, height, width):
    """Walls around the rectangle of squares rows top..bottom, cols left..right (inclusive)."""
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


def broken(geometry, *pairs):
    """walls_intact with the walls between the given (row, col) pairs broken."""
    board = geometry.board
    intact = geometry.all_intact()
    for p, q in pairs:
        intact[geometry.edge_id(board.cell(*p), board.cell(*q))] = False
    return intact


# -- ids ------------------------------------------------------------------------------------


def test_HC_5_14_wall_ids_follow_sorted_edges_and_look_up_both_ways():
    board = square(3, 3, walls={((1, 1), (1, 2)), ((0, 0), (1, 0)), ((0, 1), (0, 0))})
    geometry = WallGeometry(board)
    assert geometry.n_edges == 3
    assert geometry.edges.tolist() == [[0, 1], [0, 3], [4, 5]]
    assert geometry.edge_id(5, 4) == geometry.edge_id(4, 5) == 2
    assert geometry.edge_id(1, 0) == 0
    with pytest.raises(ValueError, match=r"no wall between \(0,1\) and \(0,2\)"):
        geometry.edge_id(1, 2)
    assert not geometry.edges.flags.writeable


def test_HC_5_14_edges_around_lists_the_walls_on_a_squares_four_sides():
    board = square(3, 3, walls=box(1, 1, 1, 1, 3, 3) | {((0, 0), (0, 1))})
    geometry = WallGeometry(board)
    centre = board.cell(1, 1)
    ids = geometry.edges_around(centre)
    assert [geometry.edges[i].tolist() for i in ids] == [[1, 4], [4, 5], [4, 7], [3, 4]]
    assert geometry.edges_around(0) == (geometry.edge_id(0, 1),)  # its east side
    assert geometry.edges_around(board.cell(2, 2)) == ()  # touches the box only at a corner
    assert geometry.around[board.cell(0, 1)].tolist() == [
        -1,
        -1,
        geometry.edge_id(1, 4),
        geometry.edge_id(0, 1),
    ]


def test_HC_5_14_step_walls_orthogonal_edge_and_every_wall_at_a_diagonal_corner():
    board = square(3, 3, walls={((0, 0), (0, 1)), ((1, 1), (2, 1)), ((1, 1), (1, 2))})
    geometry = WallGeometry(board)
    assert geometry.step_walls(0, E) == (geometry.edge_id(0, 1),)
    assert geometry.step_walls(0, S) == ()
    # (0,0) -> (1,1) passes the corner where the (0,0)|(0,1) wall ends.
    assert geometry.step_walls(0, SE) == (geometry.edge_id(0, 1),)
    # (1,1) -> (2,2) passes the corner where both of (1,1)'s walls end.
    assert sorted(geometry.step_walls(board.cell(1, 1), SE)) == sorted(
        [geometry.edge_id(4, 7), geometry.edge_id(4, 5)]
    )
    assert geometry.step_walls(0, N) == ()  # off the board: no wall decides it


# -- the dynamic table ----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_HC_5_14_all_walls_intact_equals_the_boards_own_table(seed):
    rng = np.random.default_rng(seed)
    height, width = int(rng.integers(3, 10)), int(rng.integers(3, 10))
    exists = rng.random((height, width)) > 0.15
    walls = random_walls(rng, height, width, 4 * height * width // 3)
    board = square(height, width, walls=walls, exists=exists)
    geometry = WallGeometry(board)
    assert geometry.n_edges == len(board.walls) > 0
    assert np.array_equal(geometry.neighbors(geometry.all_intact()), board.neighbors)
    assert np.array_equal(geometry.neighbors(), board.neighbors)
    no_walls = geometry.neighbors(np.zeros(geometry.n_edges, dtype=bool))
    assert np.array_equal(no_walls, square(height, width, exists=exists).neighbors)
    assert np.array_equal(geometry.open_neighbors, no_walls)


def test_HC_5_14_buildings_outlined_in_walls_match_the_boards_table():
    walls = box(1, 1, 3, 4, 8, 8) | box(5, 5, 7, 7, 8, 8) | box(0, 6, 0, 7, 8, 8)
    board = square(8, 8, walls=walls)
    geometry = WallGeometry(board)
    assert np.array_equal(geometry.neighbors(), board.neighbors)
    # Breaking each wall alone gives the table of a board without that one wall.
    for i, (a, b) in enumerate(geometry.edges[:6]):
        intact = geometry.all_intact()
        intact[i] = False
        rebuilt = square(
            8,
            8,
            walls={
                pair for pair in walls if {board.cell(*pair[0]), board.cell(*pair[1])} != {a, b}
            },
        )
        assert np.array_equal(geometry.neighbors(intact), rebuilt.neighbors)


def test_HC_5_16_broken_wall_opens_the_straight_step_but_a_diagonal_needs_every_corner_wall_gone():
    board = square(2, 2, walls={((0, 0), (0, 1)), ((1, 0), (1, 1))})
    geometry = WallGeometry(board)
    one = geometry.neighbors(broken(geometry, ((0, 0), (0, 1))))
    assert one[0, E] == 1 and one[1, W] == 0  # the broken wall's step, both ways
    assert one[0, SE] == -1  # the lower wall still ends at the corner
    both = geometry.neighbors(broken(geometry, ((0, 0), (0, 1)), ((1, 0), (1, 1))))
    assert both[0, SE] == 3 and both[2, NE] == 1 and both[2, E] == 3
    assert board.neighbors[0, E] == -1  # the board itself never changes


def test_neighbors_is_cached_by_mask_bytes_and_read_only():
    board = square(3, 3, walls={((0, 0), (0, 1)), ((1, 1), (1, 2))})
    geometry = WallGeometry(board)
    first = geometry.neighbors(np.array([True, False]))
    assert geometry.neighbors(np.array([True, False])) is first
    other = geometry.neighbors(np.array([False, False]))
    assert other is not first and other[0, E] == 1 and first[0, E] == -1
    assert not first.flags.writeable
    with pytest.raises(ValueError):
        first[0, 0] = 5


def test_walls_errors_are_clear():
    with pytest.raises(ValueError, match="square8 board, not hex"):
        WallGeometry(Board.create("hex", np.ones((2, 2), dtype=bool)))
    with pytest.raises(ValueError, match="square8 board, not square4"):
        WallGeometry(Board.create("square4", np.ones((2, 2), dtype=bool)))
    geometry = WallGeometry(square(2, 2, walls={((0, 0), (0, 1))}))
    with pytest.raises(ValueError, match=r"walls_intact has shape \(3,\), expected \(1,\)"):
        geometry.neighbors(np.ones(3, dtype=bool))
    board = square(2, 3)
    with pytest.raises(ValueError, match=r"neighbors has shape \(4, 8\), expected \(6, 8\)"):
        adjacency_table(board, neighbors=np.zeros((4, 8), dtype=np.int32))
    with pytest.raises(ValueError, match=r"neighbors has shape \(6, 4\), expected \(6, 8\)"):
        knockback(board, 0, E, 1, neighbors=np.zeros((6, 4), dtype=np.int32))


def test_a_board_without_walls_has_no_ids_and_the_open_table():
    board = square(3, 4)
    geometry = WallGeometry(board)
    assert geometry.n_edges == 0 and geometry.edges.shape == (0, 2)
    assert np.array_equal(geometry.neighbors(np.zeros(0, dtype=bool)), board.neighbors)


# -- what a broken wall changes -------------------------------------------------------------


def test_HC_5_16_broken_wall_opens_adjacency_and_line_of_fire():
    board = square(3, 4, walls={((1, 1), (1, 2)), ((0, 1), (0, 2)), ((2, 1), (2, 2))})
    geometry = WallGeometry(board)
    a, b = board.cell(1, 1), board.cell(1, 2)
    intact = geometry.all_intact()
    table = adjacency_table(board, neighbors=geometry.neighbors(intact))
    assert not adjacent(board, table, a, b)
    lines = FireLines(board, geometry)
    shooter, target = board.cell(1, 0), board.cell(1, 3)
    assert not lines.line(shooter, target, walls_intact=intact).clear
    hole = broken(geometry, ((1, 1), (1, 2)))
    table = adjacency_table(board, neighbors=geometry.neighbors(hole))
    assert adjacent(board, table, a, b)
    assert not adjacent(board, table, board.cell(0, 1), board.cell(0, 2))  # another wall
    # HC-5.17: the game marks the broken wall's two squares hindering.
    hindering = np.zeros(board.n_cells, dtype=bool)
    hindering[geometry.edges[geometry.edge_id(a, b)]] = True
    line = lines.line(shooter, target, walls_intact=hole, hindering=hindering)
    assert line.clear and line.hindered


def test_HC_5_16_broken_wall_corner_still_blocks_a_diagonal_while_a_neighbour_wall_stands():
    board = square(2, 2, walls={((0, 0), (0, 1)), ((1, 0), (1, 1))})
    geometry = WallGeometry(board)
    hole = broken(geometry, ((0, 0), (0, 1)))
    table = adjacency_table(board, neighbors=geometry.neighbors(hole))
    assert adjacent(board, table, 0, 1)
    assert not adjacent(board, table, 0, 3)  # the intact lower wall ends at the corner
    both = broken(geometry, ((0, 0), (0, 1)), ((1, 0), (1, 1)))
    assert adjacent(board, adjacency_table(board, neighbors=geometry.neighbors(both)), 0, 3)


def test_HC_5_16_knockback_passes_a_broken_wall_and_stops_at_an_intact_one():
    board = square(1, 5, walls={((0, 1), (0, 2)), ((0, 3), (0, 4))})
    geometry = WallGeometry(board)
    stopped = knockback(board, 1, E, 3, neighbors=geometry.neighbors())
    assert stopped.path == () and stopped.reason is KnockbackStop.WALL
    hole = broken(geometry, ((0, 1), (0, 2)))
    pushed = knockback(board, 1, E, 3, neighbors=geometry.neighbors(hole))
    assert pushed.path == (2, 3) and pushed.reason is KnockbackStop.WALL
    assert pushed.extra_damage == 1
    assert knockback(board, 1, E, 3).reason is KnockbackStop.WALL  # default: board walls


def test_HC_5_16_standing_sides_follow_the_intact_mask():
    board = Board.create(
        "square8", np.ones((2, 2), dtype=bool), walls={((0, 0), (0, 1)), ((0, 0), (1, 0))}
    )
    geometry = WallGeometry(board)
    sides = geometry.standing_sides(geometry.all_intact())
    assert sides[0].tolist() == [False, True, True, False]  # N, E, S, W of (0,0)
    assert sides[1].tolist() == [False, False, False, True]  # (0,1): the wall on its W side
    east = geometry.edge_id(0, 1)
    intact = geometry.all_intact()
    intact[east] = False
    assert geometry.standing_sides(intact)[0].tolist() == [False, False, True, False]
    assert geometry.other_side(east, 0) == 1 and geometry.other_side(east, 1) == 0
