"""One PettingZoo AEC environment that wraps any :class:`envs.core.game.Game`.

Agents are ``player_0 .. player_{n-1}`` in seat order. Every step is one decision of the
agent in ``agent_selection`` (the game decides who that is; it need not rotate). When the game
ends every agent is terminated and receives its final reward, whoever made the last move.
``max_turns`` truncates all agents once the game has completed that many player turns.

Observation formats (the env option ``obs_format``):

* ``"dict"`` (default): ``{"observation": float32 (C, H, W), "action_mask": int8 (N,)}``, the
  layout of PettingZoo's classic games, SB3-contrib's MaskablePPO adapters, TorchRL and Tianshou.
* ``"box"``: the float32 (C, H, W) planes alone, for wrappers that need a Box (SuperSuit). The
  mask is then ``infos[agent]["action_mask"]`` (from ``last()``) and ``action_mask(agent)``.
* ``"box_hwc"``: the same planes channel-last, (H, W, C). SuperSuit's ``frame_stack`` and
  ``agent_indicator`` append along the last axis, as for images; with this layout they add
  channels instead of widening the board.
* ``"rllib"``: ``{"observations": float32 (H, W, C), "action_mask": float32 (N,)}``, the keys and
  layout of RLlib's action-masking PPO module (its CNN encoder takes channel-last images and it
  takes the log of the mask, so the mask is float); ``training.rllib`` trains on it.

The mask is all zeros for agents that are not deciding. Every plane lies in [0, 1], as the
observation space declares, so normalising wrappers see finite bounds.

``state()`` is PettingZoo's global view, the same whoever asks: every seat's observation
stacked in seat order, then one plane per seat that is all ones for the seat deciding now,
float32 (P * C + P, H, W), declared by ``state_space``. A centralised critic reads it.

The parallel API: ``parallel_env(**options)`` in each env module is PettingZoo's
``turn_based_aec_to_parallel`` over this env: each parallel step carries the one decision of
the agent whose mask is not all zeros (the other agents' actions are ignored). PettingZoo's
``max_cycles_test`` does not apply: it steps ``action_space.sample()``, which is an illegal
action here almost always, and these games truncate by player turns (``max_turns``), not by
cycles.

The game position the env holds is ``env.game_state`` (``None`` before ``reset``): the engine's
state object, which ``env.game`` (the rules engine) reads and changes. ``load_state(state)``
continues from any position. ``metadata["game_info"]`` is the game's
:class:`~envs.core.game.GameInfo` as a dict. Calling ``observe``, ``last``, ``state``,
``step`` or ``render`` before ``reset`` is a :class:`~envs.core.game.GameError` saying so.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .core import options
from .core.game import Event, Game, GameError, GameOverError, OptionError

RENDER_MODES = (None, "human", "rgb_array", "ansi")


class GameEnv(AECEnv):
    metadata = {
        "render_modes": [mode for mode in RENDER_MODES if mode is not None],
        "is_parallelizable": False,
        "render_fps": 2,
        "name": "game",
    }

    def __init__(
        self,
        game: Game,
        name: str,
        render_mode: str | None = None,
        max_turns: int | None = None,
        cell_px: int = 48,
        obs_format: str = "dict",
    ):
        super().__init__()
        # checked once by their specs; the attributes below are PettingZoo's names for them
        self.env_options = EnvOptions(render_mode, max_turns, cell_px, obs_format)
        if render_mode == "human":
            try:
                import pygame  # noqa: F401
            except ImportError:
                raise OptionError(
                    "render_mode", "'human' needs pygame: pip install pygame"
                ) from None
        info = getattr(game, "info", None)
        self.metadata = dict(self.metadata, name=name)
        if info is not None:
            self.metadata["game_info"] = info.as_dict()
        self.game = game
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.cell_px = cell_px
        self.obs_format = obs_format
        self.possible_agents = [f"player_{i}" for i in range(game.num_players)]
        self.agents: list[str] = []
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        shape = game.observation_shape
        if obs_format in CHANNEL_LAST:
            shape = shape[1:] + shape[:1]
        planes = spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32)
        if obs_format == "dict":
            obs_space: spaces.Space[Any] = spaces.Dict(
                {
                    "observation": planes,
                    "action_mask": spaces.Box(0, 1, shape=(game.layout.size,), dtype=np.int8),
                }
            )
        elif obs_format == "rllib":
            obs_space = spaces.Dict(
                {
                    "observations": planes,
                    "action_mask": spaces.Box(
                        0.0, 1.0, shape=(game.layout.size,), dtype=np.float32
                    ),
                }
            )
        else:
            obs_space = planes
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            a: spaces.Discrete(game.layout.size) for a in self.possible_agents
        }
        self._zero_mask = np.zeros(game.layout.size, dtype=np.int8)
        self.game_state = None
        self.last_events: list[Event] = []
        self._window: Any = None  # a pygame Surface once render_mode="human" shows a frame

    @functools.cached_property
    def state_space(self) -> spaces.Box:
        """The space of :meth:`state` (built on first use: its bounds are arrays of the
        state's size, memory an env that never asks for the state need not hold)."""
        channels, height, width = self.game.observation_shape
        seats = self.game.num_players
        return spaces.Box(
            0.0, 1.0, shape=(seats * channels + seats, height, width), dtype=np.float32
        )

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- lifecycle ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        check_seed(seed)
        if options:
            # PettingZoo's api_test passes a dummy dict; game options belong to make().
            import gymnasium

            gymnasium.logger.warn(
                f"reset() ignores options {sorted(options)}; pass game options to make()"
            )
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.game_state = self.game.new_state(seed)
        self._after_change([])

    def load_state(self, state: Any) -> None:
        """Continue from a given game state (a puzzle, a from_dict position, a scenario)."""
        self.game_state = state
        self._after_change([])

    def _after_change(self, events: list[Event]) -> None:
        self.last_events = events
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[0]
        self._sync_after_step()

    def _require_reset(self, method: str) -> None:
        if self.game_state is None:
            raise GameError(f"call reset() before {method}()")

    def _sync_after_step(self) -> None:
        game, state = self.game, self.game_state
        player = game.current_player(state)
        if player < 0:
            final = game.returns(state)
            for i, agent in enumerate(self.possible_agents):
                if agent in self.agents:
                    self.rewards[agent] = float(final[i])
                    self.terminations[agent] = True
            # agent_selection stays valid: the last decider, or the first agent left
            if self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[player]
            if self.max_turns is not None and game.turn_number(state) >= self.max_turns:
                for agent in self.agents:
                    self.truncations[agent] = True
        if self.obs_format in ("box", "box_hwc"):
            for agent in self.agents:
                self.infos[agent]["action_mask"] = self.action_mask(agent)

    def legal_mask(self) -> np.ndarray:
        """bool mask of the current decision (the game caches it on the state until it changes)."""
        return self.game.legal_mask(self.game_state)

    def action_mask(self, agent: str) -> np.ndarray:
        """int8 mask of ``agent``'s legal actions now: all zeros unless it is deciding."""
        state = self.game_state
        if state is None:
            self._require_reset("action_mask")
        if (
            agent == self.agent_selection
            and not self.terminations.get(agent)
            and not self.truncations.get(agent)
        ):
            return self.game.legal_mask(state).astype(np.int8)
        return self._zero_mask.copy()

    def observe(self, agent: str) -> dict[str, np.ndarray] | np.ndarray:
        if self.game_state is None:  # the check inline: observe runs every step
            self._require_reset("observe")
        obs = self.game.observe(self.game_state, self._index[agent])
        if self.obs_format == "box":
            return obs
        if self.obs_format == "box_hwc":
            return channel_last(obs)
        if self.obs_format == "rllib":
            return rllib_observation(obs, self.action_mask(agent))
        return {"observation": obs, "action_mask": self.action_mask(agent)}

    def last(self, observe: bool = True):
        # AECEnv.last with the reset check, in one call: it runs every step
        if self.game_state is None:
            self._require_reset("last")
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def state(self) -> np.ndarray:
        """The global view (see the module docstring): every seat's planes, then who decides."""
        self._require_reset("state")
        game, position = self.game, self.game_state
        views = [game.observe(position, seat) for seat in range(game.num_players)]
        deciding = np.zeros((game.num_players,) + game.observation_shape[1:], dtype=np.float32)
        player = game.current_player(position)
        if player >= 0:
            deciding[player] = 1.0
        return np.concatenate(views + [deciding])

    def step(self, action: int | None) -> None:
        if self.game_state is None:
            self._require_reset("step")
        if not self.agents:
            raise GameOverError(f"action {action!r}: the game is over; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise GameOverError(
                    f"{agent}: action {action!r} after the game is over; finished "
                    "agents step(None), or call reset()"
                )
            self._was_dead_step(action)
            return
        if self.game.is_terminal(self.game_state):
            raise GameOverError("the game is over; call reset() to start a new one")
        action = self.game.check_action(self.game_state, action, agent)
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        for a in self.agents:
            rewards[a] = 0.0
        events = self.game.apply_legal(self.game_state, action)
        self.last_events = events
        self._sync_after_step()
        # AECEnv._accumulate_rewards, skipping the zeros that nearly every step holds
        cumulative = self._cumulative_rewards
        for a, reward in rewards.items():
            if reward:
                cumulative[a] += reward
        if self.render_mode == "human":
            self.render()

    def legal_action_names(self) -> list[str]:
        mask = self.legal_mask()
        return [self.game.action_to_string(self.game_state, int(a)) for a in np.flatnonzero(mask)]

    # -- rendering ------------------------------------------------------------------------
    def render(self) -> Any:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode to make()"
            )
            return None
        self._require_reset("render")
        if self.render_mode == "ansi":
            return self.game.render_text(self.game_state)
        from .core.render import render_frame  # the renderer loads with the first frame

        frame = render_frame(
            self.game.scene(self.game_state, self.last_events), cell_px=self.cell_px
        )
        if self.render_mode == "rgb_array":
            return frame
        return self._show(frame)

    def _show(self, frame: np.ndarray) -> None:
        import pygame

        if self._window is None:
            pygame.init()
            self._window = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            pygame.display.set_caption(str(self.metadata["name"]))
        surface = pygame.surfarray.make_surface(frame.swapaxes(0, 1))
        self._window.blit(surface, (0, 0))
        pygame.event.pump()
        pygame.display.flip()

    def close(self) -> None:
        if self._window is not None:
            import pygame

            pygame.display.quit()
            self._window = None


