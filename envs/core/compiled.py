"""Compiled kernels: machine code built ahead of time when it is there, numba's JIT otherwise.

A kernel module marks each function Python calls with ``@kernel("numba signature")`` and
each function only kernels call with ``@kernel_helper``. Two ways to run them:

- **ahead of time** (AOT): ``python -m envs.core.build_kernels`` (``make`` runs it when it
  sets up ``.venv`` and whenever a kernel module changes) compiles every kernel of
  :data:`KERNEL_MODULES` with ``numba.pycc`` into one extension module,
  ``envs/_compiled_kernels*.so``, and a manifest of the sources it was built from. A process that finds both, built from the kernel sources as they are now,
  calls that machine code and never imports numba or LLVM: about 120 MiB less per process
  and no compile on a cold cache.
- **just in time** (JIT): otherwise ``numba.njit(cache=True)``, compiled on first use and
  cached on disk.

``HEROARENA_KERNELS=jit`` forces the JIT, ``=aot`` makes a missing or stale build an error
rather than a fallback, ``=auto`` (default) takes the build when it is current and falls
back to the JIT otherwise (with a warning when a build is there but no longer matches the
sources).
``NUMBA_DISABLE_JIT=1`` runs the kernels as plain Python (JIT backend only).

The compiled code takes exactly the types of its signature and would misread anything else,
so each AOT kernel is called through a guard that checks every array's dtype, rank and
layout and raises :class:`TypeError` naming the argument (an array object passed again
in the same place is let through by identity: see :func:`type_guarded`). Every kernel also has a
plain-Python reference in the tests that it must match on random inputs, whichever backend
runs it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

KERNEL_MODULES = (
    "envs.core.kernels",
    "envs.core.hexsight_pairs",
    "envs.core.doublemove",
    "envs.core.firekernel",
    "envs.heroscape.reach",
    "envs.heroscape.view.stamp",
    "envs.heroclix.view.stamp",
    "envs.heroclix.reach",
)
"""Every module holding kernels, in the order the build imports them."""

BACKEND_VARIABLE = "HEROARENA_KERNELS"
BACKENDS = ("auto", "aot", "jit")
EXTENSION = "_compiled_kernels"  # the extension module's name, inside the ``envs`` package
PACKAGE_DIR = Path(__file__).resolve().parent.parent
MANIFEST = PACKAGE_DIR / f"{EXTENSION}.json"


@dataclass(frozen=True)
class Kernel:
    """One function Python calls, as registered by :func:`kernel`."""

    module: str
    name: str
    signature: str
    function: Callable

    @property
    def exported(self) -> str:
        """Its name in the extension module: ``core_kernels__search_modes``."""
        return self.module.removeprefix("envs.").replace(".", "_") + "__" + self.name


REGISTRY: dict[str, Kernel] = {}
"""Every kernel registered so far, by ``module.name``."""


class KernelBuildError(RuntimeError):
    """``HEROARENA_KERNELS=aot`` and no current ahead-of-time build."""


def source_digest(module: str) -> str:
    """sha256 of a kernel module's source file (the build records one per module)."""
    path = PACKAGE_DIR.joinpath(*module.split(".")[1:]).with_suffix(".py")
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _requested_backend() -> str:
    value = os.environ.get(BACKEND_VARIABLE, "auto").strip().lower() or "auto"
    if value not in BACKENDS:
        raise ValueError(f"{BACKEND_VARIABLE}={value!r}: expected one of {', '.join(BACKENDS)}")
    return value


def _runtime_tag() -> str:
    """What the build must match: Python, numpy, and the CPU it was compiled for (the build
    targets the host's instruction set, as the JIT does)."""
    import platform

    import numpy

    cpu = hashlib.sha256(_cpu_flags().encode()).hexdigest()[:12]
    return (
        f"python {sys.version_info.major}.{sys.version_info.minor}, numpy {numpy.__version__}, "
        f"{platform.machine()} cpu {cpu}"
    )


