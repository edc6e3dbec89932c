"""The totals a chunk of the blackjack simulator returns, compiled or plain (no numba here)."""

from __future__ import annotations

FIELDS: tuple[str, ...] = (
    "hands",
    "net",
    "net_sq",
    "wins",
    "pushes",
    "losses",
    "naturals",
    "busts",
    "doubles",
    "splits",
    "house",
    "shuffles",
    "round_net_sq",
)
"""The totals :func:`.instances.play_chunk` (and :class:`.plain.PlainChunk`) returns, in
chips and counts (``house``: the house's net, which must be minus the players' net: a
double-entry check; ``round_net_sq``: the sum over rounds of the square of the seats' net
together, for intervals)."""
