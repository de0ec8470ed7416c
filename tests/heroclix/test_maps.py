"""HeroClix maps (envs/heroclix/RULES.md HC-2.5, HC-2.7, HC-2.10, HC-3.13, HC-5.2 to HC-5.18,
R-18): the shipped maps, the map format square by square, and malformed files."""

from __future__ import annotations

import os
import textwrap

import numpy as np
import pytest

from envs.core.adjacency import adjacency_table
from envs.core.scenario import ScenarioError
from envs.heroclix.data import map_file as map_file_module
from envs.heroclix.data.map_checks import MIN_START_SQUARES
from envs.heroclix.data.map_file import MAPS_DIR, load_map, load_map_text, map_ids, render_map_text
from envs.heroclix.data.maps import EDGES, MAX_SIZE, ClixMap, Terrain

# -- helpers -----------------------------------------------------------------------------------


def _orthogonal_pairs(m: ClixMap):
    rows, cols = m.size
    for r in range(rows):
        for c in range(cols):
            if r + 1 < rows:
                yield m.cell(r, c), m.cell(r + 1, c)
            if c + 1 < cols:
                yield m.cell(r, c), m.cell(r, c + 1)


def _walk(m: ClixMap, sources, *, ground_only=False, stairs_and_ladders=True) -> np.ndarray:
    """Squares reached on foot from ``sources``: HC-3.13 steps on one level, plus (unless
    disabled) a climb between side-sharing stair squares or along a ladder (HC-5.8)."""
    board = m.board
    blocking = board.terrain == Terrain.BLOCKING
    table = adjacency_table(board, blocking)
    links = {cell: [int(x) for x in table[cell] if x >= 0] for cell in range(board.n_cells)}
    if stairs_and_ladders:
        for a, b in _orthogonal_pairs(m):
            if m.stairs[a] and m.stairs[b] and not board.is_wall_between(a, b):
                links[a].append(b)
                links[b].append(a)
        for ladder in np.flatnonzero(m.ladder_to >= 0):
            links[int(ladder)].append(int(m.ladder_to[ladder]))
            links[int(m.ladder_to[ladder])].append(int(ladder))
    reached = np.zeros(board.n_cells, dtype=bool)
    todo = [int(c) for c in sources]
    reached[todo] = True
    while todo:
        for there in links[todo.pop()]:
            if not reached[there] and not (ground_only and board.level[there]):
                reached[there] = True
                todo.append(there)
    return reached


def _object_squares(m: ClixMap) -> np.ndarray:
    """Where HC-2.7 lets objects go: clear ground outside every starting area (stairs and
    ladders left out, though clear, HC-5.8)."""
    starts = np.any(list(m.start_areas.values()), axis=0)
    return (
        (m.board.terrain == Terrain.CLEAR)
        & (m.board.level == 0)
        & ~starts
        & ~m.stairs
        & (m.ladder_to < 0)
    )


# -- shipped maps ------------------------------------------------------------------------------


def test_R_18_shipped_maps_are_listed():
    assert map_ids() == ["mall", "small", "street"]


@pytest.mark.parametrize("map_id", map_ids())
def test_shipped_map_loads_and_renders_back(map_id):
    m = load_map(map_id)
    assert m.id == map_id and m.name
    assert max(m.size) <= MAX_SIZE
    assert m.board.topology.value == "square8" and m.board.exists.all()
    for array in (m.indoor, m.stairs, m.ladder_to, *m.start_areas.values()):
        assert array.shape == (m.board.n_cells,) and not array.flags.writeable
    again = load_map_text(render_map_text(m))
    assert again == m and again.board.walls == m.board.walls


