"""The randomizer extension point: things that deal symbols from a seeded stream.

A plugin contributes :class:`RandomizerKind` objects (a named randomizer, such as a preset
or ``tgm3``) and/or :class:`RandomizerLanguage` objects (a parser that turns spec text into
a randomizer, such as the Blackjack language). Both end in a *factory*: a function that
takes a :class:`~croupier.engine.seeds.Stream` and returns a fresh :class:`Randomizer`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import attrs

from croupier.engine.seeds import Stream


@runtime_checkable
class Randomizer(Protocol):
    """A stateful dealer of symbols.

    ``symbols`` lists every symbol it can ever deal (in display order); ``deal(n)`` returns
    the next ``n`` symbols. Dealing ``a`` then ``b`` symbols gives the same sequence as
    dealing ``a + b`` at once, so callers may batch freely.
    """

    @property
    def symbols(self) -> tuple[str, ...]: ...

    def deal(self, n: int) -> list[str]: ...


RandomizerFactory = Callable[[Stream], Randomizer]
"""Builds a randomizer from the seeded stream it draws from."""


@attrs.frozen
class RandomizerKind:
    """A randomizer known by name.

    ``spec`` is the equivalent text in a randomizer language when there is one (presets),
    shown to users so they can see what a name means.
    """

    name: str
    summary: str
    factory: RandomizerFactory
    spec: str | None = None


@attrs.frozen
class RandomizerLanguage:
    """A parser of randomizer spec text.

    ``parse(text)`` returns a factory when the text is in this language, ``None`` when it is
    clearly not (so the next language may try), and raises
    :class:`~croupier.engine.errors.SpecError` when it is this language but wrong.
    """

    name: str
    summary: str
    parse: Callable[[str], RandomizerFactory | None]
