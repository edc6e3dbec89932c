"""The Python client: an async (trio) msgpack-rpc client that says ``hello`` for you.

The CLI, the bot SDK and the tests use it::

    async with connect("127.0.0.1", 7171, name="my-bot", role="bot",
                       handlers={"decide": decide}) as client:
        opened = await client.call("randomizer.open", "tgm3", 42)

``handlers`` answer the server's own requests (``decide`` when a bot must act);
``on_notification(method, params)`` (a plain or ``async`` function) receives
notifications (events, ``shutdown``).
"""

from __future__ import annotations

import inspect
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

import trio

from croupier.engine import CroupierError
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.transport.addresses import DEFAULT_HOST, DEFAULT_PORT
from croupier.protocol.transport.codec import PROTOCOL_VERSION, Notification, Request
from croupier.protocol.transport.session import Session, SessionLimits

DEFAULT_LIMITS = SessionLimits()

RequestCallback = Callable[..., Awaitable[Any]]
NotificationCallback = Callable[[str, Any], Awaitable[None] | None]


class Client:
    """A connected, introduced client. Get one from :func:`connect`."""

    def __init__(self, session: Session, handlers: Mapping[str, RequestCallback]) -> None:
        self.session = session
        self.handlers = dict(handlers)
        self.server_info: dict[str, Any] = {}
        self._signatures: dict[
            str, tuple[RequestCallback, inspect.Signature, tuple[int, int] | None]
        ] = {}

    async def call(self, method: str, *params: Any, timeout: float | None = None) -> Any:
        """Call ``method`` with positional ``params``; raises :class:`RpcError` on error."""
        return await self.session.call(method, params, timeout=timeout)

    async def call_named(
        self, method: str, params: Mapping[str, Any], *, timeout: float | None = None
    ) -> Any:
        """Call ``method`` with parameters by name (a msgpack map)."""
        return await self.session.call(method, params, timeout=timeout)

    async def notify(self, method: str, *params: Any) -> None:
        await self.session.notify(method, params)

    async def aclose(self) -> None:
        await self.session.close()

    async def _answer(self, _session: Session, request: Request) -> Any:
        handler = self.handlers.get(request.method)
        if handler is None:
            raise RpcError(Code.METHOD_NOT_FOUND, f"unknown method {request.method[:100]!r}")
        args: list[Any] = request.params if isinstance(request.params, list) else []
        kwargs: dict[str, Any] = request.params if isinstance(request.params, dict) else {}
        signature, positional = self._signature(request.method, handler)
        if kwargs or positional is None or not positional[0] <= len(args) <= positional[1]:
            try:  # (the usual call, by position within the handler's range, is checked)
                signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise RpcError(Code.INVALID_PARAMS, f"{request.method}: {exc}") from None
        return await handler(*args, **kwargs)

    def _signature(
        self, method: str, handler: RequestCallback
    ) -> tuple[inspect.Signature, tuple[int, int] | None]:
        """The handler's signature, inspected once per handler (not once per request), and
        the range of positional arguments it takes when they are all it takes (None: it
        takes others, and every call is bound to be checked)."""
        cached = self._signatures.get(method)
        if cached is not None and cached[0] is handler:
            return cached[1], cached[2]
        signature = inspect.signature(handler)
        params = signature.parameters.values()
        positional: tuple[int, int] | None = None
        if all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
            required = sum(p.default is p.empty for p in params)
            positional = (required, len(params))
        self._signatures[method] = (handler, signature, positional)
        return signature, positional


@asynccontextmanager
async def connect(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    *,
    name: str,
    role: str = "client",
    handlers: Mapping[str, RequestCallback] | None = None,
    on_notification: NotificationCallback | None = None,
    limits: SessionLimits = DEFAULT_LIMITS,
    version: int = PROTOCOL_VERSION,
    timeout: float = 10.0,
    key: str | None = None,
    quick: Callable[[str], bool] | None = None,
) -> AsyncIterator[Client]:
    """Connect, say ``hello`` (within ``timeout`` seconds) and yield the :class:`Client`;
    ``key``: a registered bot's key (the connection plays under its registered name).
    ``quick(method)``: True for a request of the server's whose handler answers without
    waiting on anything (a bot's plain ``decide``): it is answered on the connection's
    reader itself, with no task (see :class:`~croupier.protocol.transport.session.Session`).

    A refused connection is a one-line :class:`CroupierError`; a refused ``hello`` raises
    the server's :class:`RpcError`. The connection closes when the block ends.
    """
    try:
        with trio.fail_after(timeout):
            stream = await trio.open_tcp_stream(host, port)
    except trio.TooSlowError:
        raise CroupierError(
            f"cannot connect to {host}:{port}: no answer in {timeout:g} s"
        ) from None
    except OSError as exc:
        raise CroupierError(f"cannot connect to {host}:{port}: {_reason(exc)}") from None
    async with connect_stream(
        stream,
        name=name,
        role=role,
        handlers=handlers,
        on_notification=on_notification,
        limits=limits,
        version=version,
        timeout=timeout,
        peer=f"{host}:{port}",
        key=key,
        quick=quick,
    ) as client:
        yield client


@asynccontextmanager
async def connect_stream(
    stream: trio.abc.Stream,
    *,
    name: str,
    role: str = "client",
    handlers: Mapping[str, RequestCallback] | None = None,
    on_notification: NotificationCallback | None = None,
    limits: SessionLimits = DEFAULT_LIMITS,
    version: int = PROTOCOL_VERSION,
    timeout: float = 10.0,
    peer: str = "stream",
    key: str | None = None,
    quick: Callable[[str], bool] | None = None,
) -> AsyncIterator[Client]:
    """:func:`connect` over a stream that is already open (the tests' in-memory ones);
    ``peer`` names the server in the session's log lines."""

    async def notified(_session: Session, notification: Notification) -> None:
        if on_notification is not None:
            result = on_notification(notification.method, notification.params)
            if inspect.isawaitable(result):  # a plain function works as well as a coroutine
                await result

    session = Session(
        stream,
        on_notification=notified,
        limits=limits,
        name=f"server {peer}",
        is_quick=None if quick is None else lambda request: quick(request.method),
    )
    client = Client(session, handlers or {})
    session.on_request = client._answer
    refusal: RpcError | None = None
    async with trio.open_nursery() as nursery:
        nursery.start_soon(session.run)
        try:
            try:
                if key is None:
                    hello = await client.call("hello", version, name, role, timeout=timeout)
                else:  # by name: a server from before keys refuses the parameter by name
                    said = {"version": version, "name": name, "role": role, "key": key}
                    hello = await client.call_named("hello", said, timeout=timeout)
            except RpcError as exc:
                refusal = exc  # raised below as itself, not inside the nursery's group
            else:
                client.server_info = hello
                yield client
        finally:
            await session.close()
    if refusal is not None:
        raise refusal


def _reason(exc: OSError) -> str:
    """Why a connection failed, from trio's group of per-address errors when there is one."""
    causes = getattr(exc.__cause__, "exceptions", ())
    for cause in causes:
        if isinstance(cause, OSError) and cause.errno is not None:
            return os.strerror(cause.errno)
    return exc.strerror or str(exc)
