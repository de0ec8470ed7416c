"""Training configuration: typed, validated, readable top to bottom (CleanRL style).

A run is described by one YAML file (``configs/<game>.yaml``) plus optional ``key=value``
overrides on the command line::

    python -m training.train --config configs/heroica.yaml ppo.learning_rate=1e-4 \\
        env.options.mission=tunnel total_timesteps=2048

:func:`load_config` parses the file with :func:`envs.core.scenario.load_yaml`, applies the
overrides (dotted keys; values parsed as YAML, so ``1e-4``, ``true``, ``[32, 32]`` and
``null`` mean what they look like) and validates the result against :class:`TrainConfig`.
Every problem is a :class:`~envs.core.scenario.ScenarioError` naming the file, the line (for
problems written in the file), the field and, for an override, the override text::

    configs/heroica.yaml, line 14, field 'ppo.n_steps': Input should be a valid integer (got 'lots')
    configs/heroica.yaml, field 'ppo.lr': override 'ppo.lr=1e-4': unknown field 'lr'; allowed: ...

Unknown keys are errors (``extra="forbid"``), types are strict (an int field does not take
``"5"`` or ``5.0``, a bool field does not take ``"yes"``); float fields take ints, and the
YAML 1.1 spelling quirk ``1e-4`` (which PyYAML reads as a string) is read as the number.

:func:`dump_config` writes a config back as YAML; a run folder stores the exact config it was
trained with, and that file loads again with :func:`load_config` to an equal config.
Each field's docstring is its documentation (``use_attribute_docstrings``);
:func:`describe_fields` lists them all for ``--help``.
"""

from __future__ import annotations

import copy
import os
import types
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import pydantic
import yaml
from pydantic import Field, StrictBool, StrictInt, StrictStr

from envs.core.scenario import LineMap, ScenarioError, load_yaml, validate

from .config_sections import (
    MODEL,
    EnvConfig,
    EvalConfig,
    ExpertIterationConfig,
    FieldCheckError,
    LeagueConfig,
    ModelT,
    NetArchConfig,
    NetworkConfig,
    NonNegFloat,
    PosFloat,
    PosInt,
    PPOConfig,
    PretrainConfig,
    VideoConfig,
    available_cores,
)

__all__ = [
    "EnvConfig",
    "EvalConfig",
    "LeagueConfig",
    "NetArchConfig",
    "NetworkConfig",
    "PPOConfig",
    "TrainConfig",
    "VideoConfig",
    "apply_overrides",
    "available_cores",
    "config_to_yaml",
    "describe_fields",
    "dump_config",
    "load_config",
]


def _auto_or_positive(value: Any, name: str, allowed: str) -> Any:
    """``value`` if it is ``"auto"`` or an int >= 1 (not a bool); else the error naming the
    field and what it allows."""
    if value == "auto" or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
        return value
    raise ValueError(f"{name} must be {allowed}")


