"""The dependency rule of the design: clients -> protocol -> engine <- plugins.

The engine imports no plugin, protocol or client; a plugin imports the engine (and its own
package) only, and of the engine only its public surface, the package
``croupier.engine`` itself (its submodules are the engine's implementation; issue 29); the
protocol imports the engine only; clients import no plugin but
blackjack's package (they find plugins through the engine's plugin manager; the CLI's
blackjack commands, its terminal game and its sample bots present that one game, and import
its public modules as a game's own front end would)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.sources import source_files

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {
    "engine": ("croupier.engine",),
    "plugins": ("croupier.plugins",),
    "protocol": ("croupier.engine", "croupier.protocol"),
    "clients": (
        "croupier.engine",
        "croupier.protocol",
        "croupier.clients",
        "croupier.plugins.blackjack.",
    ),
}


def croupier_imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return [(line, name) for line, name in found if name.split(".")[0] == "croupier"]


PUBLIC = {"plugins": ("croupier.engine",)}
"""Modules a layer may import by their exact name (not their submodules)."""
EXAMPLE_PLUGINS = (ROOT / "examples" / "croupier-coin", ROOT / "examples" / "rule-set-plugin")


def allowed(layer: str, name: str) -> bool:
    return name.startswith(ALLOWED[layer]) or name in PUBLIC.get(layer, ())


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_imports_point_one_way(layer):
    bad = []
    for path in source_files(ROOT / layer):
        for line, name in croupier_imports(path):
            if not allowed(layer, name):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not bad, "\n".join(bad)


def test_each_plugin_imports_only_itself_among_plugins():
    bad = []
    for path in source_files(ROOT / "plugins"):
        rel = path.relative_to(ROOT / "plugins")
        own = "croupier.plugins." + (rel.parts[0] if len(rel.parts) > 1 else rel.stem)
        for line, name in croupier_imports(path):
            if name.startswith("croupier.plugins") and not name.startswith(own):
                bad.append(f"plugins/{rel}:{line} imports {name}")
    assert not bad, "\n".join(bad)


def test_the_example_plugins_import_only_the_engines_surface():
    bad = []
    for path in sorted(p for folder in EXAMPLE_PLUGINS for p in folder.rglob("*.py")):
        if "build" in path.relative_to(ROOT).parts:  # pip's copy of the package
            continue
        for line, name in croupier_imports(path):
            if name.startswith("croupier.engine."):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert not bad, "\n".join(bad)


CLIENT_LIBRARIES = ("rich", "matplotlib")
"""The command line's terminal and picture libraries (matplotlib an optional extra): a game's
front end prints and draws through what the command line lends it (``CommandKit``)."""


def test_plugins_and_the_engine_leave_the_terminal_and_pictures_to_the_client():
    bad = []
    for layer in ("engine", "plugins"):
        for path in source_files(ROOT / layer):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                names = (
                    [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module]
                    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                    else []
                )
                for name in names:
                    if name.split(".")[0] in CLIENT_LIBRARIES:
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name}")
    assert not bad, "\n".join(bad)


def test_clients_reach_the_transport_through_croupier_protocol_only():
    """The transport's modules are protocol's own (``croupier.protocol`` re-exports what a
    client needs: ``connect``, ``DEFAULT_HOST``, ``RpcError``, ...), so the transport can be
    rearranged without touching a client."""
    bad = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in source_files(ROOT / "clients")
        for line, name in croupier_imports(path)
        if name.startswith("croupier.protocol.transport")
    ]
    assert not bad, "\n".join(bad)
