"""HeroClix setup played as decisions (option ``setup="play"``, HC-2.1-2.11)::

    DRAFT (seat 0, then 1, ...) -> [edge roll] EDGE -> PLACE_OBJECT x objects -> PLACE_FIGURE
    -> [first-player roll] the first turn

* DRAFT (HC-2.2-2.4, HC-3.11): each player in seat order adds figures from the scenario's
  pool (``draft_<id>``) while the force stays within the build total, with no unique figure
  twice and no archenemies on one force, then says ``done`` (a force needs one figure;
  when nothing more fits, the draft moves on by itself).
* Edge roll (HC-2.6 default): everyone rolls 2d6, ties among equal totals reroll; that order
  is the setup order. In it each player chooses an unclaimed edge with a starting area
  (``edge_N`` ...); with two players the second takes the opposite edge when it can.
* PLACE_OBJECT (HC-2.7 default): from the roll's winner, clockwise, one object at a time on
  a clear, empty square outside every starting area. Objects go down face down in a hidden
  random order: which one lies where is shown only when all are placed.
* PLACE_FIGURE (HC-2.9, HC-2.10 default): in setup order, each player places all its figures
  in force order on empty squares of its starting area, ``place`` (on the ground / hovering)
  or ``place_soar`` (a flyer soaring, never indoors).
"""

from __future__ import annotations

import numpy as np

from envs.core.events import Event
from envs.core.flow import PhaseRule, handles
from envs.heroclix.data.maps import Terrain
from envs.heroclix.dice import roll_2d6
from envs.heroclix.game import EDGES, ActionKind, HeroclixBase
from envs.heroclix.state import GROUND, NO_CELL, NO_FIGURE, SOAR, Phase, State

Rule = PhaseRule[HeroclixBase, State]
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


# -- draft ----------------------------------------------------------------------------------
def free_slot(game: HeroclixBase, state: State, seat: int, kind: int) -> int:
    free = np.flatnonzero((game.owner == seat) & (game.kind == kind) & ~state.drafted)
    return int(free[0]) if free.size else NO_FIGURE


def draftable(game: HeroclixBase, state: State, seat: int) -> list[int]:
    """Pool indices the seat's force may still add (HC-2.3, HC-2.4, HC-3.11)."""
    mine = np.flatnonzero((game.owner == seat) & state.drafted)
    spent = int(game.points[mine].sum())
    found = []
    for kind, figure in enumerate(game.scenario.pool):
        slot = free_slot(game, state, seat, kind)
        if slot == NO_FIGURE or spent + figure.points > game.build_total:
            continue
        if any(game.archenemies(slot, int(m)) for m in mine):
            continue
        found.append(kind)  # a unique figure has one slot: once drafted, none is free
    return found


class Draft(Rule):
    def mask(self, game, state, legal):
        for kind in draftable(game, state, state.seat):
            legal.slot(ActionKind.DRAFT, kind)
        if state.drafted[game.owner == state.seat].any():
            legal.special(ActionKind.DONE)

    @handles(ActionKind.DRAFT)
    def add(self, game, state, action, events):
        slot = free_slot(game, state, state.seat, action.index)
        state.drafted[slot] = True
        events.append(
            Event(
                "draft",
                f"{game.player_names[state.seat]} drafts {game.figures[slot].name}",
                state.seat,
            )
        )
        if not draftable(game, state, state.seat):
            next_drafter(game, state, events)

    @handles(ActionKind.DONE)
    def done(self, game, state, action, events):
        next_drafter(game, state, events)


def next_drafter(game: HeroclixBase, state: State, events: list[Event]) -> None:
    if state.seat + 1 < game.num_players:
        state.seat += 1
        return
    state.setup_order = roll_order(state, list(range(game.num_players)))
    events.append(
        Event(
            "edge_roll",
            "setup order: " + ", ".join(game.player_names[s] for s in state.setup_order),
            -1,
        )
    )
    state.edges = [""] * game.num_players
    state.phase = Phase.EDGE
    state.seat = state.setup_order[0]


def roll_order(state: State, seats: list[int]) -> list[int]:
    """HC-2.6 default: seats by 2d6 totals, highest first; equal totals reroll among them."""
    if len(seats) <= 1:
        return list(seats)
    totals = {s: sum(roll_2d6(state)) for s in seats}
    order = []
    for total in sorted(set(totals.values()), reverse=True):
        order += roll_order(state, [s for s in seats if totals[s] == total])
    return order


# -- edges ----------------------------------------------------------------------------------
def open_edges(game: HeroclixBase, state: State) -> list[int]:
    claimed = set(state.edges)
    return [
        k for k, edge in enumerate(EDGES) if edge in game.map.start_areas and edge not in claimed
    ]


