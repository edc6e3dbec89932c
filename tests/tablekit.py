"""Helpers for table tests: a stacked shoe and a table core built on it, and a writer of
blackjack's old ``croupier-table`` logs (which tables no longer write, but still replay)."""

from __future__ import annotations

import json
from typing import IO, Any

from croupier.engine import Plain
from croupier.engine.cards import cards
from croupier.engine.gametable import GameTable
from croupier.plugins.blackjack.building import resolve_rules
from croupier.plugins.blackjack.round import TableCore
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.tablelog import LOG_NAME, LOG_VERSION


class StackedShoe:
    """A shoe that deals the given cards in order (then fails loudly)."""

    decks_added = 0
    shuffles = 0

    def __init__(self, text: str) -> None:
        self.cards = cards(text)

    def start_round(self) -> bool:
        return False

    def draw(self) -> int:
        if not self.cards:
            raise AssertionError("the stacked shoe ran out")
        return self.cards.pop(0)


def stacked_core(manager, rules, deal: str, chips=(1000,), emit=None) -> TableCore:
    """Cards are dealt in table order: seat 1..n first card, dealer up, seat 1..n second,
    hole card, then hits in order."""
    dealer, scheme = resolve_rules(manager, rules)
    return TableCore(rules, dealer, scheme, StackedShoe(deal), list(chips), emit=emit)


def drive(core: TableCore, answers):
    """Play one round, answering each decision with ``answers(decision)``."""
    gen = core.play_round()
    try:
        d = gen.send(None)
        while True:
            d = gen.send(answers(d))
    except StopIteration as stop:
        return stop.value


class EventLog:
    """A blackjack game table's listener writing an old ``croupier-table`` log: the header,
    then every event (its fields, without the words), as JSON lines to ``out``."""

    def __init__(self, table: GameTable, rules: BlackjackRules, out: IO[str]) -> None:
        self.out = out
        header: dict[str, Any] = {"log": LOG_NAME, "version": LOG_VERSION, "seed": table.seed}
        header |= {"rules": rules.to_dict(), "chips": table.starting_chips}
        out.write(json.dumps(header) + "\n")
        table.listeners.append(self)

    def __call__(self, event: Plain) -> None:
        self.out.write(json.dumps({k: v for k, v in event.items() if k != "text"}) + "\n")
