"""What an attack event says (envs/heroscape/RULES.md HS-12): the dice each side rolled and
why (the card's value plus the height die), the skulls and shields counted, the outcome.

Every die is scripted, so each text is known exactly; the scene's dice groups are read back
to check that the attack and defense dice are told apart by the count the text gives.
"""

from __future__ import annotations

import pytest

from envs.heroscape import combat


def one_on_one(H, a_level, d_level, *, attack, defense, dice):
    """Player 0's "Striker" (level ``a_level``) next to player 1's "Target" (``d_level``),
    waiting to attack. An "Other" card far away keeps player 1 in the game."""
    game, state = H.build(
        f"1nA {a_level}nA {d_level}nB 1nB 1nB",
        [
            [H.card("cb_striker", "Striker", attack=attack)],
            [H.card("cb_target", "Target", defense=defense), H.card("cb_other", "Other")],
        ],
        {"Striker": [(0, 1)], "Target": [(0, 2)], "Other": [(0, 4)]},
        dice=dice,
    )
    game.apply_string(state, "choose Striker")
    game.apply_string(state, "end movement")
    return game, state


def attack_texts(H, game, state) -> list[str]:
    return [e.text for e in H.attack(game, state, "Striker", "Target") if e.kind == "attack"]


@pytest.fixture(params=["basic game", "through the hook registry"])
def dice_path(request, monkeypatch):
    """Both ways the dice are counted: the basic game's shortcut and the hook registry, which
    names each effect by its key; the texts must be the same."""
    if request.param != "basic game":
        monkeypatch.setattr(combat, "dice_by_position", lambda: False)
    return request.param


def test_HS_12_4_attack_text_shows_the_attackers_height_die(H, dice_path):
    game, state = one_on_one(
        H, 2, 1, attack=2, defense=2, dice=["skull", "skull", "blank", "shield", "blank"]
    )
    assert attack_texts(H, game, state) == [
        "Striker attacks Target: 2 skulls from 3 attack dice (attack 2 + 1 height) "
        "vs 1 shield from 2 defense dice: destroyed"
    ]


def test_HS_12_4_attack_text_shows_the_defenders_height_die(H, dice_path):
    game, state = one_on_one(H, 1, 3, attack=1, defense=1, dice=["skull", "shield", "blank"])
    assert attack_texts(H, game, state) == [
        "Striker attacks Target: 1 skull from 1 attack die "
        "vs 1 shield from 2 defense dice (defense 1 + 1 height): blocked"
    ]
    assert H.where(game, state, "Target") == [(0, 2)]


def test_HS_12_7_blocked_attack_text_counts_only_skulls_and_shields(H):
    # The attacker's shield and the defender's skull count for nothing: 1 skull vs 1 shield.
    game, state = one_on_one(
        H, 1, 1, attack=2, defense=2, dice=["skull", "shield", "skull", "shield"]
    )
    assert attack_texts(H, game, state) == [
        "Striker attacks Target: 1 skull from 2 attack dice "
        "vs 1 shield from 2 defense dice: blocked"
    ]
    assert H.where(game, state, "Target") == [(0, 2)]


def test_HS_12_6_destroying_attack_text_says_destroyed(H):
    game, state = one_on_one(
        H, 1, 1, attack=3, defense=1, dice=["skull", "shield", "blank", "blank"]
    )
    assert attack_texts(H, game, state) == [
        "Striker attacks Target: 1 skull from 3 attack dice "
        "vs 0 shields from 1 defense die: destroyed"
    ]
    assert H.where(game, state, "Target") == []


def test_HS_12_2_and_12_3_scene_splits_the_dice_by_the_counts_in_the_text(H):
    # Attack dice then defense dice, 1 + 1 height and 2. Splitting after the first, second or
    # third die all give 1 skull and 1 shield; the text's "2 attack dice" places it.
    game, state = one_on_one(
        H, 2, 1, attack=1, defense=2, dice=["skull", "blank", "blank", "shield"]
    )
    events = H.attack(game, state, "Striker", "Target")
    attack_group, defense_group = game.scene(state, events).dice_groups
    assert (attack_group.faces, attack_group.result_text) == (("skull", "blank"), "1 skull")
    assert (defense_group.faces, defense_group.result_text) == (
        ("blank", "shield"),
        "1 shield: blocked",
    )
