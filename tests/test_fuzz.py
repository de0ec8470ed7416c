"""The fuzz (``python -m envs.fuzz``): every shipped configuration passes; envs broken on
purpose are caught, each failure with a command that replays it; bad input exits 2; the games
played do not depend on the number of workers."""

from __future__ import annotations

import itertools
import shlex

import numpy as np
import pytest
from pettingzoo.utils.wrappers import BaseWrapper

import envs
from envs.core.game import IllegalActionError
from envs.fuzz import CONFIGURATIONS, format_options, fuzz, main, parse_options

MIRROR = {"scenario": "mirror"}  # the shortest games of any configuration
MIRROR_ONLY = {"heroscape_v0": lambda: [MIRROR]}


@pytest.mark.slow
def test_a_short_pass_over_every_configuration_of_every_env_finds_nothing():
    # A game or two per configuration (the envs with fewer configurations play theirs twice):
    # the long runs are the fuzz's own job, not the suite's.
    games = max(len(configurations()) for configurations in CONFIGURATIONS.values())
    report = fuzz(games=games, seed=0, workers=2)
    assert report.failures == [], report.format()
    assert set(report.playable) == set(envs.env_names())
    for name, configurations in report.playable.items():
        assert configurations == CONFIGURATIONS[name]() and not report.skipped
        played = [(game.options, game.seed) for game in report.games if game.env == name]
        assert all((options, 0) in played for options in configurations)
    assert all(game.steps > 0 and game.digest for game in report.games)


# -- envs broken on purpose: each flaw must be reported, with a reproducer -------------------
class Broken(BaseWrapper):
    """A real env with one flaw; ``seed`` is the seed of the game being played."""

    def reset(self, seed=None, options=None):
        self.seed = seed
        super().reset(seed=seed, options=options)

    def is_illegal(self, action) -> bool:
        mask = self.env.action_mask(self.agent_selection)
        return action is not None and not (0 <= action < mask.size and mask[action])


class ObservationLeavesItsSpace(Broken):
    """Odd seeds only, from the second player turn on: a reproducer must pick the same game."""

    def observe(self, agent):
        obs = self.env.observe(agent)
        if self.seed % 2 and self.env.game.turn_number(self.env.game_state) >= 2:
            obs = dict(obs, observation=obs["observation"] + 1.5)
        return obs


class IndexErrorOnIllegalActions(Broken):
    def step(self, action):
        if self.is_illegal(action):
            raise IndexError(f"action {action} out of range")
        super().step(action)


class OutOfRangeActionsRaiseIndexError(Broken):
    """Only the occasional action outside the space (n or -1) finds this one."""

    def step(self, action):
        if action is not None and not 0 <= action < self.action_space(self.agent_selection).n:
            raise IndexError(f"index {action} is out of bounds")
        super().step(action)


class IllegalActionsChangeTheState(Broken):
    def step(self, action):
        if self.is_illegal(action):
            super().step(int(np.flatnonzero(self.env.action_mask(self.agent_selection))[0]))
            raise IllegalActionError(f"action {action} is not legal")
        super().step(action)


class OthersMayAct(Broken):
    def action_mask(self, agent):
        return np.ones_like(self.env.action_mask(agent))


class SeedIgnored(Broken):
    resets = itertools.count(1)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed + next(self.resets), options=options)


class GameProxy:
    def __init__(self, game):
        self.inner = game

    def __getattr__(self, name):
        return getattr(self.inner, name)


class OtherPositionFromJson(GameProxy):
    def from_json(self, text):
        return self.inner.new_state(12345)


class BlankObservationFromJson(GameProxy):
    """The env observes through its own game; only the copies from_json makes reach this one."""

    def observe(self, state, seat):
        return np.zeros_like(self.inner.observe(state, seat))


class RoundTripLosesThePosition(Broken):
    @property
    def game(self):
        return OtherPositionFromJson(self.env.game)


class RoundTripLosesTheObservation(Broken):
    @property
    def game(self):
        return BlankObservationFromJson(self.env.game)


