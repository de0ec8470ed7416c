"""Powers used without an action, once in the controller's turn and never during another
action (envs/heroclix/RULES.md: ``free``): Outwit (P-DMG-10) and Perplex (P-DMG-9).

The ACTION phase offers them on the ``free`` plane at the figure's square (a figure shows at
most one: both sit behind the damage value); they are played in the VARIANT phase like a
variant (:mod:`envs.heroclix.powers.variant_base`) and end back in the ACTION phase with no action used and no token.

=========  ================================================================================
power      steps
=========  ================================================================================
Outwit     ``target`` an enemy within 10 squares and line of fire (Stealth applies), then
           ``counter_<column>``: that column's power is countered until the start of your
           next turn, or until this figure no longer shows Outwit; Earthbound cannot be
           countered; or ``force_hover``: a soaring enemy drops to hovering
Perplex    ``target`` any figure within 10 squares and line of fire (itself included), then
           ``perplex_<value>_up`` / ``_down``: +1 or -1 to its speed, attack, defense, damage
           or range until the end of the turn, or until it is damaged or healed, or this
           figure no longer shows Perplex
=========  ================================================================================
"""

from __future__ import annotations

from envs.core.events import Event
from envs.core.flow import LegalMask
from envs.heroclix.combat.resolve import after_click
from envs.heroclix.combat.targets import within_sight
from envs.heroclix.dials import COLUMNS
from envs.heroclix.game import PERPLEX_SLOTS, PERPLEX_STATS, ActionKind, HeroclixBase
from envs.heroclix.phases.endings import clear_decision
from envs.heroclix.powers.hooks import FREE_ACTIONS, HOOKS, LASTING, UNCOUNTERABLE, has_trait
from envs.heroclix.powers.variant_base import Variant
from envs.heroclix.state import GROUND, NO_CELL, SOAR, Phase, State


def register_free(cls: type[Variant]) -> type[Variant]:
    HOOKS.register(FREE_ACTIONS, cls.key)(cls())
    return cls


def offer_free_powers(game: HeroclixBase, state: State, legal: LegalMask) -> None:
    able = game.figures_with(FREE_ACTIONS)
    for figure in game.alive(state, state.seat):
        if figure in state.free_used or figure not in able:
            continue
        for key in game.powers(state, figure):
            if HOOKS.has(FREE_ACTIONS, key) and HOOKS.get(FREE_ACTIONS, key).targets(
                game, state, figure
            ):
                legal.cells(ActionKind.FREE, [int(state.cell[figure])])


def begin_free_power(game: HeroclixBase, state: State, cell: int) -> None:
    figure = int(state.occupant[cell])
    state.selected = figure
    state.variant = next(k for k in game.powers(state, figure) if HOOKS.has(FREE_ACTIONS, k))
    state.variant_stage = 0
    state.phase = Phase.VARIANT


def end_free_power(state: State, figure: int) -> None:
    """No action used, no token (envs/heroclix/RULES.md P-0: ``free``)."""
    clear_decision(state)
    state.free_used = [*state.free_used, figure]
    state.phase = Phase.ACTION


class FreePower(Variant):
    action = "free"

    def targets(self, game: HeroclixBase, state: State, figure: int) -> list[int]:
        raise NotImplementedError

    def mask(self, game, state, legal):
        figure = state.selected
        if state.variant_stage == 0:
            legal.cells(
                ActionKind.TARGET, [int(state.cell[f]) for f in self.targets(game, state, figure)]
            )
        else:
            self.mark_choices(game, state, legal, state.targets[0])

    def apply(self, game, state, action, events):
        if state.variant_stage == 0:
            state.targets = [int(state.occupant[action.cell])]
            state.variant_stage = 1
            return
        figure, target = state.selected, state.targets[0]
        self.choose(game, state, figure, target, action, events)
        end_free_power(state, figure)

    def describe(self, game, state, decoded):
        if decoded.kind == ActionKind.TARGET:
            return (
                f"{self.title} {game.label(state.selected)} -> "
                f"{game.who(state, decoded.cell)} {game.cell_label(decoded.cell)}"
            )
        return f"{self.title} {game.label(state.targets[0])}: {self.choice_name(decoded)}"


