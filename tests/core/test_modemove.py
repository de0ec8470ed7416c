"""Movement over (square, mode) states on hand-made square8 boards (HC-3.19 to HC-3.30, HC-5.3,
HC-5.8, HC-5.10, HC-5.18), checked against an independent reference search and against
``movement.reachable`` on one mode.

Boards as text: ``.`` ground, ``h`` hindering, ``B`` blocking, ``i`` indoor, ``^`` elevated
(level 1), ``L`` ladder (ground level), ``#`` no space.
"""

from __future__ import annotations

import heapq

import numpy as np
import pytest

from envs.core.adjacency import adjacency_table
from envs.core.board import Board
from envs.core.modemove import (
    NOT_REACHED,
    ModeRules,
    enemy_stop_cells,
    reachable_modes,
    squares_next_to,
    squares_touching,
    touching_table,
)
from envs.core.movement import climb_cost, reachable

HOVER, SOAR = 0, 1


def board_from(text: str, walls=frozenset()):
    grid = np.array([list(r.strip()) for r in text.strip().splitlines()])
    board = Board.create("square8", grid != "#", level=(grid == "^").astype(np.int16), walls=walls)
    return board, {ch: (grid == ch).reshape(-1) for ch in "hBiL^"}


def mask(board, *squares):
    out = np.zeros(board.n_cells, dtype=bool)
    for row, col in squares:
        out[board.cell(row, col)] = True
    return out


def everywhere(board):
    return np.ones(board.n_cells, dtype=bool)


def search(board, seed, budget, *modes, **kwargs):
    row, col, mode = seed
    return reachable_modes(
        board.neighbors, [(board.cell(row, col), mode, 0)], budget, list(modes), **kwargs
    )


def path_cost(board, path, modes, switch_cost=1):
    total = 0
    for (a, ma), (b, mb) in zip(path, path[1:]):
        if a == b:
            assert ma != mb
            total += switch_cost
        else:
            assert ma == mb
            direction = board.direction_between(a, b)
            assert direction >= 0
            table = modes[ma].step_cost
            total += 1 if table is None else int(table[a, direction])
    return total


# -- HC-3.19 to HC-3.22: speed, diagonals, figures, stopping, ending ---------------------------


def test_HC_3_19_speed_caps_the_steps_and_a_diagonal_costs_one():
    board, _ = board_from("\n".join(["......."] * 7))
    start = board.cell(3, 3)
    reach = search(board, (3, 3, 0), 2, ModeRules(everywhere(board)))
    near = board.distance[start] <= 2
    assert (
        reach.cost[0].tolist()
        == np.where(near, board.distance[start].astype(np.int64), NOT_REACHED).tolist()
    )
    assert reach.destinations().tolist() == np.flatnonzero(near).tolist()
    assert reach.cost[0, board.cell(5, 5)] == 2  # two diagonal steps


def test_HC_3_19_no_diagonal_step_past_a_wall_corner():
    board, _ = board_from("...\n...\n...", walls={((0, 0), (0, 1))})
    reach = search(board, (0, 0, 0), 5, ModeRules(everywhere(board)))
    assert reach.cost[0, board.cell(1, 1)] == 2  # the wall touches the diagonal's corner
    assert reach.cost[0, board.cell(0, 1)] == 3


def test_HC_3_20_friends_are_passed_enemies_are_not():
    board, _ = board_from("......")
    friend, enemy = mask(board, (0, 1)), mask(board, (0, 3))
    rules = ModeRules(~enemy, can_end=~(friend | enemy))
    reach = search(board, (0, 0, 0), 5, rules)
    assert reach.destinations().tolist() == [0, 2]
    assert reach.cost[0, 1] == 1 and not reach.ends[0, 1]
    assert reach.cost[0, 4] == NOT_REACHED
    assert reach.path_to(2, 0) == [(0, 0), (1, 0), (2, 0)]


