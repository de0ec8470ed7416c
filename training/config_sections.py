"""The sections of a training config (``training.config.TrainConfig``) and the strict value
types they are made of: every field's docstring is its documentation."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal, TypeVar

import pydantic
from pydantic import BeforeValidator, Field, StrictBool, StrictInt, StrictStr

from envs import env_names
from envs.core.scenario import STRICT_MODEL

ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)

MODEL = pydantic.ConfigDict(**STRICT_MODEL, use_attribute_docstrings=True)
"""Unknown keys are errors, configs are immutable, field docstrings become descriptions."""

# YAML 1.2 float syntax: PyYAML (YAML 1.1) reads ``1e-4`` (no dot) as a string.
_FLOAT_RE = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def _yaml_float(value: Any) -> Any:
    if isinstance(value, bool):
        return value  # rejected by the strict float below, not read as 0/1
    if isinstance(value, str) and _FLOAT_RE.match(value.strip()):
        return float(value)
    return value


Float = Annotated[float, BeforeValidator(_yaml_float), Field(strict=True)]
PosFloat = Annotated[Float, Field(gt=0)]
NonNegFloat = Annotated[Float, Field(ge=0)]
PosInt = Annotated[StrictInt, Field(ge=1)]
Fraction = Annotated[Float, Field(ge=0, le=1)]


def available_cores() -> int:
    """Cores for ``n_envs: auto``: :func:`os.cpu_count` (1 if unknown)."""
    return os.cpu_count() or 1


class FieldCheckError(ValueError):
    """A cross-field check failed; ``loc`` is the field to blame (for the error's line)."""

    def __init__(self, loc: Sequence[str], message: str):
        self.loc = tuple(loc)
        self.message = message
        super().__init__(message)


# ==========================================================================================
# Sections
# ==========================================================================================
class EnvConfig(pydantic.BaseModel):
    """Which environment to train on."""

    model_config = MODEL

    name: StrictStr
    """Registered env name (``envs.env_names()``), e.g. ``heroica_v0``."""
    options: dict[StrictStr, Any] = Field(default_factory=dict)
    """Game options passed to ``envs.make(name, **options)`` (checked by the env itself),
    e.g. ``mission: fork`` for Heroica or ``scenario: skirmish`` for Heroscape."""
    max_turns: PosInt | None = None
    """Truncate an episode after this many player turns; null = only the game's own caps."""

    @pydantic.field_validator("name")
    @classmethod
    def _registered(cls, name: str) -> str:
        if name not in env_names():
            raise ValueError(f"unknown env {name!r}; registered: {', '.join(env_names())}")
        return name

    @pydantic.field_validator("options")
    @classmethod
    def _no_env_keys(cls, options: dict[str, Any]) -> dict[str, Any]:
        if "max_turns" in options:
            raise ValueError("set max_turns as env.max_turns, not in env.options")
        if "render_mode" in options:
            raise ValueError("render_mode is chosen by the trainer (rgb_array for the video)")
        if "obs_format" in options:
            raise ValueError(
                "obs_format is chosen by the trainer (dict for MaskablePPO, rllib "
                "for training.rllib)"
            )
        return options

    def make_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``envs.make(self.name, **kwargs)``."""
        kwargs = dict(self.options)
        if self.max_turns is not None:
            kwargs["max_turns"] = self.max_turns
        return kwargs


class PPOConfig(pydantic.BaseModel):
    """MaskablePPO hyperparameters (sb3-contrib names and meanings)."""

    model_config = MODEL

    learning_rate: PosFloat = 3e-4
    """Adam step size."""
    n_steps: Annotated[StrictInt, Field(ge=2)] = 1024
    """Steps collected per env per rollout; the rollout is ``n_steps * n_envs`` samples."""
    batch_size: Annotated[StrictInt, Field(ge=2)] = 256
    """Minibatch size; must divide the rollout ``n_steps * n_envs``."""
    n_epochs: PosInt = 4
    """Passes over each rollout."""
    gamma: Annotated[Float, Field(gt=0, le=1)] = 0.99
    """Discount. Rewards are terminal only, so long games want it close to 1."""
    gae_lambda: Fraction = 0.95
    """GAE bias/variance trade-off."""
    clip_range: PosFloat = 0.2
    """PPO policy clip."""
    ent_coef: NonNegFloat = 0.01
    """Entropy bonus; a little keeps self-play from collapsing to one line of play."""
    vf_coef: NonNegFloat = 0.5
    """Value loss weight."""
    max_grad_norm: PosFloat = 0.5
    """Gradient clipping norm."""
    target_kl: PosFloat | None = None
    """Stop a rollout's epochs early once the approximate KL to the rollout's policy passes
    1.5 x this (SB3's meaning); null = always run ``n_epochs``."""


class NetArchConfig(pydantic.BaseModel):
    """Hidden layer sizes after the features extractor (SB3 ``net_arch=dict(pi=..., vf=...)``)."""

    model_config = MODEL

    pi: list[PosInt] = Field(default_factory=lambda: [128, 128])
    """Policy head hidden sizes."""
    vf: list[PosInt] = Field(default_factory=lambda: [128, 128])
    """Value head hidden sizes."""


class SpatialConfig(pydantic.BaseModel):
    """The spatial network (``training.networks.SpatialPolicy``): per-cell action logits from a
    residual dilated conv trunk, constants through their own path, specials and value pooled."""

    model_config = MODEL

    channels: PosInt = 32
    """Width of the conv trunk."""
    dilations: Annotated[list[PosInt], Field(min_length=1)] | None = None
    """Dilation of each residual 3x3 conv; null = the fewest convs whose receptive field
    (1 + 2 * sum) covers the board (1, 3, 9 on 16 x 16 and 16 x 20 boards)."""
    scalar_dim: PosInt = 64
    """Size of the embedding of the constant (scalar) planes."""
    head_dim: PosInt = 64
    """Hidden size of the pooled heads (special actions, value)."""
    global_cells: StrictBool = False
    """Add the board's pooled features (mean and max of the trunk) to every cell's head, so a
    cell's action logit sees the whole board, not only its receptive field."""


class NetworkConfig(pydantic.BaseModel):
    """Policy network: ``spatial`` (per-cell action logits) or ``board_cnn`` (a CNN over the
    board planes, flattened into one dense layer, then MLP heads: the first network)."""

    model_config = MODEL

    kind: Literal["board_cnn", "spatial"] = "board_cnn"
    """Which network; the fields below ``spatial`` are BoardCNN's."""
    spatial: SpatialConfig = Field(default_factory=SpatialConfig)
    """Settings of the spatial network (used when kind is spatial)."""
    cnn_channels: Annotated[list[PosInt], Field(min_length=1)] = Field(
        default_factory=lambda: [64, 64, 64]
    )
    """Output channels of each conv layer ('same' padding, so the board size is kept)."""
    kernel_size: PosInt = 3
    """Conv kernel size (odd, so 'same' padding is symmetric)."""
    features_dim: PosInt = 256
    """Size of the linear layer after the convs (the features extractor's output)."""
    net_arch: NetArchConfig = Field(default_factory=NetArchConfig)
    """Policy and value hidden layers."""

    @pydantic.field_validator("kernel_size")
    @classmethod
    def _odd(cls, size: int) -> int:
        if size % 2 == 0:
            raise ValueError(f"kernel_size must be odd for 'same' padding, got {size}")
        return size


class LeagueConfig(pydantic.BaseModel):
    """Opponent pool. Each episode's opponent is drawn with these weights (renormalised over
    the kinds available: no snapshot exists before the first ``snapshot_every_steps``)."""

    model_config = MODEL

    random: NonNegFloat = 0.2
    """Weight of the uniformly random legal-move bot."""
    heuristic: NonNegFloat = 0.3
    """Weight of the game's heuristic bot."""
    lookahead: NonNegFloat = 0.0
    """Weight of the game's lookahead bot (the heuristic with playouts: stronger, and each of
    its decisions costs milliseconds, so a large weight slows the rollouts down)."""
    snapshots: NonNegFloat = 0.5
    """Weight of frozen snapshots of the learner (each snapshot equally likely)."""
    snapshot_every_steps: PosInt = 20_000
    """Freeze a copy of the learner into the pool every this many env steps."""
    max_snapshots: PosInt = 10
    """Keep at most this many snapshots (the oldest leaves first)."""

    @pydantic.model_validator(mode="after")
    def _some_weight(self) -> LeagueConfig:
        if self.random + self.heuristic + self.lookahead + self.snapshots <= 0:
            raise FieldCheckError(
                ("random",),
                "the league weights random, heuristic, lookahead "
                "and snapshots are all zero; give at least one > 0",
            )
        if self.random + self.heuristic + self.lookahead <= 0:
            # Before the first snapshot only the bots exist.
            raise FieldCheckError(
                ("random",),
                "random, heuristic and lookahead are all zero, so "
                "there is no opponent before the first snapshot",
            )
        return self

    def weights(self, have_snapshots: bool = True) -> dict[str, float]:
        """Normalised weights; without snapshots yet, over the bots only."""
        raw = {
            "random": self.random,
            "heuristic": self.heuristic,
            "lookahead": self.lookahead,
            "snapshots": self.snapshots if have_snapshots else 0.0,
        }
        total = sum(raw.values())
        return {k: v / total for k, v in raw.items()}


class PretrainConfig(pydantic.BaseModel):
    """Warm start: imitate a bot (behaviour cloning) before PPO; see ``training.pretrain``."""

    model_config = MODEL

    games: Annotated[StrictInt, Field(ge=0)] = 0
    """Games of the demonstrator against itself to learn from; 0 = no warm start."""
    demonstrator: Literal["heuristic", "lookahead"] = "heuristic"
    """The bot to imitate (both seats of every demonstration game). ``lookahead`` is one step of
    expert iteration: the search's choices as targets (slower to collect)."""
    max_samples: PosInt = 40_000
    """Keep at most this many decisions (observations are large: ~50-100 KB each)."""
    workers: PosInt | None = None
    """Processes that play the demonstration games; null = ``n_envs`` (one per core, as the
    rollouts use). A lookahead demonstrator spends tens of milliseconds a decision, so this
    is most of the warm start's speed."""
    epochs: PosInt = 3
    """Passes over the demonstrations."""
    batch_size: PosInt = 256
    """Decisions per gradient step."""
    learning_rate: PosFloat = 1e-3
    """Adam step size for cloning (PPO's optimizer starts fresh afterwards)."""
    value_coef: NonNegFloat = 0.5
    """Weight of the value loss (fit to each decision's discounted final return)."""
    budget_fraction: Annotated[Float, Field(gt=0, le=1)] = 1 / 3
    """With ``time_limit_minutes`` set, the warm start stops at this fraction of it: collecting
    ends at half of that share, cloning at the whole (after the minibatch under way), so a
    short run still spends most of its time learning."""


class ExpertIterationConfig(pydantic.BaseModel):
    """Expert iteration during PPO: the learner imitates tree search over itself; see
    ``training.expert``. Off unless ``every_steps`` is set."""

    model_config = MODEL

    every_steps: PosInt | None = None
    """Learner steps between iterations (each before the next rollout); null = off."""
    games: PosInt = 8
    """Games of search over the current policy against itself per iteration."""
    max_samples: PosInt = 5_000
    """Keep at most this many decisions per iteration."""
    simulations: PosInt = 32
    """Simulations per searched decision (``envs.search``)."""
    batch: PosInt = 8
    """Leaves per network call in the search."""
    c_puct: PosFloat = 1.5
    """The search's weight of the priors."""
    considered: Annotated[StrictInt, Field(ge=0)] = 0
    """0: PUCT at the root, the visits the target; m >= 2: sequential halving over the m most
    probable actions, its improved policy the target (``envs.search``)."""
    c_scale: PosFloat = 0.1
    """With ``considered``: the weight of a mean value against the log prior."""
    epochs: PosInt = 2
    """Passes over an iteration's decisions."""
    batch_size: PosInt = 128
    """Decisions per gradient step."""
    learning_rate: PosFloat = 3e-4
    """Adam step size of the imitation (PPO's own optimizer is left as it is)."""
    value_coef: NonNegFloat = 0.5
    """Weight of the value loss (each decision's discounted final return)."""

    @pydantic.field_validator("considered")
    @classmethod
    def _halving_needs_two(cls, considered: int) -> int:
        if considered == 1:
            raise ValueError("must be 0 (PUCT at the root) or at least 2 (sequential halving)")
        return considered


EvalOpponent = Literal["random", "heuristic", "lookahead"]


class EvalConfig(pydantic.BaseModel):
    """Periodic evaluation of the learner against fixed bots (win rate with a 95% CI)."""

    model_config = MODEL

    every_steps: PosInt = 50_000
    """Evaluate every this many env steps (and once at the end)."""
    games: PosInt = 40
    """Games per opponent per evaluation (seats alternate)."""
    final_games: PosInt | None = None
    """Games per opponent for the final evaluation; null = ``games``. The final figure is the
    one a results table quotes, so it usually gets more games (a narrower interval)."""
    opponents: Annotated[list[EvalOpponent], Field(min_length=1)] = Field(
        default_factory=lambda: list[EvalOpponent](["random", "heuristic"])
    )
    """Bots to evaluate against."""

    @pydantic.field_validator("opponents")
    @classmethod
    def _unique(cls, opponents: list[str]) -> list[str]:
        if len(set(opponents)) != len(opponents):
            raise ValueError(f"opponents has duplicates: {opponents}")
        return opponents


class VideoConfig(pydantic.BaseModel):
    """MP4 of one game of the final model."""

    model_config = MODEL

    enabled: StrictBool = True
    """Record the video at the end of training."""
    speed: PosFloat = 1.0
    """Playback speed: each frame stays for its beat's time (2 s for a KO down to 0.3 s for
    a routine step, training.storyboard) divided by this."""
    max_seconds: Annotated[Float, Field(ge=0)] = 60.0
    """Cap on the video's length (0 = none): routine frames go first, rolls and KOs never."""
    height: Annotated[StrictInt, Field(ge=64, multiple_of=2)] = 720
    """Frame height in pixels (even: H.264 needs even sizes)."""
    max_steps: PosInt = 2000
    """Stop filming after this many decisions (a long game would make a huge file)."""
