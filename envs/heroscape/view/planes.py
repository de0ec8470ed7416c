"""Heroscape as seen by players: observation planes, action names, text and scenes.

The observation is declared once, as the named views of :func:`plane_layout`; every channel
index below is asked of that layout, and ``channel_names`` come from it. Seats are relative
to the observer (``seat+k`` = k seats after it).
"""

from __future__ import annotations

import functools
import re

import numpy as np

from envs.core.dice_faces import register_symbol_die
from envs.core.events import Event, last_action
from envs.core.planes import PlaneLayout, View
from envs.core.scene import DiceGroup, Piece, Scene
from envs.core.textboard import text_grid
from envs.heroscape.data.battlefield import Terrain
from envs.heroscape.game import MAX_CARDS, ActionKind, HeroscapeBase
from envs.heroscape.state import NO_CELL, NO_FIGURE, Phase, State
from envs.heroscape.view.stamp import STAT_SCALE, stamp

LEVEL_SCALE = 10.0
TERRAIN_COLORS = {
    int(Terrain.NORMAL): (126, 168, 96),
    # pale water and dark shadow: no seat colour comes near them (tests/test_frames.py)
    int(Terrain.WATER): (140, 200, 220),
    int(Terrain.SHADOW): (80, 72, 90),
}
TERRAIN_NAMES = {
    int(Terrain.NORMAL): "normal",
    int(Terrain.WATER): "water",
    int(Terrain.SHADOW): "shadow",
}
TERRAIN_GLYPHS = {int(Terrain.NORMAL): "n", int(Terrain.WATER): "w", int(Terrain.SHADOW): "s"}

# -- frames (scene) ------------------------------------------------------------------------
register_symbol_die(
    "heroscape_combat", {"skull": (("skull",), ""), "shield": (("shield",), ""), "blank": ((), "")}
)
PHASE_WORDS = {
    Phase.CHOOSE_CARD: "choosing an army card to play",
    Phase.MOVE_SELECT: "choosing a figure to move (or end movement)",
    Phase.MOVE_DEST: "choosing where the figure moves",
    Phase.MOVE_TAIL: "placing the other half of a double-space figure",
    Phase.ATTACK_SELECT: "choosing a figure to attack with (or end the turn)",
    Phase.ATTACK_TARGET: "choosing the figure to attack",
    Phase.GAME_OVER: "game over",
}
# The attack event of envs.heroscape.combat.attack_text; its dice are the attack dice
# (``attack_dice`` of them), then the defense dice.
ATTACK_TEXT = re.compile(
    r"^(?P<attacker>.+) attacks (?P<defender>.+): (?P<skulls>\d+) skulls? from "
    r"(?P<attack_dice>\d+) attack dic?e(?: \([^)]*\))? vs (?P<shields>\d+) shields? from "
    r"(?P<defense_dice>\d+) defense dic?e(?: \([^)]*\))?: (?P<outcome>\w+)$"
)
BADGE = "attack / defense dice of its card"
HOLD_MARK = "objective: hold it to win"

STATS = ("move", "range", "attack", "defense", "double_space", "height")  # of a figure's card
TURN_FLAGS = ("moved", "attacked", "chosen_card", "selected")  # of a figure, this turn


def seat_label(k: int) -> str:
    return f"seat+{k}"


def card_label(k: int, slot: int) -> str:
    return f"{seat_label(k)}/slot{slot}"


def plane_layout(num_players: int) -> PlaneLayout:
    """The observation's channels, in order."""
    seats = [seat_label(k) for k in range(num_players)]
    return PlaneLayout(
        [
            View("space"),  # 1 on the battlefield's spaces
            View("level"),  # level / 10
            View("water"),
            View("shadow"),
            View("objective"),  # the hold zone's spaces (hold scenarios)
            View("figures", seats),  # each seat's figures
            View("card", [card_label(k, s) for k in range(num_players) for s in range(MAX_CARDS)]),
            View("stats", STATS),  # at each figure's spaces: its card's numbers / 10, a flag
            View("this_turn", TURN_FLAGS),  # at each figure's spaces
            View("destination"),  # the first space already chosen for a double-space move
            View("phase", [p.name for p in Phase], constant=True),
            View("round", constant=True),  # round / round_cap
            View("hold_rounds", seats, constant=True),  # / hold_rounds needed
            View("figures_left", seats, constant=True),  # / 10
        ]
    )


# What one figure writes at each of its spaces, one value per column (see ``observe``).
FIGURE_COLUMNS = PlaneLayout(
    [View("figures"), View("card"), View("stats", STATS), View("this_turn", TURN_FLAGS)]
)


