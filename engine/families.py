"""Families of contributions: which hook plugins implement, what it is called, and what
each contribution must be.

The engine declares the families every game shares (randomizers, randomizer languages,
solvers, games, count systems). A plugin may declare families of its own that other
plugins fill (``croupier_families``): blackjack declares its dealer rules, betting schemes,
rule sets, strategies and simulator kernels, so the engine names none of them. A family
brings its hook specification (``specs``: a module or class whose functions carry
croupier's ``hookspec`` marker), and its registry is ``manager.registry(hook)``, or
``manager.<attribute>`` when the family names an attribute.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs


@attrs.frozen
class Family:
    """One family: ``name`` is its hook (``croupier_dealer_rules``)."""

    name: str
    summary: str
    """What one contribution is called in messages and listings (``dealer rules``)."""
    kind: type | None = None
    """What every contribution must be an instance of (``croupier plugins --check``)."""
    attribute: str | None = None
    """``manager.<attribute>`` is the family's registry (``dealer_rules``)."""
    specs: Any = None
    """The module or class holding the hook's specification (None: the engine's own)."""
    check: Callable[[Any, Any], list[str]] | None = None
    """``check(manager, item)``: the family's own checks of one contribution for
    ``croupier plugins --check`` (one line per problem; a rule set must make a table)."""