def test_HC_3_21_entering_a_square_next_to_an_enemy_ends_the_move():
    board, _ = board_from("......\n......")
    enemy = board.cell(0, 3)
    free = ModeRules(~mask(board, (0, 3)))
    stops = enemy_stop_cells(adjacency_table(board), [enemy], board.cell(0, 0))
    stopping = ModeRules(~mask(board, (0, 3)), stop_cells=stops)
    reach = search(board, (0, 0, 0), 10, stopping)
    assert reach.destinations().tolist() == [
        board.cell(*rc) for rc in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    ]
    assert reach.ends[0, board.cell(1, 2)] and reach.going_on[0, board.cell(1, 2)] == NOT_REACHED
    assert reach.cost[0, board.cell(0, 5)] == NOT_REACHED
    assert search(board, (0, 0, 0), 10, free).ends[0, board.cell(0, 5)]


def test_HC_3_21_no_stop_where_a_wall_breaks_adjacency():
    board, _ = board_from("....\n....", walls={((0, 1), (0, 2))})
    enemy = board.cell(0, 2)
    stops = enemy_stop_cells(adjacency_table(board), [enemy], board.cell(0, 0))
    reach = search(board, (0, 0, 0), 6, ModeRules(~mask(board, (0, 2)), stop_cells=stops))
    assert reach.going_on[0, board.cell(1, 1)] == 1  # behind the wall's corner: not adjacent
    assert reach.going_on[0, board.cell(1, 2)] == NOT_REACHED  # below the enemy: stops
    assert reach.cost[0, board.cell(1, 2)] == 2


def test_HC_3_22_a_stop_square_that_is_occupied_is_never_entered():
    board, _ = board_from("......")
    friend, enemy = mask(board, (0, 3)), mask(board, (0, 4))
    stops = enemy_stop_cells(adjacency_table(board), [board.cell(0, 4)])
    rules = ModeRules(~enemy, can_end=~(friend | enemy), stop_cells=stops)
    reach = search(board, (0, 0, 0), 10, rules)
    assert reach.cost[0, 3] == NOT_REACHED  # entering would stop it on the friend
    assert reach.destinations().tolist() == [0, 1, 2]


def test_HC_3_25_broken_away_enemies_do_not_stop_new_ones_do():
    board, _ = board_from("........\n........")
    a, b, start = board.cell(0, 1), board.cell(0, 6), board.cell(1, 1)
    table = adjacency_table(board)
    enter = ~mask(board, (0, 1), (0, 6))
    after_breakaway = search(
        board, (1, 1, 0), 10, ModeRules(enter, stop_cells=enemy_stop_cells(table, [a, b], start))
    )
    assert after_breakaway.going_on[0, board.cell(1, 2)] == 1  # next to A: goes on
    assert after_breakaway.going_on[0, board.cell(1, 5)] == NOT_REACHED  # next to B: stops
    assert after_breakaway.ends[0, board.cell(1, 5)]
    assert after_breakaway.cost[0, board.cell(1, 7)] == NOT_REACHED
    all_new = search(
        board, (1, 1, 0), 10, ModeRules(enter, stop_cells=enemy_stop_cells(table, [a, b]))
    )
    assert all_new.going_on[0, board.cell(1, 2)] == NOT_REACHED


def test_stop_rules_never_apply_to_the_seed():
    board, terrain = board_from(".h..")
    stops = mask(board, (0, 1))
    reach = search(
        board, (0, 1, 0), 2, ModeRules(everywhere(board), hindering=terrain["h"], stop_cells=stops)
    )
    assert reach.going_on[0, 1] == 0 and reach.ends[0, 1]
    assert reach.going_on[0, 2] == 1 and reach.going_on[0, 3] == 2


# -- HC-3.26 to HC-3.30: flyers ----------------------------------------------------------------


def flyer(board, hover_enter=None, soar_enter=None, **soar):
    hover = ModeRules(everywhere(board) if hover_enter is None else hover_enter)
    return hover, ModeRules(everywhere(board) if soar_enter is None else soar_enter, **soar)


