"""Line of fire on square boards (HC-4.17, HC-5.11) and 3-D line of sight on hex boards (HS-10.4)."""

from fractions import Fraction

import numpy as np
import pytest

from envs.core.board import Board
from envs.core.hexsight import HexSight, HexSightConfig, hex_line_of_sight
from envs.core.sight import (
    SquareSightTable,
    square_hindering_cells,
    square_line_cells,
    square_line_of_fire,
)


def square(height, width, walls=frozenset(), exists=None):
    exists = np.ones((height, width), dtype=bool) if exists is None else exists
    return Board.create("square8", exists, walls=walls)


def mask(board, *cells):
    out = np.zeros(board.n_cells, dtype=bool)
    out[list(cells)] = True
    return out


# -- square boards ---------------------------------------------------------------------------


def test_HC_4_17_open_line_is_clear_and_lists_the_squares_between():
    board = square(1, 5)
    line = square_line_cells(board, 0, 4)
    assert line.cells.tolist() == [1, 2, 3]
    assert not line.touches_wall
    assert square_line_of_fire(board, 0, 4, mask(board))


def test_HC_4_17_blocking_square_on_the_line_blocks():
    board = square(1, 5)
    assert not square_line_of_fire(board, 0, 4, mask(board, 2))
    # The end squares themselves never block their own line.
    assert square_line_of_fire(board, 0, 4, mask(board, 0, 4))


def test_HC_4_17_line_through_corner_is_clear():
    board = square(3, 3)
    # (0,0) -> (2,2) passes exactly through the corners that (0,1)/(1,0) and (1,2)/(2,1) share.
    assert square_line_cells(board, 0, 8).cells.tolist() == [4]
    corners = mask(board, board.cell(0, 1), board.cell(1, 0), board.cell(1, 2), board.cell(2, 1))
    assert square_line_of_fire(board, 0, 8, corners)
    assert square_line_of_fire(board, 0, 4, corners)
    assert not square_line_of_fire(board, 0, 8, mask(board, 4))


def test_HC_4_17_off_diagonal_line_crosses_squares_on_both_sides():
    board = square(2, 3)
    # (0,0) -> (1,2) passes through the middle of the edge between (0,1) and (1,1).
    assert square_line_cells(board, 0, 5).cells.tolist() == [1, 4]
    assert not square_line_of_fire(board, 0, 5, mask(board, 1))
    assert not square_line_of_fire(board, 0, 5, mask(board, 4))


def test_HC_4_17_line_along_a_row_misses_the_squares_beside_it():
    board = square(3, 4)
    # Centre lines never run along an edge: a row line stays half a square from its neighbours.
    beside = mask(board, *range(0, 4), *range(8, 12))
    assert square_line_of_fire(board, board.cell(1, 0), board.cell(1, 3), beside)


def test_HC_4_17_wall_across_the_line_blocks():
    board = square(1, 3, walls={((0, 1), (0, 2))})
    assert square_line_cells(board, 0, 2).touches_wall
    assert not square_line_of_fire(board, 0, 2, mask(board))


def test_HC_4_17_line_through_a_wall_end_point_is_blocked():
    # The wall between (1,1) and (1,2) ends at the corner (1.5, 1.5) on the diagonal.
    board = square(3, 3, walls={((1, 1), (1, 2))})
    assert not square_line_of_fire(board, 0, 8, mask(board))
    assert square_line_cells(board, 0, 8).touches_wall
    # A diagonal step past the end of a wall is blocked too (HC-3.13).
    step = square(2, 2, walls={((0, 0), (0, 1))})
    assert not square_line_of_fire(step, 0, 3, mask(step))


def test_HC_4_17_wall_near_but_off_the_line_does_not_block():
    board = square(3, 3, walls={((0, 1), (0, 2))})
    assert not square_line_cells(board, 0, 8).touches_wall
    assert square_line_of_fire(board, 0, 8, mask(board))


