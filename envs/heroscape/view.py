"""Heroscape as seen by players: observation planes, action names, text and scenes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.game import Event
from ..core.render import Piece, Scene
from .data import Terrain
from .state import NO_CELL, NO_FIGURE, Phase, State

if TYPE_CHECKING:  # pragma: no cover
    from .rules import HeroscapeGame

LEVEL_SCALE = 10.0
STAT_SCALE = 10.0
TERRAIN_COLORS = {int(Terrain.NORMAL): (126, 168, 96), int(Terrain.WATER): (80, 140, 205),
                  int(Terrain.SHADOW): (96, 88, 120)}
TERRAIN_NAMES = {int(Terrain.NORMAL): "normal", int(Terrain.WATER): "water", int(Terrain.SHADOW): "shadow"}
TERRAIN_GLYPHS = {int(Terrain.NORMAL): "n", int(Terrain.WATER): "w", int(Terrain.SHADOW): "s"}


class HeroscapeView:
    def __init__(self, game: "HeroscapeGame"):
        from .rules import MAX_CARDS

        self.game = game
        n = game.num_players
        names = ["space", "level", "water", "shadow", "objective"]
        names += [f"figures@seat+{k}" for k in range(n)]
        names += [f"card@seat+{k}:slot{s}" for k in range(n) for s in range(MAX_CARDS)]
        names += ["move", "range", "attack", "defense", "double_space", "height"]
        names += ["moved", "attacked", "chosen_card", "selected", "destination"]
        self.scalar_start = len(names)
        names += [f"phase:{p.name}" for p in Phase]
        names += ["round"] + [f"hold_rounds@seat+{k}" for k in range(n)]
        names += [f"figures_left@seat+{k}" for k in range(n)]
        self.channel_names = tuple(names)
        self.index = {name: i for i, name in enumerate(names)}
        self.shape = (len(names), game.height, game.width)
        board = game.board
        static = np.zeros((len(names), board.n_cells), dtype=np.float32)
        static[0, board.exists] = 1.0
        static[1] = board.level / LEVEL_SCALE
        static[2] = board.terrain == Terrain.WATER
        static[3] = board.terrain == Terrain.SHADOW
        static[4, list(game.hold_cells)] = 1.0
        self.static = static
        slot_of = {}
        for seat, cards in enumerate(game.player_cards):
            for slot, card in enumerate(cards):
                slot_of[card] = slot
        self.fig_slot = np.array([slot_of[int(c)] for c in game.fig_card], dtype=np.int64)
        self.fig_stats = np.stack([game.fig_move, game.fig_range, game.fig_attack, game.fig_defense,
                                   game.fig_double, game.fig_height], axis=1).astype(np.float32) / STAT_SCALE
        self.fig_stats[:, 4] = game.fig_double  # a flag, not a stat
        self.max_cards = MAX_CARDS
        stats0, flags0 = self.index["move"], self.index["moved"]
        figure_channels = list(range(stats0, stats0 + 6)) + list(range(flags0, flags0 + 4))
        self._channels = []  # per observer: int[F, 12] channels of each figure's planes
        for player in range(n):
            seats = (game.fig_owner.astype(np.int64) - player) % n
            rows = np.empty((game.n_figures, 12), dtype=np.intp)
            rows[:, 0] = 5 + seats
            rows[:, 1] = 5 + n + seats * MAX_CARDS + self.fig_slot
            rows[:, 2:] = figure_channels
            self._channels.append(rows)
        self._values = np.zeros((game.n_figures, 12), dtype=np.float32)
        self._values[:, :2] = 1.0
        self._values[:, 2:8] = self.fig_stats
        self._doubles = np.flatnonzero(game.fig_double)

    def observe(self, state: State, player: int) -> np.ndarray:
        game = self.game
        n = game.num_players
        obs = self.static.copy()
        cells = state.cell
        alive = np.flatnonzero(cells != NO_CELL)
        # Per figure: 12 (channel, value) pairs written to each of its spaces in one go.
        channels = self._channels[player]
        values = self._values.copy()
        values[:, 8] = state.moved
        values[:, 9] = state.attacked
        values[:, 10] = game.fig_card == state.card
        if state.selected != NO_FIGURE:
            values[state.selected, 11] = 1.0
        obs[channels[alive], cells[alive].astype(np.intp)[:, None]] = values[alive]
        if self._doubles.size:
            second = self._doubles[state.cell2[self._doubles] != NO_CELL]
            obs[channels[second], state.cell2[second].astype(np.intp)[:, None]] = values[second]
        if state.destination != NO_CELL:
            obs[self.index["destination"], state.destination] = 1.0
        scalars = [0.0] * (self.shape[0] - self.scalar_start)
        scalars[int(state.phase)] = 1.0
        base = len(Phase)
        scalars[base] = state.round / game.round_cap
        owners = game.fig_owner[alive].tolist()
        for seat in range(n):
            k = (seat - player) % n
            scalars[base + 1 + k] = state.hold_rounds[seat] / max(1, game.hold_target)
            scalars[base + 1 + n + k] = owners.count(seat) / STAT_SCALE
        obs[self.scalar_start:] = np.array(scalars, dtype=np.float32)[:, None]
        return obs.reshape(self.shape)

    # -- names ----------------------------------------------------------------------------
    def figure_at(self, state: State, cell: int) -> str:
        figure = int(state.occupant[cell])
        return self.game.figure_label[figure] if figure != NO_FIGURE else "nobody"

    def action_to_string(self, state: State, action: int) -> str:
        game = self.game
        decoded = game.layout.decode(action)
        if decoded.special is not None:
            if decoded.special.startswith("card_") and state.phase is Phase.CHOOSE_CARD:
                slot = int(decoded.special[len("card_"):])
                cards = game.player_cards[state.seat] if state.seat >= 0 else []
                if slot < len(cards):
                    return f"choose {game.cards[cards[slot]].name}"
            return decoded.special.replace("_", " ")
        where = game.cell_name(decoded.cell)
        if decoded.plane == "select":
            verb = "move with" if state.phase is Phase.MOVE_SELECT else "attack with"
            return f"{verb} {self.figure_at(state, decoded.cell)} {where}"
        if decoded.plane in ("move", "tail"):
            who = game.figure_label[state.selected] if state.selected != NO_FIGURE else "figure"
            return f"{'move' if decoded.plane == 'move' else 'other half'} {who} to {where}"
        return f"attack {self.figure_at(state, decoded.cell)} {where}"

    # -- text and frames ------------------------------------------------------------------
    def caption(self, state: State) -> str:
        if state.phase is Phase.GAME_OVER:
            return ("game over: " + ", ".join(f"player_{w}" for w in state.winners) + " won"
                    if state.winners else "game over: draw")
        card = f" | {self.game.cards[state.card].name}" if state.card >= 0 else ""
        return f"round {state.round + 1} | player_{state.seat}{card} | {state.phase.name.lower()}"

    def status_lines(self, state: State) -> list[str]:
        game = self.game
        lines = []
        for seat in range(game.num_players):
            alive = [game.figure_label[f] for f in np.flatnonzero((game.fig_owner == seat) & (state.cell != NO_CELL))]
            lines.append(f"player_{seat}: {len(alive)} figures" + (
                f", hold {state.hold_rounds[seat]}" if game.victory == "hold" else ""))
        return lines

    def render_text(self, state: State) -> str:
        game = self.game
        source = game.battlefield.board
        rows = []
        for row in range(source.height):
            tokens = []
            for col in range(source.width):
                cell = row * game.width + col
                if not game.board.exists[cell]:
                    tokens.append(" .  ")
                    continue
                figure = int(state.occupant[cell])
                level = int(game.board.level[cell])
                mark = TERRAIN_GLYPHS[int(game.board.terrain[cell])]
                if figure != NO_FIGURE:
                    mark = f"{chr(ord('A') + int(game.fig_owner[figure]))}{figure}"
                tokens.append(f"{level}{mark:<3}")
            rows.append(("  " if row % 2 else "") + "".join(tokens).rstrip())
        return "\n".join(rows + [self.caption(state)] + self.status_lines(state))

    def scene(self, state: State, events: list[Event] | None = None) -> Scene:
        game = self.game
        source = game.battlefield.board
        width = game.width

        def local(cell: int) -> int:
            row, col = divmod(int(cell), width)
            return row * source.width + col

        pieces = []
        for figure in np.flatnonzero(state.cell != NO_CELL):
            cells = game.cells_of(state, int(figure))
            card = game.cards[int(game.fig_card[figure])]
            label = "".join(w[0] for w in card.name.split())[:3] + (
                str(game.figure_label[figure].split("#")[-1]) if card.figures > 1 else "")
            pieces.append(Piece(local(cells[0]), label, owner=int(game.fig_owner[figure]),
                                value=f"{card.attack}/{card.defense}",
                                cells=tuple(local(c) for c in cells[1:])))
        arrow, dice = None, []
        caption = self.caption(state)
        if events:
            moves = [e for e in events if len(e.cells) == 2]
            if moves:
                arrow = (local(moves[-1].cells[0]), local(moves[-1].cells[1]))
            dice = [d for e in events for d in e.dice]
            caption += " | " + events[-1].text
        return Scene(board=source, terrain_colors=TERRAIN_COLORS, terrain_names=TERRAIN_NAMES,
                     pieces=pieces, cell_marks={local(c): "X" for c in game.hold_cells},
                     arrow=arrow, dice=dice, caption=caption, status_lines=self.status_lines(state))
