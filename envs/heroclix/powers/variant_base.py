"""Power variants of the four actions, and the VARIANT phase that plays them.

envs/heroclix/RULES.md P-0: a power that "uses a power action" is a *variant* of the
nearest 2002 action (move, close or ranged): it is that one action of the figure, earns the
token and counts for pushing (HC-3.14-3.17). Each variant is a :class:`Variant` registered
at ``variants`` in :data:`~envs.heroclix.powers.hooks.HOOKS` under its power's key; the flow
never names one:

1. the FIGURE phase offers a ``power_<key>`` slot for each variant of the chosen figure's
   powers (as its dial shows them now) that can be played now (:meth:`Variant.offered`);
2. choosing it calls :meth:`Variant.begin`: a variant without choices resolves at once
   (Quake); the others go on in the VARIANT phase, whose legal actions and effects are the
   variant's (:meth:`Variant.mask`, :meth:`Variant.apply`) on the usual planes (``move``,
   ``soar``, ``close``, ``ranged``, ``smash``, ``wall_*``) and ``end_action`` (end an
   optional part: Charge's attack, Flurry's second blow); ``state.variant_stage`` counts the
   steps;
3. a ranged variant with several bolts declares its further targets in TARGETS, which
   fires with :meth:`Variant.spec`.

A target that avoids being declared (Shape Change, P-DMG-7) sends the figure back to the
FIGURE phase when nothing was done yet (another target or another action; nothing spent),
or leaves the step open with ``end_action`` when the figure has already moved or attacked.
"""

from __future__ import annotations

from envs.core.actions import DecodedAction
from envs.core.events import Event
from envs.core.flow import LegalMask, PhaseRule
from envs.heroclix.combat.attack import AttackKind, AttackSpec
from envs.heroclix.combat.resolve import avoids_targeting
from envs.heroclix.combat.targets import close_targets, ranged_targets
from envs.heroclix.game import ActionKind, HeroclixBase
from envs.heroclix.movement import needs_breakaway, roll_breakaway
from envs.heroclix.phases.attacks import AttackOptions, close_attack, declare_ranged
from envs.heroclix.phases.endings import finish_action
from envs.heroclix.powers.hooks import FREE_ACTIONS, HOOKS, VARIANTS
from envs.heroclix.state import Phase, State

Rule = PhaseRule[HeroclixBase, State]


class Variant:
    """One power's variant of an action; subclasses fill in what their power does."""

    key = ""
    action = ""  # the 2002 action it is a variant of: "move", "close" or "ranged"

    def offered(
        self, game: HeroclixBase, state: State, figure: int, options: AttackOptions
    ) -> bool:
        """Whether choosing it now leads to a legal continuation."""
        raise NotImplementedError

    def begin(self, game: HeroclixBase, state: State, figure: int, events: list[Event]) -> None:
        state.variant = self.key
        state.variant_stage = 0
        state.phase = Phase.VARIANT

    def mask(self, game: HeroclixBase, state: State, legal: LegalMask) -> None:
        raise NotImplementedError

    def apply(
        self, game: HeroclixBase, state: State, action: DecodedAction, events: list[Event]
    ) -> None:
        raise NotImplementedError

    def spec(self, game: HeroclixBase, state: State, figure: int) -> AttackSpec:
        """The attack it makes (for TARGETS' ``fire``)."""
        return AttackSpec(AttackKind(self.action), power=self.key)

    def after_fire(self, game: HeroclixBase, state: State, figure: int, result, events) -> bool:
        """After its ranged attack was fired: True when the variant goes on (the action is
        not over yet)."""
        return False

    def shootable(self, game: HeroclixBase, state: State, figure: int) -> dict[int, bool]:
        """Its ranged targets (enemy -> hindered): the plain ones unless it says otherwise."""
        return ranged_targets(game, state, figure)

    @property
    def title(self) -> str:
        return self.key.replace("_", " ")

    def describe(self, game: HeroclixBase, state: State, decoded: DecodedAction) -> str:
        """The name of one of its actions in the VARIANT phase."""
        figure = state.selected
        mover = game.label(figure)
        if decoded.kind == ActionKind.END_ACTION:
            return f"end {self.title}"
        where = game.cell_label(decoded.cell)
        if decoded.kind in (ActionKind.MOVE, ActionKind.SOAR):
            start = game.cell_label(int(state.cell[figure]))
            return f"{self.title} {mover} {start}->{where}" + (
                " soaring" if decoded.kind == ActionKind.SOAR else ""
            )
        if decoded.kind in (ActionKind.CLOSE, ActionKind.RANGED, ActionKind.TARGET):
            return f"{self.title} {mover} -> {game.who(state, decoded.cell)} {where}"
        if decoded.kind == ActionKind.TK_MOVE:
            return f"{self.title} {mover}: {game.label(state.targets[0])} to {where}"
        if decoded.kind == ActionKind.SMASH:
            return f"{self.title} {mover} smashes {where}"
        return f"{self.title} {mover} breaks the {decoded.kind[-1].upper()} wall of {where}"


