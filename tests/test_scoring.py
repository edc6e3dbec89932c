"""Scoring play against a game's oracle: EV loss per decision, luck-adjusted results."""

from __future__ import annotations

import math
from typing import Any

import attrs
import pytest
import trio

from croupier.engine import CroupierError, PluginManager, hookimpl
from croupier.engine.games import Game, Plain, Turn
from croupier.engine.gametable import GameStrategyPlayer, GameTable
from croupier.engine.oracle import TableOracle
from croupier.engine.scoring import Moments, Scorecard, oracle_for
from croupier.engine.tournament import TournamentConfig
from croupier.engine.tournament_run import GameStrategyEntry, run_tournament
from croupier.plugins.blackjack.oracle import BlackjackOracle, action_values
from croupier.plugins.blackjack.rules import BlackjackRules, rules_from_options
from croupier.plugins.blackjack.solver import solve
from croupier.plugins.blackjack.solver.cards import full_shoe, rank_of
from croupier.plugins.three_card_poker import THREE_CARD_POKER


class OracleBot:
    """Takes the action its own copy of the oracle values best (a table listener feeds
    it the events, as a bot following the table would see them)."""

    def __init__(self, oracle: TableOracle, bet: Any) -> None:
        self.oracle = oracle
        self.bet = bet

    async def decide(self, observation: Plain) -> Plain:
        phase = str(observation.get("phase", ""))
        legal = tuple(observation["legal"])
        if phase == "bet":
            return dict(self.bet(observation))
        if phase == "insurance":
            return {"kind": "decline"}
        turn = Turn(int(observation["seat"]), legal, observation, {}, phase=phase)
        question = self.oracle.ask(turn, {"kind": legal[0]})
        assert question is not None
        return {"kind": question.valuation().best}


def _table(
    manager: PluginManager,
    game: str,
    rule_set: str | None,
    players: Any,
    seed: int,
    listeners: Any = (),
) -> GameTable:
    g = manager.games.get(game)
    options = g.rules(rule_set)
    return GameTable(
        g,
        options,
        seed,
        players,
        chips=[10**6] * len(players),
        oracle=oracle_for(manager, game).new(options),
        listeners=list(listeners),
    )


@pytest.mark.slow
def test_oracle_best_play_loses_exactly_zero(manager: PluginManager) -> None:
    for game, rule_set, bet, rounds in (
        ("three-card-poker", None, lambda o: {"kind": "bet", "ante": o["min_bet"]}, 60),
        ("blackjack", "vegas-s17", lambda o: {"kind": "bet", "amount": o["min_bet"]}, 25),
    ):
        g = manager.games.get(game)
        options = g.rules(rule_set)
        bot = OracleBot(oracle_for(manager, game).new(options), bet)
        table = _table(manager, game, rule_set, [bot], 11, [bot.oracle.see])
        trio.run(table.play, rounds)
        assert table.scorer is not None
        plays = [d for d in table.scorer.decisions() if d.phase == "play"]
        assert len(plays) >= rounds // 2
        assert all(d.loss == 0.0 for d in plays), game
        assert table.scorer.card(1).loss.mean == 0.0


def test_baccarat_best_spot_loses_zero_and_others_lose_the_difference(
    manager: PluginManager,
) -> None:
    g = manager.games.get("baccarat")
    options = g.rules(None, {"decks": 1})
    oracle = oracle_for(manager, "baccarat").new(options)
    seen = [4, 1, 0, 2, 0, 0, 1, 0, 0, 1]
    obs = {"phase": "bet", "seat": 1, "seen": seen, "min_bet": 20}
    turn = Turn(1, ("bet", "pass"), obs, {}, phase="bet")
    values = oracle.ask(turn, {"kind": "bet", "player": 20})
    assert values is not None
    valued = values.valuation()
    best = valued.best
    best_bet = oracle.ask(turn, {"kind": "bet", best: 20})
    assert best_bet is not None and best_bet.valuation().loss == 0.0
    assert valued.loss == pytest.approx(valued.values[best] - valued.values["player"])
    assert valued.staked == 20 and valued.edge == valued.values["player"] / 20


def _deal(card: str, seat: int | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"kind": "deal", "card": card}
    if seat is not None:
        event["seat"] = seat
    return event


def _play_turn(hand: list[str], upcard: str, legal: tuple[str, ...]) -> Turn:
    obs = {
        "phase": "play",
        "seat": 1,
        "hands": [hand],
        "hand": 0,
        "stake": 10,
        "dealer_upcard": upcard,
    }
    return Turn(1, legal, obs, {"kind": "stand"}, phase="play")


LEGAL = ("hit", "stand", "double", "surrender")


