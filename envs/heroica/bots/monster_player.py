"""The heuristic bot as Monster Player (Battle Heroica, HE-20): it fights in place when a Hero
is adjacent, otherwise moves the monster closest to a non-healing Hero straight at it, and
never walks the target's guard away. The phase handlers of
:mod:`envs.heroica.bots.heuristic` for the monster phases."""

from __future__ import annotations

from typing import Any

from envs.core.board import UNREACHABLE
from envs.heroica.bots.cost_to_go import MEAN_MOVE, WIN
from envs.heroica.state import HeroField

# The heuristic's per-decision view (heuristic._Turn); named loosely here because the
# heuristic imports these handlers.
Turn = Any


def _prey(turn: Turn) -> list[int]:
    """Cells of the Heroes worth chasing: not healing (HE-20.6), else any."""
    game, state = turn.game, turn.state
    seats = list(game.hero_seats())
    active = [s for s in seats if not state.heroes[s, HeroField.HEALING]]
    return [game.hero_cell(state, s) for s in (active or seats)]


def _distance_to_prey(turn: Turn, cell: int, prey: list[int]) -> int:
    distance = turn.st.distance
    return min((int(distance[cell, p]) for p in prey), default=int(UNREACHABLE))


def monster_select(turn: Turn) -> int:
    game, state, w = turn.game, turn.state, turn.w
    prey = _prey(turn)

    def score(cell: int) -> float:
        strength = turn.strength(cell)
        heroes = game.adjacent_heroes(state, cell, healing_ok=False)
        if heroes:  # fights without moving (HE-20.4 default)
            weakest = min(int(state.heroes[s, HeroField.HEALTH]) for s in heroes)
            return w.mp_fight + strength + (10.0 if weakest <= strength + 1 else 0.0)
        if cell == turn.target:
            return -WIN  # the guard never leaves the target open
        gap = _distance_to_prey(turn, cell, prey) - 1
        return -gap + 0.3 * strength + (w.mp_reach if gap <= MEAN_MOVE else 0.0)

    return turn.pick([(score(c), turn.cell_action("target", c)) for c in turn.cells("target")])


def monster_step(turn: Turn) -> int:
    prey = _prey(turn)
    here = turn.state.selected
    options: list[tuple[float, int]] = [
        (-_distance_to_prey(turn, c, prey), turn.cell_action("step", c)) for c in turn.cells("step")
    ]
    if turn.can("end_move"):
        options.insert(0, (-_distance_to_prey(turn, here, prey) + 0.5, turn.special("end_move")))
    return turn.pick(options)


def monster_fight_choose(turn: Turn) -> int:
    """Attack the Hero most likely to be defeated, then the one nearest the target."""
    game, state = turn.game, turn.state
    distance = turn.st.distance

    def score(cell: int) -> float:
        seat = game.hero_at(state, cell)
        return -int(state.heroes[seat, HeroField.HEALTH]) * 100 - int(distance[cell, turn.target])

    return turn.pick([(score(c), turn.cell_action("target", c)) for c in turn.cells("target")])
