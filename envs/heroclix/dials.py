"""HeroClix's forces and their dials in a game: one figure slot per figure that can play
(the scenario's forces, or every draftable copy with ``setup="play"``), the dial tables
(values and powers per click, HC-1.3), labels, team abilities (R-13), and the questions
the dial answers now: a value with Perplex (P-DMG-9), the powers shown and working
(HC-3.7, HC-3.8), flight (HC-1.12), traits, archenemies (HC-7.5).

:class:`DialForces` is one part of :class:`~envs.heroclix.game.HeroclixBase`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.heroclix.data.scenarios import Scenario
from envs.heroclix.data.teams import WILD_CARD, teams
from envs.heroclix.options import HeroclixOptions
from envs.heroclix.powers.catalog import POWERS
from envs.heroclix.powers.hooks import GROUNDED, HOOKS, PICKS_UP_OBJECTS, Trait, has_trait
from envs.heroclix.state import GROUND, NO_CELL, NO_OBJECT, SOAR, State

COLUMNS = ("speed", "attack", "defense", "damage")
RANGE_STAT = 4  # Perplex's fifth value after the four columns (P-DMG-9)
MAX_COPIES = 4  # copies of one non-unique figure a drafted force may hold (setup="play")


class DialForces:
    """The figures of a game and what their dials say."""

    options: HeroclixOptions
    scenario: Scenario
    setup: str
    team_abilities: bool
    team_keys: list[tuple[str, ...]]  # per figure, its team effects
    padded: Any
    build_total: int
    flag_traits: dict[str, frozenset[str]]
    caches: dict[str, Any]

    # -- setup ----------------------------------------------------------------------------
    def _build_forces(self) -> None:
        """One figure slot per figure that can be in the game: the scenario's forces, or
        (setup="play") per seat every copy of each pool figure that a force may draft."""
        owner, figures, start_cells, start_modes = [], [], [], []
        pool = self.scenario.pool
        for seat, player in enumerate(self.scenario.players):
            if self.setup == "play":
                for figure in pool:
                    copies = (
                        1 if figure.unique else min(MAX_COPIES, self.build_total // figure.points)
                    )
                    for _ in range(copies):
                        owner.append(seat)
                        figures.append(figure)
                        start_cells.append(NO_CELL)
                        start_modes.append(GROUND)
                continue
            for entry in player.force:
                owner.append(seat)
                figures.append(entry.figure)
                start_cells.append(self.padded.to_padded(entry.cell))
                start_modes.append(SOAR if entry.mode == "soar" else GROUND)
        self.figures = figures
        ids = [f.id for f in pool]
        self.kind = np.asarray(
            [ids.index(f.id) if f.id in ids else -1 for f in figures], dtype=np.int16
        )
        self.n_figures = len(figures)
        self.owner = np.asarray(owner, dtype=np.int8)
        self._owned: dict[int, np.ndarray] = {}
        self.start_cells, self.start_modes = start_cells, start_modes
        clicks = max(len(f.dial) for f in figures)
        self.dial_length = np.asarray([len(f.dial) for f in figures], dtype=np.int8)
        self.dial_values = np.zeros((self.n_figures, clicks + 1, 4), dtype=np.int8)
        self.dial_powers: list[list[tuple[str | None, ...]]] = []
        for i, figure in enumerate(figures):
            for c, click in enumerate(figure.dial):
                self.dial_values[i, c] = (click.speed, click.attack, click.defense, click.damage)
            self.dial_powers.append(
                [
                    tuple(k if k and POWERS[k].implemented else None for k in click.powers)
                    for click in figure.dial
                ]
            )
        self.dial_keys = [
            [tuple(k for k in click if k is not None) for click in powers]
            for powers in self.dial_powers
        ]
        self.range = np.asarray([f.range for f in figures], dtype=np.int8)
        self.bolts = np.asarray([f.targets for f in figures], dtype=np.int8)
        self.flyer = np.asarray([f.flyer for f in figures], dtype=bool)
        self.points = np.asarray([f.points for f in figures], dtype=np.int16)
        self.optional_column = [
            [[bool(k and POWERS[k].optional) for k in click] for click in powers]
            for powers in self.dial_powers
        ]
        names = [f.name for f in figures]
        if self.setup == "play":  # any seat may draft any figure: labels name the seat
            keys = list(zip(owner, names))
            self.figure_label = [
                n
                + (f" {keys[: i + 1].count((o, n))}" if keys.count((o, n)) > 1 else "")
                + f" (p{o})"
                for i, (o, n) in enumerate(keys)
            ]
        else:
            self.figure_label = [
                n if names.count(n) == 1 else f"{n} {names[: i + 1].count(n)}"
                for i, n in enumerate(names)
            ]

    def _team_keys(self) -> list[tuple[str, ...]]:
        """Per figure, the team ability effects it has (R-13: none unless team_abilities);
        the wild card takes those of every team in its force (TA-MOD)."""
        if not self.team_abilities:
            return [()] * self.n_figures
        table = teams()
        own = [table[f.team].effect if f.team else None for f in self.figures]
        keys = []
        for i, effect in enumerate(own):
            if effect == WILD_CARD:
                force = {
                    other
                    for j, other in enumerate(own)
                    if other is not None and other != WILD_CARD and self.owner[j] == self.owner[i]
                }
                keys.append(tuple(sorted(force)))
            else:
                keys.append((effect,) if effect else ())
        return keys

    def force_points(self, state: State, seat: int) -> int:
        """Points of the force ``seat`` built (HC-7.9 default: the actual total)."""
        return int(self.points[(self.owner == seat) & state.drafted].sum())

    # -- the dial -------------------------------------------------------------------------
    def value(self, state: State, figure: int, column: int) -> int:
        """The dial's value now, with Perplex's +1/-1 until the end of the turn (P-DMG-9)."""
        value = int(self.dial_values[figure, state.click[figure], column])
        if state.perplex:
            value = max(
                0, value + sum(d for t, c, d, _ in state.perplex if t == figure and c == column)
            )
        return value

    def range_value(self, state: State, figure: int) -> int:
        """Range (HC-1.6: not on the dial), with Perplex's change (P-DMG-9)."""
        value = int(self.range[figure])
        if state.perplex:
            value += sum(d for t, c, d, _ in state.perplex if t == figure and c == RANGE_STAT)
        return max(0, value)

    def speed_value(self, state: State, figure: int) -> int:
        return self.value(state, figure, 0)

    def attack_value(self, state: State, figure: int) -> int:
        return self.value(state, figure, 1)

    def defense_value(self, state: State, figure: int) -> int:
        return self.value(state, figure, 2)

    def damage_value(self, state: State, figure: int) -> int:
        return self.value(state, figure, 3)

    def owned(self, seat: int) -> np.ndarray:
        """bool[n_figures], read-only: the figures ``seat`` owns (owners never change; the
        turn's bookkeeping asks this at every turn's start and end)."""
        found = self._owned.get(seat)
        if found is None:
            found = self._owned[seat] = self.owner == seat
            found.setflags(write=False)
        return found

    def powers(self, state: State, figure: int) -> tuple[str, ...]:
        """HC-3.7/3.8: the implemented powers its dial shows now, less those switched off,
        countered (Outwit, P-DMG-10) or ignored (during a Pulse Wave, P-ATT-3)."""
        if state.cell[figure] == NO_CELL or figure in state.powers_ignored:
            return ()
        shown = self._shown_keys()[figure][int(state.click[figure])]
        off = state.power_off[figure]
        if state.outwits:
            off = off.copy()
            for target, column, _ in state.outwits:
                if target == figure:
                    off[column] = True
        if True not in off.tolist():  # asked ~10 times a decision; cheaper than off.any()
            return shown
        return (
            tuple(
                k
                for col, k in enumerate(self.dial_powers[figure][int(state.click[figure])])
                if k is not None and not off[col]
            )
            + self.team_keys[figure]
        )

    def _shown_keys(self) -> list[list[tuple[str, ...]]]:
        """Per figure and click, its dial's keys then its team ability's (built once)."""
        shown = self.caches.get("shown_keys")
        if shown is None:
            shown = self.caches["shown_keys"] = [
                [keys + self.team_keys[f] for keys in self.dial_keys[f]]
                for f in range(len(self.dial_keys))
            ]
        return shown

    def flies(self, state: State, figure: int) -> bool:
        """A flyer (HC-1.12) that is not grounded by Earthbound now (P-SPD-4)."""
        return bool(self.flyer[figure]) and not has_trait(self.powers(state, figure), GROUNDED)

    def has_trait(self, state: State, figure: int, trait: Trait) -> bool:
        """A trait of the figure's powers now, including those the rule flags add."""
        powers = self.powers(state, figure)
        # asked many times per decision with the same few power tuples; the answer depends
        # on the tuple alone (the rule flags are fixed for the game's life)
        memo = self.caches.setdefault("flag_or_power_traits", {})
        found = memo.get((powers, trait))
        if found is None:
            found = memo[(powers, trait)] = has_trait(powers, trait) or any(
                trait in self.flag_traits.get(k, ()) for k in powers
            )
        return found

    def switchable(self, state: State, figure: int) -> list[int]:
        """Columns whose optional power is showing and still on (HC-3.8)."""
        click = int(state.click[figure])
        return [
            c
            for c in range(4)
            if self.optional_column[figure][click][c] and not state.power_off[figure, c]
        ]

    def archenemies(self, a: int, b: int) -> bool:
        fa, fb = self.figures[a], self.figures[b]
        return bool(
            fa.archenemy_color and fa.archenemy_color == fb.archenemy_color and fa.name != fb.name
        )

    def after_dial_turn(self, state: State, figure: int, events: list) -> None:
        """HC-6.10: a holder that loses the power to hold (its dial turned, or switched off)
        drops the object on its square."""
        held = int(state.held[figure])
        if held != NO_OBJECT and not has_trait(self.powers(state, figure), PICKS_UP_OBJECTS):
            state.objects[held] = state.cell[figure]
            state.held[figure] = NO_OBJECT

    def label(self, figure: int) -> str:
        return self.figure_label[figure]

    def figures_with(self, point) -> frozenset[int]:
        """Figures whose dial shows, at some click, a power with an effect at ``point`` (so
        the flow need not ask the others)."""
        found = self.caches.setdefault("figures_with", {}).get(point.name)
        if found is None:
            found = frozenset(
                f
                for f in range(self.n_figures)
                if any(
                    HOOKS.has(point, k)
                    for keys in self.dial_keys[f]
                    for k in keys + self.team_keys[f]
                )
            )
            self.caches["figures_with"][point.name] = found
        return found
