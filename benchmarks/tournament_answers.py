"""What keeping a tournament's tables replayable costs the journal: the bytes a table adds.

Run: ``.venv/bin/python benchmarks/tournament_answers.py [--tourneys 20] [--rounds 4]
[--hands 5]``

A server in this process (a SQLite journal in a temporary directory) plays a blackjack
tournament of two SDK bots on their own TCP connections (the bot's bet and insurance left
to the server, as the SDK does) and two strategies, twice with the same seed: once as
croupier plays it (each table's ``tcp`` seats' answers kept, ``tournament_tables.answers``)
and once with the answers left out (the journal before schema 11). Printed: the tables, the
answers recorded and their bytes a table (the column's own), the journal file's growth a
table between the two runs (whole SQLite pages, after a checkpoint), and, for scale, the
bytes a table's events would take kept whole (msgpack of the replayed events, as
``history.tournament_events`` gives them).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

import msgpack
import trio

from croupier.clients.bot import Bot
from croupier.clients.bot.tournament import join_tournament
from croupier.engine import PluginManager
from croupier.protocol import Server, connect
from croupier.protocol.journal import Journal
from croupier.protocol.seat_answers import unpack
from croupier.protocol.services import default_services
from croupier.protocol.tournament_replay import read_table, replay
from croupier.protocol.tournaments.run import ServerTournament

BOTS = ["tcp", "lim17", "tcp", "never-bust"]
SEED = 4242


class Seventeen(Bot):
    name = "seventeen"

    def decide(self, observation: Any) -> str:
        return "hit" if observation.total < 17 else "stand"


async def tournament(
    path: Path, settings: dict[str, Any], replays: bool = True
) -> tuple[list[int], int]:
    """Play one tournament on a server journaling to ``path``; the bytes of each table's
    replayed events as msgpack (with ``replays``) and the tournament's id."""
    server = Server(
        PluginManager(autoload=False),
        default_game="blackjack",
        seed=1,
        services=default_services(),
        journal=Journal(str(path)),
    )
    async with trio.open_nursery() as nursery:
        (_, port), *_ = await nursery.start(server.serve, "127.0.0.1", 0)
        async with connect("127.0.0.1", port, name="bench") as c:
            params = {"bots": BOTS, "seed": SEED, **settings, "operator_key": server.operator_key}
            info = await c.call_named("tournament.start", params)
            async with trio.open_nursery() as bots:
                for _ in range(BOTS.count("tcp")):
                    bots.start_soon(
                        lambda: join_tournament(
                            Seventeen(),
                            "127.0.0.1",
                            port,
                            tournament=info["tournament"],
                            key=info["join_key"],
                        )
                    )
        tid = info["tournament"]
        events: list[int] = []
        for tourney, round_, table in await server.journal.read(
            lambda db: (
                db.execute(
                    "SELECT tourney, round, table_no FROM tournament_tables"
                    " WHERE tournament_id = ?",
                    (tid,),
                ).fetchall()
                if replays
                else ()
            )
        ):
            stored = await server.journal.read(
                lambda db, k=(tourney, round_, table): read_table(db, tid, *k)
            )
            events.append(len(msgpack.packb((await replay(server, stored)).events)))
        server.stop()
    await server.journal.aclose()
    return events, tid


def size(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return os.path.getsize(path)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tourneys", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="a tiny run (the test suite's)")
    args = parser.parse_args()
    if args.smoke:
        args.tourneys, args.rounds, args.hands = 2, 2, 2
    settings = {"tourneys": args.tourneys, "rounds": args.rounds, "hands": args.hands}
    with tempfile.TemporaryDirectory() as tmp:
        kept, left = Path(tmp) / "kept.db", Path(tmp) / "left.db"
        events, tid = await tournament(kept, settings)
        keep = ServerTournament._table_answers
        ServerTournament._table_answers = lambda self, job: (keep(self, job), None)[1]  # type: ignore[method-assign]
        try:
            await tournament(left, settings, replays=False)
        finally:
            ServerTournament._table_answers = keep  # type: ignore[method-assign]
        with sqlite3.connect(kept) as conn:
            rows = conn.execute(
                "SELECT answers FROM tournament_tables WHERE tournament_id = ?", (tid,)
            ).fetchall()
        tables = len(rows)
        with_tcp = [a for (a,) in rows if a is not None]
        answers = sum(len(o) for a in with_tcp for o in unpack(a).values())
        column = sum(len(a) for a in with_tcp)
        grown = size(kept) - size(left)
    print(f"{tables} tables ({len(with_tcp)} with tcp seats), {answers} answers recorded")
    print(f"answers column: {column / max(1, len(with_tcp)):.1f} bytes a table with tcp seats")
    print(f"journal file: {grown / max(1, tables):+.1f} bytes a table ({grown:+d} in all)")
    print(f"events kept whole (msgpack): {sum(events) / max(1, len(events)):.0f} bytes a table")
    print(f"ratio events / answers: {sum(events) / max(1, column):.0f}")


if __name__ == "__main__":
    sys.exit(trio.run(main))