@pytest.mark.parametrize("map_id", map_ids())
def test_HC_2_10_shipped_starting_areas_lie_in_the_band(map_id):
    m = load_map(map_id)
    rows, cols = m.size
    assert len(m.start_areas) >= 2
    for edge, area in m.start_areas.items():
        assert area.sum() >= MIN_START_SQUARES
        for cell in np.flatnonzero(area):
            r, c = m.rc(cell)
            depth = {"N": r, "S": rows - 1 - r, "W": c, "E": cols - 1 - c}[edge]
            # 1-based distance to every other edge is at least 4.
            others = [
                d
                for e, d in {"N": r, "S": rows - 1 - r, "W": c, "E": cols - 1 - c}.items()
                if e != edge
            ]
            assert depth <= 1 and min(others) + 1 >= 4, (edge, r, c)
            assert m.board.terrain[cell] == Terrain.CLEAR and m.board.level[cell] == 0
    assert not np.logical_and.reduce([a for a in m.start_areas.values()]).any()


@pytest.mark.parametrize("map_id", map_ids())
def test_shipped_starting_areas_are_connected_on_the_ground(map_id):
    m = load_map(map_id)
    first = next(iter(m.start_areas.values()))
    reached = _walk(m, np.flatnonzero(first), ground_only=True)
    for edge, area in m.start_areas.items():
        assert reached[area].all(), edge


@pytest.mark.parametrize("map_id", map_ids())
def test_HC_5_18_shipped_elevated_squares_are_reached_only_by_stairs_or_ladders(map_id):
    m = load_map(map_id)
    starts = np.flatnonzero(np.any(list(m.start_areas.values()), axis=0))
    elevated = (m.board.level > 0) & (m.board.terrain != Terrain.BLOCKING)
    assert elevated.any()
    assert _walk(m, starts)[elevated].all()
    # Without stairs and ladders no elevated square is in reach: levels do the separating.
    assert not _walk(m, starts, stairs_and_ladders=False)[elevated].any()
    assert (m.ladder_to >= 0).any()


@pytest.mark.parametrize("map_id", map_ids())
def test_HC_2_7_shipped_maps_have_plenty_of_squares_for_objects(map_id):
    m = load_map(map_id)
    assert _object_squares(m).sum() >= 0.4 * m.board.n_cells


@pytest.mark.parametrize("map_id", map_ids())
def test_shipped_maps_are_the_same_turned_half_a_circle(map_id):
    # N against S (and E against W) start from equal positions.
    m = load_map(map_id)
    n = m.board.n_cells
    turn = np.arange(n)[::-1]  # cell (r, c) -> (rows-1-r, cols-1-c)
    for array in (m.board.terrain, m.board.level, m.indoor, m.stairs):
        assert np.array_equal(array, array[turn])
    assert {tuple(sorted((int(turn[a]), int(turn[b])))) for a, b in m.board.walls} == set(
        m.board.walls
    )
    for edge, opposite in (("N", "S"), ("E", "W")):
        assert np.array_equal(m.start_areas[edge], m.start_areas[opposite][turn])


def _counts(m: ClixMap):
    terrain = m.board.terrain
    return {t: int((terrain == t).sum()) for t in Terrain}


def test_HC_2_5_mall_is_indoors_with_shops_fountain_and_a_mezzanine():
    m = load_map("mall")
    counts = _counts(m)
    assert m.size == (24, 24) and m.indoor.all()
    assert set(m.start_areas) == set(EDGES)
    assert counts[Terrain.WATER] >= 4 and counts[Terrain.HINDERING] >= 16
    assert counts[Terrain.BLOCKING] >= 4 and len(m.board.walls) >= 80
    assert (m.board.level == 1).sum() >= 60 and m.stairs.sum() >= 8
    assert (m.ladder_to >= 0).sum() >= 2
    # The shops (two in the north-west block, two turned into the south-east one) are walled
    # all round but for one or two doorways; the mezzanines are railed but for the stairs'
    # top and the ladder.
    for rows, cols, doors in (
        ((3, 5), (3, 8), 2),
        ((6, 8), (3, 8), 2),
        ((18, 20), (15, 20), 2),
        ((15, 17), (15, 20), 2),
        ((3, 8), (15, 20), 3),
        ((15, 20), (3, 8), 3),
    ):
        assert _open_edges(m, rows, cols) == doors, (rows, cols)
    assert len(m.board.walls) >= 100


