"""Heroica as seen by players: observation planes, action names, text and scenes for video."""

from __future__ import annotations

import re

import numpy as np

from envs.core.dice_faces import register_symbol_die
from envs.core.events import Event, last_action
from envs.core.planes import PlaneLayout, View
from envs.core.scene import DiceGroup, Piece, Scene
from envs.core.textboard import text_grid
from envs.heroica.dice import DIE_SYMBOLS, MOVE_VALUE, SHIELD, SKULL, SWORD, SWORD_SKULL
from envs.heroica.game import ActionKind, HeroicaBase
from envs.heroica.state import HeroField, Phase, State
from envs.heroica.view.observation import TURN_SCALARS, Observer

# What a "target" action does, by phase (the plane's meaning follows the phase).
TARGET_NAMES = {
    Phase.START: "fight {piece} {where}",
    Phase.FIGHT_CHOOSE: "fight {piece} {where}",
    Phase.ROCKS_CHOOSE: "explore rocks {where}",
    Phase.SKILL_TARGET: "defeat {piece} {where}",
    Phase.MONSTER_SELECT: "select {piece} {where}",
    Phase.MONSTER_FIGHT_CHOOSE: "attack {hero} {where}",
}

ITEM_GLYPHS = {
    "rocks": "R",
    "chest": "c",
    "life_potion": "l",
    "speed_potion": "s",
    "torch": "t",
    "scepter": "P",
}
SPACE_COLOR = (196, 178, 140)

# -- frames (scene) ------------------------------------------------------------------------
# The die as printed (HE-3.3): a fight symbol and, in the corner, the movement value; a roll
# that reads the fight half is drawn without the number, which means nothing there.
register_symbol_die(
    "heroica", {symbol: ((symbol,), str(value)) for symbol, value in MOVE_VALUE.items()}
)
register_symbol_die("heroica_fight", {symbol: ((symbol,), "") for symbol in MOVE_VALUE})
# Items and obstacles as icons: (icon, tint, legend words).
ITEM_ICONS = {
    "rocks": ("rock", None, "rocks (explore to pass)"),
    "chest": ("chest", None, "treasure chest"),
    "life_potion": ("potion", (210, 40, 50), "life potion"),
    "speed_potion": ("potion", (40, 120, 220), "speed potion"),
    "torch": ("torch", None, "torch (+1 step)"),
    "scepter": ("scepter", None, "Scepter of Summoning"),
}
PHASE_WORDS = {
    Phase.START: "roll, fight or shop",
    Phase.MOVE: "moving",
    Phase.FORWARD: "moving on (may not stop on a hero)",
    Phase.FIGHT_CHOOSE: "choosing a monster to fight",
    Phase.FIGHT_SHIELD: "rolled a shield: defeat the monster or use a skill",
    Phase.SKILL_TARGET: "choosing the skill's target",
    Phase.SKILL_STEP: "may take one step",
    Phase.MOVE_BACK: "choosing where to move back",
    Phase.ROCKS_CHOOSE: "choosing rocks to explore",
    Phase.SCEPTER_TAKE: "Scepter: choosing a monster to take",
    Phase.SCEPTER_PLACE: "Scepter: placing the monster",
    Phase.END: "ending the turn (shop, potions)",
    Phase.MONSTER_SELECT: "choosing a monster",
    Phase.MONSTER_MOVE: "moving a monster",
    Phase.MONSTER_FORWARD: "moving the monster on",
    Phase.MONSTER_FIGHT_CHOOSE: "choosing a hero to attack",
    Phase.GAME_OVER: "game over",
}
SYMBOL_WORDS = {SWORD_SKULL: "sword and skull"}  # event texts name faces by their ids
# A roll's reason (the "(why)" of its event) -> the dice group's label and, per face, what
# it did (HE-5, HE-6.2-6.5, HE-9.2, HE-11.3, HE-13.3, HE-20.7).
_STEPS = {sym: f"up to {n} space{'s' * (n > 1)}" for sym, n in MOVE_VALUE.items()}
_FIGHT = {
    SHIELD: "monster defeated, or a melee skill",
    SWORD: "monster defeated",
    SKULL: "hero hurt, moves back",
    SWORD_SKULL: "monster defeated, hero hurt",
}
_MONSTER_ATTACK = {
    SHIELD: "hero hurt (+1)",
    SWORD: "hero hurt",
    SKULL: "monster defeated",
    SWORD_SKULL: "monster defeated, hero hurt",
}
_ROCKS = {
    SHIELD: "passes the rocks",
    SWORD: "rocks cleared",
    SKULL: "moves back",
    SWORD_SKULL: "moves back",
}
_CHEST = {
    SHIELD: "2 gold",
    SWORD: "1 gold",
    SKULL: "trap: -1 health",
    SWORD_SKULL: "1 gold, trap: -1 health",
}
ROLL_MEANINGS = (  # (reason, label, die kind, results)
    (
        re.compile(r"^move$"),
        "movement",
        "heroica",
        _STEPS | {SHIELD: f"{_STEPS[SHIELD]}, or a ranged skill"},
    ),
    (re.compile(r"^monster move$"), "monster movement", "heroica", _STEPS),
    (
        re.compile(r"^healing$"),
        "healing",
        "heroica",
        {sym: f"heal {n}" for sym, n in MOVE_VALUE.items()} | {SHIELD: "full health"},
    ),
    (re.compile(r"^fight "), "fight", "heroica_fight", _FIGHT),
    (re.compile(r" attacks "), "monster attack", "heroica_fight", _MONSTER_ATTACK),
    (re.compile(r"^explore the rocks$"), "explore rocks", "heroica_fight", _ROCKS),
    (re.compile(r"^treasure chest$"), "treasure chest", "heroica_fight", _CHEST),
)
ROLL_WHY = re.compile(r" rolls \S+ \((.*)\)$")


