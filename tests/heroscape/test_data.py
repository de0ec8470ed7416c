"""Heroscape data files (envs/heroscape/RULES.md HS-1, HS-2, HS-7, HS-13, HS-14): the shipped
battlefields, army cards and scenarios, and every kind of malformed file."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from envs.core.board import UNREACHABLE, Board
from envs.core.scenario import ScenarioError
from envs.heroscape.data.army_cards import (
    CardKind,
    card_from_text,
    list_cards,
    load_card,
    load_cards,
)
from envs.heroscape.data.battlefield import (
    MAX_COLS,
    MAX_ROWS,
    Terrain,
    battlefield_from_text,
    list_battlefields,
    load_battlefield,
)
from envs.heroscape.data.scenario_file import (
    VictoryType,
    list_scenarios,
    load_scenario,
    scenario_from_text,
)

# -- shipped content ---------------------------------------------------------------------------


def test_shipped_content_is_listed():
    assert {"meadow", "ridge", "river_crossing", "highlands"} <= set(list_battlefields())
    assert len(list_cards()) >= 8
    assert {"skirmish", "mirror", "ridge_duel", "river_hold", "highlands_melee"} <= set(
        list_scenarios()
    )


@pytest.mark.parametrize("battlefield_id", list_battlefields())
def test_shipped_battlefield_loads(battlefield_id):
    bf = load_battlefield(battlefield_id)
    assert bf.id == battlefield_id
    assert bf.rows <= MAX_ROWS and bf.cols <= MAX_COLS
    assert bf.board.topology.value == "hex"
    spaces = bf.board.spaces()
    assert (bf.board.distance[spaces[0], spaces] != UNREACHABLE).all()
    assert set(bf.levels) <= set(range(1, 10))
    for letter, cells in bf.zones.items():
        assert cells and all(bf.board.exists[c] for c in cells), letter
    # The map writes back to the same battlefield.
    again = battlefield_from_text(
        f"id: {bf.id}\nname: x\nmap: |\n" + textwrap.indent(bf.map_text(), "  ")
    )
    assert np.array_equal(again.board.level, bf.board.level)
    assert np.array_equal(again.board.terrain, bf.board.terrain)
    assert dict(again.zones) == dict(bf.zones)


@pytest.mark.parametrize("card_id", list_cards())
def test_shipped_card_loads_with_sensible_stats(card_id):
    card = load_card(card_id)
    assert card.id == card_id
    assert 4 <= card.move <= 7 and 1 <= card.range <= 8
    assert 1 <= card.attack <= 5 and 1 <= card.defense <= 5
    assert card.figures == 1 if card.kind is CardKind.HERO else 3 <= card.figures <= 4


@pytest.mark.parametrize("scenario_id", list_scenarios())
def test_shipped_scenario_loads(scenario_id):
    scenario = load_scenario(scenario_id)
    assert scenario.id == scenario_id
    assert 2 <= scenario.n_players <= 4
    for player in scenario.players:
        assert player.zone_cells == scenario.battlefield.zones[player.zone]
        assert sum(c.figures * c.spaces_per_figure for c in player.army) <= len(player.zone_cells)


def test_shipped_cards_cover_heroes_squads_melee_ranged_and_double_space():
    cards = load_cards().values()
    assert {c.kind for c in cards} == {CardKind.HERO, CardKind.SQUAD}
    assert any(c.range == 1 for c in cards) and any(c.range > 1 for c in cards)
    assert any(c.double_space for c in cards)


def test_highlands_is_big_and_varied():
    bf = load_battlefield("highlands")
    assert bf.n_spaces >= 150
    assert len(bf.levels) >= 4
    terrain = set(bf.board.terrain[bf.board.exists].tolist())
    assert {Terrain.WATER, Terrain.SHADOW} <= terrain
    # A gap inside the battlefield, not only trimmed edges: some spaces are farther apart
    # (range counts around it, HS-9.5) than on the same grid with every hex filled in.
    full = Board.create("hex", np.ones((bf.rows, bf.cols), dtype=bool))
    spaces = bf.board.spaces()
    detour = bf.board.distance[np.ix_(spaces, spaces)] - full.distance[np.ix_(spaces, spaces)]
    assert detour.max() >= 2
    assert set("ABCD") <= set(bf.zones)


def test_default_scenario_is_small_and_two_player():
    scenario = load_scenario("skirmish")
    assert scenario.battlefield.id == "meadow" and scenario.n_players == 2
    assert 50 <= scenario.battlefield.n_spaces <= 70
    assert scenario.victory.type is VictoryType.ELIMINATE
    for player in scenario.players:
        assert [c.kind for c in player.army] == [CardKind.HERO, CardKind.SQUAD]


def test_shipped_scenarios_cover_every_battlefield_and_multiplayer_and_hold():
    scenarios = [load_scenario(s) for s in list_scenarios()]
    assert {s.battlefield.id for s in scenarios} >= set(list_battlefields())
    assert any(s.n_players >= 3 for s in scenarios)
    assert any(s.victory.type is VictoryType.HOLD for s in scenarios)


def test_load_accepts_paths():
    from envs.heroscape.data.army_cards import CARDS_DIR
    from envs.heroscape.data.battlefield import BATTLEFIELDS_DIR
    from envs.heroscape.data.scenario_file import SCENARIOS_DIR

    assert load_battlefield(BATTLEFIELDS_DIR / "meadow.yaml").id == "meadow"
    assert load_card(CARDS_DIR / "iron_warden.yaml").id == "iron_warden"
    assert load_scenario(SCENARIOS_DIR / "skirmish.yaml").id == "skirmish"


@pytest.mark.parametrize(
    "kind, loader",
    [("battlefield", load_battlefield), ("scenario", load_scenario), ("card", load_card)],
)
def test_unknown_ids_list_the_shipped_ones(kind, loader):
    with pytest.raises(ScenarioError, match=f"unknown {kind} id 'nowhere'; shipped: "):
        loader("nowhere")


# -- battlefield format ------------------------------------------------------------------------

BF = textwrap.dedent("""\
    id: pond
    name: Pond
    description: A test battlefield.
    map: |
      1nA 1nA 1nA 1n  1n
        1n  1n  1w  1w  .
      1n  2n  1w  1n  1s
        1nB 1nB 1nB 1nB 1nB
