"""HeroClix powers catalog and figure dials (envs/heroclix/RULES.md: HC-1.3-1.12, HC-2.8,
HC-3.10, HC-4.5, R-1-R-11, the powers P-*, the figures F-01 ... F-12).

The catalog's agreement with RULES.md entry by entry is tests/test_rules_reference.py's."""

from __future__ import annotations

import dataclasses
import re
import textwrap
from pathlib import Path

import pytest

import envs.heroclix.data.figures as figures_module
from envs.core.scenario import ScenarioError, load_yaml
from envs.heroclix.data.figures import (
    FIGURES_DIR,
    Click,
    archenemies,
    figure_from_data,
    figure_ids,
    load_figure,
    load_figure_text,
    shipped_figures,
)
from envs.heroclix.powers.catalog import (
    COLOURS,
    COLUMNS,
    IMPLEMENTED,
    POWERS,
    ActionType,
    Column,
    Tier,
    UnknownPowerError,
    power,
    powers_in_column,
)

# -- the powers catalog (R-1, RULES.md P-*) ----------------------------------------------


def test_R_1_catalog_has_44_powers_eleven_per_column_in_colour_order():
    assert len(POWERS) == 44
    for column in COLUMNS:
        powers = powers_in_column(column)
        assert [p.number for p in powers] == list(range(1, 12))
        assert [p.colour for p in powers] == list(COLOURS)
        assert all(
            p.column is column and p.rule_id == f"{column.rule_prefix}-{p.number}" for p in powers
        )
    assert len({p.rule_id for p in POWERS.values()}) == 44


def test_R_1_catalog_counts_match_the_card_summary_table():
    # The card's summary (RULES.md P-0): optional 10/10/7/9, T1 8/9/9/8 per column.
    optional = {c: sum(p.optional for p in powers_in_column(c)) for c in COLUMNS}
    tier1 = {c: sum(p.tier is Tier.T1 for p in powers_in_column(c)) for c in COLUMNS}
    assert list(optional.values()) == [10, 10, 7, 9]
    assert list(tier1.values()) == [8, 9, 9, 8]


def test_R_2_not_optional_powers_are_the_ones_the_card_names():
    assert {k for k, p in POWERS.items() if not p.optional} == {
        "earthbound",
        "steal_energy",
        "toughness",
        "energy_shield_deflection",
        "impervious",
        "invulnerability",
        "battle_fury",
        "shape_change",
    }


def test_R_1_the_registry_implements_exactly_the_catalogue_s_implemented_powers():
    from envs.heroclix.data.teams import WILD_CARD, team_effects
    from envs.heroclix.powers.hooks import registered_keys
    from envs.heroclix.rules import HeroclixGame  # noqa: F401  (registers every effect)

    assert registered_keys() - team_effects() == IMPLEMENTED
    assert team_effects() - {WILD_CARD} <= registered_keys()  # every team effect is registered
    assert registered_keys() - team_effects() <= set(POWERS)
    assert IMPLEMENTED == set(POWERS)  # all 44


def test_R_1_every_power_key_on_a_shipped_dial_is_in_the_catalogue():
    used = {k for f in shipped_figures().values() for c in f.dial for k in c.powers if k}
    assert used <= set(POWERS)


def test_power_lookup_by_key():
    toughness = power("toughness")
    assert (toughness.rule_id, toughness.name, toughness.colour) == (
        "P-DEF-2",
        "Toughness",
        "orange",
    )
    assert toughness.actions == (ActionType.PASSIVE,) and not toughness.optional
    assert power("telekinesis").actions == (ActionType.MOVE, ActionType.CLOSE, ActionType.RANGED)
    assert power("mind_control").tier is Tier.T2 and power("mind_control").colour == "blue"


@pytest.mark.parametrize(
    "typed, suggestion",
    [
        ("toughnes", "toughness"),
        ("Leap/Climb", "leap_climb"),
        ("P-DEF-11", "invulnerability"),
        ("regen", "regeneration"),
        ("Energy Shield/Deflection", "energy_shield_deflection"),
    ],
)
def test_unknown_power_key_names_close_matches(typed, suggestion):
    with pytest.raises(UnknownPowerError) as info:
        power(typed)
    assert info.value.suggestions[0] == suggestion
    assert str(info.value).startswith(f"unknown power key {typed!r}; did you mean '{suggestion}'")


