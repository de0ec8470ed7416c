"""Building a force (envs/heroclix/RULES.md HC-2.2-2.4, HC-3.2, HC-3.10-3.11).

:func:`check_force` checks one player's figures against the agreed build total:

* HC-2.2: the build total is a whole multiple of 100 (100, 200, ...);
* HC-2.3: the figures' point values total no more than the build total, not even by 1; a force
  has at least one figure [impl: a player with none has already lost, HC-7.1a];
* HC-2.4: a unique figure at most once per force (the HC-2.4 default); copies of other figures
  are allowed;
* HC-3.11: no two archenemies (HC-3.10, :func:`~envs.heroclix.data.figures.archenemies`) on one force.

Every problem found is reported, first one first, with the rule it breaks and the figures
involved. Called from code, the error is a :class:`ForceError` (a ``ValueError``) with a plain
message::

    HC-2.4: unique figure 'Bulwark Captain' (bulwark_captain) is in the force 2 times (entries 0,
    2); a unique figure may be taken once per force

Called while loading a scenario file, pass the file's :class:`~envs.core.scenario.LineMap` and
the field paths, and the error is a :class:`~envs.core.scenario.ScenarioError` naming the file,
the line and the field (the entry of the second copy, of the later archenemy, or the build
total), as every data error does.

:func:`actions_per_turn` is HC-3.2: one action per turn per 100 points of the build total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from envs.core.scenario import FieldPath, LineMap, ScenarioError, dotted
from envs.heroclix.data.figures import Figure, archenemies

__all__ = [
    "POINTS_PER_ACTION",
    "Force",
    "ForceError",
    "ForceProblem",
    "actions_per_turn",
    "check_build_total",
    "check_force",
    "force_problems",
]

POINTS_PER_ACTION = 100
"""HC-2.2 / HC-3.2: build totals come in steps of 100; each step is one action per turn."""


@dataclass(frozen=True)
class ForceProblem:
    """One broken force-building rule.

    Attributes:
        rule: the rule id, ``"HC-2.4"``.
        message: what is wrong, naming the figures.
        entries: indices into the force of the figures to blame (empty for the build total
            and the points total); errors point at the last one.
    """

    rule: str
    message: str
    entries: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


class ForceError(ValueError):
    """A force that breaks HC-2.2, 2.3, 2.4 or 3.11 (from code, without a file).

    ``problems`` holds every problem found; the message lists them, one per line.
    """

    def __init__(self, problems: Sequence[ForceProblem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def rule(self) -> str:
        """The rule of the first problem."""
        return self.problems[0].rule


@dataclass(frozen=True)
class Force:
    """A checked force: the figures, in the order given, and the build total."""

    figures: tuple[Figure, ...]
    build_total: int

    @property
    def points(self) -> int:
        """Points actually spent (HC-7.9 compares these on a tie)."""
        return sum(f.points for f in self.figures)

    @property
    def actions_per_turn(self) -> int:
        return actions_per_turn(self.build_total)


def _build_total_problem(build_total: object) -> ForceProblem | None:
    # bool is an int in Python; "True" as a build total is a typo, not 1 point.
    if (
        not isinstance(build_total, int)
        or isinstance(build_total, bool)
        or build_total <= 0
        or build_total % POINTS_PER_ACTION
    ):
        return ForceProblem(
            "HC-2.2",
            f"the build total must be a positive whole multiple of "
            f"{POINTS_PER_ACTION} (100, 200, 300, ...); got "
            f"{build_total!r}",
        )
    return None


def check_build_total(build_total: int) -> int:
    """``build_total`` if it is a positive multiple of 100 (HC-2.2), else :class:`ForceError`."""
    problem = _build_total_problem(build_total)
    if problem is not None:
        raise ForceError([problem])
    return build_total


def actions_per_turn(build_total: int) -> int:
    """HC-3.2: actions per turn, ``build_total // 100``; the build total must satisfy HC-2.2."""
    return check_build_total(build_total) // POINTS_PER_ACTION


def _label(figure: Figure, entry: int | None = None) -> str:
    where = "" if entry is None else f", entry {entry}"
    return f"'{figure.name}' ({figure.id}{where})"


