"""Games as plugins: the interface any table game implements for croupier's engine.

A game is played by seats against the house. Its plugin contributes a :class:`Game`
(through the ``croupier_games`` hook): the rules as plain options with named rule sets, a
schema of its actions, observations and events that a client can read, built-in
strategies, and :meth:`Game.new_core`, which makes one table's state between rounds (a
:class:`GameCore`). The engine's drivers (the simulator's, a table with players) run any
game's rounds the same way:

- :meth:`GameCore.play_round` is a generator: it yields a :class:`Turn` whenever a seat
  must decide (whose seat, the legal action kinds, what that seat alone may see, and the
  default for a silent or faulty player) and receives the action, already checked with
  :meth:`GameCore.check`; it returns False when no seat could play (nothing happened).
- Actions are plain mappings with a ``kind`` and the game's own fields (``{"kind": "bet",
  "on": "banker", "amount": 20}``); observations and events are plain mappings too
  (events carry ``kind`` and ``round``, and ``text``: the event in words), so the wire,
  logs and any client use them unchanged.
- Chips move only through the core's :class:`~croupier.engine.ledger.Ledger`; every stake
  is taken with a reason that starts with ``"bet"``, so a driver can tell what was staked
  from what was won. Random draws come from the table's seed stream only, so a table
  replays from its seed and its actions.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from croupier.engine.errors import CroupierError, UnknownNameError
from croupier.engine.ledger import Ledger
from croupier.engine.legacylogs import LegacyLogs
from croupier.engine.schemacheck import action_problem, options_problem
from croupier.engine.wirecompat import WireCompat

Plain = Mapping[str, Any]
"""An action, an observation, an event or options: str keys, plain values."""
Emit = Callable[[dict[str, Any]], None]
"""How a game's core reports an event: called with the event's plain map, in order."""


@attrs.frozen
class Field:
    """One field of an action, an observation or the options: what a client can read."""

    name: str
    type: str
    """``int``, ``float``, ``str``, ``bool``, ``list[...]`` of those (the engine checks
    actions and options of these types; any other is the game's to check)."""
    summary: str
    choices: tuple[str, ...] = ()
    low: int | float | str | None = None
    """The smallest value (a number, or the name of the option that holds it: ``min_bet``)."""
    high: int | float | str | None = None
    """The largest value (a number or an option's name)."""
    required: bool = False
    """An action of this kind must carry the field (else it may be absent or nil)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type, "summary": self.summary}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.low is not None:
            out["min"] = self.low
        if self.high is not None:
            out["max"] = self.high
        if self.required:
            out["required"] = True
        return out


@attrs.frozen
class ActionSpec:
    """An action kind and its fields."""

    kind: str
    summary: str
    fields: tuple[Field, ...] = ()
    strict: bool = True
    """Fields not declared are refused (False: they are the game's to check; blackjack's
    answers carry an ``amount`` on every kind)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "summary": self.summary,
            "fields": [f.to_dict() for f in self.fields],
        }


@attrs.frozen
class Turn:
    """A decision the game asks of one seat (seats count from 1)."""

    seat: int
    legal: tuple[str, ...]
    observation: Plain
    default: Plain
    phase: str = ""
    """The kind of decision (blackjack's ``bet``, ``insurance``, ``play``): a bot may leave
    the phases in :attr:`Game.auto_phases` to the server."""
    context: Plain = attrs.field(factory=dict)
    """Fields the table adds to its own events about this turn (``refused``, ``default``):
    blackjack names the hand."""
    absent: Plain | None = None
    """What a seat with nobody in it does (its player left, or its bot's connection is
    gone: :class:`~croupier.engine.errors.PlayerAbsent`): a betting game's sit-out, so
    no stake is put down for someone who is not there. None: the :attr:`default`."""


class GameCore(Protocol):
    """One table of a game: its state between rounds and the flow of a round."""

    @property
    def ledger(self) -> Ledger: ...

    @property
    def round(self) -> int:
        """Rounds played so far (the one in progress included)."""
        ...

    @property
    def counts(self) -> dict[str, int]:
        """Outcomes counted so far by name (``banker_wins``, ...): the simulator sums them."""
        ...

    def play_round(self) -> Generator[Turn, Plain, bool]: ...

    def check(self, turn: Turn, action: Plain) -> str | None:
        """Why ``action`` cannot answer ``turn``, or None when it can."""
        ...


