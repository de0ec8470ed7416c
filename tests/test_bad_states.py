"""Bad state dicts for ``from_dict`` fail with a StateError naming the field, the entry and what is
wrong: values, shapes and invariants (bounds, array lengths, occupancy, seat, phase), not only keys.

Each tampered dict here used to be accepted and then played, end the game silently (seat -3), or
crash later with an IndexError / KeyError inside a view or the dice.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs import make
from envs.core.game import GameError, StateError

GAMES = ["heroica_v0", "heroscape_v0", "heroclix_v0"]


def _game_and_dict(name):
    env = make(name)
    env.reset(seed=0)
    return env.game, env.game.to_dict(env.game_state)


def _refused(game, data, field, pattern):
    with pytest.raises(StateError, match=pattern) as info:
        game.from_dict(data)
    assert isinstance(info.value, GameError)
    assert info.value.field == field
    assert str(info.value).startswith(f"from_dict: field '{field}'"), str(info.value)
    return info.value


COMMON_TAMPERING = {
    # name: (edit of the dict, field, message pattern)
    "seat-negative": (lambda d, n: d.update(seat=-3), "seat", r"= -3 is below its minimum -1"),
    "seat-too-high": (lambda d, n: d.update(seat=n), "seat", r"= \d is above its maximum \d"),
    "seat-none-while-playing": (
        lambda d, n: d.update(seat=-1),
        "seat",
        r"= -1 in phase \w+: the seat is -1 exactly when the game is over",
    ),
    "phase-unknown": (
        lambda d, n: d.update(phase="DANCE"),
        "phase",
        r"= 'DANCE' is not a phase; phases: ",
    ),
    "phase-not-a-name": (lambda d, n: d.update(phase=3), "phase", r"= 3 is not a phase"),
    "dice-kind": (
        lambda d, n: d.update(dice={"kind": "loaded"}),
        "dice",
        r"is not a dice state saved by to_dict",
    ),
    "dice-generator": (
        lambda d, n: d["dice"].update(bit_generator={"state": 1}),
        "dice",
        r"is not a dice state saved by to_dict \(\w+Error",
    ),
    "dice-script-position": (
        lambda d, n: d.update(dice={"kind": "scripted", "script": [1, 2], "position": -3}),
        "dice",
        r"a 'position' 0..len\(script\)",
    ),
    "round-text": (lambda d, n: d.update(round="3"), "round", r"= '3' is not an integer"),
    "round-negative": (lambda d, n: d.update(round=-1), "round", r"= -1 is below its minimum 0"),
    "turns-bool": (lambda d, n: d.update(turns=True), "turns", r"= True is not an integer"),
    "winners-while-playing": (
        lambda d, n: d.update(winners=[0]),
        "winners",
        r"= \[0\] while the game is not over",
    ),
    "winners-not-a-seat": (
        lambda d, n: d.update(winners=[n + 4]),
        "winners",
        r"\[0\] = \d is above its maximum",
    ),
    "winners-not-ints": (
        lambda d, n: d.update(winners=["0"]),
        "winners",
        r"\[0\] = '0' is not an integer",
    ),
}


@pytest.mark.parametrize("tamper", sorted(COMMON_TAMPERING))
@pytest.mark.parametrize("name", GAMES)
def test_from_dict_refuses_tampered_common_fields(name, tamper):
    game, data = _game_and_dict(name)
    edit, field, pattern = COMMON_TAMPERING[tamper]
    edit(data, game.num_players)
    _refused(game, data, field, pattern)


def test_from_dict_refuses_what_is_not_a_dict():
    game, _ = _game_and_dict("heroica_v0")
    with pytest.raises(StateError, match=r"^from_dict: expected a dict from to_dict, got list"):
        game.from_dict([1, 2])


def _set(path, value):
    """An edit setting ``data[path[0]][path[1]]...`` to ``value``."""

    def edit(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _shorten(field, by=3):
    return lambda data: data.update({field: data[field][:-by]})


def _two_on_one(data):
    data["cell"][1] = data["cell"][0]  # figure 1 onto figure 0's square


GAME_TAMPERING = [
    # env, name, edit of the dict, field, message pattern
    (
        "heroica_v0",
        "health-above-max",
        _set(("heroes", 0, 2), 99),
        "heroes",
        r"^from_dict: field 'heroes'\[0, health\] = 99 is above its maximum 4 ",
    ),
    (
        "heroica_v0",
        "health-negative",
        _set(("heroes", 1, 2), -2),
        "heroes",
        r"\[1, health\] = -2 is below its minimum 0",
    ),
    (
        "heroica_v0",
        "piece-array-short",
        _shorten("piece"),
        "piece",
        r"'piece' has 253 entries, expected 256 \(one per cell",
    ),
    (
        "heroica_v0",
        "piece-code-unknown",
        _set(("piece", 17), 99),
        "piece",
        r"'piece'\[17\] = 99 is above its maximum \d+",
    ),
    (
        "heroica_v0",
        "piece-overflows-int8",
        _set(("piece", 17), 300),
        "piece",
        r"'piece'\[17\] = 300 does not fit int8 \(-128..127\)",
    ),
    (
        "heroica_v0",
        "piece-float",
        _set(("piece", 17), 1.5),
        "piece",
        r"must hold integers \(int8\)",
    ),
    (
        "heroica_v0",
        "piece-on-a-wall",
        _set(("piece", 0), 1),
        "piece",
        r"'piece'\[0\] = 1 lies on a wall",
    ),
    (
        "heroica_v0",
        "hero-on-a-wall",
        _set(("heroes", 0, 1), 0),
        "heroes",
        r"'heroes'\[0, cell\] = 0 is not a space of mission 'fork'",
    ),
    (
        "heroica_v0",
        "hero-swapped",
        _set(("heroes", 0, 0), 1),
        "heroes",
        r"'heroes'\[0, hero\] = 1: seat 0 plays barbarian",
    ),
    (
        "heroica_v0",
        "pack-column-missing",
        lambda d: d["heroes"][0].pop(),
        "heroes",
        r"'heroes' is not a rectangular array",
    ),
    ("heroica_v0", "die-unknown", _set(("die",), "moon"), "die", r"= 'moon' is not one of ''"),
    (
        "heroica_v0",
        "mission-unknown",
        _set(("mission",), 5),
        "mission",
        r"= 5 is above its maximum 0",
    ),
    (
        "heroica_v0",
        "visited-outside-the-board",
        _set(("visited",), 1 << 300),
        "visited",
        r"is above its maximum",
    ),
    (
        "heroscape_v0",
        "two-figures-on-one-space",
        _two_on_one,
        "cell",
        r"'cell'\[1\] = \d+: Ashwood Archers #1 stands there, but 'occupant'\[\d+\] is 0 "
        r"\(one figure per space\)",
    ),
    (
        "heroscape_v0",
        "cell-array-short",
        _shorten("cell"),
        "cell",
        r"'cell' has 6 entries, expected 9",
    ),
    (
        "heroscape_v0",
        "occupant-int",
        _set(("occupant", 0), 99),
        "occupant",
        r"'occupant'\[0\] = 99 is above its maximum 8",
    ),
    ("heroscape_v0", "moved-not-bool", _set(("moved", 0), 2), "moved", r"must hold true or false"),
    ("heroscape_v0", "card-unknown", _set(("card",), 99), "card", r"= 99 is above its maximum 3"),
    (
        "heroscape_v0",
        "initiative-skulls",
        _set(("initiative",), [[9, 1]]),
        "initiative",
        r"'initiative'\[0, 0\] = 9 is above its maximum 6",
    ),
    (
        "heroscape_v0",
        "initiative-ragged",
        _set(("initiative",), [[1, 1, 1]]),
        "initiative",
        r"'initiative'\[0\] has 3 entries, expected 2",
    ),
    (
        "heroclix_v0",
        "two-figures-on-one-square",
        _two_on_one,
        "cell",
        r"'cell'\[1\] = \d+: Street Thug 1 stands on \(\d+,\d+\), but 'occupant'\[\d+\] is 0 "
        r"\(one figure per square\)",
    ),
    ("heroclix_v0", "cell-array-short", _shorten("cell"), "cell", r"has 2 entries, expected 5"),
    (
        "heroclix_v0",
        "click-ko-on-the-map",
        _set(("click", 0), 8),
        "click",
        r"'click'\[0\] = 8 is KO for Quarry, which is still on the map",
    ),
    (
        "heroclix_v0",
        "click-past-the-dial",
        _set(("click", 0), 99),
        "click",
        r"'click'\[0\] = 99 is above its maximum 8",
    ),
    ("heroclix_v0", "click-overflows-int8", _set(("click", 0), 300), "click", r"does not fit int8"),
    (
        "heroclix_v0",
        "selected-unknown",
        _set(("selected",), 99),
        "selected",
        r"= 99 is above its maximum 4",
    ),
    (
        "heroclix_v0",
        "held-not-held",
        _set(("held", 0), 2),
        "held",
        r"'held'\[0\] = 2: Quarry holds the filing_cabinet, but 'objects'\[filing_cabinet\] is",
    ),
    ("heroclix_v0", "vp-per-seat", _set(("vp",), [0.0]), "vp", r"has 1 entry, expected 2"),
    (
        "heroclix_v0",
        "variant-unknown",
        _set(("variant",), "zap"),
        "variant",
        r"= 'zap' is not one of ''",
    ),
    (
        "heroclix_v0",
        "perplex-stat",
        _set(("perplex",), [[0, 9, 1, 0]]),
        "perplex",
        r"'perplex'\[0, 1\] = 9 is above its maximum 4",
    ),
    (
        "heroclix_v0",
        "power-off-shape",
        _set(("power_off", 0), [False]),
        "power_off",
        r"is not a rectangular array",
    ),
]


@pytest.mark.parametrize(
    "name, tamper, edit, field, pattern",
    GAME_TAMPERING,
    ids=[f"{n}-{t}" for n, t, *_ in GAME_TAMPERING],
)
def test_from_dict_refuses_tampered_game_fields(name, tamper, edit, field, pattern):
    game, data = _game_and_dict(name)
    edit(data)
    _refused(game, data, field, pattern)


@pytest.mark.parametrize("name", GAMES)
def test_from_dict_accepts_every_state_of_a_played_game(name):
    # The checks must not refuse what the rules produce (the goldens stay byte-identical).
    env = make(name)
    env.reset(seed=5)
    game, rng = env.game, np.random.default_rng(5)
    for _ in range(150):
        data = game.to_dict(env.game_state)
        assert game.to_dict(game.from_dict(data)) == data
        if game.is_terminal(env.game_state):
            break
        env.step(int(rng.choice(np.flatnonzero(env.legal_mask()))))
