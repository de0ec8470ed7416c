"""HeroClix rules engine (HC-1 ... HC-8 and R-1 ... R-22 of envs/heroclix/RULES.md; the powers of
envs/heroclix/RULES.md).

:class:`HeroclixGame` assembles the pieces:

=======================  ================================================================
:mod:`.game`             the static game: options, map tables, dials, today's terrain;
                         :mod:`.flags` the rule flags
:mod:`.scenarios`        scenario files (map, forces, placements, objects); :mod:`.maps`,
                         :mod:`.figures`, :mod:`.forces` their parts
:mod:`.state`            the state record and the ``Phase`` enum
:mod:`.phases`           one rule per phase (the turn flow); :mod:`.attacks` the attack
                         actions and the TARGETS phase
:mod:`.reach`            where a figure may move (``envs.core.modemove`` masks)
:mod:`.targets`          whom it may attack (``envs.core.firelines``)
:mod:`.combat`           one attack: roll, damage pipeline, knockback, KO, victory points
:mod:`.objects`          Super Strength and Telekinesis objects (HC-6)
:mod:`.powers`           the hook registry and the powers' traits and reductions;
                         :mod:`.power_actions` the action powers; :mod:`.variants` and
                         :mod:`.variant_powers`, :mod:`.marker_powers` the power
                         variants of actions (the VARIANT phase); :mod:`.free_powers`
                         Outwit and Perplex; :mod:`.turn_powers` start-of-turn powers;
                         :mod:`.interrupts` decisions inside another seat's action;
                         :mod:`.powers_catalog` the 44 powers of the card
:mod:`.turns`            tokens and pushing, the end of a turn and of the game
:mod:`.view`             observations (one declared plane layout), names, text, scenes
=======================  ================================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.flow import PhaseTable
from .attacks import Targets
from .scenarios import Scenario
from .game import DEFAULT_BOARD_SIZE, DEFAULT_SCENARIO, ClixBase
from .position import set_position
from .phases import Action, Drop, Figure, GameOver, Move, Pickup, Telekinesis
from .setup import Draft, Edge, PlaceFigure, PlaceObject
from .state import Phase, State
from .turns import final_scores, start_turn
from .interrupts import Interrupt, apply_with_interrupts
from .mind_control import finish_controlled
from .probability import roll_for
from .variants import VariantPhase
from .view import ClixView
from . import (free_powers, marker_powers, mind_control,  # noqa: F401  (they register powers)
               telekinesis_figures, turn_powers, variant_powers)

__all__ = ["HeroclixGame", "DEFAULT_BOARD_SIZE", "DEFAULT_SCENARIO"]


class HeroclixGame(ClixBase):
    """HeroClix for 2-4 players: forces of dial figures on a square map with walls."""

    phases = PhaseTable(Phase, {
        Phase.ACTION: Action(),
        Phase.FIGURE: Figure(),
        Phase.MOVE: Move(),
        Phase.PICKUP: Pickup(),
        Phase.DROP: Drop(),
        Phase.TARGETS: Targets(),
        Phase.TELEKINESIS: Telekinesis(),
        Phase.VARIANT: VariantPhase(),
        Phase.INTERRUPT: Interrupt(),
        Phase.DRAFT: Draft(),
        Phase.EDGE: Edge(),
        Phase.PLACE_OBJECT: PlaceObject(),
        Phase.PLACE_FIGURE: PlaceFigure(),
        Phase.GAME_OVER: GameOver(),
    })
    VIEW = ClixView

    @classmethod
    def from_scenario(cls, scenario: str | Scenario = DEFAULT_SCENARIO, *, seed: int = 0,
                      options: dict[str, Any] | None = None, **position: Any
                      ) -> tuple["HeroclixGame", State]:
        """Any position: the scenario's opening changed as :mod:`envs.heroclix.position`
        describes; ``options`` go to the game."""
        game = cls(scenario, **(options or {}))
        state = game.new_state(seed)
        set_position(game, state, **position)
        return game, state

    def start_turn(self, state: State, seat: int, events: list) -> None:
        start_turn(self, state, seat, events)

    def roll_for(self, state: State, figure: int, dice: int = 1) -> tuple[int, ...]:
        return roll_for(self, state, figure, dice)

    def finish_controlled(self, state: State, figure: int, events: list) -> None:
        finish_controlled(self, state, figure, events)

    def apply_legal(self, state: State, action: int) -> list:
        """Actions whose effects may ask another seat (Mastermind) are replayed around the
        answer (:mod:`.interrupts`); other games take the plain path."""
        if not self.may_interrupt:
            return super().apply_legal(state, action)
        return apply_with_interrupts(self, state, action, super().apply_legal)

    def returns(self, state: State) -> np.ndarray:
        """``reward="win"``: the core's zero-sum win/loss; ``"vp"``: final victory points
        minus the players' mean, over the build total (HC-7.4-7.8)."""
        if self.reward == "win" or state.phase is not Phase.GAME_OVER:
            return super().returns(state)
        scores = np.asarray(final_scores(self, state), dtype=np.float64)
        return (scores - scores.mean()) / self.build_total
