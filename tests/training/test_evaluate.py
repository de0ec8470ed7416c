"""Tournaments (training.evaluate): fair seating, counts, ratings, reproducibility, files, errors."""

from __future__ import annotations

import csv
import itertools
import json
import math

import numpy as np
import pytest

from envs.bots import wilson_interval
from training.evaluate import Tournament, load_eval_csv, main, run_tournament


# -- a toy game: each player picks 0 or 1 in turn, the higher pick wins, equal picks draw -----
class PickState:
    def __init__(self) -> None:
        self.picks: list[int] = []

    def copy(self) -> "PickState":
        copy = PickState()
        copy.picks = list(self.picks)
        return copy


class HigherPickGame:
    name = "higher_pick"
    num_players = 2

    def new_state(self, seed: int | None = None) -> PickState:
        return PickState()

    def current_player(self, state: PickState) -> int:
        return len(state.picks) if len(state.picks) < 2 else -1

    def legal_mask(self, state: PickState) -> np.ndarray:
        return np.ones(2, dtype=bool)

    def apply(self, state: PickState, action: int) -> list:
        assert self.current_player(state) >= 0 and action in (0, 1)
        state.picks.append(int(action))
        return []

    apply_legal = apply

    def returns(self, state: PickState) -> np.ndarray:
        first, second = state.picks
        sign = float(np.sign(first - second))
        return np.array([sign, -sign])


class Always:
    def __init__(self, name: str, pick: int) -> None:
        self.name, self.pick = name, pick

    def act(self, game, state, rng) -> int:
        return self.pick


class CoinFlip:
    def __init__(self, name: str) -> None:
        self.name = name

    def act(self, game, state, rng) -> int:
        return int(rng.integers(2))


def toy_tournament(agents, games: int, seed: int = 0) -> Tournament:
    return run_tournament("higher_pick", agents, games, seed=seed, game_factory=HigherPickGame)


# -- seating and counts ------------------------------------------------------------------------
def test_every_pair_plays_each_seat_equally_often_and_counts_add_up():
    agents = [Always("one", 1), Always("zero", 0), CoinFlip("coin"), CoinFlip("coin2")]
    tournament = toy_tournament(agents, games=6)
    names = tournament.names
    assert names == ["one", "zero", "coin", "coin2"]
    assert len(tournament.games) == 6 * 6  # 6 unordered pairs
    rates = tournament.win_rate_matrix()
    assert np.isnan(np.diag(rates)).all()
    for a, b in itertools.combinations(names, 2):
        played = [g for g in tournament.games if set(g.seats) == {a, b}]
        assert len(played) == 6
        assert sum(g.seats[0] == a for g in played) == sum(g.seats[1] == a for g in played) == 3
        forward, backward = tournament.counts(a, b), tournament.counts(b, a)
        assert forward["games"] == forward["wins"] + forward["draws"] + forward["losses"] == 6
        assert forward["seat_games"] == [3, 3]
        assert sum(forward["seat_wins"]) == forward["wins"]
        assert (forward["wins"], forward["draws"]) == (backward["losses"], backward["draws"])
        i, j = names.index(a), names.index(b)
        assert rates[i, j] + rates[j, i] + forward["draws"] / 6 == pytest.approx(1.0)
    # the coin flips produced every kind of result somewhere, so the checks above saw draws too
    assert {g.winner for g in tournament.games} >= {"one", None}


def test_records_keep_seats_seed_returns_and_winner_of_each_game():
    tournament = toy_tournament([Always("zero", 0), Always("one", 1)], games=2, seed=10)
    first, second = tournament.games
    assert (first.seats, first.seed, first.returns, first.winner) == (["zero", "one"], 10, [-1.0, 1.0], "one")
    assert (second.seats, second.seed, second.returns, second.winner) == (["one", "zero"], 11, [1.0, -1.0], "one")


