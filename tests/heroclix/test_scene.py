"""HeroClix frames (envs/heroclix/view/scene.py): what ``game.scene(state, events)`` shows.

Positions come from the rule-test helpers (tests/heroclix/conftest.py) and from played games;
the scene's board is the map's own board (12 x 12 here), so a square's cell is
``row * cols + col``. Walls (HC-5.14, HC-5.16/5.17), lines of fire (HC-4.17, HC-5.11),
knockback (HC-4.9), markers (P-ATT-8, P-DEF-6), objects (HC-6), flight (HC-1.12), action
tokens (HC-3.14) and carrying (HC-3.30).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from envs.core import render
from envs.core.render import EdgeMark, render_frame
from envs.heroclix.rules import HeroclixGame
from envs.heroclix.view.scene import BADGE_MEANING, FREE_START, INDOOR, RUBBLE, START, short_labels

SMOKE = (None, "smoke_cloud", None, None)
BARRIER = (None, None, "barrier", None)


def cell(game, r, c):
    return r * game.map.board.width + c


def pieces_of(game, scene, label):
    """The pieces of the figure ``label`` (game.label), by its short frame label."""
    short = short_labels(game)[game.figure_label.index(label)]
    return [p for p in scene.pieces if p.kind != "token" and p.label == short]


def piece(game, scene, label):
    found = pieces_of(game, scene, label)
    assert len(found) == 1, (label, scene.pieces)
    return found[0]


def tokens_at(scene, where, icon=None):
    return [
        p
        for p in scene.pieces
        if p.kind == "token" and p.cell == where and (icon is None or p.icon == icon)
    ]


def duel(H, a, b, a_at=(5, 5), b_at=(5, 6), placements=None, extra0=(), **kw):
    place = {a["name"]: a_at, b["name"]: b_at, **(placements or {})}
    return H.build([[a, *extra0], [b]], place, **kw)


# -- walls -------------------------------------------------------------------------------------


def test_HC_5_16_a_broken_wall_is_a_broken_wall_edge_and_no_longer_stands(H):
    a = H.fig("attacker", "Attacker", damage=3)
    game, state = duel(
        H, a, H.fig("target", "Target"), b_at=(9, 9), walls=[((5, 5), (5, 6)), ((2, 2), (3, 2))]
    )
    east, south = cell(game, 5, 5), cell(game, 2, 2)
    before = game.scene(state, [])
    assert sorted((e.cell, e.side, e.kind) for e in before.edges) == [
        (south, 2, "wall"),
        (east, 1, "wall"),
    ]
    assert {(east, east + 1), (south, south + 12)} == set(before.board.walls)
    H.select(game, state, "Attacker")
    events = game.apply_string(state, "break the east wall of (5,5)")
    after = game.scene(state, events)
    assert sorted((e.cell, e.side, e.kind) for e in after.edges) == [
        (south, 2, "wall"),
        (east, 1, "broken_wall"),
    ]
    # the board the renderer draws keeps only the standing wall (the frames' old bug)
    assert set(after.board.walls) == {(south, south + 12)}
    # HC-5.17: both squares of the broken wall are hindering rubble now
    assert after.board.terrain[east] == after.board.terrain[east + 1] == RUBBLE
    assert before.board.terrain[east] != RUBBLE
    assert after.arrow == (east, east + 1)  # from the breaker across the wall it broke


def test_HC_5_16_a_broken_blocking_square_turns_to_rubble(H):
    a = H.fig("attacker", "Attacker", damage=3)
    game, state = duel(H, a, H.fig("target", "Target"), b_at=(9, 9), marks={(5, 6): "#"})
    block = cell(game, 5, 6)
    assert game.scene(state, []).board.terrain[block] != RUBBLE
    H.select(game, state, "Attacker")
    events = game.apply_string(state, "smash (5,6)")
    assert game.scene(state, events).board.terrain[block] == RUBBLE


# -- lines of fire and knockback ---------------------------------------------------------------


def test_HC_5_11_a_ranged_attack_through_hindering_marks_the_crossing(H):
    shooter = H.fig("shooter", "Shooter", range=6, attack=12)
    game, state = duel(
        H,
        shooter,
        H.fig("target", "Target"),
        a_at=(8, 5),
        b_at=(2, 5),
        marks={(5, 5): "%", (5, 7): "%"},
        dice=["4", "3"],
    )
    events = H.ranged(game, state, "Shooter", "Target")
    scene = game.scene(state, events)
    lines = [p for p in scene.paths if p.kind == "line_of_fire"]
    assert len(lines) == 1
    assert lines[0].cells == (cell(game, 8, 5), cell(game, 2, 5))
    assert lines[0].marks == (cell(game, 5, 5),)  # (5,7) is off the line
    assert scene.arrow is None  # the line of fire shows the attack
    groups = [(g.label, g.kind, tuple(g.faces), g.result_text, g.owner) for g in scene.dice_groups]
    assert groups == [("SHO attack", "d6", ("4", "3"), "7: hit", 0)]


def test_a_missed_attack_and_a_breakaway_have_their_dice_groups(H):
    game, state = duel(H, H.fig("a", "A", attack=5), H.fig("b", "B"), dice=["2", "3"])
    scene = game.scene(state, H.close(game, state, "A", "B"))
    assert [(g.label, g.result_text) for g in scene.dice_groups] == [("A attack", "5: miss")]
    game, state = duel(H, H.fig("a", "A"), H.fig("b", "B"), dice=["6"])
    H.select(game, state, "A")
    scene = game.scene(state, game.apply_string(state, "break away"))
    assert [(g.label, tuple(g.faces), g.result_text) for g in scene.dice_groups] == [
        ("A breakaway", ("6",), "breaks away")
    ]


def test_a_clear_line_of_fire_marks_nothing_and_a_close_attack_draws_no_line(H):
    shooter = H.fig("shooter", "Shooter", range=6)
    game, state = duel(
        H, shooter, H.fig("target", "Target"), a_at=(8, 5), b_at=(2, 5), dice=["4", "3"]
    )
    scene = game.scene(state, H.ranged(game, state, "Shooter", "Target"))
    assert [(p.kind, p.marks) for p in scene.paths] == [("line_of_fire", ())]
    game, state = duel(H, H.fig("a", "A"), H.fig("b", "B"), dice=["4", "3"])
    scene = game.scene(state, H.close(game, state, "A", "B"))
    assert not [p for p in scene.paths if p.kind == "line_of_fire"]
    assert scene.arrow == (cell(game, 5, 5), cell(game, 5, 6))


def test_HC_4_23_hindering_does_not_count_outdoors_for_a_flyer_so_it_is_not_marked(H):
    shooter = H.fig("shooter", "Shooter", range=6, flyer=True)
    game, state = duel(
        H,
        shooter,
        H.fig("target", "Target"),
        a_at=(8, 5),
        b_at=(2, 5),
        marks={(5, 5): "%"},
        dice=["4", "3"],
    )
    scene = game.scene(state, H.ranged(game, state, "Shooter", "Target"))
    assert [(p.kind, p.marks) for p in scene.paths] == [("line_of_fire", ())]


def test_HC_4_24_each_target_of_a_multi_bolt_attack_gets_its_line_of_fire(H):
    shooter = H.fig("shooter", "Shooter", range=8, targets=2, attack=12)
    foes = [H.fig("target", "Target"), H.fig("other", "Other")]
    game, state = H.build(
        [[shooter], foes],
        {"Shooter": (8, 5), "Target": (2, 5), "Other": (4, 9)},
        marks={(6, 7): "%"},
        dice=["4", "3"],
    )
    events = H.ranged(game, state, "Shooter", "Target", "Other")  # fires at 2 bolts
    lines = {
        p.cells[1]: p.marks for p in game.scene(state, events).paths if p.kind == "line_of_fire"
    }
    assert lines == {cell(game, 2, 5): (), cell(game, 4, 9): (cell(game, 6, 7),)}


def test_HC_4_9_a_knockback_gives_its_path_from_the_square_hit_to_the_square_reached(H):
    shooter = H.fig("shooter", "Shooter", range=6, damage=2)
    game, state = duel(
        H, shooter, H.fig("target", "Target"), a_at=(8, 5), b_at=(5, 5), dice=["5", "5"]
    )  # doubles: knocked back 2 squares north
    events = H.ranged(game, state, "Shooter", "Target")
    assert H.sq(game, state, "Target") == (3, 5)
    knock = [p for p in game.scene(state, events).paths if p.kind == "knockback"]
    assert [p.cells for p in knock] == [(cell(game, 5, 5), cell(game, 4, 5), cell(game, 3, 5))]


def test_no_knockback_path_without_doubles(H):
    shooter = H.fig("shooter", "Shooter", range=6)
    game, state = duel(
        H, shooter, H.fig("target", "Target"), a_at=(8, 5), b_at=(5, 5), dice=["5", "4"]
    )
    scene = game.scene(state, H.ranged(game, state, "Shooter", "Target"))
    assert not [p for p in scene.paths if p.kind == "knockback"]


# -- markers, objects, figures -----------------------------------------------------------------


def test_P_ATT_8_and_P_DEF_6_markers_are_icons_on_their_squares(H):
    smoker = H.fig("smoker", "Smoker", powers=SMOKE, range=4)
    builder = H.fig("builder", "Builder", powers=BARRIER, range=3)
    game, state = duel(H, smoker, builder, b_at=(9, 5), dice=["3", "4"])
    H.select(game, state, "Smoker")
    game.apply_string(state, "smoke cloud Smoker")
    events = game.apply_string(state, "smoke cloud Smoker marker (5,7)")
    scene = game.scene(state, events)
    smoke = tokens_at(scene, cell(game, 5, 7), "smoke_marker")
    assert len(smoke) == 1 and smoke[0].owner == 0
    assert not [p for p in scene.pieces if p.icon == "barrier_marker"]
    game.apply_string(state, "end smoke cloud")  # the turn passes to Builder's seat
    H.select(game, state, "Builder")
    game.apply_string(state, "barrier Builder")
    events = game.apply_string(state, "barrier Builder marker (8,5)")
    scene = game.scene(state, events)
    barrier = tokens_at(scene, cell(game, 8, 5), "barrier_marker")
    assert len(barrier) == 1 and barrier[0].owner == 1


def test_HC_6_objects_lying_are_light_or_heavy_icons_and_a_held_one_is_a_tag(H):
    strong = H.fig("strong", "Strong", powers=(None, "super_strength", None, None))
    game, state = duel(
        H, strong, H.fig("foe", "Foe"), b_at=(9, 9), objects={"table": (6, 6), "dumpster": (7, 7)}
    )
    scene = game.scene(state, [])
    assert [p.icon for p in tokens_at(scene, cell(game, 6, 6))] == ["object_light"]
    assert [p.icon for p in tokens_at(scene, cell(game, 7, 7))] == ["object_heavy"]
    assert "held" not in piece(game, scene, "Strong").tags
    game, state = duel(
        H,
        strong,
        H.fig("foe", "Foe"),
        b_at=(9, 9),
        objects={"table": None, "dumpster": (7, 7)},
        held={"Strong": "table"},
    )
    scene = game.scene(state, [])
    assert "held" in piece(game, scene, "Strong").tags
    assert not [p for p in scene.pieces if p.icon == "object_light"]  # not on the map


def test_HC_1_12_flight_modes_and_HC_3_14_action_tokens_are_tags(H):
    flyer = H.fig("flyer", "Flyer", flyer=True)
    glider = H.fig("glider", "Glider", flyer=True)
    walker = H.fig("walker", "Walker")
    game, state = H.build(
        [[flyer, glider, walker], [H.fig("foe", "Foe")]],
        {"Flyer": (5, 5, "soar"), "Glider": (5, 8), "Walker": (7, 7), "Foe": (10, 10)},
        tokens={"Glider": 1, "Walker": 2},
    )
    scene = game.scene(state, [])
    assert piece(game, scene, "Flyer").tags == ("soaring",)
    assert piece(game, scene, "Glider").tags == ("hovering", "token")
    assert piece(game, scene, "Walker").tags == ("token2",)
    assert piece(game, scene, "Foe").tags == ()


def test_the_badge_is_the_dial_now_speed_attack_defense_damage(H):
    dial = [H.click(7, 10, 17, 3), H.click(6, 9, 16, 2)]
    game, state = duel(H, H.fig("a", "A", dial=dial), H.fig("b", "B"), b_at=(9, 9))
    assert piece(game, game.scene(state, []), "A").value == "7/10/17/3"
    game, state = duel(H, H.fig("a", "A", dial=dial), H.fig("b", "B"), b_at=(9, 9), clicks={"A": 1})
    assert piece(game, game.scene(state, []), "A").value == "6/9/16/2"
    assert BADGE_MEANING == "speed/attack/defense/damage"
    if "badge_meaning" in {f.name for f in dataclasses.fields(render.Scene)}:
        assert game.scene(state, []).badge_meaning == BADGE_MEANING


def test_HC_3_30_a_carried_friend_is_drawn_beside_its_carrier(H):
    flyer = H.fig("flyer", "Flyer", flyer=True, speed=5)
    pal = H.fig("pal", "Pal")
    game, state = H.build(
        [[flyer, pal], [H.fig("foe", "Foe")]],
        {"Flyer": (5, 5), "Pal": (5, 4), "Foe": (11, 11)},
        build_total=200,
    )
    H.select(game, state, "Flyer")
    events = game.apply_string(state, "carry Pal (5,4)")
    scene = game.scene(state, events)
    carried = piece(game, scene, "Pal")
    assert carried.cell == piece(game, scene, "Flyer").cell == cell(game, 5, 5)
    assert "carried" in carried.tags
    events = game.apply_string(state, "move Flyer to (5,9)")
    scene = game.scene(state, events)
    assert piece(game, scene, "Pal").cell == cell(game, 5, 9)  # it rides along


def test_short_labels_are_unique_and_the_key_names_them(H):
    game = HeroclixGame(scenario="mall")
    labels = short_labels(game)
    assert len(set(labels)) == len(labels) and all(len(x) <= 4 for x in labels)
    assert labels.count("ST1") == labels.count("ST2") == 1
    state = game.new_state(0)
    scene = game.scene(state, [])
    if hasattr(scene, "key"):
        assert {scene.key[lab][0] for lab in labels} == set(game.figure_label)


# -- the map: starting areas, indoor squares, stairs and ladders ---------------------------------


def test_HC_2_10_starting_areas_are_tinted_per_seat_and_every_code_has_a_name():
    game = HeroclixGame(scenario="duel")  # player_0 on the S edge, player_1 on the N edge
    scene = game.scene(game.new_state(0), [])
    terrain = scene.board.terrain
    areas = game.map.start_areas
    assert set(terrain[areas["S"]]) == {START + 0}
    assert set(terrain[areas["N"]]) == {START + 1}
    assert set(terrain[areas["W"]]) == set(terrain[areas["E"]]) == {START + FREE_START}
    assert all(
        int(code) in scene.terrain_names and int(code) in scene.terrain_colors
        for code in set(terrain.tolist())
    )


def test_HC_5_2_indoor_squares_and_HC_5_8_stairs_and_ladders_are_shown():
    game = HeroclixGame(scenario="mall")  # every square indoor
    scene = game.scene(game.new_state(0), [])

    def indoor(codes):  # codes: base, INDOOR + base, START + seat, INDOOR + START + seat
        return (np.asarray(codes) % START) >= INDOOR

    assert indoor(scene.board.terrain).all()
    street = HeroclixGame(scenario="street")
    codes = street.scene(street.new_state(0), []).board.terrain
    assert street.map.indoor.any() and not street.map.indoor.all()
    assert (indoor(codes) == street.map.indoor).all()
    icons = dict(getattr(scene, "cell_icons", {}) or {})
    icons.update({p.cell: p.icon for p in scene.pieces if p.icon in ("stairs", "ladder")})
    assert {c for c, i in icons.items() if i == "stairs"} == set(np.flatnonzero(game.map.stairs))
    assert {c for c, i in icons.items() if i == "ladder"} == set(
        np.flatnonzero(game.map.ladder_to >= 0)
    )


def test_a_map_padded_to_a_larger_board_is_drawn_on_its_own_squares():
    small, padded = (
        HeroclixGame(scenario="duel"),
        HeroclixGame(scenario="duel", board_size=(24, 24)),
    )
    a, b = small.scene(small.new_state(3), []), padded.scene(padded.new_state(3), [])
    assert a.board.n_cells == b.board.n_cells == 16 * 16
    assert [(e.cell, e.side) for e in a.edges] == [(e.cell, e.side) for e in b.edges]
    assert [(p.cell, p.label) for p in a.pieces] == [(p.cell, p.label) for p in b.pieces]
    assert (a.board.terrain == b.board.terrain).all()


# -- played games ------------------------------------------------------------------------------


def _check(game, state, scene):
    d = game.to_dict(state)
    on_map = [f for f, c in enumerate(d["cell"]) if c >= 0]
    labels = short_labels(game)
    figures = [p for p in scene.pieces if p.kind != "token"]
    assert sorted(p.label for p in figures) == sorted(labels[f] for f in on_map)
    walls = game.walls.n_edges
    assert len(scene.edges) == walls
    assert sum(e.kind == "broken_wall" for e in scene.edges) == walls - sum(d["walls_intact"])
    lying = [c for c in d["objects"] if c >= 0]
    assert len([p for p in scene.pieces if p.icon in ("object_light", "object_heavy")]) == len(
        lying
    )
    for path in scene.paths:
        assert all(0 <= c < scene.board.n_cells for c in path.cells + path.marks)


@pytest.mark.parametrize("scenario,seed", [("duel", 5), ("mall", 2), ("brawl", 1)])
def test_played_games_show_every_figure_wall_and_object(scenario, seed):
    game = HeroclixGame(scenario=scenario)
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    kinds = set()
    for _step in range(400):
        if game.is_terminal(state):
            break
        events = game.apply(state, int(rng.choice(game.legal_actions(state))))
        kinds.update(e.kind for e in events)
        _check(game, state, game.scene(state, events))
    frame = render_frame(game.scene(state, events), cell_px=12)
    assert frame.ndim == 3 and frame.shape[2] == 3


def test_a_frame_of_every_mark_renders(H):
    shooter = H.fig("shooter", "Shooter", range=6, damage=2, flyer=True)
    game, state = duel(
        H,
        shooter,
        H.fig("target", "Target"),
        a_at=(8, 5),
        b_at=(5, 5),
        walls=[((2, 2), (2, 3))],
        marks={(6, 5): "%"},
        dice=["5", "5"],
        broken_walls=[((2, 2), (2, 3))],
        tokens={"Target": 1},
    )
    scene = game.scene(state, H.ranged(game, state, "Shooter", "Target"))
    assert {p.kind for p in scene.paths} == {"line_of_fire", "knockback"}
    assert [e.kind for e in scene.edges] == ["broken_wall"]
    assert render_frame(scene, cell_px=20).shape[2] == 3
    assert isinstance(scene.edges[0], EdgeMark)


# -- dial cards -------------------------------------------------------------------------------


def test_HC_2_8_an_attack_shows_the_dial_cards_of_attacker_and_target(H):
    shooter = H.fig(
        "shooter",
        "Shooter",
        range=6,
        speed=8,
        attack=12,
        defense=17,
        damage=3,
        powers=("running_shot", None, None, None),
    )
    target = H.fig("target", "Target", speed=5, attack=7, defense=14, damage=1, clicks=4)
    game, state = duel(H, shooter, target, a_at=(8, 5), b_at=(2, 5), dice=["4", "3"])
    scene = game.scene(state, H.ranged(game, state, "Shooter", "Target"))
    acting, hit = scene.cards
    assert (acting.role, hit.role) == ("acting", "target")
    assert acting.title.startswith("Shooter (") and acting.title.endswith("click 1 of 6")
    assert acting.owner == 0 and hit.owner == 1
    assert acting.stats == [
        ("speed", "8"),
        ("attack", "12"),
        ("defense", "17"),
        ("damage", "3"),
        ("range", "6"),
    ]
    assert acting.lines == ["speed: Running Shot"]
    # the target's card shows its dial after the damage: 7 + 4 + 3 = 14 hits defense 14
    assert hit.title.endswith("click 4 of 4") and hit.stats[0] == ("speed", "5")
    assert hit.lines == ["no powers at this click"]
    frame = render_frame(scene, cell_px=32)
    assert not np.array_equal(frame, render_frame(dataclasses.replace(scene, cards=[]), cell_px=32))


def test_a_move_shows_the_movers_card_only_and_the_start_shows_none(H):
    game, state = duel(H, H.fig("a", "A"), H.fig("b", "B"), a_at=(5, 5), b_at=(9, 9))
    assert game.scene(state, []).cards == []
    H.select(game, state, "A")
    scene = game.scene(
        state,
        game.apply_string(
            state,
            game.action_to_string(
                state,
                next(
                    a
                    for a in game.legal_actions(state)
                    if game.action_to_string(state, a).startswith("move A")
                ),
            ),
        ),
    )
    assert [card.role for card in scene.cards] == ["acting"]
    assert scene.cards[0].title.startswith("A (")


def test_HC_4_5_a_cross_marks_the_square_of_a_kod_figure_and_its_card_says_so(H):
    attacker = H.fig("a", "A", attack=12, damage=4)
    target = H.fig("b", "B", clicks=2)
    game, state = duel(H, attacker, target, dice=["5", "5"])
    where = cell(game, 5, 6)
    scene = game.scene(state, H.close(game, state, "A", "B"))
    assert H.sq(game, state, "B") is None
    assert scene.fallen == [where]
    assert [card.role for card in scene.cards] == ["acting", "target"]
    assert scene.cards[1].lines == ["KO'd"] and scene.cards[1].stats == []
