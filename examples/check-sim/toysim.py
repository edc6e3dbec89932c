"""A tiny blackjack simulator to try ``croupier check-sim`` on, with a bug to switch on.

It deals from an infinite deck (each card 1/13, ten-valued cards 4/13), the dealer stands
on soft 17, a natural pays 3:2 (a push against a dealer natural), and the player mimics
the dealer: hits below 17, stands on 17 or more, never doubles, splits or surrenders (the
chart in mimic.csv). It prints the EV per hand, its SD and the hands played.

    python examples/check-sim/toysim.py --hands 300000 --seed 1
    python examples/check-sim/toysim.py --hands 300000 --seed 1 --bug bj-push

``--bug bj-push`` pays a player's natural as a push when the dealer ends on a 21 of three
or more cards (a natural beats any 21 that is not a natural: that is the bug);
``--bug h17`` lets the dealer hit soft 17 though the rules say stand.
"""

from __future__ import annotations

import argparse
import math
import random

RANKS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def total(cards: list[int]) -> tuple[int, bool]:
    hard = sum(cards)
    if 1 in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def play_round(rng: random.Random, bug: str) -> float:
    player = [rng.choice(RANKS), rng.choice(RANKS)]
    dealer = [rng.choice(RANKS), rng.choice(RANKS)]
    p_natural = total(player)[0] == 21
    d_natural = total(dealer)[0] == 21
    if p_natural or d_natural:
        if p_natural and d_natural:
            return 0.0
        if d_natural:
            return -1.0
    if not p_natural:
        while total(player)[0] < 17:
            player.append(rng.choice(RANKS))
        if total(player)[0] > 21:
            return -1.0
    while True:
        value, soft = total(dealer)
        if value < 17 or (bug == "h17" and value == 17 and soft):
            dealer.append(rng.choice(RANKS))
        else:
            break
    d_total = total(dealer)[0]
    if p_natural:
        return 0.0 if bug == "bj-push" and d_total == 21 else 1.5
    p_total = total(player)[0]
    if d_total > 21 or p_total > d_total:
        return 1.0
    return 0.0 if p_total == d_total else -1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bug", choices=("none", "bj-push", "h17"), default="none")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    s = s2 = 0.0
    for _ in range(args.hands):
        x = play_round(rng, args.bug)
        s += x
        s2 += x * x
    mean = s / args.hands
    sd = math.sqrt(s2 / args.hands - mean * mean)
    print(f"hands {args.hands} ev {mean:.6f} sd {sd:.6f}")


if __name__ == "__main__":
    main()
