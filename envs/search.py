"""``search``: Monte Carlo tree search guided by an evaluator, for any game, with a budget
per decision. With a trained policy as the evaluator (``training.search_agent``: its action
probabilities as priors, its value head scoring leaves) this is the ``search:model.zip`` player.

Per decision (a single legal action is played at once, nothing searched):

1. The root is the position now. The evaluator gives its *priors* (a probability per legal
   action) and a *value* per seat in [-1, 1] (-1 lost, +1 won).
2. Each *simulation* copies the position, gives the copy fresh dice (a seed drawn from the
   bot's own ``rng``: the real dice are never rolled or read) and walks down the tree. At
   each node the seat to act there picks, among the actions legal in this simulation, the
   one with the highest PUCT score (AlphaZero's)::

       Q(a) + c_puct * P(a) * sqrt(N) / (1 + n(a))

   ``Q(a)``: the mean value, for that seat, of the simulations that took ``a`` here (an
   action not yet taken gets the node's own mean value for the seat); ``P(a)``: its prior,
   renormalised over the actions legal in this simulation; ``N``: the node's visits (at
   least 1, so the first pick follows the priors); ``n(a)``: the action's.
3. The first node not yet expanded is evaluated (priors kept, values added along the path
   from the root, each seat's value to that seat); a finished game adds its returns instead.
4. After ``simulations`` (or ``ms`` milliseconds, checked after each simulation; at least one
   runs), the most visited action at the root is played; ties go to the higher prior.

Dice make it *open loop*: a node is a sequence of actions, not a position, so its statistics
average over the rolls the simulations met. An action legal after one roll and not after
another is picked only where it is legal; a node where none of the actions it was expanded
with is legal (another roll led elsewhere) is evaluated as a leaf again. Every seat searches
for itself, so games of more than two players need no sign convention.

``SearchBot.last`` is the latest searched decision (:class:`SearchResult`: the root's actions,
their priors, visits and mean values); its ``visit_policy`` is the target an expert-iteration
learner imitates. :class:`ValueEvaluator` needs no model: uniform priors and the game's
position value (the lookahead bot's), a baseline for the search itself. Pure Python + numpy;
the evaluator is where a network may come in.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Protocol

import numpy as np

from .core.dice import Dice
from .core.errors import OptionError
from .core.game import Game
from .core.options import integer, positive_number

SEED_BOUND = 2**63  # dice seeds are drawn in 0..SEED_BOUND - 1
MAX_SIMULATION_DEPTH = 100_000  # a walk down the tree longer than this is a bug in a game


class Evaluator(Protocol):
    """Priors and values of a position for the search.

    ``evaluate(game, state)`` returns ``(priors, values)``: ``priors`` a float array over the
    whole action space (only the legal actions' entries are read; they need not sum to 1)
    and ``values`` a float array of one value per seat, each in [-1, 1] for that seat. It must
    not change ``state`` (nor roll its dice)."""

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True)
class SearchBudget:
    """What one decision may spend; each option is checked on construction (a bad value
    raises :class:`~envs.core.errors.OptionError` naming it).

    ``simulations``: walks down the tree per decision; ``ms``: a wall-clock cap per decision
    in milliseconds (None: none); ``c_puct``: the weight of the priors against the values
    found (higher: follow the priors longer)."""

    simulations: int = 64
    ms: float | None = None
    c_puct: float = 1.5

    def __post_init__(self) -> None:
        integer("simulations", self.simulations)
        if self.ms is not None:
            positive_number("ms", self.ms)
        positive_number("c_puct", self.c_puct)

    @classmethod
    def of(cls, options: dict[str, Any]) -> SearchBudget:
        known = [f.name for f in fields(cls)]
        for name in options:
            if name not in known:
                raise OptionError(name, f"is not a search option; options: {', '.join(known)}")
        return cls(**options)


@dataclass
class SearchResult:
    """One searched decision, at the root: ``actions`` legal there, with their ``priors``,
    ``visits`` and ``values`` (mean value for the deciding ``seat``; NaN where unvisited)."""

    seat: int
    actions: np.ndarray
    priors: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    choice: int
    simulations: int

    def visit_policy(self, size: int) -> np.ndarray:
        """float32[size]: the root's visit counts as a distribution over the action space."""
        policy = np.zeros(size, dtype=np.float32)
        policy[self.actions] = self.visits / max(self.visits.sum(), 1)
        return policy


class _Node:
    """A sequence of actions from the root; expanded once it has been evaluated."""

    __slots__ = (
        "actions",
        "priors",
        "visits",
        "value_sum",
        "child_visits",
        "child_values",
        "children",
    )

    def __init__(self, num_players: int):
        self.actions: np.ndarray | None = None  # legal when expanded
        self.priors: np.ndarray | None = None
        self.visits = 0
        self.value_sum = np.zeros(num_players)
        self.child_visits = np.zeros(0)
        self.child_values = np.zeros((0, num_players))
        self.children: dict[int, _Node] = {}

    def expand(self, mask: np.ndarray, priors: np.ndarray) -> None:
        self.actions = np.flatnonzero(mask)
        self.priors = _normalised(np.maximum(np.asarray(priors, dtype=float)[self.actions], 0.0))
        self.child_visits = np.zeros(self.actions.size)
        self.child_values = np.zeros((self.actions.size, self.value_sum.size))

    def select(self, mask: np.ndarray, seat: int, c_puct: float) -> int:
        """Index (into ``actions``) of the PUCT choice among those legal now; -1 if none is."""
        assert self.actions is not None and self.priors is not None
        legal = mask[self.actions]
        if not legal.any():
            return -1
        priors = _normalised(np.where(legal, self.priors, 0.0))
        visits = self.child_visits
        own = self.value_sum[seat] / self.visits if self.visits else 0.0
        means = np.divide(
            self.child_values[:, seat], visits, out=np.full(visits.size, own), where=visits > 0
        )
        score = means + c_puct * priors * math.sqrt(max(self.visits, 1)) / (1.0 + visits)
        score[~legal] = -np.inf
        return int(np.argmax(score))

    def child(self, index: int) -> _Node:
        found = self.children.get(index)
        if found is None:
            found = self.children[index] = _Node(self.value_sum.size)
        return found


def _normalised(weights: np.ndarray) -> np.ndarray:
    """``weights`` / their sum; uniform when all are zero (a policy that gives every legal
    action no mass still gets searched)."""
    total = weights.sum()
    if total > 0:
        return weights / total
    return np.full(weights.size, 1.0 / max(weights.size, 1))


class SearchBot:
    """PUCT tree search with an :class:`Evaluator` (module docstring); options as in
    :class:`SearchBudget`. ``stats`` counts decisions, searches, simulations and evaluations;
    ``last`` is the latest searched decision (None until one)."""

    def __init__(self, evaluator: Evaluator, name: str = "search", **options: Any):
        self.evaluator = evaluator
        self.name = name
        self.budget = SearchBudget.of(options)
        self.last: SearchResult | None = None
        self.stats = {"decisions": 0, "searches": 0, "simulations": 0, "evaluations": 0}

    def act(self, game: Game, state: Any, rng: np.random.Generator) -> int:
        mask = game.legal_mask(state)
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("SearchBot asked to act with no legal action (is the game over?)")
        self.stats["decisions"] += 1
        if legal.size == 1:
            return int(legal[0])
        self.last = self.search(game, state, rng)
        self.stats["searches"] += 1
        return self.last.choice

    def search(self, game: Game, state: Any, rng: np.random.Generator) -> SearchResult:
        budget = self.budget
        seat = game.current_player(state)
        root = _Node(game.num_players)
        priors, values = self._evaluate(game, state)
        root.expand(game.legal_mask(state), priors)
        root.visits, root.value_sum[:] = 1, values
        start = time.perf_counter()
        done = 0
        while done < budget.simulations:
            sim = state.copy()
            sim.dice = Dice(int(rng.integers(SEED_BOUND, dtype=np.uint64)))
            self._simulate(game, sim, root)
            done += 1
            if budget.ms is not None and (time.perf_counter() - start) * 1e3 >= budget.ms:
                break
        self.stats["simulations"] += done
        assert root.actions is not None and root.priors is not None
        visits = root.child_visits
        means = np.divide(
            root.child_values[:, seat],
            visits,
            out=np.full(visits.size, np.nan),
            where=visits > 0,
        )
        # visits are whole numbers and priors below 1: half a prior breaks only ties
        best = int(np.argmax(visits + 0.5 * root.priors))
        return SearchResult(
            seat, root.actions, root.priors, visits.copy(), means, int(root.actions[best]), done
        )

    def _simulate(self, game: Game, sim: Any, root: _Node) -> None:
        c_puct = self.budget.c_puct
        path: list[tuple[_Node, int]] = []
        node = root
        for _ in range(MAX_SIMULATION_DEPTH):
            seat = game.current_player(sim)
            if seat < 0:
                values = np.clip(game.returns(sim), -1.0, 1.0)
                break
            mask = game.legal_mask(sim)
            index = -1 if node.actions is None else node.select(mask, seat, c_puct)
            if index < 0:
                priors, values = self._evaluate(game, sim)
                if node.actions is None:
                    node.expand(mask, priors)
                break
            path.append((node, index))
            assert node.actions is not None
            game.apply_legal(sim, int(node.actions[index]))
            node = node.child(index)
        else:
            raise RuntimeError(f"a simulation ran past {MAX_SIMULATION_DEPTH} decisions")
        node.visits += 1
        node.value_sum += values
        for parent, index in path:
            parent.visits += 1
            parent.value_sum += values
            parent.child_visits[index] += 1
            parent.child_values[index] += values

    def _evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray]:
        self.stats["evaluations"] += 1
        priors, values = self.evaluator.evaluate(game, state)
        values = np.asarray(values, dtype=float)
        if values.shape != (game.num_players,):
            raise ValueError(
                f"the evaluator gave values of shape {values.shape}, expected one per seat "
                f"({game.num_players},)"
            )
        return priors, np.clip(values, -1.0, 1.0)


class ValueEvaluator:
    """Uniform priors and ``value(game, state, seat)`` for every seat: by default the game's
    position value (:func:`envs.lookahead.position_value`, the lookahead bot's)."""

    def __init__(self, game_name: str, value: Callable[[Game, Any, int], float] | None = None):
        if value is None:
            from .lookahead import position_value

            value = position_value(game_name)
        self.value = value

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray]:
        priors = np.ones(game.layout.size)
        values = np.array([self.value(game, state, s) for s in range(game.num_players)])
        return priors, values


__all__ = ["Evaluator", "SearchBot", "SearchBudget", "SearchResult", "ValueEvaluator"]
