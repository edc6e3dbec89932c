"""A remote seat's answers at one table, recorded compactly and played back.

A tournament table's cards follow from its seed and its strategies answer the same
observation the same way, so the table replays exactly once the answers of its ``tcp``
seats are known. :class:`AnswerRecorder` wraps a seat's player and notes each outcome as
the table got it; :func:`pack` keeps a table's outcomes as a few bytes of msgpack (the
journal's ``tournament_tables.answers``, deflated where that is shorter: a bet's map
repeats); :class:`ReplayPlayer` and :class:`ReplayClock`
give a table the same outcomes again, so it emits the same events, refusals and defaults
included.

An outcome is, in msgpack:

- an integer ``i``: the answer ``{"kind": legal[i]}`` (nearly every answer: one byte);
- a map: any other answer map, as it came (a bet with its amount);
- ``["a", value]``: an answer that is no map (the table refused it);
- ``["x", text]``: the player raised (``text`` as the table said it), ``["v", text]``: the
  seat was empty (:class:`~croupier.engine.errors.PlayerAbsent`), ``["t"]``: no answer in
  time (the table's default after ``decision_time``).
"""

from __future__ import annotations

import zlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import msgpack
import trio

from croupier.engine import CroupierError
from croupier.engine.decisions import DecisionClock
from croupier.engine.errors import PlayerAbsent, player_failure
from croupier.engine.games import Plain

Outcome = Any
"""One decision's outcome as :func:`pack` keeps it (see the module's text)."""


def encode(answer: object, observation: Plain) -> Outcome:
    """A bot's answer as an outcome: the index of its kind among the legal ones when it is
    just ``{"kind": k}``."""
    if type(answer) is dict:
        if len(answer) == 1 and "kind" in answer:
            legal = observation.get("legal") or []
            kind = answer["kind"]
            if isinstance(kind, str) and kind in legal:
                return legal.index(kind)
        return answer
    return ["a", answer]


def failure(exc: BaseException) -> Outcome:
    """A player's exception as an outcome (what the table says of it)."""
    if isinstance(exc, PlayerAbsent):
        return ["v", str(exc)]
    return ["x", player_failure(exc)]


TIMEOUT: Outcome = ["t"]


class AnswerRecorder:
    """Wraps a remote seat's player (``decide`` and ``decide_at_once``, as a
    :class:`~croupier.protocol.slots.SlotPlayer` has them) and appends each outcome to
    ``outcomes`` as the table gets it. A ``decide`` cancelled is a timeout: the table cancels
    it only when its time is up (a table stopped otherwise is not recorded at all)."""

    def __init__(self, inner: Any, outcomes: list[Outcome]) -> None:
        self.inner = inner
        self.outcomes = outcomes

    def decide_at_once(self, observation: Plain) -> Plain | None:
        try:
            answer: Plain | None = self.inner.decide_at_once(observation)
        except Exception as exc:
            self.outcomes.append(failure(exc))
            raise
        if answer is not None:
            self.outcomes.append(encode(answer, observation))
        return answer

    async def decide(self, observation: Plain) -> Plain:
        try:
            answer: Plain = await self.inner.decide(observation)
        except trio.Cancelled:
            self.outcomes.append(TIMEOUT)
            raise
        except Exception as exc:
            self.outcomes.append(failure(exc))
            raise
        self.outcomes.append(encode(answer, observation))
        return answer


DEFLATED = b"\xc1"
"""The first byte of deflated outcomes (0xC1 starts no msgpack: it is never used)."""
MAX_UNPACKED = 1 << 26
"""The most bytes a table's outcomes inflate to (far beyond any table's)."""


def pack(seats: Mapping[int, list[Outcome]]) -> bytes:
    """A table's outcomes, by seat (1, 2, ...), as msgpack: ``{seat: [outcome, ...]}``,
    deflated (raw, after :data:`DEFLATED`) when that is shorter."""
    raw = bytes(msgpack.packb({int(s): list(o) for s, o in sorted(seats.items())}))
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = DEFLATED + squeeze.compress(raw) + squeeze.flush()
    return deflated if len(deflated) < len(raw) else raw


def unpack(data: bytes) -> dict[int, list[Outcome]]:
    """:func:`pack`'s bytes back; :class:`CroupierError` for bytes it did not write."""
    try:
        if data[:1] == DEFLATED:
            inflate = zlib.decompressobj(-15)
            data = inflate.decompress(data[1:], MAX_UNPACKED)
            if inflate.unconsumed_tail or not inflate.eof:
                raise ValueError("not whole deflated data")
        found = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (ValueError, TypeError, zlib.error, msgpack.ExtraData) as exc:
        raise CroupierError(f"the recorded answers cannot be read ({exc})") from None
    if not isinstance(found, dict) or not all(
        isinstance(s, int) and isinstance(o, list) for s, o in found.items()
    ):
        raise CroupierError("the recorded answers cannot be read (not a map of seats)")
    return found


class Mismatch(CroupierError):
    """The recorded answers do not fit the table being replayed."""


class _TimedOut:
    """What a :class:`ReplayPlayer` answers for a recorded timeout (:class:`ReplayClock`
    turns it into the table's timeout)."""


_TIMED_OUT = _TimedOut()


class ReplayPlayer:
    """A remote seat played back from its outcomes, in order; it keeps the observations it
    was shown (those its bot was sent)."""

    def __init__(self, seat: int, outcomes: list[Outcome]) -> None:
        self.seat = seat
        self.outcomes = list(outcomes)
        self.used = 0
        self.observations: list[Plain] = []

    async def decide(self, observation: Plain) -> Any:
        if self.used >= len(self.outcomes):
            raise Mismatch(f"seat {self.seat} decides more often than it was recorded to")
        outcome = self.outcomes[self.used]
        self.used += 1
        self.observations.append(observation)
        if isinstance(outcome, int) and not isinstance(outcome, bool):
            legal = observation.get("legal") or []
            if not 0 <= outcome < len(legal):
                raise Mismatch(f"seat {self.seat}'s recorded answer {outcome} is not legal here")
            return {"kind": legal[outcome]}
        if isinstance(outcome, dict):
            return outcome
        if isinstance(outcome, list) and outcome:
            code, *rest = outcome
            if code == "a" and len(rest) == 1:
                return rest[0]
            if code == "x" and len(rest) == 1:
                raise CroupierError(str(rest[0]))
            if code == "v" and len(rest) == 1:
                raise PlayerAbsent(str(rest[0]))
            if code == "t" and not rest:
                return _TIMED_OUT
        raise Mismatch(f"seat {self.seat} has a recorded outcome this croupier cannot read")

    def finished(self) -> None:
        """Every recorded outcome was played back (else :class:`Mismatch`)."""
        if self.used != len(self.outcomes):
            raise Mismatch(
                f"seat {self.seat} was recorded {len(self.outcomes)} times, asked {self.used}"
            )


class ReplayClock(DecisionClock):
    """A table's clock for a replay: every answer at once, and a recorded timeout as the
    timeout the table had then (``decision_time``'s)."""

    async def answer(self, call: Callable[[], Awaitable[object]]) -> tuple[str, object]:
        try:
            answer = await call()
        except Mismatch:
            raise
        except Exception as exc:  # as the table's clock: a broken player never stops it
            return "error", exc
        if answer is _TIMED_OUT:
            return "timeout", f"timeout after {self.decision_time:g}s"
        return "answer", answer
