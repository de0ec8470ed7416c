"""Heroscape data: battlefields, army cards and scenarios (envs/heroscape/RULES.md HS-1, HS-2, HS-14).

The one place the rest of the package (and training, tests) imports Heroscape content from;
the code lives in one module per kind of file, each documenting its file format:

==================================  ==========================================================
:mod:`envs.heroscape.battlefield`   ``battlefields/<id>.yaml``: the hex-token map format
                                    (levels, terrain, zones, gaps) and its parser;
                                    :class:`Battlefield`, :class:`Terrain`
:mod:`envs.heroscape.army_cards`    ``cards/<id>.yaml``, one card per file:
                                    :class:`ArmyCard`, :class:`CardKind`
:mod:`envs.heroscape.scenario_file` ``scenarios/<id>.yaml``: battlefield, players' armies
                                    and start zones, victory, round cap, custom cards;
                                    :class:`Scenario`
:mod:`envs.heroscape.validation`    checks the three share (fields at a path inside a
                                    document, id equal to the file name)
==================================  ==========================================================

Three kinds of YAML file, each validated on load. Every problem is a
:class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field and what is
wrong (for map tokens also the board row/col and the file column)::

    battlefields/ridge.yaml, line 9, field 'map': map row 2, col 4 (file column 19): unknown
    token '0n'; ...

Every loader takes a shipped id (``"meadow"``) or a file path; see
:func:`envs.core.scenario.resolve_data_file`.
"""

from __future__ import annotations

from .army_cards import (CARDS_DIR, DEFAULT_DOUBLE_HEIGHT, DEFAULT_SINGLE_HEIGHT, ArmyCard,
                         CardKind, card_from_text, list_cards, load_card, load_cards)
from .battlefield import (BATTLEFIELDS_DIR, GAP_TOKENS, MAX_COLS, MAX_ROWS, ODD_ROW_INDENT,
                          TERRAIN_CODES, Battlefield, Terrain, battlefield_from_text,
                          list_battlefields, load_battlefield)
from .scenario_file import (DEFAULT_ROUND_CAP, MAX_PLAYERS, MIN_PLAYERS, SCENARIOS_DIR,
                            PlayerSetup, Scenario, Victory, VictoryType, list_scenarios,
                            load_scenario, scenario_from_text)

__all__ = [
    "BATTLEFIELDS_DIR",
    "CARDS_DIR",
    "DEFAULT_DOUBLE_HEIGHT",
    "DEFAULT_ROUND_CAP",
    "DEFAULT_SINGLE_HEIGHT",
    "GAP_TOKENS",
    "MAX_COLS",
    "MAX_PLAYERS",
    "MAX_ROWS",
    "MIN_PLAYERS",
    "ODD_ROW_INDENT",
    "SCENARIOS_DIR",
    "TERRAIN_CODES",
    "ArmyCard",
    "Battlefield",
    "CardKind",
    "PlayerSetup",
    "Scenario",
    "Terrain",
    "Victory",
    "VictoryType",
    "battlefield_from_text",
    "card_from_text",
    "list_battlefields",
    "list_cards",
    "list_scenarios",
    "load_battlefield",
    "load_card",
    "load_cards",
    "load_scenario",
    "scenario_from_text",
]
