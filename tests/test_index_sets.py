"""Index sets are a plugin family (``croupier_index_sets``, declared by the blackjack plugin):
its shipped Hi-Lo
sets, a third party's set found by name in ``sim --indices`` and ``solve --only``, listed by
``croupier plugins``, checked by ``--check``, and the set the ``hilo`` bot plays."""

from __future__ import annotations

import json

import pytest

from croupier.clients.bot.samples import HiLo
from croupier.engine import CroupierError, PluginManager, hookimpl
from croupier.engine.plugincheck import check_plugins
from croupier.plugins.blackjack import IndexEntry, IndexSet

KO_SET = IndexSet(
    "ko-mine",
    "a KO set of my own: insure at +1, stand 16 v T always",
    "ko",
    (IndexEntry("insurance", "any", "A", 1.0, "+"), IndexEntry("stand", "16", "T", -99.0, "+")),
    rules="6 decks, S17",
    source="a test",
)


class Mine:
    """A third-party plugin contributing one index set (and a broken one, when asked)."""

    def __init__(self, *sets: IndexSet) -> None:
        self.sets = sets

    @hookimpl
    def croupier_index_sets(self):
        return self.sets


def with_plugin(*sets: IndexSet) -> PluginManager:
    pm = PluginManager(autoload=False)
    pm.register(Mine(*sets), "mine")
    return pm


def test_the_blackjack_plugin_contributes_the_hilo_sets(manager):
    sets = manager.index_sets
    assert sets.names() == ["hilo-i18", "hilo-fab4", "hilo-6d-s17"]
    assert {sets.entry(n).plugin for n in sets.names()} == {"blackjack"}
    i18, fab4 = sets.get("hilo-i18"), sets.get("hilo-fab4")
    assert len(i18.entries) == 18 and len(fab4.entries) == 4
    assert i18.count == fab4.count == "hilo" and "Schlesinger" in i18.source
    assert IndexEntry("insurance", "any", "A", 3.0, "+") in i18.entries
    assert check_plugins(manager, "blackjack") == []


def test_croupier_plugins_lists_index_sets(cli, monkeypatch):
    from croupier.clients.cli import common

    monkeypatch.setattr(common, "PluginManager", lambda: with_plugin(KO_SET))
    status, out, err = cli("plugins", "--json")
    assert status == 0, err
    plugins = {p["name"]: p["contributes"] for p in json.loads(out)["plugins"]}
    assert plugins["blackjack"]["index set"] == ["hilo-i18", "hilo-fab4", "hilo-6d-s17"]
    assert plugins["mine"] == {"index set": ["ko-mine"]}


def test_a_third_party_set_plays_by_name(cli, monkeypatch, tmp_path):
    """``--indices ko-mine`` finds the plugin's set: insuring at +1 (KO's true count, read
    relative to its drift) changes the insurance books, which a flat run never has."""
    from croupier.clients.cli import common

    monkeypatch.setattr(common, "PluginManager", lambda: with_plugin(KO_SET))
    argv = ("sim", "--strategy", "basic", "--hands", "20000", "--seed", "3", "--workers", "1")
    status, out, err = cli(*argv, "--count", "ko", "--indices", "ko-mine", "--json")
    assert status == 0, err
    with_set = json.loads(out)
    status, out, err = cli(*argv, "--count", "ko", "--json")
    assert status == 0, err
    without = json.loads(out)
    assert with_set["counting"]["per_count"] != without["counting"]["per_count"]
    # the same set as a file plays the same
    path = tmp_path / "ko.csv"
    path.write_text("decision,hand,upcard,index,direction\ninsurance,any,A,1,+\nstand,16,T,-99,+\n")
    status, out, err = cli(*argv, "--count", "ko", "--indices", str(path), "--json")
    assert status == 0, err
    assert json.loads(out)["counting"] == with_set["counting"]


def test_index_set_errors_are_one_line(cli, monkeypatch):
    from croupier.clients.cli import common

    monkeypatch.setattr(common, "PluginManager", lambda: with_plugin(KO_SET))
    base = ("sim", "--strategy", "basic", "--hands", "100", "--count")
    for argv, words in (
        ((*base, "hilo", "--indices", "hilo-i19"), "unknown index set 'hilo-i19'"),
        ((*base, "hilo", "--indices", "i18"), "Known: hilo-6d-s17, hilo-fab4, hilo-i18, ko-mine"),
        ((*base, "hilo", "--indices", "ko-mine"), "is for the ko count, not hilo"),
        ((*base, "hilo", "--indices", "hilo-i18,hilo-i18"), "given twice"),
        ((*base, "hilo", "--indices", "nosuch/x.csv"), "no such file"),
        (("solve", "blackjack", "--indices", "hilo", "--only", "hilo-i19"), "hilo-i19"),
        (("solve", "blackjack", "--indices", "hilo", "--only", "mine.csv"), "no such file"),
    ):
        status, _out, err = cli(*argv)
        assert status != 0 and words in err, (argv, err)
        assert len(err.strip().splitlines()) == 1, err


def test_solve_only_takes_sets_by_name(cli):
    argv = ("solve", "blackjack", "--indices", "hilo", "--json", "--workers", "1")
    status, out, err = cli(*argv, "--only", "hilo-fab4")
    assert status == 0, err
    found = {(x["decision"], x["hand"], x["upcard"]) for x in json.loads(out)["indices"]}
    assert found == {
        ("surrender", h, u) for h, u in (("14", "T"), ("15", "T"), ("15", "9"), ("15", "A"))
    }


def test_a_bad_set_is_reported_by_the_check():
    bad = IndexSet(
        "bad",
        "a set for a count nobody installed, one decision twice",
        "nosuch",
        (IndexEntry("stand", "16", "T", 0.0, "+"), IndexEntry("stand", "16", "T", 1.0, "+")),
    )
    problems = check_plugins(with_plugin(bad), "mine")
    assert any("count 'nosuch' is not installed" in p for p in problems), problems
    assert any("given twice" in p for p in problems), problems
    assert check_plugins(with_plugin(KO_SET), "mine") == []


def test_the_hilo_bot_takes_its_indices_from_the_family():
    hilo_set = IndexSet(
        "hilo-always-insure",
        "insure at any count",
        "hilo",
        (IndexEntry("insurance", "any", "A", -99.0, "+"),),
    )
    pm = with_plugin(hilo_set)
    default = HiLo(pm)
    assert len(default.indices) > 100  # the generated set, from the registry
    bot = HiLo(pm, "hilo-always-insure")
    assert bot.indices == {("any", "A"): {"insurance": hilo_set.entries[0]}}
    assert bot.insurance(None) is True  # type: ignore[arg-type]  # -99: insured at any count
    with pytest.raises(CroupierError, match="unknown index set"):
        HiLo(pm, "nope")
    with pytest.raises(CroupierError, match="for the ko count"):
        HiLo(with_plugin(KO_SET), "ko-mine")
