"""The plugin manager: finds plugins, calls their hooks, and keeps the registries.

Built-in plugins are the entry points of the ``croupier`` distribution itself; third-party
plugins are the entry points any other installed distribution declares in the same group,
``croupier``. So the engine imports no plugin by name: it sees built-ins and third-party
plugins the same way, except that a built-in that fails is a bug (fatal) while a
third-party plugin that fails to import, or whose hook raises, is reported by name and
skipped. Set ``CROUPIER_DISABLE_PLUGIN_AUTOLOAD=1`` to load built-ins only (hermetic tests).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import metadata
from typing import Any, cast

import attrs
import pluggy

from croupier.engine import hookspecs
from croupier.engine.commandline import CommandLine
from croupier.engine.counts import CountSystem
from croupier.engine.entrypoints import Found, described, installed
from croupier.engine.errors import (
    CroupierError,
    PluginError,
    SpecError,
    UnknownNameError,
    one_line,
    shown,
)
from croupier.engine.families import Family
from croupier.engine.games import Game
from croupier.engine.oracle import OracleKind
from croupier.engine.randomizers import (
    Randomizer,
    RandomizerFactory,
    RandomizerKind,
    RandomizerLanguage,
)
from croupier.engine.registry import Registry
from croupier.engine.seeds import Stream
from croupier.engine.solvers import Solver

ENTRY_POINT_GROUP = "croupier"
DISTRIBUTION = "croupier"
AUTOLOAD_ENV = "CROUPIER_DISABLE_PLUGIN_AUTOLOAD"

ENGINE_FAMILIES: tuple[Family, ...] = (
    Family("croupier_randomizers", "randomizer", RandomizerKind, "randomizers"),
    Family("croupier_randomizer_languages", "randomizer language", RandomizerLanguage),
    Family("croupier_solvers", "solver", Solver, "solvers"),
    Family("croupier_games", "game", Game, "games"),
    Family("croupier_count_systems", "count system", CountSystem, "count_systems"),
    Family("croupier_oracles", "oracle", OracleKind, "oracles"),
    Family("croupier_command_lines", "command line", CommandLine, "command_lines"),
)
"""The families every game shares; plugins declare their own (``croupier_families``)."""


@attrs.frozen
class PluginInfo:
    """A registered plugin: where it came from."""

    name: str
    builtin: bool
    distribution: str | None = None
    version: str | None = None
    module: str | None = None


@attrs.frozen
class PluginFailure:
    """A third-party plugin that was skipped, and why (one line)."""

    name: str
    message: str


def autoload_enabled() -> bool:
    """False when ``CROUPIER_DISABLE_PLUGIN_AUTOLOAD`` is set to a non-empty value."""
    return not os.environ.get(AUTOLOAD_ENV)


class PluginManager:
    """Registered plugins and, built on first use, one registry per family."""

    def __init__(
        self,
        *,
        autoload: bool | None = None,
        plugins: Iterable[tuple[str, object]] = (),
        entry_points: Iterable[metadata.EntryPoint] | None = None,
    ) -> None:
        """Load built-ins, then third-party plugins unless ``autoload`` is false.

        ``plugins`` are extra ``(name, module_or_object)`` pairs registered as third-party
        plugins (tests use this); ``entry_points`` replaces the installed ones (tests too).
        """
        self.hook_manager = pluggy.PluginManager(hookspecs.PROJECT)
        self.hook_manager.add_hookspecs(hookspecs)
        self.families: dict[str, Family] = {f.name: f for f in ENGINE_FAMILIES}
        """Every family by hook: the engine's, then those plugins declare."""
        self.info: dict[str, PluginInfo] = {}
        self.failures: list[PluginFailure] = []
        self._registries: dict[str, Registry[Any]] = {}
        self._languages: list[tuple[str, RandomizerLanguage]] | None = None
        if autoload is None:
            autoload = autoload_enabled()
        if entry_points is None:
            found = installed(ENTRY_POINT_GROUP)
        else:
            found = tuple(described(ep) for ep in entry_points)
        self._load_entry_points(found, autoload)
        for name, plugin in plugins:
            self.register(plugin, name)

    # -- loading ---------------------------------------------------------------------------
    def _load_entry_points(self, found: Iterable[Found], autoload: bool) -> None:
        seen: set[tuple[str, str]] = set()
        ordered = sorted(found, key=lambda f: (f.distribution != DISTRIBUTION, f.ep.name))
        for ep, distribution, version in ordered:
            if (ep.name, ep.value) in seen:
                continue
            seen.add((ep.name, ep.value))
            builtin = distribution == DISTRIBUTION
            if not builtin and not autoload:
                continue
            info = PluginInfo(
                name=ep.name,
                builtin=builtin,
                distribution=distribution,
                version=version,
                module=ep.value,
            )
            try:
                plugin = ep.load()
            except Exception as exc:
                if builtin:
                    raise PluginError(
                        f"built-in plugin {ep.name!r} failed to load: {one_line(exc)}"
                    ) from exc
                self._fail(ep.name, f"failed to load ({ep.value}): {one_line(exc)}")
                continue
            self._register(plugin, info)

    def _fail(self, name: str, message: str) -> None:
        """The whole plugin is skipped."""
        self._record(PluginFailure(name, f"plugin {name!r} skipped: {message}"))

    def _note(self, name: str, message: str) -> None:
        """Part of a plugin is skipped (a hook that failed, a name already taken)."""
        self._record(PluginFailure(name, f"plugin {name!r}: {message}"))

    def _record(self, failure: PluginFailure) -> None:
        if failure not in self.failures:  # a language failing on every spec: recorded once
            self.failures.append(failure)

    def _register(self, plugin: object, info: PluginInfo) -> None:
        if info.name in self.info:
            raise PluginError(f"two plugins are called {info.name!r}")
        try:
            self.hook_manager.register(plugin, name=info.name)
        except pluggy.PluginValidationError as exc:
            if info.builtin:
                raise
            self._fail(info.name, f"invalid hooks: {one_line(exc)}")
            return
        self.info[info.name] = info
        self._registries.clear()
        self._languages = None
        self._declare_families(info)

    def _declare_families(self, info: PluginInfo) -> None:
        """Add the families the plugin ``info`` declares (``croupier_families``)."""
        for impl in self.hook_manager.hook.croupier_families.get_hookimpls():
            if impl.plugin_name != info.name:
                continue
            try:
                declared = list(cast(Iterable[Any], impl.function() or ()))
                for family in declared:
                    if not isinstance(family, Family):
                        raise TypeError(f"croupier_families returned {family!r}, not a Family")
                    known = self.families.get(family.name)
                    if known is not None and known != family:
                        raise PluginError(f"the family {family.name!r} is declared twice")
                    caller = getattr(self.hook_manager.hook, family.name, None)
                    if family.specs is not None and (caller is None or not caller.has_spec()):
                        self.hook_manager.add_hookspecs(family.specs)  # its module's hooks
                    self.families[family.name] = family
            except Exception as exc:
                if info.builtin:
                    raise PluginError(
                        f"built-in plugin {info.name!r} failed in croupier_families"
                    ) from exc
                self._note(info.name, f"croupier_families raised {one_line(exc)}; skipped")

    def register(self, plugin: object, name: str, *, builtin: bool = False) -> None:
        """Register a plugin object (a module or an instance with ``@hookimpl`` methods)."""
        module = getattr(plugin, "__name__", type(plugin).__name__)
        self._register(plugin, PluginInfo(name=name, builtin=builtin, module=module))

    def unregister(self, name: str) -> None:
        """Remove a plugin by name (tests register and unregister plugins freely)."""
        self.hook_manager.unregister(name=name)
        del self.info[name]
        self._registries.clear()
        self._languages = None

    # -- collecting contributions ----------------------------------------------------------
    def contributions(self, hook: str) -> list[tuple[str, Any]]:
        """``(plugin name, item)`` for every item every plugin returns from ``hook``.

        Built-ins come first. A third-party implementation that raises, or returns something
        that is not an iterable of named objects, is recorded in :attr:`failures` and skipped.
        """
        caller = getattr(self.hook_manager.hook, hook)
        impls = sorted(
            caller.get_hookimpls(),
            key=lambda impl: (not self.info[impl.plugin_name].builtin, impl.plugin_name),
        )
        out: list[tuple[str, Any]] = []
        for impl in impls:
            name = impl.plugin_name
            try:
                given = {"manager": self}  # a hook may take the manager (croupier_games)
                items = list(impl.function(*(given[arg] for arg in impl.argnames)) or ())
                for item in items:
                    if not isinstance(getattr(item, "name", None), str):
                        raise TypeError(f"{hook} returned {item!r}, which has no name")
            except Exception as exc:
                if self.info[name].builtin:
                    raise PluginError(f"built-in plugin {name!r} failed in {hook}") from exc
                self._note(name, f"{hook} raised {one_line(exc)}; what it contributes is skipped")
                continue
            out.extend((name, item) for item in items)
        return out

    def registry(self, hook: str) -> Registry[Any]:
        """The registry of one family, built from its hook on first use.

        A third-party contribution whose name is already taken (by a built-in, or by a
        plugin loaded before it: built-ins first, then plugins by name) is skipped and
        recorded in :attr:`failures`: installing a package must never take a built-in or
        another plugin's contribution away. Two built-ins sharing a name is a bug, raised.
        """
        if hook not in self._registries:
            if hook not in self.families:
                raise CroupierError(f"no installed plugin declares the family {hook!r}")
            family = self.families[hook].summary
            registry: Registry[Any] = Registry(family)
            for plugin, item in self.contributions(hook):
                if item.name in registry and not self.info[plugin].builtin:
                    owner = registry.entry(item.name).plugin
                    self._note(
                        plugin,
                        f"its {family} {item.name!r} is skipped: the name is {owner!r}'s",
                    )
                    continue
                registry.add(item.name, item, plugin)
            self._registries[hook] = registry
        return self._registries[hook]

    def load_all(self) -> None:
        """Build every family now, so that every plugin failure is known at once (the CLI
        and the server report them at start rather than when a family is first used)."""
        for hook in self.families:
            if hook == "croupier_randomizer_languages":
                self.randomizer_languages  # noqa: B018 - built on first access
            else:
                self.registry(hook)

    @property
    def randomizers(self) -> Registry[RandomizerKind]:
        return self.registry("croupier_randomizers")

    @property
    def solvers(self) -> Registry[Solver]:
        return self.registry("croupier_solvers")

    @property
    def games(self) -> Registry[Game]:
        return self.registry("croupier_games")

    @property
    def count_systems(self) -> Registry[CountSystem]:
        return self.registry("croupier_count_systems")

    @property
    def oracles(self) -> Registry[OracleKind]:
        return self.registry("croupier_oracles")

    def __getattr__(self, name: str) -> Registry[Any]:
        """``manager.<attribute>`` for a family a plugin declares (blackjack's
        ``manager.rule_sets``, ``manager.dealer_rules``, ...)."""
        if not name.startswith("_"):
            for family in self.__dict__.get("families", {}).values():
                if family.attribute == name:
                    return self.registry(family.name)
        raise AttributeError(f"{type(self).__name__!r} has no attribute {name!r}")

    @property
    def randomizer_languages(self) -> list[tuple[str, RandomizerLanguage]]:
        """Languages in the order they are tried: third-party first, built-ins last."""
        if self._languages is None:
            items = self.contributions("croupier_randomizer_languages")
            self._languages = sorted(items, key=lambda pair: self.info[pair[0]].builtin)
        return self._languages

    # -- randomizers -----------------------------------------------------------------------
    def randomizer_factory(self, spec: str) -> RandomizerFactory:
        """The factory for ``spec``: a randomizer's name, or text in some language.

        Names win over languages, and one word (no blank, no comma) is always a name: an
        unknown one is an error naming the closest. Languages are tried in order; the first
        that accepts the text wins. When none accepts it, the first language's error (if
        any) is raised, so a typo in Blackjack-language text gets a message that points
        into the text.
        """
        spec = spec.strip()
        if not spec:
            raise SpecError("empty randomizer spec")
        if spec in self.randomizers:
            return self.randomizers.get(spec).factory
        if not any(c.isspace() or c == "," for c in spec):
            # one bare word is a name: an unknown one is a mistake (with the closest names),
            # never a list of one symbol dealt for ever ('sequence of X' says that)
            error = UnknownNameError("randomizer", spec, self.randomizers.names())
            error.args = (f"{error} (one symbol for ever is spec text: 'sequence of {spec}')",)
            raise error
        first_error: SpecError | None = None
        broken: str | None = None
        for plugin, language in self.randomizer_languages:
            try:
                factory = language.parse(spec)
            except SpecError as exc:
                first_error = first_error or exc
                continue
            except Exception as exc:
                if self.info[plugin].builtin:
                    raise
                broken = f"plugin {plugin!r}: language {language.name!r} raised {one_line(exc)}"
                self._note(plugin, f"language {language.name!r} raised {one_line(exc)}")
                continue
            if factory is not None:
                return factory
        if broken is not None:  # a plugin's bug, not (surely) the user's text: say so
            raise PluginError(f"no language could read {shown(spec, 60)}: {broken}")
        if first_error is not None:
            raise first_error
        known = ", ".join(self.randomizers.names()) or "none"
        raise CroupierError(f"{spec!r} is neither a known randomizer nor a spec. Known: {known}")

    def randomizer(self, spec: str, stream: Stream) -> Randomizer:
        """A fresh randomizer for ``spec`` drawing from ``stream``."""
        return self.randomizer_factory(spec)(stream)

    # -- description -----------------------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        """Every plugin, what it contributes per family, and the skipped ones (plain data)."""
        per_plugin: dict[str, dict[str, list[str]]] = {name: {} for name in self.info}
        errors: list[str] = []
        for hook, declared in self.families.items():
            family = declared.summary
            try:
                pairs = (
                    [(e.plugin, e.name) for e in self.registry(hook).entries()]
                    if hook != "croupier_randomizer_languages"
                    else [(p, lang.name) for p, lang in self.randomizer_languages]
                )
            except CroupierError as exc:
                errors.append(str(exc))
                continue
            for plugin, name in pairs:
                per_plugin[plugin].setdefault(family, []).append(name)
        return {
            "plugins": [
                {**attrs.asdict(info), "contributes": per_plugin[name]}
                for name, info in self.info.items()
            ],
            "skipped": [attrs.asdict(f) for f in self.failures],
            "errors": errors,
        }