# -- ratings -----------------------------------------------------------------------------------
def test_an_agent_that_always_wins_gains_rating_and_tops_the_leaderboard():
    tournament = toy_tournament([Always("always_zero", 0), Always("always_one", 1)], games=10)
    ratings = tournament.ratings()
    assert ratings["always_one"]["mu"] > 25.0 > ratings["always_zero"]["mu"]
    assert ratings["always_one"]["ordinal"] == pytest.approx(
        ratings["always_one"]["mu"] - 3 * ratings["always_one"]["sigma"])
    board = tournament.leaderboard()
    assert [row["agent"] for row in board] == ["always_one", "always_zero"]
    assert [row["rank"] for row in board] == [1, 2]
    rates = tournament.win_rate_matrix()
    low, high = tournament.ci_matrices()
    assert rates[1, 0] == 1.0 and rates[0, 1] == 0.0
    assert (low[1, 0], high[1, 0]) == pytest.approx(wilson_interval(10, 10))
    assert (low[0, 1], high[0, 1]) == pytest.approx(wilson_interval(0, 10))
    # updated game by game: more wins move the rating further than fewer
    short = toy_tournament([Always("always_zero", 0), Always("always_one", 1)], games=2).ratings()
    assert ratings["always_one"]["mu"] > short["always_one"]["mu"] > 25.0


def test_a_pair_that_only_draws_keeps_equal_ratings():
    tournament = toy_tournament([Always("one_a", 1), Always("one_b", 1)], games=8)
    assert all(g.winner is None for g in tournament.games)
    ratings = tournament.ratings()
    assert ratings["one_a"]["mu"] == pytest.approx(ratings["one_b"]["mu"]) == pytest.approx(25.0)
    assert ratings["one_a"]["sigma"] == pytest.approx(ratings["one_b"]["sigma"])
    assert tournament.win_rate_matrix()[0, 1] == 0.0  # draws are non-wins


# -- reproducibility ---------------------------------------------------------------------------
def test_the_same_seed_replays_the_same_games_with_distinct_seeds_per_game():
    agents = ["r1=random", "r2=random", "heuristic"]
    first = run_tournament("heroica_v0", agents, 4, seed=3, options={"max_rounds": 20})
    again = run_tournament("heroica_v0", agents, 4, seed=3, options={"max_rounds": 20})
    assert first.games == again.games
    seeds = [g.seed for g in first.games]
    assert len(set(seeds)) == len(seeds) == 12
    other = run_tournament("heroica_v0", agents, 4, seed=100, options={"max_rounds": 20})
    assert not set(seeds) & {g.seed for g in other.games}


# -- real game and files -----------------------------------------------------------------------
def test_heroica_random_vs_heuristic_writes_well_formed_json_and_csv(tmp_path):
    tournament = run_tournament("heroica_v0", ["random", "heuristic"], 4, seed=0)
    paths = tournament.write(tmp_path / "out")
    assert {p.name for p in paths.values()} == {"tournament.json", "win_rates.csv", "ratings.csv"}

    def no_nan(constant):
        raise AssertionError(f"{constant} in JSON")

    data = json.loads(paths["json"].read_text(), parse_constant=no_nan)
    assert data["env"] == "heroica_v0" and data["agents"] == ["random", "heuristic"]
    assert len(data["games"]) == 4 and data["win_rate_matrix"][0][0] is None
    assert Tournament.from_dict(data).games == tournament.games
    with paths["win_rates"].open() as handle:
        rows = list(csv.DictReader(handle))
    assert {(r["agent"], r["opponent"]) for r in rows} == {("random", "heuristic"), ("heuristic", "random")}
    for row in rows:
        assert int(row["games"]) == int(row["wins"]) + int(row["draws"]) + int(row["losses"]) == 4
        assert 0.0 <= float(row["ci_low"]) <= float(row["win_rate"]) <= float(row["ci_high"]) <= 1.0
    with paths["ratings"].open() as handle:
        ratings = list(csv.DictReader(handle))
    assert sorted(int(r["rank"]) for r in ratings) == [1, 2]
    assert all(math.isfinite(float(r[k])) for r in ratings for k in ("mu", "sigma", "ordinal"))
    table = tournament.format_table()
    assert "random" in table and "heuristic" in table and "leaderboard" in table


