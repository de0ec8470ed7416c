"""The Heroes' phases: one object per decision, owning its legal mask and its apply.

::

    START --roll--> MOVE --steps/end--> [FORWARD] --> chest -> FIGHT_CHOOSE.. -> ROCKS_CHOOSE -> END
      |  \\--heal roll (healing Hero)-----------------------------------------------------> END
      \\--fight <monster> (turn starts next to one, HE-6.10) --> FIGHT_SHIELD / MOVE_BACK ... -> END
    MOVE on a Shield, before the first step: a ranged skill (SKILL_TARGET / SKILL_STEP), the Staff,
    or the Scepter (SCEPTER_TAKE -> SCEPTER_PLACE), each instead of moving.

Every Hero phase offers a Life Potion on the Hero's own turn (HE-10.1); START and END offer
the Store (HE-12). The Monster Player's phases are in ``envs.heroica.phases.battle``.
"""

from __future__ import annotations

from envs.core.actions import DecodedAction
from envs.core.flow import LegalMask, PhaseRule, handles
from envs.core.game import Event
from envs.heroica.dice import MOVE_VALUE, SHIELD
from envs.heroica.fights import explore_rocks, fight, finish_move_back, move_back_options
from envs.heroica.game import ActionKind, HeroicaBase
from envs.heroica.moves import finish_move, forward_steps, hero_enter, hero_steps, post_move, roll
from envs.heroica.skills import effect_of
from envs.heroica.state import CELL, NO_CELL, HeroField, Phase, State


class HeroPhase(PhaseRule[HeroicaBase, State]):
    """A decision that may come up in a Hero's turn: a Life Potion is always offered to the
    Hero whose turn it is (HE-10.1: any decision point of your own turn)."""

    def mask(self, game: HeroicaBase, state: State, legal: LegalMask) -> None:
        seat = state.seat
        if seat == state.turn_seat and seat != game.monster_seat:
            hero = state.heroes[seat]
            if hero[HeroField.LIFE_POTIONS] > 0 and hero[HeroField.HEALTH] < game.max_health:
                legal.special(ActionKind.DRINK_LIFE)
        self.options(game, state, legal)

    def options(self, game: HeroicaBase, state: State, legal: LegalMask) -> None:
        raise NotImplementedError

    @handles(ActionKind.DRINK_LIFE)
    def drink_life(self, game, state, action, events) -> None:
        seat = state.seat
        state.heroes[seat, HeroField.LIFE_POTIONS] -= 1
        game.heal(state, seat, game.pieces.items["life_potion"].heal, events, reason="Life Potion")


class ShopPhase(HeroPhase):
    """START and END: the Store is open (HE-12.1, HE-12.5, HE-12.6, HE-19.2)."""

    def options(self, game, state, legal: LegalMask) -> None:
        # One copy of each weapon; a Hero never holds two copies. Finite mode: a sale is
        # refused if the Store cannot pay.
        hero = state.heroes[state.seat].tolist()
        owned, gold, in_store = hero[HeroField.WEAPONS], hero[HeroField.GOLD], state.store_weapons
        for index, weapon in enumerate(game.weapon_specs):
            bit = 1 << index
            if owned & bit:
                if game.store_can_pay(state, weapon.resale):
                    legal.slot(ActionKind.SELL, index)
            elif in_store & bit and gold >= weapon.price:
                legal.slot(ActionKind.BUY, index)
        if hero[HeroField.SCEPTER] and game.store_can_pay(
            state, game.pieces.items["scepter"].resale
        ):
            legal.special(ActionKind.SELL_SCEPTER)
        self.turn_options(game, state, legal)

    def turn_options(self, game, state, legal: LegalMask) -> None:
        raise NotImplementedError

    @handles(ActionKind.BUY)
    def buy(self, game, state, action, events) -> None:
        seat, index = state.seat, action.param
        weapon = game.pieces.weapons[game.weapon_ids[index]]
        state.heroes[seat, HeroField.GOLD] -= weapon.price
        if state.store_gold >= 0:
            state.store_gold += weapon.price
        state.heroes[seat, HeroField.WEAPONS] |= 1 << index
        state.store_weapons &= ~(1 << index)
        events.append(Event("shop", f"{game.player_names[seat]} buys the {weapon.name}", seat))

    @handles(ActionKind.SELL)
    def sell(self, game, state, action, events) -> None:
        seat, index = state.seat, action.param
        state.heroes[seat, HeroField.WEAPONS] &= ~(1 << index)
        state.store_weapons |= 1 << index
        self._paid(
            game,
            state,
            game.weapon_ids[index],
            game.pieces.weapons[game.weapon_ids[index]].resale,
            events,
        )

    @handles(ActionKind.SELL_SCEPTER)
    def sell_scepter(self, game, state, action, events) -> None:
        state.heroes[state.seat, HeroField.SCEPTER] -= 1  # a sold Scepter leaves the game (HE-19.2)
        self._paid(game, state, "scepter", game.pieces.items["scepter"].resale, events)

    def _paid(self, game, state, item: str, price: int, events) -> None:
        seat = state.seat
        state.heroes[seat, HeroField.GOLD] += price
        if state.store_gold >= 0:
            state.store_gold -= price
        events.append(
            Event("shop", f"{game.player_names[seat]} sells the {item} for {price} gold", seat)
        )


