"""The reference pages document what the code has: every hook (the engine's hookspecs and
the blackjack plugin's), every field of ``Game``, every CLI option (docs/cli.md is generated
from the parsers and must be up to date; every option has help). The protocol's methods are
checked by tests/test_protocol_docs.py."""

from __future__ import annotations

import argparse
import re
import runpy
from pathlib import Path

import attrs
import pytest

from croupier.engine import Game, hookspecs
from croupier.plugins.blackjack import hookspecs as blackjack_hookspecs

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def hook_names(module: object) -> list[str]:
    return [name for name in dir(module) if name.startswith("croupier_")]


@pytest.mark.parametrize("hook", hook_names(hookspecs) + hook_names(blackjack_hookspecs))
def test_every_hook_is_in_the_plugins_reference(hook: str) -> None:
    text = (DOCS / "plugins.md").read_text()
    assert f"| `{hook}(" in text, f"docs/plugins.md has no row for {hook}"


def test_the_hooks_found_are_the_hookspecs() -> None:
    # the parametrisation above cannot pass vacuously: both modules declare hooks
    assert "croupier_games" in hook_names(hookspecs)
    assert "croupier_rule_sets" in hook_names(blackjack_hookspecs)


@pytest.mark.parametrize("field", [f.name for f in attrs.fields(Game)])
def test_every_game_field_is_in_the_interface_reference(field: str) -> None:
    text = (DOCS / "games.md").read_text()
    interface = text.split("## The interface", 1)[1].split("\n## ", 1)[0]
    assert f"`{field}" in interface, f"docs/games.md's interface does not document {field}"


def clidoc() -> dict[str, object]:
    return runpy.run_path(str(ROOT / ".ci" / "clidoc.py"), run_name="clidoc")


def test_the_cli_reference_is_generated_from_the_parsers() -> None:
    rendered = clidoc()["render"]()  # type: ignore[operator]
    assert (DOCS / "cli.md").read_text() == rendered, (
        "docs/cli.md is out of date: run .venv/bin/python .ci/clidoc.py"
    )


def test_every_cli_option_has_help_and_is_in_the_reference() -> None:
    from croupier.clients.cli.main import _parsers, build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    text = (DOCS / "cli.md").read_text()
    seen = 0
    for command in _parsers(commands):
        assert f"## `{command.prog}`" in text, command.prog
        for action in command._actions:
            if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                continue
            seen += 1
            assert action.help and action.help != argparse.SUPPRESS, (
                command.prog,
                action.option_strings or action.dest,
            )
            for option in action.option_strings:
                assert f"`{option}" in text or f", {option}" in text, (command.prog, option)
    assert seen > 200  # every command's options were walked


def test_no_help_shows_a_doubled_percent_sign() -> None:
    """argparse %-formats an option's help but not a description: ``%%`` there is shown."""
    from croupier.clients.cli.main import _parsers, build_parser

    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    doubled = [c.prog for c in _parsers(commands) if "%%" in c.format_help()]
    assert doubled == []


def headings(path: Path) -> set[str]:
    """GitHub's anchors of a page: its headings' and its explicit ``<a id>`` targets."""
    text = path.read_text()
    found = re.findall(r"^#+ (.*)$", text, re.M)
    slugs = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in found}
    return slugs | set(re.findall(r'<a id="([^"]+)">', text))


PAGES = sorted(
    str(p.relative_to(ROOT))
    for p in [
        ROOT / "README.md",
        *(ROOT / "docs").rglob("*.md"),
        *(ROOT / "benchmarks").glob("*.md"),
    ]
)


@pytest.mark.parametrize("page", PAGES)
def test_the_pages_links_lead_somewhere(page: str) -> None:
    """Every page's links name pages and headings (or ``<a id>`` anchors) that exist."""
    source = ROOT / page
    links = re.findall(r"\]\(([^)\s]+)\)", source.read_text())
    for link in links:
        if link.startswith("http"):
            continue
        path, _, anchor = link.partition("#")
        target = (source.parent / path).resolve() if path else source
        assert target.exists(), (page, link)
        if anchor and target.suffix == ".md":
            assert anchor in headings(target), (page, link)
