"""Conformance suite: every registered env and scenario (``conformance_cases.py``) passes the
PettingZoo API, seed and render tests, and hundreds of random games keep every invariant at
every step through the public API (DESIGN.md, Testing)."""

from __future__ import annotations

import functools
import hashlib

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from envs import env_names, make
from envs.core.errors import StateError
from tests.conformance_cases import (
    ENV_CASES,
    MIN_RANDOM_GAMES_PER_ENV,
    STATE_INVARIANTS,
    Case,
    all_cases,
    cases_for,
    play_policy,
)

# Dict observations ({"observation", "action_mask"}) are the PettingZoo convention for masked
# envs (as in pettingzoo.classic); api_test still warns about them.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
    # api_test passes reset(options={"options": 1}); the env ignores it with a warning
    "ignore:.*reset\\(\\) ignores options:UserWarning",
)


def _factory(case: Case, **extra):
    return functools.partial(make, case.env_name, **case.options, **extra)


# -- registry coverage ---------------------------------------------------------------------
def test_every_registered_env_has_cases():
    missing = [name for name in env_names() if not cases_for(name)]
    assert not missing, (
        f"add conformance cases for {missing} to ENV_CASES in tests/conformance_cases.py"
    )
    assert set(ENV_CASES) <= set(env_names()), (
        f"cases for unregistered envs: {set(ENV_CASES) - set(env_names())}"
    )


@pytest.mark.parametrize("name", env_names())
def test_enough_random_games_per_env(name):
    games = sum(c.random_games for c in cases_for(name))
    assert games >= MIN_RANDOM_GAMES_PER_ENV, f"{name}: only {games} random games in its cases"


def test_heroica_cases_cover_every_mission():
    from envs.heroica.data.mission import list_missions

    cases = cases_for("heroica_v0")
    two_player = {
        c.options["mission"]
        for c in cases
        if c.options.get("num_players") == 2 and isinstance(c.options["mission"], str)
    }
    assert set(list_missions()) <= two_player
    assert any(c.options.get("num_players") == 3 for c in cases)
    assert {2, 4} <= {c.options["num_players"] for c in cases if c.options.get("battle")}
    assert any(isinstance(c.options["mission"], list) for c in cases)  # Epic Heroica


# -- pettingzoo.test -----------------------------------------------------------------------
def test_pettingzoo_api(env_case):
    api_test(make(env_case.env_name, **env_case.options), num_cycles=100, verbose_progress=False)


def test_pettingzoo_seed(env_case):
    seed_test(_factory(env_case), num_cycles=100)


def test_game_info_is_in_the_env_metadata(env_case):
    env = make(env_case.env_name, **env_case.options)
    info = env.game.info
    assert env.metadata["game_info"] == info.as_dict()
    assert info.utility == "zero_sum" and info.name == env_case.env_name.rsplit("_v", 1)[0]
    assert info.max_game_length is None or info.max_game_length > 0


def test_pettingzoo_render(env_case):
    # render_test calls env_fn(render_mode=mode) for every mode in metadata: human, rgb_array, ansi
    render_test(_factory(env_case, cell_px=8))


# -- random games with invariants at every step ----------------------------------------------
def _check_names(game, state, legal: np.ndarray, chosen: int) -> None:
    """Every legal action has its own name; string_to_action inverts action_to_string.

    The inverse is checked for the chosen action and the first and last legal ones (the base
    ``string_to_action`` recomputes the mask per call); over hundreds of games that covers them.
    """
    names = [game.action_to_string(state, int(a)) for a in legal]
    assert len(set(names)) == len(names), f"ambiguous action names: {sorted(names)}"
    index = {int(a): i for i, a in enumerate(legal)}
    for action in {chosen, int(legal[0]), int(legal[-1])}:
        name = names[index[action]]
        assert game.string_to_action(state, name) == action, (
            f"string_to_action({name!r}) != {action}"
        )


def _check_round_trip(game, state, action: int) -> tuple[list[dict], dict]:
    """to_dict/from_dict and to_json/from_json rebuild an identical state, mask and future.

    Applies ``action`` to the copy restored from JSON (never to ``state``) and returns its events
    and resulting state dict, for comparison with what the env then does with the original.
    """
    data = game.to_dict(state)
    assert game.to_dict(game.from_dict(data)) == data, "to_dict(from_dict(d)) != d"
    restored = game.from_json(game.to_json(state))
    assert game.to_dict(restored) == data, "to_json/from_json round trip differs"
    assert np.array_equal(game.legal_mask(restored), game.legal_mask(state)), (
        "mask differs after round trip"
    )
    events = [e.to_dict() for e in game.apply(restored, action)]
    return events, game.to_dict(restored)