@attrs.frozen
class Checkpoints:
    """How a game saves one table's core between two rounds as plain data, and puts a fresh
    core back there: a server's checkpoints, so a restarted server replays only the rounds
    after the last one instead of a table's whole life (docs/games.md, "Checkpoints").

    ``save(core)`` returns what the core's next rounds depend on (its shoe and the stream's
    position, its ledger, its round, its counts, whatever else it carries from round to
    round) as JSON-able data: str keys, lists, numbers, text, never pickled objects.
    ``restore(core, state)`` is given a core fresh from ``new_core`` with the same options,
    seed and chips and must leave it exactly where ``save`` found the original, so that
    both deal the same rounds from then on; it raises :class:`CroupierError` with one line
    for data it cannot take (the server then replays the table whole). ``version``: the
    format's; a checkpoint of another version is not restored (the table is replayed)."""

    save: Callable[[Any], dict[str, Any]]
    restore: Callable[[Any, Plain], None]
    version: int = 1


@attrs.frozen
class WebFiles:
    """A game's files for the server's web page: the folder ``folder`` of the importable
    package ``package``, served at ``/games/<game>/``. ``view`` (a JavaScript module whose
    default export draws a table: ``new View(info)`` with ``update(info)``, ``apply(event)``,
    ``describe(event)``, ``render(dealer, seats)``, see docs/web.md) or None; ``pages``: the
    game's own pages (file name -> the title the pages' menu shows)."""

    package: str
    folder: str = "web"
    view: str | None = "view.js"
    pages: Mapping[str, str] = attrs.field(factory=dict)


@attrs.frozen
class GameStrategy:
    """A built-in player of a game: ``play(observation) -> action`` (plain data)."""

    name: str
    summary: str
    play: Callable[[Plain], Plain]
    for_options: Callable[[Plain], GameStrategy] | None = None
    """A strategy that depends on the table's options (blackjack's basic strategy solves
    them) gives this: the strategy as played under those options. It may take seconds, so
    drivers call it once per table, and servers off their event loop."""
    trusted: bool = False
    """The game vouches that ``play`` answers only action maps of its declared fields (built
    from the observation's legal actions): a table checks them with its core's own
    :meth:`GameCore.check` only, not the schema a second time (:meth:`Game.refusal`)."""

    def at(self, options: Plain) -> GameStrategy:
        """This strategy as played at a table with ``options``."""
        return self if self.for_options is None else self.for_options(options)


CoreFactory = Callable[[Plain, int, Sequence[int], "Emit | None"], GameCore]
"""``new_core(options, seed, chips, emit)``: a table's core (seats get ``chips``)."""


