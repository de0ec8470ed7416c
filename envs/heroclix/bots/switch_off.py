"""When the heuristic bot switches off an optional power (HC-3.8, R-2): the FIGURE phase's
``switch_off_<column>`` slots, the power back at the start of its controller's next turn
(``turns.start_turn``: the figure's *owner's* turn).

Read power by power, envs/heroclix/RULES.md gives two kinds of genuine cases. One is Super
Strength's held object, which a close attack must use (HC-6.11) and which bars Close Combat
Expert (P-DMG-8): switched off, the object stays on the square (HC-6.10) and CCE's +2 beats
a light object's +1. The others come from Mind Control (P-SPD-6), which makes a figure
fight for the other side for one action while the switch stays with the figure:

* **An enemy we control** is "hostile to its owner" for its action and our decisions are
  its controller's (section 7), so we may switch off its optional defensive powers; they stay
  off for the rest of our turn, when our other figures attack it and its friends.
* **Our figure in an enemy Mind Controller's reach** (where its action leaves it) would
  make its given action against us with its own attack powers; switched off now, when the
  action it is about to take does not use them, they stay off through that enemy's turn
  and are back for ours (its next-turn prices keep them: :class:`~envs.heroclix.bots.evaluation.Evaluator`).

Not cases, read against the spec and the engine: Stealth also hides the figure from a
friendly Perplex / Probability Control (P-SPD-10), but only the selected figure can switch
it off, and after that it has used its action, so no friendly free power it could then
receive this turn does it any good; Poison (P-ATT-9) acts at the start of its controller's
turn, after the switched-off powers came back, and never hits a friend; Combat Reflexes'
2008 knockback (P-DEF-4 flag) is the defender's choice each time (an INTERRUPT), so it
never has to be taken; Plasticity against an enemy Plasticity figure is ignored both ways.

:data:`SWITCH_OFF` holds, by power, the test of whether switching it off pays now.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from envs.heroclix.bots.control import controlled_by_us
from envs.heroclix.bots.variants import CCE, close_damage
from envs.heroclix.combat.targets import close_targets
from envs.heroclix.powers.hooks import HIDDEN_BY_HINDERING, NOT_CONTROLLED, has_trait
from envs.heroclix.powers.mind_control import RANGE_WITHOUT_RANGE
from envs.heroclix.state import NO_OBJECT, SOAR

Plan = tuple[float, str, int, int]
MOVING = frozenset({"charge", "running_shot", "hypersonic_speed", "phasing"})
MOVES = ("move", "soar", "break_away")
EPS = 1e-9


def _moves(turn, plan: Plan) -> bool:
    _, plane, cell, _ = plan
    return plane in MOVES or (plane == "power" and turn.game.variant_keys[cell] in MOVING)


def acting_later(turn) -> list[int]:
    """Our figures that may still act this turn after the action in progress."""
    state = turn.state
    if state.actions_left - 1 <= 0:
        return []
    busy = (state.selected, state.mind_source)
    return [f for f in turn.mine if f not in busy and turn.game.can_act(state, f)]


# -- an enemy we control: its defenses against the rest of our turn -------------------------------
def hostile(test: Callable[[object, int, Plan], bool]) -> Callable:
    def rule(turn, figure, plan):
        return controlled_by_us(turn, figure) and test(turn, figure, plan)

    rule.__doc__ = test.__doc__
    return rule


@hostile
def attacked_later(turn, figure, plan):
    """P-DEF-1 / P-DEF-4: our later attacks this turn are not evaded / rolled at +2."""
    return bool(acting_later(turn))


@hostile
def shot_later(turn, figure, plan):
    """P-SPD-10: a shooter of ours may then see it through hindering terrain."""
    return any(turn.shot_range(f) > 0 for f in acting_later(turn))


@hostile
def pushed_now(turn, figure, plan):
    """P-DEF-8: the action we give it pushes it (a token already): the click lands."""
    return turn.state.tokens[figure] >= 1


@hostile
def lends_defense(turn, figure, plan):
    """P-DEF-3: a friend of its beside it would borrow its better defense against us."""
    game, state = turn.game, turn.state
    mine = game.defense_value(state, figure)
    return bool(acting_later(turn)) and any(
        game.owner[f] == game.owner[figure] and f != figure and game.defense_value(state, f) < mine
        for f in game.adjacent_figures(state, figure)
    )


@hostile
def holds_ours(turn, figure, plan):
    """P-SPD-7: a figure of ours beside it would need a 6 to break away (kept when its own
    move needs it)."""
    later = acting_later(turn)
    return not _moves(turn, plan) and any(
        turn.game.is_adjacent(turn.state, f, figure) for f in later
    )


@hostile
def blastable_later(turn, figure, plan):
    """P-SPD-5: Charge keeps it from being knocked back, by our Force Blast too."""
    return not _moves(turn, plan) and any("force_blast" in turn.keys[f] for f in acting_later(turn))


# -- our figure's held object ---------------------------------------------------------------------
def sheds_object(turn, figure, plan):
    """P-DMG-8 + HC-6.10/6.11: a held object must be used in a close attack, and bars
    Close Combat Expert; without Super Strength it stays on the square, and CCE's +2 hits
    harder than the light object's +1 (and the object is not used up, HC-6.9)."""
    game, state = turn.game, turn.state
    if (
        controlled_by_us(turn, figure)
        or state.held[figure] == NO_OBJECT
        or "close_combat_expert" not in turn.keys[figure]
    ):
        return False
    damage = close_damage(turn, figure, CCE, 0)
    best = max(
        (turn.ev(figure, t, damage, spec=CCE) for t in close_targets(game, state, figure)),
        default=-np.inf,
    )
    return best - turn.fumble(figure) > plan[0] + EPS


