"""Any HeroClix position, for rule tests and analysis: :meth:`HeroclixGame.from_scenario`.

Start from a scenario's opening position and change what the test needs, naming figures by
their labels (``game.label(f)``: the figure's name, numbered when a name repeats) and squares
by (row, col) on the map::

    game, state = HeroclixGame.from_scenario(
        "tests/.../duel.yaml",
        placements={"Quarry": (5, 5), "Mender": (5, 6, "soar"), "Street Thug 1": None},
        clicks={"Quarry": 2}, tokens={"Mender": 1}, held={"Quarry": "dumpster"},
        objects={"table": (4, 4), "forklift": None}, broken_walls=[((2, 3), (2, 4))],
        turn=1, dice=["6", "5"])

``None`` takes a figure off the map (KO'd, no points scored) or an object out of the game.
``dice`` replaces the dice with scripted results (faces ``"1"`` ... ``"6"``, in the order
the rules roll them). ``turn`` gives the turn to that seat with a full set of actions; its
start-of-turn powers (Leadership, Poison) act then, rolling the scripted dice first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from envs.core.dice import ScriptedDice
from envs.core.tokens import GONE, HELD
from envs.heroclix.game import HeroclixBase
from envs.heroclix.phases.endings import start_turn
from envs.heroclix.state import GROUND, NO_CELL, NO_FIGURE, NO_OBJECT, SOAR, State


def set_position(
    game: HeroclixBase,
    state: State,
    *,
    placements: Mapping[str, Sequence[Any] | None] | None = None,
    clicks: Mapping[str, int] | None = None,
    tokens: Mapping[str, int] | None = None,
    held: Mapping[str, str] | None = None,
    objects: Mapping[str, Sequence[int] | None] | None = None,
    broken_walls: Sequence[tuple[tuple[int, int], tuple[int, int]]] = (),
    turn: int | None = None,
    dice: Sequence[int | str] | None = None,
) -> None:
    figures = {game.label(f): f for f in range(game.n_figures)}
    objects_by_kind = {name: k for k, name in enumerate(game.objects.names)}

    def figure(label: str) -> int:
        if label not in figures:
            raise ValueError(f"no figure {label!r}; figures: {sorted(figures)}")
        return figures[label]

    def square(where: Sequence[int], what: str) -> int:
        row, col = int(where[0]), int(where[1])
        if not (0 <= row < game.map.board.height and 0 <= col < game.map.board.width):
            raise ValueError(f"{what}: ({row}, {col}) is off the map")
        return row * game.width + col

    for label, where in (placements or {}).items():
        f = figure(label)
        if state.cell[f] != NO_CELL:
            state.occupant[state.cell[f]] = NO_FIGURE
        if where is None:
            state.cell[f] = NO_CELL
            continue
        state.cell[f] = square(where, label)
        state.mode[f] = SOAR if len(where) > 2 and where[2] == "soar" else GROUND
    state.occupant[:] = NO_FIGURE
    for f in range(game.n_figures):
        if state.cell[f] != NO_CELL:
            if state.occupant[state.cell[f]] != NO_FIGURE:
                raise ValueError(f"two figures on square {game.cell_label(int(state.cell[f]))}")
            state.occupant[state.cell[f]] = f
    for label, click in (clicks or {}).items():
        f = figure(label)
        if not 0 <= click < game.dial_length[f]:
            raise ValueError(
                f"{label}: click {click} is not on its dial (0..{game.dial_length[f] - 1})"
            )
        state.click[f] = click
    for label, count in (tokens or {}).items():
        state.tokens[figure(label)] = count
    for kind, where in (objects or {}).items():
        if kind not in objects_by_kind:
            raise ValueError(
                f"no object {kind!r} in this scenario; objects: {sorted(objects_by_kind)}"
            )
        state.objects[objects_by_kind[kind]] = GONE if where is None else square(where, kind)
    for label, kind in (held or {}).items():
        f = figure(label)
        if kind not in objects_by_kind:
            raise ValueError(
                f"no object {kind!r} in this scenario; objects: {sorted(objects_by_kind)}"
            )
        obj = objects_by_kind[kind]
        state.objects[obj] = HELD
        state.held[f] = obj
    for a, b in broken_walls:
        game.break_wall(state, game.walls.edge_id(square(a, "wall"), square(b, "wall")))
    held_objects = {int(o) for o in state.held if o != NO_OBJECT}
    for obj in range(len(game.objects)):
        if state.objects[obj] == HELD and obj not in held_objects:
            raise ValueError(f"the {game.objects.names[obj]} is held by nobody")
    if dice is not None:  # before the turn: its start-of-turn powers roll first
        state.dice = ScriptedDice(dice)
    if turn is not None:
        start_turn(game, state, turn, [])
    state.forget_mask()
