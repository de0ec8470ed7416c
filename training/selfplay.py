"""Self-play: any heroarena PettingZoo env as a single-agent ``gymnasium.Env`` for SB3.

>>> from training.selfplay import SelfPlayEnv, OpponentPool, LeagueSchedule
>>> pool = OpponentPool.for_game("heroica_v0", LeagueSchedule(random=1, heuristic=1, snapshots=2))
>>> env = SelfPlayEnv("heroica_v0", {"num_players": 2}, pool=pool, seed=0)
>>> obs, info = env.reset()                      # doctest: +SKIP
>>> # MaskablePPO("CnnPolicy" or "MlpPolicy", env) uses env.action_masks()
>>> # later: pool.add_snapshot("gen3", PolicyOpponent.snapshot(model))

One seat is the *learner* (the SB3 agent); every other seat is an :class:`Opponent` drawn from an
:class:`OpponentPool` once per episode (each seat independently). The learner's seat is drawn
uniformly at random each episode (or from ``learner_seats``).

Rewards. ``step`` applies the learner's action and then plays the opponents until the learner
must decide again or the game ends; the reward is the sum of the learner's per-step rewards
(``aec.rewards[learner]`` after *every* AEC step of that span, i.e. what
``aec._cumulative_rewards[learner]`` holds when the learner is next selected). A terminal reward
therefore reaches the learner whoever made the last move. (PettingZoo's SB3 tutorial wrapper
reads ``env.last()`` right after the learner's own step, which returns the *next* agent's
reward, so a learner that loses on an opponent's move never sees its -1.)

Illegal actions. MaskablePPO never produces one, but SB3's ``check_env`` and unmasked algorithms
step with ``action_space.sample()``, which is almost never legal here. By default
(``illegal_action="terminate"``, PettingZoo's ``TerminateIllegalWrapper`` convention) an illegal
action ends the episode as a loss for the learner: reward ``illegal_reward`` (-1), the other seats
0, ``terminated=True``. ``illegal_action="random"`` plays a uniformly random legal action instead,
and ``"raise"`` raises the AEC env's ``IllegalActionError`` (for debugging a masked agent). Either
of the first two reports ``info["illegal_action"] = True`` and counts in ``env.illegal_actions``.

Forced decisions. With ``auto_play_forced=True`` (the trainer's default) a learner decision with
exactly one legal action is played by the adapter, not returned to the agent: nothing can be
learned from it, and in Heroica about half of all decisions are forced (every roll). Its reward
is added to the step that led to it. ``env.forced_decisions`` counts them and
``env.env_decisions`` counts every AEC step (all seats, forced ones included), so a trainer can
report learner decisions/s (SB3 steps) next to env decisions/s.

Reward shaping. With ``reward_shaping=w > 0`` the learner's reward for each of its decisions
gains ``gamma * w * V(s') - w * V(s)``: ``V`` is the game's value of a position for the
learner's seat in [-1, 1] (by default the lookahead bot's, :meth:`envs.lookahead.LookaheadBot.value`:
army strength in Heroscape and HeroClix, the race to the goal in Heroica), ``s`` the position at
the decision and ``s'`` the one at the learner's next decision. The potential of a finished
game is 0, so over an episode the shaping sums to ``-w * V(s_0)`` (``gamma`` 1) whatever was
played: potential-based shaping (Ng, Harada and Russell, 1999) leaves the best policy what
it was, and only tells the learner sooner which of its decisions gained or lost ground.
``shaping_gamma`` must be given with it: PPO's ``gamma``. ``info["learner_episode"]["r"]``
stays the game's own return; ``"shaping"`` is what the shaping added. (A monitor's episode
return, SB3's ``rollout/ep_rew_mean``, is the shaped one.)

Episode statistics. At the end of an episode ``info["learner_episode"]`` holds the learner's
return ``r``, length ``l`` (its decisions, forced ones not counted), wall time ``t``, ``forced``
(the learner's decisions played for it) and ``env_decisions`` (AEC steps of the episode). It is not ``info["episode"]``: that
key belongs to the monitors (SB3's ``Monitor``/``VecMonitor``, gymnasium's
``RecordEpisodeStatistics``, which refuses an env that writes it), so wrap the env in one of them
for ``rollout/ep_rew_mean``.

Pure Python + numpy at import time; torch / SB3 are imported only by :class:`PolicyOpponent`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from .league import BotOpponent, LeagueSchedule, Opponent, OpponentPool, PolicyOpponent

__all__ = [
    "Opponent",
    "BotOpponent",
    "PolicyOpponent",
    "LeagueSchedule",
    "OpponentPool",
    "SelfPlayEnv",
]


# ==========================================================================================
# Reward shaping
# ==========================================================================================
def _shaping_weights(weight: Any, gamma: Any) -> tuple[float, float]:
    if gamma is None:
        if weight:
            raise ValueError(
                "shaping_gamma: reward_shaping needs the learner's discount (PPO's gamma); "
                "with another the shaping would change which policy is best"
            )
        gamma = 1.0
    for name, value, high in (("reward_shaping", weight, None), ("shaping_gamma", gamma, 1.0)):
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float, np.integer, np.floating))
            or not np.isfinite(value)
            or value < 0
            or (high is not None and value > high)
        ):
            bound = f"in [0, {high:g}]" if high is not None else ">= 0"
            raise ValueError(f"{name}: must be a finite number {bound}, got {value!r}")
    return float(weight), float(gamma)


# ==========================================================================================
# The gymnasium adapter
# ==========================================================================================
class SelfPlayEnv(gymnasium.Env):
    """One learning seat of a PettingZoo AEC env as a ``gymnasium.Env`` with ``action_masks()``.

    ``env`` is a registered env name (built with ``envs.make(env, **env_options)``) or a
    zero-argument factory returning an AEC env. ``pool`` defaults to
    ``OpponentPool.for_game(<env name>)``. ``seed`` seeds the first episode (seats, opponents,
    dice, opponent choices); ``reset(seed=...)`` reseeds. ``learner_seats`` restricts the seats
    the learner may take (default: all, uniformly).

    ``info`` always has ``learner_seat``, ``learner`` (agent name) and ``opponent`` (agent ->
    opponent name); at the end of an episode also ``final_rewards`` (one per seat: the game's
    returns when it is over, else the rewards summed over the episode), ``last_mover`` and
    ``learner_episode``. If the game ends before the learner's first decision, reset starts
    another game. ``illegal_action`` is ``"terminate"`` (default), ``"random"`` or ``"raise"``;
    ``auto_play_forced`` plays the learner's one-legal-action decisions for it (see the module
    docstring for both). ``reward_shaping`` weighs the potential-based shaping, with
    ``shaping_gamma`` its discount and ``potential(game, state, seat)`` its value of a position
    (default: the game's lookahead value); see the module docstring.
    """

    ILLEGAL_ACTION_MODES = ("terminate", "random", "raise")

    def __init__(
        self,
        env: str | Callable[[], Any],
        env_options: dict[str, Any] | None = None,
        pool: OpponentPool | None = None,
        seed: int | None = None,
        *,
        learner_seats: Sequence[int] | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        auto_play_forced: bool = False,
        reward_shaping: float = 0.0,
        shaping_gamma: float | None = None,
        potential: Callable[[Any, Any, int], float] | None = None,
    ):
        super().__init__()
        if isinstance(env, str):
            from envs import make

            self.env_name = env
            self.aec = make(env, **(env_options or {}))
        elif callable(env):
            if env_options:
                raise ValueError("env_options: pass options to the factory itself")
            self.aec = env()
            self.env_name = self.aec.metadata.get("name", type(self.aec).__name__)
        else:
            raise TypeError(f"env must be an env name or a factory, got {env!r}")
        if illegal_action not in self.ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"illegal_action: must be one of {', '.join(map(repr, self.ILLEGAL_ACTION_MODES))}, "
                f"got {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        if not isinstance(auto_play_forced, bool):
            raise TypeError(f"auto_play_forced: must be True or False, got {auto_play_forced!r}")
        self.auto_play_forced = auto_play_forced
        self.reward_shaping, self.shaping_gamma = _shaping_weights(reward_shaping, shaping_gamma)
        self._potential_of = potential
        if self.reward_shaping and potential is None:
            from envs.lookahead import position_value

            try:
                self._potential_of = position_value(self.env_name)
            except ValueError as error:
                raise ValueError(f"reward_shaping: {error}; pass potential=") from error
        self._potential = 0.0
        self.forced_decisions = 0
        self.env_decisions = 0
        self._forced_in_episode = self._episode_start_decisions = 0
        self.pool = pool if pool is not None else OpponentPool.for_game(self.env_name)
        self.agents: list[str] = list(self.aec.possible_agents)
        n = len(self.agents)
        seats = list(range(n)) if learner_seats is None else [int(s) for s in learner_seats]
        if not seats or any(not 0 <= s < n for s in seats):
            raise ValueError(
                f"learner_seats: must be a non-empty list of seats in 0..{n - 1}, "
                f"got {learner_seats!r}"
            )
        self.learner_seats = seats
        first = self.agents[0]
        obs_space = self.aec.observation_space(first)
        self.observation_space = (
            obs_space["observation"] if isinstance(obs_space, spaces.Dict) else obs_space
        )
        self.action_space = self.aec.action_space(first)
        if not isinstance(self.action_space, spaces.Discrete):
            raise TypeError(f"SelfPlayEnv needs a Discrete action space, got {self.action_space}")
        self.render_mode = getattr(self.aec, "render_mode", None)
        self.metadata = {
            "render_modes": list(self.aec.metadata.get("render_modes", [])),
            "render_fps": self.aec.metadata.get("render_fps", 4),
        }
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        self.learner_seat = 0
        self.learner = first
        self.opponents: dict[str, Opponent] = {}
        self.opponent_names: dict[str, str] = {}
        self.illegal_actions = 0
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        self._episode_rewards = np.zeros(n)
        self._done = True
        self._last_mover: str | None = None

    # -- helpers ------------------------------------------------------------------------
    def _over(self) -> tuple[bool, bool]:
        aec = self.aec
        if not aec.agents:
            return True, False
        terminated = any(aec.terminations.get(a, False) for a in aec.agents)
        truncated = any(aec.truncations.get(a, False) for a in aec.agents)
        return terminated, truncated and not terminated

    def _aec_step(self, action: int) -> float:
        """One AEC step; returns the learner's reward from it and tallies every seat's."""
        aec = self.aec
        self._last_mover = aec.agent_selection
        aec.step(action)
        self.env_decisions += 1
        for i, agent in enumerate(self.agents):
            self._episode_rewards[i] += float(aec.rewards.get(agent, 0.0))
        return float(aec.rewards.get(self.learner, 0.0))

    def _play_opponents(self) -> float:
        """Opponents act (and forced learner decisions are played, with ``auto_play_forced``)
        until the learner has a choice to make or the game is over."""
        reward = 0.0
        aec = self.aec
        while True:
            terminated, truncated = self._over()
            if terminated or truncated:
                return reward
            agent = aec.agent_selection
            if agent == self.learner:
                forced = self._forced_action()
                if forced is None:
                    return reward
                self.forced_decisions += 1
                self._forced_in_episode += 1
                reward += self._aec_step(forced)
                continue
            obs = aec.observe(agent)
            reward += self._aec_step(self.opponents[agent].act(aec, agent, obs, self.np_random))

    def _forced_action(self) -> int | None:
        """The learner's only legal action, if it has just one and forced decisions are auto-played."""
        if not self.auto_play_forced:
            return None
        mask_of = getattr(self.aec, "action_mask", None)  # ours: the mask without the planes
        mask = (
            mask_of(self.learner)
            if mask_of is not None
            else self.aec.observe(self.learner)["action_mask"]
        )
        legal = np.flatnonzero(mask)
        return int(legal[0]) if legal.size == 1 else None

    def _learner_obs(self) -> np.ndarray:
        obs = self.aec.observe(self.learner)
        if isinstance(obs, dict):
            self._mask = np.asarray(obs["action_mask"], dtype=bool)
            return obs["observation"]
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        return obs

    def _info(self) -> dict[str, Any]:
        return {
            "learner_seat": self.learner_seat,
            "learner": self.learner,
            "opponent": dict(self.opponent_names),
        }

    def _final_rewards(self) -> np.ndarray:
        game, state = getattr(self.aec, "game", None), getattr(self.aec, "game_state", None)
        if game is not None and state is not None and game.is_terminal(state):
            return np.asarray(game.returns(state), dtype=np.float64)
        return self._episode_rewards.copy()

    # -- gymnasium API --------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        # info["learner_episode"] at the end: the learner's view (its reward, its decisions), which
        # a monitor wrapped around this env sees too, but one around the AEC env would not.
        self._episode_return, self._episode_length, self._episode_shaping = 0.0, 0, 0.0
        self._forced_in_episode, self._episode_start_decisions = 0, self.env_decisions
        self._episode_start = time.perf_counter()
        for _ in range(100):
            self.learner_seat = int(self.learner_seats[rng.integers(len(self.learner_seats))])
            self.learner = self.agents[self.learner_seat]
            self.opponents, self.opponent_names = {}, {}
            for agent in self.agents:
                if agent != self.learner:
                    self.opponent_names[agent], self.opponents[agent] = self.pool.sample(rng)
            self.aec.reset(seed=int(rng.integers(2**31 - 1)))
            self._episode_rewards[:] = 0.0
            self._last_mover = None
            self._play_opponents()
            terminated, truncated = self._over()
            if not (terminated or truncated):
                self._done = False
                self._potential = self._potential_now()
                return self._learner_obs(), self._info()
        raise RuntimeError(
            f"{self.env_name}: 100 games in a row ended before the learner's first "
            "decision; check max_turns and learner_seats"
        )

    def action_masks(self) -> np.ndarray:
        """bool mask of the learner's legal actions (all False once the episode is over)."""
        return self._mask.copy()

    def step(self, action: int):
        if self._done:
            raise RuntimeError("step() after the episode ended (or before reset()); call reset()")
        action = (
            int(np.asarray(action).reshape(-1)[0])
            if not isinstance(action, (int, np.integer))
            else int(action)
        )
        illegal = not (0 <= action < self._mask.size and self._mask[action])
        if illegal:
            if self.illegal_action == "raise":
                self.aec.step(action)  # the AEC env raises its own IllegalActionError
                raise ValueError(f"action {action} is not legal for {self.learner} now")
            self.illegal_actions += 1
            if self.illegal_action == "terminate":
                return self._lose_by_illegal_action()
            legal = np.flatnonzero(self._mask)
            action = int(legal[self.np_random.integers(legal.size)])
        reward = self._aec_step(action)
        reward += self._play_opponents()
        terminated, truncated = self._over()
        obs = self._learner_obs()
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        shaping = self._shaping(terminated)
        if terminated or truncated:
            self._end_episode(info, reward, self._final_rewards(), shaping)
        else:
            self._episode_return += reward
            self._episode_shaping += shaping
            self._episode_length += 1
        return obs, reward + shaping, terminated, truncated, info

    def _potential_now(self) -> float:
        """The shaping potential of the position the learner now faces (0 without shaping)."""
        if not self.reward_shaping:
            return 0.0
        value = float(self._potential_of(self.aec.game, self.aec.game_state, self.learner_seat))
        if not np.isfinite(value):
            raise ValueError(
                f"{self.env_name}: the shaping potential is {value!r}; it must be finite"
            )
        return self.reward_shaping * value

    def _shaping(self, terminated: bool) -> float:
        """``gamma * potential(s') - potential(s)``, the potential of a finished game being 0 (a
        truncated one goes on in principle, so it keeps its potential)."""
        if not self.reward_shaping:
            return 0.0
        after = 0.0 if terminated else self._potential_now()
        shaping = self.shaping_gamma * after - self._potential
        self._potential = after
        return shaping

    def _lose_by_illegal_action(self):
        """End the episode: the learner gets ``illegal_reward``, every other seat 0 (as PettingZoo's
        TerminateIllegalWrapper scores it); the game itself is left where it was."""
        obs = self._learner_obs()
        info = self._info()
        info["illegal_action"] = True
        self._last_mover = self.learner
        final = np.zeros(len(self.agents))
        final[self.learner_seat] = self.illegal_reward
        shaping = self._shaping(terminated=True)
        self._end_episode(info, self.illegal_reward, final, shaping)
        return obs, self.illegal_reward + shaping, True, False, info

    def _end_episode(
        self, info: dict[str, Any], reward: float, final_rewards: np.ndarray, shaping: float = 0.0
    ) -> None:
        self._episode_return += reward
        self._episode_shaping += shaping
        self._episode_length += 1
        self._done = True
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        info["final_rewards"] = final_rewards
        info["last_mover"] = self._last_mover
        info["learner_episode"] = {
            "r": self._episode_return,
            "shaping": self._episode_shaping,
            "l": self._episode_length,
            "t": round(time.perf_counter() - self._episode_start, 6),
            "forced": self._forced_in_episode,
            "env_decisions": self.env_decisions - self._episode_start_decisions,
        }

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    def add_snapshot_file(self, path: str, name: str) -> list[str]:
        """Load a saved model as a frozen snapshot opponent (called through ``env_method`` so
        that envs in SubprocVecEnv workers get the learner's snapshots too). Returns the pool's
        snapshot names afterwards, the one view of a worker's pool the trainer gets."""
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(path, device="cpu")
        self.pool.add_snapshot(name, PolicyOpponent(model, name=name))
        return self.pool.snapshot_names
