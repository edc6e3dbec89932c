"""The plugin author's check: load a plugin's contributions and exercise them.

``croupier plugins --check [NAME]`` and :func:`check_plugins` (callable from a plugin's own
tests: ``assert check_plugins(PluginManager(), "mine") == []``) report one line per
problem, never raise:

- every contribution has the type its family needs (checked now, not at first use), a
  non-empty name and a one-line summary;
- a family's own checks (``Family.check``: blackjack's rule sets must make a table);
- a randomizer builds from a seed stream and deals, the same symbols from the same seed;
- a game's default options and every rule set pass its own check; its schema is plain
  data; a few seeded rounds at a full table, played by a random legal player (each turn
  answered at random by the turn's default or one of the game's strategies, all of which
  must be legal), conserve chips, emit plain events with ``kind``, ``round`` and
  ``text`` of the kinds the game declares, give plain observations with only declared
  fields of their declared types, count only the declared counters, take every stake
  with a reason that starts with ``bet``, and come out the same from the same seed (the
  table replays from its seed and the actions it received); a game with
  :attr:`~croupier.engine.games.Game.checkpoints` saves plain data halfway, and a fresh
  table restored from it plays the rest of those rounds event for event as the original;
- a game's rounds answered by actions sampled at random from its schema (:mod:`.schemafuzz`):
  every illegal one (a kind not legal now, a wrong type, a choice or a value out of range,
  a missing or undeclared field) is refused, and a legal one the game accepts plays on
  without an error, chips never below zero (a ``check()`` that accepts too much is found
  here);
- with ``golden`` (a folder), the first seed's rounds are compared with the game's golden
  playthrough there (``<game>.jsonl``), written when there is none yet;
- a count system has ten integer tags, a positive scale, and a ``balanced`` flag that
  agrees with its tags' sum over a deck (:func:`~croupier.engine.counts.check_count_system`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from croupier.engine.counts import CountSystem, check_count_system
from croupier.engine.errors import CroupierError, one_line
from croupier.engine.gamelog import LOG_NAME, LOG_VERSION, action_event, replay_game
from croupier.engine.games import Game, GameStrategy, Plain, Turn
from croupier.engine.logreplay import LogReplay
from croupier.engine.manager import PluginManager
from croupier.engine.randomizers import RandomizerKind
from croupier.engine.schemacheck import has_type
from croupier.engine.schemafuzz import fuzz_game
from croupier.engine.seeds import Stream

ROUNDS = 30
SEEDS = (1, 2)


TABLE_EVENTS = frozenset({"action", "refused", "default"})
"""Event kinds a table adds to a game's own (:mod:`~croupier.engine.gametable`)."""
TABLE_OBSERVATION = frozenset({"legal", "refused"})
"""Observation fields a table adds to a game's own."""


def check_plugins(
    manager: PluginManager, name: str | None = None, golden: Path | None = None
) -> list[str]:
    """Problems of plugin ``name`` (or of every plugin), one line each; ``golden``: the
    folder of golden playthroughs to compare each game's with (see the module's text)."""
    if name is not None and name not in manager.info:
        return [f"no plugin named {name!r} is installed; known: {', '.join(manager.info)}"]
    problems: list[str] = []
    for hook, declared in manager.families.items():
        family = declared.summary
        try:
            found = manager.contributions(hook)  # a raising hook is noted in failures
        except CroupierError as exc:
            problems.append(one_line(exc))
            continue
        for plugin, item in found:
            if name is not None and plugin != name:
                continue
            where = f"{plugin}: {family} {getattr(item, 'name', '?')!r}"
            found_problems = _check_item(manager, hook, item, golden)
            problems += [f"{where}: {p}" for p in found_problems]
    failures = [f"{f.name}: {f.message}" for f in manager.failures if name in (None, f.name)]
    return list(dict.fromkeys(failures + problems))