def _open_edges(m: ClixMap, rows, cols) -> int:
    """How many edges round the block of squares rows x cols (inclusive) have no wall."""
    (r0, r1), (c0, c1) = rows, cols
    edges = [((r, c), (r + dr, c)) for c in range(c0, c1 + 1) for r, dr in ((r0, -1), (r1, 1))]
    edges += [((r, c), (r, c + dc)) for r in range(r0, r1 + 1) for c, dc in ((c0, -1), (c1, 1))]
    return sum(not m.board.is_wall_between(m.cell(*a), m.cell(*b)) for a, b in edges)


def test_HC_2_5_street_has_walled_roofs_indoor_shops_cover_and_water():
    m = load_map("street")
    counts = _counts(m)
    assert m.size == (24, 24) and set(m.start_areas) == set(EDGES)
    assert 0 < m.indoor.mean() < 0.25
    assert counts[Terrain.WATER] >= 4 and counts[Terrain.HINDERING] >= 16
    assert counts[Terrain.BLOCKING] >= 8
    assert (m.board.level == 1).sum() >= 20 and (m.ladder_to >= 0).sum() >= 2
    ladder_edges = {
        frozenset((int(a), int(m.ladder_to[a]))) for a in np.flatnonzero(m.ladder_to >= 0)
    }
    for a, b in _orthogonal_pairs(m):
        edge = frozenset((a, b))
        if m.board.level[a] != m.board.level[b]:
            # HC-5.6 impl: a building is elevated squares surrounded by walls (but for its
            # ladder's edge).
            assert m.board.is_wall_between(a, b) != (edge in ladder_edges), m.rc(a)
        if m.indoor[a] != m.indoor[b] and not m.board.is_wall_between(a, b):
            doorway = a if m.indoor[a] else b
            assert m.board.terrain[doorway] != Terrain.BLOCKING
    assert not m.indoor[m.board.level > 0].any()  # a roof is outdoor terrain (HC-5.6)


def test_small_map_is_16_by_16_outdoors_with_a_roof_cover_and_water():
    m = load_map("small")
    counts = _counts(m)
    assert m.size == (16, 16) and not m.indoor.any()
    assert {"N", "S"} <= set(m.start_areas)
    assert (m.board.level == 1).sum() >= 4 and (m.ladder_to >= 0).any()
    assert counts[Terrain.HINDERING] >= 4 and counts[Terrain.WATER] >= 2
    assert counts[Terrain.BLOCKING] >= 1 and m.board.walls


