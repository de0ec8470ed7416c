"""The rules reference inside the repository: ``envs/<game>/RULES.md``.

Every rule ID the project uses (in test names, in the code and data of ``envs/`` and
``training/``, in captions, the README, the docs pages, the changelog, the notebooks, the
configs and the golden transcripts) must be listed in its game's RULES.md, so a new test or
caption naming an undocumented rule fails here with the missing IDs and where each is used. Nothing in the repository may point at
the rules specifications outside it (``../shared``).

ID families (text form; test names spell them with underscores, ``HE_6_4`` = ``HE-6.4``):

========  ==========  =========================================================
family    game        forms
========  ==========  =========================================================
HE        heroica     ``HE-6``, ``HE-6.4``, ``HE-M``, ``HE-M.2``, ``HE-M.M1`` (test names only)
HS        heroscape   ``HS-7``, ``HS-7.2``
HC        heroclix    ``HC-4``, ``HC-4.17``
R         heroclix    ``R-10`` (rules the basic rules only reference)
P         heroclix    ``P-0`` (card conventions), ``P-SPD``, ``P-SPD-5`` (SPD/ATT/DEF/DMG)
A         heroclix    ``A-1`` (abilities)
TA        heroclix    ``TA-FF`` (team abilities)
F         heroclix    ``F-01`` (starter figures)
========  ==========  =========================================================

A range in text (``HC-3.14-3.17``, ``HE-20.4–20.5``) counts every rule in it; in a test name
``HE_18_2_4`` is HE-18.2 and HE-18.4, ``HS_12_2_and_12_3`` two rules, ``HS_2_3_to_2_6`` a range.

Each RULES.md lists its IDs once, in ID order, under the heading of their section
(``## HE-6 ...``, ``## P-SPD ...``, ``## TA ...``), as ``- **ID** statement``; the HeroClix file
also agrees with the data it describes (the powers catalog, the shipped figures, teams.yaml).
Two checks keep the outside specification out: no ``../shared`` (or ``shared/rules``) anywhere,
and no name of its files (``heroica.md``, ``heroclix_powers.md`` ...), which the repository does
not contain. This module only reads files.
"""

from __future__ import annotations

import functools
import os
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
THIS_FILE = Path(__file__).resolve()
GAMES = ("heroica", "heroscape", "heroclix")
RULES_FILES = {game: ROOT / "envs" / game / "RULES.md" for game in GAMES}
ENV_MODULES = {game: f"envs/{game}/{game}_v0.py" for game in GAMES}
FAMILY_GAME = {
    "HE": "heroica",
    "HS": "heroscape",
    "HC": "heroclix",
    "R": "heroclix",
    "P": "heroclix",
    "A": "heroclix",
    "TA": "heroclix",
    "F": "heroclix",
}
P_COLUMNS = ("SPD", "ATT", "DEF", "DMG")  # the card's column order

# -- the ID grammar ----------------------------------------------------------------------------

