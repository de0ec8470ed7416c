"""The opponents of self-play and the league they are drawn from.

An :class:`Opponent` plays one seat of a PettingZoo AEC env: :class:`BotOpponent` wraps a
scripted bot (``envs.bots``), :class:`PolicyOpponent` a frozen MaskablePPO policy. A
:class:`LeagueSchedule` weighs the kinds (random, heuristic, lookahead, snapshots) and an
:class:`OpponentPool` holds them and samples one per seat and episode
(``training.selfplay.SelfPlayEnv`` does the sampling).

Pure Python + numpy at import time; torch / SB3 are imported only by :class:`PolicyOpponent`.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

__all__ = ["Opponent", "BotOpponent", "PolicyOpponent", "LeagueSchedule", "OpponentPool"]


# ==========================================================================================
# Opponents
# ==========================================================================================
@runtime_checkable
class Opponent(Protocol):
    """Plays one seat: returns a legal action for ``agent`` (the AEC env's ``agent_selection``)."""

    def act(
        self, env: Any, agent: str, obs: dict[str, np.ndarray], rng: np.random.Generator
    ) -> int: ...


class BotOpponent:
    """An :mod:`envs.bots` Bot as an opponent (reads ``env.game`` and ``env.game_state``)."""

    def __init__(self, bot: Any, name: str | None = None):
        self.bot = bot
        self.name = name or getattr(bot, "name", type(bot).__name__)

    def act(
        self, env: Any, agent: str, obs: dict[str, np.ndarray], rng: np.random.Generator
    ) -> int:
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
    def snapshot(
        cls, model: Any, deterministic: bool = False, name: str = "snapshot"
    ) -> PolicyOpponent:
        """Freeze a deep copy of ``model``'s policy (eval mode) so later training leaves it alone."""
        policy = copy.deepcopy(getattr(model, "policy", model))
        if hasattr(policy, "set_training_mode"):
            policy.set_training_mode(False)
        return cls(policy, deterministic=deterministic, name=name)

    def act(
        self, env: Any, agent: str, obs: dict[str, np.ndarray], rng: np.random.Generator
    ) -> int:
        mask = np.asarray(obs["action_mask"], dtype=bool)
        policy = self.policy
        if self.deterministic or not hasattr(policy, "get_distribution"):
            action, _ = policy.predict(
                obs["observation"], action_masks=mask, deterministic=self.deterministic
            )
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
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float, np.integer, np.floating))
                or not np.isfinite(value)
            ):
                raise ValueError(
                    f"LeagueSchedule.{kind}: weight must be a finite number, got {value!r}"
                )
            if value < 0:
                raise ValueError(f"LeagueSchedule.{kind}: weight must be >= 0, got {value!r}")
        if sum(getattr(self, k) for k in self.KINDS) <= 0:
            raise ValueError(
                "LeagueSchedule: all weights (random, heuristic, lookahead, snapshots) are zero; "
                "give at least one a positive weight"
            )
        m = self.max_snapshots
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 0:
            raise ValueError(f"LeagueSchedule.max_snapshots: must be an integer >= 0, got {m!r}")
        if self.snapshots > 0 and m == 0:
            raise ValueError(
                "LeagueSchedule.max_snapshots: is 0 but snapshots has weight "
                f"{self.snapshots}; keep at least one snapshot or set snapshots=0"
            )

    def weights(self) -> dict[str, float]:
        total = float(sum(getattr(self, k) for k in self.KINDS))
        return {k: float(getattr(self, k)) / total for k in self.KINDS}


class OpponentPool:
    """Named opponents (the bots ``random``, ``heuristic``, ``lookahead``, and snapshots) sampled
    by a :class:`LeagueSchedule`.

    ``sample(rng)`` returns ``(name, opponent)``. Snapshots are kept newest-last; adding one
    beyond ``schedule.max_snapshots`` evicts the oldest.
    """

    def __init__(
        self,
        schedule: LeagueSchedule | None = None,
        *,
        random: Opponent | None = None,
        heuristic: Opponent | None = None,
        lookahead: Opponent | None = None,
    ):
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
    def for_game(cls, game_name: str, schedule: LeagueSchedule | None = None) -> OpponentPool:
        """The random bot and (where registered) the heuristic and lookahead bots of ``game_name``
        (``"heroica"``/``"heroica_v0"``)."""
        from envs.bots import bot_names, get_bot

        known = bot_names(game_name)
        bots = {
            kind: BotOpponent(get_bot(game_name, kind), name=kind)
            for kind in ("heuristic", "lookahead")
            if kind in known
        }
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
            raise ValueError(
                f"add_snapshot: name {name!r} is already in the pool "
                f"({self.names()}); give each snapshot a new name"
            )
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
        return [
            kind for kind in LeagueSchedule.BOT_KINDS if self._bot(kind) is not None
        ] + self.snapshot_names

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
            raise ValueError(
                f"OpponentPool: the schedule puts weight only on {missing}, which the pool "
                "does not have yet (add_snapshot first, or give a bot weight)"
            )
        probs = {
            kind: weights[kind] / total
            for kind in LeagueSchedule.BOT_KINDS
            if available[kind] and weights[kind] > 0
        }
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
