"""HeroClix force balance: every pair of 100-point forces, one player in both seats.

``python -m envs.heroclix.bots.balance --games 200`` plays each pair of :data:`FORCES` on the
``small`` map of the default duel (its objects, starting edges S and N), ``--games`` games per
pair with the forces swapping seats every game, and prints one row per pair: the first
force's wins, draws and losses, its win rate with a 95% Wilson interval (draws count as
non-wins) and the points of each force. ``--json`` prints the rows as JSON; ``--pairs`` picks
rows by index (``0 3 7``) so a long table can be split over processes. ``--agent`` is the
player in both seats: the heuristic bot by default, or any player ``envs.match`` takes (a bot
name, a model ``.zip`` trained on the duel, ``search:model.zip``), so the table can be rerun
with the strongest agent there is: a balance measured by a weak player measures the player.
``--price FIGURE=POINTS`` (repeatable) plays the table as if a figure cost that much: a
what-if for a point change before it is made in the figure's file. The price is the figure's
everywhere a point value counts (the force's total against the build total, HC-2.3; victory
points, HC-7.5 and HC-7.7; the tie-break, HC-7.9), and a force it takes over the build total
is refused.

The forces are the five 100-point forces suggested by envs/heroclix/RULES.md (F) (the figure
ids of ``envs/heroclix/data/figures``). ``--forces`` plays a table of other forces: each one of
the five by name, or figures joined by ``+`` (``mender+shift+thug+thug``; ``thug`` is
``street_thug``), up to four figures, so a price change can be tried with the forces it makes
possible (a cheaper figure leaves room for another). A pair of equal points whose first force
wins outside :data:`FAIR` is out of balance: its figures' point values are what to change.
The table ends with :func:`verdict`: each equal-points pair against that range, and in how
many of the other pairs the force with more points won.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace

from envs.bots import play_game, wilson_interval
from envs.heroclix.data.figures import MAX_POINTS, load_figure, shipped_figures
from envs.heroclix.data.forces import ForceError, force_problems
from envs.heroclix.data.scenarios import (
    SCENARIOS_DIR,
    Scenario,
    load_scenario,
    scenario_from_text,
)
from envs.heroclix.rules import HeroclixGame
from envs.match import UsageError, load_player

FORCES: dict[str, tuple[str, ...]] = {
    "razorback+gloam": ("razorback", "gloam"),
    "mender+shift+thug": ("mender", "shift", "street_thug"),
    "quarry+thug": ("quarry", "street_thug"),
    "skylash+mender": ("skylash", "mender"),
    "elastic+razorback": ("elastic", "razorback"),
}
SHORT_NAMES = {"thug": "street_thug"}
"""Figure ids a force's name may shorten."""
# Starting squares along each edge of the small map, in the order a force's figures take
# them (the first three are the original table's; a fourth figure stands nearer the corner).
COLUMNS = (6, 9, 11, 4)
EDGE_ROWS = {"S": 15, "N": 0}
HOME = "duel"  # the map and objects of the games are this scenario's
FAIR = (0.35, 0.65)
"""The win rates a pair of equal points may show and still be in balance."""


@dataclass(frozen=True)
class PairResult:
    force_a: str
    force_b: str
    points_a: int
    points_b: int
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    ci_low: float
    ci_high: float


def parse_force(text: str) -> tuple[str, ...]:
    """A force of ``--forces``: a name of :data:`FORCES`, or figure ids joined by ``+``."""
    if text in FORCES:
        return FORCES[text]
    known = shipped_figures()
    parts = text.split("+")
    figures = tuple(SHORT_NAMES.get(part, part) for part in parts)
    unknown = [part for part, figure in zip(parts, figures) if figure not in known]
    if unknown:
        raise ValueError(
            f"force {text!r}: {', '.join(map(repr, unknown))} is not a figure "
            f"(figures: {', '.join(known)}; {', '.join(f'{k}={v}' for k, v in SHORT_NAMES.items())})"
        )
    try:
        starting_columns(figures)
    except ValueError as error:
        raise ValueError(f"force {text!r}: {error}") from None
    return figures


