"""HeroClix combat (HC-4): the attack roll, the damage pipeline, knockback, KO and healing.

One attack, close or ranged, against one or more targets (HC-4.24-4.26), described by an
:class:`AttackSpec` (a plain attack, or a power's variant of one: envs/heroclix/RULES.md P-0):

1. roll 2d6 once (:data:`D6`); a 2 misses everything and costs the attacker 1 click, not
   reduced (HC-4.6 default); a 12 hits everything (HC-4.7);
2. per target: hit when 2d6 + attack (+ ``attack_value`` hooks) reaches its defense (+1 when
   the line of fire was hindered, HC-5.11; + ``defense_value`` hooks). The defense value is
   the target's own, or an adjacent Defend friend's when higher (P-DEF-3 [impl]: borrowing a
   higher value is never worse, so it is taken). Energy Explosion also compares the roll with
   every figure adjacent to a target (P-ATT-2);
3. a hit figure may evade (``evades``: Super Senses): nothing from this attack;
4. damage (envs/heroclix/RULES.md P-0, HC-4.3 default order): the damage value, or its replacement
   (an object's, Energy Explosion's 1, a Blades/Claws/Fangs d6, Quake's cap of 2); + the
   attacker's modifiers (an object's strike bonus, Combat Expert +2, Enhancement +1 per
   adjacent Enhancer on a ranged attack); capped at 1 with several ranged targets (HC-4.25);
   + 1 on a 12 (HC-4.7); then the target's reductions (``damage_taken`` and
   ``reduction_roll``: Toughness, Invulnerability, Impervious) unless *penetrating*, never
   below 0. Incapacitate deals none and gives an action token instead (P-ATT-6);
5. doubles on a hit (any damage for Quake) knock each hit figure back one square per click it
   took, straight away from the attacker (HC-4.8-4.13, :func:`envs.core.knockback.knockback`),
   unless it ignores knockback (Charge); the extra click of a wall or edge (2 for a fall) is a
   separate damage instance, reduced on its own (HC-4.12 default) and credited to the
   attacker (HC-7.5 default);
6. a figure whose dial reaches KO leaves the map at once (HC-4.5), dropping what it holds
   (HC-6.10); the finishing blow scores its points (HC-7.5, double against an archenemy,
   HC-7.6; self-inflicted: HC-7.8).

Damage *kinds* tell reductions what they may reduce: ``attack``, ``knockback`` and ``poison``
are reduced; ``pushing`` (HC-3.16), ``critical_miss`` (HC-4.6) and the clicks powers cost
their own figure (``earthbound``, ``exhausted``, ``mind_control``, ``retaliation``) are not
(R-3 default).

The sums of steps 2 and 4 live in :mod:`envs.heroclix.combat.sums`; the attack's event shows
them as the rules used them ("rolls 5+2 + attack 8 = 15 vs defense 17 (16 +1 hindering):
miss"), and a damage event names the reductions that applied.
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.core.events import Event
from envs.core.hooks import AFTER_ATTACK, DAMAGE_TAKEN
from envs.heroclix.combat.attack import (
    REDUCIBLE,
    AttackResult,
    AttackSpec,
    DamageKind,
)
from envs.heroclix.combat.sums import (
    attack_total,
    attack_words,
    bonus_terms,
    damage_per_hit,
    damage_words,
    defense_total,
    defense_words,
    hook_terms,
    rest_term,
    signed,
    words,
)
from envs.heroclix.combat.sums import enhancement as enhancement  # the bots' import
from envs.heroclix.flags import ROLLS_WITH_HITS
from envs.heroclix.game import HeroclixBase
from envs.heroclix.phases.interrupts import ACCEPT, DECLINE, KNOCKBACK, MASTERMIND, ask
from envs.heroclix.powers.hooks import (
    AVOIDS_TARGET,
    EVADES,
    GROUNDED,
    HOOKS,
    LASTING,
    NO_KNOCKBACK,
    RALLIES,
    REDUCTION_ROLL,
    RETALIATES,
    TRANSFERS_DAMAGE,
    has_trait,
)
from envs.heroclix.state import GROUND, NO_CELL, NO_FIGURE, NO_OBJECT, NO_SEAT, SOAR, State

MAX_TOKENS = 2  # HC-3.17


def reduced(
    game: HeroclixBase, state: State, figure: int, amount: int, kind: DamageKind
) -> tuple[int, str]:
    """The damage after the figure's reductions for ``kind`` (rolls Impervious), and how,
    for the event ("2 -1 toughness"; "" when nothing reduced it)."""
    keys = game.powers(state, figure)
    before = amount
    amount = int(HOOKS.total(DAMAGE_TAKEN, amount, game, state, figure, kind, keys=keys))
    terms = hook_terms(DAMAGE_TAKEN, keys, game, state, figure, kind)
    how = signed([*terms, *rest_term(amount - before, terms)])
    if amount > 0:
        rolled = int(
            HOOKS.total(REDUCTION_ROLL, amount, game, state, figure, kind, amount, keys=keys)
        )
        rollers = " ".join(words(k) for k in keys if HOOKS.has(REDUCTION_ROLL, k))
        how += signed([(rolled - amount, f"{rollers} roll")])
        amount = rolled
    return max(0, amount), f"{before}{how}" if how else ""


def deal_damage(
    game: HeroclixBase,
    state: State,
    figure: int,
    amount: int,
    kind: DamageKind,
    source: int,
    events: list[Event],
    *,
    penetrating: bool = False,
) -> int:
    """Turn ``figure``'s dial ``amount`` clicks after its reductions for ``kind`` (none when
    ``penetrating``); ``source`` is the figure that dealt it (the figure itself for pushing
    and critical misses). Returns the clicks actually taken."""
    if state.cell[figure] == NO_CELL or amount <= 0:
        return 0
    how = ""
    if kind in REDUCIBLE and not penetrating:
        amount, how = reduced(game, state, figure, amount, kind)
    if amount <= 0:
        return 0
    dealer_seat = game.side(state, source)  # a Mind Controlled figure's damage: the controller's
    if dealer_seat != int(game.owner[figure]):
        state.last_damager[figure] = dealer_seat
    before = int(state.click[figure])
    state.click[figure] = min(before + amount, int(game.dial_length[figure]))
    taken = int(state.click[figure]) - before
    events.append(
        Event(
            "damage",
            f"{game.label(figure)} takes {taken} ({kind}{' ' + how if how else ''})",
            state.seat,
            cells=(int(state.cell[figure]),),
        )
    )
    if state.click[figure] >= game.dial_length[figure]:
        knock_out(game, state, figure, source, kind, events)
    else:
        after_click(game, state, figure, events)
    return taken


def heal(game: HeroclixBase, state: State, figure: int, amount: int, events: list[Event]) -> int:
    """HC-4.14: turn the dial back ``amount`` clicks, never past the start; returns clicks."""
    if state.cell[figure] == NO_CELL or amount <= 0:
        return 0
    healed = min(amount, int(state.click[figure]))
    if healed:
        state.click[figure] -= healed
        events.append(
            Event(
                "heal",
                f"{game.label(figure)} heals {healed}",
                state.seat,
                cells=(int(state.cell[figure]),),
            )
        )
        after_click(game, state, figure, events)
    return healed


def after_click(game: HeroclixBase, state: State, figure: int, events: list[Event]) -> None:
    """The dial turned: a holder without Super Strength drops its object (HC-6.10); a
    soaring figure whose dial now shows Earthbound lands on its square (a soaring figure
    only ever ends where it may stand) and takes 1 unreducible damage (P-SPD-4)."""
    game.after_dial_turn(state, figure, events)
    HOOKS.run(LASTING, game, state, "dial", figure, events)
    if state.mode[figure] == SOAR and has_trait(game.powers(state, figure), GROUNDED):
        state.mode[figure] = GROUND
        events.append(
            Event(
                "earthbound",
                f"{game.label(figure)} is grounded",
                state.seat,
                cells=(int(state.cell[figure]),),
            )
        )
        deal_damage(game, state, figure, 1, DamageKind.EARTHBOUND, figure, events)


def knock_out(
    game: HeroclixBase,
    state: State,
    figure: int,
    source: int,
    kind: DamageKind,
    events: list[Event],
) -> None:
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
    dealer = game.side(state, source)
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
    events.append(
        Event("ko", f"{game.label(figure)} is KO'd by {kind}{how}", state.seat, cells=(cell,))
    )
    if state.passenger == figure:
        state.passenger = NO_FIGURE
    HOOKS.run(LASTING, game, state, "dial", figure, events)
    if game.team_keys[figure]:  # TA-FF: the other members rally (heal 1) [impl: always]
        for friend in game.alive(state, owner):
            if has_trait(game.powers(state, friend), RALLIES) and set(game.team_keys[friend]) & set(
                game.team_keys[figure]
            ):
                heal(game, state, friend, 1, events)


def avoids_targeting(
    game: HeroclixBase, state: State, attacker: int, target: int, events: list[Event]
) -> bool:
    """P-DMG-7: a declared target's roll not to be one; it stays out of this action."""
    if not HOOKS.any(AVOIDS_TARGET, game, state, attacker, target, keys=game.powers(state, target)):
        return False
    state.untargetable = [*state.untargetable, target]
    events.append(
        Event(
            "shape_change",
            f"{game.label(target)} cannot be targeted",
            state.seat,
            cells=(int(state.cell[target]),),
        )
    )
    return True


