"""Suite-wide test setup: headless rendering and the ``case`` parameter of the conformance suite.

Any test that takes an argument named ``env_case`` runs once per conformance case
(``tests/conformance_cases.py``: every registered env and scenario), with readable ids such as
``heroica_v0[mission=fork,num_players=2]``.
"""

from __future__ import annotations

import os

# "human" rendering (pygame) must work without a display in tests and CI.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def pytest_generate_tests(metafunc):
    if "env_case" in metafunc.fixturenames:
        from tests.conformance_cases import all_cases

        cases = all_cases()
        metafunc.parametrize("env_case", cases, ids=[c.id for c in cases])
