"""``croupier tournament BOT... --connect HOST:PORT``: the tournament played on a server.

BOT is a built-in strategy name or ``tcp`` (a seat for a bot that joins on the server);
the command starts the tournament there (``tournament.start``), tells on stderr how bots
join it, shows progress while it plays and returns its result for the standings table.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import trio

from croupier.clients.bot.reconnect import unwrap_group
from croupier.clients.cli.common import progress, report_seed
from croupier.engine import CroupierError, PluginManager, draw_seed
from croupier.engine.tournament_run import TournamentResult
from croupier.protocol import RpcError, connect


def start_params(manager: PluginManager, args: argparse.Namespace) -> dict[str, Any]:
    """``tournament.start``'s parameters from the command line (BOTs checked here first,
    so a typo is the same one-line error as in a local run)."""
    extra: dict[str, Any] = {}
    if args.game != "blackjack":
        from croupier.clients.cli.simgame import find_game, game_overrides

        game = find_game(manager, args.game)
        options = game_overrides(args, {f.name for f in game.options}, game.name)
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
        "seed": draw_seed() if args.seed is None else int(args.seed),
        "tourneys": args.tourneys,
        "rounds": args.rounds,
        "hands": args.hands,
        "decision_time": args.time_limit,
        "max_faults": args.max_faults,
        "join_time": args.join_time,
        **extra,
    }


def run_remote(manager: PluginManager, args: argparse.Namespace) -> TournamentResult:
    host, port = args.connect
    params = start_params(manager, args)
    total = args.tourneys * args.rounds

    async def main() -> dict[str, Any]:
        latest: dict[int, dict[str, Any]] = {}  # tournament id -> its latest status
        changed = trio.Event()
        stopped = False

        async def status(method: str, notified: Any) -> None:
            nonlocal changed, stopped
            if method == "shutdown":
                stopped = True
            elif method == "tournament.status":
                latest[notified[0]] = notified[1]
            changed.set()
            changed = trio.Event()

        async with connect(host, port, name="croupier-tournament", on_notification=status) as c:
            info = await c.call_named("tournament.start", params)
            if args.seed is None:  # reported once it plays: an unreachable server is one line
                report_seed(int(info["seed"]))
            tid = info["tournament"]
            tcp = sum(entry["kind"] == "tcp" for entry in info["entries"])
            if tcp:
                key = f" --key {info['join_key']}" if info.get("join_key") else ""
                print(
                    f"croupier: tournament {tid} on {host}:{port} (seed {info['seed']}) waits "
                    f"{args.join_time:g} s for {tcp} tcp bot{'s' * (tcp > 1)}: croupier bot "
                    f"NAME --connect {host}:{port} --tournament {tid}{key}",
                    file=sys.stderr,
                )
            done = 0
            async with trio.open_nursery() as nursery:

                async def on_close() -> None:
                    nonlocal stopped
                    await c.session.wait_closed()
                    stopped = True
                    changed.set()

                nursery.start_soon(on_close)
                with progress("tournament", total) as tick:
                    while latest.get(tid, info)["state"] != "finished":
                        if stopped:
                            raise CroupierError("the server went away before the tournament ended")
                        await changed.wait()
                        now = latest.get(tid, info)["progress"]["done"]
                        tick(now - done)
                        done = now
                nursery.cancel_scope.cancel()
            return latest[tid]

    try:
        try:
            final = trio.run(main)
        except BaseExceptionGroup as group:
            raise unwrap_group(group) from None
    except RpcError as exc:
        raise CroupierError(f"the server refused: {exc}") from None
    if final.get("result") is None:
        raise CroupierError(f"the tournament did not finish: {final.get('reason')}")
    return TournamentResult.from_dict(final["result"])
