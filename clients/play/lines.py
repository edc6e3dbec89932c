"""A line-based view of any game, driven only by its schema: what ``croupier play --game``
shows and how it reads a person's answer.

:func:`decision_lines` shows a decision (the observation's fields, the reason a previous
answer was refused, the legal actions with their fields); :func:`parse_action` turns a
line such as ``bet banker 20``, ``bet banker=20 tie=20``, ``b 20`` or ``fold`` into the
game's action map, or raises :class:`BadLine` with one line saying what is wrong. A kind
or a field may be given by a unique prefix; a bare value fills the first field not given
yet that takes it; numbers become ints; a field's type and choices from the schema are
checked here, so a typing slip never reaches the table (the game checks the rest: its
limits, the chips).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from croupier.engine.games import ActionSpec, Field

WIDTH = 78
COMMANDS = "help (or ?) explains the actions and what you see; q quits"
HIDDEN = ("legal", "refused")
"""Keys the table adds to every observation; shown in their own lines, not as fields."""


class BadLine(ValueError):
    """A line that is not an action: its one-line explanation."""


def value_text(value: Any) -> str:
    """A field's value in words: lists spaced out, None a dash, booleans yes/no."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return " ".join(value_text(v) for v in value) or "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {value_text(v)}" for k, v in value.items()) or "none"
    return str(value)


def placeholder(field: Field) -> str:
    """What a field's value looks like: ``N``, ``heads|tails``, ``TEXT``."""
    if field.choices:
        return "|".join(field.choices)
    return {"int": "N", "float": "X", "str": "TEXT", "bool": "yes|no"}.get(field.type, field.type)


def action_usage(spec: ActionSpec) -> str:
    """``bet [player N] [banker N] [tie N]``; ``pass``."""
    return " ".join([spec.kind, *(f"[{f.name} {placeholder(f)}]" for f in spec.fields)])


def specs_for(actions: Sequence[ActionSpec], legal: Sequence[str]) -> list[ActionSpec]:
    """The legal kinds' specs, in the table's order (a kind the schema omits has no fields)."""
    known = {spec.kind: spec for spec in actions}
    return [known.get(kind, ActionSpec(kind, "")) for kind in legal]


def observation_text(observation: Mapping[str, Any], fields: Sequence[Field]) -> str:
    """``name value`` for each field the observation holds (the schema's first, in its
    order, then any others), separated by ``·``."""
    names = [f.name for f in fields if f.name in observation]
    names += [k for k in observation if k not in names and k not in HIDDEN]
    return " · ".join(f"{name} {value_text(observation[name])}" for name in names)


def decision_lines(
    observation: Mapping[str, Any], fields: Sequence[Field], actions: Sequence[ActionSpec]
) -> list[str]:
    """A decision: what the seat sees, why its last answer was refused, what it may do."""
    lines = textwrap.wrap(
        observation_text(observation, fields), WIDTH, initial_indent="  ", subsequent_indent="  "
    )
    refused = observation.get("refused")
    if refused:
        lines.append(f"  refused: {refused}")
    usage = " | ".join(action_usage(s) for s in specs_for(actions, observation.get("legal", ())))
    lines += textwrap.wrap(
        f"you may: {usage}", WIDTH, initial_indent="  ", subsequent_indent="    "
    )
    return lines


def help_lines(
    fields: Sequence[Field], actions: Sequence[ActionSpec], legal: Sequence[str]
) -> list[str]:
    """The legal actions with their fields' summaries, how to type them, and what the
    observation's fields mean."""
    specs = specs_for(actions, legal)
    lines = ["Actions now (a kind or a unique prefix of it, then its fields):"]
    for spec in specs:
        lines.append(f"  {spec.kind}: {spec.summary}" if spec.summary else f"  {spec.kind}")
        for f in spec.fields:
            lines.append(f"      {f.name} {placeholder(f)}: {f.summary}")
    lines.append(f"  e.g. {'; '.join(examples(specs))}")
    lines.append("What you see:")
    lines += [f"  {f.name}: {f.summary}" for f in fields]
    lines.append(COMMANDS)
    return lines


def examples(specs: Sequence[ActionSpec]) -> list[str]:
    """Lines that would parse, one way of writing each legal action."""
    out = []
    for spec in specs:
        if not spec.fields:
            out.append(spec.kind)
            continue
        first = spec.fields[0]
        sample = first.choices[0] if first.choices else "10"
        out.append(f"{spec.kind} {first.name} {sample}")
        if len(spec.fields) > 1:
            out.append(f"{spec.kind} " + " ".join(f"{f.name}={_sample(f)}" for f in spec.fields))
    return out


def _sample(field: Field) -> str:
    return field.choices[0] if field.choices else {"str": "x", "bool": "yes"}.get(field.type, "10")