class TrainConfig(pydantic.BaseModel):
    """Everything one training run needs; ``dump_config`` stores it in the run folder."""

    model_config = MODEL

    env: EnvConfig
    """Environment to train on."""
    total_timesteps: PosInt = 100_000
    """Learner env steps to train for."""
    time_limit_minutes: PosFloat | None = None
    """Stop learning after this much wall time even if ``total_timesteps`` is not reached
    (checked after every env step); the final evaluation and video still follow. null = none."""
    n_envs: Literal["auto"] | PosInt = "auto"
    """Parallel envs (SubprocVecEnv when > 1); ``auto`` = available cores (os.cpu_count)."""
    auto_play_forced: StrictBool = True
    """The self-play env plays the learner's decisions that have one legal action (no sample,
    no inference: nothing can be learned from them); see ``training.selfplay``."""
    reward_shaping: NonNegFloat = 0.0
    """Weight of potential-based reward shaping: each learner decision also earns ``gamma *
    w * V(next) - w * V(now)``, ``V`` the game's value of the position (the lookahead bot's)
    and ``gamma`` PPO's; it sums to a constant over a game, so the best policy is unchanged.
    0 = off (the game's rewards only); see ``training.selfplay``."""
    seed: Annotated[StrictInt, Field(ge=0)] = 0
    """Seed for the model, envs (env i gets seed + i), opponents and evaluation."""
    ppo: PPOConfig = Field(default_factory=PPOConfig)
    """MaskablePPO hyperparameters."""
    network: NetworkConfig = Field(default_factory=NetworkConfig)
    """Policy network."""
    league: LeagueConfig = Field(default_factory=LeagueConfig)
    """Opponent pool and sampling weights."""
    pretrain: PretrainConfig = Field(default_factory=PretrainConfig)
    """Behaviour-cloning warm start before PPO (off by default)."""
    expert_iteration: ExpertIterationConfig = Field(default_factory=ExpertIterationConfig)
    """Imitating tree search over the learner during PPO (off by default)."""
    eval: EvalConfig = Field(default_factory=EvalConfig)
    """Evaluation schedule."""
    video: VideoConfig = Field(default_factory=VideoConfig)
    """Video of the final model."""
    run_dir: StrictStr = "runs"
    """Folder that holds run folders."""
    run_name: StrictStr | None = None
    """Run folder name inside run_dir; null = ``<env name>_<YYYYmmdd-HHMMSS>`` at load time."""
    checkpoint_every_steps: PosInt = 50_000
    """Save a checkpoint every this many env steps."""
    torch_threads: PosInt | Literal["auto"] | None = None
    """Torch threads for the gradient updates and the warm start's cloning (rollouts always use
    one); null = torch's default, every core; ``auto`` = every core or one, whichever the work
    runs faster on, timed as it goes and timed again now and then (``training.threads``). On 2
    cores: a run alone made 1.4x the PPO steps with 2 threads (Heroscape); with another
    process holding a core, cloning took 169 s with 2 threads and 18.6 s with 1."""
    device: Annotated[StrictStr, Field(pattern=r"^(cpu|auto|mps|cuda(:\d+)?)$")] = "cpu"
    """Torch device: cpu (default; small CNNs gain little from a GPU), cuda, cuda:N, auto."""
    progress_bar: StrictBool = True
    """Show a progress bar while training."""
    resume_from: StrictStr | None = None
    """Checkpoint (.zip) to resume from; null = start fresh."""

    # One clear message per field instead of one per branch of its union.
    @pydantic.field_validator("n_envs", mode="before")
    @classmethod
    def _auto_or_count(cls, value: Any) -> Any:
        return _auto_or_positive(value, "n_envs", "'auto' or an integer >= 1")

    @pydantic.field_validator("torch_threads", mode="before")
    @classmethod
    def _threads(cls, value: Any) -> Any:
        if value is None:
            return value
        return _auto_or_positive(value, "torch_threads", "'auto', null or an integer >= 1")

    @pydantic.model_validator(mode="before")
    @classmethod
    def _default_run_name(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("run_name") is None:
            env = data.get("env")
            name = env.get("name") if isinstance(env, dict) else getattr(env, "name", None)
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            data = {**data, "run_name": f"{name if isinstance(name, str) else 'run'}_{stamp}"}
        return data

    @pydantic.field_validator("run_name")
    @classmethod
    def _plain_name(cls, name: str | None) -> str | None:
        if name is not None and (not name or "/" in name or "\\" in name or name in (".", "..")):
            raise ValueError(f"run_name must be a plain folder name, got {name!r}")
        return name

    @pydantic.model_validator(mode="after")
    def _rollout_divides(self) -> TrainConfig:
        n_envs = self.num_envs
        rollout = self.ppo.n_steps * n_envs
        if rollout % self.ppo.batch_size:
            envs = f"{n_envs} (auto: the cores here)" if self.n_envs == "auto" else f"{n_envs}"
            divisors = [d for d in range(2, rollout + 1) if rollout % d == 0]
            near = sorted(divisors, key=lambda d: abs(d - self.ppo.batch_size))[:3]
            raise FieldCheckError(
                ("ppo", "batch_size"),
                f"batch_size {self.ppo.batch_size} does not divide the rollout n_steps * n_envs "
                f"= {self.ppo.n_steps} * {envs} = {rollout}; the last minibatch of every epoch "
                f"would be cut short. Nearest batch sizes that divide it: "
                f"{', '.join(map(str, sorted(near)))}",
            )
        return self

    @property
    def num_envs(self) -> int:
        """``n_envs`` resolved: ``auto`` -> :func:`available_cores`."""
        return available_cores() if self.n_envs == "auto" else self.n_envs

    @property
    def run_path(self) -> Path:
        """The run folder: ``run_dir / run_name``."""
        return Path(self.run_dir) / str(self.run_name)

    def resolved(self) -> TrainConfig:
        """A copy with ``n_envs`` as the number it stands for here (what a run folder should
        store: the exact config the model was trained with)."""
        return self.model_copy(update={"n_envs": self.num_envs})


# ==========================================================================================
# Loading, overrides, dumping
# ==========================================================================================
def _model_of(annotation: Any) -> type[pydantic.BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        return annotation
    if get_origin(annotation) in (Union, types.UnionType, Annotated):
        models = [m for m in map(_model_of, get_args(annotation)) if m is not None]
        return models[0] if len(models) == 1 else None
    return None


def _is_mapping(annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _is_mapping(get_args(annotation)[0])
    return annotation is dict or origin is dict


def parse_env_options(pairs: Sequence[str], flag: str = "--option") -> dict[str, Any]:
    """``["max_rounds=50", "mission=[fork,tunnel]"]`` -> ``{"max_rounds": 50, ...}`` (YAML values),
    for command lines that pass env options (``training.evaluate``, ``training.record``)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{flag} {pair!r}: expected key=value")
        try:
            options[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError as error:
            raise ValueError(f"{flag} {pair!r}: value is not valid YAML ({error})") from None
    return options


def _parse_override(text: str, source: str) -> tuple[tuple[str, ...], Any]:
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key:
        raise ScenarioError(
            source, f"override {text!r}: expected key=value, e.g. ppo.learning_rate=1e-4"
        )
    path = tuple(key.split("."))
    if any(not part for part in path):
        raise ScenarioError(source, f"override {text!r}: empty part in the key {key!r}")
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
    except yaml.YAMLError as exc:
        raise ScenarioError(
            source, f"override {text!r}: the value is not valid YAML ({exc})", field=key
        ) from None
    return path, value


def _check_override_path(
    path: tuple[str, ...], text: str, source: str, model: type[pydantic.BaseModel]
) -> None:
    for depth, part in enumerate(path):
        field = ".".join(path[: depth + 1])
        info = model.model_fields.get(part)
        if info is None:
            raise ScenarioError(
                source,
                f"override {text!r}: unknown field {part!r}; allowed: "
                f"{', '.join(model.model_fields)}",
                field=field,
            )
        if depth == len(path) - 1:
            return
        if _is_mapping(info.annotation):
            return  # free-form mapping (env.options): the env checks its own keys
        sub = _model_of(info.annotation)
        if sub is None:
            raise ScenarioError(
                source,
                f"override {text!r}: field {field!r} is a value, not a "
                f"section; it has no field {path[depth + 1]!r}",
                field=".".join(path[: depth + 2]),
            )
        model = sub


def apply_overrides(
    data: dict[str, Any],
    overrides: Sequence[str],
    source: str = "<overrides>",
    model: type[pydantic.BaseModel] | None = None,
) -> tuple[dict[str, Any], dict[tuple[str, ...], str]]:
    """Apply ``key=value`` overrides to a config mapping (not changed; a copy is returned).
    ``model`` is the config schema the keys must exist in (default :class:`TrainConfig`).

    Returns the new mapping and ``{path: override text}`` for the paths set, so that
    validation errors on them can name the override instead of a line of the file.
    """
    data = copy.deepcopy(data)
    applied: dict[tuple[str, ...], str] = {}
    for text in overrides:
        path, value = _parse_override(text, source)
        _check_override_path(path, text, source, model or TrainConfig)
        node = data
        for depth, part in enumerate(path[:-1]):
            child = node.get(part)
            if child is None:
                child = node[part] = {}
            elif not isinstance(child, dict):
                raise ScenarioError(
                    source,
                    f"override {text!r}: {'.'.join(path[: depth + 1])!r} "
                    f"is not a mapping (it is {child!r})",
                    field=".".join(path[: depth + 1]),
                )
            node = child
        node[path[-1]] = value
        applied[path] = text
    return data, applied


def _relocate(error: ScenarioError, applied: dict[tuple[str, ...], str]) -> ScenarioError:
    """Point an error on an overridden field at its override instead of a file line."""
    field = tuple(error.field.split(".")) if error.field else ()
    for path, text in applied.items():
        if field[: len(path)] == path:
            return ScenarioError(
                error.source, f"override {text!r}: {error.message}", field=error.field
            )
    return ScenarioError(error.source, error.message, line=error.line, field=error.field)


def _validate(
    data: Any,
    source: str,
    lines: LineMap | None,
    applied: dict[tuple[str, ...], str],
    model: type[ModelT],
) -> ModelT:
    try:
        try:
            return model.model_validate(data)
        except pydantic.ValidationError as exc:
            # Cross-field checks run only once every field is valid, so such an error is alone.
            for err in exc.errors():
                cause = (err.get("ctx") or {}).get("error")
                if isinstance(cause, FieldCheckError):
                    loc = tuple(str(p) for p in err["loc"]) + cause.loc
                    raise ScenarioError(
                        source,
                        cause.message,
                        field=".".join(loc),
                        line=None if lines is None else lines.line(loc),
                    ) from None
        # The usual errors, with lines, from the shared scenario validator.
        return validate(model, data, source, lines)
    except ScenarioError as error:
        if not applied:
            raise
        errors = [_relocate(e, applied) for e in (error, *error.others)]
        raise ScenarioError(
            errors[0].source,
            errors[0].message,
            line=errors[0].line,
            field=errors[0].field,
            others=errors[1:],
        ) from None


def run_folder_of(path: Path) -> Path | None:
    """The run folder holding ``path`` (``<run>/checkpoints/x.zip``, ``<run>/snapshots/x.zip`` or
    ``<run>/final_model.zip``): the nearest folder above it with a ``config.yaml``."""
    for folder in (path.parent.parent, path.parent):
        if (folder / "config.yaml").is_file():
            return folder
    return None


def load_config(
    path: str | os.PathLike[str],
    overrides: Sequence[str] = (),
    model: type[ModelT] = TrainConfig,  # type: ignore[assignment]
) -> ModelT:
    """Load a training config from YAML, apply ``key=value`` overrides and validate it against
    ``model`` (:class:`TrainConfig`, or another schema such as ``training.rllib_config``'s).

    Raises :class:`~envs.core.scenario.ScenarioError` naming the file, line and field (or the
    override) of the first problem; further problems ride along in ``.others``.
    """
    source = str(path)
    data, lines = load_yaml(Path(path))
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ScenarioError(
            source, f"expected a mapping of fields, got {type(data).__name__}", line=lines.line(())
        )
    data, applied = apply_overrides(data, overrides, source, model=model)
    return _validate(data, source, lines, applied, model)


class _Dumper(yaml.SafeDumper):
    """Block mappings (one field a line, like the shipped configs), flow lists ``[64, 64]``."""


_Dumper.add_representer(
    list,
    lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True),
)


def config_to_yaml(config: pydantic.BaseModel) -> str:
    """The config as YAML text, every field written (defaults included), in schema order."""
    return yaml.dump(
        config.model_dump(mode="json"),
        Dumper=_Dumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=100,
    )


def dump_config(config: TrainConfig, path: str | os.PathLike[str]) -> Path:
    """Write the exact config to ``path`` as YAML (parents created); returns the path.

    ``load_config(path)`` gives back an equal config.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    header = (
        "# The exact training config of this run (written by training.config.dump_config).\n"
        "# Reload with training.config.load_config(path).\n"
    )
    path.write_text(header + config_to_yaml(config), encoding="utf-8")
    return path


def describe_fields(
    model: type[pydantic.BaseModel] = TrainConfig, prefix: str = ""
) -> Iterator[tuple[str, str, str]]:
    """``(dotted key, default, description)`` for every setting, sections expanded."""
    for name, info in model.model_fields.items():
        key = prefix + name
        sub = _model_of(info.annotation)
        if sub is not None:
            yield from describe_fields(sub, key + ".")
            continue
        if info.is_required():
            default = "(required)"
        else:
            value = info.get_default(call_default_factory=True)
            default = "null" if value is None else str(value)
        yield key, default, " ".join((info.description or "").split())
