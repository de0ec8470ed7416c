"""Heroscape game state: per-figure arrays plus a few turn scalars, cheap to copy."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.core.dice import Dice
from envs.core.state import FieldRule, FlatState, Problem

NO_CELL = -1
NO_FIGURE = -1


class Phase(enum.IntEnum):
    CHOOSE_CARD = 0  # HS-5.2
    MOVE_SELECT = 1  # HS-6.2: pick the next figure to move, or end movement
    MOVE_DEST = 2  # HS-6.1: pick the destination (double-space: one of its two spaces)
    MOVE_TAIL = 3  # HS-7: a double-space figure's other space
    ATTACK_SELECT = 4  # HS-11: pick the next attacker, or end the turn
    ATTACK_TARGET = 5  # HS-12.1: pick the defender
    GAME_OVER = 6


@dataclass
class State(FlatState):
    ARRAY_DTYPES = {
        "cell": np.int16,
        "cell2": np.int16,
        "occupant": np.int16,
        "moved": bool,
        "attacked": bool,
    }
    PHASE = Phase

    cell: np.ndarray  # int16[F]: a figure's (first) space, NO_CELL once destroyed
    cell2: np.ndarray  # int16[F]: a double-space figure's other space, else NO_CELL
    moved: np.ndarray  # bool[F]: moved this turn (HS-6.2)
    attacked: np.ndarray  # bool[F]: attacked this turn (HS-11.2)
    occupant: np.ndarray  # int16[n_cells]: figure on each space or NO_FIGURE
    seat: int = 0
    phase: Phase = Phase.CHOOSE_CARD
    card: int = -1  # the chosen card (index into Game.cards) for this turn
    selected: int = NO_FIGURE
    destination: int = NO_CELL  # MOVE_TAIL: the space already chosen
    first_player: int = 0
    round: int = 0
    turns: int = 0
    hold_rounds: list[int] = field(default_factory=list)  # per seat, for the hold objective
    initiative: list[list[int]] = field(default_factory=list)  # skulls per player per roll-off
    winners: list[int] = field(default_factory=list)
    dice: Dice = field(default_factory=lambda: Dice(0))

    # -- what from_dict accepts (envs.core.state: field rules, then invariants) ------------
    @classmethod
    def field_rules(cls, game: Any) -> dict[str, FieldRule]:
        rules = super().field_rules(game)
        figures, cells, seats = game.n_figures, game.board.n_cells, game.num_players
        cell = FieldRule(
            shape=(figures,),
            low=NO_CELL,
            high=cells - 1,
            note=f"one per figure: a space 0..{cells - 1} or {NO_CELL}",
        )
        flags = FieldRule(shape=(figures,), note="one per figure")
        rules.update(
            {
                "cell": cell,
                "cell2": cell,
                "moved": flags,
                "attacked": flags,
                "occupant": FieldRule(
                    shape=(cells,),
                    low=NO_FIGURE,
                    high=figures - 1,
                    note=f"one per cell: a figure 0..{figures - 1} or {NO_FIGURE}",
                ),
                "card": FieldRule(
                    low=-1, high=len(game.cards) - 1, note=f"-1 or a card 0..{len(game.cards) - 1}"
                ),
                "selected": FieldRule(low=NO_FIGURE, high=figures - 1),
                "destination": FieldRule(low=NO_CELL, high=cells - 1),
                "first_player": FieldRule(low=0, high=seats - 1),
                "hold_rounds": FieldRule(shape=(seats,), low=0, note="one per seat"),
                # -1 marks a player out of a re-roll (HS-4.3); six dice show at most six skulls
                "initiative": FieldRule(
                    shape=(None, seats), low=-1, high=6, note="skulls per seat per roll-off"
                ),
            }
        )
        return rules

    @classmethod
    def invariants(cls, game: Any, state: Any) -> Iterator[Problem]:
        yield from super().invariants(game, state)
        yield from _occupancy(game, state)
        over = state.phase is Phase.GAME_OVER
        if state.phase is Phase.CHOOSE_CARD and state.card != -1:
            yield Problem("card", f"= {state.card} before a card is chosen (phase CHOOSE_CARD)")
        if (
            not over
            and state.phase is not Phase.CHOOSE_CARD
            and (state.card < 0 or game.card_owner[state.card] != state.seat)
        ):
            yield Problem(
                "card",
                f"= {state.card} is not a card of seat {state.seat}, whose "
                f"turn it is (phase {state.phase.name})",
            )
        if not over and state.selected >= 0 and game.fig_owner[state.selected] != state.seat:
            yield Problem(
                "selected",
                f"= {state.selected} ({game.figure_label[state.selected]}) "
                f"is not a figure of seat {state.seat}",
            )


def _occupancy(game: Any, state: State) -> Iterator[Problem]:
    """Each figure on the spaces it fills (two, adjacent, for a double-space figure), and
    ``occupant`` naming exactly those figures there."""
    exists, neighbors = game.board.exists, game.board.neighbors
    for f in range(game.n_figures):
        label = game.figure_label[f]
        head, tail = int(state.cell[f]), int(state.cell2[f])
        if head == NO_CELL:
            if tail != NO_CELL:
                yield Problem("cell2", f"= {tail}, but {label} is off the battlefield", (f,))
            continue
        if game.fig_double[f] != (tail != NO_CELL):
            yield Problem(
                "cell2", f"= {tail}: {label} fills {2 if game.fig_double[f] else 1} space(s)", (f,)
            )
            continue
        if tail != NO_CELL and tail not in neighbors[head]:
            yield Problem("cell2", f"= {tail} is not next to {label}'s other space {head}", (f,))
        for name, c in (("cell", head), ("cell2", tail)):
            if c == NO_CELL:
                continue
            if not exists[c]:
                yield Problem(name, f"= {c} is not a space of the battlefield ({label})", (f,))
            elif state.occupant[c] != f:
                yield Problem(
                    name,
                    f"= {c}: {label} stands there, but 'occupant'[{c}] is "
                    f"{int(state.occupant[c])} (one figure per space)",
                    (f,),
                )
    for spot in np.flatnonzero(state.occupant != NO_FIGURE):
        f = int(state.occupant[spot])
        if spot not in (state.cell[f], state.cell2[f]):
            yield Problem(
                "occupant", f"= {f}, but {game.figure_label[f]} is not there", (int(spot),)
            )
