"""The game pages of the documentation site, generated from the code they document.

Each game gets two pages under ``docs/games/``: ``<game>_v0.md`` from the module docstring of
``envs/<game>/<game>_v0.py`` (agents, actions, observations, rewards, options, version history)
and ``<game>-rules.md`` from ``envs/<game>/RULES.md`` (every rule ID and its Default)::

    python -m envs.docgen --write     # (re)write the docstrings' options tables, then the pages
    python -m envs.docgen --check     # exit 1 and list what differs from the code

The docstrings' options tables are generated first (:mod:`envs.optiondocs`, from the options'
specs), so a changed option reaches its page in one command.

The docstrings are written in a small part of reStructuredText, which :func:`rst_to_markdown`
turns into Markdown: section titles underlined with ``---`` (``##`` headings), ``::`` literal
blocks (fenced code), simple tables ruled with ``====`` and a header of one row (Markdown
tables; a row whose first cell is blank continues the row above), inline literals and roles
such as ``:mod:`` and ``:class:`` (code spans), ``*emphasis*`` and ``*`` bullet lists (the
same in both). What it cannot convert, such as a literal left open, raises :class:`DocError`
naming the module (exit status 2), so a page is never silently wrong. The rules pages are
``RULES.md`` as it is, with the rule-ID wildcards (``TA-*``) escaped.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from envs import optiondocs

ROOT = Path(__file__).resolve().parent.parent
PAGES_DIR = ROOT / "docs" / "games"
GAMES = {"heroica": "LEGO Heroica", "heroscape": "Heroscape", "heroclix": "HeroClix"}
"""Game package -> the name its pages give it; the env is ``<game>_v0``."""

UNDERLINE = re.compile(r"^-{3,}$")
TABLE_RULE = re.compile(r"^=+(?: +=+)+$")
ROLE = re.compile(r":(?:mod|class|func|meth|data|attr|exc|obj):`(~?)([^`]+)`")
LITERAL = re.compile(r"``(.+?)``", re.DOTALL)
CODE_SPAN = re.compile(r"(`[^`\n]*`)")
EMPHASIS_UNDERSCORE = re.compile(r"(?<![\w\\])_|_(?!\w)")


class DocError(ValueError):
    """A docstring uses reStructuredText this converter does not handle."""


def _escape(text: str, table: bool) -> str:
    """Markdown-escape text outside code spans: angle brackets (not HTML), underscores and
    rule-ID wildcards that could open or close emphasis (``take_<monster>_from``, ``TA-*``),
    pipes in tables."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = EMPHASIS_UNDERSCORE.sub(r"\\_", text)
    text = text.replace("-*", r"-\*")  # a rule-ID wildcard (TA-*), not emphasis
    return text.replace("|", r"\|") if table else text


def inline(text: str, table: bool = False) -> str:
    """Roles and ````literals```` as code spans; the text between them escaped."""
    text = ROLE.sub(lambda m: "``" + (m[2].rsplit(".", 1)[-1] if m[1] else m[2]) + "``", text)
    out, pos = [], 0
    for match in LITERAL.finditer(text):
        code = " ".join(match[1].split()) if "\n" in match[1] else match[1]
        out += [_escape(text[pos : match.start()], table), f"`{code}`"]
        pos = match.end()
    out.append(_escape(text[pos:], table))
    result = "".join(out)
    if "``" in result or ":`" in result:
        raise DocError(f"unconverted markup in {text!r}")
    return result


def _table(lines: list[str], start: int) -> tuple[list[str], int]:
    """The simple table (rule, header row, rule, rows, rule) whose top rule is ``lines[start]``:
    its Markdown lines and the index after it."""
    columns = [m.start() for m in re.finditer(r"=+", lines[start])]
    bounds = list(zip(columns, columns[1:] + [None], strict=True))
    groups: list[list[list[str]]] = [[]]
    i = start + 1
    while True:
        if i >= len(lines):
            raise DocError(f"table from {lines[start]!r} has no closing rule")
        line = lines[i]
        i += 1
        if TABLE_RULE.match(line.strip()):
            if len(groups) == 2:
                break
            groups.append([])
            continue
        if not line.strip():
            continue
        cells = [" ".join(line[a:b].split()) for a, b in bounds]
        if cells[0] or not groups[-1]:
            groups[-1].append(cells)
        else:  # a blank first cell continues the row above
            row = groups[-1][-1]
            for k, cell in enumerate(cells):
                row[k] = f"{row[k]} {cell}".strip() if cell else row[k]
    header, body = groups
    if len(header) != 1:
        raise DocError(f"a table needs a header of one row, not {header!r}")
    rows = [[inline(cell, table=True) for cell in row] for row in [header[0], *body]]
    rows.insert(1, ["---"] * len(columns))
    return ["| " + " | ".join(row) + " |" for row in rows], i


