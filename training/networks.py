"""Policy networks for board planes.

``BoardCNN`` is an SB3 features extractor for our (C, H, W) observations: "same"-padded
convolutions keep the board's geometry (so a cell's features stay at that cell, matching the
cell-indexed action planes), then a linear layer to ``features_dim``. It works for every game:
boards are padded to the env's ``board_size``, and channel counts come from the space.
"""

from __future__ import annotations

from typing import Sequence

import gymnasium as gym
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class BoardCNN(BaseFeaturesExtractor):
    def __init__(self, observation_space: gym.spaces.Box, features_dim: int = 256,
                 channels: Sequence[int] = (64, 64, 64), kernel_size: int = 3):
        if len(observation_space.shape) != 3:
            raise ValueError(f"BoardCNN needs (C, H, W) observations, got {observation_space.shape}")
        if kernel_size % 2 != 1:
            raise ValueError(f"kernel_size must be odd so that padding keeps the board size, got {kernel_size}")
        super().__init__(observation_space, features_dim)
        in_channels, height, width = observation_space.shape
        layers: list[nn.Module] = []
        for out_channels in channels:
            layers += [nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2), nn.ReLU()]
            in_channels = out_channels
        self.convs = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(in_channels * height * width, features_dim), nn.ReLU())

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.head(self.convs(observations))
