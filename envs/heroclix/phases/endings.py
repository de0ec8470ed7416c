"""The end of an action, of a turn and of the game (HC-3.2-3.6, HC-3.14-3.17, HC-7).

* :func:`finish_action`: a non-pass action earns an action token; a figure that already had
  one from its previous turn is *pushed*: 1 click of damage after the action, not reduced
  (HC-3.16 default), and a second token (HC-3.17: it may not act next turn). Then one of the
  player's actions is used; the turn ends when none is left or no figure can act. Willpower
  (P-DEF-8) keeps the token and drops the click.
* :func:`end_turn`: tokens leave the figures that did nothing this turn (HC-3.15, HC-3.17);
  play passes clockwise, skipping players without figures (HC-2.11 default); optional powers
  switched off come back at the start of their controller's turn (HC-3.8 default), and the
  ``turn_start`` powers of the new player's figures act (:func:`start_turn`).
* :func:`check_end`: the game ends when at most one player has figures (HC-7.1 default) or
  after ``max_rounds`` rounds; victory points decide (:func:`final_scores`).
"""

from __future__ import annotations

import numpy as np

from envs.core.events import Event
from envs.core.hooks import TURN_START
from envs.heroclix.combat.attack import DamageKind
from envs.heroclix.combat.resolve import damage_recipient, deal_damage
from envs.heroclix.game import HeroclixBase
from envs.heroclix.powers.hooks import FREE_MOVE, HOOKS, LASTING, NO_PUSHING_DAMAGE, has_trait
from envs.heroclix.state import NO_CELL, NO_FIGURE, NO_OBJECT, Phase, State


def clear_decision(state: State) -> None:
    state.selected = NO_FIGURE
    state.passenger = NO_FIGURE
    state.tk_object = NO_OBJECT
    state.targets = []
    state.move_spent = state.move_budget = 0
    state.move_stopped = False
    state.move_ignores_enemies = False
    state.action_kind = ""
    state.broke_away = []
    state.untargetable = []
    state.variant = ""
    state.variant_stage = 0
    state.variant_memory = []


def finish_action(game: HeroclixBase, state: State, figure: int, events: list[Event]) -> None:
    """After ``figure``'s non-pass action (HC-3.14, HC-3.16); ``NO_FIGURE`` for a pass."""
    if figure != NO_FIGURE and figure == state.controlled:  # given by Mind Control (P-SPD-6)
        game.finish_controlled(state, figure, events)
        return
    free = (
        figure != NO_FIGURE
        and state.action_kind == "move"
        and has_trait(game.powers(state, figure), FREE_MOVE)
    )  # TA-AVG, TA-BRO
    clear_decision(state)
    if figure != NO_FIGURE:
        give_token(game, state, figure, events)
    if not free:
        state.actions_left -= 1
    if check_end(game, state, events):
        return
    if state.actions_left <= 0 or not any(
        game.can_act(state, f) for f in game.alive(state, state.seat)
    ):
        end_turn(game, state, events)
    else:
        state.phase = Phase.ACTION


def give_token(
    game: HeroclixBase, state: State, figure: int, events: list[Event], *, acted: bool = True
) -> None:
    """HC-3.14-3.17: the action token; a second one pushes (1 click, not reduced); with two
    already (TA-MOE only) 1 click and the tokens stay. ``acted``: it acted in its owner's
    turn (False for an action Mind Control gave it)."""
    exhausted = state.tokens[figure] >= 2
    pushed = state.tokens[figure] >= 1
    state.tokens[figure] = min(2, int(state.tokens[figure]) + 1)
    if acted:
        state.acted[figure] = True
    if state.cell[figure] == NO_CELL:
        return
    if exhausted:
        events.append(Event("exhausted", f"{game.label(figure)} acts exhausted", state.seat))
        deal_damage(game, state, figure, 1, DamageKind.EXHAUSTED, figure, events)
    elif pushed:
        events.append(Event("push", f"{game.label(figure)} is pushed", state.seat))
        if not has_trait(game.powers(state, figure), NO_PUSHING_DAMAGE):
            taker = damage_recipient(game, state, figure, 1, DamageKind.PUSHING)  # P-DEF-7 flag
            deal_damage(game, state, taker, 1, DamageKind.PUSHING, figure, events)


