"""HeroClix game state: per-figure arrays, the map's dynamic terrain and the turn's scalars.

Everything that changes in play is here, so ``copy`` / ``to_dict`` capture a position whole:
the dials (``click``), where figures stand and how they fly, action tokens (HC-3.14-3.17),
held objects, the walls and blocking squares still standing (HC-5.16), where the objects are
(a :class:`~envs.core.tokens.TokenLayer` array), victory points (HC-7) and the decision in
progress (the selected figure, its move so far, the targets declared). ``from_dict`` checks
each field's bounds and the invariants at the end of this module before a dict is played.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.core.dice import Dice
from envs.core.state import FieldRule, FlatState, Problem
from envs.core.tokens import GONE, HELD

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
    ARRAY_DTYPES = {
        "cell": np.int16,
        "click": np.int8,
        "mode": np.int8,
        "tokens": np.int8,
        "acted": bool,
        "carried": bool,
        "drafted": bool,
        "held": np.int8,
        "last_damager": np.int8,
        "power_off": bool,
        "occupant": np.int16,
        "objects": np.int16,
        "walls_intact": bool,
        "blocking": bool,
        "rubble": bool,
        "smoke": np.int16,
        "barrier": np.int16,
    }
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

    # -- what from_dict accepts (envs.core.state: field rules, then invariants) ------------
    @classmethod
    def field_rules(cls, game: Any) -> dict[str, FieldRule]:
        return {**super().field_rules(game), **_field_rules(game)}

    @classmethod
    def invariants(cls, game: Any, state: Any) -> Iterator[Problem]:
        yield from super().invariants(game, state)
        yield from _occupancy(game, state)
        yield from _held_objects(game, state)


# Bounds and invariants of from_dict: the bounds come from the game (the figures and their
# dials, the map's squares and walls, the objects, the seats); the invariants tie fields
# together (one figure per square with ``occupant`` agreeing, dials short of KO on the map,
# each held object held by exactly one figure).
EDGE_NAMES = ("N", "E", "S", "W")  # the map edges a seat may claim (setup="play", HC-2.6)
COLUMN_NAMES = ("speed", "attack", "defense", "damage")
PERPLEX_STAT_HIGH = 4  # speed, attack, defense, damage, range (P-DMG-9)
FIGURE_LISTS = (
    "targets",
    "broke_away",
    "untargetable",
    "free_used",
    "powers_ignored",
    "controlled_next",
)
FIGURE_SCALARS = ("selected", "passenger", "controlled", "mind_source")
COUNTS = ("actions_left", "move_spent", "move_budget", "variant_stage", "mind_points")


def _field_rules(game: Any) -> dict[str, FieldRule]:
    figures, cells, seats = game.n_figures, game.n_cells, game.num_players
    objects = len(game.objects)
    last_figure, last_seat = figures - 1, seats - 1
    per_figure = FieldRule(shape=(figures,), note="one per figure")
    figure = FieldRule(
        low=NO_FIGURE, high=last_figure, note=f"a figure 0..{last_figure} or {NO_FIGURE}"
    )
    figure_list = FieldRule(
        shape=(None,), low=0, high=last_figure, note=f"figures 0..{last_figure}"
    )
    on_cells = FieldRule(shape=(cells,), note="one per square")
    marker = FieldRule(
        shape=(cells,),
        low=NO_FIGURE,
        high=last_figure,
        note=f"one per square: the figure whose marker is there, or {NO_FIGURE}",
    )
    rules = {
        "cell": FieldRule(
            shape=(figures,),
            low=NO_CELL,
            high=cells - 1,
            note=f"one per figure: a square 0..{cells - 1} or {NO_CELL}",
        ),
        # KO is the click at the dial's length (HC-4.5): one maximum per figure
        "click": FieldRule(
            shape=(figures,),
            low=0,
            high=game.dial_length,
            note="one per figure: a click of its dial, its length at KO",
        ),
        "mode": FieldRule(
            shape=(figures,),
            low=GROUND,
            high=SOAR,
            note=f"one per figure: {GROUND} ground / hovering, {SOAR} soaring",
        ),
        "tokens": FieldRule(
            shape=(figures,), low=0, high=2, note="one per figure: action tokens (HC-3.17)"
        ),
        "acted": per_figure,
        "carried": per_figure,
        "drafted": per_figure,
        "held": FieldRule(
            shape=(figures,),
            low=NO_OBJECT,
            high=objects - 1,
            note=f"one per figure: an object 0..{objects - 1} or {NO_OBJECT}",
        ),
        "last_damager": FieldRule(
            shape=(figures,),
            low=NO_SEAT,
            high=last_seat,
            note=f"one per figure: a seat 0..{last_seat} or {NO_SEAT}",
        ),
        "power_off": FieldRule(
            shape=(figures, len(COLUMN_NAMES)),
            axes=(None, COLUMN_NAMES),
            note="one row per figure, one column per dial value",
        ),
        "occupant": FieldRule(
            shape=(cells,),
            low=NO_FIGURE,
            high=last_figure,
            note=f"one per square: a figure 0..{last_figure} or {NO_FIGURE}",
        ),
        "objects": FieldRule(
            shape=(objects,),
            low=GONE,
            high=cells - 1,
            axes=(game.objects.names,),
            note=f"one per object: a square, {HELD} held or {GONE} gone",
        ),
        "walls_intact": FieldRule(shape=(game.walls.n_edges,), note="one per wall segment"),
        "blocking": on_cells,
        "rubble": on_cells,
        "smoke": marker,
        "barrier": marker,
        "vp": FieldRule(shape=(seats,), low=0, note="one per seat"),
        "tk_object": FieldRule(low=NO_OBJECT, high=objects - 1),
        "action_kind": FieldRule(choices=("", "move")),
        "variant": FieldRule(choices=("",) + tuple(game.playing_keys)),
        "outwits": FieldRule(
            shape=(None, 3),
            low=(0, 0, 0),
            high=(last_figure, len(COLUMN_NAMES) - 1, last_figure),
            note="[target, column, source] per Outwit",
        ),
        "perplex": FieldRule(
            shape=(None, 4),
            low=(0, 0, -1, 0),
            high=(last_figure, PERPLEX_STAT_HIGH, 1, last_figure),
            note="[target, stat, +1 or -1, source] per Perplex",
        ),
        "asked": FieldRule(low=-1),
        "pending_action": FieldRule(low=-1, high=game.layout.size - 1),
        "saved_phase": FieldRule(low=0, high=len(Phase) - 1, note="a phase number"),
        "saved_seat": FieldRule(low=0, high=last_seat),
        "controller": FieldRule(low=NO_SEAT, high=last_seat),
        "edges": FieldRule(shape=(None,), choices=("",) + EDGE_NAMES),
        "setup_order": FieldRule(shape=(None,), low=0, high=last_seat),
        "object_order": FieldRule(shape=(None,), low=0, high=objects - 1),
        "objects_placed": FieldRule(low=0, high=objects),
        "first_player": FieldRule(low=0, high=last_seat),
    }
    rules.update({name: figure for name in FIGURE_SCALARS})
    rules.update({name: figure_list for name in FIGURE_LISTS})
    rules.update({name: FieldRule(low=0) for name in COUNTS})
    return rules


def _occupancy(game: Any, state: Any) -> Iterator[Problem]:
    """One figure per square, ``occupant`` naming it; a carried passenger (HC-3.30) keeps the
    square it was taken from in ``cell`` but is on no square meanwhile."""
    exists = game.board.exists
    for placed in np.flatnonzero(state.cell != NO_CELL):
        f, c = int(placed), int(state.cell[placed])
        label = game.label(f)
        if not exists[c]:
            yield Problem("cell", f"= {c}: {label} is not on a square of map '{game.map.id}'", (f,))
        elif state.click[f] >= game.dial_length[f]:
            yield Problem(
                "click",
                f"= {int(state.click[f])} is KO for {label}, which is still "
                f"on the map at {game.cell_label(c)}",
                (f,),
            )
        elif f != state.passenger and state.occupant[c] != f:
            yield Problem(
                "cell",
                f"= {c}: {label} stands on {game.cell_label(c)}, but "
                f"'occupant'[{c}] is {int(state.occupant[c])} (one figure per "
                "square)",
                (f,),
            )
        elif not state.drafted[f]:
            yield Problem("cell", f"= {c}: {label} is on the map but not drafted", (f,))
    for square in np.flatnonzero(state.occupant != NO_FIGURE):
        f = int(state.occupant[square])
        if state.cell[f] != square or f == state.passenger:
            yield Problem(
                "occupant",
                f"= {f}, but {game.label(f)} is not on {game.cell_label(int(square))}",
                (int(square),),
            )


def _held_objects(game: Any, state: Any) -> Iterator[Problem]:
    names = game.objects.names
    holders: dict[int, int] = {}
    for holder in np.flatnonzero(state.held != NO_OBJECT):
        f, obj = int(holder), int(state.held[holder])
        if obj in holders:
            yield Problem(
                "held",
                f"= {obj}: the {names[obj]} is already held by {game.label(holders[obj])}",
                (f,),
            )
        elif state.objects[obj] != HELD:
            yield Problem(
                "held",
                f"= {obj}: {game.label(f)} holds the {names[obj]}, but "
                f"'objects'[{names[obj]}] is {int(state.objects[obj])}, not "
                f"{HELD} (held)",
                (f,),
            )
        holders[obj] = f
    for unheld in np.flatnonzero(state.objects == HELD):
        if int(unheld) not in holders:
            yield Problem(
                "objects",
                f"= {HELD} (held), but no figure holds the {names[unheld]}",
                (names[unheld],),
            )