_NOT_AFTER = r"(?<![A-Za-z0-9])"  # an ID starts a word (``R-1-R-11``: both R's count)
TEXT_IDS = (
    # HE-6, HE-6.4, HE-M, HE-M.2, HS-7.2, HC-4.17; optional range tail -3.17 / –3.17
    re.compile(
        _NOT_AFTER + r"(?P<fam>HE|HS|HC)-(?P<sec>\d+|M)(?:\.(?P<num>\d+))?(?![0-9])"
        r"(?:[-\u2013](?P<sec2>\d+)\.(?P<num2>\d+)(?![0-9]))?"
    ),
    re.compile(
        _NOT_AFTER + r"(?P<fam>P)-(?:(?P<col>SPD|ATT|DEF|DMG)(?:-(?P<num>\d+))?"
        r"(?![A-Za-z0-9])|(?P<zero>0)(?![0-9.]))"
    ),
    re.compile(_NOT_AFTER + r"(?P<fam>R)-(?P<num>\d+)(?![0-9])"),
    re.compile(_NOT_AFTER + r"(?P<fam>A)-(?P<num>\d)(?![0-9.])"),
    re.compile(_NOT_AFTER + r"(?P<fam>TA)-(?P<code>[A-Z]{2,3})(?![A-Za-z0-9])"),
    re.compile(_NOT_AFTER + r"(?P<fam>F)-(?P<num>\d{2})(?![0-9])"),
)
TEST_NAME = re.compile(r"(?<![A-Za-z0-9_])test_[A-Za-z0-9_]+")
NAME_IDS = (
    # HE_6_4, HE_18_2_4 (siblings), HS_12_2_and_12_3, HS_2_3_to_2_6, HE_M_2, HE_M_M1, HC_7
    re.compile(
        r"(?<![A-Za-z0-9])(?P<fam>HE|HS|HC)_(?P<sec>\d+|M)(?:_(?P<num>\d+|M\d+))?"
        r"(?P<more>(?:_\d+)*)(?:_(?P<conj>and|to)_(?P<sec2>\d+)_(?P<num2>\d+))?"
        r"(?=_|$)"
    ),
    re.compile(
        r"(?<![A-Za-z0-9])(?P<fam>P)_(?:(?P<col>SPD|ATT|DEF|DMG)_(?P<num>\d+)|(?P<zero>0))"
        r"(?=_|$)"
    ),
    re.compile(r"(?<![A-Za-z0-9])(?P<fam>R)_(?P<num>\d+)(?=_|$)"),
    re.compile(r"(?<![A-Za-z0-9])(?P<fam>A)_(?P<num>\d)(?=_|$)"),
    re.compile(r"(?<![A-Za-z0-9])(?P<fam>TA)_(?P<code>[A-Z]{2,3})(?=_|$)"),
    re.compile(r"(?<![A-Za-z0-9])(?P<fam>F)_(?P<num>\d{2})(?=_|$)"),
)
# what RULES.md may define: the canonical form of every family, nothing else
CANONICAL = re.compile(
    r"(?:HE-(?:\d+|M)(?:\.\d+|\.M\d+)?|HS-\d+(?:\.\d+)?|HC-\d+(?:\.\d+)?"
    r"|R(?:-\d+)?|P(?:-0)?|P-(?:SPD|ATT|DEF|DMG)(?:-\d+)?|A(?:-\d)?"
    r"|TA(?:-[A-Z]{2,3})?|F(?:-\d{2})?)"
)
ENTRY = re.compile(r"^- \*\*(?P<id>[^*]+)\*\*(?P<text>.*)$")
HEADING = re.compile(r"^## (?P<id>\S+) (?P<text>.+)$")

# what the outside specification looks like from inside the repository
OUTSIDE_PATH = re.compile(
    r"\.\./shared|shared/rules"  # also Path(...) / "shared" / "rules"
    r"|[\"']shared[\"']\s*/\s*[\"']rules[\"']"
)
OUTSIDE_SPEC_FILE = re.compile(
    r"(?<![A-Za-z0-9_])(?:rules/)?(?:heroica|heroscape|heroclix|heroclix_powers"
    r"|heroclix_figures)\.md(?![A-Za-z0-9_])"
)


def _rule(fam: str, sec: str, num: str | None) -> str:
    return f"{fam}-{sec}" if num is None else f"{fam}-{sec}.{num}"


def _expand(fam: str, sec: str, num: str | None, sec2: str | None, num2: str | None) -> list[str]:
    out = [_rule(fam, sec, num)]
    if sec2 is not None:
        if sec2 == sec and num is not None and num.isdigit() and int(num) < int(num2):
            out += [_rule(fam, sec, str(n)) for n in range(int(num) + 1, int(num2) + 1)]
        else:
            out.append(_rule(fam, sec2, num2))
    return out


def _other_family_id(m: re.Match) -> str:
    fam, d = m["fam"], m.groupdict()
    if fam == "P":
        if d.get("zero"):
            return "P-0"
        return f"P-{d['col']}" if d.get("num") is None else f"P-{d['col']}-{d['num']}"
    if fam == "TA":
        return f"TA-{d['code']}"
    return f"{fam}-{d['num']}"


