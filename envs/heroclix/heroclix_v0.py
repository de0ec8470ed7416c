"""HeroClix (``heroclix_v0``): the 2002 basic game of dial figures on a square map, 2-4 agents.

Rules: ``envs/heroclix/RULES.md`` (HC-1.1 ... HC-8.3, R-1 ... R-22) with every Default it
states, and the Powers and Abilities card there (P-SPD-1 ... P-DMG-11): all 44 powers (Probability Control only with its flag, as its
Default says; see Powers below). Rule IDs name the tests
(``tests/heroclix/test_rules_*.py``). The engine: :mod:`envs.heroclix.rules` (its module
docstring maps the package).

Usage::

    from envs import make
    env = make("heroclix_v0", scenario="duel", render_mode="rgb_array")
    env.reset(seed=3)

The game in brief
-----------------
Each figure has a *combat dial*: per click, its speed, attack, defense and damage and the
powers tied to them; each click of damage turns the dial one click on, and KO removes the
figure (HC-1.3, HC-4.5). Range and bolts (targets) never change. A player has one action per
turn per 100 points of the build total (HC-3.2); each action moves one figure, makes one
close or ranged attack, or passes. A figure that acts gets an action token; acting in two of
your turns in a row costs 1 click (*pushing*), and a figure may not act in three (HC-3.14-3.17).
An attack rolls 2d6 + attack against the target's defense (a 2 misses and costs the attacker
1 click, a 12 hits for 1 more); doubles knock the target back (HC-4.2-4.13). Flyers hover or
soar (HC-3.26-3.33); walls and blocking terrain break under 3 damage (HC-5.16); objects are
picked up, struck with and thrown by Super Strength, moved and hurled by Telekinesis (HC-6).
The game ends when at most one player has figures, or after ``max_rounds`` rounds; the most
victory points win (a KO'd figure's points to whoever KO'd it, double for an archenemy;
survivors' points to their owner; ties to the smaller force, then a draw, HC-7).

Agents
------
``player_0`` .. ``player_{n-1}``, one per force of the scenario (2-4). The first player is
rolled with 2d6 at the start of every game (HC-2.11); play passes clockwise (seat order),
skipping players without figures. ``env.metadata["game_info"]`` is the game's
:class:`~envs.core.game.GameInfo`: 2-4 players, zero-sum, and ``max_game_length``, an upper
bound on the decisions of a game from ``max_rounds`` and the longest possible action
(``None`` with ``probability_control`` or ``hypersonic_option2``, whose extra decisions only
the dice bound).

Action space: ``Discrete(21 * H * W + 47)``
------------------------------------------
Cells are ``row * W + col`` on the ``board_size`` grid: by default the map's own size (16 x 16
for ``duel``, 24 x 24 for the boxed maps); with ``board_size=(24, 24)`` every shipped map sits
in the top-left corner of one grid, so one policy can play them all. ``env.game.layout.decode(a)`` gives ``(kind, index, param)``.

================  ==================================================================
plane / action    meaning (the phase that offers it)
================  ==================================================================
``select``        choose the figure on that square to act (ACTION, HC-3.5)
``move``          move the chosen figure there, ending on the ground / hovering
                  (FIGURE, MOVE; its own square: a move of 0 squares)
``soar``          move a flyer there ending soaring (HC-3.26: a switch costs 1 square)
``close``         close combat attack on the enemy there (HC-4.27)
``ranged``        ranged attack on the enemy there; with several bolts, the first target
                  (FIGURE) and further ones (TARGETS, HC-4.24)
``throw``         throw the held object at the enemy there (Super Strength, HC-6.12)
``smash``         attack the blocking square or object there (HC-5.16, HC-6.4)
``wall_n/e/s/w``  attack the wall on that side of the square (own square: close; a
                  square in range and line of fire: ranged; HC-5.16 default)
``tk_object``     Telekinesis: use the object there (then TELEKINESIS)
``tk_move``       move that object to the square (HC-6.14)
``tk_hurl``       hurl it at the enemy there (HC-6.15-6.20)
``pick_up``       pick up the object there during the move (Super Strength, HC-6.6)
``carry``         a hovering flyer takes the friend there along (HC-3.30)
``drop``          set the passenger down there (DROP)
``support``       Support: heal the adjacent friend there (R-5)
``marker``        put the Smoke Cloud / Barrier marker there (VARIANT)
``free``          use the free power (Outwit, Perplex) of the figure there: no action,
                  once a turn (ACTION)
``target``        the figure there is the free power's target (VARIANT); Mastermind: the
                  friend there takes the damage (INTERRUPT)
``pass``          use one action doing nothing (HC-3.5)
``end_turn``      pass every action left (HC-3.5 default)
``break_away``    roll to break away from adjacent enemies (HC-3.23)
``regenerate``    Regeneration: heal instead of moving (R-6)
``fire``          shoot the targets declared so far (TARGETS)
``end_move``      end the move without picking up an object (PICKUP)
``end_action``    end a power variant's optional part: Charge's attack, Flurry's second
                  blow (VARIANT)
``decline``       keep the damage instead of passing it on (Mastermind), let a roll stand
                  (Probability Control) (INTERRUPT)
``reroll``        have the roll made again (Probability Control, INTERRUPT)
``accept``        be knocked back (Combat Reflexes under its 2008 flag, INTERRUPT)
``switch_off_*``  switch off the chosen figure's optional speed / attack / defense /
                  damage power until your next turn (HC-3.8)
``power_<key>``   play that power's variant of an action (FIGURE): ``barrier,
                  blades_claws_fangs, charge, close_combat_expert, energy_explosion,
                  exploit_weakness, flurry, force_blast, hypersonic_speed, incapacitate,
                  mind_control, psychic_blast, pulse_wave, quake, ranged_combat_expert,
                  running_shot, smoke_cloud, telekinesis`` (moving a figure, under
                  ``tk_move_friend`` / ``tk_move_enemy``);
                  its destination and targets follow in the VARIANT phase on the planes
                  above (``charge Razorback (4,5)->(6,7)``, then
                  ``charge Razorback -> Quarry (6,8)``)
``counter_<col>`` Outwit: counter the target's power of that column (VARIANT)
``force_hover``   Outwit: the soaring target drops to hovering (VARIANT)
``perplex_*``     Perplex: ``<value>_up`` / ``_down`` for speed, attack, defense, damage,
                  range of the target (VARIANT)
================  ==================================================================

The action order is ``select, move, soar, close, ranged, throw, smash, wall_n, wall_e, wall_s,
wall_w, tk_object, tk_move, tk_hurl, pick_up, carry, drop, support, marker, free, target``
(H x W each), then ``pass, end_turn, break_away, regenerate, fire, end_move, end_action,
decline, reroll, accept``,
the four ``switch_off`` slots, the eighteen ``power`` slots (``env.game.variant_keys``), the
four ``counter`` slots, ``force_hover`` and the ten ``perplex`` slots.

Observation: ``{"observation": float32 (C, H, W), "action_mask": int8 (N,)}``
---------------------------------------------------------------------------
From the observer's viewpoint (``seat+k`` = k seats after it); ``env.game.view.channel_names``
lists the channels as ``view`` or ``view:channel`` (``envs.heroclix.view.planes.plane_layout``).
Every value lies in [0, 1]: a scaled value past its scale (a figure over 100 points, a stat
over 20, more than 10 clicks left) reads 1.

================  ===================================================================
view              channels
================  ===================================================================
``space``         1 on the map's squares
``level``         level / 2 (0 ground, 1 and 2 elevated)
``indoor``        indoor squares (HC-5.2)
``stairs``        stair squares; ``ladder``: ladder squares (HC-5.8)
``terrain``       ``clear``, ``hindering``, ``blocking``, ``water`` as they stand now
                  (broken walls and blocking squares are hindering, HC-5.17; unheld
                  objects hindering, HC-6.3)
``wall``          ``n``, ``e``, ``s``, ``w``: a wall standing on that side of the square
``objects``       ``light``, ``heavy``: unheld objects; ``held``: 0.5 light / 1 heavy at
                  the holder's square
``figures``       ``seat+k``: the figures of each seat
``stats``         at each figure's square, its values now (Perplex included): ``speed``,
                  ``attack``,
                  ``defense``, ``damage``, ``range`` (/20), ``targets`` (/5),
                  ``clicks_left`` to KO (/10), ``tokens`` (/2), ``acted`` this turn,
                  ``flyer``, ``soaring``, ``points`` (/100)
``powers``        one per power of the card (44, by key), at the squares of figures
                  whose power works now (shown, implemented, not switched off or
                  countered)
``power_state``   ``off/<column>``, ``countered/<column>``: at the figure's square, its
                  power of that column switched off (HC-3.8) or countered (Outwit)
``markers``       ``smoke`` (hindering, also in ``terrain``), ``barrier`` (blocking, also
                  in ``terrain``) markers on the map
``dial``          only with ``full_dial_visibility``: ``k/<column>`` the value k clicks
                  on (k = 1..8, /20; 0 past KO) (HC-8.1)
``decision``      ``selected`` figure, ``passenger``, ``tk_object``, declared ``targets``,
                  ``interrupt``: the figure an INTERRUPT asks about (value: damage / 10)
``phase``         constant planes from here on: the phase one-hot (14)
``turn``          ``actions_left`` / (actions per turn + 1: Leadership's extra),
                  ``round`` / max_rounds, ``move_left`` squares (/10)
``variant``       one per power variant and free power: the one being played (VARIANT,
                  TARGETS, INTERRUPT)
``vp``            ``seat+k``: victory points scored so far / build total
================  ===================================================================

Powers
------
A figure's powers are the keys its dial shows now (``powers`` planes). Each is an effect in
the hook registry ``envs.heroclix.powers.hooks.HOOKS``, at points the flow asks without naming a
power:

* movement and combat *traits*: Leap/Climb, Phasing, Plasticity (breakaway 2-6; 6 to leave
  it), Stealth (a hindered line to it is blocked), Charge (no knockback), Willpower (no
  pushing damage), Defend (adjacent friends use its defense value when higher), Battle Fury
  (no ranged attacks, not carried), Enhancement (+1 to adjacent friends' ranged damage),
  Super Strength and Telekinesis (objects);
* defense: Combat Reflexes (+2 against close), Energy Shield/Deflection (+2 against ranged),
  Toughness (-1), Invulnerability (-2), Impervious (a d6: 5-6 no damage, else -2), Super
  Senses (a d6 when hit: 5-6 evades), Shape Change (a d6 when declared a target: 5-6 it is not
  one, and the attacker's action is not spent);
* the start of the controller's turn: Leadership (a d6: 4-6 one more action), then Poison
  (1 damage to each adjacent enemy);
* actions on their own planes: Support, Regeneration, throwing, Telekinesis; Steal Energy
  after close attacks;
* variants on the ``power`` slots (``envs.heroclix.powers.variants``,
  ``envs.heroclix.powers.move_variants``, ``envs.heroclix.powers.markers``): Flurry, Charge,
  Force Blast, Running Shot, Blades/Claws/Fangs, Energy Explosion, Pulse Wave, Quake,
  Incapacitate, Psychic Blast, Ranged and Close Combat Expert, Exploit Weakness, Smoke Cloud
  and Barrier (markers that last until the controller's next turn);
* free powers on the ``free`` plane (``envs.heroclix.powers.free``): Outwit (counter a
  power until your next turn, or force a soarer to hover), Perplex (+1/-1 to a value until
  the end of the turn);
* Earthbound: a flyer showing it is not one; soaring when it appears, it lands and takes 1;
* Hypersonic Speed (a move variant: full move, no stops, one attack on the way);
* Mastermind: an *interrupt*: when it would take an attack's or knockback's damage, its
  controller decides (the INTERRUPT phase, that seat's turn in ``agent_selection``) whether
  an adjacent friend of lower points takes it all (``envs.heroclix.phases.interrupts``: the action
  is replayed around the answer, with the same dice);
* Probability Control (flag ``probability_control``; its Default is off): after a roll for a
  figure within 10 squares and line of fire, its controller may reroll its own roll once
  in its turn, or make an opponent reroll once per round (``envs.heroclix.combat.rolls``).

Team abilities (envs/heroclix/RULES.md TA) are data (``envs/heroclix/data/teams.yaml``); with
``team_abilities`` a figure's team effect joins its powers: free move actions (Avengers,
Brotherhood), lent defense (Defenders) or attack (Sinister Syndicate) between adjacent
members, a heal when a member is KO'd (Fantastic Four), -1 defense to a friend's ranged
target (Hydra), acting with two tokens for a click (Masters of Evil), 1 back to an attacker
(Mystics), and the wild card (Minions of Doom). The shipped figures have no team.

* Mind Control (a close or ranged variant, ``envs.heroclix.powers.mind_control``): no damage; each
  enemy hit is given one action, decided by the Mind Controller's seat in the FIGURE phase
  (it fights for that seat meanwhile: ``game.side``), then the Mind Controller takes a click
  per 100 points hit.

Defend takes the higher defense by itself (choosing a lower one is never better).

Rewards and termination
-----------------------
Terminal rewards only. ``reward="win"`` (default): zero-sum, winners share +1, losers -1
(two players: +1 / -1, a draw 0). ``reward="vp"``: each player's final victory points minus
the players' mean, divided by the build total (zero-sum, shaped by margin). The game ends
when at most one player has figures (HC-7.1 default) or after ``max_rounds`` rounds;
``max_turns`` truncates instead.

Options
-------
================================  ========  ====================================================
option                            default   meaning
================================  ========  ====================================================
scenario                          "duel"    scenario id
                                            (envs.heroclix.data.scenarios.scenario_ids()) or a
                                            path to a scenario file
board_size                        None      (H, W) of observations and action cells; None: the
                                            map's size
max_rounds                        scenario  rounds before the game ends on points
reward                            "win"     "win" or "vp" (see Rewards)
full_dial_visibility              False     HC-8.1: observe the next clicks of every dial
passenger_may_act_after_drop      True      HC-3.32: as written; False: the Nexus reading
setup                             "fixed"   HC-2: "fixed": the scenario's forces and placements;
                                            "play": setup as decisions (see Setup played)
hover_adjacent_ranged_exception   True      HC-4.21: an adjacent hovering enemy can be shot
                                            (only it); False: HC-4.16 prevails [2002]
tk_flyer_limit_includes_hover     True      HC-6.15: hurling reaches every flyer at 5; False:
                                            soaring ones only
hindering_to_hindering_continues  False     HC-5.10: [2002]: a step from hindering into
                                            hindering does not end the move
leapclimb_ignores_characters      False     P-SPD-2: Leap/Climb: no stop next to enemies
leapclimb_hits_soaring            False     P-SPD-2: Leap/Climb: close attacks on soaring
                                            figures on touching squares
phasing_ignores_characters        False     P-SPD-3: Phasing: no stop next to enemies
superstrength_2008_wall_bonus     False     P-ATT-5: Super Strength: +2 close damage on walls,
                                            blocking squares and objects
psychic_blast_ignores_lof         False     P-ATT-7: Psychic Blast: figures and hindering
                                            terrain do not block its line of fire
support_vs_target_defense         False     P-DMG-3: Support rolls against the friend's defense
                                            value instead of 10
support_no_adjacent_enemies       False     P-DMG-3: no Support while either figure is next to
                                            an enemy
support_min_heal                  0         P-DMG-3: the least a successful Support heals (0 or
                                            1)
pulse_wave_while_adjacent         False     P-ATT-3: Pulse Wave may be used next to an enemy
probability_control               False     P-DMG-6: Probability Control works (off is the
                                            card's Default): rerolls as INTERRUPT decisions
                                            after each roll
mastermind_pushing                False     P-DEF-7: Mastermind passes on pushing damage too
combat_reflexes_2008              False     P-DEF-4: Combat Reflexes may be knocked back by any
                                            damaging attack (an INTERRUPT), and takes no
                                            knockback damage
tk_move_friend                    False     P-ATT-11: option 2: Telekinesis moves an adjacent
                                            friend 10 squares (power_telekinesis)
tk_move_enemy                     False     P-ATT-11: option 1: ... or an adjacent enemy it hits
                                            in close combat for no damage
hypersonic_option2                False     P-SPD-9: option 2: Hypersonic Speed may make a
                                            streak of close attacks, each harder, for rising
                                            damage
team_abilities                    False     R-13: the team abilities of teams.yaml (TA-*) for
                                            figures with a team
render_mode                       None      "rgb_array", "ansi" or "human" (needs pygame)
max_turns                         None      truncate after this many player turns
cell_px                           48        pixels per cell in rgb frames
obs_format                        "dict"    "dict" (planes + action_mask), "box" (planes),
                                            "box_hwc" (channel-last planes; the mask in infos)
                                            or "rllib" (see envs.pettingzoo_env)
================================  ========  ====================================================

The options with a rule ID are the rule flags: each is the alternative its rule names beside
its default. The table is generated from ``envs.heroclix.options.HeroclixOptions``
(``python -m envs.optiondocs --write``).

Setup played (``setup="play"``, HC-2)
-----------------------------------
Each player in seat order drafts a force from the scenario's pool (``draft_<id>`` slots,
``done``) within the build total, no unique figure twice, no archenemies together; the edge
roll orders the players, who choose unclaimed edges (``edge_N/E/S/W``; two players: the
second takes the opposite edge); from the roll's winner, clockwise, players place the
objects face down (``place_object``); in roll order each places its figures in its starting
area (``place``, or ``place_soar`` for a flyer outdoors); then the first-player roll. Its
actions come after the play actions (``place, place_soar, place_object`` planes, then
``done``, the ``draft`` and ``edge`` slots), so the play actions keep their indices. The
observation adds ``objects:face_down`` and constant views ``drafted`` (``seat+k/<id>``:
copies drafted / 4), ``budget`` (points drafted / build total), ``edge`` (``seat+k/<edge>``)
and ``placing`` (the figure to place next). Figure labels then name the seat
(``Razorback (p0)``), as any seat may draft any figure; each seat has up to 4 copies of a
figure that is not unique.

Scenarios: ``duel`` (100 points each on the 16 x 16 ``small`` map, the default), ``mall``
and ``street`` (200 points on the 24 x 24 boxed maps), ``brawl`` (a 100-point 4-player
free-for-all on ``street``).

PettingZoo extras
-----------------
``env.state()`` / ``env.state_space``: the global view for centralised critics (every seat's
planes, then one plane per seat marking who decides); ``parallel_env(**options)``: the parallel
API (turn-based conversion); ``env.action_mask(agent)``. Details in ``envs.pettingzoo_env``.

Version history
---------------
* v0: the basic game, HC-1 ... HC-8, with the nine basic powers; then (before any release)
  the 34 T1 powers of the card: the VARIANT phase, ``end_action``, the ``power`` slots, the
  ``variant`` planes and the rule flags.
  Observation space bounds declared [0, 1] (were [0, inf)); ``obs_format``, ``state()`` and
  ``parallel_env`` added.
  ``objects:held`` reads 0.5 light / 1 heavy (was 1 / 2, outside the bounds).
  Three defaults follow the original rulebook (were later English readings): HC-5.10
  entering any hindering square ends a move, also from hindering (option
  ``hindering_to_hindering_continues``); HC-4.21 an adjacent hovering enemy may be shot
  (``hover_adjacent_ranged_exception`` now True); HC-6.15 the 5-square hurl limit applies to
  hovering flyers too (``tk_flyer_limit_includes_hover`` now True). Games and trained
  policies from before this change play by the old defaults.
  An illegal action in any phase is an ``IllegalActionError`` naming it (was an
  ``IndexError`` in some power phases).
  Events say their arithmetic (an attack's dice, attack value and modifiers against the
  defense, the damage and what reduced it); the text board's victory points are the tally
  the game ends with (``game.scoreboard``), no longer the KO points alone. Observations,
  masks, rewards and games are unchanged.
"""

from __future__ import annotations

from envs.heroclix.rules import HeroclixGame
from envs.pettingzoo_env import make_env_factory, make_parallel_factory

env = make_env_factory(HeroclixGame, "heroclix_v0")
raw_env = env
parallel_env = make_parallel_factory(env)

__all__ = ["env", "raw_env", "parallel_env", "HeroclixGame"]
