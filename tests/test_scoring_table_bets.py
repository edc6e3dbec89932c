"""``table.create``'s ``score_bets``: a scored blackjack table values every bet by its
round's exact edge too, as ``--score-bets`` does locally; a game whose oracle values its
bets anyway, or a table that is not scored, gets one clear error."""

from __future__ import annotations

import pytest
import trio

from croupier.protocol import Code, RpcError, connect
from tests.servedtables import start_table_server


@pytest.fixture
async def served(nursery):
    server = await start_table_server(nursery, vacant_timeout=30, unclaimed_timeout=30)
    yield server
    server.stop()


async def scores_of(w, table: int, rounds: int) -> list[dict]:
    """The table's scorecards once every round of it is scored (answers come from a thread,
    after the table if it plays faster: look again until they are in)."""
    with trio.fail_after(120):
        while True:
            info = await w.call("table.info", table)
            done = info["state"] == "finished" and "scores" in info
            if done and all(card["rounds"] == rounds for card in info["scores"]):
                return list(info["scores"])
            await trio.sleep(0.05)


@pytest.mark.slow  # a blackjack solve per bet: seconds on a loaded machine
async def test_a_scored_blackjack_table_values_its_bets_only_when_asked(served):
    async with connect("127.0.0.1", served.port, name="w") as w:
        made = {"seats": 1, "fill": ["basic"], "rounds": 3, "seed": 11, "scored": True}
        plain = await w.call_named("table.create", made)
        betting = await w.call_named("table.create", {**made, "score_bets": True})
        unvalued = (await scores_of(w, plain["table"], 3))[0]
        valued = (await scores_of(w, betting["table"], 3))[0]
    assert "bets" not in unvalued  # a solve per round: left out unless asked
    assert valued["bets"]["count"] == 3  # one bet a round, each by its round's edge
    # a flat bettor: its bets' mean edge and stake-weighted edge are one figure
    assert valued["bets"]["mean_edge"] == pytest.approx(valued["bets"]["staked_edge"])
    # the same play, the same decisions valued besides the bets
    assert valued["decisions"] == unvalued["decisions"] + 3


async def test_score_bets_is_refused_with_one_line_where_it_means_nothing(served):
    async with connect("127.0.0.1", served.port, name="w") as w:
        poker = {"game": "three-card-poker", "fill": ["optimal"], "rounds": 1, "scored": True}
        with pytest.raises(RpcError) as caught:
            await w.call_named("table.create", {**poker, "score_bets": True})
        assert caught.value.code == Code.BAD_INPUT
        assert caught.value.message == (
            "three-card-poker's oracle values every bet it can already: scoring bets by "
            "their round's edge is for games whose bets are dear to value (blackjack)"
        )
        with pytest.raises(RpcError) as caught:
            await w.call_named("table.create", {"fill": ["basic"], "rounds": 1, "score_bets": True})
        assert caught.value.code == Code.BAD_INPUT
        assert caught.value.message == "score_bets goes with scored: true"
        tables = await w.call("table.list")
    assert tables == []  # nothing was made