def test_load_map_takes_paths_and_caches_per_file(tmp_path):
    assert load_map(MAPS_DIR / "small.yaml") is load_map("small")
    path = tmp_path / "yard.yaml"
    path.write_text(YARD, encoding="utf-8")
    assert load_map(path).name == "Yard"
    path.write_text(YARD.replace("name: Yard", "name: Shed"), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert load_map(str(path)).name == "Shed"


def test_unknown_map_id_lists_the_shipped_ones():
    with pytest.raises(ScenarioError, match="unknown map id 'moon'; shipped: mall, small, street"):
        load_map("moon")


# -- the format --------------------------------------------------------------------------------

YARD = textwrap.dedent("""\
    id: yard
    name: Yard
    description: A walled shed with a ladder, a tree and a puddle.
    map: |
      +-+-+-+-+-+-+-+-+-+-+
      |. . . N N N N . . .|
      +                   +
      |. . . N N N N . . .|
      +     +-+-+-+       +
      |. % .|. . .|. ~ . .|
      +     +-+-+ +       +
      |. . . # . ^ . . . .|
      +                   +
      |. . . S S S S . . .|
      +                   +
      |. . . S S S S . . .|
      +-+-+-+-+-+-+-+-+-+-+
    levels: |
      ..........
      ..........
      ...111....
      ..........
      ..........
      ..........
""")
MAP0 = 5  # file line of the drawing's first line
LEVELS0 = 19  # file line of levels row 0


def _col(c: int) -> int:
    """File column of square column ``c`` (2 spaces of block indent, frame, 2 per square)."""
    return 2 + 2 * c + 2


def _edit(text: str, line: int, column: int, char: str) -> str:
    """``text`` with the character at file ``line`` and ``column`` (1-based) replaced."""
    lines = text.split("\n")
    row = lines[line - 1]
    lines[line - 1] = row[: column - 1] + char + row[column:]
    return "\n".join(lines)


def test_format_reads_terrain_levels_walls_and_ladder_as_drawn():
    m = load_map_text(YARD)
    b = m.board
    assert m.size == (6, 10) and m.source == "<string>"
    assert b.terrain[m.cell(2, 1)] == Terrain.HINDERING
    assert b.terrain[m.cell(2, 7)] == Terrain.WATER
    assert b.terrain[m.cell(3, 3)] == Terrain.BLOCKING
    assert b.terrain[m.cell(0, 3)] == Terrain.CLEAR == b.terrain[m.cell(3, 5)]
    assert [m.rc(c) for c in np.flatnonzero(b.level)] == [(2, 3), (2, 4), (2, 5)]
    assert b.is_wall_between(m.cell(1, 3), m.cell(2, 3))  # '-' under (1,3)
    assert b.is_wall_between(m.cell(2, 2), m.cell(2, 3))  # '|' between (2,2) and (2,3)
    assert b.is_wall_between(m.cell(2, 5), m.cell(2, 6))
    assert b.is_wall_between(m.cell(2, 4), m.cell(3, 4))
    assert not b.is_wall_between(m.cell(2, 5), m.cell(3, 5))  # the ladder's open edge
    assert not b.is_wall_between(m.cell(2, 1), m.cell(2, 2))
    assert len(b.walls) == 7
    # A wall also blocks the diagonal whose corner it touches.
    assert m.cell(2, 3) not in b.neighbors[m.cell(1, 2)]
    assert [(m.rc(c), m.rc(int(m.ladder_to[c]))) for c in np.flatnonzero(m.ladder_to >= 0)] == [
        ((3, 5), (2, 5))
    ]
    assert [m.rc(c) for c in np.flatnonzero(m.start_areas["N"])] == [
        (r, c) for r in (0, 1) for c in range(3, 7)
    ]
    assert list(m.start_areas) == ["N", "S"] and not m.indoor.any() and not m.stairs.any()


def test_render_writes_the_drawing_back_character_for_character():
    m = load_map_text(YARD)
    text = render_map_text(m)
    assert text[text.index("map: |") :] == YARD[YARD.index("map: |") :]
    assert load_map_text(text) == m
    assert m != load_map_text(YARD.replace("|. % .|", "|. ~ .|"))


def test_module_docstring_example_loads():
    doc = map_file_module.__doc__
    example = doc[doc.index("    id: yard") : doc.index("The drawing\n")]
    m = load_map_text(textwrap.dedent(example))
    assert m == load_map_text(YARD)


HALL = textwrap.dedent("""\
    id: hall
    name: Hall
    indoor: |
      ..........
      ..........
      iiiiiiiii.
      iiiiiiiii.
      ..........
      ..........
    map: |
      +-+-+-+-+-+-+-+-+-+-+
      |. . . N N N N . . .|
      +                   +
      |. . . N N N N . . .|
      +                   +
      |. = . . . . . . % .|
      +                   +
      |. = . . . . . . % .|
      +                   +
      |. . . S S S S . . .|
      +                   +
      |. . . S S S S . . .|
      +-+-+-+-+-+-+-+-+-+-+
    levels: |
      ..........
      ..........
      .111......
      ..........
      ..........
      ..........
""")
HALL_MAP0 = 11
HALL_LEVELS0 = 25


def test_HC_5_8_only_the_top_stair_square_is_elevated():
    m = load_map_text(HALL)
    top, foot = m.cell(2, 1), m.cell(3, 1)
    assert m.stairs[top] and m.stairs[foot] and m.stairs.sum() == 2
    assert (m.board.level[top], m.board.level[foot]) == (1, 0)
    assert m.board.terrain[top] == m.board.terrain[foot] == Terrain.CLEAR  # stairs are clear


def test_HC_5_2_indoor_grid_marks_squares():
    m = load_map_text(HALL)
    assert [m.rc(c) for c in np.flatnonzero(m.indoor)] == [(r, c) for r in (2, 3) for c in range(9)]
    assert load_map_text(render_map_text(m)) == m
    everywhere = HALL[: HALL.index("indoor: |")] + "indoor: true\n" + HALL[HALL.index("map: |") :]
    assert load_map_text(everywhere).indoor.all()


def test_HC_5_8_ladder_links_to_one_elevated_square():
    # An inside corner of an L-shaped roof: two elevated squares touch the ladder; the arrow
    # says which one it links to.
    text = _edit(YARD, LEVELS0 + 2, 3 + 6, "1")  # the roof grows to (2,6) ...
    text = _edit(text, LEVELS0 + 3, 3 + 6, "1")  # ... and turns the corner to (3,6)
    text = _edit(text, MAP0 + 5, _col(5) + 1, " ")  # no wall between (2,5) and (2,6)
    for arrow, target in (("^", (2, 5)), (">", (3, 6))):
        m = load_map_text(_edit(text, MAP0 + 7, _col(5), arrow))
        assert m.ladder_to[m.cell(3, 5)] == m.cell(*target)


# -- bad input ---------------------------------------------------------------------------------


def _bad(tmp_path, text, name="yard"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_map(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    return info.value, message


def _bad_at(tmp_path, text, line, column, *needles, name="yard"):
    err, message = _bad(tmp_path, text, name)
    assert err.line == line, message
    assert f"column {column}:" in message, message
    for needle in needles:
        assert needle in message, message
    return message


def test_bad_ragged_line(tmp_path):
    text = YARD.replace("|. . . # . ^ . . . .|", "|. . . # . ^ . . .|")
    err, message = _bad(tmp_path, text)
    assert err.line == MAP0 + 7 and err.field == "map"
    assert "has 19 characters, expected 21" in message


def test_bad_unknown_square_character(tmp_path):
    _bad_at(
        tmp_path,
        _edit(YARD, MAP0 + 5, _col(8), "x"),
        MAP0 + 5,
        _col(8),
        "square (2,8) has unknown character 'x'",
        "'%'",
    )


def test_bad_wall_drawn_where_no_edge_is(tmp_path):
    # '|' on the edge below a square.
    _bad_at(
        tmp_path,
        _edit(YARD, MAP0 + 2, _col(1), "|"),
        MAP0 + 2,
        _col(1),
        "between squares (0,1) and (1,1)",
        "walls below a square are drawn '-'",
    )
    # '-' between side-by-side squares.
    _bad_at(
        tmp_path,
        _edit(YARD, MAP0 + 1, _col(1) + 1, "-"),
        MAP0 + 1,
        _col(1) + 1,
        "between squares (0,1) and (0,2)",
        "drawn '|'",
    )
    # a wall on a square, and on a corner.
    _bad_at(
        tmp_path,
        _edit(YARD, MAP0 + 3, _col(8), "|"),
        MAP0 + 3,
        _col(8),
        "square (1,8) has no character",
    )
    _bad_at(
        tmp_path,
        _edit(YARD, MAP0 + 2, _col(1) + 1, "|"),
        MAP0 + 2,
        _col(1) + 1,
        "on a corner between squares",
    )


def test_bad_shifted_column_puts_a_square_on_an_edge(tmp_path):
    text = YARD.replace("|. % .|. . .|", "|.% . |. . .|")
    _bad_at(
        tmp_path,
        text,
        MAP0 + 5,
        _col(0) + 1,
        "'%' on the edge between squares (2,0) and (2,1)",
        "are the columns shifted?",
    )


def test_bad_frame(tmp_path):
    _bad_at(tmp_path, _edit(YARD, MAP0 + 3, 3, " "), MAP0 + 3, 3, "on the frame")
    _bad_at(tmp_path, _edit(YARD, MAP0, _col(4), " "), MAP0, _col(4), "on the frame")


def test_bad_line_count(tmp_path):
    text = YARD.replace("  +-+-+-+-+-+-+-+-+-+-+\nlevels", "levels")
    err, message = _bad(tmp_path, text)
    assert err.line == MAP0 - 1 and "2R+1 lines of 2C+1 characters" in message


def test_bad_map_larger_than_max_size(tmp_path):
    cols = MAX_SIZE + 1
    rows = ["+" + "-+" * cols] + [
        line
        for _ in range(10)
        for line in ("|" + " ".join("." * cols) + "|", "+" + "  " * (cols - 1) + " +")
    ]
    rows[-1] = rows[0]
    text = "id: yard\nname: Yard\nmap: |\n" + "".join(f"  {r}\n" for r in rows)
    err, message = _bad(tmp_path, text)
    assert err.line == 3 and f"10 x {cols} squares; at most {MAX_SIZE} x {MAX_SIZE}" in message


def test_bad_levels_grid(tmp_path):
    _bad_at(
        tmp_path,
        _edit(YARD, LEVELS0 + 4, 3 + 7, "3"),
        LEVELS0 + 4,
        3 + 7,
        "square (4,7): unknown character '3' in 'levels'",
        "'.', '1', '2'",
    )
    err, message = _bad(tmp_path, YARD.replace("  ...111....\n", "  ...111...\n"))
    assert err.line == LEVELS0 + 2 and "row 2 of 'levels' has 9 characters, expected 10" in message
    err, message = _bad(tmp_path, YARD.replace("  ...111....\n", ""))
    assert err.line == LEVELS0 - 1 and "'levels' has 5 rows; the map has 6" in message


def test_bad_indoor_grid(tmp_path):
    _bad_at(
        tmp_path,
        _edit(HALL, 3 + 3, 3 + 4, "I"),
        6,
        7,
        "unknown character 'I' in 'indoor'",
        name="hall",
    )


def test_HC_5_8_ladder_must_point_at_an_elevated_square(tmp_path):
    ladder = (MAP0 + 7, _col(5))
    _bad_at(
        tmp_path,
        _edit(YARD, *ladder, ">"),
        *ladder,
        "square (3,5): ladder '>'",
        "points at (3,6), which is on level 0",
    )
    _bad_at(tmp_path, _edit(YARD, *ladder, "v"), *ladder, "points at (4,5)")
    text = _edit(YARD, MAP0 + 11, _col(0), "<")
    _bad_at(tmp_path, text, MAP0 + 11, _col(0), "points off the map")


def test_HC_5_8_ladder_square_is_ground_level(tmp_path):
    text = _edit(YARD, LEVELS0 + 3, 3 + 5, "1")
    _bad_at(tmp_path, text, MAP0 + 7, _col(5), "ladder '^' is on level 1")


def test_HC_5_8_ladder_edge_has_no_wall(tmp_path):
    text = _edit(YARD, MAP0 + 6, _col(5), "-")
    _bad_at(tmp_path, text, MAP0 + 7, _col(5), "has a wall between it and (2,5)")


def test_HC_5_8_ladder_to_blocking_terrain(tmp_path):
    text = _edit(YARD, MAP0 + 5, _col(5), "#")
    _bad_at(tmp_path, text, MAP0 + 7, _col(5), "which is blocking terrain")


def test_HC_5_8_a_stair_flight_climbs_one_level(tmp_path):
    flat = _edit(HALL, HALL_LEVELS0 + 2, 3 + 1, ".")
    _bad_at(
        tmp_path,
        flat,
        HALL_MAP0 + 5,
        _col(1),
        "flight of 2 stair squares is on level(s) 0",
        name="hall",
    )
    steep = _edit(HALL, HALL_LEVELS0 + 2, 3 + 1, "2")
    _bad_at(tmp_path, steep, HALL_MAP0 + 5, _col(1), "on level(s) 0, 2", name="hall")


def test_HC_5_18_a_roof_without_ladder_or_stairs_is_an_error(tmp_path):
    text = _edit(YARD, MAP0 + 7, _col(5), ".")
    _bad_at(
        tmp_path, text, MAP0 + 5, _col(3), "square (2,3): no one can walk here", "(3 such squares)"
    )


def test_bad_walls_cutting_the_starting_areas_apart(tmp_path):
    # A wall right across the map under row 3.
    text = YARD.replace(
        "  +                   +\n  |. . . S", "  +-+-+-+-+-+-+-+-+-+-+\n  |. . . S", 1
    )
    _bad_at(
        tmp_path,
        text,
        MAP0 + 9,
        _col(3),
        "the S starting area cannot be reached on foot from the N starting area",
    )


def test_HC_2_10_starting_square_outside_the_band(tmp_path):
    # Row 3 is the third row from the N edge; column 2 is the third column from the W edge.
    _bad_at(
        tmp_path,
        _edit(YARD, MAP0 + 5, _col(8), "N"),
        MAP0 + 5,
        _col(8),
        "square (2,8): starting square 'N' is outside the N edge's band",
        "HC-2.10",
    )
    _bad_at(tmp_path, _edit(YARD, MAP0 + 1, _col(2), "N"), MAP0 + 1, _col(2), "square (0,2)")
    _bad_at(
        tmp_path,
        _edit(YARD, MAP0 + 1, _col(7), "S"),
        MAP0 + 1,
        _col(7),
        "'S' is outside the S edge's band",
    )
    _bad_at(tmp_path, _edit(YARD, MAP0 + 1, _col(0), "W"), MAP0 + 1, _col(0), "'W' is outside")


def test_HC_2_10_starting_square_is_on_the_ground(tmp_path):
    text = _edit(YARD, LEVELS0, 3 + 3, "1")
    _bad_at(tmp_path, text, MAP0 + 1, _col(3), "starting square 'N' is on level 1")


def test_HC_2_10_at_least_two_starting_areas_of_enough_squares(tmp_path):
    text = YARD.replace("|. . . S S S S . . .|", "|. . . . . . . . . .|")
    err, message = _bad(tmp_path, text)
    assert err.line == MAP0 - 1 and "1 starting area(s) (N)" in message
    text = YARD.replace("|. . . S S S S . . .|\n  +-+", "|. . . . . . . . . .|\n  +-+")
    _bad_at(tmp_path, text, MAP0 + 9, _col(3), "the S starting area has 4 squares; at least 8")


def test_bad_fields(tmp_path):
    err, message = _bad(tmp_path, YARD.replace("name: Yard", "name: Yard\nlegend: x"))
    assert err.line == 3 and "unknown field 'legend'" in message
    err, message = _bad(tmp_path, YARD.replace("id: yard", "id: shed"))
    assert err.line == 1 and "id 'shed' does not match the file name 'yard.yaml'" in message
    err, message = _bad(tmp_path, "id: yard\nname: Yard\nmap: '+-+'\n")
    assert err.line == 3 and "literal block" in message
    err, message = _bad(tmp_path, YARD.replace("levels: |", "indoor: 3\nlevels: |"))
    assert (err.line, err.field) == (18, "indoor") and "true, false or a literal block" in message
