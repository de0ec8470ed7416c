"""The Heroica die (HE-3.3) and what its symbols are worth."""

from __future__ import annotations

from envs.core.dice import DieSpec

HEROICA_DIE = DieSpec(
    # HE-3.3: one Shield face, two Sword/3 faces, two Skull/2 faces, one Sword&Skull/1 face.
    "heroica",
    ("shield", "sword", "sword", "skull", "skull", "sword_skull"),
)
SHIELD, SWORD, SKULL, SWORD_SKULL = "shield", "sword", "skull", "sword_skull"
MOVE_VALUE = {SHIELD: 4, SWORD: 3, SKULL: 2, SWORD_SKULL: 1}  # HE-3.3 movement/healing
CHEST_GOLD = {SHIELD: 2, SWORD: 1, SKULL: 0, SWORD_SKULL: 1}  # HE-11.2
DIE_SYMBOLS = tuple(MOVE_VALUE)  # shield, sword, skull, sword_skull (observation order)