# -- our figure an enemy Mind Controller could take -----------------------------------------------
def in_enemy_control(turn, figure: int, plan: Plan) -> bool:
    """An enemy Mind Controller that may act next turn could hit ``figure`` from where it
    stands, close or with its shot (range 4 without range), once ``plan`` is done: on its
    square, or where its move ends."""
    _, plane, cell, mode = plan
    game, state = turn.game, turn.state
    if plane in ("move", "soar"):
        cells, modes = np.array([cell]), np.array([mode])
    else:
        cells, modes = np.array([int(state.cell[figure])]), np.array([int(state.mode[figure])])
    for line in turn.lines(figure, cells, modes):
        e = line.enemy
        if (
            "mind_control" not in turn.keys[e]
            or state.tokens[e] >= 2
            or has_trait(turn.keys[figure], NOT_CONTROLLED)
        ):
            continue
        reach = game.range_value(state, e) or RANGE_WITHOUT_RANGE
        if modes[0] == SOAR:
            reach = (reach + 1) // 2  # HC-4.22
        free = not any(m != figure for m in game.adjacent_enemies(state, e))  # HC-4.16
        hidden = has_trait(turn.keys[figure], HIDDEN_BY_HINDERING) and line.hindered[0]
        if line.adjacent[0] or (free and line.clear[0] and not hidden and line.cheb[0] <= reach):
            return True
    return False


def turned_on_us(key: str) -> Callable:
    """P-SPD-6: an attack power the enemy would use through this figure; switched off
    when the action it is about to take does not use it (a move uses none of them)."""

    def rule(turn, figure, plan):
        _, plane, cell, _ = plan
        if (
            controlled_by_us(turn, figure)
            or plane == "break_away"
            or (plane == "power" and turn.game.variant_keys[cell] in MOVING)
        ):
            return False  # where it ends up is not known yet
        used = (plane == "power" and turn.game.variant_keys[cell] == key) or (
            key == "telekinesis" and plane == "tk_object"
        )
        return not used and in_enemy_control(turn, figure, plan)

    return rule


ATTACK_POWERS = (
    "flurry",
    "force_blast",
    "running_shot",
    "hypersonic_speed",
    "mind_control",
    "blades_claws_fangs",
    "energy_explosion",
    "pulse_wave",
    "quake",
    "incapacitate",
    "psychic_blast",
    "telekinesis",
    "ranged_combat_expert",
    "exploit_weakness",
    "close_combat_expert",
)

SWITCH_OFF: dict[str, Callable[[object, int, Plan], bool]] = {
    "super_senses": attacked_later,
    "combat_reflexes": attacked_later,
    "stealth": shot_later,
    "willpower": pushed_now,
    "defend": lends_defense,
    "plasticity": holds_ours,
    "charge": blastable_later,
    "super_strength": sheds_object,
    **{key: turned_on_us(key) for key in ATTACK_POWERS},
}


def switch_off(turn, figure: int) -> int | None:
    """The ``switch_off`` action of the first power of the selected figure that pays to
    switch off now, or None."""
    game, state = turn.game, turn.state
    powers = game.dial_powers[figure][int(state.click[figure])]
    plan = None
    for column in game.switchable(state, figure):
        slot = turn.layout.slot("switch_off", column)
        rule = SWITCH_OFF.get(powers[column])
        if rule is None or not turn.mask[slot]:
            continue
        plan = plan or turn.plan(figure)
        if rule(turn, figure, plan):
            return slot
    return None
