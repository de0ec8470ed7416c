"""Observations stay inside their declared space, however large a count or a card value grows.

Random games rarely reach the corners (two life potions, a Hero defeated twice in Battle
Heroica, an Epic campaign won twice), so these build them: Heroica states through the public
JSON round trip, Heroscape armies through a scenario file's own ``cards:``.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from envs import make
from envs.heroica.state import HeroField


def _assert_inside(env, state, agent_index: int = 0) -> None:
    planes = env.game.observe(state, agent_index)
    space = env.observation_space(env.possible_agents[agent_index])["observation"]
    outside = [
        env.game.view.channel_names[c] for c in np.flatnonzero((planes > 1.0).any(axis=(1, 2)))
    ]
    assert not outside and space.contains(planes), f"channels past 1: {outside}"


@pytest.mark.parametrize(
    "options",
    [
        {"mission": ["tunnel", "arena"], "num_players": 2},  # Epic Heroica
        {"mission": "arena", "num_players": 4, "battle": True, "store_gold": 40},
    ],
)
def test_heroica_large_counts_stay_in_the_observation_space(options):
    env = make("heroica_v0", **options)
    env.reset(seed=0)
    game = env.game
    data = game.to_dict(env.game_state)
    for seat in game.hero_seats():
        hero = data["heroes"][seat]
        hero[HeroField.GOLD] = 57
        hero[HeroField.LIFE_POTIONS] = 2
        hero[HeroField.SPEED_POTIONS] = 9
        hero[HeroField.MISSIONS_WON] = len(game.missions)
        hero[HeroField.DEFEATED_BY_MONSTERS] = 2 if game.battle else 0
        for kind in range(game.n_monster_kinds):
            hero[HeroField.KILLS + kind] = 12
    data["steps_left"] = 14
    state = game.from_dict(data)
    for seat in range(game.num_players):
        _assert_inside(env, state, seat)


def test_heroica_two_life_potions_read_apart_from_one():
    # A count scaled into [0, 1] must still tell 1 from 2 (they read 1 and 2 before the fix).
    env = make("heroica_v0", mission="fork", num_players=2)
    env.reset(seed=0)
    game = env.game
    channel = game.view.channel_names.index("seat+0:life_potions")
    readings = []
    for potions in (1, 2):
        data = game.to_dict(env.game_state)
        data["heroes"][0][HeroField.LIFE_POTIONS] = potions
        readings.append(float(game.observe(game.from_dict(data), 0)[channel, 0, 0]))
    assert 0.0 < readings[0] < readings[1] <= 1.0


GIANTS = textwrap.dedent("""\
    id: giants
    name: Giants
    battlefield: meadow
    cards:
      - {id: colossus, name: Colossus, kind: hero, figures: 1, move: 18, range: 15,
         attack: 20, defense: 12, height: 16, double_space: false}
    players:
      - army: [colossus, iron_warden]
        zone: A
      - army: [shade_duelist, cinder_slingers]
        zone: B
    victory: {type: eliminate}
    round_cap: 50
    """)


def test_heroscape_card_values_past_the_scale_stay_in_the_observation_space(tmp_path):
    path = tmp_path / "giants.yaml"
    path.write_text(GIANTS)
    env = make("heroscape_v0", scenario=str(path))
    env.reset(seed=0)
    for agent in env.possible_agents:
        planes = env.observe(agent)["observation"]
        assert env.observation_space(agent)["observation"].contains(planes)
        stats = [
            c for c, name in enumerate(env.game.view.channel_names) if name.startswith("stats:")
        ]
        assert planes[stats].max() == 1.0  # the Colossus's stats read 1: at or past the scale
