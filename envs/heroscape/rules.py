"""Heroscape basic game rules engine (HS-0 ... HS-14 of envs/heroscape/RULES.md).

:class:`HeroscapeGame` assembles the pieces:

======================  ===================================================================
:mod:`.game`            the static game: options, armies, the starting position and the
                        rule queries (destinations, range, sight, targets, attackers)
:mod:`envs.heroscape.tables`            per-battlefield tables shared in a process (padded board, sight)
:mod:`.state`           the state record and the ``Phase`` enum
:mod:`envs.heroscape.phases.turn`          one rule per phase: its legal mask and its apply (the turn flow)
:mod:`.combat`          the dice of an attack through the hook registry ``HOOKS`` (height
                        advantage, HS-12.4) and one attack resolved; :mod:`.dice` the die
:mod:`envs.heroscape.phases.turn_order`           a card's turn, passing play on, the end-of-round and victory rules
:mod:`envs.heroscape.view.planes`            observations (one declared plane layout), action names, text, scenes
:mod:`.position`        any position from placements (``HeroscapeGame.from_scenario``)
:mod:`envs.heroscape.bots.heuristic`            the heuristic bot
======================  ===================================================================
"""

from __future__ import annotations

from typing import Any, Sequence

from envs.core.flow import PhaseTable
from envs.heroscape.data.scenario_file import Scenario
from envs.heroscape.game import DEFAULT_BOARD_SIZE, DEFAULT_SCENARIO, MAX_CARDS, HeroscapeBase
from envs.heroscape.phases.turn import (AttackSelect, AttackTarget, ChooseCard, GameOver, MoveDest, MoveSelect,
                     MoveTail)
from envs.heroscape.position import set_position
from envs.heroscape.state import Phase, State
from envs.heroscape.view.planes import HeroscapeView

__all__ = ["HeroscapeGame", "DEFAULT_BOARD_SIZE", "DEFAULT_SCENARIO", "MAX_CARDS"]


class HeroscapeGame(HeroscapeBase):
    """Heroscape for 2-4 players: armies of hero and squad cards on a hex battlefield."""

    phases = PhaseTable(Phase, {
        Phase.CHOOSE_CARD: ChooseCard(),
        Phase.MOVE_SELECT: MoveSelect(),
        Phase.MOVE_DEST: MoveDest(),
        Phase.MOVE_TAIL: MoveTail(),
        Phase.ATTACK_SELECT: AttackSelect(),
        Phase.ATTACK_TARGET: AttackTarget(),
        Phase.GAME_OVER: GameOver(),
    })
    VIEW = HeroscapeView

    @classmethod
    def from_scenario(cls, scenario: str | Scenario,
                      placements: dict[str, Sequence[Sequence[int]]] | None = None, *,
                      dice: Sequence[int | str] | None = None, seed: int = 0,
                      turn: int | None = None, **options: Any) -> tuple["HeroscapeGame", State]:
        """Any position: see :mod:`envs.heroscape.position`."""
        game = cls(scenario, **options)
        state = game.new_state(seed)
        set_position(game, state, placements, dice=dice, turn=turn)
        return game, state
