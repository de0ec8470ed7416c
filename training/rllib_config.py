"""The config of an RLlib run (``training.rllib``): typed and validated like ``training.config``.

One YAML file (``configs/rllib_<game>.yaml``) plus ``key=value`` overrides; every problem is
a :class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field and, for an
override, the override text. Unknown keys are errors. Each field's docstring documents it.
This module imports no Ray: a config can be checked where Ray is not installed.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic
from pydantic import Field, StrictBool, StrictInt, StrictStr

from .config import config_to_yaml, load_config
from .config_sections import MODEL, EnvConfig, Fraction, NonNegFloat, PosFloat, PosInt

ConvLayer = Annotated[list[PosInt], Field(min_length=3, max_length=3)]


class RayConfig(pydantic.BaseModel):
    """Where Ray runs."""

    model_config = MODEL

    address: StrictStr | None = None
    """null = start a local Ray instance in this process; ``auto`` = join the cluster started
    on this machine with ``ray start --head``; ``ray://<head>:10001`` = a remote cluster
    through Ray Client (its nodes need the same pinned packages)."""
    num_cpus: PosInt | None = None
    """CPUs of the local instance (only when ``address`` is null); null = all cores."""
    ship_code: StrictBool = False
    """Upload the ``envs`` and ``training`` packages to the cluster (Ray ``py_modules``), for
    clusters whose nodes do not have this project installed."""


class RunnersConfig(pydantic.BaseModel):
    """Sampling: RLlib env runners."""

    model_config = MODEL

    num_env_runners: Annotated[StrictInt, Field(ge=0)] = 0
    """Remote env-runner actors; 0 = sample in the driver process."""
    envs_per_runner: PosInt = 1
    """Envs stepped by each runner."""


class RllibLeague(pydantic.BaseModel):
    """Each episode's matchup, drawn with these weights (``training.rllib_env``)."""

    model_config = MODEL

    self_play: NonNegFloat = 0.5
    """The shared policy plays every seat."""
    heuristic: NonNegFloat = 0.3
    """The learner plays one seat, the game's heuristic bot the others."""
    random: NonNegFloat = 0.2
    """The learner plays one seat, the random legal-move bot the others."""

    @pydantic.model_validator(mode="after")
    def _some_weight(self) -> RllibLeague:
        if self.self_play + self.heuristic + self.random <= 0:
            raise ValueError("league weights self_play, heuristic and random are all zero")
        return self


class RllibPPO(pydantic.BaseModel):
    """RLlib PPO settings (RLlib's names)."""

    model_config = MODEL

    lr: PosFloat = 3e-4
    gamma: Fraction = 0.99
    lambda_: Fraction = 0.95
    clip_param: PosFloat = 0.2
    entropy_coeff: NonNegFloat = 0.01
    vf_loss_coeff: NonNegFloat = 0.5
    train_batch_size: PosInt = 4000
    """Env steps per training iteration (``train_batch_size_per_learner``)."""
    minibatch_size: PosInt = 256
    num_epochs: PosInt = 4


class RllibModel(pydantic.BaseModel):
    """The action-masking PPO module's network (RLlib's default CNN encoder)."""

    model_config = MODEL

    conv_filters: Annotated[list[ConvLayer], Field(min_length=1)] = Field(
        default_factory=lambda: [[32, 3, 1], [64, 3, 2], [64, 3, 2]]
    )
    """``[channels, kernel, stride]`` per layer, over the channel-last board."""
    head_hiddens: list[PosInt] = Field(default_factory=lambda: [256])
    """Hidden layers of the policy and value heads."""


class RllibEval(pydantic.BaseModel):
    """The final evaluation of the trained module against the bots."""

    model_config = MODEL

    games: PosInt = 40
    """Games per opponent, seats alternating."""
    opponents: Annotated[list[Literal["random", "heuristic"]], Field(min_length=1)] = Field(
        default_factory=lambda: ["random", "heuristic"]
    )


class RllibConfig(pydantic.BaseModel):
    """Everything one RLlib run needs; the run folder keeps it as ``config.yaml``."""

    model_config = MODEL

    env: EnvConfig
    """Environment to train on (the same section as a MaskablePPO config)."""
    iterations: PosInt = 50
    """Training iterations (each samples ``ppo.train_batch_size`` env steps)."""
    time_limit_minutes: PosFloat | None = None
    """Stop after the iteration that passes this wall time; null = none."""
    seed: Annotated[StrictInt, Field(ge=0)] = 0
    ray: RayConfig = Field(default_factory=RayConfig)
    runners: RunnersConfig = Field(default_factory=RunnersConfig)
    league: RllibLeague = Field(default_factory=RllibLeague)
    ppo: RllibPPO = Field(default_factory=RllibPPO)
    model: RllibModel = Field(default_factory=RllibModel)
    eval: RllibEval = Field(default_factory=RllibEval)
    run_dir: StrictStr = "runs"
    """Folder that holds run folders."""
    run_name: StrictStr | None = None
    """Run folder inside run_dir; null = ``rllib_<env name>_<YYYYmmdd-HHMMSS>``."""

    @pydantic.model_validator(mode="before")
    @classmethod
    def _default_run_name(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("run_name") is None:
            env = data.get("env")
            name = env.get("name") if isinstance(env, dict) else None
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            data = {**data, "run_name": f"rllib_{name if isinstance(name, str) else 'run'}_{stamp}"}
        return data

    @pydantic.field_validator("run_name")
    @classmethod
    def _plain_name(cls, name: str | None) -> str | None:
        if name is not None and (not name or "/" in name or "\\" in name or name in (".", "..")):
            raise ValueError(f"run_name must be a plain folder name, got {name!r}")
        return name

    @property
    def run_path(self) -> Path:
        return Path(self.run_dir) / str(self.run_name)


def load_rllib_config(path: str | os.PathLike[str], overrides: Sequence[str] = ()) -> RllibConfig:
    """Load, override and validate; a ScenarioError names file, line, field or override."""
    return load_config(path, overrides, model=RllibConfig)


def dump_rllib_config(config: RllibConfig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "# The exact config of this RLlib run (load_rllib_config reads it).\n"
        + config_to_yaml(config),
        encoding="utf-8",
    )
    return path