def test_HC_3_26_a_switch_costs_one_and_soaring_passes_an_enemy():
    board, _ = board_from("......")
    enemy = mask(board, (0, 2))
    hover = ModeRules(~enemy, can_end=~enemy)
    soar = ModeRules(everywhere(board), can_end=~enemy)
    reach = search(board, (0, 0, HOVER), 5, hover, soar)
    assert reach.cost[SOAR, 0] == 1
    assert reach.cost[SOAR, 3] == 4 and reach.cost[HOVER, 3] == 5
    assert reach.cost[SOAR, 2] == 3 and not reach.ends[SOAR, 2]
    path = reach.path_to(3, HOVER)
    assert path == [(0, HOVER), (1, HOVER), (1, SOAR), (2, SOAR), (3, SOAR), (3, HOVER)]
    assert path_cost(board, path, [hover, soar]) == 5
    assert search(board, (0, 0, HOVER), 4, hover, soar).cost[HOVER, 3] == NOT_REACHED


def test_HC_3_26_switching_may_be_the_only_step():
    board, _ = board_from("...")
    hover, soar = flyer(board)
    reach = search(board, (0, 1, HOVER), 1, hover, soar)
    assert reach.ends[SOAR, 1] and reach.cost[SOAR, 1] == 1
    assert reach.path_to(1, SOAR) == [(1, HOVER), (1, SOAR)]
    assert search(board, (0, 1, HOVER), 0, hover, soar).cost[SOAR, 1] == NOT_REACHED


def test_HC_3_26_switch_then_move_costs_one_more_than_the_squares():
    board, _ = board_from("\n".join(["....."] * 5))
    start = board.cell(2, 2)
    reach = search(board, (2, 2, HOVER), 3, *flyer(board))
    near = board.distance[start] <= 2
    expected = np.where(near, board.distance[start].astype(np.int64) + 1, NOT_REACHED)
    assert reach.cost[SOAR].tolist() == expected.tolist()


def test_HC_3_26_may_switch_limits_where_a_switch_happens():
    board, _ = board_from(".....")
    hover = ModeRules(everywhere(board), may_switch=mask(board, (0, 2)))
    reach = search(board, (0, 0, HOVER), 6, hover, ModeRules(everywhere(board)))
    assert reach.cost[SOAR, :3].tolist() == [5, 4, 3]


def test_HC_3_29_soaring_flies_over_figures_and_blocking_but_cannot_end_there():
    board, terrain = board_from(".B...")
    occupied = mask(board, (0, 2), (0, 3))
    soar = ModeRules(everywhere(board), can_end=~(terrain["B"] | occupied))
    ground = ModeRules(~(terrain["B"] | mask(board, (0, 2))), can_end=~(terrain["B"] | occupied))
    reach = search(board, (0, 0, 0), 4, soar)
    assert reach.destinations().tolist() == [0, 4]
    assert reach.cost[0].tolist() == [0, 1, 2, 3, 4]
    assert search(board, (0, 0, 0), 4, ground).destinations().tolist() == [0]


def test_HC_3_29_soaring_stops_only_next_to_soaring_enemies_whatever_the_walls():
    board, _ = board_from(".....\n.....\n.....", walls={((1, 3), (2, 3))})
    ground_enemy, soaring_enemy = board.cell(0, 2), board.cell(2, 4)
    enter = ~mask(board, (0, 2), (2, 4))
    soar = ModeRules(
        everywhere(board),
        can_end=enter,
        stop_cells=enemy_stop_cells(touching_table(board), [soaring_enemy]),
    )
    reach = search(board, (1, 0, 0), 6, soar)
    assert reach.going_on[0, board.cell(1, 2)] == 2  # beside the ground enemy: no stop
    assert reach.going_on[0, board.cell(0, 2)] == 2  # over it
    assert reach.going_on[0, board.cell(1, 3)] == NOT_REACHED  # touches the soaring one
    assert reach.ends[0, board.cell(1, 3)]
    assert not squares_touching(board, [ground_enemy])[board.cell(2, 4)]


