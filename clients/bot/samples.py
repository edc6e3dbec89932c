"""The built-in sample bots of ``croupier bot NAME``: ``lim17``, ``basic`` and ``hilo``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from croupier.clients.bot.sdk import Bot
from croupier.engine import BlackjackRules, CroupierError, PluginManager, Strategy, UnknownNameError
from croupier.engine.cards import HIDDEN, VALUES, card
from croupier.engine.play import Action, Event, Observation
from croupier.engine.players import strategy_action
from croupier.engine.rules import rules_from_options


class Lim17(Bot):
    """The contest's sample: hit below 17, stand on 17 and up; bet the minimum."""

    name = "lim17"

    def decide(self, observation: Observation) -> str:
        return "hit" if observation.total < 17 else "stand"


def table_rules(info: dict[str, Any]) -> BlackjackRules:
    """The rules of a table, from its info (``table.info``) as plain data."""
    return rules_from_options(BlackjackRules(), dict(info["rules"]))


class Basic(Bot):
    """Basic strategy: the blackjack solver's chart for the table's own rules (the
    ``basic`` strategy), computed in :meth:`setup` before the bot sits; bet the minimum."""

    name = "basic"

    def __init__(self, manager: PluginManager) -> None:
        super().__init__()
        self.manager = manager
        self.strategy: Strategy | None = None

    def setup(self, info: dict[str, Any]) -> None:
        self.strategy = self.manager.strategy("basic", table_rules(info))

    def decide(self, observation: Observation) -> Action:
        if self.strategy is None:
            raise CroupierError("the basic bot plays only after setup (the table's rules)")
        return strategy_action(self.strategy, observation)


HI_LO = {1: -1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0, 9: 0, 10: -1}
"""Hi-Lo tags by card value: low cards +1, tens and aces -1."""


@attrs.define
class Count:
    """A Hi-Lo running count and the cards left in the shoe, from a table's events.

    Every dealt card leaves the shoe (the hole card too, dealt face down as ``#``); a card
    is counted when it is seen (dealt face up, or the hole card revealed). A shuffle
    starts over; a deck added to the shoe (the KOTH shoe) adds 52 cards.
    """

    decks: int
    running: int = 0
    remaining: int = 0

    def __attrs_post_init__(self) -> None:
        self.remaining = 52 * self.decks

    def see(self, event: Event) -> None:
        kind = event.kind
        if kind == "shuffle":
            self.running, self.remaining = 0, 52 * self.decks
        elif kind == "deck-added":
            self.remaining += 52
        elif kind in ("deal", "reveal") and event.card:
            if kind == "deal":
                self.remaining = max(1, self.remaining - 1)
            if event.card != HIDDEN:
                self.running += HI_LO[VALUES[card(event.card)]]

    @property
    def true_count(self) -> float:
        """The running count per deck left (at least half a deck, as counters round)."""
        return self.running / max(self.remaining / 52, 0.5)


class HiLo(Basic):
    """Basic strategy plus a Hi-Lo true-count bet spread, counting from the table's events.

    Stake: ``min_bet`` times ``floor(true count) - 1``, between 1 and 8 units, capped by
    ``max_bet``; insurance at a true count of +3 or more (the classic index play).
    """

    name = "hilo"
    SPREAD = 8

    def __init__(self, manager: PluginManager) -> None:
        super().__init__(manager)
        self.count = Count(6)

    def setup(self, info: dict[str, Any]) -> None:
        super().setup(info)
        self.count = Count(int(info["rules"]["decks"]))

    def on_event(self, event: Event) -> None:
        self.count.see(event)

    def units(self) -> int:
        return max(1, min(self.SPREAD, int(self.count.true_count // 1) - 1))

    def bet(self, observation: Observation) -> int:
        return max(
            observation.min_bet, min(observation.max_bet, observation.min_bet * self.units())
        )

    def insurance(self, observation: Observation) -> bool:
        return self.count.true_count >= 3


@attrs.frozen
class SampleBot:
    name: str
    summary: str
    make: Callable[[PluginManager], Bot]


SAMPLES = (
    SampleBot("lim17", "hit below 17, stand on 17 and up (the contest sample)", lambda m: Lim17()),
    SampleBot("basic", "basic strategy for the table's rules (the solver's)", Basic),
    SampleBot(
        "hilo",
        "basic strategy plus a Hi-Lo true-count bet spread (1-8 units) and insurance at +3",
        HiLo,
    ),
)


def sample_bot(name: str, manager: PluginManager) -> Bot:
    """A fresh sample bot by name (an unknown name lists the known ones)."""
    for sample in SAMPLES:
        if sample.name == name:
            bot = sample.make(manager)
            bot.name = name
            return bot
    raise UnknownNameError("bot", name, [s.name for s in SAMPLES])
