"""Loading and validating scenario files: YAML documents with ASCII maps.

Every game's data files (Heroica missions; later Heroscape battlefields and cards, HeroClix
maps and dials) load through here so that every bad file fails the same way: a
:class:`ScenarioError` that names the file, the line (and field) and what is wrong::

    missions/tunnel.yaml, line 4, field 'target': (1, 12) is a wall, not a space

The pieces, used in this order by a game's loader:

1. :func:`load_yaml` parses the text (safe loader only) and returns the data together with a
   :class:`LineMap` that finds the line of any field path, e.g. ``("units", 0, "name")``.
   Syntax errors and duplicate keys are errors here.
2. :func:`validate` checks the data against a pydantic v2 model. Models should use
   :data:`STRICT_MODEL` (``extra="forbid"``) so that an unknown key is an error, not ignored.
3. :func:`parse_grid` / :func:`grid_field` check an ASCII map given as a YAML literal block
   scalar (``map: |``): rectangular, only characters from the legend. Errors point at the real
   line of the file. The grid holds only the rows themselves: no column-number header and no
   row-number prefixes (YAML takes the block's indentation from its first line, so a header
   indented differently from the rows would not parse).
4. The game's own checks call :meth:`LineMap.error` to raise errors that carry the line.

Before step 1, :func:`resolve_data_file` turns what the user gave ("an id or a path") into the
file to read, and :func:`list_data_ids` lists the ids a folder of shipped files offers.

Pure Python + PyYAML + pydantic; no game knowledge here.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pydantic
import yaml

__all__ = [
    "STRICT_MODEL",
    "STRING_SOURCE",
    "YAML_SUFFIXES",
    "LineMap",
    "ScenarioError",
    "grid_field",
    "list_data_ids",
    "load_yaml",
    "looks_like_path",
    "parse_grid",
    "read_text",
    "resolve_data_file",
    "validate",
]

STRING_SOURCE = "<string>"

YAML_SUFFIXES = (".yaml", ".yml")
"""File name endings of YAML data files; shipped files use the first."""

STRICT_MODEL = pydantic.ConfigDict(extra="forbid", frozen=True)
"""``model_config`` for scenario models: unknown keys are errors (nothing silently dropped)."""

FieldPath = Sequence[str | int] | str
ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)


class ScenarioError(ValueError):
    """A problem in a scenario file, with where it is.

    Attributes:
        source: the file path, or ``"<string>"`` for text given directly.
        line: 1-based line in ``source``, or None when no single line is to blame
            (e.g. a missing field).
        field: dotted field path such as ``"target"`` or ``"units.0.name"``, or None.
        message: what is wrong.
        others: further problems found in the same pass (e.g. by :func:`validate`); the
            first problem is this error itself.
    """

    def __init__(
        self,
        source: str | os.PathLike[str],
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
        others: Sequence[ScenarioError] = (),
    ):
        self.source = str(source)
        self.line = line
        self.field = field
        self.message = message
        self.others = tuple(others)
        super().__init__(self._format())

    def _format(self) -> str:
        parts = [self.source]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.field is not None:
            parts.append(f"field '{self.field}'")
        text = ", ".join(parts) + f": {self.message}"
        for other in self.others:
            text += "\n" + str(other)
        return text

    def __str__(self) -> str:
        return self._format()


def _path_key(path: FieldPath) -> tuple[str, ...]:
    # Node keys are compared as YAML wrote them, so ints from pydantic locations and
    # "0" from a dotted string address the same sequence item.
    if isinstance(path, str):
        return tuple(path.split(".")) if path else ()
    return tuple(str(part) for part in path)


def dotted(path: FieldPath) -> str:
    """``("units", 0, "name")`` -> ``"units.0.name"``."""
    return ".".join(_path_key(path))


class LineMap:
    """Finds where each field of a YAML document is written.

    Paths are sequences of mapping keys and sequence indices (``("units", 0, "name")``) or
    the same as a dotted string (``"units.0.name"``). The empty path is the document root.
    """

    def __init__(self, source: str, root: yaml.Node | None):
        self.source = source
        # path -> (line of the key or item, the value node)
        self._entries: dict[tuple[str, ...], tuple[int, yaml.Node]] = {}
        if root is not None:
            self._walk((), root.start_mark.line + 1, root)

    def _walk(self, path: tuple[str, ...], line: int, node: yaml.Node) -> None:
        self._entries[path] = (line, node)
        if isinstance(node, yaml.MappingNode):
            first_seen: dict[str, int] = {}
            for key_node, value_node in node.value:
                key = str(key_node.value)
                key_line = key_node.start_mark.line + 1
                if key in first_seen:
                    # PyYAML keeps the last value silently; a scenario must not.
                    raise ScenarioError(
                        self.source,
                        f"duplicate key '{key}' (first given on line {first_seen[key]})",
                        line=key_line,
                        field=dotted(path + (key,)),
                    )
                first_seen[key] = key_line
                self._walk(path + (key,), key_line, value_node)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                self._walk(path + (str(index),), item.start_mark.line + 1, item)

    def line(self, path: FieldPath = ()) -> int | None:
        """Line of the field's key (or of the sequence item); None if the path is not written.

        For a path that is not written (a missing field) this falls back to the nearest
        written parent, so the error still points into the right mapping.
        """
        key = _path_key(path)
        while key not in self._entries and key:
            key = key[:-1]
        entry = self._entries.get(key)
        return None if entry is None else entry[0]

    def has(self, path: FieldPath) -> bool:
        """Whether the path is written in the document."""
        return _path_key(path) in self._entries

    def value_line(self, path: FieldPath) -> int | None:
        """Line where the field's value starts (the ``|`` line for a block scalar)."""
        entry = self._entries.get(_path_key(path))
        return None if entry is None else entry[1].start_mark.line + 1

    def scalar_style(self, path: FieldPath) -> str | None:
        """YAML style of a scalar value: ``"|"`` literal, ``">"`` folded, ``"'"``, ``'"'``,
        or ``""`` for plain; None for a missing path or a non-scalar."""
        entry = self._entries.get(_path_key(path))
        if entry is None or not isinstance(entry[1], yaml.ScalarNode):
            return None
        return entry[1].style or ""

    def error(self, path: FieldPath, message: str, *, line: int | None = None) -> ScenarioError:
        """A :class:`ScenarioError` for ``path`` at its line (or at ``line`` if given)."""
        field = dotted(path) or None
        return ScenarioError(
            self.source, message, line=self.line(path) if line is None else line, field=field
        )


