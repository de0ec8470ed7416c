"""Bad inputs through the public API fail loudly, with errors that say what was wrong.

``make`` names the bad option; ``step`` names the bad action (IllegalActionError) or says the game
is over (GameOverError); a malformed, missing, undecodable or out-of-range data file is a
ScenarioError naming the file and line. Bad state dicts for ``from_dict``: test_bad_states.py.
"""

from __future__ import annotations

import re
import textwrap

import numpy as np
import pytest

from envs import env_names, make
from envs.core.game import GameError, GameOverError, IllegalActionError, OptionError
from envs.core.scenario import ScenarioError


def _finished_env(**options):
    env = make("heroica_v0", mission="arena", **options)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while not env.game.is_terminal(env.game_state):
        env.step(int(rng.choice(np.flatnonzero(env.legal_mask()))))
    return env


# -- make(): env names and options ---------------------------------------------------------
def test_unknown_env_name_lists_the_registered_ones():
    with pytest.raises(ValueError, match="unknown env 'heroica_v9'") as info:
        make("heroica_v9")
    for name in env_names():
        assert name in str(info.value)


@pytest.mark.parametrize("name", env_names())
def test_unknown_option_is_named(name):
    with pytest.raises(OptionError, match="colour") as info:
        make(name, colour="red")
    assert info.value.option == "colour"
    assert "known" in str(info.value)


@pytest.mark.parametrize(
    "option, value, words",
    [
        ("num_players", 7, ["2..3", "7"]),
        ("num_players", 1, ["1"]),
        ("num_players", "2", ["'2'"]),
        ("heroes", ["knight", "wizard"], ["knight", "barbarian"]),
        ("heroes", ["wizard", "wizard"], ["different"]),
        ("heroes", ["wizard"], ["need 2"]),
        ("mission", [], ["at least one"]),
        ("max_rounds", 0, ["0"]),
        ("max_rounds", 2.5, ["2.5"]),
        ("board_size", (4, 4), ["larger than"]),
        ("render_mode", "video", ["video", "rgb_array"]),
        ("max_turns", 0, ["0"]),
        ("max_turns", "10", ["'10'"]),
    ],
)
def test_heroica_bad_option_value_is_named(option, value, words):
    with pytest.raises(OptionError) as info:
        make("heroica_v0", **{option: value})
    assert info.value.option == option
    message = str(info.value)
    assert f"option '{option}'" in message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


@pytest.mark.parametrize(
    "options, option, words",
    [
        ({"victory": "kill"}, "victory", ["'kill'", "eliminate"]),
        ({"round_cap": 0}, "round_cap", ["0"]),
        ({"round_cap": "x"}, "round_cap", ["'x'"]),
        ({"board_size": (3, 3)}, "board_size", ["larger than"]),
        ({"scenario": "skirmish", "victory": "hold"}, "victory", ["X"]),
        ({"scenario": "river_hold", "hold_rounds": 0}, "hold_rounds", ["0"]),
        ({"scenario": "river_hold", "hold_rounds": "2"}, "hold_rounds", ["'2'"]),
    ],
    ids=lambda value: (
        None if not isinstance(value, dict) else "-".join(f"{k}={v}" for k, v in value.items())
    ),
)
def test_heroscape_bad_option_value_is_named(options, option, words):
    with pytest.raises(OptionError) as info:
        make("heroscape_v0", **options)
    assert info.value.option == option
    for word in words:
        assert word in str(info.value), f"{word!r} not in {info.value}"


def test_heroscape_unknown_scenario_lists_the_shipped_ones():
    from envs.heroscape.data.scenario_file import list_scenarios

    with pytest.raises(ScenarioError, match="unknown scenario id 'nowhere'") as info:
        make("heroscape_v0", scenario="nowhere")
    for scenario in list_scenarios():
        assert scenario in str(info.value)


def test_heroica_battle_must_be_a_bool():
    # ``battle="yes"`` is a typo for True; it must be an OptionError naming 'battle', not a
    # TypeError from arithmetic inside the constructor.
    with pytest.raises(OptionError, match="battle") as info:
        make("heroica_v0", battle="yes")
    assert info.value.option == "battle"


def test_heroica_battle_with_an_epic_sequence():
    with pytest.raises(OptionError, match="option 'mission'.*Epic"):
        make("heroica_v0", battle=True, mission=["tunnel", "arena"])


def test_heroica_battle_player_count():
    with pytest.raises(OptionError, match=r"option 'num_players'.*2\.\.4 with battle.*5"):
        make("heroica_v0", battle=True, num_players=5)