""")
BF_ROW0 = 5  # file line of map row 0


def test_HS_14_1_custom_battlefield_loads():
    bf = battlefield_from_text(BF)
    assert (bf.rows, bf.cols, bf.n_spaces) == (4, 5, 19)
    assert bf.source == "<string>"
    cell = bf.cell(2, 1)
    assert (bf.board.level[cell], bf.board.terrain[cell]) == (2, Terrain.NORMAL)
    assert bf.board.terrain[bf.cell(1, 2)] == Terrain.WATER
    assert bf.board.terrain[bf.cell(2, 4)] == Terrain.SHADOW
    assert not bf.board.exists[bf.cell(1, 4)]
    assert bf.zones == {"A": (0, 1, 2), "B": (15, 16, 17, 18, 19)}
    assert bf.levels == (1, 2)
    assert bf.zone_mask("A").sum() == 3 and not bf.zone_mask("Q").any()


def test_odd_rows_sit_half_a_hex_right():
    bf = battlefield_from_text(BF)
    # odd-r: (1,1) touches (0,1) and (0,2) above, (2,1) and (2,2) below.
    neighbours = {bf.rc(n) for n in bf.board.neighbors[bf.cell(1, 1)] if n >= 0}
    assert neighbours == {(1, 0), (1, 2), (0, 1), (0, 2), (2, 1), (2, 2)}


def test_HS_9_5_range_goes_around_a_gap():
    text = BF.replace("1n  1n  1w  1w  .", "1n  1n  .   .   1w")
    bf = battlefield_from_text(text)
    # (0,3) and (2,3) would be 2 steps apart through (1,2) or (1,3); with no tiles there the
    # range counts around the gap: 4 steps.
    assert bf.board.distance[bf.cell(0, 3), bf.cell(2, 3)] == 4


def _bad_file(tmp_path, text, loader, name):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        loader(path)
    message = str(info.value)
    assert message.startswith(str(path)), message
    return info.value, message


def _bad_bf(tmp_path, text):
    return _bad_file(tmp_path, text, load_battlefield, "pond")


def test_bad_battlefield_unknown_token(tmp_path):
    err, message = _bad_bf(tmp_path, BF.replace("2n  1w", "0n  1w"))
    assert (err.line, err.field) == (BF_ROW0 + 2, "map")
    assert "map row 2, col 1 (file column 7): unknown token '0n'" in message
    assert "<level 1-9><terrain n|w|s>" in message


def test_bad_battlefield_unknown_terrain_letter(tmp_path):
    err, message = _bad_bf(tmp_path, BF.replace("1w  1n  1s", "1w  1n  1l"))
    assert err.line == BF_ROW0 + 2
    assert "row 2, col 4 (file column 19): unknown token '1l'" in message


def test_bad_battlefield_lowercase_zone(tmp_path):
    err, message = _bad_bf(tmp_path, BF.replace("1nA 1nA 1nA", "1nA 1na 1nA"))
    assert err.line == BF_ROW0 and "unknown token '1na'" in message


def test_bad_battlefield_ragged_row(tmp_path):
    err, message = _bad_bf(tmp_path, BF.replace("1n  2n  1w  1n  1s", "1n  2n  1w  1n"))
    assert err.line == BF_ROW0 + 2
    assert "map row 2 has 4 hexes, expected 5" in message


def test_bad_battlefield_odd_row_not_indented(tmp_path):
    err, message = _bad_bf(tmp_path, BF.replace("    1n  1n  1w  1w  .", "  1n  1n  1w  1w  ."))
    assert err.line == BF_ROW0 + 1
    assert "map row 1 is indented 0 spaces, expected 2" in message and "half a hex" in message


def test_bad_battlefield_even_row_indented(tmp_path):
    err, message = _bad_bf(tmp_path, BF.replace("  1n  2n  1w", "    1n  2n  1w"))
    assert err.line == BF_ROW0 + 2 and "map row 2 is indented 2 spaces, expected 0" in message


def test_bad_battlefield_tab(tmp_path):
    err, message = _bad_bf(tmp_path, BF.replace("1n  2n  1w", "1n\t2n  1w"))
    assert err.line == BF_ROW0 + 2 and "a tab" in message


def test_bad_battlefield_disconnected_space(tmp_path):
    text = BF.replace(
        "1n  2n  1w  1n  1s\n    1nB 1nB 1nB 1nB 1nB", ".   .   .   .   .\n    1nB 1nB 1nB 1nB 1nB"
    )
    err, message = _bad_bf(tmp_path, text)
    assert err.line == BF_ROW0 + 3
    assert "map row 3, col 0: this hex is cut off from the hex at row 0, col 0" in message


def test_bad_battlefield_no_spaces(tmp_path):
    text = BF.split("map: |")[0] + "map: |\n  .  .\n    .  .\n"
    err, message = _bad_bf(tmp_path, text)
    assert err.field == "map" and "no spaces" in message


def test_bad_battlefield_too_big(tmp_path):
    row = "1n  " * (MAX_COLS + 1)
    text = BF.split("map: |")[0] + "map: |\n  " + row + "\n    " + row + "\n"
    err, message = _bad_bf(tmp_path, text)
    assert err.line == 4 and f"1 hexes; at most {MAX_ROWS} x {MAX_COLS}" in message


def test_bad_battlefield_map_not_a_literal_block(tmp_path):
    text = BF.split("map: |")[0] + 'map: "1n 1n"\n'
    err, message = _bad_bf(tmp_path, text)
    assert (err.line, err.field) == (4, "map") and "literal block" in message


def test_bad_battlefield_unknown_key(tmp_path):
    err, message = _bad_bf(tmp_path, BF.replace("name: Pond\n", "name: Pond\nsize: 5\n"))
    assert (err.line, err.field) == (3, "size") and "unknown field 'size'" in message


def test_bad_battlefield_id_must_match_file_name(tmp_path):
    err, message = _bad_file(tmp_path, BF, load_battlefield, "lake")
    assert (err.line, err.field) == (1, "id") and "does not match the file name" in message


# -- army cards --------------------------------------------------------------------------------

CARD = textwrap.dedent("""\
    id: test_guards
    name: Test Guards
    kind: squad
    figures: 3
    move: 5
    range: 1
    attack: 2
    defense: 3
