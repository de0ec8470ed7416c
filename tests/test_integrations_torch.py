"""TorchRL and Tianshou take the envs as they are (the Dict observation with its mask).

Both wrap the PettingZoo AEC env directly; these tests play legal random games through the
wrappers, reading the mask each library exposes, so a change to the env's API that breaks
either library fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs import env_names, make

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")


@pytest.mark.parametrize("name", env_names())
def test_torchrl_pettingzoo_wrapper_with_masks(name):
    torch = pytest.importorskip("torch")
    pettingzoo_lib = pytest.importorskip("torchrl.envs.libs.pettingzoo")
    env = pettingzoo_lib.PettingZooWrapper(
        env=make(name), use_mask=True, categorical_actions=True, seed=0
    )
    tensordict = env.reset()
    generator = torch.Generator().manual_seed(0)
    acted = 0
    for _ in range(40):
        for group in env.group_map:
            masks = tensordict[group, "action_mask"].reshape(
                -1, tensordict[group, "action_mask"].shape[-1]
            )
            actions = []
            for mask in masks:
                legal = torch.nonzero(mask).flatten()
                if legal.numel():
                    acted += 1
                    actions.append(
                        legal[torch.randint(legal.numel(), (1,), generator=generator)][0]
                    )
                else:
                    actions.append(torch.tensor(0))
            tensordict[group, "action"] = torch.stack(actions).reshape(
                tensordict[group, "action_mask"].shape[:-1]
            )
        tensordict = env.step(tensordict)["next"]
        if tensordict["done"].all():
            break
    assert acted >= 1
    for group in env.group_map:
        assert (
            tensordict[group, "observation", "observation"].shape[-3:]
            == make(name).game.observation_shape
        )


@pytest.mark.parametrize("name", env_names())
def test_tianshou_pettingzoo_env_plays_legal_games(name):
    tianshou_env = pytest.importorskip("tianshou.env")
    env = tianshou_env.PettingZooEnv(make(name))
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(200):
        assert obs["agent_id"] in env.agents
        legal = np.flatnonzero(np.asarray(obs["mask"]))
        assert legal.size
        obs, rewards, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            assert sorted(rewards) == [-1.0, 1.0] or set(rewards) == {0.0}
            break