def starting_columns(force: Sequence[str]) -> tuple[int, ...]:
    """The column each figure of ``force`` starts on; a ValueError where the edge has too few
    (a figure is never left off the map)."""
    if len(force) > len(COLUMNS):
        raise ValueError(f"{len(force)} figures; the table's map starts at most {len(COLUMNS)}")
    return COLUMNS[: len(force)]


def points(force: Sequence[str]) -> int:
    return sum(load_figure(f).points for f in force)


def parse_price(text: str) -> tuple[str, int]:
    """``FIGURE=POINTS`` of ``--price``: a shipped figure's id and a point value it may have."""
    figure, sep, value = text.partition("=")
    known = shipped_figures()
    if not sep or figure not in known:
        raise ValueError(
            f"--price {text!r}: expected FIGURE=POINTS with FIGURE one of {', '.join(known)}"
        )
    try:
        price = int(value)
    except ValueError:
        raise ValueError(f"--price {text!r}: POINTS {value!r} is not a whole number") from None
    if not 0 < price <= MAX_POINTS:
        raise ValueError(f"--price {text!r}: POINTS must be 1..{MAX_POINTS}, got {price}")
    return figure, price


def repriced(
    scenario: Scenario, prices: Mapping[str, int], build_total: int | None = None
) -> Scenario:
    """``scenario`` with the figures named in ``prices`` at those point values (and
    ``build_total`` as its build total, if given); a
    :class:`~envs.heroclix.data.forces.ForceError` if a force then breaks the build total."""
    if build_total is not None:
        scenario = replace(scenario, build_total=build_total)
    players = []
    for player in scenario.players:
        force = tuple(
            replace(entry, figure=replace(entry.figure, points=prices[entry.figure.id]))
            if entry.figure.id in prices
            else entry
            for entry in player.force
        )
        problems = force_problems([entry.figure for entry in force], scenario.build_total)
        if problems:
            raise ForceError(problems)
        players.append(replace(player, force=force))
    return replace(scenario, players=tuple(players))


def scenario_text(
    seat0: Sequence[str], seat1: Sequence[str], build_total: int | None = None
) -> str:
    """The table's scenario: the home scenario's map and objects, ``seat0`` on edge S and
    ``seat1`` on edge N, at ``build_total`` (default: the home scenario's)."""
    home = load_scenario(HOME)
    width = home.map.board.width
    lines = [
        "id: balance",
        "name: Balance",
        f"map: {home.map.id}",
        f"build_total: {home.build_total if build_total is None else build_total}",
        "players:",
    ]
    for edge, force in (("S", seat0), ("N", seat1)):
        lines += [f"  - edge: {edge}", "    force:"]
        lines += [
            f"      - {{figure: {fid}, at: [{EDGE_ROWS[edge]}, {col}]}}"
            for fid, col in zip(force, starting_columns(force))
        ]
    lines.append("objects:")
    lines += [
        f"  - {{object: {o.kind}, at: [{o.cell // width}, {o.cell % width}]}}" for o in home.objects
    ]
    return "\n".join(lines) + "\n"