def _cpu_flags() -> str:
    """The CPU's feature flags where Linux lists them (elsewhere the machine name alone)."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith(("flags", "Features")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


@functools.cache
def _aot_build() -> tuple[Any, dict] | None:
    """(extension module, manifest) when a current build is there; None when the JIT runs.
    Decided once per process: every kernel runs on the same backend, so a JIT kernel never
    calls an AOT one."""
    requested = _requested_backend()
    if requested == "jit":
        return None
    manifest, problem = _current_manifest()
    if manifest is not None:
        import importlib

        try:
            return importlib.import_module(f"envs.{EXTENSION}"), manifest
        except ImportError as error:
            problem = f"envs.{EXTENSION} does not import: {error}"
    if requested == "aot":
        raise KernelBuildError(
            f"{BACKEND_VARIABLE}=aot but {problem}; build the kernels with "
            "`python -m envs.core.build_kernels`"
        )
    if MANIFEST.exists():  # a build that no longer matches: worth saying once, not an error
        warnings.warn(
            f"compiled kernels not used: {problem}; running them on numba's JIT "
            "(rebuild with `python -m envs.core.build_kernels`, or `make`)",
            RuntimeWarning,
            stacklevel=3,
        )
    return None


def _current_manifest() -> tuple[dict | None, str]:
    """(the build's manifest, "") when the ahead-of-time build is current; else (None, why
    it cannot be used)."""
    if not MANIFEST.exists():
        return None, f"{MANIFEST.name} is missing (the kernels were not built ahead of time)"
    try:
        manifest = json.loads(MANIFEST.read_text())
        built = manifest["sources"]
        runtime = manifest["runtime"]
    except (ValueError, KeyError, TypeError) as error:
        return None, f"{MANIFEST} is unreadable: {error!r}"
    if runtime != _runtime_tag():
        return None, f"the build is for {runtime}, this process runs {_runtime_tag()}"
    for module in KERNEL_MODULES:
        if built.get(module) != source_digest(module):
            return None, f"{module} changed since the kernels were built"
    return manifest, ""


def backend() -> str:
    """``"aot"`` or ``"jit"``: how this process runs its kernels."""
    return "aot" if _aot_build() is not None else "jit"


def kernel(signature: str) -> Callable[[F], F]:
    """Register a kernel Python calls; ``signature`` is numba's, e.g.
    ``"int64[::1](int32[::1], int64)"`` (arrays C-contiguous). Returns the AOT function behind
    its type guard, or the numba dispatcher."""

    def register(function: F) -> F:
        spec = Kernel(function.__module__, function.__name__, signature, function)
        REGISTRY[f"{spec.module}.{spec.name}"] = spec
        build = _aot_build()
        if build is None:
            return _jit(function)
        extension, manifest = build
        guarded = type_guarded(
            spec, getattr(extension, spec.exported), manifest["args"][spec.exported]
        )
        return cast(F, guarded)

    return register


def kernel_helper(function: F) -> F:
    """A function only kernels call: compiled into them (AOT) or jitted (JIT)."""
    return function if _aot_build() is not None else _jit(function)


def _jit(function: F) -> F:
    from numba import njit

    return cast(F, njit(cache=True)(function))


def type_guarded(spec: Kernel, compiled: Callable, args: list) -> Callable:
    """``compiled`` behind a check of each array argument: dtype, rank, C layout.

    ``args``: per parameter, ``[dtype, ndim]`` for an array or None for a scalar (the build
    writes them from the signature). The check is generated as straight-line code. Each
    parameter remembers the last array that passed and lets that same object through with
    one identity test: most calls pass the game's tables and the state's arrays again, and
    the full check cost about 0.1 us an array (a third of the observation kernels' whole
    call). An array object cannot change its dtype, rank or layout in place unless code
    assigns its ``shape``, ``dtype`` or ``strides`` or calls ``resize``, which nothing in
    ``envs`` does; the remembered object is held, so its identity is never reused."""
    import numpy as np

    names = list(spec.function.__code__.co_varnames[: spec.function.__code__.co_argcount])
    if len(names) != len(args):
        raise TypeError(f"{spec.module}.{spec.name}: the build has {len(args)} parameters")
    scope: dict[str, Any] = {"_compiled": compiled, "_bad": _bad_argument(spec, names, args)}
    checks = []
    passed = []
    for index, (name, arg) in enumerate(zip(names, args)):
        if arg is None:
            continue
        dtype, ndim = arg
        scope[f"_dtype{index}"] = np.dtype(dtype)
        scope[f"_passed{index}"] = None
        passed.append(f"_passed{index}")
        checks.append(
            f"    if {name} is not _passed{index}:\n"
            f"        if ({name}.__class__ is not _ndarray or {name}.dtype is not _dtype{index} "
            f"or {name}.ndim != {ndim} or not {name}.flags.c_contiguous):\n"
            f"            _bad({index}, {name})\n"
            f"        _passed{index} = {name}\n"
        )
    scope["_ndarray"] = np.ndarray
    params = ", ".join(names)
    source = f"def {spec.name}({params}):\n"
    if passed:
        source += f"    global {', '.join(passed)}\n"
    source += "".join(checks) + f"    return _compiled({params})\n"
    exec(compile(source, f"<kernel {spec.module}.{spec.name}>", "exec"), scope)
    guarded = scope[spec.name]
    guarded.__doc__ = spec.function.__doc__
    guarded.__module__ = spec.module
    guarded.py_func = spec.function
    return guarded


def _bad_argument(spec: Kernel, names: list[str], args: list) -> Callable[[int, Any], None]:
    def bad(index: int, value: Any) -> None:
        import numpy as np

        dtype, ndim = args[index]
        if isinstance(value, np.ndarray):
            if value.dtype == np.dtype(dtype) and value.ndim == ndim:
                if value.flags.c_contiguous:
                    return  # an equal dtype that is not the canonical object: fine
                got = f"a non-contiguous {value.dtype}[{value.ndim}d] array"
            else:
                got = f"{value.dtype}[{value.ndim}d]"
        else:
            got = type(value).__name__
        raise TypeError(
            f"{spec.module}.{spec.name}: argument {names[index]!r} is {got}; the compiled "
            f"kernel takes a C-contiguous {dtype}[{ndim}d] array"
        )

    return bad
