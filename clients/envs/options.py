"""The options every croupier environment takes, checked once with one-line errors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from croupier.clients.envs.rewards import EXACT, REWARDS
from croupier.engine import CroupierError, PluginManager
from croupier.engine.games import Game, GameStrategy
from croupier.engine.oracle import OracleKind
from croupier.engine.scoring import oracle_for

_MANAGER: list[PluginManager] = []


def manager() -> PluginManager:
    """The installed plugins, loaded once per process (or those given to :func:`use`)."""
    if not _MANAGER:
        _MANAGER.append(PluginManager())
    return _MANAGER[0]


def use(plugins: PluginManager) -> None:
    """Make the environments of this process find their games in ``plugins``."""
    _MANAGER[:] = [plugins]


KNOWN = ("rules", "overrides", "others", "chips", "rounds", "bet_units", "reward")


@attrs.frozen
class EnvOptions:
    """A table for an environment: the game, its options, its seats and who plays them."""

    game: Game
    options: dict[str, Any]
    seats: int
    agents: tuple[int, ...]
    strategies: dict[int, GameStrategy]
    chips: tuple[int, ...]
    rounds: int
    bet_units: tuple[int, ...]
    reward: str
    oracle: OracleKind | None
    """The game's oracle, for the exact rewards (None: ``chips``)."""

    @classmethod
    def of(
        cls, game: str, options: Mapping[str, Any], extra: tuple[str, ...], **fixed: Any
    ) -> EnvOptions:
        """:meth:`read` for a user's options by name (``extra``: the env's own, ``fixed``:
        what the env sets itself): an unknown name is one line too."""
        unknown = sorted(set(options) - set(KNOWN))
        if unknown:
            known = ", ".join((*KNOWN, *extra))
            raise CroupierError(f"unknown env option(s) {', '.join(unknown)}; known: {known}")
        return cls.read(game, **options, **fixed)

    @classmethod
    def read(
        cls,
        game: str,
        *,
        rules: str | None = None,
        overrides: Mapping[str, Any] | None = None,
        agents: Sequence[int] = (1,),
        others: Sequence[str] = (),
        chips: int | None = None,
        rounds: int = 100,
        bet_units: Sequence[int] = (1,),
        reward: str = "chips",
    ) -> EnvOptions:
        """Check everything at once; :class:`CroupierError` (one line) for the first wrong."""
        found = manager().games.get(game)
        options = found.rules(found.default_rules(rules), overrides)
        if isinstance(others, str):
            raise CroupierError("others is a list of strategy names, one per other seat")
        seats = len(agents) + len(others)
        if not agents or sorted(set(agents)) != list(range(1, len(agents) + 1)):
            raise CroupierError("agents are the first seats, numbered from 1")
        if not 1 <= seats <= found.max_seats:
            raise CroupierError(f"a {found.name} table has 1 to {found.max_seats} seats")
        strategies = {
            len(agents) + i + 1: found.strategy(name).at(options) for i, name in enumerate(others)
        }
        for name, value in (("rounds", rounds), ("chips", chips)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise CroupierError(f"{name} is a whole number, not {value!r}")
        if rounds < 1:
            raise CroupierError(f"rounds is at least 1, not {rounds}")
        start = options["starting_chips"] if chips is None else chips
        if start < found.seat_minimum(options):
            raise CroupierError(f"chips {start} are fewer than a seat needs to play a round")
        units = tuple(bet_units)
        if not units or any(isinstance(u, bool) or not isinstance(u, int) or u < 1 for u in units):
            raise CroupierError(f"bet_units are whole numbers of at least 1, not {bet_units!r}")
        if reward not in REWARDS:
            raise CroupierError(f"unknown reward {reward!r}; known: {', '.join(REWARDS)}")
        oracle = None
        if reward in EXACT:
            try:
                oracle = oracle_for(manager(), found.name)
                oracle.new(options)  # rules the oracle cannot value: one line, now
            except CroupierError as exc:
                raise CroupierError(f"reward {reward!r} needs the game's oracle: {exc}") from None
        chips_each = (start,) * seats
        return cls(
            found,
            options,
            seats,
            tuple(agents),
            strategies,
            chips_each,
            rounds,
            units,
            reward,
            oracle,
        )
