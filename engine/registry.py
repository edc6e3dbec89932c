"""Registries: what plugins contributed to one family, keyed by name."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

import attrs

from croupier.engine.errors import DuplicateNameError, UnknownNameError

T = TypeVar("T")


@attrs.frozen
class Entry(Generic[T]):
    """One contribution and the plugin it came from."""

    name: str
    item: T
    plugin: str


class Registry(Generic[T]):
    """Contributions of one family (``family`` is its name in messages, e.g. "solver")."""

    def __init__(self, family: str) -> None:
        self.family = family
        self._entries: dict[str, Entry[T]] = {}

    def add(self, name: str, item: T, plugin: str) -> None:
        """Add ``item`` under ``name``; a name taken by another contribution is an error."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"{self.family} names must be non-empty strings, not {name!r}")
        if name in self._entries:
            raise DuplicateNameError(self.family, name, self._entries[name].plugin, plugin)
        self._entries[name] = Entry(name, item, plugin)

    def get(self, name: str) -> T:
        """The contribution called ``name``, or an error listing the known names."""
        try:
            return self._entries[name].item
        except KeyError:
            raise UnknownNameError(self.family, name, self._entries) from None

    def entry(self, name: str) -> Entry[T]:
        self.get(name)
        return self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[T]:
        return (e.item for e in self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def names(self) -> list[str]:
        return list(self._entries)

    def entries(self) -> list[Entry[T]]:
        return list(self._entries.values())
