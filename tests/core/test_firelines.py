"""Line of fire with levels, breakable walls and flight (HC-4.17, HC-4.23, HC-5.5, HC-5.6,
HC-5.11, HC-5.16, HC-5.19 - HC-5.21) on hand-made square8 boards.

Boards as text: ``.`` ground, ``^`` elevated (level 1), ``B`` blocking, ``h`` hindering,
``H`` elevated hindering, ``o`` a ground figure, ``s`` a soaring figure, ``#`` no space;
``A`` / ``T`` the attacker and target (``a`` / ``t``: standing on hindering terrain). An
optional ``levels`` grid of digits replaces the levels that the symbols give.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.board import Board
from envs.core.firelines import FireLines
from envs.core.sight import SquareSightTable, square_edge_id
from envs.core.walls import WallGeometry
from tests.core.reference_firelines import box, segments_meet, wall_segment


def grid_of(text):
    return np.array([list(r.strip()) for r in text.strip().splitlines()])


class Scene:
    def __init__(self, text, walls=frozenset(), levels=None):
        grid = grid_of(text)
        level = (
            np.isin(grid, list("^H"))
            if levels is None
            else np.array([[int(ch) for ch in row] for row in grid_of(levels)])
        )
        self.board = Board.create("square8", grid != "#", level=level.astype(np.int16), walls=walls)
        flat = grid.reshape(-1)
        self.flat = flat
        self.masks = dict(
            blocking=flat == "B",
            hindering=np.isin(flat, list("hHat")),
            ground_figures=flat == "o",
            soaring_figures=flat == "s",
        )
        self.lines = FireLines(self.board)

    def at(self, symbols):
        return int(np.flatnonzero(np.isin(self.flat, list(symbols)))[0])

    def fire(self, a=None, t=None, *, broken=(), indoor=(), **flags):
        board, geometry = self.board, self.lines.geometry
        a = self.at("Aa") if a is None else board.cell(*a)
        t = self.at("Tt") if t is None else board.cell(*t)
        intact = geometry.all_intact()
        for p, q in broken:
            intact[geometry.edge_id(board.cell(*p), board.cell(*q))] = False
        inside = np.zeros(board.n_cells, dtype=bool)
        inside[[board.cell(*rc) for rc in indoor]] = True
        return self.lines.line(a, t, walls_intact=intact, indoor=inside, **self.masks, **flags)


def fire(text, **kw):
    walls, levels = kw.pop("walls", frozenset()), kw.pop("levels", None)
    return Scene(text, walls, levels).fire(**kw)


CLEAR, HINDERED, BLOCKED = (True, False), (True, True), (False, False)

# -- HC-4.17: what blocks --------------------------------------------------------------------


def test_HC_4_17_blocking_square_or_ground_figure_between_blocks():
    assert fire("A...T") == CLEAR
    assert fire("A.B.T") == BLOCKED
    assert fire("A.o.T") == BLOCKED
    assert (
        fire("""
        A...T
        ..o..
    """)
        == CLEAR
    )  # a figure beside the line


def test_HC_4_17_touching_only_a_corner_crosses_no_square():
    assert (
        fire("""
        Ao.
        o.o
        .oT
    """)
        == CLEAR
    )
    assert (
        fire("""
        A..
        .o.
        ..T
    """)
        == BLOCKED
    )


def test_HC_4_17_figures_on_the_two_end_squares_never_block():
    scene = Scene("A...T")
    scene.masks["ground_figures"][[0, 4]] = True
    assert scene.fire() == CLEAR
    scene.masks["ground_figures"][2] = True
    assert scene.fire() == BLOCKED


def test_HC_4_17_intact_wall_blocks_end_points_and_own_sides_included():
    assert fire("A.T", walls={((0, 1), (0, 2))}) == BLOCKED
    assert fire("AT", walls={((0, 0), (0, 1))}) == BLOCKED  # the wall on the attacker's side
    diagonal = """
        A..
        ...
        ..T
    """
    end_point = {((1, 1), (1, 2))}  # ends at the corner (1.5, 1.5) on the diagonal
    assert fire(diagonal, walls=end_point) == BLOCKED
    assert fire(diagonal, walls=end_point, broken=[((1, 1), (1, 2))]) == CLEAR
    assert fire(diagonal, walls={((0, 1), (0, 2))}) == CLEAR  # near, but off the line


def test_HC_4_17_soaring_figure_does_not_block_ground_line():
    assert fire("A.s.T") == CLEAR
    assert fire("A.s.T", attacker_soaring=True, target_soaring=True) == BLOCKED


def test_HC_4_17_ground_figure_does_not_block_soaring_line():
    assert fire("A.o.T", attacker_soaring=True, target_soaring=True) == CLEAR
    assert fire("A.o.T", attacker_flying=True, target_flying=True) == BLOCKED  # hovering


def test_HC_4_17_mixed_line_is_blocked_by_neither_kind_of_figure():
    assert fire("AosT") == BLOCKED
    assert fire("AosT", attacker_soaring=True, target_soaring=True) == BLOCKED
    assert fire("AosT", attacker_soaring=True) == CLEAR
    assert fire("AosT", target_soaring=True) == CLEAR


def test_HC_4_17_blocking_terrain_and_walls_block_soaring_lines():
    soaring = dict(attacker_soaring=True, target_soaring=True)
    assert fire("A.B.T", **soaring) == BLOCKED
    assert fire("A...T", walls={((0, 1), (0, 2))}, **soaring) == BLOCKED
    assert fire("A...T", **soaring) == CLEAR


# -- HC-5.11: hindering -----------------------------------------------------------------------


def test_HC_5_11_hindering_between_gives_plus_one_once():
    assert fire("A.h.T") == HINDERED
    assert fire("Ahh.T") == HINDERED
    assert fire("A...T") == CLEAR
    assert (
        fire("""
        A...T
        .hhh.
    """)
        == CLEAR
    )  # beside the line


def test_HC_5_11_target_square_counts_attacker_square_does_not():
    assert fire("A...t") == HINDERED
    assert fire("a...T") == CLEAR


def test_HC_5_11_a_blocked_line_is_never_reported_hindered():
    assert fire("A.hBt") == BLOCKED


# -- HC-4.23 / HC-5.5: flyers -----------------------------------------------------------------


def test_HC_4_23_blocking_terrain_and_walls_block_lines_to_and_from_flyers():
    for flags in (
        dict(target_flying=True),
        dict(attacker_flying=True),
        dict(target_soaring=True),
        dict(attacker_soaring=True),
    ):
        assert fire("A.B.T", **flags) == BLOCKED
        assert fire("A...T", walls={((0, 2), (0, 3))}, **flags) == BLOCKED
        assert fire("A...T", **flags) == CLEAR


def test_HC_4_23_outdoor_hindering_gives_no_plus_one_when_a_flyer_shoots_or_is_shot():
    assert fire("A.h.T") == HINDERED
    for flags in (
        dict(target_flying=True),
        dict(attacker_flying=True),
        dict(target_soaring=True),
        dict(attacker_soaring=True, target_soaring=True),
    ):
        assert fire("A.h.T", **flags) == CLEAR
        assert fire("A...t", **flags) == CLEAR


def test_HC_5_5_indoor_hindering_hinders_flyer():
    assert fire("A.h.T", target_flying=True) == CLEAR
    assert fire("A.h.T", target_flying=True, indoor=[(0, 0)]) == HINDERED
    assert fire("A.h.T", attacker_flying=True, indoor=[(0, 4)]) == HINDERED
    assert fire("A.h.T", attacker_flying=True, indoor=[(0, 2)]) == CLEAR  # only the ends
    assert fire("A.B.T", target_flying=True, indoor=[(0, 0)]) == BLOCKED


# -- levels ---------------------------------------------------------------------------------

BUILDING = """
    .......
    .^^^^..
    A^^^^.T
    .^^^^..
    .......
