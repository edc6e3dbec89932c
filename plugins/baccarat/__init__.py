"""Baccarat (punto banco) as a croupier game: the table, its rule sets and strategies,
and an exact solver of each bet's odds for any shoe (``solve baccarat``)."""

from __future__ import annotations

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
    hookimpl,
    staked_on,
)
from croupier.plugins.baccarat.cli import COMMAND_LINE
from croupier.plugins.baccarat.core import COUNTERS, SPOTS, BaccaratCore, check_options
from croupier.plugins.baccarat.oracle import croupier_oracles as croupier_oracles
from croupier.plugins.baccarat.solver import solve

OPTIONS = (
    Field("decks", "int", "decks in the shoe (1 to 16)"),
    Field("penetration", "float", "fraction of the shoe dealt before the cut card"),
    Field(
        "commission", "str", "banker wins pay 19:20 (5%) or 1:1 except 1:2 on a 6", ("5%", "none")
    ),
    Field("tie_pays", "int", "a tie bet pays this many to one", low=1),
    Field("min_bet", "int", "the smallest stake on a spot", low=1),
    Field("max_bet", "int", "the largest stake on a spot", low=1),
    Field("starting_chips", "int", "each seat's chips when a table opens", low=1),
)
DEFAULTS: Plain = {
    "decks": 8,
    "penetration": 0.9,
    "commission": "5%",
    "tie_pays": 8,
    "min_bet": 20,
    "max_bet": 2000,
    "starting_chips": 2000,
}
RULE_SETS: dict[str, Plain] = {
    "punto-banco": {},
    "no-commission": {"commission": "none"},
    "six-deck": {"decks": 6},
}


def _flat(spot: str) -> GameStrategy:
    def play(observation: Plain) -> Plain:
        return {"kind": "bet", spot: observation["min_bet"]}

    return GameStrategy(spot, f"the minimum on {spot} every coup", play)


BACCARAT = Game(
    name="baccarat",
    summary="punto banco: bet on the player, the banker or a tie; the tableau draws",
    options=OPTIONS,
    defaults=DEFAULTS,
    rule_sets=RULE_SETS,
    check_options=check_options,
    new_core=BaccaratCore,
    checkpoints=Checkpoints(BaccaratCore.save, BaccaratCore.restore),
    actions=(
        ActionSpec(
            "bet",
            "stake one or more spots for the next coup",
            tuple(
                Field(spot, "int", f"chips on {spot} (0 or absent: none)", low=0, high="max_bet")
                for spot in SPOTS
            ),
        ),
        ActionSpec("pass", "sit this coup out"),
    ),
    observation=(
        Field("phase", "str", "always bet: the only decision", ("bet",)),
        Field("round", "int", "the coup's number at this table"),
        Field("seat", "int", "your seat"),
        Field("chips", "int", "your chips"),
        Field("min_bet", "int", "the smallest stake on a spot"),
        Field("max_bet", "int", "the largest stake on a spot"),
        Field("spots", "list[str]", "the spots you may stake"),
        Field("seen", "list[int]", "cards dealt since the shuffle, by value 0-9"),
        Field("cards_left", "int", "cards left before the shoe runs out"),
    ),
    events={
        "shuffle": "the shoe was shuffled",
        "bet": "a seat's stakes (bets: spot -> chips)",
        "pass": "a seat sits the coup out",
        "coup": "the cards (player, banker), the totals and the winner",
        "chips": "a seat's chips after settlement",
    },
    strategies=tuple(_flat(spot) for spot in SPOTS),
    played_round=staked_on("bet"),  # a seat that passes sits the round out
    counters=COUNTERS,
    web=WebFiles("croupier.plugins.baccarat"),
)

SOLVER = Solver(
    "baccarat",
    "exact odds and house edge of each baccarat bet for a full or partly dealt shoe",
    solve,
    problem_doc='{"decks": 8} or {"counts": [c0, ..., c9]} (cards left by value 0-9), '
    'optional "tie_pays" (default 8)',
)


@hookimpl
def croupier_games() -> tuple[Game, ...]:
    return (BACCARAT,)


@hookimpl
def croupier_solvers() -> tuple[Solver, ...]:
    return (SOLVER,)


@hookimpl
def croupier_command_lines() -> tuple[CommandLine, ...]:
    """The game's ``croupier solve`` front end."""
    return (COMMAND_LINE,)