def broken(wrapper):
    return lambda name, **options: wrapper(envs.make(name, **options))


@pytest.mark.parametrize(
    "wrapper, check, says",
    [
        (ObservationLeavesItsSpace, "observation", "is not in Dict("),
        (IndexErrorOnIllegalActions, "illegal action", "IndexError: action"),
        (OutOfRangeActionsRaiseIndexError, "illegal action", "IndexError: index"),
        (IllegalActionsChangeTheState, "illegal action", "changed the state"),
        (OthersMayAct, "mask", "is not deciding but its mask is not all zeros"),
        (SeedIgnored, "replay", "the replay plays"),
        (RoundTripLosesThePosition, "round trip", "from_json(to_json) changes"),
        (RoundTripLosesTheObservation, "round trip", "from_json(to_json) changes seat"),
    ],
)
def test_the_fuzz_reports_a_broken_env_with_a_reproducer(wrapper, check, says):
    report = fuzz(
        ["heroscape_v0"], games=2, seed=1, make_env=broken(wrapper), configurations=MIRROR_ONLY
    )
    failures = report.failures
    assert all(f.check == check and says in f.message for f in failures), report.format()
    # one failure per game, and the fuzz goes on with the next game (the first flaw: odd seeds)
    assert [f.seed for f in failures] == ([1] if wrapper is ObservationLeavesItsSpace else [1, 2])
    for failure in failures:
        assert failure.reproducer() == (
            "python -m envs.fuzz --env heroscape_v0 --options "
            f"scenario=mirror --seed {failure.seed} --games 1"
        )
        assert str(failure) in report.format() and failure.reproducer() in report.format()
    if wrapper is IndexErrorOnIllegalActions:  # the innermost frame: where the error was raised
        assert all("test_fuzz.py:" in f.message for f in failures)


def test_the_reproducer_replays_exactly_the_failing_game(capsys):
    make_env = broken(ObservationLeavesItsSpace)
    report = fuzz(["heroscape_v0"], games=4, seed=0, make_env=make_env, configurations=MIRROR_ONLY)
    assert [f.seed for f in report.failures] == [1, 3]  # the odd seeds only
    failure = report.failures[1]
    argv = shlex.split(failure.reproducer())
    assert argv[:3] == ["python", "-m", "envs.fuzz"]
    assert main(argv[3:], make_env=make_env) == 1
    out = capsys.readouterr().out
    assert f"  {failure}\n" in out and "1 failure:" in out  # the same step, the same message
    assert (
        main([*argv[3:-4], "--seed", "2", "--games", "1"], make_env=make_env) == 0
    )  # seed matters
    capsys.readouterr()
    assert "... and 1 more" in report.format(max_failures=1)


def test_an_env_that_cannot_be_made_is_a_failure_and_the_others_still_play():
    def make_env(name, **options):
        if options["scenario"] == "skirmish":
            raise RuntimeError("no battlefield")
        return envs.make(name, **options)

    table = {"heroscape_v0": lambda: [MIRROR, {"scenario": "skirmish"}]}
    report = fuzz(["heroscape_v0"], games=2, make_env=make_env, configurations=table)
    assert [(g.options, g.seed, g.check) for g in report.games] == [
        (MIRROR, 0, ""),
        (MIRROR, 1, ""),
    ]
    [failure] = report.failures
    assert failure.check == "make" and failure.message.startswith("RuntimeError: no battlefield")
    assert "--options scenario=skirmish" in failure.reproducer()


def test_the_same_games_whatever_the_number_of_workers():
    table = {"heroscape_v0": lambda: [MIRROR, {"scenario": "skirmish"}]}
    played = [
        [
            (g.options["scenario"], g.seed, g.steps, g.digest)
            for g in fuzz(
                ["heroscape_v0"], games=4, seed=5, workers=workers, configurations=table
            ).games
        ]
        for workers in (1, 2)
    ]
    assert played[0] == played[1]
    assert [p[:2] for p in played[0]] == [
        ("mirror", 5),
        ("skirmish", 5),
        ("mirror", 6),
        ("skirmish", 6),
    ]
    assert len({p[3] for p in played[0]}) == 4  # the digests tell games apart


