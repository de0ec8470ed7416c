"""Movement search: costs, climbing, stop rules, end rules, paths, straight lines (HS-6, HS-7, HC-3, HE-5)."""

import numpy as np
import pytest

from envs.core.board import Board
from envs.core.movement import (
    NOT_REACHED,
    cells_within,
    climb_cost,
    reachable,
    reachable_double,
    straight_line,
)


def grid(topology, height, width, **kwargs):
    return Board.create(topology, np.ones((height, width), dtype=bool), **kwargs)


def row_of_hexes(levels):
    levels = np.asarray([levels])
    return Board.create("hex", np.ones(levels.shape, dtype=bool), level=levels)


def cells(board, *flat):
    out = np.zeros(board.n_cells, dtype=bool)
    out[list(flat)] = True
    return out


def assert_valid_path(board, reach, cell):
    path = reach.path_to(cell)
    assert path[0] == reach.start and path[-1] == cell
    for a, b in zip(path, path[1:]):
        assert b in board.neighbors[a]


def test_unit_costs_match_board_distance():
    board = grid("square8", 5, 6)
    reach = reachable(board, 14, 2)
    assert reach.cost[14] == 0
    expected = np.flatnonzero(board.distance[14] <= 2)
    assert reach.destinations().tolist() == expected.tolist()
    assert (reach.cost[expected] == board.distance[14, expected]).all()
    assert reach.cost[board.distance[14] > 2].tolist() == [NOT_REACHED] * int(
        (board.distance[14] > 2).sum()
    )


def test_HS_6_6_climbing_costs_one_per_level():
    board = row_of_hexes([1, 3, 3, 1])
    reach = reachable(board, 0, 10, step_cost=climb_cost(board))
    assert reach.cost[:4].tolist() == [0, 3, 4, 5]


def test_HS_6_7_descending_costs_only_the_spaces():
    board = row_of_hexes([5, 1, 0, 0])
    reach = reachable(board, 0, 3, step_cost=climb_cost(board))
    assert reach.cost[:4].tolist() == [0, 1, 2, 3]


def test_HS_6_1_move_limit_caps_total_cost():
    board = row_of_hexes([1, 3, 3, 1])
    reach = reachable(board, 0, 4, step_cost=climb_cost(board))
    assert reach.destinations().tolist() == [0, 1, 2]


def test_step_cost_callable_may_forbid_steps():
    board = row_of_hexes([0, 0, 0, 0])

    def cost(a, b):
        return None if (a, b) == (1, 2) else 1

    reach = reachable(board, 0, 10, step_cost=cost)
    assert reach.destinations().tolist() == [0, 1]
    assert reachable(board, 3, 10, step_cost=cost).destinations().tolist() == [0, 1, 2, 3]


def test_HS_6_8_water_stops_movement():
    board = row_of_hexes([0] * 5)
    water = cells(board, 2)
    reach = reachable(board, 0, 4, stops_after_entering=water)
    assert reach.destinations().tolist() == [0, 1, 2]


def test_HS_6_8_figure_starting_in_water_may_leave():
    board = row_of_hexes([0] * 5)
    water = cells(board, 2, 3)
    reach = reachable(board, 2, 2, stops_after_entering=water)
    assert reach.destinations().tolist() == [0, 1, 2, 3]  # 3 is water: entering it stops there


def test_HS_6_8_occupied_water_cannot_be_entered():
    board = row_of_hexes([0] * 4)
    water = cells(board, 1)
    friendly = cells(board, 1)
    reach = reachable(board, 0, 4, stops_after_entering=water, can_end=~friendly)
    assert reach.destinations().tolist() == [0]
    assert not reach.reached()[1]


def test_HS_6_3_friendly_figures_can_be_passed_but_not_ended_on():
    board = row_of_hexes([0] * 4)
    friendly = cells(board, 1)
    reach = reachable(board, 0, 3, can_end=~friendly)
    assert reach.destinations().tolist() == [0, 2, 3]
    assert reach.path_to(2) == [0, 1, 2]


def test_HS_6_4_enemy_figures_cannot_be_passed():
    board = row_of_hexes([0] * 4)
    enemy = cells(board, 1)
    reach = reachable(board, 0, 3, can_enter=~enemy)
    assert reach.destinations().tolist() == [0]


def test_start_is_always_a_destination():
    board = row_of_hexes([0] * 3)
    occupied_by_mover = cells(board, 0)
    reach = reachable(board, 0, 0, can_end=~occupied_by_mover)
    assert reach.destinations().tolist() == [0]
    assert reach.path_to(0) == [0]


def test_HC_3_21_stop_on_entering_a_square_next_to_an_enemy():
    board = grid("square8", 3, 5)
    enemy = board.cell(0, 4)
    near_enemy = board.distance[enemy] == 1
    reach = reachable(
        board, board.cell(2, 0), 5, can_enter=~cells(board, enemy), stops_after_entering=near_enemy
    )
    assert reach.reached()[board.cell(1, 3)]
    # Squares next to the enemy are reachable, but nothing beyond them through them.
    assert reach.path_to(board.cell(1, 4))[-2] not in np.flatnonzero(near_enemy)


