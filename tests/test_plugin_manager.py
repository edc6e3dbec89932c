"""The plugin manager: registration, registries, clear errors, broken plugins skipped."""

from __future__ import annotations

from importlib import metadata

import pytest

from croupier.engine import (
    CroupierError,
    DuplicateNameError,
    PluginError,
    PluginManager,
    RandomizerKind,
    RandomizerLanguage,
    Solver,
    SpecError,
    Stream,
    UnknownNameError,
    hookimpl,
)
from croupier.plugins.blackjack.strategy import Strategy


class Fixed:
    """A randomizer that deals its symbols in order, cycling (test helper)."""

    def __init__(self, symbols: tuple[str, ...]) -> None:
        self.symbols = symbols
        self._i = 0

    def deal(self, n: int) -> list[str]:
        out = [self.symbols[(self._i + k) % len(self.symbols)] for k in range(n)]
        self._i += n
        return out


class AbcPlugin:
    @hookimpl
    def croupier_randomizers(self):
        return [RandomizerKind("abc", "a, b, c in order", lambda stream: Fixed(("a", "b", "c")))]

    @hookimpl
    def croupier_solvers(self):
        return [Solver("double", "doubles x", lambda problem: {"y": 2 * problem["x"]})]


class AbcAgain:
    @hookimpl
    def croupier_randomizers(self):
        return [RandomizerKind("abc", "clash", lambda stream: Fixed(("z",)))]


class Raising:
    @hookimpl
    def croupier_solvers(self):
        raise RuntimeError("boom\nsecond line")


class Nameless:
    @hookimpl
    def croupier_solvers(self):
        return [object()]


def upper_language(text: str):
    if not text.startswith("upper "):
        return None
    word = text[6:]
    if not word.isalpha():
        raise SpecError("letters only", text, 6)
    return lambda stream: Fixed(tuple(word.upper()))


class LanguagePlugin:
    @hookimpl
    def croupier_randomizer_languages(self):
        return [RandomizerLanguage("upper", "upper WORD", upper_language)]


def make(*plugins) -> PluginManager:
    return PluginManager(
        autoload=False, plugins=[(type(p).__name__, p) for p in plugins], entry_points=[]
    )


def test_registries_collect_contributions():
    pm = make(AbcPlugin())
    assert pm.randomizers.names() == ["abc"]
    assert pm.randomizers.entry("abc").plugin == "AbcPlugin"
    assert pm.randomizer("abc", Stream(1)).deal(4) == ["a", "b", "c", "a"]
    assert pm.solvers.get("double").solve({"x": 21}) == {"y": 42}


def test_unknown_name_lists_known_names_and_closest():
    pm = make(AbcPlugin())
    with pytest.raises(UnknownNameError) as info:
        pm.solvers.get("dubble")
    message = str(info.value)
    assert "unknown solver 'dubble'" in message
    assert "Did you mean 'double'?" in message
    assert "Known: double" in message
    assert "\n" not in message


def test_a_name_already_taken_skips_the_later_contribution_only():
    pm = make(AbcPlugin(), AbcAgain())  # third-party both: loaded by name, AbcAgain first
    assert pm.randomizers.names() == ["abc"]
    assert pm.randomizers.entry("abc").plugin == "AbcAgain"
    assert pm.solvers.names() == ["double"]  # AbcPlugin's other contributions stay
    (failure,) = pm.failures
    assert failure.name == "AbcPlugin"
    assert failure.message == (
        "plugin 'AbcPlugin': its randomizer 'abc' is skipped: the name is 'AbcAgain''s"
    )


def test_a_third_party_plugin_cannot_take_a_builtin_name(manager):
    class Impostor:
        @hookimpl
        def croupier_strategies(self):
            return [Strategy("lim17", "not the real one", play=lambda h, u, legal: "hit")]

    manager.register(Impostor(), "impostor")
    assert manager.strategies.entry("lim17").plugin == "strategies"
    assert any("'lim17' is skipped" in f.message for f in manager.failures)
    manager.load_all()  # and every other family still builds
    assert "blackjack" in manager.solvers


def test_two_builtins_sharing_a_name_is_a_bug():
    pm = PluginManager(autoload=False, entry_points=[])
    pm.register(AbcPlugin(), "one", builtin=True)
    pm.register(AbcAgain(), "two", builtin=True)
    with pytest.raises(DuplicateNameError):
        pm.randomizers.names()


