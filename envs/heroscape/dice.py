"""Heroscape's combat die (HS-3.2): three skulls, two shields and one blank of six faces.

Attack dice count skulls and defense dice count shields (HS-12); the initiative roll counts
skulls (HS-4.1).
"""

from __future__ import annotations

from envs.core.dice import DieSpec

HEROSCAPE_COMBAT_DIE = DieSpec(
    "heroscape_combat",
    ("skull", "skull", "skull", "shield", "shield", "blank"),
)

__all__ = ["HEROSCAPE_COMBAT_DIE"]
