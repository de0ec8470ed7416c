"""The heuristic bot's prices: victory-point values of figures, the expected value of one
attack under any :class:`~envs.heroclix.combat.attack.AttackSpec`, pushing and healing.

Every score is in victory points. A figure with ``k`` of its ``L`` clicks left is worth
``V(k) = points * (1 + residual * k / L)`` and 0 once KO'd, so a click of damage is worth
``residual * points / L`` and the finishing blow the figure's whole points on top (HC-7.5,
HC-7.7); an archenemy's KO is worth half its points more (HC-7.6). The attack roll's
distribution is exact: ``P(2d6 + attack >= defense)`` for rolls 3..11 (the engine's
``attack_total`` / ``defense_total``: Combat Reflexes, Energy Shield/Deflection, Defend), a 12
always hits for 1 more and a 2 always misses and costs the attacker a click (HC-4.2-4.7).

Damage (:meth:`Evaluator.ev`) is the spec's: a d6 for Blades/Claws/Fangs (the mean over its
six faces), Quake's cap, Combat Expert's +2, penetrating (Psychic Blast, Exploit Weakness:
no reductions), none for Incapacitate (its price is the token, :meth:`Evaluator.token_value`).
Then the target's Toughness / Invulnerability (the engine's pure ``damage_taken`` hooks),
Impervious (5-6 on a d6: no damage, else 2 less) and Super Senses (5-6 evades the hit).

The lookahead plays the heuristic through thousands of positions, most one move or one
attack away from the last, so the bot keeps what it computed by what it read: a position's
facts and prices (:func:`position_key`) for every decision made in it, the roll an attack
needs by the figures the engine's totals read (:meth:`Evaluator.combat`), a figure's best
close and ranged attack on another by that and the powers and clicks they price
(:meth:`Evaluator.across`), and a hit's damage by the target's clicks and reductions. The
keys hold everything read, so a kept result is the one a fresh computation would give
(``tests/heroclix/test_bot_speed_caches.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.bots import LegalActions
from envs.core.hooks import DAMAGE_TAKEN
from envs.core.lru import LRU, named_lru
from envs.heroclix.combat.attack import CLOSE, RANGED, AttackSpec
from envs.heroclix.combat.resolve import attack_total, defense_total, enhancement
from envs.heroclix.combat.targets import HEAVY_THROW, LIGHT_THROW, OBJECT_STRIKE_BONUS
from envs.heroclix.game import HeroclixBase
from envs.heroclix.movement import breakaway_target, needs_breakaway
from envs.heroclix.phases.endings import final_scores
from envs.heroclix.powers.actions import SUPPORT_DEFENSE
from envs.heroclix.powers.hooks import (
    AIMS_FOR_FRIENDS,
    EVADE_ON,
    HOOKS,
    IMPERVIOUS_IGNORES,
    IMPERVIOUS_REDUCTION,
    NO_PUSHING_DAMAGE,
    NO_RANGED,
    has_trait,
)
from envs.heroclix.state import NO_CELL, NO_OBJECT, State

_COUNTS = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], dtype=np.float64) / 36.0  # 2d6
CRIT = FUMBLE = 1.0 / 36.0
HEAL = np.array([0, 0, 1, 2, 3, 4], dtype=np.float64)  # 1d6 - 2, minimum 0
D6 = tuple(range(1, 7))
FAR = 99
# variant of a Super Strength figure: 0 no object, 1 light, 2 heavy -> close bonus, throw
STRIKE = (0, *OBJECT_STRIKE_BONUS)
THROW = ((0, 0), LIGHT_THROW, HEAVY_THROW)  # (range, damage)
P_EVADE = (7 - EVADE_ON) / 6.0  # Super Senses (P-DEF-1)
P_IGNORE = (7 - IMPERVIOUS_IGNORES) / 6.0  # Impervious (P-DEF-9)
MAX_TOKENS = 2


FACTS_CACHE_SIZE = 4096  # positions whose facts are kept (playouts meet a few again)


def position_key(game: HeroclixBase, state: State) -> tuple:
    """Everything the facts and prices of a position read (not its phase, nor the figure
    being resolved), so the decisions within one action share them."""
    return (
        id(game),
        int(state.seat),
        state.round,
        tuple(state.vp),
        state.cell.tobytes(),
        state.click.tobytes(),
        state.mode.tobytes(),
        state.tokens.tobytes(),
        state.held.tobytes(),
        state.objects.tobytes(),
        state.power_off.tobytes(),
        state.walls_intact.tobytes(),
        state.blocking.tobytes(),
        state.rubble.tobytes(),
        state.smoke.tobytes(),
        state.barrier.tobytes(),
        state.controlled,
        state.controller,
        tuple(map(tuple, state.outwits)),
        tuple(map(tuple, state.perplex)),
        tuple(state.powers_ignored),
        tuple(state.untargetable),
    )


def facts_cache(bot) -> LRU:
    """The bot's facts per position (:func:`position_key`)."""
    cache = getattr(bot, "_facts", None)
    if cache is None:
        cache = bot._facts = LRU(FACTS_CACHE_SIZE)
    return cache


