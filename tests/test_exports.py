"""The engine's public surface (issue 29), as trio's ``test_exports.py`` checks trio's: every
name in ``croupier.engine.__all__`` exists and is documented, nothing private or foreign is
exported, nothing public is left out of ``__all__``, and importing the package stays cheap."""

from __future__ import annotations

import ast
import inspect
import itertools
import subprocess
import sys
import types
from pathlib import Path

import pytest

import croupier.engine as engine

ENGINE = Path(engine.__file__).resolve().parent


def origins() -> dict[str, tuple[str, str]]:
    """Each name ``engine/__init__.py`` imports: (the module it comes from, its name there)."""
    found = {}
    for node in ast.walk(ast.parse((ENGINE / "__init__.py").read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("croupier"):
            for alias in node.names:
                found[alias.asname or alias.name] = (node.module, alias.name)
    return found


ORIGINS = origins()


def documented_in_source(module: str, name: str) -> bool:
    """Whether ``name`` is assigned in ``module`` with a docstring right after (PEP 257's
    attribute docstrings, which Sphinx and IDEs show for constants)."""
    path = ENGINE / (module.removeprefix("croupier.engine.") + ".py")
    for node in ast.walk(ast.parse(path.read_text())):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement, after in itertools.pairwise(body):
            targets = (
                statement.targets
                if isinstance(statement, ast.Assign)
                else [statement.target]
                if isinstance(statement, ast.AnnAssign)
                else []
            )
            named = any(isinstance(t, ast.Name) and t.id == name for t in targets)
            if (
                named
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            ):
                return True
    return False


@pytest.mark.parametrize("name", engine.__all__)
def test_each_export_exists_and_is_documented(name):
    value = getattr(engine, name)
    if inspect.isclass(value) or inspect.isroutine(inspect.unwrap(value)):
        value = inspect.unwrap(value)
        assert value.__doc__ and value.__doc__.strip(), f"{name} has no docstring"
        assert value.__module__.startswith("croupier.engine."), f"{name} is not the engine's"
    else:
        module, original = ORIGINS[name]
        assert documented_in_source(module, original), f"{name} ({module}) is undocumented"


def test_nothing_private_is_exported():
    assert len(set(engine.__all__)) == len(engine.__all__)
    assert [n for n in engine.__all__ if n.startswith("_") and n != "__version__"] == []


def test_nothing_public_is_left_out_of_all():
    public = {
        name
        for name, value in vars(engine).items()
        if not name.startswith("_")
        and not isinstance(value, types.ModuleType)
        and name not in ("TYPE_CHECKING", "Any")
    }
    assert public - set(engine.__all__) == set()


def test_star_import_gives_all():
    scope: dict[str, object] = {}
    exec("from croupier.engine import *", scope)
    assert set(scope) - {"__builtins__"} == set(engine.__all__)


def test_importing_the_engine_loads_nothing_heavy():
    """numpy, trio, multiprocessing and numba load on the first use of a name that needs them,
    not on import (``croupier --version`` and the CLI's parsers import the engine)."""
    heavy = "('multiprocessing', 'numba', 'numpy', 'trio')"
    probe = (
        "import sys, croupier.engine\n"
        f"print(sorted(m for m in {heavy} if m in sys.modules))\n"
        "from croupier.engine import Executor, GameTable, Shoe\n"
        f"print(sorted(m for m in {heavy} if m in sys.modules))"
    )
    out = subprocess.check_output([sys.executable, "-c", probe], text=True).split("\n")
    assert out[:2] == ["[]", "['multiprocessing', 'numpy', 'trio']"]


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        engine.Nope  # noqa: B018
    with pytest.raises(ImportError):
        exec("from croupier.engine import Nope", {})
