"""Bots and matches: envs.bots (generic), envs.heroica.bots.heuristic (HeuristicBot), envs.match (CLI)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from envs.bots import Bot, RandomBot, bot_names, get_bot, play_game, play_match, wilson_interval
from envs.heroica.bots.heuristic import HeuristicBot
from envs.heroica.rules import HeroicaGame

ROOT = Path(__file__).resolve().parents[1]


class CheckingBot:
    """Wraps a bot: asserts every chosen action is legal and records the seats it played."""

    def __init__(self, inner: Bot):
        self.inner = inner
        self.name = inner.name
        self.seats: set[int] = set()
        self.decisions = 0

    def act(self, game, state, rng):
        action = self.inner.act(game, state, rng)
        assert game.legal_mask(state)[action], game.action_to_string(state, action)
        self.seats.add(game.current_player(state))
        self.decisions += 1
        return action


# -- registry ------------------------------------------------------------------------------------


def test_registry_builds_heroica_bots_by_game_or_env_name():
    assert {"random", "heuristic"} <= set(bot_names("heroica"))
    assert isinstance(get_bot("heroica", "heuristic"), HeuristicBot)
    assert isinstance(get_bot("heroica_v0", "random"), RandomBot)
    for name in ("random", "heuristic"):
        assert isinstance(get_bot("heroica", name), Bot)


def test_unknown_bot_names_the_known_ones():
    with pytest.raises(KeyError, match="heuristic"):
        get_bot("heroica", "grandmaster")


def test_options_reach_a_registered_bots_constructor():
    assert get_bot("heroica", "lookahead", playouts=3, horizon=2).budget.playouts == 3
    with pytest.raises(TypeError, match="bot 'random' takes no options"):
        get_bot("heroica", "random", playouts=3)


# -- RandomBot -----------------------------------------------------------------------------------


def test_random_bot_only_plays_legal_actions():
    game = HeroicaGame()
    bots = [CheckingBot(RandomBot()), CheckingBot(RandomBot())]
    for seed in range(5):
        returns = play_game(game, bots, seed, validate=False)
        assert returns.sum() == pytest.approx(0.0)
    assert all(b.decisions > 0 for b in bots)


def test_play_game_is_deterministic_per_seed():
    game = HeroicaGame()
    first = [play_game(game, [RandomBot(), RandomBot()], seed).tolist() for seed in range(6)]
    again = [play_game(game, [RandomBot(), RandomBot()], seed).tolist() for seed in range(6)]
    assert first == again


# -- play_match ------------------------------------------------------------------------------------


def test_play_match_alternates_seats_fairly():
    a, b = CheckingBot(RandomBot()), CheckingBot(RandomBot())
    result = play_match(HeroicaGame(), a, b, games=6, seed=3)
    assert result.seat_games == [3, 3]
    assert a.seats == {0, 1} and b.seats == {0, 1}
    assert result.wins + result.draws + result.losses == result.games == 6
    assert sum(result.seat_wins) == result.wins
    assert result.win_rate == result.wins / 6
    assert result.ci_low <= result.win_rate <= result.ci_high


def test_play_match_three_seats_and_fixed_seats():
    factory = lambda: HeroicaGame(num_players=3)  # noqa: E731
    assert play_match(factory, RandomBot(), RandomBot(), games=6, seed=0).seat_games == [2, 2, 2]
    battle = lambda: HeroicaGame(mission="arena", num_players=3, battle=True)  # noqa: E731
    a = CheckingBot(RandomBot())
    result = play_match(battle, a, RandomBot(), games=3, seed=0, seats=[2])
    assert result.seat_games == [0, 0, 3] and a.seats == {2}
    with pytest.raises(ValueError):
        play_match(factory, RandomBot(), RandomBot(), games=2, seats=[5])


def test_play_match_counts_draws_as_non_wins():
    # One round: nobody reaches the target, every game is a draw.
    result = play_match(lambda: HeroicaGame(max_rounds=1), RandomBot(), RandomBot(), games=4)
    assert (result.wins, result.draws, result.losses) == (0, 4, 0)
    assert result.win_rate == 0.0


# -- Wilson interval ---------------------------------------------------------------------------------


def test_wilson_known_value():
    low, high = wilson_interval(70, 100)
    assert low == pytest.approx(0.604, abs=1e-3)
    assert high == pytest.approx(0.781, abs=1e-3)


@pytest.mark.parametrize("wins,n", [(0, 10), (3, 10), (10, 10), (1, 1), (499, 500), (250, 500)])
def test_wilson_contains_p_and_stays_in_unit_interval(wins, n):
    low, high = wilson_interval(wins, n)
    assert 0.0 <= low <= wins / n <= high <= 1.0
    assert low < high


def test_wilson_narrows_with_more_games():
    widths = [np.subtract(*wilson_interval(7 * k, 10 * k)[::-1]) for k in (1, 10, 100, 1000)]
    assert all(a > b for a, b in zip(widths, widths[1:]))


def test_wilson_edge_cases():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 50)[0] == 0.0
    assert wilson_interval(50, 50)[1] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


# -- HeuristicBot ------------------------------------------------------------------------------------


def test_heuristic_beats_random_on_the_default_mission():
    result = play_match(HeroicaGame, get_bot("heroica", "heuristic"), RandomBot(), games=60, seed=0)
    assert result.win_rate >= 0.6, result.summary()
    assert result.seat_games == [30, 30]


@pytest.mark.parametrize("mission", ["tunnel", "arena", "crossroads", "caverns", "gauntlet"])
def test_heuristic_plays_every_mission_legally(mission):
    bot = CheckingBot(HeuristicBot())
    result = play_match(lambda: HeroicaGame(mission=mission), bot, RandomBot(), games=4, seed=1)
    assert result.wins >= 2, result.summary()


@pytest.mark.parametrize("seats", [[0], [1], [2]])
def test_heuristic_plays_battle_as_hero_and_monster_player(seats):
    bot = CheckingBot(HeuristicBot())
    game = lambda: HeroicaGame(mission="arena", num_players=3, battle=True)  # noqa: E731
    result = play_match(game, bot, RandomBot(), games=4, seed=2, seats=seats)
    assert result.games == 4 and bot.seats == set(seats)


def test_heuristic_self_play_and_epic_and_three_heroes():
    bots = [CheckingBot(HeuristicBot()) for _ in range(3)]
    for seed in range(3):
        play_game(HeroicaGame(num_players=3), bots, seed)
        play_game(HeroicaGame(mission=["fork", "tunnel"]), bots[:2], seed)


# -- CLI ---------------------------------------------------------------------------------------------


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "envs.match", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_prints_json():
    done = _cli("heroica_v0", "heuristic", "random", "--games", "4", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 4
    assert report["wins"] + report["draws"] + report["losses"] == 4
    assert 0.0 <= report["ci_low"] <= report["win_rate"] <= report["ci_high"] <= 1.0
    assert report["games_per_second"] > 0


def test_cli_text_and_options():
    done = _cli(
        "heroica_v0",
        "heuristic",
        "random",
        "--games",
        "2",
        "--option",
        "mission=tunnel",
        "--option",
        "num_players=3",
    )
    assert done.returncode == 0, done.stderr
    assert "win rate" in done.stdout and "games/s" in done.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (("nosuch_v0", "heuristic", "random"), "unknown env"),
        (("heroica_v0", "grandmaster", "random"), "unknown bot"),
        (("heroica_v0", "heuristic", "random", "--option", "colour=red"), "unknown option"),
        (("heroica_v0", "heuristic", "random", "--option", "mission=atlantis"), "bad options"),
    ],
)
def test_cli_rejects_bad_input_with_a_clear_message(args, message):
    done = _cli(*args, "--games", "1")
    assert done.returncode != 0
    assert message in done.stderr


def test_a_match_in_shares_merges_to_the_match_in_one_process():
    bots = (get_bot("heroica", "heuristic"), RandomBot())
    whole = play_match(HeroicaGame, *bots, 6, seed=2)
    shares = [play_match(HeroicaGame, *bots, 6, seed=2, indices=range(k, 6, 2)) for k in (0, 1)]
    merged = type(whole).merged(shares)
    for key in ("games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high"):
        assert getattr(merged, key) == getattr(whole, key), key
    assert merged.seat_games == whole.seat_games and merged.seat_wins == whole.seat_wins
    assert merged.decisions_a == whole.decisions_a == sum(s.decisions_a for s in shares)
    with pytest.raises(ValueError, match="indices"):
        play_match(HeroicaGame, *bots, 6, indices=[6])


def test_match_cli_workers_give_the_one_process_result():
    one = json.loads(_cli("heroica_v0", "heuristic", "random", "--games", "4", "--json").stdout)
    two = json.loads(
        _cli("heroica_v0", "heuristic", "random", "--games", "4", "--workers", "2", "--json").stdout
    )
    for key in ("wins", "draws", "losses", "seat_games", "seat_wins", "decisions_a"):
        assert one[key] == two[key], key