"""


def test_HC_5_6_building_between_ground_figures_blocks_the_line():
    walled = Scene(BUILDING, walls=box(1, 1, 3, 4, 5, 7))
    assert walled.fire() == BLOCKED
    assert walled.fire((4, 0), (4, 6)) == CLEAR  # past the building
    assert Scene(BUILDING).fire() == BLOCKED  # its elevated squares alone block
    assert Scene(BUILDING.replace("^", ".")).fire() == CLEAR


STREET = """
    ^^^...^^^
    ^^AoBhT^^
    ^^^...^^^
"""
STREET_LEVELS = """
    111000111
    111000111
    111000111
"""
ROOFS = box(0, 0, 2, 2, 3, 9) | box(0, 6, 2, 8, 3, 9)


def test_HC_5_19_rooftop_to_rooftop_ignores_ground_terrain_figures_and_walls():
    walls = ROOFS | {((1, 3), (1, 4))}  # and a wall across the street
    assert fire(STREET, levels=STREET_LEVELS, walls=walls) == CLEAR
    assert fire(STREET, levels=STREET_LEVELS.replace("1", "0"), walls=walls) == BLOCKED


def test_HC_5_19_rooftop_blocking_hindering_figures_and_roof_walls_count():
    levels = "1111111"
    assert fire("A.....T", levels=levels) == CLEAR
    assert fire("A..B..T", levels=levels) == BLOCKED
    assert fire("A..o..T", levels=levels) == BLOCKED
    assert fire("A..h..T", levels=levels) == HINDERED
    assert fire("A.....t", levels=levels) == HINDERED
    wall = {((0, 3), (0, 4))}
    assert fire("A.....T", levels=levels, walls=wall) == BLOCKED
    assert fire("A.....T", levels=levels, walls=wall, broken=list(wall)) == CLEAR
    # The same things on a ground square between the roofs do not count.
    for text in ("A..B..T", "A..o..T", "A..h..T"):
        assert fire(text, levels="1110111") == CLEAR
    assert fire("A.....T", levels="1110111", walls=wall) == CLEAR


ROOF_EDGE = """
    ^^^....
    ^^Aoh.T
    ^^^....
