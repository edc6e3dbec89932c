"""The game's own tests run on the installed game alone: pytest collects plugins/ as plain
folders (conftest.py), so it never imports the game's package a second time as
``plugins.three_card_poker`` (a package's ``setup_module`` look-up did) beside the
``croupier.plugins.three_card_poker`` the tests use."""

from __future__ import annotations

import sys


def test_the_game_is_not_imported_again_under_its_folders_name():
    assert [name for name in sys.modules if name.split(".")[0] == "plugins"] == []
