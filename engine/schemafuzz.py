"""Actions sampled at random from a game's schema: the plugin check's fuzzing player.

A game declares its actions (:class:`~croupier.engine.games.ActionSpec`); :func:`legal_sample`
draws one that fits the schema for a turn (a legal kind, every field of its type, one of
its choices, in its range), and :func:`illegal_samples` breaks one in each way the
engine refuses (a kind not legal now, a wrong type, a choice or a value out of range, a
missing required or an undeclared field). :func:`fuzz_game` plays a game's rounds with
them, as PettingZoo's ``api_test`` samples an environment's spaces: each illegal answer
must be refused; a legal one the game accepts (:meth:`~croupier.engine.games.Game.refusal`)
must play on without an error and leave no seat below zero chips. A ``check()`` that
accepts what its game cannot play (a stake beyond the chips) fails here.
"""

from __future__ import annotations

import random
from typing import Any

from croupier.engine.errors import one_line
from croupier.engine.games import ActionSpec, Field, Game, Plain, Turn
from croupier.engine.schemacheck import bound

_SPREAD = (0, 1, 2, 5, 10, 25, 100, 1000)
"""Values an unbounded whole-number field is drawn from."""


def _value(field: Field, options: Plain, choose: random.Random) -> Any:
    if field.choices:
        return choose.choice(field.choices)
    kind = field.type
    if kind == "bool":
        return choose.random() < 0.5
    if kind == "str":
        return "x"
    if kind.startswith("list["):
        return []
    low, high = bound(field.low, options), bound(field.high, options)
    if kind == "int":
        lo = int(low) if low is not None else 0
        hi = int(high) if high is not None else max(lo, 0) + choose.choice(_SPREAD)
        return choose.choice((lo, hi, choose.randint(lo, max(lo, hi))))
    if kind == "float":
        start = float(low) if low is not None else 0.0
        end = float(high) if high is not None else start + 1.0
        return choose.uniform(start, end)
    return None


def _spec(game: Game, kind: str) -> ActionSpec | None:
    return next((a for a in game.actions if a.kind == kind), None)


def legal_sample(game: Game, options: Plain, turn: Turn, choose: random.Random) -> dict[str, Any]:
    """A random action for ``turn`` that fits the game's schema."""
    kind = choose.choice(turn.legal)
    action: dict[str, Any] = {"kind": kind}
    spec = _spec(game, kind)
    for field in spec.fields if spec is not None else ():
        if field.required or choose.random() < 0.6:
            value = _value(field, options, choose)
            if value is not None:
                action[field.name] = value
    return action


def illegal_samples(
    game: Game, options: Plain, turn: Turn, legal: Plain
) -> list[tuple[str, dict[str, Any]]]:
    """``legal`` broken in each way the schema refuses, each with what was broken."""
    out: list[tuple[str, dict[str, Any]]] = []
    kinds = [a.kind for a in game.actions if a.kind not in turn.legal]
    out.append(("a kind not legal now", {**legal, "kind": kinds[0] if kinds else "no-such-kind"}))
    spec = _spec(game, str(legal["kind"]))
    if spec is None:
        return out
    if spec.strict:
        out.append(("an undeclared field", {**legal, "no_such_field": 1}))
    for field in spec.fields:
        wrong: Any = 1 if field.type in ("str", "bool") or field.type.startswith("list") else "x"
        if field.type in ("int", "float", "str", "bool") or field.type.startswith("list["):
            out.append((f"{field.name} of the wrong type", {**legal, field.name: wrong}))
        if field.choices:
            out.append((f"{field.name} not a choice", {**legal, field.name: "no-such-choice"}))
        low, high = bound(field.low, options), bound(field.high, options)
        if field.type == "int" and low is not None:
            out.append((f"{field.name} below its range", {**legal, field.name: int(low) - 1}))
        if field.type == "int" and high is not None:
            out.append((f"{field.name} above its range", {**legal, field.name: int(high) + 1}))
        if field.required:
            missing = {k: v for k, v in legal.items() if k != field.name}
            out.append((f"{field.name} missing", missing))
    return out


def fuzz_game(game: Game, options: Plain, seed: int, rounds: int) -> list[str]:
    """Problems found playing ``rounds`` rounds answered by schema samples (see the
    module's text), at a table of up to three seats with the options' starting chips."""
    chips = [int(options.get("starting_chips", 1000))] * min(game.max_seats, 3)
    core = game.new_core(options, seed, chips, None)
    choose = random.Random(seed)
    for _ in range(rounds):
        flow = core.play_round()
        action: Plain = {}
        try:
            turn = next(flow)
            while True:
                answer = _fuzz_answer(game, options, core, turn, choose)
                if isinstance(answer, str):
                    return [answer]
                action = answer
                turn = flow.send(action)
        except StopIteration as stop:
            if not stop.value:
                break
        except Exception as exc:  # the game accepted what it cannot play
            return [
                f"round {core.round}: it accepted {dict(action)} (its check passed it), "
                f"then raised {one_line(exc)}"
            ]
        negative = [a for a, c in core.ledger.balances.items() if a != "house" and c < 0]
        if negative:
            return [f"round {core.round}: {negative[0]} has fewer than 0 chips"]
    return []


def _fuzz_answer(
    game: Game, options: Plain, core: Any, turn: Turn, choose: random.Random
) -> Plain | str:
    """A schema sample the game accepts (else the turn's default); a problem as text."""
    legal = legal_sample(game, options, turn, choose)
    for broken, action in illegal_samples(game, options, turn, legal):
        if game.refusal(options, core, turn, action) is None:
            return f"round {core.round}: an action with {broken} was accepted: {action}"
    try:
        refused = game.refusal(options, core, turn, legal)
    except Exception as exc:
        return f"round {core.round}: its check raised {one_line(exc)} on {legal}"
    return legal if refused is None else dict(turn.default)
