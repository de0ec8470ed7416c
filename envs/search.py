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
   Simulations run in waves of ``batch``: the leaves of a wave are evaluated in one call, and
   a walk counts as a lost visit for the seat that chose each step until its leaf's values
   are in (a *virtual loss*, as in AlphaZero), so the walks of one wave spread out.
4. After ``simulations`` (or ``ms`` milliseconds, checked after each wave; at least one wave
   runs), the most visited action at the root is played; ties go to the higher prior. With
   ``confident``, a decision whose highest prior reaches it is played without a search.

With ``considered`` (m >= 2) the root is searched by *sequential halving* instead, as in
Gumbel MuZero (Danihelka et al., 2022, "Policy improvement by planning with Gumbel"), built
for few simulations and a sharp policy. The m most probable legal actions are considered;
in each of ``ceil(log2 m)`` phases every action still in gets ``simulations / (phases * left)``
walks (at least one) that start with it and go on down the tree by PUCT, and the better half
by ``log P(a) + sigma(Q(a))`` stays, until one is left, which is played.
``sigma(q) = (50 + max_b n(b)) * c_scale * q`` (the paper's ``c_visit`` of 50) turns the
seat's mean value into logits: a value has to outweigh the policy's confidence to change its
choice, by more the surer the policy is, and the more the actions were visited the more a
value counts. Without the paper's Gumbel noise the considered actions are the top m and the
search is deterministic given its playouts' dice: a player, not an exploring learner. The
walks of a phase go in waves of ``batch``, with *common random numbers*: walk k of every
action in a phase rolls dice of the same seed, so the actions are compared on the same luck.

A position with a single legal action met on a walk is played through at once: it is no
node and never evaluated, as the training env plays forced decisions for the learner (a
policy has never been asked about one). Dice make it *open loop*: a node is a sequence of
choices, not a position, so its statistics average over the rolls the simulations met. An
action legal after one roll and not after another is picked only where it is legal; a node
where none of the actions it was expanded with is legal (another roll led elsewhere) is
evaluated as a leaf again. Every seat searches for itself, so games of more than two players
need no sign convention.

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
from .core.options import integer, positive_number, probability

SEED_BOUND = 2**63  # dice seeds are drawn in 0..SEED_BOUND - 1
C_VISIT = 50  # sequential halving's sigma: Gumbel MuZero's c_visit
MAX_SIMULATION_DEPTH = 100_000  # a walk down the tree longer than this is a bug in a game


class Evaluator(Protocol):
    """Priors and values of a position for the search.

    ``evaluate(game, state)`` returns ``(priors, values)``: ``priors`` a float array over the
    whole action space (only the legal actions' entries are read; they need not sum to 1)
    and ``values`` a float array of one value per seat, each in [-1, 1] for that seat. It must
    not change ``state`` (nor roll its dice). An evaluator may also offer
    ``evaluate_many(game, states)``, the answers for several positions at once (a network's
    batch); the search then uses it for each wave of leaves."""

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True)
class SearchBudget:
    """What one decision may spend; each option is checked on construction (a bad value
    raises :class:`~envs.core.errors.OptionError` naming it).

    ``simulations``: walks down the tree per decision; ``ms``: a wall-clock cap per decision
    in milliseconds (None: none), checked after each wave; ``batch``: the walks of one wave,
    whose leaves the evaluator gets in one call (a network evaluates several positions for
    little more than one); ``c_puct``: the weight of the priors against the values found
    (higher: follow the priors longer); ``confident``: a decision whose highest prior is at
    least this is played at once, unsearched (None: every decision with a choice is searched),
    so that the time goes to the decisions the policy is unsure of; ``considered``: 0 for
    PUCT at the root, or the m >= 2 most probable actions searched by sequential halving
    (module docstring) with ``c_scale`` the weight of a value against the log prior."""

    simulations: int = 64
    ms: float | None = None
    batch: int = 8
    c_puct: float = 1.5
    confident: float | None = None
    considered: int = 0
    c_scale: float = 0.1

    def __post_init__(self) -> None:
        integer("simulations", self.simulations)
        if self.ms is not None:
            positive_number("ms", self.ms)
        integer("batch", self.batch)
        positive_number("c_puct", self.c_puct)
        if self.confident is not None:
            probability("confident", self.confident)
        if self.considered != 0:
            integer("considered", self.considered, least=2)
        positive_number("c_scale", self.c_scale)

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
    ``visits`` and ``values`` (mean value for the deciding ``seat``; NaN where unvisited);
    with sequential halving, ``improved``: ``softmax(log prior + sigma(mean value))`` over the
    actions (an action not walked counts the root's own value), Gumbel MuZero's policy target,
    since the visits there are the halving's shares, not a preference."""

    seat: int
    actions: np.ndarray
    priors: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    choice: int
    simulations: int
    improved: np.ndarray | None = None

    def visit_policy(self, size: int) -> np.ndarray:
        """float32[size]: the search's policy over the action space, the target an
        expert-iteration learner imitates: the root's visit counts as a distribution, or the
        improved policy of sequential halving (all on the choice when nothing was visited: a
        confident decision)."""
        policy = np.zeros(size, dtype=np.float32)
        if self.improved is not None:
            policy[self.actions] = self.improved
        elif self.visits.sum() > 0:
            policy[self.actions] = self.visits / self.visits.sum()
        else:
            policy[self.choice] = 1.0
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

    def virtual_loss(self, index: int, seat: int, sign: int) -> None:
        """A walk on its way through ``index`` counts as a visit that ``seat`` lost until its
        leaf is evaluated (``sign`` -1 takes it back)."""
        self.visits += sign
        self.child_visits[index] += sign
        self.child_values[index, seat] -= sign

    def child(self, index: int) -> _Node:
        found = self.children.get(index)
        if found is None:
            found = self.children[index] = _Node(self.value_sum.size)
        return found


def _seed(rng: np.random.Generator) -> int:
    """A fresh dice seed for a walk, from the bot's own randomness."""
    return int(rng.integers(SEED_BOUND, dtype=np.uint64))


def _normalised(weights: np.ndarray) -> np.ndarray:
    """``weights`` / their sum; uniform when all are zero (a policy that gives every legal
    action no mass still gets searched)."""
    total = weights.sum()
    if total > 0:
        return weights / total
    return np.full(weights.size, 1.0 / max(weights.size, 1))


class SearchBot:
    """PUCT tree search with an :class:`Evaluator` (module docstring); options as in
    :class:`SearchBudget`. ``stats`` counts decisions, searches (``confident`` ones among them,
    played unsearched), simulations and evaluations; ``last`` is the latest searched decision
    (None until one)."""

    def __init__(self, evaluator: Evaluator, name: str = "search", **options: Any):
        self.evaluator = evaluator
        self.name = name
        self.budget = SearchBudget.of(options)
        self.last: SearchResult | None = None
        self.stats = {
            "decisions": 0,
            "searches": 0,
            "confident": 0,
            "simulations": 0,
            "evaluations": 0,
        }

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
        mask = game.legal_mask(state)
        ((priors, values),) = self._evaluate(game, [state])
        root.expand(mask, priors)
        assert root.actions is not None and root.priors is not None
        root.visits, root.value_sum[:] = 1, values
        confident = budget.confident is not None and root.priors.max() >= budget.confident
        self.stats["confident"] += int(confident)
        improved = None
        deadline = None if budget.ms is None else time.perf_counter() + budget.ms / 1e3
        if confident:
            done, best = 0, int(np.argmax(root.priors))
        elif budget.considered:
            done, best, improved = self._halving(game, state, root, seat, rng, deadline)
        else:
            done = 0
            while done < budget.simulations:
                walks = min(budget.batch, budget.simulations - done)
                done += self._wave(game, state, root, [(None, _seed(rng)) for _ in range(walks)])
                if deadline is not None and time.perf_counter() >= deadline:
                    break
            # visits are whole numbers and priors below 1: half a prior breaks only ties
            best = int(np.argmax(root.child_visits + 0.5 * root.priors))
        self.stats["simulations"] += done
        visits = root.child_visits
        means = np.divide(
            root.child_values[:, seat],
            visits,
            out=np.full(visits.size, np.nan),
            where=visits > 0,
        )
        return SearchResult(
            seat,
            root.actions,
            root.priors,
            visits.copy(),
            means,
            int(root.actions[best]),
            done,
            improved,
        )

    def _wave(
        self,
        game: Game,
        state: Any,
        root: _Node,
        walks: list[tuple[int | None, int]],
    ) -> int:
        """One wave of walks, each (the index of the root's action it starts with, or None for
        PUCT's; its dice seed), their leaves evaluated in one call and backed up; the number
        of walks."""
        wave = [self._descend(game, state, root, first, seed) for first, seed in walks]
        waiting = [leaf for leaf in wave if leaf.values is None]
        answers = self._evaluate(game, [leaf.sim for leaf in waiting]) if waiting else []
        for leaf, (leaf_priors, leaf_values) in zip(waiting, answers):
            if leaf.node.actions is None:
                leaf.node.expand(leaf.mask, leaf_priors)
            leaf.values = leaf_values
        for leaf in wave:
            leaf.back_up()
        return len(wave)

    def _halving(
        self,
        game: Game,
        state: Any,
        root: _Node,
        seat: int,
        rng: np.random.Generator,
        deadline: float | None,
    ) -> tuple[int, int, np.ndarray]:
        """Sequential halving over the root's most probable actions (module docstring):
        (walks, index of the action played, the improved policy over the root's actions)."""
        budget = self.budget
        assert root.priors is not None
        log_prior = np.log(np.maximum(root.priors, 1e-300))
        own = root.value_sum[seat] / max(root.visits, 1)

        def scores() -> np.ndarray:
            """log prior + sigma(mean value); an action not walked has the root's own value."""
            visits = root.child_visits
            means = np.divide(
                root.child_values[:, seat], visits, out=np.full(visits.size, own), where=visits > 0
            )
            return log_prior + (C_VISIT + visits.max()) * budget.c_scale * means

        left = [int(i) for i in np.argsort(-root.priors, kind="stable")[: budget.considered]]
        phases = max(1, math.ceil(math.log2(len(left))))
        done, out_of_time = 0, False
        while len(left) > 1 and not out_of_time:
            per = max(1, budget.simulations // (phases * len(left)))
            # common random numbers: walk k of every action rolls the same dice, so the
            # comparison sees the same luck (as the lookahead bot's playouts do)
            seeds = [_seed(rng) for _ in range(per)]
            walks: list[tuple[int | None, int]] = [(i, seed) for i in left for seed in seeds]
            for k in range(0, len(walks), budget.batch):
                done += self._wave(game, state, root, walks[k : k + budget.batch])
                out_of_time = deadline is not None and time.perf_counter() >= deadline
                if out_of_time:  # the best of those still in is played
                    break
            if not out_of_time:
                now = scores()
                left = sorted(left, key=lambda i: -now[i])[: (len(left) + 1) // 2]
        final = scores()
        best = max(left, key=lambda i: final[i])
        improved = np.exp(final - final.max())
        return done, best, improved / improved.sum()

    def _descend(
        self,
        game: Game,
        state: Any,
        root: _Node,
        first: int | None,
        seed: int,
    ) -> _Leaf:
        """One simulation's walk from the root (its action of index ``first``, or by PUCT),
        on a copy of ``state`` with dice of ``seed``, to a finished game (its returns) or a
        position to evaluate (a virtual loss on its way, so the next walks of the same wave
        spread out)."""
        sim = state.copy(dice=Dice(seed))
        leaf = _Leaf(sim)
        node = root
        for _ in range(MAX_SIMULATION_DEPTH):
            seat = game.current_player(sim)
            if seat < 0:
                leaf.values = np.clip(game.returns(sim), -1.0, 1.0)
                break
            leaf.mask = game.legal_mask(sim)
            if leaf.mask.sum() == 1:  # forced: played through, as the env plays it in training
                game.apply_legal(sim, int(np.argmax(leaf.mask)))
                continue
            if first is not None and node is root:
                index = first  # the root's position has the same legal actions on any dice
            else:
                index = (
                    -1 if node.actions is None else node.select(leaf.mask, seat, self.budget.c_puct)
                )
            if index < 0:
                break
            assert node.actions is not None
            leaf.path.append((node, index, seat))
            node.virtual_loss(index, seat, +1)
            game.apply_legal(sim, int(node.actions[index]))
            node = node.child(index)
        else:
            raise RuntimeError(f"a simulation ran past {MAX_SIMULATION_DEPTH} decisions")
        leaf.node = node
        return leaf

    def _evaluate(self, game: Game, states: list[Any]) -> list[tuple[np.ndarray, np.ndarray]]:
        """The evaluator's answers for ``states``, in one call where it takes several."""
        self.stats["evaluations"] += len(states)
        many = getattr(self.evaluator, "evaluate_many", None)
        if many is not None:
            answers = list(many(game, states))
        else:
            answers = [self.evaluator.evaluate(game, state) for state in states]
        checked = []
        for priors, values in answers:
            values = np.asarray(values, dtype=float)
            if values.shape != (game.num_players,):
                raise ValueError(
                    f"the evaluator gave values of shape {values.shape}, expected one per seat "
                    f"({game.num_players},)"
                )
            checked.append((priors, np.clip(values, -1.0, 1.0)))
        return checked


class _Leaf:
    """Where one simulation's walk ended: the copy it played on, the (node, action index,
    seat) steps from the root, and its values once known."""

    def __init__(self, sim: Any):
        self.sim = sim
        self.path: list[tuple[_Node, int, int]] = []
        self.node: _Node
        self.mask: np.ndarray = np.zeros(0, dtype=bool)
        self.values: np.ndarray | None = None

    def back_up(self) -> None:
        """Add the values along the path, taking back the virtual losses."""
        assert self.values is not None
        self.node.visits += 1
        self.node.value_sum += self.values
        for parent, index, seat in self.path:
            parent.virtual_loss(index, seat, -1)
            parent.visits += 1
            parent.value_sum += self.values
            parent.child_visits[index] += 1
            parent.child_values[index] += self.values


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