@attrs.frozen
class Game:
    """A table game contributed by a plugin (see the module's text)."""

    name: str
    summary: str
    options: tuple[Field, ...]
    defaults: Plain
    rule_sets: Mapping[str, Plain]
    """Named rule sets: each the options that differ from :attr:`defaults`."""
    check_options: Callable[[Plain], dict[str, Any]]
    """Validate complete options (raise :class:`CroupierError` with one line) and return
    them normalised."""
    new_core: CoreFactory
    actions: tuple[ActionSpec, ...]
    observation: tuple[Field, ...]
    events: Mapping[str, str]
    strategies: tuple[GameStrategy, ...] = ()
    counters: tuple[str, ...] = ()
    """The names in :attr:`GameCore.counts`, in the order reports show them."""
    max_seats: int = 7
    min_chips: Callable[[Plain], int] | None = None
    """The fewest chips a seat needs to play a round under these options (default: the
    ``min_bet`` option, else 1): a tournament's bot with fewer has left the run."""
    played_round: Callable[[Plain], int | None] | None = None
    """The seat an event shows to have played its round (counted once per seat and round),
    or None: for a game where a seat may play a round without deciding anything
    (blackjack's fixed stakes, a natural against the dealer's), or may decide without
    playing (sitting a coup out: see :func:`staked_on`). None: a seat played the rounds in
    which it decided something. Tournaments and a table's ``hands`` count this way."""
    web: WebFiles | None = None
    """The game's part of the server's web page (None: its tables show as event lists)."""
    checkpoints: Checkpoints | None = None
    """Saving and restoring a table's core as plain data (None: a restarted server replays
    the game's tables from their first round)."""
    compat: WireCompat | None = None
    """Blackjack's wire, logs and defaults from before it was a game (a new game: None)."""

    # -- the compat value's parts, as drivers read them (None or empty without it) ------------
    @property
    def read_action(self) -> Callable[[object], Plain] | None:
        return None if self.compat is None else self.compat.read_action

    @property
    def auto_phases(self) -> Mapping[str, Callable[[Plain], Plain]]:
        return {} if self.compat is None else self.compat.auto_phases

    @property
    def action_of(self) -> Callable[[Plain], Plain | None] | None:
        return None if self.compat is None else self.compat.action_of

    @property
    def legacy(self) -> LegacyLogs | None:
        return None if self.compat is None else self.compat.legacy

    @property
    def table_rule_set(self) -> str | None:
        return None if self.compat is None else self.compat.table_rule_set

    @property
    def tournament_rule_set(self) -> str | None:
        return None if self.compat is None else self.compat.tournament_rule_set

    def is_stake(self, reason: str) -> bool:
        """Whether a seat's payment under ``reason`` is a stake (``bet...``, or one of
        the compat value's :attr:`~croupier.engine.wirecompat.WireCompat.stakes`)."""
        return reason.startswith("bet") or (
            self.compat is not None and reason in self.compat.stakes
        )

    def seat_minimum(self, options: Plain) -> int:
        if self.min_chips is not None:
            return self.min_chips(options)
        return int(options.get("min_bet", 1))

    def rules(self, rule_set: str | None = None, overrides: Plain | None = None) -> dict[str, Any]:
        """The options of ``rule_set`` (default: the game's defaults) with ``overrides``."""
        options = dict(self.defaults)
        names = {f.name for f in self.options}
        if rule_set is not None:
            if rule_set not in self.rule_sets:
                known = ", ".join(self.rule_sets)
                raise _unknown(
                    "rule set",
                    rule_set,
                    self.rule_sets,
                    f"{self.name} has no rule set {rule_set!r}; known: {known}",
                )
            unknown = set(self.rule_sets[rule_set]) - names
            if unknown:
                raise CroupierError(
                    f"{self.name}'s rule set {rule_set!r} sets unknown option(s) "
                    f"{', '.join(sorted(unknown))}"
                )
            options.update(self.rule_sets[rule_set])
        for key, value in (overrides or {}).items():
            if key not in names:
                raise CroupierError(
                    f"{self.name} has no option {key!r}; its options: {', '.join(sorted(names))}"
                )
            options[key] = value
        problem = options_problem(self, options)
        if problem is not None:
            raise CroupierError(problem)
        return self.check_options(options)

    def refusal(
        self, options: Plain, core: GameCore, turn: Turn, action: Plain, *, trusted: bool = False
    ) -> str | None:
        """Why ``action`` cannot answer ``turn`` at a table with ``options``: the schema's
        reason (:mod:`~croupier.engine.schemacheck`), else the core's own, else None.
        ``trusted``: the answer of one of the game's own :attr:`GameStrategy.trusted`
        strategies, checked by the core alone (any other answer, a bot's, always meets
        the schema first)."""
        if trusted:
            return core.check(turn, action)
        problem = action_problem(self, options, turn, action)
        return problem if problem is not None else core.check(turn, action)

    def default_rules(self, rule_set: str | None, *, tournament: bool = False) -> str | None:
        """``rule_set``, or the one a table (or a tournament) plays when none is named."""
        if rule_set is not None:
            return rule_set
        if tournament and self.tournament_rule_set is not None:
            return self.tournament_rule_set
        return self.table_rule_set

    def strategy(self, name: str) -> GameStrategy:
        for strategy in self.strategies:
            if strategy.name == name:
                return strategy
        names = [s.name for s in self.strategies]
        said = f"{self.name} has no strategy {name!r}; known: {', '.join(names) or 'none'}"
        raise _unknown("strategy", name, names, said)

    def schema(self) -> dict[str, Any]:
        """What a client needs to play the game: plain data."""
        return {
            "name": self.name,
            "summary": self.summary,
            "options": [f.to_dict() for f in self.options],
            "defaults": dict(self.defaults),
            "rule_sets": {name: dict(o) for name, o in self.rule_sets.items()},
            "actions": [a.to_dict() for a in self.actions],
            "observation": [f.to_dict() for f in self.observation],
            "events": dict(self.events),
            "strategies": {s.name: s.summary for s in self.strategies},
            "max_seats": self.max_seats,
            "auto_phases": list(self.auto_phases),
        }


def staked_on(kind: str) -> Callable[[Plain], int | None]:
    """A :attr:`Game.played_round` for a game whose core emits one ``kind`` event for
    each seat that stakes a round: a seat that sits a round out has not played it."""

    def played(event: Plain) -> int | None:
        seat = event.get("seat")
        return seat if event.get("kind") == kind and isinstance(seat, int) else None

    return played


def _unknown(family: str, name: str, known: Iterable[str], said: str) -> UnknownNameError:
    """An unknown name (the wire's ``unknown-name``), said the way a game says it."""
    error = UnknownNameError(family, name, known)
    error.args = (said,)
    return error