OBS_FORMATS = ("dict", "box", "box_hwc", "rllib")
CHANNEL_LAST = ("box_hwc", "rllib")
MIN_CELL_PX, MAX_CELL_PX = 8, 512  # below 8 no label fits; above 512 a frame is gigapixels


@dataclass(frozen=True)
class EnvOptions(options.Options):
    """The options every env takes besides its game's, declared once like the games'."""

    owner: ClassVar[str] = "the env"

    render_mode: str | None = options.option(
        None, '"rgb_array", "ansi" or "human" (needs pygame)', options.OneOf(RENDER_MODES)
    )
    max_turns: int | None = options.option(
        None,
        "truncate after this many player turns",
        options.Integer(none_means="no truncation"),
    )
    cell_px: int = options.option(
        48, "pixels per cell in rgb frames", options.Integer(MIN_CELL_PX, MAX_CELL_PX)
    )
    obs_format: str = options.option(
        "dict",
        '"dict" (planes + action_mask), "box" (planes), "box_hwc" (channel-last planes; '
        'the mask in infos) or "rllib" (see envs.pettingzoo_env)',
        options.OneOf(OBS_FORMATS),
    )


def option_specs(game_cls: Any) -> tuple[options.OptionSpec, ...]:
    """Every option ``make`` takes for an env over ``game_cls``: the game's, then the env's."""
    declared = getattr(game_cls, "OPTIONS", None)
    return (declared.specs() if declared else ()) + EnvOptions.specs()


