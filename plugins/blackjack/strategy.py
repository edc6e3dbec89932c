"""A local strategy: a synchronous decision rule for blackjack's ``play`` phase.

A :class:`Strategy` bets the minimum and declines insurance and early surrender; the
engine's table seats it as a game strategy (:func:`~croupier.plugins.blackjack.game.game_strategy`,
plain maps in and out), and the simulator calls it directly on the engine's own hands (the
fast path). :func:`strategy_action` is its answer to a typed observation, any phase.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import attrs

from croupier.engine import VALUES, CroupierError, card
from croupier.plugins.blackjack.kernels import PlayTable
from croupier.plugins.blackjack.play import Action, Observation
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.values import total_of

if TYPE_CHECKING:
    from croupier.engine import PluginManager


class HandView(Protocol):
    """What a strategy sees of the hand it plays: cards as ints (see
    :mod:`croupier.engine.cards`), the best total and whether an ace counts 11."""

    @property
    def cards(self) -> Sequence[int]: ...

    @property
    def total(self) -> int: ...

    @property
    def soft(self) -> bool: ...


PlayRule = Callable[[HandView, int, tuple[str, ...]], str]


def _needs_rules(hand: HandView, upcard: int, legal: tuple[str, ...]) -> str:
    raise CroupierError("this strategy depends on the rules: use strategy.for_rules(rules)")


@attrs.frozen
class Strategy:
    """A named local strategy: ``play(hand, upcard, legal)`` returns an action kind for the
    play phase; ``upcard`` is the dealer's upcard value (1 for an ace, 2-10). An answer not
    in ``legal`` is refused like any player's and gets the default (stand).

    A strategy that depends on the table's rules (basic strategy does) gives ``adapt``
    instead of ``play``: ``adapt(rules)`` returns the play rule for those rules. Callers
    seat ``strategy.for_rules(rules)``, which is the strategy itself when it needs no rules.
    """

    name: str
    summary: str
    play: PlayRule = _needs_rules
    adapt: Callable[[BlackjackRules], PlayRule] | None = None
    table: PlayTable | None = attrs.field(default=None, eq=False, repr=False)
    """The strategy as a chart (optional), so the compiled simulator can play it; a
    rules-dependent strategy gives its play rule a ``play_table()`` method instead."""

    def for_rules(self, rules: BlackjackRules) -> Strategy:
        """This strategy as played under ``rules`` (raises a one-line error if it can't)."""
        if self.adapt is None:
            return self
        return attrs.evolve(self, play=self.adapt(rules), adapt=None)


@attrs.frozen
class _ObservedHand:
    cards: tuple[int, ...]
    total: int
    soft: bool


def strategy_action(strategy: Strategy, observation: Observation) -> Action:
    """The action ``strategy`` takes for ``observation`` (any phase)."""
    if observation.phase == "bet":
        return Action("bet", observation.min_bet)
    if observation.phase != "play":
        return Action("decline")
    cards = tuple(card(c) for c in observation.cards)
    total, soft = total_of(VALUES[c] for c in cards)
    up = VALUES[card(observation.dealer_upcard or "")]
    return Action(strategy.play(_ObservedHand(cards, total, soft), up, observation.legal))


def local_strategy(manager: PluginManager, name: str, rules: BlackjackRules) -> Strategy:
    """The strategy plugins contribute as ``name``, as played under ``rules`` (see
    :meth:`Strategy.for_rules`); one line when it is not a local strategy."""
    found = manager.strategies.get(name)
    if not isinstance(found, Strategy):
        raise CroupierError(f"strategy {name!r} is not a local strategy")
    return found.for_rules(rules)
