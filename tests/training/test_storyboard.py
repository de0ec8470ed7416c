"""training.storyboard: a decision's beat comes from its events, dice and the scoreboard; a
length cap drops routine frames first, then ordinary ones, evenly, and never a roll, a fall
or the ends, shrinking what is kept (to a floor) only when that alone is too long."""

from __future__ import annotations

import pytest

from training.storyboard import (
    FLOOR_SECONDS,
    SECONDS,
    Beat,
    beat_of,
    plan,
    sample_evenly,
)


def test_beats_follow_what_the_decision_shows():
    assert beat_of(["ko"], (), forced=False, score_changed=False) is Beat.DECISIVE
    assert beat_of(["move"], (), forced=False, score_changed=True) is Beat.DECISIVE
    assert beat_of(["game_over"], (), forced=True, score_changed=False) is Beat.DECISIVE
    assert beat_of(["attack"], ("6", "2"), forced=False, score_changed=False) is Beat.ROLL
    assert beat_of(["roll"], ("sword",), forced=True, score_changed=False) is Beat.ROLL
    assert beat_of(["move"], (), forced=False, score_changed=False) is Beat.PLAY
    assert beat_of(["move"], (), forced=True, score_changed=False) is Beat.ROUTINE
    assert beat_of([], (), forced=False, score_changed=False) is Beat.ROUTINE  # a selection
    for routine in ("card", "end_turn", "pass"):
        assert beat_of([routine], (), forced=False, score_changed=False) is Beat.ROUTINE


def test_sample_evenly_keeps_the_ends_and_spreads_the_rest():
    assert sample_evenly(5, 10) == [0, 1, 2, 3, 4]
    assert sample_evenly(5, 0) == []
    for count, keep in [(424, 116), (10, 2), (11, 3), (1000, 999)]:
        picked = sample_evenly(count, keep)
        assert len(picked) == keep and picked[0] == 0 and picked[-1] == count - 1
        gaps = {b - a for a, b in zip(picked, picked[1:])}
        assert min(gaps) >= 1 and max(gaps) - min(gaps) <= 1


BEATS = (
    [Beat.DECISIVE]
    + [Beat.ROUTINE, Beat.PLAY, Beat.ROUTINE, Beat.ROLL, Beat.PLAY, Beat.ROUTINE] * 10
    + [Beat.DECISIVE, Beat.DECISIVE]
)
FRAMES = list(range(len(BEATS)))


def seconds(shots) -> float:
    return sum(shot.seconds for shot in shots)


def test_uncapped_every_frame_keeps_its_beats_time_and_the_ends_are_decisive():
    shots = plan(FRAMES, [Beat.ROUTINE] + BEATS[1:-1] + [Beat.PLAY])
    assert [s.frame for s in shots] == FRAMES
    assert shots[0].beat is shots[-1].beat is Beat.DECISIVE
    assert [s.seconds for s in shots[1:-1]] == [SECONDS[b] for b in BEATS[1:-1]]


def test_a_cap_drops_routine_frames_first_evenly():
    full = seconds(plan(FRAMES, BEATS))
    routine = [i for i, b in enumerate(BEATS) if b is Beat.ROUTINE]
    shots = plan(FRAMES, BEATS, max_seconds=full - 10 * SECONDS[Beat.ROUTINE])
    kept = {s.frame for s in shots}
    assert kept == set(FRAMES) - (set(routine) - kept)  # only routine frames went
    gone = [i for i in routine if i not in kept]
    assert len(gone) == 10 and seconds(shots) <= full - 10 * SECONDS[Beat.ROUTINE] + 1e-9
    assert max(gone) - min(gone) > len(FRAMES) // 2  # spread over the game, not the start


def test_a_tighter_cap_then_drops_ordinary_frames_and_never_a_roll_or_a_fall():
    key = {i for i, b in enumerate(BEATS) if b >= Beat.ROLL}
    shots = plan(FRAMES, BEATS, max_seconds=30.0)  # 42 s uncapped, 9 of them routine
    kept = {s.frame for s in shots}
    assert key <= kept and not any(BEATS[i] is Beat.ROUTINE for i in kept)
    plays = [i for i, b in enumerate(BEATS) if b is Beat.PLAY]
    assert 0 < len([i for i in plays if i not in kept]) < len(plays)  # some ordinary ones went
    assert seconds(shots) <= 30.0 + 1e-9
    assert {0, len(FRAMES) - 1} <= kept


def test_rolls_and_falls_alone_past_the_cap_shrink_to_their_floor_and_are_all_kept():
    key = [i for i, b in enumerate(BEATS) if b >= Beat.ROLL]
    squeezed = plan(FRAMES, BEATS, max_seconds=20.0, tick=0.1)
    assert [s.frame for s in squeezed] == key
    assert seconds(squeezed) <= 20.0 + 1e-9
    assert all(s.seconds < SECONDS[s.beat] for s in squeezed)
    floored = plan(FRAMES, BEATS, max_seconds=1.0, tick=0.1)  # shorter than the floors allow
    assert [s.frame for s in floored] == key
    assert all(s.seconds == pytest.approx(FLOOR_SECONDS[s.beat]) for s in floored)


def test_shots_last_whole_ticks_so_the_written_video_keeps_the_cap():
    for cap in (15.0, 21.3, 33.3):
        shots = plan(FRAMES, BEATS, max_seconds=cap, tick=0.1)
        assert all(abs(s.seconds * 10 - round(s.seconds * 10)) < 1e-6 for s in shots)
        assert sum(round(s.seconds * 10) for s in shots) <= cap * 10 + 1e-6


def test_frames_and_beats_must_pair_up():
    with pytest.raises(ValueError, match="3 frames but 2 beats"):
        plan([0, 1, 2], [Beat.PLAY, Beat.PLAY])