def rst_to_markdown(doc: str) -> str:
    """Markdown for a docstring in the reStructuredText subset of this module's docstring."""
    lines = inspect.cleandoc(doc).splitlines() + [""]
    out: list[str] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            out.extend(inline("\n".join(para)).split("\n"))
            para.clear()

    def block(new: list[str]) -> None:
        flush()
        if out and out[-1]:
            out.append("")
        out.extend(new)
        out.append("")

    i = 0
    while i < len(lines):
        line = lines[i]
        if line and not line[0].isspace() and UNDERLINE.match(lines[i + 1].strip() or "x"):
            block([f"## {inline(line.strip())}"])
            i += 2
        elif TABLE_RULE.match(line.strip()):
            table, i = _table(lines, i)
            block(table)
        elif line.rstrip().endswith("::"):
            text = line.rstrip()
            if text[:-2].strip():  # "Usage::" reads "Usage:", "Usage ::" reads "Usage"
                para.append(text[:-3] if text.endswith(" ::") else text[:-1])
            i += 1
            code: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i][0].isspace()):
                code.append(lines[i])
                i += 1
            code_text = inspect.cleandoc("\n".join(code))
            if not code_text:
                raise DocError(f"literal block after {line!r} is empty")
            block(["```python", *code_text.splitlines(), "```"])
        elif not line.strip():
            flush()
            if out and out[-1]:
                out.append("")
            i += 1
        else:
            para.append(line)
            i += 1
    flush()
    return "\n".join(out).strip() + "\n"


def _source(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def game_page(game: str) -> str:
    """``docs/games/<game>_v0.md``: the env module's docstring as Markdown."""
    module = importlib.import_module(f"envs.{game}.{game}_v0")
    if not module.__doc__:
        raise DocError(f"envs.{game}.{game}_v0 has no docstring")
    try:
        body = rst_to_markdown(module.__doc__)
    except DocError as exc:
        raise DocError(f"envs/{game}/{game}_v0.py: {exc}") from None
    head = [
        f"<!-- Generated by `python -m envs.docgen --write` from envs/{game}/{game}_v0.py "
        "(its module docstring): edit that, not this page. -->",
        "",
        f"# {GAMES[game]}: `{game}_v0`",
        "",
        f"The rules it follows, one line per rule ID: [{GAMES[game]} rules]({game}-rules.md).",
        "",
    ]
    return "\n".join(head) + "\n" + body


def rules_page(game: str) -> str:
    """``docs/games/<game>-rules.md``: the game's rules reference as it stands, the ID
    wildcards outside code (``TA-*``) escaped so that two of them are not read as emphasis."""
    source = ROOT / "envs" / game / "RULES.md"
    parts = CODE_SPAN.split(source.read_text(encoding="utf-8"))
    text = "".join(p if k % 2 else p.replace("-*", r"-\*") for k, p in enumerate(parts))
    head = (
        f"<!-- Generated by `python -m envs.docgen --write` from {_source(source)}: "
        "edit that, not this page. -->\n\n"
    )
    return head + text.rstrip("\n") + "\n"


def pages() -> dict[Path, str]:
    """Every generated page: path -> its text."""
    result = {}
    for game in GAMES:
        result[PAGES_DIR / f"{game}_v0.md"] = game_page(game)
        result[PAGES_DIR / f"{game}-rules.md"] = rules_page(game)
    return result


def stale_pages() -> list[str]:
    """The generated pages that are missing or differ from what the code gives now."""
    stale = []
    for path, text in pages().items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(_source(path))
    return stale


def write_pages() -> list[str]:
    """Write every page that changed; the paths written."""
    written = []
    for path, text in pages().items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(_source(path))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m envs.docgen", description=__doc__.split("\n")[0]
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="write the pages that changed")
    mode.add_argument("--check", action="store_true", help="exit 1 if any page is stale")
    args = parser.parse_args(argv)
    # The docstrings' options tables first: the pages are made from the docstrings.
    tables = optiondocs.main(["--write"] if args.write else [])
    try:
        if args.write:
            for path in write_pages():
                print(f"wrote {path}")
            return 0
        stale = stale_pages()
    except DocError as exc:
        print(f"docgen: {exc}", file=sys.stderr)
        return 2
    for path in stale:
        print(f"stale: {path} (run python -m envs.docgen --write)")
    return 1 if stale or tables else 0


if __name__ == "__main__":
    sys.exit(main())