def test_load_eval_csv_groups_a_training_log_by_opponent_in_step_order(tmp_path):
    path = tmp_path / "eval.csv"
    header = "timesteps,opponent,games,wins,draws,losses,win_rate,ci_low,ci_high\n"
    path.write_text(header + "200,random,4,3,0,1,0.75,0.3,0.95\n100,random,4,1,1,2,0.25,0.05,0.7\n"
                    "100,heuristic,4,0,0,4,0.0,0.0,0.49\n")
    curves = load_eval_csv(path)
    assert set(curves) == {"random", "heuristic"}
    assert curves["random"]["timesteps"].tolist() == [100, 200]
    assert curves["random"]["win_rate"].tolist() == [0.25, 0.75]
    assert curves["random"]["ci_high"].tolist() == [0.7, 0.95]
    assert curves["heuristic"]["wins"].tolist() == [0]


def test_a_saved_model_plays_by_its_spec_and_a_model_for_another_board_is_rejected(tmp_path):
    from sb3_contrib import MaskablePPO

    from training.selfplay import SelfPlayEnv

    # An untrained policy is enough: the test is about loading and seating a model, not skill.
    model = MaskablePPO("MlpPolicy", SelfPlayEnv("heroica_v0", {}, seed=0), n_steps=16, batch_size=16,
                        device="cpu", policy_kwargs=dict(net_arch=[8]))
    path = tmp_path / "untrained.zip"
    model.save(str(path))
    tournament = run_tournament("heroica_v0", ["random", f"ppo={path}"], 2, options={"max_rounds": 10})
    assert tournament.names == ["random", "ppo"]
    assert tournament.counts("ppo", "random")["seat_games"] == [1, 1]
    with pytest.raises(ValueError, match="'untrained' was trained on observations"):
        run_tournament("heroica_v0", ["random", str(path)], 2, options={"board_size": [20, 20]})


# -- errors ------------------------------------------------------------------------------------
def test_duplicate_agent_names_are_rejected():
    with pytest.raises(ValueError, match="duplicate agent name 'random'"):
        run_tournament("heroica_v0", ["random", "random"], 2)


def test_an_unknown_agent_spec_is_rejected_naming_it():
    with pytest.raises(ValueError, match="grandmaster"):
        run_tournament("heroica_v0", ["random", "grandmaster"], 2)
    with pytest.raises(FileNotFoundError, match="missing.zip"):
        run_tournament("heroica_v0", ["random", "missing.zip"], 2)


def test_three_player_games_are_not_supported_yet():
    with pytest.raises(ValueError, match="N-player tournaments are not supported yet"):
        run_tournament("heroica_v0", ["random", "heuristic"], 2, options={"num_players": 3})


@pytest.mark.parametrize("args, message", [
    (["--env", "heroica_v0", "--agents", "random", "grandmaster"], "grandmaster"),
    (["--env", "nope_v0", "--agents", "random", "heuristic"], "unknown env 'nope_v0'"),
    (["--env", "heroica_v0", "--agents", "random", "heuristic", "--option", "bogus=1"], "bogus"),
    (["--env", "heroica_v0", "--agents", "random", "heuristic", "--option", "max_rounds"], "key=value"),
], ids=["unknown-bot", "unknown-env", "unknown-option", "option-without-value"])
def test_cli_reports_user_errors_with_exit_code_2_and_no_traceback(args, message, tmp_path, capsys):
    assert main([*args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_cli_plays_writes_the_files_and_prints_the_table(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["--env", "heroica_v0", "--agents", "random", "best=heuristic", "--games", "2",
                 "--option", "max_rounds=20", "--out", str(out), "--quiet"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "best" in printed and "leaderboard" in printed and str(out / "tournament.json") in printed
    data = json.loads((out / "tournament.json").read_text())
    assert data["options"] == {"max_rounds": 20}  # YAML-parsed: an int, not "20"
    assert data["agents"] == ["random", "best"]
