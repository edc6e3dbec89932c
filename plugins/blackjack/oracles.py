"""Registers blackjack's oracle (:mod:`croupier.plugins.blackjack.oracle`) without importing it.

The oracle is built on the exact solver, whose import (numba and the dynamic programme)
costs about half a second: every command that loads the plugins would pay it. The oracle's
module is imported when a scored table first makes one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.engine import OracleKind, TableOracle, hookimpl


def new_oracle(options: Mapping[str, Any]) -> TableOracle:
    """A blackjack oracle for a table of these options."""
    from croupier.plugins.blackjack.oracle import BlackjackOracle

    return BlackjackOracle(options)


ORACLE = OracleKind(
    "blackjack",
    "composition-dependent EVs of every play from the shoe left, splits included",
    new_oracle,
    dear_bets=True,
)


@hookimpl
def croupier_oracles() -> tuple[OracleKind, ...]:
    return (ORACLE,)