def test_third_party_hook_failures_are_skipped_and_reported():
    pm = make(AbcPlugin(), Raising(), Nameless())
    assert pm.solvers.names() == ["double"]
    messages = [f.message for f in pm.failures]
    assert any("'Raising'" in m and "RuntimeError: boom" in m for m in messages)
    assert any("'Nameless'" in m and "has no name" in m for m in messages)
    assert all("\n" not in m for m in messages)


def test_builtin_hook_failure_is_fatal():
    pm = PluginManager(autoload=False, entry_points=[])
    pm.register(Raising(), "core", builtin=True)
    with pytest.raises(PluginError, match="built-in plugin 'core'"):
        pm.solvers.names()


def test_broken_entry_points_are_skipped():
    eps = [
        metadata.EntryPoint("missing", "no_such_module_xyz", "croupier"),
        metadata.EntryPoint("attr", "json:no_such_attribute", "croupier"),
    ]
    pm = PluginManager(autoload=True, entry_points=eps)
    assert pm.info == {}
    names = sorted(f.name for f in pm.failures)
    assert names == ["attr", "missing"]
    assert "ModuleNotFoundError" in next(f.message for f in pm.failures if f.name == "missing")


def test_autoload_off_skips_third_party_entry_points():
    eps = [metadata.EntryPoint("missing", "no_such_module_xyz", "croupier")]
    pm = PluginManager(autoload=False, entry_points=eps)
    assert pm.failures == [] and pm.info == {}


def test_autoload_env_variable(monkeypatch):
    eps = [metadata.EntryPoint("missing", "no_such_module_xyz", "croupier")]
    monkeypatch.setenv("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "1")
    assert PluginManager(entry_points=eps).failures == []
    monkeypatch.setenv("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "")
    assert len(PluginManager(entry_points=eps).failures) == 1


def test_languages_parse_and_point_at_errors():
    pm = make(LanguagePlugin())
    assert pm.randomizer("upper abc", Stream(0)).deal(3) == ["A", "B", "C"]
    with pytest.raises(SpecError, match="letters only at column 7 of 'upper a1'"):
        pm.randomizer_factory("upper a1")
    with pytest.raises(CroupierError, match="neither a known randomizer nor a spec"):
        pm.randomizer_factory("lower abc")
    with pytest.raises(SpecError, match="empty"):
        pm.randomizer_factory("   ")


def test_register_and_unregister():
    pm = make()
    pm.register(AbcPlugin(), "abc-plugin")
    assert "abc" in pm.randomizers
    pm.unregister("abc-plugin")
    assert "abc" not in pm.randomizers


def test_describe_lists_plugins_and_contributions():
    pm = make(AbcPlugin(), Raising())
    data = pm.describe()
    by_name = {p["name"]: p for p in data["plugins"]}
    assert by_name["AbcPlugin"]["contributes"] == {"randomizer": ["abc"], "solver": ["double"]}
    assert by_name["AbcPlugin"]["builtin"] is False
    assert [s["name"] for s in data["skipped"]] == ["Raising"]


def test_a_language_that_crashes_is_a_plugin_error_naming_it_not_bad_input():
    from croupier.engine import PluginError

    def crashing(text: str):
        raise ZeroDivisionError("a bug in a language")

    class Crashing:
        @hookimpl
        def croupier_randomizer_languages(self):
            return [RandomizerLanguage("crash", "crashes", crashing)]

    pm = make(Crashing())
    with pytest.raises(PluginError, match="plugin 'Crashing': language 'crash' raised Zero"):
        pm.randomizer_factory("some text")


def test_a_distribution_installed_while_running_is_found_by_the_next_manager(tmp_path, monkeypatch):
    """The installed entry points are kept between managers (parsing every distribution's
    metadata cost 40 ms a manager) until sys.path or one of its folders changes."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "late_plugin.py").write_text("")
    assert "late" not in PluginManager(autoload=True).info
    info = tmp_path / "late_dist-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: late-dist\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[croupier]\nlate = late_plugin\n")
    found = PluginManager(autoload=True).info["late"]
    assert (found.builtin, found.distribution, found.version) == (False, "late-dist", "1.0")
    monkeypatch.undo()  # its folder off sys.path: the distribution is gone again
    assert "late" not in PluginManager(autoload=True).info
