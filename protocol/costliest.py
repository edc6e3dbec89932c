"""A bot's costliest decisions across the journal, each with where it can be seen again.

The leaderboard's page links each one: a scored **server table**'s decision opens the replay
viewer at the step of that decision (``at``: the number of the table's events up to and
including it, as ``history.events`` numbers them, which the viewer's ``&at=`` takes); a
**tournament** table's names its tournament (``tournament``) and the ``[tourney, round,
table]`` it was taken at: the viewer replays that table (``history.tournament_events``,
from its seed and its ``tcp`` seats' recorded answers) and finds the step there, the
seat's first action of that hand that took ``taken`` (a tournament's scorecards do not say
which of several alike it was), as this module finds a server table's.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from typing import Any

from croupier.engine.scoring import COSTLIEST
from croupier.protocol import ratings
from croupier.protocol.journal.packing import Unpacker

_SERVER_TABLES = (
    "SELECT table_id, round, seat, position, phase, taken, best, value_taken, value_best,"
    " loss, player FROM ("
    " SELECT sc.*, st.player,"
    " row_number() OVER (PARTITION BY st.player ORDER BY sc.loss DESC) AS place"
    " FROM scores sc JOIN seats st ON st.table_id = sc.table_id AND st.seat = sc.seat"
    " WHERE sc.loss > 0 AND st.player IS NOT NULL)"
    f" WHERE place <= {COSTLIEST} ORDER BY loss DESC"
)
"""Each bot's :data:`COSTLIEST` costliest decisions at server tables, cut by SQLite (not
every scored row read into Python on each ``leaderboard`` call)."""


def _from_server_tables(conn: sqlite3.Connection) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in conn.execute(_SERVER_TABLES):
        table, round_, seat, position, phase, taken, best, v_taken, v_best, loss, player = row
        found[player].append(
            {
                "table": table,
                "round": round_,
                "seat": seat,
                "position": position,
                "phase": phase,
                "taken": taken,
                "best": best,
                "value_taken": v_taken,
                "value_best": v_best,
                "loss": loss,
            }
        )
    return found


def _from_tournaments(conn: sqlite3.Connection) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for tournament, text in conn.execute(
        "SELECT id, result FROM tournaments WHERE state = 'finished' AND result IS NOT NULL"
    ):
        try:
            result = json.loads(text)
            if "scores" not in result:
                continue  # not scored
            for name, card in zip(result["bots"], result["scores"], strict=True):
                for decision in card["costliest"]:
                    found[ratings.bot_name(name)].append({**decision, "tournament": tournament})
        except (KeyError, TypeError, ValueError):
            continue  # a result this version cannot read shows none
    return found


def step_of(conn: sqlite3.Connection, decision: dict[str, Any]) -> int | None:
    """The replay step of a server table's scored decision: the number of the table's events
    up to and including its action (the seat's action of that round that took ``taken``,
    counting those it took before at the same round), or the round's first event where no
    action matches; None where the journal holds no events of that round."""
    table, round_ = decision["table"], decision["round"]
    before = conn.execute(
        "SELECT last FROM events WHERE table_id = ? AND round < ? ORDER BY first DESC LIMIT 1",
        (table, round_),
    ).fetchone()
    upto = conn.execute(
        "SELECT last FROM events WHERE table_id = ? AND round >= ? ORDER BY first LIMIT 1",
        (table, round_),
    ).fetchone()
    if upto is None:
        return None
    start = 0 if before is None else int(before[0])  # events numbered from 1
    rows = conn.execute(
        "SELECT first, data FROM events WHERE table_id = ? AND first <= ? AND last > ?"
        " ORDER BY first",
        (table, upto[0], start),
    ).fetchall()
    unpacker = Unpacker(conn)
    # the same action taken earlier in the round by this seat, scored before this one
    earlier = conn.execute(
        "SELECT count(*) FROM scores WHERE table_id = ? AND round = ? AND seat = ?"
        " AND position < ? AND taken = ?",
        (table, round_, decision["seat"], decision["position"], decision["taken"]),
    ).fetchone()[0]
    first_of_round = None
    for first, data in rows:
        for number, event in enumerate(unpacker.events(data), int(first)):
            if number <= start or event.get("round") != round_:
                continue
            if first_of_round is None:
                first_of_round = number
            action = event.get("action")
            if (
                event.get("kind") == "action"
                and event.get("seat") == decision["seat"]
                and isinstance(action, dict)
                and action.get("kind") == decision["taken"]
            ):
                if earlier == 0:
                    return number
                earlier -= 1
    return first_of_round


def costliest(conn: sqlite3.Connection) -> dict[str, list[dict[str, Any]]]:
    """Per bot, its :data:`COSTLIEST` costliest scored decisions over the journal's scored
    server tables and scored tournaments, costliest first: each with its ``loss``, ``round``
    (the hand) and ``table``, and where to see it: ``at`` (a server table's replay step) or
    ``tournament`` (a tournament table's, whose replay the viewer finds the step in)."""
    merged: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for found in (_from_server_tables(conn), _from_tournaments(conn)):
        for name, decisions in found.items():
            merged[name].extend(decisions)
    out = {}
    for name, decisions in merged.items():
        decisions.sort(key=lambda d: -float(d["loss"]))
        kept = decisions[:COSTLIEST]
        for decision in kept:
            if "tournament" not in decision:
                decision["at"] = step_of(conn, decision)
                del decision["position"]
        out[name] = kept
    return out