def _check_item(
    manager: PluginManager, hook: str, item: Any, golden: Path | None = None
) -> list[str]:
    family = manager.families[hook]
    kind = family.kind
    if kind is not None and not isinstance(item, kind):
        return [f"is a {type(item).__name__}, not a {kind.__name__}"]
    summary = getattr(item, "summary", "")
    if not isinstance(summary, str) or not summary.strip() or "\n" in summary.strip():
        return ["needs a one-line summary"]
    checks: dict[str, Callable[[PluginManager, Any], list[str]]] = {
        "croupier_randomizers": _check_randomizer,
        "croupier_games": _check_game,
        "croupier_count_systems": _check_count,
    }
    check = checks.get(hook, family.check)
    if check is None:
        return []
    try:
        if hook == "croupier_games":
            return _check_game(manager, item, golden)
        return check(manager, item)
    except Exception as exc:  # the plugin's own bug: reported, never raised
        return [f"raised {one_line(exc)}"]


def _check_randomizer(manager: PluginManager, kind: RandomizerKind) -> list[str]:
    first = kind.factory(Stream(7)).deal(20)
    again = kind.factory(Stream(7)).deal(20)
    if len(first) != 20:
        return [f"dealt {len(first)} symbols when asked for 20"]
    if list(first) != list(again):
        return ["deals differently from the same seed"]
    return []


def _check_count(manager: PluginManager, system: CountSystem) -> list[str]:
    return check_count_system(system)


