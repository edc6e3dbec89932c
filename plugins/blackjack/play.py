"""What crosses between a table and its players and watchers: actions, observations, events.

All three are frozen attrs classes that convert to and from plain data (``to_dict`` /
``from_dict``: str, int, bool, None, lists and dicts only), so the wire, the JSON-lines log
and the terminal game use them unchanged. Cards are two-letter codes (``"QC"``); the
dealer's hole card is ``"#"`` until the dealer plays.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

import attrs

from croupier.engine import HIDDEN, RANKS, CroupierError, card, kind_of, shown
from croupier.engine import card_name as name

Phase = Literal["bet", "insurance", "surrender", "play"]
PHASES: tuple[str, ...] = ("bet", "insurance", "surrender", "play")
ACTIONS: tuple[str, ...] = (
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "raise",
    "bet",
    "insurance",
    "decline",
)
"""Every action kind. ``bet`` (with an amount) answers the bet phase; ``insurance`` or
``decline`` the insurance phase (insurance on a natural is even money); ``surrender`` or
``decline`` the early-surrender phase; the others the play phase (``raise`` adds
``amount`` to the stake where the betting scheme allows it: the contest's ``B n``)."""

_LETTERS = {
    "H": "hit",
    "S": "stand",
    "D": "double",
    "P": "split",
    "R": "surrender",
    "B": "raise",
    "I": "insurance",
    "N": "decline",
}

T = TypeVar("T")


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


_FIELD_SETS: dict[type, frozenset[str]] = {}
"""Each class's field names as a set, looked up once (a bot reads every observation)."""


def _from_plain(cls: type[T], data: Any, *, growing: bool = False) -> T:
    """``cls`` from a plain map; an unknown field is an error, or skipped when ``growing``
    (a client reading a newer server, which may add fields)."""
    if not isinstance(data, dict):
        raise CroupierError(f"a {cls.__name__} is a map, not {kind_of(data)}")
    fields = _FIELD_SETS.get(cls)
    if fields is None:  # looked up once per class: a bot reads an observation per decision
        fields = _FIELD_SETS[cls] = frozenset(attrs.fields_dict(cls))  # type: ignore[arg-type]
    if not fields.issuperset(data):
        unknown = set(data) - fields
        if growing:
            data = {k: v for k, v in data.items() if k not in unknown}
        else:
            raise CroupierError(
                f"unknown {cls.__name__} field(s): {shown(', '.join(sorted(unknown)), 80)}"
            )
    values: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, list):
            value = tuple([tuple(v) if isinstance(v, list) else v for v in value])
        values[key] = value
    try:
        return cls(**values)
    except TypeError as exc:
        raise CroupierError(f"bad {cls.__name__}: {exc}") from None


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""Each class's field names, looked up once (every event and observation is made plain)."""


def _to_plain(obj: Any, drop_none: bool = False) -> dict[str, Any]:
    cls = type(obj)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in attrs.fields(cls))
    out = {}
    for key in names:
        value = getattr(obj, key)
        if value is None:
            if drop_none:
                continue
        elif isinstance(value, tuple | list):
            value = _plain(value)
        out[key] = value
    return out


