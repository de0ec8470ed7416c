"""Set up any Heroica position from text (for tests, puzzles and curricula).

The map uses the mission legend (HE-M) plus the digits ``0``-``3``: the space where that seat's
Hero stands. If the map has no ``S``, seat 0's space is the Mission Start. Example::

    game, state = HeroicaGame.from_scenario(
        '''
        #######
        #S0.b.#
        #######
        ''',
        target=(1, 5),
        hero_state={0: {"health": 2, "weapons": ["bow"]}},
        dice=["sword", "skull"],          # ScriptedDice: the next rolls, in order
    )
    game.apply_string(state, "roll")
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from envs.core.dice import Dice, ScriptedDice
from envs.core.game import OptionError
from envs.heroica.data.mission import mission_from_text
from envs.heroica.state import HeroField, Phase, State

HERO_STATE_KEYS = {
    "health": HeroField.HEALTH,
    "healing": HeroField.HEALING,
    "gold": HeroField.GOLD,
    "life_potions": HeroField.LIFE_POTIONS,
    "speed_potions": HeroField.SPEED_POTIONS,
    "torch": HeroField.TORCH,
    "scepter": HeroField.SCEPTER,
    "missions_won": HeroField.MISSIONS_WON,
}


def from_scenario(
    game_class: Callable[..., Any],
    map: str,
    target: tuple[int, int],
    *,
    num_players: int | None = None,
    hero_state: dict[int, dict[str, Any]] | None = None,
    dice: Sequence[int | str] | None = None,
    seed: int = 0,
    turn: int = 0,
    store: Sequence[str] | None = None,
    **game_options: Any,
) -> tuple[Any, State]:
    """Build a ``game_class`` game (HeroicaGame) and a state in which seat ``turn`` is about
    to start its turn.

    ``hero_state[seat]`` may set health, healing, gold, life_potions, speed_potions, torch,
    scepter, missions_won, ``weapons`` (list of ids) and ``kills`` ({monster id: count}).
    ``store`` lists the weapons still in the Store (default: all not held by a Hero).
    ``dice`` scripts every roll (the game fails loudly if it needs more); without it the
    dice are seeded from ``seed``.
    """
    rows = [row for row in textwrap.dedent(map).strip("\n").splitlines()]
    seats: dict[int, tuple[int, int]] = {}
    clean = []
    for r, row in enumerate(rows):
        chars = list(row.rstrip())
        for c, ch in enumerate(chars):
            if ch.isdigit():
                seats[int(ch)] = (r, c)
                chars[c] = "."
        clean.append("".join(chars))
    if not any("S" in row for row in clean):
        if 0 not in seats:
            raise OptionError("map", "needs an 'S' or a '0' (seat 0's Hero) to place the Start")
        r, c = seats[0]
        clean[r] = clean[r][:c] + "S" + clean[r][c + 1 :]
    body = "\n".join("  " + row for row in clean)
    text = (
        f"id: scenario\nname: Scenario\ndescription: a position set up from text\n"
        f"target: [{target[0]}, {target[1]}]\nmap: |\n{body}\n"
    )
    mission = mission_from_text(text, source="<scenario>")
    battle = bool(game_options.get("battle", False))
    heroes_needed = len(seats) if seats else 1
    players = num_players if num_players is not None else max(2, heroes_needed + battle)
    game = game_class(mission=mission, num_players=players, **game_options)
    scripted: Dice = ScriptedDice(dice) if dice is not None else Dice(seed)
    state = game.new_state(dice=scripted)
    for seat, (r, c) in seats.items():
        if seat >= game.num_heroes:
            raise OptionError(
                "map",
                f"digit {seat} marks a Hero seat, but there are only {game.num_heroes} Heroes",
            )
        state.heroes[seat, HeroField.CELL] = r * game.width + c
    for seat, values in (hero_state or {}).items():
        if not 0 <= seat < game.num_heroes:
            raise OptionError("hero_state", f"seat {seat} is not a Hero seat")
        for key, value in values.items():
            if key in HERO_STATE_KEYS:
                state.heroes[seat, HERO_STATE_KEYS[key]] = int(value)
            elif key == "weapons":
                for weapon in value:
                    if weapon not in game.weapon_ids:
                        raise OptionError("hero_state", f"unknown weapon {weapon!r}")
                    bit = 1 << game.weapon_ids.index(weapon)
                    state.heroes[seat, HeroField.WEAPONS] |= bit
                    state.store_weapons &= ~bit
            elif key == "kills":
                for monster, count in value.items():
                    if monster not in game.monster_ids:
                        raise OptionError("hero_state", f"unknown monster {monster!r}")
                    state.heroes[seat, HeroField.KILLS + game.monster_ids.index(monster)] = int(
                        count
                    )
            else:
                raise OptionError(
                    "hero_state",
                    f"unknown key {key!r}; known: "
                    f"{sorted(list(HERO_STATE_KEYS) + ['weapons', 'kills'])}",
                )
        if state.heroes[seat, HeroField.HEALTH] == 0:
            state.heroes[seat, HeroField.HEALING] = 1  # HE-9.1
    if store is not None:
        state.store_weapons = 0
        for weapon in store:
            state.store_weapons |= 1 << game.weapon_ids.index(weapon)
    game.begin_turn(state, turn)
    assert state.phase in (Phase.START, Phase.MONSTER_SELECT)
    return game, state
