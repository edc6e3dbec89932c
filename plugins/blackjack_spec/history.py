"""The ``list with N history [M rolls]`` randomizer: a Markov chain on its history, its
roll sequences counted exactly (:func:`roll_weights`) rather than rolled
(:mod:`.randomizers` says what it draws)."""

from __future__ import annotations

from collections.abc import Sequence

from croupier.engine import COMPILED_FROM, Indices, Stream, UniformDraws, run_loop, symbols_of
from croupier.plugins.blackjack_spec.lists import unique
from croupier.plugins.blackjack_spec.loops import deal_history

CACHE_LIMIT = 4_000_000
"""Roughly how many slots a history randomizer may cache before it forgets its states."""

StateInfo = tuple[frozenset[int], tuple[int, ...], int, int, int]


def roll_weights(size: int, blocked: int, rolls: int) -> tuple[int, int]:
    """Out of ``size**rolls`` equally likely roll sequences, how many deal one given entry.

    Returns ``(free, fallback)``: the count for an entry outside the history (dealt on the
    first roll that misses the history) and for an entry in it (every roll hit the history
    and this entry was the last roll). ``(size - blocked) * free + blocked * fallback`` is
    ``size**rolls``.
    """
    # free = sum(blocked**k * size**(rolls - 1 - k) for k < rolls), summed in closed form
    if blocked == size:
        free = rolls * size ** (rolls - 1)
    else:
        free = (size**rolls - blocked**rolls) // (size - blocked)
    fallback = blocked ** (rolls - 1) if blocked else 0
    return free, fallback