def test_heroica_unknown_mission_id_lists_the_shipped_ones():
    from envs.heroica.data.mission import list_missions

    with pytest.raises(ScenarioError, match="unknown mission id 'nowhere'") as info:
        make("heroica_v0", mission="nowhere")
    for mission in list_missions():
        assert mission in str(info.value)


def test_heroica_unknown_mission_in_an_epic_sequence():
    with pytest.raises(ScenarioError, match="nowhere"):
        make("heroica_v0", mission=["tunnel", "nowhere"])


def test_heroica_missing_mission_file():
    with pytest.raises(ScenarioError, match="no_such_mission.yaml: no such mission file"):
        make("heroica_v0", mission="/tmp/definitely/no_such_mission.yaml")


# -- malformed mission files ---------------------------------------------------------------
BAD_MISSIONS = {
    # name: (file text, line of the error, words in the message)
    "unknown-char": (
        """\
        id: {id}
        name: Bad
        description: an x in the map
        target: [1, 4]
        map: |
          ######
          #S.x.#
          ######
        """,
        7,
        ["map", "'x'"],
    ),
    "target-off-map": (
        """\
        id: {id}
        name: Bad
        description: target outside
        target: [1, 9]
        map: |
          ######
          #S...#
          ######
        """,
        4,
        ["target", "off"],
    ),
    "unknown-field": (
        """\
        id: {id}
        name: Bad
        description: extra key
        target: [1, 4]
        colour: red
        map: |
          ######
          #S...#
          ######
        """,
        5,
        ["colour"],
    ),
    "two-starts": (
        """\
        id: {id}
        name: Bad
        description: two S
        target: [1, 4]
        map: |
          ######
          #S..S#
          ######
        """,
        None,
        ["S"],
    ),
    "yaml-syntax": (
        """\
        id: {id}
        name: [Bad
        description: unclosed bracket
        """,
        None,
        [],
    ),
}


@pytest.mark.parametrize("kind", sorted(BAD_MISSIONS))
def test_malformed_mission_file_names_file_and_line(tmp_path, kind):
    text, line, words = BAD_MISSIONS[kind]
    mission_id = kind.replace("-", "_")
    path = tmp_path / f"{mission_id}.yaml"
    path.write_text(textwrap.dedent(text).format(id=mission_id))
    with pytest.raises(ScenarioError) as info:
        make("heroica_v0", mission=str(path))
    message = str(info.value)
    assert path.name in message, f"file not named: {message}"
    assert re.search(r"line \d+", message), f"line not named: {message}"
    if line is not None:
        assert f"line {line}" in message, f"expected line {line}: {message}"
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


# -- step(): bad actions -------------------------------------------------------------------
@pytest.fixture
def env():
    env = make("heroica_v0", mission="fork", num_players=2)
    env.reset(seed=0)
    return env


def test_step_before_reset():
    env = make("heroica_v0")
    with pytest.raises(GameError, match=r"reset\(\)"):
        env.step(0)


def test_render_before_reset():
    env = make("heroica_v0", render_mode="ansi")
    with pytest.raises(GameError, match=r"reset\(\)"):
        env.render()


@pytest.mark.parametrize("action", [-1, 10**6, "size"])
def test_out_of_range_action(env, action):
    n = env.action_space(env.agent_selection).n
    action = n if action == "size" else action
    before = env.game.to_dict(env.game_state)
    with pytest.raises(
        IllegalActionError, match=rf"action {action} is outside the action space 0\.\.{n - 1}"
    ):
        env.step(action)
    assert env.game.to_dict(env.game_state) == before, "a rejected action changed the state"


@pytest.mark.parametrize("action", ["roll", 1.0, True, None, [0], np.float32(3)])
def test_non_int_action(env, action):
    before = env.game.to_dict(env.game_state)
    with pytest.raises(IllegalActionError, match="must be an int") as info:
        env.step(action)
    assert repr(action) in str(info.value)
    assert env.game.to_dict(env.game_state) == before


def test_numpy_int_action_is_accepted(env):
    legal = np.flatnonzero(env.legal_mask())
    env.step(np.int64(legal[0]))


def test_illegal_action_names_it_and_the_legal_ones(env):
    game = env.game
    illegal = int(np.flatnonzero(~game.legal_mask(env.game_state))[0])
    name = game.action_to_string(env.game_state, illegal)
    before = game.to_dict(env.game_state)
    with pytest.raises(IllegalActionError) as info:
        env.step(illegal)
    message = str(info.value)
    assert f"action {illegal} ({name}) is not legal now" in message
    assert env.agent_selection in message
    for legal in env.legal_action_names():
        assert legal in message
    assert game.to_dict(env.game_state) == before