def _unique(word: str, names: Sequence[str], what: str) -> str | None:
    """``word`` itself or the one name it is a prefix of; None when it names none."""
    if word in names:
        return word
    found = [n for n in names if n.startswith(word)]
    if len(found) > 1:
        raise BadLine(f"{word!r} could be {what}{' or '.join(found)}; type more of it")
    return found[0] if found else None


def number(word: str) -> Any:
    """``20`` -> 20, ``2.5`` -> 2.5, anything else the text itself."""
    for kind in (int, float):
        try:
            return kind(word)
        except ValueError:
            pass
    return word


def convert(field: Field, word: str) -> Any:
    """``word`` as ``field``'s value, checked against its type and choices."""
    if field.choices:
        chosen = _unique(word.lower(), field.choices, "")
        if chosen is None:
            raise BadLine(f"{field.name} is {' or '.join(field.choices)}, not {word!r}")
        return chosen
    value = number(word)
    if field.type == "int" and not isinstance(value, int):
        raise BadLine(f"{field.name} is a whole number, not {word!r}")
    if field.type == "float" and not isinstance(value, int | float):
        raise BadLine(f"{field.name} is a number, not {word!r}")
    if field.type == "bool":
        low = word.lower()
        if low not in ("yes", "no", "true", "false", "y", "n"):
            raise BadLine(f"{field.name} is yes or no, not {word!r}")
        return low in ("yes", "true", "y")
    if field.type == "str":
        return word
    return value


def parse_action(line: str, actions: Sequence[ActionSpec], legal: Sequence[str]) -> dict[str, Any]:
    """The action map a line means (see the module's text), or :class:`BadLine`."""
    words = line.split()
    if not words:
        raise BadLine(f"type an action: {' or '.join(legal)} ({COMMANDS})")
    first = words[0].lower()
    kinds = [spec.kind for spec in actions]
    kind = _unique(first, list(legal), "the action ")
    if kind is None:
        other = _unique(first, [k for k in kinds if k not in legal], "the action ")
        if other is not None:
            raise BadLine(f"{other} is not possible now; you may {' or '.join(legal)}")
        raise BadLine(f"{words[0]!r} is not an action; you may {' or '.join(legal)} (or help)")
    spec = specs_for(actions, [kind])[0]
    action: dict[str, Any] = {"kind": kind}
    given: dict[str, Any] = {}
    rest = words[1:]
    if rest and not spec.fields:
        raise BadLine(f"{kind} takes nothing more, not {' '.join(rest)!r}")
    by_name = {f.name: f for f in spec.fields}
    names = list(by_name)
    i = 0
    while i < len(rest):
        word = rest[i]
        i += 1
        name, eq, raw = word.partition("=")
        if eq:
            chosen = _unique(name.lower(), names, "the field ")
            if chosen is None:
                raise BadLine(f"{kind} has no field {name!r}; its fields: {', '.join(names)}")
            _give(given, by_name[chosen], raw)
            continue
        named = _field_word(word, spec, given)
        if named is not None:
            field, value = named
            if value is None:
                if i >= len(rest):
                    raise BadLine(f"give {field.name} a value: {field.name} {placeholder(field)}")
                value = rest[i]
                i += 1
            _give(given, field, value)
            continue
        free = [f for f in spec.fields if f.name not in given]
        if not free:
            raise BadLine(f"{word!r} is one value too many: {action_usage(spec)}")
        _give(given, _takes(free, word), word)
    action.update(given)
    return action


def _field_word(
    word: str, spec: ActionSpec, given: Mapping[str, Any]
) -> tuple[Field, str | None] | None:
    """A word naming a field (its value follows) or one of a field's choices (the value
    itself); None for a bare value."""
    low = word.lower()
    for field in spec.fields:  # exact names and choices first
        if field.name == low:
            return field, None
        if low in field.choices and field.name not in given:
            return field, low
    if number(word) != word:
        return None  # a number is a value, never a prefix
    named = _unique(low, [f.name for f in spec.fields], "the field ")
    if named is not None:
        return next(f for f in spec.fields if f.name == named), None
    open_choices = [(f, c) for f in spec.fields if f.name not in given for c in f.choices]
    hits = [(f, c) for f, c in open_choices if c.startswith(low)]
    if len(hits) > 1:
        raise BadLine(f"{word!r} could be {' or '.join(c for _, c in hits)}; type more of it")
    return (hits[0][0], hits[0][1]) if hits else None


def _takes(free: Sequence[Field], word: str) -> Field:
    """The first field still free that ``word`` can be a value of (``bet 7`` is the
    amount when the first field is heads or tails); the first free one when none can,
    so that its error is the one shown."""
    for field in free:
        try:
            convert(field, word)
        except BadLine:
            continue
        return field
    return free[0]


def _give(given: dict[str, Any], field: Field, word: str) -> None:
    if field.name in given:
        raise BadLine(f"{field.name} is given twice")
    given[field.name] = convert(field, word)