class Start(ShopPhase):
    """HE-4.2 (1)-(3): shop, potions, then a movement roll, a healing roll or a fight."""

    def turn_options(self, game, state, legal: LegalMask) -> None:
        seat = state.seat
        if state.heroes[seat, HeroField.HEALING]:
            legal.special(ActionKind.ROLL)  # HE-9.2 healing roll
            return
        monsters = game.adjacent_monsters(state, game.hero_cell(state, seat))
        if monsters:
            legal.cells(ActionKind.TARGET, monsters)  # HE-6.10 / HE-6.7
        else:
            legal.special(ActionKind.ROLL)

    @handles(ActionKind.ROLL)
    def roll(self, game, state, action, events) -> None:
        seat = state.seat
        hero = state.heroes[seat].tolist()
        if hero[HeroField.HEALING]:
            symbol = roll(game, state, events, "healing")
            amount = game.max_health if symbol == SHIELD else MOVE_VALUE[symbol]
            game.heal(state, seat, amount, events, reason="healing roll")  # HE-9.2
            game.enter_end_phase(state, events)
            return
        symbol = roll(game, state, events, "move")
        state.die = symbol
        torch = hero[HeroField.TORCH]
        state.steps_left = MOVE_VALUE[symbol] + torch  # HE-14.1
        state.torch_counted = bool(torch)
        here = hero[CELL]
        state.move_start = here
        state.visited = 1 << here
        state.last_free_cell = here if game.hero_at(state, here, exclude=seat) < 0 else NO_CELL
        state.phase = Phase.MOVE

    @handles(ActionKind.TARGET)
    def fight(self, game, state, action, events) -> None:
        fight(game, state, state.seat, action.cell, events)


class End(ShopPhase):
    """HE-4.2 (4): shop, potions, end the turn."""

    def turn_options(self, game, state, legal: LegalMask) -> None:
        legal.special(ActionKind.END_TURN)

    @handles(ActionKind.END_TURN)
    def end_turn(self, game, state, action, events) -> None:
        game.end_turn(state, events)