def test_game_apply_rejects_illegal_and_out_of_range(env):
    game, state = env.game, env.game_state
    with pytest.raises(IllegalActionError, match="outside the action space"):
        game.apply(state, game.layout.size)
    with pytest.raises(IllegalActionError, match="must be an int"):
        game.apply(state, "roll")
    illegal = int(np.flatnonzero(~game.legal_mask(state))[0])
    with pytest.raises(IllegalActionError, match=re.escape(game.action_to_string(state, illegal))):
        game.apply(state, illegal)


def test_string_to_action_unknown_name(env):
    with pytest.raises(
        IllegalActionError, match="'fly away' is not a legal action here; legal: .*roll"
    ):
        env.game.string_to_action(env.game_state, "fly away")


# -- after the game is over ----------------------------------------------------------------
def test_game_apply_after_game_over():
    env = _finished_env()
    with pytest.raises(GameOverError, match="game is over"):
        env.game.apply(env.game_state, 0)
    with pytest.raises(GameOverError):
        env.game.apply_string(env.game_state, "roll")


def test_step_with_an_action_after_game_over():
    # A terminated agent may only step(None) (PettingZoo); an action is a GameOverError naming it.
    env = _finished_env()
    assert all(env.terminations.values())
    with pytest.raises(GameOverError, match=r"\b0\b") as info:
        env.step(0)
    assert "over" in str(info.value)


def test_step_after_every_agent_has_left():
    env = _finished_env()
    while env.agents:
        env.step(None)  # PettingZoo: terminated agents step None and leave
    with pytest.raises(GameOverError, match=r"\b0\b"):
        env.step(0)


def test_reset_after_game_over_starts_a_new_game():
    env = _finished_env()
    env.reset(seed=4)
    assert not env.game.is_terminal(env.game_state)
    assert env.agents == env.possible_agents
    env.step(int(np.flatnonzero(env.legal_mask())[0]))


# -- from_dict: bad state dicts --------------------------------------------------------------
def test_from_dict_rejects_unknown_and_missing_keys(env):
    data = env.game.to_dict(env.game_state)
    data["colour"] = "red"
    del data["round"]
    with pytest.raises(ValueError, match=r"unknown keys \['colour'\].*missing keys \['round'\]"):
        env.game.from_dict(data)


# -- make(): option values of the wrong type, for every option that takes one -------------------
# Each of these used to fail deep inside the constructor (unpacking, Path(), arithmetic) with an
# error that named neither the option nor the value.
WRONG_TYPES = [
    # env, option, value, words in the message
    ("heroica_v0", "mission", 42, ["mission id or a path", "42"]),
    ("heroica_v0", "mission", ["tunnel", 42], ["42 in ['tunnel', 42]"]),
    ("heroica_v0", "board_size", "big", ["two positive integers", "'big'"]),
    ("heroica_v0", "board_size", (16,), ["two positive integers", "(16,)"]),
    ("heroica_v0", "board_size", (16.5, 16), ["two positive integers", "16.5"]),
    ("heroica_v0", "heroes", "wizard", ["list of hero ids", "'wizard'"]),
    ("heroica_v0", "heroes", 42, ["list of hero ids", "42"]),
    ("heroica_v0", "pieces", 42, ["path to a pieces file", "42"]),
    ("heroica_v0", "store_gold", True, ["integer >= 0 or None", "True"]),
    ("heroica_v0", "store_gold", -1, ["integer >= 0", "-1"]),
    ("heroica_v0", "max_rounds", True, ["positive integer", "True"]),
    ("heroica_v0", "num_players", True, ["2..3", "True"]),
    ("heroscape_v0", "scenario", 3, ["scenario id or a path", "3"]),
    ("heroscape_v0", "board_size", "big", ["two positive integers", "'big'"]),
    ("heroscape_v0", "board_size", (16.5, 20), ["two positive integers", "16.5"]),
    ("heroscape_v0", "round_cap", True, ["positive integer", "True"]),
    ("heroscape_v0", "hold_rounds", 2.0, ["positive integer or None", "2.0"]),
    ("heroscape_v0", "level_height", float("nan"), ["positive finite number", "nan"]),
    ("heroscape_v0", "figure_radius", float("inf"), ["positive finite number", "inf"]),
    ("heroscape_v0", "victory", 3, ["'eliminate' or 'hold'", "3"]),
    ("heroclix_v0", "scenario", 3, ["scenario id or a path", "3"]),
    ("heroclix_v0", "board_size", "big", ["two positive integers", "'big'"]),
    ("heroclix_v0", "max_rounds", True, ["positive integer", "True"]),
    ("heroclix_v0", "reward", ["win"], ["'win' or 'vp'", "['win']"]),
    ("heroclix_v0", "full_dial_visibility", "yes", ["true or false", "'yes'"]),
    ("heroclix_v0", "support_min_heal", 5, ["support_min_heal", "5"]),
]


