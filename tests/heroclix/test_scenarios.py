"""HeroClix scenario files and env options: the shipped scenarios load, and every bad input
is an error naming the file, line and field (scenario) or the option (make)."""

from __future__ import annotations

import textwrap

import pytest

from envs import make
from envs.core.game import IllegalActionError, OptionError
from envs.core.scenario import ScenarioError
from envs.heroclix.data.scenarios import load_scenario, scenario_from_text, scenario_ids

DUEL = """\
id: test
name: Test
map: small
build_total: 100
players:
  - edge: S
    force:
      - {figure: quarry, at: [15, 6]}
      - {figure: street_thug, at: [15, 9]}
  - edge: N
    force:
      - {figure: razorback, at: [0, 6]}
objects:
  - {object: table, at: [5, 2]}
"""


def load(text: str):
    return scenario_from_text(textwrap.dedent(text), "test.yaml")


def error(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load(text)
    return info.value


def test_shipped_scenarios_load_with_their_promises():
    assert scenario_ids() == ["brawl", "duel", "mall", "street"]
    duel = load_scenario("duel")
    assert duel.map.id == "small" and duel.build_total == 100 and len(duel.players) == 2
    assert len(duel.objects) == 6
    assert {load_scenario(s).build_total for s in ("mall", "street")} == {200}
    assert len(load_scenario("brawl").players) == 4


def test_HC_2_3_a_force_over_the_build_total_is_named():
    err = error(
        DUEL.replace("build_total: 100", "build_total: 100\n").replace(
            "- {figure: street_thug, at: [15, 9]}", "- {figure: mender, at: [15, 9]}"
        )
    )
    assert "HC-2.3" in str(err) and err.source == "test.yaml"


def test_HC_2_4_two_unique_figures_on_one_force():
    text = DUEL.replace("build_total: 100", "build_total: 200").replace(
        "- {figure: quarry, at: [15, 6]}\n      - {figure: street_thug, at: [15, 9]}",
        "- {figure: mindwarden, at: [15, 6]}\n      - {figure: mindwarden, at: [15, 9]}",
    )
    err = error(text)
    assert "HC-2.4" in str(err) and err.field == "players.0.force.1.figure" and err.line == 9


def test_HC_3_11_archenemies_on_one_force():
    text = (
        DUEL.replace("build_total: 100", "build_total: 200")
        .replace("- {figure: street_thug, at: [15, 9]}", "- {figure: skylash, at: [15, 9]}")
        .replace("- {figure: quarry, at: [15, 6]}", "- {figure: razorback, at: [15, 6]}")
    )
    err = error(text)
    assert "HC-3.11" in str(err) and err.line == 9


def test_HC_2_10_placement_outside_the_starting_area():
    err = error(DUEL.replace("at: [15, 9]", "at: [10, 9]"))
    assert "starting area" in str(err) and err.field == "players.0.force.1.at" and err.line == 9


def test_two_figures_on_one_square():
    err = error(DUEL.replace("at: [15, 9]", "at: [15, 6]"))
    assert "already holds" in str(err) and err.line == 9


def test_HC_1_12_only_flyers_soar():
    err = error(
        DUEL.replace(
            "{figure: razorback, at: [0, 6]}", "{figure: razorback, at: [0, 6], mode: soar}"
        )
    )
    assert "not a flyer" in str(err) and err.field == "players.1.force.0.mode"


def test_HC_2_7_objects_on_clear_empty_squares_outside_starting_areas():
    assert "hindering" in str(error(DUEL.replace("at: [5, 2]", "at: [3, 4]")))
    assert "starting area" in str(error(DUEL.replace("at: [5, 2]", "at: [15, 4]")))
    err = error(DUEL + "  - {object: table, at: [6, 2]}\n")
    assert "one of each" in str(err) and err.field == "objects.1.object"


def test_unknown_figure_map_and_keys_are_named():
    err = error(DUEL.replace("figure: quarry", "figure: quary"))
    assert "quary" in str(err) and err.field == "players.0.force.0.figure" and err.line == 8
    assert "map" in str(error(DUEL.replace("map: small", "map: smal"))).lower()
    err = error(DUEL.replace("build_total: 100", "build_total: 100\ncolour: red"))
    assert "colour" in str(err)
    err = error(DUEL.replace("edge: N", "edge: S"))
    assert "already player 0" in str(err) and err.field == "players.1.edge"


def test_inline_figure_with_an_unknown_power_is_named():
    text = DUEL + textwrap.dedent("""\
        figures:
          - id: brute
            name: Brute
            points: 20
            range: 0
            targets: 1
            dial:
              - {values: [6, 8, 15, 2], powers: [~, ~, toughnes, ~]}
              - KO
        """)
    err = error(text)
    assert "toughnes" in str(err) and "toughness" in str(err)
    assert err.field.startswith("figures.0.dial.0")


def test_inline_figure_is_usable_in_a_force():
    text = DUEL.replace(
        "{figure: razorback, at: [0, 6]}", "{figure: brute, at: [0, 6]}"
    ) + textwrap.dedent("""\
        figures:
          - id: brute
            name: Brute
            points: 20
            range: 0
            targets: 1
            dial:
              - {values: [6, 8, 15, 2], powers: [~, ~, toughness, ~]}
              - KO
        """)
    scenario = load(text)
    assert scenario.players[1].force[0].figure.name == "Brute"


@pytest.mark.parametrize(
    "option, value, words",
    [
        ("scenario", "nowhere", ["unknown scenario id 'nowhere'", "duel"]),
        ("board_size", (8, 8), ["larger than"]),
        ("board_size", (24,), ["two positive integers"]),
        ("max_rounds", 0, ["positive integer"]),
        ("reward", "points", ["win", "vp"]),
        ("full_dial_visibility", "yes", ["true or false"]),
    ],
)
def test_bad_option_values_are_named(option, value, words):
    with pytest.raises((OptionError, ScenarioError)) as info:
        make("heroclix_v0", **{option: value})
    for word in words:
        assert word in str(info.value)


def test_an_illegal_action_names_the_legal_ones():
    env = make("heroclix_v0")
    env.reset(seed=0)
    move = env.game.layout.plane_action("move", 0)
    with pytest.raises(IllegalActionError, match="not legal now") as info:
        env.step(move)
    assert "end turn" in str(info.value)
