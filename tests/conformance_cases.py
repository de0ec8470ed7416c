"""Conformance cases: every registered env and scenario the conformance suite runs.

A case is ``(env_name, options)`` plus how many random games the invariant test plays with it.
New envs plug in here, in one place: add ``"heroclix_v0": heroclix_cases`` to :data:`ENV_CASES`
(and, optionally, a state checker to :data:`STATE_INVARIANTS` and a play policy to
:data:`PLAY_POLICIES`).
``test_every_registered_env_has_cases`` fails until every name in ``envs.env_names()`` has cases.

The env-independent invariants (masks, seats, round trips, notation, rewards, seeding) live in
``test_conformance.py``; the per-game invariants (positions, bounds, conserved quantities)
live here, next to the cases, because they read the game's own state layout.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs import env_names


@dataclass(frozen=True)
class Case:
    env_name: str
    options: dict[str, Any]
    random_games: int = 20  # games of random legal play in the invariant test
    # extra options for those random games only (e.g. a lower round cap keeps them short)
    play_options: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        parts = []
        for key, value in sorted(self.options.items()):
            if isinstance(value, (list, tuple)):
                value = "+".join(str(v) for v in value)
            parts.append(f"{key}={value}")
        return f"{self.env_name}[{','.join(parts)}]"

    def make_kwargs(self, play: bool = False) -> dict[str, Any]:
        return {**self.options, **(self.play_options if play else {})}


# -- heroica_v0 -----------------------------------------------------------------------------
def heroica_cases() -> list[Case]:
    from envs.heroica.data.mission import list_missions

    short = {"max_rounds": 20}  # random play rarely wins the long missions; the cap ends them
    cases = [
        Case(
            "heroica_v0",
            {"mission": m, "num_players": 2},
            random_games=20,
            # arena is short: its random games keep the default max_rounds, so they reach
            # the real endings (a Hero reaching the target) as well as the round cap
            play_options={} if m == "arena" else short,
        )
        for m in list_missions()
    ]
    cases += [
        Case(
            "heroica_v0", {"mission": "fork", "num_players": 3}, random_games=20, play_options=short
        ),
        Case(
            "heroica_v0",
            {"mission": "arena", "num_players": 3, "heroes": ["thief", "wizard", "barbarian"]},
            random_games=20,
        ),
        Case(
            "heroica_v0",
            {"mission": "tunnel", "num_players": 2, "battle": True},
            random_games=20,
            play_options=short,
        ),
        Case(
            "heroica_v0",
            {"mission": "arena", "num_players": 4, "battle": True},
            random_games=20,
            play_options=short,
        ),
        Case(
            "heroica_v0",
            {"mission": ["tunnel", "arena"], "num_players": 2},
            random_games=20,
            play_options={"max_rounds": 15},
        ),
    ]
    return cases


# -- heroscape_v0 ---------------------------------------------------------------------------
def heroscape_cases() -> list[Case]:
    from envs.heroscape.data.scenario_file import list_scenarios

    # Random play rarely ends a battle quickly and every step is checked, so the random games
    # run under a low round cap (a draw when it is reached); "mirror" is short enough without.
    short = {"round_cap": 4}
    return [
        Case(
            "heroscape_v0",
            {"scenario": s},
            random_games=40,
            play_options={} if s == "mirror" else short,
        )
        for s in list_scenarios()
    ]


# -- heroclix_v0 ----------------------------------------------------------------------------
def heroclix_cases() -> list[Case]:
    from envs.heroclix.data.scenarios import scenario_ids

    # Random games under a low round cap: random play seldom KOs anything, and every step of
    # every game is checked; the duel (the default scenario) keeps its full 30 rounds. 50 full
    # duels, not 80: 80 were the suite's slowest test (71 s) against its 15-minute budget.
    cases = [
        Case(
            "heroclix_v0",
            {"scenario": s},
            random_games=50 if s == "duel" else 30,
            play_options={} if s == "duel" else {"max_rounds": 6},
        )
        for s in scenario_ids()
    ]
    cases += [
        Case(
            "heroclix_v0",
            {"scenario": "duel", "board_size": (24, 24), "full_dial_visibility": True},
            random_games=20,
            play_options={"max_rounds": 8},
        ),
        Case(
            "heroclix_v0",
            {"scenario": "street", "reward": "vp"},
            random_games=20,
            play_options={"max_rounds": 6},
        ),
        Case(
            "heroclix_v0",
            {"scenario": "duel", "setup": "play"},
            random_games=20,
            play_options={"max_rounds": 8},
        ),
        Case(
            "heroclix_v0",
            {"scenario": "brawl", "setup": "play"},
            random_games=10,
            play_options={"max_rounds": 4},
        ),
    ]
    return cases


_HEROCLIX_GONE: dict[int, set[int]] = {}


def check_heroclix_state(env) -> None:
    """HeroClix invariants at every decision (envs/heroclix/RULES.md), through ``to_dict``."""
    game, state = env.game, env.game_state
    d = game.to_dict(state)
    cell, click = np.asarray(d["cell"]), np.asarray(d["click"])
    mode, tokens, held = np.asarray(d["mode"]), np.asarray(d["tokens"]), np.asarray(d["held"])
    occupant, objects = np.asarray(d["occupant"]), np.asarray(d["objects"])
    alive = cell >= 0
    length = np.asarray(game.dial_length)
    if d["passenger"] >= 0:  # carried (HC-3.30): off its square until it is set down
        assert d["phase"] in ("MOVE", "PICKUP", "DROP"), f"a passenger in phase {d['phase']}"
        assert occupant[cell[d["passenger"]]] != d["passenger"]
        alive[d["passenger"]] = False
    assert (click >= 0).all() and (click[alive] < length[alive]).all(), (
        f"a click off the dial: {click.tolist()} of {length.tolist()} (HC-1.3, HC-4.5)"
    )
    assert len(set(cell[alive].tolist())) == int(alive.sum()), (
        "two figures share a square (HC-3.22)"
    )
    for f in np.flatnonzero(alive):
        assert occupant[cell[f]] == f, f"occupant table out of step at figure {f}"
    assert int((occupant >= 0).sum()) == int(alive.sum())
    soaring = alive & (mode == 1)
    assert not np.asarray(game.indoor)[cell[soaring]].any(), "a soaring figure indoors (HC-5.3)"
    assert not (soaring & ~np.asarray(game.flyer)).any(), "a non-flyer soaring (HC-1.12)"
    assert ((tokens >= 0) & (tokens <= 2)).all(), f"tokens {tokens.tolist()} (HC-3.17)"
    holders = held[held >= 0].tolist()
    assert len(holders) == len(set(holders)), "one object held by two figures (HC-6.5)"
    for obj in range(objects.size):
        if objects[obj] == -1:  # HELD
            assert holders.count(obj) == 1, f"object {obj} held by nobody"
        else:
            assert obj not in holders, f"object {obj} both held and at {objects[obj]}"
    assert not (held[~alive] >= 0).any(), "a KO'd figure still holds an object (HC-6.10)"
    setup = d["phase"] in ("DRAFT", "EDGE", "PLACE_OBJECT", "PLACE_FIGURE")
    if setup:  # setup="play": slots not drafted are off the map; objects not placed "gone"
        assert not (alive & ~np.asarray(d["drafted"])).any(), "an undrafted figure on the map"
        assert (
            objects[np.asarray(d["object_order"][d["objects_placed"] :], dtype=int)] == -2
        ).all()
    gone = set(np.flatnonzero(objects == -2).tolist())
    before = _HEROCLIX_GONE.get(id(state), set()) if d["turns"] and not setup else set()
    assert before <= gone, f"destroyed objects came back: {sorted(before - gone)} (HC-6.9)"
    _HEROCLIX_GONE.clear()
    _HEROCLIX_GONE[id(state)] = gone
    if d["phase"] != "GAME_OVER":
        assert 0 <= d["seat"] < game.num_players
        allowed = game.actions_per_turn + int(d["extra_action_granted"])  # P-DMG-11
        assert setup or 0 < d["actions_left"] <= allowed
        assert 0 <= d["round"] < game.max_rounds
        acting = d["saved_seat"] if d["phase"] == "INTERRUPT" else d["seat"]
        assert not d["interrupt"] or d["phase"] == "INTERRUPT", "a request outside INTERRUPT"
        if not setup:  # HC-3.4: one action per figure per turn, each using one of the player's
            mine = np.asarray(game.owner) == acting
            acted = int((np.asarray(d["acted"]) & mine).sum())
            assert acted <= allowed - d["actions_left"], "a figure acted twice, or for free"
            if d["selected"] >= 0:
                assert not d["acted"][d["selected"]], "a figure that acted is acting again"
        assert bool(d["variant"]) == (
            d["phase"] == "VARIANT"
            or (d["phase"] in ("TARGETS", "INTERRUPT") and bool(d["variant"]))
        ), f"variant {d['variant']!r} in {d['phase']}"
        _check_lasting_effects(game, state, d, np.asarray(d["cell"]) >= 0)
    json.dumps(d)


def _check_lasting_effects(game, state, d, alive) -> None:
    """Markers (P-ATT-8, P-DEF-6), countered powers (P-DMG-10) and Perplex (P-DMG-9) last only
    while their source shows its power, and markers and counters end when the source's
    controller's next turn starts."""
    smoke, barrier = np.asarray(d["smoke"]), np.asarray(d["barrier"])
    blocking = np.asarray(d["blocking"])
    assert blocking[barrier >= 0].all(), "a barrier marker that does not block"
    fresh_turn = (
        d["phase"] == "ACTION"
        and not d["free_used"]
        and d["actions_left"] == game.actions_per_turn + int(d["extra_action_granted"])
        and not np.asarray(d["acted"])[np.asarray(game.owner) == d["seat"]].any()
    )
    for layer, key in ((smoke, "smoke_cloud"), (barrier, "barrier")):
        for source in np.unique(layer[layer >= 0]).tolist():
            assert alive[source] and key in game.powers(state, source), f"stale {key} marker"
            assert (layer == source).sum() <= 4, f"more than 4 {key} markers"
            assert not (fresh_turn and game.owner[source] == d["seat"]), f"{key} outlived its turn"
    for target, _column, source in d["outwits"]:
        assert alive[target] and alive[source] and "outwit" in game.powers(state, source)
        assert not (fresh_turn and game.owner[source] == d["seat"]), "a counter outlived its turn"
    for _target, _stat, delta, source in d["perplex"]:
        assert alive[source] and "perplex" in game.powers(state, source) and delta in (-1, 1)


