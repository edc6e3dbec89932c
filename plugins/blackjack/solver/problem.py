"""The solver's problem and solution as plain data (the CLI, Python and the wire alike).

Problem keys (all optional):

* ``rules``: blackjack rule options as :meth:`BlackjackRules.to_dict` gives them
  (``decks: null`` or ``"inf"`` is an infinite deck); missing options take their defaults.
* ``objective``: ``"ev"`` (default) or ``"win-probability"`` (win 1, push 1/2, loss 0,
  hit or stand only, a dealer's two-card 21 is an ordinary 21: the classic calculator).
* ``chart``: true for the basic-strategy chart and the house edge.
* ``hand`` (``"T,6"``) and ``upcard`` (``"T"``): the exact value of every action.
* ``dealer``: true for the dealer's final-total probabilities per upcard.
* ``post_split``: how split hands are played when a split is valued: ``"cdz-"`` (default,
  the pre-split decisions), ``"cdp1"`` (the first split hand's), ``"cdp"`` (by the pair
  cards the split used) or ``"cdpn"`` (the best play knowing the pair and non-pair cards
  the other split hands took); see :mod:`.split` and :mod:`.cdpn`.
* ``eor``: true for the effects of removal of the basic-strategy chart (a finite shoe):
  ``effects_of_removal`` per rank and ``depletion_self_test`` (see :mod:`.removal`).
* ``indices``: playing indices for a card count (``{"count": {...}, "decisions": [...]}``,
  see :func:`.count_indices.solve_indices`); answered alone, with the rules.

Under the ``classic`` dealer (the console game: he draws to the player's total) a ``hand``
and ``upcard`` are answered, hit or stand, and with neither the whole game's value
(:mod:`.classic`); there is no chart or dealer table. Under the ``koth`` and ``classic``
betting a tie loses and a natural is an ordinary 21 (the solution's note says so).

With none of ``chart``, ``hand`` and ``dealer`` the chart is solved.
"""

from __future__ import annotations

from typing import Any

from croupier.engine import CroupierError, Problem, Solution
from croupier.plugins.blackjack.rules import BlackjackRules, rules_from_options
from croupier.plugins.blackjack.solver import dealer
from croupier.plugins.blackjack.solver.analysis import (
    TD_CHARTS,
    UpcardSolver,
    check_rules,
    effective_objective,
    is_natural,
    shoe_of,
    solve_rules,
)
from croupier.plugins.blackjack.solver.cards import RANKS, full_shoe, hand_text, parse_hand
from croupier.plugins.blackjack.solver.chart import UPCARD_ORDER
from croupier.plugins.blackjack.solver.classic import solve_classic
from croupier.plugins.blackjack.solver.count_indices import solve_indices
from croupier.plugins.blackjack.solver.hand import make_hand
from croupier.plugins.blackjack.solver.hands import INFINITE_PROBS
from croupier.plugins.blackjack.solver.removal import effects_of_removal
from croupier.plugins.blackjack.solver.split import SPLIT_STRATEGIES
from croupier.plugins.blackjack.solver.stand import OBJECTIVES, Objective, in_chips

KEYS = (
    "rules",
    "objective",
    "chart",
    "hand",
    "upcard",
    "dealer",
    "td_chart",
    "post_split",
    "eor",
    "indices",
)
TIES_NOTE = (
    "{betting} betting: a tie loses and a natural is an ordinary 21 (paid 1:1, losing to "
    "any dealer 21); EVs from a full shoe"
)
PEEK_NOTE = (
    "EVs are conditioned on the dealer not having blackjack (the dealer peeks); "
    "round_ev includes the dealer's blackjack"
)


def parse_rules(data: Any) -> BlackjackRules:
    if data is None:
        return BlackjackRules()
    if not isinstance(data, dict):
        raise CroupierError("'rules' must be an object of rule options")
    options = dict(data)
    if isinstance(options.get("decks"), str) and options["decks"].lower() in ("inf", "infinite"):
        options["decks"] = None
    return rules_from_options(BlackjackRules(), options)