class HeroicaView:
    """Builds the (C, H, W) observation; the channel table is in ``heroica_v0``'s docstring."""

    def __init__(self, game: HeroicaBase):
        self.game = game
        n = game.num_players
        self.seat_features = (
            ["health", "healing", "gold", "life_potions", "speed_potions", "torch", "scepter"]
            + [f"weapon:{w}" for w in game.weapon_ids]
            + [f"kills:{m}" for m in game.monster_ids]
            + ["missions_won", "monster_player", "defeated_by_monsters"]
            + [f"hero:{h}" for h in game.hero_ids]
        )
        self.planes = PlaneLayout(
            [
                View("space"),
                View("start"),
                View("target"),
                View("piece", [name for _, name in game.piece_kinds]),
                View("hero@seat", [f"+{k}" for k in range(n)], sep=""),
                View("visited"),
                View("fight_target"),
                View("monster_selected"),
                View("move_back_from"),
            ]
            + [View(f"seat+{k}", self.seat_features, constant=True) for k in range(n)]
            + [
                View("phase", [p.name for p in Phase], constant=True),
                View("die", DIE_SYMBOLS, constant=True),
            ]
            + [View(name, constant=True) for name in TURN_SCALARS]
            + [View("store", game.weapon_ids, constant=True)]
        )
        planes = self.planes
        self.channel_names = planes.channel_names
        self.observer = Observer(game, planes)
        self.shape = self.observer.shape

    def observe(self, state: State, player: int) -> np.ndarray:
        return self.observer.observe(state, player)

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
        if not decoded.on_cell:
            return decoded.name.replace("_", " ")
        where = self.cell_text(state, decoded.cell)
        if decoded.kind == ActionKind.STEP:
            return f"move back to {where}" if state.phase is Phase.MOVE_BACK else f"step {where}"
        if decoded.kind == ActionKind.PLACE:
            return f"place monster {where}"
        seat = game.hero_at(state, decoded.cell)
        return TARGET_NAMES.get(state.phase, "target {where}").format(
            piece=self.piece_name(state, decoded.cell),
            where=where,
            hero=game.player_names[seat] if seat >= 0 else "nobody",
        )

    # -- text and frames --------------------------------------------------------------------
    def status_lines(self, state: State) -> list[str]:
        game = self.game
        lines = []
        for seat in range(game.num_players):
            if seat == game.monster_seat:
                lines.append(
                    f"P{seat} Monster Player  heroes defeated {state.monster_player_defeats}/2"
                )
                continue
            h = state.heroes[seat]
            weapons = [
                w for i, w in enumerate(game.weapon_ids) if int(h[HeroField.WEAPONS]) >> i & 1
            ]
            kills = int(h[HeroField.KILLS :].sum())
            flags = "".join(
                f
                for f, on in (
                    ("T", h[HeroField.TORCH]),
                    ("P", h[HeroField.SCEPTER]),
                    ("H", h[HeroField.HEALING]),
                )
                if on
            )
            won = f" won {int(h[HeroField.MISSIONS_WON])}" if len(game.missions) > 1 else ""
            lines.append(
                f"P{seat} {game.player_names[seat]} hp {int(h[HeroField.HEALTH])}/{game.max_health} "
                f"gold {int(h[HeroField.GOLD])} kills {kills}{won}"
            )
            lines.append(
                f"   potions L{int(h[HeroField.LIFE_POTIONS])} S{int(h[HeroField.SPEED_POTIONS])} "
                f"{flags} {' '.join(weapons)}".rstrip()
            )
        return lines

    def caption(self, state: State) -> str:
        game = self.game
        if state.phase is Phase.GAME_OVER:
            if state.winners:
                return (
                    "game over: " + ", ".join(game.player_names[w] for w in state.winners) + " won"
                )
            return "game over: draw"
        return (
            f"round {state.round + 1} | P{state.seat} {game.player_names[state.seat]} | "
            f"{state.phase.name.lower()}"
            + (f" | rolled {state.die}" if state.die else "")
            + (f" | steps left {state.steps_left}" if state.phase is Phase.MOVE else "")
        )

    def render_text(self, state: State) -> str:
        game = self.game
        board = game.board_of(state)
        marks = {game.hero_cell(state, s): str(s) for s in game.hero_seats()}
        if state.moving_monster:
            marks[state.selected] = "M"
        start = game.starts[state.mission]

        def token(cell: int) -> str:
            if cell in marks:
                return marks[cell]
            if not board.exists[cell]:
                return "#"
            if state.piece[cell]:
                return self._glyph(int(state.piece[cell]))
            return "S" if cell == start else "."

        mission = game.missions[state.mission]
        rows = text_grid(board, mission.rows, mission.cols, token)
        return "\n".join(rows + [self.caption(state)] + self.status_lines(state))

    def _glyph(self, code: int) -> str:
        kind, name = self.game.piece_kinds[code - 1]
        if kind == "monster":
            return self.game.pieces.monsters[name].symbol
        return ITEM_GLYPHS[name]

    # -- frames -------------------------------------------------------------------------------
    def _labels(self) -> dict[str, str]:
        """Monster kind -> a short label, unique in the game ("Bat", "Guard", "Lord")."""
        if not hasattr(self, "_monster_labels"):
            labels: dict[str, str] = {}
            for kind, spec in self.game.pieces.monsters.items():
                words = spec.name.split()
                label = words[-1][:5]
                if label in labels.values():
                    label = "".join(w[0] for w in words)[:3] + str(len(labels))
                labels[kind] = label
            self._monster_labels = labels
        return self._monster_labels

    def scene_caption(self, state: State) -> str:
        """The caption in words: round, who is to play and what they are deciding."""
        game = self.game
        if state.phase is Phase.GAME_OVER:
            return self.caption(state)
        left = state.steps_left
        moving = state.phase in (Phase.MOVE, Phase.MONSTER_MOVE)
        steps = f", {left} step{'s' * (left != 1)} left" if moving else ""
        return (
            f"round {state.round + 1} | P{state.seat} {game.player_names[state.seat]}: "
            f"{PHASE_WORDS[state.phase]}{steps}"
        )

    def scene_status(self, state: State) -> list[str]:
        """Per hero: health, gold, defeated monsters, then what its pack holds, in words."""
        game = self.game
        lines = []
        for seat in range(game.num_players):
            if seat == game.monster_seat:
                lines.append(
                    f"P{seat} Monster Player: heroes defeated {state.monster_player_defeats} of 2"
                )
                continue
            h = state.heroes[seat]
            won = (
                f", missions won {int(h[HeroField.MISSIONS_WON])}" if len(game.missions) > 1 else ""
            )
            healing = " (defeated: heals next turn)" if h[HeroField.HEALING] else ""
            health = f"{int(h[HeroField.HEALTH])}/{game.max_health}"
            kills = int(h[HeroField.KILLS :].sum())
            lines.append(
                f"P{seat} {game.player_names[seat]}: health {health}, "
                f"gold {int(h[HeroField.GOLD])}, kills {kills}{won}{healing}"
            )
            pack = [
                f"{int(h[f])} {name}"
                for f, name in (
                    (HeroField.LIFE_POTIONS, "life potion"),
                    (HeroField.SPEED_POTIONS, "speed potion"),
                )
                if h[f]
            ]
            pack += [
                name
                for f, name in ((HeroField.TORCH, "torch"), (HeroField.SCEPTER, "Scepter"))
                if h[f]
            ]
            pack += [
                game.pieces.weapons[w].name
                for i, w in enumerate(game.weapon_ids)
                if int(h[HeroField.WEAPONS]) >> i & 1
            ]
            lines.append("   pack: " + (", ".join(pack) if pack else "empty"))
        return lines

    def dice_groups(self, events: list[Event] | None) -> list[DiceGroup]:
        """One group per roll: what the roll was for, the face, what that face does."""
        groups = []
        for event in events or []:
            if not event.dice:
                continue
            match = ROLL_WHY.search(event.text)
            why = match.group(1) if match else ""
            label, kind, results = next(
                (
                    (lab, kind, res)
                    for pattern, lab, kind, res in ROLL_MEANINGS
                    if pattern.search(why)
                ),
                (why or "roll", "heroica", {}),
            )
            who = (
                self.game.player_names[event.player]
                if 0 <= event.player < self.game.num_players
                else ""
            )
            groups.append(
                DiceGroup(
                    f"{who} {label}".strip(),
                    kind,
                    tuple(event.dice),
                    ", ".join(results.get(d, d) for d in event.dice),
                    event.player,
                )
            )
        return groups

    def scene(self, state: State, events: list[Event] | None = None) -> Scene:
        """The mission's own board (not the padded one), so frames have no empty margins."""
        game = self.game
        mission = game.missions[state.mission]
        board = mission.board
        local = game.padded[state.mission].to_source
        labels = self._labels()
        pieces: list[Piece] = []
        monsters: dict[str, None] = {}  # monster kinds on the board, in order (the key's order)
        for cell in np.flatnonzero(state.piece):
            code = int(state.piece[cell])
            kind, name = game.piece_kinds[code - 1]
            if kind == "monster":
                monsters[name] = None
                pieces.append(
                    Piece(
                        local(cell),
                        labels[name],
                        kind="monster",
                        value=str(int(game.strength[code])),
                    )
                )
            else:
                icon, tint, words = ITEM_ICONS[name]
                pieces.append(Piece(local(cell), words, kind="token", icon=icon, color=tint))
        if state.moving_monster:
            name = game.piece_kinds[state.moving_monster - 1][1]
            monsters[name] = None
            pieces.append(
                Piece(
                    local(state.selected),
                    labels[name],
                    kind="monster",
                    value=str(int(game.strength[state.moving_monster])),
                )
            )
        key: list[tuple[str, str, int | None]] = []
        for seat in game.hero_seats():
            h = state.heroes[seat]
            label = game.player_names[seat][:3]
            pieces.append(
                Piece(
                    local(h[HeroField.CELL]),
                    label,
                    owner=seat,
                    value=f"{int(h[HeroField.HEALTH])}/{game.max_health}",
                )
            )
            key.append((label, game.player_names[seat], seat))
        # Battle Heroica's monsters are the Monster Player's: their key swatch is its colour
        monster_owner = game.monster_seat if game.monster_seat >= 0 else None
        key += [(labels[name], game.pieces.monsters[name].name, monster_owner) for name in monsters]
        last = last_action(events, local)
        text = last.text
        for symbol, words in SYMBOL_WORDS.items():
            text = text.replace(symbol, words)
        caption = self.scene_caption(state) + (f" | {text}" if events else "")
        return Scene(
            board=board,
            terrain_colors={0: SPACE_COLOR},
            terrain_names={0: "space"},
            pieces=pieces,
            cell_marks={
                local(game.starts[state.mission]): "S",
                local(game.targets[state.mission]): "T",
            },
            arrow=last.arrow,
            fallen=[local(e.cells[-1]) for e in events or [] if e.kind == "defeat" and e.cells],
            dice=last.dice,
            caption=caption,
            status_lines=self.scene_status(state),
            dice_groups=self.dice_groups(events),
            key=key,
            badge_meaning={"figure": "hero health (now/max)", "monster": "monster strength"},
            mark_names={"S": "mission start", "T": "target: the mission's goal"},
            kind_names={"monster": "monster"},
            dice_slots=1,
            player_colors=self.seat_colours(),
        )

    def seat_colours(self) -> list[tuple[int, int, int]]:
        """The seats' colours; Battle Heroica's Monster Player takes its monsters' red ring,
        so its swatch in the panel matches the pieces it plays."""
        from envs.core.drawing import SEAT_COLORS
        from envs.core.glyphs import MONSTER_RING

        colours = [SEAT_COLORS[seat % len(SEAT_COLORS)] for seat in range(self.game.num_players)]
        if self.game.monster_seat >= 0:
            colours[self.game.monster_seat] = MONSTER_RING
        return colours
