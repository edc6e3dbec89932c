"""The classic console game's solver, checked against the round engine itself.

The oracle deals every ordering of a small unseen pack through the real round (stacked
shoe: player card, upcard, player card, hole card, then the draws), so the dealer's rule,
"21 wins at once" and "ties go to the dealer" are the engine's, not the solver's.
"""

from __future__ import annotations

from itertools import permutations

import pytest
from tablekit import drive, stacked_core

from croupier.engine import CroupierError
from croupier.plugins.blackjack.play import Action
from croupier.plugins.blackjack.solver.cards import counts_of, parse_cards
from croupier.plugins.blackjack.solver.classic import ClassicHand, best_total
from croupier.plugins.blackjack.strategy import local_strategy


def code(rank: str, i: int) -> str:
    """A card code of ``rank`` (``A``, ``2``-``9``, ``T``), suits in turn."""
    return rank + "SHDC"[i % 4]


def engine_average(manager, hand: str, upcard: str, unseen: str, policy, betting="classic"):
    """The exact mean result of ``policy`` over every ordering of ``unseen``, by the engine."""
    rules = manager.rule_sets.get("classic").rules.evolve(betting=betting)
    a, b = hand.split(",")
    total = n = 0
    for order in set(permutations(unseen.split(","))):
        deal = [code(a, 0), code(upcard, 1), code(b, 2)]
        deal += [code(r, i + 3) for i, r in enumerate(order)]
        core = stacked_core(manager, rules, " ".join(deal), chips=(100,))
        drive(core, answer_with(policy))
        total += core.ledger.balances["seat-1"] - 100
        n += 1
    return total / n


def answer_with(policy):
    """Bet 1, then the policy's moves in order."""
    moves = iter(policy)
    return lambda d: Action("bet", 1) if d.phase == "bet" else Action(next(moves))


def solver_for(hand: str, upcard: str, unseen: str, payoff=(1.0, -1.0, -1.0)):
    cards = parse_cards(hand)
    solver = ClassicHand(parse_cards(upcard)[0], payoff, infinite=False)
    pack = counts_of(parse_cards(unseen))
    hard = sum(r + 1 for r in cards)
    return solver, pack, hard, 0 in cards


CASES = [
    ("T,6", "9", "A,2,3,5,7,T,T"),
    ("9,3", "2", "A,4,6,8,T,T,T"),
    ("A,5", "T", "2,3,4,6,9,T,T"),  # soft 16
    ("8,8", "6", "A,A,2,5,T,T,T"),
    ("2,3", "7", "A,2,4,6,9,T,T"),  # below the upcard: the hole card is dealt all the same
]


@pytest.mark.parametrize(("hand", "upcard", "unseen"), CASES)
def test_stand_matches_every_deal_of_the_engine(manager, hand, upcard, unseen):
    solver, pack, hard, ace = solver_for(hand, upcard, unseen)
    exact = engine_average(manager, hand, upcard, unseen, ["stand"])
    assert solver.stand(pack, hard, ace) == pytest.approx(exact, abs=1e-12)


@pytest.mark.parametrize(("hand", "upcard", "unseen"), CASES)
def test_hit_then_stand_matches_the_engine(manager, hand, upcard, unseen):
    """One hit, then stand: the value the solver builds its hit on, card by card."""
    solver, pack, hard, ace = solver_for(hand, upcard, unseen)
    ours = 0.0
    n = sum(pack)
    for r, count in enumerate(pack):
        if not count:
            continue
        h, a = hard + r + 1, ace or r == 0
        rest = (*pack[:r], count - 1, *pack[r + 1 :])
        if h > 21:
            value = -1.0
        elif best_total(h, a) == 21:
            value = 1.0
        else:
            value = solver.stand(rest, h, a)
        ours += count / n * value
    exact = engine_average(manager, hand, upcard, unseen, ["hit", "stand"])
    assert ours == pytest.approx(exact, abs=1e-12)


def test_ties_push_under_casino_betting(manager):
    hand, upcard, unseen = CASES[0]
    solver, pack, hard, ace = solver_for(hand, upcard, unseen, payoff=(1.0, 0.0, -1.0))
    exact = engine_average(manager, hand, upcard, unseen, ["stand"], betting="casino")
    assert solver.stand(pack, hard, ace) == pytest.approx(exact, abs=1e-12)