def play_pair(
    name_a: str,
    name_b: str,
    games: int,
    seed: int = 0,
    agent: str = "heuristic",
    prices: Mapping[str, int] | None = None,
) -> PairResult:
    """``games`` games, force A in seat 0 in the even ones and seat 1 in the odd ones, with
    ``agent`` (a player spec, :func:`envs.match.load_player`) in both seats; ``prices``
    reprices figures by id (module docstring). A force is named as ``--forces`` takes it
    (:func:`parse_force`)."""
    a, b = parse_force(name_a), parse_force(name_b)

    build_total = load_scenario(HOME).build_total
    # The file is checked at the shipped prices, which a force built for new prices may
    # exceed; it is loaded at a total that admits it, and the priced force is then checked
    # against the home scenario's total (HC-2.3) by repriced().
    admitting = max(build_total, -(-max(points(a), points(b)) // 100) * 100)

    def seated(seat0: Sequence[str], seat1: Sequence[str]) -> HeroclixGame:
        text = scenario_text(seat0, seat1, admitting)
        scenario = scenario_from_text(text, base=SCENARIOS_DIR)
        return HeroclixGame(repriced(scenario, prices or {}, build_total))

    seatings = [(seated(a, b), 0), (seated(b, a), 1)]
    # the points each force spends as played (its prices included), from the game itself
    first = seatings[0][0]
    spent = [first.force_points(first.new_state(seed), seat) for seat in (0, 1)]
    bot = load_player(agent, "heroclix_v0", seatings[0][0], "--agent")
    wins = draws = losses = 0
    for i in range(games):
        game, seat_a = seatings[i % 2]
        result = play_game(game, [bot, bot], seed + i, validate=False)[seat_a]
        wins += result > 0
        losses += result < 0
        draws += result == 0
    low, high = wilson_interval(wins, games)
    return PairResult(
        name_a,
        name_b,
        spent[0],
        spent[1],
        games,
        int(wins),
        int(draws),
        int(losses),
        wins / games,
        low,
        high,
    )


def verdict(rows: Sequence[PairResult]) -> list[str]:
    """What a table says of the point values: each pair of equal points inside or outside
    :data:`FAIR`, and in how many pairs of unequal points the force with more points won more
    than half the games."""
    lines = []
    for r in rows:
        if r.points_a == r.points_b:
            inside = FAIR[0] <= r.win_rate <= FAIR[1]
            lines.append(
                f"equal points ({r.points_a}): {r.force_a} vs {r.force_b} at "
                f"{r.win_rate:.3f}, {'inside' if inside else 'outside'} {FAIR[0]}-{FAIR[1]}"
            )
    unequal = [r for r in rows if r.points_a != r.points_b]
    if unequal:
        agree = sum((r.win_rate > 0.5) == (r.points_a > r.points_b) for r in unequal)
        lines.append(
            f"more points won more than half the games in {agree} of {len(unequal)} pairs "
            "of unequal points"
        )
    return lines


def pairs(forces: Sequence[str] = tuple(FORCES)) -> list[tuple[str, str]]:
    return list(itertools.combinations(forces, 2))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m envs.heroclix.bots.balance", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pairs", type=int, nargs="*", help="row indices (default: all)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--agent",
        default="heuristic",
        help="the player in both seats: a bot, a model .zip or search:MODEL.zip",
    )
    parser.add_argument(
        "--price",
        action="append",
        default=[],
        metavar="FIGURE=POINTS",
        help="play as if FIGURE cost POINTS (repeatable): a what-if for a point change",
    )
    parser.add_argument(
        "--forces",
        nargs="+",
        default=list(FORCES),
        metavar="FORCE",
        help="the table's forces: names of the five, or figures joined by + (default: the five)",
    )
    args = parser.parse_args(argv)
    for text in args.forces:
        try:
            parse_force(text)
        except ValueError as error:
            parser.error(f"--forces: {error}")
    if len(set(args.forces)) < len(args.forces):
        parser.error(f"--forces: a force is named twice in {' '.join(args.forces)}")
    if len(args.forces) < 2:
        parser.error("--forces: a table needs two forces or more")
    prices: dict[str, int] = {}
    for text in args.price:
        try:
            figure, price = parse_price(text)
        except ValueError as error:
            parser.error(str(error))
        if figure in prices:
            parser.error(f"--price {text!r}: {figure} is already priced at {prices[figure]}")
        prices[figure] = price
    table = pairs(args.forces)
    chosen = range(len(table)) if not args.pairs else args.pairs
    rows = []
    for index in chosen:
        if not 0 <= index < len(table):
            parser.error(f"--pairs: {index} is not a row 0..{len(table) - 1}")
        try:
            rows.append(play_pair(*table[index], args.games, args.seed, args.agent, prices))
        except UsageError as error:
            parser.error(str(error))
        except ForceError as error:
            parser.error(f"--price: {' vs '.join(table[index])}: {error}")
        if not args.json:
            r = rows[-1]
            print(
                f"{r.force_a} ({r.points_a}) vs {r.force_b} ({r.points_b}): "
                f"{r.wins}-{r.draws}-{r.losses} of {r.games}, win rate {r.win_rate:.3f} "
                f"[{r.ci_low:.3f}, {r.ci_high:.3f}]",
                flush=True,
            )
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=1))
    else:
        print("\n".join(verdict(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
