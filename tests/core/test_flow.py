"""The shared rules flow (envs/core: actions, flow, hooks, planes) and the game registry."""

from __future__ import annotations

import enum
import subprocess
import sys

import numpy as np
import pytest

from envs.core.actions import ActionLayout, SlotFamily
from envs.core.flow import GameOverPhase, LegalMask, PhaseRule, PhaseTable, handles, next_seat
from envs.core.hooks import ATTACK_VALUE, EXTRA_ACTIONS, MOVE_STOPS, HookRegistry
from envs.core.planes import PlaneLayout, View


def layout() -> ActionLayout:
    return ActionLayout.build(
        4,
        ["step", "target"],
        [
            "roll",
            SlotFamily.of("buy", ["axe", "bow"]),
            "end_turn",
            SlotFamily.of("take", ["bat_from_0", "bat_from_1"], [("bat", 0), ("bat", 1)]),
        ],
    )


def test_layout_describes_any_action_by_its_place():
    wide = ActionLayout.build(
        4, ["step", "target"], ["roll", SlotFamily.of("buy", ["axe"])], width=2
    )
    assert wide.describe(wide.plane_action("target", 3)) == "target (1,1)"
    assert wide.describe(wide.special("buy_axe")) == "buy_axe"
    assert layout().describe(layout().plane_action("step", 2)) == "step cell 2"
    with pytest.raises(ValueError, match="rows of width 3"):
        ActionLayout.build(4, ["step"], [], width=3)


