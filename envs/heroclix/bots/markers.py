"""The heuristic bot's markers: Smoke Cloud (P-ATT-8, hindering) and Barrier (P-DEF-6,
blocking), placed to cut the enemy's lines of fire to our figures for its coming turn (the
markers are gone at the start of ours).

The price is the enemy's ranged threat it takes away, in the position score's units
(``risk`` times the expected damage): each enemy that could shoot next turn from where it
stands (not next to a figure of ours, HC-4.16) is expected to attack the figure of ours it
hurts most, by its best shot (with cover where the line is hindered; none through a Stealth
figure's hindered line, P-SPD-10), or by walking up for a close attack at ``closing``. The
markers go one by one where they lower that most (greedy, each square tried on a copy of the
state with the marker placed, only squares near a line that matters), until none helps or
four are down. Choosing it competes with the figure's other actions like any variant, so it
wins when there is nothing better to do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from envs.heroclix.bots.variants import Play, best_shot, best_strike
from envs.heroclix.combat.targets import fire_snapshot, lines_to, shootable_while_adjacent
from envs.heroclix.powers.hooks import HOOKS, VARIANTS
from envs.heroclix.state import SOAR

MAX_MARKERS = 4
NEAR_LINE = 0.75  # a square whose centre is this close to a line may cut it
EPS = 1e-3


@dataclass(frozen=True)
class Shot:
    """One enemy's shot at one figure of ours, as things stand."""

    enemy: int
    target: int
    clean: float
    cover: float
    walk_up: float  # its close attack after walking up, if it can (``closing`` weighted)


def shots_at_us(turn) -> list[Shot]:
    memo = turn.memo.setdefault("markers", {})
    if "shots" in memo:
        return memo["shots"]
    game, state = turn.game, turn.state
    found = []
    for e in turn.enemies:
        reach = turn.shot_range(e)
        allowed = shootable_while_adjacent(game, state, e)  # HC-4.16, HC-4.21
        if reach <= 0 or allowed == []:
            continue
        speed, held = int(turn.values[e, 0]), turn.held_class(e)
        for g in turn.mine if allowed is None else [g for g in turn.mine if g in allowed]:
            gap = int(game.chebyshev[state.cell[e], state.cell[g]])
            if gap > ((reach + 1) // 2 if state.mode[g] == SOAR else reach):
                continue
            walk = turn.closing * best_strike(turn, e, g, held) if gap <= speed + 1 else 0.0
            found.append(Shot(e, g, *best_shot(turn, e, g), walk))
    memo["shots"] = found
    return found


def danger(turn, state, shots: list[Shot]) -> float:
    """Expected value the enemy's shooters take from us next turn in ``state``."""
    game = turn.game
    snap = fire_snapshot(game, state)
    worst: dict[int, float] = {}
    by_enemy: dict[int, list[Shot]] = {}
    for s in shots:
        by_enemy.setdefault(s.enemy, []).append(s)
    for e, mine in by_enemy.items():
        seen = lines_to(game, state, e, [s.target for s in mine], snap)
        worst[e] = max(
            max(s.walk_up, (s.cover if seen[s.target] else s.clean) if s.target in seen else 0.0)
            for s in mine
        )
    return sum(turn.p_act.get(e, 1.0) * v for e, v in worst.items())


def near_lines(turn, shots: list[Shot], squares: list[int]) -> list[int]:
    """The squares of ``squares`` near a line of fire worth cutting."""
    if not squares:
        return []
    game, state = turn.game, turn.state
    width = game.width
    cells = np.asarray(squares)
    pr, pc = np.divmod(cells, width)
    keep = np.zeros(cells.size, dtype=bool)
    for s in shots:
        if max(s.clean, s.cover) <= s.walk_up:
            continue
        (ar, ac), (br, bc) = (
            divmod(int(state.cell[s.enemy]), width),
            divmod(int(state.cell[s.target]), width),
        )
        dr, dc = br - ar, bc - ac
        t = np.clip(((pr - ar) * dr + (pc - ac) * dc) / max(dr * dr + dc * dc, 1), 0.0, 1.0)
        gap = np.hypot(pr - (ar + t * dr), pc - (ac + t * dc))
        keep |= (gap <= NEAR_LINE) & (cells != state.cell[s.enemy])
    return [int(c) for c in cells[keep]]


def placements(turn, figure: int, key: str, limit: int = MAX_MARKERS) -> tuple[float, list[int]]:
    """(value, squares): the markers placed greedily while each lowers the danger."""
    shots = shots_at_us(turn)
    if not shots:
        return 0.0, []
    variant = HOOKS.get(VARIANTS, key)
    game, state = turn.game, turn.state
    base = current = danger(turn, state, shots)
    placed: list[int] = []
    while len(placed) < limit and current > EPS:
        best = None
        for cell in near_lines(turn, shots, variant.squares(game, state, figure)):
            trial = state.copy()
            variant.place(game, trial, figure, cell)
            value = danger(turn, trial, shots)
            if best is None or value < best[0]:
                best = (value, cell, trial)
        if best is None or current - best[0] <= EPS:
            break
        current, cell, state = best
        placed.append(cell)
    return turn.risk * (base - current), placed


def marker_play(key: str) -> Play:
    def plan(turn, figure):
        value, placed = placements(turn, figure, key)
        return value if placed else None  # no attack roll, so no critical miss

    def step(turn):
        _, placed = placements(turn, turn.state.selected, key, limit=1)
        if placed:
            return turn.cell_action("marker", placed[0])
        return turn.special("end_action") if turn.can("end_action") else None

    return Play(plan, step)


PLAYS = {"smoke_cloud": marker_play("smoke_cloud"), "barrier": marker_play("barrier")}
