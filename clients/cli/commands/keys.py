"""``croupier keys``: register, list and revoke the bots a ``--auth keys`` server lets play.

Offline on the journal (``--data``, while no server runs on it: a server loads the keys when
it starts) or through a running server with its operator key (``--connect``). A key is
printed once, when it is made: only its SHA-256 is kept.
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from typing import Any

import trio

from croupier.clients.cli.commands.bot import address
from croupier.clients.cli.common import add_json_argument, print_json
from croupier.clients.cli.datadir import default_journal, writable_journal
from croupier.engine import CroupierError
from croupier.protocol import RpcError, botkeys, connect
from croupier.protocol.botkeys import BotKeys
from croupier.protocol.journal.lock import JournalLock
from croupier.protocol.journal.schema import open_for_writing


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "keys",
        help="register, list and revoke bots (for a server run with --auth keys)",
        description=(
            "A bot registered here gets a key; on a server run with --auth keys it presents "
            "the key (croupier bot --bot-key KEY, or CROUPIER_KEY) and plays under its "
            "registered name. Works offline on the journal (--data, no server running on it) "
            "or through a running server (--connect HOST:PORT --operator-key KEY)."
        ),
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser("add", help="register a bot and print its key (once)")
    add.add_argument("name", metavar="NAME", help="the name it plays under")
    add.add_argument("--author", metavar="TEXT", help="who wrote it")
    listing = actions.add_parser("list", help="the registered bots (never their keys)")
    revoke = actions.add_parser("revoke", help="refuse a bot's key from now on")
    revoke.add_argument("name", metavar="NAME", help="the registered name to refuse")
    for each in (add, listing, revoke):
        where = each.add_mutually_exclusive_group()
        where.add_argument(
            "--data",
            metavar="PATH",
            help=f"the journal, offline (default {default_journal()})",
        )
        where.add_argument(
            "--connect", type=address, metavar="HOST:PORT", help="a running server instead"
        )
        each.add_argument(
            "--operator-key", metavar="KEY", help="with --connect: the server's operator key"
        )
        add_json_argument(each)
        each.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.connect is not None:
        if args.operator_key is None:
            raise CroupierError("--connect needs the server's --operator-key (its log shows it)")
        result = trio.run(_remote, args)
    else:
        if args.operator_key is not None:
            raise CroupierError("--operator-key applies with --connect only")
        result = _offline(args, writable_journal(args.data))
    show(args, result)
    return 0


async def _remote(args: argparse.Namespace) -> Any:
    host, port = args.connect
    if args.action == "add":
        params = {"name": args.name, "author": args.author}
    elif args.action == "revoke":
        params = {"name": args.name}
    else:
        params = {}
    refusal: RpcError | None = None
    try:
        async with connect(host, port, name="croupier-keys") as client:
            try:
                return await client.call_named(
                    f"keys.{args.action}", {**params, "operator_key": args.operator_key}
                )
            except RpcError as exc:  # raised below, not inside the connection's task group
                refusal = exc
    except RpcError as exc:  # hello refused
        refusal = exc
    assert refusal is not None
    raise CroupierError(f"the server refused: {refusal.message}")


def _offline(args: argparse.Namespace, path: str) -> Any:
    if path == ":memory:":
        raise CroupierError("--data :memory: keeps no keys: name a journal file")
    lock = JournalLock(path)  # a server running on it: one line naming it
    try:
        conn = open_for_writing(path)
        try:
            keys = BotKeys(botkeys.load(conn), clock=time.time)
            if args.action == "list":
                return [entry.public() for entry in keys.entries()]
            with conn:
                conn.execute("BEGIN IMMEDIATE")
                if args.action == "add":
                    entry, key = keys.add(args.name, args.author)
                    conn.execute(botkeys.INSERT, botkeys.insert_params(entry))
                    return {**entry.public(), "key": key}
                entry = keys.revoke(args.name)
                conn.execute(botkeys.REVOKE, (entry.revoked, entry.name))
                return entry.public()
        except sqlite3.Error as exc:
            raise CroupierError(f"cannot write the journal {path}: {exc}") from None
        finally:
            conn.close()
    finally:
        lock.release()


def _when(stamp: float | None) -> str:
    return "-" if stamp is None else time.strftime("%Y-%m-%d %H:%M", time.gmtime(stamp))


def show(args: argparse.Namespace, result: Any) -> None:
    if args.json:
        print_json(result)
    elif args.action == "add":
        print(f"registered {result['name']!r}; its key (shown this once, keep it secret):")
        print(result["key"])
    elif args.action == "revoke":
        print(f"revoked {result['name']!r} at {_when(result['revoked'])} UTC")
    elif not result:
        print("no registered bots")
    else:
        for entry in result:
            state = "in force" if entry["revoked"] is None else f"revoked {_when(entry['revoked'])}"
            author = f" by {entry['author']}" if entry["author"] else ""
            print(f"{entry['name']}{author}: added {_when(entry['created'])} UTC, {state}")