def register_variant(cls: type[Variant]) -> type[Variant]:
    HOOKS.register(VARIANTS, cls.key)(cls())
    return cls


def playing(state: State) -> Variant:
    """The variant, or the free power (:mod:`envs.heroclix.powers.free`), in ``state.variant``."""
    key = state.variant
    return HOOKS.get(VARIANTS, key) if HOOKS.has(VARIANTS, key) else HOOKS.get(FREE_ACTIONS, key)


def offer_variants(
    game: HeroclixBase, state: State, legal: LegalMask, figure: int, options: AttackOptions
) -> None:
    for key in game.powers(state, figure):
        if HOOKS.has(VARIANTS, key) and HOOKS.get(VARIANTS, key).offered(
            game, state, figure, options
        ):
            legal.slot(ActionKind.POWER, game.variant_index[key])


def begin_variant(game: HeroclixBase, state: State, index: int, events: list[Event]) -> None:
    HOOKS.get(VARIANTS, game.variant_keys[index]).begin(game, state, state.selected, events)


def back_to_figure(state: State) -> None:
    """Nothing was done yet: the figure chooses its action again (P-DMG-7)."""
    state.variant = ""
    state.variant_stage = 0
    state.phase = Phase.FIGURE


class VariantPhase(Rule):
    """The steps of the variant in ``state.variant``."""

    def mask(self, game, state, legal):
        playing(state).mask(game, state, legal)

    def apply(self, game, state, action, events):
        playing(state).apply(game, state, action, events)


# -- the shapes most variants share ------------------------------------------------------------


def cells_of(state: State, figures) -> list[int]:
    return [int(state.cell[f]) for f in figures]


class CloseVariant(Variant):
    """A close attack on one adjacent enemy, changed by :meth:`spec`."""

    action = "close"

    def offered(self, game, state, figure, options):
        return bool(options.close)

    def mask(self, game, state, legal):
        legal.cells(ActionKind.CLOSE, cells_of(state, close_targets(game, state, state.selected)))

    def apply(self, game, state, action, events):
        figure = state.selected
        target = int(state.occupant[action.cell])
        if avoids_targeting(game, state, figure, target, events):
            back_to_figure(state)
            return
        close_attack(game, state, figure, target, self.spec(game, state, figure), events)
        finish_action(game, state, figure, events)


class RangedVariant(Variant):
    """A ranged attack changed by :meth:`spec`; ``single``: one target whatever the bolts."""

    action = "ranged"
    single = False

    def offered(self, game, state, figure, options):
        return (
            bool(self.shootable(game, state, figure))
            if self.own_lines(game)
            else bool(options.ranged)
        )

    def own_lines(self, game: HeroclixBase) -> bool:
        """Whether its targets differ from the plain ranged attack's under these options."""
        return False

    def mask(self, game, state, legal):
        legal.cells(ActionKind.RANGED, cells_of(state, self.shootable(game, state, state.selected)))

    def apply(self, game, state, action, events):
        if not declare_ranged(
            game, state, state.selected, action.cell, events, bolts=1 if self.single else None
        ):
            back_to_figure(state)


def break_away_first(game: HeroclixBase, state: State, figure: int, events: list[Event]) -> bool:
    """A variant that moves breaks away like a move (HC-3.23); a failed roll uses the
    action (P-SPD-5, P-SPD-11 defaults)."""
    if needs_breakaway(game, state, figure) and not roll_breakaway(game, state, figure, events):
        finish_action(game, state, figure, events)
        return False
    return True
