"""The compiled blackjack simulator (numba): casino tables played from a chart.

Contributes the ``blackjack`` simulator kernel. It plays the built-in casino dealers (S17,
H17) and casino betting on a casino shoe, with every seat following a strategy that is data
(``lim17``, ``mimic-dealer``, ``never-bust``, the ``basic`` chart for the table's rules, or
any strategy with a :class:`~croupier.engine.kernels.PlayTable`); anything else is played
by the Python round engine. A card counter's play (a ramp, Wonging, deviations) is the
counting kernel's (``count_kernel.py``), the same round with a count. numba is imported
only when a chunk is played.
"""

from __future__ import annotations

from croupier.engine import hookimpl
from croupier.plugins.blackjack.kernel.count_data import prepare_count
from croupier.plugins.blackjack.kernel.data import prepare
from croupier.plugins.blackjack.kernel.index_data import prepare_indices
from croupier.plugins.blackjack.kernels import SimKernel

KERNEL = SimKernel(
    "blackjack",
    "compiled blackjack rounds (numba): casino S17/H17 tables, strategies given as charts",
    prepare,
    prepare_count,
    prepare_indices,
)


@hookimpl
def croupier_sim_kernels() -> tuple[SimKernel, ...]:
    return (KERNEL,)
