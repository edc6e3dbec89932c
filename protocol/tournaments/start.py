"""``tournament.start``: its parameters checked (quotas, entrants, the game and its rules,
times, format, size, who may give a seed) and the tournament they make, recorded in the
journal and set going: it waits for its ``tcp`` bots, then plays."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from croupier.engine import CroupierError
from croupier.engine.games import Game
from croupier.engine.scoring import check_score_bets, oracle_for
from croupier.engine.tournament import FORMATS, TABLE_SIZE, TournamentConfig
from croupier.protocol.errors import Code, RpcError
from croupier.protocol.keys import new_secret
from croupier.protocol.ownership import Ownership, check_peer_quota, check_quota, is_operator
from croupier.protocol.prepare import prepare_strategies
from croupier.protocol.tournaments.run import TCP, ServerTournament
from croupier.protocol.transport.admission import peer_host
from croupier.protocol.transport.server import Connection, RpcServer
from croupier.protocol.workers import game_plugin_bug

if TYPE_CHECKING:
    from croupier.protocol.tournaments.service import TournamentService

log = logging.getLogger("croupier.tournaments")

MAX_ENTRIES = 64
MAX_OPEN = 4
"""Tournaments waiting or playing at once, server-wide."""
PER_PEER = MAX_OPEN // 2
"""Open tournaments the connections of one peer address may have started together: one
client opening connection after connection cannot take every tournament slot."""
KEEP_FINISHED = 16
"""Finished tournaments kept for ``tournament.info`` and ``tournament.list``."""
MAX_HANDS = 2_000_000
"""The most hands a tournament may ask for (tourneys x rounds x hands x entries)."""


def _game_config(
    game: Game,
    rule_set: str | None,
    options: dict[str, Any],
    seed: int,
    settings: dict[str, Any],
    server: RpcServer,
) -> TournamentConfig:
    if rule_set is not None and rule_set not in game.rule_sets:
        known = ", ".join(game.rule_sets)
        raise RpcError(
            Code.UNKNOWN_NAME, f"{game.name} has no rule set {rule_set!r}; known: {known}"
        )
    try:
        chosen = game.rules(rule_set, options)
        config = TournamentConfig.of(game, chosen, seed, **settings)
    except CroupierError:
        raise
    except Exception as exc:
        raise RpcError(Code.INTERNAL_ERROR, game_plugin_bug(server.manager, game, exc)) from None
    return config


async def start_tournament(
    service: TournamentService,
    conn: Connection,
    bots: list[Any],
    seed: int | None,
    tourneys: int,
    rounds: int,
    hands: int,
    decision_time: float,
    max_faults: int,
    join_time: float,
    rules: str | None,
    options: dict[str, Any],
    open: bool,
    game: str | None,
    operator_key: str | None,
    format: str,
    scored: bool = False,
    score_bets: bool = False,
) -> dict[str, Any]:
    """``tournament.start`` for ``conn``: the tournament's info, its key and join key."""
    server = conn.server
    if server.stopping:
        raise RpcError(Code.SHUTTING_DOWN, "the server is shutting down")
    server.journal.check()
    owned = sum(
        t.state != "finished" and t.owner.conn_id == conn.id for t in service.tournaments.values()
    )
    check_quota(owned, server.limits.tournaments_per_connection, "tournaments")
    if sum(t.state != "finished" for t in service.tournaments.values()) >= MAX_OPEN:
        raise RpcError(Code.LIMIT_EXCEEDED, f"at most {MAX_OPEN} open tournaments")
    host = peer_host(conn.peer)
    check_peer_quota(service.tournaments.values(), host, PER_PEER, MAX_OPEN, "tournaments")
    if not 1 <= len(bots) <= MAX_ENTRIES:
        raise RpcError(Code.BAD_INPUT, f"a tournament has 1 to {MAX_ENTRIES} bots")
    if any(not isinstance(bot, str) for bot in bots):
        raise RpcError(Code.BAD_INPUT, "bots holds strategy names or 'tcp'")
    played = server.game(game)  # unknown: unknown-name
    names = [bot for bot in bots if bot != TCP]
    for name in names:
        played.strategy(name)  # unknown: one line naming the known ones, before a seed
    limit = server.limits.decision_timeout
    if not 0 < decision_time <= limit:
        raise RpcError(Code.BAD_INPUT, f"decision_time must be in (0, {limit:g}] seconds")
    if not 0 < join_time <= 3600:
        raise RpcError(Code.BAD_INPUT, "join_time must be in (0, 3600] seconds")
    if format not in FORMATS:
        raise RpcError(Code.BAD_INPUT, f"format is {' or '.join(FORMATS)}, not {format!r}")
    if scored:
        oracle_for(server.manager, played.name)  # none: one line (bad-input)
    if score_bets:  # as table.create and the CLI's --score-bets have it
        if not scored:
            raise RpcError(Code.BAD_INPUT, "score_bets goes with scored: true")
        check_score_bets(server.manager, played.name)  # no dear bets: one line
    # a duplicate tourney plays each deal once per rotation of its seats
    rotations = min(len(bots), TABLE_SIZE) if format == "duplicate" else 1
    if tourneys * rotations * rounds * hands * len(bots) > MAX_HANDS:
        raise RpcError(Code.LIMIT_EXCEEDED, f"at most {MAX_HANDS} hands in a tournament")
    if seed is not None and not 0 <= seed <= 2**64 - 1:
        raise RpcError(Code.BAD_INPUT, f"a seed is 0 to 2**64-1, not {seed}")
    if seed is not None and TCP in bots and not is_operator(conn, operator_key):
        # whoever knows the seed knows every card: not a creator's to give other bots
        raise RpcError(
            Code.NOT_ALLOWED,
            "a tournament with tcp seats draws its own seed: a seed given needs the "
            "operator key (operator_key)",
        )
    if seed is None:
        seed = server.derive_seed("tournament")
    settings = {
        "tourneys": tourneys,
        "rounds": rounds,
        "hands": hands,
        "decision_time": decision_time,
        "max_faults": max_faults,
        "format": format,
        **({"scored": True} if scored else {}),
        **({"score_bets": True} if score_bets else {}),
    }
    rules = played.default_rules(rules, tournament=True)
    config = _game_config(played, rules, options, seed, settings, server)
    # strategies that depend on the options (basic) are made ready off the event loop
    strategies = await prepare_strategies(conn, played, names, config.options)
    found_t = ServerTournament(
        server,
        server.next_game_id(),
        config,
        rules,
        list(bots),
        strategies,
        join_time,
        Ownership(conn.id, host=host),
        None if open or TCP not in bots else new_secret(12),
    )
    finished = [i for i, t in service.tournaments.items() if t.state == "finished"]
    for old in finished[: max(0, len(finished) - KEEP_FINISHED)]:
        del service.tournaments[old]
    service.tournaments[found_t.id] = found_t
    server.journal.tournament_created(
        found_t.info(),
        list(bots),
        f"{conn.client} (#{conn.id})",
        found_t.owner.key,
        found_t.join_key,
        found_t.commitment,
    )
    found_t.subscribe(conn)
    log.info("tournament %d created by %s (%d bots)", found_t.id, conn, len(bots))
    server.spawn(lambda: found_t.run(server.manager), f"tournament {found_t.id}")
    return {**found_t.info(), "key": found_t.owner.key, "join_key": found_t.join_key}