def end_turn(game: HeroclixBase, state: State, events: list[Event]) -> None:
    seat = state.seat
    clear_decision(state)
    HOOKS.run(LASTING, game, state, "turn_end", NO_FIGURE, events)
    mine = game.owned(seat)
    state.tokens[mine & ~state.acted] = 0  # HC-3.15, HC-3.17
    state.acted[mine] = False
    state.carried[mine] = False
    standing = game.seats_standing(state)
    nxt = game.next_turn(state, seat, state.first_player, may_play=standing.__contains__)
    if state.round >= game.max_rounds:
        events.append(Event("time", f"round {game.max_rounds} is over", seat))
        finish_game(game, state, events)
        return
    start_turn(game, state, nxt.seat, events)


def start_turn(game: HeroclixBase, state: State, seat: int, events: list[Event]) -> None:
    state.seat = seat
    if np.count_nonzero(state.power_off):  # HC-3.8 default (rarely any is off)
        state.power_off[game.owned(seat)] = False
    state.actions_left = game.actions_per_turn
    state.extra_action_granted = False
    state.free_used = []
    state.phase = Phase.ACTION
    HOOKS.run(LASTING, game, state, "turn_start", NO_FIGURE, events)
    turn_start_powers(game, state, seat, events)
    check_end(game, state, events)


def turn_start_powers(game: HeroclixBase, state: State, seat: int, events: list[Event]) -> None:
    """The ``turn_start`` effects of the seat's figures, by the effect's ``priority`` and
    then the figure's square (board order: P-ATT-9, P-DMG-11 defaults)."""
    due = []
    for figure in game.figures_with(TURN_START):  # few or none: the order is sorted below
        if state.cell[figure] == NO_CELL or game.owner[figure] != seat:
            continue
        for key in game.powers(state, figure):
            if HOOKS.has(TURN_START, key):
                effect = HOOKS.get(TURN_START, key)
                due.append((effect.priority, int(state.cell[figure]), figure, key, effect))
    for _, _, figure, key, effect in sorted(due, key=lambda d: d[:3]):
        if key in game.powers(state, figure):  # still there (not KO'd, dial not turned)
            effect(game, state, figure, events)


def check_end(game: HeroclixBase, state: State, events: list[Event]) -> bool:
    """HC-7.1 (a): at most one player still has figures."""
    if len(game.seats_standing(state)) > 1:
        return False
    finish_game(game, state, events)
    return True


def final_scores(game: HeroclixBase, state: State) -> list[float]:
    """HC-7.5-7.8: points scored by KOs plus each survivor's points to its owner (HC-7.7)."""
    scores = list(state.vp)
    for figure in range(game.n_figures):
        if state.cell[figure] != NO_CELL:
            scores[int(game.owner[figure])] += float(game.points[figure])
    return scores


def winners_by_score(game: HeroclixBase, state: State, scores: list[float]) -> list[int]:
    """HC-7.4, HC-7.9 default: most points; ties to the smaller force spent; else a draw."""
    best = max(scores)
    top = [s for s, v in enumerate(scores) if abs(v - best) < 1e-9]
    if len(top) > 1:
        spent = {s: game.force_points(state, s) for s in top}
        fewest = min(spent.values())
        top = [s for s in top if spent[s] == fewest]
    return top if len(top) == 1 else []


def finish_game(game: HeroclixBase, state: State, events: list[Event]) -> None:
    scores = final_scores(game, state)
    winners = winners_by_score(game, state, scores)
    shown = ", ".join(f"{game.player_names[s]} {v:g}" for s, v in enumerate(scores))
    text = (f"{game.player_names[winners[0]]} wins" if winners else "draw") + f" ({shown} VP)"
    clear_decision(state)
    game.finish(state, winners)
    events.append(Event("game_over", text, -1))