def test_HC_3_21_switching_down_beside_a_ground_enemy_ends_the_move():
    board, _ = board_from("....")
    enemy = mask(board, (0, 3))
    hover_stops = enemy_stop_cells(adjacency_table(board), [3])  # it began soaring: all new
    hover = ModeRules(~enemy, can_end=~enemy, stop_cells=hover_stops)
    soar = ModeRules(everywhere(board), can_end=~enemy)
    reach = search(board, (0, 0, SOAR), 5, hover, soar)
    assert reach.ends[HOVER, 2] and reach.cost[HOVER, 2] == 3
    assert reach.going_on[HOVER, 2] == NOT_REACHED
    literal = search(board, (0, 0, SOAR), 5, hover, soar, switch_stops=False)
    assert literal.going_on[HOVER, 2] == 3


def test_HC_5_3_a_soaring_flyer_must_hover_before_entering_indoors():
    board, terrain = board_from("..iii")
    indoor = terrain["i"]
    hover, soar = flyer(board, soar_enter=~indoor)
    reach = search(board, (0, 0, SOAR), 5, hover, soar)
    assert reach.cost[SOAR, 2] == NOT_REACHED
    assert reach.cost[HOVER, 3] == 4
    path = reach.path_to(3, HOVER)
    assert all(mode == HOVER for cell, mode in path if indoor[cell])
    assert path_cost(board, path, [hover, soar]) == 4
    inside = search(board, (0, 3, HOVER), 5, hover, soar)
    assert inside.cost[SOAR, 3] == NOT_REACHED  # not even on the square it began on
    assert inside.cost[SOAR, 1] == 3


def test_HC_3_30_a_carrying_flyer_must_end_hovering():
    board, _ = board_from("....")
    hover, soar = flyer(board, can_end=np.zeros(board.n_cells, dtype=bool))
    reach = search(board, (0, 0, HOVER), 4, hover, soar)
    assert reach.cost[SOAR, 3] == 4 and not reach.ends[SOAR].any()
    assert reach.destinations().tolist() == [0, 1, 2, 3]


# -- HC-5.8, HC-5.10, HC-5.18: terrain ---------------------------------------------------------


def test_HC_5_10_entering_hindering_ends_the_move():
    board, terrain = board_from("..hhh.")
    rules = ModeRules(everywhere(board), hindering=terrain["h"])
    reach = search(board, (0, 0, 0), 5, rules)
    assert reach.destinations().tolist() == [0, 1, 2]
    assert reach.going_on[0, 2] == NOT_REACHED and reach.cost[0, 2] == 2


def test_HC_5_10_a_step_from_hindering_into_hindering_ends_the_move():
    board, terrain = board_from("..hhh.")
    inside = search(board, (0, 2, 0), 3, ModeRules(everywhere(board), hindering=terrain["h"]))
    assert inside.destinations().tolist() == [0, 1, 2, 3]
    assert inside.going_on[0, 3] == NOT_REACHED and inside.cost[0, 3] == 1
    friend = mask(board, (0, 3))  # a hindering square it may not end on is not entered
    blocked = search(
        board, (0, 2, 0), 3, ModeRules(everywhere(board), can_end=~friend, hindering=terrain["h"])
    )
    assert blocked.destinations().tolist() == [0, 1, 2]


def test_HC_5_10_chains_hindering_to_hindering_goes_on_even_past_a_friend():
    board, terrain = board_from("..hhh.")
    friend = mask(board, (0, 3))
    rules = ModeRules(
        everywhere(board), can_end=~friend, hindering=terrain["h"], hindering_chains=True
    )
    inside = search(board, (0, 2, 0), 3, rules)
    assert inside.destinations().tolist() == [0, 1, 2, 4, 5]
    assert inside.going_on[0, 3] == 1 and not inside.ends[0, 3]
    outside = search(board, (0, 0, 0), 10, rules)
    assert outside.cost[0, 3] == NOT_REACHED  # only entered from hindering, never to stop


