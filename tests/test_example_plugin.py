"""The example third-party plugin in examples/croupier-coin, installed for real with pip."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from importlib import metadata
from pathlib import Path

import pytest

from croupier.engine import PluginManager, SpecError, Stream

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "croupier-coin"


@pytest.fixture(scope="session")
def coin_installed() -> None:
    """Install the example package into this environment unless the test command did."""
    try:
        metadata.distribution("croupier-coin")
    except metadata.PackageNotFoundError:
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", str(EXAMPLE)],
            check=True,
            timeout=300,
        )


def test_listed_by_croupier_plugins(coin_installed, cli, monkeypatch):
    monkeypatch.setenv("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "")
    status, out, _ = cli("plugins", "--json")
    assert status == 0
    coin = next(p for p in json.loads(out)["plugins"] if p["name"] == "coin")
    assert coin["builtin"] is False
    assert coin["distribution"] == "croupier-coin"
    assert coin["version"] == "1.0.0"
    assert coin["contributes"]["randomizer"] == ["coin"]
    assert coin["contributes"]["randomizer language"] == ["coin"]


def test_usable_through_the_engine(coin_installed):
    pm = PluginManager(autoload=True)
    fair = pm.randomizer("coin", Stream(3)).deal(20_000)
    assert abs(Counter(fair)["H"] - 10_000) < 400
    biased = pm.randomizer("coin 0.9", Stream(3)).deal(20_000)
    assert abs(Counter(biased)["H"] - 18_000) < 250
    assert pm.randomizer("coin 0.9", Stream(3)).deal(50) == biased[:50]
    with pytest.raises(SpecError, match="between 0 and 1 at column 6"):
        pm.randomizer_factory("coin 1.5")


def test_not_loaded_when_autoload_is_disabled(coin_installed):
    assert "coin" not in PluginManager(autoload=False).info
