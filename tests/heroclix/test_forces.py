"""Building a HeroClix force (envs/heroclix/RULES.md HC-2.2-2.4, HC-3.2, HC-3.10-3.11)."""

from __future__ import annotations

import textwrap

import pytest

from envs.core.scenario import ScenarioError, load_yaml
from envs.heroclix.data.figures import load_figure, load_figure_text
from envs.heroclix.data.forces import (
    Force,
    ForceError,
    actions_per_turn,
    check_build_total,
    check_force,
    force_problems,
)


def fig(
    fid: str,
    points: int,
    *,
    name: str | None = None,
    unique: bool = False,
    colour: str | None = None,
):
    """A one-click figure with the given points, uniqueness and archenemy colour."""
    return load_figure_text(
        textwrap.dedent(f"""\
        id: {fid}
        name: {name or fid.title()}
        points: {points}
        range: 0
        targets: 1
        unique: {str(unique).lower()}
        archenemy_color: {colour or "null"}
        dial:
          - {{values: [6, 8, 15, 1]}}
          - KO
    """)
    )


def shipped(*ids: str):
    return [load_figure(i) for i in ids]


# -- HC-2.2 build total, HC-3.2 actions --------------------------------------------------------


@pytest.mark.parametrize("total", [100, 200, 300, 1000])
def test_HC_2_2_build_totals_in_steps_of_100_are_accepted(total):
    assert check_build_total(total) == total
    assert check_force(shipped("street_thug"), total).build_total == total


@pytest.mark.parametrize("total", [0, -100, 50, 150, 99, 101, True, 100.0, "100", None])
def test_HC_2_2_build_total_must_be_a_positive_multiple_of_100(total):
    with pytest.raises(ForceError) as info:
        check_force(shipped("street_thug"), total)
    assert info.value.rule == "HC-2.2"
    assert str(info.value).startswith(
        "HC-2.2: the build total must be a positive whole "
        f"multiple of 100 (100, 200, 300, ...); got {total!r}"
    )


@pytest.mark.parametrize("total, actions", [(100, 1), (200, 2), (300, 3), (1000, 10)])
def test_HC_3_2_one_action_per_100_points_of_the_build_total(total, actions):
    assert actions_per_turn(total) == actions
    force = check_force(shipped("street_thug"), total)
    assert force.actions_per_turn == actions  # the agreed total, not the 15 points spent


@pytest.mark.parametrize("total", [0, 250, -100])
def test_HC_3_2_actions_need_a_legal_build_total(total):
    with pytest.raises(ForceError, match="HC-2.2"):
        actions_per_turn(total)


# -- HC-2.3 points ---------------------------------------------------------------------------


def test_HC_2_3_points_total_over_the_build_total_by_one_is_rejected():
    force = [fig("alpha", 60), fig("beta", 41)]
    with pytest.raises(ForceError) as info:
        check_force(force, 100)
    assert str(info.value) == (
        "HC-2.3: the figures cost 101 points (60 alpha + 41 beta), 1 over the build total of 100"
    )


def test_HC_2_3_points_total_equal_to_the_build_total_is_accepted():
    force = check_force(shipped("mender", "shift", "street_thug"), 100)
    assert isinstance(force, Force) and force.points == 100
    assert [f.id for f in force.figures] == ["mender", "shift", "street_thug"]


def test_HC_2_3_copies_of_a_figure_that_is_not_unique_are_allowed():
    force = check_force(shipped(*["street_thug"] * 6), 100)
    assert force.points == 90


def test_HC_2_3_a_force_needs_a_figure():
    with pytest.raises(ForceError, match="HC-2.3: the force has no figures"):
        check_force([], 100)


@pytest.mark.parametrize(
    "ids",
    [
        ("razorback", "gloam"),
        ("mender", "shift", "street_thug"),
        ("quarry", "street_thug"),
        ("skylash", "mender"),
        ("elastic", "razorback"),
    ],
)
def test_HC_2_3_the_spec_100_point_forces_are_legal(ids):
    # envs/heroclix/RULES.md (F), "100-point forces that fit".
    assert check_force(shipped(*ids), 100).points <= 100


# -- HC-2.4 unique -----------------------------------------------------------------------------


def test_HC_2_4_unique_figure_twice_is_rejected():
    force = shipped("bulwark_captain", "street_thug", "bulwark_captain")
    with pytest.raises(ForceError) as info:
        check_force(force, 200)
    assert info.value.rule == "HC-2.4"
    assert str(info.value) == (
        "HC-2.4: unique figure 'Bulwark Captain' (bulwark_captain) is in "
        "the force 2 times (entries 0, 2); a unique figure may be taken "
        "once per force"
    )
    assert info.value.problems[0].entries == (0, 2)


def test_HC_2_4_different_unique_figures_may_share_a_force():
    assert check_force(shipped("bulwark_captain", "mindwarden"), 200).points == 135


def test_HC_2_4_a_unique_figure_once_is_fine():
    assert check_force(shipped("mindwarden"), 100).points == 80


# -- HC-3.10 / HC-3.11 archenemies -------------------------------------------------------------


