"""Independent brute force for the blackjack solver's tests: plays the real deal order.

The hole card is dealt before the player draws and is unknown to the player: a player
decision is taken over every possible hole card at once ("worlds"), each with its own
remaining shoe. Nothing here is shared with the solver.
"""

from __future__ import annotations

VALUES = list(range(1, 11))  # rank index r has value r + 1


def best_total(cards):
    hard = sum(c + 1 for c in cards)
    if 0 in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def dealer_finals(up, hole, shoe, h17):
    """{final total (22 = bust, 'bj'): probability} for the dealer drawing from ``shoe``."""
    out = {}

    def walk(cards, shoe, p):
        value, soft = best_total(cards)
        if len(cards) == 2 and value == 21:
            out["bj"] = out.get("bj", 0) + p
            return
        if value > 21:
            out[22] = out.get(22, 0) + p
            return
        if value > 17 or (value == 17 and not (soft and h17)):
            out[value] = out.get(value, 0) + p
            return
        size = sum(shoe)
        for r in range(10):
            if shoe[r]:
                rest = list(shoe)
                rest[r] -= 1
                walk([*cards, r], rest, p * shoe[r] / size)

    walk([up, hole], shoe, 1.0)
    return out


def initial_worlds(shoe, up, peek):
    """(weight, hole, shoe left) for every hole card; under the peek, no dealer blackjack."""
    size = sum(shoe)
    worlds = []
    for h in range(10):
        if not shoe[h]:
            continue
        if peek and best_total([up, h])[0] == 21:
            continue
        rest = list(shoe)
        rest[h] -= 1
        worlds.append((shoe[h] / size, h, rest))
    return worlds


def stand(cards, worlds, up, h17, bet=1.0):
    value, _ = best_total(cards)
    total = 0.0
    for w, hole, shoe in worlds:
        if value > 21:
            total -= w * bet
            continue
        for final, p in dealer_finals(up, hole, shoe, h17).items():
            if final == "bj" or (final != 22 and final > value):
                total -= w * p * bet
            elif final == 22 or final < value:
                total += w * p * bet
    return total


def draw(worlds):
    """{rank: worlds after the player draws that rank}."""
    out = {}
    for w, hole, shoe in worlds:
        size = sum(shoe)
        for r in range(10):
            if shoe[r]:
                rest = list(shoe)
                rest[r] -= 1
                out.setdefault(r, []).append((w * shoe[r] / size, hole, rest))
    return out


def best_play(cards, worlds, up, h17):
    """Hit or stand optimally (the player knows his cards, not the hole card)."""
    s = stand(cards, worlds, up, h17)
    if best_total(cards)[0] >= 21:
        return s
    return max(s, hit(cards, worlds, up, h17))


def hit(cards, worlds, up, h17):
    return sum(best_play([*cards, r], ws, up, h17) for r, ws in draw(worlds).items())


def double(cards, worlds, up, h17):
    return sum(stand([*cards, r], ws, up, h17, 2.0) for r, ws in draw(worlds).items())


def split_first_hand(rank, worlds, up, h17, das):
    """The first split hand alone (the solver's split model): one pair card, then play."""
    total = 0.0
    for r, ws in draw(worlds).items():
        cards = [rank, r]
        v = best_play(cards, ws, up, h17)
        if das:
            v = max(v, double(cards, ws, up, h17))
        total += v
    return total
