"""The two kernel backends (envs.core.compiled): the ahead-of-time build plays the same games
as numba's JIT, its guard refuses arrays of the wrong type by name, the build command
writes what the runtime checks, and every module with kernels is one the build compiles."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from envs.core import compiled

ROOT = Path(__file__).resolve().parents[2]

# Seeded random games of every env, hashed observation by observation (run in a child so the
# child can take the other backend).
GAMES = """
import hashlib, json, sys
import numpy as np
import envs
from envs.core.compiled import backend
digests = {}
for name, options in [("heroica_v0", {}), ("heroscape_v0", {}),
                      ("heroscape_v0", {"scenario": "highlands_melee"}),
                      ("heroclix_v0", {}), ("heroclix_v0", {"scenario": "brawl"})]:
    env = envs.make(name, **options)
    digest = hashlib.sha256()
    rng = np.random.default_rng(3)
    for seed in range(2):
        env.reset(seed=seed)
        for agent in env.agent_iter(300):
            obs, _, term, trunc, _ = env.last()
            digest.update(obs["observation"].tobytes())
            digest.update(obs["action_mask"].tobytes())
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if term or trunc else int(rng.choice(legal)))
    digests[name + json.dumps(options)] = digest.hexdigest()
print(json.dumps({"backend": backend(), "games": digests}))
"""


def play(backend: str, tmp_path: Path) -> dict:
    environ = dict(
        os.environ,
        **{compiled.BACKEND_VARIABLE: backend, "NUMBA_CACHE_DIR": str(tmp_path / "numba")},
    )
    out = subprocess.run(
        [sys.executable, "-c", GAMES],
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_ahead_of_time_build_plays_the_games_of_the_jit(tmp_path):
    if compiled.backend() != "aot":
        pytest.skip("no current ahead-of-time build (python -m envs.core.build_kernels)")
    aot, jit = play("aot", tmp_path), play("jit", tmp_path)
    assert (aot["backend"], jit["backend"]) == ("aot", "jit")
    assert aot["games"] == jit["games"]


def test_an_aot_process_never_loads_numba(tmp_path):
    if compiled.backend() != "aot":
        pytest.skip("no current ahead-of-time build (python -m envs.core.build_kernels)")
    code = (
        "import sys, numpy as np, envs\n"
        "for name in ('heroica_v0', 'heroscape_v0', 'heroclix_v0'):\n"
        "    env = envs.make(name); env.reset(seed=0)\n"
        "    for _ in range(30):\n"
        "        obs = env.last()[0]\n"
        "        env.step(int(np.flatnonzero(obs['action_mask'])[0]))\n"
        "print(sorted(m for m in ('numba', 'llvmlite') if m in sys.modules))\n"
    )
    environ = dict(os.environ, **{compiled.BACKEND_VARIABLE: "aot"})
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_an_unknown_backend_is_refused_by_name():
    environ = dict(os.environ, **{compiled.BACKEND_VARIABLE: "fast"})
    out = subprocess.run(
        [sys.executable, "-c", "import envs; envs.make('heroica_v0')"],
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
    )
    assert out.returncode != 0
    assert "HEROARENA_KERNELS='fast'" in out.stderr and "auto, aot, jit" in out.stderr


def sample_kernel(cells, costs, budget):
    return cells, costs, budget


def test_the_guard_passes_the_signature_types_and_names_a_wrong_argument():
    spec = compiled.Kernel("tests", "sample_kernel", "unused", sample_kernel)
    guarded = compiled.type_guarded(spec, sample_kernel, [["int32", 1], ["float64", 2], None])
    cells, costs = np.arange(4, dtype=np.int32), np.zeros((2, 3))
    assert guarded(cells, costs, 5)[2] == 5
    readonly = cells.copy()
    readonly.setflags(write=False)
    guarded(readonly, costs, 5)  # read-only arrays are taken: the kernels never write them
    with pytest.raises(TypeError, match=r"'cells' is int64\[1d\].*int32\[1d\]"):
        guarded(cells.astype(np.int64), costs, 5)
    with pytest.raises(TypeError, match=r"'costs' is float64\[1d\].*float64\[2d\]"):
        guarded(cells, costs[0], 5)
    with pytest.raises(TypeError, match=r"'costs' is a non-contiguous float64\[2d\]"):
        guarded(cells, costs[:, ::2], 5)
    with pytest.raises(TypeError, match=r"'cells' is list"):
        guarded([0, 1], costs, 5)


def test_the_guard_checks_every_new_array_after_letting_the_last_one_through():
    spec = compiled.Kernel("tests", "sample_kernel", "unused", sample_kernel)
    guarded = compiled.type_guarded(spec, sample_kernel, [["int32", 1], ["float64", 2], None])
    cells, costs = np.arange(4, dtype=np.int32), np.zeros((2, 3))
    for _ in range(2):  # the second call meets the same objects again
        assert guarded(cells, costs, 5)[0] is cells
    with pytest.raises(TypeError, match=r"'cells' is int64\[1d\]"):
        guarded(cells.astype(np.int64), costs, 5)
    with pytest.raises(TypeError, match=r"'costs' is a non-contiguous float64\[2d\]"):
        guarded(cells, np.zeros((2, 6))[:, ::2], 5)
    assert guarded(cells, costs, 7)[2] == 7


def test_every_module_with_kernels_is_built():
    package = ROOT / "envs"
    found = set()
    for path in package.rglob("*.py"):
        if re.search(r"^@kernel(\(|_helper$)", path.read_text(), re.MULTILINE):
            found.add(".".join(path.relative_to(ROOT).with_suffix("").parts))
    assert found == set(compiled.KERNEL_MODULES)


@pytest.mark.slow
def test_the_build_command_writes_the_extension_and_its_manifest(tmp_path):
    code = (
        "import sys; from pathlib import Path\n"
        "from envs.core.build_kernels import build\n"
        "print(build(Path(sys.argv[1])).name)\n"
    )
    environ = dict(
        os.environ,
        **{compiled.BACKEND_VARIABLE: "jit", "NUMBA_CACHE_DIR": str(tmp_path / "numba")},
    )
    out_dir = tmp_path / "build"
    out_dir.mkdir()
    out = subprocess.run(
        [sys.executable, "-c", code, str(out_dir)],
        capture_output=True,
        text=True,
        env=environ,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr
    extension = out_dir / out.stdout.strip().splitlines()[-1]
    assert extension.name.startswith(compiled.EXTENSION) and extension.stat().st_size > 0
    manifest = json.loads((out_dir / compiled.MANIFEST.name).read_text())
    for module in compiled.KERNEL_MODULES:
        source = ROOT.joinpath(*module.split(".")).with_suffix(".py").read_bytes()
        assert manifest["sources"][module] == hashlib.sha256(source).hexdigest()
    for module in compiled.KERNEL_MODULES:  # registers every kernel in this process too
        importlib.import_module(module)
    assert set(manifest["args"]) == {spec.exported for spec in compiled.REGISTRY.values()}
    assert manifest["args"]["core_kernels__search_modes"][1] == ["int64", 1]
