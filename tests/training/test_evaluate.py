"""Tournaments (training.evaluate): fair seating, counts, ratings, reproducibility, files, errors."""

from __future__ import annotations

import csv
import itertools
import json
import math

import numpy as np
import pytest

from envs.bots import wilson_interval
from training.evaluate import load_eval_csv, main, run_tournament
from training.tournament_results import Tournament
from training.tournament_schedule import tables


# -- a toy game: each player picks 0 or 1 in turn, the higher pick wins, equal picks draw -----
class PickState:
    def __init__(self) -> None:
        self.picks: list[int] = []

    def copy(self) -> PickState:
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
    assert (first.seats, first.seed, first.returns, first.winner) == (
        ["zero", "one"],
        10,
        [-1.0, 1.0],
        "one",
    )
    assert (second.seats, second.seed, second.returns, second.winner) == (
        ["one", "zero"],
        11,
        [1.0, -1.0],
        "one",
    )


# -- ratings -----------------------------------------------------------------------------------
def test_an_agent_that_always_wins_gains_rating_and_tops_the_leaderboard():
    tournament = toy_tournament([Always("always_zero", 0), Always("always_one", 1)], games=10)
    ratings = tournament.ratings()
    assert ratings["always_one"]["mu"] > 25.0 > ratings["always_zero"]["mu"]
    assert ratings["always_one"]["ordinal"] == pytest.approx(
        ratings["always_one"]["mu"] - 3 * ratings["always_one"]["sigma"]
    )
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
    assert {(r["agent"], r["opponent"]) for r in rows} == {
        ("random", "heuristic"),
        ("heuristic", "random"),
    }
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
    path.write_text(
        header + "200,random,4,3,0,1,0.75,0.3,0.95\n100,random,4,1,1,2,0.25,0.05,0.7\n"
        "100,heuristic,4,0,0,4,0.0,0.0,0.49\n"
    )
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
    model = MaskablePPO(
        "MlpPolicy",
        SelfPlayEnv("heroica_v0", {}, seed=0),
        n_steps=16,
        batch_size=16,
        device="cpu",
        policy_kwargs=dict(net_arch=[8]),
    )
    path = tmp_path / "untrained.zip"
    model.save(str(path))
    tournament = run_tournament(
        "heroica_v0", ["random", f"ppo={path}"], 2, options={"max_rounds": 10}
    )
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