def ids_in_text(text: str) -> list[str]:
    """The rule IDs written in ``text`` in their hyphen form, ranges expanded."""
    found = []
    for pattern in TEXT_IDS:
        for m in pattern.finditer(text):
            if m["fam"] in ("HE", "HS", "HC"):
                found += _expand(m["fam"], m["sec"], m["num"], m["sec2"], m["num2"])
            else:
                found.append(_other_family_id(m))
    return found


def ids_in_test_name(name: str) -> list[str]:
    """The rule IDs a test name spells with underscores (``test_HE_6_4_...`` -> HE-6.4)."""
    found = []
    for pattern in NAME_IDS:
        for m in pattern.finditer(name):
            fam = m["fam"]
            if fam not in ("HE", "HS", "HC"):
                found.append(_other_family_id(m))
                continue
            sec, num = m["sec"], m["num"]
            found.append(_rule(fam, sec, num))
            found += [_rule(fam, sec, n) for n in m["more"].split("_") if n]
            if m["conj"] == "to":
                found += _expand(fam, sec, num, m["sec2"], m["num2"])[1:]
            elif m["conj"] == "and":
                found.append(_rule(fam, m["sec2"], m["num2"]))
    return found


def family(rule_id: str) -> str:
    return re.match(r"[A-Z]+", rule_id).group(0)


def sort_key(rule_id: str) -> tuple:
    """Natural order within a family: HE-6 < HE-6.4 < HE-6.10 < HE-20 < HE-M < HE-M.2 < HE-M.M1;
    P-0 < P-SPD < P-SPD-11 < P-ATT (the card's column order); TA by code."""
    parts = re.split(r"[-.]", rule_id)[1:]
    key = []
    for part in parts:
        if part.isdigit():
            key.append((0, int(part), ""))
        elif family(rule_id) == "P" and part in P_COLUMNS:
            key.append((1, P_COLUMNS.index(part), ""))
        else:
            digits = re.sub(r"\D", "", part)
            key.append((2, int(digits) if digits else -1, re.sub(r"\d", "", part)))
    return tuple(key)


def parent(rule_id: str) -> str | None:
    """The heading an entry sits under: HE-6.4 -> HE-6, P-SPD-5 -> P-SPD, P-0 -> P, R-10 -> R,
    TA-FF -> TA; None for a heading (HE-6, P-SPD, P, R)."""
    fam = family(rule_id)
    if fam in ("HE", "HS", "HC"):
        return rule_id.split(".")[0] if "." in rule_id else None
    if rule_id == "P-0":
        return "P"
    if fam == "P":
        return None if rule_id.count("-") < 2 else rule_id.rsplit("-", 1)[0]
    return fam if "-" in rule_id else None


# -- reading the repository ---------------------------------------------------------------------

SKIP_DIRS = {
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    ".pytest_cache",
    ".ipynb_checkpoints",
    "runs",
    "outputs",
    "build",
    "dist",
    "node_modules",
    ".mypy_cache",
    ".ruff_cache",
}


def repository_files() -> Iterator[Path]:
    """Every text-like file of the working tree, without virtualenvs, caches and run outputs."""
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(
            d for d in dirnames if d not in SKIP_DIRS and not d.endswith(".egg-info")
        )
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if path.resolve() != THIS_FILE:
                yield path


def read_text(path: Path) -> str | None:
    try:
        if path.stat().st_size > 5_000_000:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:4096]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def id_sources() -> Iterator[Path]:
    """The files whose rule IDs must be documented (RULES.md themselves excluded)."""
    patterns = (
        "tests/**/*.py",
        "tests/golden/*.txt",
        "envs/**/*.py",
        "envs/**/*.yaml",
        "envs/**/*.md",
        "training/**/*.py",
        "README.md",
        "CHANGELOG.md",
        "docs/*.md",  # docs/games/ is generated from the env docstrings and RULES.md
        "notebooks/*.ipynb",
        "configs/*.yaml",
    )
    seen = set()
    for pattern in patterns:
        for path in sorted(ROOT.glob(pattern)):
            resolved = path.resolve()
            if (
                resolved in seen
                or resolved == THIS_FILE
                or path.name == "RULES.md"
                or any(part in SKIP_DIRS for part in path.relative_to(ROOT).parts)
            ):
                continue
            seen.add(resolved)
            yield path