def _victims(
    game: HeroclixBase,
    state: State,
    spec: AttackSpec,
    attacker: int,
    targets: list[int],
    hindered: dict[int, bool] | None,
) -> list[tuple[int, int, bool]]:
    """(figure, times hit if the roll beats it, hindered) in the order resolved: the
    targets, then Energy Explosion's figures adjacent to them (P-ATT-2: no +1 for them)."""
    out: dict[int, list] = {}
    for target in targets:
        if state.cell[target] != NO_CELL:
            out[target] = [1, bool(hindered and hindered.get(target))]
    if spec.splash:
        for target in targets:
            if state.cell[target] == NO_CELL:
                continue
            for near in game.adjacent_figures(state, target):
                if near == attacker:
                    continue
                entry = out.setdefault(near, [0, False])
                entry[0] += 1
    return [(f, n, h) for f, (n, h) in out.items()]


def resolve_attack(
    game: HeroclixBase,
    state: State,
    attacker: int,
    targets: list[int],
    spec: AttackSpec,
    events: list[Event],
    *,
    hindered: dict[int, bool] | None = None,
    origin: int | None = None,
) -> AttackResult:
    """One attack (steps 1-6 of the module docstring). ``origin`` is the square knockback
    pushes away from (the attacker's by default). The attack's event is written once every
    figure is resolved: the roll, the sums it was compared with and what each figure got."""
    dice = game.roll_for(state, attacker, 2)
    total_roll = sum(dice)
    result = AttackResult(attacker, spec, dice)
    source_cell = int(state.cell[attacker]) if origin is None else origin
    names = ", ".join(game.label(t) for t in targets)
    announce = Event(
        "attack",
        f"{game.label(attacker)} {spec.label} on {names}: rolls {dice[0]}+{dice[1]}",
        state.seat,
        cells=(source_cell, int(state.cell[targets[0]])),
        dice=tuple(str(d) for d in dice),
    )
    events.append(announce)
    if total_roll == 2:  # HC-4.6
        announce.text += " = 2: critical miss"
        events.append(Event("critical_miss", "critical miss", state.seat))
        deal_damage(game, state, attacker, 1, DamageKind.CRITICAL_MISS, attacker, events)
        HOOKS.run(AFTER_ATTACK, game, state, result, events, keys=game.powers(state, attacker))
        return result
    critical = total_roll == 12
    per_hit, how = damage_per_hit(game, state, spec, attacker, len(targets))
    told: list[Told] = []
    for victim, times, hindered_line in _victims(game, state, spec, attacker, targets, hindered):
        if state.cell[victim] == NO_CELL or times == 0:
            continue
        told.append(Told(game.label(victim)))
        if not critical:
            attack = attack_total(game, state, spec, attacker, victim, total_roll)
            defense = defense_total(game, state, spec, attacker, victim, hindered_line)
            told[-1].sums = (
                attack_words(game, state, spec, attacker, victim, total_roll, attack),
                defense_words(game, state, spec, attacker, victim, hindered_line, defense),
            )
            if attack < defense:
                told[-1].outcome = "miss"
                events.append(Event("miss", f"misses {game.label(victim)}", state.seat))
                continue
        result.hits.append(victim)
        if HOOKS.any(EVADES, game, state, spec, victim, keys=game.powers(state, victim)):
            told[-1].outcome = "hit, evaded"
            events.append(
                Event(
                    "evade",
                    f"{game.label(victim)} evades",
                    state.seat,
                    cells=(int(state.cell[victim]),),
                )
            )
            continue
        if (
            spec.extra_token
            and game.owner[victim] != game.owner[attacker]
            and state.tokens[victim] < MAX_TOKENS
        ):
            state.tokens[victim] += 1
            events.append(
                Event(
                    "token",
                    f"{game.label(victim)} gets an action token",
                    state.seat,
                    cells=(int(state.cell[victim]),),
                )
            )
        if not spec.deals_damage:
            continue
        amount = per_hit * times + int(critical)  # HC-4.7 (P-ATT-2: +1 to each figure hit)
        told[-1].outcome = "hit, " + damage_words(per_hit, how, times, critical)
        if spec.damage_roll:
            told[-1].outcome = "hit, a d6 of damage"
            amount = _rolled_damage(game, state, spec, attacker, critical, events) + int(critical)
        victim, taken = land_damage(
            game,
            state,
            spec,
            attacker,
            victim,
            amount,
            spec.always_knockback or dice[0] == dice[1],  # HC-4.8
            source_cell,
            events,
        )
        result.damage_taken[victim] = taken
        if amount > 0 and taken == 0:  # its reductions took it all: no damage event says so
            told[-1].outcome += ", none taken" + _reductions(game, state, victim)
    announce.text += _sums_text(told, total_roll, len(targets) == 1)
    if state.cell[attacker] != NO_CELL:
        HOOKS.run(AFTER_ATTACK, game, state, result, events, keys=game.powers(state, attacker))
    return result


