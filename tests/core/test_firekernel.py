"""The compiled lines of fire (envs.core.firekernel, behind FireSnapshot.targets_from and
FireSnapshot.line) against the square-by-square reference of the rules (HC-4.17, HC-4.23,
HC-5.5, HC-5.6, HC-5.11, HC-5.16, HC-5.19 - HC-5.21) on random boards, masks and flight."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.firelines import FireLines
from tests.core.reference_firelines import random_board, reference_line

CLEAR, HINDERED, BLOCKED = (True, False), (True, True), (False, False)


def _check_against_reference(rng, board, attackers):
    """Every line from each of ``attackers`` to every square, random masks and flight, as
    the compiled query and the one-line query find it, against :func:`~tests.core.reference_firelines.reference_line`."""
    lines = FireLines(board)
    n = board.n_cells
    intact = rng.random(lines.geometry.n_edges) < 0.8
    m = {
        name: rng.random(n) < p
        for name, p in (
            ("blocking", 0.07),
            ("hindering", 0.2),
            ("ground_figures", 0.12),
            ("soaring_figures", 0.12),
            ("indoor", 0.2),
        )
    }
    snap = lines.snapshot(walls_intact=intact, **m)
    standing = [tuple(int(x) for x in lines.geometry.edges[i]) for i in np.flatnonzero(intact)]
    outcomes = set()
    for a in attackers:
        a_soar, a_fly = bool(rng.random() < 0.3), bool(rng.random() < 0.3)
        t_soar, t_fly = rng.random(n) < 0.3, rng.random(n) < 0.3
        found = snap.targets_from(
            a,
            attacker_soaring=a_soar,
            attacker_flying=a_fly,
            target_soaring=t_soar,
            target_flying=t_fly,
        )
        assert found.targets.tolist() == list(range(n))
        for b in range(n):
            if b == a:
                continue
            expected = reference_line(board, a, b, standing, m, a_soar, a_fly, t_soar[b], t_fly[b])
            got = (bool(found.clear[b]), bool(found.hindered[b]))
            assert got == expected, (board.label(a), board.label(b))
            outcomes.add(got)
            single = snap.line(
                a,
                b,
                attacker_soaring=a_soar,
                attacker_flying=a_fly,
                target_soaring=t_soar[b],
                target_flying=t_fly[b],
            )
            assert tuple(single) == expected
    return outcomes


@pytest.mark.parametrize("seed", range(4))
def test_targets_from_agrees_with_a_square_by_square_reference(seed):
    rng = np.random.default_rng(seed)
    board = random_board(rng, 6, 7)
    outcomes = _check_against_reference(rng, board, range(0, board.n_cells, 3))
    assert outcomes == {CLEAR, HINDERED, BLOCKED}


def test_compiled_lines_match_the_reference_on_many_random_boards():
    """The compiled query (envs.core.firekernel) on boards of every shape from 2x2 up:
    thin ones, roofs at the edge, a roof that fills the board."""
    rng = np.random.default_rng(2026)
    outcomes = set()
    for _ in range(60):
        height, width = (int(x) for x in rng.integers(2, 10, size=2))
        board = random_board(rng, height, width)
        attackers = rng.choice(board.n_cells, size=min(4, board.n_cells), replace=False)
        outcomes |= _check_against_reference(rng, board, [int(a) for a in attackers])
    assert outcomes == {CLEAR, HINDERED, BLOCKED}
