"""A blackjack table on the engine's GameTable: time limits, refusals, defaults, events,
logs, replay, the fast path. Players answer plain maps, as every player at a table does."""

from __future__ import annotations

import io
import json
import random

import pytest
import trio
from bjtable import blackjack_table, round_core, strategy_seat, typed_events
from hypothesis import given, settings
from hypothesis import strategies as st
from tablekit import EventLog, StackedShoe

from croupier.engine import CroupierError, PluginManager
from croupier.plugins.blackjack.building import build_core
from croupier.plugins.blackjack.play import ACTIONS, Action, Event, Observation
from croupier.plugins.blackjack.simulate import run_rounds
from croupier.plugins.blackjack.strategy import local_strategy
from croupier.plugins.blackjack.tablelog import read_log, replay


class Stubborn:
    """Answers with ``first`` ``times`` times, then stands."""

    def __init__(self, first: Action | object, times: int = 99) -> None:
        self.first, self.times, self.seen = first, times, []

    async def decide(self, plain):
        observation = Observation.read(plain)
        self.seen.append(observation)
        if observation.phase == "bet":
            return Action("bet", observation.min_bet).to_dict()
        if self.times:
            self.times -= 1
            return self.first.to_dict() if isinstance(self.first, Action) else self.first
        return Action("stand").to_dict()


class Sleeper:
    async def decide(self, observation):
        if observation["phase"] == "bet":
            return Action("bet", 10).to_dict()
        await trio.sleep(3600)
        raise AssertionError("never reached")


class Crasher:
    async def decide(self, observation):
        raise RuntimeError("boom\nsecond line")


def stacked_table(manager, player, deal="TS 9D 6H 7C 5S 5D", **kw):
    events = []
    rules = manager.rule_sets.get("vegas-s17").rules
    table = blackjack_table(manager, rules, 1, [player], listeners=[typed_events(events)], **kw)
    round_core(table).shoe = StackedShoe(deal)
    return table, events


async def test_illegal_answers_are_refused_then_defaulted(manager):
    player = Stubborn(Action("split"))
    table, events = stacked_table(manager, player)
    await table.play_round()
    kinds = [e.kind for e in events if e.kind in ("refused", "default")]
    assert kinds == ["refused", "refused", "refused", "default"]
    assert player.seen[2].refused.startswith("split is not allowed now")
    assert any(e.kind == "action" and e.action == "stand" for e in events)


async def test_a_refused_answer_can_be_corrected(manager):
    player = Stubborn(Action("split"), times=1)
    table, events = stacked_table(manager, player)
    await table.play_round()
    assert [e.kind for e in events if e.kind in ("refused", "default")] == ["refused"]


async def test_not_an_action_is_refused(manager):
    table, events = stacked_table(manager, Stubborn("H"))
    await table.play_round()
    reasons = [e.reason for e in events if e.kind == "refused"]
    assert reasons[0] == "an answer is an action map (with a kind), not text"


async def test_slow_player_gets_stand(manager, autojump_clock):
    table, events = stacked_table(manager, Sleeper(), decision_time=2.0)
    await table.play_round()
    default = [e for e in events if e.kind == "default"]
    assert default[0].reason == "timeout after 2s"
    assert table.ledger.balances["seat-1"] == 1000 - 10  # stood on 15 against 16 + 5 = 21


async def test_broken_player_gets_the_defaults(manager):
    table, events = stacked_table(manager, Crasher())
    await table.play_round()
    reasons = [e.reason for e in events if e.kind == "default"]
    assert reasons == ["error: the player failed: boom"] * 2  # the bet, then the move
    assert table.ledger.balances["seat-1"] == 990


async def test_events_tell_the_story_in_order(manager):
    table, events = stacked_table(manager, Stubborn(Action("hit"), times=1))
    await table.play_round()
    text = [e.describe() for e in events]
    assert text[:8] == [
        "round 1 begins",
        "seat 1: bet 10",
        "seat 1 pays 10 chips (bet)",
        "seat 1 is dealt the Ten of Spades (10)",
        "the dealer is dealt the Nine of Diamonds (9)",
        "seat 1 is dealt the Six of Hearts (16)",
        "the dealer is dealt the hole card, face down",
        "seat 1: hit",
    ]
    assert "seat 1 draws the Five of Spades (21)" in text
    assert "the dealer turns the Seven of Clubs (16)" in text
    assert "the dealer draws the Five of Diamonds (21)" in text
    assert text[-2:] == ["seat 1: push with 21", "round 1 is over"]


