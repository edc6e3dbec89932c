"""``croupier history``: the tables and tournaments a server's journal keeps.

From a running server (``--connect HOST:PORT``, the ``history.*`` methods) or from a
journal file read offline and read-only (``--data PATH``, default: the journal ``croupier
serve`` keeps by default). Both give the same data: the server's methods and this command
share the queries (:mod:`croupier.protocol.journal.queries`). ``history replay FILE``
checks an exported table log offline: it replays to the same events and ledger, or not.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import trio
from rich.table import Table

from croupier.clients.bot.reconnect import unwrap_group
from croupier.clients.cli.commands.bot import address
from croupier.clients.cli.common import add_json_argument, get_manager, print_json, stdout_console
from croupier.clients.cli.datadir import default_journal
from croupier.engine import CroupierError
from croupier.engine.gamelog import read_game_log, replay_game
from croupier.engine.ledger import seat_account
from croupier.protocol import RpcError, connect
from croupier.protocol.journal import queries
from croupier.protocol.journal.schema import open_for_reading

Call = Callable[[str, dict[str, Any]], Awaitable[Any]]

OFFLINE: dict[str, Callable[..., Any]] = {
    "history.tables": queries.list_tables,
    "history.tournaments": queries.list_tournaments,
    "history.table": queries.get_table,
    "history.tournament": queries.get_tournament,
    "history.export": queries.export_lines,
    "history.scores": queries.table_scores,
}


def since_type(text: str) -> float:
    """Unix time, or an ISO date or date and time (local time unless it says)."""
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return datetime.datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a date (2026-11-26, 2026-11-26T10:00) or Unix time, not {text!r}"
        ) from None


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "history",
        help="list and export the tables and tournaments a server's journal keeps",
        description=(
            "Read a croupier server's journal: from the server (--connect HOST:PORT) or "
            f"from its file, offline and read-only (--data PATH; default {default_journal()}). "
            "Name WHAT first: croupier history tables --data j.db"
        ),
    )
    kinds = parser.add_subparsers(title="what", metavar="WHAT", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        where = p.add_mutually_exclusive_group()
        where.add_argument("--connect", type=address, metavar="HOST:PORT", help="a server")
        where.add_argument("--data", metavar="PATH", help="a journal file, read offline")
        add_json_argument(p)

    for name, what in (("tables", "tables"), ("tournaments", "tournaments")):
        p = kinds.add_parser(name, help=f"list {what}, newest first")
        p.add_argument("--game", help="only this game")
        p.add_argument(
            "--state", choices=queries.STATES, help="only this state (running: not finished)"
        )
        p.add_argument("--since", type=since_type, help="created at or after (date or Unix time)")
        p.add_argument("--limit", type=int, default=50, help="at most N (default 50)")
        p.add_argument("--offset", type=int, default=0, help="skip N (paging)")
        common(p)
        p.set_defaults(func=partial(run_list, name))
    p = kinds.add_parser("table", help="one table: settings, seats, result")
    p.add_argument("id", type=int, metavar="ID", help="the id the server gave it")
    common(p)
    p.set_defaults(func=partial(run_one, "table"))
    p = kinds.add_parser("tournament", help="one tournament: settings, entries, result")
    p.add_argument("id", type=int, metavar="ID", help="the id the server gave it")
    common(p)
    p.set_defaults(func=partial(run_one, "tournament"))
    p = kinds.add_parser(
        "scores", help="a scored table's scored decisions, costliest first (the hand to replay)"
    )
    p.add_argument("id", type=int, metavar="ID", help="the scored table's id")
    p.add_argument("--top", type=int, default=10, help="the N costliest (default 10; 0: all)")
    common(p)
    p.set_defaults(func=run_scores)
    p = kinds.add_parser(
        "export", help="a table's log as JSON lines (croupier's table log replays it)"
    )
    p.add_argument("id", type=int, metavar="ID", help="the id the server gave it")
    p.add_argument("--output", "-o", metavar="FILE", help="write it to FILE (default stdout)")
    common(p)
    p.set_defaults(func=run_export)
    p = kinds.add_parser(
        "replay",
        help="check that an exported table log replays to the same events and ledger",
        description=(
            "Replay a table's JSON-lines log (croupier history export writes one) from its "
            "seed and its actions: every event the game emits again must be the log's, so a "
            "log that was edited, cut or comes from other options is caught at its first "
            "difference. One line says which."
        ),
    )
    p.add_argument("file", metavar="FILE", help="the exported log ('-': stdin)")
    add_json_argument(p)
    p.set_defaults(func=run_replay)


def with_source(args: argparse.Namespace, work: Callable[[Call], Awaitable[Any]]) -> Any:
    """``work(call)`` against the server or the journal file ``args`` name."""
    if args.connect is not None:
        host, port = args.connect

        async def online() -> Any:
            async with connect(host, port, name="croupier-history") as client:
                return await work(client.call_named)

        try:
            try:
                return trio.run(online)
            except BaseExceptionGroup as group:
                raise unwrap_group(group) from None
        except RpcError as exc:
            raise CroupierError(f"the server refused: {exc.message}") from None
        except OSError as exc:
            raise CroupierError(f"cannot connect to {host}:{port}: {exc}") from None
    conn = open_for_reading(args.data or default_journal())

    async def offline(method: str, params: dict[str, Any]) -> Any:
        return OFFLINE[method](conn, **params)

    try:
        return trio.run(work, offline)
    finally:
        conn.close()


def _when(stamp: float | None) -> str:
    if stamp is None:
        return ""
    return datetime.datetime.fromtimestamp(stamp).strftime("%Y-%m-%d %H:%M:%S")


def run_list(kind: str, args: argparse.Namespace) -> int:
    params = {
        "game": args.game,
        "state": args.state,
        "since": args.since,
        "limit": args.limit,
        "offset": args.offset,
    }

    async def work(call: Call) -> Any:
        return await call(f"history.{kind}", params)

    found = with_source(args, work)
    if args.json:
        print_json(found)
        return 0
    rows = found[kind]
    table = Table(title=f"{kind}: {len(rows)} of {found['total']}")
    for column in ("id", "game", "state", "seed", "played", "created", "finished", "reason"):
        table.add_column(column, justify="right" if column in ("id", "played") else "left")
    for row in rows:
        played = str(row["played"]) if kind == "tables" else _progress(row)
        table.add_row(
            str(row.get("table", row.get("tournament"))),
            row["game"],
            row["state"],
            "hidden" if row["seed"] is None else str(row["seed"]),  # shown once finished
            played,
            _when(row["created"]),
            _when(row["finished"]),
            row["reason"] or "",
        )
    stdout_console().print(table)
    return 0


def _progress(row: dict[str, Any]) -> str:
    """A tournament's rounds played of those it could play; a finished one that played
    fewer says why (its runs ended once every bot in them was out)."""
    done, total = row["progress"]["done"], row["progress"]["total"]
    said = f"{done}/{total}"
    if row["state"] == "finished" and row["reason"] == "played" and done < total:
        said += " (runs ended early: every bot out)"
    return said


def run_one(kind: str, args: argparse.Namespace) -> int:
    async def work(call: Call) -> Any:
        return await call(f"history.{kind}", {kind: args.id})

    found = with_source(args, work)
    if args.json:
        print_json(found)
        return 0
    console = stdout_console()
    table = Table(title=f"{kind} {args.id}", show_header=False)
    table.add_column("field")
    table.add_column("value")
    for key, value in found.items():
        if key in ("created", "started", "finished"):
            value = _when(value)
        for field, shown in _fields(key, value):
            table.add_row(field, shown)
    console.print(table)
    return 0


def _fields(key: str, value: Any) -> list[tuple[str, str]]:
    """One row per scalar: a mapping's entries as ``key.name`` rows and a list of mappings
    as ``key.1``, ``key.2`` ... (a table's rules or seats on one line were hundreds of
    characters wide in a pipe); a list of scalars on one row, comma-separated."""
    if isinstance(value, dict) and value:
        return [row for k, v in value.items() for row in _fields(f"{key}.{k}", v)]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [row for i, v in enumerate(value, 1) for row in _fields(f"{key}.{i}", v)]
    if isinstance(value, list):
        return [(key, ", ".join(_scalar(v) for v in value))]
    return [(key, _scalar(value))]


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value if isinstance(value, str) else str(value)


def run_scores(args: argparse.Namespace) -> int:
    """``history scores ID``: a scored table's decisions by loss, each with its hand."""
    if args.top < 0:
        raise CroupierError("--top is 0 (all) or more")

    async def work(call: Call) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        while True:
            page = await call(
                "history.scores", {"table": args.id, "offset": len(found), "limit": 1000}
            )
            found.extend(page)
            if len(page) < 1000:
                return found

    decisions = sorted(with_source(args, work), key=lambda d: -d["loss"])
    if args.top:
        decisions = decisions[: args.top]
    if args.json:
        print_json(decisions)
        return 0
    if not decisions:
        print(f"table {args.id} has no scored decisions (it was not scored, or none is in yet)")
        return 0
    table = Table(title=f"table {args.id}: scored decisions, costliest first")
    for column in ("hand", "seat", "phase", "taken", "best", "loss"):
        words = column in ("phase", "taken", "best")
        table.add_column(column, justify="left" if words else "right")
    for d in decisions:
        table.add_row(
            str(d["round"]), str(d["seat"]), d["phase"], d["taken"], d["best"], f"{d['loss']:.4f}"
        )
    stdout_console().print(table)
    return 0


