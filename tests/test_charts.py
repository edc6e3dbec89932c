"""Charts as CSV files: read (with the usual spellings), written, played in Python exactly
as the solver's own chart plays, and simulated identically to ``basic``."""

from __future__ import annotations

import itertools
import json

import attrs
import pytest

from croupier.engine import CroupierError, PluginManager
from croupier.engine.cards import VALUES
from croupier.plugins.blackjack.charts import TablePlay, chart_csv, read_chart_csv
from croupier.plugins.blackjack.strategy import local_strategy
from croupier.plugins.blackjack.values import total_of

HEADER = "hand,2,3,4,5,6,7,8,9,T,A"


@attrs.frozen
class _Hand:
    cards: tuple[int, ...]
    total: int
    soft: bool


def test_the_basic_chart_written_and_read_plays_as_the_solvers_own(manager: PluginManager):
    rules = manager.rule_sets.get("vegas-s17").rules.evolve(surrender="late")
    basic = local_strategy(manager, "basic", rules).for_rules(rules)
    table = basic.play.play_table()
    played = TablePlay(read_chart_csv(chart_csv(table)))
    assert played.table == table
    legal_sets = [
        ("hit", "stand", "double", "split", "surrender"),
        ("hit", "stand", "double"),
        ("hit", "stand"),
        ("stand",),
    ]
    # every hand of two and three cards by card index (all four suits of a rank alike)
    ranks = [4 * r for r in range(13)]
    hands = [*itertools.product(ranks, repeat=2), *itertools.product(ranks[:6], repeat=3)]
    for cards in hands:
        total, soft = total_of(VALUES[c] for c in cards)
        hand = _Hand(tuple(cards), total, soft)
        for up, legal in itertools.product(range(1, 11), legal_sets):
            assert played(hand, up, legal) == basic.play(hand, up, legal), (cards, up, legal)


def test_the_usual_spellings_and_the_rows_a_chart_may_leave_out():
    rows = {f"H{t}": "S" for t in range(9, 21)} | {f"A,{v}": "H" for v in range(2, 10)}
    text = "# a chart\n" + "hand,10,9,8,7,6,5,4,3,2,A\n"
    text += "".join(f'"{k}",{",".join([v] * 10)}\n' for k, v in rows.items())
    text += '"8,8",P,P,P,P,P,P,P,P,P,R\n\n'  # a name with a comma is quoted, as in any CSV
    table = read_chart_csv(text)
    assert table.hard[4] == ["H"] * 10 and table.hard[21] == ["S"] * 10
    assert table.soft[12] == ["H"] * 10 and table.soft[21] == ["S"] * 10
    assert table.hard[12] == ["S"] * 10 and table.soft[18] == ["H"] * 10
    assert table.pairs[7][0] == "Rh" and table.pairs[7][1:] == ["P"] * 9  # ace first: A
    assert table.pairs[4] == table.hard[10]  # 5,5 unlisted: played as a hard 10


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no chart"),
        ("hand,2,3\n", "the header names the ten upcards"),
        (f"{HEADER}\nhard 12,H,H\n", ":2: 2 letters, not 10"),
        (f"{HEADER}\nhard 12,{','.join(['X'] * 10)}\n", ":2: 'X' is not a chart letter"),
        (f"{HEADER}\nhard 12,{','.join(['H'] * 10)}\nH12,{','.join(['S'] * 10)}\n", "twice"),
        (f"{HEADER}\nsoft 25,{','.join(['H'] * 10)}\n", "there is no soft 25 row"),
        (f"{HEADER}\nwhat,{','.join(['H'] * 10)}\n", "'what' is not a hand"),
        (f"{HEADER}\nhard 12,{','.join(['H'] * 10)}\n", "no row for hard 9, hard 10, hard 11"),
    ],
)
def test_a_bad_chart_is_one_line_naming_the_line(text, message):
    with pytest.raises(CroupierError, match=message) as caught:
        read_chart_csv(text, "my.csv")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("my.csv")


@pytest.mark.slow
def test_solve_writes_the_chart_sim_plays_as_basic(cli, tmp_path):
    status, text, err = cli("solve", "blackjack", "--rules", "vegas-h17", "--csv")
    assert status == 0 and text.startswith(HEADER + "\n"), err
    path = tmp_path / "h17.csv"
    path.write_text(text)
    runs = {}
    for strategy in ("basic", str(path)):
        for engine in ("compiled", "python"):
            hands = "200000" if engine == "compiled" else "3000"
            argv = ("sim", "--rules", "vegas-h17", "--strategy", strategy, "--hands", hands)
            status, out, err = cli(*argv, "--seed", "5", "--engine", engine, "--json")
            assert status == 0, err
            report = json.loads(out)
            runs[strategy, engine] = {k: v for k, v in report.items() if k != "strategy"}
    for engine in ("compiled", "python"):
        assert runs["basic", engine] == runs[str(path), engine]
    status, _, err = cli("solve", "blackjack", "--csv", "--json")
    assert status == 1 and "--csv prints the chart alone" in err
    status, _, err = cli("sim", "--strategy", str(tmp_path / "none.csv"))
    assert status == 1 and "cannot read the chart" in err and err.count("\n") == 1