""")


def _bad_card(tmp_path, text):
    return _bad_file(tmp_path, text, load_card, "test_guards")


def test_card_defaults():
    card = card_from_text(CARD)
    assert (card.kind, card.figures, card.double_space, card.height) == (
        CardKind.SQUAD,
        3,
        False,
        5,
    )
    assert card.faction == "" and not card.is_hero


def test_HS_10_4_double_space_figures_default_to_height_6():
    card = card_from_text(
        CARD.replace("squad", "hero").replace("figures: 3", "figures: 1") + "double_space: true\n"
    )
    assert card.double_space and card.height == 6 and card.spaces_per_figure == 2
    assert card_from_text(CARD + "height: 8\n").height == 8


def test_HS_2_2_hero_has_exactly_one_figure(tmp_path):
    err, message = _bad_card(
        tmp_path, CARD.replace("kind: squad", "kind: hero").replace("figures: 3", "figures: 2")
    )
    assert (err.line, err.field) == (4, "figures")
    assert "a hero card has exactly 1 figure (HS-2.2)" in message


def test_HS_2_2_squad_needs_two_or_more_figures(tmp_path):
    err, message = _bad_card(tmp_path, CARD.replace("figures: 3", "figures: 1"))
    assert (err.line, err.field) == (4, "figures")
    assert "a squad card has 2 or more figures (HS-2.2)" in message


@pytest.mark.parametrize("stat, line", [("move", 5), ("range", 6), ("attack", 7), ("defense", 8)])
def test_HS_2_3_to_2_6_stats_are_positive(tmp_path, stat, line):
    original = next(row for row in CARD.splitlines() if row.startswith(stat + ":"))
    err, message = _bad_card(tmp_path, CARD.replace(original, f"{stat}: 0"))
    assert (err.line, err.field) == (line, stat)
    assert "greater than or equal to 1" in message


def test_bad_card_wrong_type(tmp_path):
    err, message = _bad_card(tmp_path, CARD.replace("attack: 2", "attack: two"))
    assert (err.line, err.field) == (7, "attack") and "'two'" in message
    err, message = _bad_card(tmp_path, CARD + "double_space: maybe\n")
    assert (err.line, err.field) == (9, "double_space")


def test_bad_card_unknown_kind(tmp_path):
    err, message = _bad_card(tmp_path, CARD.replace("kind: squad", "kind: champion"))
    assert (err.line, err.field) == (3, "kind") and "'hero' or 'squad'" in message


def test_bad_card_unknown_key(tmp_path):
    err, message = _bad_card(tmp_path, CARD + "life: 4\n")
    assert (err.line, err.field) == (9, "life")
    assert "unknown field 'life'" in message and "allowed: id, name, kind" in message


def test_bad_card_missing_key(tmp_path):
    err, message = _bad_card(tmp_path, CARD.replace("defense: 3\n", ""))
    assert err.field == "defense" and "missing required field 'defense'" in message


def test_bad_card_id_must_match_file_name(tmp_path):
    err, message = _bad_file(tmp_path, CARD, load_card, "other")
    assert (err.line, err.field) == (1, "id")


def test_load_cards_from_a_directory(tmp_path):
    (tmp_path / "test_guards.yaml").write_text(CARD, encoding="utf-8")
    assert list(load_cards(tmp_path)) == ["test_guards"]
    (tmp_path / "broken.yaml").write_text(CARD, encoding="utf-8")
    with pytest.raises(ScenarioError, match="broken.yaml, line 1, field 'id'"):
        load_cards(tmp_path)


# -- scenarios ---------------------------------------------------------------------------------

SC = textwrap.dedent("""\
    id: test_fight
    name: Test Fight
    battlefield: meadow
    players:
      - army: [iron_warden, ashwood_archers]
        zone: A
      - army: [shade_duelist, cinder_slingers]
        zone: B
