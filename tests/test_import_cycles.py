"""No import circles: every module of croupier can be understood (and imported) after the
modules it imports; protocol's transport imports no service, and no service another.

Imports inside functions count as much as those at the top of a module (a function-level
import is how a circle is usually hidden); imports under ``if TYPE_CHECKING:`` do not (they
name types for the checker and never run). The transport (the server, its sessions and
codec, admission and budgets) is everything ``croupier.protocol.transport.server`` imports, however
indirectly: it must reach no service, so that the services plug into it and not the
reverse (issue 29). A service is a module or a package of protocol (the tables service is
``croupier.protocol.tables`` and every module in it, its recovery included); a service's
modules import no other service's, not even for a type, and no two packages import each
other through different modules (a circle of packages that no circle of modules shows).
:class:`croupier.protocol.Server` (``croupier.protocol.services``) is where they all meet.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sources import source_files

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "plugins", "protocol", "clients")
SERVICES = (
    "croupier.protocol.handshake",
    "croupier.protocol.discovery",
    "croupier.protocol.randomizers",
    "croupier.protocol.solving",
    "croupier.protocol.history",
    "croupier.protocol.keyservice",
    "croupier.protocol.leaderboard",
    "croupier.protocol.tables",
    "croupier.protocol.tournaments",
)
"""The method groups (a module, or a package with every module in it); the transport may
import none of them, nor may one import another."""

COMPOSITION_ROOT = "croupier.protocol.services"
"""Where the transport and the services are put together: it alone imports them all."""
TRANSPORT = "croupier.protocol.transport"
"""The transport's package: the codec, sessions, the server, admission, limits, the client."""
JOURNAL = "croupier.protocol.journal"
"""The journal: the server's answers wait for its commits, so the transport may import it."""
FOUNDATION = (
    "croupier.protocol.errors",
    "croupier.protocol.keys",
    "croupier.protocol.budgets",
    "croupier.protocol.botkeys",
    "croupier.protocol.commitment",
)
"""What both the transport and the journal use (the wire's error codes, secrets, rate budgets,
bot identities, seed commitments): below both, importing neither."""


def modules() -> dict[str, Path]:
    found = {}
    for folder in FOLDERS:
        for path in source_files(ROOT / folder):
            parts = ("croupier", folder, *path.relative_to(ROOT / folder).with_suffix("").parts)
            name = ".".join(parts).removesuffix(".__init__")
            found[name] = path
    return found


MODULES = modules()


def _imports(node: ast.AST, type_only: bool) -> Iterator[tuple[ast.AST, bool]]:
    for child in ast.iter_child_nodes(node):
        inner = type_only or (
            isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
        )
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, type_only
        yield from _imports(child, inner)


def imported(name: str, types: bool = False) -> set[str]:
    """The croupier modules ``name`` imports when it runs (at its top or in a function),
    and with ``types`` those it imports for the type checker too."""
    tree = ast.parse(MODULES[name].read_text())
    found: set[str] = set()
    for node, type_only in _imports(tree, False):
        if type_only and not types:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in MODULES}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                if whole in MODULES:
                    found.add(whole)
                elif node.module in MODULES:
                    found.add(node.module)
    return found - {name}


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """Each module's run-time imports (built when a test asks: parsing every module takes
    seconds, which collecting the suite on each worker would pay)."""
    return {name: imported(name) for name in MODULES}


@pytest.fixture(scope="module")
def typed_graph() -> dict[str, set[str]]:
    """Each module's imports, those for the type checker included."""
    return {name: imported(name, types=True) for name in MODULES}


def service_of(name: str) -> str | None:
    """The service module ``name`` belongs to (None: it is no service's)."""
    for service in SERVICES:
        if name == service or name.startswith(service + "."):
            return service
    return None


def package_of(name: str) -> str:
    """The package of protocol ``name`` is in, below ``croupier.protocol`` (a top-level
    module of protocol is a unit of its own)."""
    parts = name.split(".")
    return ".".join(parts[:3]) if parts[:2] == ["croupier", "protocol"] else name