class Move(HeroPhase):
    """HE-5: step by step; on a movement Shield before the first step, a ranged skill, the
    Staff, the Sword or the Scepter instead (HE-5.2, HE-19.3)."""

    def options(self, game, state, legal: LegalMask) -> None:
        seat = state.seat
        hero = state.heroes[seat].tolist()
        if hero[HeroField.SPEED_POTIONS] > 0:
            legal.special(ActionKind.DRINK_SPEED)
        legal.special(ActionKind.END_MOVE)
        if state.steps_left > 0:
            legal.cells(ActionKind.STEP, hero_steps(game, state, hero[CELL]))
        if state.die == SHIELD and state.steps_taken == 0:
            for source in range(len(game.source_names)):
                if game.owns_source(state, seat, source):
                    skill = game.skill_of(seat, source)
                    effect = effect_of(skill)
                    if effect.timing == "ranged" and effect.usable(game, state, seat, skill):
                        legal.slot(ActionKind.USE, source)
            if (
                hero[HeroField.SCEPTER]
                and scepter_takes(game, state, seat)
                and game.empty_cells(state)
            ):
                legal.special(ActionKind.USE_SCEPTER)

    @handles(ActionKind.DRINK_SPEED)
    def drink_speed(self, game, state, action, events) -> None:
        seat = state.seat
        state.heroes[seat, HeroField.SPEED_POTIONS] -= 1
        state.steps_left += game.pieces.items["speed_potion"].steps  # HE-10.3
        events.append(Event("potion", f"{game.player_names[seat]} drinks a Speed Potion", seat))

    @handles(ActionKind.END_MOVE)
    def end_move(self, game, state, action, events) -> None:
        finish_move(game, state, state.seat, events)

    @handles(ActionKind.STEP)
    def step(self, game, state, action, events) -> None:
        outcome = hero_enter(game, state, state.seat, action.cell, events, counted=True)
        if outcome == "over":
            return
        if outcome == "stop" or state.steps_left <= 0:
            finish_move(game, state, state.seat, events)

    @handles(ActionKind.USE)
    def use(self, game, state, action, events) -> None:
        use_skill(game, state, action.param, events)

    @handles(ActionKind.USE_SCEPTER)
    def use_scepter(self, game, state, action, events) -> None:
        state.phase = Phase.SCEPTER_TAKE
        events.append(
            Event(
                "skill",
                f"{game.player_names[state.seat]} raises the Scepter of Summoning",
                state.seat,
            )
        )


class Forward(HeroPhase):
    """HE-5.6: the move ended on another Hero; keep stepping to a Hero-free space."""

    def options(self, game, state, legal: LegalMask) -> None:
        seat = state.seat
        legal.cells(ActionKind.STEP, forward_steps(game, state, game.hero_cell(state, seat), seat))

    @handles(ActionKind.STEP)
    def step(self, game, state, action, events) -> None:
        seat, cell = state.seat, action.cell
        if hero_enter(game, state, seat, cell, events, counted=False) == "over":
            return
        if game.hero_at(state, cell, exclude=seat) < 0:
            post_move(game, state, seat, events)
        else:
            finish_move(game, state, seat, events)


class FightChoose(HeroPhase):
    """HE-6.7: pick which adjacent monster to fight next."""

    def options(self, game, state, legal: LegalMask) -> None:
        legal.cells(
            ActionKind.TARGET, game.adjacent_monsters(state, game.hero_cell(state, state.seat))
        )

    @handles(ActionKind.TARGET)
    def fight(self, game, state, action, events) -> None:
        fight(game, state, state.seat, action.cell, events)


class FightShield(HeroPhase):
    """HE-6.2: a fight Shield: defeat the monster, or use a melee skill instead."""

    def options(self, game, state, legal: LegalMask) -> None:
        legal.special(ActionKind.DEFEAT)
        seat = state.seat
        for source in range(len(game.source_names)):
            if (
                game.owns_source(state, seat, source)
                and effect_of(game.skill_of(seat, source)).timing == "melee"
            ):
                legal.slot(ActionKind.USE, source)

    @handles(ActionKind.DEFEAT)
    def defeat(self, game, state, action, events) -> None:
        game.defeat_monster(state, state.seat, state.fight_target, events)
        state.last_fight_won = True
        game.after_fight(state, events)

    @handles(ActionKind.USE)
    def use(self, game, state, action, events) -> None:
        use_skill(game, state, action.param, events)


def use_skill(game: HeroicaBase, state: State, source: int, events: list[Event]) -> None:
    seat = state.seat
    state.skill_source = source
    skill = game.skill_of(seat, source)
    label = (
        "skill" if source == 0 else f"the {game.pieces.weapons[game.weapon_ids[source - 1]].name}"
    )
    events.append(Event("skill", f"{game.player_names[seat]} uses {label}", seat))
    effect_of(skill).start(game, state, seat, skill, events)


class SkillTarget(HeroPhase):
    """A ranged skill or the Sword: pick the monster to defeat."""

    def options(self, game, state, legal: LegalMask) -> None:
        skill = game.skill_of(state.seat, state.skill_source)
        legal.cells(ActionKind.TARGET, effect_of(skill).targets(game, state, state.seat, skill))

    @handles(ActionKind.TARGET)
    def defeat(self, game, state, action, events) -> None:
        seat = state.seat
        game.defeat_monster(state, seat, action.cell, events)
        if state.phase is not Phase.GAME_OVER:
            effect_of(game.skill_of(seat, state.skill_source)).after_target(
                game, state, seat, events
            )


