"""The spatial policy network: shapes, the cell <-> logit mapping, locality and receptive field,
hex parity, masking, MaskablePPO training with save/load, and behaviour cloning into it."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
import torch

from envs import make
from training.agents import single_thread
from training.networks import (
    SpatialNet,
    SpatialPolicy,
    board_is_hex,
    default_dilations,
    receptive_field,
    spatial_kwargs_for_game,
    spatial_policy,
)

GAMES = ["heroica_v0", "heroscape_v0", "heroclix_v0"]


@pytest.fixture(scope="module")
def games():
    """Each game under its default options (the default scenario and board size)."""
    return {name: make(name).game for name in GAMES}


def policy_for(game, **network):
    from gymnasium import spaces

    channels, height, width = game.observation_shape
    kwargs = {**spatial_kwargs_for_game(game), **network}
    return SpatialPolicy(
        spaces.Box(0.0, 1.0, (channels, height, width), np.float32),
        spaces.Discrete(game.layout.size),
        lambda _: 1e-3,
        **kwargs,
    )


def play_until(game, wanted, seed=0, limit=400):
    """Random legal play from a new game until ``wanted(obs, legal cells by plane)`` holds."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    for _ in range(limit):
        seat = game.current_player(state)
        assert seat >= 0, "the game ended before the wanted position"
        obs, mask = game.observe(state, seat), game.legal_mask(state)
        cells: dict[str, list[int]] = {}
        for action in np.flatnonzero(mask):
            decoded = game.layout.decode(int(action))
            if decoded.on_cell:
                cells.setdefault(decoded.kind, []).append(decoded.cell)
        if wanted(obs, cells):
            return state, obs, mask, cells
        game.apply_legal(state, int(rng.choice(np.flatnonzero(mask))))
    raise AssertionError("no such position within the limit")


# ==========================================================================================
# Shapes and kwargs
# ==========================================================================================
@pytest.mark.parametrize("name", GAMES)
def test_logits_cover_the_action_space_and_the_kwargs_are_plain(games, name):
    game = games[name]
    kwargs = spatial_kwargs_for_game(game)
    assert (
        kwargs["n_planes"] * kwargs["height"] * kwargs["width"] + kwargs["n_specials"]
        == game.layout.size
    )
    assert kwargs["board_channels"] == game.view.planes.board_channels
    assert pickle.loads(pickle.dumps(kwargs)) == kwargs
    assert all(isinstance(v, (int, bool, tuple)) for v in kwargs.values())
    policy = policy_for(game)
    obs = torch.as_tensor(np.stack([game.observe(game.new_state(s), 0) for s in range(3)]))
    logits, value = policy.net(obs)
    assert logits.shape == (3, game.layout.size) and value.shape == (3, 1)
    assert policy.get_distribution(obs).distribution.probs.shape == (3, game.layout.size)
    # the new network is small: no dense layer over the flattened board
    assert sum(p.numel() for p in policy.parameters()) < 150_000


def test_spatial_policy_builds_from_the_env_name():
    policy_class, kwargs = spatial_policy("heroscape_v0", {"round_cap": 3}, channels=16)
    assert policy_class is SpatialPolicy
    assert kwargs["hex_board"] is True and kwargs["channels"] == 16
    assert kwargs["dilations"] == default_dilations(kwargs["height"], kwargs["width"])


def test_a_policy_refuses_a_game_of_another_shape(games):
    from gymnasium import spaces

    kwargs = spatial_kwargs_for_game(games["heroica_v0"])
    scape = games["heroscape_v0"]
    with pytest.raises(ValueError, match="16x16 board"):
        SpatialPolicy(
            spaces.Box(0.0, 1.0, scape.observation_shape, np.float32),
            spaces.Discrete(scape.layout.size),
            lambda _: 1e-3,
            **kwargs,
        )
    with pytest.raises(ValueError, match="net_arch"):
        policy_for(games["heroica_v0"], net_arch=[64])


# ==========================================================================================
# Cells: the layout's cell index is row * W + col on the observation grid
# ==========================================================================================
def test_heroica_step_cells_are_next_to_the_hero_on_the_observation_grid(games):
    game = games["heroica_v0"]
    planes, width = game.view.planes, game.observation_shape[2]
    _, obs, _, cells = play_until(game, lambda obs, cells: "step" in cells)
    ((hero_row, hero_col),) = np.argwhere(obs[planes.channel_names.index("hero@seat+0")] > 0)
    for cell in cells["step"]:
        row, col = divmod(cell, width)
        assert abs(row - hero_row) + abs(col - hero_col) == 1  # square4: one step N/E/S/W
        assert obs[planes.start("space"), row, col] == 1


