"""Rules and a strategy as the kernel's arrays, or the reason the kernel cannot play them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from croupier.engine import KernelJob, PluginManager
from croupier.plugins.blackjack.building import resolve_rules
from croupier.plugins.blackjack.kernel.fields import FIELDS
from croupier.plugins.blackjack.kernels import LETTERS, PlayTable, play_table
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.strategy import Strategy
from croupier.plugins.blackjack.tablerules import BettingScheme, DealerRule

DEALERS = {"s17": 0, "h17": 1}
DOUBLE = {"any": 0, "9-11": 1, "10-11": 2, "none": 3}
TARGETS = range(0, 22)
"""The players' best totals a dealer rule is asked about (0: no live hand)."""


def compiled_dealer(manager: PluginManager, name: str) -> int | None:
    """The kernel's code for dealer rule ``name``: a built-in casino dealer, or any rule
    (a plugin's) that draws exactly as one of them, whatever the players hold, with the
    casino's round (a player's 21 stands, no drawing once every hand is decided).
    Checked over every total the dealer can hold, so a rule is compiled only when its
    play is the same; None when it is not."""
    rule = cast(DealerRule, manager.dealer_rules.get(name))
    if rule.player_21 != "stand" or rule.plays_out:
        return None
    for builtin, code in DEALERS.items():
        casino = cast(DealerRule, manager.dealer_rules.get(builtin))
        if all(
            bool(rule.hits(total, soft, target)) == bool(casino.hits(total, soft, 0))
            for total in range(2, 22)
            for soft in (False, True)
            for target in TARGETS
            if not (soft and total < 12)
        ):
            return code
    return None


def compiled_betting(manager: PluginManager, name: str) -> bool:
    """Whether betting scheme ``name`` (a plugin's too) settles exactly as the casino's:
    a bet asked each round, no raises, naturals paid, and the same outcome for every
    player total and natural against every dealer total and natural."""
    scheme = cast(BettingScheme, manager.betting_schemes.get(name))
    if not scheme.asks_bet or scheme.raises or not scheme.pays_naturals:
        return False
    casino = cast(BettingScheme, manager.betting_schemes.get("casino")).outcome
    return all(
        scheme.outcome(player, natural, dealer, dealer_natural)
        == casino(player, natural, dealer, dealer_natural)
        for player in range(4, 22)
        for natural in ((False, True) if player == 21 else (False,))
        for dealer in range(17, 27)
        for dealer_natural in ((False, True) if dealer == 21 else (False,))
    )


def rules_vector(rules: BlackjackRules, dealer: int) -> list[int]:
    """The kernel's rules vector (see ``kernel.DECKS`` ... ``kernel.DEN``); ``dealer``
    is :func:`compiled_dealer`'s code."""
    assert rules.decks is not None
    cut = max(1, int(rules.decks * 52 * rules.penetration))  # as the engine's Shoe
    pays = rules.blackjack_pays
    return [
        rules.decks,
        cut,
        dealer,
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


def why_not(manager: PluginManager, rules: BlackjackRules, strategy: Strategy) -> str | None:
    """Why the kernel cannot play these exactly as the Python engine would, or None."""
    if rules.decks is None:
        return "an infinite deck is the solver's, not a table's"
    if rules.shoe not in ("casino", "fresh-pack"):
        return f"the {rules.shoe!r} shoe is played in Python"
    if compiled_dealer(manager, rules.dealer) is None:
        return (
            f"the dealer rule {rules.dealer!r} has no compiled form (it draws unlike S17 and H17)"
        )
    if not compiled_betting(manager, rules.betting):
        return (
            f"the betting scheme {rules.betting!r} has no compiled form (it settles unlike casino)"
        )
    if play_table(strategy) is None:
        return f"strategy {strategy.name!r} is not given as a chart"
    return None


def prepare(
    manager: PluginManager, rules: BlackjackRules, strategy: Strategy, seats: int
) -> KernelJob | str:
    """The kernel's job for these (``strategy`` already made for the rules), or why not."""
    reason = why_not(manager, rules, strategy)
    if reason is not None:
        return reason
    # built-ins keep their names (a plugin's clashing contribution is skipped), so 's17',
    # 'h17' and 'casino' are the built-in rules a plugin's are compared with
    table = play_table(strategy)
    dealer = compiled_dealer(manager, rules.dealer)
    assert table is not None and dealer is not None
    data = (rules_vector(rules, dealer), chart_array(table), seats)
    from croupier.plugins.blackjack.kernel.plain import PlainChunk, plain_rounds

    plain = PlainChunk(rules, *resolve_rules(manager, rules), strategy, seats)
    return KernelJob(run_chunk, data, FIELDS, plain=plain, plain_up_to=plain_rounds(rules, seats))


def run_chunk(data: Any, seed: int, rounds: int) -> Sequence[int]:
    """Play one chunk (in whatever process this runs in)."""
    import numpy as np

    from croupier.plugins.blackjack.kernel.instances import play_chunk

    rules, chart, seats = data
    out = play_chunk(
        np.asarray(rules, np.int64), np.asarray(chart, np.int64), np.uint64(seed), rounds, seats
    )
    return [int(x) for x in out]
