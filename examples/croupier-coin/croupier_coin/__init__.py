"""A biased coin for croupier: ``coin`` is fair, ``coin 0.7`` lands heads 70% of the time.

It contributes one named randomizer and one tiny spec language, through croupier's hooks,
and a whole table game, ``coin-toss`` (toss.py), the smallest complete croupier game.
"""

from __future__ import annotations

import re

from croupier.engine import (
    CommandLine,
    Game,
    Randomizer,
    RandomizerFactory,
    RandomizerKind,
    RandomizerLanguage,
    SpecError,
    Stream,
    hookimpl,
)
from croupier_coin.cli import COMMAND_LINE
from croupier_coin.toss import COIN_TOSS

_SPEC = re.compile(r"coin\s+(\S+)\Z")


class Coin:
    """Deals ``H`` with probability ``p`` and ``T`` otherwise, from 53-bit uniform floats."""

    symbols = ("H", "T")

    def __init__(self, stream: Stream, p: float) -> None:
        self._stream = stream
        self._p = p

    def deal(self, n: int) -> list[str]:
        random, p = self._stream.random, self._p
        return ["H" if random() < p else "T" for _ in range(n)]


def coin(p: float) -> RandomizerFactory:
    def factory(stream: Stream) -> Randomizer:
        return Coin(stream, p)

    return factory


def parse(text: str) -> RandomizerFactory | None:
    match = _SPEC.match(text)
    if match is None:
        return None  # not ours: let the next language try
    try:
        p = float(match.group(1))
    except ValueError:
        raise SpecError("the bias is a number", text, match.start(1)) from None
    if not 0.0 <= p <= 1.0:
        raise SpecError("the bias must be between 0 and 1", text, match.start(1))
    return coin(p)


@hookimpl
def croupier_randomizers() -> list[RandomizerKind]:
    return [RandomizerKind("coin", "a fair coin: H or T", coin(0.5), spec="coin 0.5")]


@hookimpl
def croupier_randomizer_languages() -> list[RandomizerLanguage]:
    return [RandomizerLanguage("coin", "'coin P': heads with probability P", parse)]


@hookimpl
def croupier_games() -> list[Game]:
    """A whole game: see toss.py and docs/games.md."""
    return [COIN_TOSS]


@hookimpl
def croupier_command_lines() -> list[CommandLine]:
    """coin-toss's own options of ``croupier sim`` and ``tournament`` (cli.py)."""
    return [COMMAND_LINE]