def _cards_as_text(problem: Problem) -> dict[str, str]:
    """``hand`` and ``upcard`` as text: ``"T,6"``, or a list of card names (``["T", "6"]``,
    natural in JSON); anything else is refused in one line."""
    out: dict[str, str] = {}
    for key in ("hand", "upcard"):
        value = problem.get(key)
        if isinstance(value, list) and all(isinstance(card, str) for card in value):
            out[key] = ",".join(value)
        elif value is not None and not isinstance(value, str):
            raise CroupierError(f"'{key}' is cards as text, such as \"T,6\", or a list of them")
    return out


def solve(problem: Problem) -> Solution:
    """Solve a blackjack problem (see the module docstring for its keys)."""
    if not isinstance(problem, dict):
        raise CroupierError("a blackjack problem is an object")
    unknown = set(problem) - set(KEYS)
    if unknown:
        raise CroupierError(
            f"unknown problem key(s): {', '.join(sorted(unknown))} (known: {', '.join(KEYS)})"
        )
    problem = {**problem, **_cards_as_text(problem)}
    rules = parse_rules(problem.get("rules"))
    objective = problem.get("objective", "ev")
    if objective not in OBJECTIVES:
        raise CroupierError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    td_chart = problem.get("td_chart", "actual")
    if td_chart not in TD_CHARTS:
        raise CroupierError(f"td_chart is actual or infinite, not {td_chart!r}")
    post_split = problem.get("post_split", "cdz-")
    if post_split not in SPLIT_STRATEGIES:
        raise CroupierError(
            f"post_split is one of {', '.join(SPLIT_STRATEGIES)}, not {post_split!r}"
        )
    if problem.get("indices") is not None:
        if objective != "ev":
            raise CroupierError("indices are generated for the EV objective")
        return {"rules": rules.to_dict(), **solve_indices(rules, problem["indices"])}
    if rules.dealer == "classic":
        return solve_classic(problem, rules, objective)
    check_rules(rules)
    solved = effective_objective(rules, objective)  # the EV the betting pays
    hand, upcard = problem.get("hand"), problem.get("upcard")
    if (hand is None) != (upcard is None):
        raise CroupierError("'hand' and 'upcard' go together (e.g. hand T,6 and upcard T)")
    want_chart = bool(problem.get("chart")) or (
        hand is None and not problem.get("dealer") and not problem.get("eor")
    )
    peek = solved == "ev" and rules.peek
    out: Solution = {
        "rules": rules.to_dict(),
        "objective": objective,
        "conditioned_on_no_dealer_blackjack": peek,
    }
    if peek:
        out["note"] = PEEK_NOTE
    if solved == "ev-ties-lose":
        out["note"] = TIES_NOTE.format(betting=rules.betting)
    if problem.get("dealer"):
        out["dealer"] = dealer_table(rules)
    if problem.get("eor"):
        out.update(eor_solution(rules))
    if hand is not None:
        out["hand"] = hand_solution(rules, str(hand), str(upcard), solved, post_split)
    if want_chart:
        out.update(chart_solution(rules, solved, td_chart, post_split))
    if post_split != "cdz-":
        out["post_split"] = post_split
    return out


def dealer_table(rules: BlackjackRules) -> dict[str, dict[str, float]]:
    """P(dealer's final total) per upcard from the full shoe, blackjack included."""
    shoe = shoe_of(rules)
    table = {}
    for u in UPCARD_ORDER:
        if shoe is None:
            dist = dealer.distribution(u, rules.hits_soft_17, "nopeek", INFINITE_PROBS)
        else:
            left = (*shoe[:u], shoe[u] - 1, *shoe[u + 1 :])
            dist = dealer.distribution(u, rules.hits_soft_17, "nopeek", left)
        table[RANKS[u]] = dict(zip(dealer.OUTCOMES, dist, strict=True))
    return table


