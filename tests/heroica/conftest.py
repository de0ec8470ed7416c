"""Shared helpers for the Heroica rule tests (envs/heroica/RULES.md HE-1 ... HE-20).

Every helper goes through the public API: ``from_scenario``, ``apply_string``, ``legal_actions``
+ ``action_to_string``, ``to_dict``, ``returns`` and ``render_text``.
"""

from __future__ import annotations

import textwrap

import pytest

from envs.core.dice import DiceScriptExhausted
from envs.heroica.rules import HeroicaGame
from envs.heroica.state import HeroField

__all__ = ["DiceScriptExhausted", "HeroField", "HeroicaGame", "Scene", "scene"]


class Scene:
    """A game + state pair with short, readable accessors for tests."""

    def __init__(self, game: HeroicaGame, state):
        self.game = game
        self.state = state
        self.events: list = []

    # -- acting ------------------------------------------------------------------------
    def do(self, *actions: str) -> list:
        """Apply actions by name; returns (and remembers) all events they produced."""
        out = []
        for action in actions:
            out += self.game.apply_string(self.state, action)
        self.events += out
        return out

    def legal(self) -> list[str]:
        return [
            self.game.action_to_string(self.state, a) for a in self.game.legal_actions(self.state)
        ]

    def can(self, action: str) -> bool:
        return action in self.legal()

    # -- reading the public state ------------------------------------------------------
    @property
    def d(self) -> dict:
        return self.game.to_dict(self.state)

    @property
    def phase(self) -> str:
        return self.d["phase"]

    @property
    def seat(self) -> int:
        return self.game.current_player(self.state)

    def hero(self, seat: int, field: str) -> int:
        return self.d["heroes"][seat][HeroField[field.upper()]]

    def pos(self, seat: int) -> tuple[int, int]:
        return divmod(self.hero(seat, "cell"), self.game.width)

    def health(self, seat: int) -> int:
        return self.hero(seat, "health")

    def gold(self, seat: int) -> int:
        return self.hero(seat, "gold")

    def kills(self, seat: int, monster: str | None = None) -> int:
        row = self.d["heroes"][seat]
        if monster is None:
            return sum(row[HeroField.KILLS :])
        return row[HeroField.KILLS + self.game.monster_ids.index(monster)]

    def weapons(self, seat: int) -> set[str]:
        bits = self.hero(seat, "weapons")
        return {w for i, w in enumerate(self.game.weapon_ids) if bits >> i & 1}

    def store(self) -> set[str]:
        bits = self.d["store_weapons"]
        return {w for i, w in enumerate(self.game.weapon_ids) if bits >> i & 1}

    def piece(self, r: int, c: int) -> str:
        """'' for an empty space, else the piece id (``bat``, ``rocks``, ``chest``, ``torch``...)."""
        code = self.d["piece"][r * self.game.width + c]
        return "" if code == 0 else self.game.piece_kinds[code - 1][1]

    def kinds(self, kind: str) -> list[str]:
        return [e.kind for e in self.events if e.kind == kind]

    @property
    def winners(self) -> list[int]:
        return self.d["winners"]

    def returns(self):
        return list(self.game.returns(self.state))

    def text(self) -> str:
        return self.game.render_text(self.state)


def scene(map_text: str, target: tuple[int, int], **kwargs) -> Scene:
    game, state = HeroicaGame.from_scenario(textwrap.dedent(map_text), target, **kwargs)
    return Scene(game, state)


@pytest.fixture
def make():
    return scene


@pytest.fixture
def wrap():
    """``wrap(game, state)`` -> Scene, for games built without ``from_scenario``."""
    return Scene
