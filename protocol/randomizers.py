"""Randomizer streams over the wire: open one from a spec or a name and a seed, draw its
symbols, close it. A stream opened with seed ``s`` deals exactly what the engine's
``PluginManager.randomizer(spec, Stream(s))`` deals, so it can be replayed anywhere."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import attrs
import trio

from croupier.engine import Randomizer, Stream
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.transport.methods import Method, Param, Service
from croupier.protocol.transport.server import Connection

MAX_SEED = 2**64 - 1
SYMBOLS_PER_TOKEN = 1000
"""A draw costs 1 token of its caller's request budget plus 1 per this many symbols."""

_OPT_INT = (int, type(None))


@attrs.define
class _OpenStream:
    spec: str
    seed: int
    randomizer: Randomizer
    dealt: int = 0
    lock: trio.Lock = attrs.Factory(trio.Lock)
    """Draws of one stream run one after another, in the order they came (trio's locks
    are fair), whether they run inline or in a worker thread."""


class RandomizerService(Service):
    """Randomizer streams: open from a spec or a name and a seed, then draw symbols.

    A stream opened with seed ``s`` deals exactly what
    ``PluginManager.randomizer(spec, Stream(s))`` deals, so a stream can be replayed
    anywhere. Without a seed, the server derives one from its own seed and returns it.

    Opening a spec and drawing many symbols can take seconds (a long list with a deep
    history and many rolls), so that work runs in a worker thread while the connection's
    receive loop waits for it: the connection's requests keep their order (draws on one
    stream must), and every other connection goes on being served.
    """

    INLINE_DRAW = 64
    """Draws up to this many symbols are dealt in the receive loop (no thread hop)."""
    DRAW_CHUNK = 10_000
    """Symbols dealt per turn in the randomizer pool."""

    KEY = "randomizer"

    def methods(self) -> Iterable[Method]:
        return [
            Method(
                "randomizer.open",
                (
                    Param("spec", (str,), doc="a randomizer's name or spec text"),
                    Param("seed", _OPT_INT, None, doc="0 to 2**64-1; nil: the server draws one"),
                ),
                self.open,
                "open a stream of symbols",
                returns="{stream, seed, spec, symbols}",
                quick=True,
                watcher=True,
                cost=5.0,
            ),
            Method(
                "randomizer.draw",
                (
                    Param("stream", (int,), doc="a stream id from randomizer.open"),
                    Param("n", (int,), doc="how many symbols"),
                ),
                self.draw,
                "the next n symbols of a stream",
                returns="[symbol, ...]",
                quick=True,
                watcher=True,
                cost=lambda params: 1.0 + max(0, params["n"]) / SYMBOLS_PER_TOKEN,
            ),
            Method(
                "randomizer.close",
                (Param("stream", (int,)),),
                self.close,
                "close a stream",
                returns="nil",
                quick=True,
                watcher=True,
            ),
        ]

    @staticmethod
    def _streams(conn: Connection) -> dict[int, _OpenStream]:
        streams: dict[int, _OpenStream] = conn.state.setdefault(RandomizerService.KEY, {})
        return streams

    async def open(self, conn: Connection, spec: str, seed: int | None) -> dict[str, Any]:
        streams = self._streams(conn)
        limit = conn.server.limits.max_streams
        if len(streams) >= limit:
            raise RpcError(Code.LIMIT_EXCEEDED, f"at most {limit} open streams per connection")
        if len(spec) > conn.server.limits.max_spec:
            raise RpcError(
                Code.LIMIT_EXCEEDED,
                f"a spec is at most {conn.server.limits.max_spec} characters, not {len(spec)}",
            )
        if seed is None:
            seed = conn.server.derive_seed("randomizer")
        elif not 0 <= seed <= MAX_SEED:
            raise RpcError(Code.BAD_INPUT, f"a seed is an integer from 0 to 2**64-1, not {seed}")
        build = partial(conn.server.manager.randomizer, spec, Stream(seed))
        randomizer = await _in_thread(conn, build)
        stream_id = max(streams, default=0) + 1
        streams[stream_id] = _OpenStream(spec, seed, randomizer)
        return {
            "stream": stream_id,
            "seed": seed,
            "spec": spec,
            "symbols": list(randomizer.symbols),
        }

    def _get(self, conn: Connection, stream: int) -> _OpenStream:
        try:
            return self._streams(conn)[stream]
        except KeyError:
            raise RpcError(Code.UNKNOWN_NAME, f"no open stream {stream}") from None

    async def draw(self, conn: Connection, stream: int, n: int) -> list[Any]:
        opened = self._get(conn, stream)
        limit = conn.server.limits.max_draw
        if not 0 <= n <= limit:
            raise RpcError(Code.LIMIT_EXCEEDED, f"n must be from 0 to {limit}, not {n}")
        symbols: list[Any] = []
        async with opened.lock:
            if n <= self.INLINE_DRAW:
                symbols.extend(opened.randomizer.deal(n))
            # a large draw takes a turn in the pool per chunk, so others' small work
            # never waits behind a whole large draw
            while len(symbols) < n:
                chunk = min(self.DRAW_CHUNK, n - len(symbols))
                symbols.extend(await _in_thread(conn, partial(opened.randomizer.deal, chunk)))
            opened.dealt += n
        return symbols

    async def close(self, conn: Connection, stream: int) -> None:
        self._get(conn, stream)
        del self._streams(conn)[stream]


async def _in_thread(conn: Connection, work: Callable[[], Any]) -> Any:
    """Run randomizer ``work`` in a worker thread after a fair turn in the server's
    randomizer pool (a stream lives in the server, so its work cannot move to a process).

    If the connection goes away meanwhile the thread finishes on its own and its result is
    dropped; the stream it touched goes with the connection."""
    async with conn.server.randomizer_pool.turn(conn.id):
        return await trio.to_thread.run_sync(work, abandon_on_cancel=True)
