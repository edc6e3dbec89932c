"""croupier's engine: the rules of play, the plugin system and all randomness.

The public API a plugin author or an embedding program needs is re-exported here, so one
import does: ``from croupier.engine import hookimpl, RandomizerKind, Stream``.
"""

from importlib import metadata

from croupier.engine.counts import CountSystem, true_count
from croupier.engine.draws import UniformDraws
from croupier.engine.errors import (
    CroupierError,
    DuplicateNameError,
    PluginError,
    SpecError,
    UnknownNameError,
)
from croupier.engine.games import ActionSpec, Field, Game, GameCore, GameStrategy, Turn
from croupier.engine.hookspecs import hookimpl
from croupier.engine.indices import IndexEntry, IndexSet
from croupier.engine.ledger import Ledger, LedgerEntry
from croupier.engine.manager import PluginFailure, PluginInfo, PluginManager
from croupier.engine.play import Action, Event, Observation
from croupier.engine.players import HandView, Player, Strategy, StrategyPlayer
from croupier.engine.randomizer_stats import RandomizerStats, collect_stats
from croupier.engine.randomizers import (
    Randomizer,
    RandomizerFactory,
    RandomizerKind,
    RandomizerLanguage,
)
from croupier.engine.registry import Registry
from croupier.engine.rules import BlackjackRules, RuleSet
from croupier.engine.seeds import Stream, draw_seed
from croupier.engine.solvers import Problem, Solution, Solver
from croupier.engine.table import Table
from croupier.engine.tablerules import BettingScheme, DealerRule

try:
    __version__ = metadata.version("croupier")
except metadata.PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = [
    "Action",
    "ActionSpec",
    "BettingScheme",
    "BlackjackRules",
    "CountSystem",
    "CroupierError",
    "DealerRule",
    "DuplicateNameError",
    "Event",
    "Field",
    "Game",
    "GameCore",
    "GameStrategy",
    "HandView",
    "IndexEntry",
    "IndexSet",
    "Ledger",
    "LedgerEntry",
    "Observation",
    "Player",
    "PluginError",
    "PluginFailure",
    "PluginInfo",
    "PluginManager",
    "Problem",
    "Randomizer",
    "RandomizerFactory",
    "RandomizerKind",
    "RandomizerLanguage",
    "RandomizerStats",
    "Registry",
    "RuleSet",
    "Solution",
    "Solver",
    "SpecError",
    "Strategy",
    "StrategyPlayer",
    "Stream",
    "Table",
    "Turn",
    "UniformDraws",
    "UnknownNameError",
    "__version__",
    "collect_stats",
    "draw_seed",
    "hookimpl",
    "true_count",
]
