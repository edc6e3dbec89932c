"""One Three Card Poker table: antes and pair plus bets, the deal, play or fold, settlement.

A round: each seat that can cover it stakes an ante (and, optionally, a pair plus bet) or
passes; the seats that bet get three cards each and the dealer three, from one deck
shuffled every round; each seat then plays (stakes a play bet equal to its ante) or folds
(loses its ante). The dealer qualifies with queen high or better. Against a dealer who
does not qualify the ante pays 1:1 and the play bet pushes; otherwise the better hand wins
both (1:1), a tie pushes both. A seat that played gets the ante bonus on a straight or
better whatever the dealer holds. The pair plus bet is paid on the seat's own hand by its
paytable, whether the seat played or folded. A bet's stakes must leave the seat enough
chips to play.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from croupier.engine import (
    CODES,
    CroupierError,
    Emit,
    Ledger,
    Plain,
    Shoe,
    Stream,
    Turn,
    seat_account,
)
from croupier.plugins.three_card_poker.hands import CATEGORIES, category, qualifies, value
from croupier.plugins.three_card_poker.solver import ANTE_BONUSES, PAYTABLES

COUNTERS = ("plays", "folds", "dealer_qualifies")


class PokerCore:
    """A table's state between rounds (see the module's text); seats count from 1."""

    def __init__(
        self, options: Plain, seed: int, chips: Sequence[int], emit: Emit | None = None
    ) -> None:
        self.options = dict(options)
        self.deck = Shoe(Stream(seed).child("deck"), kind="fresh-pack", decks=1, every_round=True)
        self.ledger = Ledger({seat_account(i + 1): c for i, c in enumerate(chips)})
        self.seats = len(chips)
        self.round = 0
        self.counts = dict.fromkeys(COUNTERS, 0)
        self._emit = emit
        self.pays = PAYTABLES[self.options["pair_plus"]]
        self.bonus = ANTE_BONUSES[self.options["ante_bonus"]]

    # -- checkpoints (Game.checkpoints) -------------------------------------------------------
    def save(self) -> dict[str, Any]:
        """Everything the next rounds depend on, as plain data."""
        return {
            "deck": self.deck.save(),
            "ledger": self.ledger.save(),
            "round": self.round,
            "counts": dict(self.counts),
        }

    def restore(self, state: Plain) -> None:
        """Put this core (fresh, same options, seed and seats) where :meth:`save` was."""
        counts = dict(state["counts"])
        if set(counts) != set(COUNTERS):
            raise CroupierError("the saved Three Card Poker table's counts are malformed")
        self.deck.restore(state["deck"])
        self.ledger.restore(state["ledger"])
        self.round = int(state["round"])
        self.counts = {name: int(counts[name]) for name in COUNTERS}

    def _event(self, kind: str, text: str, **fields: Any) -> None:
        if self._emit is not None:
            self._emit({"kind": kind, "round": self.round, **fields, "text": text})

    def chips(self, seat: int) -> int:
        return self.ledger.balances[seat_account(seat)]

    def check(self, turn: Turn, action: Plain) -> str | None:
        """The game's rules beyond the schema (which the engine checked: the kind, an ante
        and a pair plus bet of 0 or more chips, no other field)."""
        if action["kind"] != "bet":
            return None
        low, high = self.options["min_bet"], self.options["max_bet"]
        ante, side = action["ante"], action.get("pair_plus") or 0
        if not low <= ante <= high:
            return f"the ante is from {low} to {high} chips, not {ante}"
        if side and not low <= side <= high:
            return f"a pair plus bet is from {low} to {high} chips, not {side}"
        if 2 * ante + side > self.chips(turn.seat):
            return f"an ante of {ante} needs {2 * ante + side} chips, to play too"
        return None

    def play_round(self) -> Generator[Turn, Plain, bool]:
        low = self.options["min_bet"]
        ready = [s for s in range(1, self.seats + 1) if self.chips(s) >= 2 * low]
        if not ready:
            return False
        self.round += 1
        bets: dict[int, dict[str, int]] = {}
        for seat in ready:
            seen = {
                "phase": "bet",
                "round": self.round,
                "seat": seat,
                "chips": self.chips(seat),
                "min_bet": low,
                "max_bet": self.options["max_bet"],
            }
            ante = {"kind": "bet", "ante": low}
            action = yield Turn(seat, ("bet", "pass"), seen, ante, absent={"kind": "pass"})
            if action["kind"] == "pass":
                self._event("pass", f"Seat {seat} sits this round out.", seat=seat)
                continue
            bet = {"ante": action["ante"], "pair_plus": action.get("pair_plus", 0)}
            bets[seat] = bet
            for name, amount in bet.items():
                if amount:
                    self.ledger.transfer(self.round, seat_account(seat), -amount, f"bet {name}")
            self._event("bet", f"Seat {seat} antes {bet['ante']}.", seat=seat, **bet)
        if not bets:
            return True
        self.deck.start_round()
        hands: dict[int, list[int]] = {seat: [] for seat in bets}
        dealer: list[int] = []
        for _ in range(3):
            for seat in bets:
                hands[seat].append(self.deck.draw())
            dealer.append(self.deck.draw())
        played: dict[int, bool] = {}
        for seat, bet in bets.items():
            seen = {
                "phase": "play",
                "round": self.round,
                "seat": seat,
                "chips": self.chips(seat),
                "cards": [CODES[c] for c in hands[seat]],
                "ante": bet["ante"],
                "pair_plus": bet["pair_plus"],
            }
            action = yield Turn(seat, ("play", "fold"), seen, {"kind": "fold"})
            played[seat] = action["kind"] == "play"
            if played[seat]:
                self.ledger.transfer(self.round, seat_account(seat), -bet["ante"], "bet play")
            self.counts["plays" if played[seat] else "folds"] += 1
            self._event(action["kind"], f"Seat {seat} {action['kind']}s.", seat=seat)
        dealer_value = value(dealer)
        qualified = qualifies(dealer_value)
        self.counts["dealer_qualifies"] += qualified
        self._event(
            "dealer",
            f"The dealer has {' '.join(CODES[c] for c in dealer)} "
            f"({CATEGORIES[category(dealer_value)]}"
            f"{'' if qualified else ', which does not qualify'}).",
            cards=[CODES[c] for c in dealer],
            qualifies=qualified,
        )
        for seat, bet in bets.items():
            self._settle(seat, bet, hands[seat], played[seat], dealer_value, qualified)
        return True

    def _settle(
        self,
        seat: int,
        bet: dict[str, int],
        hand: list[int],
        played: bool,
        dealer_value: int,
        qualified: bool,
    ) -> None:
        account = seat_account(seat)
        mine = value(hand)
        ante = bet["ante"]

        def pay(amount: int, reason: str) -> None:
            if amount:
                self.ledger.transfer(self.round, account, amount, reason)

        if bet["pair_plus"]:
            odds = self.pays.get(category(mine))
            if odds is not None:
                pay(bet["pair_plus"] * (odds + 1), "win pair_plus")
        if played:
            pay(ante * self.bonus.get(category(mine), 0), "ante bonus")
            if not qualified:
                pay(2 * ante + ante, "win ante")  # ante 1:1, play pushed
            elif mine > dealer_value:
                pay(4 * ante, "win ante and play")
            elif mine == dealer_value:
                pay(2 * ante, "push")
        self._event(
            "result",
            f"Seat {seat} has {' '.join(CODES[c] for c in hand)} ({CATEGORIES[category(mine)]}) "
            f"and {self.chips(seat)} chips.",
            seat=seat,
            cards=[CODES[c] for c in hand],
            chips=self.chips(seat),
        )


def check_options(options: Plain) -> dict[str, Any]:
    """The options beyond their schema (which the engine checked: types, paytables, ranges)."""
    out = dict(options)
    if out["min_bet"] > out["max_bet"]:
        raise CroupierError(f"the minimum bet {out['min_bet']} is above the maximum")
    return out