""")


def _bad_sc(tmp_path, text):
    return _bad_file(tmp_path, text, load_scenario, "test_fight")


def test_scenario_defaults():
    scenario = scenario_from_text(SC)
    assert scenario.victory.type is VictoryType.ELIMINATE and scenario.round_cap == 50
    assert [c.id for c in scenario.players[1].army] == ["shade_duelist", "cinder_slingers"]
    assert scenario.players[0].n_figures == 4


def test_HS_14_1_custom_scenario_with_inline_battlefield_and_cards():
    text = textwrap.dedent("""\
        id: custom
        name: Custom
        battlefield:
          id: strip
          name: Strip
          map: |
            1nA 1nA 1n  1nB 1nB
              1nA 1n  2w  1n  1nB
        players:
          - army: [pikes]
            zone: A
          - army: [iron_warden, big_beast]
            zone: B
        victory: {type: eliminate}
        round_cap: 7
        cards:
          - {id: pikes, name: Pikes, kind: squad, figures: 2, move: 4, range: 1, attack: 1,
             defense: 1}
          - {id: big_beast, name: Big Beast, kind: hero, figures: 1, move: 5, range: 1,
             attack: 3, defense: 2, double_space: true}
    """)
    scenario = scenario_from_text(text)
    assert scenario.battlefield.n_spaces == 10 and scenario.round_cap == 7
    assert scenario.players[0].army[0].figures == 2
    assert scenario.players[1].army[1].double_space
    assert {"pikes", "big_beast", "iron_warden"} <= set(scenario.cards)


def test_scenario_battlefield_by_relative_path(tmp_path):
    (tmp_path / "pond.yaml").write_text(BF, encoding="utf-8")
    path = tmp_path / "test_fight.yaml"
    text = SC.replace("battlefield: meadow", "battlefield: pond.yaml").replace(
        "[iron_warden, ashwood_archers]", "[iron_warden]"
    )
    path.write_text(text, encoding="utf-8")
    assert load_scenario(path).battlefield.id == "pond"


def test_HS_13_1_hold_victory():
    text = SC.replace("meadow", "river_crossing") + "victory: {type: hold, zone: X, rounds: 3}\n"
    scenario = scenario_from_text(text)
    assert (scenario.victory.type, scenario.victory.zone, scenario.victory.rounds) == (
        VictoryType.HOLD,
        "X",
        3,
    )


def test_bad_scenario_unknown_battlefield(tmp_path):
    err, message = _bad_sc(tmp_path, SC.replace("meadow", "swamp"))
    assert (err.line, err.field) == (3, "battlefield")
    assert "unknown battlefield 'swamp'" in message and "meadow" in message


def test_bad_scenario_unknown_card(tmp_path):
    err, message = _bad_sc(tmp_path, SC.replace("ashwood_archers", "elf_archers"))
    assert (err.line, err.field) == (5, "players.0.army.1")
    assert "unknown army card 'elf_archers'" in message


def test_bad_scenario_card_twice_in_one_army(tmp_path):
    err, message = _bad_sc(tmp_path, SC.replace("ashwood_archers]", "iron_warden]"))
    assert (err.line, err.field) == (5, "players.0.army.1") and "already in this army" in message


def test_bad_scenario_missing_zone(tmp_path):
    err, message = _bad_sc(tmp_path, SC.replace("zone: B", "zone: C"))
    assert (err.line, err.field) == (8, "players.1.zone")
    assert "zone 'C' is not on battlefield 'meadow' (its zones: A, B)" in message


def test_bad_scenario_duplicate_zones(tmp_path):
    err, message = _bad_sc(tmp_path, SC.replace("zone: B", "zone: A"))
    assert (err.line, err.field) == (8, "players.1.zone")
    assert "already the start zone of player 1" in message


@pytest.mark.parametrize("players", [1, 5])
def test_HS_14_1_two_to_four_players(tmp_path, players):
    head, _ = SC.split("players:\n")
    rows = "".join(f"  - army: [iron_warden]\n    zone: {'AB'[i % 2]}\n" for i in range(players))
    err, message = _bad_sc(tmp_path, head + "players:\n" + rows)
    assert (err.line, err.field) == (4, "players")
    assert f"{players} player(s); a scenario has 2 to 4 players" in message


def test_HS_1_4_zone_too_small_for_the_army(tmp_path):
    # river_crossing's zones have 6 hexes; 1 + 4 + 3 figures do not fit.
    text = SC.replace("meadow", "river_crossing").replace(
        "[shade_duelist, cinder_slingers]", "[shade_duelist, cinder_slingers, ashwood_archers]"
    )
    err, message = _bad_sc(tmp_path, text)
    assert (err.line, err.field) == (8, "players.1.zone")
    assert "zone 'B' has 6 hexes but this army needs 8" in message


def test_HS_7_2_double_space_figure_counts_two_spaces(tmp_path):
    # 1 double-space (2) + 4 singles = 6 spaces fit in a 6-hex zone; 3 + 4 + 2 do not.
    ok = SC.replace("meadow", "river_crossing").replace(
        "[shade_duelist, cinder_slingers]", "[stormhorn_wyrm, cinder_slingers]"
    )
    assert scenario_from_text(ok).players[1].zone == "B"
    bad = ok.replace(
        "[stormhorn_wyrm, cinder_slingers]", "[stormhorn_wyrm, cinder_slingers, skyglass_marksman]"
    )
    err, message = _bad_sc(tmp_path, bad)
    assert "needs 7 (5 single-space figures + 1 double-space x 2)" in message


def test_HS_7_2_double_space_figure_needs_an_adjacent_same_level_pair(tmp_path):
    # Zone A: two adjacent hexes on different levels; enough spaces, but no place to stand.
    battlefield = textwrap.dedent("""\
        battlefield:
          id: steps
          name: Steps
          map: |
            1nA 2nA 1n  1n  1n
              1n  1n  1n  1n  1nB
            1n  1n  1n  1n  1nB
    """)
    text = (
        SC.replace("battlefield: meadow\n", battlefield)
        .replace("[iron_warden, ashwood_archers]", "[galehoof_rider]")
        .replace("[shade_duelist, cinder_slingers]", "[shade_duelist]")
    )
    err, message = _bad_sc(tmp_path, text)
    assert (err.line, err.field) == (12, "players.0.zone")
    assert "does not hold 1 separate pair(s) of adjacent same-level hexes" in message


def test_bad_scenario_inline_battlefield_error_points_into_the_scenario(tmp_path):
    text = SC.replace(
        "battlefield: meadow\n",
        "battlefield:\n  id: x\n  name: X\n  map: |\n    1nA 1nB\n      1n  9q\n",
    )
    err, message = _bad_sc(tmp_path, text)
    assert (err.line, err.field) == (8, "battlefield.map")
    assert "unknown token '9q'" in message and "file column 11" in message
    err, message = _bad_sc(tmp_path, text.replace("  name: X\n", "  name: X\n  size: 2\n"))
    assert (err.line, err.field) == (6, "battlefield.size")


def test_bad_scenario_duplicate_card_id(tmp_path):
    extra = (
        "cards:\n  - {id: iron_warden, name: Fake, kind: hero, figures: 1, move: 5, range: 1,"
        " attack: 1, defense: 1}\n"
    )
    err, message = _bad_sc(tmp_path, SC + extra)
    assert (err.line, err.field) == (10, "cards.0.id")
    assert "duplicate card id 'iron_warden' (a shipped card" in message
    twin = "kind: hero, figures: 1, move: 5, range: 1, attack: 1, defense: 1}"
    own = f"cards:\n  - {{id: twin, name: A, {twin}\n  - {{id: twin, name: B, {twin}\n"
    err, message = _bad_sc(tmp_path, SC + own)
    assert (err.line, err.field) == (11, "cards.1.id")
    assert "duplicate card id 'twin' (defined earlier in this file" in message


def test_bad_scenario_inline_card_breaks_HS_2_2(tmp_path):
    extra = (
        "cards:\n  - {id: loner, name: L, kind: squad, figures: 1, move: 5, range: 1,"
        " attack: 1, defense: 1}\n"
    )
    err, message = _bad_sc(tmp_path, SC + extra)
    assert (err.line, err.field) == (10, "cards.0.figures") and "2 or more figures" in message


def test_bad_scenario_hold_zone(tmp_path):
    err, message = _bad_sc(tmp_path, SC + "victory: {type: hold, zone: X, rounds: 3}\n")
    assert (err.line, err.field) == (9, "victory.zone")
    assert "zone 'X' is not on battlefield 'meadow'" in message
    err, message = _bad_sc(tmp_path, SC + "victory: {type: hold, zone: B, rounds: 3}\n")
    assert "player 2's start zone" in message
    err, message = _bad_sc(tmp_path, SC + "victory: {type: hold, zone: B}\n")
    assert err.line == 9 and "victory type 'hold' needs 'rounds'" in message
    err, message = _bad_sc(tmp_path, SC + "victory: {type: eliminate, rounds: 3}\n")
    assert err.field == "victory.rounds" and "only for victory type 'hold'" in message
    err, message = _bad_sc(tmp_path, SC + "victory: {type: king}\n")
    assert err.field == "victory.type" and "'eliminate' or 'hold'" in message


def test_bad_scenario_round_cap(tmp_path):
    err, message = _bad_sc(tmp_path, SC + "round_cap: 0\n")
    assert (err.line, err.field) == (9, "round_cap")


def test_bad_scenario_unknown_key(tmp_path):
    err, message = _bad_sc(tmp_path, SC + "glyphs: []\n")
    assert (err.line, err.field) == (9, "glyphs") and "unknown field 'glyphs'" in message


def test_bad_scenario_bad_zone_letter(tmp_path):
    err, message = _bad_sc(tmp_path, SC.replace("zone: B", "zone: b"))
    assert (err.line, err.field) == (8, "players.1.zone")


def test_bad_scenario_yaml_syntax(tmp_path):
    err, message = _bad_sc(
        tmp_path, SC.replace("[iron_warden, ashwood_archers]", "[iron_warden, ashwood_archers")
    )
    assert err.line is not None and "YAML syntax error" in message


def test_bad_text_names_the_given_source():
    with pytest.raises(ScenarioError) as info:
        scenario_from_text(SC.replace("meadow", "swamp"), source="inline-test")
    assert str(info.value).startswith("inline-test, line 3, field 'battlefield'")