def test_a_stop_rule_may_depend_on_where_the_step_comes_from():
    # HC-5.10's [2002] reading as a callable: entering hindering stops, unless from hindering
    board = grid("square4", 1, 5)
    hindering = cells(board, 1, 2, 3)

    def stops(a, b):
        return bool(hindering[b] and not hindering[a])

    from_outside = reachable(board, 0, 4, stops_after_entering=stops)
    assert from_outside.destinations().tolist() == [0, 1]
    from_inside = reachable(board, 1, 3, stops_after_entering=stops)
    assert from_inside.destinations().tolist() == [0, 1, 2, 3, 4]


def test_path_dependent_stop_keeps_the_path_that_can_go_on():
    # Row 0: a b c d; row 1 below a, b, c. Entering c from b stops, from below it does not.
    exists = np.array([[True, True, True, True], [True, True, True, False]])
    board = Board.create("square4", exists)
    a, b, c, d = board.cell(0, 0), board.cell(0, 1), board.cell(0, 2), board.cell(0, 3)

    def stops(src, dst):
        return dst == c and src == b

    reach = reachable(board, a, 6, stops_after_entering=stops)
    assert reach.cost[c] == 2
    assert reach.cost[d] == 5  # c must be entered from below to go on
    assert reach.path_to(d) == [a, b, board.cell(1, 1), board.cell(1, 2), c, d]
    assert reach.path_to(c) == [a, b, c]


def test_HE_5_8_stop_next_to_a_monster_on_a_path_board():
    exists = np.array([[True, True, True, True, True], [False, False, True, False, False]])
    board = Board.create("square4", exists)
    monster = board.cell(1, 2)
    adjacent = board.distance[monster] == 1
    reach = reachable(board, 0, 4, can_enter=~cells(board, monster), stops_after_entering=adjacent)
    assert reach.destinations().tolist() == [0, 1, 2]


def test_paths_are_neighbour_chains_with_the_reported_cost():
    rng = np.random.default_rng(11)
    levels = rng.integers(0, 4, size=(6, 7))
    exists = rng.random((6, 7)) > 0.15
    exists[0, 0] = True
    board = Board.create("hex", exists, level=levels)
    costs = climb_cost(board)
    reach = reachable(board, 0, 9, step_cost=costs, stops_after_entering=rng.random(42) < 0.1)
    for cell in np.flatnonzero(reach.reached()):
        assert_valid_path(board, reach, cell)
        path = reach.path_to(cell)
        total = sum(costs[a, board.direction_between(a, b)] for a, b in zip(path, path[1:]))
        assert total == reach.cost[cell] <= 9


def test_ties_go_to_the_lowest_cell_index():
    board = grid("square4", 3, 3)
    reach = reachable(board, 0, 4)
    assert reach.path_to(4) == [0, 1, 4]
    assert reach.path_to(8) == [0, 1, 2, 5, 8]


def test_unreached_cell_has_no_path():
    board = row_of_hexes([0] * 4)
    reach = reachable(board, 0, 1)
    with pytest.raises(ValueError, match="not reached"):
        reach.path_to(3)


def test_bad_inputs_raise_value_error():
    board = row_of_hexes([0] * 4)
    with pytest.raises(ValueError, match="not a space"):
        reachable(board, 9, 1)
    with pytest.raises(ValueError, match="max_cost"):
        reachable(board, 0, -1)
    with pytest.raises(ValueError, match="step_cost table"):
        reachable(board, 0, 1, step_cost=np.ones((4, 4), dtype=int))
    with pytest.raises(ValueError, match="can_enter"):
        reachable(board, 0, 1, can_enter=np.ones(3, dtype=bool))


def test_HE_12_4_straight_line_walks_one_direction():
    board = grid("square4", 1, 8)
    east = board.direction_names.index("E")
    assert straight_line(board, 1, east, 5) == [2, 3, 4, 5, 6]
    assert straight_line(board, 5, east, 5) == [6, 7]  # the board ends
    monster = cells(board, 4)
    assert straight_line(board, 1, east, 5, stop_at=monster) == [2, 3, 4]


def test_straight_line_stops_at_walls_and_gaps():
    board = grid("square4", 1, 5, walls={((0, 2), (0, 3))})
    assert straight_line(board, 0, board.direction_names.index("E"), 5) == [1, 2]
    hexes = row_of_hexes([0] * 5)
    assert straight_line(hexes, 4, hexes.direction_names.index("W"), 9) == [3, 2, 1, 0]
    with pytest.raises(ValueError, match="direction"):
        straight_line(board, 0, 4, 1)


