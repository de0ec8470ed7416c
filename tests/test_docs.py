"""The documentation: the generated game pages are up to date, the site builds with
``mkdocs build --strict`` (any warning, such as a broken link or anchor, fails), the README
stays a short front page, and every relative link of the Markdown files points at a file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from envs import docgen

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")  # an inline Markdown link: [text](target)
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)  # fenced blocks and code spans
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # https:, mailto:, ...


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]


def relative_links(path: Path) -> list[str]:
    """The link targets of a Markdown file that name a file of the repository (anchors cut)."""
    text = CODE.sub("", path.read_text(encoding="utf-8"))
    targets = (m[1] for m in LINK.finditer(text))
    return [t.split("#")[0] for t in targets if not SCHEME.match(t) and not t.startswith("#")]


def test_the_generated_game_pages_are_up_to_date():
    stale = docgen.stale_pages()
    assert not stale, f"stale pages {stale}: run python -m envs.docgen --write"


def test_docgen_check_reports_a_stale_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(docgen, "PAGES_DIR", tmp_path)
    assert docgen.main(["--check"]) == 1  # no pages at all
    assert docgen.main(["--write"]) == 0 and docgen.main(["--check"]) == 0
    page = tmp_path / "heroclix_v0.md"
    page.write_text(page.read_text(encoding="utf-8") + "hand edit\n", encoding="utf-8")
    assert docgen.stale_pages() == [str(page)]


def test_rst_to_markdown_converts_the_subset_the_docstrings_use():
    doc = """Title (``x_v0``): :class:`~a.b.Game` and :mod:`a.b`.

    Usage::

        env = make("x_v0")

    Options
    -------
    ==========  ========  ======================
    option      default   meaning
    ==========  ========  ======================
    scenario    "duel"    scenario id (``a.b
                          .ids()``) or a path
    tk_move     False     take_<monster>_from, a | b
    ==========  ========  ======================

    * a *list* item
      continued
    """
    assert docgen.rst_to_markdown(doc).splitlines() == [
        "Title (`x_v0`): `Game` and `a.b`.",
        "",
        "Usage:",
        "",
        "```python",
        'env = make("x_v0")',
        "```",
        "",
        "## Options",
        "",
        "| option | default | meaning |",
        "| --- | --- | --- |",
        '| scenario | "duel" | scenario id (`a.b .ids()`) or a path |',
        r"| tk_move | False | take\_&lt;monster&gt;\_from, a \| b |",
        "",
        "* a *list* item",
        "  continued",
    ]


def test_rst_to_markdown_refuses_what_it_cannot_convert():
    with pytest.raises(docgen.DocError, match="unconverted"):
        docgen.rst_to_markdown("A literal ``left open\n\nand never closed.\n")
    with pytest.raises(docgen.DocError, match="closing rule"):
        docgen.rst_to_markdown("====  ====\na     b\n====  ====\nc     d\n")


def test_the_site_builds_strictly(tmp_path: Path):
    site = tmp_path / "site"
    stray = ROOT / "site"
    had_stray = stray.exists()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}  # mkdocs-material's notice on stderr
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    proc = subprocess.run(build, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "WARNING" not in output, output
    for page in ("index.html", "usage/index.html", "games/heroclix_v0/index.html"):
        assert (site / page).is_file(), page
    changelog = (site / "changelog" / "index.html").read_text(encoding="utf-8")
    assert "Unreleased" in changelog  # CHANGELOG.md included, not a copy
    assert stray.exists() == had_stray  # nothing written into the repository


def test_the_readme_is_a_short_front_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move the rest into docs/"
    assert "make run" in lines[lines.index("```bash") + 1]  # the two set-up commands


def test_every_relative_link_points_at_a_file():
    broken = []
    for path in markdown_files():
        for target in relative_links(path):
            if target and not (path.parent / target).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, "links to missing files:\n  " + "\n  ".join(broken)
    readme_links = relative_links(ROOT / "README.md")
    assert len(readme_links) >= 10 and all(t.endswith(".md") for t in readme_links)
