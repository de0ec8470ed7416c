"""Mind Control (P-SPD-6): an attack that deals no damage and gives each enemy hit one action
chosen by the attacker's seat (envs/heroclix/RULES.md P-SPD-6).

* The variant: a close attack, or a ranged one with the figure's bolts (range 0 counts as
  4), on enemies without Battle Fury; no damage, so no knockback and nothing from a 12.
* Each enemy hit that has fewer than 2 tokens, in the order declared, is then given one
  action: the FIGURE phase for it, decided by the Mind Controller's seat. During it the
  figure fights for that seat (``game.side``): its owner's figures are its enemies, and
  damage it deals scores for the controller (HC-7.5 [impl]). The action gives it a token and
  counts for its pushing (a second token, 1 click), but uses none of the controller's
  actions and leaves it free to act in its owner's turn.
* Then the Mind Controller takes 1 unreducible click per full 100 points of the figures it
  hit, and its own action ends (token, pushing, the player's action).
"""

from __future__ import annotations

from envs.core.events import Event
from envs.heroclix.combat.attack import AttackResult, AttackSpec, DamageKind
from envs.heroclix.combat.resolve import avoids_targeting, deal_damage
from envs.heroclix.combat.targets import close_targets, shots
from envs.heroclix.game import ActionKind, HeroclixBase
from envs.heroclix.movement import start_move
from envs.heroclix.phases.attacks import close_attack, declare_ranged
from envs.heroclix.phases.endings import clear_decision, finish_action, give_token
from envs.heroclix.powers.hooks import NOT_CONTROLLED, has_trait
from envs.heroclix.powers.variant_base import Variant, back_to_figure, cells_of, register_variant
from envs.heroclix.state import NO_CELL, NO_FIGURE, NO_SEAT, Phase, State

RANGE_WITHOUT_RANGE = 4
POINTS_PER_CLICK = 100


def controllable(game: HeroclixBase, state: State, figures) -> list[int]:
    return [f for f in figures if not has_trait(game.powers(state, f), NOT_CONTROLLED)]


@register_variant
class MindControl(Variant):
    key = "mind_control"
    action = "close"

    def shootable(self, game, state, figure):
        reach = game.range_value(state, figure) or RANGE_WITHOUT_RANGE
        found = shots(game, state, figure, reach)
        return {f: h for f, h in found.items() if f in controllable(game, state, found)}

    def close_options(self, game, state, figure):
        return controllable(game, state, close_targets(game, state, figure))

    def offered(self, game, state, figure, options):
        return bool(self.close_options(game, state, figure) or self.shootable(game, state, figure))

    def spec(self, game, state, figure):
        kind = "ranged" if state.targets else "close"
        return AttackSpec(kind, power=self.key, deals_damage=False)

    def mask(self, game, state, legal):
        figure = state.selected
        legal.cells(ActionKind.CLOSE, cells_of(state, self.close_options(game, state, figure)))
        legal.cells(ActionKind.RANGED, cells_of(state, self.shootable(game, state, figure)))

    def apply(self, game, state, action, events):
        figure = state.selected
        if action.kind == ActionKind.RANGED:
            if not declare_ranged(game, state, figure, action.cell, events):
                back_to_figure(state)
            return
        target = int(state.occupant[action.cell])
        if avoids_targeting(game, state, figure, target, events):
            back_to_figure(state)
            return
        result = close_attack(game, state, figure, target, self.spec(game, state, figure), events)
        self.after_fire(game, state, figure, result, events)

    def after_fire(self, game, state, figure, result: AttackResult, events) -> bool:
        owner = game.owner[figure]
        hit = [t for t in result.hits if game.owner[t] != owner and state.cell[t] != NO_CELL]
        state.mind_source = figure
        state.mind_points = int(sum(int(game.points[t]) for t in hit))
        state.controlled_next = [t for t in hit if state.tokens[t] < 2]
        next_controlled(game, state, events)
        return True


def next_controlled(game: HeroclixBase, state: State, events: list[Event]) -> None:
    """Give the next figure hit its action, or end the Mind Controller's action."""
    clear_decision(state)
    queue = [t for t in state.controlled_next if state.cell[t] != NO_CELL]
    source = state.mind_source
    if queue and state.cell[source] != NO_CELL:
        target, state.controlled_next = queue[0], queue[1:]
        state.controlled, state.controller = target, int(game.owner[source])
        state.selected = target
        start_move(game, state, target)
        events.append(
            Event(
                "mind_control",
                f"{game.label(source)} controls {game.label(target)}",
                state.seat,
                cells=(int(state.cell[target]),),
            )
        )
        state.phase = Phase.FIGURE
        return
    clicks = state.mind_points // POINTS_PER_CLICK
    state.controlled_next, state.mind_source, state.mind_points = [], NO_FIGURE, 0
    if clicks:
        deal_damage(game, state, source, clicks, DamageKind.MIND_CONTROL, source, events)
    finish_action(game, state, source, events)


def finish_controlled(game: HeroclixBase, state: State, figure: int, events: list[Event]) -> None:
    """The controlled figure's action is over: its token (and pushing), then the next."""
    state.controlled, state.controller = NO_FIGURE, NO_SEAT
    give_token(game, state, figure, events, acted=False)
    next_controlled(game, state, events)