async def test_hole_card_is_hidden_until_the_dealer_plays(manager):
    player = Stubborn(Action("stand"))
    table, _ = stacked_table(manager, player)
    await table.play_round()
    play = next(o for o in player.seen if o.phase == "play")
    assert play.visible == ("9D", "#", "TS", "6H")
    assert play.dealer_upcard == "9D"
    assert play.koth_arguments() == ["16", "T6", "9#T6", "10", "990"]


def test_plain_data_round_trips():
    obs = Observation("play", 3, 2, ("hit", "stand"), 140, hands=(("TS", "6H"),), total=16)
    data = obs.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert Observation.from_dict(data) == obs
    ev = Event("deal", 1, seat=2, card="QC", total=20, soft=False)
    assert Event.from_dict(ev.to_dict()) == ev
    for kind in ACTIONS:
        assert Action.from_dict(Action(kind, 3).to_dict()) == Action(kind, 3)
    with pytest.raises(CroupierError, match="unknown Action field"):
        Action.from_dict({"kind": "hit", "colour": "red"})
    with pytest.raises(CroupierError, match="unknown action"):
        Action.from_dict({"kind": "fold"})
    with pytest.raises(CroupierError, match="integer"):
        Action.from_dict({"kind": "bet", "amount": "lots"})


@pytest.mark.parametrize(
    ("text", "action"),
    [("H", "hit"), (" s ", "stand"), ("d", "double"), ("B -5", "raise"), ("bet 25", "bet")],
)
def test_action_parse(text, action):
    assert Action.parse(text).kind == action


@pytest.mark.parametrize("text", ["", "B x", "hit me now", "Z"])
def test_action_parse_errors(text):
    with pytest.raises(CroupierError):
        Action.parse(text)


