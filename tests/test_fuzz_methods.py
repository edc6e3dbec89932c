"""Every method the server declares, called with fuzzed parameters, never answers
``internal-error`` and never takes the server down (issue 34, item 12).

Parameters are drawn from each method's declared types (``protocol/transport/methods.py``):
values of the right type, names the server knows (games, strategies, randomizers) so that calls get
past the first check, and wrong types, odd Unicode (bidi controls, emoji, NUL), huge
integers, NaN and infinities, nested arrays and maps, bytes; by position, by name, too few
or too many, or not an array at all. Each example is a fresh server on the memory net, on
virtual time, with another client's table (a bot seated: a token to compare) and
tournament (a join key) on it, and two raw msgpack connections (a client and a bot) that
make the calls;
every answer must be a result or an error other than ``internal-error``, nothing may be
logged as an error, and the server must answer ``ping`` afterwards. The default run takes a
few seconds (it found the non-ASCII key's TypeError before the fix); ``-m slow`` runs a
longer one. The examples are derandomized: the same on every run.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgpack
import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.engine import PluginManager
from croupier.protocol import Code, Server
from croupier.protocol.transport.methods import Method
from tests import memnet

MANAGER = PluginManager(autoload=False)
"""One for every example (making one takes a third of a second); nothing registers in it."""
METHODS: list[Method] = list(Server(MANAGER, seed=0, default_game="blackjack").methods)
GAMES = sorted(MANAGER.games.names())
"""Every installed game, found as the server finds them (a new built-in game is fuzzed too)."""
NAMES = [
    *GAMES,
    "lim17",
    "never-bust",
    "banker",
    "player",
    "tcp",
    "7-bag",
    "tgm3",
    "vegas-s17",
    "koth",
    "classic",
    "punto-banco",
    "bet",
    "stand",
    "pass",
    "",
]
"""Text the server knows, so that fuzzed calls get past the first look-up. Not the strategies
that solve a chart first (``basic``, ``hilo``) nor the solvers' names (a real solve takes
seconds: the fuzz is after bad input, not work)."""
KEYS = [
    "game",
    "rules",
    "options",
    "seats",
    "fill",
    "rounds",
    "seed",
    "decision_time",
    "autostart",
    "bots",
    "tourneys",
    "hands",
    "open",
    "join_time",
    "min_bet",
    "max_bet",
    "starting_chips",
    "decks",
    "penetration",
    "commission",
    "shoe",
    "dealer",
    "kind",
    "amount",
]

ODD_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)  # UTF-8 only
TEXT = st.one_of(
    st.sampled_from(NAMES),
    ODD_TEXT,
    st.sampled_from(["\u202e", "é", "😀...", "\x00", "a" * 300, "-1", "1e9", "NaN"]),
)
INT = st.one_of(
    st.sampled_from([1, 2, 3]),  # the table, the tournament (and the next id) of setup()
    st.integers(-2, 12),
    st.sampled_from([2**31, 2**53 + 1, 2**63 - 1, -(2**63), 2**64 - 1, 10**6, 10**9]),
)
FLOAT = st.one_of(
    st.floats(-10, 100), st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0, 5e-324])
)
SCALAR = st.one_of(st.none(), st.booleans(), INT, FLOAT, TEXT, st.binary(max_size=8))
ANY = st.recursive(
    SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), ODD_TEXT), inner, max_size=4),
    ),
    max_leaves=12,
)
MAP = st.dictionaries(st.one_of(st.sampled_from(KEYS), ODD_TEXT), ANY, max_size=6)
LIST = st.lists(st.one_of(TEXT, TEXT, ANY), max_size=6)
OF_TYPE: dict[type, st.SearchStrategy[Any]] = {
    int: INT,
    float: FLOAT,
    str: TEXT,
    bool: st.booleans(),
    dict: MAP,
    list: LIST,
    type(None): st.none(),
}


OPTION = st.one_of(INT, FLOAT, TEXT, st.booleans())
LIKELY: dict[str, st.SearchStrategy[Any]] = {
    "game": st.sampled_from([*GAMES, None]),
    "rules": st.sampled_from(["vegas-s17", "koth", "classic", "punto-banco", "no-commission"]),
    "options": st.dictionaries(st.sampled_from(KEYS[14:]), OPTION, max_size=3),
    "fill": st.lists(
        st.sampled_from(["lim17", "never-bust", "banker", "player", None]), max_size=3
    ),
    "bots": st.lists(st.sampled_from(["tcp", "lim17", "never-bust", "banker"]), max_size=4),
    "seats": st.integers(0, 8),
    "rounds": st.one_of(st.integers(0, 5), st.just(10**6)),
    "auto": st.lists(st.sampled_from(["bet", "insurance", "surrender", "x"]), max_size=3),
}
"""Values that get past the first checks of the methods that create and sit (keyed by
parameter name), drawn half the time for such a parameter."""


@st.composite
def a_call(draw: st.DrawFn) -> tuple[str, Any]:
    """A method and its parameters: mostly well-typed, often not."""
    if draw(st.integers(0, 40)) == 0:
        return draw(ODD_TEXT), draw(st.lists(ANY, max_size=3))  # no such method
    method = draw(st.sampled_from(METHODS))
    values: dict[str, Any] = {}
    for param in method.params:
        if not param.required and draw(st.integers(0, 2)) == 0:
            continue  # left out: its default
        wrong = draw(st.integers(0, 9)) == 0
        kinds = [OF_TYPE[t] for t in param.types if t in OF_TYPE]
        if param.name in LIKELY and draw(st.booleans()):
            values[param.name] = draw(LIKELY[param.name])
        else:
            values[param.name] = draw(ANY if wrong or not kinds else st.one_of(*kinds))
    shape = draw(st.integers(0, 12))
    if shape == 0:
        return method.name, draw(ANY)  # not an array or a map at all
    if shape == 1:
        return method.name, [*values.values(), *draw(st.lists(ANY, min_size=1, max_size=2))]
    if shape <= 4:
        return method.name, values  # by name
    # by position: up to the last one given, a left-out one in between as its default
    last = max((i for i, p in enumerate(method.params) if p.name in values), default=-1)
    return method.name, [values.get(p.name, p.default) for p in method.params[: last + 1]]


class Errors(logging.Handler):
    """Every record of level ERROR or worse that croupier logs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def logged_errors() -> Iterator[Errors]:
    handler, logger = Errors(), logging.getLogger("croupier")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


