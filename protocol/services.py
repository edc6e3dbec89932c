"""The built-in method groups (handshake, discovery, randomizer streams) and croupier's
:class:`Server`, where the transport and the default services are put together.

Every method but ``hello`` requires a successful ``hello`` first. Methods take plain data
and return plain data (msgpack maps, arrays, strings, numbers), so any msgpack-rpc client
can use them; ``docs/protocol.md`` documents each one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import attrs
import trio

from croupier.engine import PluginManager, Randomizer, Stream, __version__
from croupier.protocol.botkeys import REFUSED
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.history import HistoryService
from croupier.protocol.journal import NullJournal
from croupier.protocol.keyservice import KeyService
from croupier.protocol.leaderboard import LeaderboardService
from croupier.protocol.limits import ServerLimits
from croupier.protocol.methods import Method, Param, Service
from croupier.protocol.server import SUPPORTED_VERSIONS, Connection, RpcServer
from croupier.protocol.solving import SolverService
from croupier.protocol.tables import TableService
from croupier.protocol.tournaments import TournamentService

ROLES = ("bot", "client", "watcher")
"""``bot``: plays seats (answers ``decide``); ``client``: uses services; ``watcher``: watches."""

MAX_SEED = 2**64 - 1
MAX_NAME = 100
SYMBOLS_PER_TOKEN = 1000
"""A draw costs 1 token of its caller's request budget plus 1 per this many symbols."""

_OPT_INT = (int, type(None))


class CoreService(Service):
    """``hello`` (the handshake), ``ping`` and ``methods``."""

    def methods(self) -> Iterable[Method]:
        return [
            Method(
                "hello",
                (
                    Param("version", (int,), doc="the protocol version the client speaks"),
                    Param("name", (str,), doc="the client's name, for logs"),
                    Param("role", (str,), "client", doc="one of: " + ", ".join(ROLES)),
                    Param(
                        "errors",
                        (str,),
                        "map",
                        doc="'map' (errors are {code, name, message} maps) or 'string' "
                        "(errors are 'name (code): message' strings, for codecs such as "
                        "Go's net/rpc that cannot read a map)",
                    ),
                    Param(
                        "key",
                        (str, type(None)),
                        None,
                        doc="a registered bot's key (servers run with --auth keys): the "
                        "connection plays under the bot's registered name",
                    ),
                ),
                self.hello,
                "introduce the client; must be the first call",
                returns="{protocol, server, connection, roles, name, auth}",
                hello_required=False,
                quick=True,
                watcher=True,
            ),
            Method(
                "ping",
                (),
                self.ping,
                "a trivial call (latency, liveness)",
                returns='"pong"',
                quick=True,
                watcher=True,
            ),
            Method(
                "methods",
                (),
                self.list_methods,
                "every method with its parameters",
                returns="[{name, summary, params, returns}]",
                quick=True,
                watcher=True,
            ),
        ]

    async def hello(
        self,
        conn: Connection,
        version: int,
        name: str,
        role: str,
        errors: str = "map",
        key: str | None = None,
    ) -> dict[str, Any]:
        if errors not in ("map", "string"):
            raise RpcError(Code.BAD_INPUT, "errors is 'map' or 'string'")
        if conn.protocol is None:
            conn.session.string_errors = errors == "string"
        if conn.protocol is not None:
            raise RpcError(Code.INVALID_REQUEST, "'hello' was already called on this connection")
        if version not in SUPPORTED_VERSIONS:
            speaks = ", ".join(str(v) for v in SUPPORTED_VERSIONS)
            raise RpcError(
                Code.UNSUPPORTED_VERSION,
                f"protocol version {version} is not supported; this server speaks {speaks}",
                {"supported": list(SUPPORTED_VERSIONS)},
            )
        if not name.strip() or len(name) > MAX_NAME or not name.isprintable():
            raise RpcError(Code.BAD_INPUT, f"a client name is 1 to {MAX_NAME} printable characters")
        if role not in ROLES:
            raise RpcError(
                Code.BAD_INPUT, f"unknown role {role[:MAX_NAME]!r}; roles: {', '.join(ROLES)}"
            )
        if conn.roles is not None and role not in conn.roles:
            raise RpcError(
                Code.BAD_INPUT,
                f"this connection may only say hello as {' or '.join(map(repr, conn.roles))}",
            )
        identity = check_key(conn, role, key)
        conn.protocol, conn.client, conn.role = version, identity or name, role
        conn.identity = identity
        return {
            "protocol": version,
            "server": f"croupier {__version__}",
            "connection": conn.id,
            "roles": list(ROLES),
            "name": conn.client,
            "auth": conn.server.auth,
        }

    async def ping(self, conn: Connection) -> str:
        return "pong"

    async def list_methods(self, conn: Connection) -> list[dict[str, Any]]:
        return [method.describe() for method in conn.server.methods]


