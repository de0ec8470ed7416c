"""Heroica as seen by players: observation planes, action names, text and scenes for video."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.game import Event
from ..core.render import Piece, Scene
from .legal import MOVE_VALUE
from .state import NO_CELL, HeroField, Phase, State

if TYPE_CHECKING:  # pragma: no cover
    from .rules import HeroicaGame

DIE_SYMBOLS = tuple(MOVE_VALUE)  # shield, sword, skull, sword_skull
GOLD_SCALE = 10.0
STEPS_SCALE = 10.0
KILLS_SCALE = 5.0
ITEM_GLYPHS = {"rocks": "R", "chest": "c", "life_potion": "l", "speed_potion": "s",
               "torch": "t", "scepter": "P"}
SPACE_COLOR = (196, 178, 140)


def bitset_to_array(bits: int, size: int) -> np.ndarray:
    """Cells of a Python-int bitset as a 0/1 float32 vector (bit i = cell i)."""
    raw = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size].astype(np.float32)


class HeroicaView:
    """Builds the (C, H, W) observation; the channel table is in ``heroica_v0``'s docstring."""

    def __init__(self, game: "HeroicaGame"):
        self.game = game
        names: list[str] = ["space", "start", "target"]
        names += [f"piece:{name}" for _, name in game.piece_kinds]
        names += [f"hero@seat+{k}" for k in range(game.num_players)]
        names += ["visited", "fight_target", "monster_selected", "move_back_from"]
        self.scalar_start = len(names)
        self.seat_features = (
            ["health", "healing", "gold", "life_potions", "speed_potions", "torch", "scepter"]
            + [f"weapon:{w}" for w in game.weapon_ids]
            + [f"kills:{m}" for m in game.monster_ids]
            + ["missions_won", "monster_player", "defeated_by_monsters"]
            + [f"hero:{h}" for h in game.hero_ids]
        )
        for k in range(game.num_players):
            names += [f"seat+{k}:{f}" for f in self.seat_features]
        names += [f"phase:{p.name}" for p in Phase]
        names += [f"die:{d}" for d in DIE_SYMBOLS]
        names += ["steps_left", "round", "monster_player_defeats", "mission", "store_gold"]
        names += [f"store:{w}" for w in game.weapon_ids]
        self._build_scalar_tables()
        self.channel_names = tuple(names)
        self.shape = (len(names), game.height, game.width)
        self.index = {name: i for i, name in enumerate(names)}
        n_cells = game.height * game.width
        self.static = []
        for m, board in enumerate(game.boards):
            planes = np.zeros((self.scalar_start, n_cells), dtype=np.float32)
            planes[0, board.exists] = 1.0
            planes[1, game.starts[m]] = 1.0
            planes[2, game.targets[m]] = 1.0
            self.static.append(planes)

    def _build_scalar_tables(self) -> None:
        # Per seat: one slot per feature; each slot reads one column of the Hero row
        # times a scale, or a bit of the weapons bitset, or the Hero one-hot.
        game = self.game
        n_weapons = len(game.weapon_ids)
        plain = [(HeroField.HEALTH, 1.0 / game.max_health), (HeroField.HEALING, 1.0),
                 (HeroField.GOLD, 1.0 / GOLD_SCALE), (HeroField.LIFE_POTIONS, 1.0),
                 (HeroField.SPEED_POTIONS, 1.0), (HeroField.TORCH, 1.0), (HeroField.SCEPTER, 1.0)]
        self._plain = [(int(col), scale) for col, scale in plain]
        self._kills = [(int(HeroField.KILLS) + k, 1.0 / KILLS_SCALE) for k in range(game.n_monster_kinds)]
        self._weapon_bits = [((i >> w) & 1) * 1.0 for i in range(1 << n_weapons) for w in range(n_weapons)]
        self._n_weapons = n_weapons
        n_heroes = len(game.hero_ids)
        self._hero_onehot = [[1.0 if h == k else 0.0 for k in range(n_heroes)] for h in range(n_heroes)]
        self._turn_features = len(Phase) + len(DIE_SYMBOLS) + 5 + n_weapons

    # -- observation ------------------------------------------------------------------------
    def observe(self, state: State, player: int) -> np.ndarray:
        game = self.game
        channels, height, width = self.shape
        # Board planes start from the mission's template; the constant planes are written
        # once below, never copied as zeros first.
        obs = np.empty((channels, height * width), dtype=np.float32)
        obs[: self.scalar_start] = self.static[state.mission]
        occupied = np.flatnonzero(state.piece)
        obs[3 + state.piece[occupied].astype(np.intp) - 1, occupied] = 1.0
        hero0 = self.index["hero@seat+0"]
        n = game.num_players
        hero_cells = state.heroes[:, HeroField.CELL].tolist()
        for seat in game.hero_seats():
            obs[hero0 + (seat - player) % n, hero_cells[seat]] = 1.0
        if state.visited:
            obs[self.index["visited"]] = bitset_to_array(state.visited, height * width)
        for name, cell in (("fight_target", state.fight_target), ("monster_selected", state.selected),
                           ("move_back_from", state.move_back_from)):
            if cell != NO_CELL:
                obs[self.index[name], cell] = 1.0
        obs[self.scalar_start:] = self._scalars(state, player)[:, None]
        return obs.reshape(self.shape)

    def _scalars(self, state: State, player: int) -> np.ndarray:
        # Plain Python then one conversion: at ~100 values this beats many small numpy ops.
        game = self.game
        n = game.num_players
        rows = state.heroes.tolist()
        weapon_bits = self._weapon_bits
        nw = self._n_weapons
        values: list[float] = []
        for k in range(n):
            row = rows[(player + k) % n]
            values += [row[col] * scale for col, scale in self._plain]
            weapons = row[HeroField.WEAPONS] * nw
            values += weapon_bits[weapons: weapons + nw]
            values += [row[col] * scale for col, scale in self._kills]
            hero = row[HeroField.HERO]
            values += [row[HeroField.MISSIONS_WON], 1.0 if hero < 0 else 0.0,
                       row[HeroField.DEFEATED_BY_MONSTERS]]
            values += self._hero_onehot[hero] if hero >= 0 else [0.0] * len(self._hero_onehot)
        turn = [0.0] * self._turn_features
        turn[int(state.phase)] = 1.0
        if state.die:
            turn[len(Phase) + DIE_SYMBOLS.index(state.die)] = 1.0
        base = len(Phase) + len(DIE_SYMBOLS)
        turn[base] = state.steps_left / STEPS_SCALE
        turn[base + 1] = state.round / game.max_rounds
        turn[base + 2] = state.monster_player_defeats / 2.0
        turn[base + 3] = state.mission / max(1, len(game.missions) - 1)
        turn[base + 4] = max(state.store_gold, 0) / GOLD_SCALE
        store = state.store_weapons * nw
        turn[base + 5:] = weapon_bits[store: store + nw]
        return np.array(values + turn, dtype=np.float32)

    # -- names ------------------------------------------------------------------------------
    def cell_text(self, state: State, cell: int) -> str:
        return self.game.board_of(state).label(cell)

    def piece_name(self, state: State, cell: int) -> str:
        game = self.game
        code = int(state.piece[cell])
        if code == 0:
            return "space"
        kind, name = game.piece_kinds[code - 1]
        if kind == "monster":
            return game.pieces.monsters[name].name
        return name.replace("_", " ")

    def action_to_string(self, state: State, action: int) -> str:
        game = self.game
        decoded = game.layout.decode(action)
        if decoded.special is not None:
            return decoded.special.replace("_", " ")
        where = self.cell_text(state, decoded.cell)
        phase = state.phase
        if decoded.plane == "step":
            if phase is Phase.MOVE_BACK:
                return f"move back to {where}"
            return f"step {where}"
        if decoded.plane == "place":
            return f"place monster {where}"
        # target plane: its meaning follows the phase
        if phase in (Phase.START, Phase.FIGHT_CHOOSE):
            return f"fight {self.piece_name(state, decoded.cell)} {where}"
        if phase is Phase.ROCKS_CHOOSE:
            return f"explore rocks {where}"
        if phase is Phase.SKILL_TARGET:
            return f"defeat {self.piece_name(state, decoded.cell)} {where}"
        if phase is Phase.MONSTER_SELECT:
            return f"select {self.piece_name(state, decoded.cell)} {where}"
        if phase is Phase.MONSTER_FIGHT_CHOOSE:
            seat = game.hero_at(state, decoded.cell)
            who = game.player_names[seat] if seat >= 0 else "nobody"
            return f"attack {who} {where}"
        return f"target {where}"

    # -- text and frames --------------------------------------------------------------------
    def status_lines(self, state: State) -> list[str]:
        game = self.game
        lines = []
        for seat in range(game.num_players):
            if seat == game.monster_seat:
                lines.append(f"P{seat} Monster Player  heroes defeated {state.monster_player_defeats}/2")
                continue
            h = state.heroes[seat]
            weapons = [w for i, w in enumerate(game.weapon_ids) if int(h[HeroField.WEAPONS]) >> i & 1]
            kills = int(h[HeroField.KILLS:].sum())
            flags = "".join(f for f, on in (("T", h[HeroField.TORCH]), ("P", h[HeroField.SCEPTER]),
                                             ("H", h[HeroField.HEALING])) if on)
            won = f" won {int(h[HeroField.MISSIONS_WON])}" if len(game.missions) > 1 else ""
            lines.append(f"P{seat} {game.player_names[seat]} hp {int(h[HeroField.HEALTH])}/{game.max_health} "
                         f"gold {int(h[HeroField.GOLD])} kills {kills}{won}")
            lines.append(f"   potions L{int(h[HeroField.LIFE_POTIONS])} S{int(h[HeroField.SPEED_POTIONS])} "
                         f"{flags} {' '.join(weapons)}".rstrip())
        return lines

    def caption(self, state: State) -> str:
        game = self.game
        if state.phase is Phase.GAME_OVER:
            if state.winners:
                return "game over: " + ", ".join(game.player_names[w] for w in state.winners) + " won"
            return "game over: draw"
        return (f"round {state.round + 1} | P{state.seat} {game.player_names[state.seat]} | "
                f"{state.phase.name.lower()}" + (f" | rolled {state.die}" if state.die else "")
                + (f" | steps left {state.steps_left}" if state.phase is Phase.MOVE else ""))

    def render_text(self, state: State) -> str:
        game = self.game
        board = game.board_of(state)
        rows = []
        heroes = {game.hero_cell(state, s): str(s) for s in game.hero_seats()}
        if state.moving_monster:
            heroes[state.selected] = "M"
        mission = game.missions[state.mission]
        for row in range(mission.rows):
            chars = []
            for col in range(mission.cols):
                cell = row * board.width + col
                if cell in heroes:
                    chars.append(heroes[cell])
                elif not board.exists[cell]:
                    chars.append("#")
                elif state.piece[cell]:
                    chars.append(self._glyph(int(state.piece[cell])))
                elif cell == game.starts[state.mission]:
                    chars.append("S")
                else:
                    chars.append(".")
            rows.append("".join(chars))
        return "\n".join(rows + [self.caption(state)] + self.status_lines(state))

    def _glyph(self, code: int) -> str:
        kind, name = self.game.piece_kinds[code - 1]
        if kind == "monster":
            return self.game.pieces.monsters[name].symbol
        return ITEM_GLYPHS[name]

    def scene(self, state: State, events: list[Event] | None = None) -> Scene:
        """The mission's own board (not the padded one), so frames have no empty margins."""
        game = self.game
        mission = game.missions[state.mission]
        board = mission.board
        width = game.width

        def local(cell: int) -> int:
            row, col = divmod(int(cell), width)
            return row * mission.cols + col

        pieces = []
        for cell in np.flatnonzero(state.piece):
            code = int(state.piece[cell])
            kind, name = game.piece_kinds[code - 1]
            if kind == "monster":
                pieces.append(Piece(local(cell), game.pieces.monsters[name].name.split()[-1][:4],
                                    kind="monster", value=str(int(game.strength[code]))))
            else:
                pieces.append(Piece(local(cell), ITEM_GLYPHS[name], kind="token"))
        if state.moving_monster:
            name = game.piece_kinds[state.moving_monster - 1][1]
            pieces.append(Piece(local(state.selected), game.pieces.monsters[name].name.split()[-1][:4],
                                kind="monster", value=str(int(game.strength[state.moving_monster]))))
        for seat in game.hero_seats():
            h = state.heroes[seat]
            pieces.append(Piece(local(h[HeroField.CELL]), game.player_names[seat][:3], owner=seat,
                                value=f"{int(h[HeroField.HEALTH])}/{game.max_health}"))
        arrow = None
        dice: list[str] = []
        caption = self.caption(state)
        if events:
            moves = [e for e in events if len(e.cells) == 2]
            if moves:
                arrow = (local(moves[0].cells[0]), local(moves[-1].cells[1]))
            dice = [d for e in events for d in e.dice]
            caption += " | " + events[-1].text
        return Scene(board=board, terrain_colors={0: SPACE_COLOR}, terrain_names={0: "space"},
                     pieces=pieces,
                     cell_marks={local(game.starts[state.mission]): "S",
                                 local(game.targets[state.mission]): "T"},
                     arrow=arrow, dice=dice, caption=caption, status_lines=self.status_lines(state))
