"""A scored server table's valuations run in a scoring worker process, off the server's
process (``ServerLimits.scoring_workers``; 0: a thread of the server's), a server
tournament's tables' too (``play_tournament``'s ``settle``), and the option that sizes them
(``croupier serve --scoring-workers``)."""

from __future__ import annotations

import argparse
import os
import time
from types import SimpleNamespace
from typing import Any, cast

import pytest
import trio

from croupier.clients.cli.commands.serve import register, server_limits
from croupier.engine.oracle import Question, Valuation
from croupier.engine.tournament import TournamentConfig
from croupier.engine.tournament_run import GameStrategyEntry, play_tournament
from croupier.protocol import ServerLimits
from croupier.protocol.tables.scoring import answer


def _where(_: object) -> Valuation:
    """Values the decision with the id of the process that valued it."""
    return Valuation({"pid": float(os.getpid())}, "pid")


def _table(workers: int) -> Any:
    limits = ServerLimits(scoring_workers=workers)
    limiter = trio.CapacityLimiter(max(1, workers))
    server = SimpleNamespace(limits=limits, scoring_limiter=limiter)
    return cast(Any, SimpleNamespace(server=server))


def _valued_in(workers: int) -> set[float]:
    async def main() -> list[Valuation]:
        return await answer(_table(workers), [Question(_where, None), Question(_where, None)])

    return {v.values["pid"] for v in trio.run(main)}


def test_a_scoring_worker_values_decisions_in_another_process() -> None:
    (pid,) = _valued_in(1)
    assert pid != os.getpid()


def test_no_scoring_workers_values_them_in_the_servers_process() -> None:
    assert _valued_in(0) == {os.getpid()}


def _serve(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_serve_sizes_the_scoring_workers() -> None:
    assert server_limits(_serve()).scoring_workers == ServerLimits().scoring_workers == 1
    assert server_limits(_serve("--scoring-workers", "0")).scoring_workers == 0
    assert server_limits(_serve("--scoring-workers", "3")).scoring_workers == 3


@pytest.mark.parametrize("value", ["-1", "two"])
def test_serve_rejects_a_bad_number_of_scoring_workers(cli: Any, value: str) -> None:
    status, _, err = cli("serve", "--scoring-workers", value)
    assert status == 2 and "a number of workers" in err and "Traceback" not in err


def test_a_tournament_tables_answers_come_from_the_settle_it_is_given(manager: Any) -> None:
    """A server tournament hands each scored table's questions to its scoring workers
    (``play_tournament``'s ``settle``), and the scores are those of the thread's answers."""
    game = manager.games.get("three-card-poker")
    options = game.rules(None, {})
    config = TournamentConfig.of(game, options, scored=True, tourneys=2, rounds=2, hands=6, seed=19)
    entries = [
        GameStrategyEntry(name, game.name, game.strategy(name).at(options))
        for name in ("optimal", "always-play")
    ]
    asked: list[int] = []

    async def settle(questions: list[Question]) -> list[Valuation]:
        asked.append(len(questions))
        return [q.valuation() for q in questions]

    given = trio.run(lambda: play_tournament(manager, config, entries, settle=settle))
    threaded = trio.run(lambda: play_tournament(manager, config, entries))
    assert asked and all(n > 0 for n in asked)
    assert sum(asked) == sum(card["decisions"] for card in given.to_dict()["scores"])
    assert given.to_dict()["scores"] == threaded.to_dict()["scores"]


def _stuck(fifo: str) -> Valuation:
    """Tells the test its process id through ``fifo``, then values nothing for an hour."""
    with open(fifo, "w") as out:
        out.write(str(os.getpid()))
    time.sleep(3600)
    raise AssertionError("not stopped")


def _read_pid(fifo: str) -> int:
    with open(fifo) as told:  # blocks until the worker has opened it
        return int(told.read())


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] in "ZX"  # dead, not yet reaped
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_a_server_stopping_kills_a_busy_scoring_worker(tmp_path: Any) -> None:
    """Ctrl-C (the server's tasks cancelled) does not wait for a valuation in progress:
    its worker is killed, and the rounds it was valuing are scored again after a restart
    (tests/test_scoring_recovery.py: what the journal holds not is replayed)."""
    fifo = str(tmp_path / "pid")
    os.mkfifo(fifo)

    async def main() -> int:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(answer, _table(1), [Question(_stuck, fifo)])
            pid = await trio.to_thread.run_sync(_read_pid, fifo)
            nursery.cancel_scope.cancel()
        return pid

    pid = trio.run(main)
    assert pid != os.getpid() and _gone(pid)