@pytest.mark.parametrize(
    "ids, colour",
    [(("bulwark_captain", "overlord"), "violet"), (("razorback", "skylash"), "crimson")],
)
def test_HC_3_11_archenemies_may_not_be_on_the_same_force(ids, colour):
    with pytest.raises(ForceError) as info:
        check_force(shipped(*ids), 200)
    a, b = shipped(*ids)
    assert info.value.rule == "HC-3.11"
    assert str(info.value) == (
        f"HC-3.11: '{a.name}' ({a.id}, entry 0) and '{b.name}' ({b.id}, "
        f"entry 1) are archenemies (both '{colour}', HC-3.10) and may not "
        f"be on the same force"
    )


def test_HC_3_11_figures_that_merely_have_archenemies_may_team_up():
    # Bulwark Captain (violet) and Razorback (crimson) each have an archenemy, not each other.
    assert check_force(shipped("bulwark_captain", "razorback"), 200).points == 105


def test_HC_3_10_same_name_figures_are_not_archenemies_so_may_share_a_force():
    force = [
        fig("rook_a", 30, name="Rook", colour="teal"),
        fig("rook_b", 35, name="Rook", colour="teal"),
    ]
    assert check_force(force, 100).points == 65
    force.append(fig("bishop", 20, name="Bishop", colour="teal"))
    with pytest.raises(ForceError, match="HC-3.11"):
        check_force(force, 100)


def test_each_pair_of_archenemy_entries_is_one_problem():
    villain = fig("villain", 10, colour="red")
    problems = force_problems([villain, fig("hero", 10, colour="red"), villain], 100)
    assert [(p.rule, p.entries) for p in problems] == [("HC-3.11", (0, 1)), ("HC-3.11", (1, 2))]


# -- reporting ---------------------------------------------------------------------------------


def test_force_error_is_a_value_error_listing_every_problem():
    force = shipped("overlord", "overlord", "bulwark_captain")
    with pytest.raises(ValueError) as info:
        check_force(force, 200)
    err = info.value
    assert isinstance(err, ForceError) and not isinstance(err, ScenarioError)
    assert [p.rule for p in err.problems] == ["HC-2.3", "HC-2.4", "HC-3.11", "HC-3.11"]
    assert str(err).splitlines()[0].startswith("HC-2.3: the figures cost 235 points")
    assert len(str(err).splitlines()) == 4


def test_a_legal_force_has_no_problems():
    assert force_problems(shipped("razorback", "gloam"), 100) == []


SCENARIO = textwrap.dedent("""\
    players:
      - build_total: 200
        force:
          - bulwark_captain
          - razorback
          - bulwark_captain
          - overlord
""")


def _check_scenario(text, **kwargs):
    data, lines = load_yaml(text, source="duel.yaml")
    player = data["players"][0]
    force = shipped(*player["force"])
    paths = [("players", 0, "force", i) for i in range(len(force))]
    return check_force(
        force,
        player["build_total"],
        lines=lines,
        at=("players", 0, "force"),
        build_total_at=("players", 0, "build_total"),
        figure_paths=paths,
        **kwargs,
    )


def test_scenario_force_errors_name_file_line_and_field():
    with pytest.raises(ScenarioError) as info:
        _check_scenario(SCENARIO)
    err = info.value
    # First: over the build total (55+50+55+90 = 250), reported at the force.
    assert (err.source, err.line, err.field) == ("duel.yaml", 3, "players.0.force")
    assert str(err).startswith(
        "duel.yaml, line 3, field 'players.0.force': HC-2.3: the figures cost 250 points"
    )
    located = [(o.line, o.field, o.message.split(":")[0]) for o in err.others]
    assert located == [
        (6, "players.0.force.2", "HC-2.4"),  # the second copy
        (7, "players.0.force.3", "HC-3.11"),  # overlord vs entry 0
        (7, "players.0.force.3", "HC-3.11"),
    ]  # overlord vs entry 2
    assert isinstance(err.__cause__, ForceError)


def test_scenario_build_total_error_points_at_the_build_total():
    with pytest.raises(ScenarioError) as info:
        _check_scenario(SCENARIO.replace("build_total: 200", "build_total: 250"))
    err = info.value
    assert (err.line, err.field) == (2, "players.0.build_total")
    assert err.message.startswith("HC-2.2: the build total must be")


def test_scenario_legal_force_passes():
    text = SCENARIO.replace("  - bulwark_captain\n      - overlord\n", "  - mender\n")
    assert text != SCENARIO
    assert _check_scenario(text).points == 140


def test_source_without_line_map_gives_file_and_field():
    with pytest.raises(ScenarioError) as info:
        check_force(
            shipped("razorback", "skylash"), 200, source="inline.yaml", at="players.1.force"
        )
    err = info.value
    assert (err.source, err.line, err.field) == ("inline.yaml", None, "players.1.force")
    assert str(err).startswith("inline.yaml, field 'players.1.force': HC-3.11: ")


def test_figure_paths_must_match_the_figures():
    with pytest.raises(ValueError, match="figure_paths has 1 paths for 2 figures"):
        check_force(shipped("razorback", "gloam"), 100, source="x.yaml", figure_paths=["a"])