def test_HC_5_10_chains_a_square_may_be_reached_stopped_cheaply_and_going_on_dearly():
    board, terrain = board_from(".h.\nh#h\nhhh", walls={((1, 0), (1, 1))})
    rules = ModeRules(everywhere(board), hindering=terrain["h"], hindering_chains=True)
    x = board.cell(0, 1)
    reach = search(board, (1, 0, 0), 6, rules)
    assert reach.cost[0, x] == 2 and reach.going_on[0, x] == 4
    assert reach.path_to(x, 0) == [(board.cell(1, 0), 0), (0, 0), (x, 0)]


def test_HC_5_10_chains_an_equally_cheap_going_on_arrival_is_the_one_followed():
    board, terrain = board_from("h.h\nhh#")
    reach = search(
        board,
        (0, 0, 0),
        4,
        ModeRules(everywhere(board), hindering=terrain["h"], hindering_chains=True),
    )
    x = board.cell(0, 2)
    assert reach.cost[0, x] == reach.going_on[0, x] == 2  # also stopped in 2, through (0,1)
    assert reach.path_to(x, 0) == [(0, 0), (board.cell(1, 1), 0), (x, 0)]


def ladder_costs(board, ladder, top):
    """HC-5.8 default: a step on one level costs 1; the ladder links to one elevated square,
    up 2 and down 1; no other step changes level."""
    neighbors = board.neighbors
    there = np.where(neighbors < 0, 0, neighbors)
    costs = np.where(board.level[there] == board.level[:, None], 1, -1)
    costs[ladder, board.direction_between(ladder, top)] = 2
    costs[top, board.direction_between(top, ladder)] = 1
    return np.where(neighbors < 0, -1, costs)


def test_HC_5_8_a_ladder_step_up_costs_two_and_levels_change_only_there():
    board, _ = board_from(".L^\n..^")
    costs = ladder_costs(board, board.cell(0, 1), board.cell(0, 2))
    ground = ModeRules(everywhere(board), step_cost=costs)
    reach = search(board, (1, 0, 0), 10, ground)
    assert reach.cost[0, board.cell(0, 1)] == 1
    assert reach.cost[0, board.cell(0, 2)] == 3
    assert reach.cost[0, board.cell(1, 2)] == 4  # not up from (1,1) or diagonally off the ladder
    assert path_cost(board, reach.path_to(board.cell(1, 2), 0), [ground]) == 4
    down = search(board, (1, 2, 0), 10, ground)
    assert down.cost[0, board.cell(1, 0)] == 3  # (0,2), the ladder (down 1), a diagonal
    flying = search(board, (1, 0, 0), 10, ModeRules(everywhere(board)))
    assert flying.cost[0, board.cell(1, 2)] == 2  # HC-5.18: flyers need no ladder


# -- seeds, paths, determinism -----------------------------------------------------------------


def test_HC_6_6_several_seeds_continue_a_move_and_the_cheapest_wins():
    board, _ = board_from("......")
    rules = ModeRules(everywhere(board), can_end=~mask(board, (0, 4)))
    reach = reachable_modes(board.neighbors, [(0, 0, 0), (4, 0, 2), (4, 0, 3)], 4, [rules])
    assert reach.cost[0].tolist() == [0, 1, 2, 3, 2, 3]
    assert reach.path_to(5, 0) == [(4, 0), (5, 0)]
    assert reach.ends[0, 4]  # a seed state is an end even where can_end is False


def test_ties_go_to_the_lowest_index_predecessor():
    board, _ = board_from("\n".join(["....."] * 5))
    reach = search(board, (2, 2, 0), 2, ModeRules(everywhere(board)))
    # (1,1), (1,2) and (1,3) all reach (0,2) in 2; the tie goes to (1,1), the lowest index
    assert reach.path_to(2, 0) == [(12, 0), (6, 0), (2, 0)]


