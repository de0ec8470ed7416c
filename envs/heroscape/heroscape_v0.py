"""Heroscape (``heroscape_v0``): the basic game on hex battlefields with levels, 2-4 agents.

Rules: ``../shared/rules/heroscape.md`` (HS-0 ... HS-14) with every ``Default:`` line: army
cards (hero and squad) with Move / Range / Attack / Defense, single- and double-space figures,
initiative by six combat dice, climbing costs, water stops, range around gaps, line of sight by
the 3D segment test (HS-10.4), combat dice (3 skulls, 2 shields, 1 blank) with height advantage.

Usage::

    from envs import make
    env = make("heroscape_v0", scenario="skirmish", render_mode="rgb_array")
    env.reset(seed=3)

Agents
------
``player_0`` .. ``player_{n-1}``, one per army of the scenario (2-4). The first player is found
by the initiative roll (HS-4); turns pass clockwise, skipping players without figures.

Action space: ``Discrete(4 * H * W + 6)``
----------------------------------------
Cells are ``row * W + col`` on the padded ``board_size`` grid (default 16 x 20, odd-r hexes).

=============================  ==========================================================
index                          meaning
=============================  ==========================================================
0 .. HW-1          ``select``  the figure on that space: the next to move (MOVE_SELECT) or
                               the next attacker (ATTACK_SELECT)
HW .. 2HW-1          ``move``  destination of the selected figure (its own space = stay);
                               for a double-space figure, one of its two final spaces
2HW .. 3HW-1         ``tail``  a double-space figure's other final space (HS-7.2)
3HW .. 4HW-1       ``attack``  attack the enemy figure on that space (HS-12)
4HW + 0..3        ``card_k``   choose the k-th army card of your army (HS-5.2)
4HW + 4     ``end_movement``   stop moving; go on to attacks (HS-5.1)
4HW + 5         ``end_turn``   stop attacking; the next player's turn (HS-12.8)
=============================  ==========================================================

Observation: ``{"observation": float32 (C, H, W), "action_mask": int8 (N,)}``
---------------------------------------------------------------------------
From the observer's viewpoint (seat+k = k seats after the observer); ``env.game.view.channel_names``
lists them: space, level/10, water, shadow, objective; figures per seat; card slot per seat
(4 each); at each figure's spaces: move, range, attack, defense (/10), double-space flag,
height/10, moved, attacked, on the chosen card, selected; the first chosen space of a
double-space move; constant planes: phase one-hot (7), round/round_cap, hold rounds per seat,
figures left per seat /10.

Rewards and termination
-----------------------
Zero-sum terminal rewards to every agent (k winners of n: +1/k each, losers -1/(n-k); two
players +1 / -1). Victory by destroying every enemy figure (HS-13.1 default), or with
``victory="hold"`` by being the only player on the objective spaces (zone X) at the end of
``hold_rounds`` consecutive rounds. ``round_cap`` rounds without a winner is a draw;
``max_turns`` truncates instead.

Options
-------
=================  ============  ===========================================================
option             default       meaning
=================  ============  ===========================================================
scenario           "skirmish"    scenario id (``envs.heroscape.data.list_scenarios()``) or path
board_size         (16, 20)      padded (H, W) of observations and action cells
round_cap          scenario      rounds before a draw
victory            scenario      "eliminate" or "hold"
hold_rounds        scenario      consecutive rounds to hold the objective
level_height       1/6           HS-10.4 scale: one level in hex spacings
figure_radius      0.3           HS-10.4: radius of a figure's cylinder
render_mode        None          "rgb_array", "ansi" or "human" (needs pygame)
max_turns          None          truncate after this many player turns
=================  ============  ===========================================================

Version history
---------------
* v0: first release: the basic game, HS-0 ... HS-14.
"""

from __future__ import annotations

from ..pettingzoo_env import make_env_factory
from .rules import HeroscapeGame

env = make_env_factory(HeroscapeGame, "heroscape_v0")
raw_env = env

__all__ = ["env", "raw_env", "HeroscapeGame"]