@dataclass
class Told:
    """What the attack's event says of one figure it was rolled against."""

    name: str
    sums: tuple[str, str] | None = None  # (attack, defense) in words; None on a 12
    outcome: str = "hit"


def _sums_text(told: list[Told], roll: int, one_target: bool) -> str:
    """The attack event's text after its dice: " + attack 8 = 15 vs defense 16: miss" for
    one figure; per figure after "; " for several (Energy Explosion's included)."""
    if roll == 12:  # HC-4.7: the roll alone decides
        if one_target and len(told) == 1:
            return f" = 12: critical {told[0].outcome}"
        return " = 12: critical hit" + "".join(
            f"; {t.name}: {t.outcome.removeprefix('hit, ')}" for t in told
        )
    attacks = {t.sums[0] for t in told if t.sums}
    if len(attacks) != 1:  # only a power that changes the attack per target
        return "".join(
            f"; {t.name}: {t.sums[0]} vs {t.sums[1]}: {t.outcome}" for t in told if t.sums
        )
    text = f" + {attacks.pop()}"
    if one_target and len(told) == 1 and told[0].sums:
        return f"{text} vs {told[0].sums[1]}: {told[0].outcome}"
    return text + "".join(f"; vs {t.name}'s {t.sums[1]}: {t.outcome}" for t in told if t.sums)


