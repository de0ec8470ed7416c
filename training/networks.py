"""Policy networks for board planes.

``BoardCNN`` (the first network) is an SB3 features extractor: "same"-padded convolutions,
then one dense layer over the flattened board to ``features_dim``, then SB3's MLP heads. Its
action logits are a dense function of the whole board, so nothing ties a cell's logit to that
cell's features, and the dense layer holds most of its parameters. Old configs still use it.

``SpatialPolicy`` is the spatial network, one class for every game and board size, built by
:func:`spatial_policy` from a game's own layouts::

    policy_class, policy_kwargs = spatial_policy("heroscape_v0", {"scenario": "skirmish"})
    model = MaskablePPO(policy_class, env, policy_kwargs=policy_kwargs, ...)

Inputs: the (C, H, W) planes of ``envs.core.planes.PlaneLayout``: ``B = board_channels`` board
views, then ``C - B`` constant views (one scalar each, broadcast over the board).

Architecture (``ch`` = ``channels``, ``E`` = ``scalar_dim``, ``D`` = ``head_dim``; defaults
32, 64, 64; ``P`` action planes)::

    scalars  s = mean over the board of each constant plane          (N, C-B)
             e = ReLU(Linear(E)) o ReLU(Linear(E)) (s)               (N, E)  scalar embedding
    stem     h = ReLU(Conv1x1(board planes -> ch) + Conv1x1(coords -> ch) + Linear(e -> ch))
             coords: row/(H-1), col/(W-1), and (hex boards only) row parity (odd-r rows)
    trunk    for d in dilations: h = ReLU(h + Conv3x3(ch -> ch, dilation d)(h))   residual
    cells    z = ReLU(Conv1x1(ch -> ch)(ReLU(h + Linear(e -> ch) [+ Linear(2 ch -> ch)(mean, max of h)])))
             the bracket with ``global_cells``: the pooled board as every cell's bias
             Conv1x1(ch -> P)(z)                                    (N, P, H, W)
             flattened plane-major: action p * H*W + row * W + col, the order of
             ``envs.core.actions.ActionLayout`` on the observation grid
    pooled   g = [mean over cells of h, max over cells of h, e]      (N, 2 ch + E)
    specials Linear(D -> n_specials) o ReLU o Linear(2 ch + E -> D) (g)   actions P*H*W ...
    value    Linear(D -> 1) o ReLU o Linear(2 ch + E -> D) (g)

A cell's logit is a 1x1 function of that cell's trunk features and the scalar embedding, so
"step here" is scored from what the trunk saw around "here"; constants (phase, dice, round)
are read once as numbers instead of being convolved as flat images. 56-63k parameters for
the three games (BoardCNN with 32 channels: 2.3-2.9M, mostly its dense layer).

Receptive field. The stem and heads are 1x1; a 3x3 conv of dilation d widens the field by 2 d,
so a cell sees ``1 + 2 * sum(dilations)`` cells across (:func:`receptive_field`). The default
(:func:`default_dilations`) is the fewest convs with a field of at least the board,
``max(H, W)``: dilations 1, 3, 9, ..., each at most the field before it, so the field triples
per conv and has no holes (every offset in it is reached). Every board the games ship gets
(1, 3, 9): field 27, i.e. 13 cells each way. That is Heroica's 16 x 16 missions, Heroscape's
16 x 20 scenarios, HeroClix's 16 x 16 duel and its 24 x 24 mall, street and brawl. It covers
Heroscape's ranges (up to 7) and moves and, from the centre, the whole grid; a corner cell
sees 13 cells each way, and its logit sees nothing beyond unless ``global_cells`` adds the
pooled board to every cell (by default the pooled features feed only the special actions and
the value). A 32 x 32 grid gets (1, 3, 9, 18), field 63. Convs zero-pad: beyond the grid reads as zeros,
like the padding cells games already put around a small map. The pooled heads see every cell.
Cost: three 3x3 convs, as many as BoardCNN has, and channels-last activations: a 256-sample
update (forward, backward, Adam) takes about as long as BoardCNN's on 2 CPU cores, and acting
is faster. Cloning the heuristic bots (10 epochs, held-out accuracy): Heroscape 0.82 against
BoardCNN's 0.75 (3.4k decisions), HeroClix 0.57 against 0.44 (1.8k), Heroica 0.99 both.

Hex boards (Heroscape, pointy-top odd-r offsets): a cell's neighbours on the grid depend on its
row's parity, so the network gets that parity as a plane; the hex flag comes from the game's
board topology (:func:`board_is_hex`).

SB3 integration: the identity features extractor hands the preprocessed planes to
``SpatialNet``; ``forward``, ``evaluate_actions``, ``get_distribution`` and ``predict_values``
are overridden consistently (masks applied with sb3-contrib's ``MaskableDistribution``), so
MaskablePPO, ``model.save`` / ``MaskablePPO.load`` (every constructor argument is a plain
kwarg in ``policy_kwargs``) and ``training.pretrain`` (``evaluate_actions`` +
``get_distribution``) work unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib.common.maskable.distributions import MaskableDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

__all__ = [
    "BoardCNN",
    "PlanesExtractor",
    "SpatialNet",
    "SpatialPolicy",
    "board_is_hex",
    "default_dilations",
    "receptive_field",
    "spatial_kwargs_for_game",
    "spatial_policy",
]


class BoardCNN(BaseFeaturesExtractor):
    def __init__(
        self,
        observation_space: gym.spaces.Box,
        features_dim: int = 256,
        channels: Sequence[int] = (64, 64, 64),
        kernel_size: int = 3,
    ):
        if len(observation_space.shape) != 3:
            raise ValueError(
                f"BoardCNN needs (C, H, W) observations, got {observation_space.shape}"
            )
        if kernel_size % 2 != 1:
            raise ValueError(
                f"kernel_size must be odd so that padding keeps the board size, got {kernel_size}"
            )
        super().__init__(observation_space, features_dim)
        in_channels, height, width = observation_space.shape
        layers: list[nn.Module] = []
        for out_channels in channels:
            layers += [
                nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2),
                nn.ReLU(),
            ]
            in_channels = out_channels
        self.convs = nn.Sequential(*layers)
        self.head = nn.Sequential(
            nn.Flatten(), nn.Linear(in_channels * height * width, features_dim), nn.ReLU()
        )

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.head(self.convs(observations))


# ==========================================================================================
# Geometry helpers
# ==========================================================================================
def receptive_field(dilations: Sequence[int], kernel_size: int = 3) -> int:
    """Cells across that one output cell of the trunk sees (the 1x1 stem and heads add none)."""
    return 1 + (kernel_size - 1) * sum(int(d) for d in dilations)


def default_dilations(height: int, width: int) -> tuple[int, ...]:
    """The fewest 3x3 convs whose field is at least the board, ``max(H, W)``: dilations 1, 3,
    9, ... (each one the field before it, so the field triples per conv and has no holes: every
    offset within it is reached), the last one cut to what corner-to-corner (``2 max(H, W) - 1``)
    needs. 16 x 16 and 16 x 20 -> (1, 3, 9), field 27; 32 x 32 -> (1, 3, 9, 18), field 63."""
    size = max(int(height), int(width))
    dilations: list[int] = []
    while receptive_field(dilations) < size:
        field = receptive_field(dilations)
        dilations.append(max(1, min(field, (2 * size - 1 - field + 1) // 2)))
    return tuple(dilations) or (1,)


def coordinate_planes(height: int, width: int, hex_board: bool) -> torch.Tensor:
    """(2 or 3, H, W): row and column scaled to [0, 1], and for hex boards the row parity (odd-r
    rows sit half a cell to the right, so "up-left" is a different grid offset on them)."""
    rows = torch.arange(height, dtype=torch.float32).view(height, 1).expand(height, width)
    cols = torch.arange(width, dtype=torch.float32).view(1, width).expand(height, width)
    planes = [rows / max(height - 1, 1), cols / max(width - 1, 1)]
    if hex_board:
        planes.append(rows.remainder(2))
    return torch.stack(planes)


def board_is_hex(game: Any) -> bool:
    """Whether a game's board is hex, read from its boards' ``topology`` (``envs.core.board``):
    ``game.board`` (Heroscape, HeroClix), else ``game.boards`` (Heroica: one per mission), else
    ``game.padded``. A game with no board object is taken as square (no parity plane)."""
    from envs.core.board import Topology

    boards: list[Any] = []
    for name in ("board", "boards", "padded"):
        found = getattr(game, name, None)
        if found is None:
            continue
        for board in found if isinstance(found, (list, tuple)) else [found]:
            boards.append(getattr(board, "board", board))  # a PaddedBoard holds .board
        break
    kinds = {getattr(board, "topology", None) for board in boards} - {None}
    if len(kinds) > 1:
        raise ValueError(
            f"{getattr(game, 'name', game)!r} mixes board topologies {sorted(map(str, kinds))}"
        )
    return Topology.HEX in kinds


# ==========================================================================================
# The network
# ==========================================================================================
def _mlp(sizes: Sequence[int], last_activation: bool) -> nn.Sequential:
    layers: list[nn.Module] = []
    for k, (fan_in, fan_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(fan_in, fan_out))
        if last_activation or k < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class SpatialNet(nn.Module):
    """Board planes (N, C, H, W) -> (action logits (N, P*H*W + n_specials), value (N, 1)).

    See the module docstring for the layers. ``board_channels`` planes are images; the rest are
    constants (scalars broadcast over the board) and go through the scalar MLP instead.
    """

    def __init__(
        self,
        in_channels: int,
        board_channels: int,
        height: int,
        width: int,
        n_planes: int,
        n_specials: int,
        hex_board: bool = False,
        channels: int = 32,
        dilations: Sequence[int] | None = None,
        scalar_dim: int = 64,
        head_dim: int = 64,
        global_cells: bool = False,
    ):
        super().__init__()
        if not 0 < board_channels <= in_channels:
            raise ValueError(f"board_channels must be in 1..{in_channels}, got {board_channels}")
        if n_planes < 1 or n_specials < 0:
            raise ValueError(
                f"need n_planes >= 1 and n_specials >= 0, got {n_planes}, {n_specials}"
            )
        self.board_channels, self.height, self.width = board_channels, height, width
        self.n_planes, self.n_specials, self.hex_board = n_planes, n_specials, hex_board
        self.dilations = tuple(
            int(d) for d in (default_dilations(height, width) if dilations is None else dilations)
        )
        if not self.dilations or min(self.dilations) < 1:
            raise ValueError(
                f"dilations must be a non-empty list of integers >= 1, got {dilations}"
            )
        n_constants = in_channels - board_channels
        # recomputed from the kwargs, so not stored in the state dict (a reload rebuilds it)
        self.register_buffer(
            "coords", coordinate_planes(height, width, hex_board), persistent=False
        )
        # no constant planes: the scalar MLP reads one zero, so its biases are a learned embedding
        self.scalars = _mlp([max(n_constants, 1), scalar_dim, scalar_dim], last_activation=True)
        self.stem = nn.Conv2d(board_channels, channels, 1)
        # the stem's coordinate part, applied to the (1, coords, H, W) planes once per forward
        # and broadcast: the same as concatenating the coordinates to every sample, without
        # copying the batch
        self.stem_coords = nn.Conv2d(self.coords.shape[0], channels, 1, bias=False)
        self.stem_scalars = nn.Linear(scalar_dim, channels)
        self.trunk = nn.ModuleList(
            nn.Conv2d(channels, channels, 3, padding=d, dilation=d) for d in self.dilations
        )
        self.cell_scalars = nn.Linear(scalar_dim, channels)
        # the board's pooled features as a bias of every cell: a cell's logit then depends on
        # the whole board, not only on the receptive field around it
        self.cell_global = nn.Linear(2 * channels, channels, bias=False) if global_cells else None
        # a hidden 1x1 layer: +4 points of held-out accuracy cloning Heroscape's heuristic bot
        # (0.79 -> 0.83) for 6-9% more update time
        self.cell_hidden = nn.Conv2d(channels, channels, 1)
        self.cell_logits = nn.Conv2d(channels, n_planes, 1)
        pooled = 2 * channels + scalar_dim
        self.special_hidden = _mlp([pooled, head_dim], last_activation=True)
        self.special_logits = nn.Linear(head_dim, n_specials) if n_specials else None
        self.value_hidden = _mlp([pooled, head_dim], last_activation=True)
        self.value_out = nn.Linear(head_dim, 1)

    @property
    def receptive_field(self) -> int:
        return receptive_field(self.dilations)

    def init_weights(self, init: Any) -> None:
        """Orthogonal init as SB3 does it (``init(module, gain)``): sqrt(2) for hidden layers,
        1 for residual convs (so activations do not double per block), 0.01 for the logits
        (a near-uniform first policy), 1 for the value."""
        gains = [
            (self.scalars, np.sqrt(2)),
            (self.stem, np.sqrt(2)),
            (self.stem_coords, np.sqrt(2)),
            (self.stem_scalars, np.sqrt(2)),
            (self.trunk, 1.0),
            (self.cell_scalars, np.sqrt(2)),
            (self.cell_hidden, np.sqrt(2)),
            (self.cell_logits, 0.01),
            (self.special_hidden, np.sqrt(2)),
            (self.value_hidden, np.sqrt(2)),
            (self.value_out, 1.0),
        ]
        if self.special_logits is not None:
            gains.append((self.special_logits, 0.01))
        if self.cell_global is not None:
            gains.append((self.cell_global, np.sqrt(2)))
        for module, gain in gains:
            module.apply(partial(init, gain=gain))

    def features(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Trunk features (N, ch, H, W) and the scalar embedding (N, E)."""
        n = planes.shape[0]
        # channels-last activations: mkldnn's convolutions run ~15-25% faster on them on CPU
        # (measured); the slice is copied either way, as it is not contiguous
        board = planes[:, : self.board_channels].contiguous(memory_format=torch.channels_last)
        constants = planes[:, self.board_channels :]
        scalars = constants.mean(dim=(2, 3)) if constants.shape[1] else planes.new_zeros(n, 1)
        embedding = self.scalars(scalars)
        # (ch, coords) @ (coords, H*W): a tiny matmul where a 1x1 conv of one sample would take
        # torch's slow generic path
        coords = (self.stem_coords.weight.flatten(1) @ self.coords.flatten(1)).view(
            1, -1, self.height, self.width
        )
        h = torch.relu(self.stem(board) + coords + self.stem_scalars(embedding)[:, :, None, None])
        for conv in self.trunk:
            h = torch.relu(h + conv(h))
        return h, embedding

    def pooled(self, h: torch.Tensor, embedding: torch.Tensor) -> torch.Tensor:
        return torch.cat([h.mean(dim=(2, 3)), h.amax(dim=(2, 3)), embedding], dim=1)

    def logits(
        self, h: torch.Tensor, embedding: torch.Tensor, pooled: torch.Tensor
    ) -> torch.Tensor:
        bias = self.cell_scalars(embedding)
        if self.cell_global is not None:
            bias = bias + self.cell_global(pooled[:, : 2 * h.shape[1]])
        z = torch.relu(h + bias[:, :, None, None])
        z = torch.relu(self.cell_hidden(z))
        cells = self.cell_logits(z).flatten(1)  # (N, P*H*W): plane-major, then row * W + col
        if self.special_logits is None:
            return cells
        return torch.cat([cells, self.special_logits(self.special_hidden(pooled))], dim=1)

    def value(self, pooled: torch.Tensor) -> torch.Tensor:
        return self.value_out(self.value_hidden(pooled))

    def forward(self, planes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h, embedding = self.features(planes)
        pooled = self.pooled(h, embedding)
        return self.logits(h, embedding, pooled), self.value(pooled)


class PlanesExtractor(BaseFeaturesExtractor):
    """Identity: SB3's preprocessing (float conversion), then the planes as they are."""

    def __init__(self, observation_space: gym.spaces.Box):
        super().__init__(observation_space, features_dim=int(np.prod(observation_space.shape)))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return observations


# ==========================================================================================
# The MaskablePPO policy
# ==========================================================================================
class SpatialPolicy(MaskableActorCriticPolicy):
    """MaskableActorCriticPolicy whose logits and value come from :class:`SpatialNet`.

    ``board_channels``, ``n_planes``, ``n_specials``, ``height``, ``width`` and ``hex_board``
    describe the game (use :func:`spatial_policy`); the sizes are checked against the spaces,
    so a model never loads onto a game whose layout differs. ``channels``, ``dilations``,
    ``scalar_dim`` and ``head_dim`` size the network; ``global_cells`` adds the pooled
    board features to every cell's head. SB3's ``net_arch``, ``activation_fn`` and
    ``features_extractor_*`` do not apply (the network is fixed): passing one is an error
    rather than a setting silently ignored.
    """

    def __init__(
        self,
        observation_space: gym.spaces.Box,
        action_space: gym.spaces.Discrete,
        lr_schedule: Any,
        *,
        board_channels: int,
        n_planes: int,
        n_specials: int,
        height: int,
        width: int,
        hex_board: bool = False,
        channels: int = 32,
        dilations: Sequence[int] | None = None,
        scalar_dim: int = 64,
        head_dim: int = 64,
        global_cells: bool = False,
        ortho_init: bool = True,
        share_features_extractor: bool = True,
        normalize_images: bool = False,
        optimizer_class: type[torch.optim.Optimizer] = torch.optim.Adam,
        optimizer_kwargs: dict[str, Any] | None = None,
        net_arch: Any = None,
        activation_fn: Any = None,
        features_extractor_class: Any = None,
        features_extractor_kwargs: Any = None,
    ):
        sb3_only = {
            "net_arch": net_arch,
            "activation_fn": activation_fn,
            "features_extractor_class": features_extractor_class,
            "features_extractor_kwargs": features_extractor_kwargs,
        }
        given = [name for name, value in sb3_only.items() if value is not None]
        if given:
            raise ValueError(
                f"SpatialPolicy builds its own network; {', '.join(given)} do not apply "
                "(size it with channels, dilations, scalar_dim, head_dim)"
            )
        shape = tuple(observation_space.shape)
        if len(shape) != 3 or shape[1:] != (height, width):
            raise ValueError(f"SpatialPolicy for a {height}x{width} board got observations {shape}")
        if (
            not isinstance(action_space, gym.spaces.Discrete)
            or int(action_space.n) != n_planes * height * width + n_specials
        ):
            raise ValueError(
                f"SpatialPolicy: {n_planes} planes x {height}x{width} cells + {n_specials} "
                f"specials != action space {action_space}"
            )
        if not share_features_extractor:
            raise ValueError("SpatialPolicy shares its trunk between policy and value")
        dilations = (
            default_dilations(height, width)
            if dilations is None
            else tuple(int(d) for d in dilations)
        )
        # _build (called by the base constructor) reads these
        self.spatial_kwargs = dict(
            board_channels=int(board_channels),
            n_planes=int(n_planes),
            n_specials=int(n_specials),
            height=int(height),
            width=int(width),
            hex_board=bool(hex_board),
            channels=int(channels),
            dilations=dilations,
            scalar_dim=int(scalar_dim),
            head_dim=int(head_dim),
            global_cells=bool(global_cells),
        )
        super().__init__(
            observation_space,
            action_space,
            lr_schedule,
            net_arch=[],
            ortho_init=ortho_init,
            features_extractor_class=PlanesExtractor,
            share_features_extractor=True,
            normalize_images=normalize_images,
            optimizer_class=optimizer_class,
            optimizer_kwargs=optimizer_kwargs,
        )

    def _build(self, lr_schedule: Any) -> None:
        kwargs = dict(self.spatial_kwargs)
        del kwargs["height"], kwargs["width"]
        self.net = SpatialNet(
            self.observation_space.shape[0],
            height=self.spatial_kwargs["height"],
            width=self.spatial_kwargs["width"],
            **kwargs,
        )
        if self.ortho_init:
            self.net.init_weights(self.init_weights)
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        for unused in (
            "net_arch",
            "activation_fn",
            "features_extractor_class",
            "features_extractor_kwargs",
        ):
            data.pop(unused, None)
        data.update(self.spatial_kwargs)
        return data

    @property
    def receptive_field(self) -> int:
        return self.net.receptive_field

    def _distribution(self, logits: torch.Tensor, action_masks: Any) -> MaskableDistribution:
        distribution = self.action_dist.proba_distribution(action_logits=logits)
        if action_masks is not None:
            distribution.apply_masking(action_masks)
        return distribution

    def _get_action_dist_from_latent(self, latent_pi: torch.Tensor) -> MaskableDistribution:
        # here the "latent" is the action logits themselves: SpatialNet has no separate latent
        return self.action_dist.proba_distribution(action_logits=latent_pi)

    def forward(
        self, obs: torch.Tensor, deterministic: bool = False, action_masks: np.ndarray | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        logits, values = self.net(self.extract_features(obs))
        distribution = self._distribution(logits, action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        return actions.reshape((-1, *self.action_space.shape)), values, log_prob

    def evaluate_actions(
        self, obs: torch.Tensor, actions: torch.Tensor, action_masks: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        logits, values = self.net(self.extract_features(obs))
        distribution = self._distribution(logits, action_masks)
        return values, distribution.log_prob(actions), distribution.entropy()

    def get_distribution(
        self, obs: Any, action_masks: np.ndarray | None = None
    ) -> MaskableDistribution:
        h, embedding = self.net.features(self.extract_features(obs))
        logits = self.net.logits(h, embedding, self.net.pooled(h, embedding))
        return self._distribution(logits, action_masks)

    def predict_values(self, obs: Any) -> torch.Tensor:
        h, embedding = self.net.features(self.extract_features(obs))
        return self.net.value(self.net.pooled(h, embedding))


# ==========================================================================================
# For the trainer
# ==========================================================================================
def spatial_kwargs_for_game(game: Any) -> dict[str, Any]:
    """The game-describing kwargs of :class:`SpatialPolicy` for an ``envs.core.game.Game``
    (``env.game`` of an env): read from its observation shape, observation planes and action
    layout. Raises ValueError where the game's layout is not cells of the observation grid."""
    channels, height, width = (int(n) for n in game.observation_shape)
    layout = game.layout
    if layout.n_cells != height * width:
        raise ValueError(
            f"{game.name}: the action layout has {layout.n_cells} cells, the observation "
            f"grid {height}x{width} = {height * width}; the cell planes must be that grid"
        )
    planes = getattr(getattr(game, "view", None), "planes", None)
    board_channels = int(planes.board_channels) if planes is not None else channels
    if planes is not None and len(planes) != channels:
        raise ValueError(
            f"{game.name}: the plane layout has {len(planes)} channels, observations {channels}"
        )
    n_planes = len(layout.planes)
    return dict(
        board_channels=board_channels,
        n_planes=n_planes,
        n_specials=int(layout.size) - n_planes * height * width,
        height=height,
        width=width,
        hex_board=board_is_hex(game),
    )


def spatial_policy(
    env_name: str,
    env_options: dict[str, Any] | None = None,
    channels: int = 32,
    dilations: Sequence[int] | None = None,
    scalar_dim: int = 64,
    head_dim: int = 64,
    global_cells: bool = False,
) -> tuple[type[SpatialPolicy], dict[str, Any]]:
    """``(SpatialPolicy, policy_kwargs)`` for ``MaskablePPO(policy_class, env,
    policy_kwargs=policy_kwargs)`` on ``envs.make(env_name, **env_options)``. The kwargs are
    plain ints, bools and tuples (``dilations`` resolved), so a saved model reloads as it was."""
    from envs import make

    env = make(env_name, **(env_options or {}))
    try:
        kwargs = spatial_kwargs_for_game(env.game)
    finally:
        env.close()
    height, width = kwargs["height"], kwargs["width"]
    kwargs.update(
        channels=int(channels),
        scalar_dim=int(scalar_dim),
        head_dim=int(head_dim),
        global_cells=bool(global_cells),
        dilations=default_dilations(height, width)
        if dilations is None
        else tuple(int(d) for d in dilations),
    )
    return SpatialPolicy, kwargs
