"""Families a plugin declares (``croupier_families``): other plugins fill them, the manager
keeps their registries, ``croupier plugins --check`` checks their contributions; blackjack's
own families are declared this way, so the engine names none of them."""

from __future__ import annotations

import attrs
import pytest

from croupier.engine import CroupierError, Family, PluginManager, hookimpl, hookspec
from croupier.engine.plugincheck import check_plugins


@attrs.frozen
class Glaze:
    name: str
    summary: str


class GlazeSpecs:
    @hookspec
    def croupier_glazes(self):  # type: ignore[empty-body]
        """Contribute glazes (a family of the pottery plugin's own)."""


class Pottery:
    @hookimpl
    def croupier_families(self):
        return [Family("croupier_glazes", "glaze", Glaze, "glazes", GlazeSpecs)]


@attrs.frozen
class Clay:
    name: str
    summary: str


class Celadon:
    @hookimpl
    def croupier_glazes(self):
        return [Glaze("celadon", "a green glaze")]


class Mud:
    @hookimpl
    def croupier_glazes(self):
        return [Clay("mud", "not a glaze at all")]


def manager_of(*plugins):
    return PluginManager(
        autoload=False, plugins=[(type(p).__name__, p) for p in plugins], entry_points=[]
    )


@pytest.mark.parametrize("order", [(Pottery, Celadon), (Celadon, Pottery)])
def test_a_plugins_family_is_filled_by_others_in_any_order(order):
    manager = manager_of(*(cls() for cls in order))
    assert manager.families["croupier_glazes"].summary == "glaze"
    assert "celadon" in manager.glazes
    assert manager.registry("croupier_glazes").get("celadon").summary == "a green glaze"
    described = {p["name"]: p["contributes"] for p in manager.describe()["plugins"]}
    assert described["Celadon"] == {"glaze": ["celadon"]}


def test_plugins_check_checks_a_families_contributions_against_its_kind():
    manager = manager_of(Pottery(), Celadon(), Mud())
    assert check_plugins(manager, "Celadon") == []
    assert check_plugins(manager, "Mud") == ["Mud: glaze 'mud': is a Clay, not a Glaze"]


def test_without_the_declaring_plugin_the_family_is_unknown():
    manager = manager_of(Celadon())
    with pytest.raises(AttributeError, match="no attribute 'glazes'"):
        manager.glazes  # noqa: B018
    with pytest.raises(CroupierError, match="no installed plugin declares the family"):
        manager.registry("croupier_glazes")


def test_blackjacks_families_are_the_blackjack_plugins(manager):
    for hook in ("croupier_dealer_rules", "croupier_betting_schemes", "croupier_rule_sets"):
        family = manager.families[hook]
        assert family.specs.__name__ == "croupier.plugins.blackjack.hookspecs"
    assert {"s17", "h17", "koth"} <= set(manager.dealer_rules.names())
    engine_only = PluginManager(autoload=False, entry_points=[])
    assert "croupier_dealer_rules" not in engine_only.families