def test_standing_on_16_against_a_ten_loses_the_solvers_difference() -> None:
    rules = BlackjackRules()  # six decks, s17, late surrender, peek
    oracle = BlackjackOracle(rules.to_dict())
    for event in ({"kind": "shuffle"}, _deal("TS", 1), _deal("KD"), _deal("6H", 1), _deal("#")):
        oracle.see(event)
    question = oracle.ask(_play_turn(["TS", "6H"], "KD", LEGAL), {"kind": "stand"})
    assert question is not None
    valued = question.valuation()
    reference = solve({"rules": rules.to_dict(), "hand": "T,6", "upcard": "T"})["hand"]["actions"]
    best = max(reference[a]["ev"] for a in LEGAL)
    assert valued.loss == pytest.approx(10 * (best - reference["stand"]["ev"]), abs=1e-12)
    assert valued.loss > 0

    # a shoe the seat has seen deplete: 24 small cards out make standing better than hitting
    oracle.see({"kind": "shuffle"})
    small = ["2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D", "2S", "3S"] * 2
    for card in small:
        oracle.see(_deal(card, 2))
    for event in (_deal("TS", 1), _deal("KD"), _deal("6H", 1), _deal("#")):
        oracle.see(event)
    shoe = list(full_shoe(6))
    for card in small:
        shoe[rank_of(card[0])] -= 1
    exact = action_values(rules, tuple(shoe), (9, 5), 9, 0, LEGAL)
    question = oracle.ask(_play_turn(["TS", "6H"], "KD", LEGAL), {"kind": "hit"})
    assert question is not None
    valued = question.valuation()
    assert valued.values == {k: 10 * v for k, v in exact.items()}
    assert valued.loss == pytest.approx(10 * (max(exact.values()) - exact["hit"]), abs=1e-12)
    assert exact["stand"] > exact["hit"]  # the depleted shoe changed the best play


@pytest.mark.slow
def test_basic_loses_exactly_the_oracles_difference_where_the_shoe_changes_best_play(
    manager: PluginManager,
) -> None:
    g = manager.games.get("blackjack")
    options = g.rules("vegas-s17")
    events: list[dict[str, Any]] = []
    basic = GameStrategyPlayer(g.strategy("basic").at(options))
    table = _table(manager, "blackjack", "vegas-s17", [basic], 5, [events.append])
    trio.run(table.play, 60)
    assert table.scorer is not None
    scored = [d for d in table.scorer.decisions() if d.phase == "play"]
    assert scored and min(d.loss for d in scored) == 0.0
    # the shoe of each decision, counted from the log independently of the oracle
    rules = rules_from_options(BlackjackRules(), options)
    differ = [d for d in scored if d.loss > 0]
    assert differ, "60 rounds of basic strategy meet no composition-dependent play"
    checked = 0
    for decision in differ:
        shoe = list(full_shoe(6))
        hands: dict[int, list[int]] = {}
        upcard = None
        for event in events:
            if (
                event.get("round") == decision.round
                and event.get("kind") == "action"
                and event.get("seat") == 1
                and event.get("action") == decision.taken
            ):
                break
            if event.get("kind") == "shuffle":
                shoe = list(full_shoe(6))
            if event.get("kind") == "round":
                hands, upcard = {}, None
            card = event.get("card")
            if event.get("kind") in ("deal", "reveal") and card and card != "#":
                rank = rank_of(card[:-1])
                shoe[rank] -= 1
                if event.get("seat") is None and upcard is None:
                    upcard = rank
                elif event.get("seat") == 1:
                    hands.setdefault(event["hand"], []).append(rank)
        assert upcard is not None
        hand = max(hands.items())[1] if len(hands) == 1 else None
        if hand is None:
            continue  # after a split: the hand played is not told by the log alone
        shoe[upcard] += 1
        for rank in hand:
            shoe[rank] += 1
        legal = tuple(
            a
            for a in ("hit", "stand", "double", "split", "surrender")
            if a in (decision.taken, decision.best) or len(hand) == 2
        )
        if "split" in legal and hand[0] != hand[1]:
            legal = tuple(a for a in legal if a != "split")
        exact = action_values(rules, tuple(shoe), tuple(hand), upcard, 0, legal)
        assert decision.value_best == pytest.approx(10 * max(exact.values()), abs=1e-9)
        assert decision.loss == pytest.approx(
            10 * (max(exact.values()) - exact[decision.taken]), abs=1e-9
        )
        checked += 1
    assert checked


@pytest.mark.slow
def test_the_luck_adjusted_result_is_unbiased_and_less_noisy(manager: PluginManager) -> None:
    g = manager.games.get("three-card-poker")
    options = g.rules(None)
    players = [GameStrategyPlayer(g.strategy(s).at(options)) for s in ("always-play", "pair-plus")]
    table = _table(manager, "three-card-poker", None, players, 3)
    trio.run(table.play, 3000)
    assert table.scorer is not None
    for seat in (1, 2):
        card = table.scorer.card(seat)
        diff = Moments()
        for booked in (r[seat] for r in table.scorer.rounds if seat in r):
            diff.add(booked.plain - _adjusted_of(booked))
        mean, low, high = diff.interval()
        assert low <= 0.0 <= high, (seat, mean, low, high)
        assert card.adjusted.variance < card.plain.variance / 10


