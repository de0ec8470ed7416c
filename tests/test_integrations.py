"""The envs inside the PettingZoo ecosystem: global state, the parallel API, the Box observation
formats and SuperSuit's wrappers, and clear errors before ``reset``.

SuperSuit's ``sticky_actions`` is left out on purpose: it repeats an agent's previous action,
which in a masked turn-based game is usually illegal at the next decision.
"""

from __future__ import annotations

import numpy as np
import pytest
import supersuit as ss
from pettingzoo.test import api_test, parallel_api_test

from envs import env_module, env_names, make
from envs.core.game import GameError, OptionError

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _play(env, steps: int, seed: int = 1):
    """Random legal play through ``last()``, reading the mask from the observation or infos."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for count, _agent in enumerate(env.agent_iter()):
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        if count >= steps:
            break
    return obs


# -- state() and state_space -------------------------------------------------------------
@pytest.mark.parametrize("name", env_names())
def test_state_is_every_seat_view_then_who_decides(name):
    env = make(name)
    env.reset(seed=4)
    state = env.state()
    seats = env.game.num_players
    channels = env.game.observation_shape[0]
    assert state.shape == env.state_space.shape
    assert env.state_space.contains(state)
    for seat in range(seats):
        view = env.game.observe(env.game_state, seat)
        np.testing.assert_array_equal(state[seat * channels : (seat + 1) * channels], view)
    deciding = state[seats * channels :]
    decider = env.game.current_player(env.game_state)
    assert deciding[decider].min() == 1.0
    assert deciding.sum() == deciding[decider].size


@pytest.mark.parametrize("name", env_names())
def test_state_does_not_depend_on_who_asks(name):
    env = make(name)
    obs = _play(env, 30, seed=2)
    assert obs is not None
    before = env.state()
    for agent in env.possible_agents:
        env.observe(agent)
    np.testing.assert_array_equal(env.state(), before)


@pytest.mark.parametrize("name", env_names())
def test_state_stays_in_its_space_through_a_game(name):
    env = make(name)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(150):
        if env.game.is_terminal(env.game_state):
            break
        assert env.state_space.contains(env.state())
        env.step(int(rng.choice(np.flatnonzero(env.legal_mask()))))


# -- before reset and bad seeds ----------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda env: env.observe("player_0"),
        lambda env: env.last(),
        lambda env: env.state(),
        lambda env: env.action_mask("player_0"),
        lambda env: env.step(0),
    ],
)
def test_calls_before_reset_say_reset_first(call):
    env = make("heroica_v0")
    with pytest.raises(GameError, match=r"call reset\(\) before"):
        call(env)


@pytest.mark.parametrize(
    "seed, problem",
    [(-1, "int >= 0"), ("abc", "not a str"), (1.5, "not a float"), (True, "not a bool")],
)
def test_bad_seed_names_the_seed(seed, problem):
    env = make("heroica_v0")
    with pytest.raises(GameError, match=rf"reset\(seed={seed!r}\).*{problem}"):
        env.reset(seed=seed)


def test_numpy_int_seeds_are_seeds():
    env = make("heroica_v0")
    env.reset(seed=np.int64(3))
    first = env.observe("player_0")["observation"]
    env.reset(seed=3)
    np.testing.assert_array_equal(env.observe("player_0")["observation"], first)


def test_unknown_obs_format_is_named():
    with pytest.raises(OptionError, match="obs_format.*'flat'"):
        make("heroica_v0", obs_format="flat")


# -- Box formats ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", env_names())
def test_box_format_passes_the_api_test(name):
    api_test(make(name, obs_format="box"), num_cycles=60, verbose_progress=False)


@pytest.mark.parametrize("name", env_names())
def test_box_formats_hold_the_dict_planes_and_declare_finite_bounds(name):
    plain, box, hwc = (make(name, obs_format=f) for f in ("dict", "box", "box_hwc"))
    for env in (plain, box, hwc):
        env.reset(seed=9)
    agent = plain.agent_selection
    planes = plain.observe(agent)["observation"]
    np.testing.assert_array_equal(box.observe(agent), planes)
    np.testing.assert_array_equal(hwc.observe(agent), np.moveaxis(planes, 0, -1))
    for env in (box, hwc):
        space = env.observation_space(agent)
        assert np.isfinite(space.high).all() and space.contains(env.observe(agent))
        np.testing.assert_array_equal(
            env.infos[agent]["action_mask"], plain.observe(agent)["action_mask"]
        )
        np.testing.assert_array_equal(env.action_mask(agent), plain.action_mask(agent))


def test_box_infos_mask_is_zero_for_agents_not_deciding():
    env = make("heroica_v0", obs_format="box")
    env.reset(seed=1)
    idle = [a for a in env.agents if a != env.agent_selection]
    assert idle and all(not env.infos[a]["action_mask"].any() for a in idle)
    assert env.infos[env.agent_selection]["action_mask"].any()


# -- the parallel API ------------------------------------------------------------------------
@pytest.mark.parametrize("name", env_names())
def test_parallel_env_passes_the_parallel_api_test(name):
    parallel_api_test(env_module(name).parallel_env(), num_cycles=150)


def test_parallel_env_plays_a_whole_game_with_one_decider_per_step():
    par = env_module("heroica_v0").parallel_env(mission="arena")
    observations, _ = par.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(5000):
        deciders = [a for a, o in observations.items() if o["action_mask"].any()]
        assert len(deciders) == 1
        actions = {a: 0 for a in par.agents}
        actions[deciders[0]] = int(
            rng.choice(np.flatnonzero(observations[deciders[0]]["action_mask"]))
        )
        observations, rewards, terminations, truncations, _ = par.step(actions)
        if all(terminations.values()) or all(truncations.values()):
            break
    assert all(terminations.values()) and sorted(rewards.values()) == [-1.0, 1.0]


# -- SuperSuit ---------------------------------------------------------------------------------
AEC_WRAPPERS = {
    "dtype": (
        lambda env: ss.dtype_v0(env, np.float16),
        "box",
        lambda o, base: o.dtype == np.float16,
    ),
    "flatten": (ss.flatten_v0, "box", lambda o, base: o.shape == (int(np.prod(base)),)),
    "normalize_obs": (
        ss.normalize_obs_v0,
        "box",
        lambda o, base: o.shape == base and o.max() <= 1.0,
    ),
    "pad_observations": (ss.pad_observations_v0, "box", lambda o, base: o.shape == base),
    "frame_stack": (
        lambda env: ss.frame_stack_v1(env, 3),
        "box_hwc",
        lambda o, base: o.shape == base[:2] + (3 * base[2],),
    ),
    "agent_indicator": (
        ss.agent_indicator_v0,
        "box_hwc",
        lambda o, base: o.shape[:2] == base[:2] and o.shape[2] > base[2],
    ),
}


@pytest.mark.parametrize("name", env_names())
@pytest.mark.parametrize("wrapper", sorted(AEC_WRAPPERS))
def test_supersuit_wrapper_plays_legal_games(name, wrapper):
    wrap, obs_format, check = AEC_WRAPPERS[wrapper]
    base = make(name, obs_format=obs_format)
    shape = base.observation_space("player_0").shape
    obs = _play(wrap(base), 80)
    assert check(obs, shape), (wrapper, obs.shape, obs.dtype)


@pytest.mark.parametrize("name", env_names())
def test_supersuit_black_death_over_the_parallel_api(name):
    par = ss.black_death_v3(env_module(name).parallel_env(obs_format="box"))
    observations, infos = par.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(80):
        actions = {}
        for agent in par.agents:
            mask = infos[agent].get("action_mask")
            deciding = mask is not None and mask.any()
            actions[agent] = int(rng.choice(np.flatnonzero(mask))) if deciding else 0
        observations, _, terminations, truncations, infos = par.step(actions)
        if not par.agents:
            break
    for agent, obs in observations.items():
        assert obs.shape == par.observation_space(agent).shape


@pytest.mark.parametrize(
    "option, value",
    [
        ("cell_px", "big"),
        ("cell_px", 4),
        ("cell_px", 10**6),
        ("cell_px", True),
        ("max_turns", True),
        ("max_turns", 0),
    ],
)
def test_bad_env_options_are_named(option, value):
    with pytest.raises(OptionError, match=f"option '{option}'.*got {value!r}"):
        make("heroica_v0", **{option: value})