def test_unknown_power_key_without_match_says_where_to_look():
    with pytest.raises(KeyError, match="unknown power key 'zzz'; see POWERS"):
        power("zzz")


def test_catalog_is_immutable():
    with pytest.raises(TypeError):
        POWERS["new"] = POWERS["flurry"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        POWERS["flurry"].implemented = True  # type: ignore[misc]


# -- the shipped figures (RULES.md F-01 ... F-12) -------------------------------------------------

SPEC_REFS = [f"F-{n:02d}" for n in range(1, 13)]


def _by_ref():
    return {f.ref: f for f in shipped_figures().values()}


def test_shipped_figures_are_the_twelve_of_the_spec():
    figs = shipped_figures()
    assert sorted(f.ref for f in figs.values()) == SPEC_REFS
    assert figure_ids() == sorted(figs)
    for fid, fig in figs.items():
        assert fig.id == fid == re.sub(r"[^a-z0-9]+", "_", fig.name.lower())
        assert Path(fig.source) == FIGURES_DIR / f"{fid}.yaml"


def test_shipped_figures_reproduce_the_spec_coverage_claims():
    by_ref = _by_ref()
    figs = list(by_ref.values())
    assert {k for f in figs for k in f.power_keys} == set(POWERS)
    assert all(4 <= f.clicks_to_ko <= 8 for f in figs)
    for f in figs:
        for c in f.dial:
            assert 6 <= c.speed <= 10 and 7 <= c.attack <= 11, f.id
            assert 14 <= c.defense <= 18 and 1 <= c.damage <= 3, f.id
    assert sorted(f.ref for f in figs if f.unique) == ["F-01", "F-05", "F-11"]
    colours = {}
    for f in figs:
        if f.archenemy_color is not None:
            colours.setdefault(f.archenemy_color, []).append(f.ref)
    assert colours == {"violet": ["F-01", "F-11"], "crimson": ["F-03", "F-04"]}
    assert archenemies(by_ref["F-01"], by_ref["F-11"])
    assert archenemies(by_ref["F-03"], by_ref["F-04"])
    assert sorted(f.ref for f in figs if f.tier is Tier.T1) == [
        "F-02",
        "F-03",
        "F-07",
        "F-09",
        "F-10",
        "F-12",
    ]
    assert sorted(f.ref for f in figs if f.flyer) == ["F-04", "F-08"]


def test_shipped_values_spot_check():
    # The shipped YAML files are the authority (RULES.md F-* summarises them): two dials pinned.
    captain = load_figure("bulwark_captain")
    assert captain.dial[0] == Click(8, 10, 17, 3, ("charge", None, "toughness", "leadership"))
    assert captain.clicks_to_ko == 7 and captain.points == 55 and captain.unique
    thug = load_figure("street_thug")
    assert [c.values for c in thug.dial] == [
        (6, 8, 15, 2),
        (6, 7, 14, 1),
        (6, 7, 14, 1),
        (6, 7, 14, 1),
    ]
    assert [c.power_keys for c in thug.dial] == [(), (), ("toughness",), ()]


def test_module_docs_list_each_figures_inert_powers():
    doc = figures_module.__doc__
    table = textwrap.dedent(
        doc.split("(a test keeps this table true)::\n", 1)[1].split("\n\n(columns:", 1)[0]
    )
    rows: dict[str, list[str]] = {}
    last = ""
    for line in table.strip("\n").splitlines():
        if line.startswith(" "):
            rows[last].append(line.strip())
        else:
            last = line.split()[0]
            rows[last] = [line]
    assert sorted(rows) == figure_ids()
    for fid, parts in rows.items():
        fig = load_figure(fid)
        head, inert = " ".join(parts).split(" inert: ")
        assert head.split() == [
            fid,
            fig.ref,
            str(fig.points),
            str(fig.clicks_to_ko),
            fig.tier.value,
        ] + (["unique"] if fig.unique else []) + (
            [fig.archenemy_color] if fig.archenemy_color else []
        ) + (["flyer"] if fig.flyer else [])
        assert inert.split() == (list(fig.unavailable_powers) or ["-"])


# -- the Figure API ------------------------------------------------------------------------------


def test_HC_4_5_clicks_to_ko_is_the_index_of_the_first_KO_click():
    quarry = load_figure("quarry")
    assert quarry.clicks_to_ko == len(quarry.dial) == 8
    assert not quarry.is_ko(7) and quarry.is_ko(8) and quarry.is_ko(11)
    assert quarry.click(7).values == (6, 7, 14, 1)
    with pytest.raises(IndexError, match="quarry has clicks 0..7 before KO"):
        quarry.click(8)
    with pytest.raises(IndexError):
        quarry.powers_at(-1)


def test_HC_2_8_every_dial_starts_at_click_0():
    for fig in shipped_figures().values():
        assert fig.starting_click == 0
    assert load_figure("overlord").click(0).values == (7, 10, 18, 3)


def test_HC_1_11_powers_come_and_go_with_the_click():
    captain = load_figure("bulwark_captain")
    assert captain.powers_at(0) == ("charge", "toughness", "leadership")
    assert captain.powers_at(2) == ("charge", "willpower", "leadership")
    assert captain.powers_at(6) == ()
    assert captain.click(3).power_on("damage") == "outwit"
    assert captain.click(3).power_on(Column.SPEED) is None
    assert captain.click(1).value("damage") == 2


def test_R_1_every_power_of_the_card_is_implemented_so_no_dial_power_is_inert():
    assert IMPLEMENTED == set(POWERS)
    for fid, fig in shipped_figures().items():
        assert fig.unavailable_powers == (), fid
        assert fig.usable_powers_at(0) == tuple(k for k in fig.click(0).powers if k)


def test_HC_3_10_archenemies_share_a_colour_and_differ_in_name():
    by_ref = _by_ref()
    assert archenemies(by_ref["F-11"], by_ref["F-01"])
    assert not archenemies(by_ref["F-01"], by_ref["F-03"])  # violet vs crimson
    assert not archenemies(by_ref["F-02"], by_ref["F-07"])  # no colour on either


def test_HC_3_10_same_name_figures_are_not_archenemies():
    razorback = load_figure("razorback")
    other_print = dataclasses.replace(razorback, id="razorback_veteran", points=60)
    assert razorback.archenemy_color == other_print.archenemy_color == "crimson"
    assert not archenemies(razorback, other_print)
    assert archenemies(dataclasses.replace(other_print, name="Razorback II"), razorback)


def test_load_figure_accepts_paths_and_caches_per_file(tmp_path):
    assert load_figure(FIGURES_DIR / "mender.yaml") is load_figure("mender")
    path = tmp_path / "gizmo.yaml"
    path.write_text(FIG, encoding="utf-8")
    first = load_figure(path)
    assert first.id == "gizmo" and load_figure(path) is first
    path.write_text(FIG.replace("points: 30", "points: 35"), encoding="utf-8")
    assert load_figure(path).points == 35  # an edited file is read afresh


def test_unknown_figure_id_lists_the_shipped_ones():
    with pytest.raises(ScenarioError, match="unknown figure id 'nobody'; shipped: bulwark_captain"):
        load_figure("nobody")


def test_missing_figure_file_is_an_error(tmp_path):
    with pytest.raises(ScenarioError, match="no such figure file"):
        load_figure(tmp_path / "absent.yaml")


# -- the file format ---------------------------------------------------------------------------

FIG = textwrap.dedent("""\
    id: gizmo
    name: Gizmo
    points: 30
    range: 4
    targets: 2
    flyer: true
    archenemy_color: teal
    dial:
      - {values: [8, 9, 16, 2], powers: [earthbound, ~, toughness, support]}
      - {values: [7, 9, 15, 2], powers: [phasing, steal_energy, ~, ~]}
      - {values: [6, 8, 14, 1]}
      - KO
""")
# File lines: 5 targets, 7 archenemy_color, 8 dial, 9..11 clicks 0..2, 12 KO.


def test_figure_text_loads_with_defaults():
    fig = load_figure_text(FIG)
    assert (fig.id, fig.ref, fig.team, fig.unique, fig.flyer) == ("gizmo", None, None, False, True)
    assert fig.source == "<string>" and fig.clicks_to_ko == 3
    assert fig.dial[2] == Click(6, 8, 14, 1, (None, None, None, None))
    assert fig.usable_powers_at(1) == ("phasing", "steal_energy")
    assert fig.unavailable_powers == ()  # every power of its dial is implemented


def test_inline_figure_errors_name_the_path_from_the_document_root():
    text = "name: scenario\nfigures:\n" + textwrap.indent(
        "- " + textwrap.indent(FIG, "  ")[2:], "  "
    )
    data, lines = load_yaml(text, source="scen.yaml")
    assert figure_from_data(data, lines, ("figures", 0)).id == "gizmo"
    bad = text.replace("[7, 9, 15, 2]", "[7, 9, 35, 2]")
    data, lines = load_yaml(bad, source="scen.yaml")
    with pytest.raises(ScenarioError) as info:
        figure_from_data(data, lines, ("figures", 0))
    assert (info.value.line, info.value.field) == (12, "figures.0.dial.1.values.2")
    bad = text.replace("points: 30", "points: -3")
    data, lines = load_yaml(bad, source="scen.yaml")
    with pytest.raises(ScenarioError) as info:
        figure_from_data(data, lines, ("figures", 0))
    assert (info.value.line, info.value.field) == (5, "figures.0.points")


BAD_CASES = [
    # name, (old, new), line, field, message fragment
    (
        "unknown_key",
        ("points: 30", "points: 30\ncost: 4"),
        4,
        "cost",
        "unknown field 'cost'; allowed: id, ref, name",
    ),
    ("missing_field", ("range: 4\n", ""), 1, "range", "missing required field 'range'"),
    ("float_points", ("points: 30", "points: 30.5"), 3, "points", "valid integer"),
    ("bool_targets", ("targets: 2", "targets: yes"), 5, "targets", "valid integer"),
    (
        "string_value",
        ("[7, 9, 15, 2]", "[7, nine, 15, 2]"),
        10,
        "dial.1.values.1",
        "valid integer (got 'nine')",
    ),
    ("points_zero", ("points: 30", "points: 0"), 3, "points", "greater than 0"),
    ("range_high", ("range: 4", "range: 21"), 4, "range", "less than or equal to 20"),
    ("range_negative", ("range: 4", "range: -1"), 4, "range", "greater than or equal to 0"),
    ("targets_zero", ("targets: 2", "targets: 0"), 5, "targets", "greater than or equal to 1"),
    ("targets_six", ("targets: 2", "targets: 6"), 5, "targets", "less than or equal to 5"),
    (
        "speed_high",
        ("[7, 9, 15, 2]", "[21, 9, 15, 2]"),
        10,
        "dial.1.values.0",
        "speed 21 is out of range 0..20",
    ),
    (
        "speed_negative",
        ("[7, 9, 15, 2]", "[-1, 9, 15, 2]"),
        10,
        "dial.1.values.0",
        "speed -1 is out of range 0..20",
    ),
    (
        "attack_high",
        ("[7, 9, 15, 2]", "[7, 21, 15, 2]"),
        10,
        "dial.1.values.1",
        "attack 21 is out of range 0..20",
    ),
    (
        "defense_high",
        ("[7, 9, 15, 2]", "[7, 9, 31, 2]"),
        10,
        "dial.1.values.2",
        "defense 31 is out of range 0..30",
    ),
    (
        "damage_high",
        ("[6, 8, 14, 1]", "[6, 8, 14, 11]"),
        11,
        "dial.2.values.3",
        "damage 11 is out of range 0..10",
    ),
    (
        "three_values",
        ("[6, 8, 14, 1]", "[6, 8, 14]"),
        11,
        "dial.2.values",
        "values has 3 entries; write exactly 4: [speed, attack, defense, damage]",
    ),
    (
        "five_powers",
        ("[phasing, steal_energy, ~, ~]", "[phasing, steal_energy, ~, ~, ~]"),
        10,
        "dial.1.powers",
        "powers has 5 entries",
    ),
    (
        "power_not_a_string",
        ("[phasing, steal_energy, ~, ~]", "[phasing, 3, ~, ~]"),
        10,
        "dial.1.powers.1",
        "valid string",
    ),
    (
        "unknown_click_key",
        ("{values: [6, 8, 14, 1]}", "{values: [6, 8, 14, 1], colour: red}"),
        11,
        "dial.2.colour",
        "unknown field 'colour'; allowed: values, powers",
    ),
    ("no_final_ko", ("  - KO\n", ""), 11, "dial.2", "the dial must end with KO"),
    (
        "ko_in_the_middle",
        ("  - {values: [6, 8, 14, 1]}", "  - KO\n  - {values: [6, 8, 14, 1]}"),
        11,
        "dial.2",
        "must be the dial's last entry, exactly once; entry 2 is KO but 2 more",
    ),
    (
        "ko_twice",
        ("  - KO\n", "  - KO\n  - KO\n"),
        12,
        "dial.3",
        "must be the dial's last entry, exactly once",
    ),
    ("ko_lower_case", ("  - KO\n", "  - ko\n"), 12, "dial.3", "or KO, got 'ko'"),
    (
        "only_ko",
        (
            "  - {values: [8, 9, 16, 2], powers: [earthbound, ~, toughness, support]}\n"
            "  - {values: [7, 9, 15, 2], powers: [phasing, steal_energy, ~, ~]}\n"
            "  - {values: [6, 8, 14, 1]}\n",
            "",
        ),
        9,
        "dial.0",
        "the dial needs at least one click before KO",
    ),
    ("empty_dial", (FIG[FIG.index("dial:") :], "dial: []\n"), 8, "dial", "the dial is empty"),
    ("dial_not_a_list", (FIG[FIG.index("dial:") :], "dial: 3\n"), 8, "dial", "valid list"),
    (
        "unknown_power",
        ("steal_energy", "steal_energie"),
        10,
        "dial.1.powers.1",
        "unknown power key 'steal_energie'; did you mean 'steal_energy'?",
    ),
    (
        "power_on_the_wrong_column",
        ("[earthbound, ~, toughness, support]", "[toughness, ~, earthbound, support]"),
        9,
        "dial.0.powers.0",
        "'toughness' (P-DEF-2 Toughness) is a defense power: write it in the defense place "
        "(powers[2]), not under speed (powers[0])",
    ),
    (
        "earthbound_on_a_non_flyer",
        ("flyer: true", "flyer: false"),
        9,
        "dial.0.powers.0",
        "only a figure with 'flyer: true' may have it",
    ),
    (
        "name_with_blank",
        ("name: Gizmo", "name: 'Gizmo '"),
        2,
        "name",
        "has blanks at its start or end",
    ),
    (
        "colour_upper_case",
        ("archenemy_color: teal", "archenemy_color: Teal"),
        7,
        "archenemy_color",
        "should match pattern",
    ),
    ("bad_ref", ("name: Gizmo", "name: Gizmo\nref: F 1"), 3, "ref", "should match pattern"),
    ("duplicate_key", ("range: 4", "range: 4\nrange: 5"), 5, "range", "duplicate key 'range'"),
    (
        "id_not_the_file_name",
        ("id: gizmo", "id: gadget"),
        1,
        "id",
        "id 'gadget' does not match the file name 'gizmo.yaml' (expected id 'gizmo')",
    ),
]


@pytest.mark.parametrize(
    "name, change, line, field, fragment", BAD_CASES, ids=[c[0] for c in BAD_CASES]
)
def test_bad_figure_file_names_file_line_and_field(tmp_path, name, change, line, field, fragment):
    old, new = change
    assert FIG.count(old) == 1, "the case must change the test file"
    path = tmp_path / "gizmo.yaml"
    path.write_text(FIG.replace(old, new), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_figure(path)
    err = info.value
    assert (err.source, err.line, err.field) == (str(path), line, field), str(err)
    assert str(err).startswith(f"{path}, line {line}, field '{field}': "), str(err)
    assert fragment in err.message, err.message


def test_the_unchanged_bad_case_file_loads(tmp_path):
    # The bad cases above differ from this file by one change each.
    path = tmp_path / "gizmo.yaml"
    path.write_text(FIG, encoding="utf-8")
    assert load_figure(path).id == "gizmo"
