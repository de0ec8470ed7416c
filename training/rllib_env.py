"""A heroarena env as an RLlib ``MultiAgentEnv``: the learner's seats decide, bots play inside.

RLlib sees only the seats the learner plays. Each episode draws a matchup from the league
weights: ``self_play`` gives every seat to the learner (one shared policy, so it plays itself),
``heuristic`` and ``random`` give the learner one seat (alternating by episode) and the other
seats to that bot. The bots are fixed policies, but they are played here rather than as RLlib
modules because a bot reads the game state, not the observation.

Observations are the env's ``obs_format="rllib"`` layout (``{"observations": (H, W, C),
"action_mask": (N,)}``), which RLlib's action-masking PPO module expects. Turn-based steps: a
step's action dict holds the one deciding learner seat; the reply holds the next deciding
learner seat's observation, or, when the game ends, every learner seat's last observation with
its final reward and ``terminated``. ``max_turns`` truncates every seat.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from envs import make
from envs.bots import RandomBot, get_bot

MATCHUPS = ("self_play", "heuristic", "random")


class HeroarenaMultiAgentEnv(MultiAgentEnv):
    """``env_config``: ``name`` (registered env), ``options`` (game options), ``max_turns``,
    ``league`` (matchup -> weight), ``seed``; RLlib adds ``worker_index``/``vector_index``."""

    def __init__(self, env_config: dict[str, Any] | None = None):
        super().__init__()
        config = dict(env_config or {})
        self.env = make(
            config["name"],
            obs_format="rllib",
            max_turns=config.get("max_turns"),
            **config.get("options", {}),
        )
        self.game = self.env.game
        league = config.get("league") or {"self_play": 1.0}
        unknown = sorted(set(league) - set(MATCHUPS))
        if unknown:
            raise ValueError(f"league: unknown matchups {unknown}; known: {list(MATCHUPS)}")
        weights = np.array([float(league.get(m, 0.0)) for m in MATCHUPS])
        if weights.sum() <= 0:
            raise ValueError("league: every weight is zero")
        self.weights = weights / weights.sum()
        stream = [
            int(config.get("seed", 0)),
            int(getattr(env_config, "worker_index", 0)),
            int(getattr(env_config, "vector_index", 0)),
        ]
        self.rng = np.random.default_rng(stream)
        self.bots = {"heuristic": get_bot(self.game.name, "heuristic"), "random": RandomBot()}
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        self.observation_spaces = {a: self.env.observation_space(a) for a in self.possible_agents}
        self.action_spaces = {a: self.env.action_space(a) for a in self.possible_agents}
        self.learner_seats: set[str] = set(self.possible_agents)
        self.opponent: Any = None
        self.episodes = 0
        self.matchup = "self_play"

    # -- episodes ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.matchup = MATCHUPS[int(self.rng.choice(len(MATCHUPS), p=self.weights))]
        if self.matchup == "self_play":
            self.learner_seats = set(self.possible_agents)
            self.opponent = None
        else:
            seat = self.possible_agents[self.episodes % len(self.possible_agents)]
            self.learner_seats = {seat}
            self.opponent = self.bots[self.matchup]
        self.episodes += 1
        self.env.reset(seed=int(self.rng.integers(2**31)))
        self.agents = sorted(self.learner_seats)
        self._play_bots()
        return self._reply()[0], {}

    def step(self, action_dict: dict[str, Any]):
        agent = self.env.agent_selection
        if agent not in action_dict:
            raise ValueError(
                f"step: no action for the deciding seat {agent}; "
                f"got actions for {sorted(action_dict)}"
            )
        self.env.step(int(action_dict[agent]))
        self._play_bots()
        return self._reply()

    # -- internals ----------------------------------------------------------------------------
    def _finished(self) -> bool:
        env = self.env
        return env.game.is_terminal(env.game_state) or any(env.truncations.values())

    def _play_bots(self) -> None:
        env = self.env
        while not self._finished() and env.agent_selection not in self.learner_seats:
            action = self.opponent.act(env.game, env.game_state, self.rng)
            env.step(int(action))

    def _reply(self):
        env = self.env
        if not self._finished():
            agent = env.agent_selection
            obs = {agent: env.observe(agent)}
            return obs, {agent: 0.0}, {"__all__": False}, {"__all__": False}, {}
        terminated = env.game.is_terminal(env.game_state)
        final = (
            env.game.returns(env.game_state) if terminated else np.zeros(len(self.possible_agents))
        )
        seats = sorted(self.learner_seats)
        obs = {a: env.observe(a) for a in seats}
        rewards = {a: float(final[self.possible_agents.index(a)]) for a in seats}
        ended = {a: terminated for a in seats} | {"__all__": terminated}
        cut = {a: not terminated for a in seats} | {"__all__": not terminated}
        infos = {a: {"matchup": self.matchup} for a in seats}
        return obs, rewards, ended, cut, infos