def land_damage(
    game: HeroclixBase,
    state: State,
    spec: AttackSpec,
    attacker: int,
    victim: int,
    amount: int,
    knocked: bool,
    source_cell: int,
    events: list[Event],
) -> tuple[int, int]:
    """An attack's damage reaching a figure that was hit and did not evade (steps 4-5):
    Mastermind may pass it on, Mystics strike back, and knockback follows when ``knocked``
    (or when Combat Reflexes under its 2008 flag chooses it). Returns (the figure that took
    it, the clicks taken)."""
    victim = damage_recipient(game, state, victim, amount, DamageKind.ATTACK)
    victim_cell = int(state.cell[victim])
    taken = deal_damage(
        game,
        state,
        victim,
        amount,
        DamageKind.ATTACK,
        attacker,
        events,
        penetrating=spec.penetrating,
    )
    if (
        taken > 0
        and has_trait(game.powers(state, victim), RETALIATES)
        and state.cell[attacker] != NO_CELL
    ):  # TA-MYS: not an attack, not reduced
        deal_damage(game, state, attacker, 1, DamageKind.RETALIATION, victim, events)
    if (
        not knocked
        and taken > 0
        and state.cell[victim] != NO_CELL
        and game.has_trait(state, victim, ROLLS_WITH_HITS)
    ):  # flag combat_reflexes_2008
        knocked = ask(state, [KNOCKBACK, int(game.owner[victim]), victim, taken]) == ACCEPT
    if (
        knocked
        and taken > 0
        and state.cell[victim] != NO_CELL
        and not has_trait(game.powers(state, victim), NO_KNOCKBACK)
    ):
        knock_back(game, state, victim, source_cell, victim_cell, taken, attacker, events)
    return victim, taken


