"""``croupier leaderboard``: the server's ratings with their intervals (refit after each
tournament), from a running server or offline from its journal."""

from __future__ import annotations

import argparse
import sqlite3
from typing import Any, Literal

import trio
from rich.table import Table as RichTable

from croupier.clients.cli.commands.bot import address
from croupier.clients.cli.common import add_json_argument, print_json, stdout_console
from croupier.clients.cli.datadir import default_journal
from croupier.engine import CroupierError
from croupier.protocol import RpcError, connect
from croupier.protocol.journal.schema import open_for_reading
from croupier.protocol.leaderboard import SKILL_COLUMNS, board


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "leaderboard",
        help="the bots' ratings with 95%% intervals, refit after each tournament on a server",
        description=(
            "Bradley-Terry ratings (Elo scale) fit to every tourney of every tournament a "
            "server played to its end, with 95% intervals and the games behind them; the "
            "order the games were played in does not matter. From a running server "
            "(--connect) or offline from its journal (--data)."
        ),
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--connect", type=address, metavar="HOST:PORT", help="a running server")
    where.add_argument(
        "--data", metavar="PATH", help=f"a server's journal, offline (default {default_journal()})"
    )
    parser.add_argument("--bot", metavar="NAME", help="also show this bot's rating at every fit")
    add_json_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.connect is not None:
        data = trio.run(_remote, args)
    else:
        path = default_journal() if args.data is None else args.data
        conn = open_for_reading(path)
        try:
            data = board(conn, args.bot)
        except sqlite3.Error as exc:
            raise CroupierError(f"cannot read the journal {path}: {exc}") from None
        finally:
            conn.close()
    show(data, args.json)
    return 0


async def _remote(args: argparse.Namespace) -> Any:
    host, port = args.connect
    refusal: RpcError | None = None
    try:
        async with connect(host, port, name="croupier-leaderboard", role="watcher") as client:
            try:
                return await client.call_named("leaderboard", {"name": args.bot})
            except RpcError as exc:  # raised below, not inside the connection's task group
                refusal = exc
    except RpcError as exc:
        refusal = exc
    assert refusal is not None
    raise CroupierError(f"the server refused: {refusal.message}")


def show(data: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print_json(data)
        return
    console = stdout_console()
    if not data["bots"]:
        console.print("no ratings yet: they are fit once a tournament has been played to its end")
        return
    console.print(
        f"[bold]Leaderboard[/]: fit {data['fit']} (after tournament {data['tournament']}), "
        f"{len(data['bots'])} bots; Bradley-Terry on the Elo scale, 95% intervals"
    )
    skills = [
        c
        for c in SKILL_COLUMNS
        if any((b.get("skill") or {}).get(c) is not None for b in data["bots"])
    ]
    table = RichTable(show_edge=False)
    for column in ("rank", "bot", "rating", "95% interval", "games", *skills):
        justify: Literal["left", "right"] = "left" if column == "bot" else "right"
        table.add_column(column, justify=justify, no_wrap=True)
    for b in data["bots"]:
        skill = b.get("skill") or {}
        table.add_row(
            f"{b['rank']}=" if b["tied"] else str(b["rank"]),
            b["name"],
            f"{b['rating']:.0f}",
            f"{b['low']:.0f} .. {b['high']:.0f}",
            str(b["games"]),
            *("n/a" if skill.get(c) is None else f"{skill[c]:.3f}" for c in skills),
        )
    console.print(table)
    history = data.get("history")
    if history is not None:
        fits = history["fits"]
        if not fits:
            console.print(f"{history['name']!r} has not been rated")
        for f in fits:
            console.print(
                f"{history['name']} at fit {f['fit']} (tournament {f['tournament']}): "
                f"{f['rating']:.0f} ({f['low']:.0f} .. {f['high']:.0f}), {f['games']} games",
                markup=False,
            )
