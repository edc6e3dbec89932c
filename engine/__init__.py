"""croupier's engine: the rules of play, the plugin system and all randomness.

This package is the engine's public surface: everything a game, a plugin or an embedding
program needs is exported here, so one import does:
``from croupier.engine import Game, Plain, Turn, hookimpl, Stream``. The submodules are the
engine's implementation; plugins import none of them (tests/test_layering.py checks), so
they may move without breaking a game. tests/test_exports.py checks that every name in
``__all__`` exists and is documented.

Importing it stays cheap: numba loads only in a kernel's own module, when it runs, and the
names whose modules need numpy, trio or multiprocessing (shoes, the table driver, the plugin
check, the process pool) load on first use
(``__getattr__``, PEP 562), so a command that never deals a shoe or seats a table does not
pay for them.
"""

from typing import TYPE_CHECKING, Any

from croupier.engine.batch_means import BatchSums, naive_variance
from croupier.engine.cards import CODES, HIDDEN, RANKS, SUITS, VALUES, card, cards
from croupier.engine.cards import name as card_name
from croupier.engine.commandline import CommandKit, CommandLine, SolveReusing
from croupier.engine.confidence import wilson_interval
from croupier.engine.counts import DECK as DECK_SIZE
from croupier.engine.counts import ROUNDINGS, CountSystem, true_count
from croupier.engine.errors import (
    CroupierError,
    DuplicateNameError,
    PluginError,
    ShoeRanOut,
    SpecError,
    UnknownNameError,
    kind_of,
    one_line,
    shown,
)
from croupier.engine.families import Family
from croupier.engine.gamelog import read_json_log
from croupier.engine.games import (
    ActionSpec,
    Checkpoints,
    Emit,
    Field,
    Game,
    GameCore,
    GameStrategy,
    Plain,
    Turn,
    WebFiles,
    staked_on,
)
from croupier.engine.hookspecs import hookimpl, hookspec
from croupier.engine.kernels import KernelJob
from croupier.engine.ledger import Ledger, LedgerEntry, seat_account
from croupier.engine.legacylogs import LegacyLogs, LegacyTable
from croupier.engine.logreplay import DRIVER_EVENTS
from croupier.engine.manager import PluginFailure, PluginInfo, PluginManager
from croupier.engine.oracle import OracleKind, Question, TableOracle, Valuation, phase_of
from croupier.engine.printing import Printer, ReportTable, Styled
from croupier.engine.randomizer_stats import RandomizerStats, collect_stats
from croupier.engine.randomizers import (
    Randomizer,
    RandomizerFactory,
    RandomizerKind,
    RandomizerLanguage,
)
from croupier.engine.registry import Registry
from croupier.engine.scoring import DecisionScore, Scorecard
from croupier.engine.seeds import Stream, draw_seed
from croupier.engine.solvecache import package_of, reuse, source_digest
from croupier.engine.solvers import Problem, Solution, Solver
from croupier.engine.version import __version__
from croupier.engine.wirecompat import WireCompat

if TYPE_CHECKING:
    from croupier.engine.chunks import chunk_count, run_chunks
    from croupier.engine.decisions import ATTEMPTS, DECISION_TIME
    from croupier.engine.draws import UniformDraws
    from croupier.engine.executor import Executor, default_workers, open_executor
    from croupier.engine.gametable import GamePlayer, GameStrategyPlayer, GameTable
    from croupier.engine.loops import COMPILED_FROM, Indices, compiled, run_loop, symbols_of
    from croupier.engine.plugincheck import check_plugins
    from croupier.engine.shoes import Shoe, ShoeRandomizer

_CHUNKS = ("chunk_count", "run_chunks")
_COMPILED = ("COMPILED_FROM", "Indices", "compiled", "run_loop", "symbols_of")
_DRAWS = ("UniformDraws",)
_DECISIONS = ("ATTEMPTS", "DECISION_TIME")
_EXECUTOR = ("Executor", "default_workers", "open_executor")
_GAMETABLE = ("GamePlayer", "GameStrategyPlayer", "GameTable")
_SHOES = ("Shoe", "ShoeRandomizer")
_PLUGINCHECK = ("check_plugins",)


def __getattr__(name: str) -> Any:
    """The exports whose modules import numpy, trio or multiprocessing, on first use."""
    if name in _CHUNKS:
        from croupier.engine import chunks

        value = getattr(chunks, name)
    elif name in _COMPILED:
        from croupier.engine import loops

        value = getattr(loops, name)
    elif name in _DRAWS:
        from croupier.engine import draws

        value = getattr(draws, name)
    elif name in _DECISIONS:
        from croupier.engine import decisions

        value = getattr(decisions, name)
    elif name in _EXECUTOR:
        from croupier.engine import executor

        value = getattr(executor, name)
    elif name in _GAMETABLE:
        from croupier.engine import gametable

        value = getattr(gametable, name)
    elif name in _SHOES:
        from croupier.engine import shoes

        value = getattr(shoes, name)
    elif name in _PLUGINCHECK:
        from croupier.engine import plugincheck

        value = getattr(plugincheck, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "ATTEMPTS",
    "CODES",
    "COMPILED_FROM",
    "DECISION_TIME",
    "DECK_SIZE",
    "DRIVER_EVENTS",
    "HIDDEN",
    "RANKS",
    "ROUNDINGS",
    "SUITS",
    "VALUES",
    "ActionSpec",
    "BatchSums",
    "Checkpoints",
    "CommandKit",
    "CommandLine",
    "CountSystem",
    "CroupierError",
    "DecisionScore",
    "DuplicateNameError",
    "Emit",
    "Executor",
    "Family",
    "Field",
    "Game",
    "GameCore",
    "GamePlayer",
    "GameStrategy",
    "GameStrategyPlayer",
    "GameTable",
    "Indices",
    "KernelJob",
    "Ledger",
    "LedgerEntry",
    "LegacyLogs",
    "LegacyTable",
    "OracleKind",
    "Plain",
    "PluginError",
    "PluginFailure",
    "PluginInfo",
    "PluginManager",
    "Printer",
    "Problem",
    "Question",
    "Randomizer",
    "RandomizerFactory",
    "RandomizerKind",
    "RandomizerLanguage",
    "RandomizerStats",
    "Registry",
    "ReportTable",
    "Scorecard",
    "Shoe",
    "ShoeRanOut",
    "ShoeRandomizer",
    "Solution",
    "SolveReusing",
    "Solver",
    "SpecError",
    "Stream",
    "Styled",
    "TableOracle",
    "Turn",
    "UniformDraws",
    "UnknownNameError",
    "Valuation",
    "WebFiles",
    "WireCompat",
    "__version__",
    "card",
    "card_name",
    "cards",
    "check_plugins",
    "chunk_count",
    "collect_stats",
    "compiled",
    "default_workers",
    "draw_seed",
    "hookimpl",
    "hookspec",
    "kind_of",
    "naive_variance",
    "one_line",
    "open_executor",
    "package_of",
    "phase_of",
    "read_json_log",
    "reuse",
    "run_chunks",
    "run_loop",
    "seat_account",
    "shown",
    "source_digest",
    "staked_on",
    "symbols_of",
    "true_count",
    "wilson_interval",
]
