"""Heroscape (``heroscape_v0``): the basic game on hex battlefields with levels, 2-4 agents.

Rules: ``envs/heroscape/RULES.md`` (HS-0 ... HS-14) with every Default it states: army
cards (hero and squad) with Move / Range / Attack / Defense, single- and double-space figures,
initiative by six combat dice, climbing costs, water stops, range around gaps, line of sight by
the 3D segment test (HS-10.4), combat dice (3 skulls, 2 shields, 1 blank) with height advantage.
The engine: :mod:`envs.heroscape.rules` (its module docstring maps the package).

Usage::

    from envs import make
    env = make("heroscape_v0", scenario="skirmish", render_mode="rgb_array")
    env.reset(seed=3)

Agents
------
``player_0`` .. ``player_{n-1}``, one per army of the scenario (2-4). The first player is found
by the initiative roll (HS-4); turns pass clockwise, skipping players without figures (a
skipped player plays no turn and none is counted). ``env.metadata["game_info"]`` is the
game's :class:`~envs.core.game.GameInfo` (``env.game.info``): 2-4 players, zero-sum terminal
rewards, and ``max_game_length``, an upper bound on the decisions of one game from the round
cap and the largest army card (3 + 5 x its figures per turn).

Action space: ``Discrete(4 * H * W + 6)``
----------------------------------------
Cells are ``row * W + col`` on the padded ``board_size`` grid (default 16 x 20, odd-r hexes).
Actions decode by ``env.game.layout.decode(a)`` to ``(kind, index, param)``: a plane and its
cell, or a slot family (``card``: ``param`` = the card slot) or a single special.

=============================  ==========================================================
index                          meaning
=============================  ==========================================================
0 .. HW-1          ``select``  the figure on that space: the next to move (MOVE_SELECT) or
                               the next attacker (ATTACK_SELECT)
HW .. 2HW-1          ``move``  destination of the selected figure (its own space = stay);
                               for a double-space figure, one of its two final spaces
2HW .. 3HW-1         ``tail``  a double-space figure's other final space (HS-7.2)
3HW .. 4HW-1       ``attack``  attack the enemy figure on that space (HS-12)
4HW + 0..3        ``card_k``   slot k of the ``card`` family (``param`` = k): choose the
                               k-th army card of your army (HS-5.2)
4HW + 4     ``end_movement``   stop moving; go on to attacks (HS-5.1)
4HW + 5         ``end_turn``   stop attacking; the next player's turn (HS-12.8)
=============================  ==========================================================

Observation: ``{"observation": float32 (C, H, W), "action_mask": int8 (N,)}``
---------------------------------------------------------------------------
From the observer's viewpoint (``seat+k`` = k seats after the observer), declared once as
named views (``envs.heroscape.view.planes.plane_layout``); ``env.game.view.channel_names`` lists
the channels as ``view`` or ``view:channel``, in order:

=================  ====================================================================
view               channels
=================  ====================================================================
``space``          1 on the battlefield's spaces
``level``          level / 10
``water``          water spaces
``shadow``         shadow spaces
``objective``      the objective spaces (hold scenarios)
``figures``        ``seat+k``: the figures of each seat
``card``           ``seat+k/slot{s}``: each seat's figures per army card slot (4 each)
``stats``          at each figure's spaces: ``move``, ``range``, ``attack``, ``defense``
                   (/10), ``double_space`` (flag), ``height`` (/10); a stat of 10 or
                   more reads 1
``this_turn``      at each figure's spaces: ``moved``, ``attacked``, ``chosen_card``,
                   ``selected``
``destination``    the first space already chosen for a double-space move
``phase``          constant planes from here on: the phase one-hot (7)
``round``          round / round_cap
``hold_rounds``    ``seat+k``: consecutive rounds held / rounds needed
``figures_left``   ``seat+k``: figures left / 10 (10 or more read 1)
=================  ====================================================================

Combat
------
Attack and defense dice are the card's values plus the effects registered in the game's
hook registry ``envs.heroscape.combat.HOOKS`` (``attack_value`` / ``defense_value``); the
basic game registers one for every figure, the height advantage of HS-12.4 (+1 die to the
higher figure).

Rewards and termination
-----------------------
Zero-sum terminal rewards to every agent (k winners of n: +1/k each, losers -1/(n-k); two
players +1 / -1). Victory by destroying every enemy figure (HS-13.1 default), or with
``victory="hold"`` by being the only player on the objective spaces (zone X) at the end of
``hold_rounds`` consecutive rounds. ``round_cap`` rounds without a winner is a draw;
``max_turns`` truncates instead.

Options
-------
=============  ==========  =====================================================================
option         default     meaning
=============  ==========  =====================================================================
scenario       "skirmish"  scenario id (envs.heroscape.data.scenario_file.list_scenarios()) or
                           path
board_size     (16, 20)    padded (H, W) of observations and action cells
round_cap      scenario    rounds before a draw
victory        scenario    "eliminate" or "hold"
hold_rounds    scenario    consecutive rounds to hold the objective
level_height   1/6         HS-10.4: scale: one level in hex spacings
figure_radius  0.3         HS-10.4: radius of a figure's cylinder, in hex spacings
render_mode    None        "rgb_array", "ansi" or "human" (needs pygame)
max_turns      None        truncate after this many player turns
cell_px        48          pixels per cell in rgb frames
obs_format     "dict"      "dict" (planes + action_mask), "box" (planes), "box_hwc"
                           (channel-last planes; the mask in infos) or "rllib" (see
                           envs.pettingzoo_env)
=============  ==========  =====================================================================

The table is generated from ``envs.heroscape.options.HeroscapeOptions`` and the env's own options
(``python -m envs.optiondocs --write``).

PettingZoo extras
-----------------
``env.state()`` / ``env.state_space``: the global view for centralised critics (every seat's
planes, then one plane per seat marking who decides); ``parallel_env(**options)``: the parallel
API (turn-based conversion); ``env.action_mask(agent)``. Details in ``envs.pettingzoo_env``.

Version history
---------------
* v0: first release: the basic game, HS-0 ... HS-14.
  Observation space bounds declared [0, 1] (were [0, inf)); ``obs_format``, ``state()`` and
  ``parallel_env`` added.
  Observations stay inside that space for any army: a card stat, height or army size of 10
  or more reads 1 (published cards stay under 10; the shipped scenarios read as before).
  An attack's event says its arithmetic ("2 skulls from 3 attack dice (attack 2 + 1
  height) vs 1 shield from 1 defense die: destroyed"); games are unchanged.
"""

from __future__ import annotations

from envs.heroscape.rules import HeroscapeGame
from envs.pettingzoo_env import make_env_factory, make_parallel_factory

env = make_env_factory(HeroscapeGame, "heroscape_v0")
raw_env = env
parallel_env = make_parallel_factory(env)

__all__ = ["env", "raw_env", "parallel_env", "HeroscapeGame"]
