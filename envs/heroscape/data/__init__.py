"""Heroscape data: battlefields, army cards and scenarios (envs/heroscape/RULES.md HS-1, HS-2, HS-14).

One module per kind of file, each documenting its file format:

* :mod:`envs.heroscape.data.battlefield`: ``battlefields/<id>.yaml``, the hex-token map format
  (levels, terrain, zones, gaps) and its parser; :class:`Battlefield`, :class:`Terrain`
* :mod:`envs.heroscape.data.army_cards`: ``cards/<id>.yaml``, one card per file;
  :class:`ArmyCard`, :class:`CardKind`
* :mod:`envs.heroscape.data.scenario_file`: ``scenarios/<id>.yaml``, battlefield, players'
  armies and start zones, victory, round cap, custom cards; :class:`Scenario`
* :mod:`envs.heroscape.data.validation`: the checks the three share (fields at a path inside a
  document, id equal to the file name)

Three kinds of YAML file, each validated on load. Every problem is a
:class:`~envs.core.scenario.ScenarioError` naming the file, the line, the field and what is
wrong (for map tokens also the board row/col and the file column)::

    battlefields/ridge.yaml, line 9, field 'map': map row 2, col 4 (file column 19): unknown
    token '0n'; ...

Every loader takes a shipped id (``"meadow"``) or a file path; see
:func:`envs.core.scenario.resolve_data_file`.
"""