def test_a_tie_goes_to_the_lowest_index_even_when_it_is_found_later():
    board, _ = board_from("...\n...")
    costs = np.full(board.neighbors.shape, -1)
    for a, b, cost in [(1, 0, 2), (1, 2, 1), (0, 4, 1), (2, 4, 2)]:
        costs[a, board.direction_between(a, b)] = cost
    reach = search(board, (0, 1, 0), 3, ModeRules(everywhere(board), step_cost=costs))
    # 2 (reached for 1) offers 4 for 3 before 0 (reached for 2) does; 0 is the lower index
    assert reach.cost[0, 4] == 3
    assert reach.path_to(4, 0) == [(1, 0), (0, 0), (4, 0)]


def test_results_do_not_depend_on_the_cached_tables():
    board, terrain = board_from("..h.\n.h..\n....")
    modes = [
        ModeRules(everywhere(board), hindering=terrain["h"]),
        ModeRules(everywhere(board), step_cost=climb_cost(board)),
    ]
    first = reachable_modes(board.neighbors, [(0, 0, 0)], 4, modes)
    again = reachable_modes(board.neighbors, [(0, 0, 0)], 4, modes)
    fresh = reachable_modes(board.neighbors.copy(), [(0, 0, 0)], 4, modes)
    for other in (again, fresh):
        assert (other.cost == first.cost).all() and (other.ends == first.ends).all()
        assert all(
            other.path_to(c, m) == first.path_to(c, m) for m, c in zip(*np.nonzero(first.reached()))
        )


def reference(board, seeds, budget, modes, switch_cost=1):
    """An independent heap search over (stopped, mode, cell), written from the rules."""
    n = board.n_cells

    def full(value, default):
        return np.full(n, default) if value is None else np.asarray(value, dtype=bool)

    rules = [
        dict(
            enter=full(m.can_enter, True),
            end=full(m.can_end, True) if m.can_end is not None else full(m.can_enter, True),
            stop=full(m.stop_cells, False),
            hind=full(m.hindering, False),
            switch=full(m.may_switch, True),
            chains=m.hindering_chains,
            cost=m.step_cost,
        )
        for m in modes
    ]
    heap = [(spent, 0, mode, cell) for cell, mode, spent in seeds]
    best: dict[tuple[int, int, int], int] = {}
    while heap:
        cost, stopped, mode, cell = heapq.heappop(heap)
        if (stopped, mode, cell) in best:
            continue
        best[(stopped, mode, cell)] = cost
        if stopped:
            continue
        r = rules[mode]
        for direction, nxt in enumerate(board.neighbors[cell]):
            step = 1 if r["cost"] is None else int(r["cost"][cell, direction])
            if nxt < 0 or step < 0 or cost + step > budget or not r["enter"][nxt]:
                continue
            halt = r["stop"][nxt] or (r["hind"][nxt] and not (r["chains"] and r["hind"][cell]))
            if not halt or r["end"][nxt]:
                heapq.heappush(heap, (cost + step, int(halt), mode, int(nxt)))
        for other, o in enumerate(rules):
            if other == mode or not r["switch"][cell] or not o["enter"][cell]:
                continue
            if cost + switch_cost <= budget and (not o["stop"][cell] or o["end"][cell]):
                heapq.heappush(heap, (cost + switch_cost, int(o["stop"][cell]), other, cell))
    cost = np.full((len(modes), n), NOT_REACHED, dtype=np.int64)
    going = cost.copy()
    for (stopped, mode, cell), value in best.items():
        cost[mode, cell] = min(cost[mode, cell], value)
        if not stopped:
            going[mode, cell] = value
    ends = (cost != NOT_REACHED) & np.stack([r["end"] for r in rules])
    for cell, mode, _ in seeds:
        ends[mode, cell] = True
    return cost, going, ends


