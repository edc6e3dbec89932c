"""CDPN (the post-split mode that knows how many pair and non-pair cards the split's other
hands took) against a brute force of its own, and the order of the post-split modes.

The brute force is plain Python over explicit deals (nothing from the solver): the split
dealt as the split walk assumes (hole card first, then every split hand's second card, a
pair card opening a new hand while fewer than the limit are in play), each hand labelled
with what CDPN lets it know; the best play for each label is found by trying every action
at every decision over every deal with that label, then the whole game is played out in
order with those decisions, every hand drawing from the real shoe, and settled.
"""

from __future__ import annotations

import functools
import json

import bj_oracle as oracle
import pytest

from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import solve
from croupier.plugins.blackjack.solver.analysis import UpcardSolver
from croupier.plugins.blackjack.solver.decisions import action_values
from croupier.plugins.blackjack.solver.hand import Hand
from croupier.plugins.blackjack.solver.hands import Evaluator
from croupier.plugins.blackjack.solver.split import (
    SplitShoes,
    named_strategy,
    split_value,
)

MODES = ("cdz-", "cdp1", "cdp", "cdpn")


def take(shoe, r):
    return (*shoe[:r], shoe[r] - 1, *shoe[r + 1 :])


def cdpn_brute_force(shoe, rank, up, rules):
    """The split's value with every hand played at its best for its label: (own cards,
    hands the split made, non-pair second cards the other hands took while the split could
    grow, whether its own second card was one of those). ``shoe``: after the upcard and both
    pair cards left it."""
    h17, das = rules.hits_soft_17, rules.double_after_split
    limit = 2 if rank == 0 and not rules.resplit_aces else rules.max_split_hands
    aces = rank == 0 and not rules.hit_split_aces

    @functools.cache
    def finals(hole, shoe):
        out = oracle.dealer_finals(up, hole, list(shoe), h17)
        assert abs(sum(out.values()) - 1) < 1e-12, "the shoe ran out (pick a bigger one)"
        return out

    def result(value, bet, final):
        if value > 21 or final == "bj" or (final != 22 and final > value):
            return -bet
        return bet if final == 22 or final < value else 0.0

    def stand(cards, worlds, bet=1.0):
        value = oracle.best_total(cards)[0]
        return sum(
            w * p * result(value, bet, final)
            for (hole, shoe), w in worlds.items()
            for final, p in finals(hole, shoe).items()
        )

    def draw(worlds):
        out: dict = {}
        for (hole, shoe), w in worlds.items():
            size = sum(shoe)
            for r in range(10):
                if shoe[r]:
                    key = (hole, take(shoe, r))
                    out.setdefault(r, {})
                    out[r][key] = out[r].get(key, 0.0) + w * shoe[r] / size
        return out

    # every deal of the second cards: (P, hole, shoe left, ((second card, kind), ...), hands)
    deals = []

    def deal(p, hole, shoe, dealt, waiting, hands, before):
        if waiting == 0:
            deals.append((p, hole, shoe, dealt, hands, before))
            return
        size = sum(shoe)
        for r in range(10):
            if not shoe[r]:
                continue
            q, left = p * shoe[r] / size, take(shoe, r)
            if r == rank and hands < limit:
                deal(q, hole, left, dealt, waiting + 1, hands + 1, before)
            elif hands < limit:  # a non-pair card while the split could still grow
                deal(q, hole, left, (*dealt, (r, "N")), waiting - 1, hands, before + 1)
            else:
                deal(q, hole, left, (*dealt, (r, "X")), waiting - 1, hands, before)

    for w, hole, rest in oracle.initial_worlds(list(shoe), up, rules.peek):
        deal(w, hole, tuple(rest), (), 2, 2, 0)

    def label(kind, hands, before):
        return (hands, before - 1 if kind == "N" else before, kind)

    # the best play per label: every deal with that label pooled, hand by hand
    pooled: dict = {}
    for p, hole, left, dealt, hands, before in deals:
        for second, kind in dealt:
            worlds = pooled.setdefault(label(kind, hands, before), {}).setdefault(second, {})
            worlds[hole, left] = worlds.get((hole, left), 0.0) + p
    decisions: dict = {}

    def best(key, cards, worlds):
        options = {"stand": stand(cards, worlds)}
        if not (aces and len(cards) == 2) and oracle.best_total(cards)[0] < 21:
            drawn = draw(worlds)
            options["hit"] = sum(best(key, [*cards, r], ws) for r, ws in drawn.items())
            if das and len(cards) == 2:
                options["double"] = sum(stand([*cards, r], ws, 2.0) for r, ws in drawn.items())
        choice = max(options, key=lambda k: options[k])
        decisions[key, tuple(cards)] = choice
        return options[choice]

    for key, seconds in pooled.items():
        for second, worlds in seconds.items():
            best(key, [rank, second], worlds)

    # the whole game in order, every hand by its label's decisions, then the dealer
    @functools.cache
    def play(hole, shoe, hands, i, cards, bet, done):
        key = hands[i][0]
        action = "stand" if bet == 2 else decisions[key, cards]
        if action == "stand":
            done = tuple(sorted((*done, (oracle.best_total(cards)[0], bet))))
            if i + 1 == len(hands):
                return sum(
                    p * sum(result(v, b, final) for v, b in done)
                    for final, p in finals(hole, shoe).items()
                )
            nxt = hands[i + 1]
            return play(hole, shoe, hands, i + 1, (rank, nxt[1]), 1, done)
        size = sum(shoe)
        value = 0.0
        for r in range(10):
            if shoe[r]:
                new = (*cards, r)
                if action == "double":
                    value += shoe[r] / size * play(hole, take(shoe, r), hands, i, new, 2, done)
                else:
                    value += shoe[r] / size * play(hole, take(shoe, r), hands, i, new, 1, done)
        return value

    total = 0.0
    for p, hole, left, dealt, hands, before in deals:
        labelled = tuple((label(kind, hands, before), second) for second, kind in dealt)
        total += p * play(hole, left, labelled, 0, (rank, labelled[0][1]), 1, ())
    return total


