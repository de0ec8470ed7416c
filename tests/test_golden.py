"""Golden playthroughs (DESIGN.md, Testing): a seeded game's transcript is stored in
``tests/golden``; any change in the rules, action names or event texts shows up as a diff.

After an intended change, regenerate and review the diff: ``python -m envs.transcript --write``.
"""

from __future__ import annotations

import pytest

from envs.transcript import GOLDENS, REGENERATE, diff, transcript


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.path.name for g in GOLDENS])
def test_golden_transcript(golden):
    assert golden.path.exists(), f"{golden.path} is missing; create it with: {REGENERATE}"
    stored = golden.path.read_text()
    now = golden.transcript()
    if now != stored:
        pytest.fail(
            f"{golden.path.name} no longer matches a fresh transcript "
            f"(env {golden.env_name}, seed {golden.seed}, options {golden.options}).\n"
            f"If the change is intended, regenerate with: {REGENERATE}\n\n"
            f"{diff(stored, now, golden.path.name)}",
            pytrace=False,
        )


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.path.name for g in GOLDENS])
def test_golden_game_is_short_and_finished(golden):
    text = golden.path.read_text() if golden.path.exists() else golden.transcript()
    assert len(text.splitlines()) < 600, "keep golden games short enough to read"
    assert "# returns:" in text and "# stopped after" not in text


def test_transcript_is_deterministic_and_seed_dependent():
    options = {"mission": "tunnel", "num_players": 2, "max_rounds": 5}
    first = transcript("heroica_v0", 1, options)
    assert transcript("heroica_v0", 1, options) == first
    assert transcript("heroica_v0", 2, options) != first


def test_transcript_with_bots():
    class FirstLegal:
        name = "first"

        def act(self, game, state, rng):
            return game.legal_actions(state)[0]

    options = {"mission": "arena", "num_players": 2, "max_rounds": 3}
    text = transcript("heroica_v0", 0, options, bots=FirstLegal())
    assert "# play: bots first, first" in text
    assert text == transcript("heroica_v0", 0, options, bots=[FirstLegal(), FirstLegal()])
