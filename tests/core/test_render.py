"""Renderer: frame shape and determinism, square/hex/walls, pieces, arrow, dice, captions, text,
video files. Legends, keys and layouts over played games: tests/test_frames.py."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.board import Board
from envs.core.render import (
    DiceGroup,
    Piece,
    Scene,
    caption_lines,
    glyph_kinds,
    legend_for,
    piece_boxes,
    render_frame,
)
from envs.core.textboard import render_text
from envs.core.video import write_video

COLORS = {0: (196, 178, 140), 1: (90, 140, 200), 2: (100, 160, 80)}
NAMES = {0: "floor", 1: "water", 2: "grass"}


def square_board(walls=frozenset()) -> Board:
    exists = np.ones((5, 7), bool)
    exists[0, 0] = False
    terrain = np.zeros((5, 7), int)
    terrain[2, 2] = 1
    return Board.create("square4", exists, terrain, walls=walls)


def hex_board() -> Board:
    exists = np.ones((6, 8), bool)
    exists[5, 7] = False
    level = (np.arange(48).reshape(6, 8) % 4) + 1
    terrain = (level >= 3).astype(int) * 2
    return Board.create("hex", exists, terrain, level)


def scene_for(board: Board, **kwargs) -> Scene:
    return Scene(board, COLORS, NAMES, **kwargs)


def centre_px(board: Board, cell: int, cell_px: int = 48) -> tuple[int, int]:
    """(row, col) of a cell's centre in the frame: found where a lone piece changes pixels."""
    base = render_frame(scene_for(board), cell_px=cell_px)
    with_piece = render_frame(scene_for(board, pieces=[Piece(cell, "", 0)]), cell_px=cell_px)
    rows, cols = np.nonzero(np.any(base != with_piece, axis=2))
    return int(round(rows.mean())), int(round(cols.mean()))


def test_frame_dtype_shape_even_and_constant():
    board = square_board()
    short = render_frame(scene_for(board, caption="t"))
    long = render_frame(
        scene_for(
            board,
            caption="turn 99 | " + "x" * 500,
            dice=[str(i) for i in range(40)],
            status_lines=[f"player_{i % 4} line {i} " + "y" * 80 for i in range(60)],
        )
    )
    assert short.dtype == np.uint8 and short.ndim == 3 and short.shape[2] == 3
    assert short.shape == long.shape
    assert short.shape[0] % 2 == 0 and short.shape[1] % 2 == 0
    assert not np.array_equal(short, long)


def test_min_height_and_target_height():
    board = square_board()
    tall = render_frame(scene_for(board), min_height=1001)
    assert tall.shape[0] >= 1001 and tall.shape[0] % 2 == 0
    scaled = render_frame(scene_for(board), target_height=720)
    assert scaled.shape[0] == 720 and scaled.shape[1] % 2 == 0
    bigger = render_frame(scene_for(board), cell_px=64)
    assert bigger.shape[1] > render_frame(scene_for(board)).shape[1]


@pytest.mark.parametrize(
    "make_board",
    [
        square_board,
        lambda: square_board(walls={((1, 1), (1, 2)), ((3, 3), (4, 3))}),
        hex_board,
    ],
)
def test_boards_render(make_board):
    board = make_board()
    frame = render_frame(
        scene_for(board, caption="hello", dice=["skull", "2"], status_lines=["player_0 hp 3/4"])
    )
    assert frame.dtype == np.uint8 and frame.shape[0] % 2 == 0 and frame.shape[1] % 2 == 0
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 10  # something was drawn


def test_walls_draw_black_on_shared_edge():
    wall = ((1, 3), (1, 4))
    plain, walled = square_board(), square_board(walls={wall})
    a = render_frame(scene_for(plain))
    b = render_frame(scene_for(walled))
    (ra, ca), (rb, cb) = centre_px(plain, plain.cell(1, 3)), centre_px(plain, plain.cell(1, 4))
    r, c = (ra + rb) // 2, (ca + cb) // 2
    assert not np.array_equal(a[r, c], b[r, c])
    assert b[r, c].max() < 40  # black wall


def test_pieces_change_pixels_at_their_cell():
    for board in (square_board(), hex_board()):
        cell = board.cell(2, 4)
        base = render_frame(scene_for(board))
        for kind in ("figure", "monster", "token"):
            frame = render_frame(scene_for(board, pieces=[Piece(cell, "Orc2", None, kind, "3/4")]))
            r, c = centre_px(board, cell)
            window = (slice(r - 3, r + 4), slice(c - 3, c + 4))
            assert not np.array_equal(base[window], frame[window]), kind