def check_heroica_state(env) -> None:
    """Heroica invariants that must hold at every decision point (envs/heroica/RULES.md).

    Read through the public API: ``game.to_dict(state)`` and the game's static tables.
    """
    from envs.heroica.state import HeroField

    game, state = env.game, env.game_state
    d = game.to_dict(state)
    mission = d["mission"]
    board = game.boards[mission]
    start = game.starts[mission]
    piece = np.asarray(d["piece"])
    heroes = np.asarray(d["heroes"])
    phase = d["phase"]
    n_kinds = len(game.piece_kinds)
    kind_of = {i + 1: kind for i, kind in enumerate(game.piece_kinds)}  # code -> (class, id)

    assert piece.shape == (game.height * game.width,)
    assert ((piece >= 0) & (piece <= n_kinds)).all(), f"unknown piece code in {set(piece.tolist())}"
    exists = np.asarray(board.exists).reshape(-1)
    assert not piece[~exists].any(), "a piece stands on a wall / off the board"
    assert (phase == "GAME_OVER") == (game.current_player(state) < 0)

    # HE-M.3: one piece per cell is built into the array; pieces only ever leave the board,
    # except monsters (Scepter HE-19.3, Battle HE-20.4 moves), which are conserved per kind:
    # on the board + on Hero Packs + being moved + being summoned = the mission's count.
    initial = Counter(game.initial_pieces[mission].tolist())
    now = Counter(piece.tolist())
    for code, (cls, pid) in kind_of.items():
        if cls == "monster":
            kind = game.monster_ids.index(pid)
            held = int(heroes[:, HeroField.KILLS + kind].sum())
            moving = int(d["moving_monster"] == code)
            summoning = int(d["scepter_monster"] == kind)
            assert now[code] + held + moving + summoning == initial[code], (
                f"{pid}: {now[code]} on board + {held} on packs + {moving} moving + {summoning} "
                f"summoned != {initial[code]} at the mission start"
            )
        else:
            assert now[code] <= initial[code], f"more {pid} on the board than the mission placed"

    # Hero Packs: bounds (HE-3.4 4 Health, HE-9, HE-14.2 one torch).
    names = game.player_names
    for seat in range(game.num_players):
        row = heroes[seat]
        who = f"seat {seat} ({names[seat]})"
        for col in (
            HeroField.GOLD,
            HeroField.LIFE_POTIONS,
            HeroField.SPEED_POTIONS,
            HeroField.SCEPTER,
            HeroField.MISSIONS_WON,
            HeroField.DEFEATED_BY_MONSTERS,
        ):
            assert row[col] >= 0, f"{who}: {col.name} is {row[col]}"
        assert (row[HeroField.KILLS :] >= 0).all(), f"{who}: negative monster count {row}"
        if seat == game.monster_seat:
            assert row[HeroField.CELL] == -1, f"{who}: the Monster Player has no figure"
            continue
        health = int(row[HeroField.HEALTH])
        assert 0 <= health <= game.max_health, f"{who}: health {health}"
        assert row[HeroField.HEALING] in (0, 1)
        if health == 0:
            assert row[HeroField.HEALING] == 1, f"{who}: 0 Health but not healing (HE-9.1)"
        if row[HeroField.HEALING]:
            assert health < game.max_health, f"{who}: full Health but still healing (HE-9.3)"
        assert row[HeroField.TORCH] in (0, 1), f"{who}: {row[HeroField.TORCH]} torches (HE-14.2)"
        cell = int(row[HeroField.CELL])
        assert 0 <= cell < piece.size and exists[cell], f"{who}: cell {cell} is not a space"
        code = int(piece[cell])
        if code:
            # Heroes cannot enter monsters, rocks or chests (searched chests leave the board) and
            # pick up every item they enter (HE-5.7), except a torch when they carry one
            # (which they may drop later, HE-14.3): so only a torch can lie under a Hero.
            assert kind_of[code][1] == "torch", (
                f"{who} stands on a {kind_of[code][1]} at {board.rc(cell)}"
            )

    # Weapons (HE-12.5): each one is in the Store or on exactly one Hero Pack.
    all_weapons = (1 << len(game.weapon_ids)) - 1
    owned = [int(b) for b in heroes[:, HeroField.WEAPONS]]
    seen = int(d["store_weapons"])
    for bits in owned:
        assert not bits & seen, (
            f"a weapon is in two places: store {d['store_weapons']}, packs {owned}"
        )
        seen |= bits
    assert seen == all_weapons, f"weapons lost: store {d['store_weapons']}, packs {owned}"

    # Positions. HE-3.5: Heroes share the Start at setup; HE-5.6: a Hero may pass others but
    # not end on one (the fallback of HE-5.6 may return it to the Start). So away from the
    # Start no two Heroes share a space, except the mover while its move is under way.
    moving_seat = d["turn_seat"] if phase in ("MOVE", "FORWARD") else -1
    at: dict[int, int] = {}
    for seat in range(game.num_heroes):
        cell = int(heroes[seat, HeroField.CELL])
        if cell == start or seat == moving_seat:
            continue
        assert cell not in at, (
            f"seats {at[cell]} and {seat} share {board.rc(cell)} in phase "
            f"{phase}\n{game.render_text(state)}"
        )
        at[cell] = seat
    if phase in ("MONSTER_MOVE", "MONSTER_FORWARD"):
        hero_cells = {int(heroes[s, HeroField.CELL]) for s in range(game.num_heroes)}
        assert d["selected"] not in hero_cells, "a moving monster entered a Hero's space (HE-20.4)"
        assert game.is_monster[d["moving_monster"]], "the moving monster has no kind"

    # Turn bookkeeping.
    assert 0 <= d["round"] <= game.max_rounds
    assert 0 <= d["monster_player_defeats"] <= 2
    won = int(heroes[:, HeroField.MISSIONS_WON].sum())
    assert won == sum(1 for w in d["mission_winners"] if w >= 0)
    if phase != "GAME_OVER":
        assert 0 <= d["seat"] < game.num_players
        if phase.startswith("MONSTER_"):
            assert d["seat"] == game.monster_seat
        json.dumps(d)  # JSON-compatible