def test_lines_are_symmetric():
    board = square(5, 7, walls={((1, 1), (1, 2)), ((3, 4), (4, 4))})
    for a in range(board.n_cells):
        for b in range(board.n_cells):
            forward, back = square_line_cells(board, a, b), square_line_cells(board, b, a)
            assert forward.cells.tolist() == back.cells.tolist()[::-1]
            assert forward.touches_wall == back.touches_wall


def _crosses_exactly(a_rc, b_rc, cell_rc):
    """Reference: does the open segment cross the open square? (exact Liang-Barsky)"""
    lo, hi = Fraction(0), Fraction(1)
    for axis in (0, 1):
        start, delta = a_rc[axis], b_rc[axis] - a_rc[axis]
        low, high = Fraction(2 * cell_rc[axis] - 1, 2), Fraction(2 * cell_rc[axis] + 1, 2)
        if delta == 0:
            if not low < start < high:
                return False
            continue
        t1, t2 = (low - start) / delta, (high - start) / delta
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return lo < hi


def test_HC_4_17_crossed_squares_match_exact_reference():
    board = square(6, 7)
    for a in (0, board.cell(2, 3), board.cell(5, 6)):
        for b in range(board.n_cells):
            expected = sorted(
                c
                for c in range(board.n_cells)
                if c not in (a, b) and _crosses_exactly(board.rc(a), board.rc(b), board.rc(c))
            )
            assert sorted(square_line_cells(board, a, b).cells.tolist()) == expected


def _meets_exactly(a, b, p, q):
    """Reference: do closed segments a-b and p-q meet? (exact, with collinear overlap)"""

    def orient(o, u, v):
        value = (u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0])
        return (value > 0) - (value < 0)

    def on(o, u, v):  # v on the closed segment o-u, given collinear
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


def test_HC_4_17_wall_contact_matches_exact_reference():
    rng = np.random.default_rng(5)
    walls = set()
    for _ in range(12):
        r, c = (int(v) for v in rng.integers(0, 5, 2))
        walls.add(((r, c), (r, c + 1)) if rng.random() < 0.5 else ((r, c), (r + 1, c)))
    board = square(6, 6, walls=walls)
    segments = []  # walls in doubled coordinates (x = 2*col, y = 2*row)
    for (r1, c1), (r2, _c2) in walls:
        if r1 == r2:
            segments.append(((2 * c1 + 1, 2 * r1 - 1), (2 * c1 + 1, 2 * r1 + 1)))
        else:
            segments.append(((2 * c1 - 1, 2 * r1 + 1), (2 * c1 + 1, 2 * r1 + 1)))
    for a in range(board.n_cells):
        for b in range(board.n_cells):
            (ra, ca), (rb, cb) = board.rc(a), board.rc(b)
            expected = any(
                _meets_exactly((2 * ca, 2 * ra), (2 * cb, 2 * rb), p, q) for p, q in segments
            )
            assert square_line_cells(board, a, b).touches_wall == expected


def test_HC_5_11_hindering_squares_exclude_attacker_and_optionally_include_target():
    board = square(1, 5)
    hindering = mask(board, 0, 2, 3, 4)
    assert square_hindering_cells(board, 0, 4, hindering).tolist() == [2, 3]
    assert square_hindering_cells(board, 0, 4, hindering, include_target=True).tolist() == [2, 3, 4]


def test_table_matches_the_pairwise_functions():
    rng = np.random.default_rng(7)
    exists = rng.random((6, 8)) > 0.1
    walls = {((1, 2), (1, 3)), ((2, 5), (3, 5)), ((4, 0), (4, 1))}
    board = square(6, 8, walls=walls, exists=exists)
    blocking = rng.random(board.n_cells) < 0.15
    occupied = rng.random(board.n_cells) < 0.15
    table = SquareSightTable(board, blocking)
    static = table.static_matrix()
    for a in range(board.n_cells):
        row = table.clear_from(a, occupied)
        for b in range(board.n_cells):
            line = square_line_cells(board, a, b)
            assert table.crossed(a, b).tolist() == line.cells.tolist()
            assert table.touches_wall(a, b) == line.touches_wall
            assert static[a, b] == square_line_of_fire(board, a, b, blocking)
            both = blocking | occupied
            assert row[b] == table.clear(a, b, occupied) == square_line_of_fire(board, a, b, both)


