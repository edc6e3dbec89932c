"""Rules and a strategy as the kernel's arrays, or the reason the kernel cannot play them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from croupier.engine import BlackjackRules, PluginManager, Strategy
from croupier.engine.kernels import LETTERS, KernelJob, PlayTable, play_table

DEALERS = {"s17": 0, "h17": 1}
DOUBLE = {"any": 0, "9-11": 1, "10-11": 2, "none": 3}


def rules_vector(rules: BlackjackRules) -> list[int]:
    """The kernel's rules vector (see ``kernel.DECKS`` ... ``kernel.DEN``)."""
    assert rules.decks is not None
    cut = max(1, int(rules.decks * 52 * rules.penetration))  # as the engine's Shoe
    pays = rules.blackjack_pays
    return [
        rules.decks,
        cut,
        DEALERS[rules.dealer],
        DOUBLE[rules.double],
        int(rules.double_after_split),
        rules.max_split_hands,
        int(rules.resplit_aces),
        int(rules.hit_split_aces),
        int(rules.surrender != "none"),
        int(rules.peek),
        rules.min_bet,
        pays.numerator,
        pays.denominator,
        int(rules.shoe == "fresh-pack"),
    ]


def chart_array(table: PlayTable) -> list[list[list[int]]]:
    """``[hard, soft, pairs]``, 22 rows of 10 letter codes each (unused rows: stand)."""
    code = {letter: i for i, letter in enumerate(LETTERS)}
    out = [[[1] * 10 for _ in range(22)] for _ in range(3)]
    for k, rows in enumerate((table.hard, table.soft, table.pairs)):
        for key, row in rows.items():
            out[k][key] = [code[x] for x in row]
    return out


def why_not(rules: BlackjackRules, strategy: Strategy) -> str | None:
    """Why the kernel cannot play these exactly as the Python engine would, or None."""
    if rules.decks is None:
        return "an infinite deck is the solver's, not a table's"
    if rules.shoe not in ("casino", "fresh-pack"):
        return f"the {rules.shoe!r} shoe is played in Python"
    if rules.dealer not in DEALERS:
        return f"the dealer rule {rules.dealer!r} has no compiled form"
    if rules.betting != "casino":
        return f"the betting scheme {rules.betting!r} has no compiled form"
    if play_table(strategy) is None:
        return f"strategy {strategy.name!r} is not given as a chart"
    return None


def prepare(
    manager: PluginManager, rules: BlackjackRules, strategy: Strategy, seats: int
) -> KernelJob | str:
    """The kernel's job for these (``strategy`` already made for the rules), or why not."""
    reason = why_not(rules, strategy)
    if reason is not None:
        return reason
    # built-ins keep their names (a plugin's clashing contribution is skipped), so 's17'
    # and 'casino' are the built-in rules the kernel compiles
    table = play_table(strategy)
    assert table is not None
    data = (rules_vector(rules), chart_array(table), seats)
    from croupier.plugins.blackjack_kernel.kernel import FIELDS

    return KernelJob(run_chunk, data, FIELDS)


def run_chunk(data: Any, seed: int, rounds: int) -> Sequence[int]:
    """Play one chunk (in whatever process this runs in)."""
    import numpy as np

    from croupier.plugins.blackjack_kernel.kernel import play_chunk

    rules, chart, seats = data
    out = play_chunk(
        np.asarray(rules, np.int64), np.asarray(chart, np.int64), np.uint64(seed), rounds, seats
    )
    return [int(x) for x in out]