def force_problems(figures: Sequence[Figure], build_total: int) -> list[ForceProblem]:
    """Every force-building problem of ``figures`` against ``build_total``, in rule order
    (HC-2.2, HC-2.3, HC-2.4, HC-3.11); empty for a legal force."""
    problems: list[ForceProblem] = []
    total_problem = _build_total_problem(build_total)
    if total_problem is not None:
        problems.append(total_problem)
    if not figures:
        problems.append(ForceProblem("HC-2.3", "the force has no figures; choose at least one"))
    spent = sum(f.points for f in figures)
    if total_problem is None and spent > build_total:
        listed = " + ".join(f"{f.points} {f.id}" for f in figures)
        problems.append(
            ForceProblem(
                "HC-2.3",
                f"the figures cost {spent} points ({listed}), {spent - build_total} over "
                f"the build total of {build_total}",
            )
        )
    problems.extend(_unique_problems(figures))
    problems.extend(_archenemy_problems(figures))
    return problems


def _unique_problems(figures: Sequence[Figure]) -> list[ForceProblem]:
    copies: dict[str, list[int]] = {}
    for index, figure in enumerate(figures):
        if figure.unique:
            copies.setdefault(figure.id, []).append(index)
    problems = []
    for indices in copies.values():
        if len(indices) > 1:
            figure = figures[indices[0]]
            where = ", ".join(str(i) for i in indices)
            problems.append(
                ForceProblem(
                    "HC-2.4",
                    f"unique figure {_label(figure)} is in the force {len(indices)} times "
                    f"(entries {where}); a unique figure may be taken once per force",
                    tuple(indices),
                )
            )
    return problems


def _archenemy_problems(figures: Sequence[Figure]) -> list[ForceProblem]:
    # Every pair of entries is its own problem, so a file's error points at each entry to
    # remove; the pairs come in the order of their later entry.
    problems = []
    for j, later in enumerate(figures):
        for i in range(j):
            earlier = figures[i]
            if archenemies(earlier, later):
                problems.append(
                    ForceProblem(
                        "HC-3.11",
                        f"{_label(earlier, i)} and {_label(later, j)} "
                        f"are archenemies (both '{later.archenemy_color}', HC-3.10) and "
                        f"may not be on the same force",
                        (i, j),
                    )
                )
    return problems


def check_force(
    figures: Sequence[Figure],
    build_total: int,
    *,
    lines: LineMap | None = None,
    source: str | None = None,
    at: FieldPath = (),
    build_total_at: FieldPath | None = None,
    figure_paths: Sequence[FieldPath] | None = None,
) -> Force:
    """Check one player's force (HC-2.2, HC-2.3, HC-2.4, HC-3.11) and return it.

    From code, pass only ``figures`` and ``build_total``: a broken force raises
    :class:`ForceError`. From a scenario file, pass where the force is written and a broken
    force raises :class:`~envs.core.scenario.ScenarioError` (the other problems in ``others``):

    Args:
        lines: the file's line map; errors then carry its source and lines.
        source: names the text in errors when there is no line map (no lines then).
        at: field path of the force (e.g. ``("players", 0, "force")``): where problems without
            a figure to blame (points total) are reported.
        build_total_at: field path of the build total (default ``at``) for HC-2.2.
        figure_paths: field path of each figure's entry, parallel to ``figures``; a problem
            about figures is reported at its last figure's entry (default ``at``).
    """
    if figure_paths is not None and len(figure_paths) != len(figures):
        raise ValueError(f"figure_paths has {len(figure_paths)} paths for {len(figures)} figures")
    problems = force_problems(figures, build_total)
    if not problems:
        return Force(tuple(figures), build_total)
    if lines is None and source is None:
        raise ForceError(problems)

    def path_of(problem: ForceProblem) -> FieldPath:
        if problem.rule == "HC-2.2":
            return at if build_total_at is None else build_total_at
        if problem.entries and figure_paths is not None:
            return figure_paths[problem.entries[-1]]
        return at

    def error_of(problem: ForceProblem) -> ScenarioError:
        if lines is not None:
            return lines.error(path_of(problem), str(problem))
        return ScenarioError(source or "", str(problem), field=dotted(path_of(problem)) or None)

    errors = [error_of(p) for p in problems]
    first = errors[0]
    raise ScenarioError(
        first.source, first.message, line=first.line, field=first.field, others=errors[1:]
    ) from ForceError(problems)