def looks_like_path(text: str, suffixes: Sequence[str] = YAML_SUFFIXES) -> bool:
    """Whether the string ``text`` names a file rather than an id: it ends with one of
    ``suffixes`` or contains a path separator."""
    return text.endswith(tuple(suffixes)) or "/" in text or os.sep in text


def list_data_ids(folder: Path, suffixes: Sequence[str] = YAML_SUFFIXES) -> list[str]:
    """Ids of the shipped data files in ``folder``, sorted: the names, without the ending, of
    the files named ``<id><suffixes[0]>``."""
    return sorted(p.stem for p in folder.glob(f"*{suffixes[0]}"))


def resolve_data_file(
    value: str | os.PathLike[str],
    folder: Path,
    suffixes: Sequence[str],
    what: str,
    *,
    shipped: str = "shipped",
    must_exist: bool = False,
) -> Path:
    """The data file that ``value``, "an id or a path", names.

    * A ``str`` for which :func:`looks_like_path` is false is an id: the result is
      ``folder / f"{value}{suffixes[0]}"``. If that is not a file, raises
      ``ScenarioError(value, "unknown <what> id '<value>'; <shipped>: <ids>")`` with the ids
      of :func:`list_data_ids` (``folder``, ``suffixes``), comma-separated.
    * Any other value (a path-like ``str``, an ``os.PathLike``) is a path: the result is
      ``Path(value)``, so a value of another type is the ``TypeError`` of :class:`Path`.
      With ``must_exist`` a path that is not a file raises ``ScenarioError(path, "no such
      <what> file")`` (or ``"... is a directory, not a <what> file"``); without it the path
      is returned unchecked, and :func:`read_text` names it if it cannot be read.

    ``what`` names the kind of file in the messages (``"mission"``); ``shipped`` is the words
    before the list of ids.
    """
    if isinstance(value, str) and not looks_like_path(value, suffixes):
        path = folder / f"{value}{suffixes[0]}"
        if not path.is_file():
            raise ScenarioError(
                value,
                f"unknown {what} id '{value}'; {shipped}: "
                f"{', '.join(list_data_ids(folder, suffixes))}",
            )
        return path
    path = Path(value)
    if must_exist and not path.is_file():
        raise ScenarioError(
            path, f"is a directory, not a {what} file" if path.is_dir() else f"no such {what} file"
        )
    return path


