"""The tables service's methods as a client sees them: names, parameters, what each
returns, and how the server runs it (quick, durable, open to watchers, its cost).
``docs/protocol.md`` tells the story of each."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from croupier.engine.decisions import DECISION_TIME
from croupier.protocol.tables.create import create_table
from croupier.protocol.transport.methods import Method, Param

if TYPE_CHECKING:
    from croupier.protocol.tables.service import TableService

_OPT_INT = (int, type(None))


def table_methods(service: TableService) -> list[Method]:
    """The ``table.*`` methods, answered by ``service``."""
    table = Param("table", (int,), doc="a table id")
    token = Param("token", (str,), doc="a seat token from table.join")
    events = Param("events", (bool,), True, doc="false: no table.event notifications")
    auto = Param("auto", (list,), [], doc="phases the server answers with the default")
    key = Param(
        "key",
        (str, type(None)),
        None,
        doc="the table's key (from table.create) or the operator key",
    )
    return [
        Method(
            "table.create",
            (
                Param(
                    "rules",
                    (str, type(None)),
                    None,
                    doc="a rule set name; nil: vegas-s17, or another game's defaults",
                ),
                Param("options", (dict,), {}, doc="rule options to override"),
                Param("seed", _OPT_INT, None, doc="0 to 2**64-1; nil: the server draws"),
                Param("seats", (int,), 1, doc="1 to 7"),
                Param("fill", (list,), [], doc="per seat: a strategy name or nil"),
                Param("rounds", _OPT_INT, None, doc="rounds to play; nil: until empty"),
                Param(
                    "decision_time",
                    (float, type(None)),
                    DECISION_TIME,
                    doc="seconds per answer; nil: no limit (a table with one bot seat)",
                ),
                Param("autostart", (bool,), True, doc="start when every seat is taken"),
                Param(
                    "game",
                    (str, type(None)),
                    None,
                    doc="the game (see the games method); nil: the server's default game",
                ),
                Param(
                    "scored",
                    (bool,),
                    False,
                    doc="score every decision against the game's oracle (table.info's "
                    "scores: EV loss, plain and luck-adjusted results per seat)",
                ),
                Param(
                    "score_bets",
                    (bool,),
                    False,
                    doc="with scored: value every bet by its round's exact edge too, where "
                    "that is dear (blackjack: a solve per round); scores' bets then say how "
                    "the bets followed the edge",
                ),
            ),
            partial(create_table, service),
            "create a table (it belongs to this connection)",
            returns="table info, and its key",
            durable=True,
            cost=20.0,  # its strategies may need a chart solved (a worker's time)
        ),
        Method(
            "table.join",
            (
                table,
                Param("seat", _OPT_INT, None, doc="a seat number; nil: the first free"),
                events,
                auto,
            ),
            service.join,
            "take a free seat; this connection then answers its decide calls",
            returns="{table, seat, token, info}",
            quick=True,
            durable=True,
        ),
        Method(
            "table.rejoin",
            (token, events, auto),
            service.rejoin,
            "take a seat back with its token (after a reconnection)",
            returns="{table, seat, token, info}",
            quick=True,
            durable=True,
        ),
        Method(
            "table.leave",
            (token,),
            service.leave,
            "give a seat up",
            "nil",
            quick=True,
            durable=True,
        ),
        Method(
            "table.start",
            (table, key),
            service.start,
            "start a full table (its creator, or with its key or the operator key)",
            "info",
            quick=True,
            durable=True,
        ),
        Method(
            "table.stop",
            (table, key),
            service.stop,
            "finish a table after the hand in progress (its creator, or with its key "
            "or the operator key)",
            "info",
            quick=True,
            durable=True,
        ),
        Method(
            "table.watch",
            (table,),
            service.watch,
            "receive a table's events",
            "info",
            quick=True,
            watcher=True,
        ),
        Method(
            "table.unwatch",
            (table,),
            service.unwatch,
            "stop watching",
            "nil",
            quick=True,
            watcher=True,
        ),
        Method(
            "table.info",
            (table,),
            service.info,
            "one table",
            "table info",
            quick=True,
            watcher=True,
        ),
        Method(
            "table.list",
            (),
            service.list_tables,
            "every table",
            "[table info]",
            quick=True,
            watcher=True,
        ),
        Method(
            "table.seed",
            (table, Param("key", (str, type(None)), None, doc="the operator key")),
            service.reveal_seed,
            "a table's seed and salt: anyone's once it finished, the operator key's before",
            "{table, seed, salt, commit}",
            quick=True,
            watcher=True,
        ),
    ]
