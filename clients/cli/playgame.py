"""``croupier play --game NAME``: any installed game, line by line, locally or on a server.

The person sits in seat 1 of a local table whose other seats (``--seats K``) are played by
the game's strategies (``--fill``, by default its first); with ``--connect`` the same
table is made on a server (``--fill -`` leaves a seat for a bot), or ``--table T`` takes
a free seat of a server table. Options come from ``--rules``, ``--set`` and the blackjack
flags that name one of the game's options, as for ``croupier sim --game``; the
blackjack-only flags (``--ascii``) are refused in one line. See
:mod:`croupier.clients.play.lineplay`.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

import trio

from croupier.clients.bot.reconnect import unwrap_group
from croupier.clients.cli.common import report_seed, resolve_seed
from croupier.clients.cli.simgame import find_game, game_overrides
from croupier.clients.play.lineplay import (
    LinePerson,
    LineTally,
    greeting,
    interrupted,
    play_local,
    rules_label,
)
from croupier.clients.play.lineremote import RemoteEnd, play_remote
from croupier.clients.play.view import PERSON_TIME
from croupier.engine import CroupierError, PluginManager
from croupier.engine.games import Game, GameStrategy
from croupier.protocol import ConnectionClosed, RpcError

ENDINGS = {
    "quit": "You leave the table.",
    "broke": "You are out of chips: the game is over.",
    "over": "No seat can play on: the game is over.",
    "interrupted": "Interrupted.",
}


def say(line: str) -> None:
    """Print a line; the terminal may be gone (a hang-up), which is no error."""
    with contextlib.suppress(OSError):
        print(line, flush=True)


def prompt(text: str) -> None:
    with contextlib.suppress(OSError):
        print(text, end="", flush=True)


def read_line() -> str | None:
    """The next line of the input, None at its end; a line that does not come from a
    terminal is echoed, so a transcript shows what was answered."""
    try:
        line = sys.stdin.readline()
    except (OSError, ValueError):  # a closed or missing stdin
        return None
    if not line:
        say("")
        return None
    with contextlib.suppress(AttributeError, ValueError):
        if not sys.stdin.isatty():
            say(line.rstrip("\n"))
    return line


def run_lines(manager: PluginManager, args: argparse.Namespace) -> int:
    game = find_game(manager, args.game)
    if args.ascii:
        raise CroupierError(f"--ascii draws blackjack's cards; {game.name} plays line by line")
    overrides = game_overrides(args, {f.name for f in game.options}, game.name)
    options = game.rules(args.rules, overrides)  # a bad option is refused before anything
    fill = _fill(game, args)
    person = LinePerson(game, read_line, say, prompt)
    if args.connect is None:
        for given, option in (
            (args.table is not None, "--table T joins"),
            (args.decision_time is not None, "--decision-time S makes"),
            ("-" in args.fill, "--fill - leaves a seat for a bot at"),
        ):
            if given:
                raise CroupierError(f"{option} a table on a server: give --connect HOST:PORT")
        minimum = game.seat_minimum(options)
        if options["starting_chips"] < minimum:
            raise CroupierError(
                f"{options['starting_chips']} starting chips cannot play a round of "
                f"{game.name} (it needs {minimum})"
            )
        strategies = [s for s in fill if s is not None]
        seed = resolve_seed(args)
        names = ["you", *(s.name for s in strategies)]
        label = rules_label(game, args.rules, options)
        say(greeting(game, label, f"seed {seed}", "at a local table", names, 1))
        try:
            ended, tally = play_local(game, options, seed, strategies, person)
        except BaseExceptionGroup as group:
            raise unwrap_group(group) from None
        return _finish(ENDINGS[ended], tally, ended == "interrupted")
    return _remote(game, args, overrides, fill, person)


def _fill(game: Game, args: argparse.Namespace) -> list[GameStrategy | None]:
    """Seats 2..K: the strategies named (None, ``-``: a bot's seat), then, at a server
    table, seats for bots (as blackjack's ``play --connect --seats K``), at a local table
    (where no bot comes) the game's first strategy."""
    if args.seats > game.max_seats:
        raise CroupierError(f"a {game.name} table has 1 to {game.max_seats} seats")
    check_fill(args.fill, args.seats)
    named = [None if name == "-" else game.strategy(name) for name in args.fill]
    rest = args.seats - 1 - len(named)
    if args.connect is not None:
        return [*named, *[None] * rest]
    if rest and not game.strategies:
        raise CroupierError(f"{game.name} has no strategies to fill seats 2 to {args.seats}")
    return named + [game.strategies[0]] * rest


def check_fill(fill: list[str], seats: int) -> None:
    """``--fill`` names seats 2 to ``seats``: at most ``seats - 1`` of them."""
    if len(fill) > seats - 1:
        raise CroupierError(
            f"--fill names the strategies of seats 2 to {seats} (--seats {seats}): "
            f"at most {seats - 1}, not {len(fill)}"
        )


def _finish(ending: str, tally: LineTally, stopped: bool) -> int:
    say(ending)
    say(f"Thanks for playing. {tally.line()}")
    if stopped:
        raise KeyboardInterrupt
    return 0


def _remote(
    game: Game,
    args: argparse.Namespace,
    overrides: dict[str, Any],
    fill: list[GameStrategy | None],
    person: LinePerson,
) -> int:
    host, port = args.connect
    new_table = args.seed is not None or overrides or args.seats != 1 or args.fill
    new_table = new_table or args.rules is not None
    if args.table is not None and (new_table or args.decision_time is not None):
        raise CroupierError(
            "--seed, --seats, --fill, --decision-time, --rules and options make a new table; "
            "not with --table"
        )
    bots = sum(s is None for s in fill)
    create = {
        "rules": args.rules,
        "options": overrides,
        "seed": args.seed,
        "seats": args.seats,
        "fill": [None, *(None if s is None else s.name for s in fill)],
        # the person alone with strategies has all the time in the world; a seat left for
        # a bot needs a limit (the server's rule): one a person can keep to
        "decision_time": args.decision_time or (PERSON_TIME if bots else None),
    }

    def seated(joined: dict[str, Any]) -> None:
        info = joined["info"]
        names = [str(s["player"] or s["kind"]) for s in info["seats"]]
        where = f"at table {joined['table']} on {host}:{port}"
        # a live table shows its seed to nobody, only a commitment to it: the seed given
        seed = args.seed if info.get("seed") is None else info["seed"]
        shown = "seed hidden until it finishes" if seed is None else f"seed {seed}"
        if args.table is None and seed is None:  # drawn by the server: its commitment now
            print(
                f"croupier: table {joined['table']}'s seed is drawn by the server and shown once "
                f"it finishes; its commitment: {info['commit']}",
                file=sys.stderr,
            )
        label = rules_label(game, info.get("rule_set"), info["rules"])
        say(greeting(game, label, shown, where, names, joined["seat"]))
        free = [s["seat"] for s in info["seats"] if s["kind"] == "free"]
        if free:
            say(
                f"Table {joined['table']} waits for {len(free)} more: croupier bot NAME "
                f"--game {game.name} --connect {host}:{port} --table {joined['table']}"
            )
        if info.get("decision_time") is not None:
            say(f"{info['decision_time']:g} s per decision: then the table plays for you.")

    try:
        try:
            end: RemoteEnd = trio.run(
                lambda: play_remote(person, host, port, args.table, create, seated)
            )
        except BaseExceptionGroup as group:
            raise unwrap_group(group) from None
    except RpcError as exc:
        raise CroupierError(f"the server refused: {exc}") from None
    except ConnectionClosed as exc:
        raise CroupierError(f"lost the connection to {host}:{port}: {exc}") from None
    except BaseException as exc:
        if interrupted(exc):
            raise KeyboardInterrupt from None
        raise
    if end.ended == "finished":
        ending = f"Table {end.table} has finished: {end.info.get('reason') or 'finished'}."
        if args.table is None and args.seed is None and end.info.get("seed") is not None:
            report_seed(int(end.info["seed"]))  # drawn by the server, shown once finished
    else:
        ending = ENDINGS[end.ended]
        if not end.reached:
            ending += f" The server at {host}:{port} is away: the tally is as last seen."
        elif end.ended in ("quit", "interrupted"):
            ending += (
                f" Table {end.table} ends round {person.round} with your seat empty (it sits "
                "out where the game allows, else it plays the default)"
                + ("." if end.settled else "; it had not finished that round yet.")
            )
    return _finish(ending, end.tally, end.ended == "interrupted")
