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

from functools import lru_cache
from typing import Any, Callable, ClassVar

import numpy as np

from envs.core import options
from envs.core.actions import ActionLayout, SlotFamily
from envs.core.adjacency import adjacency_table
from envs.core.lru import LRU
from envs.core.board import PaddedBoard
from envs.core.dice import Dice
from envs.core.firelines import FireLines
from envs.core.game import GameInfo, GameView, OptionError, StandardGame
from envs.core.modemove import touching_table
from envs.core.knockback import Knockback, compass_direction, knockback
from envs.core.tokens import GONE, TokenLayer
from envs.core.walls import WallGeometry
from envs.heroclix.dice import roll_2d6
from envs.heroclix.flags import FLAG_DEFAULTS, ROLLS_WITH_HITS, checked_flags, flag_traits
from envs.heroclix.data.maps import ClixMap, Terrain
from envs.heroclix.powers.hooks import (ACTS_EXHAUSTED, FREE_ACTIONS, GROUNDED, HOOKS, PICKS_UP_OBJECTS, REROLLS,
                     TRANSFERS_DAMAGE, VARIANTS, has_trait)
from envs.heroclix.data.teams import WILD_CARD, teams
from envs.heroclix.powers.catalog import POWERS
from envs.heroclix.data.scenarios import OBJECT_KINDS, Scenario, load_scenario
from envs.heroclix.state import GROUND, NO_CELL, NO_FIGURE, NO_OBJECT, NO_SEAT, SOAR, Phase, State

DEFAULT_SCENARIO = "duel"
DEFAULT_BOARD_SIZE = None  # the map's own size; (24, 24) fits every shipped map
MIN_PLAYERS, MAX_PLAYERS = 2, 4
COLUMNS = ("speed", "attack", "defense", "damage")
RANGE_STAT = 4  # Perplex's fifth value after the four columns (P-DMG-9)
PERPLEX_STATS = (*COLUMNS, "range")
PERPLEX_SLOTS = [f"{stat}_{way}" for stat in PERPLEX_STATS for way in ("up", "down")]
SWITCH_SLOTS = SlotFamily.of("switch_off", list(COLUMNS))
BASE_PLANES = ("select", "move", "soar", "close", "ranged", "throw", "smash", "wall_n", "wall_e",
               "wall_s", "wall_w", "tk_object", "tk_move", "tk_hurl", "pick_up", "carry", "drop",
               "support", "marker", "free", "target")
SPECIALS = ("pass", "end_turn", "break_away", "regenerate", "fire", "end_move", "end_action",
            "decline", "reroll", "accept")
REWARDS = ("win", "vp")
SETUPS = ("fixed", "play")
SETUP_PLANES = ("place", "place_soar", "place_object")
EDGES = ("N", "E", "S", "W")
MAX_COPIES = 4  # copies of one non-unique figure a drafted force may hold (setup="play")
WALL_PLANES = ("wall_n", "wall_e", "wall_s", "wall_w")  # order of WallGeometry.around


@lru_cache(maxsize=16)
def _map_tables(clix_map: ClixMap, board_size: tuple[int, int]) -> tuple:
    """Per-map tables shared by every game on the map in a process."""
    padded = PaddedBoard.create(clix_map.board, *board_size)
    board = padded.board
    walls = WallGeometry(board)
    fire = FireLines(board, walls)
    rows, cols = np.divmod(np.arange(board.n_cells), board.width)
    chebyshev = np.maximum(np.abs(rows[:, None] - rows[None, :]),
                           np.abs(cols[:, None] - cols[None, :])).astype(np.int16)
    chebyshev.setflags(write=False)
    return padded, walls, fire, chebyshev


def _pad_mask(padded: PaddedBoard, mask: np.ndarray) -> np.ndarray:
    out = np.zeros(padded.board.n_cells, dtype=mask.dtype)
    for cell in np.flatnonzero(mask):
        out[padded.to_padded(int(cell))] = mask[cell]
    out.setflags(write=False)
    return out


