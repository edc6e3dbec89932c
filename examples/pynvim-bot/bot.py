#!/usr/bin/env python3
"""A croupier bot on pynvim's generic msgpack-rpc session (Neovim's Python client), used
unchanged: pynvim knows nothing of croupier. It says hello as a bot, creates a table (or
joins --table T), takes a seat, answers the server's ``decide`` requests with "hit below
17" until the table finishes, then prints the table's final info as one JSON line.

    pip install pynvim && python bot.py --port 7171 [--host H] [--table T] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from pynvim.msgpack_rpc import tcp_session


def decide(observation: dict[str, Any]) -> dict[str, Any]:
    """Hit below 17; bet the minimum; decline insurance and early surrender."""
    if observation["phase"] == "bet":
        return {"kind": "bet", "amount": observation["min_bet"]}
    if observation["phase"] == "play":
        return {"kind": "hit" if observation["total"] < 17 else "stand"}
    return {"kind": "decline"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7171)
    parser.add_argument("--table", type=int)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int)
    args = parser.parse_args()
    session = tcp_session(args.host, args.port)
    final: dict[str, Any] = {}

    def on_request(method: str, params: list[Any]) -> Any:
        if method == "decide":  # [table, observation]
            return decide(params[1])
        raise ValueError(f"no method {method}")

    def on_notification(method: str, params: list[Any]) -> None:
        if method == "table.status" and params[0] == table and params[1]["state"] == "finished":
            final.update(params[1])
            session.stop()
        elif method == "shutdown":
            session.stop()
        # an "error" notification answers pynvim's own first message, a notification
        # nvim_set_client_info with its name as bytes: croupier refuses it, nothing more

    session.request("hello", 1, "pynvim-lim17", "bot")
    table = args.table
    if table is None:  # rules, options, seed, seats, fill, rounds: positional
        table = session.request("table.create", "vegas-s17", {}, args.seed, 1, [], args.rounds)[
            "table"
        ]
    seat = session.request("table.join", table, None)["seat"]
    session.run(on_request, on_notification)  # serve decide requests until stopped
    session.close()
    if not final:
        raise SystemExit("pynvim-bot: the table did not finish")
    print(
        json.dumps(
            {
                "table": table,
                "seat": seat,
                "played": final["played"],
                "chips": final["chips"][seat - 1],
                "house": final["house"],
                "reason": final["reason"],
            }
        )
    )


if __name__ == "__main__":
    main()