class HistoryRandomizer:
    """``list with N history [M rolls] [starting list]``: a Markov chain on its history.

    The history holds entry *indices* (repeated symbols are separate entries, as the
    language says); a symbol in ``starting`` or ``first`` stands for its first entry, and a
    ``first`` symbol not in the list enters the history as an entry that blocks nothing.

    With ``M`` rolls, the ``len**M`` equally likely roll sequences of a history state are
    laid out as: ``free`` outcomes for each entry outside the history (ascending), then
    ``fallback`` outcomes for each entry in it (ascending), see :func:`roll_weights`. One
    uniform ``u`` below ``len**M`` picks the entry, in time proportional to the history,
    not the list. ``u`` falls in the second part exactly when every roll would have hit the
    history; :attr:`roll_failures` counts those deals.
    """

    def __init__(
        self,
        stream: Stream,
        entries: Sequence[str],
        history: int,
        rolls: int | None,
        starting: Sequence[str] | None = None,
    ) -> None:
        self.entries = tuple(entries)
        self.symbols = unique(self.entries)
        self.history = history
        self.rolls = rolls
        self.roll_failures = 0
        self._stream = stream
        size = len(self.entries)
        self._index: dict[str, int] = {}
        for position, symbol in enumerate(self.entries):  # first position of each symbol
            self._index.setdefault(symbol, position)
        start = tuple(self._index[s] for s in starting) if starting else ()
        # per state id: the state, its known successors, and (blocked set, sorted, free,
        # fallback, successful outcomes) shared by every state blocking the same entries
        self._ids: dict[tuple[int, ...], int] = {}
        self._states: list[tuple[int, ...]] = []
        self._next: list[dict[int, int]] = []
        self._info: list[StateInfo] = []
        self._by_blocked: dict[frozenset[int], StateInfo] = {}
        self._cached = 0
        self._weights: dict[int, tuple[int, int]] = {}
        self._state = self._intern(start)
        self.total = size**rolls if rolls is not None else size
        self._draws = UniformDraws(stream, self.total) if self.total <= UniformDraws.MAX_N else None

    # -- states ----------------------------------------------------------------------------
    def _intern(self, state: tuple[int, ...]) -> int:
        sid = self._ids.get(state)
        if sid is not None:
            return sid
        sid = len(self._states)
        self._ids[state] = sid
        self._states.append(state)
        self._next.append({})
        blocked = frozenset(e for e in state if e >= 0)
        info = self._by_blocked.get(blocked)
        if info is None:
            info = self._by_blocked[blocked] = self._state_info(blocked)
        self._info.append(info)
        self._cached += 16 + 2 * len(state)
        return sid

    def _state_info(self, blocked: frozenset[int]) -> StateInfo:
        size, b = len(self.entries), len(blocked)
        if self.rolls is None:
            return blocked, tuple(sorted(blocked)), 1, 0, size - b
        weights = self._weights.get(b)
        if weights is None:
            weights = self._weights[b] = roll_weights(size, b, self.rolls)
        free, fallback = weights
        return blocked, tuple(sorted(blocked)), free, fallback, free * (size - b)

    def _reset(self) -> None:
        """Forget every cached state (pure functions of the history) to bound memory."""
        self._ids.clear()
        self._states.clear()
        self._next.clear()
        self._info.clear()
        self._by_blocked.clear()
        self._cached = 0

    def _advance(self, sid: int, entry: int) -> int:
        nxt = self._next[sid].get(entry)
        if nxt is None:
            state = self._states[sid] + (entry,)
            state = state[-self.history :] if self.history else ()
            if self._cached > CACHE_LIMIT:
                self._reset()
                return self._intern(state)
            nxt = self._next[sid][entry] = self._intern(state)
        return nxt

    def weights(self, state: tuple[int, ...]) -> list[int]:
        """Exact counts, per entry, of the next deal from history ``state`` (for tests)."""
        blocked, _, free, fallback, _ = self._state_info(frozenset(e for e in state if e >= 0))
        return [fallback if e in blocked else free for e in range(len(self.entries))]

    # -- dealing ---------------------------------------------------------------------------
    def deal(self, n: int) -> list[str]:
        if n >= COMPILED_FROM and self._draws is not None:
            return symbols_of(self.entries, self._deal_compiled(n))
        out = self._deal_rolls(n) if self.rolls is not None else self._deal_reject(n)
        return list(map(self.entries.__getitem__, out))

    def _deal_compiled(self, n: int) -> Indices:
        """``n`` entries by :func:`.loops.deal_history`, compiled: the same draws read the
        same way as :meth:`_deal_rolls` and :meth:`_deal_reject`, without the state cache."""
        assert self._draws is not None
        size, cap = len(self.entries), self.history
        state = self._states[self._state]
        history = [*state, *[0] * (cap - len(state))]
        length = [len(state)]
        if self.rolls is None:
            free = fallback = [0] * (size + 1)
            per_piece = 2.0  # skipped draws: about 2 draws a piece for 7 entries, 4 history
        else:
            weights = [roll_weights(size, b, self.rolls) for b in range(size + 1)]
            free, fallback = [w[0] for w in weights], [w[1] for w in weights]
            per_piece = 1.0
        out, fails = run_loop(
            deal_history,
            self._draws,
            n,
            per_piece,
            history,
            length,
            [0] * size,
            free,
            fallback,
            self.rolls or 0,
        )
        self.roll_failures += fails
        self._state = self._intern(tuple(history[: length[0]]))
        return out

    def _uniforms(self, n: int) -> list[int]:
        if self._draws is not None:
            return self._draws.take(n)
        return [self._stream.randbelow(self.total) for _ in range(n)]

    def _deal_rolls(self, n: int) -> list[int]:
        infos, nexts, advance = self._info, self._next, self._advance
        sid = self._state
        fails = 0
        out: list[int] = []
        append = out.append
        for u in self._uniforms(n):
            _, ordered, free, fallback, ok = infos[sid]
            if u < ok:  # the k-th entry outside the history
                e = u // free
                for x in ordered:
                    if x > e:
                        break
                    e += 1
            else:  # every roll hit the history: the k-th entry in it
                fails += 1
                e = ordered[(u - ok) // fallback]
            append(e)
            nxt = nexts[sid].get(e)
            sid = advance(sid, e) if nxt is None else nxt
        self._state = sid
        self.roll_failures += fails
        return out

    def _deal_reject(self, n: int) -> list[int]:
        assert self._draws is not None
        draw = self._draws.next
        infos, nexts, advance = self._info, self._next, self._advance
        sid = self._state
        out: list[int] = []
        append = out.append
        for _ in range(n):
            blocked = infos[sid][0]
            e = draw()
            while e in blocked:
                e = draw()
            append(e)
            nxt = nexts[sid].get(e)
            sid = advance(sid, e) if nxt is None else nxt
        self._state = sid
        return out

    def observe_first(self, symbol: str) -> None:
        """The first piece came from a ``first`` list: it enters the history (as in TGM)."""
        self._state = self._advance(self._state, self._index.get(symbol, -1))
