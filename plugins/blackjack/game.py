"""Blackjack as a game of the engine's game interface (``--game blackjack``).

The game is built from the plugin manager (``croupier_games(manager)``), because blackjack
is itself made of other plugins' contributions: its rule sets (``vegas-s17``, ``koth``,
...), dealer rules and betting schemes, and strategies. Its options are the fields of
:class:`~croupier.engine.BlackjackRules` as plain data; its actions, observations and
events are blackjack's wire format, unchanged, so bots written against the blackjack
protocol play a table of this game as they always have: text answers (``"hit"``,
``"bet 10"``) included (:attr:`Game.read_action`), and the phases a bot may leave to the
server (``auto``: the minimum bet, no insurance, no early surrender).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from croupier.engine import (
    CODES,
    VALUES,
    ActionSpec,
    Checkpoints,
    CroupierError,
    Emit,
    Field,
    Game,
    GameStrategy,
    Plain,
    PluginManager,
    WebFiles,
    WireCompat,
    card,
    kind_of,
)
from croupier.plugins.blackjack.building import resolve_rules
from croupier.plugins.blackjack.core import ABSENT, BlackjackCore
from croupier.plugins.blackjack.legacy import LEGACY
from croupier.plugins.blackjack.play import ACTIONS, Action
from croupier.plugins.blackjack.rules import (
    DOUBLE_RULES,
    OVERBET_RULES,
    SHOE_KINDS,
    SURRENDER_RULES,
    BlackjackRules,
    rules_from_options,
)
from croupier.plugins.blackjack.strategy import Strategy
from croupier.plugins.blackjack.values import total_of

OPTIONS = (
    Field("decks", "int", "decks in the shoe (1 to 64)"),
    Field("penetration", "float", "fraction of the shoe dealt before the cut card"),
    Field("shoe", "str", "how the shoe is dealt and refilled", SHOE_KINDS),
    Field("dealer", "str", "the dealer rules (a dealer-rules plugin: s17, h17, koth, ...)"),
    Field("betting", "str", "the betting scheme (a betting plugin: casino, koth, ...)"),
    Field("double", "str", "which two-card totals may double", DOUBLE_RULES),
    Field("double_after_split", "bool", "doubling after a split"),
    Field("max_split_hands", "int", "the most hands splitting makes (1: no splits)"),
    Field("resplit_aces", "bool", "split aces may be split again"),
    Field("hit_split_aces", "bool", "split aces may draw more than one card"),
    Field("surrender", "str", "surrender offered", SURRENDER_RULES),
    Field("blackjack_pays", "str", "what a natural pays, as 3:2 or 6:5"),
    Field("peek", "bool", "the dealer checks for blackjack under an ace or a ten"),
    Field("insurance", "bool", "insurance is offered under an ace"),
    Field("min_bet", "int", "the smallest bet"),
    Field("max_bet", "int", "the largest bet"),
    Field("starting_chips", "int", "each seat's chips when a table opens"),
    Field("overbet", "str", "what a raise beyond the chips held does", OVERBET_RULES),
)

OBSERVATION = (
    Field("phase", "str", "what is asked", ("bet", "insurance", "surrender", "play")),
    Field("round", "int", "the round's number at this table"),
    Field("seat", "int", "your seat"),
    Field("legal", "list[str]", "the exact actions accepted now"),
    Field("chips", "int", "your chips besides the stakes on the table"),
    Field("hands", "list[list[str]]", "your hands' cards (two-letter codes: QC, TD, AS)"),
    Field("hand", "int", "which of your hands to play"),
    Field("total", "int", "that hand's total"),
    Field("soft", "bool", "that total counts an ace as 11"),
    Field("stake", "int", "that hand's bet"),
    Field("dealer_upcard", "str", "the dealer's upcard (nil before the deal)"),
    Field("visible", "list[str]", "every card dealt this round, the dealer's two first (#: hole)"),
    Field("min_bet", "int", "the smallest bet now"),
    Field("max_bet", "int", "the largest bet now (capped by your chips)"),
    Field("refused", "str", "why your previous answer was refused (nil: it was not)"),
)

EVENTS = {
    "round": "a round begins",
    "shuffle": "the shoe is shuffled",
    "deck-added": "a fresh deck is added to the shoe (the contest's shoe)",
    "leave": "a seat cannot pay the minimum and leaves",
    "chips": "a ledger entry: amount > 0 to the seat, < 0 to the house, with its reason",
    "deal": "a card to a seat's hand, or to the dealer (no seat); the hole card as #",
    "peek": "the dealer checked for blackjack (outcome: blackjack or none)",
    "action": "the action applied for a seat's hand (action, amount); pass: an empty seat sits out",
    "refused": "an answer refused, with the reason",
    "default": "the default applied (timeout, error or too many refusals), with the reason",
    "reveal": "the hole card turned",
    "settle": "a hand's outcome and total",
    "end": "the round is over",
}

_SUMMARIES = {
    "hit": "take a card",
    "stand": "keep the hand",
    "double": "double the stake, take one card",
    "split": "split a pair into two hands",
    "surrender": "give up half the stake (late) or answer early surrender",
    "raise": "add amount chips to the stake (the contest's B n)",
    "bet": "stake amount chips for the round",
    "insurance": "take insurance (even money on a natural)",
    "decline": "decline insurance or early surrender",
}
ACTION_SPECS = tuple(
    ActionSpec(
        kind,
        _SUMMARIES[kind],
        (Field("amount", "int", "chips"),) if kind in ("bet", "raise") else (),
        strict=False,  # every answer carries an amount (0 for a kind without one)
    )
    for kind in ACTIONS
)


def read_answer(answer: object) -> Plain:
    """A blackjack bot's answer: an action map (``{"kind": "bet", "amount": 10}``) or text
    (``"hit"``, ``"H"``, ``"bet 10"``), as an action map."""
    if isinstance(answer, str):
        return Action.parse(answer).to_dict()
    if isinstance(answer, dict):
        return Action.from_dict(answer).to_dict()
    raise CroupierError(f"an answer is an action map or text, not {kind_of(answer)}")


def _auto_bet(observation: Plain) -> Plain:
    return {"kind": "bet", "amount": observation["min_bet"]}


def _decline(observation: Plain) -> Plain:
    return {"kind": "decline", "amount": 0}


def _played_round(event: Plain) -> int | None:
    """A seat's round is played when its first hand settles (a natural included)."""
    if event.get("kind") == "settle" and event.get("hand") == 0:
        seat = event.get("seat")
        return seat if isinstance(seat, int) else None
    return None