def channel_last(planes: np.ndarray) -> np.ndarray:
    """(C, H, W) planes as a contiguous (H, W, C) array."""
    return np.ascontiguousarray(np.moveaxis(planes, 0, -1))


def rllib_observation(planes: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    """``obs_format="rllib"``: what RLlib's action-masking module reads (``training.rllib``'s
    evaluation builds its observations with this too)."""
    return {"observations": channel_last(planes), "action_mask": mask.astype(np.float32)}


def check_seed(seed: Any) -> None:
    """numpy takes any non-negative int; say so here rather than in numpy's words."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise GameError(
            f"reset(seed={seed!r}): the seed must be an int >= 0 or None, "
            f"not a {type(seed).__name__}"
        )
    if seed < 0:
        raise GameError(f"reset(seed={seed}): the seed must be an int >= 0 or None")


def make_env_factory(game_cls: Callable[..., Game], name: str) -> Callable[..., GameEnv]:
    """``env(**options)``: game options go to the game; env options are taken out first."""

    declared = getattr(game_cls, "OPTIONS", None)
    if declared is not None:
        accepted = list(declared.names())
    else:  # a game without declared options (tests, a new game): its constructor's names
        accepted = [p for p in inspect.signature(game_cls).parameters if p != "self"]

    def env(
        render_mode: str | None = None,
        max_turns: int | None = None,
        cell_px: int = 48,
        obs_format: str = "dict",
        **game_options: Any,
    ) -> GameEnv:
        options.unknown_option(name, game_options, accepted, EnvOptions.names())
        return GameEnv(
            game_cls(**game_options),
            name,
            render_mode=render_mode,
            max_turns=max_turns,
            cell_px=cell_px,
            obs_format=obs_format,
        )

    env.__name__ = "env"
    return env


def make_parallel_factory(env_factory: Callable[..., GameEnv]) -> Callable[..., Any]:
    """``parallel_env(**options)``: the same env through PettingZoo's turn-based converter."""

    def parallel_env(**options: Any) -> Any:
        from pettingzoo.utils.conversions import turn_based_aec_to_parallel

        return turn_based_aec_to_parallel(env_factory(**options))

    parallel_env.__name__ = "parallel_env"
    return parallel_env
