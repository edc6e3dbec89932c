"""The blackjack round played by a card counter (numba): a bet ramp, Wonging and playing
deviations by the true count; the totals it returns.

:func:`~croupier.plugins.blackjack.kernel.instances.play_count_chunk` is the flat
round, rule for rule and card for card (the same generator, shuffles and cut card), with a
count kept as a player sees the cards: every card's tag as it is dealt, the dealer's hole
card when the round ends (it is turned over then), the running count back to the count's
initial value at every shuffle (a shoe that runs dry in a round too). It is the counting
instance of the one round body (:mod:`.round_body`), compiled apart from the flat one so
that flat play carries none of the count's work.

The shoe holds card ids (``0..51`` per deck, the engine's order) and looks up each card's
rank and tag, so a count whose tag depends on the suit (Red 7) is exact. Betting never
changes the cards: a seat that sits out (Wonging) is dealt and played as if another
player of the same strategy sat there, and every seat's result is kept per unit of the
minimum bet (``LIN`` units of the stake, ``NAT`` naturals paid, ``HALF`` half-stakes from
surrender and insurance), from which the chips of any bet follow exactly as the engine
pays them (a natural ``bet * num // den``, half a stake ``bet // 2``).

Totals (see ``FIELDS``): the flat kernel's, at the minimum bet with the deviations played,
then per true-count bucket (the true count when the round's bet is made, floored, clamped
to ``TC_LOW..TC_HIGH``) the rounds dealt, the table's flat net and its square, the rounds
played, the ramp's net and its square, and the chips bet (initial bets). With spots at
high counts (``HAS_SPOTS``), a round whose true count is at least ``SPOTS_TC`` is dealt to
``SPOTS_N`` seats instead of ``seats``, each betting the ramp's bet.

For intervals, each shoe's sums are also kept as a batch (:mod:`.count_batches`): the
rounds of one shoe are correlated, shoes are independent.
"""

from __future__ import annotations

from croupier.plugins.blackjack.kernel.count_batches import BUCKETS as BATCH_BUCKETS
from croupier.plugins.blackjack.kernel.count_batches import SHOE_FIELDS, TOTAL_FIELDS
from croupier.plugins.blackjack.kernel.fields import FIELDS

TC_LOW, TC_HIGH = -10, 15
BUCKETS = TC_HIGH - TC_LOW + 1
assert BUCKETS == BATCH_BUCKETS, "count_batches' layout is the buckets'"
BUCKET_FIELDS = ("rounds", "flat_net", "flat_sq", "played", "ramp_net", "ramp_sq", "bet")
COUNT_FIELDS = (
    FIELDS
    + tuple(f"tc{t:+d}_{name}" for t in range(TC_LOW, TC_HIGH + 1) for name in BUCKET_FIELDS)
    + tuple(f"tc{t:+d}_{name}" for t in range(TC_LOW, TC_HIGH + 1) for name in SHOE_FIELDS)
    + TOTAL_FIELDS
)