def play_checked_game(case: Case, seed: int) -> list[int]:
    """One game of random legal play (numpy Generator seeded with ``seed``), checking every step.

    A failed check names the case, the seed and the actions so far, to replay the game."""
    actions: list[int] = []
    try:
        return _play_checked_game(case, seed, actions)
    except AssertionError as error:
        raise AssertionError(
            f"{case.id}, play options {case.play_options}, seed {seed}, after "
            f"{len(actions)} actions (last: {actions[-10:]}): {error}"
        ) from error


def _play_checked_game(case: Case, seed: int, actions: list[int]) -> list[int]:
    env = make(case.env_name, **case.make_kwargs(play=True))
    env.reset(seed=seed)
    game = env.game
    rng = np.random.default_rng(seed)
    check_state = STATE_INVARIANTS.get(case.env_name)
    policy = play_policy(case.env_name, seed)
    final_rewards: dict[str, float] = {}
    last_turn = 0
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, info = env.last()
        state = env.game_state
        if terminated or truncated:
            assert terminated, "random games end by termination (no max_turns here)"
            assert game.is_terminal(state)
            assert not obs["action_mask"].any(), f"{agent}: non-zero mask after the end"
            final_rewards[agent] = reward
            env.step(None)
            continue
        assert not game.is_terminal(state)
        player = game.current_player(state)
        assert agent == env.possible_agents[player], (
            f"agent {agent} selected, game says seat {player}"
        )
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (env.action_space(agent).n,)
        legal = np.flatnonzero(mask)
        assert legal.size > 0, f"{agent}: empty mask in a running game\n{game.render_text(state)}"
        assert np.array_equal(mask.astype(bool), game.legal_mask(state))
        fresh = state.copy()
        fresh.forget_mask()  # the cached mask must be the one a fresh computation gives
        assert np.array_equal(game.legal_mask(fresh), game.legal_mask(state)), "stale cached mask"
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any(), (
                    f"{other} has a mask on {agent}'s decision"
                )
        assert env.observation_space(agent)["observation"].contains(obs["observation"]), (
            "obs outside its space"
        )
        turn = game.turn_number(state)
        assert turn >= last_turn, "turn number went backwards"
        last_turn = turn
        if check_state is not None:
            check_state(env)
        action = policy(env, rng, legal)
        _check_names(game, state, legal, action)
        expected_events, expected_state = _check_round_trip(game, state, action)
        env.step(action)
        # the original continues exactly as the restored copies did (dice RNG state included)
        assert [e.to_dict() for e in env.last_events] == expected_events, (
            "round trip changed the dice/events"
        )
        assert game.to_dict(env.game_state) == expected_state, "round trip changed the next state"
        actions.append(action)
    assert game.is_terminal(env.game_state), "agent_iter ended before the game did"
    if check_state is not None:
        check_state(env)
    returns = game.returns(env.game_state)
    assert set(final_rewards) == set(env.possible_agents), (
        f"final rewards only for {sorted(final_rewards)}"
    )
    for i, agent in enumerate(env.possible_agents):
        assert final_rewards[agent] == pytest.approx(returns[i]), f"{agent}: reward != game.returns"
    assert sum(final_rewards.values()) == pytest.approx(0.0, abs=1e-9), (
        f"not zero-sum: {final_rewards}"
    )
    assert not env.agents, "agents left after every terminated agent stepped None"
    info = game.info
    assert (
        info.num_players == len(env.possible_agents)
        and info.min_players <= info.num_players <= info.max_players
    )
    assert info.max_game_length is None or len(actions) <= info.max_game_length, (
        "longer than GameInfo says"
    )
    return actions


RANDOM_CASES = [c for c in all_cases() if c.random_games > 0]
# Cases whose random games took 3 s or more on 2 cores (pytest --durations); marked slow. The
# others still play random games of every env under -m "not slow".
SLOW_RANDOM_CASES = frozenset(
    {
        "heroclix_v0[scenario=duel]",
        "heroclix_v0[scenario=mall]",
        "heroclix_v0[scenario=street]",
        "heroclix_v0[scenario=brawl]",
        "heroscape_v0[scenario=highlands_melee]",
        "heroscape_v0[scenario=mirror]",
        "heroica_v0[mission=fork,num_players=2]",
        "heroica_v0[mission=fork,num_players=3]",
        "heroica_v0[mission=tunnel+arena,num_players=2]",
        "heroica_v0[mission=tunnel,num_players=2]",
        "heroica_v0[mission=gauntlet,num_players=2]",
        "heroica_v0[mission=caverns,num_players=2]",
        "heroica_v0[mission=crossroads,num_players=2]",
        "heroica_v0[battle=True,mission=arena,num_players=4]",
        "heroica_v0[battle=True,mission=tunnel,num_players=2]",
    }
)


