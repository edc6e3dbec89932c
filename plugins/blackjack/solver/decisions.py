"""The exact value of every legal action for one hand, upcard and remaining shoe.

:func:`action_values` is the one call for "what is each action worth here?" at any point
of a real shoe: the arena's oracle asks it on every decision, and index generation on
depleted shoes. It answers composition-dependently and exactly for the shoe it is given:

* ``stand``, ``hit`` (then play on optimally, hit or stand), ``double`` (one card, twice
  the bet), ``surrender`` (two cards, before any split, when the rules offer it), and
  ``split`` (a pair with a split left: the exact value of splitting it, resplits included
  up to the hands the rules still allow, every split hand played by the post-split mode's
  decisions, see :mod:`.split`).
* Values are per unit of this hand's initial bet and, when the dealer peeks and shows an
  ace or a ten, conditioned on his having no blackjack (a decision is only ever taken
  then); a double's value counts its doubled bet.
* A split hand (``splits`` > 0) is valued alone: the other split hands are only cards out
  of the shoe; its ``split`` allows ``max_split_hands - splits`` hands from this one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from croupier.engine import CroupierError
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver.analysis import UpcardSolver, check_rules, is_natural
from croupier.plugins.blackjack.solver.cards import ACE, RANKS, Counts
from croupier.plugins.blackjack.solver.hand import make_hand
from croupier.plugins.blackjack.solver.split import split_limit

__all__ = ["action_values"]


def action_values(
    rules: BlackjackRules,
    shoe: Sequence[int],
    hand: Sequence[int],
    upcard: int,
    splits: int = 0,
    post_split: str = "cdz-",
) -> Mapping[str, float]:
    """``{action: EV}`` for every legal action on ``hand`` against ``upcard``.

    ``shoe``: the counts of the ten ranks (index 0 the ace .. 9 the tens) of the cards
    still unseen, the dealer's hole card among them: the hand, the upcard and every card
    already dealt are out of it. ``hand`` and ``upcard`` are rank indices. ``splits``: how
    many splits the player has made this round (0: the hand as dealt). ``post_split``: how
    split hands are played when ``split`` is valued (see :data:`.split.SPLIT_STRATEGIES`).

    A natural (an unsplit two-card 21) is not a decision: it gets ``{"natural": EV}``.
    Bad input raises :class:`~croupier.engine.CroupierError` with a one-line message.
    """
    check_rules(rules)
    counts = _checked_shoe(shoe)
    cards = [_rank(c, "a hand card") for c in hand]
    up = _rank(upcard, "the upcard")
    if len(cards) < 2:
        raise CroupierError("a hand has at least two cards")
    if splits < 0 or splits > max(rules.max_split_hands - 1, 0):
        raise CroupierError(
            f"splits so far must be 0..{max(rules.max_split_hands - 1, 0)}, not {splits}"
        )
    if sum(counts) < 1:
        raise CroupierError("the shoe is empty: the dealer has no hole card to draw")
    # the solver's shoes hold the hand and the upcard (it removes them itself)
    whole = list(counts)
    for r in (*cards, up):
        whole[r] += 1
    pair = len(cards) == 2 and cards[0] == cards[1]
    limit = split_limit(cards[0], rules.max_split_hands, rules.resplit_aces) - splits
    can_split = pair and limit >= 2
    solver = UpcardSolver(
        rules,
        up,
        "ev",
        precompute_all=False,
        split_strategy=post_split,
        shoe=tuple(whole),
        split_ranks=(cards[0],) if can_split else (),
    )
    ev = solver.main
    played = make_hand(cards, True)
    if played.hard > 21:
        raise CroupierError(f"the hand {','.join(RANKS[c] for c in cards)} is already bust")
    two = len(cards) == 2
    if splits == 0 and two and solver.objective == "ev" and is_natural(cards[0], cards[1]):
        return {"natural": solver.natural_value(played)}
    mass = ev.mass(played)
    if mass <= 0:
        raise CroupierError(
            "every card left gives the dealer a blackjack: he peeks, so no decision is taken"
        )
    if splits > 0 and cards[0] == ACE and not rules.hit_split_aces and two:
        # split aces take one card each; only a resplit (when allowed) is left
        values = {"stand": ev.stand(played)}
    else:
        values = {"stand": ev.stand(played)}
        if played.total < 21:
            values["hit"] = ev.hit(played)
        if two and ev.can_double(played, after_split=splits > 0):
            values["double"] = ev.double(played)
        if two and splits == 0 and ev.can_surrender():
            values["surrender"] = ev.surrender(played)
    if can_split and cards[0] in solver.splits:
        shoes = solver.splits[cards[0]]
        shoes.limit = limit
        values["split"] = solver.split(cards[0])
    return {action: value / mass for action, value in values.items()}


def _rank(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
        raise CroupierError(f"{what} is a rank index 0..9 (0 the ace, 9 a ten), not {value!r}")
    return value


def _checked_shoe(shoe: Sequence[int]) -> Counts:
    counts = tuple(shoe)
    if len(counts) != 10 or any(
        isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in counts
    ):
        raise CroupierError("the shoe is ten counts (aces .. tens), whole numbers >= 0")
    return counts
