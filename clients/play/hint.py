"""The hint key: the exact EV of every legal action, from the blackjack solver.

The solver is a plugin (``manager.solvers.get("blackjack")``) called with plain data, so the
game works without it (no ``?`` key is offered) and with any rules it refuses (a
third-party dealer, ties that lose under a peek: again no ``?``). The values are the
solver's composition-dependent EVs for the hand against the upcard from a full shoe of the
table's rules (the hand's cards and the upcard removed, cards from earlier rounds not), per
unit of the original bet, conditioned on the dealer not having blackjack when the dealer
peeks. Under ``koth`` a tie loses and a natural is an ordinary 21; under the ``classic``
dealer (a fresh pack every hand) they are exact for the cards in sight: hit or stand
against a dealer drawing to you.
"""

from __future__ import annotations

from typing import Any

from croupier.clients.play.game import KEYS, Hint
from croupier.engine.cards import VALUES, card
from croupier.engine.errors import CroupierError
from croupier.engine.manager import PluginManager
from croupier.plugins.blackjack.play import Observation
from croupier.plugins.blackjack.rules import BlackjackRules

SOLVER = "blackjack"


def rank_text(code: str) -> str:
    """The solver's rank for a card code: ``A``, ``2``-``9``, ``T`` for every ten."""
    value = VALUES[card(code)]
    return "A" if value == 1 else ("T" if value == 10 else str(value))


def format_hint(solution: dict[str, Any], legal: tuple[str, ...]) -> list[str]:
    """Lines for the screen: a header, then the legal actions' EVs, best first."""
    actions = solution["hand"]["actions"]
    values = {kind: float(actions[kind]["ev"]) for kind in legal if kind in actions}
    if not values:
        return ["No hint for this hand."]
    ranked = sorted(values, key=lambda kind: -values[kind])
    header = "Exact EV per unit bet" + (
        " (the dealer has no blackjack):"
        if solution.get("conditioned_on_no_dealer_blackjack")
        else ":"
    )
    items = [
        f"{KEYS[kind][1]} {values[kind]:+.4f}" + (" (best)" if i == 0 else "")
        for i, kind in enumerate(ranked)
    ]
    return [header] + ["   ".join(items[i : i + 2]) for i in range(0, len(items), 2)]


def make_hint(manager: PluginManager, rules: BlackjackRules) -> Hint | None:
    """A hint function for ``rules``, or None when the solver is missing or refuses them."""
    if SOLVER not in manager.solvers:
        return None
    solver = manager.solvers.get(SOLVER)
    options = rules.to_dict()
    try:  # the solver checks the rules first: a refusal is quick
        solver.solve({"rules": options, "hand": "T,6", "upcard": "T"})
    except CroupierError:
        return None
    cache: dict[tuple[str, str], dict[str, Any]] = {}

    def hint(observation: Observation) -> list[str]:
        if observation.phase != "play" or not observation.dealer_upcard:
            return ["No hint for this decision."]
        hand = ",".join(rank_text(c) for c in observation.cards)
        upcard = rank_text(observation.dealer_upcard)
        key = (hand, upcard)
        if key not in cache:
            cache[key] = solver.solve({"rules": options, "hand": hand, "upcard": upcard})
        return format_hint(cache[key], observation.legal)

    return hint