async def answer(raw: Any, msgid: int) -> Any:
    """The response to ``msgid`` (the server's notifications and calls are passed over)."""
    while True:
        for message in raw.unpacker:
            if message[0] == 1 and message[1] == msgid:
                return message
        data = await raw.stream.receive_some(65536)
        assert data, "the server closed the connection"
        raw.unpacker.feed(data)


async def fuzz(calls: list[tuple[str, Any]]) -> list[tuple[str, Any, Any]]:
    """Make ``calls`` on a new server; the ones answered ``internal-error``."""
    server = Server(MANAGER, seed=5, default_game="blackjack")
    failed: list[tuple[str, Any, Any]] = []
    with trio.fail_after(3600):  # virtual time: only a hang gets there
        async with trio.open_nursery() as nursery:
            net = await memnet.serve(nursery, server)
            async with net.connect(name="owner", role="bot", handlers={"decide": stand}) as owner:
                await setup(owner)
                client, bot = net.raw(), net.raw()
                await client.call(0, "hello", 1, "fuzz", "client")
                await bot.call(0, "hello", 1, "fuzz-bot", "bot")
                for msgid, (method, params) in enumerate(calls, start=1):
                    raw = bot if msgid % 3 == 0 else client
                    await raw.send_bytes(msgpack.packb([0, msgid, method, params]))
                    error = (await answer(raw, msgid))[2]
                    if isinstance(error, dict) and error.get("code") == Code.INTERNAL_ERROR:
                        failed.append((method, params, error))
                await client.send([0, 10**6, "ping", []])
                assert (await answer(client, 10**6))[3] == "pong"  # the server lives on
            server.stop()
    return failed


async def stand(table: int, observation: Any) -> str:
    return "stand"


async def setup(owner: Any) -> None:
    """What the fuzzed calls find on the server: table 1, another client's, with a bot in
    one of its seats (a token to compare), and tournament 2 with a join key, waiting."""
    table = await owner.call_named("table.create", {"seats": 2, "autostart": False})
    await owner.call("table.join", table["table"], 1)
    await owner.call_named("tournament.start", {"bots": ["tcp", "tcp"], "join_time": 600.0})


def check(calls: list[tuple[str, Any]]) -> None:
    with logged_errors() as errors:
        failed = trio.run(fuzz, calls, clock=_clock())
    assert not failed, failed
    assert not errors.records, [r.getMessage() for r in errors.records]


def _clock() -> Any:
    from trio.testing import MockClock

    return MockClock(autojump_threshold=0)


CALLS = st.lists(a_call(), min_size=8, max_size=30)
FUZZ = settings(
    deadline=None,
    derandomize=True,  # the same examples on every run: a failure is found again
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@settings(FUZZ, max_examples=40)
@given(calls=CALLS)
def test_no_method_answers_internal_error(calls: list[tuple[str, Any]]) -> None:
    check(calls)


@pytest.mark.slow
@settings(FUZZ, max_examples=600)
@given(calls=CALLS)
def test_no_method_answers_internal_error_at_length(calls: list[tuple[str, Any]]) -> None:
    check(calls)


def test_the_fuzz_covers_every_method() -> None:
    names = {m.name for m in METHODS}
    assert {"table.start", "table.rejoin", "tournament.stop", "solve", "hello"} <= names
    assert all(t in OF_TYPE for m in METHODS for p in m.params for t in p.types)
