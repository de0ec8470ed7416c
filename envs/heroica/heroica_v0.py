"""LEGO Heroica (``heroica_v0``): a dungeon race with the Heroica die, for 2-4 agents.

Rules: ``envs/heroica/RULES.md`` (HE-1 ... HE-20, HE-M), with every Default it states.
Heroes race from the Mission Start to the target space (or defeat the monster on it). Each
env step is ONE decision of the agent in ``agent_selection``; dice are rolled inside the step.

Usage::

    from envs import make
    env = make("heroica_v0", mission="fork", num_players=2, render_mode="rgb_array")
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
        env.step(action)

Agents
------
``player_0`` .. ``player_{n-1}`` in seat order (seat 0 = the youngest, plays first, HE-4.1).
Without Battle every agent is a Hero (2-3 agents). With ``battle=True`` the last agent is the
Monster Player (HE-20), so 2-4 agents.

Action space: ``Discrete(3 * H * W + S)``
----------------------------------------
Cells are ``row * W + col`` on the padded ``board_size`` (H, W) grid (default 16 x 16), so the
same index means the same place on every mission.

=============================  ==========================================================
index                          meaning (the phase decides which are legal)
=============================  ==========================================================
0 .. HW-1            ``step``  step the Hero (or the moving monster) into cell; in phase
                               MOVE_BACK: the space to move back to (HE-6.9)
HW .. 2HW-1        ``target``  a cell to act on: fight the monster there (HE-6.7, 6.10),
                               defeat it with a skill, explore rocks (HE-13), select a
                               monster or attack a Hero (Battle, HE-20)
2HW .. 3HW-1        ``place``  place a summoned monster (Scepter, HE-19.3)
3HW + k           slots        in this order: roll, end_move, end_turn, defeat, stay,
                               drink_life, drink_speed; family ``use`` (skill + 6 weapons:
                               use_skill, use_<weapon>), use_scepter; families ``buy`` and
                               ``sell`` (6 weapons each), sell_scepter; family ``take``
                               (take_<monster>_from_<seat>, 3 per seat)
=============================  ==========================================================

``env.game.layout.decode(a)`` gives ``(kind, index, param)``: the plane or slot family, the
cell or slot, and the slot's parameter (a weapon index, a ``(monster, seat)`` pair); the
engine's phases dispatch on it (``envs/heroica/phases/heroes.py``, ``battle.py``).
``env.game.action_to_string(env.game_state, a)`` names any action, e.g. ``step (1,4)``,
``fight Golem Guardian (3,3)``, ``buy bow``; ``string_to_action`` is its inverse.

Phases (one-hot in the observation)
-----------------------------------
START (shop, potions, roll / heal roll / fight), MOVE (steps; on a Shield before the first
step: ranged skills, Staff, Sword, Scepter), FORWARD (HE-5.6), FIGHT_CHOOSE, FIGHT_SHIELD
(defeat or a melee skill), SKILL_TARGET, SKILL_STEP, MOVE_BACK, ROCKS_CHOOSE, SCEPTER_TAKE,
SCEPTER_PLACE, END (shop, potions, end turn), MONSTER_SELECT, MONSTER_MOVE, MONSTER_FORWARD,
MONSTER_FIGHT_CHOOSE, GAME_OVER.

Observation: ``{"observation": float32 (C, H, W), "action_mask": int8 (N,)}``
---------------------------------------------------------------------------
From the observer's viewpoint: "seat+k" is the seat k places after the observer.
``env.game.view.channel_names`` lists every channel; in order:

* 3 static planes: space, start, target.
* 9 piece planes: bat, guardian, lord, rocks, chest, life potion, speed potion, torch, scepter.
* n hero-position planes (seat+0 .. seat+n-1; the Monster Player's stays empty).
* 4 turn planes: cells entered this move, the monster being fought, the monster the Monster
  Player moves, the cell being moved back from.
* Constant planes (a scalar broadcast over the board), per seat+0 .. seat+n-1: health/4,
  healing, gold/10, life potions/3, speed potions/3, torch, scepter, 6 weapons, 3
  monster-kill counts/5, missions won/missions, is Monster Player, times defeated by monsters/2,
  hero one-hot (3).
* Constant planes for the turn: phase one-hot (17), die symbol one-hot (4), steps left/10,
  round/max_rounds, Monster Player defeats/2, mission index, Store gold/10 (finite mode),
  Store stock (6).
* Every plane lies in [0, 1], the observation space: a count with no fixed maximum (gold,
  potions, kills, steps, Store gold) reads 1 at its scale and above.

The mask is all zeros for agents that are not deciding.

Rewards and termination
-----------------------
Zero-sum terminal rewards given to EVERY agent: with k winners among n agents each winner gets
+1/k and each loser -1/(n-k) (two players: +1 / -1); no winner (round cap) is 0 for all.
A single mission is won by the first Hero to enter the target space or defeat its monster
(HE-16.1). Epic Heroica (``mission=[...]``) is won by most missions, then most gold (HE-18.1).
The Monster Player wins by defeating two Heroes (HE-20.3). ``max_rounds`` (default 100) ends a
mission without a winner (HE-4.2); ``max_turns`` truncates the episode instead.

Options
-------
===========  ==========  =======================================================================
option       default     meaning
===========  ==========  =======================================================================
mission      "fork"      HE-18: mission id (envs.heroica.data.mission.list_missions()) or a path
                         to a mission file; a list plays Epic Heroica
num_players  2           agents, Monster Player included (2 to the heroes there are, one more
                         with battle)
heroes       seat order  hero ids per Hero seat (barbarian, wizard, thief, ...); None: in seat
                         order
battle       False       HE-20: Battle Heroica: the last agent controls the monsters
max_rounds   100         rounds per mission before it ends without a winner
board_size   (16, 16)    padded (H, W) of observations and action cells
pieces       None        path to an alternative pieces.yaml (heroes, monsters, weapons, skills)
store_gold   None        HE-12.6: None: unlimited Store gold; an int plays the finite mode
                         (takers get min(owed, stock), sales need stock)
render_mode  None        "rgb_array", "ansi" or "human" (needs pygame)
max_turns    None        truncate after this many player turns
cell_px      48          pixels per cell in rgb frames
obs_format   "dict"      "dict" (planes + action_mask), "box" (planes), "box_hwc" (channel-last
                         planes; the mask in infos) or "rllib" (see envs.pettingzoo_env)
===========  ==========  =======================================================================

The table is generated from ``envs.heroica.options.HeroicaOptions`` and the env's own options
(``python -m envs.optiondocs --write``).

Game info
---------
``env.game.info`` (also ``env.metadata["game_info"]``): 2-4 players, zero-sum terminal
rewards, perfect information, dice rolled inside ``step``, and ``max_game_length``, an upper
bound on one game's decisions from ``max_rounds`` and the pieces (``rules.max_decisions``).

Skills and weapons are effects registered in ``envs.heroica.skills.HOOKS`` (core hook point
``extra_actions``); ``pieces.yaml`` names them by key.

PettingZoo extras
-----------------
``env.state()`` / ``env.state_space``: the global view for centralised critics (every seat's
planes, then one plane per seat marking who decides); ``parallel_env(**options)``: the parallel
API (turn-based conversion); ``env.action_mask(agent)``. Details in ``envs.pettingzoo_env``.

Version history
---------------
* v0: first release: Nathuz rules HE-1 ... HE-20, Epic and Battle Heroica, six missions.
  Rules-flow refactor (phases and hooks in ``envs/core``): the same games step for step; a
  Battle Heroica round-cap draw that ends on the Monster Player's turn now reports its
  ``draw`` event (it was dropped).
  Observation space bounds declared [0, 1] (were [0, inf)); ``obs_format``, ``state()`` and
  ``parallel_env`` added.
  Observations stay inside that space: missions won, times defeated by monsters and potions
  read 2 in some games (Epic Heroica, Battle Heroica, two potions) and are now scaled by their
  maxima (missions, 2, 3), and counts with no maximum read 1 past their scale.
  A Hero moved back (HE-6.9) onto the target space by a fight completes the mission and the
  turn stops there (HE-16.1); before, the fight's turn went on, and in Battle Heroica a
  finished game's winners stayed in a running game (found by ``envs.fuzz``).
  Event texts name no rule IDs ("most monsters defeated", was "(HE-18.3)"); games are
  unchanged.
"""

from __future__ import annotations

from envs.heroica.rules import HeroicaGame
from envs.pettingzoo_env import GameEnv, make_env_factory, make_parallel_factory

env = make_env_factory(HeroicaGame, "heroica_v0")
raw_env = env
parallel_env = make_parallel_factory(env)

__all__ = ["env", "raw_env", "parallel_env", "GameEnv", "HeroicaGame"]