@functools.cache
def used_ids() -> dict[str, dict[str, list[str]]]:
    """game -> rule ID -> the places (``path:line``) that use it (read once per session)."""
    used: dict[str, dict[str, list[str]]] = {game: defaultdict(list) for game in GAMES}
    for path in id_sources():
        text = read_text(path)
        if text is None:
            continue
        rel = path.relative_to(ROOT).as_posix()
        for lineno, line in enumerate(text.splitlines(), 1):
            ids = ids_in_text(line)
            for name in TEST_NAME.findall(line):
                ids += ids_in_test_name(name)
            for rule_id in dict.fromkeys(ids):
                used[FAMILY_GAME[family(rule_id)]][rule_id].append(f"{rel}:{lineno}")
    return used


def rules_file(game: str) -> tuple[list[str], list[tuple[str, str, int, bool]]]:
    """The lines of a game's RULES.md and its definitions: (id, statement, line, is_heading)."""
    path = RULES_FILES[game]
    assert path.is_file(), f"{path.relative_to(ROOT)} is missing"
    lines = path.read_text(encoding="utf-8").splitlines()
    defs = []
    for lineno, line in enumerate(lines, 1):
        for pattern, heading in ((HEADING, True), (ENTRY, False)):
            m = pattern.match(line)
            if m and CANONICAL.fullmatch(m["id"]):
                defs.append((m["id"], m["text"].strip(" -—:"), lineno, heading))
            elif m and not heading:
                raise AssertionError(
                    f"{path.relative_to(ROOT)}:{lineno}: '{m['id']}' is not a rule ID"
                )
    return lines, defs


def documented_ids(game: str) -> set[str]:
    return {rule_id for rule_id, _, _, _ in rules_file(game)[1]}


# -- the grammar itself -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "HE-6.4 and HE-6.10, HE-M.2, the HE-M section, HE-12",
            ["HE-6.4", "HE-6.10", "HE-M.2", "HE-M", "HE-12"],
        ),
        ("(HC-3.14-3.17)", ["HC-3.14", "HC-3.15", "HC-3.16", "HC-3.17"]),
        ("HE-20.4\u201320.5 and HS-6.6\u2013HS-6.10", ["HE-20.4", "HE-20.5", "HS-6.6", "HS-6.10"]),
        ("P-SPD-5, P-DEF-11; the P-ATT column; P-0", ["P-SPD-5", "P-DEF-11", "P-ATT", "P-0"]),
        (
            "R-1-R-11, TA-FF, TA-AVG, F-01 and A-3",
            ["R-1", "R-11", "A-3", "TA-FF", "TA-AVG", "F-01"],
        ),
        ("HC-x.y, HE-<section>, 3HW-1, P-Q, A-B, XHC-4.2, HC-4.2x", ["HC-4.2"]),
    ],
)
def test_text_ids_are_read_exactly(text, expected):
    assert sorted(ids_in_text(text)) == sorted(expected)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("test_HE_6_4_skull_costs_health_and_moves_back", ["HE-6.4"]),
        ("test_HE_18_2_4_next_mission_keeps_gold", ["HE-18.2", "HE-18.4"]),
        ("test_HS_12_2_and_12_3_roll_attack_then_defense_dice", ["HS-12.2", "HS-12.3"]),
        ("test_HS_2_3_to_2_6_stats_are_positive", ["HS-2.3", "HS-2.4", "HS-2.5", "HS-2.6"]),
        ("test_HE_M_2_walls_are_not_spaces", ["HE-M.2"]),
        ("test_HE_M_M1_tunnel_facts", ["HE-M.M1"]),
        ("test_HC_6_12_throwing_light_6_for_2", ["HC-6.12"]),
        ("test_bad_scenario_inline_card_breaks_HS_2_2", ["HS-2.2"]),
        ("test_P_DEF_2_toughness_reduces_knockback_damage", ["P-DEF-2"]),
        ("test_P_0_variants_are_offered", ["P-0"]),
        ("test_R_10_leap_climb_climbs_anywhere", ["R-10"]),
        ("test_TA_FF_the_others_heal_1", ["TA-FF"]),
        ("test_XX_6_4_placeholder", []),
        ("test_env_is_fine_with_2_players", []),
    ],
)
def test_test_names_are_read_exactly(name, expected):
    assert ids_in_test_name(name) == expected