def chart_solution(
    rules: BlackjackRules,
    objective: Objective,
    td_chart: str = "actual",
    post_split: str = "cdz-",
) -> dict[str, Any]:
    """The chart, each cell's values and the edges; ``td_chart`` says which chart is
    shown and played for the total-dependent edge (see :data:`TD_CHARTS`)."""
    analysis = solve_rules(rules, objective, td_chart=td_chart, post_split=post_split)
    chart = analysis.chart.to_dict()
    values: dict[str, dict[str, list[dict[str, float]]]] = {"hard": {}, "soft": {}, "pairs": {}}
    for (kind, row, u), cell in analysis.cells.items():
        name = f"{RANKS[row]},{RANKS[row]}" if kind == "pair" else str(row)
        section = values["pairs" if kind == "pair" else kind]
        section.setdefault(name, [{} for _ in UPCARD_ORDER])[UPCARD_ORDER.index(u)] = cell
    chart["values"] = values
    if in_chips(objective):
        edge = {
            "composition_dependent": analysis.edge_cd,
            "total_dependent": analysis.edge_td,
            "total_dependent_chart": _td_chart_said(rules, td_chart),
        }
        return {"chart": chart, "house_edge": edge, "td_chart": td_chart}
    # hit or stand only: pairs are played by their totals, so their rows say nothing new
    del chart["pairs"], values["pairs"]
    win = {"optimal": analysis.edge_cd, "chart": analysis.edge_td}
    return {"chart": chart, "win_probability": win, "td_chart": td_chart}


def eor_solution(rules: BlackjackRules) -> dict[str, Any]:
    """Effects of removal of the rules' chart, and the depth-1 depletion self-test: the
    chart's EV averaged over the 10 one-card-removed shoes equals the full shoe's."""
    if rules.decks is None:
        raise CroupierError("effects of removal need a finite shoe (not --decks inf)")
    analysis = solve_rules(rules)
    shoe = full_shoe(rules.decks)
    full = -analysis.edge_td
    effects = effects_of_removal(rules, analysis.chart)
    average = full + sum(n * effects[RANKS[r]] for r, n in enumerate(shoe)) / sum(shoe)
    return {
        "effects_of_removal": effects,
        "depletion_self_test": {"depth": 1, "full_ev": full, "average_ev": average},
    }


def _td_chart_said(rules: BlackjackRules, td_chart: str) -> str:
    shoe = "an infinite deck" if rules.decks is None else f"{rules.decks} deck(s)"
    if td_chart == "infinite" and rules.decks is not None:
        return f"the infinite-deck chart, played in {shoe}"
    return f"the chart built for {shoe}, played in it"


def hand_solution(
    rules: BlackjackRules,
    hand_spec: str,
    upcard_spec: str,
    objective: Objective,
    post_split: str = "cdz-",
) -> dict[str, Any]:
    """Every action's exact value for one hand (composition-dependent in a finite shoe)."""
    cards, upcard = parse_hand(hand_spec, upcard_spec, rules.decks)
    solver = UpcardSolver(rules, upcard, objective, precompute_all=False, split_strategy=post_split)
    ev = solver.main
    hand = make_hand(cards, ev.finite)
    if hand.hard > 21:
        raise CroupierError(f"the hand {hand_spec} is already bust")
    natural = objective == "ev" and len(cards) == 2 and is_natural(cards[0], cards[1])
    values: dict[str, float] = {"stand": ev.stand(hand)}
    if hand.total < 21:
        values["hit"] = ev.hit(hand)
    if len(cards) == 2 and not natural:
        if ev.can_double(hand):
            values["double"] = ev.double(hand)
        if cards[0] == cards[1] and cards[0] in solver.splits:
            values["split"] = solver.split(cards[0])
        if ev.can_surrender():
            values["surrender"] = ev.surrender(hand)
    mass = ev.mass(hand)
    actions = {k: {"ev": v / mass, "round_ev": ev.round_value(v, hand)} for k, v in values.items()}
    result: dict[str, Any] = {
        "cards": hand_text(cards),
        "upcard": RANKS[upcard],
        "total": hand.total,
        "soft": hand.soft,
    }
    if natural:
        result["natural"] = solver.natural_value(hand)
        result["best"] = "natural"
    else:
        result["best"] = max(values, key=lambda k: values[k])
    if objective == "win-probability":
        result["actions"] = {k: {"win_probability": v} for k, v in values.items()}
    else:
        result["actions"] = actions
    return result
