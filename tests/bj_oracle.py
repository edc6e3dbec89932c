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


# -- the real split game, resplits included -------------------------------------------


def presplit_decider(base, up, h17, peek, das):
    """A fixed post-split strategy: the optimal play of the same cards dealt unsplit from
    ``base`` (the shoe the decisions are taken in, before the hand's own cards leave it).
    Returns ``decide(cards) -> "stand" | "hit" | "double"``."""
    memo = {}

    def decide(cards):
        key = tuple(sorted(cards))
        if key not in memo:
            shoe = list(base)
            for r in cards:
                shoe[r] -= 1
            worlds = initial_worlds(shoe, up, peek)
            s = stand(cards, worlds, up, h17)
            h = hit(cards, worlds, up, h17) if best_total(cards)[0] < 21 else s - 1
            choice = "hit" if h > s else "stand"
            if das and len(cards) == 2 and max(s, h) < double(cards, worlds, up, h17):
                choice = "double"
            memo[key] = choice
        return memo[key]

    return decide


def split_game(shoe, rank, up, h17, peek, limit, decide, hit_split_aces=False):
    """The exact value of splitting ``rank, rank`` against ``up``, dealt in the real order.

    ``shoe`` is the shoe after the upcard and both pair cards left it. The hole card is dealt
    first (under the peek a blackjack hole is excluded: unnormalised, like the solver's
    values). Then the first hand takes its second card; a pair card is split off into a
    new hand while fewer than ``limit`` hands are in play, and the hand draws again; the
    hand is then played out by ``decide`` before the next hand gets its second card.
    Finally the dealer draws and every hand is settled.
    """
    total = 0.0
    for w, hole, rest in initial_worlds(list(shoe), up, peek):
        game = _split_game_with_hole(hole, rank, up, h17, limit, decide, hit_split_aces)
        total += w * game(tuple(rest), (), [rank], 1, 1, 2)
    return total


def _split_game_with_hole(hole, rank, up, h17, limit, decide, hit_split_aces):
    """``game(shoe, done, cards, bet, waiting, hands)``: the value of the rest of the round
    with the dealer's hole card known to the brute force (never to the player)."""
    memo = {}

    def settle(shoe, done):
        out = 0.0
        finals = dealer_finals(up, hole, list(shoe), h17)
        assert abs(sum(finals.values()) - 1) < 1e-12, "the shoe ran out (pick a bigger one)"
        for final, p in finals.items():
            for value, bet in done:
                if value > 21 or final == "bj" or (final != 22 and final > value):
                    out -= p * bet
                elif final == 22 or final < value:
                    out += p * bet
        return out

    def game(shoe, done, cards, bet, waiting, hands):
        key = (shoe, done, tuple(sorted(cards)), bet, waiting, hands)
        if key in memo:
            return memo[key]
        if len(cards) == 1:
            action = "deal"
        elif (rank == 0 and not hit_split_aces) or best_total(cards)[0] >= 21 or bet == 2:
            action = "stand"
        else:
            action = decide(cards)
        if action == "stand":
            finished = tuple(sorted((*done, (best_total(cards)[0], bet))))
            if waiting:
                value = game(shoe, finished, [rank], 1, waiting - 1, hands)
            else:
                value = settle(shoe, finished)
        else:
            size = sum(shoe)
            assert size, "the shoe ran out (pick a bigger one)"
            value = 0.0
            for r in range(10):
                if not shoe[r]:
                    continue
                left = (*shoe[:r], shoe[r] - 1, *shoe[r + 1 :])
                p = shoe[r] / size
                if action == "deal" and r == rank and hands < limit:
                    value += p * game(left, done, cards, bet, waiting + 1, hands + 1)
                elif action == "double":
                    value += p * game(left, done, [*cards, r], 2, waiting, hands)
                else:
                    value += p * game(left, done, [*cards, r], bet, waiting, hands)
        memo[key] = value
        return value

    return game
