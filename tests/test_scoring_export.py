"""Why an exported table log carries no scored lines (docs/journal.md): a game table log of
version 1 is its header and then the table's events only, and every reader of that version
refuses any other line, so scores go out through ``history.scores`` instead."""

from __future__ import annotations

import json

import pytest

from croupier.engine import CroupierError
from croupier.engine.gamelog import LOG_NAME, LOG_VERSION, read_game_log


def test_a_game_table_log_refuses_a_scored_line():
    header = {"log": LOG_NAME, "version": LOG_VERSION, "game": "three-card-poker"}
    event = {"kind": "round", "round": 1, "text": "Round 1"}
    scored = {"scored": {"round": 1, "seat": 1, "taken": "play", "best": "fold", "loss": 1.0}}
    assert read_game_log([json.dumps(header), json.dumps(event)])[1] == [event]
    with pytest.raises(CroupierError, match="line 3 of the log is not an event"):
        read_game_log([json.dumps(header), json.dumps(event), json.dumps(scored)])