def _plain(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def _check_game(manager: PluginManager, game: Game, golden: Path | None = None) -> list[str]:
    problems: list[str] = []
    options = game.rules()
    for rule_set in game.rule_sets:
        try:
            game.rules(rule_set)
        except CroupierError as exc:
            problems.append(f"rule set {rule_set!r} is refused by its own check: {exc}")
    if not _plain(game.schema()):
        problems.append("its schema is not plain data (str, numbers, lists, maps)")
    if not game.strategies:
        problems.append("has no strategy: the simulator and tables need one")
        return problems
    for seed in SEEDS:
        first = _play(game, options, seed, problems)
        if problems:
            return problems
        if _play(game, options, seed, problems) != first:
            problems.append(f"seed {seed}: the same seed and answers gave other events or chips")
            return problems
        header = {"log": LOG_NAME, "version": LOG_VERSION, "game": game.name}
        header |= {"options": options, "seed": seed, "chips": first[2]}
        lines = [json.dumps(header), *(json.dumps(e) for e in first[0])]
        try:
            replay_game(manager, lines)
        except CroupierError as exc:
            problems.append(f"seed {seed}: its table log does not replay: {exc}")
        except Exception as exc:
            problems.append(f"seed {seed}: replaying its table log raised {one_line(exc)}")
        if game.checkpoints is not None:
            problems += _check_checkpoint(game, options, seed, first)
        if golden is not None and seed == SEEDS[0]:
            problems += _check_golden(golden, game, [json.loads(line) for line in lines])
    if not problems:
        problems += fuzz_game(game, options, SEEDS[0], ROUNDS)
    return problems


def _check_golden(folder: Path, game: Game, lines: list[Any]) -> list[str]:
    """The playthrough ``lines`` against ``folder/<game>.jsonl`` (written when absent:
    delete the file to accept a change of the game's play)."""
    path = folder / f"{game.name}.jsonl"
    text = "".join(json.dumps(line, sort_keys=True) + "\n" for line in lines)
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return []
    expected = path.read_text().splitlines()
    got = text.splitlines()
    for number, (want, have) in enumerate(zip(expected, got, strict=False), 1):
        if want != have:
            return [f"its playthrough differs from {path} at line {number}: {have:.120}"]
    if len(expected) != len(got):
        return [f"its playthrough has {len(got)} lines, {path} {len(expected)}"]
    return []


def _check_checkpoint(game: Game, options: Plain, seed: int, played: list[Any]) -> list[str]:
    """A fresh table restored from the checkpoint :func:`_play` took halfway plays the rest
    of its rounds as the original did (the same events, the same balances)."""
    assert game.checkpoints is not None
    events, balances, chips, (state, at) = played
    if state is None:
        return [f"seed {seed}: its checkpoint is not plain data (what JSON holds)"]
    out: list[dict[str, Any]] = []
    core = game.new_core(options, seed, chips, out.append)
    said = f"seed {seed}: a table restored from its checkpoint after round {ROUNDS // 2}"
    try:
        game.checkpoints.restore(core, json.loads(state))
        out.clear()  # what a fresh core emitted when it was made is not the rounds after
        LogReplay(core, game, len(chips), out).feed(events[at:])
    except CroupierError as exc:
        return [f"{said} does not play on as the table did: {exc}"]
    except Exception as exc:
        return [f"{said} raised {one_line(exc)}"]
    if core.ledger.balances != balances:
        return [f"{said} ends with other chips: {core.ledger.balances}, not {balances}"]
    return []


def _play(game: Game, options: Plain, seed: int, problems: list[str]) -> list[Any]:
    """``ROUNDS`` rounds at a full table answered at random (the turn's default or a
    strategy's answer, chosen by a generator seeded with ``seed``); the events seen and
    the balances they leave."""
    events: list[dict[str, Any]] = []
    seats = min(game.max_seats, 3)
    chips = [options.get("starting_chips", 1000)] * seats
    core = game.new_core(options, seed, chips, events.append)
    choose = random.Random(seed)
    strategies = [s.at(options) for s in game.strategies]
    saved: tuple[str | None, int] = (None, 0)
    for played in range(ROUNDS):
        if played == ROUNDS // 2 and game.checkpoints is not None:
            state = game.checkpoints.save(core)
            saved = (json.dumps(state) if _plain(state) else None, len(events))
        flow = core.play_round()
        try:
            turn = next(flow)
            while True:
                action = _answer(game, options, strategies, core, turn, choose, problems)
                if game.action_of is None:  # as a table logs it
                    events.append(action_event(turn, action, core.round))
                turn = flow.send(action)
                if problems:
                    return [events]
        except StopIteration:
            pass
        if not core.ledger.conserved():
            problems.append(f"seed {seed}, round {core.round}: chips are not conserved")
            return [events]
    for event in events:
        if not _plain(event) or not all(k in event for k in ("kind", "round", "text")):
            problems.append(f"an event is not a plain map with kind, round and text: {event!r:.80}")
            break
        if event["kind"] not in game.events and event["kind"] not in TABLE_EVENTS:
            said = f"round {event['round']}: its event kind {event['kind']!r} is not declared"
            problems.append(said)
            break
    problems += _declared_counts(game, core) + _stakes_booked(game, core)
    return [events, dict(core.ledger.balances), chips, saved]


def _declared_counts(game: Game, core: Any) -> list[str]:
    """The core counts exactly the declared counters."""
    counted, declared = set(core.counts), set(game.counters)
    if counted - declared:
        return [f"it counts {', '.join(sorted(counted - declared))}, not among its counters"]
    if declared - counted:
        return [f"its counters {', '.join(sorted(declared - counted))} are never counted"]
    return []


def _stakes_booked(game: Game, core: Any) -> list[str]:
    """Every chip a seat puts down is taken as a stake: a reason that starts with ``bet``
    (or a stake reason of the game's compat value: :meth:`Game.is_stake`)."""
    for entry in core.ledger.entries or ():
        seat = entry.account.startswith("seat")
        if seat and entry.amount < 0 and not game.is_stake(entry.reason):
            return [
                f"round {entry.round}: {entry.account} pays {-entry.amount} chips for "
                f"{entry.reason!r}: a stake's reason starts with 'bet'"
            ]
    return []


def observation_problem(game: Game, observation: Plain) -> str | None:
    """Why an observation does not fit the game's declared fields, or None."""
    if not _plain(dict(observation)):
        return "an observation is not plain data"
    declared = {f.name: f for f in game.observation}
    for name, value in observation.items():
        field = declared.get(name)
        if field is None:
            if name in TABLE_OBSERVATION:
                continue
            return f"its observation field {name!r} is not declared"
        if value is not None and not has_type(field.type, value):
            return f"its observation field {name!r} is not of type {field.type}: {value!r:.40}"
    return None


def _answer(
    game: Game,
    table: Plain,
    strategies: list[GameStrategy],
    core: Any,
    turn: Turn,
    choose: random.Random,
    problems: list[str],
) -> Plain:
    wrong = observation_problem(game, turn.observation)
    if wrong is not None:
        problems.append(f"round {core.round}: {wrong}")
    options = [("the default", dict(turn.default))]
    options += [(f"strategy {s.name!r}", dict(s.play(turn.observation))) for s in strategies]
    for who, action in options:
        refused = game.refusal(table, core, turn, action)
        if refused is not None:
            problems.append(
                f"round {core.round}: {who} answered {action} and was refused: {refused}"
            )
    return choose.choice(options)[1]
