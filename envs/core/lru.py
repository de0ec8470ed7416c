"""The one bounded memo of the rules core: a mapping that forgets its least recently used entry.

Games and the core memoise costly pure queries (movement searches, line-of-sight tables) on
keys such as an occupancy's bytes; such keys never repeat exactly in the long run, so a plain
dict grows with every game an env plays, and clearing one when it is full throws away the hot
entries with the cold. :class:`LRU` holds at most ``maxsize`` entries and drops the one used
longest ago, so a long-lived env keeps a fixed footprint and the entries of the current
position survive. Function memos use ``functools.lru_cache`` with a declared ``maxsize``, the
same policy.

A memo is a performance cache only: what it forgets is recomputed, never changed, so no bound
can change play.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

__all__ = ["LRU", "named_lru", "by_identity"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
_MISSING = object()


class LRU(Generic[K, V]):
    """At most ``maxsize`` entries; reading or writing an entry makes it the most recent."""

    __slots__ = ("maxsize", "_data")

    def __init__(self, maxsize: int) -> None:
        if isinstance(maxsize, bool) or not isinstance(maxsize, int) or maxsize < 1:
            raise ValueError(f"maxsize must be a positive integer, got {maxsize!r}")
        self.maxsize = maxsize
        self._data: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K, default: V | None = None) -> V | None:
        data = self._data
        value = data.get(key, _MISSING)
        if value is _MISSING:
            return default
        data.move_to_end(key)
        return value  # type: ignore[return-value]

    def __getitem__(self, key: K) -> V:
        value = self._data[key]
        self._data.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        data = self._data
        data[key] = value
        data.move_to_end(key)
        if len(data) > self.maxsize:
            data.popitem(last=False)

    def get_or_build(self, key: K, build: Callable[[], V]) -> V:
        """The entry for ``key``, built (and stored) by ``build()`` when missing."""
        value = self.get(key, _MISSING)  # type: ignore[arg-type]
        if value is _MISSING:
            value = self[key] = build()
        return value  # type: ignore[return-value]

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def clear(self) -> None:
        self._data.clear()

    def __repr__(self) -> str:
        return f"LRU({len(self._data)}/{self.maxsize})"


def named_lru(store: dict, name: str, maxsize: int) -> LRU:
    """The LRU under ``name`` in ``store`` (a game's dict of caches), made on first use."""
    cache = store.get(name)
    if cache is None:
        cache = store[name] = LRU(maxsize)
    return cache


def by_identity(cache: LRU, objects: tuple, build: Callable[[], V]) -> V:
    """``build()`` memoised in ``cache`` by the identity of ``objects`` (read-only tables, a
    board: what a game passes again and again). The key is their ids; the entry holds the
    objects, so an id stays theirs while it is cached, and a hit is checked object by object."""
    key = tuple(id(o) for o in objects)
    hit = cache.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], objects)):
        return hit[1]
    value = build()
    cache[key] = (objects, value)
    return value