@pytest.mark.parametrize("name", ["heroscape_v0", "heroclix_v0"])
def test_select_cells_hold_the_deciding_seats_figures(games, name):
    game = games[name]
    planes, width = game.view.planes, game.observation_shape[2]
    _, obs, _, cells = play_until(game, lambda obs, cells: "select" in cells)
    own = obs[planes.channel_names.index("figures:seat+0")]
    for cell in cells["select"]:
        assert own[divmod(cell, width)] > 0


def cell_gradient(policy, game, action, seed=0):
    """|d logit[action] / d board planes| summed over channels: (H, W)."""
    torch.manual_seed(seed)
    obs = torch.rand(1, *game.observation_shape, requires_grad=True)
    logits, _ = policy.net(obs)
    logits[0, action].backward()
    return obs.grad[0, : policy.net.board_channels].abs().sum(0).numpy()


@pytest.mark.parametrize("name", GAMES)
def test_a_cell_logit_reads_the_cells_around_its_own_cell(games, name):
    game = games[name]
    _, height, width = game.observation_shape
    policy = policy_for(game, dilations=(1,))  # one 3x3 conv: a 3x3 field
    assert policy.receptive_field == 3
    layout = game.layout
    for plane in (layout.planes[0], layout.planes[-1]):
        for row, col in ((height // 2, width // 2), (1, width - 2)):
            action = layout.plane_action(plane, row * width + col)
            grad = cell_gradient(policy, game, action)
            reached = {tuple(rc) for rc in np.argwhere(grad > 0)}
            assert (row, col) in reached
            assert reached <= {(row + dr, col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    # a special action is read from the pooled board: every cell counts
    if layout.size > len(layout.planes) * height * width:
        grad = cell_gradient(policy, game, layout.size - 1)
        assert (grad > 0).mean() > 0.9


@pytest.mark.parametrize("name", GAMES)
def test_the_receptive_field_covers_the_board(games, name):
    game = games[name]
    _, height, width = game.observation_shape
    policy = policy_for(game)
    assert policy.receptive_field == receptive_field(policy.net.dilations) >= max(height, width)
    # the field is exactly as documented: from the corner cell, the gradient reaches out to the
    # field's radius (clipped by the board) and no further
    radius = policy.receptive_field // 2
    grad = cell_gradient(policy, game, game.layout.plane_action(game.layout.planes[0], 0))
    rows, cols = np.nonzero(grad)
    assert rows.max() == min(radius, height - 1) and cols.max() == min(radius, width - 1)


@pytest.mark.parametrize("name", GAMES)
def test_global_cells_let_a_cell_logit_read_the_whole_board(games, name):
    game = games[name]
    _, height, width = game.observation_shape
    action = game.layout.plane_action(game.layout.planes[0], (height // 2) * width + width // 2)
    local = cell_gradient(policy_for(game, dilations=(1,)), game, action)
    whole = cell_gradient(policy_for(game, dilations=(1,), global_cells=True), game, action)
    assert (local > 0).sum() <= 9
    assert (whole > 0).mean() > 0.9
    assert policy_for(game, global_cells=True).spatial_kwargs["global_cells"] is True


def test_default_dilations_triple_the_field_without_holes():
    for height, width in ((4, 4), (9, 7), (16, 16), (16, 20), (24, 24), (32, 32)):
        dilations = default_dilations(height, width)
        assert receptive_field(dilations) >= max(height, width)
        assert all(d <= receptive_field(dilations[:k]) for k, d in enumerate(dilations))
    assert default_dilations(16, 20) == (1, 3, 9)


# ==========================================================================================
# Hex parity
# ==========================================================================================
def test_only_hex_boards_get_a_parity_plane(games):
    assert [board_is_hex(games[name]) for name in GAMES] == [False, True, False]
    for name in GAMES:
        coords = policy_for(games[name]).net.coords
        _, height, width = games[name].observation_shape
        assert coords.shape == (3 if name == "heroscape_v0" else 2, height, width)
        assert torch.allclose(coords[0, :, 0], torch.linspace(0, 1, height))
        assert torch.allclose(coords[1, 0], torch.linspace(0, 1, width))
        if name == "heroscape_v0":
            assert torch.equal(coords[2, :, 3], torch.arange(height, dtype=torch.float32) % 2)
    net = SpatialNet(5, 3, 4, 6, n_planes=1, n_specials=0, hex_board=True)
    assert net(torch.rand(2, 5, 4, 6))[0].shape == (2, 24)


# ==========================================================================================
# Masking, MaskablePPO, save/load, cloning
# ==========================================================================================
def test_masking_gives_illegal_actions_zero_probability(games):
    game = games["heroclix_v0"]
    policy = policy_for(game)
    _, obs, mask, _ = play_until(game, lambda obs, cells: "move" in cells, seed=2)
    obs_t = torch.as_tensor(obs[None])
    probs = policy.get_distribution(obs_t, action_masks=mask.copy()[None]).distribution.probs[0]
    assert torch.all(probs[torch.as_tensor(~mask)] == 0)
    assert torch.isclose(probs.sum(), torch.tensor(1.0))
    legal = np.flatnonzero(mask)
    with torch.no_grad():
        actions, values, log_prob = policy(
            obs_t.expand(64, -1, -1, -1), action_masks=np.tile(mask, (64, 1))
        )
        _, evaluated, _ = policy.evaluate_actions(
            obs_t, torch.as_tensor(legal[:1]), action_masks=mask.copy()[None]
        )
    assert np.isin(actions.numpy(), legal).all() and values.shape == (64, 1)
    assert torch.isclose(evaluated[0], probs[legal[0]].log(), atol=1e-5)
    action, _ = policy.predict(obs, action_masks=mask.copy(), deterministic=True)
    assert mask[int(action)]


def test_maskable_ppo_learns_and_a_saved_model_reloads_identically(tmp_path):
    from sb3_contrib import MaskablePPO

    from training.selfplay import SelfPlayEnv

    options = {"round_cap": 3}
    policy_class, kwargs = spatial_policy("heroscape_v0", options, channels=16)
    env = SelfPlayEnv("heroscape_v0", options, seed=0)
    model = MaskablePPO(
        policy_class,
        env,
        n_steps=16,
        batch_size=16,
        n_epochs=2,
        seed=0,
        device="cpu",
        policy_kwargs=kwargs,
    )
    before = [p.detach().clone() for p in model.policy.parameters()]
    with single_thread():
        model.learn(total_timesteps=32)
    assert model.num_timesteps >= 32
    assert any(not torch.equal(p, q) for p, q in zip(before, model.policy.parameters()))
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    assert isinstance(loaded.policy, SpatialPolicy)
    assert loaded.policy.spatial_kwargs == model.policy.spatial_kwargs
    obs, _ = env.reset(seed=3)
    observations, masks = [obs], [env.action_masks()]
    for _ in range(5):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(masks[-1])[0]))
        if terminated or truncated:
            obs, _ = env.reset()
        observations.append(obs)
        masks.append(env.action_masks())
    obs_t, masks = torch.as_tensor(np.stack(observations)), np.stack(masks)
    with torch.no_grad():
        for policy in (model.policy, loaded.policy):
            policy.set_training_mode(False)
        expected = model.policy.get_distribution(obs_t, action_masks=masks).distribution.probs
        got = loaded.policy.get_distribution(obs_t, action_masks=masks).distribution.probs
        assert torch.equal(expected, got)
        assert torch.equal(model.policy.predict_values(obs_t), loaded.policy.predict_values(obs_t))


def test_behaviour_cloning_fits_the_spatial_policy():
    from sb3_contrib import MaskablePPO

    from training.pretrain import clone, collect_demonstrations
    from training.selfplay import SelfPlayEnv

    def game():
        return make("heroscape_v0", round_cap=3).game

    data = collect_demonstrations(
        game, "heroscape_v0", "heuristic", games=3, seed=1, gamma=0.99, max_samples=200
    )
    policy_class, kwargs = spatial_policy("heroscape_v0", {"round_cap": 3}, channels=16)
    model = MaskablePPO(
        policy_class,
        SelfPlayEnv("heroscape_v0", {"round_cap": 3}, seed=0),
        n_steps=16,
        batch_size=16,
        device="cpu",
        seed=0,
        policy_kwargs=kwargs,
    )
    with single_thread():
        first = clone(
            model,
            data,
            epochs=1,
            batch_size=32,
            learning_rate=3e-3,
            value_coef=0.5,
            seed=0,
            log=lambda _: None,
        )
        later = clone(
            model,
            data,
            epochs=4,
            batch_size=32,
            learning_rate=3e-3,
            value_coef=0.5,
            seed=0,
            log=lambda _: None,
        )
    assert np.isfinite(later["nll"]) and later["nll"] < first["nll"]
    assert later["accuracy"] > first["accuracy"]
