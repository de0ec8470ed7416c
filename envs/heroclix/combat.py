"""HeroClix combat (HC-4): the attack roll, the damage pipeline, knockback, KO and healing.

One attack, close or ranged, against one or more targets (HC-4.24-4.26):

1. roll 2d6 once (:data:`D6`); a 2 misses everything and costs the attacker 1 click, not
   reduced (HC-4.6 default); a 12 hits everything (HC-4.7);
2. per target: hit when 2d6 + attack (+ ``attack_value`` hooks) reaches its defense (+1 when
   the line of fire was hindered, HC-5.11; + ``defense_value`` hooks);
3. damage (HC-4.3 default order): the attacker's damage value or an object's / a thrown
   object's value, + the object's strike bonus (HC-6.11), capped at 1 with several targets
   (HC-4.25), + 1 on a 12 (HC-4.7), then the target's reductions at ``damage_taken``
   (Toughness, Invulnerability), never below 0;
4. doubles on a hit knock each hit target back one square per click it took, straight away
   from the attacker (HC-4.8-4.13, :func:`envs.core.knockback.knockback`); the extra click of
   a wall or edge (2 for a fall) is a separate damage instance, reduced on its own
   (HC-4.12 default) and credited to the attacker (HC-7.5 default);
5. a figure whose dial reaches KO leaves the map at once (HC-4.5), dropping what it holds
   (HC-6.10); the finishing blow scores its points (HC-7.5, double against an archenemy,
   HC-7.6; self-inflicted: HC-7.8).

Damage *kinds* tell reductions what they may reduce: ``attack`` and ``knockback`` are
reduced; ``pushing`` (HC-3.16) and ``critical_miss`` (HC-4.6) are not (R-3 default).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.events import Event
from ..core.hooks import AFTER_ATTACK, ATTACK_VALUE, DAMAGE_TAKEN, DEFENSE_VALUE
from .dice import roll_2d6
from .game import ClixBase
from .powers import HOOKS
from .state import NO_CELL, NO_FIGURE, NO_OBJECT, NO_SEAT, State

REDUCIBLE = frozenset({"attack", "knockback"})


@dataclass
class AttackResult:
    """What one attack did, for ``after_attack`` effects (Steal Energy) and captions."""

    attacker: int
    kind: str  # "close" or "ranged"
    dice: tuple[int, int]
    hits: list[int] = field(default_factory=list)  # targets hit
    damage_taken: dict[int, int] = field(default_factory=dict)  # target -> clicks taken


def deal_damage(game: ClixBase, state: State, figure: int, amount: int, kind: str,
                source: int, events: list[Event]) -> int:
    """Turn ``figure``'s dial ``amount`` clicks after its reductions for ``kind``; ``source``
    is the figure that dealt it (the figure itself for pushing and critical misses).
    Returns the clicks actually taken."""
    if state.cell[figure] == NO_CELL or amount <= 0:
        return 0
    if kind in REDUCIBLE:
        amount = int(HOOKS.total(DAMAGE_TAKEN, amount, game, state, figure, kind,
                                 keys=game.powers(state, figure)))
    amount = max(0, amount)
    if amount == 0:
        return 0
    dealer_seat = int(game.owner[source])
    if dealer_seat != int(game.owner[figure]):
        state.last_damager[figure] = dealer_seat
    before = int(state.click[figure])
    state.click[figure] = min(before + amount, int(game.dial_length[figure]))
    taken = int(state.click[figure]) - before
    events.append(Event("damage", f"{game.label(figure)} takes {taken} ({kind})", state.seat,
                        cells=(int(state.cell[figure]),)))
    if state.click[figure] >= game.dial_length[figure]:
        knock_out(game, state, figure, source, kind, events)
    else:
        game.after_dial_turn(state, figure, events)
    return taken


def heal(game: ClixBase, state: State, figure: int, amount: int, events: list[Event]) -> int:
    """HC-4.14: turn the dial back ``amount`` clicks, never past the start; returns clicks."""
    if state.cell[figure] == NO_CELL or amount <= 0:
        return 0
    healed = min(amount, int(state.click[figure]))
    if healed:
        state.click[figure] -= healed
        events.append(Event("heal", f"{game.label(figure)} heals {healed}", state.seat,
                            cells=(int(state.cell[figure]),)))
        game.after_dial_turn(state, figure, events)
    return healed


def knock_out(game: ClixBase, state: State, figure: int, source: int, kind: str,
              events: list[Event]) -> None:
    """HC-4.5: off the map at once; what it holds stays on its square (HC-6.10); points to
    whoever dealt the finishing blow (HC-7.5-7.8)."""
    cell = int(state.cell[figure])
    if state.held[figure] != NO_OBJECT:
        state.objects[state.held[figure]] = cell
        state.held[figure] = NO_OBJECT
    state.cell[figure] = NO_CELL
    state.occupant[cell] = NO_FIGURE
    state.mode[figure] = 0
    owner, points = int(game.owner[figure]), float(game.points[figure])
    dealer = int(game.owner[source])
    if source != figure and dealer != owner:
        double = game.archenemies(source, figure)
        state.vp[dealer] += points * (2 if double else 1)  # HC-7.6
        how = " (archenemy: double)" if double else ""
    elif state.last_damager[figure] != NO_SEAT:  # HC-7.8: self-inflicted
        state.vp[int(state.last_damager[figure])] += points
        how = " (to the last player who damaged it)"
    else:
        opponents = [s for s in range(game.num_players) if s != owner]
        for seat in opponents:
            state.vp[seat] += points / len(opponents)
        how = " (split among its opponents)"
    events.append(Event("ko", f"{game.label(figure)} is KO'd by {kind}{how}", state.seat,
                        cells=(cell,)))
    if state.passenger == figure:
        state.passenger = NO_FIGURE


def attack_total(game: ClixBase, state: State, attacker: int, target: int, roll: int) -> int:
    return int(HOOKS.total(ATTACK_VALUE, roll + game.attack_value(state, attacker), game, state,
                           attacker, target, keys=game.powers(state, attacker)))


def defense_total(game: ClixBase, state: State, attacker: int, target: int, hindered: bool) -> int:
    base = game.defense_value(state, target) + int(hindered)
    return int(HOOKS.total(DEFENSE_VALUE, base, game, state, attacker, target,
                           keys=game.powers(state, target)))


def resolve_attack(game: ClixBase, state: State, attacker: int, targets: list[int], kind: str,
                   events: list[Event], *, damage: int | None = None, bonus: int = 0,
                   hindered: dict[int, bool] | None = None,
                   origin: int | None = None) -> AttackResult:
    """One attack (steps 1-5 of the module docstring). ``damage`` replaces the attacker's
    damage value (thrown or hurled objects, HC-6.12/6.18); ``bonus`` is a held object's
    strike bonus (HC-6.11); ``origin`` is the square knockback pushes away from (the
    attacker's by default)."""
    dice = roll_2d6(state)
    total_roll = sum(dice)
    result = AttackResult(attacker, kind, dice)
    source_cell = int(state.cell[attacker]) if origin is None else origin
    names = ", ".join(game.label(t) for t in targets)
    events.append(Event("attack", f"{game.label(attacker)} {kind} attack on {names}: rolls "
                        f"{dice[0]}+{dice[1]}", state.seat,
                        cells=(source_cell, int(state.cell[targets[0]])),
                        dice=tuple(str(d) for d in dice)))
    if total_roll == 2:  # HC-4.6
        events.append(Event("critical_miss", "critical miss", state.seat))
        deal_damage(game, state, attacker, 1, "critical_miss", attacker, events)
        HOOKS.run(AFTER_ATTACK, game, state, result, events, keys=game.powers(state, attacker))
        return result
    critical = total_roll == 12
    base = game.damage_value(state, attacker) if damage is None else damage
    for target in targets:
        if state.cell[target] == NO_CELL:
            continue
        hit = critical or attack_total(game, state, attacker, target, total_roll) >= \
            defense_total(game, state, attacker, target, bool(hindered and hindered.get(target)))
        if not hit:
            events.append(Event("miss", f"misses {game.label(target)}", state.seat))
            continue
        result.hits.append(target)
        amount = base + bonus
        if len(targets) > 1:
            amount = min(amount, 1)  # HC-4.25
        amount += int(critical)  # HC-4.7
        target_cell = int(state.cell[target])
        taken = deal_damage(game, state, target, amount, "attack", attacker, events)
        result.damage_taken[target] = taken
        if dice[0] == dice[1] and taken > 0 and state.cell[target] != NO_CELL:  # HC-4.8
            knock_back(game, state, target, source_cell, target_cell, taken, attacker, events)
    if state.cell[attacker] != NO_CELL:
        HOOKS.run(AFTER_ATTACK, game, state, result, events, keys=game.powers(state, attacker))
    return result


def knock_back(game: ClixBase, state: State, target: int, source_cell: int, target_cell: int,
               distance: int, attacker: int, events: list[Event]) -> None:
    """HC-4.9-4.13 through the core search; the extra damage is its own instance."""
    push = game.knockback_path(state, target, source_cell, distance)
    stop = push.stop
    if stop != target_cell:
        game.move_figure(state, target, stop)
    events.append(Event("knockback", f"{game.label(target)} is knocked back to "
                        f"{game.cell_label(stop)} ({push.reason.value})", state.seat,
                        cells=(target_cell, stop)))
    if push.extra_damage:
        deal_damage(game, state, target, push.extra_damage, "knockback", attacker, events)
