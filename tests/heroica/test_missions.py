"""Heroica missions (envs/heroica/RULES.md HE-M): the shipped missions and every kind of bad file."""

from __future__ import annotations

import textwrap

import pytest

from envs.core.board import UNREACHABLE, Board
from envs.core.scenario import ScenarioError
from envs.heroica.data.mission import (
    LEGEND,
    PIECE_CHARS,
    list_missions,
    load_mission,
    mission_from_text,
)

SPEC_MISSIONS = ("tunnel", "fork", "arena")
OWN_MISSIONS = ("crossroads", "caverns", "gauntlet")
MAX_SIZE = 16  # the env pads observations to a common size; keep shipped boards within it


def _neighbours(mission, row, col):
    cell = mission.cell(row, col)
    return {mission.rc(n) for n in mission.board.neighbors[cell] if n >= 0}


def _without(mission, *cells_rc):
    exists = mission.board.exists.reshape(mission.rows, mission.cols).copy()
    for rc in cells_rc:
        exists[rc] = False
    return Board.create("square4", exists)


# -- shipped missions --------------------------------------------------------------------------


def test_shipped_missions_are_listed():
    assert set(SPEC_MISSIONS + OWN_MISSIONS) <= set(list_missions())


@pytest.mark.parametrize("mission_id", list_missions())
def test_shipped_mission_loads_and_is_well_formed(mission_id):
    mission = load_mission(mission_id)
    assert mission.id == mission_id
    assert mission.rows <= MAX_SIZE and mission.cols <= MAX_SIZE
    assert mission.board.exists[mission.start] and mission.board.exists[mission.target]
    assert mission.start != mission.target
    # Every space is reachable from the start (checked on load; asserted here as a fact).
    spaces = mission.board.spaces()
    assert (mission.board.distance[mission.start, spaces] != UNREACHABLE).all()


@pytest.mark.parametrize("mission_id", list_missions())
def test_HE_M_4_target_holds_the_golem_lord(mission_id):
    mission = load_mission(mission_id)
    assert mission.pieces[mission.target] == "L"


def test_load_mission_accepts_a_path():
    from envs.heroica.data.mission import MISSIONS_DIR

    mission = load_mission(MISSIONS_DIR / "tunnel.yaml")
    assert mission.id == "tunnel" and mission.source.endswith("tunnel.yaml")


def test_HE_M_2_walls_are_not_spaces():
    mission = load_mission("tunnel")
    for r, row in enumerate(mission.grid):
        for c, char in enumerate(row):
            assert mission.board.exists[mission.cell(r, c)] == (char != "#")


def test_HE_M_2_adjacent_means_orthogonal():
    mission = load_mission("arena")
    assert _neighbours(mission, 2, 2) == {(1, 2), (3, 2), (2, 1), (2, 3)}
    assert _neighbours(mission, 1, 1) == {(1, 2), (2, 1)}  # walls and diagonals are not


def test_HE_M_3_pieces_match_the_map():
    mission = load_mission("tunnel")
    assert {mission.rc(c): p for c, p in mission.pieces.items()} == {
        (1, 4): "b",
        (1, 7): "t",
        (1, 10): "c",
        (3, 1): "L",
        (3, 3): "g",
        (3, 6): "R",
        (3, 9): "l",
    }
    assert set(PIECE_CHARS) <= set(LEGEND)


def test_HE_M_M1_tunnel_facts():
    mission = load_mission("tunnel")
    assert mission.rc(mission.start) == (1, 1)
    assert mission.rc(mission.target) == (3, 1)
    assert mission.board.distance[mission.start, mission.target] == 22
    # Forced stops: (1,3) for the bat, (3,7) for the rocks (the side reached first).
    assert _neighbours(mission, 1, 4) == {(1, 3), (1, 5)}
    assert _neighbours(mission, 3, 6) == {(3, 5), (3, 7)}
    d = mission.board.distance[mission.start]
    assert d[mission.cell(1, 3)] < d[mission.cell(1, 5)]
    assert d[mission.cell(3, 7)] < d[mission.cell(3, 5)]
    # Only (3,2) touches the Golem Lord.
    assert _neighbours(mission, 3, 1) == {(3, 2)}


