"""CPU per decision of an SDK bot's answering: blackjack's typed layer against plain maps.

Run: ``.venv/bin/python benchmarks/bot_answer.py [--decisions 100000] [--repeat 5]``

The SDK answers a server's ``decide`` with :func:`~croupier.clients.bot.sdk.answer_for`,
the same for every bot: the bot's ``answer_game`` takes the observation map and returns
an action map. A blackjack function bot (lim17) goes through the typed layer (the map read
into an ``Observation``, the hook asked, the ``Action`` written back as a map); its peer is
the same lim17 as a ``GameBot`` reading the maps itself. Both answer the same play-phase
observations, on one trio run each, with no network: the figure is the bot's own CPU per
decision (the part of ``benchmarks/tables_tcp.py``'s CPU per round that is the SDK's), and
the ratio is what the typed layer costs over the plain path. Best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import trio

from croupier.clients.bot.gamebot import GameBot
from croupier.clients.bot.sdk import answer_for, as_bot
from croupier.plugins.blackjack.play import Observation


def lim17(observation: Observation) -> str:
    return "hit" if observation.total < 17 else "stand"


class MapLim17(GameBot):
    """lim17 over the observation map (its ``game`` does not change how it is answered)."""

    def decide(self, observation: Any) -> Any:
        return {"kind": "hit" if observation["total"] < 17 else "stand"}


def observations() -> list[dict[str, Any]]:
    """Play-phase maps as a server sends them, totals 5 to 21."""
    return [
        Observation(
            "play", 1, 1, ("hit", "stand", "double"), 1000, hands=(("T", "5"),), total=total,
            soft=total % 3 == 0, stake=10, dealer_upcard="9", visible=("9", "T", "5"),
            min_bet=10, max_bet=500,
        ).to_dict()
        for total in range(5, 22)
    ]  # fmt: skip


def cpu_per_decision(bot: GameBot, decisions: int) -> float:
    """Seconds of CPU per ``answer_for`` of ``bot``."""
    asked = observations()

    async def answer_all() -> None:
        for n in range(decisions):
            await answer_for(bot, asked[n % len(asked)])

    start = time.process_time()
    trio.run(answer_all)
    return (time.process_time() - start) / decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.decisions, args.repeat = 200, 1
    typed, plain = as_bot(lim17), MapLim17()
    best = {"typed": float("inf"), "maps": float("inf")}
    for _ in range(args.repeat):  # interleaved, so both see the same load
        best["typed"] = min(best["typed"], cpu_per_decision(typed, args.decisions))
        best["maps"] = min(best["maps"], cpu_per_decision(plain, args.decisions))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"lim17 answering {args.decisions} decisions, best of {args.repeat}")
    print(f"  (load average {load} on {os.cpu_count()} cores)")
    print(f"  typed Bot (function)    {best['typed'] * 1e6:7.2f} us CPU a decision")
    print(f"  GameBot over maps       {best['maps'] * 1e6:7.2f} us CPU a decision")
    print(f"  ratio typed / maps      {best['typed'] / best['maps']:7.2f}")


if __name__ == "__main__":
    main()
