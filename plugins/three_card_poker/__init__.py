"""Three Card Poker as a croupier game: ante and play against the dealer, pair plus, and
an exact solver of the best play and each bet's house edge (``solve three-card-poker``)."""

from __future__ import annotations

from functools import lru_cache

from croupier.engine import (
    ActionSpec,
    Checkpoints,
    CommandLine,
    Field,
    Game,
    GameStrategy,
    Plain,
    Solver,
    WebFiles,
    card,
    hookimpl,
    staked_on,
)
from croupier.plugins.three_card_poker.cli import COMMAND_LINE
from croupier.plugins.three_card_poker.core import COUNTERS, PokerCore, check_options
from croupier.plugins.three_card_poker.hands import category, value
from croupier.plugins.three_card_poker.oracle import croupier_oracles as croupier_oracles
from croupier.plugins.three_card_poker.solver import ANTE_BONUSES, PAYTABLES, counts, solve


@lru_cache(maxsize=25_000)
def _plays(codes: tuple[str, ...], bonus: str) -> bool:
    """The solver's exact best play of this hand: play when it beats folding."""
    hand = [card(c) for c in codes]
    return counts(hand).play(ANTE_BONUSES[bonus].get(category(value(hand)), 0)) > -1


def _optimal(observation: Plain) -> Plain:
    if observation["phase"] == "bet":
        return {"kind": "bet", "ante": observation["min_bet"]}
    return {"kind": "play" if _plays(tuple(sorted(observation["cards"])), "5-4-1") else "fold"}


def _always(observation: Plain) -> Plain:
    if observation["phase"] == "bet":
        return {"kind": "bet", "ante": observation["min_bet"]}
    return {"kind": "play"}


def _pair_plus(observation: Plain) -> Plain:
    if observation["phase"] == "bet":
        low = observation["min_bet"]
        side = low if observation["chips"] >= 3 * low else 0  # the ante, the play and this
        return {"kind": "bet", "ante": low, "pair_plus": side}
    return _optimal(observation)


def _ante_and_play(options: Plain) -> int:
    return 2 * int(options["min_bet"])  # a seat must be able to play its ante


THREE_CARD_POKER = Game(
    name="three-card-poker",
    summary="ante, then play or fold against the dealer's three cards; pair plus on the side",
    options=(
        Field(
            "ante_bonus",
            "str",
            "the ante bonus paytable (straight flush-trips-straight)",
            tuple(ANTE_BONUSES),
        ),
        Field(
            "pair_plus",
            "str",
            "the pair plus paytable (SF-trips-straight-flush-pair)",
            tuple(PAYTABLES),
        ),
        Field("min_bet", "int", "the smallest ante or pair plus bet", low=1),
        Field("max_bet", "int", "the largest ante or pair plus bet", low=1),
        Field("starting_chips", "int", "each seat's chips when a table opens", low=1),
    ),
    defaults={
        "ante_bonus": "5-4-1",
        "pair_plus": "40-30-6-3-1",
        "min_bet": 10,
        "max_bet": 500,
        "starting_chips": 1000,
    },
    rule_sets={"standard": {}, "pair-plus-4": {"pair_plus": "40-30-6-4-1"}},
    check_options=check_options,
    new_core=PokerCore,
    checkpoints=Checkpoints(PokerCore.save, PokerCore.restore),
    actions=(
        ActionSpec(
            "bet",
            "ante for the next round, with a pair plus bet if you like",
            (
                Field("ante", "int", "the ante", low=0, required=True),
                Field("pair_plus", "int", "0 or a pair plus bet", low=0),
            ),
        ),
        ActionSpec("pass", "sit this round out"),
        ActionSpec("play", "stake a play bet equal to the ante"),
        ActionSpec("fold", "give up the ante"),
    ),
    observation=(
        Field("phase", "str", "bet, or play (your cards are dealt)", ("bet", "play")),
        Field("round", "int", "the round's number at this table"),
        Field("seat", "int", "your seat"),
        Field("chips", "int", "your chips"),
        Field("min_bet", "int", "the smallest bet (bet phase)"),
        Field("max_bet", "int", "the largest bet (bet phase)"),
        Field("cards", "list[str]", "your three cards (play phase)"),
        Field("ante", "int", "your ante (play phase)"),
        Field("pair_plus", "int", "your pair plus bet (play phase)"),
    ),
    events={
        "bet": "a seat's ante and pair plus bet",
        "pass": "a seat sits the round out",
        "play": "a seat plays",
        "fold": "a seat folds",
        "dealer": "the dealer's cards and whether they qualify",
        "result": "a seat's cards and chips after settlement",
    },
    strategies=(
        GameStrategy("optimal", "ante the minimum; play exactly when the solver says so", _optimal),
        GameStrategy("always-play", "ante the minimum and always play", _always),
        GameStrategy(
            "pair-plus",
            "the optimal play, with a minimum pair plus bet when it can pay",
            _pair_plus,
        ),
    ),
    played_round=staked_on("bet"),  # a seat that passes sits the round out
    counters=COUNTERS,
    min_chips=_ante_and_play,
    web=WebFiles("croupier.plugins.three_card_poker"),
)

SOLVER = Solver(
    "three-card-poker",
    "the exact best play of every Three Card Poker hand and each bet's house edge",
    solve,
    problem_doc='{} or {"hand": "QS 6H 4D"}; optional "ante_bonus" (5-4-1, 5-3-1, none) and '
    '"pair_plus" (40-30-6-3-1, 40-30-6-4-1, 40-25-6-4-1)',
)


@hookimpl
def croupier_games() -> tuple[Game, ...]:
    return (THREE_CARD_POKER,)


@hookimpl
def croupier_solvers() -> tuple[Solver, ...]:
    return (SOLVER,)


@hookimpl
def croupier_command_lines() -> tuple[CommandLine, ...]:
    """The game's ``croupier solve`` front end."""
    return (COMMAND_LINE,)
