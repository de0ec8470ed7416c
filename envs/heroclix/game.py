"""The static HeroClix game: options, the map's tables, the forces' dials, the dynamic terrain
masks and the small named state changes the phases call.

Nothing here decides what happens next: the phases (:mod:`envs.heroclix.phases.turn`, :mod:`envs.heroclix.phases.attacks`) own
the decisions; :mod:`envs.heroclix.movement` answers where a figure may move and :mod:`envs.heroclix.combat.targets` whom it may
attack; :mod:`.rules` assembles the engine. Terrain that breaks in play (walls, blocking
squares, HC-5.16) lives in the state; the static tables (:class:`~envs.core.walls.WallGeometry`,
:class:`~envs.core.firelines.FireLines`) take the state's masks, so nothing is rebuilt when a
wall breaks.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from envs.core.actions import ActionLayout, SlotFamily
from envs.core.dice import Dice
from envs.core.game import GameInfo, GameView, OptionError, StandardGame
from envs.core.lru import named_lru
from envs.core.tokens import GONE, TokenLayer
from envs.heroclix.data.scenarios import OBJECT_KINDS, Scenario, load_scenario
from envs.heroclix.dials import COLUMNS, DialForces
from envs.heroclix.dice import roll_2d6
from envs.heroclix.flags import ROLLS_WITH_HITS, flag_traits
from envs.heroclix.options import HeroclixOptions
from envs.heroclix.powers.hooks import (
    ACTS_EXHAUSTED,
    FREE_ACTIONS,
    HOOKS,
    REROLLS,
    TRANSFERS_DAMAGE,
    VARIANTS,
    has_trait,
)
from envs.heroclix.state import NO_CELL, NO_FIGURE, NO_OBJECT, NO_SEAT, Phase, State
from envs.heroclix.terrain import MapTerrain

MIN_PLAYERS, MAX_PLAYERS = 2, 4
PERPLEX_STATS = (*COLUMNS, "range")
PERPLEX_SLOTS = [f"{stat}_{way}" for stat in PERPLEX_STATS for way in ("up", "down")]


class ActionKind(enum.StrEnum):
    """The kinds of action (``DecodedAction.kind``): the cell planes, then the specials and
    slot families, in layout order; ``@handles``, masks and bots name them by member."""

    SELECT = "select"
    MOVE = "move"
    SOAR = "soar"
    CLOSE = "close"
    RANGED = "ranged"
    THROW = "throw"
    SMASH = "smash"
    WALL_N = "wall_n"
    WALL_E = "wall_e"
    WALL_S = "wall_s"
    WALL_W = "wall_w"
    TK_OBJECT = "tk_object"
    TK_MOVE = "tk_move"
    TK_HURL = "tk_hurl"
    PICK_UP = "pick_up"
    CARRY = "carry"
    DROP = "drop"
    SUPPORT = "support"
    MARKER = "marker"
    FREE = "free"
    TARGET = "target"

    PLACE = "place"
    PLACE_SOAR = "place_soar"
    PLACE_OBJECT = "place_object"

    PASS = "pass"
    END_TURN = "end_turn"
    BREAK_AWAY = "break_away"
    REGENERATE = "regenerate"
    FIRE = "fire"
    END_MOVE = "end_move"
    END_ACTION = "end_action"
    DECLINE = "decline"
    REROLL = "reroll"
    ACCEPT = "accept"

    SWITCH_OFF = "switch_off"
    POWER = "power"
    COUNTER = "counter"
    FORCE_HOVER = "force_hover"
    PERPLEX = "perplex"
    DONE = "done"
    DRAFT = "draft"
    EDGE = "edge"


BASE_PLANES = (
    ActionKind.SELECT,
    ActionKind.MOVE,
    ActionKind.SOAR,
    ActionKind.CLOSE,
    ActionKind.RANGED,
    ActionKind.THROW,
    ActionKind.SMASH,
    ActionKind.WALL_N,
    ActionKind.WALL_E,
    ActionKind.WALL_S,
    ActionKind.WALL_W,
    ActionKind.TK_OBJECT,
    ActionKind.TK_MOVE,
    ActionKind.TK_HURL,
    ActionKind.PICK_UP,
    ActionKind.CARRY,
    ActionKind.DROP,
    ActionKind.SUPPORT,
    ActionKind.MARKER,
    ActionKind.FREE,
    ActionKind.TARGET,
)
SPECIALS = (
    ActionKind.PASS,
    ActionKind.END_TURN,
    ActionKind.BREAK_AWAY,
    ActionKind.REGENERATE,
    ActionKind.FIRE,
    ActionKind.END_MOVE,
    ActionKind.END_ACTION,
    ActionKind.DECLINE,
    ActionKind.REROLL,
    ActionKind.ACCEPT,
)
SETUP_PLANES = (ActionKind.PLACE, ActionKind.PLACE_SOAR, ActionKind.PLACE_OBJECT)
EDGES = ("N", "E", "S", "W")
SWITCH_SLOTS = SlotFamily.of(ActionKind.SWITCH_OFF, list(COLUMNS))
WALL_PLANES = (ActionKind.WALL_N, ActionKind.WALL_E, ActionKind.WALL_S, ActionKind.WALL_W)
ALIVE_MEMO_SIZE = 256  # positions remembered by alive(); a playout revisits only a few
# (that order is WallGeometry.around's)


class HeroclixBase(DialForces, MapTerrain, StandardGame[State]):
    """HeroClix for 2-4 players without its phases: see the module docstring. Its parts:
    :class:`~envs.heroclix.dials.DialForces` (the figures and their dials) and
    :class:`~envs.heroclix.terrain.MapTerrain` (the map as it stands)."""

    STATE = State
    GAME_OVER_PHASE = Phase.GAME_OVER
    name = "heroclix"

    OPTIONS = HeroclixOptions

    def __init__(self, *args: Any, **given: Any):
        """``HeroclixGame("mall", setup="play")`` or ``HeroclixGame(HeroclixOptions(...))``:
        the options of :class:`~envs.heroclix.options.HeroclixOptions`."""
        self.options = HeroclixOptions.of(*args, **given)
        opts = self.options
        self.flag_traits = flag_traits(opts)
        scenario = opts.scenario
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        sc = self.scenario
        self.map = sc.map
        self.num_players = len(sc.players)
        if not MIN_PLAYERS <= self.num_players <= MAX_PLAYERS:
            raise OptionError(
                "scenario",
                f"{self.num_players} players; HeroClix takes {MIN_PLAYERS}-{MAX_PLAYERS}",
            )
        self.max_rounds: int = sc.max_rounds if opts.max_rounds is None else opts.max_rounds
        self.reward = opts.reward
        self.setup = opts.setup
        if self.setup == "fixed" and not sc.fixed:
            raise OptionError(
                "setup",
                f"scenario {sc.id!r} leaves forces or object squares to "
                "be played: use setup='play'",
            )
        self.full_dial_visibility = opts.full_dial_visibility
        self.team_abilities = opts.team_abilities
        self.passenger_may_act_after_drop = opts.passenger_may_act_after_drop
        self._build_terrain(opts.board_size)
        self.build_total = sc.build_total
        self.actions_per_turn = sc.build_total // 100  # HC-3.2 default
        self._build_forces()
        self.team_keys = self._team_keys()
        # whether a decision may come inside another seat's action (.interrupts)
        self.may_interrupt = any(
            has_trait(keys, TRANSFERS_DAMAGE)
            or (opts.probability_control and has_trait(keys, REROLLS))
            or any(ROLLS_WITH_HITS in self.flag_traits.get(k, ()) for k in keys)
            for dial in self.dial_keys
            for keys in dial
        )
        self.objects = TokenLayer(
            [OBJECT_KINDS[o.kind] for o in sc.objects], [o.kind for o in sc.objects], self.n_cells
        )
        self.object_heavy = self.objects.kinds == 1
        # Memo tables of the query modules (reach.py: step costs, searches), per game.
        self.caches: dict[str, Any] = {}
        self.player_names = tuple(f"player_{i}" for i in range(self.num_players))
        # the power variants registered (envs.heroclix.powers.variants), one slot each
        self.variant_keys = tuple(HOOKS.keys(VARIANTS))
        self.variant_index = {key: i for i, key in enumerate(self.variant_keys)}
        # what the VARIANT phase may be playing: the variants, then the free powers
        self.playing_keys = self.variant_keys + tuple(HOOKS.keys(FREE_ACTIONS))
        planes = list(BASE_PLANES)
        slots: list[str | SlotFamily] = [
            *SPECIALS,
            SWITCH_SLOTS,
            SlotFamily.of(ActionKind.POWER, list(self.variant_keys)),
            SlotFamily.of(ActionKind.COUNTER, list(COLUMNS)),
            ActionKind.FORCE_HOVER,
            SlotFamily.of(ActionKind.PERPLEX, PERPLEX_SLOTS),
        ]
        if self.setup == "play":  # HC-2 as decisions, after the play actions (same indices)
            planes += SETUP_PLANES
            slots += [
                ActionKind.DONE,
                SlotFamily.of(ActionKind.DRAFT, [f.id for f in sc.pool]),
                SlotFamily.of(ActionKind.EDGE, list(EDGES)),
            ]
        self.layout = ActionLayout.build(self.n_cells, planes, slots, width=self.width)
        self.view = self.make_view()
        self.observation_shape = self.view.shape

    def make_view(self) -> GameView[State]:
        """The observation view, built with the game at the end of ``__init__`` (the engine
        in ``rules.py`` makes its own)."""
        raise NotImplementedError

    @property
    def info(self) -> GameInfo:
        # One action of a figure is at most: select, carry or pick up, break away, one move
        # leg per object picked up plus one, each followed by a pick-up choice, a drop; or
        # select and one decision per bolt plus fire; plus four switch-offs; a power variant
        # adds at most 6 steps (its slot, 4 markers, end_action). Mind Control gives one
        # such action to each figure it hits (up to the bolts); Mastermind may ask once per
        # damage instance (a hit and its knockback, per figure, for up to two attacks per
        # action). A turn: the build total's actions, one more from Leadership, the free
        # moves of team abilities (one per figure), three decisions per free power (one per
        # figure), end_turn; the round cap ends the game. Probability Control's questions
        # and Hypersonic Speed's option 2 streak depend on the dice alone: no bound then.
        if self.options.probability_control or self.options.hypersonic_option2:
            max_length = None
        else:
            legs = 2 * (len(self.objects) + 1)
            bolts = int(self.bolts.max())
            one = 4 + legs + 4 + bolts + 6
            asked = 2 * 2 * self.n_figures if self.may_interrupt else 0
            per_action = (one + asked) * (1 + bolts)
            actions = self.actions_per_turn + 1 + (self.n_figures if self.team_abilities else 0)
            per_turn = actions * per_action + 3 * self.n_figures + 1
            # setup="play": a draft per slot and a done per seat, an edge per seat, each
            # object, and a placement per slot.
            setup = (
                2 * self.n_figures + 2 * self.num_players + len(self.objects)
                if self.setup == "play"
                else 0
            )
            max_length = setup + per_turn * self.num_players * self.max_rounds
        return GameInfo(
            name=self.name,
            num_players=self.num_players,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            max_game_length=max_length,
        )

    def new_state(self, seed: int | None = None) -> State:
        n, f = self.n_cells, self.n_figures
        state = State(
            cell=np.asarray(self.start_cells, dtype=np.int16),
            click=np.zeros(f, dtype=np.int8),
            mode=np.asarray(self.start_modes, dtype=np.int8),
            tokens=np.zeros(f, dtype=np.int8),
            acted=np.zeros(f, dtype=bool),
            carried=np.zeros(f, dtype=bool),
            drafted=np.full(f, self.setup == "fixed"),
            held=np.full(f, NO_OBJECT, dtype=np.int8),
            last_damager=np.full(f, NO_SEAT, dtype=np.int8),
            power_off=np.zeros((f, 4), dtype=bool),
            occupant=np.full(n, NO_FIGURE, dtype=np.int16),
            objects=self.objects.new_where(
                [
                    self.padded.to_padded(o.cell) if o.cell >= 0 and self.setup == "fixed" else GONE
                    for o in self.scenario.objects
                ]
            ),
            walls_intact=self.walls.all_intact(),
            blocking=self.static_blocking.copy(),
            rubble=np.zeros(n, dtype=bool),
            smoke=np.full(n, NO_FIGURE, dtype=np.int16),
            barrier=np.full(n, NO_FIGURE, dtype=np.int16),
            vp=[0.0] * self.num_players,
            dice=Dice(seed),
        )
        on_map = state.cell != NO_CELL
        state.occupant[state.cell[on_map]] = np.flatnonzero(on_map)
        if self.setup == "play":
            state.phase = Phase.DRAFT
            state.seat = 0
            state.object_order = [int(k) for k in state.dice.rng.permutation(len(self.objects))]
            return state
        self.begin_play(state)
        return state

    def begin_play(self, state: State, events: list | None = None) -> None:
        """After setup: the first-player roll (HC-2.11) and the first turn."""
        state.first_player = self.roll_first_player(state)
        self.start_turn(state, state.first_player, [] if events is None else events)

    def start_turn(self, state: State, seat: int, events: list) -> None:
        """The turn of ``seat`` begins (:func:`envs.heroclix.phases.endings.start_turn`)."""
        raise NotImplementedError

    def finish_controlled(self, state: State, figure: int, events: list) -> None:
        """The end of an action Mind Control gave ``figure``
        (:func:`envs.heroclix.powers.mind_control.finish_controlled`)."""
        raise NotImplementedError

    def roll_for(self, state: State, figure: int, dice: int = 1) -> tuple[int, ...]:
        """``dice`` d6 rolled by ``figure``'s controller for it; Probability Control may
        have it rerolled (:func:`envs.heroclix.combat.rolls.roll_for`)."""
        raise NotImplementedError

    def roll_first_player(self, state: State) -> int:
        """HC-2.11 default: everyone rolls 2d6, ties among the highest reroll."""
        contenders = list(range(self.num_players))
        while len(contenders) > 1:
            totals = [sum(roll_2d6(state)) for _ in contenders]
            best = max(totals)
            contenders = [s for s, t in zip(contenders, totals) if t == best]
        return contenders[0]

    # -- who is where ---------------------------------------------------------------------
    def who(self, state: State, cell: int) -> str:
        """The label of the figure on ``cell``, for action names."""
        figure = int(state.occupant[cell])
        return self.label(figure) if figure != NO_FIGURE else "nobody"

    def alive(self, state: State, seat: int | None = None) -> list[int]:
        # Asked several times per decision about the same squares: the answers are kept by
        # the figures' squares (owners never change), a new list each time for the caller.
        memo = named_lru(self.caches, "alive", ALIVE_MEMO_SIZE)
        key = (state.cell.tobytes(), seat)
        found = memo.get(key)
        if found is None:
            on_map = state.cell != NO_CELL
            if seat is not None:
                on_map &= self.owner == seat
            found = memo[key] = tuple(on_map.nonzero()[0].tolist())
        return list(found)

    def seats_standing(self, state: State) -> frozenset[int]:
        """The seats that still have a figure on the map (owners, not Mind Control's sides):
        asked at every action's and turn's end (HC-7.1, HC-2.11), kept by the squares."""
        memo = named_lru(self.caches, "seats_standing", ALIVE_MEMO_SIZE)
        key = state.cell.tobytes()
        found = memo.get(key)
        if found is None:
            found = memo[key] = frozenset(self.owner[state.cell != NO_CELL].tolist())
        return found

    def side(self, state: State, figure: int) -> int:
        """The seat a figure fights for now: its owner's, or its Mind Controller's during
        the action it is given (P-SPD-6)."""
        return state.controller if figure == state.controlled else int(self.owner[figure])

    def sides(self, state: State) -> np.ndarray:
        if state.controlled == NO_FIGURE:
            return self.owner
        sides = self.owner.copy()
        sides[state.controlled] = state.controller
        return sides

    def enemies_of(self, state: State, figure: int) -> list[int]:
        sides = self.sides(state)
        return [int(f) for f in np.flatnonzero((state.cell != NO_CELL) & (sides != sides[figure]))]

    def move_figure_onto_map(self, state: State, figure: int, cell: int) -> None:
        """A figure that is on no square comes onto ``cell`` (placed at setup, set down by
        its carrier)."""
        state.cell[figure] = cell
        state.occupant[cell] = figure

    def move_figure(self, state: State, figure: int, cell: int) -> None:
        state.occupant[state.cell[figure]] = NO_FIGURE
        state.cell[figure] = cell
        state.occupant[cell] = figure

    def can_act(self, state: State, figure: int) -> bool:
        """HC-3.4, HC-3.17: on the map, not acted this turn, fewer than two tokens; not
        carried this turn when ``passenger_may_act_after_drop`` is off (HC-3.33)."""
        return bool(
            state.cell[figure] != NO_CELL
            and not state.acted[figure]
            and (
                state.tokens[figure] < 2 or has_trait(self.powers(state, figure), ACTS_EXHAUSTED)
            )  # TA-MOE
            and (self.passenger_may_act_after_drop or not state.carried[figure])
        )
