"""The compiled movement kernels return exactly what their plain-Python references return.

Random boards: random neighbour tables (gaps, repeats, self-loops), step costs with zeros and
forbidden steps (so ties and zero-cost chains are exercised), random entry rules and seeds.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.kernels import csr_steps, entry_codes, search_by_cell, search_modes
from tests.core import reference_search as reference

BOARDS = 3000


def random_table(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    table = rng.integers(-1, n, size=(n, k)).astype(np.int32)
    table[rng.random((n, k)) < 0.2] = -1
    return table


def random_costs(rng: np.random.Generator, n: int, k: int) -> np.ndarray | None:
    if rng.random() < 0.3:
        return None
    return rng.choice([-1, 0, 1, 1, 2, 3], size=(n, k)).astype(np.int32)


@pytest.mark.parametrize("chunk", range(3))
def test_search_by_cell_matches_the_reference(chunk: int):
    rng = np.random.default_rng(1000 + chunk)
    for _ in range(BOARDS // 3):
        n, k = int(rng.integers(1, 40)), int(rng.integers(1, 9))
        table, costs = random_table(rng, n, k), random_costs(rng, n, k)
        may_enter = rng.random(n) < 0.8
        stop = rng.random(n) < 0.2
        start, budget = int(rng.integers(n)), int(rng.integers(0, 9))
        best, pred = search_by_cell(
            *csr_steps(table, costs, by_cost=False), start, budget, may_enter, stop
        )
        reached, ref_best, ref_pred = reference.search_by_cell(
            reference.adjacency_lists(table, costs),
            n,
            start,
            budget,
            may_enter.tolist(),
            stop.tolist(),
        )
        assert best.tolist() == ref_best
        assert pred.tolist() == ref_pred
        assert sorted(np.flatnonzero(best != reference.NOT_REACHED).tolist()) == sorted(reached)


@pytest.mark.parametrize("chunk", range(3))
def test_search_modes_matches_the_reference(chunk: int):
    rng = np.random.default_rng(2000 + chunk)
    for _ in range(BOARDS // 3):
        n, k, n_modes = int(rng.integers(1, 30)), int(rng.integers(1, 9)), int(rng.integers(1, 4))
        table = random_table(rng, n, k)
        size = n * n_modes
        budget = int(rng.integers(0, 9))
        per_mode_costs = [random_costs(rng, n, k) for _ in range(n_modes)]
        codes = rng.integers(0, 5, size=size).astype(np.int8)
        arrivals = rng.choice([0, 1, 2], size=size).astype(np.int8)
        hinders = rng.random(size) < 0.3
        switches = rng.random(size) < 0.7
        switch_cost = int(rng.integers(0, 3))
        seeds = tuple(
            (int(rng.integers(n)), int(rng.integers(n_modes)), int(rng.integers(0, budget + 1)))
            for _ in range(int(rng.integers(1, 4)))
        )
        csrs = [csr_steps(table, costs, by_cost=True) for costs in per_mode_costs]
        offsets = [csrs[0][0]]
        for csr in csrs[1:]:  # the modes' tables end to end over states mode * n + cell
            offsets.append(csr[0][1:] + offsets[-1][-1])
        targets = np.concatenate([c[1] + i * n for i, c in enumerate(csrs)]).astype(np.int32)
        costs = np.concatenate([c[2] for c in csrs])
        got = search_modes(
            n,
            np.array([m * n + c for c, m, _ in seeds], dtype=np.int64),
            np.array([s for _, _, s in seeds], dtype=np.int64),
            budget,
            np.concatenate(offsets),
            targets,
            costs,
            codes,
            arrivals,
            hinders,
            switches,
            switch_cost,
        )
        steps = []
        for index, per_cost in enumerate(per_mode_costs):
            steps.extend(reference.step_groups(table, per_cost, index * n))
        expected = reference.search_modes(
            n,
            seeds,
            budget,
            steps,
            codes.tolist(),
            arrivals.tolist(),
            hinders.tolist(),
            switches.tolist(),
            switch_cost,
        )
        for array, listed in zip(got, expected):
            assert array.tolist() == listed


def test_csr_steps_keeps_direction_order_or_sorts_by_cost_then_target():
    table = np.array([[2, 1, -1], [0, 0, 2], [-1, -1, -1]], dtype=np.int32)
    costs = np.array([[1, 2, 1], [3, 1, -1], [1, 1, 1]], dtype=np.int32)
    offsets, targets, step = csr_steps(table, costs, by_cost=False)
    assert offsets.tolist() == [0, 2, 4, 4]
    assert list(zip(targets.tolist(), step.tolist())) == [(2, 1), (1, 2), (0, 3), (0, 1)]
    offsets, targets, step = csr_steps(table, costs, by_cost=True)
    assert list(zip(targets.tolist(), step.tolist())) == [(2, 1), (1, 2), (0, 1), (0, 3)]


def test_entry_codes_match_the_reference():
    rng = np.random.default_rng(3000)
    for _ in range(BOARDS):
        n = int(rng.integers(1, 80))
        enter, end, stop, hindering = (rng.random(n) < p for p in (0.8, 0.7, 0.2, 0.3))
        chaining, switch_stops = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
        codes, arrivals = np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int8)
        entry_codes(enter, end, stop, hindering, chaining, switch_stops, codes, arrivals)
        ref_codes, ref_arrivals = reference.entry_codes(
            enter, end, stop, hindering, chaining, switch_stops
        )
        assert codes.tolist() == ref_codes.tolist()
        assert arrivals.tolist() == ref_arrivals.tolist()
