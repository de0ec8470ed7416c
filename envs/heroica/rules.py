"""LEGO Heroica rules engine (HE-1 ... HE-20 of envs/heroica/RULES.md).

:class:`HeroicaGame` is the static game of :class:`~envs.heroica.game.HeroicaBase` plus its
table of phases (``envs.heroica.phases.heroes`` for the Heroes, ``envs.heroica.phases.battle`` for the
Monster Player), its view and its :class:`~envs.core.game.GameInfo`. One ``apply`` is one
decision: the layout decodes the action, the current phase applies it through the static game's
named state changes, and the phase it leaves the state in is the next decision.

The package has the skeleton every game has: :mod:`.game` the static game, :mod:`.options`
its options (declared once), :mod:`.state`, :mod:`.dice`, ``data/`` (missions and pieces and
their loaders), ``phases/``, :mod:`.moves`, :mod:`.fights` and :mod:`.skills` (the skill and
weapon registry), :mod:`.position`, ``view/`` (observation planes) and ``bots/``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.core.dice import Dice
from envs.core.flow import GameOverPhase, PhaseTable
from envs.core.game import GameInfo, Scoreboard
from envs.heroica.game import HeroicaBase
from envs.heroica.phases import battle, heroes
from envs.heroica.position import from_scenario
from envs.heroica.skills import check_skills
from envs.heroica.state import NO_CELL, HeroField, Phase, State
from envs.heroica.view.planes import HeroicaView

PHASES = PhaseTable(
    Phase,
    {
        Phase.START: heroes.Start(),
        Phase.MOVE: heroes.Move(),
        Phase.FORWARD: heroes.Forward(),
        Phase.FIGHT_CHOOSE: heroes.FightChoose(),
        Phase.FIGHT_SHIELD: heroes.FightShield(),
        Phase.SKILL_TARGET: heroes.SkillTarget(),
        Phase.SKILL_STEP: heroes.SkillStep(),
        Phase.MOVE_BACK: heroes.MoveBack(),
        Phase.ROCKS_CHOOSE: heroes.RocksChoose(),
        Phase.SCEPTER_TAKE: heroes.ScepterTake(),
        Phase.SCEPTER_PLACE: heroes.ScepterPlace(),
        Phase.END: heroes.End(),
        Phase.MONSTER_SELECT: battle.MonsterSelect(),
        Phase.MONSTER_MOVE: battle.MonsterMove(),
        Phase.MONSTER_FORWARD: battle.MonsterForward(),
        Phase.MONSTER_FIGHT_CHOOSE: battle.MonsterFightChoose(),
        Phase.GAME_OVER: GameOverPhase(),
    },
)


class HeroicaGame(HeroicaBase):
    """Heroica for 2-4 seats: 1-3 Heroes, plus the Monster Player in Battle Heroica."""

    STATE = State
    GAME_OVER_PHASE = Phase.GAME_OVER
    phases = PHASES

    def finish_setup(self) -> None:
        check_skills(self)
        self.view = HeroicaView(self)
        self.observation_shape = self.view.shape

    def scoreboard(self, state: State) -> Scoreboard:
        """Monsters each Hero has defeated; the Monster Player's Heroes defeated (HE-20)."""
        values = []
        for seat in range(self.num_players):
            if seat == self.monster_seat:
                values.append(float(state.monster_player_defeats))
            else:
                values.append(float(state.heroes[seat][HeroField.KILLS :].sum()))
        return Scoreboard("kills", tuple(values))

    @property
    def info(self) -> GameInfo:
        return GameInfo(
            name=self.name,
            num_players=self.num_players,
            min_players=2,
            max_players=len(self.hero_ids) + 1,
            max_game_length=max_decisions(self),
        )

    @classmethod
    def from_scenario(
        cls, map: str, target: tuple[int, int], **kwargs: Any
    ) -> tuple[HeroicaGame, State]:
        """Any position from text: see :func:`envs.heroica.position.from_scenario`."""
        return from_scenario(cls, map, target, **kwargs)

    def new_state(self, seed: int | None = None, dice: Dice | None = None) -> State:
        n_fields = HeroField.KILLS + self.n_monster_kinds
        heroes = np.zeros((self.num_players, n_fields), dtype=np.int32)
        heroes[:, HeroField.HERO] = -1
        heroes[:, HeroField.CELL] = NO_CELL
        for seat, hero in enumerate(self.heroes):
            heroes[seat, HeroField.HERO] = self.hero_ids.index(hero)
        state = State(
            piece=self.initial_pieces[0].copy(),
            heroes=heroes,
            store_weapons=(1 << len(self.weapon_ids)) - 1,
            store_gold=-1 if self.store_gold is None else self.store_gold,
            dice=dice if dice is not None else Dice(seed),
        )
        self.start_mission(state, 0)
        return state


def max_decisions(game: HeroicaBase) -> int | None:
    """An upper bound on the decisions of one game (None when the pieces allow endless
    shopping: a weapon sold back for its price).

    Turns are capped by ``max_rounds`` per mission (a skipped Monster Player turn still
    counts). One turn's decisions are bounded by what can run out:
    shopping at START and END (each buy beyond the first of each weapon needs an earlier
    sale, and a buy-and-sell costs at least one gold, so at most 3W + 2g + 1 per visit with
    W weapons and g gold), potions drunk (each one picked up on the boards), steps (die, torch
    and Speed Potions; forward steps, moves back and skill steps never enter a cell twice),
    fights and rocks (each won fight removes a monster; each cell is fought or explored from
    at most once per move), and a few fixed decisions (roll, end move, end turn, skills).
    Gold g is bounded by its sources: chests, the HE-18.3 bonus, a gold skill per defeated
    monster (at most the monsters on the boards plus one summon per turn) and selling a
    picked-up Scepter.
    """
    pieces = game.pieces
    if any(w.resale >= w.price for w in pieces.weapons.values()):
        return None
    turns = game.max_rounds * game.num_players * len(game.missions)
    cells = max(board.n_cells for board in game.boards)
    count = {
        name: sum(
            sum(1 for s in m.pieces.values() if game.symbol_to_piece.get(s) == name)
            for m in game.missions
        )
        for name in game.code
    }
    monsters = sum(count[m] for m in game.monster_ids) + turns
    gold_skill = max(
        [h.skill.gold for h in pieces.heroes.values()]
        + [w.skill.gold for w in pieces.weapons.values()]
    )
    gold = (
        2 * count["chest"]
        + len(game.missions) * game.num_heroes
        + gold_skill * monsters
        + pieces.items["scepter"].resale * count["scepter"]
    )
    shop = 2 * (3 * len(game.weapon_ids) + 2 * gold + 1)
    steps = 5 + pieces.items["speed_potion"].steps * count["speed_potion"] + 3 * cells
    per_turn = shop + count["life_potion"] + count["speed_potion"] + steps + 2 * cells + 10
    return turns * per_turn
