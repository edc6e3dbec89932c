"""Checking actions and options against a game's schema, before the game sees them.

A game declares its actions (:class:`~croupier.engine.games.ActionSpec`) and options as
:class:`~croupier.engine.games.Field` values: a type, maybe choices, a range and whether
the field is required. The engine holds every answer to that declaration first (the kind
is one of the turn's legal kinds, each field has its type, is one of its choices and in
its range, the required ones are there, no undeclared one is), so a game's
:meth:`~croupier.engine.games.GameCore.check` and ``check_options`` keep only the game's
own rules (a stake no larger than the seat's chips, the minimum above the maximum). A
field's range may name an option (``low="min_bet"``): the bound is that option's value at
the table. A ``None`` value is an absent one (the wire's nil).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from croupier.engine.errors import shown

if TYPE_CHECKING:
    from croupier.engine.games import ActionSpec, Field, Game, Plain, Turn

_WORDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "text",
    "bool": "true or false",
}


def has_type(kind: str, value: Any) -> bool:
    """Whether ``value`` is of the schema type ``kind`` (``int``, ``list[str]``, ...); a
    type the engine does not know holds anything."""
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind.startswith("list[") and kind.endswith("]"):
        inner = kind[5:-1]
        return isinstance(value, list | tuple) and all(has_type(inner, v) for v in value)
    return True


def bound(value: int | float | str | None, options: Plain) -> int | float | None:
    """A range's bound: a number, or the value of the option it names."""
    if isinstance(value, str):
        found = options.get(value)
        return found if isinstance(found, int | float) and not isinstance(found, bool) else None
    return value


def field_problem(
    field: Field, value: Any, options: Plain, where: str, verb: str = "is"
) -> str | None:
    """Why ``value`` cannot be ``field`` (``where``: the field as said in the line;
    ``verb``: ``is`` for an answer, ``must be`` for an option, as blackjack's rules say)."""
    if not has_type(field.type, value):
        said = _WORDS.get(field.type, f"of type {field.type}")
        return f"{where} {verb} {said}, not {shown(value)}"
    if field.choices and value not in field.choices:
        known = field.choices
        said = " or ".join(known) if len(known) < 3 else f"one of {', '.join(known)}"
        return f"{where} is {said}, not {shown(value)}"
    low, high = bound(field.low, options), bound(field.high, options)
    if isinstance(value, int | float) and not isinstance(value, bool):
        if low is not None and high is not None and not low <= value <= high:
            return f"{where} {verb} from {low} to {high}, not {value}"
        if low is not None and value < low:
            return f"{where} {verb} at least {low}, not {value}"
        if high is not None and value > high:
            return f"{where} {verb} at most {high}, not {value}"
    return None


def action_problem(game: Game, options: Plain, turn: Turn, action: Plain) -> str | None:
    """Why ``action`` does not answer ``turn`` as ``game``'s schema says, or None."""
    kind = action.get("kind")
    if kind not in turn.legal:
        legal = ", ".join(turn.legal)
        if not isinstance(kind, str):
            return f"an action has a kind (legal: {legal}), not {kind!r:.40}"
        return f"{kind:.40} is not allowed now (legal: {legal})"
    spec = _spec(game.actions, kind)
    if spec is None:  # legal but undeclared: the game's own check decides
        return None
    declared = spec.fields
    if spec.strict:
        unknown = sorted(set(action) - {"kind", *(f.name for f in declared)})
        if unknown:
            fields = ", ".join(f.name for f in declared) or "no other fields"
            return f"{kind} has {fields}, not {', '.join(unknown):.60}"
    for field in declared:
        name = field.name
        value = action.get(name)
        if value is None:
            if field.required:
                return f"{kind} needs {name}"
            continue
        problem = field_problem(field, value, options, f"the {name}")
        if problem is not None:
            return problem
    return None


def options_problem(game: Game, options: Plain) -> str | None:
    """Why complete ``options`` do not fit ``game``'s declared option fields, or None (a
    ``None`` value is left to the game: blackjack's infinite deck)."""
    for field in game.options:
        value = options.get(field.name)
        if value is None:
            if field.required:
                return f"{game.name} needs the option {field.name}"
            continue
        problem = field_problem(field, value, options, field.name, "must be")
        if problem is not None:
            return problem
    return None


_SPECS: dict[int, tuple[tuple[ActionSpec, ...], dict[str, ActionSpec]]] = {}
"""Each game's action specs by kind, found once (every answer at a table is checked);
keyed by the id of the game's tuple of specs, which the entry holds so the id stays its."""


def _spec(actions: tuple[ActionSpec, ...], kind: Any) -> ActionSpec | None:
    entry = _SPECS.get(id(actions))
    if entry is None or entry[0] is not actions:
        by_kind: dict[str, ActionSpec] = {}
        for spec in actions:
            by_kind.setdefault(spec.kind, spec)  # the first of a kind, as a search finds
        if len(_SPECS) >= 256:  # games built over and over (tests): start again
            _SPECS.clear()
        entry = _SPECS[id(actions)] = (actions, by_kind)
    return entry[1].get(kind) if isinstance(kind, str) else None