def test_owner_colours_differ_and_player_colors_override():
    board = square_board()
    cell = board.cell(3, 3)
    r, c = centre_px(board, cell)
    # An empty label leaves the disc's fill at its centre.
    seat0 = render_frame(scene_for(board, pieces=[Piece(cell, "", 0)]))[r, c]
    seat1 = render_frame(scene_for(board, pieces=[Piece(cell, "", 1)]))[r, c]
    custom = render_frame(
        scene_for(board, pieces=[Piece(cell, "", 0)], player_colors=[(255, 0, 0)])
    )[r, c]
    explicit = render_frame(scene_for(board, pieces=[Piece(cell, "", 0, color=(0, 255, 0))]))[r, c]
    assert not np.array_equal(seat0, seat1)
    assert tuple(custom) == (255, 0, 0)
    assert tuple(explicit) == (0, 255, 0)


def test_multi_space_figure_covers_both_cells():
    board = square_board()
    a, b = board.cell(3, 2), board.cell(3, 4)
    base = render_frame(scene_for(board))
    frame = render_frame(scene_for(board, pieces=[Piece(a, "", 1, cells=(b,))]))
    (ra, ca), (rb, cb) = centre_px(board, a), centre_px(board, b)
    mid = (ra + rb) // 2, (ca + cb) // 2
    for r, c in ((ra, ca), (rb, cb), mid):
        assert not np.array_equal(base[r, c], frame[r, c])


@pytest.mark.parametrize("make_board", [square_board, hex_board])
def test_last_move_lightens_its_start_and_end_squares_under_the_pieces(make_board):
    board = make_board()
    a, b = board.cell(1, 1), board.cell(1, 5)
    base = render_frame(scene_for(board))
    frame = render_frame(scene_for(board, arrow=(a, b)))
    (ra, ca), (rb, cb) = centre_px(board, a), centre_px(board, b)
    lighter = frame.astype(int).sum(axis=2) - base.astype(int).sum(axis=2)
    assert lighter[rb, cb] > lighter[ra, ca] > 30  # the end lightened more than the start
    r, c = (ra + rb) // 2, (ca + cb) // 2
    assert np.array_equal(base[r, c], frame[r, c])  # nothing drawn between them
    # a piece standing on the end square is drawn over it, badge and all
    piece = [Piece(b, "Bar", 0, value="3")]
    with_piece = render_frame(scene_for(board, pieces=piece))
    moved = render_frame(scene_for(board, pieces=piece, arrow=(a, b)))
    ((_, box, badge),) = [
        (p.index, p.boxes[0], p.badge) for p in piece_boxes(scene_for(board, pieces=piece))
    ]
    for x0, y0, x1, y1 in (badge,):
        qx, qy = (x1 - x0) / 4, (y1 - y0) / 4  # its middle: the rounded corners show the ground
        window = (slice(int(y0 + qy), int(y1 - qy)), slice(int(x0 + qx), int(x1 - qx)))
        assert np.array_equal(with_piece[window], moved[window])
    same = render_frame(scene_for(board, arrow=(a, a)))
    assert not np.array_equal(base, same)


def test_dice_that_do_not_count_are_dimmed():
    board = square_board()
    faces = ("skull", "shield", "blank")
    plain = render_frame(
        scene_for(board, dice_groups=[DiceGroup("attack", "heroscape_combat", faces)])
    )
    counted = (True, False, False)
    dimmed = render_frame(
        scene_for(
            board, dice_groups=[DiceGroup("attack", "heroscape_combat", faces, counted=counted)]
        )
    )
    changed = np.abs(plain.astype(int) - dimmed.astype(int)).sum(axis=2) > 30
    assert changed.any()
    # only the two faces that do not count changed, and they got darker
    columns = np.flatnonzero(changed.any(axis=0))
    assert dimmed[changed].astype(int).mean() < plain[changed].astype(int).mean() - 40
    assert columns.max() - columns.min() < plain.shape[1] // 3


def test_highlight_and_marks_draw():
    board = square_board()
    base = render_frame(scene_for(board))
    assert not np.array_equal(base, render_frame(scene_for(board, highlight=[board.cell(2, 2)])))
    assert not np.array_equal(base, render_frame(scene_for(board, cell_marks={8: "S"})))


def test_out_of_range_cells_are_ignored():
    board = square_board()
    frame = render_frame(
        scene_for(
            board,
            pieces=[Piece(999, "X", 0)],
            arrow=(-1, 5),
            highlight=[1000],
            cell_marks={-3: "S"},
        )
    )
    assert frame.shape == render_frame(scene_for(board)).shape


def test_pieces_sharing_a_cell_stand_side_by_side():
    board = square_board()
    cell = board.cell(2, 3)
    scene = scene_for(
        board, pieces=[Piece(cell, "", 0, value="4/4"), Piece(cell, "", 1, value="3/4")]
    )
    a, b = piece_boxes(scene)
    assert a.boxes[0][2] <= b.boxes[0][0] or b.boxes[0][2] <= a.boxes[0][0]  # apart
    frame = render_frame(scene)
    r, c = centre_px(board, cell)
    window = frame[r - 24 : r + 24, c - 24 : c + 24].reshape(-1, 3)
    colours = {tuple(int(v) for v in px) for px in window}
    assert (0, 114, 178) in colours and (230, 159, 0) in colours  # both seats show


