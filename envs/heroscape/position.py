"""Set up any Heroscape position (for tests and puzzles): a scenario plus figure placements.

Example::

    game, state = HeroscapeGame.from_scenario("skirmish", {"Iron Warden": [(2, 3)],
                                                           "Cinder Slingers #1": [(2, 4)]},
                                              dice=["skull", "skull", "shield"], turn=0)

``placements`` maps figure labels (``game.figure_label``) to one (row, col) space, or two
for a double-space figure; figures not listed are off the battlefield (destroyed). ``dice``
scripts every later roll; ``turn`` is the player about to choose a card (it must have a
figure; without ``turn`` the initiative winner starts, or the next player clockwise with
figures, HS-4.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from envs.core.dice import ScriptedDice
from envs.core.flow import next_seat
from envs.core.game import OptionError
from envs.heroscape.game import HeroscapeBase
from envs.heroscape.state import NO_CELL, Phase, State


def set_position(
    game: HeroscapeBase,
    state: State,
    placements: dict[str, Sequence[Sequence[int]]] | None = None,
    *,
    dice: Sequence[int | str] | None = None,
    turn: int | None = None,
) -> None:
    """Rearrange a new game's ``state`` as described in the module docstring."""
    if placements is not None:
        for figure in range(game.n_figures):
            game.remove(state, figure)
        labels = {label: i for i, label in enumerate(game.figure_label)}
        for label, spaces in placements.items():
            if label not in labels:
                raise OptionError(
                    "placements", f"no figure named {label!r}; figures: {list(labels)}"
                )
            figure = labels[label]
            cells = [game.board.cell(int(r), int(c)) for r, c in spaces]
            if len(cells) != (2 if game.fig_double[figure] else 1):
                raise OptionError(
                    "placements", f"{label} needs {2 if game.fig_double[figure] else 1} space(s)"
                )
            for cell in cells:
                if not game.board.exists[cell]:
                    raise OptionError(
                        "placements", f"{label}: {game.cell_name(cell)} is not a space"
                    )
            if len(cells) == 2 and (
                game.board.distance[cells[0], cells[1]] != 1
                or game.board.level[cells[0]] != game.board.level[cells[1]]
            ):
                raise OptionError(
                    "placements",
                    f"{label}: a double-space figure needs two adjacent "
                    "spaces on one level (HS-7.2)",
                )
            game.place(state, figure, cells[0], cells[1] if len(cells) == 2 else NO_CELL)
    if dice is not None:
        state.dice = ScriptedDice(dice)
    alive = game.players_alive(state)
    if not alive:
        raise OptionError("placements", "place at least one figure")
    if turn is not None:
        if not 0 <= turn < game.num_players:
            raise OptionError("turn", f"must be a seat 0..{game.num_players - 1}")
        if turn not in alive:
            raise OptionError(
                "turn",
                f"player {turn} has no figures on the battlefield (players with figures: {alive})",
            )
        state.seat = state.first_player = turn
    elif state.seat not in alive:
        # HS-4.4: a player without figures is skipped; the next one clockwise starts.
        state.seat = state.first_player = next_seat(
            state.seat, game.num_players, may_play=alive.__contains__
        ).seat
    state.phase = Phase.CHOOSE_CARD
