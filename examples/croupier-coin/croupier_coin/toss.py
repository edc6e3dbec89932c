"""``coin-toss``: the smallest complete croupier game (docs/games.md walks through it).

Each seat stakes heads or tails; one coin is tossed for the table; a right call pays 1:1.
The house's edge: the coin lands on its edge once in ``edge_odds`` tosses, and then every
bet loses, so a bet's exact expected result is ``-1/edge_odds`` of the stake.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from croupier.engine import (
    ActionSpec,
    CroupierError,
    Emit,
    Field,
    Game,
    GameStrategy,
    Ledger,
    Plain,
    Stream,
    Turn,
    seat_account,
)

SIDES = ("heads", "tails")


class TossCore:
    """One table: the seats' chips (in the ledger), the coin's stream, the rounds played."""

    def __init__(self, options: Plain, seed: int, chips: Sequence[int], emit: Emit | None) -> None:
        self.options = dict(options)
        self.ledger = Ledger({seat_account(i + 1): c for i, c in enumerate(chips)})
        self.round = 0
        self.counts = {"edges": 0}
        self._coin = Stream(seed).child("coin")  # every random draw comes from the seed
        self._emit = emit or (lambda event: None)
        self._seats = len(chips)

    def check(self, turn: Turn, action: Plain) -> str | None:
        # the engine has checked the schema: a bet, on heads or tails, min_bet to max_bet
        chips = self.ledger.balances[seat_account(turn.seat)]
        if action["amount"] > chips:
            return f"the amount is at most your {chips} chips, not {action['amount']}"
        return None

    def play_round(self) -> Generator[Turn, Plain, bool]:
        low = self.options["min_bet"]
        seats = [
            s for s in range(1, self._seats + 1) if self.ledger.balances[seat_account(s)] >= low
        ]
        if not seats:
            return False
        self.round += 1
        bets = {}
        for seat in seats:
            chips = self.ledger.balances[seat_account(seat)]
            seen = {"round": self.round, "seat": seat, "chips": chips, "min_bet": low}
            bet = yield Turn(seat, ("bet",), seen, {"kind": "bet", "on": "heads", "amount": low})
            bets[seat] = bet
            self.ledger.transfer(self.round, seat_account(seat), -bet["amount"], "bet")
            self._emit(
                {
                    "kind": "bet",
                    "round": self.round,
                    "seat": seat,
                    "on": bet["on"],
                    "amount": bet["amount"],
                    "text": f"Seat {seat} calls {bet['on']}.",
                }
            )
        toss = self._coin.randbelow(self.options["edge_odds"])
        side = "edge" if toss == 0 else SIDES[toss % 2]
        self.counts["edges"] += side == "edge"
        self._emit(
            {
                "kind": "toss",
                "round": self.round,
                "side": side,
                "text": f"The coin lands on {side}.",
            }
        )
        for seat, bet in bets.items():
            if bet["on"] == side:
                self.ledger.transfer(self.round, seat_account(seat), 2 * bet["amount"], "win")
        return True


def check_options(options: Plain) -> dict[str, Any]:
    # the engine has checked the schema: each option a whole number of at least 1
    if options["edge_odds"] % 2 == 0:
        raise CroupierError("edge_odds is odd, so heads and tails stay equally likely")
    return dict(options)


def _heads(observation: Plain) -> Plain:
    return {"kind": "bet", "on": "heads", "amount": observation["min_bet"]}


COIN_TOSS = Game(
    name="coin-toss",
    summary="call heads or tails at even money; the house wins when the coin lands on edge",
    options=(
        Field("edge_odds", "int", "the coin lands on edge once in this many tosses (odd)", low=1),
        Field("min_bet", "int", "the smallest bet", low=1),
        Field("max_bet", "int", "the largest bet", low=1),
        Field("starting_chips", "int", "each seat's chips when a table opens", low=1),
    ),
    defaults={"edge_odds": 51, "min_bet": 1, "max_bet": 100, "starting_chips": 100},
    rule_sets={"standard": {}, "thin-coin": {"edge_odds": 1001}},
    check_options=check_options,
    new_core=TossCore,
    actions=(
        ActionSpec(
            "bet",
            "call the toss",
            (
                Field("on", "str", "your call", SIDES, required=True),
                Field(
                    "amount", "int", "chips staked", low="min_bet", high="max_bet", required=True
                ),
            ),
        ),
    ),
    observation=(
        Field("round", "int", "the toss's number"),
        Field("seat", "int", "your seat"),
        Field("chips", "int", "your chips"),
        Field("min_bet", "int", "the smallest bet"),
    ),
    events={"bet": "a seat's call and stake", "toss": "how the coin landed"},
    strategies=(GameStrategy("heads", "always the minimum on heads", _heads),),
    counters=("edges",),
)