def _check_int(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CroupierError(f"{what} must be an integer, not {shown(value)}")


@attrs.frozen
class Action:
    """A player's answer: a kind from :data:`ACTIONS` and, for ``bet``/``raise``, an amount."""

    kind: str
    amount: int = 0

    def __attrs_post_init__(self) -> None:
        if self.kind not in ACTIONS:
            raise CroupierError(f"unknown action {shown(self.kind)}; known: {', '.join(ACTIONS)}")
        _check_int(self.amount, "an action's amount")

    @classmethod
    def parse(cls, text: str) -> Action:
        """``"H"``, ``"s"``, ``" B -5 "``, ``"double"``, ``"bet 25"``: the contest's letters
        (``H S D B n``, plus ``P`` split, ``R`` surrender, ``I`` insurance, ``N`` decline)
        or the kinds' names, case and surrounding blanks ignored."""
        words = text.strip().split()
        if not words or len(words) > 2:
            raise CroupierError(f"an action is a word and maybe a number, not {shown(text)}")
        word = words[0].lower()
        kind = _LETTERS.get(word.upper(), word)
        amount = 0
        if len(words) == 2:
            try:
                amount = int(words[1])
            except ValueError:
                raise CroupierError(f"{shown(words[1])} is not a whole number of chips") from None
        return cls(kind, amount)

    def to_dict(self) -> dict[str, Any]:
        return _to_plain(self)

    @classmethod
    def from_dict(cls, data: Any) -> Action:
        return _from_plain(cls, data)


@attrs.frozen
class Observation:
    """What a seat's player sees when asked to decide.

    ``hands`` are the seat's hands (more than one after a split) and ``hand`` the index of
    the one to play; ``total``/``soft`` its value; ``stake`` its bet (0 in the bet phase);
    ``chips`` the chips the player holds besides the stakes on the table; ``visible`` every
    card dealt this round, the dealer's two first (the hole card as ``"#"``) then the rest in
    the order dealt, cards from a freshly added deck simply following; ``legal`` the exact
    actions the table accepts now; ``min_bet``/``max_bet`` bound a bet (``max_bet`` already
    capped by ``chips``); ``refused`` is why the previous answer was refused, if it was.
    """

    phase: str
    round: int
    seat: int
    legal: tuple[str, ...]
    chips: int
    hands: tuple[tuple[str, ...], ...] = ()
    hand: int = 0
    total: int = 0
    soft: bool = False
    stake: int = 0
    dealer_upcard: str | None = None
    visible: tuple[str, ...] = ()
    min_bet: int = 0
    max_bet: int = 0
    refused: str | None = None

    @property
    def cards(self) -> tuple[str, ...]:
        """The cards of the hand to play."""
        return self.hands[self.hand] if self.hands else ()

    def koth_arguments(self) -> list[str]:
        """The contest's command-line arguments: ``<hand-score> <hand> <visible cards>
        <stake> <chips>``, cards as rank letters and the hole card as ``#``."""

        def ranks(codes: tuple[str, ...]) -> str:
            return "".join(HIDDEN if c == HIDDEN else c[0] for c in codes)

        return [
            str(self.total),
            ranks(self.cards),
            ranks(self.visible),
            str(self.stake),
            str(self.chips),
        ]

    def to_dict(self) -> dict[str, Any]:
        return _to_plain(self)

    @classmethod
    def from_dict(cls, data: Any) -> Observation:
        return _from_plain(cls, data)

    @classmethod
    def read(cls, data: Any) -> Observation:
        """An observation a client got from a server: fields it does not know (a newer
        server's) are ignored, so a deployed bot keeps working when the server grows."""
        return _from_plain(cls, data, growing=True)


@attrs.frozen
class Event:
    """One public thing that happened at a table, in order.

    ``kind`` is one of: ``round`` (a round starts), ``shuffle``, ``deck-added``, ``leave``
    (a seat cannot pay the minimum and leaves), ``chips`` (a ledger entry: ``amount`` > 0
    from the house to the seat, < 0 to the house, ``reason`` says why), ``deal`` (``card``
    to ``seat``/``hand``, or to the dealer when ``seat`` is None; the hole card is dealt as
    ``"#"``), ``peek`` (the dealer checked for blackjack: ``outcome`` "blackjack" or
    "none"), ``action`` (the action applied for a seat, after validation), ``refused`` (an
    answer refused, with ``reason``), ``default`` (the default applied, with ``reason``:
    timeout, error or too many refusals), ``reveal`` (the hole card turned), ``settle``
    (a hand's ``outcome`` and ``total``), ``end`` (the round is over).
    """

    kind: str
    round: int
    seat: int | None = None
    hand: int | None = None
    card: str | None = None
    action: str | None = None
    amount: int | None = None
    total: int | None = None
    soft: bool | None = None
    outcome: str | None = None
    reason: str | None = None
    text: str | None = attrs.field(default=None, eq=False)
    """The event in words, as a table of any game sends it (:meth:`describe`); not part of
    what happened, so two events that differ only here are equal."""

    def to_dict(self) -> dict[str, Any]:
        return _to_plain(self, drop_none=True)

    @classmethod
    def from_dict(cls, data: Any) -> Event:
        """An event read back from a log or the wire, each field of its own type (a seat
        given as ``""``, ``[]`` or ``1.5`` is a one-line error, not a crash later)."""
        return cls._checked(data, _from_plain(cls, data))

    @classmethod
    def read(cls, data: Any) -> Event:
        """An event a client got from a server: as :meth:`from_dict`, but fields it does not
        know (a newer server's) are ignored."""
        return cls._checked(data, _from_plain(cls, data, growing=True))

    @staticmethod
    def _checked(data: Any, event: Event) -> Event:
        for field, kinds in _EVENT_TYPES.items():
            value = getattr(event, field)
            if value is None and field not in ("kind", "round"):
                continue
            if isinstance(value, bool) != (kinds is bool) or not isinstance(value, kinds):
                expected = {int: "an integer", str: "text", bool: "true or false"}[kinds]
                raise CroupierError(
                    f"an event's {field} must be {expected}, not {shown(data.get(field))}"
                )
        return event

    def describe(self) -> str:
        """One English sentence for people: "the dealer draws the Five of Hearts"."""
        who = "the dealer" if self.seat is None else f"seat {self.seat}"
        if self.hand:
            who += f" (hand {self.hand + 1})"
        k = self.kind
        if k == "round":
            return f"round {self.round} begins"
        if k == "shuffle":
            return "Shuffling..."
        if k == "deck-added":
            return "a fresh shuffled deck is added to the shoe"
        if k == "leave":
            return f"{who} cannot pay the minimum and leaves the table"
        if k == "deal":
            if self.card == HIDDEN:
                return f"{who} is dealt the hole card, face down"
            verb = "draws" if self.reason == "draw" else "is dealt"
            return f"{who} {verb} the {_card_name(self.card)}" + _total_text(self)
        if k == "reveal":
            return f"the dealer turns the {_card_name(self.card)}" + _total_text(self)
        if k == "peek":
            return (
                "the dealer has blackjack"
                if self.outcome == "blackjack"
                else "the dealer checks: no blackjack"
            )
        if k == "action":
            if self.action == "pass":
                return f"{who} sits this round out"
            extra = f" {self.amount}" if self.amount else ""
            note = f" ({self.reason})" if self.reason else ""  # an over-bet says what it did
            return f"{who}: {self.action}{extra}{note}"
        if k in ("refused", "default"):
            return f"{who}: {k} ({self.reason})"
        if k == "chips":
            verb = "receives" if (self.amount or 0) > 0 else "pays"
            return f"{who} {verb} {abs(self.amount or 0)} chips ({self.reason})"
        if k == "settle":
            return f"{who}: {self.outcome} with {self.total}"
        if k == "end":
            return f"round {self.round} is over"
        return f"{k} {self.to_dict()}"


_EVENT_TYPES: dict[str, type] = {
    "kind": str,
    "round": int,
    "seat": int,
    "hand": int,
    "card": str,
    "action": str,
    "amount": int,
    "total": int,
    "soft": bool,
    "outcome": str,
    "reason": str,
    "text": str,
}


def _card_name(code: str | None) -> str:
    return name(card(code)) if code and code[0] in RANKS else str(code)


def _total_text(event: Event) -> str:
    if event.total is None:
        return ""
    return f" ({'soft ' if event.soft else ''}{event.total})"
