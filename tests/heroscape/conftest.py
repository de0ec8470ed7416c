"""Helpers for the Heroscape rule tests (envs/heroscape/RULES.md HS-0 ... HS-14).

Every rule test builds a small custom game from inline text (a battlefield map, a few army
cards, who plays what), places figures by label with ``HeroscapeGame.from_scenario``, scripts
every die, applies actions by their names and checks the public API only: legal action
names, ``game.to_dict(state)``, the events returned by ``apply`` and ``game.returns``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

import pytest

from envs.heroscape.data.scenario_file import scenario_from_text
from envs.heroscape.rules import HeroscapeGame


def card(
    card_id: str,
    name: str,
    *,
    figures: int = 1,
    move: int = 5,
    range: int = 1,
    attack: int = 2,
    defense: int = 2,
    double_space: bool = False,
    height: int | None = None,
) -> dict:
    """One army card; a hero when ``figures == 1``, else a squad (HS-2.2)."""
    return dict(
        id=card_id,
        name=name,
        kind="hero" if figures == 1 else "squad",
        figures=figures,
        move=move,
        range=range,
        attack=attack,
        defense=defense,
        double_space=double_space,
        height=height,
    )


def scenario_text(
    map_text: str,
    armies: Sequence[Sequence[dict]],
    zones: Sequence[str] | None = None,
    victory: str | None = None,
    round_cap: int | None = None,
) -> str:
    """YAML of a whole custom scenario: inline battlefield, the cards, one army per player."""
    zones = list(zones) if zones is not None else ["A", "B", "C", "D"][: len(armies)]
    lines = [
        "id: test_scenario",
        "name: Test",
        "battlefield:",
        "  id: test_field",
        "  name: Test field",
        "  map: |",
    ]
    lines += ["    " + row for row in textwrap.dedent(map_text).strip("\n").splitlines()]
    lines.append("cards:")
    for army in armies:
        for c in army:
            lines.append(f"  - id: {c['id']}")
            for key in ("name", "kind", "figures", "move", "range", "attack", "defense"):
                lines.append(f"    {key}: {c[key]}")
            lines.append(f"    double_space: {'true' if c['double_space'] else 'false'}")
            if c["height"] is not None:
                lines.append(f"    height: {c['height']}")
    lines.append("players:")
    for army, zone in zip(armies, zones):
        lines.append(f"  - army: [{', '.join(c['id'] for c in army)}]")
        lines.append(f"    zone: {zone}")
    if victory is not None:
        lines.append(f"victory: {victory}")
    if round_cap is not None:
        lines.append(f"round_cap: {round_cap}")
    return "\n".join(lines) + "\n"


def build(
    map_text: str,
    armies: Sequence[Sequence[dict]],
    placements: dict | None,
    dice: Iterable[str] = (),
    turn: int = 0,
    zones: Sequence[str] | None = None,
    victory: str | None = None,
    round_cap: int | None = None,
    **options,
):
    """(game, state) of a custom scenario with figures placed and dice scripted."""
    sc = scenario_from_text(scenario_text(map_text, armies, zones, victory, round_cap))
    return HeroscapeGame.from_scenario(sc, placements, dice=list(dice), turn=turn, **options)


def names(game, state) -> list[str]:
    """Names of the legal actions now."""
    return [game.action_to_string(state, a) for a in game.legal_actions(state)]


def rc(game, cell: int) -> tuple[int, int]:
    return divmod(int(cell), game.width)


def where(game, state, label: str) -> list[tuple[int, int]]:
    """Sorted (row, col) spaces of a figure from ``to_dict``; [] once it is destroyed."""
    data = game.to_dict(state)
    i = game.figure_label.index(label)
    return sorted(rc(game, c) for c in (data["cell"][i], data["cell2"][i]) if c >= 0)


def phase(game, state) -> str:
    return game.to_dict(state)["phase"]


def copy(game, state):
    return game.from_dict(game.to_dict(state))


def destinations(game, state, label: str) -> set:
    """Where ``label`` may move now (MOVE_SELECT): single cells (r, c) or, for a
    double-space figure, frozensets of its two final spaces. The state is not changed."""
    s = copy(game, state)
    at = where(game, s, label)[0]
    game.apply_string(s, f"move with {label} ({at[0]},{at[1]})")
    prefix = f"move {label} to "
    firsts = [n[len(prefix) :] for n in names(game, s) if n.startswith(prefix)]
    result = set()
    for text in firsts:
        s2 = copy(game, s)
        game.apply_string(s2, prefix + text)
        if phase(game, s2) == "MOVE_TAIL":
            tail_prefix = f"other half {label} to "
            for tail in [n for n in names(game, s2) if n.startswith(tail_prefix)]:
                s3 = copy(game, s2)
                game.apply_string(s3, tail)
                result.add(frozenset(where(game, s3, label)))
        else:
            spaces = where(game, s2, label)
            result.add(spaces[0] if len(spaces) == 1 else frozenset(spaces))
    return result


def move(game, state, label: str, dest, tail=None) -> list:
    """Select ``label`` and move it to ``dest`` (and ``tail`` for a double-space figure)."""
    at = where(game, state, label)[0]
    events = game.apply_string(state, f"move with {label} ({at[0]},{at[1]})")
    events += game.apply_string(state, f"move {label} to ({dest[0]},{dest[1]})")
    if tail is not None and phase(game, state) == "MOVE_TAIL":
        events += game.apply_string(state, f"other half {label} to ({tail[0]},{tail[1]})")
    return events


def attack(game, state, attacker: str, target: str) -> list:
    """Declare ``attacker`` against ``target`` (ATTACK_SELECT); returns the events."""
    a, t = where(game, state, attacker)[0], where(game, state, target)[0]
    events = game.apply_string(state, f"attack with {attacker} ({a[0]},{a[1]})")
    events += game.apply_string(state, f"attack {target} ({t[0]},{t[1]})")
    return events


def targets(game, state, attacker: str) -> set[str]:
    """Labels ``attacker`` may attack now (ATTACK_SELECT). The state is not changed."""
    s = copy(game, state)
    a = where(game, s, attacker)[0]
    if f"attack with {attacker} ({a[0]},{a[1]})" not in names(game, s):
        return set()
    game.apply_string(s, f"attack with {attacker} ({a[0]},{a[1]})")
    found = set()
    for n in names(game, s):
        if n.startswith("attack "):
            found.add(n[len("attack ") :].rsplit(" (", 1)[0])
    return found


@pytest.fixture
def H():
    """The helper functions, for tests that prefer one name."""
    import types

    return types.SimpleNamespace(
        card=card,
        build=build,
        scenario_text=scenario_text,
        names=names,
        where=where,
        phase=phase,
        destinations=destinations,
        move=move,
        attack=attack,
        targets=targets,
        copy=copy,
    )
