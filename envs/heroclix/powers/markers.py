"""Powers that put markers on the map: Smoke Cloud (P-ATT-8) and Barrier (P-DEF-6), ranged
variants played in the VARIANT phase on the ``marker`` plane (:mod:`envs.heroclix.powers.variant_base`).

==============  =========================================================================
power           markers
==============  =========================================================================
Smoke Cloud     up to 4 hindering markers (``state.smoke``): on any square that is not
                blocking, occupied or hindering ones too
Barrier         up to 4 blocking markers (``state.barrier``, and ``state.blocking``): on
                clear squares with no figure and no object; they block moves and lines of
                fire like blocking terrain and break like it (HC-5.16), leaving no rubble
==============  =========================================================================

Both: not while soaring; within range (range 0: Smoke Cloud its own and the adjacent squares,
Barrier the adjacent squares); each marker after the first touches one placed before (grid
adjacency), and the first is on a square in the figure's line of fire [impl: so the group
always has one]; ``end_action`` stops after one or more. The markers vanish at the start of
the controller's next turn, or as soon as the figure no longer shows the power (dial turned,
countered, KO'd): the universal ``lasting`` effect below.
"""

from __future__ import annotations

import numpy as np

from envs.core.events import Event
from envs.heroclix.combat.targets import fire_snapshot
from envs.heroclix.game import ActionKind, HeroclixBase
from envs.heroclix.phases.endings import finish_action
from envs.heroclix.powers.hooks import HOOKS, LASTING
from envs.heroclix.powers.variant_base import Variant, register_variant
from envs.heroclix.state import NO_FIGURE, SOAR, State

MAX_MARKERS = 4


class MarkerVariant(Variant):
    action = "ranged"
    layer = ""  # the state array of its markers
    on_own_square = False

    def layer_of(self, state: State) -> np.ndarray:
        return getattr(state, self.layer)

    def allowed(self, game: HeroclixBase, state: State) -> np.ndarray:
        raise NotImplementedError

    def squares(
        self, game: HeroclixBase, state: State, figure: int, first: bool = False
    ) -> list[int]:
        """The squares a marker may go on now; with ``first``, as soon as one is found (the
        squares next to the figure asked first: their lines are seldom blocked)."""
        if state.mode[figure] == SOAR:
            return []
        cell = int(state.cell[figure])
        mine = self.layer_of(state) == figure
        distance = game.chebyshev[cell]
        reach = game.range_value(state, figure)
        near = (distance <= max(reach, 1)) & game.board.exists & self.allowed(game, state)
        near &= self.layer_of(state) == NO_FIGURE
        if not self.on_own_square:
            near[cell] = False
        if mine.any():
            touching = np.zeros(game.n_cells + 1, dtype=bool)
            touching[np.flatnonzero(mine)] = True
            near &= touching[game.touching].any(axis=1)
            return [int(c) for c in np.flatnonzero(near)]
        if first and near[cell]:
            return [cell]
        candidates = np.flatnonzero(near)
        others = candidates[candidates != cell]
        batches = [others]
        if first:
            beside = distance[others] <= 1
            batches = [others[beside], others[~beside]]
        out = [cell] if near[cell] else []
        for batch in batches:
            if batch.size:
                lines = fire_snapshot(game, state).targets_from(
                    cell, batch, attacker_flying=game.flies(state, figure)
                )
                out += [int(c) for c in batch[lines.clear]]
                if first and out:
                    break
        return sorted(out)

    def offered(self, game, state, figure, options):
        return bool(self.squares(game, state, figure, first=True))

    def mask(self, game, state, legal):
        legal.cells(ActionKind.MARKER, self.squares(game, state, state.selected))
        if state.variant_stage:
            legal.special(ActionKind.END_ACTION)

    def apply(self, game, state, action, events):
        figure = state.selected
        if action.kind == ActionKind.END_ACTION:
            finish_action(game, state, figure, events)
            return
        self.place(game, state, figure, action.cell)
        events.append(
            Event(
                self.key,
                f"{game.label(figure)} places a {self.title} marker at "
                f"{game.cell_label(action.cell)}",
                state.seat,
                cells=(action.cell,),
            )
        )
        state.variant_stage += 1
        if state.variant_stage >= MAX_MARKERS or not self.squares(game, state, figure):
            finish_action(game, state, figure, events)

    def place(self, game: HeroclixBase, state: State, figure: int, cell: int) -> None:
        self.layer_of(state)[cell] = figure

    def describe(self, game, state, decoded):
        if decoded.kind == ActionKind.MARKER:
            where = game.cell_label(decoded.cell)
            return f"{self.title} {game.label(state.selected)} marker {where}"
        return super().describe(game, state, decoded)


@register_variant
class SmokeCloud(MarkerVariant):
    key = "smoke_cloud"
    layer = "smoke"
    on_own_square = True

    def allowed(self, game, state):
        return ~state.blocking


@register_variant
class Barrier(MarkerVariant):
    key = "barrier"
    layer = "barrier"

    def allowed(self, game, state):
        clear = ~game.hindering(state, movement=True) & ~state.blocking
        return clear & (state.occupant < 0)

    def place(self, game, state, figure, cell):
        super().place(game, state, figure, cell)
        state.blocking[cell] = True


def remove_markers(state: State, layer_name: str, figure: int) -> None:
    layer = getattr(state, layer_name)
    mine = layer == figure
    if layer_name == Barrier.layer:
        state.blocking[mine] = False  # only ever placed on clear squares
    layer[mine] = NO_FIGURE


_EMPTY_LAYERS: dict[tuple[int, str], bytes] = {}


def _empty_layer(layer: np.ndarray) -> bytes:
    """The bytes of a marker layer with no marker down (every square NO_FIGURE): comparing
    bytes is several times cheaper than a reduction over the layer."""
    key = (layer.size, layer.dtype.str)
    found = _EMPTY_LAYERS.get(key)
    if found is None:
        found = _EMPTY_LAYERS[key] = np.full(layer.size, NO_FIGURE, dtype=layer.dtype).tobytes()
    return found


@HOOKS.register(LASTING, "markers", universal=True)
def markers_end(game: HeroclixBase, state: State, when: str, figure: int, events: list) -> None:
    """At the start of the controller's turn, or once the source no longer shows its power."""
    for variant in (SmokeCloud, Barrier):
        layer = getattr(state, variant.layer)
        if layer.tobytes() == _empty_layer(layer):  # nearly always: no marker is down
            continue
        for source in np.unique(layer[layer >= 0]).tolist():
            if (
                when == "turn_start" and game.owner[source] == state.seat
            ) or variant.key not in game.powers(state, source):
                remove_markers(state, variant.layer, source)
