"""Blackjack's events in words, on plain maps: the ``text`` a table of the game sends.

A table of the engine (:class:`~croupier.engine.gametable.GameTable`) sends every event as a
plain map with its words in ``text``; the round engine builds those maps directly (no typed
event to convert), and :func:`describe` says each in one English sentence for people, as the
blackjack table always has ("seat 2 is dealt the Five of Hearts (15)").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from croupier.engine import CODES, HIDDEN, card_name

_NAMES = {code: card_name(c) for c, code in enumerate(CODES)}
"""Each card's name by its code, built once (every deal and reveal names one)."""


def _card_name(code: object) -> str:
    return _NAMES.get(code, str(code)) if isinstance(code, str) else str(code)


def _total_text(event: Mapping[str, Any]) -> str:
    total = event.get("total")
    if total is None:
        return ""
    return f" ({'soft ' if event.get('soft') else ''}{total})"


def describe(event: Mapping[str, Any]) -> str:
    """One English sentence for people: "the dealer draws the Five of Hearts"."""
    get = event.get
    seat = get("seat")
    who = "the dealer" if seat is None else f"seat {seat}"
    hand = get("hand")
    if hand:
        who += f" (hand {hand + 1})"
    k = event["kind"]
    if k == "deal":
        card = get("card")
        if card == HIDDEN:
            return f"{who} is dealt the hole card, face down"
        verb = "draws" if get("reason") == "draw" else "is dealt"
        return f"{who} {verb} the {_card_name(card)}" + _total_text(event)
    if k == "chips":
        amount = get("amount") or 0
        verb = "receives" if amount > 0 else "pays"
        return f"{who} {verb} {abs(amount)} chips ({get('reason')})"
    if k == "action":
        action = get("action")
        if action == "pass":
            return f"{who} sits this round out"
        amount = get("amount")
        extra = f" {amount}" if amount else ""
        reason = get("reason")
        note = f" ({reason})" if reason else ""  # an over-bet says what it did
        return f"{who}: {action}{extra}{note}"
    if k == "settle":
        return f"{who}: {get('outcome')} with {get('total')}"
    if k == "round":
        return f"round {event['round']} begins"
    if k == "end":
        return f"round {event['round']} is over"
    if k == "shuffle":
        return "Shuffling..."
    if k == "deck-added":
        return "a fresh shuffled deck is added to the shoe"
    if k == "leave":
        return f"{who} cannot pay the minimum and leaves the table"
    if k == "reveal":
        return f"the dealer turns the {_card_name(get('card'))}" + _total_text(event)
    if k == "peek":
        if get("outcome") == "blackjack":
            return "the dealer has blackjack"
        return "the dealer checks: no blackjack"
    if k in ("refused", "default"):
        return f"{who}: {k} ({get('reason')})"
    fields = {key: value for key, value in event.items() if key != "text" and value is not None}
    return f"{k} {fields}"