def read_text(path: str | os.PathLike[str]) -> str:
    """Read a data file as UTF-8; a decoding problem (with its line) or a file that cannot be
    read (missing, a directory, no permission) is a :class:`ScenarioError` naming the file."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ScenarioError(path, f"cannot read the file: {exc.strerror or exc}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ScenarioError(
            path,
            f"not UTF-8 text ({exc.reason}: byte 0x{raw[exc.start]:02x} at byte {exc.start})",
            line=line,
        ) from None


def load_yaml(
    path_or_text: str | os.PathLike[str], source: str | None = None
) -> tuple[Any, LineMap]:
    """Parse one YAML document with the safe loader.

    ``path_or_text``: a :class:`pathlib.Path` (any ``os.PathLike``) is read as a file; a
    ``str`` is the YAML text itself. ``source`` names the text in errors (default: the path,
    or ``"<string>"``).

    Returns ``(data, line_map)``. Raises :class:`ScenarioError` for a syntax error (with its
    line), a duplicate key, or more than one document.
    """
    if isinstance(path_or_text, os.PathLike):
        text = read_text(path_or_text)
        source = str(path_or_text) if source is None else source
    elif isinstance(path_or_text, str):
        text = path_or_text
        source = STRING_SOURCE if source is None else source
    else:
        raise TypeError(f"load_yaml expects a path or YAML text, got {type(path_or_text).__name__}")
    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as exc:
        # The reader refuses control characters (NUL, ...) before parsing starts.
        line = text.count("\n", 0, exc.position) + 1
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise ScenarioError(
            source, f"character U+{code:04X} ({chr(code)!r}) is not allowed in YAML text", line=line
        ) from None
    try:
        root = loader.get_single_node()
        data = None if root is None else loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "invalid YAML"
        if exc.context:
            # The context often starts lines earlier (an unclosed bracket); say where.
            where = exc.context_mark
            opened = (
                "" if where is None or where is mark else f" that starts on line {where.line + 1}"
            )
            if problem.startswith("but "):
                problem = f"{exc.context}{opened}, {problem}"
            else:
                problem += f" ({exc.context}{opened})"
        raise ScenarioError(
            source, f"YAML syntax error: {problem}", line=None if mark is None else mark.line + 1
        ) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(source, f"YAML error: {exc}") from None
    finally:
        loader.dispose()
    return data, LineMap(source, root)


def _describe_input(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def validate(
    model_cls: type[ModelT], data: Any, source: str, line_lookup: LineMap | None = None
) -> ModelT:
    """Validate ``data`` with the pydantic v2 model ``model_cls``.

    Every pydantic error becomes a :class:`ScenarioError` with the field path and its line;
    the first is raised, the rest ride along in ``.others`` (and in its message).
    Unknown keys are reported with the list of allowed ones when the model forbids extras.
    """
    try:
        return model_cls.model_validate(data)
    except pydantic.ValidationError as exc:
        errors = [_convert_error(model_cls, err, source, line_lookup) for err in exc.errors()]
    raise ScenarioError(
        errors[0].source,
        errors[0].message,
        line=errors[0].line,
        field=errors[0].field,
        others=errors[1:],
    )


def _model_at(
    model_cls: type[pydantic.BaseModel], loc: Sequence[str | int]
) -> type[pydantic.BaseModel] | None:
    # Walks nested models so an unknown key inside a sub-mapping lists that mapping's fields.
    current: Any = model_cls
    for part in loc:
        if isinstance(current, type) and issubclass(current, pydantic.BaseModel):
            info = current.model_fields.get(str(part))
            if info is None:
                return None
            current = info.annotation
        else:
            args = getattr(current, "__args__", ())
            models = [a for a in args if isinstance(a, type) and issubclass(a, pydantic.BaseModel)]
            if len(models) != 1:
                return None
            current = models[0]
    if isinstance(current, type) and issubclass(current, pydantic.BaseModel):
        return current
    return None


def _convert_error(
    model_cls: type[pydantic.BaseModel], err: Mapping[str, Any], source: str, lines: LineMap | None
) -> ScenarioError:
    loc = tuple(err["loc"])
    kind = err["type"]
    if kind == "missing":
        message = f"missing required field '{loc[-1]}'"
    elif kind == "extra_forbidden":
        parent = _model_at(model_cls, loc[:-1])
        allowed = "" if parent is None else f"; allowed: {', '.join(parent.model_fields)}"
        message = f"unknown field '{loc[-1]}'{allowed}"
    elif kind in ("model_type", "model_attributes_type", "dict_type") and not loc:
        got = err.get("input")
        message = (
            "the document is empty; expected a mapping of fields"
            if got is None
            else f"expected a mapping of fields, got {_describe_input(got)}"
        )
    else:
        message = f"{err['msg']} (got {_describe_input(err.get('input'))})"
    line = None if lines is None else lines.line(loc)
    return ScenarioError(source, message, line=line, field=dotted(loc) or None)


def _char_name(char: str, trailing: bool) -> str:
    if char == " ":
        return "' ' (a blank at the end of the row)" if trailing else "' ' (a blank)"
    if char == "\t":
        return "a tab"
    return repr(char)


def parse_grid(
    text: str,
    legend: Mapping[str, str] | Iterable[str],
    source: str,
    first_line: int | None = None,
    field: str | None = None,
) -> list[str]:
    """Split an ASCII grid into rows and check it.

    ``legend`` maps each allowed character to its meaning (or is just the allowed
    characters). ``first_line`` is the file line of row 0, so errors name the real line of
    each row. One trailing newline is allowed; every other line, blank ones included, is a
    row. Raises :class:`ScenarioError` if the grid is empty, a row has a different length than
    row 0, or a character is not in the legend (naming row, column and the allowed
    characters).
    """
    allowed = dict(legend) if isinstance(legend, Mapping) else {c: "" for c in legend}

    def line_of(row: int) -> int | None:
        return None if first_line is None else first_line + row

    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    if not rows:
        raise ScenarioError(source, "the map is empty", line=first_line, field=field)
    width = len(rows[0])
    if width == 0:
        raise ScenarioError(source, "row 0 of the map is empty", line=line_of(0), field=field)
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ScenarioError(
                source,
                f"map row {r} has {len(row)} characters, expected {width} (the width of "
                f"row 0); the map must be a rectangle",
                line=line_of(r),
                field=field,
            )
        for c, char in enumerate(row):
            if char not in allowed:
                listed = ", ".join(f"'{k}'" + (f" {v}" if v else "") for k, v in allowed.items())
                raise ScenarioError(
                    source,
                    f"map row {r}, col {c}: unknown character "
                    f"{_char_name(char, not row[c:].strip())}; "
                    f"allowed: {listed}",
                    line=line_of(r),
                    field=field,
                )
    return rows


def grid_field(
    data: Mapping[str, Any],
    lines: LineMap,
    path: FieldPath,
    legend: Mapping[str, str] | Iterable[str],
) -> list[str]:
    """The grid stored at ``path``, checked with :func:`parse_grid`, with real line numbers.

    The field must be a YAML literal block scalar (``map: |``): other styles fold or escape
    newlines, so rows would not keep their own lines.
    """
    key = _path_key(path)
    value: Any = data
    for part in key:
        value = value[int(part)] if isinstance(value, list) else value[part]
    if lines.scalar_style(key) != "|" or not isinstance(value, str):
        raise lines.error(
            key,
            "write the map as a YAML literal block ('map: |' followed by the "
            "rows, indented) so that each row keeps its own line",
        )
    header = lines.value_line(key)
    first_line = None if header is None else header + 1
    return parse_grid(value, legend, lines.source, first_line=first_line, field=dotted(key))
