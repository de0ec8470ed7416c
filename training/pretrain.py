"""Warm start by behaviour cloning: fit a fresh policy to a bot's decisions before PPO.

Self-play PPO from a random policy spends most of a short budget rediscovering what the
heuristic bot already knows (walk towards the goal, attack what is in reach). Cloning the bot
first puts the learner near the bot's level within minutes, and PPO then trains from there
against the league. Enabled by the ``pretrain`` section of a training config
(``pretrain.games > 0``); ``python -m training.train`` runs it before ``learn``.

Data: ``games`` games of the demonstrator against itself, every decision of both seats, as
``(observation of the deciding seat, legal mask, action, target value)``. The target value is
the seat's final return discounted by ``gamma`` per remaining decision of that seat, which is
what the PPO value head estimates, so the critic starts calibrated as well. With reward
shaping (``reward_shaping`` w > 0, ``training.selfplay``) the learner's return from a decision
is that minus the decision's potential ``w * V(s)``, so the target is too.

Loss per minibatch: ``-log pi(action | obs, mask) + value_coef * (V(obs) - target)^2``, with
the masked distribution of the policy itself (``evaluate_actions``), Adam, ``epochs`` passes.
Data from a search (:func:`collect_search_games`, expert iteration: ``training.expert``) has
soft targets, the search's visits ``p``: the policy term is then ``-sum_a p(a) log pi(a)``.
Observations are stored as float16 to halve the memory (their values are small fractions and
counts; float16 keeps them to 3 significant digits).

Forced decisions (one legal action) are not recorded when the trainer auto-plays them
(``auto_play_forced``): the learner never sees them, and they would be half of Heroica's data.

Time budget. With ``time_limit_minutes`` set, the warm start gets ``pretrain.budget_fraction`` of
it: collecting stops (after the game under way) at half of that share and cloning at the whole
(after the minibatch under way), so a short run still spends most of its budget learning.

Processes. The games are played in ``pretrain.workers`` processes (one per env worker by
default), each writing its decisions into its own share of one block of shared memory; the
cloning is one process (torch).
"""

from __future__ import annotations

import mmap
import multiprocessing
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from envs.bots import get_bot
from envs.lookahead import position_value

from .interrupts import ignore_stop_signals
from .threads import ThreadTuner, TunedBlocks

TUNED_BLOCK = 8  # cloning minibatches per round of torch_threads: auto (about a second)


@dataclass
class Demonstrations:
    observations: np.ndarray  # (N, C, H, W) float16
    masks: np.ndarray  # (N, A) bool
    actions: np.ndarray  # (N,) int64
    values: np.ndarray  # (N,) float32
    games: int
    policies: np.ndarray | None = None  # (N, A) float32: a search's visits, the soft targets

    def __len__(self) -> int:
        return len(self.actions)

    @classmethod
    def of(cls, arrays: Iterable[np.ndarray], games: int) -> Demonstrations:
        """From arrays in field order: observations, masks, actions, values[, policies]."""
        observations, masks, actions, values, *policies = arrays
        return cls(observations, masks, actions, values, games, *policies)


