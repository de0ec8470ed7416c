"""Tree search with an evaluator (envs.search), through its public API.

A toy dice game makes the search's answers known: which action scores more often, and that
the priors decide between actions of equal worth. The three real games check legality inside
the simulations, the real dice and the budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from envs.bots import play_game
from envs.core.dice import Dice, DieSpec, ScriptedDice
from envs.core.errors import OptionError
from envs.match import game_class
from envs.search import SearchBot, SearchBudget, ValueEvaluator

GAMES = ("heroica", "heroscape", "heroclix")
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
    """Action ``a`` scores when a d6 (faces 0..5) shows less than ``faces[a]``; most points
    after ``turns`` turns wins."""

    num_players = 2

    def __init__(self, faces: tuple[int, ...], turns: int = 1):
        self.faces, self.turns = faces, turns
        self.applied: list[int] = []

    def current_player(self, state: TossState) -> int:
        return -1 if state.turn >= self.turns else state.turn % 2

    def legal_mask(self, state: TossState) -> np.ndarray:
        return np.ones(len(self.faces), dtype=bool)

    def apply_legal(self, state: TossState, action: int) -> None:
        self.applied.append(action)
        state.points[state.turn % 2] += state.dice.roll(D6) < self.faces[action]
        state.turn += 1

    def returns(self, state: TossState) -> np.ndarray:
        lead = float(np.sign(state.points[0] - state.points[1]))
        return np.array([lead, -lead]) if state.turn >= self.turns else np.zeros(2)


class Flat:
    """Priors as given, every value 0: the search learns only from finished games."""

    def __init__(self, priors: list[float]):
        self.priors = np.array(priors)
        self.calls = 0

    def evaluate(self, game, state):
        self.calls += 1
        return self.priors, np.zeros(game.num_players)


def test_finds_the_action_that_scores_most_often():
    game = Toss((1, 5, 3))  # action 0 scores 1 roll in 6, action 1 five, action 2 three
    bot = SearchBot(Flat([1, 1, 1]), simulations=300)
    assert bot.act(game, TossState(Dice(0)), np.random.default_rng(0)) == 1
    result = bot.last
    assert result.actions.tolist() == [0, 1, 2] and result.simulations == 300
    assert int(np.argmax(result.visits)) == 1 and result.visits.sum() == 300
    # one turn: seat 0 wins when it scores, else a draw
    assert result.values[1] == pytest.approx(5 / 6, abs=0.1)


def test_priors_decide_between_actions_of_equal_worth():
    game = Toss((4, 4, 4))
    bot = SearchBot(Flat([0.1, 0.2, 0.7]), simulations=50, c_puct=20.0)
    assert bot.act(game, TossState(Dice(0)), np.random.default_rng(0)) == 2
    assert bot.last.priors.tolist() == pytest.approx([0.1, 0.2, 0.7])


def test_each_seat_searches_for_itself_over_several_turns():
    game = Toss((1, 6), turns=2)  # both seats should take action 1
    bot = SearchBot(Flat([1, 1]), simulations=200)
    state = TossState(Dice(0))
    assert bot.act(game, state, np.random.default_rng(1)) == 1
    game.apply_legal(state, 1)
    assert bot.act(game, state, np.random.default_rng(2)) == 1


def test_simulations_roll_their_own_dice_never_the_real_ones():
    game = Toss((1, 6, 3), turns=2)
    bot = SearchBot(Flat([1, 1, 1]), simulations=40)
    choices = []
    for dice in (Dice(1), Dice(2), ScriptedDice([])):  # an empty script fails if rolled
        state = TossState(dice)
        choices.append(bot.act(game, state, np.random.default_rng(7)))
        assert state.turn == 0 and state.points == [0, 0]
        choices.append(bot.last.visits.tolist())
    assert choices[0:2] == choices[2:4] == choices[4:6]


def test_one_evaluation_per_simulation_and_the_root():
    game = Toss((1, 6, 3), turns=3)
    evaluator = Flat([1, 1, 1])
    bot = SearchBot(evaluator, simulations=25)
    bot.act(game, TossState(Dice(0)), np.random.default_rng(0))
    assert bot.stats["simulations"] == 25
    assert evaluator.calls == bot.stats["evaluations"] <= 26


class EveryOtherForced(Toss):
    """Toss where every odd turn offers action 0 alone."""

    def legal_mask(self, state: TossState) -> np.ndarray:
        mask = np.ones(len(self.faces), dtype=bool)
        mask[1:] = state.turn % 2 == 0
        return mask


class Recording(Flat):
    def __init__(self, priors: list[float]):
        super().__init__(priors)
        self.legal_counts: list[int] = []

    def evaluate(self, game, state):
        self.legal_counts.append(int(game.legal_mask(state).sum()))
        return super().evaluate(game, state)


def test_forced_positions_on_a_walk_are_played_through_never_evaluated():
    game = EveryOtherForced((2, 4, 6), turns=6)
    evaluator = Recording([1.0, 1.0, 1.0])
    bot = SearchBot(evaluator, simulations=24, batch=1)
    bot.act(game, TossState(Dice(3)), np.random.default_rng(0))
    assert bot.stats["evaluations"] == len(evaluator.legal_counts) > 1
    assert set(evaluator.legal_counts) == {3}  # the root and leaves: choices only
    assert bot.last is not None and bot.last.visits.sum() == 24


def test_millisecond_cap_ends_the_search_after_one_wave():
    game = Toss((1, 6, 3), turns=50)
    bot = SearchBot(Flat([1, 1, 1]), simulations=10_000, ms=1e-6, batch=3)
    bot.act(game, TossState(Dice(0)), np.random.default_rng(0))
    assert bot.last.simulations == 3


class Batched(Flat):
    """Flat, answering a wave of positions in one call (as a network does)."""

    def __init__(self, priors: list[float]):
        super().__init__(priors)
        self.waves: list[int] = []

    def evaluate_many(self, game, states):
        self.waves.append(len(states))
        return [self.evaluate(game, state) for state in states]


def test_leaves_of_a_wave_are_evaluated_in_one_call():
    game = Toss((1, 6, 3), turns=3)
    evaluator = Batched([1, 1, 1])
    SearchBot(evaluator, simulations=20, batch=8).act(
        game, TossState(Dice(0)), np.random.default_rng(0)
    )
    # the root, then waves of 8, 8 and 4 walks; a walk that ends the game needs no evaluation
    assert evaluator.waves[0] == 1 and len(evaluator.waves) == 4
    assert all(size <= limit for size, limit in zip(evaluator.waves[1:], (8, 8, 4)))


def test_virtual_loss_spreads_one_wave_over_the_actions():
    game = Toss((4, 4, 4), turns=3)
    # one walk at a time, the favourite's prior wins the second walk too (the first found 0)
    alone = SearchBot(Flat([0.6, 0.2, 0.2]), simulations=3, batch=1)
    alone.act(game, TossState(Dice(0)), np.random.default_rng(0))
    assert alone.last.visits[0] >= 2
    # in one wave, the first walk's virtual loss sends the next ones elsewhere
    wave = SearchBot(Flat([0.6, 0.2, 0.2]), simulations=3, batch=3)
    wave.act(game, TossState(Dice(0)), np.random.default_rng(0))
    assert wave.last.visits.tolist() == [1, 1, 1]


def test_a_confident_policy_is_played_without_a_search():
    game = Toss((1, 6, 3))
    bot = SearchBot(Flat([0.05, 0.9, 0.05]), simulations=50, confident=0.9)
    assert bot.act(game, TossState(Dice(0)), np.random.default_rng(0)) == 1
    assert bot.stats["confident"] == 1 and bot.stats["simulations"] == 0
    unsure = SearchBot(Flat([0.2, 0.3, 0.5]), simulations=50, confident=0.9)
    assert unsure.act(game, TossState(Dice(0)), np.random.default_rng(0)) == 1
    assert unsure.stats["simulations"] == 50


def test_sequential_halving_follows_the_values_against_the_priors():
    game = Toss((1, 1, 6, 1))  # action 2 always scores, the others one roll in six
    bot = SearchBot(Flat([0.4, 0.3, 0.1, 0.2]), simulations=16, considered=4, c_scale=1.0)
    assert bot.act(game, TossState(Dice(0)), np.random.default_rng(0)) == 2
    # two phases: 2 walks for each of 4 actions, then 4 for each of the 2 left
    assert bot.last.simulations == 16 and sorted(bot.last.visits.tolist()) == [2, 2, 6, 6]


def test_sequential_halving_targets_its_improved_policy_not_its_shares_of_walks():
    game = Toss((1, 5, 3))
    bot = SearchBot(Flat([0.2, 0.3, 0.5]), simulations=12, considered=3, c_scale=0.1)
    bot.act(game, TossState(Dice(0)), np.random.default_rng(0))
    result = bot.last
    target = result.visit_policy(4)
    assert target.sum() == pytest.approx(1.0) and target[3] == 0.0
    # softmax(log prior + (50 + most visits) * c_scale * mean value), the action played its top
    sigma = (50 + result.visits.max()) * 0.1 * result.values
    expected = result.priors * np.exp(sigma - sigma.max())
    assert target[:3] == pytest.approx(expected / expected.sum(), abs=1e-6)
    assert int(np.argmax(target)) == result.choice


def test_sequential_halving_keeps_a_sure_policys_choice_when_values_are_level():
    game = Toss((3, 3, 3))  # every action scores half the time: only the dice differ
    bot = SearchBot(Flat([0.01, 0.98, 0.01]), simulations=12, considered=3, c_scale=0.01)
    rng = np.random.default_rng(0)
    assert [bot.act(game, TossState(Dice(seed)), rng) for seed in range(10)] == [1] * 10


def test_sequential_halving_compares_the_actions_on_the_same_dice():
    game = Toss((3, 3, 3))  # the same roll scores for every action
    bot = SearchBot(Flat([0.5, 0.3, 0.2]), simulations=24, considered=3, c_scale=1.0)
    for seed in range(5):
        bot.act(game, TossState(Dice(0)), np.random.default_rng(seed))
        kept = bot.last.visits == bot.last.visits.max()
        assert kept.sum() == 2 and np.unique(bot.last.values[kept]).size == 1


def test_sequential_halving_considers_only_the_most_probable_actions():
    game = Toss((6, 1, 1, 1))  # the best action is the least probable
    bot = SearchBot(Flat([0.1, 0.4, 0.3, 0.2]), simulations=8, considered=2, c_scale=1.0)
    bot.act(game, TossState(Dice(0)), np.random.default_rng(0))
    assert bot.last.choice in (1, 2) and bot.last.visits[[0, 3]].tolist() == [0, 0]


def test_visit_policy_is_a_distribution_over_the_action_space():
    game = Toss((1, 6, 3))
    bot = SearchBot(Flat([1, 1, 1]), simulations=30)
    bot.act(game, TossState(Dice(0)), np.random.default_rng(0))
    policy = bot.last.visit_policy(5)
    assert policy.shape == (5,) and policy.sum() == pytest.approx(1.0)
    assert policy[3:].tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    "option, value",
    [
        ("simulations", 0),
        ("simulations", 2.5),
        ("ms", 0),
        ("batch", 0),
        ("c_puct", -1.0),
        ("confident", 1.5),
        ("considered", 1),
        ("c_scale", 0),
        ("depth", 3),
    ],
)
def test_bad_budget_option_names_the_option(option, value):
    with pytest.raises(OptionError, match=option):
        SearchBudget.of({option: value})


def test_an_evaluator_with_the_wrong_number_of_values_is_named():
    class OneValue:
        def evaluate(self, game, state):
            return np.ones(3), np.zeros(1)

    with pytest.raises(ValueError, match="one per seat"):
        SearchBot(OneValue(), simulations=2).act(
            Toss((1, 6, 3)), TossState(Dice(0)), np.random.default_rng(0)
        )


# -- the real games ------------------------------------------------------------------------------
class Checked:
    """A game whose every applied action, in the simulations too, must be legal."""

    def __init__(self, game):
        self.game = game
        self.applied = 0

    def __getattr__(self, name):
        return getattr(self.game, name)

    def apply_legal(self, state, action: int) -> None:
        assert self.game.legal_mask(state)[action], self.game.action_to_string(state, action)
        self.applied += 1
        self.game.apply_legal(state, action)


@pytest.mark.parametrize("budget", [{}, {"considered": 3}], ids=["puct", "halving"])
@pytest.mark.parametrize("name", GAMES)
def test_plays_whole_games_and_simulates_only_legal_actions(name, budget):
    game = Checked(game_class(f"{name}_v0")())
    bot = SearchBot(ValueEvaluator(name), simulations=4, **budget)
    returns = play_game(game, [bot, bot], seed=3, validate=True)
    assert returns.sum() == pytest.approx(0.0)
    assert bot.stats["searches"] > 0 and game.applied > bot.stats["decisions"]


@pytest.mark.parametrize("name", GAMES)
def test_changes_neither_the_position_nor_its_dice(name):
    game = game_class(f"{name}_v0")()
    state, rng = game.new_state(2), np.random.default_rng(2)
    bot = SearchBot(ValueEvaluator(name), simulations=6)
    while game.legal_mask(state).sum() < 2:
        game.apply(state, int(np.flatnonzero(game.legal_mask(state))[0]))
    real = state.copy()
    real.dice = ScriptedDice([])  # fails if the real dice are rolled
    before = game.to_dict(real)
    action = bot.act(game, real, rng)
    assert game.to_dict(real) == before and game.legal_mask(real)[action]