BOT_CACHE_SIZE = 8192  # entries per named cache of a bot
AIMS_CACHE = "bots:aims_for_friends"  # in game.caches: can some figure aim for friends


def bot_cache(bot, name: str) -> LRU:
    """The bot's results ``name`` kept across positions by what they read."""
    return named_lru(bot.__dict__.setdefault("_across", {}), name, BOT_CACHE_SIZE)


def normal_hit(need: int) -> float:
    """P(3 <= 2d6 <= 11 and 2d6 >= need): a hit that is neither critical nor a miss."""
    return _NORMAL_HIT[min(max(3, need), 12)]


# asked for every attack a bot prices: the sums once, as normal_hit reads them
_NORMAL_HIT = tuple(float(_COUNTS[need:12].sum()) for need in range(13))


@dataclass(frozen=True)
class Weights:
    """The prices of the scores (victory points, see the module docstring)."""

    residual: float = 0.5  # value of a figure's remaining clicks, as a share of its points
    arch: float = 0.5  # extra share of the points for KO-ing an archenemy
    next_turn: float = 0.5  # an attack that can be made next turn, against one made now
    gamma: float = 0.6  # per turn of walking still needed to attack
    danger: float = 0.6  # one expected enemy attack on the square
    lock: float = 0.1  # share of a figure's points lost by its second token (HC-3.17)
    locked: float = 0.5  # the threat of an enemy with two tokens, against one free to act
    closing: float = 0.5  # a close attack the enemy can walk up to make the turn after
    cautious: float = 3.0  # more weight on danger while ahead on victory points (HC-7.4)
    press: float = 0.9  # not ahead: danger and the least gain shrink this much by the last round
    push_margin: float = 2.0  # what a push must gain beyond its click
    min_gain: float = 0.3  # an action must gain this much, else end the turn
    token: float = 0.5  # Incapacitate's first token, against the second that locks (P-ATT-6)
    separation: float = 0.3  # Force Blast: share of a close threat removed by pushing it away