def test_sort_key_is_the_natural_order():
    order = [
        "HE-1",
        "HE-1.1",
        "HE-6.4",
        "HE-6.10",
        "HE-20.7",
        "HE-M",
        "HE-M.1",
        "HE-M.4",
        "HE-M.M1",
        "HE-M.M3",
    ]
    assert sorted(order, key=sort_key) == order
    order = ["P", "P-0", "P-SPD", "P-SPD-2", "P-SPD-11", "P-ATT", "P-ATT-1", "P-DEF-1", "P-DMG-11"]
    assert sorted(order, key=sort_key) == order
    order = ["TA", "TA-AVG", "TA-BRO", "TA-DEF", "TA-FF", "TA-MOD", "TA-MOE", "TA-SS", "TA-XM"]
    assert sorted(order, key=sort_key) == order


def test_an_undocumented_id_is_reported():
    documented = documented_ids("heroica")
    assert "HE-6.4" in documented and "HE-99.1" not in documented
    assert not set(ids_in_test_name("test_HE_99_1_a_new_rule")) <= documented


# -- RULES.md -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_used_in_the_repository_is_in_the_games_rules_md(game):
    documented = documented_ids(game)
    missing = {
        rule_id: places for rule_id, places in used_ids()[game].items() if rule_id not in documented
    }
    assert not missing, f"rule IDs used but not listed in envs/{game}/RULES.md:\n" + "\n".join(
        f"  {rule_id}: {', '.join(places[:5])}{' ...' if len(places) > 5 else ''}"
        for rule_id, places in sorted(missing.items(), key=lambda kv: sort_key(kv[0]))
    )


def test_the_repository_uses_every_family():
    used = used_ids()
    families = {family(rule_id) for ids in used.values() for rule_id in ids}
    assert families >= {"HE", "HS", "HC", "R", "P", "TA", "F"}, families
    assert len(used["heroica"]) > 50 and len(used["heroscape"]) > 40 and len(used["heroclix"]) > 150


@pytest.mark.parametrize("game", GAMES)
def test_rules_md_lists_each_rule_once_in_id_order_under_its_section(game):
    lines, defs = rules_file(game)
    where = f"envs/{game}/RULES.md"
    seen: dict[str, int] = {}
    last: dict[str, str] = {}
    heading = None
    for rule_id, text, lineno, is_heading in defs:
        assert FAMILY_GAME[family(rule_id)] == game, f"{where}:{lineno}: {rule_id} is not {game}'s"
        assert rule_id not in seen, f"{where}:{lineno}: {rule_id} again (line {seen[rule_id]})"
        seen[rule_id] = lineno
        fam = family(rule_id)
        if fam in last:
            assert sort_key(last[fam]) < sort_key(rule_id), (
                f"{where}:{lineno}: {rule_id} after {last[fam]}"
            )
        last[fam] = rule_id
        if is_heading:
            heading = rule_id
        else:
            assert parent(rule_id) == heading, (
                f"{where}:{lineno}: {rule_id} under heading {heading}, not {parent(rule_id)}"
            )
        assert len(text) >= (3 if is_heading else 15), (
            f"{where}:{lineno}: {rule_id} has no statement"
        )


@pytest.mark.parametrize("game", GAMES)
def test_rules_md_header_says_what_it_is_and_points_at_the_env_docs(game):
    lines, _ = rules_file(game)
    header = []
    for line in lines:
        if line.startswith("## "):
            break
        if line.strip():
            header.append(line)
    assert header and header[0].startswith("# "), f"envs/{game}/RULES.md needs a title"
    assert 3 <= len(header) <= 6, header  # the title, then 3-5 lines
    text = " ".join(header)
    assert "underscore" in text and re.search(r"[A-Z]+_\d+_\d+", text), text
    assert ENV_MODULES[game] in text, f"the header should name {ENV_MODULES[game]}"
    for path in re.findall(r"envs/[\w/]+\.(?:py|yaml|md)", "\n".join(lines)):
        assert (ROOT / path).is_file(), f"envs/{game}/RULES.md names {path}, which is missing"