def _action_of(event: Plain) -> Plain | None:
    """The action a blackjack ``action`` event records (a bet the scheme did not ask for
    answered no turn: the contest's stake is fixed)."""
    kind = event.get("action")
    if not isinstance(kind, str):
        return None
    if kind == "pass":  # an empty seat's (the table's absent action, not a player's)
        return dict(ABSENT)
    return {"kind": kind, "amount": event.get("amount", 0)}


_CARDS = {code: c for c, code in enumerate(CODES)}


def _card(code: str) -> int:
    """The card of a code a table sent (``card``, which also reads a person's spelling)."""
    found = _CARDS.get(code)
    return card(code) if found is None else found


class _SeenHand:
    """The hand a strategy plays, as the observation shows it (a ``HandView``)."""

    __slots__ = ("cards", "soft", "total")

    def __init__(self, cards: tuple[int, ...], total: int, soft: bool) -> None:
        self.cards = cards
        self.total = total
        self.soft = soft


@attrs.frozen
class _Play:
    """A blackjack strategy's play of any phase, on plain observations (picklable: a
    server prepares strategies in worker processes)."""

    strategy: Strategy

    def __call__(self, observation: Plain) -> Plain:
        """``strategy_action`` on the plain observation (no typed one is built): the
        minimum bet, no insurance, no early surrender, and the strategy's play."""
        phase = observation["phase"]
        if phase == "play":
            # read as Observation.read reads it: absent fields take their defaults
            hands = observation.get("hands") or ((),)
            cards = tuple([_card(c) for c in hands[observation.get("hand", 0)]])
            total, soft = total_of([VALUES[c] for c in cards])
            up = VALUES[_card(observation.get("dealer_upcard") or "")]
            legal = tuple(observation["legal"])
            kind = self.strategy.play(_SeenHand(cards, total, soft), up, legal)
            if kind not in ACTIONS:  # as Action(kind) says it
                Action(kind)
            return {"kind": kind, "amount": 0}
        if phase == "bet":
            return {"kind": "bet", "amount": observation["min_bet"]}
        return {"kind": "decline", "amount": 0}


@attrs.frozen
class _ForOptions:
    """The strategy adapted to a table's rules (basic strategy solves them first)."""

    strategy: Strategy

    def __call__(self, options: Plain) -> GameStrategy:
        rules = rules_from_options(BlackjackRules(), dict(options))
        return game_strategy(self.strategy.for_rules(rules))


def game_strategy(strategy: Strategy) -> GameStrategy:
    """A blackjack strategy as a game strategy (``for_options`` when it needs the rules),
    trusted: :class:`_Play` answers a kind of blackjack's (any other raises) with amount 0,
    or the minimum bet, which the core's check alone judges against the legal ones."""
    adapt = _ForOptions(strategy) if strategy.adapt is not None else None
    return GameStrategy(
        strategy.name, strategy.summary, _Play(strategy), for_options=adapt, trusted=True
    )


def blackjack_game(manager: PluginManager) -> Game:
    """The game, with the rule sets and strategies the installed plugins contribute."""

    def check_options(options: Plain) -> dict[str, Any]:
        rules = rules_from_options(BlackjackRules(), dict(options))
        if rules.decks is None:
            raise CroupierError("a table needs a finite number of decks")
        resolve_rules(manager, rules)  # an unknown dealer or betting scheme: one line
        return rules.to_dict()

    def new_core(
        options: Plain, seed: int, chips: Sequence[int], emit: Emit | None
    ) -> BlackjackCore:
        rules = rules_from_options(BlackjackRules(), dict(options))
        return BlackjackCore(manager, rules, seed, chips, emit)

    def min_chips(options: Plain) -> int:
        return int(options["min_bet"])

    strategies = tuple(
        game_strategy(found)
        for found in (e.item for e in manager.strategies.entries())
        if isinstance(found, Strategy)
    )
    return Game(
        name="blackjack",
        summary="blackjack against the dealer: rule sets, dealer rules and betting are plugins",
        options=OPTIONS,
        defaults=BlackjackRules().to_dict(),
        rule_sets={e.name: e.item.rules.to_dict() for e in manager.rule_sets.entries()},
        check_options=check_options,
        new_core=new_core,
        actions=ACTION_SPECS,
        observation=OBSERVATION,
        events=EVENTS,
        strategies=strategies,
        max_seats=7,
        min_chips=min_chips,
        played_round=_played_round,
        compat=WireCompat(
            read_action=read_answer,
            auto_phases={"bet": _auto_bet, "insurance": _decline, "surrender": _decline},
            action_of=_action_of,
            legacy=LEGACY,
            table_rule_set="vegas-s17",
            tournament_rule_set="koth",
            stakes=("double", "split", "insurance", "raise"),
        ),
        web=WebFiles("croupier.plugins.blackjack", pages={"chart.html": "Strategy chart"}),
        checkpoints=Checkpoints(BlackjackCore.save, BlackjackCore.restore),
    )