class Evaluator(LegalActions):
    """One decision's facts (computed once) and the prices every score uses."""

    # the facts of the position (:meth:`_compute_facts`), shared by its decisions
    enemies: list[int]
    mine: list[int]
    length: np.ndarray
    left: np.ndarray
    points: np.ndarray
    values: np.ndarray  # speed, attack, defense, damage now
    keys: list[tuple[str, ...]]
    risk: float
    min_gain: float
    closing: float
    reduction: list[int]
    p_act: dict[int, float]
    _ev: dict[tuple, float]
    _hit: dict[tuple, tuple[float, float]]
    _need: dict[tuple, int]
    _combat: dict[int, tuple]
    _best: dict[tuple, Any]  # also the enemies beside a figure (bots.position)
    _scores: dict[tuple, np.ndarray]

    def __init__(self, bot, game: HeroclixBase, state: State, mask: np.ndarray):
        self.bot, self.game, self.state, self.mask, self.w = bot, game, state, mask, bot.w
        self.layout = game.layout
        self.seat = int(state.seat)
        self.memo: dict[str, dict] = {}  # the power modules' results for this decision
        # The facts below and the prices of attacks depend on the position alone, not on
        # the phase: the decisions of one action (and playouts that meet the position
        # again) share them.
        self.key = position_key(game, state)
        cache = facts_cache(bot)
        shared = cache.get(self.key)
        if shared is None:
            shared = cache[self.key] = self._compute_facts(game, state)
        self.__dict__.update(shared)

    def _compute_facts(self, game: HeroclixBase, state: State) -> dict:
        alive = state.cell != NO_CELL
        enemies = [int(e) for e in np.flatnonzero(alive & (game.owner != self.seat))]
        mine = [int(f) for f in np.flatnonzero(alive & (game.owner == self.seat))]
        f = np.arange(game.n_figures)
        values = game.dial_values[f, state.click].astype(np.int64)  # speed, atk, def, dmg
        for target, stat, delta, _ in state.perplex:  # P-DMG-9, as game.value reads it
            if stat < values.shape[1]:
                values[target, stat] += delta
        np.maximum(values, 0, out=values)
        keys = [game.powers(state, int(i)) for i in f]
        back = state.power_off & (game.owner == self.seat)[:, None]
        if back.any():  # switched off now, back for our next turn (HC-3.8): priced as there
            trial = state.copy()
            trial.power_off[back] = False
            for i in np.flatnonzero(back.any(axis=1)):
                keys[int(i)] = game.powers(trial, int(i))
        w = self.w
        scores = final_scores(game, state)  # HC-7.5-7.7 if the game ended now
        lead = scores[self.seat] - max(v for s, v in enumerate(scores) if s != self.seat)
        # Ahead on points, time is on its side; otherwise it must fight before the rounds
        # run out (HC-7.1 b): danger weighs less and smaller gains are worth an action.
        urgency = 0.0 if lead > 0 else w.press * state.round / max(1, game.max_rounds - 1)
        rivals = len({int(game.owner[e]) for e in enemies})
        # the chance that an enemy is the one its owner acts with next turn; with two tokens
        # it may not act next turn, but may before a move's follow-up lands (HC-3.17)
        p_act = {}
        for e in enemies:
            able = sum(1 for g in enemies if game.owner[g] == game.owner[e] and state.tokens[g] < 2)
            p_act[e] = min(1.0, game.actions_per_turn / max(able, 1)) * (
                w.locked if state.tokens[e] >= 2 else 1.0
            )
        return {
            "enemies": enemies,
            "mine": mine,
            "length": game.dial_length.astype(np.float64),
            "left": (game.dial_length - state.click).astype(np.int64),
            "points": game.points.astype(np.float64),
            "values": values,
            "keys": keys,
            "risk": w.danger * (1.0 + w.cautious * (lead > 0)) * (1.0 - urgency),
            "min_gain": w.min_gain * (1.0 - urgency),
            "closing": w.closing / max(1, rivals),  # with more rivals, one walks at me
            "reduction": [
                int(10 - HOOKS.total(DAMAGE_TAKEN, 10, game, state, int(i), "attack", keys=keys[i]))
                if alive[i]
                else 0
                for i in f
            ],  # Toughness, Invulnerability
            "p_act": p_act,
            "_ev": {},  # (attacker, target, damage, ...) -> ev
            "_hit": {},  # (attacker, target, hindered, spec) -> p_hit
            "_need": {},  # (attacker, target, spec) -> the roll that hits
            "_combat": {},  # figure -> what the totals read of it (Evaluator.combat)
            "_best": {},  # the best close and ranged attacks (bots.variants)
            "_scores": {},  # position scores (bots.position)
        }

    # -- values -------------------------------------------------------------------------------
    def value(self, figure: int, left: int) -> float:
        length = self.length[figure]
        return (
            0.0
            if left <= 0
            else self.points[figure] * (1.0 + self.w.residual * min(left, length) / length)
        )

    def loss(self, figure: int, clicks: int, bonus: float = 0.0) -> float:
        """Value taken by ``clicks`` of damage (``bonus`` added on a KO)."""
        k = int(self.left[figure])
        lost = self.value(figure, k) - self.value(figure, k - clicks)
        return lost + (bonus if clicks >= k and clicks > 0 else 0.0)

    def hurt(
        self, target: int, amount: int, penetrating: bool = False, bonus: float = 0.0
    ) -> float:
        """Expected value taken by ``amount`` of reducible damage after the target's
        reductions (Impervious rolled; none when ``penetrating``)."""
        if penetrating:
            return self.loss(target, max(0, amount), bonus)
        amount = max(0, amount - self.reduction[target])
        if amount > 0 and "impervious" in self.keys[target]:
            return (1.0 - P_IGNORE) * self.loss(
                target, max(0, amount - IMPERVIOUS_REDUCTION), bonus
            )
        return self.loss(target, amount, bonus)

    def token_value(self, target: int) -> float:
        """Incapacitate's token: a second one keeps the enemy from acting next turn (HC-3.17),
        a first one makes acting with it a push."""
        tokens = int(self.state.tokens[target])
        if tokens >= MAX_TOKENS:
            return 0.0
        lock = self.loss(target, 1) + self.w.lock * self.points[target]
        return lock * (1.0 if tokens >= 1 else self.w.token) * self.p_act.get(target, 1.0)

    # -- one attack ---------------------------------------------------------------------------
    def ev(
        self,
        attacker: int,
        target: int,
        damage: int,
        hindered: bool = False,
        multi: bool = False,
        kind: str = "close",
        spec: AttackSpec | None = None,
    ) -> float:
        """Expected value of one attack's damage on ``target``: ``damage`` is the damage value
        with the attacker's modifiers (for a d6 spec, the modifiers only)."""
        spec = spec or (CLOSE if kind == "close" else RANGED)
        key = (attacker, target, damage, hindered, multi, spec)
        found = self._ev.get(key)
        if found is None:
            found = self._ev[key] = self._attack_ev(attacker, target, damage, hindered, multi, spec)
        return found

    def p_hit(
        self, attacker: int, target: int, hindered: bool, spec: AttackSpec
    ) -> tuple[float, float]:
        """(P(a normal hit), P(a critical hit)), the target's evasion included."""
        key = (attacker, target, hindered, spec)
        found = self._hit.get(key)
        if found is None:
            keep = 1.0 - P_EVADE if "super_senses" in self.keys[target] else 1.0
            need = self.need(attacker, target, spec) + int(hindered)
            found = self._hit[key] = (keep * normal_hit(need), keep * CRIT)
        return found

    def need(self, attacker: int, target: int, spec: AttackSpec) -> int:
        """The least 2d6 roll that hits an unhindered target. Hindering adds 1 to the
        defense before its powers' modifiers, which are summed (HOOKS.total), so one engine
        call serves both lines of fire."""
        key = (attacker, target, spec)
        found = self._need.get(key)
        if found is None:
            # Most positions of a playout differ from the last by one figure's square or
            # clicks, so the roll is also kept by what the engine's totals read.
            wide = (key, self.combat(attacker), self.combat(target), self.combat_setting())
            cache = bot_cache(self.bot, "need")
            found = cache.get(wide)
            if found is None:
                game, state = self.game, self.state
                found = cache[wide] = defense_total(
                    game, state, spec, attacker, target, False
                ) - attack_total(game, state, spec, attacker, target, 0)
            self._need[key] = found
        return found

    def across(
        self, name: str, key: tuple, attacker: int, target: int, price: Callable, *args: Any
    ) -> Any:
        """``price(self, attacker, target, *args)``, a price of ``attacker``'s attacks on
        ``target`` built from :meth:`ev` alone, kept across positions by what those read:
        the attacker's damage value and powers, the target's powers, clicks left and
        reductions, and what the roll that hits reads (:meth:`need`). Playouts meet the
        same pair again in positions that differ elsewhere (another figure's move, a
        token)."""
        wide = (
            key,
            int(self.values[attacker, 3]),
            self.keys[attacker],
            self.keys[target],
            int(self.left[target]),
            self.reduction[target],
            self.combat(attacker),
            self.combat(target),
            self.combat_setting(),
        )
        cache = bot_cache(self.bot, name)
        found = cache.get(wide)
        if found is None:
            found = cache[wide] = price(self, attacker, target, *args)
        return found

    def combat(self, figure: int) -> tuple:
        """What ``attack_total`` and ``defense_total`` read of a figure: its dial, powers,
        and the dials and powers of the figures beside it (Defend and the team abilities
        that lend values, members_beside). Not its square: no power's value reads it, so a
        figure that moves keeps its prices while its neighbours stay the same."""
        found = self._combat.get(figure)
        if found is None:
            game, state = self.game, self.state
            on_map = bool(state.cell[figure] != NO_CELL)
            near = game.adjacent_figures(state, figure) if on_map else []
            found = self._combat[figure] = (
                figure,
                on_map,
                int(state.click[figure]),
                game.powers(state, figure),
                tuple((g, int(state.click[g]), game.powers(state, g)) for g in near),
            )
        return found

    def combat_setting(self) -> tuple:
        """The rest the totals read: Perplex, who controls whom, and where a Hydra helper
        could aim from (lines of fire, TA-HYD), only when some figure can aim for friends."""
        found = self._combat.get(-1)
        if found is not None:
            return found
        state = self.state
        aims = self.game.caches.get(AIMS_CACHE)
        if aims is None:
            game = self.game
            aims = game.caches[AIMS_CACHE] = any(
                has_trait(keys + game.team_keys[f], AIMS_FOR_FRIENDS)
                for f in range(game.n_figures)
                for keys in game.dial_keys[f]
            )
        found = self._combat[-1] = (
            id(self.game),
            tuple(map(tuple, state.perplex)),
            state.controlled,
            state.controller,
            (
                state.cell.tobytes(),
                state.mode.tobytes(),
                state.walls_intact.tobytes(),
                state.blocking.tobytes(),
                state.rubble.tobytes(),
                state.objects.tobytes(),
                state.smoke.tobytes(),
                state.barrier.tobytes(),
            )
            if aims
            else None,
        )
        return found

    def _attack_ev(
        self, attacker: int, target: int, damage: int, hindered: bool, multi: bool, spec: AttackSpec
    ) -> float:
        normal, crit = self.p_hit(attacker, target, hindered, spec)
        if not spec.deals_damage:
            return (normal + crit) * self.token_value(target)
        base = min(damage, 1) if multi else damage
        arch = self.w.arch * self.points[target] if self.game.archenemies(attacker, target) else 0.0
        # what a hit takes depends on the target's clicks left and reductions alone
        key = (
            id(self.game),
            target,
            int(self.left[target]),
            self.reduction[target],
            "impervious" in self.keys[target],
            base,
            spec.damage_roll,
            spec.penetrating,
            arch,
        )
        cache = bot_cache(self.bot, "hurt")
        found = cache.get(key)
        if found is None:
            faces = [base + r for r in D6] if spec.damage_roll else [base]
            hurt = self.hurt
            found = cache[key] = (
                sum(hurt(target, a, spec.penetrating, arch) for a in faces) / len(faces),
                sum(hurt(target, a + 1, spec.penetrating, arch) for a in faces) / len(faces),
            )
        on_hit, on_crit = found
        return normal * on_hit + crit * on_crit

    def fumble(self, figure: int) -> float:
        return FUMBLE * self.loss(figure, 1)

    def enhanced(self, figure: int) -> int:
        """The figure's ranged damage now: its damage value and Enhancement (P-DMG-5)."""
        return int(self.values[figure, 3]) + enhancement(self.game, self.state, figure)

    def shot_range(self, figure: int) -> int:
        """Its range (Perplex's change included), 0 with Battle Fury (P-DMG-2)."""
        if has_trait(self.keys[figure], NO_RANGED):
            return 0
        return self.game.range_value(self.state, figure)

    # -- pushing, breaking away, healing ------------------------------------------------------
    def push_cost(self, figure: int) -> float:
        """HC-3.16/3.17: the click (none with Willpower, P-DEF-8) and the second token."""
        if self.state.tokens[figure] < 1:
            return 0.0
        lock = self.w.lock * self.points[figure] + self.w.push_margin
        if has_trait(self.keys[figure], NO_PUSHING_DAMAGE):
            return lock
        if self.left[figure] <= 1:
            return float("inf")  # the push would KO it (HC-3.16)
        return self.loss(figure, 1) + lock

    def breakaway_chance(self, figure: int) -> float:
        """P(a move may start): 1 when free, else the d6 of HC-3.23 / Plasticity (P-SPD-7)."""
        if not needs_breakaway(self.game, self.state, figure):
            return 1.0
        return (7 - breakaway_target(self.game, self.state, figure)) / 6.0

    def heal_value(self, figure: int, extra: float = 0.0) -> float:
        k, length = int(self.left[figure]), int(self.length[figure])
        gain = [
            self.value(figure, min(length, k + int(h + extra))) - self.value(figure, k)
            for h in HEAL
        ]
        return float(np.mean(gain))

    def support_ev(self, helper: int, friend: int) -> float:
        """R-5: 2d6 + attack >= 10 heals 1d6 - 2 (a 12 one more; a 2 costs a click)."""
        need = SUPPORT_DEFENSE - int(self.values[helper, 1])
        return (
            normal_hit(need) * self.heal_value(friend)
            + CRIT * self.heal_value(friend, 1)
            - self.fumble(helper)
        )

    def held_class(self, figure: int) -> int:
        """0 no object, 1 light, 2 heavy (:data:`STRIKE`, :data:`THROW`)."""
        held = int(self.state.held[figure])
        return 0 if held == NO_OBJECT else 1 + int(self.game.object_heavy[held])
