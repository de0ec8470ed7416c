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

The forces are the five 100-point forces suggested by envs/heroclix/RULES.md (F) (the figure
ids of ``envs/heroclix/data/figures``). A force that wins more than 0.65 against one of equal
points is out of balance: its figures' point values are what to change.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from envs.bots import play_game, wilson_interval
from envs.heroclix.data.figures import load_figure
from envs.heroclix.data.scenarios import SCENARIOS_DIR, load_scenario, scenario_from_text
from envs.heroclix.rules import HeroclixGame
from envs.match import UsageError, load_player

FORCES: dict[str, tuple[str, ...]] = {
    "razorback+gloam": ("razorback", "gloam"),
    "mender+shift+thug": ("mender", "shift", "street_thug"),
    "quarry+thug": ("quarry", "street_thug"),
    "skylash+mender": ("skylash", "mender"),
    "elastic+razorback": ("elastic", "razorback"),
}
COLUMNS = (6, 9, 11)  # starting squares along each edge of the small map
EDGE_ROWS = {"S": 15, "N": 0}
HOME = "duel"  # the map and objects of the games are this scenario's


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


def points(force: Sequence[str]) -> int:
    return sum(load_figure(f).points for f in force)


def scenario_text(seat0: Sequence[str], seat1: Sequence[str]) -> str:
    home = load_scenario(HOME)
    width = home.map.board.width
    lines = [
        "id: balance",
        "name: Balance",
        f"map: {home.map.id}",
        f"build_total: {home.build_total}",
        "players:",
    ]
    for edge, force in (("S", seat0), ("N", seat1)):
        lines += [f"  - edge: {edge}", "    force:"]
        lines += [
            f"      - {{figure: {fid}, at: [{EDGE_ROWS[edge]}, {col}]}}"
            for fid, col in zip(force, COLUMNS)
        ]
    lines.append("objects:")
    lines += [
        f"  - {{object: {o.kind}, at: [{o.cell // width}, {o.cell % width}]}}" for o in home.objects
    ]
    return "\n".join(lines) + "\n"


def play_pair(
    name_a: str, name_b: str, games: int, seed: int = 0, agent: str = "heuristic"
) -> PairResult:
    """``games`` games, force A in seat 0 in the even ones and seat 1 in the odd ones, with
    ``agent`` (a player spec, :func:`envs.match.load_player`) in both seats."""
    a, b = FORCES[name_a], FORCES[name_b]
    seatings = [
        (HeroclixGame(scenario_from_text(scenario_text(a, b), base=SCENARIOS_DIR)), 0),
        (HeroclixGame(scenario_from_text(scenario_text(b, a), base=SCENARIOS_DIR)), 1),
    ]
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
        points(a),
        points(b),
        games,
        int(wins),
        int(draws),
        int(losses),
        wins / games,
        low,
        high,
    )


def pairs() -> list[tuple[str, str]]:
    return list(itertools.combinations(FORCES, 2))


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
    args = parser.parse_args(argv)
    table = pairs()
    chosen = range(len(table)) if not args.pairs else args.pairs
    rows = []
    for index in chosen:
        if not 0 <= index < len(table):
            parser.error(f"--pairs: {index} is not a row 0..{len(table) - 1}")
        try:
            rows.append(play_pair(*table[index], args.games, args.seed, args.agent))
        except UsageError as error:
            parser.error(str(error))
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
