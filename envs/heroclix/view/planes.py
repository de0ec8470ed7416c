"""HeroClix as seen by players: observation planes, action names, text and scenes.

The observation is declared once, as the named views of :func:`plane_layout`; channel
indices are asked of that layout. Seats are relative to the observer (``seat+k`` = k seats
after it, clockwise). Figure columns (``stats``, ``powers``, ``dial``) are written on the
figure's square; whose figure it is shows in ``figures``.
"""

from __future__ import annotations

import functools

import numpy as np

from envs.core.events import Event
from envs.core.planes import PlaneLayout, View
from envs.core.scene import Scene
from envs.core.textboard import text_grid
from envs.heroclix.data.maps import Terrain
from envs.heroclix.dials import COLUMNS, MAX_COPIES
from envs.heroclix.game import EDGES, ActionKind, HeroclixBase
from envs.heroclix.phases.interrupts import interrupt_action_name
from envs.heroclix.powers.catalog import POWERS
from envs.heroclix.powers.hooks import GROUNDED, has_trait
from envs.heroclix.powers.variant_base import playing
from envs.heroclix.state import NO_CELL, NO_FIGURE, NO_OBJECT, SOAR, Phase, State
from envs.heroclix.view.stamp import stamp_figures

STAT_SCALE = 20.0
CLICK_SCALE = 10.0
DIAL_AHEAD = 8  # clicks after the current one shown with full_dial_visibility (HC-8.1)
TERRAINS = ("clear", "hindering", "blocking", "water")
STATS = (
    "speed",
    "attack",
    "defense",
    "damage",
    "range",
    "targets",
    "clicks_left",
    "tokens",
    "acted",
    "flyer",
    "soaring",
    "points",
)
DECISION = ("selected", "passenger", "tk_object", "targets", "interrupt")
TERRAIN_GLYPHS = {
    int(Terrain.CLEAR): ".",
    int(Terrain.HINDERING): "%",
    int(Terrain.BLOCKING): "#",
    int(Terrain.WATER): "~",
}
SIDE_NAMES = ("north", "east", "south", "west")


def seat_label(k: int) -> str:
    return f"seat+{k}"


def plane_layout(
    num_players: int, full_dial: bool, pool: list[str] | None = None, variants: tuple[str, ...] = ()
) -> PlaneLayout:
    """The channels in order; ``pool`` (the draft pool's ids) adds the views of
    setup="play"; ``variants``: the power variants' keys."""
    seats = [seat_label(k) for k in range(num_players)]
    views = [
        View("space"),
        View("level"),
        View("indoor"),
        View("stairs"),
        View("ladder"),
        View("terrain", TERRAINS),  # as it stands now: broken walls are hindering (HC-5.17)
        View("wall", ["n", "e", "s", "w"]),  # a wall standing on that side of the square
        View("objects", ["light", "heavy", "held"] + (["face_down"] if pool else [])),
        View("figures", seats),
        View("stats", STATS),
        View("powers", list(POWERS)),  # powers working now (HC-3.7, HC-3.8)
        # per column at the figure's square: its power switched off (HC-3.8) or countered
        # (Outwit, P-DMG-10)
        View("power_state", [f"{how}/{c}" for how in ("off", "countered") for c in COLUMNS]),
        View("markers", ["smoke", "barrier"]),  # P-ATT-8 hindering, P-DEF-6 blocking
    ]
    if full_dial:  # HC-8.1 flag: the next clicks' values
        views.append(View("dial", [f"{k}/{c}" for k in range(1, DIAL_AHEAD + 1) for c in COLUMNS]))
    views += [
        View("decision", DECISION),
        View("phase", [p.name for p in Phase], constant=True),
        View("turn", ["actions_left", "round", "move_left"], constant=True),
        View("variant", list(variants), constant=True),  # the power variant being played
        View("vp", seats, constant=True),  # victory points so far / build total
    ]
    if pool:  # setup="play" (HC-2): the drafts, edges and the figure to place next
        views += [
            View("drafted", [f"{s}/{k}" for s in seats for k in pool], constant=True),
            View("budget", seats, constant=True),  # points drafted / build total
            View("edge", [f"{s}/{e}" for s in seats for e in "NESW"], constant=True),
            View("placing", pool, constant=True),
        ]
    return PlaneLayout(views)