class DiscoveryService(Service):
    """What the server can do: plugins, rule sets, randomizers, solvers, games."""

    def methods(self) -> Iterable[Method]:
        return [
            Method(
                "plugins",
                (),
                self.plugins,
                "every plugin and what it contributes",
                returns="{plugins, skipped, errors}",
                quick=True,
                watcher=True,
            ),
            Method(
                "rule_sets",
                (),
                self.rule_sets,
                "the named rule sets",
                returns="[{name, summary, plugin, rules}]",
                quick=True,
                watcher=True,
            ),
            Method(
                "randomizers",
                (),
                self.randomizers,
                "the named randomizers and the spec languages",
                returns="{randomizers: [{name, summary, plugin, spec}], languages: [...]}",
                quick=True,
                watcher=True,
            ),
            Method(
                "solvers",
                (),
                self.solvers,
                "the solvers",
                returns="[{name, summary, plugin, problem}]",
                quick=True,
                watcher=True,
            ),
            Method(
                "games",
                (),
                self.games,
                "the games plugins contribute, each with the schema of its actions, "
                "observations and events",
                returns="[{name, summary, plugin, options, defaults, rule_sets, actions, "
                "observation, events, strategies, max_seats}]",
                quick=True,
                watcher=True,
            ),
        ]

    async def plugins(self, conn: Connection) -> dict[str, Any]:
        return conn.server.manager.describe()

    async def rule_sets(self, conn: Connection) -> list[dict[str, Any]]:
        return [
            {
                "name": e.name,
                "summary": e.item.summary,
                "plugin": e.plugin,
                "rules": e.item.rules.to_dict(),
            }
            for e in conn.server.manager.rule_sets.entries()
        ]

    async def randomizers(self, conn: Connection) -> dict[str, Any]:
        manager = conn.server.manager
        return {
            "randomizers": [
                {"name": e.name, "summary": e.item.summary, "plugin": e.plugin, "spec": e.item.spec}
                for e in manager.randomizers.entries()
            ],
            "languages": [
                {"name": lang.name, "summary": lang.summary, "plugin": plugin}
                for plugin, lang in manager.randomizer_languages
            ],
        }

    async def games(self, conn: Connection) -> list[dict[str, Any]]:
        return [
            {**e.item.schema(), "plugin": e.plugin} for e in conn.server.manager.games.entries()
        ]

    async def solvers(self, conn: Connection) -> list[dict[str, Any]]:
        return [
            {
                "name": e.name,
                "summary": e.item.summary,
                "plugin": e.plugin,
                "problem": e.item.problem_doc,
            }
            for e in conn.server.manager.solvers.entries()
        ]


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


def check_key(conn: Connection, role: str, key: str | None) -> str | None:
    """The registered name ``key`` proves (None without a key on an ``open`` server);
    an error for a key an ``open`` server does not take, a bot without a key on a ``keys``
    server, a wrong or revoked key (one error, rate-limited per address), or a bot already
    connected under that name."""
    server = conn.server
    if key is None:
        if server.auth == "keys" and role == "bot":
            raise RpcError(
                Code.NOT_ALLOWED,
                "this server plays registered bots only: present the bot's key (croupier "
                "bot --key KEY, or CROUPIER_KEY)",
            )
        return None
    if server.auth == "open":
        raise RpcError(
            Code.BAD_INPUT,
            "this server runs --auth open and takes no keys: connect without one",
        )
    now = trio.current_time()
    wait = server.key_failures.wait(conn.address, now)
    if wait > 0:
        raise RpcError(
            Code.TOO_MANY_REQUESTS,
            f"too many wrong keys from this address: try again in {math.ceil(wait)} s",
        )
    name = server.bot_keys.who(key)
    if name is None:
        server.key_failures.failed(conn.address, now)
        raise RpcError(Code.BAD_TOKEN, REFUSED)
    if any(other.identity == name for other in list(server.connections.values())):
        raise RpcError(
            Code.NOT_ALLOWED, f"bot {name!r} is already connected (one connection per key)"
        )
    return name


def default_services() -> list[Service]:
    """The services every server offers (the tables service last: tests replace it)."""
    return [
        CoreService(),
        DiscoveryService(),
        RandomizerService(),
        SolverService(),
        HistoryService(),
        KeyService(),
        LeaderboardService(),
        TournamentService(),
        TableService(),
    ]


class Server(RpcServer):
    """croupier's server: the transport (:class:`~croupier.protocol.server.RpcServer`) with
    the default services, or those given. This module is where the two meet: the transport
    imports no service, and ``croupier serve`` (:func:`~croupier.protocol.running.run_server`)
    builds this."""

    def __init__(
        self,
        manager: PluginManager,
        *,
        seed: int,
        limits: ServerLimits = ServerLimits(),
        services: Iterable[Service] | None = None,
        first_game_id: int = 1,
        journal: NullJournal | None = None,
        default_game: str | None = None,
        auth: str = "open",
    ) -> None:
        super().__init__(
            manager,
            seed=seed,
            limits=limits,
            services=default_services() if services is None else services,
            first_game_id=first_game_id,
            journal=journal,
            default_game=default_game,
            auth=auth,
        )
