"""``python -m envs.core.build_kernels``: compile every kernel ahead of time.

Imports each module of :data:`envs.core.compiled.KERNEL_MODULES` with the JIT backend (so
helpers are numba functions the exports can call), exports each registered kernel under its
signature with ``numba.pycc`` into the extension module ``envs/_compiled_kernels*.so`` and
writes the manifest beside it: the sha256 of each kernel module's source, the Python, numpy
and CPU it was built for (the code targets this machine's instruction set, as the JIT's
does), and each export's array parameters (what the runtime guard checks).
Both files are replaced only once the build has succeeded. Needs a C compiler; where there
is none, the kernels stay on the JIT (:mod:`envs.core.compiled`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from envs.core import compiled


def array_parameters(signature: str) -> list:
    """Per parameter of a numba signature: ``[dtype name, ndim]`` for an array (which must
    be C-contiguous), None for a scalar."""
    import numpy as np
    from numba.core import sigutils, types
    from numba.np.numpy_support import as_dtype

    args, _ = sigutils.normalize_signature(signature)
    out: list[list | None] = []
    for arg in args:
        if isinstance(arg, types.Array):
            if arg.layout != "C":
                raise ValueError(f"{signature}: array {arg} must be C-contiguous ([::1])")
            out.append([np.dtype(as_dtype(arg.dtype)).name, arg.ndim])
        elif isinstance(arg, (types.Integer, types.Float, types.Boolean)):
            out.append(None)
        else:
            raise ValueError(f"{signature}: parameter type {arg} is neither array nor scalar")
    return out


@contextlib.contextmanager
def host_features() -> Iterator[None]:
    """numba's ahead-of-time codegen gives LLVM the CPU's name and no feature list, so the code
    may use every instruction that name implies. A virtual machine often hides some of them
    (an AMD EPYC guest reporting ``znver4`` without AVX-512), and such a build dies of SIGILL
    at its first call. The JIT passes the features the CPU really has; so does the build,
    through the one hook numba's codegen offers (answered as the JIT's codegen answers it,
    numba's feature settings included), for the length of the build only."""
    from numba.core import codegen

    original = codegen.AOTCPUCodegen._customize_tm_features
    codegen.AOTCPUCodegen._customize_tm_features = (  # type: ignore[method-assign]
        codegen.JITCPUCodegen._customize_tm_features  # type: ignore[assignment]
    )
    try:
        yield
    finally:
        codegen.AOTCPUCodegen._customize_tm_features = original  # type: ignore[method-assign]


def build(output_dir: Path = compiled.PACKAGE_DIR, verbose: bool = False) -> Path:
    """Compile every kernel into ``output_dir``; returns the extension module's path."""
    if compiled.REGISTRY and compiled.backend() != "jit":
        raise RuntimeError("build in a process whose kernels run on the JIT backend")
    os.environ[compiled.BACKEND_VARIABLE] = "jit"
    from numba.pycc import CC

    for module in compiled.KERNEL_MODULES:
        importlib.import_module(module)
    from llvmlite import binding

    extension = CC(compiled.EXTENSION)
    extension.verbose = verbose
    # For this machine's CPU, as numba's JIT compiles (the build runs where it is used)
    extension.target_cpu = binding.get_host_cpu_name()
    parameters = {}
    for spec in compiled.REGISTRY.values():
        extension.export(spec.exported, spec.signature)(spec.function)
        parameters[spec.exported] = array_parameters(spec.signature)
    manifest = {
        "runtime": compiled._runtime_tag(),
        "sources": {m: compiled.source_digest(m) for m in compiled.KERNEL_MODULES},
        "args": parameters,
    }
    with tempfile.TemporaryDirectory() as scratch, host_features():
        extension.output_dir = scratch
        extension.compile()
        (built,) = Path(scratch).glob(f"{compiled.EXTENSION}*")
        target = output_dir / built.name
        for stale in output_dir.glob(f"{compiled.EXTENSION}*"):
            stale.unlink()
        shutil.move(str(built), target)
    (output_dir / compiled.MANIFEST.name).write_text(json.dumps(manifest, indent=1) + "\n")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m envs.core.build_kernels", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--verbose", action="store_true", help="print the compiler's steps")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        target = build(verbose=args.verbose)
    except Exception as error:  # no compiler, a kernel that does not type: say so, keep JIT
        print(f"kernels not built ahead of time ({error}); they will run on numba's JIT")
        return 1
    print(
        f"built {len(compiled.REGISTRY)} kernels into {target.name} "
        f"in {time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