class ClixView:
    def __init__(self, game: HeroclixBase):
        self.game = game
        self.pool = [f.id for f in game.scenario.pool] if game.setup == "play" else None
        self.planes = planes = plane_layout(
            game.num_players, game.full_dial_visibility, self.pool, game.playing_keys
        )
        self.channel_names = planes.channel_names
        self.shape = (len(planes), game.height, game.width)
        board = game.board
        static = np.zeros((len(planes), board.n_cells), dtype=np.float32)
        static[planes.start("space")] = board.exists
        static[planes.start("level")] = board.level / 2.0
        static[planes.start("indoor")] = game.indoor
        static[planes.start("stairs")] = game.stairs
        static[planes.start("ladder")] = game.ladder_to >= 0
        static[planes.channel("terrain", "water")] = game.water
        self.static = static
        self.terrain = planes["terrain"]
        self.power_channel = {k: planes.channel("powers", k) for k in POWERS}
        self.stat_channels = np.asarray([planes.channel("stats", s) for s in STATS])
        self.power_state = planes.start("power_state")
        self.dial_start = planes.start("dial") if game.full_dial_visibility else -1
        self.constant_start = planes.board_channels
        # setup="play"'s planes come last (plane_layout): the drafts, budgets, edges, placing
        self.setup_start = planes.start("drafted") if self.pool else len(planes)
        self._no_setup_constants = np.zeros(len(planes) - self.setup_start, dtype=np.float32)
        self.phase_at = [planes.channel("phase", p.name) - self.constant_start for p in Phase]
        self.turn_at = [
            planes.channel("turn", t) - self.constant_start
            for t in ("actions_left", "round", "move_left")
        ]
        self.variant_at = {
            k: planes.channel("variant", k) - self.constant_start for k in game.playing_keys
        }
        self.vp_at = [
            planes.channel("vp", seat_label(k)) - self.constant_start
            for k in range(game.num_players)
        ]
        self.held_channel = planes.channel("objects", "held")
        self.decision_start = planes.start("decision")
        self._board_key: tuple | None = None
        self._board_obs = static
        self._figure_tables()

    @functools.cached_property
    def frames(self):
        """The scene builder (:mod:`envs.heroclix.view.scene`), made on the first frame or panel:
        an env that never renders does not load the drawing code."""
        from envs.heroclix.view.scene import ClixScene

        return ClixScene(self)

    def _figure_tables(self) -> None:
        """Per figure and click, the row of values it writes on its square: ``stats`` then
        ``powers`` (one scatter per observation); the turn's columns are patched in."""
        game, planes = self.game, self.planes
        n = game.num_players
        self.figure_channel = np.asarray(
            [
                [
                    planes.channel("figures", seat_label((int(game.owner[f]) - p) % n))
                    for f in range(game.n_figures)
                ]
                for p in range(n)
            ],
            dtype=np.intp,
        )
        keys = list(POWERS)
        self.row_channels = np.concatenate(
            [self.stat_channels, [self.power_channel[k] for k in keys]]
        )
        clicks = game.dial_values.shape[1]
        rows = np.zeros((game.n_figures, clicks, len(self.row_channels)), dtype=np.float32)
        self.power_column = np.full((game.n_figures, clicks, len(keys)), -1, dtype=np.int8)
        for f in range(game.n_figures):
            for c in range(clicks):
                rows[f, c, :4] = game.dial_values[f, c] / STAT_SCALE
                rows[f, c, 6] = (game.dial_length[f] - c) / CLICK_SCALE
                if c < len(game.dial_powers[f]):
                    for col, key in enumerate(game.dial_powers[f][c]):
                        if key is not None:
                            rows[f, c, len(STATS) + keys.index(key)] = 1.0
                            self.power_column[f, c, keys.index(key)] = col
        rows[:, :, STATS.index("range")] = (game.range / STAT_SCALE)[:, None]
        rows[:, :, STATS.index("targets")] = (game.bolts / 5.0)[:, None]
        rows[:, :, STATS.index("flyer")] = game.flyer[:, None]
        for f in range(game.n_figures):  # P-SPD-4: a click showing Earthbound does not fly
            for c, shown in enumerate(game.dial_keys[f]):
                if has_trait(shown, GROUNDED):
                    rows[f, c, STATS.index("flyer")] = 0.0
        rows[:, :, STATS.index("points")] = (game.points / 100.0)[:, None]
        # The space declares [0, 1]: values past a plane's scale (a 150-point figure, defense
        # 25, a 12-click dial) saturate at 1, as the docstring says.
        self.rows = np.clip(rows, 0.0, 1.0)
        self.row_offsets = self.row_channels * game.n_cells
        self.figure_offset = self.figure_channel * game.n_cells
        self.tokens_column = STATS.index("tokens")
        self.acted_column = STATS.index("acted")
        self.soaring_column = STATS.index("soaring")

    def _board_planes(self, state: State) -> np.ndarray:
        """The static planes plus terrain, walls and objects as they stand (cached per
        terrain state: they change only when something breaks or an object moves)."""
        key = (
            state.blocking.tobytes(),
            state.rubble.tobytes(),
            state.walls_intact.tobytes(),
            state.objects.tobytes(),
            state.objects_placed,
            state.smoke.tobytes(),
            state.barrier.tobytes(),
        )
        if key == self._board_key:
            return self._board_obs
        game, planes = self.game, self.planes
        obs = self.static.copy()
        hindering = game.hindering(state, movement=False) & ~game.water
        blocking = state.blocking & game.board.exists
        terrain = obs[self.terrain]
        terrain[1] = hindering & ~blocking
        terrain[2] = blocking
        terrain[0] = game.board.exists & ~hindering & ~blocking & ~game.water
        obs[planes["wall"]] = game.walls.standing_sides(state.walls_intact).T
        obs[planes.channel("markers", "smoke")] = state.smoke >= 0
        obs[planes.channel("markers", "barrier")] = state.barrier >= 0
        lying = state.objects >= 0
        kinds = game.objects.kinds
        if self.pool and state.objects_placed < len(game.objects):  # HC-2.7: face down
            obs[planes.channel("objects", "face_down"), state.objects[lying]] = 1.0
        else:
            for kind in (0, 1):
                obs[
                    planes.channel("objects", "heavy" if kind else "light"),
                    state.objects[lying & (kinds == kind)],
                ] = 1.0
        obs.setflags(write=False)
        self._board_key, self._board_obs = key, obs
        return obs

    def observe(self, state: State, player: int) -> np.ndarray:
        game = self.game
        obs = self._board_planes(state).copy()
        shown = state.cell != NO_CELL
        if state.passenger != NO_FIGURE:
            shown[state.passenger] = False  # carried: shown by decision:passenger
        flat = obs.reshape(-1)
        stamp_figures(
            flat,
            game.n_cells,
            shown,
            state.cell,
            state.click,
            self.figure_offset[player],
            self.rows,
            self.row_offsets,
            self.tokens_column,
            state.tokens,
            self.acted_column,
            state.acted,
            self.soaring_column,
            state.mode,
            SOAR,
            state.held,
            game.object_heavy,
            self.held_channel * game.n_cells,
            game.dial_values,
            self.dial_start * game.n_cells,
            DIAL_AHEAD,
            STAT_SCALE,
        )
        # HC-3.8, P-DMG-10: they do not work (count_nonzero is much cheaper than .any())
        if np.count_nonzero(state.power_off) or state.outwits:
            self._powers_off(state, obs, shown)
        for target, stat, delta, _ in state.perplex:  # P-DMG-9: the values as they are now
            if shown[target]:
                at = self.row_offsets[stat] + state.cell[target]
                flat[at] = min(1.0, max(0.0, flat[at] + delta / STAT_SCALE))
        decision = self.decision_start
        if state.selected != NO_FIGURE and state.cell[state.selected] != NO_CELL:
            obs[decision, state.cell[state.selected]] = 1.0
        if state.passenger != NO_FIGURE:
            obs[decision + 1, state.cell[state.selected]] = 1.0  # it rides with the carrier
        if state.tk_object != NO_OBJECT and state.objects[state.tk_object] >= 0:
            obs[decision + 2, state.objects[state.tk_object]] = 1.0
        for target in state.targets:
            if state.cell[target] != NO_CELL:
                obs[decision + 3, state.cell[target]] = 1.0
        if state.interrupt:  # the figure asked about, and the damage at stake (/10)
            obs[decision + 4, state.cell[state.interrupt[2]]] = min(
                1.0, state.interrupt[3] / CLICK_SCALE
            )
        if self.pool:
            self._stamp_constants_with_setup(state, player, obs, self.pool)
        else:
            self._stamp_constants(state, player, obs)
        return obs.reshape(self.shape)

    def _stamp_constants(self, state: State, player: int, obs: np.ndarray) -> None:
        # The board planes leave the constant planes zero, so only those that are not zero
        # are written, a row each, straight from the state (no list of values: this runs
        # every step). Values at or below zero stay zero; those above one saturate, as the
        # space declares.
        start, game = self.constant_start, self.game
        obs[start + self.phase_at[state.phase]] = 1.0
        turn = self.turn_at
        # Leadership can add one action to a turn (P-DMG-11), so that is the plane's top
        value = state.actions_left / (game.actions_per_turn + 1)
        if value > 0.0:
            obs[start + turn[0]] = value if value < 1.0 else 1.0
        value = state.round / game.max_rounds
        if value > 0.0:
            obs[start + turn[1]] = value if value < 1.0 else 1.0
        value = (state.move_budget - state.move_spent) / CLICK_SCALE
        if value > 0.0:
            obs[start + turn[2]] = value if value < 1.0 else 1.0
        if state.variant:
            obs[start + self.variant_at[state.variant]] = 1.0
        n_players, total, vp_at = game.num_players, game.build_total, self.vp_at
        for seat, points in enumerate(state.vp):
            value = points / total
            if value > 0.0:
                obs[start + vp_at[(seat - player) % n_players]] = value if value < 1.0 else 1.0

    def _stamp_constants_with_setup(
        self, state: State, player: int, obs: np.ndarray, pool: list[str]
    ) -> None:
        self._stamp_constants(state, player, obs)
        constants = self._no_setup_constants.copy()
        self._setup_constants(state, player, constants, pool)
        # maximum/minimum rather than np.clip, whose Python wrapper costs more than the work
        np.minimum(np.maximum(constants, 0.0, out=constants), 1.0, out=constants)
        obs[self.setup_start :] = constants[:, None]

    def _powers_off(self, state: State, obs: np.ndarray, shown: np.ndarray) -> None:
        """Zero the powers switched off (HC-3.8) or countered (P-DMG-10) and mark them on the
        ``power_state`` planes."""
        countered = np.zeros_like(state.power_off)
        for target, col, _ in state.outwits:
            countered[target, col] = True
        alive = shown.nonzero()[0]
        cells = state.cell[alive].astype(np.intp)
        column = self.power_column[alive, state.click[alive].astype(np.intp)]
        either = state.power_off[alive] | countered[alive]
        off = np.take_along_axis(either, np.maximum(column, 0), axis=1) & (column >= 0)
        flat = obs.reshape(-1)
        which, keys = off.nonzero()
        flat[self.row_offsets[len(STATS) + keys] + cells[which]] = 0.0
        for k, how in enumerate((state.power_off, countered)):
            for i, figure in enumerate(alive.tolist()):
                for col in np.flatnonzero(how[figure]).tolist():
                    obs[self.power_state + 4 * k + col, cells[i]] = 1.0

    def _setup_constants(
        self, state: State, player: int, constants: np.ndarray, pool: list[str]
    ) -> None:
        game, planes, start = self.game, self.planes, self.setup_start
        n = game.num_players
        drafted = planes.start("drafted") - start
        budget = planes.start("budget") - start
        edge = planes.start("edge") - start
        kinds = len(pool)
        for figure in np.flatnonzero(state.drafted):
            k = (int(game.owner[figure]) - player) % n
            constants[drafted + k * kinds + int(game.kind[figure])] += 1.0 / MAX_COPIES
            constants[budget + k] += game.points[figure] / game.build_total
        for seat, claimed in enumerate(state.edges):
            if claimed:
                constants[edge + ((seat - player) % n) * 4 + "NESW".index(claimed)] = 1.0
        if state.phase is Phase.PLACE_FIGURE and state.selected != NO_FIGURE:
            constants[planes.start("placing") - start + int(game.kind[state.selected])] = 1.0

    # -- names ----------------------------------------------------------------------------
    def action_to_string(self, state: State, action: int) -> str:
        game = self.game
        decoded = game.layout.decode(action)
        if state.phase is Phase.VARIANT:
            return playing(state).describe(game, state, decoded)
        if state.phase is Phase.INTERRUPT:
            return interrupt_action_name(game, state, decoded)
        if not decoded.on_cell:
            if (
                decoded.kind == ActionKind.POWER
            ):  # a power's variant of the action (envs.heroclix.powers.variant_base)
                return (
                    f"{game.variant_keys[decoded.index].replace('_', ' ')} "
                    f"{game.label(state.selected)}"
                )
            if decoded.kind == ActionKind.SWITCH_OFF:
                return f"switch off {COLUMNS[decoded.param]} power"
            if decoded.kind == ActionKind.DRAFT:
                return f"draft {game.scenario.pool[decoded.index].name}"
            if decoded.kind == ActionKind.EDGE:
                return f"take the {EDGES[decoded.index]} edge"
            return decoded.name.replace("_", " ")
        cell = decoded.cell
        where = game.cell_label(cell)
        kind = decoded.kind
        mover = game.label(state.selected) if state.selected != NO_FIGURE else "figure"
        if kind == "select":
            return f"select {game.who(state, cell)} {where}"
        if kind in ("move", "soar"):
            return f"{'move' if kind == 'move' else 'soar'} {mover} to {where}"
        if kind.startswith("wall_"):
            return f"break the {SIDE_NAMES['nesw'.index(kind[-1])]} wall of {where}"
        if kind in ("place", "place_soar"):
            return f"{kind.replace('_', ' ')} {mover} at {where}"
        if kind in ("smash", "tk_object", "pick_up", "tk_move", "drop", "place_object"):
            return f"{kind.replace('_', ' ')} {where}"
        return f"{kind.replace('_', ' ')} {game.who(state, cell)} {where}"

    # -- text and frames ------------------------------------------------------------------
    def caption(self, state: State) -> str:
        game = self.game
        if state.phase is Phase.GAME_OVER:
            return (
                "game over: " + ", ".join(game.player_names[w] for w in state.winners) + " won"
                if state.winners
                else "game over: draw"
            )
        return (
            f"round {state.round + 1} | {game.player_names[state.seat]} | "
            f"{state.actions_left} action(s) left | {state.phase.name.lower()}"
        )

    def victory_points(self, state: State) -> tuple[float, ...]:
        """The tally the game ends with if it ended now (``game.scoreboard``: KOs scored plus
        the survivors' points, HC-7.5-7.8), not ``state.vp``'s KO points alone, so that the
        panel agrees with the result."""
        board = self.game.scoreboard(state)
        return tuple(state.vp) if board is None else board.values

    def status_lines(self, state: State) -> list[str]:
        """Per seat: victory points, each figure's click / dial length and a ``*`` per
        action token (the text board's lines: the transcripts' goldens hold them)."""
        game = self.game
        vp = self.victory_points(state)
        lines = []
        for seat in range(game.num_players):
            figures = [
                f"{game.label(f)} {int(state.click[f])}/{int(game.dial_length[f])}"
                + ("*" * int(state.tokens[f]))
                for f in game.alive(state, seat)
            ]
            lines.append(
                f"{game.player_names[seat]} ({vp[seat]:g} VP): "
                + (", ".join(figures) or "no figures")
            )
        return lines

    def panel_lines(self, state: State) -> list[str]:
        """The frame's status panel: per seat a line (victory points, starting edge, whose
        turn), then one per figure on the map: its frame label (the pieces'), name, click of
        the dial, action tokens, flight, what it holds, whether it is carried."""
        game = self.game
        labels = self.frames.labels
        edges = self.frames.start_seats(state)
        vp = self.victory_points(state)
        lines = []
        for seat in range(game.num_players):
            edge = next((e for e, s in edges.items() if s == seat), "")
            lines.append(
                f"{game.player_names[seat]}: {vp[seat]:g} VP"
                + (f", edge {edge}" if edge else "")
                + (" (to act)" if seat == state.seat and state.phase is not Phase.GAME_OVER else "")
            )
            figures = [
                f
                for f in range(game.n_figures)
                if game.owner[f] == seat and state.cell[f] != NO_CELL
            ]
            for f in figures:
                notes = [f"click {int(state.click[f]) + 1}/{int(game.dial_length[f])}"]
                if state.tokens[f]:
                    notes.append(f"{int(state.tokens[f])} token" + "s" * int(state.tokens[f] > 1))
                if state.mode[f] == SOAR:
                    notes.append("soaring")
                if state.held[f] != NO_OBJECT:
                    notes.append(f"holds {game.objects.names[state.held[f]].replace('_', ' ')}")
                if f == state.passenger:
                    notes.append("carried")
                lines.append(f"  {labels[f]} {game.label(f)}: " + ", ".join(notes))
            if not figures:
                lines.append("  no figures")
        return lines

    def render_text(self, state: State) -> str:
        """Per square: the owner letter and figure number, or the terrain glyph (with
        ``o`` for an object, ``'`` for elevated squares)."""
        game = self.game
        source = game.map.board
        lying = game.objects.lying(state.objects)

        def token(cell: int) -> str:
            figure = int(state.occupant[cell])
            if figure != NO_FIGURE:
                return f"{chr(ord('A') + int(game.owner[figure]))}{figure:<2d}"
            mark = "o" if lying[cell] else TERRAIN_GLYPHS[int(game.board.terrain[cell])]
            if state.rubble[cell]:
                mark = "%"
            if not state.blocking[cell] and game.board.terrain[cell] == Terrain.BLOCKING:
                mark = "%"
            return f"{mark}{chr(39) if game.board.level[cell] else ' '} "

        rows = [line.rstrip() for line in text_grid(game.board, source.height, source.width, token)]
        return "\n".join(rows + [self.caption(state)] + self.status_lines(state))

    def scene(self, state: State, events: list[Event] | None = None) -> Scene:
        """The frame's scene (:mod:`envs.heroclix.view.scene`); the caption ends with the texts
        of the last decision's events."""
        texts = [e.text for e in events or ()]
        caption = self.caption(state) + (" | " + "; ".join(texts) if texts else "")
        return self.frames.scene(state, events, caption, self.panel_lines(state))