@functools.lru_cache(maxsize=256)
def hold_array(hold_rounds: tuple[int, ...]) -> np.ndarray:
    """The seats' hold counts as the observation kernel takes them (kept: they rarely change)."""
    array = np.asarray(hold_rounds, dtype=np.int64)
    array.setflags(write=False)
    return array


class HeroscapeView:
    def __init__(self, game: HeroscapeBase):
        self.game = game
        n = game.num_players
        self.planes = planes = plane_layout(n)
        self.channel_names = planes.channel_names
        self.shape = (len(planes), game.height, game.width)
        board = game.board
        static = np.zeros((len(planes), board.n_cells), dtype=np.float32)
        static[planes.start("space"), board.exists] = 1.0
        static[planes.start("level")] = board.level / LEVEL_SCALE
        static[planes.start("water")] = board.terrain == Terrain.WATER
        static[planes.start("shadow")] = board.terrain == Terrain.SHADOW
        static[planes.start("objective"), list(game.hold_cells)] = 1.0
        self.static = static
        self.constant_start = planes.board_channels
        self.phase_at = [planes.channel("phase", p.name) - self.constant_start for p in Phase]
        self.round_at = planes.start("round") - self.constant_start
        self.hold_at = [
            planes.channel("hold_rounds", seat_label(k)) - self.constant_start for k in range(n)
        ]
        self.left_at = [
            planes.channel("figures_left", seat_label(k)) - self.constant_start for k in range(n)
        ]
        self.destination_channel = planes.start("destination")
        self._figure_tables()

    def _figure_tables(self) -> None:
        """Per observer, the channel of each figure's columns; the values that never change."""
        game, planes, cols = self.game, self.planes, FIGURE_COLUMNS
        n = game.num_players
        slot_of = {card: slot for cards in game.player_cards for slot, card in enumerate(cards)}
        fig_slot = [slot_of[int(c)] for c in game.fig_card]
        stat_source = {
            "move": game.fig_move,
            "range": game.fig_range,
            "attack": game.fig_attack,
            "defense": game.fig_defense,
            "double_space": game.fig_double,
            "height": game.fig_height,
        }
        # Cards may go past the scale (MAX_STAT 20, MAX_HEIGHT 20; published cards stay under
        # 10): such a stat reads 1, as the docstring says, so the planes stay in their [0, 1] space.
        fig_stats = np.minimum(
            np.stack([stat_source[s] for s in STATS], axis=1).astype(np.float32) / STAT_SCALE, 1.0
        )
        fig_stats[:, STATS.index("double_space")] = game.fig_double  # a flag, not a stat
        channels = []  # per observer: int[F, columns] channel of each figure's columns
        for player in range(n):
            rows = np.empty((game.n_figures, len(cols)), dtype=np.intp)
            for figure in range(game.n_figures):
                k = (int(game.fig_owner[figure]) - player) % n
                rows[figure, cols.start("figures")] = planes.channel("figures", seat_label(k))
                rows[figure, cols.start("card")] = planes.channel(
                    "card", card_label(k, fig_slot[figure])
                )
            rows[:, cols["stats"]] = [planes.channel("stats", s) for s in STATS]
            rows[:, cols["this_turn"]] = [planes.channel("this_turn", f) for f in TURN_FLAGS]
            channels.append(rows)
        # per observer, the flat offsets into the (channels, cells) observation, then each
        # figure's owner, card and double-space flag (what ``stamp`` reads of a figure)
        extra = np.stack((game.fig_owner, game.fig_card, game.fig_double), axis=1)
        self._tables = [
            np.concatenate((rows * game.board.n_cells, extra), axis=1).astype(np.int64)
            for rows in channels
        ]
        self._values = np.zeros((game.n_figures, len(cols)), dtype=np.float32)
        self._values[:, cols["figures"]] = 1.0
        self._values[:, cols["card"]] = 1.0
        self._values[:, cols["stats"]] = fig_stats
        self._turn_cols = np.array(
            [cols.channel("this_turn", f) for f in TURN_FLAGS], dtype=np.int64
        )
        self._flat_static = self.static.reshape(-1)
        start = self.constant_start
        self._seat_channels = [
            np.array(
                [
                    [start + self.hold_at[(seat - player) % n] for seat in range(n)],
                    [start + self.left_at[(seat - player) % n] for seat in range(n)],
                ],
                dtype=np.int64,
            )
            for player in range(n)
        ]
        self._phase_channels = [start + at for at in self.phase_at]
        self._hold_scale = max(1, game.hold_target)
        # the observation kernel's scratch: one value per constant channel, a count per seat
        self._constants = np.zeros(self.shape[0] - self.constant_start, dtype=np.float32)
        self._counts = np.zeros(game.num_players, dtype=np.int64)

    def observe(self, state: State, player: int) -> np.ndarray:
        destination = state.destination
        if destination != NO_CELL:
            destination += self.destination_channel * self.game.board.n_cells
        start = self.constant_start
        flat = self._flat_static.copy()
        stamp(
            flat,
            self._tables[player],
            self._values,
            self._turn_cols,
            state.cell,
            state.cell2,
            state.moved,
            state.attacked,
            state.card,
            state.selected,
            destination,
            self.shape[0],
            start,
            self._phase_channels[state.phase],
            start + self.round_at,
            state.round / self.game.round_cap,
            hold_array(tuple(state.hold_rounds)),
            self._hold_scale,
            self._seat_channels[player],
            self._constants,
            self._counts,
        )
        return flat.reshape(self.shape)

    # -- names ----------------------------------------------------------------------------
    def figure_at(self, state: State, cell: int) -> str:
        figure = int(state.occupant[cell])
        return self.game.figure_label[figure] if figure != NO_FIGURE else "nobody"

    def action_to_string(self, state: State, action: int) -> str:
        game = self.game
        decoded = game.layout.decode(action)
        if not decoded.on_cell:
            if decoded.kind == ActionKind.CARD and state.phase is Phase.CHOOSE_CARD:
                cards = game.player_cards[state.seat] if state.seat >= 0 else []
                if decoded.param < len(cards):
                    return f"choose {game.cards[cards[decoded.param]].name}"
            return decoded.name.replace("_", " ")
        where = game.cell_name(decoded.cell)
        if decoded.kind == ActionKind.SELECT:
            verb = "move with" if state.phase is Phase.MOVE_SELECT else "attack with"
            return f"{verb} {self.figure_at(state, decoded.cell)} {where}"
        if decoded.kind in (ActionKind.MOVE, ActionKind.TAIL):
            who = game.figure_label[state.selected] if state.selected != NO_FIGURE else "figure"
            return f"{'move' if decoded.kind == 'move' else 'other half'} {who} to {where}"
        return f"attack {self.figure_at(state, decoded.cell)} {where}"

    # -- text and frames ------------------------------------------------------------------
    def caption(self, state: State) -> str:
        if state.phase is Phase.GAME_OVER:
            return (
                "game over: " + ", ".join(f"player_{w}" for w in state.winners) + " won"
                if state.winners
                else "game over: draw"
            )
        card = f" | {self.game.cards[state.card].name}" if state.card >= 0 else ""
        return f"round {state.round + 1} | player_{state.seat}{card} | {state.phase.name.lower()}"

    def status_lines(self, state: State) -> list[str]:
        game = self.game
        lines = []
        for seat in range(game.num_players):
            alive = [
                game.figure_label[f]
                for f in np.flatnonzero((game.fig_owner == seat) & (state.cell != NO_CELL))
            ]
            lines.append(
                f"player_{seat}: {len(alive)} figures"
                + (f", hold {state.hold_rounds[seat]}" if game.victory == "hold" else "")
            )
        return lines

    def render_text(self, state: State) -> str:
        """Per space: its level and terrain glyph, or the owner letter and figure number."""
        game = self.game
        board = game.board
        source = game.battlefield.board

        def token(cell: int) -> str:
            if not board.exists[cell]:
                return " .  "
            figure = int(state.occupant[cell])
            mark = TERRAIN_GLYPHS[int(board.terrain[cell])]
            if figure != NO_FIGURE:
                mark = f"{chr(ord('A') + int(game.fig_owner[figure]))}{figure}"
            return f"{int(board.level[cell])}{mark:<3}"

        # Odd rows are indented by half a token after trailing blanks are cut, so a row
        # without spaces keeps its indent.
        rows = [
            ("  " if row % 2 else "") + line.rstrip()
            for row, line in enumerate(text_grid(board, source.height, source.width, token))
        ]
        return "\n".join(rows + [self.caption(state)] + self.status_lines(state))

    # -- frames -------------------------------------------------------------------------
    def card_labels(self) -> list[str]:
        """Per card, a short label unique in the game: the initials of its name ("AA" for
        Ashwood Archers), longer where two cards would share them."""
        if not hasattr(self, "_card_labels"):
            labels: list[str] = []
            for card in self.game.cards:
                words = card.name.split()
                initials = "".join(w[0] for w in words).upper()
                tries = [initials, words[0][:2] + initials[1:], card.name.replace(" ", "")[:4]]
                label = next((t for t in tries if t not in labels), f"{tries[0]}{len(labels)}")
                labels.append(label)
            self._card_labels = labels
        return self._card_labels

    def figure_labels(self) -> list[str]:
        """Per figure, its card's label and, in a squad, its number ("AA2")."""
        if not hasattr(self, "_figure_labels"):
            game = self.game
            labels = []
            for figure in range(game.n_figures):
                card = int(game.fig_card[figure])
                squad = game.cards[card].figures > 1
                number = game.figure_label[figure].split("#")[-1].strip() if squad else ""
                labels.append(self.card_labels()[card] + number)
            self._figure_labels = labels
        return self._figure_labels

    def scene_caption(self, state: State) -> str:
        if state.phase is Phase.GAME_OVER:
            return self.caption(state)
        card = f" playing {self.game.cards[state.card].name}" if state.card >= 0 else ""
        return f"round {state.round + 1} | player_{state.seat}{card}: {PHASE_WORDS[state.phase]}"

    def scene_status(self, state: State) -> list[str]:
        """Per seat: figures left and, in a hold game, rounds the objective was held, in words."""
        game = self.game
        lines = []
        for seat in range(game.num_players):
            alive = int(((game.fig_owner == seat) & (state.cell != NO_CELL)).sum())
            hold = (
                f", objective held {state.hold_rounds[seat]} of {game.hold_target} rounds"
                if game.victory == "hold"
                else ""
            )
            lines.append(f"player_{seat}: {alive} figure{'s' * (alive != 1)} left{hold}")
        return lines

    def dice_groups(self, events: list[Event] | None) -> list[DiceGroup]:
        """An attack's dice as two groups, attack (skulls count) and defense (shields count)."""
        groups = []
        for event in events or []:
            match = ATTACK_TEXT.match(event.text) if event.dice else None
            if match is None:
                if event.dice:
                    groups.append(
                        DiceGroup(
                            event.kind.replace("_", " "),
                            "heroscape_combat",
                            tuple(event.dice),
                            "",
                            event.player,
                        )
                    )
                continue
            dice, skulls, shields = list(event.dice), int(match["skulls"]), int(match["shields"])
            split = min(int(match["attack_dice"]), len(dice))
            names = self.game.figure_label
            defender = names.index(match["defender"]) if match["defender"] in names else -1
            groups.append(
                DiceGroup(
                    f"attack: {match['attacker']}",
                    "heroscape_combat",
                    tuple(dice[:split]),
                    f"{skulls} skull{'s' * (skulls != 1)}",
                    event.player,
                    counted=tuple(face == "skull" for face in dice[:split]),
                )
            )
            groups.append(
                DiceGroup(
                    f"defense: {match['defender']}",
                    "heroscape_combat",
                    tuple(dice[split:]),
                    f"{shields} shield{'s' * (shields != 1)}: {match['outcome']}",
                    int(self.game.fig_owner[defender]) if defender >= 0 else None,
                    counted=tuple(face == "shield" for face in dice[split:]),
                )
            )
        return groups

    def scene(self, state: State, events: list[Event] | None = None) -> Scene:
        game = self.game
        local = game.padded.to_source
        labels, card_labels = self.figure_labels(), self.card_labels()
        pieces, key = [], {}
        for figure in np.flatnonzero(state.cell != NO_CELL):
            cells = game.cells_of(state, int(figure))
            card_index = int(game.fig_card[figure])
            card = game.cards[card_index]
            owner = int(game.fig_owner[figure])
            pieces.append(
                Piece(
                    local(cells[0]),
                    labels[figure],
                    owner=owner,
                    value=f"{card.attack}/{card.defense}",
                    cells=tuple(local(c) for c in cells[1:]),
                )
            )
            key[(card_labels[card_index], owner)] = card.name
        last = last_action(events, local)
        caption = self.scene_caption(state) + (" | " + last.text if events else "")
        return Scene(
            board=game.battlefield.board,
            terrain_colors=TERRAIN_COLORS,
            terrain_names=TERRAIN_NAMES,
            pieces=pieces,
            cell_marks={local(c): "X" for c in game.hold_cells},
            arrow=last.arrow,
            fallen=[
                local(e.cells[1])
                for e in events or []
                if len(e.cells) == 2
                and (found := ATTACK_TEXT.match(e.text))
                and found["outcome"] == "destroyed"
            ],
            dice=last.dice,
            caption=caption,
            status_lines=self.scene_status(state),
            dice_groups=self.dice_groups(events),
            badge_meaning=BADGE,
            key=[(label, name, owner) for (label, owner), name in key.items()],
            mark_names={"X": HOLD_MARK},
            arrow_meaning="last move or attack",
        )
