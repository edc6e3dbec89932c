"""One baccarat table: the shoe, the seats' bets, the coup and its settlement.

A round: each seat that can cover the minimum bets (one action may stake the player, the
banker and the tie spots at once) or passes; one coup is dealt by the tableau; bets are
settled. A player or banker bet pushes on a tie. Chips are whole numbers: a banker win
with commission pays 19:20 rounded down (bets in multiples of 20 are paid exactly, and
the built-in rule sets' minimum is 20), a banker win on 6 without commission pays 1:2
rounded down.
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
from croupier.plugins.baccarat.tableau import BACCARAT_VALUE, Coup, deal_coup

SPOTS = ("player", "banker", "tie")
COUNTERS = ("player_wins", "banker_wins", "ties", "banker_sixes", "naturals")


def payout(options: Plain, spot: str, coup: Coup, stake: int) -> int:
    """Chips returned on ``stake`` at ``spot`` (0: lost; the stake itself: a push)."""
    winner = coup.winner
    if spot == "tie":
        return stake * (options["tie_pays"] + 1) if winner == "tie" else 0
    if winner == "tie":
        return stake
    if winner != spot:
        return 0
    if spot == "player":
        return 2 * stake
    if options["commission"] == "5%":
        return stake + stake * 19 // 20
    return stake + (stake // 2 if coup.banker_total == 6 else stake)


class BaccaratCore:
    """A table's state between rounds (see the module's text); seats count from 1."""

    def __init__(
        self, options: Plain, seed: int, chips: Sequence[int], emit: Emit | None = None
    ) -> None:
        self.options = dict(options)
        self.shoe = Shoe(
            Stream(seed).child("shoe"),
            kind="casino",
            decks=options["decks"],
            penetration=options["penetration"],
        )
        self.ledger = Ledger({seat_account(i + 1): c for i, c in enumerate(chips)})
        self.seats = len(chips)
        self.round = 0
        self.counts = dict.fromkeys(COUNTERS, 0)
        self.seen = [0] * 10  # cards dealt since the shuffle, by value: public
        self._emit = emit

    # -- checkpoints (Game.checkpoints) -------------------------------------------------------
    def save(self) -> dict[str, Any]:
        """Everything the next coups depend on, as plain data."""
        return {
            "shoe": self.shoe.save(),
            "ledger": self.ledger.save(),
            "round": self.round,
            "counts": dict(self.counts),
            "seen": list(self.seen),
        }

    def restore(self, state: Plain) -> None:
        """Put this core (fresh, same options, seed and seats) where :meth:`save` was."""
        counts, seen = dict(state["counts"]), [int(n) for n in state["seen"]]
        if set(counts) != set(COUNTERS) or len(seen) != 10:
            raise CroupierError("the saved baccarat table's counts or cards seen are malformed")
        self.shoe.restore(state["shoe"])
        self.ledger.restore(state["ledger"])
        self.round = int(state["round"])
        self.counts = {name: int(counts[name]) for name in COUNTERS}
        self.seen = seen

    def _event(self, kind: str, text: str, **fields: Any) -> None:
        if self._emit is not None:
            self._emit({"kind": kind, "round": self.round, **fields, "text": text})

    def chips(self, seat: int) -> int:
        return self.ledger.balances[seat_account(seat)]

    def observe(self, seat: int) -> dict[str, Any]:
        return {
            "phase": "bet",
            "round": self.round,
            "seat": seat,
            "chips": self.chips(seat),
            "min_bet": self.options["min_bet"],
            "max_bet": self.options["max_bet"],
            "spots": list(SPOTS),
            "seen": list(self.seen),
            "cards_left": self.shoe.remaining,
        }

    def check(self, turn: Turn, action: Plain) -> str | None:
        """The game's rules beyond the schema (which the engine checked: the kind, each
        spot a whole number from 0 to the maximum, no other field)."""
        if action["kind"] == "pass":
            return None
        low, high = self.options["min_bet"], self.options["max_bet"]
        total = 0
        for spot in SPOTS:
            amount = action.get(spot) or 0
            if amount and amount < low:
                return f"a stake is from {low} to {high} chips, not {amount} on {spot}"
            total += amount
        if total == 0:
            return "a bet stakes at least one spot (or pass)"
        if total > self.chips(turn.seat):
            return f"the stakes ({total}) are more than the seat's {self.chips(turn.seat)} chips"
        return None

    def play_round(self) -> Generator[Turn, Plain, bool]:
        low = self.options["min_bet"]
        playing = [s for s in range(1, self.seats + 1) if self.chips(s) >= low]
        if not playing:
            return False
        self.round += 1
        if self.shoe.start_round():
            self.seen = [0] * 10
            self._event("shuffle", "The shoe is shuffled.")
        stakes: dict[int, dict[str, int]] = {}
        for seat in playing:
            action = yield Turn(
                seat,
                ("bet", "pass"),
                self.observe(seat),
                {"kind": "bet", "banker": low},
                absent={"kind": "pass"},  # nobody there: no stake put down for them
            )
            if action["kind"] == "pass":
                self._event("pass", f"Seat {seat} sits this coup out.", seat=seat)
                continue
            bets = {spot: action[spot] for spot in SPOTS if action.get(spot)}
            stakes[seat] = bets
            for spot, amount in bets.items():
                self.ledger.transfer(self.round, seat_account(seat), -amount, f"bet {spot}")
            said = ", ".join(f"{amount} on {spot}" for spot, amount in bets.items())
            self._event("bet", f"Seat {seat} bets {said}.", seat=seat, bets=bets)
        coup = deal_coup(self.shoe.draw)
        for card in (*coup.player, *coup.banker):
            self.seen[BACCARAT_VALUE[card]] += 1
        self._book(coup)
        self._event(
            "coup",
            f"Player {' '.join(CODES[c] for c in coup.player)} ({coup.player_total}), "
            f"banker {' '.join(CODES[c] for c in coup.banker)} ({coup.banker_total}): "
            + ("a tie." if coup.winner == "tie" else f"{coup.winner} wins."),
            player=[CODES[c] for c in coup.player],
            banker=[CODES[c] for c in coup.banker],
            player_total=coup.player_total,
            banker_total=coup.banker_total,
            winner=coup.winner,
        )
        for seat, bets in stakes.items():
            for spot, amount in bets.items():
                back = payout(self.options, spot, coup, amount)
                if back:
                    reason = "push" if back == amount else f"win {spot}"
                    self.ledger.transfer(self.round, seat_account(seat), back, reason)
            self._event(
                "chips",
                f"Seat {seat} has {self.chips(seat)} chips.",
                seat=seat,
                chips=self.chips(seat),
            )
        return True

    def _book(self, coup: Coup) -> None:
        counts = self.counts
        winner = coup.winner
        if winner == "player":
            counts["player_wins"] += 1
        elif winner == "banker":
            counts["banker_wins"] += 1
            counts["banker_sixes"] += coup.banker_total == 6
        else:
            counts["ties"] += 1
        counts["naturals"] += (
            len(coup.player) == 2
            and max(coup.player_total, coup.banker_total) >= 8
            and len(coup.banker) == 2
        )


def check_options(options: Plain) -> dict[str, Any]:
    """Complete baccarat options, checked beyond their schema (which the engine checked:
    types, the commission's choices, the ranges); one clear line for the first bad one."""
    out = dict(options)
    if not 1 <= out["decks"] <= 16:
        raise CroupierError(f"a baccarat shoe holds 1 to 16 decks, not {out['decks']!r}")
    pen = out["penetration"]
    if not 0 < pen <= 1:
        raise CroupierError(f"penetration is a fraction of the shoe in (0, 1], not {pen!r}")
    out["penetration"] = float(pen)
    if out["min_bet"] > out["max_bet"]:
        raise CroupierError(f"the minimum bet {out['min_bet']} is above the maximum")
    return out
