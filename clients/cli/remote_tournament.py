"""``croupier tournament BOT... --connect HOST:PORT``: the tournament played on a server.

BOT is a built-in strategy name or ``tcp`` (a seat for a bot that joins on the server);
the command starts the tournament there (``tournament.start``), tells on stderr how bots
join it, shows progress while it plays and returns its result for the standings table. A
lost connection is tried again (the bot SDK's loop, as many tries as ``croupier bot``) and
the tournament watched again (``tournament.watch``): a server restarting on its journal
resumes it, and the command still prints its standings.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

import trio

from croupier.clients.bot.reconnect import heard_shutdown, keep_seat, unwrap_group
from croupier.clients.cli.commands.bot import RECONNECT, say_warnings
from croupier.clients.cli.common import progress, report_seed
from croupier.engine import CroupierError, PluginManager
from croupier.engine.tournament_run import TournamentResult
from croupier.protocol import ConnectionClosed, RpcError, connect


def start_params(manager: PluginManager, args: argparse.Namespace) -> dict[str, Any]:
    """``tournament.start``'s parameters from the command line (BOTs checked here first,
    so a typo is the same one-line error as in a local run)."""
    extra: dict[str, Any] = {}
    if args.game != "blackjack":
        from croupier.clients.cli.gameoptions import game_options
        from croupier.clients.cli.simgame import find_game, set_options

        game = find_game(manager, args.game)
        options = {**game_options(manager, "tournament", game, args), **set_options(args)}
        game.rules(None, options)  # a bad option: the same line as in a local run
        for bot in args.bots:
            if bot != "tcp":
                game.strategy(bot)
        extra = {"game": game.name, "options": options}
    for bot in args.bots if not extra else ():
        if bot != "tcp" and bot not in manager.strategies:
            known = ", ".join(manager.strategies.names())
            raise CroupierError(
                f"with --connect a BOT is a built-in strategy ({known}) or 'tcp', not {bot!r} "
                "(executables play in local tournaments only)"
            )
    for flag in ("log", "workers", "cluster", "overbet"):
        if getattr(args, flag) is not None:
            raise CroupierError(f"--{flag} applies to local tournaments only, not with --connect")
    return {
        "bots": list(args.bots),
        # nil: the server draws it and shows it once the tournament finished (while it
        # plays, the seed would give every card away to a tcp bot)
        "seed": None if args.seed is None else int(args.seed),
        **({} if args.operator_key is None else {"operator_key": args.operator_key}),
        "tourneys": args.tourneys,
        "rounds": args.rounds,
        "hands": args.hands,
        "decision_time": args.time_limit,
        "max_faults": args.max_faults,
        "join_time": args.join_time,
        **({} if args.format == "koth" else {"format": args.format}),
        **extra,
    }


NAME = "croupier-tournament"
"""The name the command's connections give the server."""


class _Watching:
    """What the command remembers across reconnections (see :func:`keep_seat`): the
    tournament it started (its id as the "token" to come back to), and what the server
    said of itself."""

    def __init__(self) -> None:
        self.tid: int | None = None
        self.token: str | None = None
        self.reseat = False  # the token is set once the tournament is started
        self.failures = 0
        self.server_stopped = False
        self.resuming = False
        self.latest: dict[str, Any] = {}
        self.changed = trio.Event()

    async def notified(self, method: str, params: Any) -> None:
        if method == "shutdown":
            heard_shutdown(self, params)
        elif method == "tournament.status" and params[0] == self.tid:
            self.latest = params[1]
        self.changed.set()
        self.changed = trio.Event()


def run_remote(manager: PluginManager, args: argparse.Namespace) -> TournamentResult:
    host, port = args.connect
    params = start_params(manager, args)
    total = args.tourneys * args.rounds
    me = _Watching()
    say_warnings()  # a lost connection, each try: croupier: lines on stderr

    async def attempt(tick: Callable[[int], None]) -> bool:
        """One connection's worth: start the tournament (or watch it again after a lost
        connection) and follow it to its end; True when it finished."""
        async with connect(host, port, name=NAME, on_notification=me.notified) as c:
            if me.tid is None:
                info = await c.call_named("tournament.start", params)
                me.tid, me.token, me.latest = info["tournament"], str(info["tournament"]), info
                tcp = sum(entry["kind"] == "tcp" for entry in info["entries"])
                if tcp:
                    key = f" --key {info['join_key']}" if info.get("join_key") else ""
                    print(
                        f"croupier: tournament {me.tid} on {host}:{port} "
                        f"waits {args.join_time:g} s for {tcp} tcp bot{'s' * (tcp > 1)}: "
                        f"croupier bot NAME --connect {host}:{port} --tournament {me.tid}{key}",
                        file=sys.stderr,
                    )
            else:  # back after a lost connection or the server's restart
                me.latest = await c.call("tournament.watch", me.tid)
                me.failures, me.resuming = 0, False
            async with trio.open_nursery() as nursery:

                async def on_close() -> None:
                    await c.session.wait_closed()
                    me.changed.set()

                nursery.start_soon(on_close)
                while me.latest["state"] != "finished":
                    if c.session.closed:
                        raise ConnectionClosed(c.session.closed_reason or "connection lost")
                    await me.changed.wait()
                    tick(me.latest["progress"]["done"])
                nursery.cancel_scope.cancel()
            return True

    async def main() -> dict[str, Any]:
        with progress("tournament", total) as step:
            done = 0

            def tick(now: int) -> None:
                nonlocal done
                step(now - done)
                done = now

            try:
                await keep_seat(me, partial(attempt, tick), RECONNECT)
            except CroupierError as exc:
                if me.tid is None:
                    raise
                raise CroupierError(
                    f"the server went away before tournament {me.tid} ended ({exc})"
                ) from None
        return me.latest

    try:
        try:
            final = trio.run(main)
        except BaseExceptionGroup as group:
            raise unwrap_group(group) from None
    except RpcError as exc:
        raise CroupierError(f"the server refused: {exc}") from None
    if args.seed is None and final.get("seed") is not None:
        report_seed(int(final["seed"]))  # drawn by the server, shown once it finished
    if final.get("result") is None:
        raise CroupierError(f"the tournament did not finish: {final.get('reason')}")
    return TournamentResult.from_dict(final["result"])