def _reductions(game: HeroclixBase, state: State, figure: int) -> str:
    """The powers that reduce the damage ``figure`` takes, as ' (toughness)'; '' if none."""
    keys = [
        words(k)
        for k in game.powers(state, figure)
        if HOOKS.has(DAMAGE_TAKEN, k) or HOOKS.has(REDUCTION_ROLL, k)
    ]
    return f" ({', '.join(keys)})" if keys else ""


def _rolled_damage(
    game: HeroclixBase,
    state: State,
    spec: AttackSpec,
    attacker: int,
    critical: bool,
    events: list[Event],
) -> int:
    """P-ATT-1: the d6 replaces the damage value; the modifiers still add (``critical``:
    the 12's +1, which the caller adds, is named in the event too)."""
    roll = game.roll_for(state, attacker)[0]
    how = signed([*bonus_terms(spec), (int(critical), "critical")])
    total = f" = {roll + spec.bonus + int(critical)} damage" if how else ""
    events.append(
        Event("damage_roll", f"damage roll {roll}{how}{total}", state.seat, dice=(str(roll),))
    )
    return roll + spec.bonus


def knock_back(
    game: HeroclixBase,
    state: State,
    target: int,
    source_cell: int,
    target_cell: int,
    distance: int,
    attacker: int,
    events: list[Event],
) -> None:
    """HC-4.9-4.13 through the core search; the extra damage is its own instance."""
    push = game.knockback_path(state, target, source_cell, distance)
    stop = push.stop
    if stop != target_cell:
        game.move_figure(state, target, stop)
    events.append(
        Event(
            "knockback",
            f"{game.label(target)} is knocked back to "
            f"{game.cell_label(stop)} ({push.reason.value})",
            state.seat,
            cells=(target_cell, stop),
        )
    )
    if push.extra_damage and not game.has_trait(state, target, ROLLS_WITH_HITS):
        target = damage_recipient(game, state, target, push.extra_damage, DamageKind.KNOCKBACK)
        deal_damage(game, state, target, push.extra_damage, DamageKind.KNOCKBACK, attacker, events)


def damage_recipient(
    game: HeroclixBase, state: State, figure: int, amount: int, kind: DamageKind
) -> int:
    """P-DEF-7 Mastermind: a figure about to take an attack's or knockback's damage may have
    an adjacent friend of lower points take all of it instead (its controller's decision,
    :mod:`envs.heroclix.phases.interrupts`); the friend's reductions apply and a KO counts for the attacker.
    Pushing damage too with the ``mastermind_pushing`` flag."""
    if amount <= 0 or not has_trait(game.powers(state, figure), TRANSFERS_DAMAGE):
        return figure
    if kind == DamageKind.PUSHING and not game.options.mastermind_pushing:
        return figure
    owner, points = game.owner[figure], game.points[figure]
    friends = [
        f
        for f in game.adjacent_figures(state, figure)
        if game.owner[f] == owner and game.points[f] < points
    ]
    if not friends:
        return figure
    answer = ask(
        state,
        [MASTERMIND, int(owner), figure, int(amount), *sorted(int(state.cell[f]) for f in friends)],
    )
    return figure if answer == DECLINE else int(state.occupant[answer])
