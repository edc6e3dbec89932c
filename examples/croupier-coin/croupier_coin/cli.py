"""``--edge-odds N``: coin-toss's own option of ``croupier sim`` and ``tournament``, through
the ``croupier_command_lines`` hook (listed under "coin-toss options" in ``--help``; with
another ``--game`` it is one usage line)."""

from __future__ import annotations

import argparse
from typing import Any

from croupier.engine import CommandLine


def options(command: str, group: argparse._ArgumentGroup) -> None:
    """The same option for both commands (``command`` is "sim" or "tournament")."""
    group.add_argument(
        "--edge-odds",
        type=int,
        metavar="N",
        help="the coin lands on edge once in N tosses (odd; default: the rule set's)",
    )


def read(command: str, args: argparse.Namespace) -> dict[str, Any]:
    """The game options the command line set: merged into the rule set, under ``--set``."""
    return {} if args.edge_odds is None else {"edge_odds": args.edge_odds}


COMMAND_LINE = CommandLine("coin-toss", "--edge-odds for sim and tournament", options, read)
