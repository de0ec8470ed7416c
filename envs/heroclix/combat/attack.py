"""What an attack and a damage are, before any rule resolves them: the kinds of attack
(HC-4.14, HC-4.27) and of damage (which reductions may reduce, R-3), an attack's spec (what a
power changes in it) and its result. Their own module because the bots and the power variants
describe attacks with them without resolving anything (:mod:`envs.heroclix.combat.resolve`
resolves them).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class AttackKind(enum.StrEnum):
    CLOSE = "close"  # HC-4.27
    RANGED = "ranged"  # HC-4.14


class DamageKind(enum.StrEnum):
    """What dealt the damage (see the module docstring: which kinds reductions reduce)."""

    ATTACK = "attack"
    KNOCKBACK = "knockback"
    POISON = "poison"
    PUSHING = "pushing"  # HC-3.16
    CRITICAL_MISS = "critical_miss"  # HC-4.6
    EARTHBOUND = "earthbound"
    EXHAUSTED = "exhausted"
    MIND_CONTROL = "mind_control"
    RETALIATION = "retaliation"


REDUCIBLE = frozenset({DamageKind.ATTACK, DamageKind.KNOCKBACK, DamageKind.POISON})


@dataclass(frozen=True)
class AttackSpec:
    """One attack's kind and what a power changes in it (step numbers of the docstring)."""

    kind: AttackKind
    power: str = ""  # the variant's power key; "" for a plain attack
    damage: int | None = None  # replacement damage value (objects, Energy Explosion's 1)
    damage_roll: bool = False  # Blades/Claws/Fangs: a d6 replaces the damage value
    damage_cap: int | None = None  # Quake: the damage value, reduced to this if higher
    bonus: int = 0  # the attacker's modifiers: a held object's strike bonus, Combat Expert +2
    object_bonus: int = 0  # the held object's part of ``bonus``, named apart in the event text
    penetrating: bool = False  # Psychic Blast, Exploit Weakness: no reductions
    deals_damage: bool = True  # False: Incapacitate (damage 0, a 12 adds none)
    splash: bool = False  # Energy Explosion: also every figure adjacent to each target
    always_knockback: bool = False  # Quake: every figure damaged is knocked back
    extra_token: bool = False  # Incapacitate: each enemy hit with 0-1 tokens gets one more

    @property
    def label(self) -> str:
        """The event's name of the attack: its kind always, since a power's variant may be
        close or ranged whatever the distance ("hypersonic speed (ranged attack)")."""
        plain = f"{self.kind} attack"
        return f"{self.power.replace('_', ' ')} ({plain})" if self.power else plain


CLOSE = AttackSpec(AttackKind.CLOSE)
RANGED = AttackSpec(AttackKind.RANGED)


@dataclass
class AttackResult:
    """What one attack did, for ``after_attack`` effects (Steal Energy) and captions."""

    attacker: int
    spec: AttackSpec
    dice: tuple[int, ...]  # the two dice of the attack roll
    hits: list[int] = field(default_factory=list)  # figures hit
    damage_taken: dict[int, int] = field(default_factory=dict)  # figure -> clicks taken

    @property
    def kind(self) -> AttackKind:
        return self.spec.kind
