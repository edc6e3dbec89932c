"""No import circles: every module of croupier can be understood (and imported) after the
modules it imports, and protocol's transport imports no service.

Imports inside functions count as much as those at the top of a module (a function-level
import is how a circle is usually hidden); imports under ``if TYPE_CHECKING:`` do not (they
name types for the checker and never run). The transport (the server, its sessions and
codec, admission and budgets) is everything ``croupier.protocol.server`` imports, however
indirectly: it must reach no service, so that the services plug into it and not the
reverse (issue 29); :class:`croupier.protocol.Server` is where the two meet.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "plugins", "protocol", "clients")
SERVICES = {
    "croupier.protocol.services",
    "croupier.protocol.tables",
    "croupier.protocol.tablerun",
    "croupier.protocol.tablerecovery",
    "croupier.protocol.tournaments",
    "croupier.protocol.tournamentrun",
    "croupier.protocol.tournamentrecovery",
    "croupier.protocol.history",
    "croupier.protocol.solving",
}
"""The method groups; the transport may import none of them."""


def modules() -> dict[str, Path]:
    found = {}
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
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


def imported(name: str) -> set[str]:
    """The croupier modules ``name`` imports when it runs (at its top or in a function)."""
    tree = ast.parse(MODULES[name].read_text())
    found: set[str] = set()
    for node, type_only in _imports(tree, False):
        if type_only:
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


GRAPH = {name: imported(name) for name in MODULES}


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


def test_no_module_imports_itself_through_others():
    assert circles(GRAPH) == []


def test_the_transport_imports_no_service():
    transport: set[str] = set()
    todo = ["croupier.protocol.server"]
    while todo:
        name = todo.pop()
        if name not in transport:
            transport.add(name)
            todo += GRAPH[name]
    assert "croupier.protocol.session" in transport  # the closure is the transport's
    assert sorted(transport & SERVICES) == []
