"""The legal actions of a Heroica position as a sorted list of ints, for the heuristic.

The heuristic decides some fifty thousand times per lookahead decision (every step of every
playout), and the engine's numpy mask (an 800-entry array built, frozen and scanned with
``flatnonzero`` for a handful of legal actions) cost more than the decision itself.
:class:`LegalSet` stands in for :class:`~envs.core.flow.LegalMask` when the phase's own
``mask`` marks the legal actions, so the bot sees exactly what the engine would offer without
the array. Two shortcuts cover the commonest decisions: a plain MOVE (steps and ``end_move``
only, :func:`plain_move_legal`) and START / END with no fight on offer, whose legal actions
and choice depend only on what :func:`shop_key` lists.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from envs.core.actions import ActionLayout
from envs.core.state import MASK_CACHE
from envs.heroica.dice import SHIELD
from envs.heroica.game import ActionKind, HeroicaBase
from envs.heroica.moves import hero_steps
from envs.heroica.state import CELL, NO_CELL, HeroField, Phase

if TYPE_CHECKING:  # pragma: no cover
    from envs.heroica.state import State

__all__ = [
    "LegalSet",
    "legal_actions",
    "lone_target",
    "move_key",
    "plain_move_legal",
    "shop_key",
]


class LegalSet:
    """The marking interface of :class:`~envs.core.flow.LegalMask`, into a set of actions."""

    __slots__ = ("actions", "layout")

    def __init__(self, layout: ActionLayout):
        self.layout = layout
        self.actions: set[int] = set()

    def cells(self, plane: str, cells: Iterable[int] | np.ndarray) -> None:
        offset = self.layout.plane_offset(plane)
        self.actions.update([offset + int(c) for c in cells])

    def special(self, name: str) -> None:
        self.actions.add(self.layout.special(name))

    def slot(self, family: str, index: int) -> None:
        self.actions.add(self.layout.slot(family, index))


def legal_actions(game: HeroicaBase, state: State) -> list[int]:
    """The legal actions, ascending: ``np.flatnonzero(game.legal_mask(state))`` as ints."""
    mask = state.__dict__.get(MASK_CACHE)
    if mask is not None:  # already built (the lookahead's root): reading it is cheaper
        return np.flatnonzero(mask).tolist()
    legal = LegalSet(game.layout)
    game.phases.rules[state.phase].mask(game, state, legal)  # type: ignore[arg-type]
    return sorted(legal.actions)


_HEALTH, _HEALING, _GOLD = int(HeroField.HEALTH), int(HeroField.HEALING), int(HeroField.GOLD)
_LIFE, _SPEED = int(HeroField.LIFE_POTIONS), int(HeroField.SPEED_POTIONS)
_SCEPTER, _WEAPONS = int(HeroField.SCEPTER), int(HeroField.WEAPONS)
_TORCH = int(HeroField.TORCH)


def shop_key(game: HeroicaBase, state: State) -> tuple | None:
    """All that START (with no fight on offer) and END read, both their legal actions (the
    phases' ``mask``: potions, Health, Store) and the heuristic (potions, shop, roll or end);
    None when a fight is on offer (the choice then depends on the board)."""
    seat = state.seat
    hero = state.heroes[seat].tolist()
    if (
        state.phase is Phase.START
        and not hero[_HEALING]
        and game.adjacent_monsters(state, hero[CELL])
    ):
        return None
    return (
        id(game),
        state.phase,
        seat,
        state.turn_seat,
        hero[_HEALTH],
        hero[_HEALING],
        hero[_GOLD],
        hero[_LIFE],
        hero[_SCEPTER],
        hero[_WEAPONS],
        state.store_weapons,
        state.store_gold,
    )


def _life_on_offer(game: HeroicaBase, state: State, seat: int, hero: list[int]) -> bool:
    """HE-10.1 as the phases mark it: a Life Potion, on the Hero's own turn, not at full Health."""
    return (
        seat == state.turn_seat
        and seat != game.monster_seat
        and hero[_LIFE] > 0
        and hero[_HEALTH] < game.max_health
    )


def _shield_move(state: State) -> bool:
    """A movement Shield before the first step: ranged skills and the Scepter are on offer."""
    return state.die == SHIELD and state.steps_taken == 0


def _shield_or_speed(state: State, hero: list[int]) -> bool:
    return hero[_SPEED] > 0 or _shield_move(state)


def move_key(game: HeroicaBase, state: State) -> tuple | None:
    """All that the legal actions of a MOVE without a Shield skill on offer, and the
    heuristic's choice among them, read: the board, where the Hero stands and has been,
    whether steps are left, whether it entered its space, its Health, healing and torch (its
    cost to go) and whether a Life Potion is on offer; with a Speed Potion in hand also the
    steps left (whether to drink it depends on where they end). None on a Shield's MOVE."""
    if _shield_move(state):
        return None
    seat = state.seat
    hero = state.heroes[seat].tolist()
    speed = hero[_SPEED] > 0
    return (
        id(game),
        state.mission,
        hero[CELL],
        state.visited,
        speed,
        state.steps_left if speed else state.steps_left > 0,
        state.entered_from == NO_CELL,
        hero[_HEALTH],
        hero[_HEALING],
        hero[_TORCH],
        _life_on_offer(game, state, seat, hero),
        state.piece.tobytes(),
    )


def plain_move_legal(game: HeroicaBase, state: State) -> list[int] | None:
    """The legal actions of a MOVE with only steps and ``end_move`` on offer (no potion to
    drink, no Shield skill), as :class:`~envs.heroica.phases.heroes.Move` marks them; None
    otherwise (``legal_actions`` then asks the phase)."""
    seat = state.seat
    hero = state.heroes[seat].tolist()
    if _shield_or_speed(state, hero) or _life_on_offer(game, state, seat, hero):
        return None
    layout = game.layout
    legal = []
    if state.steps_left > 0:
        offset = layout.plane_offset(ActionKind.STEP)
        legal = sorted(offset + c for c in hero_steps(game, state, hero[CELL]))
    legal.append(layout.special(ActionKind.END_MOVE))
    return legal


def lone_target(game: HeroicaBase, state: State) -> int | None:
    """The one legal action of a FIGHT_CHOOSE or ROCKS_CHOOSE with a single monster or rocks
    next to the Hero and no Life Potion on offer (most of them); None otherwise."""
    seat = state.seat
    hero = state.heroes[seat].tolist()
    if _life_on_offer(game, state, seat, hero):
        return None
    if state.phase is Phase.FIGHT_CHOOSE:
        cells = game.adjacent_monsters(state, hero[CELL])
    else:
        cells = game.adjacent_rocks(state, hero[CELL])
    if len(cells) != 1:
        return None
    return game.layout.plane_offset(ActionKind.TARGET) + cells[0]
