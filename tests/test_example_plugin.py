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


def test_a_third_party_game_simulates_with_no_edit_to_croupier(coin_installed, cli, monkeypatch):
    """The example package's coin-toss (docs/games.md): found, played by the engine's
    simulator, with its exact edge (-1/51 of the stake) inside the interval."""
    monkeypatch.setenv("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "")
    status, out, _ = cli("plugins", "--json")
    coin = next(p for p in json.loads(out)["plugins"] if p["name"] == "coin")
    assert coin["contributes"]["game"] == ["coin-toss"]
    widths = {}
    for seats in ("1", "3"):
        argv = ("sim", "--game", "coin-toss", "--hands", "40000", "--seats", seats)
        status, out, err = cli(*argv, "--seed", "5", "--workers", "1", "--json")
        assert status == 0, err
        report = json.loads(out)
        low, high = report["result_per_chip_ci95"]
        assert low < -1 / 51 < high and report["conserved"]
        assert report["rates"]["edges"] == pytest.approx(1 / 51, abs=0.003)
        widths[seats] = high - low
    # three seats call the same coin: three hands a round carry no more information than
    # one, so the interval is exactly one seat's (counting hands as independent would
    # have made it sqrt(3) times narrower)
    assert widths["3"] == pytest.approx(widths["1"], rel=1e-9)


def test_the_example_package_passes_the_plugin_check(coin_installed, cli, monkeypatch):
    monkeypatch.setenv("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "")
    status, out, err = cli("plugins", "--check", "coin")
    assert (status, out) == (0, "ok: coin checked\n"), err