def run_export(args: argparse.Namespace) -> int:
    async def work(call: Call) -> list[str]:
        lines: list[str] = []
        offset: int | None = 0
        while offset is not None:
            page = await call("history.export", {"table": args.id, "offset": offset})
            lines.extend(page["lines"])
            offset = page["next"]
        return lines

    lines = with_source(args, work)
    text = "".join(line + "\n" for line in lines)
    if args.output is None:
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as out:
            out.write(text)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """``history replay FILE``: the verdict on an exported table log, in one line."""
    try:
        if args.file == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(args.file, encoding="utf-8") as f:
                lines = f.read().splitlines()
    except OSError as exc:
        raise CroupierError(f"cannot read {args.file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise CroupierError(f"{args.file} is not a text file (a JSON-lines log)") from None
    header, _ = read_game_log(lines)
    try:
        core = replay_game(get_manager(), lines)
    except CroupierError as exc:
        raise CroupierError(f"{args.file} does not replay: {exc}") from None
    start = [int(c) for c in header["chips"]]
    chips = [core.ledger.balances[seat_account(i)] for i in range(1, len(start) + 1)]
    if args.json:
        print_json(
            {
                "replays": True,
                "game": header["game"],
                "seed": header["seed"],
                "rounds": core.round,
                "chips": chips,
                "starting_chips": start,
            }
        )
        return 0
    moves = ", ".join(f"{a} -> {b}" for a, b in zip(start, chips, strict=True))
    print(
        f"ok: {args.file} replays to the same events and ledger: {header['game']}, "
        f"{core.round} rounds, seat chips {moves} (seed {header['seed']})"
    )
    return 0
