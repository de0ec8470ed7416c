"""The shared rules core: pure Python + numpy, no PettingZoo, gymnasium, torch or pygame.

Adding a game
=============

A game is a package ``envs/<game>/`` of data files and small rule functions on top of this
core; ``envs.pettingzoo_env.GameEnv`` wraps it as a PettingZoo AEC env. Heroica
(``envs/heroica``) and Heroscape (``envs/heroscape``) are worked examples.

The files a game writes
-----------------------
Every game has the same skeleton (``envs/heroica``, ``envs/heroscape`` and ``envs/heroclix``
are worked examples):

``__init__.py``
    Registers the env and its bots by import path, and imports nothing else (so one game's
    broken data never breaks another)::

        from envs.registry import register_bots, register_env
        register_env("mygame_v0", module="envs.mygame.mygame_v0", game="envs.mygame.rules:MyGame")
        register_bots("mygame", {"heuristic": "envs.mygame.bots.heuristic:HeuristicBot"})

    After that, ``from envs import mygame_v0`` and ``envs.make("mygame_v0")`` work.
``options.py``
    The options, declared once: a frozen dataclass of :func:`~envs.core.options.option`
    fields (default, one doc line, a :class:`~envs.core.options.Kind` that checks the value,
    the rule ID it reads). The constructor's checks, the
    :class:`~envs.core.game.OptionError` messages and the docstring's options table
    (``python -m envs.optiondocs --write``) all come from it.
``state.py``
    The dynamic state: a dataclass mixing in :class:`~envs.core.state.FlatState` (fields
    ``phase``, ``seat`` (who decides), ``round``, ``turns``, ``winners``, ``dice`` and the
    game's arrays), and the phase enum (one member per kind of decision, plus GAME_OVER).
``game.py``
    The static game: a :class:`~envs.core.game.StandardGame` subclass whose constructor
    takes the options object (``OPTIONS``) and checks what needs the data, loads its data,
    pads its maps with :class:`~envs.core.board.PaddedBoard`, builds its
    :class:`~envs.core.actions.ActionLayout` (cell planes plus specials and
    :class:`~envs.core.actions.SlotFamily` families, whose ``param`` the phases read: never
    parse an action's name), and offers the queries and the small named state changes
    (damage, move a figure, end a mission) the phases call.
``dice.py``
    The game's dice (:class:`~envs.core.dice.DieSpec`).
``phases/``
    One :class:`~envs.core.flow.PhaseRule` per phase: ``mask(game, state, legal)`` marks the
    legal actions on a :class:`~envs.core.flow.LegalMask`, ``apply`` (or ``@handles(kind)`` methods, one
    method per action kind) carries one out and leaves the state in the next phase. Dice are
    rolled inside ``apply`` through ``state.dice``. Turn rotation, rounds and the end of the
    game go through ``StandardGame.next_turn`` and ``StandardGame.finish``.
``rules.py``
    The engine class: the static game plus ``phases`` (a :class:`~envs.core.flow.PhaseTable`
    covering every phase), ``view`` and ``info`` (a :class:`~envs.core.game.GameInfo`: players,
    an upper bound on the decisions of a game, zero-sum utility), ``new_state(seed)`` and a
    ``from_scenario(...)`` (``position.py``) that sets up any position from text for tests.
``view/``
    Observations from one :class:`~envs.core.planes.PlaneLayout` of named views (channel
    names come from it; no hard-coded channel numbers), action names (``action_to_string``),
    the text board (:func:`~envs.core.textboard.text_grid`) and the video scene
    (:class:`~envs.core.render.Scene`, with :func:`~envs.core.events.last_action` for the
    arrow, dice and caption).
``<game>_v0.py``
    ``env = make_env_factory(MyGame, "mygame_v0")``; its docstring is the env's documentation
    page: agents, the action table, observation planes, rewards, termination, options, game
    info, version history.
``bots/``, ``data/``
    Scripted players (``act(game, state, rng) -> action``: ``heuristic.py``, and
    ``lookahead.py`` with the game's position value), and YAML / ASCII data with their
    loaders, validated on load with :mod:`envs.core.scenario` (errors name file, line and
    field; ``resolve_data_file`` takes an id or a path).

The hooks it may register
-------------------------
Effects that change the rules for one figure (a weapon, a height bonus, a power) are
registered in the game's :class:`~envs.core.hooks.HookRegistry` under the key its data
names, at the points of :mod:`envs.core.hooks`: ``move_step_cost``, ``move_may_enter``,
``move_stops``, ``move_may_end``, ``attack_value``, ``defense_value``, ``damage_dealt``,
``damage_taken``, ``after_attack``, ``turn_start``, ``turn_end``, ``extra_actions``. The flow
asks the registry at those points and never compares an effect's name; a rule of the whole
game registers ``universal=True``.

The tests it must pass
----------------------
* add its cases to ``ENV_CASES`` in ``tests/conformance_cases.py``: the PettingZoo api, seed
  and render tests and hundreds of random games with invariants at every step (masks,
  round trips through ``to_dict``, names, zero-sum rewards, GameInfo's length bound) run
  for every registered env, and fail until it has cases;
* rule tests named by rule ID (``test_XX_6_4_...``) that set up positions with
  ``from_scenario``, script the dice and apply named actions;
* a golden transcript (``envs/transcript.py``'s ``GOLDENS``) and a benchmark entry, which
  ``python -m envs.bench`` picks up from the registry;
* the structure check: no import cycle (a phase module imports the static
  game, never the engine that assembles it), no file over 600 lines, no long if/elif chains.
"""
