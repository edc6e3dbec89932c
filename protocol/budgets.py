"""Request-rate budgets: a token bucket per connection and one per peer address.

Every request costs tokens before it is handled: 1 for most methods, more for those whose
work grows (:attr:`~croupier.protocol.transport.methods.Method.cost`: a draw by its size, history
pages, solves). A request is paid from its connection's bucket and from its address's
(an IPv4 address, or an IPv6 /64, what one client usually holds), so neither one
connection nor many connections of one client can take the server from everyone else.

A request the budget cannot pay is not refused: the connection's reads stop until its
buckets have refilled (it goes into debt and waits the debt off). Answering
``too-many-requests`` instead would cost the server about as much as answering the request
itself (a ping costs no more to answer than its refusal), so a client that pipelines
requests without reading the errors would still take the event loop; waiting costs the
server nothing, and the kernel's flow control makes the client wait in turn. A client
within its budget never notices.
"""

from __future__ import annotations

import ipaddress

import attrs
import trio


def address_key(host: str) -> str:
    """The budget an address pays from: itself for IPv4 (IPv4-mapped IPv6 included), its
    /64 for IPv6 (one host usually holds a whole /64), the text as given otherwise."""
    try:
        address = ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


@attrs.define
class TokenBucket:
    """``rate`` tokens a second up to ``burst``; taking more than it holds runs a debt."""

    rate: float
    burst: float
    level: float = attrs.field(default=attrs.Factory(lambda self: self.burst, takes_self=True))
    stamp: float = 0.0

    def refill(self, now: float) -> None:
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, cost: float, now: float) -> float:
        """Take ``cost`` tokens (at most a full bucket's worth, so any request can be paid);
        the seconds until the bucket is out of debt again (0: it never went into debt)."""
        self.refill(now)
        self.level -= min(cost, self.burst)
        return 0.0 if self.level >= 0 else -self.level / self.rate

    def full(self, now: float) -> bool:
        self.refill(now)
        return self.level >= self.burst


class ConnectionBudget:
    """What one connection's requests are paid from: its own bucket and its address's."""

    def __init__(self, own: TokenBucket | None, address: TokenBucket | None) -> None:
        self.own = own
        self.address = address

    @property
    def limited(self) -> bool:
        return self.own is not None or self.address is not None

    def charge(self, cost: float) -> float:
        """Pay ``cost``; the seconds the connection must wait before reading on."""
        now = trio.current_time()
        wait = 0.0
        for bucket in (self.own, self.address):
            if bucket is not None:
                wait = max(wait, bucket.take(cost, now))
        return wait


class RequestBudgets:
    """The server's budgets: a bucket per connection (``rate``/``burst``) and a bucket per
    address shared by its connections (``address_rate``/``address_burst``); a rate of None
    is no limit. An address's bucket outlives its connections until it has refilled, so
    reconnecting does not refill it."""

    def __init__(
        self,
        rate: float | None,
        burst: float,
        address_rate: float | None,
        address_burst: float,
    ) -> None:
        self.rate, self.burst = rate, burst
        self.address_rate, self.address_burst = address_rate, address_burst
        self._addresses: dict[str, TokenBucket] = {}
        self._users: dict[str, int] = {}

    def open(self, host: str) -> ConnectionBudget:
        """The budget of a new connection from ``host``; :meth:`close` it when it ends."""
        now = trio.current_time()
        own = None if self.rate is None else TokenBucket(self.rate, self.burst, stamp=now)
        shared = None
        if self.address_rate is not None:
            key = address_key(host)
            self._forget_refilled(now)
            shared = self._addresses.get(key)
            if shared is None:
                shared = TokenBucket(self.address_rate, self.address_burst, stamp=now)
                self._addresses[key] = shared
            self._users[key] = self._users.get(key, 0) + 1
        return ConnectionBudget(own, shared)

    def close(self, host: str) -> None:
        if self.address_rate is None:
            return
        key = address_key(host)
        self._users[key] -= 1
        if not self._users[key]:
            del self._users[key]

    def _forget_refilled(self, now: float) -> None:
        """Drop the buckets of addresses with no connection that have refilled (nothing to
        remember about them)."""
        gone = [k for k, b in self._addresses.items() if k not in self._users and b.full(now)]
        for key in gone:
            del self._addresses[key]

    @property
    def addresses(self) -> int:
        """Address buckets held (the open addresses' and those still refilling)."""
        return len(self._addresses)
