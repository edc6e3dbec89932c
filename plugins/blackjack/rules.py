"""Blackjack rule options and named rule sets.

:class:`BlackjackRules` is plain data: every option a casino table, the solver or a
simulation needs, with the name of the dealer-rules plugin and of the betting scheme that
give it behaviour. A :class:`RuleSet` gives a set of options a name (``vegas-s17``, ``koth``).
Everything a user can override is an attrs field, so ``rules.evolve(decks=2)`` and
:func:`rules_from_options` are all it takes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal, Protocol

import attrs

from croupier.engine import CroupierError, shown

DoubleRule = Literal["any", "9-11", "10-11", "none"]
SurrenderRule = Literal["none", "late", "early"]
ShoeKind = Literal["casino", "koth", "fresh-pack"]
OverbetRule = Literal["stand", "all-in"]

DOUBLE_RULES: tuple[str, ...] = ("any", "9-11", "10-11", "none")
SURRENDER_RULES: tuple[str, ...] = ("none", "late", "early")
SHOE_KINDS: tuple[str, ...] = ("casino", "koth", "fresh-pack")
OVERBET_RULES: tuple[str, ...] = ("stand", "all-in")
"""What a raise (``B n``) of more than the chips held does, under a scheme that raises:
``stand`` (the original contest controller: the hand stands, its stake unchanged) or
``all-in`` (the raise is cut to the chips held)."""
LEGACY_OPTIONS: dict[str, Any] = {"overbet": "all-in"}
"""Options missing from logs written before they existed, with the behaviour those logs
were played with (before ``overbet``, an over-bet went all-in)."""


class Named(Protocol):
    """What every contribution has: a unique ``name`` and a one-line ``summary``."""

    @property
    def name(self) -> str: ...

    @property
    def summary(self) -> str: ...


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise CroupierError(message)


MAX_PAYOUT_TERM = 1000
"""Largest numerator and denominator of a payout: real tables pay 3:2, 6:5, 1:1, 2:1."""

MAX_CHIPS = 10**12
"""Largest bet limit and starting stack, so that balances stay far inside 64 bits."""


def parse_payout(text: str | float | Fraction) -> Fraction:
    """``"3:2"``, ``"6:5"``, ``"1:1"`` or ``"1.5"`` (or the number 1.5) as a Fraction of the
    stake."""
    if isinstance(text, Fraction):
        value = text
    elif isinstance(text, (int, float)) and not isinstance(text, bool):
        return parse_payout(str(text))  # 1.5 from the wire: its decimal digits, 3:2
    elif not isinstance(text, str) or len(text) > 40:
        raise CroupierError(f"a payout is written like 3:2 or 6:5, not {shown(text)}")
    else:
        try:
            if ":" in text:
                num, den = text.split(":")
                value = Fraction(int(num), int(den))
            else:
                value = Fraction(text)
        except (ValueError, ZeroDivisionError, OverflowError):
            raise CroupierError(f"a payout is written like 3:2 or 6:5, not {shown(text)}") from None
    _check(value >= 0, f"a payout cannot be negative: {text!r}")
    _check(
        value.numerator <= MAX_PAYOUT_TERM and value.denominator <= MAX_PAYOUT_TERM,
        f"a payout has terms of at most {MAX_PAYOUT_TERM} (like 3:2), not {text!r}",
    )
    return value


def format_payout(value: Fraction) -> str:
    return f"{value.numerator}:{value.denominator}"


@attrs.frozen(kw_only=True)
class BlackjackRules:
    """The options of a blackjack table. ``decks=None`` is an infinite deck (solver only)."""

    decks: int | None = 6
    penetration: float = 0.75
    shoe: ShoeKind = "casino"
    dealer: str = "s17"
    betting: str = "casino"
    double: DoubleRule = "any"
    double_after_split: bool = True
    max_split_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    surrender: SurrenderRule = "late"
    blackjack_pays: Fraction = attrs.field(default=Fraction(3, 2), converter=parse_payout)
    peek: bool = True
    insurance: bool = True
    min_bet: int = 10
    max_bet: int = 1000
    starting_chips: int = 1000
    overbet: OverbetRule = "stand"

    def __attrs_post_init__(self) -> None:
        _check_types(self)
        _check(
            self.decks is None or 1 <= self.decks <= 64,
            f"decks must be between 1 and 64 (or inf), not {self.decks}",
        )
        _check(
            0.0 < self.penetration <= 1.0,
            f"penetration must be in (0, 1], not {self.penetration}",
        )
        _check(self.shoe in SHOE_KINDS, f"shoe must be one of {', '.join(SHOE_KINDS)}")
        _check(self.overbet in OVERBET_RULES, f"overbet must be one of {', '.join(OVERBET_RULES)}")
        _check(self.double in DOUBLE_RULES, f"double must be one of {', '.join(DOUBLE_RULES)}")
        _check(
            self.surrender in SURRENDER_RULES,
            f"surrender must be one of {', '.join(SURRENDER_RULES)}",
        )
        _check(
            1 <= self.max_split_hands <= 8,
            f"split hands must be between 1 and 8, not {self.max_split_hands}",
        )
        _check(
            0 < self.min_bet <= self.max_bet,
            f"bets need 0 < min ({self.min_bet}) <= max ({self.max_bet})",
        )
        _check(self.starting_chips >= 0, "starting chips cannot be negative")
        _check(
            self.max_bet <= MAX_CHIPS and self.starting_chips <= MAX_CHIPS,
            f"bets and starting chips are at most {MAX_CHIPS:,}",
        )

    @property
    def hits_soft_17(self) -> bool:
        """True when the dealer rule is H17 (the solver's view of the dealer)."""
        return self.dealer == "h17"

    def evolve(self, **changes: Any) -> BlackjackRules:
        """A copy with some options changed (validated again)."""
        unknown = set(changes) - {f.name for f in attrs.fields(BlackjackRules)}
        _check(not unknown, f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return attrs.evolve(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (payout as ``"3:2"``, infinite deck as ``None``) for JSON and the wire."""
        data = attrs.asdict(self)
        data["blackjack_pays"] = format_payout(self.blackjack_pays)
        return data


_INTS = ("max_split_hands", "min_bet", "max_bet", "starting_chips")
_BOOLS = ("double_after_split", "resplit_aces", "hit_split_aces", "peek", "insurance")
_TEXTS = ("shoe", "dealer", "betting", "double", "surrender", "overbet")


def _check_types(rules: BlackjackRules) -> None:
    """Options come from the wire and the CLI as plain data: a float where a count belongs
    (1.5 decks) or a number where a yes/no belongs would pass the range checks and break a
    table later, so each option's type is checked first (a bool is not a number here)."""
    for name in _INTS:
        value = getattr(rules, name)
        _check(
            isinstance(value, int) and not isinstance(value, bool),
            f"{name} must be a whole number, not {shown(value)}",
        )
    _check(
        rules.decks is None or (isinstance(rules.decks, int) and not isinstance(rules.decks, bool)),
        f"decks must be a whole number (or inf), not {shown(rules.decks)}",
    )
    for name in _BOOLS:
        value = getattr(rules, name)
        _check(isinstance(value, bool), f"{name} must be true or false, not {shown(value)}")
    for name in _TEXTS:
        value = getattr(rules, name)
        _check(isinstance(value, str), f"{name} must be a name, not {shown(value)}")
    _check(
        isinstance(rules.penetration, (int, float)) and not isinstance(rules.penetration, bool),
        f"penetration must be a number, not {shown(rules.penetration)}",
    )


def rules_from_options(base: BlackjackRules, options: dict[str, Any]) -> BlackjackRules:
    """``base`` with ``options`` (plain data, e.g. from the wire) applied and validated."""
    try:
        return base.evolve(**options)
    except TypeError as exc:  # a wrong type reaching attrs or a comparison
        raise CroupierError(f"bad rule option: {exc}") from None


def rules_from_log(options: dict[str, Any]) -> BlackjackRules:
    """The rules a log's header records: :func:`rules_from_options` over the defaults, an
    option the log predates taking the behaviour it was played with (:data:`LEGACY_OPTIONS`)."""
    return rules_from_options(BlackjackRules(), {**LEGACY_OPTIONS, **options})


@attrs.frozen
class RuleSet:
    """A named combination of options: shoe, dealer rules and betting scheme included."""

    name: str
    summary: str
    rules: BlackjackRules
