"""``croupier serve``: run the msgpack-rpc server headless until SIGINT or SIGTERM."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

import trio

from croupier.clients.cli.common import (
    add_seed_argument,
    from_zero,
    get_manager,
    positive_int,
    report_seed,
)
from croupier.clients.cli.datadir import default_journal, writable_journal
from croupier.protocol import DEFAULT_HOST, DEFAULT_PORT, ServerLimits, run_server
from croupier.protocol.journal import Journal, JournalError, open_journal


def port_type(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a number, not {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {value}")
    return value


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "serve",
        help="run the msgpack-rpc server (bots and clients connect over TCP)",
        description=(
            "Serve croupier over msgpack-rpc on TCP: discovery, randomizer streams and "
            "solvers (see docs/protocol.md). Logs one line per notable event on stderr and "
            "shuts down gracefully on SIGINT or SIGTERM (a second signal stops at once)."
        ),
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address (default {DEFAULT_HOST})")
    parser.add_argument(
        "--port",
        type=port_type,
        default=DEFAULT_PORT,
        help=f"TCP port, 0 for any free one (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--auth",
        choices=AUTH_CHOICES,
        default="open",
        help="open: any bot plays under the name it says (the default; refused on an "
        "address beyond loopback unless given as open-public); keys: bots present a key "
        "registered with 'croupier keys add' and play under its name",
    )
    parser.add_argument(
        "--tables",
        type=positive_int,
        default=ServerLimits().max_tables,
        metavar="N",
        help="the most tables open at once (default %(default)s)",
    )
    parser.add_argument(
        "--connections",
        type=positive_int,
        default=ServerLimits().max_connections,
        metavar="N",
        help="the most connections open at once, lowered to fit 'ulimit -n' (default %(default)s)",
    )
    parser.add_argument(
        "--http-connections",
        type=positive_int,
        default=ServerLimits().http_connections,
        metavar="N",
        help="the most web page connections (watching browsers among them) open at once "
        "(default %(default)s)",
    )
    parser.add_argument(
        "--request-rate",
        type=rate_type,
        default=ServerLimits().request_rate,
        metavar="N",
        help="tokens a second each connection's request budget refills by, up to twice as "
        "many held (a request costs 1, a solve 50, a large draw or history page more; "
        "past it the connection is read no faster); 0 for no budget (default %(default)g)",
    )
    parser.add_argument(
        "--address-rate",
        type=rate_type,
        default=ServerLimits().address_rate,
        metavar="N",
        help="the same for all the connections of one peer address (an IPv6 /64) together; "
        "behind a proxy every client shares its address (default %(default)g)",
    )
    parser.add_argument(
        "--http",
        type=port_type,
        metavar="PORT",
        help="also serve the web page (lobby, live tables, charts) on this port, 0 for any "
        "free one; browsers speak msgpack-rpc over a WebSocket as watchers (docs/web.md)",
    )
    parser.add_argument(
        "--http-host",
        default=DEFAULT_HOST,
        metavar="HOST",
        help=f"the web page's address (default {DEFAULT_HOST})",
    )
    parser.add_argument(
        "--http-allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the web page answers to besides localhost, IP addresses and --http-host "
        "(repeatable; .NAME: its subdomains too; '*': any, behind a proxy that checks): "
        "requests for any other Host get 403, which stops DNS rebinding (docs/web.md)",
    )
    parser.add_argument(
        "--data",
        metavar="PATH",
        default=None,
        help="the journal, a SQLite file that keeps every table and tournament, created if "
        "missing in a folder that exists (default "
        f"{default_journal()}, its folder made; ':memory:' keeps nothing)",
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="make each settled round durable (committed, and synced to disk) before the next "
        "is dealt; without it a crash may lose the rounds of the last 100 ms or so, which are "
        "dealt again identically (docs/journal.md)",
    )
    parser.add_argument(
        "--keep-days",
        type=positive_float,
        default=None,
        metavar="N",
        help="delete tables and tournaments that finished over N days ago, at start and daily "
        "(default: keep everything)",
    )
    parser.add_argument(
        "--scoring-workers",
        type=from_zero("workers"),
        default=ServerLimits().scoring_workers,
        metavar="N",
        help="worker processes valuing scored tables' decisions against their game's oracle, "
        "server-wide, at a lower CPU priority than the tables (default %(default)s; 0: a "
        "thread of the server's process, which shares the tables' CPU and slows a scored "
        "blackjack table about 2 to 2.7 times)",
    )
    parser.add_argument(
        "--checkpoint-every",
        type=from_zero("rounds"),
        default=ServerLimits().checkpoint_every,
        metavar="N",
        help="write each table's state to the journal every N settled rounds, so a restart "
        f"replays at most N of its rounds (default {ServerLimits().checkpoint_every}; 0: never)",
    )
    parser.add_argument(
        "--journal-quota",
        type=size_type,
        default=0,
        metavar="SIZE",
        help="bytes of settled rounds one address's tables may write to the journal while the "
        "server runs (500M, 2G, ...): past it its tables finish and it creates no more "
        "(default: no bound)",
    )
    parser.add_argument(
        "--game",
        default="blackjack",
        metavar="NAME",
        help="the game a table or tournament plays when its client names none (default "
        "blackjack, so bots written before games keep working; `croupier games` lists them)",
    )
    add_seed_argument(parser)
    parser.set_defaults(func=run)


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of days, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a number of days above 0, not {text}")
    return value


def rate_type(text: str) -> float | None:
    """A rate in tokens a second; 0 is None (no budget)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of tokens a second, not {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"a number of tokens a second, 0 or more, not {text}")
    return value or None