class SkillStep(HeroPhase):
    """The optional single step of a skill (Barbarian HE-7.2, Sword HE-12.4), or stay."""

    def options(self, game, state, legal: LegalMask) -> None:
        cells, may_stay = self._effect(game, state).steps(game, state, state.seat)
        legal.cells(ActionKind.STEP, cells)
        if may_stay:
            legal.special(ActionKind.STAY)

    def _effect(self, game, state):
        return effect_of(game.skill_of(state.seat, state.skill_source))

    @handles(ActionKind.STEP)
    def step(self, game, state, action, events) -> None:
        effect = self._effect(game, state)
        outcome = hero_enter(
            game,
            state,
            state.seat,
            action.cell,
            events,
            counted=False,
            search=effect.searches_chest_on_step,
        )
        if outcome != "over":
            effect.after_step(game, state, state.seat, True, events)

    @handles(ActionKind.STAY)
    def stay(self, game, state, action, events) -> None:
        self._effect(game, state).after_step(game, state, state.seat, False, events)


class MoveBack(HeroPhase):
    """HE-6.9: choose where to move back to when several spaces qualify."""

    def options(self, game, state, legal: LegalMask) -> None:
        legal.cells(
            ActionKind.STEP, move_back_options(game, state, state.seat, state.move_back_from)
        )

    @handles(ActionKind.STEP)
    def move_back(self, game, state, action, events) -> None:
        if finish_move_back(game, state, state.seat, action.cell, events):
            return
        state.seat = state.turn_seat
        if state.turn_seat == game.monster_seat:
            game.enter_end_phase(state, events)
        else:
            game.after_fight(state, events)


class RocksChoose(HeroPhase):
    """HE-13.3: with several rocks adjacent, choose one to explore."""

    def options(self, game, state, legal: LegalMask) -> None:
        legal.cells(
            ActionKind.TARGET, game.adjacent_rocks(state, game.hero_cell(state, state.seat))
        )

    @handles(ActionKind.TARGET)
    def explore(self, game, state, action, events) -> None:
        explore_rocks(game, state, state.seat, action.cell, events)


def scepter_takes(game: HeroicaBase, state: State, seat: int) -> list[tuple[int, int]]:
    """(monster kind, owner) pairs: defeated monsters on another player's Pack (HE-19.3)."""
    return [
        (kind, owner)
        for owner in game.hero_seats()
        if owner != seat
        for kind in range(game.n_monster_kinds)
        if state.heroes[owner, HeroField.KILLS + kind] > 0
    ]


class ScepterTake(HeroPhase):
    """HE-19.3: choose whose defeated monster to take."""

    def options(self, game, state, legal: LegalMask) -> None:
        family = game.layout.family("take")
        slot_of = {param: k for k, param in enumerate(family.params)}
        for pair in scepter_takes(game, state, state.seat):
            legal.slot(ActionKind.TAKE, slot_of[pair])

    @handles(ActionKind.TAKE)
    def take(self, game, state, action: DecodedAction, events) -> None:
        kind, owner = action.param
        state.heroes[owner, HeroField.KILLS + kind] -= 1
        state.scepter_monster = kind
        state.phase = Phase.SCEPTER_PLACE


class ScepterPlace(HeroPhase):
    """HE-19.3: choose the empty space to place the taken monster on."""

    def options(self, game, state, legal: LegalMask) -> None:
        legal.cells(ActionKind.PLACE, game.empty_cells(state))

    @handles(ActionKind.PLACE)
    def place(self, game, state, action, events) -> None:
        kind, cell = state.scepter_monster, action.cell
        state.piece[cell] = game.code[game.monster_ids[kind]]
        state.scepter_monster = -1
        events.append(
            Event(
                "summon",
                f"{game.player_names[state.seat]} summons a "
                f"{game.pieces.monsters[game.monster_ids[kind]].name} to "
                f"{game.cell_name(state, cell)}",
                state.seat,
                cells=(cell,),
            )
        )
        game.enter_end_phase(state, events)
