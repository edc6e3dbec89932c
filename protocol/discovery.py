"""Discovery: what the server can do (its plugins, rule sets, randomizers, solvers and
games, each game with the schema of its actions, observations and events)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from croupier.protocol.transport.methods import Method, Service
from croupier.protocol.transport.server import Connection


class DiscoveryService(Service):
    """What the server can do: plugins, rule sets, randomizers, solvers, games."""

    def methods(self) -> Iterable[Method]:
        return [
            Method(
                "plugins",
                (),
                self.plugins,
                "every plugin and what it contributes",
                returns="{plugins, skipped, errors}",
                quick=True,
                watcher=True,
            ),
            Method(
                "rule_sets",
                (),
                self.rule_sets,
                "the named rule sets",
                returns="[{name, summary, plugin, rules}]",
                quick=True,
                watcher=True,
            ),
            Method(
                "randomizers",
                (),
                self.randomizers,
                "the named randomizers and the spec languages",
                returns="{randomizers: [{name, summary, plugin, spec}], languages: [...]}",
                quick=True,
                watcher=True,
            ),
            Method(
                "solvers",
                (),
                self.solvers,
                "the solvers",
                returns="[{name, summary, plugin, problem}]",
                quick=True,
                watcher=True,
            ),
            Method(
                "games",
                (),
                self.games,
                "the games plugins contribute, each with the schema of its actions, "
                "observations and events",
                returns="[{name, summary, plugin, options, defaults, rule_sets, actions, "
                "observation, events, strategies, max_seats}]",
                quick=True,
                watcher=True,
            ),
        ]

    async def plugins(self, conn: Connection) -> dict[str, Any]:
        return conn.server.manager.describe()

    async def rule_sets(self, conn: Connection) -> list[dict[str, Any]]:
        return [
            {
                "name": e.name,
                "summary": e.item.summary,
                "plugin": e.plugin,
                "rules": e.item.rules.to_dict(),
            }
            for e in conn.server.manager.rule_sets.entries()
        ]

    async def randomizers(self, conn: Connection) -> dict[str, Any]:
        manager = conn.server.manager
        return {
            "randomizers": [
                {"name": e.name, "summary": e.item.summary, "plugin": e.plugin, "spec": e.item.spec}
                for e in manager.randomizers.entries()
            ],
            "languages": [
                {"name": lang.name, "summary": lang.summary, "plugin": plugin}
                for plugin, lang in manager.randomizer_languages
            ],
        }

    async def games(self, conn: Connection) -> list[dict[str, Any]]:
        return [
            {**e.item.schema(), "plugin": e.plugin} for e in conn.server.manager.games.entries()
        ]

    async def solvers(self, conn: Connection) -> list[dict[str, Any]]:
        return [
            {
                "name": e.name,
                "summary": e.item.summary,
                "plugin": e.plugin,
                "problem": e.item.problem_doc,
            }
            for e in conn.server.manager.solvers.entries()
        ]