@register_free
class Outwit(FreePower):
    key = "outwit"

    def counterable(self, game: HeroclixBase, state: State, target: int) -> list[int]:
        click = int(state.click[target])
        shown = game.powers(state, target)
        return [
            c
            for c, k in enumerate(game.dial_powers[target][click])
            if k is not None and k in shown and not has_trait((k,), UNCOUNTERABLE)
        ]

    def targets(self, game, state, figure):
        foes = [
            e
            for e in game.enemies_of(state, figure)
            if self.counterable(game, state, e) or state.mode[e] == SOAR
        ]
        return within_sight(game, state, figure, foes) if foes else []

    def mark_choices(self, game, state, legal, target):
        for column in self.counterable(game, state, target):
            legal.slot(ActionKind.COUNTER, column)
        if state.mode[target] == SOAR:
            legal.special(ActionKind.FORCE_HOVER)

    def choose(self, game, state, figure, target, action, events):
        if action.kind == ActionKind.FORCE_HOVER:
            state.mode[target] = GROUND
            events.append(
                Event(
                    "outwit",
                    f"{game.label(figure)} forces {game.label(target)} to hover",
                    state.seat,
                    cells=(int(state.cell[target]),),
                )
            )
            return
        column = action.index
        key = game.dial_powers[target][int(state.click[target])][column]
        state.outwits = [*state.outwits, [target, column, figure]]
        events.append(
            Event(
                "outwit",
                f"{game.label(figure)} counters {game.label(target)}'s {key.replace('_', ' ')}",
                state.seat,
                cells=(int(state.cell[target]),),
            )
        )
        after_click(game, state, target, events)  # HC-6.10 and markers, as if the dial turned

    def choice_name(self, decoded):
        if decoded.kind == ActionKind.FORCE_HOVER:
            return "force to hover"
        return f"counter the {COLUMNS[decoded.index]} power"


@register_free
class Perplex(FreePower):
    key = "perplex"

    def targets(self, game, state, figure):
        return within_sight(game, state, figure, game.alive(state))

    def mark_choices(self, game, state, legal, target):
        for slot in range(len(PERPLEX_SLOTS)):
            legal.slot(ActionKind.PERPLEX, slot)

    def choose(self, game, state, figure, target, action, events):
        stat, delta = action.index // 2, (1 if action.index % 2 == 0 else -1)
        state.perplex = [*state.perplex, [target, stat, delta, figure]]
        events.append(
            Event(
                "perplex",
                f"{game.label(figure)} perplexes {game.label(target)}: "
                f"{PERPLEX_STATS[stat]} {delta:+d}",
                state.seat,
                cells=(int(state.cell[target]),),
            )
        )

    def choice_name(self, decoded):
        stat, way = PERPLEX_SLOTS[decoded.index].rsplit("_", 1)
        return f"{stat} {'+1' if way == 'up' else '-1'}"


def _source_lost(game: HeroclixBase, state: State, source: int, key: str) -> bool:
    return state.cell[source] == NO_CELL or key not in game.powers(state, source)


@HOOKS.register(LASTING, "outwit_and_perplex", universal=True)
def outwit_and_perplex_end(
    game: HeroclixBase, state: State, when: str, figure: int, events: list
) -> None:
    if state.outwits:
        kept = [
            entry
            for entry in state.outwits
            if not (when == "turn_start" and game.owner[entry[2]] == state.seat)
            and state.cell[entry[0]] != NO_CELL
            and not _source_lost(game, state, entry[2], Outwit.key)
        ]
        if len(kept) != len(state.outwits):
            state.outwits = kept
    if state.perplex:
        kept = [
            entry
            for entry in state.perplex
            if when != "turn_end"
            and entry[0] != figure
            and not _source_lost(game, state, entry[3], Perplex.key)
        ]
        if len(kept) != len(state.perplex):
            state.perplex = kept