class Edge(Rule):
    def mask(self, game, state, legal):
        for k in open_edges(game, state):
            legal.slot(ActionKind.EDGE, k)

    def apply(self, game, state, action, events):
        claim(game, state, state.seat, EDGES[action.index], events)
        waiting = [s for s in state.setup_order if not state.edges[s]]
        if len(waiting) == 1 and game.num_players == 2:
            other = OPPOSITE[EDGES[action.index]]
            if other in game.map.start_areas:  # HC-2.6 default: the opposite edge
                claim(game, state, waiting[0], other, events)
                waiting = []
        if waiting:
            state.seat = waiting[0]
        elif len(game.objects):
            state.phase = Phase.PLACE_OBJECT
            state.seat = state.setup_order[0]
        else:
            start_placing(game, state)


def claim(game: HeroclixBase, state: State, seat: int, edge: str, events: list[Event]) -> None:
    state.edges[seat] = edge
    events.append(Event("edge", f"{game.player_names[seat]} takes the {edge} edge", seat))


# -- objects --------------------------------------------------------------------------------
def object_squares(game: HeroclixBase, state: State) -> np.ndarray:
    """HC-2.7: clear, empty squares outside every starting area of the map."""
    ok = game.board.exists & (game.board.terrain == Terrain.CLEAR) & ~game.start_area_any
    ok &= ~game.objects.lying(state.objects) & (state.occupant == NO_FIGURE)
    return np.flatnonzero(ok)


class PlaceObject(Rule):
    def mask(self, game, state, legal):
        legal.cells(ActionKind.PLACE_OBJECT, object_squares(game, state).tolist())

    def apply(self, game, state, action, events):
        obj = state.object_order[state.objects_placed]
        state.objects[obj] = action.cell
        state.objects_placed += 1
        events.append(
            Event(
                "place_object",
                f"{game.player_names[state.seat]} places an object "
                f"at {game.cell_label(action.cell)}",
                state.seat,
                cells=(action.cell,),
            )
        )
        if state.objects_placed < len(game.objects):
            state.seat = (state.seat + 1) % game.num_players  # HC-2.7 default: clockwise
            return
        events.append(
            Event(
                "objects",
                "the objects are turned face up: "
                + ", ".join(
                    f"{game.objects.names[o]} {game.cell_label(int(c))}"
                    for o, c in enumerate(state.objects)
                ),
                -1,
            )
        )
        start_placing(game, state)


# -- figures --------------------------------------------------------------------------------
def next_to_place(game: HeroclixBase, state: State, seat: int) -> int:
    waiting = np.flatnonzero((game.owner == seat) & state.drafted & (state.cell == NO_CELL))
    return int(waiting[0]) if waiting.size else NO_FIGURE


def start_placing(game: HeroclixBase, state: State) -> None:
    state.phase = Phase.PLACE_FIGURE
    state.seat = state.setup_order[0]
    state.selected = next_to_place(game, state, state.seat)


def placement_squares(game: HeroclixBase, state: State, seat: int) -> np.ndarray:
    area = game.start_areas[state.edges[seat]]
    return np.flatnonzero(area & (state.occupant == NO_FIGURE) & ~state.blocking)


class PlaceFigure(Rule):
    def mask(self, game, state, legal):
        squares = placement_squares(game, state, state.seat)
        legal.cells(ActionKind.PLACE, squares.tolist())
        if game.flies(state, state.selected):  # HC-2.9; indoors a flyer starts hovering
            legal.cells(ActionKind.PLACE_SOAR, [int(c) for c in squares if not game.indoor[c]])

    @handles(ActionKind.PLACE, ActionKind.PLACE_SOAR)
    def place(self, game, state, action, events):
        figure = state.selected
        game.move_figure_onto_map(state, figure, action.cell)
        state.mode[figure] = SOAR if action.kind == ActionKind.PLACE_SOAR else GROUND
        events.append(
            Event(
                "place",
                f"{game.label(figure)} is placed at {game.cell_label(action.cell)}",
                state.seat,
                cells=(action.cell,),
            )
        )
        nxt = next_to_place(game, state, state.seat)
        if nxt == NO_FIGURE:
            order = state.setup_order
            later = order[order.index(state.seat) + 1 :]
            if not later:
                state.selected = NO_FIGURE
                events.append(Event("setup_done", "setup is done", -1))
                game.begin_play(state, events)
                return
            state.seat = later[0]
            nxt = next_to_place(game, state, state.seat)
        state.selected = nxt
