"""The game plugin of docs/tutorial-game.md, built from the page's own code blocks, passes
``croupier plugins --check`` as the page says, and a bug the page suggests is caught."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from croupier.engine import PluginManager, check_plugins

PAGE = Path(__file__).resolve().parent.parent / "docs" / "tutorial-game.md"


def files(text: str) -> dict[str, str]:
    """Each ``# file: PATH`` block's code, the blocks for one path joined in order."""
    built: dict[str, str] = {}
    for block in re.findall(r"```(?:python|toml)\n(.*?)```", text, re.S):
        first, _, rest = block.partition("\n")
        if first.startswith("# file: "):
            path = first.removeprefix("# file: ")
            built[path] = built.get(path, "") + rest + "\n"
    return built


def build(tmp_path: Path, text: str) -> ModuleType:
    for path, code in files(text).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(code)
    init = tmp_path / "croupier-dice" / "croupier_dice" / "__init__.py"
    name = f"croupier_dice_{abs(hash(text))}"
    spec = importlib.util.spec_from_file_location(name, init)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_pages_files_are_the_package() -> None:
    built = files(PAGE.read_text())
    assert set(built) == {"croupier-dice/pyproject.toml", "croupier-dice/croupier_dice/__init__.py"}
    assert 'dice = "croupier_dice"' in built["croupier-dice/pyproject.toml"]


def test_the_tutorials_game_passes_the_plugin_check(tmp_path: Path) -> None:
    module = build(tmp_path, PAGE.read_text())
    manager = PluginManager(autoload=False, plugins=[("dice", module)])
    assert check_plugins(manager, "dice") == []
    game = manager.games.get("dice-duel")
    assert set(game.rule_sets) == {"standard", "friendly"}


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ('-bet["amount"], "bet")', '-bet["amount"], "stake")'),
        ('self.counts = {"ties": 0}', 'self.counts = {"draws": 0}'),
    ],
)
def test_a_bug_in_the_tutorials_game_is_named(tmp_path: Path, good: str, bad: str) -> None:
    text = PAGE.read_text()
    assert good in text
    module = build(tmp_path, text.replace(good, bad))
    problems = check_plugins(PluginManager(autoload=False, plugins=[("dice", module)]), "dice")
    assert problems, bad
