"""Tree search over a saved model, ``search:model.zip`` (training.agents), as a player.

The models are untrained: these tests are about the evaluator's arithmetic, reading the run's
shaping and seating the player everywhere a bot goes, not about skill.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from envs.core.errors import OptionError
from envs.lookahead import position_value
from envs.match import game_class
from envs.match import run as run_match
from training.agents import PolicyEvaluator, load_agent, parse_search_spec
from training.config import dump_config, load_config

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


def save_model(path: Path, env_name: str = "heroica_v0", spatial: bool = True) -> Path:
    from sb3_contrib import MaskablePPO

    from training.networks import spatial_policy
    from training.selfplay import SelfPlayEnv

    if spatial:
        policy, kwargs = spatial_policy(env_name, {})
    else:
        policy, kwargs = "MlpPolicy", {"net_arch": [8]}
    env = SelfPlayEnv(env_name, {}, seed=0)
    model = MaskablePPO(policy, env, n_steps=16, batch_size=16, device="cpu", policy_kwargs=kwargs)
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(str(path))
    return path


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory) -> Path:
    """A run folder as training leaves it: its config (reward_shaping 0.5) and final model."""
    run = tmp_path_factory.mktemp("runs") / "heroica_run"
    config = load_config(CONFIGS / "smoke_heroica.yaml", ["reward_shaping=0.5"])
    dump_config(config, run / "config.yaml")
    save_model(run / "final_model.zip")
    return run


def test_search_spec_reads_options_and_names_a_bad_one():
    kind, path, options = parse_search_spec("search(simulations=32, ms=none, c_puct=2.5):a/b.zip")
    assert kind == "search" and path == Path("a/b.zip")
    assert options == {"simulations": 32, "ms": None, "c_puct": 2.5}
    assert parse_search_spec("search:x.zip") == ("search", Path("x.zip"), {})
    with pytest.raises(ValueError, match="'simulations' .* is not key=value"):
        parse_search_spec("search(simulations):x.zip")
    with pytest.raises(ValueError, match="simulations='many'"):
        parse_search_spec("search(simulations=many):x.zip")


def test_shaping_is_read_from_the_run_folder(run_folder):
    agent = load_agent(f"search(simulations=3):{run_folder / 'final_model.zip'}", "heroica_v0")
    assert agent.name == "search:heroica_run/final_model"
    assert agent.evaluator.shaping == 0.5 and agent.budget.simulations == 3
    named = load_agent(f"deep=search(shaping=0):{run_folder / 'final_model.zip'}", "heroica_v0")
    assert named.name == "deep" and named.evaluator.shaping == 0.0


def test_a_model_outside_a_run_folder_needs_its_shaping(tmp_path):
    path = save_model(tmp_path / "alone.zip")
    with pytest.raises(ValueError, match=r"no run folder .* search\(shaping=0\)"):
        load_agent(f"search:{path}", "heroica_v0")
    with pytest.raises(FileNotFoundError, match="missing.zip"):
        load_agent(f"search(shaping=0):{tmp_path / 'missing.zip'}", "heroica_v0")
    with pytest.raises(ValueError, match="option 'depth'"):
        load_agent(f"search(shaping=0,depth=2):{path}", "heroica_v0")


@pytest.mark.parametrize("spatial", [True, False], ids=["spatial", "mlp"])
def test_priors_cover_the_legal_actions_shaping_is_added_back_and_batches_agree(tmp_path, spatial):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(save_model(tmp_path / "m.zip", spatial=spatial)), device="cpu")
    game = game_class("heroica_v0")()
    state = game.new_state(4)
    plain = PolicyEvaluator(model, "heroica_v0", shaping=0.0)
    shaped = PolicyEvaluator(model, "heroica_v0", shaping=2.0)
    priors, values = plain.evaluate(game, state)
    mask = game.legal_mask(state)
    assert priors[mask].sum() == pytest.approx(1.0) and not priors[~mask].any()
    assert (priors[mask] > 0).all() and values.shape == (game.num_players,)
    acting = game.current_player(state)
    potential = position_value("heroica_v0")(game, state, acting)
    _, shaped_values = shaped.evaluate(game, state)
    # the seat to act reads the head plus the potential; two-player zero-sum: the rival's is -
    assert shaped_values[acting] == pytest.approx(values[acting] + 2.0 * potential)
    assert shaped_values.sum() == pytest.approx(0.0) and values.sum() == pytest.approx(0.0)
    later = state.copy()
    game.apply(later, int(np.flatnonzero(mask)[0]))
    batched = shaped.evaluate_many(game, [state, later])  # one network call for both
    for (batch_priors, batch_values), alone in zip(batched, (state, later)):
        one_priors, one_values = shaped.evaluate(game, alone)
        assert batch_priors == pytest.approx(one_priors, abs=1e-5)
        assert batch_values == pytest.approx(one_values, abs=1e-5)


def test_values_are_read_from_the_seat_to_act_in_a_two_player_zero_sum_game():
    two = game_class("heroica_v0")()
    state = two.new_state(1)
    assert PolicyEvaluator.viewers(two, [state]) == [(two.current_player(state),)]
    three = game_class("heroica_v0")(num_players=3)
    assert PolicyEvaluator.viewers(three, [three.new_state(1)]) == [(0, 1, 2)]


def test_match_seats_search_over_a_model_and_reports_its_thinking_time(run_folder):
    spec = f"search(simulations=2):{run_folder / 'final_model.zip'}"
    report = run_match(["heroica_v0", spec, "random", "--games", "2", "--json"])
    assert report["bot_a"] == "search:heroica_run/final_model" and report["games"] == 2
    assert report["ms_per_decision_a"] > 0 and report["ms_per_decision_b"] > 0


def test_lookahead_over_a_model_plays_the_policys_choice_where_confident(run_folder):
    """``lookahead:PATH``: the policy's priors, one observation; a confident choice is the
    policy's own deterministic action, and the budget options reach the lookahead bot."""
    model_path = run_folder / "final_model.zip"
    guided = load_agent(
        f"lookahead(playouts=2,candidates=2,confident=0.001):{model_path}", "heroica_v0"
    )
    policy = load_agent(str(model_path), "heroica_v0")
    assert guided.name == "lookahead:heroica_run/final_model"
    assert guided.budget.playouts == 2 and guided.budget.candidates == 2
    game = game_class("heroica_v0")()
    state = game.new_state(6)
    rng = np.random.default_rng(0)
    for _ in range(40):
        if game.current_player(state) < 0:
            break
        action = guided.act(game, state, rng)
        assert action == policy.act(game, state, rng)
        game.apply_legal(state, action)
    assert guided.stats["confident"] > 0 and guided.stats["searches"] == 0
    priors = guided.proposer.priors(game, state)
    assert priors.sum() == pytest.approx(1.0) and not priors[~game.legal_mask(state)].any()


def test_lookahead_over_a_model_names_a_bad_option(run_folder):
    with pytest.raises(OptionError, match="'simulations': is not a lookahead option"):
        load_agent(f"lookahead(simulations=8):{run_folder / 'final_model.zip'}", "heroica_v0")


def test_match_seats_lookahead_over_a_model(run_folder):
    spec = f"lookahead(playouts=2,candidates=2,horizon=1):{run_folder / 'final_model.zip'}"
    report = run_match(["heroica_v0", spec, "heuristic", "--games", "2", "--json"])
    assert report["bot_a"] == "lookahead:heroica_run/final_model" and report["games"] == 2
    assert report["ms_per_decision_a"] > 0
