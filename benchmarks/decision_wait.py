"""The server's CPU to wait for one remote decision: the table's own task waiting under the
decision clock (``DecisionClock.answer_pending``, what a bot's seat uses) against the same
wait through a nursery and a task per decision (``DecisionClock.answer``, what it used), in
the same run.

Run: ``.venv/bin/python benchmarks/decision_wait.py [--decisions 5000] [--repeat 5]``

A "reader" task answers each question, as a connection's receive loop sets the answer of a
call; no socket, so the figure is the scheduling alone (the write and the read come on top
of both). The best of ``--repeat`` runs of each, alternating, in CPU time.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import trio

from croupier.engine.decisions import DecisionClock


class Question:
    """A question put to the reader: ``done`` once it answered."""

    def __init__(self) -> None:
        self.done = trio.Event()

    def result(self) -> object:
        return {"kind": "stand"}

    def close(self) -> None:
        pass


async def measure(decisions: int, repeat: int) -> dict[str, float]:
    clock = DecisionClock(2.0, stalls=lambda: 0.0)
    send, receive = trio.open_memory_channel[Question](1)

    async def reader() -> None:
        async for question in receive:
            question.done.set()

    async def ask() -> Question:  # the request written; answered by the reader
        question = Question()
        send.send_nowait(question)
        return question

    async def call() -> Any:  # the same, waited for inside the call (answer's task)
        question = await ask()
        await question.done.wait()
        return question.result()

    best = {"task": float("inf"), "pending": float("inf")}
    async with trio.open_nursery() as nursery:
        nursery.start_soon(reader)
        for _ in range(repeat):
            start = time.process_time()
            for _ in range(decisions):
                await clock.answer(call)
            best["task"] = min(best["task"], (time.process_time() - start) / decisions)
            start = time.process_time()
            for _ in range(decisions):
                await clock.answer_pending(ask)
            best["pending"] = min(best["pending"], (time.process_time() - start) / decisions)
        nursery.cancel_scope.cancel()
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.decisions, args.repeat = 200, 1
    best = trio.run(measure, args.decisions, args.repeat)
    load = ", ".join(f"{n:.1f}" for n in os.getloadavg())
    print(f"a remote decision's wait, {args.decisions} decisions, best of {args.repeat}")
    print(f"  (load average {load} on {os.cpu_count()} cores)")
    print(f"  the table's own task (answer_pending)  {best['pending'] * 1e6:7.1f} us of CPU")
    print(f"  a nursery and a task (answer)          {best['task'] * 1e6:7.1f} us of CPU")
    print(f"  ratio                                  {best['task'] / best['pending']:7.2f}x")


if __name__ == "__main__":
    main()
