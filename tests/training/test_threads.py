"""torch_threads: auto: the thread count chosen by timing the work (training.threads)."""

from __future__ import annotations

import pytest

from training import threads as threads_mod
from training.config import load_config
from training.threads import FIRST_RECHECK, ThreadTuner, TunedBlocks

from .test_config import BASE, write


def play(tuner: ThreadTuner, rounds: int, seconds) -> str:
    """Run ``rounds`` rounds, each taking ``seconds(round, threads)``; the counts used, as text."""
    used = []
    for index in range(rounds):
        count = tuner.threads()
        used.append(str(count))
        tuner.record(seconds(index, count))
    return "".join(used)


def test_the_first_round_warms_up_then_each_count_is_timed_and_the_faster_kept():
    tuner = ThreadTuner((2, 1))
    # the warm-up round is slow whatever its count: it must not decide
    used = play(tuner, 3 + FIRST_RECHECK, lambda i, n: 50.0 if i == 0 else {2: 1.0, 1: 1.4}[n])
    assert used == "221" + "2" * FIRST_RECHECK
    assert tuner.chosen == 2 and tuner.summary()["choices"] == [2]
    assert tuner.summary()["seconds_by_threads"] == {"2": 1.0, "1": 1.4}


def test_a_busy_machine_makes_it_switch_and_a_calm_one_switch_back():
    tuner = ThreadTuner((2, 1))
    busy = range(10, 40)  # another process holds a core: two threads wait on each other

    def seconds(index: int, count: int) -> float:
        return 9.0 if count == 2 and index in busy else {2: 1.0, 1: 1.4}[count]

    used = play(tuner, 80, seconds)
    assert tuner.summary()["choices"][:3] == [2, 1, 1]  # kept 2, then 1 under load
    assert tuner.chosen == 2  # and 2 again once the load went
    assert used[15:35].count("2") <= 2  # a slow count is tried again only now and then


def test_rechecks_come_twice_as_seldom_after_each_confirmation():
    tuner = ThreadTuner((2, 1))
    used = play(tuner, 60, lambda i, n: {2: 1.0, 1: 1.4}[n])
    ones = [i for i, c in enumerate(used) if c == "1"]
    gaps = [b - a for a, b in zip(ones, ones[1:])]
    assert gaps == [FIRST_RECHECK + 1, 2 * FIRST_RECHECK + 1, 4 * FIRST_RECHECK + 1][: len(gaps)]
    assert len(gaps) >= 2


def test_a_single_candidate_never_rechecks():
    tuner = ThreadTuner((1, 1))
    assert tuner.candidates == (1,)
    assert set(play(tuner, 30, lambda i, n: 1.0)) == {"1"}


def test_bad_candidates_are_refused():
    with pytest.raises(ValueError, match="positive ints"):
        ThreadTuner((0, 1))


def test_blocks_of_iterations_are_one_round_each(monkeypatch):
    clock = iter(range(100))
    monkeypatch.setattr(threads_mod.time, "monotonic", lambda: float(next(clock)))
    set_to = []
    monkeypatch.setattr(threads_mod.torch, "set_num_threads", set_to.append)
    tuner = ThreadTuner((2, 1))
    blocks = TunedBlocks(tuner, 4)
    for _ in range(13):  # rounds start at iterations 0, 4, 8 and 12
        blocks.tick()
    assert set_to == [2, 2, 1, 2]  # warm-up, then each count timed, then the faster
    assert tuner.summary()["seconds_by_threads"] == {"2": 1.0, "1": 1.0}


@pytest.mark.parametrize("value, expected", [("auto", "auto"), ("null", None), ("2", 2)])
def test_the_config_takes_auto_null_or_a_count(tmp_path, value, expected):
    config = load_config(write(tmp_path, BASE), [f"torch_threads={value}"])
    assert config.torch_threads == expected


@pytest.mark.parametrize("value", ["0", "fast", "true", "1.5"])
def test_the_config_names_a_bad_thread_count(tmp_path, value):
    with pytest.raises(Exception, match="torch_threads must be 'auto', null or an integer >= 1"):
        load_config(write(tmp_path, BASE), [f"torch_threads={value}"])