def test_HE_M_M2_fork_facts():
    mission = load_mission("fork")
    board = mission.board
    assert mission.rc(mission.target) == (7, 1)
    assert board.distance[mission.start, mission.target] == 12  # the west route
    # Two routes: close the west one and the target is still reachable (the east route).
    east_only = _without(mission, (3, 1))
    east = east_only.distance[mission.start, mission.target]
    assert 12 < east < UNREACHABLE
    # The east route passes the bat, then the rocks, which guard the chest.
    assert {mission.rc(c) for c, p in mission.pieces.items() if p in "bRc"} == {
        (2, 4),
        (3, 6),
        (2, 7),
    }
    # Wizard range (HE-7.3): 4 path steps from (6,4), around a corner.
    assert board.distance[mission.cell(6, 4), mission.target] == 4
    # Bow range (HE-12.4): 5 steps in a straight line from (7,6), all spaces between.
    assert board.distance[mission.cell(7, 6), mission.target] == 5
    assert all(board.exists[mission.cell(7, c)] for c in range(2, 6))


def test_HE_M_M3_arena_is_one_room():
    mission = load_mission("arena")
    assert mission.rc(mission.target) == (4, 5)
    assert mission.n_spaces == 4 * 5
    assert mission.rc(mission.start) == (1, 1)


def test_crossroads_has_several_routes_and_every_piece():
    mission = load_mission("crossroads")
    assert mission.n_spaces >= 40
    assert set(mission.pieces.values()) == set(PIECE_CHARS)
    # No single space (other than start and target) cuts the start off from the target:
    # by Menger's theorem there are at least two routes sharing no space.
    for cell in mission.board.spaces():
        if cell in (mission.start, mission.target):
            continue
        board = _without(mission, mission.rc(cell))
        assert board.distance[mission.start, mission.target] < UNREACHABLE, mission.rc(cell)
    # The routes differ in length: the middle road is much shorter than the detours.
    assert mission.board.distance[mission.start, mission.target] == 12
    middle_closed = _without(mission, (6, 4))
    assert middle_closed.distance[mission.start, mission.target] == 22


def test_caverns_rooms_have_two_ways_out():
    mission = load_mission("caverns")
    for cell in mission.board.spaces():
        if cell in (mission.start, mission.target):
            continue
        board = _without(mission, mission.rc(cell))
        assert board.distance[mission.start, mission.target] < UNREACHABLE, mission.rc(cell)


def test_gauntlet_is_long_with_many_monsters():
    mission = load_mission("gauntlet")
    monsters = [p for p in mission.pieces.values() if p in "bgL"]
    assert len(monsters) >= 8
    # The winding road is 54 steps; the rocks shortcuts cut it short.
    no_shortcuts = _without(mission, (2, 7), (6, 8))
    assert no_shortcuts.distance[mission.start, mission.target] == 54
    assert mission.board.distance[mission.start, mission.target] < 54


def test_mission_from_text():
    mission = mission_from_text(GOOD)
    assert mission.source == "<string>"
    assert (mission.rows, mission.cols) == (4, 6)
    assert mission.rc(mission.target) == (1, 4)
    assert mission.pieces == {mission.cell(1, 3): "b", mission.cell(1, 4): "L"}


def test_map_may_reach_the_board_edge():
    text = GOOD.replace("  ######\n  #S.bL#\n  #....#\n  ######\n", "  S.bL\n  ....\n")
    mission = mission_from_text(text.replace("[1, 4]", "[0, 3]"))
    assert (mission.rows, mission.cols) == (2, 4) and mission.n_spaces == 8


# -- bad files ---------------------------------------------------------------------------------

