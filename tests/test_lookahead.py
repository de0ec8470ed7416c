"""The lookahead bot (envs.lookahead and each game's hooks), through its public API.

A toy dice game (below) makes the search's arithmetic checkable exactly: which candidate is
better and by how much is known, and two candidates with the same odds must see the same
rolls. The three real games check legality, the dice, full games and strength.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from envs.bots import Bot, get_bot, play_game, play_match
from envs.core.dice import Dice, DieSpec, ScriptedDice
from envs.core.errors import OptionError
from envs.lookahead import Budget, Hooks, LookaheadBot, ranked
from envs.match import game_class, run

GAMES = ("heroica", "heroscape", "heroclix")
TINY = {"playouts": 2, "candidates": 2, "horizon": 1}  # a cheap budget for whole games
D6 = DieSpec("d6", tuple("123456"))


# -- a toy game: each turn the seat to move picks the odds of scoring a point, then rolls -------
@dataclass
class TossState:
    dice: Dice
    turn: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])

    def copy(self, dice: Dice | None = None) -> TossState:
        return TossState(dice or self.dice.copy(), self.turn, list(self.points))


class Toss:
    """Action ``a`` scores when a d6 shows less than ``faces[a]``; most points after
    ``turns`` turns wins."""

    num_players = 2

    def __init__(self, faces: tuple[int, ...], turns: int = 1):
        self.faces, self.turns = faces, turns

    def new_state(self, seed: int) -> TossState:
        return TossState(Dice(seed))

    def current_player(self, state: TossState) -> int:
        return -1 if state.turn >= self.turns else state.turn % 2

    def legal_mask(self, state: TossState) -> np.ndarray:
        return np.ones(len(self.faces), dtype=bool)

    def apply_legal(self, state: TossState, action: int) -> None:
        state.points[state.turn % 2] += state.dice.roll(D6) < self.faces[action]
        state.turn += 1

    def returns(self, state: TossState) -> np.ndarray:
        lead = float(np.sign(state.points[0] - state.points[1]))
        return np.array([lead, -lead]) if state.turn >= self.turns else np.zeros(2)

    def turn_number(self, state: TossState) -> int:
        return state.turn


class FirstChoice:
    """A 'heuristic' that always takes action 0 and ranks the others in order."""

    name = "first"

    def act(self, game, state, rng) -> int:
        return 0

    def scored(self, game, state) -> list[tuple[float, int]]:
        return [(-float(a), a) for a in range(len(game.faces))]


VALUED_AT: list[int] = []  # turns at which the toy value was asked for


def toss_value(heuristic, game: Toss, state: TossState, seat: int) -> float:
    VALUED_AT.append(state.turn)
    return (state.points[seat] - state.points[1 - seat]) / game.turns


class TossLookahead(LookaheadBot):
    hooks = Hooks(heuristic=FirstChoice, value=toss_value, defaults={"margin": 0.1})


def decide(bot: LookaheadBot, game: Toss, seed: int = 0) -> int:
    return bot.act(game, game.new_state(seed), np.random.default_rng(seed))


# -- the search --------------------------------------------------------------------------------
def test_candidates_with_the_same_odds_see_the_same_rolls():
    # Actions 0 and 1 score on the same faces: with common random numbers every playout of
    # the one ends as the same playout of the other; the better action 2 is played.
    game = Toss(faces=(3, 3, 5))
    bot = TossLookahead(playouts=16, candidates=3)
    assert decide(bot, game) == 2
    search = bot.last
    assert search.candidates == [0, 1, 2] and len(set(search.seeds)) == 16
    played = ~np.isnan(search.values[1])
    assert played.sum() >= 8
    np.testing.assert_array_equal(search.values[0, played], search.values[1, played])


def test_equal_candidates_never_override_the_heuristic():
    game = Toss(faces=(3, 3, 3))
    bot = TossLookahead(playouts=8, candidates=3, margin=0.0, z=0.0)
    assert all(decide(bot, game, seed) == 0 for seed in range(40))
    assert bot.stats["searches"] == 40 and bot.stats["overrides"] == 0


def test_overrides_only_on_a_gain_over_the_margin():
    # Action 1 scores on one face more: +1/6 chance of winning, +1/3 in mean return.
    game = Toss(faces=(3, 4))
    assert decide(TossLookahead(playouts=64, margin=0.1), game) == 1
    assert decide(TossLookahead(playouts=64, margin=0.5), game) == 0
    assert decide(TossLookahead(playouts=64, margin=0.1, z=50.0), game) == 0


def test_budget_caps_candidates_and_playouts():
    game = Toss(faces=(1, 6, 5, 4))  # action 1 always scores: never dropped
    bot = TossLookahead(playouts=5, candidates=2)
    decide(bot, game)
    assert bot.last.candidates == [0, 1] and bot.last.values.shape == (2, 5)
    assert bot.stats["playouts"] <= 10
    one = TossLookahead(candidates=1)
    assert decide(one, game) == 0 and one.last is None and one.stats["playouts"] == 0


def test_horizon_stops_playouts_and_asks_the_value():
    game = Toss(faces=(3, 5), turns=6)
    VALUED_AT.clear()
    decide(TossLookahead(playouts=4, horizon=2), game)
    assert VALUED_AT and set(VALUED_AT) == {2}
    VALUED_AT.clear()
    decide(TossLookahead(playouts=4, horizon=None), game)
    assert VALUED_AT == []  # played to the end: the game's returns


def test_millisecond_cap_ends_the_search_after_one_round():
    bot = TossLookahead(playouts=1000, candidates=3, ms=1e-6)
    decide(bot, Toss(faces=(3, 3, 5)))
    assert bot.last.values.shape == (3, 1)


@pytest.mark.parametrize(
    "option, value",
    [
        ("playouts", 0),
        ("playouts", 2.5),
        ("candidates", -1),
        ("horizon", 0),
        ("margin", -0.1),
        ("z", "high"),
        ("ms", 0),
        ("ms", True),
        ("depth", 3),
    ],
)
def test_bad_budget_option_names_the_option(option, value):
    with pytest.raises(OptionError, match=f"'{option}'"):
        TossLookahead(**{option: value})


def test_ranked_interleaves_lists_by_rank_and_keeps_the_first_place():
    steps = [(-4.0, 10), (-2.0, 11), (-3.0, 12)]
    skills = [(0.5, 20), (0.0, 11), (1.0, 21)]
    assert [a for _, a in ranked([steps, skills])] == [11, 21, 12, 20, 10]
    assert ranked([]) == [] and Budget().playouts >= 1


# -- the three games ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_registry_builds_lookahead_for_every_game(name):
    bot = get_bot(f"{name}_v0", "lookahead")
    assert isinstance(bot, Bot) and bot.name == "lookahead"
    assert bot.budget.playouts >= 1 and bot.budget.candidates >= 2


@pytest.mark.parametrize("name", GAMES)
def test_heuristic_scored_lists_legal_actions_and_changes_nothing(name):
    game = game_class(f"{name}_v0")()
    heuristic = get_bot(name, "heuristic")
    state, rng = game.new_state(3), np.random.default_rng(0)
    listed = 0
    while game.current_player(state) >= 0:
        before = game.to_dict(state)
        choice = heuristic.act(game, state, rng)
        actions = [a for _, a in heuristic.scored(game, state)]
        mask = game.legal_mask(state)
        assert all(mask[a] for a in actions) and len(set(actions)) == len(actions)
        assert game.to_dict(state) == before and heuristic.act(game, state, rng) == choice
        listed += len(actions) > 1
        game.apply(state, choice)
    assert listed > 0


def _searched_position(name: str, seed: int = 1):
    """A position where the lookahead weighs two candidates or more, and its game."""
    game = game_class(f"{name}_v0")()
    heuristic = get_bot(name, "heuristic")
    state, rng = game.new_state(seed), np.random.default_rng(seed)
    bot = get_bot(name, "lookahead")
    while game.current_player(state) >= 0:
        mask = game.legal_mask(state)
        if (
            mask.sum() > 1
            and len(bot.candidates(game, state, mask, heuristic.act(game, state, rng))) > 1
        ):
            return game, state
        game.apply(state, heuristic.act(game, state, rng))
    raise AssertionError("no searched decision in a whole game")


@pytest.mark.parametrize("name", GAMES)
def test_choice_never_depends_on_the_real_dice(name):
    game, state = _searched_position(name)
    budget = {"playouts": 4, "horizon": 2}
    found = []
    for dice in (Dice(1), Dice(2), ScriptedDice([])):  # an empty script fails if rolled
        real = state.copy()
        real.dice = dice
        before = game.to_dict(real)
        bot = type(get_bot(name, "lookahead"))(**budget)
        action = bot.act(game, real, np.random.default_rng(7))
        assert game.to_dict(real) == before and game.legal_mask(real)[action]
        found.append((action, bot.last.values))
    for action, values in found[1:]:
        assert action == found[0][0] and np.array_equal(values, found[0][1], equal_nan=True)


@pytest.mark.parametrize("name", GAMES)
def test_plays_whole_legal_games(name):
    game = game_class(f"{name}_v0")()
    bot = type(get_bot(name, "lookahead"))(**TINY)
    for seats in ([bot, get_bot(name, "heuristic")], [get_bot(name, "random"), bot]):
        returns = play_game(game, seats, seed=5, validate=True)
        assert returns.sum() == pytest.approx(0.0)
    assert bot.stats["searches"] > 0


@pytest.mark.parametrize("name, games", [("heroica", 12), ("heroscape", 6)])
def test_lookahead_beats_random(name, games):
    bot = type(get_bot(name, "lookahead"))(**TINY)
    result = play_match(game_class(f"{name}_v0"), bot, get_bot(name, "random"), games, seed=0)
    assert result.win_rate >= 0.75


def test_match_cli_plays_lookahead_by_name(capsys):
    report = run(["heroica_v0", "lookahead", "heuristic", "--games", "2", "--json"])
    assert report["bot_a"] == "lookahead" and report["games"] == 2
