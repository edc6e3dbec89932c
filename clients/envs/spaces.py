"""A game's Gymnasium spaces, derived from its schema (never written by hand per game).

Actions: every action the schema can express, enumerated once into a ``Discrete`` space:
each action kind with every combination of its fields' values (a field with ``choices``
takes each choice, a ``bool`` both, an ``int`` (a stake) 0 and each of ``bet_units`` times
the table's ``min_bet``). Which of them are legal at a turn is the game's own
:meth:`~croupier.engine.games.GameCore.check`, asked of each: the action mask.

Observations: a ``Dict`` with one entry per observation field of the schema: ``int`` a
scalar ``Box`` of int64, ``float`` of float64, ``bool`` ``Discrete(2)``, a ``str`` with
choices ``Discrete(1 + choices)`` (0: nil), other text ``Text``, lists ``Sequence``.
The field ``legal`` is left out (the mask says it better); ``action_mask`` is added.
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Callable, Container, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
from gymnasium import spaces

from croupier.clients.envs.options import EnvOptions
from croupier.engine import CroupierError
from croupier.engine.games import Field, Game, Plain

CHARSET = string.ascii_letters + string.digits + string.punctuation + " "
"""The characters a text field may hold (card codes, names, ``#`` for a hole card)."""
TEXT = 64
"""The longest text a field holds."""
INT_LOW, INT_HIGH = -(2**62), 2**62
SKIPPED = frozenset({"legal"})
Check = Callable[[Plain], "str | None"]


@attrs.frozen
class ActionTable:
    """Every action of a game's schema at a table, numbered: the Discrete action space."""

    actions: tuple[Plain, ...]
    by_kind: dict[str, tuple[int, ...]] = attrs.field(init=False, eq=False, repr=False)
    """The numbers of each kind's actions (a step checks only the legal kinds')."""

    def __attrs_post_init__(self) -> None:
        found: dict[str, list[int]] = {}
        for i, action in enumerate(self.actions):
            found.setdefault(action["kind"], []).append(i)
        object.__setattr__(self, "by_kind", {k: tuple(v) for k, v in found.items()})

    @classmethod
    def of(cls, setup: EnvOptions) -> ActionTable:
        game = setup.game
        unit = int(setup.options.get("min_bet", 1) or 1)
        stakes = (0, *sorted({int(u) * unit for u in setup.bet_units}))
        found: list[Plain] = []
        for spec in game.actions:
            values = [_values(game, spec.kind, f, stakes) for f in spec.fields]
            for combo in itertools.product(*values):
                names = (f.name for f in spec.fields)
                found.append({"kind": spec.kind, **dict(zip(names, combo, strict=True))})
        return cls(tuple(found))

    @property
    def space(self) -> spaces.Discrete:
        return spaces.Discrete(len(self.actions))

    def accepted(self, legal: Sequence[str], check: Check) -> list[int]:
        """The numbers of the actions the game accepts now (kind legal, ``check`` passes)."""
        actions = self.actions
        by_kind = self.by_kind
        return [i for kind in legal for i in by_kind.get(kind, ()) if check(actions[i]) is None]

    def mask(self, legal: Sequence[str], check: Check) -> np.ndarray:
        """1 for each action the game accepts now (its kind legal and ``check`` passes)."""
        return self.mask_of(self.accepted(legal, check))

    def mask_of(self, accepted: Sequence[int]) -> np.ndarray:
        """The mask with 1 at each of the numbers ``accepted``."""
        out = np.zeros(len(self.actions), np.int8)
        for i in accepted:  # a few: quicker than a fancy index
            out[i] = 1
        return out

    def choose(
        self,
        action: object,
        legal: Sequence[str],
        default: Plain,
        check: Check,
        illegal: str = "raise",
        accepted: Container[int] = (),
    ) -> Plain:
        """The game's action numbered ``action`` at a turn with ``legal`` kinds: one refused
        by the game raises one line (``illegal="raise"``) or gives ``default`` ("default").
        ``accepted``: numbers the game accepted at this turn already (not asked again)."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise CroupierError(f"an action is a whole number, not {action!r}")
        index = int(action)
        if not 0 <= index < len(self.actions):
            raise CroupierError(f"action {index} is not in 0..{len(self.actions) - 1}")
        chosen = self.actions[index]
        if index in accepted:
            return chosen
        why = f"{chosen['kind']} is not legal now" if chosen["kind"] not in legal else None
        why = why or check(chosen)
        if why is None:
            return chosen
        if illegal == "raise":
            raise CroupierError(f"action {index} ({_said(chosen)}) is refused: {why}")
        return default

    def index(self, action: Plain) -> int | None:
        """The number of ``action`` (a strategy's answer), or None when it is not listed;
        a field left out is taken as 0 (or false)."""
        for i, known in enumerate(self.actions):
            if all(
                action.get(k, type(v)() if isinstance(v, int) else None) == v
                for k, v in known.items()
            ) and all(not v or k in known for k, v in action.items()):
                return i
        return None


def _said(action: Plain) -> str:
    return " ".join(str(v) for v in action.values())


def _values(game: Game, kind: str, field: Field, stakes: tuple[int, ...]) -> tuple[Any, ...]:
    if field.choices:
        return field.choices
    if field.type == "bool":
        return (False, True)
    if field.type == "int":
        return stakes
    raise CroupierError(
        f"{game.name}'s action {kind!r} has a field {field.name!r} of type {field.type}, "
        "which a discrete action space cannot list"
    )


def _text() -> spaces.Text:
    return spaces.Text(TEXT, min_length=0, charset=CHARSET)


def field_space(field: Field) -> spaces.Space[Any]:
    """The space of one observation field (see the module's text)."""
    kind = field.type
    if kind == "int":
        return spaces.Box(INT_LOW, INT_HIGH, shape=(), dtype=np.int64)
    if kind == "float":
        return spaces.Box(-np.inf, np.inf, shape=(), dtype=np.float64)
    if kind == "bool":
        return spaces.Discrete(2)
    if kind == "str":
        return spaces.Discrete(len(field.choices) + 1) if field.choices else _text()
    if kind.startswith("list[") and kind.endswith("]"):
        inner = Field(field.name, kind[5:-1], field.summary)
        return spaces.Sequence(field_space(inner), stack=False)
    raise CroupierError(f"observation field {field.name!r} has a type {kind!r} with no space")


Encoder = Callable[[Any], Any]


@attrs.frozen
class ObservationCoder:
    """A game's observation maps as points of its ``Dict`` space, and back to nothing."""

    fields: tuple[Field, ...]
    actions: int
    encoders: tuple[tuple[str, Encoder], ...] = attrs.field(init=False)
    """Each field's encoder, made once (a step encodes every field)."""

    def __attrs_post_init__(self) -> None:
        found = tuple((f.name, _encoder(f, f.type)) for f in self.fields)
        object.__setattr__(self, "encoders", found)

    @classmethod
    def of(cls, game: Game, actions: int) -> ObservationCoder:
        return cls(tuple(f for f in game.observation if f.name not in SKIPPED), actions)

    @property
    def space(self) -> spaces.Dict:
        entries: dict[str, spaces.Space[Any]] = {f.name: field_space(f) for f in self.fields}
        entries["action_mask"] = spaces.MultiBinary(self.actions)
        return spaces.Dict(entries)

    def encode(self, observation: Mapping[str, Any] | None, mask: np.ndarray) -> dict[str, Any]:
        """``observation`` (None: the nil observation after the last turn) as a point."""
        seen = observation or {}
        out = {name: encode(seen.get(name)) for name, encode in self.encoders}
        out["action_mask"] = mask
        return out


def _encoder(field: Field, kind: str) -> Encoder:
    """The encoder of a field of type ``kind`` (nil as 0, false or empty)."""
    if kind == "int":
        return lambda v: np.array(0 if v is None else v, np.int64)
    if kind == "float":
        return lambda v: np.array(0.0 if v is None else v, np.float64)
    if kind == "bool":
        return lambda v: 1 if v else 0
    if kind == "str" and field.choices:
        index = {c: i + 1 for i, c in enumerate(field.choices)}
        return lambda v: 0 if v is None else index[v]
    if kind == "str":
        return _text_value
    inner = _encoder(field, kind[5:-1])
    return lambda v: tuple(map(inner, v)) if v else ()


def _text_value(v: Any) -> str:
    """A text field's value: its text, at most :data:`TEXT` characters ("": nil)."""
    if type(v) is str and len(v) <= TEXT:
        return v
    return "" if v is None else str(v)[:TEXT]
