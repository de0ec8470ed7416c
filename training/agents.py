"""Trained policies as players: a saved MaskablePPO model behind the ``envs.bots.Bot`` protocol,
so matches, evaluation during training and tournaments use one code path for bots and models.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


class PolicyBot:
    """Plays with a MaskablePPO policy: observation and mask of the seat to move."""

    def __init__(self, model: Any, name: str = "policy", deterministic: bool = True):
        self.model = model
        self.name = name
        self.deterministic = deterministic

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True) -> "PolicyBot":
        from sb3_contrib import MaskablePPO

        return cls(MaskablePPO.load(str(path), device="cpu"), name=Path(path).stem, deterministic=deterministic)

    def act(self, game: Any, state: Any, rng: np.random.Generator) -> int:
        seat = game.current_player(state)
        observation = game.observe(state, seat)[None]
        mask = game.legal_mask(state)[None]
        action, _ = self.model.predict(observation, action_masks=mask, deterministic=self.deterministic)
        return int(np.asarray(action).reshape(-1)[0])