def test_seconds_stops_starting_games_and_the_report_says_what_was_played(capsys):
    report = fuzz(["heroscape_v0"], games=10_000, seconds=0.5, options=MIRROR)
    assert 0 < len(report.games) < 10_000 and report.failures == []
    assert main(["--env", "heroscape_v0", "--options", "scenario=mirror", "--games", "2"]) == 0
    header, row, total = capsys.readouterr().out.splitlines()
    assert header.split() == ["env", "configs", "games", "steps", "failures", "seconds", "games/s"]
    name, configs, games, steps, failures, seconds, rate = row.split()
    assert (name, configs, games, failures) == ("heroscape_v0", "1", "2", "0") and int(steps) > 2
    assert float(rate) > 0 and total.startswith("total") and "wall time, 1 worker" in total


def test_seconds_already_spent_still_plays_each_envs_first_game_and_no_other():
    tables = {"heroscape_v0": lambda: [MIRROR], "heroica_v0": lambda: [{"mission": "tunnel"}]}
    for workers in (1, 2):
        report = fuzz(list(tables), games=50, seconds=1e-9, workers=workers, configurations=tables)
        assert sorted(game.env for game in report.games) == ["heroica_v0", "heroscape_v0"]
        assert report.failures == []


def test_list_shows_every_configuration_and_the_refused_ones_with_the_reason(capsys):
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    for name, configurations in CONFIGURATIONS.items():
        assert name in out.splitlines()
        for options in configurations():
            assert f"  {format_options(options)}\n" in out
    assert "  'mission=[tunnel,arena]' num_players=2\n" in out
    table = {"heroica_v0": lambda: [{"mission": "tunnel"}, {"num_players": 9}]}
    assert main(["--list"], configurations=table) == 0
    out = capsys.readouterr().out
    assert (
        "heroica_v0\n  mission=tunnel\n" in out
        and "skipped heroica_v0 num_players=9: option 'num_players'" in out
    )
    report = fuzz(["heroica_v0"], games=1, seed=0, configurations=table)
    assert len(report.games) == 1 and report.skipped[0][1] == {"num_players": 9}
    assert "skipped heroica_v0 num_players=9: option 'num_players'" in report.format()


@pytest.mark.parametrize(
    "argv, says",
    [
        (
            ["--env", "chess_v6"],
            "unknown env 'chess_v6'; known envs: heroclix_v0, heroica_v0, heroscape_v0",
        ),
        (
            ["--env", "heroica_v0", "--options", "bogus=1"],
            "option 'bogus': unknown option for heroica_v0",
        ),
        (["--options", "mission=fork"], "--options needs exactly one --env, got 3"),
        (
            ["--env", "heroica_v0,heroscape_v0", "--options", "mission=fork"],
            "exactly one --env, got 2",
        ),
        (["--env", "heroica_v0", "--options", "mission"], "KEY=VALUE"),
        (["--games", "0"], "--games and --workers must be >= 1"),
        (["--env", "heroica_v0", "--options", "num_players=7", "--list"], "option 'num_players'"),
    ],
)
def test_bad_input_exits_2_with_a_message(capsys, argv, says):
    assert main(argv) == 2
    assert says in capsys.readouterr().err


def test_options_read_back_as_written():
    for configurations in CONFIGURATIONS.values():
        for options in configurations():
            assert parse_options(shlex.split(format_options(options))) == options
    assert parse_options(["mission=[tunnel,arena]", "battle=true", "num_players=3"]) == {
        "mission": ["tunnel", "arena"],
        "battle": True,
        "num_players": 3,
    }
    assert parse_options(shlex.split(format_options({"scenario": "a b", "x": "true"}))) == {
        "scenario": "a b",
        "x": "true",
    }