@pytest.mark.parametrize(
    "args, message",
    [
        (["--env", "heroica_v0", "--agents", "random", "grandmaster"], "grandmaster"),
        (["--env", "nope_v0", "--agents", "random", "heuristic"], "unknown env 'nope_v0'"),
        (
            ["--env", "heroica_v0", "--agents", "random", "heuristic", "--option", "bogus=1"],
            "bogus",
        ),
        (
            ["--env", "heroica_v0", "--agents", "random", "heuristic", "--option", "max_rounds"],
            "key=value",
        ),
    ],
    ids=["unknown-bot", "unknown-env", "unknown-option", "option-without-value"],
)
def test_cli_reports_user_errors_with_exit_code_2_and_no_traceback(args, message, tmp_path, capsys):
    assert main([*args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_cli_plays_writes_the_files_and_prints_the_table(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "--env",
            "heroica_v0",
            "--agents",
            "random",
            "best=heuristic",
            "--games",
            "2",
            "--option",
            "max_rounds=20",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert (
        "best" in printed and "leaderboard" in printed and str(out / "tournament.json") in printed
    )
    data = json.loads((out / "tournament.json").read_text())
    assert data["options"] == {"max_rounds": 20}  # YAML-parsed: an int, not "20"
    assert data["agents"] == ["random", "best"]


# ==============================================================================================
# N-player tournaments
# ==============================================================================================
class HighestPickGame:
    """n players each pick 0..3 in turn; the highest picks win (+1/k each, losers -1/(n-k)),
    the zero-sum rule of the real games; all equal picks: 0 for everyone. ``shaped``: each
    return is the pick minus the mean pick instead (zero-sum, and it orders the losers too)."""

    name = "highest_pick"

    def __init__(self, num_players: int, shaped: bool = False) -> None:
        self.num_players, self.shaped = num_players, shaped

    def new_state(self, seed: int | None = None) -> PickState:
        return PickState()

    def current_player(self, state: PickState) -> int:
        return len(state.picks) if len(state.picks) < self.num_players else -1

    def legal_mask(self, state: PickState) -> np.ndarray:
        return np.ones(4, dtype=bool)

    def apply(self, state: PickState, action: int) -> list:
        state.picks.append(int(action))
        return []

    apply_legal = apply

    def returns(self, state: PickState) -> np.ndarray:
        picks = np.array(state.picks, dtype=float)
        if self.shaped:
            return picks - picks.mean()
        winners = picks == picks.max()
        if winners.all():
            return np.zeros(self.num_players)
        return np.where(winners, 1.0 / winners.sum(), -1.0 / (~winners).sum())


def n_player_tournament(
    agents, seats: int, games: int, seed: int = 0, shaped: bool = False
) -> Tournament:
    return run_tournament(
        "highest_pick",
        agents,
        games,
        seed=seed,
        game_factory=lambda: HighestPickGame(seats, shaped),
    )


def seat_counts(tournament: Tournament) -> dict[str, list[int]]:
    counts = {name: [0] * tournament.num_seats for name in tournament.names}
    for record in tournament.games:
        for seat, name in enumerate(record.seats):
            counts[name][seat] += 1
    return counts


@pytest.mark.parametrize(
    "agents, seats, expected_tables",
    [
        (4, 3, [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]),  # every 3-subset
        (5, 4, [(0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 4), (0, 2, 3, 4), (1, 2, 3, 4)]),
        (3, 3, [(0, 1, 2)]),
        (2, 3, [(0, 1, 0), (1, 0, 1)]),  # fewer agents than seats: cycle, from each agent in turn
        (3, 4, [(0, 1, 2, 0), (1, 2, 0, 1), (2, 0, 1, 2)]),
        (2, 4, [(0, 1, 0, 1)]),  # the second start would only rotate the first table
    ],
    ids=["4-of-3", "5-of-4", "3-of-3", "2-in-3", "3-in-4", "2-in-4"],
)
def test_every_agent_sits_in_every_seat_equally_often_at_every_table(
    agents, seats, expected_tables
):
    bots = [CoinFlip(f"coin{i}") for i in range(agents)]
    tournament = n_player_tournament(bots, seats, games=2 * seats, seed=5)
    assert tables(agents, seats) == expected_tables
    assert tournament.tables() == [[f"coin{i}" for i in table] for table in expected_tables]
    assert len(tournament.games) == len(expected_tables) * 2 * seats
    assert len({g.seed for g in tournament.games}) == len(tournament.games)
    for t, table in enumerate(expected_tables):  # each table: whole rotations of its seating
        played = tournament.games[t * 2 * seats : (t + 1) * 2 * seats]
        for k, record in enumerate(played):
            assert record.seats == [f"coin{table[(s + k) % seats]}" for s in range(seats)]
    per_seat = seat_counts(tournament)
    assert all(
        len(set(counts)) == 1 for counts in per_seat.values()
    )  # each agent: same count in every seat
    assert (
        len({sum(counts) for counts in per_seat.values()}) == 1
    )  # and every agent as many seats overall
    rows = {row["agent"]: row for row in tournament.agent_rows()}
    assert all(rows[name]["seat_games"] == counts for name, counts in per_seat.items())


def test_n_player_games_record_ranks_and_count_wins_seats_and_head_to_head():
    agents = [Always("three", 3), Always("two", 2), Always("two_b", 2), Always("zero", 0)]
    tournament = n_player_tournament(agents, seats=3, games=3)
    record = next(g for g in tournament.games if set(g.seats) == {"two", "two_b", "zero"})
    places = dict(zip(record.seats, record.ranks))
    assert places == {"two": 1, "two_b": 1, "zero": 3}  # a shared win: two firsts
    assert record.to_dict()["ranks"] == record.ranks
    rows = {row["agent"]: row for row in tournament.agent_rows()}
    # 4 tables of 3; each agent sits at 3 of them, 3 games each
    assert all(row["games"] == 9 and sum(row["seat_games"]) == 9 for row in rows.values())
    assert (rows["three"]["wins"], rows["three"]["mean_rank"]) == (9, 1.0)
    assert (rows["two"]["wins"], rows["zero"]["wins"]) == (
        3,
        0,
    )  # "two" shares the win without "three"
    # "zero" ties for second behind a lone winner at two tables and is last at the third
    assert rows["zero"]["losses"] == 9 and rows["zero"]["mean_rank"] == pytest.approx(7 / 3)
    assert (rows["three"]["ci_low"], rows["three"]["ci_high"]) == pytest.approx(
        wilson_interval(9, 9)
    )
    # head to head, by return: "two" is level with "two_b" in their 6 shared games; against
    # "zero" it is level when both lose to "three" and ahead when it wins
    level = tournament.counts("two", "two_b")
    assert (level["games"], level["wins"], level["draws"], level["losses"]) == (6, 0, 6, 0)
    ahead = tournament.counts("two", "zero")
    assert (ahead["games"], ahead["wins"], ahead["draws"], ahead["losses"]) == (6, 3, 3, 0)
    assert tournament.counts("zero", "two")["losses"] == 3
    rates = tournament.win_rate_matrix()
    assert (rates[0, 3], rates[1, 3], rates[3, 0]) == (1.0, 0.5, 0.0) and np.isnan(rates[0, 0])
    seats = tournament.seat_rows()
    assert [row["games"] for row in seats] == [12, 12, 12]
    assert sum(row["wins"] for row in seats) == sum(row["wins"] for row in rows.values())


def test_an_agent_in_two_seats_is_counted_per_seat_and_never_against_itself():
    tournament = n_player_tournament([Always("high", 3), Always("low", 0)], seats=3, games=3)
    assert tournament.tables() == [["high", "low", "high"], ["low", "high", "low"]]
    rows = {row["agent"]: row for row in tournament.agent_rows()}
    assert rows["high"]["games"] == rows["low"]["games"] == 9  # 3 seats of 6 games each
    assert rows["high"]["seat_games"] == rows["low"]["seat_games"] == [3, 3, 3]
    assert ("high", "high") not in {(r["agent"], r["opponent"]) for r in tournament.pair_rows()}
    # each game compares every seat of "high" with every seat of "low": 2 pairs of seats a game
    assert (
        tournament.counts("high", "low")["games"] == 12 == tournament.counts("high", "low")["wins"]
    )
    ratings = tournament.ratings()
    assert ratings["high"]["mu"] > 25.0 > ratings["low"]["mu"]


def test_n_player_ratings_rate_all_seats_of_a_game_in_one_update():
    from openskill.models import PlackettLuce

    agents = [Always("three", 3), Always("two", 2), Always("one", 1), Always("zero", 0)]
    tournament = n_player_tournament(agents, seats=4, games=4, shaped=True)
    assert {tuple(g.ranks[g.seats.index(a.name)] for g in tournament.games) for a in agents} == {
        (1,) * 4,
        (2,) * 4,
        (3,) * 4,
        (4,) * 4,
    }
    model = PlackettLuce()
    expected = {a.name: model.rating(name=a.name) for a in agents}
    for record in tournament.games:  # one table: the playing order is the rating order
        teams = model.rate([[expected[name]] for name in record.seats], ranks=record.ranks)
        expected.update({name: rating for name, (rating,) in zip(record.seats, teams)})
    ratings = tournament.ratings()
    assert {name: ratings[name]["mu"] for name in ratings} == pytest.approx(
        {name: rating.mu for name, rating in expected.items()}
    )
    # "three" and "two" both win (positive returns), yet the ranking of all four orders them
    assert [row["agent"] for row in tournament.leaderboard()] == ["three", "two", "one", "zero"]


def test_three_player_heroica_rates_the_heuristic_above_random_and_writes_consistent_files(
    tmp_path,
):
    tournament = run_tournament(
        "heroica_v0",
        ["random", "heuristic", "r2=random"],
        6,
        seed=0,
        options={"num_players": 3, "max_rounds": 30},
    )
    assert tournament.num_seats == 3 and len(tournament.games) == 6
    assert all(counts == [2, 2, 2] for counts in seat_counts(tournament).values())
    board = tournament.leaderboard()
    assert board[0]["agent"] == "heuristic"
    ratings = tournament.ratings()
    assert ratings["heuristic"]["mu"] > 25.0 > max(ratings["random"]["mu"], ratings["r2"]["mu"])
    paths = tournament.write(tmp_path)
    assert set(paths) == {"json", "win_rates", "ratings", "agents"}
    data = json.loads(paths["json"].read_text())
    assert data["num_seats"] == 3 and data["tables"] == [["random", "heuristic", "r2"]]
    assert [g["ranks"] for g in data["games"]] == [g.ranks for g in tournament.games]
    assert Tournament.from_json(paths["json"]).leaderboard() == board
    with paths["agents"].open() as handle:
        agents = {row["agent"]: row for row in csv.DictReader(handle)}
    for _name, row in agents.items():
        assert int(row["games"]) == int(row["wins"]) + int(row["draws"]) + int(row["losses"]) == 6
        assert [int(row[f"seat{s}_games"]) for s in range(3)] == [2, 2, 2]
        assert sum(int(row[f"seat{s}_wins"]) for s in range(3)) == int(row["wins"])
    with paths["win_rates"].open() as handle:
        pairs = list(csv.DictReader(handle))
    assert len(pairs) == 6 and all(int(row["games"]) == 6 for row in pairs)
    with paths["ratings"].open() as handle:
        assert [row["agent"] for row in csv.DictReader(handle)] == [row["agent"] for row in board]


def test_cli_plays_a_four_seat_battle_heroica_tournament(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(
        [
            "--env",
            "heroica_v0",
            "--agents",
            "random",
            "heuristic",
            "r2=random",
            "r3=random",
            "--option",
            "num_players=4",
            "--option",
            "battle=true",
            "--option",
            "max_rounds=30",
            "--games",
            "8",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "4 seats" in printed and "seat win rates" in printed and "head to head" in printed
    data = json.loads((out / "tournament.json").read_text())
    assert data["num_seats"] == 4 and data["games_per_pair"] == 8 and len(data["games"]) == 8
    for row in data["agent_results"]:
        assert row["seat_games"] == [2, 2, 2, 2]  # the Monster Player's seat (3) included
    assert data["leaderboard"][0]["agent"] == "heuristic"
    assert {p.name for p in out.iterdir()} == {
        "tournament.json",
        "win_rates.csv",
        "ratings.csv",
        "agents.csv",
    }


def test_cli_plays_a_highlands_melee_tournament_with_fewer_agents_than_seats(tmp_path):
    out = tmp_path / "out"
    code = main(
        [
            "--env",
            "heroscape_v0",
            "--agents",
            "random",
            "heuristic",
            "--option",
            "scenario=highlands_melee",
            "--option",
            "round_cap=1",
            "--games",
            "4",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert code == 0
    data = json.loads((out / "tournament.json").read_text())
    assert data["num_seats"] == 4 and len(data["games"]) == 4
    assert data["tables"] == [["random", "heuristic", "random", "heuristic"]]
    # one round ends every game at the cap: all draws, all first, ratings unmoved
    assert all(g["ranks"] == [1, 1, 1, 1] and g["winner"] is None for g in data["games"])
    assert all(row["mu"] == pytest.approx(25.0) for row in data["leaderboard"])


def test_a_heroclix_free_for_all_tournament_rotates_four_seats(tmp_path):
    tournament = run_tournament(
        "heroclix_v0", ["random", "heuristic"], 4, options={"scenario": "brawl", "max_rounds": 2}
    )
    data = json.loads(tournament.write(tmp_path / "out")["json"].read_text())
    assert data["num_seats"] == 4 and len(data["games"]) == 4
    for row in data["agent_results"]:
        assert row["seat_games"] == [2, 2, 2, 2]
    # every game ranks all four seats, places 1 (best) upwards, equal returns sharing a place
    for game in data["games"]:
        returns, ranks = game["returns"], game["ranks"]
        assert len(ranks) == 4 and min(ranks) == 1
        for a in range(4):
            for b in range(4):
                assert (returns[a] > returns[b]) == (ranks[a] < ranks[b])


def test_cli_defaults_games_to_twenty_rounded_up_to_a_multiple_of_the_seats(tmp_path):
    out = tmp_path / "out"
    assert (
        main(
            [
                "--env",
                "heroica_v0",
                "--agents",
                "random",
                "heuristic",
                "--option",
                "num_players=3",
                "--option",
                "max_rounds=10",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    data = json.loads((out / "tournament.json").read_text())
    assert data["games_per_pair"] == 21 and len(data["games"]) == 2 * 21  # tables r h r and h r h


def test_a_games_count_that_does_not_rotate_the_seats_is_rejected():
    with pytest.raises(
        ValueError,
        match="games_per_pair must be a multiple of the 3 seats, got 4 "
        r"\(try 3 or 6\)",
    ):
        run_tournament("heroica_v0", ["random", "heuristic"], 4, options={"num_players": 3})


def test_cli_names_games_when_it_is_not_a_multiple_of_the_seats(tmp_path, capsys):
    assert (
        main(
            [
                "--env",
                "heroica_v0",
                "--agents",
                "random",
                "heuristic",
                "--option",
                "num_players=3",
                "--games",
                "20",
                "--out",
                str(tmp_path / "out"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert (
        "--games must be a multiple of the 3 seats, got 20 (try 18 or 21)" in err
        and "Traceback" not in err
    )
    assert not (tmp_path / "out").exists()