def solver_split(shoe, rank, up, rules, mode):
    main = Evaluator(rules, up, shoe)
    strategy = named_strategy(mode, main, rules.double_after_split)
    return split_value(SplitShoes(rules, up, shoe, rank), strategy)


def after_split(shoe, rank, up):
    left = list(shoe)
    left[up] -= 1
    left[rank] -= 2
    return tuple(left)


# tiny shoes where knowing the other hands' second cards changes decisions (no round can
# run out of cards: the brute force checks)
DEUCES = (0, 5, 0, 1, 1, 2, 0, 0, 0, 9)  # 18 cards: 2,2 against a 6
SIXES = (0, 1, 0, 1, 1, 6, 0, 0, 1, 7)  # 17 cards: 6,6 against a 5
ACES = (4, 1, 1, 0, 0, 1, 0, 0, 0, 8)  # 15 cards: A,A against a 6
EIGHTS = (1, 2, 0, 0, 0, 0, 0, 6, 0, 7)  # 16 cards: 8,8 against an ace (the peek)
TENS_UP = (1, 4, 0, 0, 0, 0, 0, 1, 1, 10)  # 17 cards: 2,2 against a ten (the peek)
CASES = [
    (DEUCES, 1, 5, {"max_split_hands": 3}),
    (DEUCES, 1, 5, {"max_split_hands": 4}),
    (SIXES, 5, 4, {"max_split_hands": 3, "double_after_split": False}),
    (SIXES, 5, 4, {"max_split_hands": 4, "peek": False, "dealer": "h17"}),
    (ACES, 0, 5, {"max_split_hands": 3, "resplit_aces": True, "hit_split_aces": True}),
    (EIGHTS, 7, 0, {"max_split_hands": 3}),
    (TENS_UP, 1, 9, {"max_split_hands": 3}),
]


@pytest.mark.parametrize(("shoe", "rank", "up", "changes"), CASES)
def test_cdpn_agrees_with_its_brute_force(shoe, rank, up, changes):
    rules = BlackjackRules(decks=1, surrender="none").evolve(**changes)
    expected = cdpn_brute_force(after_split(shoe, rank, up), rank, up, rules)
    got = solver_split(shoe, rank, up, rules, "cdpn")
    assert got == pytest.approx(expected, abs=1e-12)
    # the case tells the modes apart: the knowledge is worth something here
    assert got - solver_split(shoe, rank, up, rules, "cdp") > 1e-3
    assert got > max(solver_split(shoe, rank, up, rules, m) for m in ("cdz-", "cdp1"))


