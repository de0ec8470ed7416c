"""HeroClix rules engine (HC-1 ... HC-8 and R-1 ... R-22 of envs/heroclix/RULES.md; the powers of
envs/heroclix/RULES.md).

:class:`HeroclixGame` assembles the pieces (the same skeleton as Heroica's and Heroscape's):

* :mod:`.game` the static game (:class:`~envs.heroclix.game.HeroclixBase`), made of
  :mod:`.options` (the options and rule flags, declared once; :mod:`.flags` the traits some
  flags add), :mod:`.dials` (the figures and their dials) and :mod:`.terrain` (the map's
  tables and the terrain as it stands now)
* :mod:`.state` the state record and the ``Phase`` enum; :mod:`.dice` the 2d6
* ``data/``: :mod:`~envs.heroclix.data.scenarios` scenario files (map, forces, placements,
  objects); :mod:`~envs.heroclix.data.maps` (with :mod:`~envs.heroclix.data.map_file` and
  :mod:`~envs.heroclix.data.map_checks`), :mod:`~envs.heroclix.data.figures`,
  :mod:`~envs.heroclix.data.forces`, :mod:`~envs.heroclix.data.teams` their parts
* ``phases/``: :mod:`~envs.heroclix.phases.turn` one rule per phase (the turn flow);
  :mod:`~envs.heroclix.phases.attacks` the attack actions and the TARGETS phase;
  :mod:`~envs.heroclix.phases.setup` setup as decisions; :mod:`~envs.heroclix.phases.interrupts`
  decisions inside another seat's action; :mod:`~envs.heroclix.phases.endings` tokens and
  pushing, the end of a turn and of the game
* :mod:`.movement` where a figure may move (``envs.core.modemove`` masks)
* ``combat/``: :mod:`~envs.heroclix.combat.targets` whom it may attack
  (``envs.core.firelines``); :mod:`~envs.heroclix.combat.resolve` one attack (roll, damage
  pipeline, knockback, KO, victory points); :mod:`~envs.heroclix.combat.rolls` rolls and
  rerolls; :mod:`~envs.heroclix.combat.objects` Super Strength and Telekinesis objects (HC-6)
* ``powers/``: :mod:`~envs.heroclix.powers.hooks` the hook registry and the powers' traits;
  :mod:`~envs.heroclix.powers.catalog` the 44 powers of the card;
  :mod:`~envs.heroclix.powers.actions` the action powers;
  :mod:`~envs.heroclix.powers.variant_base`, :mod:`~envs.heroclix.powers.variants`,
  :mod:`~envs.heroclix.powers.move_variants` and :mod:`~envs.heroclix.powers.markers` the power
  variants of actions (the VARIANT phase);
  :mod:`~envs.heroclix.powers.free` Outwit and Perplex; :mod:`~envs.heroclix.powers.turn_start`
  start-of-turn powers; :mod:`~envs.heroclix.powers.mind_control`,
  :mod:`~envs.heroclix.powers.telekinesis`
* ``view/``: :mod:`~envs.heroclix.view.planes` observations (one declared plane layout), names,
  text; :mod:`~envs.heroclix.view.scene` the scene for rendering
* ``bots/``: the heuristic and its parts, the lookahead bot, the balance table
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.flow import PhaseTable
from envs.core.game import Scoreboard
from envs.heroclix.combat.rolls import roll_for
from envs.heroclix.data.scenarios import Scenario
from envs.heroclix.game import HeroclixBase
from envs.heroclix.phases.attacks import Targets
from envs.heroclix.phases.endings import final_scores, start_turn
from envs.heroclix.phases.interrupts import Interrupt, apply_with_interrupts
from envs.heroclix.phases.setup import Draft, Edge, PlaceFigure, PlaceObject
from envs.heroclix.phases.turn import Action, Drop, Figure, GameOver, Move, Pickup, Telekinesis
from envs.heroclix.position import set_position
from envs.heroclix.powers import (  # noqa: F401  (they register powers)
    free,
    markers,
    mind_control,
    move_variants,
    telekinesis,
    turn_start,
    variants,
)
from envs.heroclix.powers.mind_control import finish_controlled
from envs.heroclix.powers.variant_base import VariantPhase
from envs.heroclix.state import Phase, State
from envs.heroclix.view.planes import ClixView

__all__ = ["HeroclixGame"]


class HeroclixGame(HeroclixBase):
    """HeroClix for 2-4 players: forces of dial figures on a square map with walls."""

    phases = PhaseTable(
        Phase,
        {
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
        },
    )

    def make_view(self) -> ClixView:
        return ClixView(self)

    @classmethod
    def from_scenario(
        cls,
        scenario: str | Scenario = "duel",
        *,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        **position: Any,
    ) -> tuple[HeroclixGame, State]:
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
        answer (:mod:`envs.heroclix.phases.interrupts`); other games take the plain path."""
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

    def scoreboard(self, state: State) -> Scoreboard:
        """HC-7.5-7.8: the victory points the game would end with now (KOs scored plus each
        survivor's points to its owner), the tally the result is decided by."""
        return Scoreboard("VP", tuple(final_scores(self, state)))