def collapsed(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """``graph`` with each package of protocol drawn as one node."""
    out: dict[str, set[str]] = {}
    for name, targets in graph.items():
        here = package_of(name)
        out.setdefault(here, set()).update(package_of(t) for t in targets)
        out[here].discard(here)
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_circles_are_found():
    """The finder itself: a circle through a function-level import is one; a type-only
    import is not."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import x\n"
        "def f():\n    import y\n"
    )
    kinds = {node.names[0].name: type_only for node, type_only in _imports(tree, False)}
    assert kinds == {"TYPE_CHECKING": False, "x": True, "y": False}


def test_package_circles_are_found():
    """Two packages importing each other through different modules: no circle of modules,
    one of packages."""
    graph = {
        "croupier.protocol.tables.service": {"croupier.protocol.tournaments.run"},
        "croupier.protocol.tournaments.service": {"croupier.protocol.tables.run"},
        "croupier.protocol.tables.run": set(),
        "croupier.protocol.tournaments.run": set(),
    }
    assert circles(graph) == []
    assert circles(collapsed(graph)) == [
        ["croupier.protocol.tables", "croupier.protocol.tournaments"]
    ]


def test_no_module_imports_itself_through_others(graph):
    assert circles(graph) == []


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_transport_imports_no_service(graph):
    transport: set[str] = set()
    todo = ["croupier.protocol.transport.server"]
    while todo:
        name = todo.pop()
        if name not in transport:
            transport.add(name)
            todo += graph[name]
    assert "croupier.protocol.transport.session" in transport  # the closure is the transport's
    assert sorted(name for name in transport if service_of(name) or name == COMPOSITION_ROOT) == []


def test_every_service_is_there(typed_graph):
    """A service renamed or moved is renamed here too (else the tests below check nothing)."""
    assert sorted(s for s in SERVICES if s not in MODULES) == []
    assert {service_of(name) for name in typed_graph[COMPOSITION_ROOT]} >= set(SERVICES)


def test_no_service_imports_another(typed_graph):
    """Each service's modules (its recovery included) import no other service's module and
    not the composition root, not even for a type."""
    crossing = sorted(
        f"{name} -> {target}"
        for name, targets in typed_graph.items()
        if service_of(name) is not None
        for target in targets
        if service_of(target) not in (None, service_of(name)) or target == COMPOSITION_ROOT
    )
    assert crossing == []


def test_no_package_of_protocol_imports_itself_through_others(graph):
    assert circles(collapsed(graph)) == []


def test_the_transport_is_its_package(typed_graph):
    """The server's modules, and all they import of protocol (for the type checker too), are
    the transport package's, the journal's or the foundation's; the foundation imports only
    itself. A module moved back out of ``protocol/transport/``, or a service module the
    transport imports, fails here."""
    reached: set[str] = set()
    todo = [f"{TRANSPORT}.server", *(n for n in MODULES if within(n, TRANSPORT))]
    while todo:
        name = todo.pop()
        if name in reached or within(name, JOURNAL) or name in FOUNDATION:
            continue
        reached.add(name)
        todo += typed_graph[name]
    stray = sorted(
        n for n in reached if within(n, "croupier.protocol") and not within(n, TRANSPORT)
    )
    assert stray == []
    assert {f"{TRANSPORT}.{m}" for m in ("codec", "session", "server", "client")} <= reached
    for name in FOUNDATION:
        assert {n for n in typed_graph[name] if within(n, "croupier.protocol")} <= set(
            FOUNDATION
        ), name


def test_the_transport_holds_only_the_transport(graph):
    """Every module of ``protocol/transport/`` is one the server or the client runs on: a
    service module (or any other) put into the package, which the server never reaches
    since it imports no service, fails here."""
    reached: set[str] = set()
    todo = [f"{TRANSPORT}.server", f"{TRANSPORT}.client"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += graph[name]
    package = {n for n in MODULES if within(n, TRANSPORT)} - {TRANSPORT}
    assert sorted(package - reached) == []