GOOD = textwrap.dedent("""\
    id: bad
    name: Bad
    description: A test mission.
    target: [1, 4]
    map: |
      ######
      #S.bL#
      #....#
      ######
""")
MAP_LINE = 6  # file line of map row 0


def _load_bad(tmp_path, text, name="bad"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_mission(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    return info.value, message


def test_good_base_file_loads(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD, encoding="utf-8")
    assert load_mission(path).id == "bad"


def test_yaml_syntax_error(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("target: [1, 4]", "target: [1, 4"))
    assert err.line is not None and err.line >= 4
    assert "YAML syntax error" in message


def test_unknown_key(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("name: Bad\n", "name: Bad\nmode: epic\n"))
    assert (err.line, err.field) == (3, "mode")
    assert "line 3, field 'mode': unknown field 'mode'" in message
    assert "allowed: id, name, description, target, map" in message


def test_missing_key(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("target: [1, 4]\n", ""))
    assert err.field == "target"
    assert "missing required field 'target'" in message


def test_duplicate_key(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("name: Bad\n", "name: Bad\nname: Worse\n"))
    assert err.line == 3 and "duplicate key 'name'" in message


def test_wrong_type(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("[1, 4]", "[1, four]"))
    assert (err.line, err.field) == (4, "target.1")


def test_id_must_match_file_name(tmp_path):
    err, message = _load_bad(tmp_path, GOOD, name="other")
    assert (err.line, err.field) == (1, "id")
    assert "does not match the file name 'other.yaml'" in message


def test_unknown_mission_id_lists_the_shipped_ones():
    with pytest.raises(ScenarioError, match="unknown mission id 'nowhere'.*tunnel"):
        load_mission("nowhere")


def test_map_must_be_a_literal_block(tmp_path):
    text = GOOD.split("map: |")[0] + 'map: "######\\n#S.bL#\\n######"\n'
    err, message = _load_bad(tmp_path, text)
    assert (err.line, err.field) == (5, "map") and "literal block" in message


def test_ragged_map(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("  #....#\n", "  #...#\n"))
    assert (err.line, err.field) == (MAP_LINE + 2, "map")
    assert "map row 2 has 5 characters, expected 6" in message


def test_unknown_map_char(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("#....#", "#..X.#"))
    assert err.line == MAP_LINE + 2
    assert "row 2, col 3: unknown character 'X'" in message
    assert "'L' Golem Lord" in message  # the allowed characters are listed


def test_no_start(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("#S.bL#", "#..bL#"))
    assert (err.line, err.field) == (5, "map")
    assert "no Mission Start 'S'" in message


def test_two_starts(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("#....#", "#..S.#"))
    assert err.line == MAP_LINE + 2  # the second S
    assert "2 Mission Starts" in message and "(1, 1)" in message and "(2, 3)" in message


def test_target_off_board(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("[1, 4]", "[1, 6]"))
    assert (err.line, err.field) == (4, "target")
    assert "(1, 6) is off the 4x6 map" in message


def test_target_on_wall(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("[1, 4]", "[0, 4]"))
    assert "line 4, field 'target': (0, 4) is a wall" in message


def test_target_on_start(tmp_path):
    err, message = _load_bad(tmp_path, GOOD.replace("[1, 4]", "[1, 1]"))
    assert err.line == 4 and "is the Mission Start" in message


def test_unreachable_space(tmp_path):
    text = GOOD.replace("  #....#\n  ######\n", "  #....#\n  ######\n  #.####\n  ######\n")
    err, message = _load_bad(tmp_path, text)
    assert (err.line, err.field) == (MAP_LINE + 4, "map")
    assert "space (4, 1) '.' cannot be reached from the Start" in message


def test_bad_text_names_the_given_source():
    with pytest.raises(ScenarioError) as info:
        mission_from_text(GOOD.replace("[1, 4]", "[0, 4]"), source="inline-test")
    assert str(info.value).startswith("inline-test, line 4, field 'target'")