def heroica_eager_policy(env, rng: np.random.Generator, legal: np.ndarray) -> int:
    """Random legal play that mostly avoids "end move" / "end turn" when anything else is legal,
    so Heroes get further (items, chests, fights, wins) than under uniform play."""
    game, state = env.game, env.game_state
    eager = [int(a) for a in legal if not game.action_to_string(state, int(a)).startswith("end ")]
    if eager and rng.random() < 0.85:
        return int(rng.choice(eager))
    return int(rng.choice(legal))


def uniform_policy(env, rng: np.random.Generator, legal: np.ndarray) -> int:
    return int(rng.choice(legal))


# -- the one place new envs plug in ----------------------------------------------------------
ENV_CASES: dict[str, Callable[[], list[Case]]] = {
    "heroica_v0": heroica_cases,
    "heroscape_v0": heroscape_cases,
    "heroclix_v0": heroclix_cases,
}

STATE_INVARIANTS: dict[str, Callable[[Any], None]] = {
    "heroica_v0": check_heroica_state,
    "heroclix_v0": check_heroclix_state,
}

# Random games alternate: even seeds play uniformly, odd seeds with the env's policy here
# (random legal play too, but biased towards progress); envs without one play uniformly.
PLAY_POLICIES: dict[str, Callable[[Any, np.random.Generator, np.ndarray], int]] = {
    "heroica_v0": heroica_eager_policy,
}

MIN_RANDOM_GAMES_PER_ENV = 200


def all_cases() -> list[Case]:
    """Cases for every registered env that has a case provider (see ENV_CASES)."""
    return [case for name in env_names() if name in ENV_CASES for case in ENV_CASES[name]()]


def cases_for(name: str) -> list[Case]:
    return ENV_CASES[name]() if name in ENV_CASES else []


def play_policy(name: str, seed: int):
    if seed % 2:
        return PLAY_POLICIES.get(name, uniform_policy)
    return uniform_policy