def test_an_illegal_action_in_a_power_phase_is_named_not_a_crash():
    # HeroClix's VARIANT phase once raised IndexError naming a slot of a power not in play
    import numpy as np

    from envs import make
    from envs.core.game import IllegalActionError

    env = make("heroclix_v0", scenario="mall")
    for seed in range(40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game.is_terminal(env.game_state):
            mask = env.legal_mask()
            if env.game_state.phase.name == "VARIANT":
                illegal = int(np.flatnonzero(~mask)[-1])
                with pytest.raises(IllegalActionError, match=rf"action {illegal} \(\w+"):
                    env.step(illegal)
                return
            env.step(int(rng.choice(np.flatnonzero(mask))))
    pytest.fail("no VARIANT phase in 40 random mall games")


def test_layout_orders_planes_then_slots_and_decodes_parameters():
    lay = layout()
    assert lay.size == 2 * 4 + 1 + 2 + 1 + 2
    assert lay.specials == (
        "roll",
        "buy_axe",
        "buy_bow",
        "end_turn",
        "take_bat_from_0",
        "take_bat_from_1",
    )
    assert lay.slot("buy", 1) == lay.special("buy_bow") == 10
    step = lay.decode(lay.plane_action("target", 3))
    assert (step.kind, step.cell, step.on_cell) == ("target", 3, True)
    take = lay.decode(lay.special("take_bat_from_1"))
    assert (take.kind, take.index, take.param, take.name, take.cell) == (
        "take",
        1,
        ("bat", 1),
        "take_bat_from_1",
        -1,
    )
    roll = lay.decode(lay.special("roll"))
    assert (roll.kind, roll.param, roll.name) == ("roll", None, "roll")


def test_layout_rejects_unknown_names_and_duplicates():
    lay = layout()
    with pytest.raises(ValueError, match="no slot family named 'sell'"):
        lay.slot("sell", 0)
    with pytest.raises(ValueError, match="has no slot 2"):
        lay.slot("buy", 2)
    with pytest.raises(ValueError, match="no special action named 'jump'"):
        lay.special("jump")
    with pytest.raises(ValueError, match="used twice"):
        ActionLayout.build(4, ["step"], ["buy_axe", SlotFamily.of("buy", ["axe"])])


class Step(enum.Enum):
    CHOOSE = 0
    DONE = 1


class Choose(PhaseRule):
    def mask(self, game, state, legal: LegalMask) -> None:
        legal.special("roll")
        legal.slot("buy", 1)
        legal.cells("step", [0, 3])

    @handles("roll")
    def roll(self, game, state, action, events) -> None:
        events.append(("roll", action.param))

    @handles("buy")
    def buy(self, game, state, action, events) -> None:
        events.append(("buy", action.param))


class ChooseAgain(Choose):
    """A subclass inherits its base's handlers; its own for a kind replaces the base's."""

    @handles("roll")
    def reroll(self, game, state, action, events) -> None:
        events.append(("reroll", action.param))


def test_handlers_are_inherited_and_a_subclass_replaces_one():
    lay = layout()
    events: list = []
    ChooseAgain().apply(None, None, lay.decode(lay.special("roll")), events)
    ChooseAgain().apply(None, None, lay.decode(lay.special("buy_bow")), events)
    assert events == [("reroll", None), ("buy", 1)]
    assert ChooseAgain().handled_kinds == {"roll", "buy"}


def test_a_handlers_table_is_refused_for_the_handles_decorator():
    with pytest.raises(TypeError, match="@handles"):

        class Old(PhaseRule):
            handlers = {"roll": "roll"}


def test_phase_rule_masks_by_name_and_dispatches_on_the_action_kind():
    lay = layout()
    legal = LegalMask(lay)
    Choose().mask(None, None, legal)
    assert np.flatnonzero(legal.array).tolist() == [
        0,
        3,
        lay.special("roll"),
        lay.special("buy_bow"),
    ]
    events: list = []
    Choose().apply(None, None, lay.decode(lay.special("buy_bow")), events)
    assert events == [("buy", 1)]
    with pytest.raises(RuntimeError, match="no handler for 'step'"):
        Choose().apply(None, None, lay.decode(0), events)


def test_phase_table_must_cover_every_phase():
    PhaseTable(Step, {Step.CHOOSE: Choose(), Step.DONE: GameOverPhase()})
    with pytest.raises(ValueError, match=r"missing \['DONE'\]"):
        PhaseTable(Step, {Step.CHOOSE: Choose()})


def test_next_seat_skips_seats_that_may_not_play_and_counts_rounds():
    assert next_seat(0, 3) == (1, 0, False)
    assert next_seat(2, 3) == (0, 0, True)
    assert next_seat(1, 3, may_play=lambda s: s != 2) == (0, 1, True)  # passes seat 2
    assert next_seat(2, 4, first_player=3, may_play=lambda s: s != 3) == (0, 1, True)
    with pytest.raises(RuntimeError, match="no seat may play"):
        next_seat(0, 2, may_play=lambda s: False)


def test_hooks_combine_universal_and_keyed_effects():
    hooks = HookRegistry("test")
    hooks.register(ATTACK_VALUE, "height", universal=True)(lambda higher: int(higher))
    hooks.register(ATTACK_VALUE, "rage")(lambda higher: 2)
    hooks.register(MOVE_STOPS, "water")(lambda cell: cell == 5)
    assert hooks.total(ATTACK_VALUE, 3, True) == 4  # universal only
    assert hooks.total(ATTACK_VALUE, 3, True, keys=["rage", "unrelated"]) == 6
    assert hooks.any(MOVE_STOPS, 5, keys=["water"]) and not hooks.any(MOVE_STOPS, 5)
    with pytest.raises(TypeError, match="combines by sum"):
        hooks.any(ATTACK_VALUE, True)
    with pytest.raises(ValueError, match="twice"):
        hooks.register(ATTACK_VALUE, "rage")(lambda higher: 1)
    hooks.register(EXTRA_ACTIONS, "bow")("an effect object")
    assert hooks.get(EXTRA_ACTIONS, "bow") == "an effect object"
    with pytest.raises(KeyError, match=r"no effect 'axe' at extra_actions; known: \['bow'\]"):
        hooks.get(EXTRA_ACTIONS, "axe")


def test_plane_layout_names_channels_from_one_declaration():
    planes = PlaneLayout(
        [
            View("space"),
            View("piece", ["bat", "rocks"]),
            View("hero@seat", ["+0", "+1"], sep=""),
            View("phase", ["A", "B"], constant=True),
            View("round", constant=True),
        ]
    )
    assert planes.channel_names == (
        "space",
        "piece:bat",
        "piece:rocks",
        "hero@seat+0",
        "hero@seat+1",
        "phase:A",
        "phase:B",
        "round",
    )
    assert planes["piece"] == slice(1, 3) and planes.channel("phase", "B") == 6
    assert planes.board_channels == 5 and planes.constant_channels == 3
    with pytest.raises(ValueError, match="comes after constant views"):
        PlaneLayout([View("round", constant=True), View("space")])
    with pytest.raises(KeyError, match="no observation view 'dice'"):
        planes["dice"]


def test_envs_are_modules_of_the_envs_package_and_load_lazily():
    code = (
        "import sys, envs; assert 'envs.heroica.rules' not in sys.modules; "
        "assert 'envs.heroclix.rules' not in sys.modules; "
        "from envs import heroica_v0, heroscape_v0; "
        "assert hasattr(heroica_v0, 'env') and hasattr(heroscape_v0, 'env'); "
        "assert 'envs.heroscape.rules' in sys.modules; print(sorted(envs.env_names()))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['heroclix_v0', 'heroica_v0', 'heroscape_v0']"


def test_unknown_env_attribute_and_name():
    import envs

    with pytest.raises(AttributeError, match="no attribute 'chess_v6'"):
        envs.chess_v6  # noqa: B018
    with pytest.raises(ValueError, match="unknown env 'chess_v6'"):
        envs.make("chess_v6")
