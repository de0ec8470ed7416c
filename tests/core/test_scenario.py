"""Scenario loading: every bad file names the file, the line (or field) and the problem."""

from __future__ import annotations

import textwrap

import pydantic
import pytest

from envs.core.scenario import (
    STRICT_MODEL,
    ScenarioError,
    grid_field,
    load_yaml,
    parse_grid,
    validate,
)


def _yaml(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


class Unit(pydantic.BaseModel):
    model_config = STRICT_MODEL
    name: str
    health: pydantic.StrictInt


class Army(pydantic.BaseModel):
    model_config = STRICT_MODEL
    title: str
    units: list[Unit]


ARMY = _yaml("""
    title: Test army
    units:
      - name: Knight
        health: 3
      - name: Archer
        health: 2
""")


def test_error_message_format():
    err = ScenarioError(
        "missions/tunnel.yaml", "(1, 12) is a wall, not a space", line=4, field="target"
    )
    assert str(err) == (
        "missions/tunnel.yaml, line 4, field 'target': (1, 12) is a wall, not a space"
    )
    assert isinstance(err, ValueError)
    assert (err.source, err.line, err.field) == ("missions/tunnel.yaml", 4, "target")
    assert str(ScenarioError("<string>", "bad")) == "<string>: bad"


def test_load_yaml_finds_lines_of_nested_fields():
    data, lines = load_yaml(ARMY)
    assert data["units"][1]["name"] == "Archer"
    assert lines.source == "<string>"
    assert lines.line("title") == 1
    assert lines.line("units") == 2
    assert lines.line(("units", 1)) == 5
    assert lines.line("units.1.health") == 6
    assert lines.line(("units", 0, "health")) == 4
    # A field that is not written points at the nearest written parent.
    assert lines.line(("units", 1, "armor")) == 5


def test_load_yaml_reads_a_path(tmp_path):
    path = tmp_path / "army.yaml"
    path.write_text(ARMY, encoding="utf-8")
    data, lines = load_yaml(path)
    assert data["title"] == "Test army"
    assert lines.source == str(path)


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("title: x\nunits: [1, 2\nmore: 3\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_yaml(path)
    assert info.value.source == str(path)
    assert info.value.line is not None and info.value.line >= 2
    assert str(path) in str(info.value) and "YAML syntax error" in str(info.value)


def test_duplicate_key_is_an_error():
    with pytest.raises(ScenarioError) as info:
        load_yaml("title: a\nunits: []\ntitle: b\n", source="army.yaml")
    assert info.value.line == 3
    assert "duplicate key 'title'" in str(info.value)
    assert "first given on line 1" in str(info.value)


def test_validate_returns_the_model():
    data, lines = load_yaml(ARMY)
    army = validate(Army, data, "army.yaml", lines)
    assert [u.health for u in army.units] == [3, 2]


def test_validate_unknown_key_names_line_and_allowed_fields():
    data, lines = load_yaml(ARMY.replace("    health: 2", "    health: 2\n    armour: 1"))
    with pytest.raises(ScenarioError) as info:
        validate(Army, data, "army.yaml", lines)
    err = info.value
    assert (err.line, err.field) == (7, "units.1.armour")
    assert "unknown field 'armour'" in str(err) and "allowed: name, health" in str(err)


def test_validate_missing_key():
    data, lines = load_yaml("units: []\n")
    with pytest.raises(ScenarioError) as info:
        validate(Army, data, "army.yaml", lines)
    assert info.value.field == "title"
    assert "missing required field 'title'" in str(info.value)


def test_validate_wrong_type_names_field_and_value():
    data, lines = load_yaml(ARMY.replace("health: 2", "health: two"))
    with pytest.raises(ScenarioError) as info:
        validate(Army, data, "army.yaml", lines)
    err = info.value
    assert (err.line, err.field) == (6, "units.1.health")
    assert "'two'" in str(err)


def test_validate_reports_every_problem():
    data, lines = load_yaml("title: 3\nunits: []\nextra: 1\n")
    with pytest.raises(ScenarioError) as info:
        validate(Army, data, "army.yaml", lines)
    assert len(info.value.others) == 1
    assert "line 1, field 'title'" in str(info.value)
    assert "line 3, field 'extra'" in str(info.value)


def test_validate_rejects_a_document_that_is_not_a_mapping():
    data, lines = load_yaml("- 1\n- 2\n")
    with pytest.raises(ScenarioError, match="expected a mapping"):
        validate(Army, data, "army.yaml", lines)


def test_parse_grid_returns_rows():
    assert parse_grid("#.#\n...\n", "#.", "m.yaml") == ["#.#", "..."]


def test_parse_grid_ragged_row_names_the_row_and_line():
    with pytest.raises(ScenarioError) as info:
        parse_grid(
            "###\n#.\n###\n", {"#": "wall", ".": "space"}, "m.yaml", first_line=10, field="map"
        )
    err = info.value
    assert (err.source, err.line, err.field) == ("m.yaml", 11, "map")
    assert "row 1 has 2 characters, expected 3" in str(err)


def test_parse_grid_unknown_char_names_row_col_and_allowed():
    with pytest.raises(ScenarioError) as info:
        parse_grid("###\n#x#\n", {"#": "wall", ".": "space"}, "m.yaml", first_line=5)
    err = info.value
    assert err.line == 6
    assert "row 1, col 1: unknown character 'x'" in str(err)
    assert "'#' wall" in str(err) and "'.' space" in str(err)


def test_parse_grid_trailing_blank_is_named():
    with pytest.raises(ScenarioError, match="a blank at the end of the row"):
        parse_grid("## \n## \n", "#.", "m.yaml")


def test_parse_grid_blank_line_is_not_skipped():
    with pytest.raises(ScenarioError, match="row 1 has 0 characters"):
        parse_grid("##\n\n##\n", "#.", "m.yaml")


def test_parse_grid_empty():
    with pytest.raises(ScenarioError, match="empty"):
        parse_grid("", "#.", "m.yaml")


def test_grid_field_uses_real_file_lines():
    text = _yaml("""
        name: x
        map: |
          ###
          #.#
          #?#
    """)
    data, lines = load_yaml(text, source="maps/x.yaml")
    with pytest.raises(ScenarioError) as info:
        grid_field(data, lines, "map", "#.")
    assert str(info.value).startswith("maps/x.yaml, line 5, field 'map': map row 2, col 1")


def test_grid_field_requires_a_literal_block():
    data, lines = load_yaml('map: "###\\n#.#"\n', source="maps/x.yaml")
    with pytest.raises(ScenarioError, match="literal block") as info:
        grid_field(data, lines, "map", "#.")
    assert info.value.line == 1


def test_validate_empty_document():
    data, lines = load_yaml("# only a comment\n", source="army.yaml")
    with pytest.raises(ScenarioError, match="army.yaml: the document is empty"):
        validate(Army, data, "army.yaml", lines)