@pytest.mark.parametrize(
    "name, option, value, words", WRONG_TYPES, ids=[f"{n}-{o}={v!r}" for n, o, v, _ in WRONG_TYPES]
)
def test_option_of_the_wrong_type_is_named(name, option, value, words):
    with pytest.raises(OptionError, match=rf"^option '{option}': ") as info:
        make(name, **{option: value})
    assert info.value.option == option
    for word in words:
        assert word in str(info.value), f"{word!r} not in {info.value}"


# -- data files that are not there, or are directories ------------------------------------------
DATA_OPTIONS = [
    ("heroica_v0", "mission", "mission"),
    ("heroscape_v0", "scenario", "scenario"),
    ("heroclix_v0", "scenario", "scenario"),
]


@pytest.mark.parametrize("name, option, what", DATA_OPTIONS)
def test_missing_data_file_is_named(tmp_path, name, option, what):
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(ScenarioError, match=rf"{re.escape(str(path))}: no such {what} file"):
        make(name, **{option: str(path)})


@pytest.mark.parametrize("name, option, what", DATA_OPTIONS)
def test_directory_as_data_file_is_named(tmp_path, name, option, what):
    # A path with a separator is a path, not an id; a directory there is no data file.
    with pytest.raises(
        ScenarioError,
        match=rf"{re.escape(str(tmp_path))}: is a directory, not a "
        rf"{what} file",
    ):
        make(name, **{option: str(tmp_path)})


def test_heroica_pieces_directory_is_named(tmp_path):
    with pytest.raises(
        OptionError,
        match=rf"option 'pieces': no pieces file at "
        rf"'{re.escape(str(tmp_path))}'",
    ):
        make("heroica_v0", pieces=str(tmp_path))


# -- data files that are not UTF-8 text, or hold control characters -----------------------------
def _shipped_data_files():
    from envs.heroclix.data.scenarios import SCENARIOS_DIR as CLIX_SCENARIOS
    from envs.heroica.data.mission import MISSIONS_DIR
    from envs.heroica.data.pieces import PIECES_FILE
    from envs.heroscape.data.scenario_file import SCENARIOS_DIR as SCAPE_SCENARIOS

    return [
        ("heroica_v0", "mission", MISSIONS_DIR / "fork.yaml"),
        ("heroica_v0", "pieces", PIECES_FILE),
        ("heroscape_v0", "scenario", SCAPE_SCENARIOS / "skirmish.yaml"),
        ("heroclix_v0", "scenario", CLIX_SCENARIOS / "duel.yaml"),
    ]


BAD_BYTES = {
    "non-utf8": (b"\xff\xfe", "not UTF-8 text"),
    "nul": (b"\x00", "character U+0000"),
    "control": (b"\x07", "character U+0007"),
}


@pytest.mark.parametrize("kind", sorted(BAD_BYTES))
@pytest.mark.parametrize(
    "name, option, source",
    _shipped_data_files(),
    ids=lambda v: v.name if hasattr(v, "name") else str(v),
)
def test_bad_bytes_in_a_data_file_name_the_file_and_line(tmp_path, kind, name, option, source):
    raw = source.read_bytes()
    at = re.search(rb"\n *name:", raw).end()  # inside the first name's value
    line = raw.count(b"\n", 0, at) + 1
    path = tmp_path / source.name  # the same name: the id must match it
    bad, words = BAD_BYTES[kind]
    path.write_bytes(raw[:at] + b" x" + bad + raw[at:])
    with pytest.raises(ScenarioError) as info:
        make(name, **{option: str(path)})
    message = str(info.value)
    assert message.startswith(f"{path}, line {line}: "), message
    assert words in message, message


# -- data files with stats above their declared maxima ------------------------------------------
def _write_pieces(tmp_path, old: str, new: str):
    from envs.heroica.data.pieces import PIECES_FILE

    text = PIECES_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "pieces.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "old, new, field, most",
    [
        ("health: 4", "health: 99999", "health", "MAX_HEALTH"),
        ("strength: 3", "strength: 99999", "monsters.lord.strength", "MAX_HEALTH"),
        ("price: 3", "price: 99999", "weapons.axe.price", "MAX_GOLD"),
        ("range: 4", "range: 99999", "heroes.wizard.skill.range", "MAX_RANGE"),
        ("steps: 4", "steps: 99999", "items.speed_potion.steps", "MAX_STEPS"),
        ("heal: 2", "heal: -1", "items.life_potion.heal", None),
    ],
)
def test_heroica_piece_stat_out_of_range(tmp_path, old, new, field, most):
    from envs.heroica.data import pieces

    path = _write_pieces(tmp_path, old, new)
    where = rf"pieces.yaml, line \d+, field '{re.escape(field)}'"
    with pytest.raises(ScenarioError, match=where) as info:
        make("heroica_v0", pieces=str(path))
    bound = (
        f"less than or equal to {getattr(pieces, most)}" if most else "greater than or equal to 0"
    )
    assert bound in str(info.value)