# -- RULES.md agrees with the data it describes ---------------------------------------------------

P_ENTRY = re.compile(
    r"^- \*\*(?P<id>P-[A-Z]+-\d+)\*\* (?P<name>.+?) \(`(?P<key>\w+)`; "
    r"(?P<colour>[a-z ]+); (?P<optional>optional|not optional); "
    r"(?P<actions>`\w+`(?: or `\w+`)*)(?:, (?P<note>[^;]+))?; (?P<tier>T\d)\):",
    re.M,
)
F_ENTRY = re.compile(
    r"^- \*\*(?P<id>F-\d{2})\*\* (?P<name>.+?) "
    r"\(`envs/heroclix/data/figures/(?P<file>\w+)\.yaml`\): (?P<points>\d+) points",
    re.M,
)
TA_ENTRY = re.compile(
    r"^- \*\*(?P<id>TA-[A-Z]+)\*\* (?P<name>.+?)(?: \(`(?P<effect>\w+)`\))?:", re.M
)


def _clix_rules_text() -> str:
    return RULES_FILES["heroclix"].read_text(encoding="utf-8")


def test_heroclix_rules_md_lists_the_44_powers_of_the_catalog_as_they_are():
    from envs.heroclix.powers.catalog import POWERS

    found = P_ENTRY.findall(_clix_rules_text())
    entries = {m["key"]: m for m in P_ENTRY.finditer(_clix_rules_text())}
    assert len(found) == len(entries) == len(POWERS) == 44
    for key, power in POWERS.items():
        m = entries[key]
        assert (m["id"], m["name"], m["colour"], m["optional"] == "optional", m["tier"]) == (
            power.rule_id,
            power.name,
            power.colour,
            power.optional,
            power.tier.value,
        ), key
        assert re.findall(r"`(\w+)`", m["actions"]) == [a.value for a in power.actions], key
        assert (m["note"] or "") == power.action_note, key


def test_heroclix_rules_md_lists_the_shipped_figures_by_their_ref():
    from envs.heroclix.data.figures import shipped_figures

    entries = {m["id"]: m for m in F_ENTRY.finditer(_clix_rules_text())}
    figures = {f.ref: f for f in shipped_figures().values()}
    assert sorted(entries) == sorted(figures)
    for ref, fig in figures.items():
        m = entries[ref]
        assert (m["name"], m["file"], int(m["points"])) == (fig.name, fig.id, fig.points), ref


def test_heroclix_rules_md_lists_every_team_of_teams_yaml_with_its_effect():
    from envs.heroclix.data.teams import teams

    entries = {m["id"]: m for m in TA_ENTRY.finditer(_clix_rules_text())}
    rows = {team.ability: team for team in teams().values()}
    assert sorted(entries) == sorted(rows)
    for ability, team in rows.items():
        assert (entries[ability]["name"], entries[ability]["effect"]) == (team.name, team.effect)


# -- no rules outside the repository ------------------------------------------------------------


def _offending(pattern: re.Pattern) -> list[str]:
    hits = []
    for path in repository_files():
        text = read_text(path)
        if text is None:
            continue
        for lineno, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(ROOT).as_posix()}:{lineno}: {line.strip()}")
    return hits


def test_nothing_in_the_repository_points_at_shared():
    hits = _offending(OUTSIDE_PATH)
    assert not hits, (
        "these lines refer to ../shared (point at envs/<game>/RULES.md instead):\n  "
        + "\n  ".join(hits)
    )


def test_nothing_in_the_repository_names_the_outside_spec_files():
    hits = _offending(OUTSIDE_SPEC_FILE)
    assert not hits, (
        "these lines name a rules specification that is not in the repository "
        "(heroica.md, heroscape.md, heroclix*.md; use envs/<game>/RULES.md):\n  "
        + "\n  ".join(hits)
    )