def test_table_treats_non_spaces_as_blocking_by_default():
    exists = np.ones((1, 3), dtype=bool)
    exists[0, 1] = False
    table = SquareSightTable(square(1, 3, exists=exists))
    assert not table.clear(0, 2)
    assert SquareSightTable(square(1, 3, exists=exists), np.zeros(3, dtype=bool)).clear(0, 2)


def test_square_sight_rejects_hex_boards():
    board = Board.create("hex", np.ones((2, 2), dtype=bool))
    with pytest.raises(ValueError, match="square board"):
        square_line_cells(board, 0, 3)


# -- hex boards --------------------------------------------------------------------------------

CFG = HexSightConfig()


def hexes(levels):
    levels = np.asarray(levels)
    return Board.create("hex", np.ones(levels.shape, dtype=bool), level=levels)


def sees(board, attacker, target, others=(), config=CFG, attacker_height=None):
    return hex_line_of_sight(
        board, config, attacker, None, attacker_height, target, None, None, list(others)
    )


def test_HS_10_4_flat_board_is_clear():
    board = hexes(np.ones((1, 7)))
    assert sees(board, 0, 6)
    assert sees(board, 6, 0)


def test_HS_10_4_tall_column_blocks_sight():
    levels = np.ones((1, 7))
    levels[0, 3] = 20
    assert not sees(hexes(levels), 0, 6)


def test_HS_10_4_low_column_does_not_block():
    levels = np.ones((1, 7))
    levels[0, 3] = 3
    assert sees(hexes(levels), 0, 6)


def test_HS_10_4_height_lets_you_see_over_a_column():
    levels = np.ones((1, 5))
    levels[0, 2] = 8
    assert not sees(hexes(levels), 0, 4)
    levels[0, 0] = 10  # the attacker now stands on a high column
    assert sees(hexes(levels), 0, 4)


def test_HS_10_4_figure_height_is_configurable():
    levels = np.ones((1, 5))
    levels[0, 2] = 7
    board = hexes(levels)
    assert not sees(board, 0, 4)
    assert sees(board, 0, 4, attacker_height=12)
    assert sees(board, 0, 4, config=HexSightConfig(single_height=12))


def test_HS_10_4_figure_in_between_blocks():
    board = hexes(np.ones((1, 5)))
    assert not sees(board, 0, 4, others=[(2, None, None)])
    assert sees(board, 0, 4, others=[(2, None, 1)])  # a short figure is seen over


def test_HS_10_4_figure_beside_the_line_does_not_block():
    board = hexes(np.ones((2, 5)))
    assert sees(board, 0, 4, others=[(board.cell(1, 1), None, None)])


def test_HS_10_4_sight_passes_over_missing_spaces():
    exists = np.ones((1, 5), dtype=bool)
    exists[0, 1:4] = False
    board = Board.create("hex", exists, level=np.ones((1, 5)))
    assert sees(board, 0, 4)


def test_HS_10_4_grazing_a_column_edge_does_not_block():
    # The line (0,1) -> (2,1) runs exactly along the edge shared by (1,0) and (1,1).
    levels = np.ones((3, 3))
    levels[1, 0] = levels[1, 1] = 30
    board = hexes(levels)
    assert sees(board, board.cell(0, 1), board.cell(2, 1))
    # A line through the same column's interior is blocked.
    assert not sees(board, board.cell(0, 1), board.cell(2, 2))


def test_HS_10_4_grazing_a_figure_does_not_block():
    board = hexes(np.ones((3, 3)))
    a, t, beside = board.cell(0, 1), board.cell(2, 1), board.cell(1, 0)
    touching = HexSightConfig(figure_radius=0.5)  # its cylinder touches the line
    assert sees(board, a, t, others=[(beside, None, None)], config=touching)
    overlapping = HexSightConfig(figure_radius=0.6)
    assert not sees(board, a, t, others=[(beside, None, None)], config=overlapping)


