"""Connection slots: the descriptor-derived cap, the per-peer cap, shedding idle connections
at the cap, polite refusals, and an accept loop that survives running out of descriptors.
On the memory net (its connections come from 127.0.0.1) and virtual time."""

from __future__ import annotations

import errno
import logging

import trio

from croupier.protocol import Code, ServerLimits
from croupier.protocol.transport import server as server_module
from croupier.protocol.transport.admission import Handlers, accept_forever, connection_cap
from tests import memnet
from tests.protocol_helpers import make_server


async def start(nursery, **limits):
    server, _ = make_server(**limits)
    await memnet.serve(nursery, server)
    return server


def test_the_cap_leaves_descriptors_for_everything_else():
    limits = ServerLimits()
    cap = connection_cap(limits, listeners=2, nofile=1024)
    reserved = 1024 - cap
    # listeners, workers' pipes, refusals lingering and a reserve for files all fit
    assert reserved >= 2 + limits.max_refusing + 64
    assert connection_cap(limits, listeners=1, nofile=1 << 20) == limits.max_connections
    assert connection_cap(limits, listeners=1, nofile=10) == 1


async def test_the_server_caps_connections_by_ulimit(nursery, virtual_clock, monkeypatch):
    monkeypatch.setattr(server_module, "descriptor_limit", lambda: 1024)
    server = await start(nursery)
    assert server.admission.cap == connection_cap(server.limits, 1, 1024) < 1024


async def test_one_peer_holds_at_most_its_share(nursery, virtual_clock):
    server = await start(nursery, max_connections_per_peer=2)
    held = [server.net.raw() for _ in range(2)]
    for msgid, raw in enumerate(held, 1):
        await raw.hello()
        await raw.send([0, msgid, "test.sleep", [1.0]])  # busy: cannot be shed
    extra = server.net.raw()
    notice = await extra.receive()
    assert notice[2][0]["code"] == Code.LIMIT_EXCEEDED
    assert "too many connections from 127.0.0.1 (at most 2)" in notice[2][0]["message"]
    assert await extra.receive() is None
    elsewhere = server.net.raw("192.0.2.7")  # another peer has its own share
    assert (await elsewhere.hello())[2] is None
    assert await held[0].receive() == [1, 1, None, "slept"]
    await held[0].aclose()
    with trio.fail_after(2):
        while len(server.connections) > 2:
            await trio.sleep(0.01)
    again = server.net.raw()
    assert (await again.hello())[2] is None


async def test_silent_connections_of_a_peer_cannot_lock_it_out(nursery, virtual_clock):
    server = await start(nursery, max_connections_per_peer=3, hello_timeout=60)
    polite = server.net.raw()
    await polite.hello()
    silent = [server.net.raw() for _ in range(2)]
    with trio.fail_after(2):
        while len(server.connections) < 3:
            await trio.sleep(0.01)
    newcomers = []
    for _ in range(2):  # each takes the slot of a silent one, not the polite one's
        newcomer = server.net.raw()
        assert (await newcomer.hello())[2] is None
        newcomers.append(newcomer)
    for raw in silent:
        notice = await raw.receive()
        assert notice[2][0]["code"] == Code.LIMIT_EXCEEDED
        assert "too many connections from 127.0.0.1" in notice[2][0]["message"]
    with trio.fail_after(3):  # the shed ones drain for up to a second
        while len(server.connections) > 3:
            await trio.sleep(0.05)
    assert await polite.call(1, "ping") == [1, 1, None, "pong"]
    assert await newcomers[-1].call(1, "ping") == [1, 1, None, "pong"]


async def test_at_the_cap_the_longest_idle_connection_makes_room(nursery, virtual_clock):
    server = await start(nursery, max_connections=2, idle_timeout=300)
    parked = server.net.raw()
    await parked.hello()
    await trio.sleep(0.05)
    active = server.net.raw()
    await active.hello()
    newcomer = server.net.raw()
    assert (await newcomer.hello())[2] is None
    notice = await parked.receive()
    assert notice[2][0]["code"] == Code.LIMIT_EXCEEDED and "full" in notice[2][0]["message"]
    assert await parked.receive() is None
    assert await active.call(1, "ping") == [1, 1, None, "pong"]


class FlakyListener(trio.abc.Listener[object]):
    """Out of descriptors for ``failures`` accepts, then one connection, then nothing."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    async def accept(self) -> object:
        self.calls += 1
        await trio.sleep(0)
        if self.calls <= self.failures:
            raise OSError(errno.EMFILE, "Too many open files")
        if self.calls == self.failures + 1:
            return "stream"
        await trio.sleep_forever()
        raise AssertionError

    async def aclose(self) -> None:
        pass


async def test_running_out_of_descriptors_is_logged_once_and_survived(autojump_clock, caplog):
    caplog.set_level(logging.INFO, "croupier.server")
    listener = FlakyListener(failures=40)
    handled = []

    async def handler(stream):
        handled.append(stream)

    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(accept_forever, listener, Handlers(handler, nursery))
        while not handled:
            await trio.sleep(0.5)
        nursery.cancel_scope.cancel()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "EMFILE" in errors[0].getMessage()
    assert errors[0].exc_info is None
    assert any("again after 40" in r.getMessage() for r in caplog.records)
    # backed off: 40 failures took tens of seconds, not 40 tight spins
    assert trio.current_time() - start > 20
    assert handled == ["stream"]


class EndlessListener(trio.abc.Listener[object]):
    """Accepts a connection every millisecond, forever."""

    def __init__(self) -> None:
        self.accepted = 0

    async def accept(self) -> object:
        await trio.sleep(0.001)
        self.accepted += 1
        return self.accepted

    async def aclose(self) -> None:
        pass


async def test_accepting_waits_while_the_handlers_are_full(autojump_clock):
    listener = EndlessListener()
    release = trio.Event()
    seen = []

    async def handler(stream):
        seen.append(stream)
        await release.wait()

    async with trio.open_nursery() as nursery:
        handlers = Handlers(handler, nursery, max_open=lambda: 5)
        nursery.start_soon(accept_forever, listener, handlers)
        await trio.sleep(1)
        assert listener.accepted == 5 and handlers.open == 5  # no more sockets taken
        release.set()
        await trio.sleep(0.1)
        assert listener.accepted > 5
        nursery.cancel_scope.cancel()