def random_case(seed, n_modes):
    rng = np.random.default_rng(seed)
    exists = rng.random((6, 7)) < 0.9
    walls = {((r, c), (r, c + 1)) for r in range(6) for c in range(6) if rng.random() < 0.1}
    board = Board.create("square8", exists, level=rng.integers(0, 3, (6, 7)), walls=walls)
    n = board.n_cells
    modes = []
    for mode in range(n_modes):
        costs = np.where(
            rng.random(board.neighbors.shape) < 0.15, -1, rng.integers(1, 3, board.neighbors.shape)
        )
        modes.append(
            ModeRules(
                rng.random(n) < 0.9,
                can_end=rng.random(n) < 0.8,
                step_cost=costs if mode else None,
                hindering=rng.random(n) < 0.3,
                stop_cells=rng.random(n) < 0.15,
                may_switch=rng.random(n) < 0.7,
                hindering_chains=bool(rng.random() < 0.5),
            )
        )
    spaces = board.spaces()
    seeds = [
        (int(rng.choice(spaces)), int(rng.integers(n_modes)), int(rng.integers(0, 2)))
        for _ in range(int(rng.integers(1, 3)))
    ]
    return board, modes, seeds, int(rng.integers(2, 9))


@pytest.mark.parametrize("seed", range(12))
def test_matches_an_independent_search_and_paths_sum_to_the_cost(seed):
    board, modes, seeds, budget = random_case(seed, 2)
    switch_cost = seed % 3  # 0 makes zero-cost steps, 2 a dear switch
    reach = reachable_modes(board.neighbors, seeds, budget, modes, switch_cost=switch_cost)
    cost, going, ends = reference(board, seeds, budget, modes, switch_cost)
    assert reach.cost.tolist() == cost.tolist()
    assert reach.going_on.tolist() == going.tolist()
    assert reach.ends.tolist() == ends.tolist()
    starts = {(cell, mode): spent for cell, mode, spent in seeds}
    for mode, cell in zip(*np.nonzero(reach.reached())):
        path = reach.path_to(int(cell), int(mode))
        assert path[-1] == (cell, mode) and path[0] in starts
        assert (
            starts[path[0]] + path_cost(board, path, modes, switch_cost) == reach.cost[mode, cell]
        )


@pytest.mark.parametrize("seed", range(10))
def test_one_mode_matches_movement_reachable(seed):
    board, modes, seeds, budget = random_case(100 + seed, 1)
    rules = modes[0]
    start = seeds[0][0]
    step_cost = climb_cost(board)
    enter, end, stops, hind = rules.can_enter, rules.can_end, rules.stop_cells, rules.hindering
    by_cell = ModeRules(enter, can_end=end, step_cost=step_cost, stop_cells=stops)
    ours = reachable_modes(board.neighbors, [(start, 0, 0)], budget, [by_cell])
    theirs = reachable(board, start, budget, step_cost, enter, stops, end)
    assert ours.cost[0].tolist() == theirs.cost.tolist()
    assert ours.ends[0].tolist() == theirs.end_mask.tolist()
    for chains in (False, True):
        hindered = ModeRules(
            enter,
            can_end=end,
            step_cost=step_cost,
            stop_cells=stops,
            hindering=hind,
            hindering_chains=chains,
        )
        ours = reachable_modes(board.neighbors, [(start, 0, 0)], budget, [hindered])
        theirs = reachable(
            board,
            start,
            budget,
            step_cost,
            enter,
            lambda a, b, chains=chains: bool(stops[b] or (hind[b] and not (chains and hind[a]))),
            end,
        )
        assert ours.cost[0].tolist() == theirs.cost.tolist()
        assert ours.ends[0].tolist() == theirs.end_mask.tolist()


# -- helpers and errors ------------------------------------------------------------------------


