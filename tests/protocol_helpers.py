"""Helpers for the protocol tests: a test plugin, a server fixture's pieces, a raw client."""

from __future__ import annotations

import threading
import time
from typing import Any

import msgpack
import trio

from croupier.engine import (
    CroupierError,
    PluginManager,
    RandomizerKind,
    RandomizerLanguage,
    Solver,
    SpecError,
    Stream,
    hookimpl,
)
from croupier.protocol import Connection, Method, Param, RpcError, Server, ServerLimits, Service
from croupier.protocol.services import default_services


class Pick:
    """Deals uniformly from its symbols with ``stream.randbelow`` (a real seeded randomizer)."""

    def __init__(self, stream: Stream, symbols: tuple[str, ...]) -> None:
        self._stream = stream
        self.symbols = symbols

    def deal(self, n: int) -> list[str]:
        return [self.symbols[self._stream.randbelow(len(self.symbols))] for _ in range(n)]


GATE = threading.Event()
"""Holds every ``gated`` draw (in whatever thread it runs) until a test sets it."""
AT_GATE = threading.Event()
"""Set by a ``gated`` draw when it starts waiting for :data:`GATE`."""


class Gated(Pick):
    """A randomizer whose draws of more than one symbol wait for :data:`GATE`: stands in for
    a draw that takes seconds."""

    def deal(self, n: int) -> list[str]:
        if n > 1:
            AT_GATE.set()
            if not GATE.wait(20):
                raise RuntimeError("the test never opened the gate")
        return super().deal(n)


def parse_pick(text: str):
    """The test language: ``pick A,B,C``."""
    if not text.startswith("pick "):
        return None
    body = text[5:]
    symbols = tuple(s.strip() for s in body.split(","))
    for s in symbols:
        if not s:
            raise SpecError("empty symbol", text, 5 + body.index(",,") + 1 if ",," in body else 5)
    return lambda stream: Pick(stream, symbols)


def add(problem):
    if not isinstance(problem.get("a"), int) or not isinstance(problem.get("b"), int):
        raise CroupierError("the problem needs integers 'a' and 'b'")
    return {"sum": problem["a"] + problem["b"]}


def broken(problem):
    raise ZeroDivisionError("a bug in a solver")


def slow(problem):
    time.sleep(float(problem.get("seconds", 1.0)))
    return {"done": True}


class HelperPlugin:
    @hookimpl
    def croupier_randomizers(self):
        return [
            RandomizerKind(
                "tetromino", "uniform I,J,L,O,S,T,Z", lambda s: Pick(s, tuple("IJLOSTZ")), "pick"
            ),
            RandomizerKind("gated", "draws wait for the test", lambda s: Gated(s, ("x", "y"))),
        ]

    @hookimpl
    def croupier_randomizer_languages(self):
        return [RandomizerLanguage("pick", "pick A,B,C: uniform picks", parse_pick)]

    @hookimpl
    def croupier_solvers(self):
        return [
            Solver("add", "adds a and b", add, "{a: int, b: int}"),
            Solver("broken", "always fails", broken),
            Solver("slow", "sleeps", slow),
        ]


def make_manager() -> PluginManager:
    return PluginManager(autoload=False, plugins=[("test", HelperPlugin())])


class AskService(Service):
    """Test-only methods: the server calls the client back, sleeps, fails, or returns junk."""

    def __init__(self) -> None:
        self.outcomes: list[str] = []

    def methods(self):
        return [
            Method(
                "test.ask",
                (Param("timeout", (float,), 1.0),),
                self.ask,
                "call the client's decide and return what it said",
            ),
            Method("test.sleep", (Param("seconds", (float,)),), self.sleep, "sleep"),
            Method("test.bug", (), self.bug, "raise a bug"),
            Method("test.junk", (), self.junk, "return something msgpack cannot carry"),
        ]

    async def ask(self, conn: Connection, timeout: float) -> Any:
        try:
            answer = await conn.call(
                "decide", [{"hand": ["A", "7"], "legal": ["hit", "stand"]}], timeout=timeout
            )
        except RpcError as exc:
            self.outcomes.append(exc.name)
            return {"default": "stand", "because": exc.name}
        self.outcomes.append("answered")
        return {"action": answer}

    async def sleep(self, conn: Connection, seconds: float) -> str:
        await trio.sleep(seconds)
        return "slept"

    async def bug(self, conn: Connection) -> None:
        raise ValueError("oops")

    async def junk(self, conn: Connection) -> Any:
        return {"x": object()}


def make_server(seed: int = 7, **limits: Any) -> tuple[Server, AskService]:
    ask = AskService()
    server = Server(
        make_manager(),
        seed=seed,
        default_game="blackjack",
        limits=ServerLimits(**limits),
        services=[*default_services(), ask],
    )
    return server, ask


class Raw:
    """A client that is not ours: a byte stream (a TCP socket, say) and msgpack, nothing else."""

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream
        self.unpacker = msgpack.Unpacker(raw=False)
        self.sent = bytearray()

    @classmethod
    async def connect(cls, port: int) -> Raw:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    async def send(self, obj: Any) -> None:
        await self.send_bytes(msgpack.packb(obj))

    async def send_bytes(self, data: bytes) -> None:
        self.sent += data
        await self.stream.send_all(data)

    async def receive(self, timeout: float = 5.0) -> Any:
        """The next message, or None when the server closed the connection."""
        with trio.fail_after(timeout):
            while True:
                for obj in self.unpacker:
                    return obj
                data = await self.stream.receive_some(65536)
                if not data:
                    return None
                self.unpacker.feed(data)

    async def call(self, msgid: int, method: str, *params: Any) -> Any:
        await self.send([0, msgid, method, list(params)])
        return await self.receive()

    async def hello(self) -> Any:
        return await self.call(0, "hello", 1, "raw", "client")

    async def aclose(self) -> None:
        await self.stream.aclose()
