"""Shield skills (HE-7, HE-12.4) as effects in the Heroica hook registry.

A Hero's skill and every weapon name one effect plus parameters (``pieces.yaml``: ``effect:``,
``range:``, ``gold:``, ...). Each effect is registered under that name at the core hook point
``extra_actions``: the flow offers ``use_<source>`` where the effect's ``timing`` says
(``melee``: on a fight Shield, instead of "defeat", HE-6.2; ``ranged``: on a movement Shield
before the first step, instead of moving, HE-5.2) and the effect is ``usable``, then calls
``start``. Effects that need further choices answer the SKILL_TARGET and SKILL_STEP phases:
which monsters they may defeat (``targets``), which single step they allow (``steps``) and what
follows (``after_target``, ``after_step``). The flow never compares an effect's name.

Adding a weapon is a data change; adding a new kind of effect is one class here.
"""

from __future__ import annotations

from envs.core.game import Event
from envs.core.hooks import EXTRA_ACTIONS, HookRegistry
from envs.heroica.data.pieces import Skill
from envs.heroica.game import HeroicaBase
from envs.heroica.moves import post_move, search_chest
from envs.heroica.state import NO_CELL, HeroField, Phase, State

HOOKS = HookRegistry("heroica")


class SkillEffect:
    """Defaults for a skill that does everything in ``start``."""

    timing = "melee"
    searches_chest_on_step = True  # a chest on the skill's single step is searched (HE-11.1)

    def usable(self, game: HeroicaBase, state: State, seat: int, skill: Skill) -> bool:
        return True

    def start(
        self, game: HeroicaBase, state: State, seat: int, skill: Skill, events: list[Event]
    ) -> None:
        raise NotImplementedError

    def targets(self, game: HeroicaBase, state: State, seat: int, skill: Skill) -> list[int]:
        return []

    def after_target(self, game: HeroicaBase, state: State, seat: int, events: list[Event]) -> None:
        game.enter_end_phase(state, events)

    def steps(self, game: HeroicaBase, state: State, seat: int) -> tuple[list[int], bool]:
        """(cells of the single step, whether staying put is allowed)."""
        return [], True

    def after_step(
        self, game: HeroicaBase, state: State, seat: int, moved: bool, events: list[Event]
    ) -> None:
        if moved:
            post_move(game, state, seat, events)
        else:
            game.after_fight(state, events)


def register(name: str):
    """Class decorator: register one instance of the effect under ``name``."""

    def add(cls: type[SkillEffect]) -> type[SkillEffect]:
        HOOKS.register(EXTRA_ACTIONS, name)(cls())
        return cls

    return add


def _defeat_adjacent(game: HeroicaBase, state: State, seat: int, events: list[Event]) -> bool:
    """Defeat every adjacent monster; False if that ended the game."""
    for cell in game.adjacent_monsters(state, int(state.heroes[seat, HeroField.CELL])):
        game.defeat_monster(state, seat, cell, events)
        if state.phase is Phase.GAME_OVER:
            return False
    state.last_fight_won = True
    return True


# -- melee (HE-6.2: instead of "defeat the monster" on a fight Shield) -----------------------
@register("defeat_all_adjacent")
class DefeatAllAdjacent(SkillEffect):
    def start(self, game, state, seat, skill, events) -> None:
        if _defeat_adjacent(game, state, seat, events):
            game.after_fight(state, events)


@register("defeat_all_adjacent_then_step")
class DefeatAllThenStep(SkillEffect):
    """HE-7.2: the step is optional (0-1) and follows HE-5 (items, chest, new fights)."""

    def start(self, game, state, seat, skill, events) -> None:
        if _defeat_adjacent(game, state, seat, events):
            state.phase = Phase.SKILL_STEP

    def steps(self, game, state, seat) -> tuple[list[int], bool]:
        here = game.hero_cell(state, seat)
        return [
            int(c)
            for c in game.board_of(state).neighbors[here]
            if c >= 0 and game.skill_step_ok(state, seat, int(c))
        ], True


@register("defeat_and_take_gold")
class DefeatAndTakeGold(SkillEffect):
    def start(self, game, state, seat, skill, events) -> None:
        game.defeat_monster(state, seat, state.fight_target, events)
        game.gain_gold(state, seat, skill.gold, events, reason="skill")
        state.last_fight_won = True
        if state.phase is not Phase.GAME_OVER:
            game.after_fight(state, events)


# -- ranged (HE-5.2: instead of moving on a movement Shield) ---------------------------------
@register("ranged_defeat")
class RangedDefeat(SkillEffect):
    timing = "ranged"

    def usable(self, game, state, seat, skill) -> bool:
        return bool(game.ranged_targets(state, seat, skill))

    def start(self, game, state, seat, skill, events) -> None:
        state.phase = Phase.SKILL_TARGET

    def targets(self, game, state, seat, skill) -> list[int]:
        return game.ranged_targets(state, seat, skill)


@register("heal")
class Heal(SkillEffect):
    timing = "ranged"

    def usable(self, game, state, seat, skill) -> bool:
        return int(state.heroes[seat, HeroField.HEALTH]) < game.max_health

    def start(self, game, state, seat, skill, events) -> None:
        game.heal(state, seat, skill.amount, events, reason="Staff")
        game.enter_end_phase(state, events)


@register("step_then_defeat")
class StepThenDefeat(SkillEffect):
    """HE-12.4 Sword: move 0-1 step (a chest there waits for the kill), then defeat one
    adjacent monster."""

    timing = "ranged"
    searches_chest_on_step = False

    def usable(self, game, state, seat, skill) -> bool:
        return bool(game.sword_steps(state, seat)) or bool(
            game.adjacent_monsters(state, int(state.heroes[seat, HeroField.CELL]))
        )

    def start(self, game, state, seat, skill, events) -> None:
        state.phase = Phase.SKILL_STEP
        state.fight_target = NO_CELL

    def steps(self, game, state, seat) -> tuple[list[int], bool]:
        return game.sword_steps(state, seat), bool(
            game.adjacent_monsters(state, game.hero_cell(state, seat))
        )

    def after_step(self, game, state, seat, moved, events) -> None:
        state.phase = Phase.SKILL_TARGET

    def targets(self, game, state, seat, skill) -> list[int]:
        return game.adjacent_monsters(state, game.hero_cell(state, seat))

    def after_target(self, game, state, seat, events) -> None:
        here = game.hero_cell(state, seat)
        if state.piece[here] == game.CHEST:
            search_chest(game, state, seat, here, events)  # HE-12.4 Sword: chest after the kill
        post_move(game, state, seat, events)


def effect_of(skill: Skill) -> SkillEffect:
    return HOOKS.get(EXTRA_ACTIONS, skill.effect)


def check_skills(game: HeroicaBase) -> None:
    """Every skill names a registered effect of the right timing (errors name file and field)."""
    pieces, path = game.pieces, game.pieces_source
    owners = [(f"heroes.{k}", h.skill) for k, h in pieces.heroes.items()]
    owners += [(f"weapons.{k}", w.skill) for k, w in pieces.weapons.items()]
    for owner, skill in owners:
        if not HOOKS.has(EXTRA_ACTIONS, skill.effect):
            raise ValueError(
                f"{path}, field '{owner}.skill.effect': unknown effect {skill.effect!r}; "
                f"known: {HOOKS.keys(EXTRA_ACTIONS)}"
            )
        timing = effect_of(skill).timing
        if timing != skill.timing:
            raise ValueError(
                f"{path}, field '{owner}.skill.timing': effect {skill.effect!r} is a "
                f"{timing} skill, not {skill.timing}"
            )
