"""Methods the server offers: names, typed parameters, handlers, grouped into services.

A :class:`Method` declares its parameters (:class:`Param`: a name, the accepted types, an
optional default), so every call is checked before a handler runs: the wrong number of
parameters, an unknown parameter name or a wrong type is an ``invalid-params`` error that
says which parameter and what was expected. Handlers receive the checked values by keyword.

A :class:`Service` is a group of methods plus hooks for connection close and server
shutdown; the server is built from a list of services, so tables and tournaments plug in
later as further groups without touching the rest.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from croupier.protocol.errors import Code, RpcError

if TYPE_CHECKING:
    from croupier.protocol.transport.codec import Request
    from croupier.protocol.transport.server import Connection, RpcServer

REQUIRED: Any = attrs.make_class("Required", {}, repr=False)()
"""The default of a parameter that must be given."""

_TYPE_NAMES: dict[type, str] = {
    int: "integer",
    float: "number",
    str: "string",
    bool: "boolean",
    dict: "map",
    list: "array",
    type(None): "nil",
}

Handler = Callable[..., Awaitable[Any]]


def _matches(value: object, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, kind)


def _type_name(value: object) -> str:
    for kind, name in _TYPE_NAMES.items():
        if _matches(value, kind) and kind is not float:
            return name
    return "number" if isinstance(value, float) else type(value).__name__


@attrs.frozen
class Param:
    """One parameter: its name, the msgpack types it accepts, its default, a line of doc."""

    name: str
    types: tuple[type, ...]
    default: Any = REQUIRED
    doc: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def type_names(self) -> str:
        return " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in self.types)

    def check(self, method: str, value: object) -> Any:
        if any(_matches(value, kind) for kind in self.types):
            return float(value) if self.types == (float,) else value  # type: ignore[arg-type]
        raise RpcError(
            Code.INVALID_PARAMS,
            f"{method}: parameter {self.name!r} must be {self.type_names()}, "
            f"not {_type_name(value)}",
        )


@attrs.frozen
class Method:
    """A named method: ``handler(connection, **params)`` returns plain data or raises."""

    name: str
    params: tuple[Param, ...]
    handler: Handler
    summary: str
    returns: str = ""
    hello_required: bool = True
    quick: bool = False
    """True when the handler never waits on the client or on slow work: the server then
    runs it in the connection's receive loop instead of a task of its own (faster)."""
    watcher: bool = False
    """True when a ``watcher`` connection (every web page's) may call it: it only reads,
    watches or computes for the caller. Anything that creates, starts, stops or sits at a
    table or tournament is not (a watcher calling it gets ``not-allowed``)."""
    durable: bool = False
    """True when the handler changes what the journal keeps (a table, a seat, a token, an
    operator's change): the server answers only once the journal has committed it, so a
    client that got the answer finds it after any crash. Such a method is quick only on a
    server without a journal (the wait for the commit must not hold the receive loop)."""
    cost: float | Callable[[dict[str, Any]], float] = 1.0
    """Tokens a call takes from the caller's request-rate budget (see
    :mod:`~croupier.protocol.budgets`), or a function of its checked parameters (a draw
    costs by its size): work that grows costs more."""

    def bind(self, params: list[Any] | Mapping[str, Any]) -> dict[str, Any]:
        """Check ``params`` (an array, or a map by name) and return them by name."""
        if type(params) is list and len(params) == len(self.params):
            # every parameter by position, the common case: check each, no more to do
            if not params:
                return {}
            return {p.name: p.check(self.name, v) for p, v in zip(self.params, params, strict=True)}
        if isinstance(params, Mapping):
            unknown = sorted(set(params) - {p.name for p in self.params})
            if unknown:
                raise RpcError(
                    Code.INVALID_PARAMS, f"{self.name}: unknown parameter {unknown[0]!r}"
                )
            given = dict(params)
        else:
            required = sum(p.required for p in self.params)
            if not required <= len(params) <= len(self.params):
                expected = (
                    f"{len(self.params)}"
                    if required == len(self.params)
                    else f"{required} to {len(self.params)}"
                )
                raise RpcError(
                    Code.INVALID_PARAMS,
                    f"{self.name} takes {expected} parameters ({self.signature()}), "
                    f"got {len(params)}",
                )
            given = {p.name: v for p, v in zip(self.params, params, strict=False)}
        out: dict[str, Any] = {}
        for param in self.params:
            if param.name in given:
                out[param.name] = param.check(self.name, given[param.name])
            elif param.required:
                raise RpcError(
                    Code.INVALID_PARAMS, f"{self.name}: missing parameter {param.name!r}"
                )
            else:
                out[param.name] = param.default
        return out

    def signature(self) -> str:
        return ", ".join(p.name if p.required else f"{p.name}?" for p in self.params)

    def describe(self) -> dict[str, Any]:
        """Plain data for the ``methods`` discovery call and the docs."""
        return {
            "name": self.name,
            "summary": self.summary,
            "params": [
                {
                    "name": p.name,
                    "type": p.type_names(),
                    "required": p.required,
                    **({} if p.required else {"default": p.default}),
                    "doc": p.doc,
                }
                for p in self.params
            ],
            "returns": self.returns,
            "watcher": self.watcher,
        }


class Service:
    """A group of methods. Subclasses return them from :meth:`methods`; hooks are optional."""

    def methods(self) -> Iterable[Method]:
        return ()

    async def connection_closed(self, connection: Connection) -> None:
        """Called once for every connection that ends (release what it held)."""

    async def shutdown(self) -> None:
        """Called once when the server stops, before connections close (finish hands)."""

    async def prepare_recovery(self, server: RpcServer) -> None:
        """Called once when a server with a journal starts, before it accepts anyone: note
        what :meth:`recover` will rebuild, so that requests for it are answered
        ``recovering`` meanwhile (quick: a read of the journal, no replay)."""

    async def recover(self, server: RpcServer) -> dict[str, int]:
        """Called once after :meth:`prepare_recovery`, while the server already serves: carry
        on what the journal holds unfinished; how many of what were recovered (for the
        server's log line)."""
        return {}


class MethodTable:
    """Every method of every service, by name; a name offered twice is an error."""

    def __init__(self, services: Iterable[Service]) -> None:
        self._methods: dict[str, Method] = {}
        for service in services:
            for method in service.methods():
                if method.name in self._methods:
                    raise ValueError(f"two services offer the method {method.name!r}")
                self._methods[method.name] = method

    def is_quick(self, name: str, journal: bool = False) -> bool:
        """Whether ``name`` is answered in the receive loop (``journal``: the server keeps
        one, so its :attr:`Method.durable` methods wait for commits and are not)."""
        method = self._methods.get(name)
        if method is None:
            return True  # an unknown method is a quick error
        return method.quick and not (journal and method.durable)

    def cost(self, request: Request) -> float:
        """What ``request`` takes from its caller's budget (1 if it names no method or its
        parameters are wrong: it is refused for that, cheaply)."""
        method = self._methods.get(request.method)
        if method is None:
            return 1.0
        cost = method.cost
        if not callable(cost):
            return cost
        try:
            return cost(method.bind(request.params))
        except RpcError:
            return 1.0

    def get(self, name: str) -> Method:
        try:
            return self._methods[name]
        except KeyError:
            raise RpcError(Code.METHOD_NOT_FOUND, f"unknown method {name[:100]!r}") from None

    def __iter__(self) -> Any:
        return iter(self._methods.values())

    def __len__(self) -> int:
        return len(self._methods)
