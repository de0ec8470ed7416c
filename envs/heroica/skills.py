"""Shield skills (HE-7, HE-12.4) as a registry of effects, keyed by the name used in pieces.yaml.

A Hero's skill and every weapon name one effect plus parameters. The engine asks an effect
whether it can be used now (``usable``) and then starts it (``start``); effects that need a
further choice (a target, a step) set a phase and the engine asks them for the legal cells.
Adding a weapon is a data change; adding a new kind of effect is one entry here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from .state import NO_CELL, HeroField, Phase

if TYPE_CHECKING:  # pragma: no cover
    from .pieces import Skill
    from .rules import HeroicaGame
    from .state import State


@dataclass(frozen=True)
class Effect:
    timing: str  # "melee" (fight Shield) or "ranged" (movement Shield)
    usable: Callable[["HeroicaGame", "State", int, "Skill"], bool]
    start: Callable[["HeroicaGame", "State", int, "Skill", list], None]


EFFECTS: dict[str, Effect] = {}


def effect(name: str, timing: str):
    def register(pair):
        usable, start = pair
        EFFECTS[name] = Effect(timing, usable, start)
        return pair
    return register


def _always(game, state, seat, skill) -> bool:
    return True


# -- melee (HE-6.2: instead of "defeat the monster" on a fight Shield) -----------------------
def _defeat_all_adjacent(game: "HeroicaGame", state: "State", seat: int, skill, events) -> None:
    for cell in game.adjacent_monsters(state, int(state.heroes[seat, HeroField.CELL])):
        game.defeat_monster(state, seat, cell, events)
        if state.phase is Phase.GAME_OVER:
            return
    state.last_fight_won = True
    game.after_fight(state, events)


def _defeat_all_then_step(game: "HeroicaGame", state: "State", seat: int, skill, events) -> None:
    # HE-7.2: the step is optional (0-1) and follows HE-5 (items, chest, new fights).
    for cell in game.adjacent_monsters(state, int(state.heroes[seat, HeroField.CELL])):
        game.defeat_monster(state, seat, cell, events)
        if state.phase is Phase.GAME_OVER:
            return
    state.last_fight_won = True
    state.phase = Phase.SKILL_STEP


def _defeat_and_take_gold(game: "HeroicaGame", state: "State", seat: int, skill, events) -> None:
    game.defeat_monster(state, seat, state.fight_target, events)
    game.gain_gold(state, seat, skill.gold, events, reason="skill")
    state.last_fight_won = True
    if state.phase is not Phase.GAME_OVER:
        game.after_fight(state, events)


effect("defeat_all_adjacent", "melee")((_always, _defeat_all_adjacent))
effect("defeat_all_adjacent_then_step", "melee")((_always, _defeat_all_then_step))
effect("defeat_and_take_gold", "melee")((_always, _defeat_and_take_gold))


# -- ranged (HE-5.2: instead of moving on a movement Shield) ---------------------------------
def _ranged_usable(game: "HeroicaGame", state: "State", seat: int, skill) -> bool:
    return bool(game.ranged_targets(state, seat, skill))


def _ranged_start(game: "HeroicaGame", state: "State", seat: int, skill, events) -> None:
    state.phase = Phase.SKILL_TARGET


def _heal_usable(game: "HeroicaGame", state: "State", seat: int, skill) -> bool:
    return int(state.heroes[seat, HeroField.HEALTH]) < game.max_health


def _heal_start(game: "HeroicaGame", state: "State", seat: int, skill, events) -> None:
    game.heal(state, seat, skill.amount, events, reason="Staff")
    game.enter_end_phase(state)


def _sword_usable(game: "HeroicaGame", state: "State", seat: int, skill) -> bool:
    return bool(game.sword_steps(state, seat)) or bool(
        game.adjacent_monsters(state, int(state.heroes[seat, HeroField.CELL])))


def _sword_start(game: "HeroicaGame", state: "State", seat: int, skill, events) -> None:
    # HE-12.4 Sword: move 0-1 step, then defeat one adjacent monster.
    state.phase = Phase.SKILL_STEP
    state.fight_target = NO_CELL


effect("ranged_defeat", "ranged")((_ranged_usable, _ranged_start))
effect("heal", "ranged")((_heal_usable, _heal_start))
effect("step_then_defeat", "ranged")((_sword_usable, _sword_start))