def test_cells_within_uses_step_distance():
    board = grid("square4", 3, 3)
    assert cells_within(board, 4, 1).tolist() == [1, 3, 4, 5, 7]
    walled = grid("square4", 1, 3, walls={((0, 0), (0, 1))})
    assert cells_within(walled, 0, 2).tolist() == [0]


# -- double-space figures (HS-7) ---------------------------------------------------------------


def test_HS_7_1_follower_takes_the_space_the_leader_left():
    board = row_of_hexes([0] * 5)
    reach = reachable_double(board, (1, 0), 2)
    assert reach.destinations() == [(0, 1), (1, 2), (2, 3)]
    assert reach.cost[(2, 3)] == 2
    assert reach.path_to((2, 3)) == [(1, 0), (2, 1), (3, 2)]


def test_HS_7_1_either_half_may_lead():
    board = row_of_hexes([0] * 5)
    reach = reachable_double(board, (2, 1), 1)
    assert reach.destinations() == [(0, 1), (1, 2), (2, 3)]
    assert reach.path_to((0, 1)) == [(1, 2), (0, 1)]  # half 1 led
    assert reach.path_to((2, 3)) == [(2, 1), (3, 2)]  # half 2 led


def test_HS_7_1_climbing_counts_only_the_leader():
    board = row_of_hexes([0, 0, 2, 2])
    reach = reachable_double(board, (1, 0), 10, step_cost=climb_cost(board))
    # Leader climbs 2 levels onto space 2 (cost 3), then steps along to 3 (cost 1).
    assert reach.cost[(2, 3)] == 4
    assert (1, 2) not in reach.destinations()  # HS-7.2: two levels


def test_HS_7_2_must_end_on_two_spaces_of_one_level():
    board = row_of_hexes([0, 0, 1, 0, 0])
    reach = reachable_double(board, (1, 0), 6, step_cost=climb_cost(board))
    assert (1, 2) not in reach.destinations() and (2, 3) not in reach.destinations()
    assert (3, 4) in reach.destinations()


def test_HS_7_4_single_water_space_does_not_stop_a_double_figure():
    board = row_of_hexes([0] * 5)
    water = cells(board, 2)
    reach = reachable_double(board, (1, 0), 3, stops_after_entering=water)
    assert (3, 4) in reach.destinations()


def test_HS_7_5_two_water_spaces_stop_a_double_figure():
    board = row_of_hexes([0] * 6)
    water = cells(board, 2, 3)
    reach = reachable_double(board, (1, 0), 5, stops_after_entering=water)
    assert (2, 3) in reach.destinations()
    assert (3, 4) not in reach.destinations()


def test_HS_7_1_halves_obey_enemy_and_friendly_spaces():
    board = row_of_hexes([0] * 5)
    enemy, friend = cells(board, 4), cells(board, 2)
    assert reachable_double(board, (1, 0), 3, can_enter=~enemy).destinations() == [
        (0, 1),
        (1, 2),
        (2, 3),
    ]
    # Passing the friend is allowed, but no end position avoids it within three steps.
    blocked = reachable_double(board, (1, 0), 3, can_enter=~enemy, can_end=~friend)
    assert blocked.destinations() == [(0, 1)]


def test_HS_7_1_double_figure_bad_start_raises():
    board = row_of_hexes([0] * 5)
    with pytest.raises(ValueError, match="not adjacent"):
        reachable_double(board, (0, 2), 3)


@pytest.mark.parametrize("seed", range(20))
def test_reachable_destinations_matches_the_full_search(seed):
    """The per-cell bucket search and the destinations-only search agree with the general one."""
    from envs.core.movement import reachable_destinations

    rng = np.random.default_rng(seed)
    exists = rng.random((7, 8)) < 0.85
    level = rng.integers(1, 4, size=(7, 8))
    board = Board.create("hex", exists, level=level)
    spaces = board.spaces()
    start = int(rng.choice(spaces))
    cost = climb_cost(board)
    enter = rng.random(board.n_cells) < 0.9
    enter[start] = True
    stops = rng.random(board.n_cells) < 0.2
    end = rng.random(board.n_cells) < 0.8
    budget = int(rng.integers(0, 7))
    # a callable stop rule takes the general two-state heap search: an independent reference
    general = reachable(
        board,
        start,
        budget,
        step_cost=cost,
        can_enter=enter,
        stops_after_entering=lambda a, b: bool(stops[b]),
        can_end=end,
    )
    by_cell = reachable(
        board,
        start,
        budget,
        step_cost=cost,
        can_enter=enter,
        stops_after_entering=stops,
        can_end=end,
    )
    expected = general.destinations().tolist()
    assert by_cell.destinations().tolist() == expected
    assert reachable_destinations(board, start, budget, cost, enter, stops, end) == expected
    for cell in expected:
        assert by_cell.cost[cell] == general.cost[cell]
        path = by_cell.path_to(cell)
        assert path[0] == start and path[-1] == cell
