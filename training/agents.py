"""Trained policies as players: a saved MaskablePPO model behind the ``envs.bots.Bot`` protocol,
so matches, evaluation during training and tournaments use one code path for bots and models.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np


@contextlib.contextmanager
def single_thread() -> Iterator[None]:
    """Run torch on one thread inside the block, then restore the previous count.

    One observation is far too small to split across threads, and on a busy machine (training
    workers, a tournament next door) torch's worker threads spin for a core that is not free:
    measured on 2 cores with a training run going, a decision took 140 ms with the default 2
    threads and under 5 ms with 1. Setting and restoring costs about a microsecond.
    """
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


class PolicyBot:
    """Plays with a MaskablePPO policy: observation and mask of the seat to move."""

    def __init__(self, model: Any, name: str = "policy", deterministic: bool = True):
        self.model = model
        self.name = name
        self.deterministic = deterministic

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True) -> PolicyBot:
        from sb3_contrib import MaskablePPO

        return cls(
            MaskablePPO.load(str(path), device="cpu"),
            name=Path(path).stem,
            deterministic=deterministic,
        )

    def act(self, game: Any, state: Any, rng: np.random.Generator) -> int:
        seat = game.current_player(state)
        observation = game.observe(state, seat)[None]
        mask = game.legal_mask(state)[None].copy()  # the game's cached mask is read-only
        with single_thread():
            action, _ = self.model.predict(
                observation, action_masks=mask, deterministic=self.deterministic
            )
        return int(np.asarray(action).reshape(-1)[0])


def load_agent(spec: str, game_name: str) -> Any:
    """A player from a command-line style spec, for ``game_name`` (e.g. ``"heroica_v0"``).

    ``spec`` is a bot name (``random``, ``heuristic``; see ``envs.bots.bot_names``), a path to
    a saved model (``runs/x/final_model.zip``), or either prefixed with a display name:
    ``ppo150k=runs/x/checkpoints/model_150000_steps.zip``. Returns an object with ``name`` and
    ``act(game, state, rng)`` (an ``envs.bots.Bot``).
    """
    from envs.bots import bot_names, get_bot

    if Path(spec).is_file() or "=" not in spec:  # a path may contain '=' (runs/lr=1e-4/x.zip)
        name, target = "", spec
    else:
        name, target = spec.split("=", 1)
    if not target:
        raise ValueError(f"agent spec {spec!r}: nothing after '='")
    if target in bot_names(game_name):
        bot = get_bot(game_name, target)
        if name:
            bot.name = name
        return bot
    path = Path(target)
    if path.suffix != ".zip":
        raise ValueError(
            f"agent spec {spec!r}: {target!r} is neither a bot of {game_name} "
            f"({', '.join(bot_names(game_name))}) nor a model file (.zip)"
        )
    if not path.is_file():
        raise FileNotFoundError(f"agent spec {spec!r}: model file {path} does not exist")
    agent = PolicyBot.load(path)
    agent.name = name or _model_display_name(path)
    return agent


def check_compatible(agent: Any, game: Any) -> None:
    """Raise ValueError when a policy's observation or action space does not fit ``game``."""
    model = getattr(agent, "model", None)
    if model is None:
        return
    obs_shape = tuple(model.observation_space.shape)
    actions = int(model.action_space.n)
    if obs_shape != tuple(game.observation_shape) or actions != game.layout.size:
        raise ValueError(
            f"agent {agent.name!r} was trained on observations {obs_shape} with {actions} "
            f"actions; this game has {tuple(game.observation_shape)} and {game.layout.size} "
            "(another game, or other board_size / num_players options?)"
        )


def _model_display_name(path: Path) -> str:
    """``final_model`` files are named after their run folder: ``heroica_v0_2026.../final_model``."""
    return f"{path.parent.name}/{path.stem}" if path.stem == "final_model" else path.stem
