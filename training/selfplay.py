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

Episode statistics. At the end of an episode ``info["learner_episode"]`` holds the learner's
return ``r``, length ``l`` (its decisions, forced ones not counted), wall time ``t``, ``forced``
(the learner's decisions played for it) and ``env_decisions`` (AEC steps of the episode). It is not ``info["episode"]``: that
key belongs to the monitors (SB3's ``Monitor``/``VecMonitor``, gymnasium's
``RecordEpisodeStatistics``, which refuses an env that writes it), so wrap the env in one of them
for ``rollout/ep_rew_mean``.

Pure Python + numpy at import time; torch / SB3 are imported only by :class:`PolicyOpponent`.
"""

from __future__ import annotations

import copy
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

__all__ = ["Opponent", "BotOpponent", "PolicyOpponent", "LeagueSchedule", "OpponentPool",
           "SelfPlayEnv"]


# ==========================================================================================
# Opponents
# ==========================================================================================
@runtime_checkable
class Opponent(Protocol):
    """Plays one seat: returns a legal action for ``agent`` (the AEC env's ``agent_selection``)."""

    def act(self, env: Any, agent: str, obs: dict[str, np.ndarray], rng: np.random.Generator) -> int: ...


class BotOpponent:
    """An :mod:`envs.bots` Bot as an opponent (reads ``env.game`` and ``env.game_state``)."""

    def __init__(self, bot: Any, name: str | None = None):
        self.bot = bot
        self.name = name or getattr(bot, "name", type(bot).__name__)

    def act(self, env: Any, agent: str, obs: dict[str, np.ndarray], rng: np.random.Generator) -> int:
        return int(self.bot.act(env.game, env.game_state, rng))

    def __repr__(self) -> str:
        return f"BotOpponent({self.name!r})"


class PolicyOpponent:
    """A frozen (MaskablePPO) policy as an opponent.

    ``policy`` is a ``MaskableActorCriticPolicy`` or a model with a ``.policy`` (it is used as
    given: use :meth:`snapshot` to freeze a copy of a model that keeps training). Deterministic
    play takes the masked argmax; stochastic play samples the masked distribution with the
    env's ``rng`` (so it is reproducible from the env seed), falling back to ``predict`` for
    policies without ``get_distribution``.
    """

    def __init__(self, policy: Any, deterministic: bool = False, name: str = "policy"):
        self.policy = getattr(policy, "policy", policy)
        self.deterministic = deterministic
        self.name = name

    @classmethod
    def snapshot(cls, model: Any, deterministic: bool = False, name: str = "snapshot") -> "PolicyOpponent":
        """Freeze a deep copy of ``model``'s policy (eval mode) so later training leaves it alone."""
        policy = copy.deepcopy(getattr(model, "policy", model))
        if hasattr(policy, "set_training_mode"):
            policy.set_training_mode(False)
        return cls(policy, deterministic=deterministic, name=name)

    def act(self, env: Any, agent: str, obs: dict[str, np.ndarray], rng: np.random.Generator) -> int:
        mask = np.asarray(obs["action_mask"], dtype=bool)
        policy = self.policy
        if self.deterministic or not hasattr(policy, "get_distribution"):
            action, _ = policy.predict(obs["observation"], action_masks=mask,
                                       deterministic=self.deterministic)
            return int(np.asarray(action).reshape(-1)[0])
        import torch

        with torch.no_grad():
            obs_tensor, _ = policy.obs_to_tensor(obs["observation"])
            dist = policy.get_distribution(obs_tensor, action_masks=mask)
            probs = dist.distribution.probs.reshape(-1).cpu().numpy().astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        total = probs.sum()
        if not total > 0:  # degenerate numerics: uniform over the legal actions
            probs = mask.astype(np.float64)
            total = probs.sum()
        return int(rng.choice(probs.size, p=probs / total))

    def __repr__(self) -> str:
        return f"PolicyOpponent({self.name!r}, deterministic={self.deterministic})"


# ==========================================================================================
# League schedule and opponent pool
# ==========================================================================================
@dataclass
class LeagueSchedule:
    """Relative weights of the opponent kinds (normalised when sampling).

    ``random``, ``heuristic`` and ``lookahead`` are the bots of those names (``envs.bots``);
    ``snapshots`` is the weight of all frozen snapshots together (one is then picked uniformly).
    A kind with no entry in the pool (no snapshots yet, no heuristic bot) passes its weight to
    the others in proportion. ``max_snapshots`` is how many snapshots the pool keeps (newest).
    """

    random: float = 0.2
    heuristic: float = 0.3
    snapshots: float = 0.5
    max_snapshots: int = 5
    lookahead: float = 0.0

    BOT_KINDS = ("random", "heuristic", "lookahead")
    KINDS = (*BOT_KINDS, "snapshots")

    def __post_init__(self) -> None:
        for kind in self.KINDS:
            value = getattr(self, kind)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                    or not np.isfinite(value):
                raise ValueError(f"LeagueSchedule.{kind}: weight must be a finite number, got {value!r}")
            if value < 0:
                raise ValueError(f"LeagueSchedule.{kind}: weight must be >= 0, got {value!r}")
        if sum(getattr(self, k) for k in self.KINDS) <= 0:
            raise ValueError("LeagueSchedule: all weights (random, heuristic, lookahead, snapshots) are zero; "
                             "give at least one a positive weight")
        m = self.max_snapshots
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 0:
            raise ValueError(f"LeagueSchedule.max_snapshots: must be an integer >= 0, got {m!r}")
        if self.snapshots > 0 and m == 0:
            raise ValueError("LeagueSchedule.max_snapshots: is 0 but snapshots has weight "
                             f"{self.snapshots}; keep at least one snapshot or set snapshots=0")

    def weights(self) -> dict[str, float]:
        total = float(sum(getattr(self, k) for k in self.KINDS))
        return {k: float(getattr(self, k)) / total for k in self.KINDS}


class OpponentPool:
    """Named opponents (the bots ``random``, ``heuristic``, ``lookahead``, and snapshots) sampled
    by a :class:`LeagueSchedule`.

    ``sample(rng)`` returns ``(name, opponent)``. Snapshots are kept newest-last; adding one
    beyond ``schedule.max_snapshots`` evicts the oldest.
    """

    def __init__(self, schedule: LeagueSchedule | None = None, *, random: Opponent | None = None,
                 heuristic: Opponent | None = None, lookahead: Opponent | None = None):
        if random is None:
            from envs.bots import RandomBot

            random = BotOpponent(RandomBot(), name="random")
        self.random = random
        self.heuristic = heuristic
        self.lookahead = lookahead
        self._snapshots: OrderedDict[str, Opponent] = OrderedDict()
        self._schedule = LeagueSchedule()
        self.schedule = schedule if schedule is not None else LeagueSchedule()

    @classmethod
    def for_game(cls, game_name: str, schedule: LeagueSchedule | None = None) -> "OpponentPool":
        """The random bot and (where registered) the heuristic and lookahead bots of ``game_name``
        (``"heroica"``/``"heroica_v0"``)."""
        from envs.bots import bot_names, get_bot

        known = bot_names(game_name)
        bots = {kind: BotOpponent(get_bot(game_name, kind), name=kind)
                for kind in ("heuristic", "lookahead") if kind in known}
        return cls(schedule, **bots)

    def _bot(self, kind: str) -> Opponent | None:
        return getattr(self, kind)

    # -- schedule ---------------------------------------------------------------------
    @property
    def schedule(self) -> LeagueSchedule:
        return self._schedule

    @schedule.setter
    def schedule(self, schedule: LeagueSchedule) -> None:
        if not isinstance(schedule, LeagueSchedule):
            raise TypeError(f"schedule must be a LeagueSchedule, got {type(schedule).__name__}")
        self._schedule = schedule
        self._evict()

    # -- snapshots --------------------------------------------------------------------
    def add_snapshot(self, name: str, opponent: Opponent) -> None:
        if name in LeagueSchedule.BOT_KINDS or name in self._snapshots:
            raise ValueError(f"add_snapshot: name {name!r} is already in the pool "
                             f"({self.names()}); give each snapshot a new name")
        if not hasattr(opponent, "act"):
            raise TypeError(f"add_snapshot: {opponent!r} has no act(env, agent, obs, rng)")
        self._snapshots[name] = opponent
        self._evict()

    def _evict(self) -> None:
        while len(self._snapshots) > self._schedule.max_snapshots:
            self._snapshots.popitem(last=False)

    @property
    def snapshot_names(self) -> list[str]:
        """Kept snapshots, oldest first."""
        return list(self._snapshots)

    def names(self) -> list[str]:
        return [kind for kind in LeagueSchedule.BOT_KINDS if self._bot(kind) is not None] + self.snapshot_names

    def get(self, name: str) -> Opponent:
        if name in LeagueSchedule.BOT_KINDS and self._bot(name) is not None:
            return self._bot(name)
        if name in self._snapshots:
            return self._snapshots[name]
        raise KeyError(f"no opponent {name!r} in the pool; have {self.names()}")

    # -- sampling ---------------------------------------------------------------------
    def probabilities(self) -> dict[str, float]:
        """Probability of each named opponent under the schedule and the current entries."""
        weights = self._schedule.weights()
        available = {kind: self._bot(kind) is not None for kind in LeagueSchedule.BOT_KINDS}
        available["snapshots"] = bool(self._snapshots)
        total = sum(w for k, w in weights.items() if available[k])
        if total <= 0:
            missing = [k for k, w in weights.items() if w > 0 and not available[k]]
            raise ValueError(f"OpponentPool: the schedule puts weight only on {missing}, which the pool "
                             "does not have yet (add_snapshot first, or give a bot weight)")
        probs = {kind: weights[kind] / total for kind in LeagueSchedule.BOT_KINDS
                 if available[kind] and weights[kind] > 0}
        for name in self._snapshots:
            probs[name] = weights["snapshots"] / total / len(self._snapshots)
        return probs

    def sample(self, rng: np.random.Generator) -> tuple[str, Opponent]:
        probs = self.probabilities()
        names = list(probs)
        p = np.array([probs[n] for n in names], dtype=np.float64)
        name = names[int(rng.choice(len(names), p=p / p.sum()))]
        return name, self.get(name)

    def __repr__(self) -> str:
        return f"OpponentPool({self.names()}, {self._schedule})"


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
    docstring for both).
    """

    ILLEGAL_ACTION_MODES = ("terminate", "random", "raise")

    def __init__(self, env: str | Callable[[], Any], env_options: dict[str, Any] | None = None,
                 pool: OpponentPool | None = None, seed: int | None = None, *,
                 learner_seats: Sequence[int] | None = None, illegal_action: str = "terminate",
                 illegal_reward: float = -1.0, auto_play_forced: bool = False):
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
            raise ValueError(f"illegal_action: must be one of {', '.join(map(repr, self.ILLEGAL_ACTION_MODES))}, "
                             f"got {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        if not isinstance(auto_play_forced, bool):
            raise TypeError(f"auto_play_forced: must be True or False, got {auto_play_forced!r}")
        self.auto_play_forced = auto_play_forced
        self.forced_decisions = 0
        self.env_decisions = 0
        self._forced_in_episode = self._episode_start_decisions = 0
        self.pool = pool if pool is not None else OpponentPool.for_game(self.env_name)
        self.agents: list[str] = list(self.aec.possible_agents)
        n = len(self.agents)
        seats = list(range(n)) if learner_seats is None else [int(s) for s in learner_seats]
        if not seats or any(not 0 <= s < n for s in seats):
            raise ValueError(f"learner_seats: must be a non-empty list of seats in 0..{n - 1}, "
                             f"got {learner_seats!r}")
        self.learner_seats = seats
        first = self.agents[0]
        obs_space = self.aec.observation_space(first)
        self.observation_space = obs_space["observation"] if isinstance(obs_space, spaces.Dict) else obs_space
        self.action_space = self.aec.action_space(first)
        if not isinstance(self.action_space, spaces.Discrete):
            raise TypeError(f"SelfPlayEnv needs a Discrete action space, got {self.action_space}")
        self.render_mode = getattr(self.aec, "render_mode", None)
        self.metadata = {"render_modes": list(self.aec.metadata.get("render_modes", [])),
                         "render_fps": self.aec.metadata.get("render_fps", 4)}
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
        mask = mask_of(self.learner) if mask_of is not None else self.aec.observe(self.learner)["action_mask"]
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
        return {"learner_seat": self.learner_seat, "learner": self.learner,
                "opponent": dict(self.opponent_names)}

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
        self._episode_return, self._episode_length = 0.0, 0
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
                return self._learner_obs(), self._info()
        raise RuntimeError(f"{self.env_name}: 100 games in a row ended before the learner's first "
                           "decision; check max_turns and learner_seats")

    def action_masks(self) -> np.ndarray:
        """bool mask of the learner's legal actions (all False once the episode is over)."""
        return self._mask.copy()

    def step(self, action: int):
        if self._done:
            raise RuntimeError("step() after the episode ended (or before reset()); call reset()")
        action = int(np.asarray(action).reshape(-1)[0]) if not isinstance(action, (int, np.integer)) else int(action)
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
        if terminated or truncated:
            self._end_episode(info, reward, self._final_rewards())
        else:
            self._episode_return += reward
            self._episode_length += 1
        return obs, reward, terminated, truncated, info

    def _lose_by_illegal_action(self):
        """End the episode: the learner gets ``illegal_reward``, every other seat 0 (as PettingZoo's
        TerminateIllegalWrapper scores it); the game itself is left where it was."""
        obs = self._learner_obs()
        info = self._info()
        info["illegal_action"] = True
        self._last_mover = self.learner
        final = np.zeros(len(self.agents))
        final[self.learner_seat] = self.illegal_reward
        self._end_episode(info, self.illegal_reward, final)
        return obs, self.illegal_reward, True, False, info

    def _end_episode(self, info: dict[str, Any], reward: float, final_rewards: np.ndarray) -> None:
        self._episode_return += reward
        self._episode_length += 1
        self._done = True
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        info["final_rewards"] = final_rewards
        info["last_mover"] = self._last_mover
        info["learner_episode"] = {"r": self._episode_return, "l": self._episode_length,
                                   "t": round(time.perf_counter() - self._episode_start, 6),
                                   "forced": self._forced_in_episode,
                                   "env_decisions": self.env_decisions - self._episode_start_decisions}

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
