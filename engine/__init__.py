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
from croupier.engine.families import Family
from croupier.engine.games import (
    ActionSpec,
    Checkpoints,
    Field,
    Game,
    GameCore,
    GameStrategy,
    Turn,
    WebFiles,
    staked_on,
)
from croupier.engine.hookspecs import hookimpl, hookspec
from croupier.engine.ledger import Ledger, LedgerEntry
from croupier.engine.manager import PluginFailure, PluginInfo, PluginManager
from croupier.engine.randomizer_stats import RandomizerStats, collect_stats
from croupier.engine.randomizers import (
    Randomizer,
    RandomizerFactory,
    RandomizerKind,
    RandomizerLanguage,
)
from croupier.engine.registry import Registry
from croupier.engine.seeds import Stream, draw_seed
from croupier.engine.solvers import Problem, Solution, Solver

try:
    __version__ = metadata.version("croupier")
except metadata.PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = [
    "ActionSpec",
    "Checkpoints",
    "CountSystem",
    "CroupierError",
    "DuplicateNameError",
    "Family",
    "Field",
    "Game",
    "GameCore",
    "GameStrategy",
    "Ledger",
    "LedgerEntry",
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
    "Solution",
    "Solver",
    "SpecError",
    "Stream",
    "Turn",
    "UniformDraws",
    "UnknownNameError",
    "WebFiles",
    "__version__",
    "collect_stats",
    "draw_seed",
    "hookimpl",
    "hookspec",
    "staked_on",
    "true_count",
]