def test_best_is_the_larger_of_stand_and_optimal_hit(manager):
    solver, pack, hard, ace = solver_for("T,2", "6", "A,2,3,4,5,6,7,8,9,T,T,T")
    # the dealer draws from at least 8 towards 12 and can never bust: standing always loses
    assert solver.stand(pack, hard, ace) == -1.0
    assert solver.best(pack, hard, ace) == max(-1.0, solver.hit(pack, hard, ace))
    assert solver.hit(pack, hard, ace) > -1.0


def classic(manager, **problem):
    """Solve ``problem`` under the classic rule set (``rules`` overrides some of its options)."""
    rules = {**manager.rule_sets.get("classic").rules.to_dict(), **problem.pop("rules", {})}
    return manager.solvers.get("blackjack").solve({"rules": rules, **problem})


def test_solver_answers_a_classic_hand_by_name(manager):
    out = classic(manager, hand="T,6", upcard="T")
    hand = out["hand"]
    assert set(hand["actions"]) == {"stand", "hit"}
    values = {k: v["ev"] for k, v in hand["actions"].items()}
    assert hand["best"] == max(values, key=lambda k: values[k])
    assert min(values.values()) >= -1 and max(values.values()) <= 1
    assert "classic dealer" in out["note"]
    win = classic(manager, hand="T,6", upcard="T", objective="win-probability")
    for kind, action in win["hand"]["actions"].items():  # no pushes: EV = 2 P(win) - 1
        assert action["win_probability"] == pytest.approx((values[kind] + 1) / 2)


def test_infinite_deck_is_the_limit_of_many_decks(manager):
    def ev(decks):
        rules = manager.rule_sets.get("classic").rules.evolve(decks=decks).to_dict()
        out = manager.solvers.get("blackjack").solve({"rules": rules, "hand": "9,4", "upcard": "7"})
        return {k: v["ev"] for k, v in out["hand"]["actions"].items()}

    inf, many = ev(None), ev(64)
    for kind in inf:
        assert inf[kind] == pytest.approx(many[kind], abs=5e-3)


@pytest.mark.parametrize(
    ("problem", "message"),
    [
        ({"hand": "T,6"}, "go together"),
        ({"chart": True}, "no chart"),
        ({"hand": "T,A", "upcard": "5"}, "wins at once"),
        ({"hand": "T,8,5", "upcard": "5"}, "already bust"),
        ({"hand": "A,A,A,A", "upcard": "A"}, "hold only 4 card"),
        ({"hand": "T,6", "upcard": "T", "rules": {"peek": True}}, "without the dealer's peek"),
    ],
)
def test_classic_problems_that_cannot_be_answered(manager, problem, message):
    with pytest.raises(CroupierError, match=message):
        classic(manager, **problem)


@pytest.mark.slow
def test_simulated_exact_play_earns_the_games_exact_value(manager):
    """The engine deals and settles; the solver's value of the whole game must match."""
    from croupier.plugins.blackjack.simulate import simulate
    from croupier.plugins.blackjack.solver.classic import game_value

    rules = manager.rule_sets.get("classic").rules
    value = game_value(rules)
    assert value == pytest.approx(classic(manager)["game"]["value"])
    report = simulate(manager, rules, local_strategy(manager, "basic", rules), 20_000, 1, seed=7)
    low, high = report["ci95"]
    sigma = (high - low) / 2 / 1.96
    assert abs(report["mean"] - value) < 3 * sigma
    assert report["conserved"]


def test_exact_play_hits_a_sure_loss_and_stands_on_twenty(manager):
    from croupier.plugins.blackjack.solver.classic import ClassicPlayer

    player = ClassicPlayer(manager.rule_sets.get("classic").rules)
    assert player.decide([9, 1], 5) == "hit"  # T,2 against a 6: standing always loses
    assert player.decide([9, 9], 0) == "stand"


def test_cli_gives_the_whole_games_value(cli):
    status, out, _ = cli("solve", "blackjack", "--rules", "classic", "--decks", "inf")
    assert status == 0
    assert "the whole game, every hand played optimally" in out
    status, _, err = cli("solve", "blackjack", "--rules", "classic", "--chart")
    assert status == 1 and "no chart" in err and err.count("\n") == 1
