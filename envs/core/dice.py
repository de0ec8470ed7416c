"""Dice: every random event of every game goes through here.

``Dice`` wraps a seeded ``numpy.random.Generator`` (seeded from ``reset(seed)``);
``ScriptedDice`` replays a fixed list of results for tests and puzzles and fails loudly when
the script runs out or a result does not fit the die. Results are plain ``int`` face indices;
a :class:`DieSpec` names the faces so that transcripts and tests can speak in symbols
(``"sword"``, ``"skull"``) rather than numbers. Each game defines its own dice
(``envs.heroica.dice``, ``envs.heroscape.dice``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class DieSpec:
    """A die with named faces. ``faces[i]`` is the symbol shown on face ``i``."""

    name: str
    faces: tuple[str, ...]

    @property
    def sides(self) -> int:
        return len(self.faces)

    def symbols(self) -> tuple[str, ...]:
        """Distinct symbols in first-appearance order."""
        return tuple(dict.fromkeys(self.faces))

    def symbol(self, face: int) -> str:
        return self.faces[face]

    def face_of(self, symbol: str) -> int:
        """The first face showing ``symbol`` (scripts name symbols, not faces)."""
        try:
            return self.faces.index(symbol)
        except ValueError:
            raise ValueError(
                f"die '{self.name}' has no face '{symbol}'; faces are {sorted(set(self.faces))}"
            ) from None

    def probability(self, symbol: str) -> float:
        return self.faces.count(symbol) / self.sides


_PLACEHOLDER_SEED = np.random.SeedSequence(0)


def stream_start(seed: int) -> Mapping[str, Any]:
    """Where ``np.random.default_rng(seed)`` starts, as a bit generator state: a generator
    set to it draws what a fresh one would. Hashing the seed is most of a generator's cost,
    so a seed replayed many times (the lookahead's shared playout seeds) is hashed once."""
    return np.random.default_rng(seed).bit_generator.state


class Dice:
    """Seeded dice. ``roll(spec)`` returns a face index; ``roll_symbol`` its symbol."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def roll(self, spec: DieSpec) -> int:
        return int(self.rng.integers(spec.sides))

    def roll_symbol(self, spec: DieSpec) -> str:
        return spec.faces[self.roll(spec)]

    def choice(self, n: int) -> int:
        """A uniform index in [0, n) for rules that pick at random (e.g. random setups)."""
        return int(self.rng.integers(n))

    def get_state(self) -> dict:
        return {"kind": "random", "bit_generator": self.rng.bit_generator.state}

    def set_state(self, state: dict) -> None:
        self.rng.bit_generator.state = state["bit_generator"]

    def restart(self, start: Mapping[str, Any]) -> None:
        """Roll on from ``start`` (:func:`stream_start`): as ``Dice(seed)`` would."""
        self.rng.bit_generator.state = start

    def copy(self) -> Dice:
        clone = Dice.__new__(Dice)
        # Seeded from a fixed sequence (overwritten at once): an unseeded generator draws OS
        # entropy, which was most of the cost of copying a state for a lookahead playout.
        clone.rng = np.random.Generator(type(self.rng.bit_generator)(_PLACEHOLDER_SEED))
        clone.rng.bit_generator.state = self.rng.bit_generator.state
        return clone


class DiceScriptExhausted(RuntimeError):
    """A scripted game asked for more rolls than its script holds."""


class ScriptedDice(Dice):
    """Replays results in order. Each entry is a face index or a face symbol.

    ``ScriptedDice(["sword", "skull"])`` makes the next two Heroica rolls Sword then Skull.
    Symbols are resolved against the die that is rolled, so a script can mix dice.
    """

    def __init__(self, results: Iterable[int | str]):
        super().__init__(0)
        self.script: list[int | str] = list(results)
        self.position = 0

    def _next(self, spec: DieSpec) -> int:
        if self.position >= len(self.script):
            raise DiceScriptExhausted(
                f"scripted dice ran out after {len(self.script)} rolls (rolling '{spec.name}')"
            )
        entry = self.script[self.position]
        self.position += 1
        if isinstance(entry, str):
            if entry.isdigit() and entry not in spec.faces:
                entry = int(entry)
            else:
                return spec.face_of(entry)
        if not 0 <= int(entry) < spec.sides:
            raise ValueError(f"scripted face {entry} is not a face of '{spec.name}'")
        return int(entry)

    def roll(self, spec: DieSpec) -> int:
        return self._next(spec)

    def remaining(self) -> int:
        return len(self.script) - self.position

    def get_state(self) -> dict:
        return {"kind": "scripted", "script": list(self.script), "position": self.position}

    def set_state(self, state: dict) -> None:
        self.script = list(state["script"])
        self.position = int(state["position"])

    def copy(self) -> ScriptedDice:
        clone = ScriptedDice(self.script)
        clone.position = self.position
        return clone


def dice_from_state(state: dict) -> Dice:
    """Rebuild dice saved with ``get_state`` (used by ``to_dict``/``from_dict``)."""
    if state["kind"] == "scripted":
        dice: Dice = ScriptedDice(state["script"])
    elif state["kind"] == "random":
        dice = Dice(0)
    else:
        raise ValueError(f"unknown dice kind {state['kind']!r}")
    dice.set_state(state)
    return dice
