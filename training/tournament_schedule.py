"""Who plays whom, in which seat, with which seed: the schedule of ``training.evaluate``.

A *table* is the list of agents (indices into the tournament's agent list) that play one
series of games together, one agent per seat:

* with ``k >= n`` agents for ``n`` seats, every n-subset of the agents is a table, in the
  order the agents are listed (``itertools.combinations``): every agent meets every other,
  and no agent plays itself. For two seats these are the pairs of a round robin;
* with ``k < n`` agents there are not enough to fill a table, so the agents are repeated:
  a table cycles through the agents in list order, starting from each agent in turn
  (agents ``a, b`` for 3 seats: tables ``a b a`` and ``b a b``). Starting from every agent
  gives every agent the same number of seats overall, so none is favoured by being listed
  first; when ``k`` divides ``n`` the tables are rotations of one another and only the first
  is kept (``a b a b`` for 4 seats).

Every table plays the same number of games. Game ``g`` of a table is rotation ``g % n`` of it:
seat ``s`` holds ``table[(s + g) % n]``, so in every ``n`` consecutive games each agent of the
table sits in each seat once (two seats: ``a b``, ``b a``, ``a b``, ...). The rotation keeps
the agents' cyclic order - within one table the same agent always plays right after another -
which balances seats (the first move, the Monster Player's seat) but not neighbours; the other
cyclic orders are played at other tables when there are more agents than seats.

Game ``g`` of table ``t`` uses seed ``seed + t * games + g``, so every game of a tournament has
its own seed and the same seed replays the same tournament.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

DEFAULT_GAMES = 20
"""Games per table when none is given, rounded up to a multiple of the seats."""


@dataclass(frozen=True)
class Slot:
    """One scheduled game: its table (index and agents), its number within the table, seats, seed."""

    table: int
    game: int
    seats: tuple[int, ...]
    seed: int


def tables(num_agents: int, num_seats: int) -> list[tuple[int, ...]]:
    """The tables of a tournament, as tuples of agent indices (see the module docstring)."""
    if num_agents < 1 or num_seats < 1:
        raise ValueError(f"need at least one agent and one seat, got {num_agents} and {num_seats}")
    if num_agents >= num_seats:
        return list(itertools.combinations(range(num_agents), num_seats))
    # Starting offsets 1..k-1 only rotate the first table when k divides n (the agent sequence is
    # periodic), and rotations are played anyway, so one table is enough then.
    starts = range(1) if num_seats % num_agents == 0 else range(num_agents)
    return [tuple((start + i) % num_agents for i in range(num_seats)) for start in starts]


def rotation(table: tuple[int, ...], game: int) -> tuple[int, ...]:
    """The agents by seat in game ``game`` of ``table``: seat ``s`` holds ``table[(s + game) % n]``."""
    n = len(table)
    return tuple(table[(seat + game) % n] for seat in range(n))


def schedule(num_agents: int, num_seats: int, games: int, seed: int) -> list[Slot]:
    """Every game of the tournament in playing order: table by table, games in order within each."""
    return [
        Slot(table=t, game=g, seats=rotation(table, g), seed=seed + t * games + g)
        for t, table in enumerate(tables(num_agents, num_seats))
        for g in range(games)
    ]


def check_games(games: int, num_seats: int, label: str = "games_per_pair") -> None:
    """Raise ValueError when ``games`` per table cannot rotate ``num_seats`` seats fairly.

    ``label`` names the setting in the message (``--games`` on the command line). Two-seat
    tournaments accept an odd count, as they always have (one agent of each pair then plays
    seat 0 once more); with more seats an unbalanced count is refused, since the imbalance is
    then larger and easy to miss.
    """
    if games < 1:
        raise ValueError(f"{label} must be positive, got {games}")
    if num_seats > 2 and games % num_seats:
        low = games - games % num_seats
        options = f"{low} or {low + num_seats}" if low else str(num_seats)
        raise ValueError(
            f"{label} must be a multiple of the {num_seats} seats, got {games} (try {options}): "
            f"each game of a table is one rotation of its seats, and only whole rotations "
            "seat every agent in every seat equally often"
        )


def default_games(num_seats: int) -> int:
    """``DEFAULT_GAMES`` rounded up to a multiple of ``num_seats`` (20 for 2 or 4 seats, 21 for 3)."""
    return math.ceil(DEFAULT_GAMES / num_seats) * num_seats if num_seats > 2 else DEFAULT_GAMES


def finishing_ranks(returns: list[float]) -> list[int]:
    """1-based finishing place of each seat from its return; equal returns share a place.

    Competition ranking ("1 2 2 4"): a seat's place is one more than the number of seats with a
    strictly higher return, so a shared win is two firsts and a round cap (all 0) all firsts.
    """
    return [1 + sum(other > mine for other in returns) for mine in returns]
