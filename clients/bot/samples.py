"""The built-in sample bots of ``croupier bot NAME``: ``lim17``, ``basic`` and ``hilo``."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs

from croupier.clients.bot.blackjack import Bot
from croupier.engine import CroupierError, PluginManager, UnknownNameError
from croupier.engine.cards import HIDDEN, VALUES, card
from croupier.engine.counts import CountSystem, true_count
from croupier.plugins.blackjack.index_lookup import index_set
from croupier.plugins.blackjack.indices import IndexEntry
from croupier.plugins.blackjack.play import Action, Event, Observation
from croupier.plugins.blackjack.rules import BlackjackRules, rules_from_options
from croupier.plugins.blackjack.strategy import Strategy, local_strategy, strategy_action
from croupier.plugins.blackjack.values import total_of


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
        self.strategy = local_strategy(self.manager, "basic", table_rules(info))

    def decide(self, observation: Observation) -> Action:
        if self.strategy is None:
            raise CroupierError("the basic bot plays only after setup (the table's rules)")
        return strategy_action(self.strategy, observation)


@attrs.define
class Count:
    """A running count of ``system`` (a count plugin's: ``croupier plugins`` lists them) and
    the cards left in the shoe, from a table's events.

    Every dealt card leaves the shoe (the hole card too, dealt face down as ``#``); a card
    is counted when it is seen (dealt face up, or the hole card revealed), with its tag
    (suit exceptions such as Red 7's included). A shuffle starts over from the count's
    initial running count; a deck added to the shoe (the KOTH shoe) adds 52 cards.
    """

    decks: int
    system: CountSystem
    running: int = 0
    remaining: int = 0
    _tags: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        self._tags = self.system.card_tags()
        self.running, self.remaining = self.system.irc(self.decks), 52 * self.decks

    def see(self, event: Event) -> None:
        kind = event.kind
        if kind == "shuffle":
            self.running, self.remaining = self.system.irc(self.decks), 52 * self.decks
        elif kind == "deck-added":
            self.remaining += 52
            self.decks += 1
        elif kind in ("deal", "reveal") and event.card:
            if kind == "deal":
                self.remaining = max(1, self.remaining - 1)
            if event.card != HIDDEN:
                self.running += self._tags[card(event.card)]

    @property
    def true_count(self) -> float:
        """The true count as the system reads it (its rounding and deck estimate)."""
        return true_count(self.running, self.remaining, self.system, self.decks)


class HiLo(Basic):
    """Basic strategy with a Hi-Lo count (the ``hilo`` count plugin): a true-count bet
    spread, and the playing deviations and insurance of a Hi-Lo index set from the index
    set plugin family (``INDEX_SET``: the set croupier generates for 6 decks, S17, DAS,
    ``croupier solve blackjack --indices hilo``, contributed by the counts plugin; at other
    rules it is the nearest set croupier ships; ``index_set`` picks another installed one).

    Stake: ``min_bet`` times ``true count - 1``, between 1 and 8 units, capped by
    ``max_bet``. Deviations: for the hand and upcard, surrender, then split, then double
    are taken when the count says so and left out when it says no (the hand is then played
    as basic strategy without them); a stand-or-hit index settles what is left of hitting
    and standing.
    """

    name = "hilo"
    SPREAD = 8
    INDEX_SET = "hilo-6d-s17"

    def __init__(self, manager: PluginManager, index_set_name: str = INDEX_SET) -> None:
        super().__init__(manager)
        self.system = manager.count_systems.get("hilo")
        self.count = Count(6, self.system)
        self.indices: dict[tuple[str, str], dict[str, IndexEntry]] = {}
        for e in index_set(manager, index_set_name, self.system.name).entries:
            self.indices.setdefault((e.hand, e.upcard), {})[e.decision] = e

    def setup(self, info: dict[str, Any]) -> None:
        super().setup(info)
        self.count = Count(int(info["rules"]["decks"]), self.system)

    def on_event(self, event: Event) -> None:
        self.count.see(event)

    def units(self) -> int:
        return max(1, min(self.SPREAD, math.floor(self.count.true_count) - 1))

    def bet(self, observation: Observation) -> int:
        return max(
            observation.min_bet, min(observation.max_bet, observation.min_bet * self.units())
        )

    def insurance(self, observation: Observation) -> bool:
        entry = self.indices.get(("any", "A"), {}).get("insurance")
        return entry.takes(self.count.true_count) if entry else self.count.true_count >= 3

    def decide(self, observation: Observation) -> Action:
        if observation.phase != "play" or not observation.dealer_upcard:
            return super().decide(observation)
        tc = self.count.true_count
        cards = [card(c) for c in observation.cards]
        total, soft = total_of(VALUES[c] for c in cards)
        up = UPCARD_NAMES[VALUES[card(observation.dealer_upcard)]]
        by_total = self.indices.get((f"s{total}" if soft else str(total), up), {})
        legal = list(observation.legal)
        for decision in ("surrender", "split", "double"):
            if decision == "split" and len(cards) == 2 and VALUES[cards[0]] == VALUES[cards[1]]:
                name = UPCARD_NAMES[VALUES[cards[0]]]
                entry = self.indices.get((name + name, up), {}).get("split")
            else:
                entry = by_total.get(decision)
            if entry is None or decision not in legal:
                continue
            if entry.takes(tc):
                return Action(decision)
            legal.remove(decision)
        action = super().decide(attrs.evolve(observation, legal=tuple(legal)))
        entry = by_total.get("stand") or by_total.get("hit")
        if entry is not None and action.kind in ("hit", "stand"):
            other = "hit" if entry.decision == "stand" else "stand"
            wanted = entry.decision if entry.takes(tc) else other
            if wanted in legal:
                return Action(wanted)
        return action


UPCARD_NAMES = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T"}
"""Card values as index tables name hands and upcards."""


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
        "basic strategy plus a Hi-Lo true-count bet spread (1-8 units), and the generated "
        "Hi-Lo playing deviations and insurance index",
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