def _scenario_with_custom_card(tmp_path, stat: str, value: int):
    from envs.heroscape.data.army_cards import CARDS_DIR
    from envs.heroscape.data.scenario_file import SCENARIOS_DIR

    card = (CARDS_DIR / "iron_warden.yaml").read_text(encoding="utf-8")
    card = card.replace("iron_warden", "big_warden")
    lines = [
        ln if not ln.startswith(f"{stat}:") else f"{stat}: {value}" for ln in card.splitlines()
    ]
    if not any(ln.startswith(f"{stat}:") for ln in card.splitlines()):
        lines.append(f"{stat}: {value}")
    scenario = (SCENARIOS_DIR / "skirmish.yaml").read_text(encoding="utf-8")
    scenario = scenario.replace("id: skirmish", "id: big").replace("iron_warden", "big_warden")
    scenario += "cards:\n  - " + "\n    ".join(lines) + "\n"
    path = tmp_path / "big.yaml"
    path.write_text(scenario, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "stat, most",
    [
        ("move", "MAX_STAT"),
        ("range", "MAX_STAT"),
        ("attack", "MAX_STAT"),
        ("defense", "MAX_STAT"),
        ("height", "MAX_HEIGHT"),
    ],
)
def test_heroscape_card_stat_above_its_maximum(tmp_path, stat, most):
    # move: 99999 used to be an OverflowError (int16) inside make
    from envs.heroscape.data import army_cards

    path = _scenario_with_custom_card(tmp_path, stat, 99999)
    with pytest.raises(
        ScenarioError,
        match=rf"big.yaml, line \d+, field 'cards.0.{stat}': Input "
        rf"should be less than or equal to "
        rf"{getattr(army_cards, most)} \(got 99999\)",
    ):
        make("heroscape_v0", scenario=str(path))


def _scenario_with_figure_file(tmp_path, old: str, new: str):
    from envs.heroclix.data.figures import FIGURES_DIR
    from envs.heroclix.data.scenarios import SCENARIOS_DIR

    figure = (FIGURES_DIR / "street_thug.yaml").read_text(encoding="utf-8")
    assert old in figure
    (tmp_path / "street_thug.yaml").write_text(figure.replace(old, new, 1), encoding="utf-8")
    scenario = (SCENARIOS_DIR / "duel.yaml").read_text(encoding="utf-8")
    path = tmp_path / "duel.yaml"
    path.write_text(
        scenario.replace("figure: street_thug", "figure: ./street_thug.yaml"), encoding="utf-8"
    )
    return path


def test_heroclix_figure_points_above_the_maximum(tmp_path):
    from envs.heroclix.data.figures import MAX_POINTS

    path = _scenario_with_figure_file(tmp_path, "points: 15", "points: 99999")
    with pytest.raises(
        ScenarioError,
        match=rf"street_thug.yaml, line 5, field 'points': Input "
        rf"should be less than or equal to {MAX_POINTS}",
    ):
        make("heroclix_v0", scenario=str(path))


def test_heroclix_dial_longer_than_the_maximum(tmp_path):
    from envs.heroclix.data.figures import MAX_CLICKS

    click = "  - {values: [4, 8, 14, 1]}\n"
    path = _scenario_with_figure_file(tmp_path, "  - KO", click * (MAX_CLICKS + 1) + "  - KO")
    with pytest.raises(
        ScenarioError,
        match=rf"street_thug.yaml, line \d+, field 'dial': the dial "
        rf"has \d+ entries; a dial has at most {MAX_CLICKS} "
        "clicks before KO",
    ):
        make("heroclix_v0", scenario=str(path))


def test_heroclix_dial_value_above_its_range(tmp_path):
    path = _scenario_with_figure_file(tmp_path, "values: [6, 8,", "values: [99, 8,")
    with pytest.raises(
        ScenarioError, match=r"field 'dial.0.values.0': speed 99 is out of range 0..20"
    ):
        make("heroclix_v0", scenario=str(path))
