"""The balance tournament's forces and games (envs.heroclix.bots.balance; envs/heroclix/RULES.md (F)
suggested 100-point forces, HC-2.3 build total)."""

from __future__ import annotations

import pytest

from envs.heroclix.bots.balance import FORCES, pairs, play_pair, points, scenario_text
from envs.heroclix.data.scenarios import SCENARIOS_DIR, scenario_from_text
from envs.heroclix.rules import HeroclixGame


def test_HC_2_3_every_balance_force_is_legal_within_100_points():
    for name, force in FORCES.items():
        game = HeroclixGame(scenario_from_text(scenario_text(force, force), base=SCENARIOS_DIR))
        assert points(force) <= 100, name
        assert game.force_points(game.new_state(0), 0) == points(force)
    assert len(pairs()) == len(FORCES) * (len(FORCES) - 1) // 2


def test_balance_pair_swaps_seats_and_counts_every_game():
    result = play_pair("quarry+thug", "mender+shift+thug", games=2, seed=3)
    assert result.wins + result.draws + result.losses == 2
    assert 0.0 <= result.ci_low <= result.win_rate <= result.ci_high <= 1.0
    assert (result.points_a, result.points_b) == (85, 100)


def test_balance_takes_any_player_in_both_seats_and_names_a_bad_one(capsys):
    from envs.heroclix.bots.balance import main

    result = play_pair("quarry+thug", "mender+shift+thug", games=2, seed=3, agent="random")
    assert result.wins + result.draws + result.losses == 2
    with pytest.raises(SystemExit) as stopped:
        main(["--games", "1", "--pairs", "0", "--agent", "grandmaster"])
    assert stopped.value.code == 2
    assert "--agent 'grandmaster' is an unknown bot" in capsys.readouterr().err


def test_HC_7_7_a_price_is_the_figures_points_for_the_force_and_its_victory_points():
    from envs.heroclix.bots.balance import FORCES, repriced
    from envs.heroclix.phases.endings import final_scores

    scenario = scenario_from_text(
        scenario_text(FORCES["mender+shift+thug"], FORCES["skylash+mender"]), base=SCENARIOS_DIR
    )
    game = HeroclixGame(repriced(scenario, {"shift": 40, "skylash": 60}))
    state = game.new_state(0)
    assert [game.force_points(state, seat) for seat in (0, 1)] == [90, 95]
    assert final_scores(game, state) == [90.0, 95.0]  # every figure standing scores its price
    result = play_pair("mender+shift+thug", "skylash+mender", games=2, seed=3, prices={"shift": 40})
    assert (result.points_a, result.points_b) == (90, 100)


def test_HC_2_3_a_price_that_takes_a_force_over_the_build_total_is_refused(capsys):
    from envs.heroclix.bots.balance import main

    with pytest.raises(SystemExit) as stopped:
        main(["--games", "1", "--pairs", "2", "--price", "skylash=70"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "razorback+gloam vs skylash+mender" in error and "HC-2.3" in error
    assert "105 points" in error


@pytest.mark.parametrize(
    ("price", "says"),
    [
        ("shift", "expected FIGURE=POINTS"),
        ("nobody=30", "expected FIGURE=POINTS with FIGURE one of"),
        ("shift=forty", "'forty' is not a whole number"),
        ("shift=0", "POINTS must be 1..1000, got 0"),
        ("shift=40 --price shift=35", "'shift=35': shift is already priced at 40"),
    ],
)
def test_balance_price_names_what_is_wrong(capsys, price, says):
    from envs.heroclix.bots.balance import main

    with pytest.raises(SystemExit) as stopped:
        main(["--games", "1", "--pairs", "0", "--price", *price.split(" ")])
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err


def test_balance_verdict_weighs_equal_points_pairs_against_the_fair_range():
    from envs.heroclix.bots.balance import PairResult, verdict

    def row(a, b, points_a, points_b, wins):
        return PairResult(a, b, points_a, points_b, 100, wins, 0, 100 - wins, wins / 100, 0, 1)

    lines = verdict(
        [
            row("x", "y", 100, 100, 18),
            row("x", "z", 100, 100, 50),
            row("y", "z", 90, 85, 70),  # more points, more wins
            row("z", "w", 85, 100, 62),  # fewer points, more wins
        ]
    )
    assert lines == [
        "equal points (100): x vs y at 0.180, outside 0.35-0.65",
        "equal points (100): x vs z at 0.500, inside 0.35-0.65",
        "more points won more than half the games in 1 of 2 pairs of unequal points",
    ]


def test_HC_2_3_a_force_of_figures_plays_its_own_table_with_every_figure_on_the_map(capsys):
    from envs.heroclix.bots.balance import main, parse_force

    # a cheaper Shift leaves room for a second Street Thug: four figures, all of them placed
    force = parse_force("mender+shift+thug+thug")
    assert force == ("mender", "shift", "street_thug", "street_thug")
    result = play_pair("quarry+thug", "mender+shift+thug+thug", 2, seed=3, prices={"shift": 35})
    assert (result.points_a, result.points_b) == (85, 100)
    code = main(
        [
            "--games", "1", "--agent", "random", "--price", "shift=35",
            "--forces", "quarry+thug", "mender+shift+thug+thug", "skylash+mender",
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "quarry+thug (85) vs mender+shift+thug+thug (100): " in out
    assert "mender+shift+thug+thug (100) vs skylash+mender (100): " in out
    assert "equal points (100): mender+shift+thug+thug vs skylash+mender at " in out
    assert len(out.strip().splitlines()) == 3 + 2  # three pairs, then the verdict's two lines


@pytest.mark.parametrize(
    ("forces", "says"),
    [
        (["quarry+hulk", "skylash+mender"], "force 'quarry+hulk': 'hulk' is not a figure"),
        (
            ["thug+thug+thug+thug+thug", "quarry+thug"],
            "5 figures; the table's map starts at most 4",
        ),
        (["quarry+thug", "quarry+thug"], "a force is named twice"),
        (["quarry+thug"], "a table needs two forces or more"),
    ],
)
def test_balance_forces_name_what_is_wrong(capsys, forces, says):
    from envs.heroclix.bots.balance import main

    with pytest.raises(SystemExit) as stopped:
        main(["--games", "1", "--forces", *forces])
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err
