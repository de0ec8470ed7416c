"""HeroClix game state: per-figure arrays, the map's dynamic terrain and the turn's scalars.

Everything that changes in play is here, so ``copy`` / ``to_dict`` capture a position whole:
the dials (``click``), where figures stand and how they fly, action tokens (HC-3.14-3.17),
held objects, the walls and blocking squares still standing (HC-5.16), where the objects are
(a :class:`~envs.core.tokens.TokenLayer` array), victory points (HC-7) and the decision in
progress (the selected figure, its move so far, the targets declared).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

from ..core.dice import Dice
from ..core.state import FlatState

NO_CELL = -1
NO_FIGURE = -1
NO_OBJECT = -1
NO_SEAT = -1

GROUND = 0  # a non-flyer, or a flyer hovering (HC-1.12: peg down)
SOAR = 1  # a flyer soaring (peg up)
MODE_NAMES = ("hover", "soar")


class Phase(enum.IntEnum):
    ACTION = 0  # HC-3.5: choose a figure to act, pass an action, or end the turn
    FIGURE = 1  # the chosen figure's action: move, close, ranged, or a power's variant
    MOVE = 2  # a move's destination (after a breakaway, a pick-up or taking a passenger)
    PICKUP = 3  # HC-6.6: pick up an object beside the square reached, or end the move
    DROP = 4  # HC-3.30: set the passenger down beside the flyer
    TARGETS = 5  # HC-4.24: more targets for a multi-bolt ranged attack, or fire
    TELEKINESIS = 6  # HC-6.14/6.15: where the chosen object goes, or whom it hits
    VARIANT = 7  # a power's variant of an action: its destination, targets, next step
    INTERRUPT = 8  # a decision inside another seat's action (Mastermind): .interrupts
    DRAFT = 9  # HC-2.3 (setup="play"): add a figure to the force, or done
    EDGE = 10  # HC-2.6: choose a starting edge, in roll order
    PLACE_OBJECT = 11  # HC-2.7: place the next face-down object
    PLACE_FIGURE = 12  # HC-2.9/2.10: place the next figure of the force (hovering or soaring)
    GAME_OVER = 13


@dataclass
class State(FlatState):
    ARRAY_DTYPES = {"cell": np.int16, "click": np.int8, "mode": np.int8, "tokens": np.int8,
                    "acted": bool, "carried": bool, "drafted": bool, "held": np.int8, "last_damager": np.int8,
                    "power_off": bool, "occupant": np.int16, "objects": np.int16,
                    "walls_intact": bool, "blocking": bool, "rubble": bool, "smoke": np.int16,
                    "barrier": np.int16}
    PHASE = Phase

    cell: np.ndarray  # int16[F]: the figure's square, NO_CELL once KO'd (HC-4.5)
    click: np.ndarray  # int8[F]: the dial's click, 0 = start (HC-2.8); KO at the dial's length
    mode: np.ndarray  # int8[F]: GROUND (hovering for flyers) or SOAR (HC-1.12)
    tokens: np.ndarray  # int8[F]: action tokens, 0..2 (HC-3.14-3.17)
    acted: np.ndarray  # bool[F]: took a non-pass action this turn (HC-3.15)
    carried: np.ndarray  # bool[F]: carried by a flyer this turn (HC-3.32, HC-3.33)
    drafted: np.ndarray  # bool[F]: the slot is in a force (setup="play" drafts them, HC-2.3)
    held: np.ndarray  # int8[F]: the object the figure holds, NO_OBJECT if none (HC-6.5)
    last_damager: np.ndarray  # int8[F]: seat that last damaged it, NO_SEAT if none (HC-7.8)
    power_off: np.ndarray  # bool[F, 4]: optional power switched off, by column (HC-3.8)
    occupant: np.ndarray  # int16[n_cells]: figure on each square or NO_FIGURE
    objects: np.ndarray  # int16[K]: object squares, HELD or GONE (envs.core.tokens)
    walls_intact: np.ndarray  # bool[E]: wall segments still standing (HC-5.16)
    blocking: np.ndarray  # bool[n_cells]: blocking squares still standing (HC-5.16)
    rubble: np.ndarray  # bool[n_cells]: hindering from broken walls or blocking (HC-5.17)
    smoke: np.ndarray  # int16[n_cells]: the figure whose Smoke Cloud marker is there, or -1
    barrier: np.ndarray  # int16[n_cells]: the figure whose Barrier marker is there, or -1
    vp: list[float] = field(default_factory=list)  # victory points scored by KOs, per seat
    seat: int = 0
    phase: Phase = Phase.ACTION
    actions_left: int = 0  # HC-3.2
    selected: int = NO_FIGURE  # the figure whose action is being resolved
    passenger: int = NO_FIGURE  # HC-3.30: the friend being carried
    tk_object: int = NO_OBJECT  # HC-6.13: the object a Telekinesis figure is using
    targets: list[int] = field(default_factory=list)  # HC-4.24: declared ranged targets
    move_spent: int = 0  # squares used so far by this move (a pick-up splits it in legs)
    move_budget: int = 0  # the move's speed after halving (HC-5.10)
    move_stopped: bool = False  # the last leg ended on a square whose entry stops a move
    move_ignores_enemies: bool = False  # squares next to enemies do not stop it (P-SPD-9)
    action_kind: str = ""  # "move" once the action is a move action (TA-AVG's free move)
    broke_away: list[int] = field(default_factory=list)  # HC-3.25: enemies broken away from
    untargetable: list[int] = field(default_factory=list)  # P-DMG-7: avoided this action
    variant: str = ""  # the power key of the variant being played (VARIANT phase)
    variant_stage: int = 0  # its step: what the variant asks for next
    variant_memory: list[int] = field(default_factory=list)  # what a variant keeps meanwhile
    extra_action_granted: bool = False  # P-DMG-11: one Leadership action per turn at most
    free_used: list[int] = field(default_factory=list)  # figures that used a free power this turn
    powers_ignored: list[int] = field(default_factory=list)  # P-ATT-3: during a Pulse Wave
    outwits: list[list[int]] = field(default_factory=list)  # P-DMG-10: [target, column, source]
    perplex: list[list[int]] = field(default_factory=list)  # P-DMG-9: [target, stat, delta, source]
    # interrupts (.interrupts): the request asked, the answers so far, the action replayed
    interrupt: list[int] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    asked: int = -1  # answers used by the replay in progress; -1: no decision is being made
    pending_action: int = -1
    saved_phase: int = 0  # the phase and seat the pending action was chosen in
    saved_seat: int = 0
    rerolls: list[list[int]] = field(default_factory=list)  # P-DMG-6: windows used
    # P-SPD-6 Mind Control: the figure given an action now, for which seat; those still to
    # act; the Mind Controller and the points of the figures it hit
    controlled: int = NO_FIGURE
    controller: int = NO_SEAT
    controlled_next: list[int] = field(default_factory=list)
    mind_source: int = NO_FIGURE
    mind_points: int = 0
    edges: list[str] = field(default_factory=list)  # setup="play": each seat's edge ("" none)
    setup_order: list[int] = field(default_factory=list)  # HC-2.6 roll order
    object_order: list[int] = field(default_factory=list)  # HC-2.7: hidden order of objects
    objects_placed: int = 0
    first_player: int = 0
    round: int = 0
    turns: int = 0
    winners: list[int] = field(default_factory=list)
    dice: Dice = field(default_factory=lambda: Dice(0))
