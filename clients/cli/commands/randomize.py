"""``croupier randomize``: deal pieces from a named randomizer or a spec."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from croupier.clients.cli.common import (
    add_json_argument,
    add_seed_argument,
    get_manager,
    positive_int,
    resolve_seed,
)
from croupier.engine import PluginManager, RandomizerFactory, Stream

BATCH = 100_000


def add_spec_arguments(parser: argparse.ArgumentParser, default_n: int) -> None:
    parser.add_argument(
        "spec",
        metavar="SPEC",
        help="a randomizer's name (see 'croupier plugins') or spec text such as "
        "'bag of I,J,L,O,S,T,Z'; quote text with spaces",
    )
    parser.add_argument(
        "-n",
        type=positive_int,
        default=default_n,
        help=f"how many pieces to deal (default {default_n:,})",
    )
    add_seed_argument(parser)
    add_json_argument(parser)


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "randomize",
        help="deal pieces from a randomizer or a Blackjack-language spec",
        description=(
            "Deal N pieces from a named randomizer (7-bag, tgm3, ...) or from spec text in a "
            "randomizer language ('7 bag of I,J,L,O,S,T,Z'). The randomizer draws from "
            "Stream(SEED), so the same seed always deals the same pieces."
        ),
    )
    add_spec_arguments(parser, default_n=70)
    parser.set_defaults(func=run)


def resolve_factory(manager: PluginManager, spec: str) -> RandomizerFactory:
    """The factory for SPEC (an unknown one-word name is refused with the closest names;
    spec text with a mistake is refused with the column)."""
    return manager.randomizer_factory(spec)


def run(args: argparse.Namespace) -> int:
    factory = resolve_factory(get_manager(), args.spec)
    seed = resolve_seed(args)
    randomizer = factory(Stream(seed))
    out = sys.stdout
    if args.json:
        out.write(json.dumps({"spec": args.spec, "seed": seed, "n": args.n})[:-1])
        out.write(', "pieces": [')
    done = 0
    while done < args.n:
        pieces = randomizer.deal(min(BATCH, args.n - done))
        if args.json:
            out.write((", " if done else "") + ", ".join(json.dumps(p) for p in pieces))
        else:
            out.write((" " if done else "") + " ".join(pieces))
        done += len(pieces)
    out.write("]}\n" if args.json else "\n")
    return 0