def test_squares_next_to_follows_the_table_and_touching_ignores_walls():
    board, _ = board_from("...\n...\n#..", walls={((1, 1), (1, 2))})
    centre = board.cell(1, 1)
    beside = board.cell(1, 2)
    near = squares_next_to(adjacency_table(board), [centre])
    assert not near[beside] and near[board.cell(1, 0)] and not near[centre]
    touching = squares_touching(board, [centre])
    assert touching[beside] and not touching[board.cell(2, 0)]  # (2,0) is no space
    assert squares_touching((3, 3), [centre]).sum() == 8
    assert touching_table((3, 3))[0].tolist() == [-1, -1, 1, 4, 3, -1, -1, -1]


def test_bad_inputs_raise_value_errors():
    board, _ = board_from("...")
    ok = ModeRules(everywhere(board))
    nb = board.neighbors
    cases = [
        (lambda: reachable_modes(nb[0], [(0, 0, 0)], 1, [ok]), "2-D integer"),
        (lambda: reachable_modes(nb.astype(float), [(0, 0, 0)], 1, [ok]), "2-D integer"),
        (lambda: reachable_modes(nb, [(0, 1, 0)], 1, [ok]), "seed mode 1"),
        (lambda: reachable_modes(nb, [(3, 0, 0)], 1, [ok]), "seed cell 3"),
        (lambda: reachable_modes(nb, [(0, 0, 2)], 1, [ok]), "seed cost 2"),
        (lambda: reachable_modes(nb, [(0, 0)], 1, [ok]), "not \\(cell, mode, cost\\)"),
        (lambda: reachable_modes(nb, [], 1, [ok]), "at least one seed"),
        (lambda: reachable_modes(nb, [(0, 0, 0)], -1, [ok]), "budget"),
        (lambda: reachable_modes(nb, [(0, 0, 0)], 1, []), "at least one mode"),
        (lambda: reachable_modes(nb, [(0, 0, 0)], 1, [ok, ok], switch_cost=-1), "switch_cost"),
        (
            lambda: reachable_modes(nb, [(0, 0, 0)], 1, [ModeRules(np.ones(4, bool))]),
            r"modes\[0\].can_enter",
        ),
        (
            lambda: reachable_modes(
                nb, [(0, 0, 0)], 1, [ok, ModeRules(everywhere(board), hindering=np.ones(2))]
            ),
            r"modes\[1\].hindering",
        ),
        (
            lambda: reachable_modes(
                nb, [(0, 0, 0)], 1, [ModeRules(everywhere(board), step_cost=np.ones((3, 4), int))]
            ),
            r"modes\[0\].step_cost has shape",
        ),
        (lambda: reachable_modes(nb, [(0, 0, 0)], 1, [object()]), "not ModeRules"),
        (lambda: reachable_modes(nb + 5, [(0, 0, 0)], 1, [ok]), "outside"),
        (lambda: squares_next_to(adjacency_table(board), [7]), "out of range"),
        (lambda: enemy_stop_cells(adjacency_table(board), [0], start=-1), "out of range"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()
    reach = reachable_modes(nb, [(0, 0, 0)], 1, [ok])
    with pytest.raises(ValueError, match="mode 1 out of range"):
        reach.path_to(0, 1)
    with pytest.raises(ValueError, match="not reached"):
        reach.path_to(2, 0)


def test_HC_3_21_stop_squares_are_the_same_from_a_read_only_table_and_a_writable_one():
    # Games pass read-only tables, which take the reverse-table path; writable ones scan.
    rng = np.random.default_rng(11)
    for _ in range(1000):
        n, k = int(rng.integers(1, 60)), int(rng.integers(1, 9))
        table = rng.integers(-1, n, size=(n, k)).astype(np.int32)
        cells = rng.choice(n, size=int(rng.integers(0, min(n, 5) + 1)), replace=False).tolist()
        frozen = table.copy()
        frozen.setflags(write=False)
        assert squares_next_to(frozen, cells).tolist() == squares_next_to(table, cells).tolist()