_UNITS = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}


def size_type(text: str) -> int:
    """A size in bytes: ``500M``, ``2G``, ``1500000`` (0: no bound)."""
    body = text.strip().upper().removesuffix("B")
    unit = body[-1:] if body[-1:] in _UNITS and body[-1:] else ""
    try:
        value = float(body[: len(body) - len(unit)]) * _UNITS[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"a size (500M, 2G, bytes), not {text!r}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"a size from 0 up, not {text!r}")
    return int(value)


def server_limits(args: argparse.Namespace) -> ServerLimits:
    """The limits ``serve``'s options set (a budget holds twice its rate at most)."""
    return ServerLimits(
        max_tables=args.tables,
        max_connections=args.connections,
        http_connections=args.http_connections,
        checkpoint_every=args.checkpoint_every,
        scoring_workers=args.scoring_workers,
        journal_quota=args.journal_quota,
        request_rate=args.request_rate,
        request_burst=2 * (args.request_rate or 0),
        address_rate=args.address_rate,
        address_burst=2 * (args.address_rate or 0),
    )


def run(args: argparse.Namespace) -> int:
    seed = None if args.seed is None else int(args.seed)  # drawn once the port is bound
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter("%(asctime)s croupier: %(message)s", datefmt="%Y-%m-%d %H:%M:%S")
    )
    logger = logging.getLogger("croupier")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    journal = None
    try:
        limits = server_limits(args)
        manager = get_manager()
        manager.games.get(args.game)  # an unknown game: one line naming the known ones
        path = writable_journal(args.data)
        # a newer schema, an unwritable file, another server on it: one line
        journal = open_journal(path, "FULL" if args.sync else "NORMAL", sync_rounds=args.sync)
        trio.run(
            lambda: run_server(
                manager,
                host=args.host,
                port=args.port,
                seed=seed,
                limits=limits,
                on_seed=report_seed,
                http=None if args.http is None else (args.http_host, args.http),
                http_allow_hosts=args.http_allow_host,
                journal=journal,
                keep_days=args.keep_days,
                default_game=args.game,
                auth=args.auth,
            )
        )
    except BaseExceptionGroup as group:  # a journal unreadable at start: its one line
        found, rest = group.split(JournalError)
        if found is None or rest is not None:
            raise
        raise _first(found) from None
    finally:
        if isinstance(journal, Journal):
            journal.close()
        logger.removeHandler(handler)
    return 0


AUTH_CHOICES = ("open", "keys", "open-public")


def _first(group: BaseExceptionGroup[JournalError]) -> JournalError:
    """The first error of a group of journal errors (nested as trio's nurseries nest)."""
    first = group.exceptions[0]
    return _first(first) if isinstance(first, BaseExceptionGroup) else first