def test_dice_groups_draw_faces_and_old_dice_still_draw():
    board = square_board()
    plain = render_frame(scene_for(board))
    groups = render_frame(
        scene_for(board, dice_groups=[DiceGroup("attack", "d6", ("6", "2"), "8: hit", 0)])
    )
    flat = render_frame(scene_for(board, dice=["3", "4"]))
    assert not np.array_equal(plain, groups) and not np.array_equal(plain, flat)
    assert not np.array_equal(groups, flat)


def test_levels_are_shading_with_a_legend_line():
    board = hex_board()
    scene = scene_for(board)
    assert "levels" in glyph_kinds(scene) and "levels" in {e.glyph for e in legend_for(scene)}


def test_long_caption_wraps_at_full_size_and_only_past_three_lines_is_cut():
    short = caption_lines(scene_for(square_board(), caption="12. player_1 (random): pass"), 48)
    caption = "decision 12 | player_1 (random): " + " ".join(f"word{i}" for i in range(20))
    lines, fnt, room = caption_lines(scene_for(square_board(), caption=caption), 48)
    assert 2 <= len(lines) <= 3 and " ".join(lines) == caption
    assert fnt.size == short[1].size  # wrapped, never shrunk
    assert all(fnt.getbbox(line)[2] - fnt.getbbox(line)[0] <= room for line in lines)
    endless = caption + " " + " ".join(f"more{i}" for i in range(60))
    lines, fnt, room = caption_lines(scene_for(square_board(), caption=endless), 48)
    assert len(lines) == 3 and lines[-1].endswith("\u2026") or lines[-1].endswith("...")
    assert fnt.size == short[1].size


def test_render_text_square():
    board = square_board()
    text = render_text(
        scene_for(
            board,
            pieces=[
                Piece(board.cell(1, 1), "Bar", 0),
                Piece(board.cell(3, 3), "g", None, "token"),
                Piece(board.cell(3, 3), "Orc", None, "monster"),
            ],
            cell_marks={board.cell(4, 6): "T"},
            caption="turn 1",
            dice=["skull", "2"],
            status_lines=["player_0 hp 4/4"],
        )
    )
    lines = text.splitlines()
    assert lines[0] == "#......"
    assert lines[1] == ".B....."
    assert lines[2] == "..w...."  # water's initial
    assert lines[3] == "...O..."  # the figure wins over the token below it
    assert lines[4] == "......T"
    assert lines[5:] == ["turn 1", "dice: skull 2", "player_0 hp 4/4"]
    grouped = render_text(
        scene_for(board, dice_groups=[DiceGroup("attack", "d6", ("6", "2"), "8: hit")])
    )
    assert grouped.splitlines()[-1] == "attack: 6 2 (8: hit)"
    custom = render_text(scene_for(board), terrain_glyphs={0: "_", 1: "~"})
    assert custom.splitlines()[2] == "__~____"


def test_render_text_hex_offsets_odd_rows():
    board = hex_board()
    lines = render_text(scene_for(board, pieces=[Piece(board.cell(1, 0), "W", 2)])).splitlines()
    assert len(lines) == board.height
    assert not lines[0].startswith(" ") and lines[1].startswith(" W")
    assert lines[5].endswith("#")
    assert all(len(line.split()) == board.width for line in lines)


def _frames(n: int = 3) -> list[np.ndarray]:
    board = square_board()
    return [
        render_frame(scene_for(board, caption=f"step {i}", arrow=(8, 8 + i + 1))) for i in range(n)
    ]


def test_write_mp4_decodes(tmp_path):
    iio = pytest.importorskip("imageio.v3")
    pytest.importorskip("imageio_ffmpeg")
    frames = _frames(3)
    path = write_video(frames, tmp_path / "episode.mp4", fps=2)
    assert path.exists() and path.stat().st_size > 0
    decoded = iio.imread(path, plugin="pyav") if _has_pyav() else _read_ffmpeg(path)
    assert decoded.shape == (3, *frames[0].shape)
    # Lossy, but the picture must survive: mean absolute difference stays small.
    assert np.abs(decoded.astype(int) - np.stack(frames).astype(int)).mean() < 6


def _has_pyav() -> bool:
    try:
        import av  # noqa: F401
    except ImportError:
        return False
    return True


def _read_ffmpeg(path) -> np.ndarray:
    import imageio.v2 as imageio

    with imageio.get_reader(path, format="FFMPEG") as reader:
        assert reader.count_frames() == 3
        return np.stack(list(reader.iter_data()))