class HeroclixBase(StandardGame[State]):
    """HeroClix for 2-4 players without its phases: see the module docstring."""

    STATE = State
    GAME_OVER_PHASE = Phase.GAME_OVER
    VIEW: ClassVar[Callable[[Any], GameView[State]]]
    name = "heroclix"

    def __init__(self, scenario: str | Scenario = DEFAULT_SCENARIO,
                 board_size: tuple[int, int] | None = DEFAULT_BOARD_SIZE,
                 max_rounds: int | None = None,
                 reward: str = "win",
                 full_dial_visibility: bool = False,
                 passenger_may_act_after_drop: bool = True,
                 setup: str = "fixed",
                 hover_adjacent_ranged_exception: bool = True,
                 tk_flyer_limit_includes_hover: bool = True,
                 hindering_to_hindering_continues: bool = False,
                 leapclimb_ignores_characters: bool = False,
                 leapclimb_hits_soaring: bool = False,
                 phasing_ignores_characters: bool = False,
                 superstrength_2008_wall_bonus: bool = False,
                 psychic_blast_ignores_lof: bool = False,
                 support_vs_target_defense: bool = False,
                 support_no_adjacent_enemies: bool = False,
                 support_min_heal: int = 0,
                 pulse_wave_while_adjacent: bool = False,
                 probability_control: bool = False,
                 mastermind_pushing: bool = False,
                 combat_reflexes_2008: bool = False,
                 tk_move_friend: bool = False,
                 tk_move_enemy: bool = False,
                 hypersonic_option2: bool = False,
                 team_abilities: bool = False):
        # the rule flags of envs.heroclix.flags, as given
        self.flags = checked_flags({name: value for name, value in locals().items()
                                    if name in FLAG_DEFAULTS})
        self.flag_traits = flag_traits(self.flags)
        options.data_refs("scenario", scenario, "scenario", Scenario)
        self.scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        sc = self.scenario
        self.map = sc.map
        self.num_players = len(sc.players)
        if not MIN_PLAYERS <= self.num_players <= MAX_PLAYERS:
            raise OptionError("scenario", f"{self.num_players} players; HeroClix takes "
                              f"{MIN_PLAYERS}-{MAX_PLAYERS}")
        source = self.map.board
        self.height, self.width = (source.height, source.width) if board_size is None \
            else options.board_size("board_size", board_size)
        if source.height > self.height or source.width > self.width:
            raise OptionError("board_size", f"map {self.map.id!r} is {source.height}x"
                              f"{source.width}, larger than board_size {board_size}")
        self.max_rounds = sc.max_rounds if max_rounds is None else max_rounds
        if isinstance(self.max_rounds, bool) or not isinstance(self.max_rounds, int) \
                or self.max_rounds < 1:
            raise OptionError("max_rounds", f"must be a positive integer, got {self.max_rounds!r}")
        if reward not in REWARDS:
            raise OptionError("reward", f"must be one of {', '.join(REWARDS)}, got {reward!r}")
        self.reward = reward
        if setup not in SETUPS:
            raise OptionError("setup", f"must be one of {', '.join(SETUPS)}, got {setup!r}")
        if setup == "fixed" and not sc.fixed:
            raise OptionError("setup", f"scenario {sc.id!r} leaves forces or object squares to "
                              "be played: use setup='play'")
        self.setup = setup
        for option, value in (("full_dial_visibility", full_dial_visibility),
                              ("passenger_may_act_after_drop", passenger_may_act_after_drop),
                              ("team_abilities", team_abilities)):
            if not isinstance(value, bool):
                raise OptionError(option, f"must be true or false, got {value!r}")
        self.full_dial_visibility = full_dial_visibility
        self.team_abilities = team_abilities
        self.passenger_may_act_after_drop = passenger_may_act_after_drop
        self.padded, self.walls, self.fire, self.chebyshev = _map_tables(self.map, (self.height,
                                                                                   self.width))
        self.board = self.padded.board
        self.n_cells = self.board.n_cells
        terrain = self.board.terrain
        self.static_hindering = terrain == Terrain.HINDERING  # for lines of fire (HC-5.13)
        self.water = terrain == Terrain.WATER
        self.static_blocking = (terrain == Terrain.BLOCKING) | ~self.board.exists
        self.indoor = _pad_mask(self.padded, self.map.indoor)
        self.stairs = _pad_mask(self.padded, self.map.stairs)
        ladder = np.full(self.n_cells, -1, dtype=np.int32)
        for cell in np.flatnonzero(self.map.ladder_to >= 0):
            ladder[self.padded.to_padded(int(cell))] = self.padded.to_padded(
                int(self.map.ladder_to[cell]))
        self.ladder_to = ladder
        self.start_areas = {edge: _pad_mask(self.padded, area)
                            for edge, area in self.map.start_areas.items()}
        self.start_area_any = np.any(list(self.start_areas.values()), axis=0)
        self.build_total = sc.build_total
        self.actions_per_turn = sc.build_total // 100  # HC-3.2 default
        self._build_forces()
        self.team_keys = self._team_keys()
        # whether a decision may come inside another seat's action (.interrupts)
        self.may_interrupt = any(
            has_trait(keys, TRANSFERS_DAMAGE) or (self.flags["probability_control"]
                                                  and has_trait(keys, REROLLS))
            or any(ROLLS_WITH_HITS in self.flag_traits.get(k, ()) for k in keys)
            for dial in self.dial_keys for keys in dial)
        self.objects = TokenLayer([OBJECT_KINDS[o.kind] for o in sc.objects],
                                  [o.kind for o in sc.objects], self.n_cells)
        self.object_heavy = self.objects.kinds == 1
        self._adjacency_cache: LRU[bytes, np.ndarray] = LRU(64)  # per terrain state
        # Memo tables of the query modules (reach.py: step costs, searches), per game.
        self.caches: dict[str, Any] = {}
        self.touching = touching_table(self.board)  # soaring adjacency (HC-3.13)
        self.player_names = tuple(f"player_{i}" for i in range(self.num_players))
        # the power variants registered (envs.heroclix.powers.variants), one slot each
        self.variant_keys = tuple(HOOKS.keys(VARIANTS))
        self.variant_index = {key: i for i, key in enumerate(self.variant_keys)}
        # what the VARIANT phase may be playing: the variants, then the free powers
        self.playing_keys = self.variant_keys + tuple(HOOKS.keys(FREE_ACTIONS))
        planes = list(BASE_PLANES)
        slots = [*SPECIALS, SWITCH_SLOTS, SlotFamily.of("power", list(self.variant_keys)),
                 SlotFamily.of("counter", list(COLUMNS)), "force_hover",
                 SlotFamily.of("perplex", PERPLEX_SLOTS)]
        if setup == "play":  # HC-2 as decisions, after the play actions (same indices)
            planes += SETUP_PLANES
            slots += ["done", SlotFamily.of("draft", [f.id for f in sc.pool]),
                      SlotFamily.of("edge", list(EDGES))]
        self.layout = ActionLayout.build(self.n_cells, planes, slots, width=self.width)
        self.view = self.VIEW(self)
        self.observation_shape = self.view.shape

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
        if self.flags["probability_control"] or self.flags["hypersonic_option2"]:
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
            setup = (2 * self.n_figures + 2 * self.num_players + len(self.objects)
                     if self.setup == "play" else 0)
            max_length = setup + per_turn * self.num_players * self.max_rounds
        return GameInfo(name=self.name, num_players=self.num_players, min_players=MIN_PLAYERS,
                        max_players=MAX_PLAYERS, max_game_length=max_length)

    # -- setup ----------------------------------------------------------------------------
    def _build_forces(self) -> None:
        """One figure slot per figure that can be in the game: the scenario's forces, or
        (setup="play") per seat every copy of each pool figure that a force may draft."""
        owner, figures, start_cells, start_modes = [], [], [], []
        pool = self.scenario.pool
        for seat, player in enumerate(self.scenario.players):
            if self.setup == "play":
                for figure in pool:
                    copies = 1 if figure.unique else min(MAX_COPIES,
                                                         self.build_total // figure.points)
                    for _ in range(copies):
                        owner.append(seat)
                        figures.append(figure)
                        start_cells.append(NO_CELL)
                        start_modes.append(GROUND)
                continue
            for entry in player.force:
                owner.append(seat)
                figures.append(entry.figure)
                start_cells.append(self.padded.to_padded(entry.cell))
                start_modes.append(SOAR if entry.mode == "soar" else GROUND)
        self.figures = figures
        ids = [f.id for f in pool]
        self.kind = np.asarray([ids.index(f.id) if f.id in ids else -1 for f in figures],
                               dtype=np.int16)
        self.n_figures = len(figures)
        self.owner = np.asarray(owner, dtype=np.int8)
        self.start_cells, self.start_modes = start_cells, start_modes
        clicks = max(len(f.dial) for f in figures)
        self.dial_length = np.asarray([len(f.dial) for f in figures], dtype=np.int8)
        self.dial_values = np.zeros((self.n_figures, clicks + 1, 4), dtype=np.int8)
        self.dial_powers: list[list[tuple[str | None, ...]]] = []
        for i, figure in enumerate(figures):
            for c, click in enumerate(figure.dial):
                self.dial_values[i, c] = (click.speed, click.attack, click.defense, click.damage)
            self.dial_powers.append([tuple(k if k and POWERS[k].implemented else None
                                           for k in click.powers) for click in figure.dial])
        self.dial_keys = [[tuple(k for k in click if k is not None) for click in powers]
                          for powers in self.dial_powers]
        self.range = np.asarray([f.range for f in figures], dtype=np.int8)
        self.bolts = np.asarray([f.targets for f in figures], dtype=np.int8)
        self.flyer = np.asarray([f.flyer for f in figures], dtype=bool)
        self.points = np.asarray([f.points for f in figures], dtype=np.int16)
        self.optional_column = [[[bool(k and POWERS[k].optional) for k in click]
                                 for click in powers] for powers in self.dial_powers]
        names = [f.name for f in figures]
        if self.setup == "play":  # any seat may draft any figure: labels name the seat
            keys = list(zip(owner, names))
            self.figure_label = [
                n + (f" {keys[:i + 1].count((o, n))}" if keys.count((o, n)) > 1 else "")
                + f" (p{o})" for i, (o, n) in enumerate(keys)]
        else:
            self.figure_label = [n if names.count(n) == 1 else f"{n} {names[:i + 1].count(n)}"
                                 for i, n in enumerate(names)]

    def _team_keys(self) -> list[tuple[str, ...]]:
        """Per figure, the team ability effects it has (R-13: none unless team_abilities);
        the wild card takes those of every team in its force (TA-MOD)."""
        if not self.team_abilities:
            return [()] * self.n_figures
        table = teams()
        own = [table[f.team].effect if f.team else None for f in self.figures]
        keys = []
        for i, effect in enumerate(own):
            if effect == WILD_CARD:
                force = {own[j] for j in range(self.n_figures)
                         if self.owner[j] == self.owner[i] and own[j] not in (None, WILD_CARD)}
                keys.append(tuple(sorted(force)))
            else:
                keys.append((effect,) if effect else ())
        return keys

    def new_state(self, seed: int | None = None) -> State:
        n, f = self.n_cells, self.n_figures
        state = State(
            cell=np.asarray(self.start_cells, dtype=np.int16),
            click=np.zeros(f, dtype=np.int8),
            mode=np.asarray(self.start_modes, dtype=np.int8),
            tokens=np.zeros(f, dtype=np.int8), acted=np.zeros(f, dtype=bool),
            carried=np.zeros(f, dtype=bool), drafted=np.full(f, self.setup == "fixed"),
            held=np.full(f, NO_OBJECT, dtype=np.int8),
            last_damager=np.full(f, NO_SEAT, dtype=np.int8),
            power_off=np.zeros((f, 4), dtype=bool),
            occupant=np.full(n, NO_FIGURE, dtype=np.int16),
            objects=self.objects.new_where([self.padded.to_padded(o.cell) if o.cell >= 0
                                            and self.setup == "fixed" else GONE
                                            for o in self.scenario.objects]),
            walls_intact=self.walls.all_intact(),
            blocking=self.static_blocking.copy(), rubble=np.zeros(n, dtype=bool),
            smoke=np.full(n, NO_FIGURE, dtype=np.int16),
            barrier=np.full(n, NO_FIGURE, dtype=np.int16),
            vp=[0.0] * self.num_players, dice=Dice(seed))
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

    def force_points(self, state: State, seat: int) -> int:
        """Points of the force ``seat`` built (HC-7.9 default: the actual total)."""
        return int(self.points[(self.owner == seat) & state.drafted].sum())

    def roll_first_player(self, state: State) -> int:
        """HC-2.11 default: everyone rolls 2d6, ties among the highest reroll."""
        contenders = list(range(self.num_players))
        while len(contenders) > 1:
            totals = [sum(roll_2d6(state)) for _ in contenders]
            best = max(totals)
            contenders = [s for s, t in zip(contenders, totals) if t == best]
        return contenders[0]

    # -- the dial -------------------------------------------------------------------------
    def value(self, state: State, figure: int, column: int) -> int:
        """The dial's value now, with Perplex's +1/-1 until the end of the turn (P-DMG-9)."""
        value = int(self.dial_values[figure, state.click[figure], column])
        if state.perplex:
            value = max(0, value + sum(d for t, c, d, _ in state.perplex
                                       if t == figure and c == column))
        return value

    def range_value(self, state: State, figure: int) -> int:
        """Range (HC-1.6: not on the dial), with Perplex's change (P-DMG-9)."""
        value = int(self.range[figure])
        if state.perplex:
            value += sum(d for t, c, d, _ in state.perplex if t == figure and c == RANGE_STAT)
        return max(0, value)

    def speed_value(self, state: State, figure: int) -> int:
        return self.value(state, figure, 0)

    def attack_value(self, state: State, figure: int) -> int:
        return self.value(state, figure, 1)

    def defense_value(self, state: State, figure: int) -> int:
        return self.value(state, figure, 2)

    def damage_value(self, state: State, figure: int) -> int:
        return self.value(state, figure, 3)

    def powers(self, state: State, figure: int) -> tuple[str, ...]:
        """HC-3.7/3.8: the implemented powers its dial shows now, less those switched off,
        countered (Outwit, P-DMG-10) or ignored (during a Pulse Wave, P-ATT-3)."""
        if state.cell[figure] == NO_CELL or figure in state.powers_ignored:
            return ()
        shown = self.dial_keys[figure][int(state.click[figure])] + self.team_keys[figure]
        off = state.power_off[figure]
        if state.outwits:
            off = off.copy()
            for target, column, _ in state.outwits:
                if target == figure:
                    off[column] = True
        if not off.any():
            return shown
        return tuple(k for col, k in enumerate(self.dial_powers[figure][int(state.click[figure])])
                     if k is not None and not off[col]) + self.team_keys[figure]

    def flies(self, state: State, figure: int) -> bool:
        """A flyer (HC-1.12) that is not grounded by Earthbound now (P-SPD-4)."""
        return bool(self.flyer[figure]) and not has_trait(self.powers(state, figure), GROUNDED)

    def has_trait(self, state: State, figure: int, trait: str) -> bool:
        """A trait of the figure's powers now, including those the rule flags add."""
        powers = self.powers(state, figure)
        return has_trait(powers, trait) or any(trait in self.flag_traits.get(k, ())
                                               for k in powers)

    def switchable(self, state: State, figure: int) -> list[int]:
        """Columns whose optional power is showing and still on (HC-3.8)."""
        click = int(state.click[figure])
        return [c for c in range(4) if self.optional_column[figure][click][c]
                and not state.power_off[figure, c]]

    def archenemies(self, a: int, b: int) -> bool:
        fa, fb = self.figures[a], self.figures[b]
        return bool(fa.archenemy_color and fa.archenemy_color == fb.archenemy_color
                    and fa.name != fb.name)

    def after_dial_turn(self, state: State, figure: int, events: list) -> None:
        """HC-6.10: a holder that loses the power to hold (its dial turned, or switched off)
        drops the object on its square."""
        held = int(state.held[figure])
        if held != NO_OBJECT and not has_trait(self.powers(state, figure), PICKS_UP_OBJECTS):
            state.objects[held] = state.cell[figure]
            state.held[figure] = NO_OBJECT

    # -- who is where ---------------------------------------------------------------------
    def label(self, figure: int) -> str:
        return self.figure_label[figure]

    def cell_label(self, cell: int) -> str:
        row, col = divmod(int(cell), self.width)
        return f"({row},{col})"

    def alive(self, state: State, seat: int | None = None) -> list[int]:
        on_map = state.cell != NO_CELL
        if seat is not None:
            on_map &= self.owner == seat
        return on_map.nonzero()[0].tolist()

    def figures_with(self, point) -> frozenset[int]:
        """Figures whose dial shows, at some click, a power with an effect at ``point`` (so
        the flow need not ask the others)."""
        found = self.caches.setdefault("figures_with", {}).get(point.name)
        if found is None:
            found = frozenset(f for f in range(self.n_figures)
                              if any(HOOKS.has(point, k) for keys in self.dial_keys[f]
                                     for k in keys + self.team_keys[f]))
            self.caches["figures_with"][point.name] = found
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
        return bool(state.cell[figure] != NO_CELL and not state.acted[figure]
                    and (state.tokens[figure] < 2
                         or has_trait(self.powers(state, figure), ACTS_EXHAUSTED))  # TA-MOE
                    and (self.passenger_may_act_after_drop or not state.carried[figure]))

    def break_wall(self, state: State, wall: int) -> None:
        """HC-5.16/5.17: the wall is gone; both its squares are hindering from now on."""
        state.walls_intact[wall] = False
        state.rubble[self.walls.edges[wall]] = True

    # -- terrain as it stands now ---------------------------------------------------------
    def neighbors(self, state: State) -> np.ndarray:
        return self.walls.neighbors(state.walls_intact)

    def adjacency(self, state: State) -> np.ndarray:
        """HC-3.13 adjacency for non-soaring figures under the walls and blocking squares
        standing now (cached per terrain state)."""
        key = state.walls_intact.tobytes() + state.blocking.tobytes()
        table = self._adjacency_cache.get(key)
        if table is None:
            table = adjacency_table(self.board, state.blocking, neighbors=self.neighbors(state))
            self._adjacency_cache[key] = table
        return table

    def hindering(self, state: State, *, movement: bool) -> np.ndarray:
        """Hindering squares now: terrain, rubble (HC-5.17), unheld objects (HC-6.3) and
        Smoke Cloud markers (P-ATT-8); shallow water hinders movement only (HC-5.13)."""
        mask = (self.static_hindering | state.rubble | self.objects.lying(state.objects)
                | (state.smoke >= 0))
        return mask | self.water if movement else mask

    def is_adjacent(self, state: State, a: int, b: int) -> bool:
        """HC-3.13 between two figures, flight modes included."""
        soar_a, soar_b = state.mode[a] == SOAR, state.mode[b] == SOAR
        if soar_a != soar_b:
            return False
        ca, cb = int(state.cell[a]), int(state.cell[b])
        row = self.touching[ca] if soar_a else self.adjacency(state)[ca]
        return cb in row.tolist()

    def adjacent_figures(self, state: State, figure: int) -> list[int]:
        """Figures adjacent to ``figure`` (HC-3.13), ascending: on the squares of its
        adjacency row, in the same flight class (soaring with soaring only)."""
        cell = int(state.cell[figure])
        soaring = state.mode[figure] == SOAR
        row = self.touching[cell] if soaring else self.adjacency(state)[cell]
        found = []
        for there in row.tolist():
            if there >= 0:
                other = int(state.occupant[there])
                if other >= 0 and (state.mode[other] == SOAR) == soaring:
                    found.append(other)
        return sorted(found)

    def adjacent_enemies(self, state: State, figure: int) -> list[int]:
        side = self.side(state, figure)
        return [e for e in self.adjacent_figures(state, figure) if self.side(state, e) != side]

    def knockback_path(self, state: State, target: int, source_cell: int,
                       distance: int) -> Knockback:
        """HC-4.9-4.13: straight away from ``source_cell`` under today's terrain."""
        cell = int(state.cell[target])
        direction = compass_direction(self.board, source_cell, cell)
        soaring = state.mode[target] == SOAR
        others = (state.cell != NO_CELL) & (np.arange(self.n_figures) != target)
        occupied = np.zeros(self.n_cells, dtype=bool)
        occupied[state.cell[others & (state.mode == SOAR) if soaring else others]] = True
        no_end = None
        if soaring:  # over ground figures and blocking terrain, never onto them (HC-3.29)
            no_end = state.blocking.copy()
            no_end[state.cell[others]] = True
        return knockback(self.board, cell, direction, distance, blocking=state.blocking,
                         occupied=occupied, flyer=self.flies(state, target), soaring=bool(soaring),
                         may_not_end=no_end, neighbors=self.neighbors(state))