def test_without_resplits_cdpn_is_cdp():
    """One split: the only term is the first hand's with nothing else out (a pair of aces
    with no resplit of aces likewise), so CDPN plays as CDP (and CDP1) does."""
    rules = BlackjackRules(decks=1, surrender="none", max_split_hands=2)
    assert solver_split(DEUCES, 1, 5, rules, "cdpn") == pytest.approx(
        solver_split(DEUCES, 1, 5, rules, "cdp"), abs=1e-15
    )
    assert solver_split(DEUCES, 1, 5, rules, "cdpn") == pytest.approx(
        cdpn_brute_force(after_split(DEUCES, 1, 5), 1, 5, rules), abs=1e-12
    )
    one_deck = BlackjackRules(decks=1, max_split_hands=4, resplit_aces=False)
    shoe = (4,) * 9 + (16,)
    for rank, up, rules in ((1, 6, one_deck.evolve(max_split_hands=2)), (0, 5, one_deck)):
        assert solver_split(shoe, rank, up, rules, "cdpn") == pytest.approx(
            solver_split(shoe, rank, up, rules, "cdp"), abs=1e-15
        )


@pytest.mark.slow  # four modes' splits of every pair against two upcards; the tiny shoes cover it
def test_cdpn_bounds_every_fixed_post_split_mode():
    """CDPN maximises each hand term of the split over every play, and CDZ-, CDP1 and CDP
    are plays: CDPN is worth at least as much as each of them, pair by pair (a single
    deck, split to 4, DAS, aces resplit: every term occurs; against a 6 and a ten)."""
    rules = BlackjackRules(decks=1, max_split_hands=4, resplit_aces=True)
    gains = []
    for up in (5, 9):
        values = {}
        for mode in MODES:
            solver = UpcardSolver(rules, up, "ev", split_strategy=mode)
            values[mode] = {x: solver.split(x) for x in solver.splits}
        for x, best in values["cdpn"].items():
            for mode in ("cdz-", "cdp1", "cdp"):
                assert best >= values[mode][x] - 1e-12, (mode, x, up)
            gains.append(best - values["cdp"][x])
    assert max(gains) > 1e-9  # and the knowledge is worth something somewhere


def test_cdpn_knows_more_than_the_real_deal_order_tells():
    """CDPN (and CDP) values the split dealt second cards first: a hand knows how many
    pair cards the split took, in the real order a first hand is played before the others
    draw theirs. With resplits it is no bound below perfect play in the real order (on
    this tiny shoe it exceeds it); with one split perfect play bounds it."""
    from test_blackjack_split import perfect_split_game

    left = after_split(DEUCES, 1, 5)
    resplits = BlackjackRules(decks=1, surrender="none", max_split_hands=3)
    one = resplits.evolve(max_split_hands=2)
    assert solver_split(DEUCES, 1, 5, resplits, "cdpn") > perfect_split_game(left, 1, 5, resplits)
    assert solver_split(DEUCES, 1, 5, one, "cdpn") <= perfect_split_game(left, 1, 5, one) + 1e-12


def test_cdpn_is_cdp1_in_an_infinite_deck():
    rules = BlackjackRules(decks=None, max_split_hands=4).to_dict()
    values = {
        mode: solve({"rules": rules, "hand": "8,8", "upcard": "T", "post_split": mode})["hand"][
            "actions"
        ]["split"]["ev"]
        for mode in ("cdp1", "cdpn")
    }
    assert values["cdpn"] == pytest.approx(values["cdp1"], abs=1e-15)


def test_cdpn_through_the_cli_and_the_oracle(cli):
    """``--post-split cdpn`` reaches the hand's values (and says so in the JSON); the
    oracle's action values take the mode on a depleted shoe."""
    status, out, err = cli(
        "solve", "blackjack", "--decks", "1", "--hand", "2,2", "--upcard", "7",
        "--post-split", "cdpn", "--json",
    )  # fmt: skip
    assert status == 0, err
    data = json.loads(out)
    assert data["post_split"] == "cdpn"
    split = data["hand"]["actions"]["split"]["ev"]
    rules = BlackjackRules(decks=1)
    cdp = solve({"rules": rules.to_dict(), "hand": "2,2", "upcard": "7", "post_split": "cdp"})
    assert split >= cdp["hand"]["actions"]["split"]["ev"] - 1e-12

    tiny = BlackjackRules(decks=1, surrender="none", max_split_hands=3)
    left = list(DEUCES)
    left[1] -= 2
    left[5] -= 1  # the hand and the upcard are out of the shoe the oracle is given
    values = action_values(tiny, left, [1, 1], 5, post_split="cdpn")
    mass = Evaluator(tiny, 5, DEUCES).mass(Hand(4, False, (0, 2) + (0,) * 8))
    assert values["split"] == pytest.approx(solver_split(DEUCES, 1, 5, tiny, "cdpn") / mass)
    assert values["split"] > action_values(tiny, left, [1, 1], 5, post_split="cdp")["split"]