def test_HS_10_4_level_height_alone_never_changes_a_result():
    # Every vertical quantity is in levels, so the level height only rescales z.
    rng = np.random.default_rng(3)
    levels = rng.integers(1, 9, size=(5, 6))
    board = hexes(levels)
    squat, tall = HexSightConfig(level_height=0.05), HexSightConfig(level_height=2.0)
    for a in range(0, board.n_cells, 3):
        for t in range(board.n_cells):
            if a != t:
                assert sees(board, a, t, config=squat) == sees(board, a, t, config=tall)


def test_HS_10_4_double_space_attacker_may_use_either_eye():
    levels = np.ones((2, 6))
    levels[0, 2] = 20
    board = hexes(levels)
    front, back, target = board.cell(0, 1), board.cell(1, 1), board.cell(0, 5)
    assert not sees(board, front, target)
    assert sees(board, back, target)
    assert sees(board, [front, back], target)


def test_HS_10_4_double_space_target_is_seen_if_either_space_is():
    levels = np.ones((2, 6))
    levels[1, 3] = 20
    board = hexes(levels)
    attacker, hidden, visible = board.cell(1, 0), board.cell(1, 5), board.cell(0, 5)
    assert not sees(board, attacker, hidden)
    assert sees(board, attacker, [hidden, visible])


def test_HS_10_4_steep_line_past_own_cliff_edge_is_blocked_by_it():
    levels = np.ones((1, 3))
    levels[0, 0] = 60
    board = hexes(levels)
    assert not sees(board, 0, 1)  # straight down the cliff from its centre
    assert sees(board, 1, 2)


def test_hex_sight_object_caches_terrain_but_not_figures():
    board = hexes(np.ones((3, 7)))
    sight = HexSight(board)
    a, t = board.cell(1, 0), board.cell(1, 6)
    assert sight.clear(a, None, None, t, None, None)
    assert not sight.clear(a, None, None, t, None, None, [(board.cell(1, 3), None, None)])
    assert sight.clear(a, None, None, t, None, None)


def test_hex_sight_rejects_bad_input():
    with pytest.raises(ValueError, match="hex board"):
        HexSight(square(2, 2))
    with pytest.raises(ValueError, match="figure_radius"):
        HexSightConfig(figure_radius=0)
    with pytest.raises(ValueError, match="one or two spaces"):
        HexSight(hexes(np.ones((2, 2)))).clear([0, 1, 2], None, None, 3, None, None)


@pytest.mark.parametrize("seed", range(3))
def test_HS_10_4_precomputed_blockers_agree_with_the_segment_test(seed):
    """HexSight.blockers (batched over targets, used by the Heroscape engine) gives the same
    answer as HexSight.clear for random attacker/target pairs and blocking figures."""
    from envs.core.hexsight import HexSight, HexSightConfig

    rng = np.random.default_rng(seed)
    board = Board.create("hex", np.ones((6, 7), dtype=bool), level=rng.integers(1, 5, size=(6, 7)))
    batched, reference = HexSight(board, HexSightConfig()), HexSight(board, HexSightConfig())
    heights = (5.0, 6.0)
    spaces = board.spaces()
    for _ in range(60):
        attacker, target, *others = (int(c) for c in rng.choice(spaces, 5, replace=False))
        table = batched.blockers(attacker, 5.0, target, 6.0, heights)
        figures = [(c, int(rng.integers(2))) for c in others]
        expected = reference.clear(
            attacker, None, 5.0, target, None, 6.0, [(c, None, heights[h]) for c, h in figures]
        )
        # the figures read off a board, with the line's own ends on it too
        occupant = [-1] * board.n_cells
        height_of = [0, 0] + [h for _, h in figures]
        for figure, (cell, _) in enumerate([(attacker, 0), (target, 0)] + figures):
            occupant[cell] = figure
        assert table.clear_among(occupant, height_of, 0, 1) == expected