async def test_fast_path_plays_the_same_game_as_the_table(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    strategy = manager.strategies.get("never-bust")
    chips = [10**6] * 3
    table = blackjack_table(manager, rules, 42, [strategy_seat(strategy)] * 3, chips=chips)
    await table.play(300)
    core = build_core(manager, rules, 42, chips)
    run_rounds(core, [strategy] * 3, 300)
    assert core.ledger.entries == table.ledger.entries
    assert core.ledger.balances == table.ledger.balances


class RandomPlayer:
    """Legal answers mostly, illegal ones sometimes, from a seeded random source."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    async def decide(self, plain) -> dict:
        rng = self.rng
        obs = Observation.read(plain)
        if rng.random() < 0.15:
            return Action(rng.choice(ACTIONS), rng.randint(-50, 5000)).to_dict()
        kind = rng.choice(obs.legal)
        if kind == "bet":
            return Action("bet", rng.randint(obs.min_bet, obs.max_bet)).to_dict()
        return Action(kind, rng.randint(-30, 30) or 1 if kind == "raise" else 0).to_dict()


MANAGER = PluginManager(autoload=False)
RULES = ["vegas-s17", "vegas-h17", "downtown-h17-6to5", "single-deck", "koth", "classic"]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    name=st.sampled_from(RULES),
    seats=st.integers(1, 7),
    surrender=st.sampled_from(["none", "late", "early"]),
)
def test_chips_are_conserved_with_random_players(seed, name, seats, surrender):
    manager = MANAGER
    rules = manager.rule_sets.get(name).rules.evolve(surrender=surrender)
    rng = random.Random(seed)
    players = [RandomPlayer(rng) for _ in range(seats)]
    chips = [rng.choice([0, 5, 60, 400, 3000]) for _ in range(seats)]
    table = blackjack_table(manager, rules, seed, players, chips=chips)
    trio.run(table.play, 30)
    check_ledger(table.ledger, chips)


async def test_a_log_replays_to_the_same_ledger(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    rng = random.Random(7)
    players = [RandomPlayer(rng) for _ in range(3)]
    table = blackjack_table(manager, rules, 99, players)
    out = io.StringIO()
    EventLog(table, rules, out)
    await table.play(40)
    lines = out.getvalue().splitlines()
    header, events = read_log(lines)
    assert header["seed"] == 99 and len(events) == len(lines) - 1
    core = replay(manager, lines)
    assert core.ledger.entries == table.ledger.entries
    # an edited log no longer replays
    edited = [line.replace('"amount": 10,', '"amount": 20,', 1) for line in lines]
    assert edited != lines
    with pytest.raises(CroupierError):
        replay(manager, edited)


class OverBettor:
    """Raises by more than it holds at its first decision of a hand, then stands."""

    async def decide(self, observation) -> dict:
        if observation["phase"] == "play" and observation["stake"] == 10:
            return Action("raise", 10**6).to_dict()
        return Action("stand").to_dict()


@pytest.mark.parametrize("overbet", ["stand", "all-in"])
async def test_an_over_bet_replays_under_either_rule(manager, overbet):
    rules = manager.rule_sets.get("koth").rules.evolve(overbet=overbet)
    table = blackjack_table(manager, rules, 5, [OverBettor()])
    out = io.StringIO()
    EventLog(table, rules, out)
    await table.play(3)
    lines = out.getvalue().splitlines()
    reasons = [json.loads(line).get("reason", "") for line in lines[1:]]
    assert any(r.startswith("over-bet:") for r in reasons)
    assert replay(manager, lines).ledger.entries == table.ledger.entries
    # a log written before the overbet option (no "overbet" in its header) was played
    # all in: it replays so, and only so
    header = json.loads(lines[0])
    del header["rules"]["overbet"]
    legacy = [json.dumps(header), *lines[1:]]
    if overbet == "all-in":
        assert replay(manager, legacy).ledger.entries == table.ledger.entries
    else:
        with pytest.raises(CroupierError, match=r"replay differs|not allowed"):
            replay(manager, legacy)


def test_bad_logs_are_one_line_errors(manager):
    with pytest.raises(CroupierError, match="empty"):
        replay(manager, [])
    with pytest.raises(CroupierError, match="not a croupier table log"):
        replay(manager, ['{"hello": 1}'])
    with pytest.raises(CroupierError, match="not JSON"):
        replay(manager, ["{"])


def check_ledger(ledger, chips, events=None):
    """Balances conserved and non-negative, and equal to the start plus every movement:
    the ledger's own entries for a short table, the ``chips`` events for a long one (the
    ledger keeps only its recent entries)."""
    assert ledger.conserved()
    assert all(balance >= 0 for account, balance in ledger.balances.items() if account != "house")
    moved = {account: 0 for account in ledger.balances}
    if events is None:
        for entry in ledger.entries:
            moved[entry.account] += entry.amount
    else:
        for event in events:
            if event.kind == "chips":
                moved[f"seat-{event.seat}"] += event.amount
    for i, start in enumerate(chips):
        assert ledger.balances[f"seat-{i + 1}"] == start + moved[f"seat-{i + 1}"]


@pytest.mark.parametrize("name", RULES)
def test_chips_are_conserved_over_thousands_of_hands(name):
    rules = MANAGER.rule_sets.get(name).rules
    rng = random.Random(name)
    chips = [10**5] * 7
    events: list = []
    players = [RandomPlayer(rng) for _ in range(7)]
    table = blackjack_table(
        MANAGER, rules, 5, players, chips=chips, listeners=[typed_events(events)]
    )
    assert trio.run(table.play, 300) == 300
    assert sum(1 for e in events if e.kind == "chips" and e.reason == "bet") == 2100
    check_ledger(table.ledger, chips, events)


def _whimsical(hand, upcard, legal):
    """Deterministic but varied: exercises doubles, splits and surrenders (a strategy's
    ``raise`` carries no amount, so both flows refuse it and stand)."""
    return legal[(sum(hand.cards) * 7 + upcard + len(hand.cards)) % len(legal)]


@pytest.mark.parametrize("name", ["vegas-s17", "single-deck", "koth", "classic"])
async def test_both_flows_agree_on_every_action(name):
    from croupier.plugins.blackjack.strategy import Strategy

    rules = MANAGER.rule_sets.get(name).rules.evolve(surrender="late", max_split_hands=1)
    if name != "koth":
        rules = rules.evolve(max_split_hands=4, resplit_aces=True)
    strategy = Strategy("whimsical", "test", _whimsical)
    chips = [10**6] * 4
    table = blackjack_table(MANAGER, rules, 3, [strategy_seat(strategy)] * 4, chips=chips)
    await table.play(150)
    core = build_core(MANAGER, rules, 3, chips)
    run_rounds(core, [strategy] * 4, 150)
    assert core.ledger.entries == table.ledger.entries
    reasons = {e.reason for e in core.ledger.entries}
    if name == "vegas-s17":
        assert {"bet", "double", "split", "surrender"} <= reasons


def test_a_long_tables_ledger_keeps_running_totals_not_every_entry(manager):
    """A table that plays for hours must not grow: the ledger keeps the recent entries and
    running totals, and the totals still account for every chip."""
    from croupier.engine.ledger import RECENT

    rules = manager.rule_sets.get("vegas-s17").rules
    core = build_core(manager, rules, 5, [10**9] * 3)
    lim17 = local_strategy(manager, "lim17", rules)
    run_rounds(core, [lim17] * 3, 2_000)
    ledger = core.ledger
    assert ledger.entries is not None and len(ledger.entries) == RECENT
    assert ledger.entries[-1].round == 2_000
    seats = sum(ledger.balances[f"seat-{i}"] for i in (1, 2, 3)) - 3 * 10**9
    assert sum(ledger.totals.values()) == seats == -ledger.balances["house"]
    assert ledger.conserved()


async def test_a_stopping_tables_decisions_share_one_deadline(autojump_clock):
    """SIGTERM's grace bounds the rest of the hand, not each decision: three silent seats
    took three graces (10.6 s for one silent player's hand at a server)."""

    class Silent:
        async def decide(self, observation):
            if observation["phase"] == "bet":
                return Action("bet", observation["min_bet"]).to_dict()
            await trio.sleep_forever()

    rules = MANAGER.rule_sets.get("vegas-s17").rules.evolve(insurance=False, surrender="none")
    events: list = []
    table = blackjack_table(
        MANAGER, rules, 8, [Silent()] * 3, decision_time=10, listeners=[typed_events(events)]
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(table.play_round)
        await trio.sleep(1)  # seat 1 is thinking
        start = trio.current_time()
        table.limit_decisions(2.0)
    assert trio.current_time() - start == pytest.approx(2.0)
    defaults = [e for e in events if e.kind == "default"]
    assert len(defaults) >= 2 and {e.seat for e in defaults} >= {1, 2}
    assert all(e.reason == "no time left: the table is stopping" for e in defaults)


@pytest.mark.parametrize("stalled", [0.0, 1.5])
async def test_a_decision_does_not_count_time_the_table_could_not_listen(autojump_clock, stalled):
    """A bot that answered in time while the server was frozen (its answer waiting in a
    socket) got a timeout default: a wrong game result. Time the loop lost is given back."""

    class Slow:
        async def decide(self, observation):
            if observation["phase"] == "bet":
                return Action("bet", observation["min_bet"]).to_dict()
            await trio.sleep(2.5)  # 0.5 s late by the clock, in time once stalls are given back
            return Action("stand").to_dict()

    start = trio.current_time()

    def stalls() -> float:  # the loop "froze" for ``stalled`` seconds one second in
        return stalled if trio.current_time() - start > 1.0 else 0.0

    rules = MANAGER.rule_sets.get("vegas-s17").rules.evolve(insurance=False, surrender="none")
    events: list = []
    table = blackjack_table(
        MANAGER,
        rules,
        8,
        [Slow()],
        decision_time=2,
        listeners=[typed_events(events)],
        stalls=stalls,
    )
    await table.play_round()
    defaults = [e for e in events if e.kind == "default"]
    if stalled:
        assert not defaults
        assert any(e.kind == "action" and e.action == "stand" for e in events)
    else:
        assert [e.reason for e in defaults] == ["timeout after 2s"]


async def test_the_loop_watch_counts_the_time_the_loop_could_not_run(mock_clock):
    import trio.testing

    from croupier.protocol.loopwatch import TICK, LoopWatch

    watch = LoopWatch()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch.run)
        await trio.testing.wait_all_tasks_blocked()
        mock_clock.jump(TICK)  # on time: nothing lost
        await trio.testing.wait_all_tasks_blocked()
        assert watch.stalled() == 0.0
        mock_clock.jump(1.0)  # the loop could not run for a second
        assert watch.stalled() == pytest.approx(1.0 - TICK)  # seen before the watch wakes
        await trio.testing.wait_all_tasks_blocked()
        assert watch.stalled() == pytest.approx(1.0 - TICK)  # and counted once when it does
        nursery.cancel_scope.cancel()