def test_the_slow_random_cases_are_cases():
    unknown = SLOW_RANDOM_CASES - {c.id for c in RANDOM_CASES}
    assert not unknown, f"SLOW_RANDOM_CASES names cases that no longer exist: {sorted(unknown)}"


@pytest.mark.parametrize(
    "random_case",
    [
        pytest.param(c, id=c.id, marks=pytest.mark.slow if c.id in SLOW_RANDOM_CASES else ())
        for c in RANDOM_CASES
    ],
)
def test_random_games_keep_invariants(random_case):
    for seed in range(random_case.random_games):
        play_checked_game(random_case, seed)


# -- same seed, same game ---------------------------------------------------------------------
def _trajectory(case: Case, seed: int) -> tuple[list[int], str]:
    env = make(case.env_name, **case.make_kwargs(play=True))
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    policy = play_policy(case.env_name, seed)
    actions, digest = [], hashlib.sha256()
    for _agent in env.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, _ = env.last()
        for other in env.possible_agents:  # every agent's view, not only the decider's
            view = env.observe(other)
            digest.update(view["observation"].tobytes())
            digest.update(view["action_mask"].tobytes())
        digest.update(np.float64(reward).tobytes())
        if terminated or truncated:
            env.step(None)
            continue
        action = policy(env, rng, np.flatnonzero(obs["action_mask"]))
        actions.append(action)
        env.step(action)
    return actions, digest.hexdigest()


def test_same_seed_same_game(env_case):
    first = _trajectory(env_case, seed=11)
    second = _trajectory(env_case, seed=11)
    assert first[0] == second[0], "same seed, different action sequence"
    assert first[1] == second[1], "same seed and actions, different observations"
    other = _trajectory(env_case, seed=12)
    assert other != first, "seeds 11 and 12 gave the identical game: is the seed used?"


# -- the Heroica state checker itself catches broken states -------------------------------------
def _heroica_broken(mutate):
    from envs.heroica.state import HeroField

    env = make("heroica_v0", mission="arena", num_players=2)
    env.reset(seed=0)
    game = env.game
    data = game.to_dict(env.game_state)
    board = game.boards[data["mission"]]
    free = [
        int(c)
        for c in board.spaces()
        if data["piece"][c] == 0 and c != game.starts[data["mission"]]
    ]
    monster = next(c for c, code in enumerate(data["piece"]) if code and game.is_monster[code])
    mutate(data, HeroField, free, monster)
    env.load_state(game.from_dict(data))
    return env


def _set(field, value, seat=0):
    def mutate(d, F, free, monster):
        d["heroes"][seat][F[field]] = value(d, free, monster) if callable(value) else value

    return mutate


def _two_heroes_on(d, F, free, monster):
    d["heroes"][0][F.CELL] = d["heroes"][1][F.CELL] = free[0]


def _monster_gone(d, F, free, monster):
    d["piece"][monster] = 0


def _weapon_twice(d, F, free, monster):
    d["heroes"][0][F.WEAPONS] = 1  # the first weapon, still in the Store as well


@pytest.mark.parametrize(
    "mutate",
    [
        _set("HEALTH", 5),
        _set("HEALTH", -1),
        _set("GOLD", -1),
        _set("TORCH", 2),
    ],
    ids=["health5", "health-1", "gold-1", "two-torches"],
)
def test_heroica_from_dict_refuses_values_out_of_bounds(mutate):
    # from_dict checks each field's bounds, so these never reach the conformance checker
    with pytest.raises(StateError, match="from_dict: field 'heroes'"):
        _heroica_broken(mutate)


@pytest.mark.parametrize(
    "mutate",
    [
        _set("CELL", lambda d, free, monster: monster),
        _two_heroes_on,
        _monster_gone,
        _weapon_twice,
    ],
    ids=["hero-on-monster", "shared-space", "monster-vanished", "weapon-twice"],
)
def test_heroica_state_checker_catches(mutate):
    from tests.conformance_cases import check_heroica_state

    env = _heroica_broken(mutate)
    with pytest.raises(AssertionError):
        check_heroica_state(env)


def test_heroica_state_checker_accepts_the_start():
    from tests.conformance_cases import check_heroica_state

    env = _heroica_broken(lambda *args: None)  # both Heroes share the Start (HE-3.5)
    check_heroica_state(env)
