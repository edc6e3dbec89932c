"""The whole game for one rule set: every starting hand's action values, the chart, the edge.

For each upcard the solver builds one :class:`~.hands.Evaluator` for unsplit hands and one
per pair rank for split hands, sharing one store of stand rows (a finite shoe's dealer
distributions, computed compiled when a hand first needs one, see :mod:`.recursion`), then:

* values every action of every two-card hand composition-dependently (CD);
* derives the total-dependent (TD) chart: for each row and upcard, the action with the best
  probability-weighted value over the row's two-card hands (pairs only in rows that have
  no other two-card hand), the hit/stand fallback chosen the same way;
* plays that chart exactly through every composition (:class:`ChartPlayer`) for its edge.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator

import attrs

from croupier.engine import CroupierError
from croupier.plugins.blackjack.rules import BlackjackRules, format_payout
from croupier.plugins.blackjack.solver import split_loop
from croupier.plugins.blackjack.solver.cards import ACE, TEN, Counts, Shoe, full_shoe
from croupier.plugins.blackjack.solver.chart import HARD_ROWS, PAIR_ROWS, SOFT_ROWS, Chart
from croupier.plugins.blackjack.solver.compositions import (
    IntArray as IntArray,
)
from croupier.plugins.blackjack.solver.compositions import (
    compositions as compositions,
)
from croupier.plugins.blackjack.solver.compositions import (
    deal_probability,
    pair_counts,
)
from croupier.plugins.blackjack.solver.hand import Hand
from croupier.plugins.blackjack.solver.hands import Evaluator
from croupier.plugins.blackjack.solver.hit_rules import ByTotals
from croupier.plugins.blackjack.solver.split import (
    SPLIT_STRATEGIES,
    PostSplitPlay,
    SplitShoes,
    named_strategy,
    split_limit,
    split_value,
)
from croupier.plugins.blackjack.solver.stand import Objective, in_chips
from croupier.plugins.blackjack.solver.stand_rows import StandRows

# the contest's dealer draws like S17 (playing out his hand changes no player's result)
SUPPORTED_DEALERS = ("s17", "h17", "koth")
# betting schemes where a tie loses and a natural is an ordinary 21 (no bonus)
TIES_LOSE = ("koth", "classic")
BETTINGS = ("casino", *TIES_LOSE)


def check_rules(rules: BlackjackRules) -> None:
    if rules.dealer not in SUPPORTED_DEALERS:
        raise CroupierError(
            "the blackjack solver knows the casino dealers (s17, h17), the contest's (koth) "
            f"and the classic game's (hit or stand for one hand), not {rules.dealer!r}"
        )
    if rules.betting not in BETTINGS:
        raise CroupierError(
            f"the blackjack solver knows the {', '.join(BETTINGS)} betting, not {rules.betting!r}"
        )
    if rules.betting in TIES_LOSE and rules.blackjack_pays != 1:
        raise CroupierError(
            f"the {rules.betting} betting pays no bonus for a natural, so a "
            f"{format_payout(rules.blackjack_pays)} payout cannot apply (leave it at 1:1)"
        )
    if rules.betting in TIES_LOSE and rules.peek:
        raise CroupierError(
            f"the {rules.betting} betting (ties lose, no blackjack bonus) is solved "
            "without the dealer's peek"
        )


def effective_objective(rules: BlackjackRules, objective: Objective) -> Objective:
    """The EV the rules pay: ``"ev-ties-lose"`` under the koth and classic betting."""
    if objective == "ev" and rules.betting in TIES_LOSE:
        return "ev-ties-lose"
    return objective


def shoe_of(rules: BlackjackRules) -> Counts | None:
    return None if rules.decks is None else full_shoe(rules.decks)


def two_card_hand(c1: int, c2: int, finite: bool) -> Hand:
    return Hand(c1 + 1, c1 == ACE, pair_counts(c1) if finite else None).add(c2)


def can_split(rules: BlackjackRules, objective: Objective) -> bool:
    return in_chips(objective) and rules.max_split_hands >= 2


class UpcardSolver:
    """Everything about one upcard: evaluators, CD action values, split values."""

    def __init__(
        self,
        rules: BlackjackRules,
        upcard: int,
        objective: Objective,
        precompute_all: bool = True,
        split_strategy: str = "cdz-",
        shoe: Shoe | None = None,
        split_ranks: Collection[int] | None = None,
    ) -> None:
        """``shoe`` (counts, possibly fractional) replaces the rules' full shoe: a shoe
        part dealt, such as the mean shoe at a true count. ``split_ranks`` limits the
        pairs whose splits are prepared (None: every pair; a split's preparation is the
        dearest part when only a few hands are wanted)."""
        objective = effective_objective(rules, objective)
        self.rules = rules
        self.upcard = upcard
        self.objective: Objective = objective
        if shoe is None:
            shoe = shoe_of(rules)
        self.shoe = shoe
        self.splitting = can_split(rules, objective)
        ranks = range(10) if split_ranks is None else sorted(split_ranks)
        # the shoes whose stand rows are shared: the main one, and each split's with 1 +
        # a pair cards out besides the hand's own (a <= 2 limit - 3, see split.py)
        limits = [split_limit(x, rules.max_split_hands, rules.resplit_aces) for x in ranks]
        stands = StandRows(1 + sum(2 * limit - 2 for limit in limits) if self.splitting else 1)
        self.main = Evaluator(rules, upcard, shoe, objective, stands=stands)
        if split_strategy not in (*SPLIT_STRATEGIES, "first-hand"):
            named_strategy(split_strategy, self.main)  # the one-line error
        self.split_strategy = split_strategy
        self.splits: dict[int, SplitShoes] = {}
        for x in ranks:
            if self.splitting and (shoe is None or shoe[x] - (upcard == x) >= 2):
                self.splits[x] = SplitShoes(rules, upcard, shoe, x, objective, stands)

    def hands(self) -> Iterator[tuple[int, int, float]]:
        """Two-card hands (c1 <= c2) with P(c1, c2 and this upcard), in any order."""
        for c1 in range(10):
            for c2 in range(c1, 10):
                p = deal_probability(self.shoe, (c1, self.upcard, c2))
                if p > 0:
                    yield c1, c2, p * (1 if c1 == c2 else 2)

    def action_values(self, c1: int, c2: int) -> dict[str, float]:
        """The value (peek units, see hands.py) of every legal action on a two-card hand."""
        ev = self.main
        hand = two_card_hand(c1, c2, ev.finite)
        values = {"stand": ev.stand(hand)}
        if hand.total < 21:
            values["hit"] = ev.hit(hand)
        if ev.can_double(hand):
            values["double"] = ev.double(hand)
        if c1 == c2 and c1 in self.splits:
            values["split"] = self.split(c1)
        if ev.can_surrender():
            values["surrender"] = ev.surrender(hand)
        return values

    def split(self, rank: int, das: bool = True) -> float:
        """The exact value of splitting under the post-split strategy (``das=False``:
        never doubling after the split, for the chart's ``Ph``)."""
        strategy = named_strategy(self.split_strategy, self.main, das)
        return split_value(self.splits[rank], strategy)

    def split_without_das(self, rank: int) -> float:
        return self.split(rank, das=False)

    def natural_value(self, hand: Hand) -> float:
        """A player's natural: paid unless the dealer has one too (then a push)."""
        return float(self.rules.blackjack_pays) * (1.0 - self.main.p_blackjack(hand))


def is_natural(c1: int, c2: int) -> bool:
    return {c1, c2} == {ACE, TEN}


@attrs.frozen
class Analysis:
    """The solved game for one rule set and objective.

    Edges are fractions of the initial bet (positive: the house wins). Under the
    win-probability objective ``edge_cd`` is the player's overall win probability
    (a push counting one half) and ``edge_td`` that of playing the chart.
    """

    rules: BlackjackRules
    objective: Objective
    chart: Chart
    edge_cd: float
    edge_td: float
    cells: dict[tuple[str, int, int], dict[str, float]]  # (kind, row, upcard) -> EVs


TD_CHARTS = ("actual", "infinite")
"""Which chart ``edge_td`` plays: the one built for the rules' own shoe (``actual``), or
the infinite-deck chart played in that shoe (``infinite``, as many published tables)."""


def solve_rules(
    rules: BlackjackRules,
    objective: Objective = "ev",
    on_upcard: Callable[[int], None] | None = None,
    td_chart: str = "actual",
    post_split: str = "cdz-",
) -> Analysis:
    """Solve every upcard; ``on_upcard`` is called after each (for progress bars).

    ``td_chart`` (:data:`TD_CHARTS`) chooses the chart that ``edge_td`` plays, exactly,
    in the rules' shoe; ``chart`` is that chart. ``post_split`` (:data:`.split.
    SPLIT_STRATEGIES`) is how split hands are played in the composition-dependent values
    (the chart's own edge plays the chart after a split too)."""
    if td_chart not in TD_CHARTS:
        raise CroupierError(f"td_chart is actual or infinite, not {td_chart!r}")
    check_rules(rules)
    objective = effective_objective(rules, objective)
    hard: dict[int, list[str]] = {t: ["S"] * 10 for t in HARD_ROWS}
    soft: dict[int, list[str]] = {t: ["S"] * 10 for t in SOFT_ROWS}
    pairs: dict[int, list[str]] = {r: ["S"] * 10 for r in PAIR_ROWS}
    cells: dict[tuple[str, int, int], dict[str, float]] = {}
    solvers = []
    total_cd = 0.0
    for u in range(10):
        solver = UpcardSolver(rules, u, objective, split_strategy=post_split)
        solvers.append(solver)
        rows: dict[tuple[str, int], list[tuple[float, float, dict[str, float], bool]]] = {}
        for c1, c2, p in solver.hands():
            hand = two_card_hand(c1, c2, solver.main.finite)
            if objective == "ev" and is_natural(c1, c2):
                total_cd += p * solver.natural_value(hand)
                continue
            values = solver.action_values(c1, c2)
            total_cd += p * solver.main.round_value(max(values.values()), hand)
            mass = solver.main.mass(hand)
            kind = "soft" if hand.soft else "hard"
            plain = {k: v for k, v in values.items() if k != "split"}
            rows.setdefault((kind, hand.total), []).append((p, p * mass, plain, c1 == c2))
            if c1 == c2:
                letter = _letter(plain)
                if "split" in values:
                    letter = _pair_letter(solver, c1, values, letter)
                pairs[c1][u] = letter
                cells[("pair", c1, u)] = {k: v / mass for k, v in values.items()}
        for (kind, value), members in rows.items():
            table = soft if kind == "soft" else hard
            if value not in table:
                continue
            chosen = [m for m in members if not m[3]] or members
            # weights are P(hand) * P(no dealer blackjack | hand), so that the row's values
            # are means of EVs conditioned on no dealer blackjack (under the peek)
            weight = sum(m[1] for m in chosen)
            agg: dict[str, float] = {}
            for p, _, vals, _ in chosen:
                for k, v in vals.items():
                    agg[k] = agg.get(k, 0.0) + p * v
            table[value][u] = _letter(agg)
            cells[(kind, value, u)] = {k: v / weight for k, v in agg.items()}
        if on_upcard is not None:
            on_upcard(u)
    chart = Chart(hard=hard, soft=soft, pairs=pairs)
    if td_chart == "infinite" and rules.decks is not None:
        chart = solve_rules(rules.evolve(decks=None), objective).chart
    total_td = sum(ChartPlayer(chart, s).round_total() for s in solvers)
    if in_chips(objective):
        return Analysis(rules, objective, chart, -total_cd, -total_td, cells)
    return Analysis(rules, objective, chart, total_cd, total_td, cells)


def _letter(values: dict[str, float]) -> str:
    """The letter for non-split actions' values: best action, then its fallback."""
    best = max(values, key=lambda k: values[k])
    fallback = "H" if values.get("hit", -9.0) > values["stand"] else "S"
    if best == "double":
        return "D" + fallback.lower()
    if best == "surrender":
        return "R" + fallback.lower()
    return fallback


def _pair_letter(solver: UpcardSolver, rank: int, values: dict[str, float], plain: str) -> str:
    """A pair's letter: split when it beats everything, ``Rp`` when only surrender beats it."""
    rest = max(v for k, v in values.items() if k != "split")
    if values["split"] <= rest:
        others = max(v for k, v in values.items() if k not in ("split", "surrender"))
        return "Rp" if plain.startswith("R") and values["split"] > others else plain
    if solver.rules.double_after_split and solver.split_without_das(rank) <= rest:
        return "Ph" if plain == "H" else "P"
    return "P"


_PLAN_HITS = {"H": True, "Dh": True, "Rh": True, "P": True, "Ph": True, "Rp": True}
_PLAN_HITS.update({"S": False, "Ds": False, "Rs": False})


class ChartPlayer:
    """Plays a chart exactly against one upcard: the value of every hand under the chart."""

    def __init__(self, chart: Chart, solver: UpcardSolver) -> None:
        self.chart = chart
        self.solver = solver
        self._memo: dict[int, dict[object, float]] = {}
        self._rules: dict[int, ByTotals] = {}

    def hits(self, upcard: int) -> ByTotals:
        """The chart's hit-or-stand rule for hands past their first decision (by the
        hand's total and softness: compiled)."""
        found = self._rules.get(upcard)
        if found is None:

            def rule(total: int, soft: bool) -> bool:
                row = (self.chart.soft if soft else self.chart.hard).get(total)
                return row is not None and _PLAN_HITS[row[upcard]]

            found = ByTotals(rule)
            self._rules[upcard] = found
        return found

    def continuation(self, ev: Evaluator, hand: Hand) -> float:
        """Value of a hand that may only hit or stand, played by the chart."""
        memo = self._memo.setdefault(id(ev), {})
        return ev.hit_then(hand, self.hits(ev.upcard), memo)

    def play(self, ev: Evaluator, hand: Hand, cards: list[int], legal: list[str]) -> float:
        action = self.chart.decide_ranks(cards, ev.upcard, legal)
        if action == "stand":
            return ev.stand(hand)
        if action == "hit":
            return self.continuation(ev, hand)
        if action == "double":
            return ev.double(hand)
        if action == "surrender":
            return ev.surrender(hand)
        return split_value(self.solver.splits[cards[0]], self.post_split)

    def post_split(self, shoes: SplitShoes) -> PostSplitPlay:
        """The chart as the post-split strategy of a split of ``shoes.rank``."""
        rank = shoes.rank

        def decide(ev: Evaluator, hand: Hand, second: int) -> str:
            if rank == ACE and not ev.rules.hit_split_aces:
                return "stand"
            legal = ["stand", "hit", "double"][: 3 if ev.can_double(hand, True) else 2]
            return self.chart.decide_ranks([rank, second], ev.upcard, legal)

        return split_loop.ByDecisions(
            lambda ev, hand: self.play_split_hand(ev, hand, rank),
            decide,
            lambda ev: self.hits(ev.upcard).table,
            lambda ev: self._memo.setdefault(id(ev), {}),
        )

    def play_split_hand(self, ev: Evaluator, hand: Hand, rank: int) -> float:
        second = hand.hard - (rank + 1) - 1
        if rank == ACE and not ev.rules.hit_split_aces:
            return ev.stand(hand)
        legal = ["stand", "hit"]
        if ev.can_double(hand, after_split=True):
            legal.append("double")
        return self.play(ev, hand, [rank, second], legal)

    def round_total(self) -> float:
        """Sum over two-card hands of P(hand, upcard) * the round's value under the chart."""
        solver = self.solver
        ev = solver.main
        out = 0.0
        for c1, c2, p in solver.hands():
            hand = two_card_hand(c1, c2, ev.finite)
            if solver.objective == "ev" and is_natural(c1, c2):
                out += p * solver.natural_value(hand)
                continue
            legal = ["stand"]
            if hand.total < 21:
                legal.append("hit")
            if ev.can_double(hand):
                legal.append("double")
            if ev.can_surrender():
                legal.append("surrender")
            if c1 == c2 and c1 in solver.splits:
                legal.append("split")
            out += p * ev.round_value(self.play(ev, hand, [c1, c2], legal), hand)
        return out
