"""Heroscape basic game rules engine (HS-0 ... HS-14 of envs/heroscape/RULES.md).

:class:`HeroscapeGame` assembles the pieces (the same skeleton as Heroica's and HeroClix's):

* :mod:`.game` the static game (:class:`~envs.heroscape.game.HeroscapeBase`): armies, the
  starting position and the rule queries (destinations, range, sight, targets, attackers);
  :mod:`.options` its options, declared once; :mod:`.tables` the per-battlefield tables
  shared in a process (padded board, sight)
* :mod:`.state` the state record and the ``Phase`` enum; :mod:`.dice` the combat die
* ``data/``: battlefields, army cards and scenario files and their loaders
  (:mod:`envs.heroscape.data`)
* ``phases/``: :mod:`~envs.heroscape.phases.turn` one rule per phase (its legal mask and its
  apply); :mod:`~envs.heroscape.phases.turn_order` a card's turn, passing play on, the
  end-of-round and victory rules
* :mod:`.combat` the dice of an attack through the hook registry ``HOOKS`` (height
  advantage, HS-12.4) and one attack resolved
* ``view/``: :mod:`~envs.heroscape.view.planes` observations (one declared plane layout),
  action names, text, scenes
* :mod:`.position` any position from placements (``HeroscapeGame.from_scenario``)
* ``bots/``: :mod:`~envs.heroscape.bots.heuristic` the heuristic bot,
  :mod:`~envs.heroscape.bots.lookahead` the lookahead bot
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.core.flow import PhaseTable
from envs.core.game import Scoreboard
from envs.heroscape.data.scenario_file import Scenario
from envs.heroscape.game import MAX_CARDS, HeroscapeBase
from envs.heroscape.phases.turn import (
    AttackSelect,
    AttackTarget,
    ChooseCard,
    GameOver,
    MoveDest,
    MoveSelect,
    MoveTail,
)
from envs.heroscape.position import set_position
from envs.heroscape.state import NO_CELL, Phase, State
from envs.heroscape.view.planes import HeroscapeView

__all__ = ["HeroscapeGame", "MAX_CARDS"]


class HeroscapeGame(HeroscapeBase):
    """Heroscape for 2-4 players: armies of hero and squad cards on a hex battlefield."""

    phases = PhaseTable(
        Phase,
        {
            Phase.CHOOSE_CARD: ChooseCard(),
            Phase.MOVE_SELECT: MoveSelect(),
            Phase.MOVE_DEST: MoveDest(),
            Phase.MOVE_TAIL: MoveTail(),
            Phase.ATTACK_SELECT: AttackSelect(),
            Phase.ATTACK_TARGET: AttackTarget(),
            Phase.GAME_OVER: GameOver(),
        },
    )

    def make_view(self) -> HeroscapeView:
        return HeroscapeView(self)

    @classmethod
    def from_scenario(
        cls,
        scenario: str | Scenario,
        placements: dict[str, Sequence[Sequence[int]]] | None = None,
        *,
        dice: Sequence[int | str] | None = None,
        seed: int = 0,
        turn: int | None = None,
        **options: Any,
    ) -> tuple[HeroscapeGame, State]:
        """Any position: see :mod:`envs.heroscape.position`."""
        game = cls(scenario, **options)
        state = game.new_state(seed)
        set_position(game, state, placements, dice=dice, turn=turn)
        return game, state

    def scoreboard(self, state: State) -> Scoreboard:
        """Each army's figures still on the battlefield: destroying every enemy figure wins."""
        alive = state.cell != NO_CELL
        counts = np.bincount(self.fig_owner[alive], minlength=self.num_players)
        return Scoreboard("figures", tuple(float(c) for c in counts))
