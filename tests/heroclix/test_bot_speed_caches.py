"""The heuristic bot keeps what it computed across decisions and positions (facts per
position, lines of fire and reaches per geometry, hit rolls and the best attacks of a pair
per what the engine's totals read), and the game keeps what its rules ask again (adjacency,
hindering, fire snapshots, traits); those caches must never change a choice: a bot that has
played a whole game on one game object picks what a fresh bot picks on a fresh game object
with empty caches, in every position of it (the brawl: its first decisions), and weighs its
options at the same scores."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.hooks import ATTACK_VALUE, DEFENSE_VALUE
from envs.heroclix.bots.heuristic import HeuristicBot
from envs.heroclix.combat.attack import AttackKind, AttackSpec
from envs.heroclix.combat.sums import attack_total, defense_total
from envs.heroclix.powers.catalog import Column, power
from envs.heroclix.powers.hooks import HOOKS
from envs.heroclix.rules import HeroclixGame


@pytest.mark.parametrize("scenario,seed,steps", [("duel", 3, 400), ("brawl", 1, 60)])
def test_cached_choices_match_a_fresh_bot(scenario, seed, steps):
    game = HeroclixGame(scenario)
    state = game.new_state(seed)
    seasoned = HeuristicBot()
    rng = np.random.default_rng(seed)
    for step in range(steps):
        if game.current_player(state) < 0:
            break
        action = seasoned.act(game, state, rng)
        fresh_game = HeroclixGame(scenario)
        assert action == HeuristicBot().act(fresh_game, state.copy(), rng)
        if step % 4 == 0:
            assert seasoned.scored(game, state) == HeuristicBot().scored(fresh_game, state.copy())
        game.apply(state, action)


# A power can sit on attacker or target; the team abilities come with their own keys.
VALUE_POWERS = sorted(set(HOOKS.keys(ATTACK_VALUE)) | set(HOOKS.keys(DEFENSE_VALUE)))
# (attacker's square, target's square): clear, the target on hindering terrain, both on a roof
LAYOUTS = [((5, 2), (5, 9)), ((7, 2), (7, 9)), ((3, 6), (3, 9))]
MARKS = {(7, 9): "%", (3, 4): ">"}  # hindering; a ladder up to the roof
LEVELS = {(3, c): 1 for c in range(5, 11)}


def _with_power(key: str | None) -> tuple:
    slots: list[str | None] = [None, None, None, None]
    if key is not None:
        slots[list(Column).index(power(key).column)] = key
    return tuple(slots)


@pytest.mark.parametrize("key", [None, *VALUE_POWERS])
def test_attack_and_defense_totals_read_no_square(H, key):
    """The bots keep a pair's attack prices across positions by what the totals read of each
    figure (Evaluator.combat), which leaves out its square: a value power that read the square
    (height, terrain) would leave kept prices stale. So with the power on either figure and no
    figure beside them, the totals are the same on clear, hindering and elevated squares."""
    totals = set()
    for a_at, b_at in LAYOUTS:
        attacker = H.fig("hitter", "Hitter", range=8, powers=_with_power(key))
        target = H.fig("holder", "Holder", powers=_with_power(key))
        game, state = H.build(
            [[attacker], [target]],
            {"Hitter": a_at, "Holder": b_at},
            marks=MARKS,
            levels=LEVELS,
        )
        a, b = H.idx(game, "Hitter"), H.idx(game, "Holder")
        totals.add(
            tuple(
                (
                    attack_total(game, state, spec, a, b, 0),
                    defense_total(game, state, spec, a, b, False),
                )
                for spec in (AttackSpec(AttackKind.CLOSE), AttackSpec(AttackKind.RANGED))
            )
        )
    assert len(totals) == 1, totals