def test_write_gif_decodes_and_loops(tmp_path):
    iio = pytest.importorskip("imageio.v3")
    frames = _frames(4)
    path = write_video(frames, tmp_path / "episode.gif", fps=4)
    decoded = iio.imread(path, index=None)
    assert decoded.shape[:3] == (4, *frames[0].shape[:2])
    from PIL import Image

    with Image.open(path) as gif:
        assert gif.info.get("loop") == 0
        assert gif.info.get("duration") == 250


def test_write_video_pads_odd_sizes(tmp_path):
    iio = pytest.importorskip("imageio.v3")
    frames = [np.full((31, 45, 3), v, np.uint8) for v in (0, 120, 240)]
    path = write_video(frames, tmp_path / "odd.gif")
    assert iio.imread(path, index=None).shape[1:3] == (32, 46)


def test_write_video_errors(tmp_path):
    frames = _frames(2)
    with pytest.raises(ValueError, match="suffix"):
        write_video(frames, tmp_path / "episode.avi")
    with pytest.raises(ValueError, match="at least one frame"):
        write_video([], tmp_path / "episode.mp4")
    bad = frames + [frames[0][:-2]]
    with pytest.raises(ValueError, match="frame 2"):
        write_video(bad, tmp_path / "episode.gif")
    assert not list(tmp_path.iterdir())


def test_a_cross_marks_where_a_figure_fell_with_its_legend_line():
    board = square_board()
    cell = board.cell(2, 4)
    base = render_frame(scene_for(board))
    frame = render_frame(scene_for(board, fallen=[cell]))
    r, c = centre_px(board, cell)
    assert frame[r, c, 0] > 180 and frame[r, c, 1] < 90  # red at the cross's centre
    assert np.array_equal(base[: r - 40], frame[: r - 40])  # nowhere else on the board
    scene = scene_for(board, fallen=[cell])
    assert "fallen" in glyph_kinds(scene)
    assert "a figure fell here" in {entry.text for entry in legend_for(scene)}


def test_from_three_levels_each_space_shows_its_level_number(monkeypatch):
    board = hex_board()  # levels 1-4
    scene = scene_for(board)
    texts = {entry.text for entry in legend_for(scene)}
    assert "level (its number): lighter is higher" in texts
    numbered = render_frame(scene)
    import envs.core.legend as legend_module
    import envs.core.render as render_module

    monkeypatch.setattr(legend_module, "NUMBERED_LEVELS", 99)
    render_module._board_layer.cache_clear()
    plain = render_frame(scene)
    render_module._board_layer.cache_clear()
    r, c = centre_px(board, board.cell(2, 3))
    foot = (slice(r + 12, r + 36), slice(c - 8, c + 8))  # under the centre, 48 px cells
    assert not np.array_equal(numbered[foot], plain[foot])
    flat = scene_for(square_board())  # one level: no numbers, no level line
    assert not any("level" in entry.text for entry in legend_for(flat))


@pytest.mark.parametrize("make_board", [square_board, hex_board])
def test_rows_and_columns_are_numbered_as_the_notation_counts_them(make_board):
    from envs.core.render import BACKGROUND, coordinate_margin

    board = make_board()
    frame = render_frame(scene_for(board)).astype(int)
    margin = coordinate_margin(48)
    for col in (0, 3, board.width - 1):
        r, c = centre_px(board, board.cell(0, col))
        strip = frame[r - 48 // 2 - margin : r - 48 // 2, c - 6 : c + 6]  # above row 0
        assert (np.abs(strip - BACKGROUND).sum(axis=2) > 60).any(), f"no number over column {col}"
    _, left = centre_px(board, board.cell(0, 1))
    left -= 48  # column 0 of an even row (a hex board shifts odd rows right)
    for row in (0, board.height - 1):
        r, _ = centre_px(board, board.cell(row, 1))
        strip = frame[r - 5 : r + 5, max(0, left - 48 // 2 - margin) : left - 48 // 2]
        assert (np.abs(strip - BACKGROUND).sum(axis=2) > 60).any(), f"no number by row {row}"


def test_pieces_sharing_a_square_stay_large_and_apart():
    board = square_board()
    cell = board.cell(2, 3)
    (lone,) = piece_boxes(scene_for(board, pieces=[Piece(cell, "A", 0)]))
    pair = piece_boxes(scene_for(board, pieces=[Piece(cell, "A", 0), Piece(cell, "B", 1)]))
    width = lambda box: box[2] - box[0]  # noqa: E731
    for piece in pair:  # at least 60% of a lone piece, not a dot
        assert width(piece.boxes[0]) >= 0.6 * width(lone.boxes[0])
    (a,), (b,) = (p.boxes for p in pair)
    assert a[2] <= b[0] or b[2] <= a[0]  # side by side, not on top of one another