def _adjusted_of(booked: Any) -> float:
    from croupier.engine.scoring import _adjusted

    return _adjusted(booked)


def test_scorecards_merge_like_one() -> None:
    a, b, whole = Scorecard(), Scorecard(), Scorecard()
    rows = [(1.0, 0.5), (-2.0, -0.25), (3.5, 1.0), (0.0, 0.0)]
    for i, (plain, adjusted) in enumerate(rows):
        (a if i < 2 else b).add_round(plain, adjusted, [])
        whole.add_round(plain, adjusted, [])
    a.merge(Scorecard.load(b.save()))
    assert a.plain.n == 4 and math.isclose(a.plain.mean, whole.plain.mean)
    assert math.isclose(a.plain.variance, whole.plain.variance)
    assert math.isclose(a.adjusted.variance, whole.adjusted.variance)


class _Plain:
    """A plugin with a game that brings no oracle."""

    @staticmethod
    @hookimpl
    def croupier_games() -> tuple[Game, ...]:
        return (attrs.evolve(THREE_CARD_POKER, name="no-oracle-poker"),)


def test_scoring_a_game_without_an_oracle_is_one_clear_line() -> None:
    manager = PluginManager(autoload=False, plugins=[("plain", _Plain)])
    game = manager.games.get("no-oracle-poker")
    options = game.rules(None)
    config = TournamentConfig.of(game, options, 1, tourneys=1, rounds=1, scored=True)
    entry = GameStrategyEntry("optimal", game.name, game.strategy("optimal"))
    with pytest.raises(CroupierError) as caught:
        run_tournament(manager, config, [entry])
    said = str(caught.value)
    assert "\n" not in said and "no-oracle-poker has no oracle" in said
    # unscored, it still plays
    result = run_tournament(manager, attrs.evolve(config, scored=False), [entry])
    assert result.tables == 1 and not result.scores


def test_a_scored_tournament_reports_every_bot(manager: PluginManager) -> None:
    game = manager.games.get("three-card-poker")
    options = game.rules(None)
    config = TournamentConfig.of(game, options, 2, tourneys=2, rounds=2, scored=True)
    entries = [
        GameStrategyEntry(s, game.name, game.strategy(s)) for s in ("optimal", "always-play")
    ]
    lines: list[dict[str, Any]] = []
    result = run_tournament(manager, config, entries, write=lines.append)
    optimal, always = result.scores
    assert optimal["decisions"] == always["decisions"] > 0
    assert optimal["loss_per_decision"][0] == 0.0 < always["loss_per_decision"][0]
    assert any("scored" in line for line in lines)
    assert result.to_dict()["scores"] == list(result.scores)


@pytest.mark.slow
def test_three_card_poker_adjusted_mean_is_exact_over_every_hand() -> None:
    """Unbiased exactly: over all 22,100 hands, the mean of (bet value - loss) equals the
    mean of the value of the action taken, for a bot that plays every hand and one that
    plays the best."""
    import itertools

    from croupier.engine.cards import CODES
    from croupier.plugins.three_card_poker.oracle import PokerOracle

    oracle = PokerOracle(THREE_CARD_POKER.rules(None))
    bet = oracle.ask(Turn(1, ("bet", "pass"), {"phase": "bet"}, {}), {"kind": "bet", "ante": 1})
    assert bet is not None
    start = bet.valuation().best_value
    taken_sum = adjusted_sum = best_sum = 0.0
    hands = list(itertools.combinations(range(52), 3))
    for hand in hands:
        obs = {"phase": "play", "cards": [CODES[c] for c in hand], "ante": 1}
        question = oracle.ask(Turn(1, ("play", "fold"), obs, {}), {"kind": "play"})
        assert question is not None
        valued = question.valuation()
        taken_sum += valued.values["play"]
        adjusted_sum += start - valued.loss
        best_sum += valued.best_value
    assert best_sum / len(hands) == pytest.approx(start, abs=1e-12)
    assert adjusted_sum / len(hands) == pytest.approx(taken_sum / len(hands), abs=1e-12)


def test_croupier_tournament_score_shows_every_bots_figures(cli: Any, tmp_path: Any) -> None:
    log = tmp_path / "t.jsonl"
    argv = ("tournament", "--game", "three-card-poker", "optimal", "always-play", "--score")
    status, out, err = cli(
        *argv, "--tourneys", "1", "--rounds", "2", "--seed", "4", "--log", str(log)
    )
    assert status == 0, err
    assert "scored against the oracle" in out and "EV loss/100 rounds" in out
    optimal_row = next(line for line in out.splitlines() if line.strip().startswith("optimal"))
    assert "0.000 [0.000, 0.000]" in optimal_row
    status, _, err = cli("tournament", "--replay", str(log))
    assert status == 0, err  # the log's scored lines do not disturb its replay
    status, out, err = cli(*argv, "--connect", "127.0.0.1:1")
    assert status != 0 and err.count("\n") == 1 and "--score" in err
