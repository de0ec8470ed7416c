"""Trained policies as players: a saved MaskablePPO model behind the ``envs.bots.Bot`` protocol,
so matches, evaluation during training and tournaments use one code path for bots and models;
and search over such a model, ``search:model.zip`` and ``lookahead:model.zip``.

Search over a model is a player wherever a bot name or a model is (``match``, ``evaluate``,
``play``, ``record``), optionally with a display name in front
(``deep=search(simulations=256):runs/x/final_model.zip``):

* ``search:PATH`` or ``search(simulations=128,ms=200,c_puct=1.5,shaping=1.0):PATH``: tree
  search (:mod:`envs.search`) with the model as its evaluator; the options are
  :class:`envs.search.SearchBudget`'s and ``shaping``;
* ``lookahead:PATH`` or ``lookahead(playouts=16,candidates=3,confident=0.99):PATH``: the
  game's lookahead bot with the model's choice in the heuristic's place and its runners-up
  among the candidates (:mod:`envs.guided`); the options are
  :class:`envs.lookahead.Budget`'s and ``confident``. Only the policy is read, not the value
  head.

:class:`PolicyEvaluator` asks the network once per wave of positions:

* priors: the policy's probabilities of the seat to act, over its legal actions;
* values: the value head on the observation of the seat to act. A run trained with reward
  shaping (``reward_shaping: w`` in its config) learned ``V(s) - w * phi(s)``, ``phi`` the
  game's position value (potential-based shaping sums to ``-w * phi(s)`` from any position
  on, whatever the discount), so ``w * phi(s)`` is added back. ``w`` is read from the run
  folder's ``config.yaml`` (the nearest one above the model, as for resuming); a model outside
  a run folder needs ``shaping=`` in the spec, since nothing else says what its values mean.
  In a two-player zero-sum game the other seat's value is the negation. The value head was
  trained on the learner's own decisions only, so the seat to act is the one reading it was
  trained for, and one observation per position halves the network's work. In a game of more
  than two players (or not zero-sum) every seat's value is needed in its own terms, so each
  seat's observation is asked; for the seats that do not act now that is a reading the head
  was not trained for, which the search accepts.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.errors import OptionError
from envs.core.game import Utility
from envs.guided import GuidedLookahead
from envs.search import SearchBot

SEARCH_SPEC = re.compile(
    r"(?P<kind>search|lookahead)(?:\((?P<options>[^()]*)\))?:(?P<path>.+)", re.DOTALL
)


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


DISPLAY_NAME = re.compile(r"(?P<name>[\w.+-]+)=(?P<target>.*)", re.DOTALL)


def load_agent(spec: str, game_name: str) -> Any:
    """A player from a command-line style spec, for ``game_name`` (e.g. ``"heroica_v0"``).

    ``spec`` is a bot name (``random``, ``heuristic``; see ``envs.bots.bot_names``), a path to
    a saved model (``runs/x/final_model.zip``), search over one (``search:runs/x/final_model.zip``,
    ``search(simulations=128):...``; module docstring), or any of them prefixed with a display
    name: ``ppo150k=runs/x/checkpoints/model_150000_steps.zip``. Returns an object with
    ``name`` and ``act(game, state, rng)`` (an ``envs.bots.Bot``).
    """
    from envs.bots import bot_names, get_bot

    named = None if Path(spec).is_file() else DISPLAY_NAME.fullmatch(spec)
    # a path may hold '=' (runs/lr=1e-4/x.zip), a name no '/', ':' or '('
    name, target = (named["name"], named["target"]) if named else ("", spec)
    if not target:
        raise ValueError(f"agent spec {spec!r}: nothing after '='")
    if target in bot_names(game_name):
        bot = get_bot(game_name, target)
        if name:
            bot.name = name
        return bot
    if SEARCH_SPEC.fullmatch(target):
        return load_search_agent(target, game_name, name)
    path = Path(target)
    if path.suffix != ".zip":
        raise ValueError(
            f"agent spec {spec!r}: {target!r} is neither a bot of {game_name} "
            f"({', '.join(bot_names(game_name))}), a model file (.zip) nor search:MODEL.zip / "
            "lookahead:MODEL.zip"
        )
    _check_model_file(path, spec)
    agent = PolicyBot.load(path)
    agent.name = name or _model_display_name(path)
    return agent


def _check_model_file(path: Path, spec: str) -> None:
    if path.suffix != ".zip":
        raise ValueError(f"agent spec {spec!r}: {str(path)!r} is not a model file (.zip)")
    if not path.is_file():
        raise FileNotFoundError(f"agent spec {spec!r}: model file {path} does not exist")


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


# ==========================================================================================
# Search over a model
# ==========================================================================================
def parse_search_spec(target: str) -> tuple[str, Path, dict[str, Any]]:
    """(kind, model path, options) of ``search(k=v,...):PATH`` or ``lookahead(k=v,...):PATH``;
    ValueError naming a bad part."""
    found = SEARCH_SPEC.fullmatch(target)
    if found is None:
        raise ValueError(
            f"{target!r} is not search:PATH, lookahead:PATH or KIND(key=value,...):PATH"
        )
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in (found["options"] or "").split(","))):
        key, sep, value = (x.strip() for x in part.partition("="))
        if not sep or not key or not value:
            raise ValueError(f"search option {part!r} in {target!r} is not key=value")
        options[key] = _number(value, key, target)
    return found["kind"], Path(found["path"]), options


def _number(text: str, key: str, target: str) -> float | int | None:
    if text.lower() == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    raise ValueError(f"search option {key}={text!r} in {target!r} is not a number")


class PolicyEvaluator:
    """A MaskablePPO model's priors and values for :class:`envs.search.SearchBot` (module
    docstring); ``shaping`` is the ``reward_shaping`` the model was trained with."""

    def __init__(self, model: Any, game_name: str, shaping: float):
        if isinstance(shaping, bool) or not isinstance(shaping, (int, float)) or shaping < 0:
            raise OptionError(
                "shaping", f"must be a number >= 0 (the run's reward_shaping), got {shaping!r}"
            )
        self.policy = model.policy
        self.shaping = float(shaping)
        self.potential = None
        if self.shaping:
            from envs.lookahead import position_value

            self.potential = position_value(game_name)

    def evaluate(self, game: Any, state: Any) -> tuple[np.ndarray, np.ndarray]:
        return self.evaluate_many(game, [state])[0]

    def evaluate_many(
        self, game: Any, states: Sequence[Any]
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        """One network call for the observations the values of every position need
        (:meth:`viewers`)."""
        import torch

        viewers = self.viewers(game, states)
        observations = np.stack(
            [game.observe(state, s) for state, seats in zip(states, viewers) for s in seats]
        )
        # inference mode, not no_grad: no version counters or view tracking on the tensors
        # (a HeroClix search decision at 16 simulations: 3.07 ms against 3.22, measured)
        with torch.inference_mode(), single_thread():
            logits, values = self._forward(self.policy.obs_to_tensor(observations)[0])
        answers, row = [], 0
        for state, seats in zip(states, viewers):
            rows = slice(row, row + len(seats))
            answers.append(self._answer(game, state, seats, logits[rows], values[rows]))
            row += len(seats)
        return answers

    @staticmethod
    def viewers(game: Any, states: Sequence[Any]) -> list[tuple[int, ...]]:
        """Per state, the seats whose observations its values are read from: the seat to act
        alone in a two-player zero-sum game, every seat otherwise (module docstring)."""
        # asked once per wave, not per state: a game builds its info on every request
        if game.num_players == 2 and game.info.utility is Utility.ZERO_SUM:
            return [(game.current_player(state),) for state in states]
        return [tuple(range(game.num_players))] * len(states)

    def priors(self, game: Any, state: Any) -> np.ndarray:
        """The policy's probabilities of the seat to act over its legal actions (0 elsewhere):
        one observation, no value read (:class:`envs.guided.Proposer`)."""
        import torch

        observation = game.observe(state, game.current_player(state))[None]
        with torch.inference_mode(), single_thread():
            logits, _ = self._forward(self.policy.obs_to_tensor(observation)[0])
        priors = _legal_softmax(logits[0], game.legal_mask(state))
        return priors / priors.sum()

    def _answer(
        self,
        game: Any,
        state: Any,
        seats: tuple[int, ...],
        logits: np.ndarray,
        values: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        acting = game.current_player(state)
        priors = _legal_softmax(logits[seats.index(acting)], game.legal_mask(state))
        if self.potential is not None:
            values = values + self.shaping * np.array(
                [self.potential(game, state, s) for s in seats]
            )
        if len(seats) == game.num_players:
            return priors, values
        mirrored = np.full(game.num_players, -values[0])  # zero-sum: the rival's is the negation
        mirrored[acting] = values[0]
        return priors, mirrored

    def _forward(self, tensor: Any) -> tuple[np.ndarray, np.ndarray]:
        policy = self.policy
        net = getattr(policy, "net", None)
        if net is not None:  # training.networks.SpatialPolicy: logits and values in one pass
            logits, values = net(policy.extract_features(tensor))
        else:  # any MaskableActorCriticPolicy
            logits = policy.get_distribution(tensor).distribution.logits
            values = policy.predict_values(tensor)
        return logits.numpy(), values.reshape(-1).double().numpy()


def _legal_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """exp(logit - the largest legal logit) on the legal actions, 0 elsewhere (unnormalised)."""
    legal = logits[mask].astype(np.float64)
    priors = np.zeros(mask.size)
    priors[mask] = np.exp(legal - legal.max())
    return priors


class ModelSearchBot(SearchBot):
    """:class:`envs.search.SearchBot` over a model; ``model`` is kept for
    :func:`check_compatible`."""

    def __init__(self, model: Any, game_name: str, shaping: float, name: str, **options: Any):
        super().__init__(PolicyEvaluator(model, game_name, shaping), name=name, **options)
        self.model = model


class ModelGuidedLookahead(GuidedLookahead):
    """:class:`envs.guided.GuidedLookahead` over a model's policy; ``model`` is kept for
    :func:`check_compatible`."""

    def __init__(self, model: Any, proposer: PolicyEvaluator, game_name: str, **options: Any):
        super().__init__(proposer, game_name, **options)
        self.model = model


def run_shaping(path: Path) -> float | None:
    """The ``reward_shaping`` of the run folder holding ``path`` (None: in no run folder)."""
    from .config import load_config, run_folder_of

    run = run_folder_of(path)
    return None if run is None else float(load_config(run / "config.yaml").reward_shaping)


def load_search_agent(target: str, game_name: str, name: str = "") -> Any:
    """The player of ``search(...):PATH`` or ``lookahead(...):PATH`` (module docstring) for
    ``game_name``."""
    kind, path, options = parse_search_spec(target)
    _check_model_file(path, target)
    label = name or f"{kind}:{_model_display_name(path)}"
    if kind == "lookahead":
        # only the policy is read, so what the value head learned does not matter here
        model = PolicyBot.load(path).model
        proposer = PolicyEvaluator(model, game_name, shaping=0.0)
        return ModelGuidedLookahead(model, proposer, game_name, name=label, **options)
    shaping = options.pop("shaping", None)
    if shaping is None:
        shaping = run_shaping(path)
    if shaping is None:
        raise ValueError(
            f"agent spec {target!r}: {path} is in no run folder (no config.yaml above it), so "
            "what its value head learned is unknown; give the run's reward_shaping, e.g. "
            f"search(shaping=0):{path}"
        )
    model = PolicyBot.load(path).model
    return ModelSearchBot(model, game_name, shaping, label, **options)