"""
ROOF_EDGE_LEVELS = """
    1110000
    1110000
    1110000
"""
ROOF_WALLS = box(0, 0, 2, 2, 3, 7)


def test_HC_5_20_shooting_down_from_roof_edge_ignores_figures_between():
    scene = Scene(ROOF_EDGE, ROOF_WALLS, ROOF_EDGE_LEVELS)
    assert scene.fire() == CLEAR  # through its own wall, over the figure and the hindering
    assert Scene(ROOF_EDGE, ROOF_WALLS).fire() == BLOCKED  # everyone on the ground instead


def test_HC_5_20_shooting_down_from_inside_the_roof_is_blocked_by_roof_squares():
    scene = Scene(ROOF_EDGE.replace("o", "."), ROOF_WALLS, ROOF_EDGE_LEVELS)
    assert scene.fire((1, 2), (1, 6)) == CLEAR
    assert scene.fire((1, 1), (1, 6)) == BLOCKED
    assert (
        Scene(ROOF_EDGE.replace("o", "."), levels=ROOF_EDGE_LEVELS).fire((1, 1), (1, 6)) == BLOCKED
    )  # the roof square blocks without any wall


def test_HC_5_20_shooting_down_still_blocked_by_other_walls_and_blocking_squares():
    levels = "1110000"
    assert fire("^^A...T", levels=levels) == CLEAR
    assert fire("^^A.B.T", levels=levels) == BLOCKED
    street_wall = {((0, 4), (0, 5))}
    assert fire("^^A...T", levels=levels, walls=street_wall) == BLOCKED
    assert fire("^^A...T", levels=levels, walls=street_wall, broken=list(street_wall)) == CLEAR
    assert fire("^^A...T", levels=levels, walls={((0, 5), (0, 6))}) == BLOCKED  # target's side
    assert fire("^^A...T", levels=levels, walls={((0, 2), (0, 3))}) == CLEAR  # attacker's side


def test_HC_5_20_shooting_down_target_gets_plus_one_only_from_its_own_square():
    levels = "1110000"
    assert fire("^^AhhhT", levels=levels, walls={((0, 2), (0, 3))}) == CLEAR
    assert fire("^^Ahhht", levels=levels) == HINDERED
    assert fire("^^A...t", levels=levels) == HINDERED
    assert fire("^^A...t", levels=levels, target_flying=True) == CLEAR  # outdoors, a flyer


def test_HC_5_20_a_diagonal_through_the_end_of_the_next_roof_wall_is_blocked():
    # Both roof squares (1,1) and (1,2) have a wall on their south side; the diagonal from
    # (1,1) leaves through its own corner, where the neighbour's wall ends (HC-4.17: end
    # points count), while a steeper line leaves through (1,1)'s own wall only.
    walls = {((1, c), (2, c)) for c in range(4)}
    scene = Scene(
        """
        ^^^^
        ^^^^
        ....
        ....
    """,
        walls,
    )
    assert scene.fire((1, 1), (3, 3)) == BLOCKED
    assert scene.fire((1, 1), (3, 2)) == CLEAR


UP_LEVELS = "0001111"


def test_HC_5_21_shooting_up_ignores_the_targets_own_walls_but_not_the_roof_in_front():
    walls = box(0, 3, 0, 6, 1, 7)
    assert fire("AohT^^^", levels=UP_LEVELS, walls=walls) == CLEAR
    assert fire("Aoh^T^^", levels=UP_LEVELS, walls=walls) == BLOCKED
    assert fire("Aoh^T^^", levels=UP_LEVELS) == BLOCKED  # the roof square alone
    assert fire("A.BT^^^", levels=UP_LEVELS, walls=walls) == BLOCKED
    assert fire("A..T^^^", levels=UP_LEVELS, walls=walls | {((0, 1), (0, 2))}) == BLOCKED


def test_HC_5_21_shooting_up_target_gets_plus_one_only_from_its_own_square():
    assert fire("AhhT^^^", levels=UP_LEVELS) == CLEAR
    assert fire("A..t^^^", levels=UP_LEVELS) == HINDERED
    assert fire("A..t^^^", levels=UP_LEVELS, attacker_flying=True) == CLEAR
    assert fire("A..t^^^", levels=UP_LEVELS, attacker_flying=True, indoor=[(0, 3)]) == HINDERED


def test_HC_5_21_shooting_up_mirrors_shooting_down():
    rng = np.random.default_rng(11)
    height, width = 7, 8
    levels = np.zeros((height, width), dtype=np.int16)
    levels[2:5, 2:6] = 1
    walls = box(2, 2, 4, 5, height, width) | {((0, 3), (1, 3)), ((5, 1), (5, 2))}
    board = Board.create("square8", np.ones((height, width), dtype=bool), level=levels, walls=walls)
    lines = FireLines(board)
    masks = dict(
        blocking=rng.random(board.n_cells) < 0.08,
        hindering=rng.random(board.n_cells) < 0.2,
        ground_figures=rng.random(board.n_cells) < 0.15,
    )
    snap = lines.snapshot(**masks)
    seen = set()
    for low in np.flatnonzero(levels.reshape(-1) == 0):
        for high in np.flatnonzero(levels.reshape(-1) == 1):
            up, down = snap.line(low, high), snap.line(high, low)
            assert up.clear == down.clear
            assert up.hindered == (up.clear and masks["hindering"][high])
            assert down.hindered == (down.clear and masks["hindering"][low])
            seen.add(up.clear)
    assert seen == {True, False}


def test_HC_5_19_soaring_figures_use_the_level_of_the_square_below():
    soaring = dict(attacker_soaring=True, target_soaring=True)
    walled = Scene(BUILDING, walls=box(1, 1, 3, 4, 5, 7))
    assert walled.fire(**soaring) == BLOCKED  # over the ground, a building between
    assert walled.fire((4, 0), (4, 6), **soaring) == CLEAR
    levels = "110011"
    assert fire("A.s..T", levels=levels, **soaring) == CLEAR  # over the street: ignored
    assert fire("A...sT", levels=levels, **soaring) == BLOCKED  # over the roof: blocks
    assert fire("A...oT", levels=levels, **soaring) == CLEAR  # a ground figure never does
    assert fire("^^A.ht", levels="111000", attacker_soaring=True) == CLEAR  # down, no +1
    assert fire("^^A.ot", levels="111000") == HINDERED  # the same shot from the roof


def test_targets_from_takes_a_subset_and_per_target_flags():
    scene = Scene("A.s.T.o.T")
    lines, snap = scene.lines, scene.lines.snapshot(**scene.masks)
    found = snap.targets_from(0, [4, 8], target_soaring=np.array([True, False]))
    assert found.targets.tolist() == [4, 8]
    assert found.clear.tolist() == [True, False]  # mixed line / ground line past a figure
    found = lines.targets_from(0, [4, 8], attacker_soaring=True, target_soaring=True, **scene.masks)
    assert found.clear.tolist() == [False, False]  # the soaring figure on (0,2) blocks both


def test_sight_touched_edges_are_the_edge_ids_of_walls_and_match_exact_geometry():
    board = Board.create("square8", np.ones((5, 6), dtype=bool))
    sight = SquareSightTable(board)
    every = [
        (a, b)
        for a in range(board.n_cells)
        for b in (a + 1, a + board.width)
        if b < board.n_cells and (b == a + board.width or b % board.width)
    ]
    ids = {square_edge_id(board, a, b): (a, b) for a, b in every}
    assert len(ids) == len(every) and max(ids) < 2 * board.n_cells
    for a in (0, board.cell(2, 3), board.cell(4, 5)):
        rows = sight.touched_edge_rows(a, np.arange(board.n_cells))
        for b in range(board.n_cells):
            (ra, ca), (rb, cb) = board.rc(a), board.rc(b)
            expected = {
                i
                for i, (p, q) in ids.items()
                if segments_meet((2 * ca, 2 * ra), (2 * cb, 2 * rb), *wall_segment(board, p, q))
            }
            assert set(sight.touched_edges(a, b).tolist()) == expected
            assert set(rows[b].tolist()) - {2 * board.n_cells} == expected
            crossed = sight.crossed_rows(a, np.array([b]))[0]
            assert crossed[crossed < board.n_cells].tolist() == sight.crossed(a, b).tolist()
    with pytest.raises(ValueError, match="not orthogonally adjacent"):
        square_edge_id(board, 0, board.cell(1, 1))


def test_firelines_errors_are_clear():
    with pytest.raises(ValueError, match="square8 board, not hex"):
        FireLines(Board.create("hex", np.ones((2, 2), dtype=bool)))
    board = Board.create("square8", np.ones((2, 3), dtype=bool), walls={((0, 0), (0, 1))})
    other = Board.create("square8", np.ones((2, 3), dtype=bool), walls={((0, 0), (0, 1))})
    with pytest.raises(ValueError, match="geometry was built for another board"):
        FireLines(board, WallGeometry(other))
    lines = FireLines(board)
    with pytest.raises(ValueError, match=r"hindering has shape \(5,\), expected \(6,\)"):
        lines.line(0, 2, hindering=np.zeros(5, dtype=bool))
    with pytest.raises(ValueError, match=r"walls_intact has shape \(2,\), expected \(1,\)"):
        lines.snapshot(walls_intact=np.ones(2, dtype=bool))
    snap = lines.snapshot()
    with pytest.raises(ValueError, match=r"target_soaring has shape \(3,\)"):
        snap.targets_from(0, [1, 2], target_soaring=np.zeros(3, dtype=bool))
    with pytest.raises(ValueError, match="attacker square 6 is off the board"):
        snap.targets_from(6)
    with pytest.raises(ValueError, match="target squares must lie in 0..5"):
        snap.targets_from(0, [7])