def collect_demonstrations(
    game_factory: Callable[[], Any],
    game_name: str,
    demonstrator: str,
    games: int,
    seed: int,
    gamma: float,
    max_samples: int,
    skip_forced: bool = False,
    deadline: float | None = None,
    workers: int = 1,
    reward_shaping: float = 0.0,
) -> Demonstrations:
    """Play ``games`` games of ``demonstrator`` against itself and record every decision, up to
    ``max_samples`` (the game in progress is played out so its decisions get their outcome).
    ``skip_forced`` leaves out decisions with one legal action; no game starts after
    ``deadline`` (``time.monotonic()`` seconds). ``reward_shaping`` > 0 takes each decision's
    shaping potential off its target value (module docstring).

    ``workers`` > 1 plays the games in that many processes (game ``i`` in worker ``i %
    workers``, with the seeds it has in one process), each recording into its own share of
    ``max_samples``; the decisions come back in game order, so without a cap or a deadline
    that binds, the data equal one process's. With a binding cap the shares fill unevenly, so
    which decisions are kept can differ from one process's. Gathering them into game order
    copies them once, so for a moment they take twice their memory."""
    if games < 1:
        raise ValueError(f"games must be at least 1 to collect demonstrations, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    workers = min(workers, games)
    get_bot(game_name, demonstrator)  # an unknown bot fails here, not in every worker
    if reward_shaping:
        position_value(game_name)  # a game with no value for the potential fails here too
    game = game_factory()
    task = _Collection(
        game_factory, game_name, demonstrator, seed, gamma, skip_forced, deadline, reward_shaping
    )
    if workers == 1:
        arrays = _allocate(game, max_samples, np.empty)
        spans = task.play(range(games), arrays, game)  # the first game is always played
        count = spans[-1][2]
        return Demonstrations.of((array[:count] for array in arrays), games=len(spans))
    return _collect_in_processes(task, game, games, max_samples, workers)


def collect_search_games(
    game_factory: Callable[[], Any],
    game_name: str,
    searcher: Any,
    games: int,
    seed: int,
    gamma: float,
    max_samples: int,
    skip_forced: bool = False,
    reward_shaping: float = 0.0,
) -> Demonstrations:
    """Expert iteration's data: ``games`` games of ``searcher`` (an :class:`envs.search.SearchBot`,
    in this process: it holds the live model) against itself, every decision recorded as by
    :func:`collect_demonstrations`, plus the search's visits at the root as ``policies`` (a
    decision it did not search: the action played)."""
    game = game_factory()
    task = _Collection(
        game_factory, game_name, "search", seed, gamma, skip_forced, None, reward_shaping, searcher
    )
    arrays = _allocate(game, max_samples, np.empty)
    arrays += (np.empty((max_samples, game.layout.size), dtype=np.float32),)
    spans = task.play(range(games), arrays, game)
    count = spans[-1][2]
    return Demonstrations.of((array[:count] for array in arrays), games=len(spans))


def _allocate(
    game: Any, samples: int, allocate: Callable[..., np.ndarray]
) -> tuple[np.ndarray, ...]:
    """observations, masks, actions, values for ``samples`` decisions, preallocated: a list of
    arrays plus np.stack would hold every observation twice."""
    return (
        allocate((samples, *game.observation_shape), dtype=np.float16),
        allocate((samples, game.layout.size), dtype=bool),
        allocate(samples, dtype=np.int64),
        allocate(samples, dtype=np.float32),
    )


@dataclass
class _Collection:
    """What every worker of one collection shares: the games, the bot, the seeds."""

    game_factory: Callable[[], Any]
    game_name: str
    demonstrator: str
    seed: int
    gamma: float
    skip_forced: bool
    deadline: float | None
    reward_shaping: float = 0.0
    searcher: Any = None  # an envs.search.SearchBot to play instead (its visits as targets)

    def play(
        self, indices: Iterable[int], arrays: tuple[np.ndarray, ...], game: Any
    ) -> list[tuple[int, int, int]]:
        """Play the games ``indices`` into ``arrays`` until they are full; returns each game
        played as (index, first row, end row)."""
        observations, masks, actions, values = arrays[:4]
        policies = arrays[4] if len(arrays) > 4 else None
        capacity = len(actions)
        bot = self.searcher or get_bot(self.game_name, self.demonstrator)
        potential = position_value(self.game_name) if self.reward_shaping else None
        spans: list[tuple[int, int, int]] = []
        count = 0
        for index in indices:
            if count == capacity or (
                self.deadline is not None and time.monotonic() >= self.deadline and spans
            ):
                break
            state = game.new_state(self.seed + index)
            rng = np.random.default_rng([self.seed + index, 0xB075])
            first = count
            # every learner step's seat and its row in the arrays (-1: past the capacity), for
            # the discounting; a forced decision skipped is no PPO step, so it is not discounted over
            seats: list[int] = []
            recorded: list[int] = []
            while (seat := game.current_player(state)) >= 0:
                searches = self.searcher.stats["searches"] if self.searcher else 0
                action = bot.act(game, state, rng)
                mask = game.legal_mask(state)
                if not (self.skip_forced and np.count_nonzero(mask) == 1):
                    seats.append(seat)
                    recorded.append(count if count < capacity else -1)
                    if count < capacity:
                        observations[count] = game.observe(state, seat)
                        masks[count] = mask
                        actions[count] = action
                        if policies is not None:  # the visits, or the one action it had
                            searched = self.searcher.stats["searches"] > searches
                            policies[count] = 0.0
                            if searched:
                                policies[count] = self.searcher.last.visit_policy(mask.size)
                            else:
                                policies[count, action] = 1.0
                        # the return's shaped part is known now: minus this decision's potential
                        values[count] = (
                            0.0
                            if potential is None
                            else -self.reward_shaping * potential(game, state, seat)
                        )
                        count += 1
                game.apply_legal(state, action)
            final = game.returns(state)
            remaining = np.zeros(game.num_players, dtype=np.int64)
            for decision in range(
                len(seats) - 1, -1, -1
            ):  # count each seat's later steps backwards
                if recorded[decision] >= 0:
                    values[recorded[decision]] += (
                        final[seats[decision]] * self.gamma ** remaining[seats[decision]]
                    )
                remaining[seats[decision]] += 1
            spans.append((index, first, count))
        return spans


def _collect_in_processes(
    task: _Collection, game: Any, games: int, max_samples: int, workers: int
) -> Demonstrations:
    share = -(-max_samples // workers)
    # the workers write into anonymous shared memory, so gigabytes of observations are not
    # pickled back; "fork", because the game factory is a closure and the workers run no torch
    shared = _allocate(game, share * workers, _shared_array)
    context = multiprocessing.get_context("fork")
    pipes, processes = [], []
    try:
        for worker in range(workers):
            receive, send = context.Pipe(duplex=False)
            own = slice(worker * share, (worker + 1) * share)
            process = context.Process(
                target=_worker,
                daemon=True,
                args=(
                    task,
                    range(worker, games, workers),
                    tuple(array[own] for array in shared),
                    send,
                ),
            )
            process.start()
            send.close()
            pipes.append(receive)
            processes.append(process)
        spans = []
        for worker, (pipe, process) in enumerate(zip(pipes, processes)):
            try:
                outcome = pipe.recv()
            except EOFError:
                process.join()
                raise RuntimeError(
                    f"demonstration worker {worker} died (exit code {process.exitcode})"
                ) from None
            if isinstance(outcome, BaseException):
                raise RuntimeError(
                    f"demonstration worker {worker} failed: {outcome!r}"
                ) from outcome
            spans += [
                (index, worker * share + first, worker * share + end)
                for index, first, end in outcome
            ]
    finally:
        for process in processes:  # a stop signal or a failed worker: the others go too
            if process.is_alive():
                process.kill()
            process.join()
    spans.sort()
    played = np.concatenate([np.arange(first, end) for _, first, end in spans])[:max_samples]
    return Demonstrations.of((array[played] for array in shared), games=len(spans))


def _shared_array(shape: Any, dtype: Any) -> np.ndarray:
    size = int(np.prod(shape))
    return np.frombuffer(
        mmap.mmap(-1, size * np.dtype(dtype).itemsize), dtype=dtype, count=size
    ).reshape(shape)


def _worker(task: _Collection, indices: range, arrays: tuple[np.ndarray, ...], pipe: Any) -> None:
    ignore_stop_signals()  # Ctrl-C reaches the process group; the trainer stops the workers
    try:
        pipe.send(task.play(indices, arrays, task.game_factory()))
    except BaseException as error:  # reported to the parent, which raises it
        pipe.send(error)
    finally:
        pipe.close()


def clone(
    model: Any,
    data: Demonstrations,
    epochs: int,
    batch_size: int,
    learning_rate: float,
    value_coef: float,
    seed: int,
    log: Callable[[str], None] = print,
    deadline: float | None = None,
    tuner: ThreadTuner | None = None,
) -> dict[str, float]:
    """Fit ``model.policy`` (an sb3-contrib MaskablePPO policy) to the demonstrations; past
    ``deadline`` (``time.monotonic()`` seconds) it stops after the minibatch under way. With a
    ``tuner`` (``torch_threads: auto``), every ``TUNED_BLOCK`` minibatches run on the
    thread count it gives and are timed for it."""
    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    rng = np.random.default_rng(seed)
    n = len(data)
    stats: dict[str, float] = {}
    out_of_time = False
    blocks = None if tuner is None else TunedBlocks(tuner, TUNED_BLOCK)
    for epoch in range(epochs):
        order = rng.permutation(n)
        total_nll = total_value = correct = 0.0
        seen = 0
        for start in range(0, n, batch_size):
            if deadline is not None and seen and time.monotonic() >= deadline:
                out_of_time = True
                break
            if blocks is not None:
                blocks.tick()
            batch = order[start : start + batch_size]
            obs = torch.as_tensor(
                data.observations[batch], dtype=torch.float32, device=policy.device
            )
            actions = torch.as_tensor(data.actions[batch], device=policy.device)
            masks = data.masks[batch]
            targets = torch.as_tensor(data.values[batch], device=policy.device)
            values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
            value_loss = torch.nn.functional.mse_loss(values.flatten(), targets)
            if data.policies is None:
                policy_loss = -log_prob.mean()
            else:  # cross-entropy to the search's visits: its illegal actions have no weight
                logits = policy.get_distribution(obs, action_masks=masks).distribution.logits
                soft = torch.as_tensor(data.policies[batch], device=policy.device)
                policy_loss = -(soft * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            loss = policy_loss + value_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            with torch.no_grad():
                predicted = policy.get_distribution(
                    obs, action_masks=masks
                ).distribution.probs.argmax(dim=1)
                correct += (predicted == actions).sum().item()
                total_nll += policy_loss.item() * len(batch)  # the soft targets' cross-entropy
                total_value += value_loss.item() * len(batch)
                seen += len(batch)
        stats = {
            "epoch": epoch + 1 if not out_of_time else epoch + seen / n,
            "nll": total_nll / seen,
            "value_mse": total_value / seen,
            "accuracy": correct / seen,
        }
        log(
            f"pretrain epoch {epoch + 1}/{epochs}{' (cut short by the time budget)' if out_of_time else ''}: "
            f"nll {stats['nll']:.3f}, accuracy {stats['accuracy']:.3f}, value mse {stats['value_mse']:.3f}"
        )
        if out_of_time:
            break
    policy.set_training_mode(False)
    return stats


def pretrain(
    model: Any,
    config: Any,
    game_factory: Callable[[], Any],
    run_started: float | None = None,
    tuner: ThreadTuner | None = None,
) -> dict[str, float | None]:
    """Collect demonstrations and clone them into ``model``, per ``config.pretrain``; with a time
    limit, within ``budget_fraction`` of it counted from ``run_started`` (monotonic seconds).
    The clone's last epoch's figures, the samples, games and seconds, and the budget (None
    without a time limit)."""
    settings = config.pretrain
    started = time.monotonic()
    budget = None
    if config.time_limit_minutes:
        budget = config.time_limit_minutes * 60 * settings.budget_fraction
    origin = started if run_started is None else run_started
    workers = settings.workers or config.num_envs
    data = collect_demonstrations(
        game_factory,
        config.env.name,
        settings.demonstrator,
        settings.games,
        seed=config.seed + 104729,
        gamma=config.ppo.gamma,
        max_samples=settings.max_samples,
        skip_forced=config.auto_play_forced,
        deadline=None if budget is None else origin + budget / 2,
        workers=workers,
        reward_shaping=config.reward_shaping,
    )
    print(
        f"pretrain: {len(data)} decisions from {data.games} {settings.demonstrator} games "
        f"in {min(workers, settings.games)} process(es) "
        f"({time.monotonic() - started:.0f} s)"
    )
    stats = clone(
        model,
        data,
        settings.epochs,
        settings.batch_size,
        settings.learning_rate,
        settings.value_coef,
        seed=config.seed,
        deadline=None if budget is None else origin + budget,
        tuner=tuner,
    )
    return {
        **stats,
        "samples": len(data),
        "games": data.games,
        "seconds": round(time.monotonic() - started, 1),
        "budget_seconds": None if budget is None else round(budget, 1),
    }
