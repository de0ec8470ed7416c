"""by_identity: a memo keyed by the identity of the objects passed, never by their value."""

from __future__ import annotations

import numpy as np

from envs.core.lru import LRU, by_identity


def test_by_identity_builds_once_per_object_and_again_for_an_equal_copy():
    cache: LRU = LRU(4)
    table = np.arange(6).reshape(2, 3)
    built = []

    def build(value):
        built.append(value)
        return value * 2

    first = by_identity(cache, (table, None), lambda: build(table))
    assert by_identity(cache, (table, None), lambda: build(table)) is first
    assert len(built) == 1
    twin = table.copy()  # equal values, another object: built again
    by_identity(cache, (twin, None), lambda: build(twin))
    assert len(built) == 2
    for k in range(10):  # evicted entries are rebuilt, not lost
        by_identity(cache, (np.zeros(k),), lambda: 0)
    by_identity(cache, (table, None), lambda: build(table))
    assert len(built) == 3
