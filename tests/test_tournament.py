"""The tournament: seatings, balance, determinism, conservation, faults, replay, intervals."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.engine import CroupierError, Stream
from croupier.engine.executor import open_executor
from croupier.engine.standings import interval, rank, separated, t_quantile
from croupier.engine.tournament import Tournament, TournamentConfig, seat, table_sizes
from croupier.engine.tournament_run import replay_tournament, run_tournament
from croupier.plugins.blackjack.entries import ExecutableEntry, StrategyEntry
from croupier.plugins.blackjack.strategy import local_strategy

BOTS = Path(__file__).parent / "bots"


def koth(manager):
    return manager.rule_sets.get("koth").rules


def koth_config(manager, seed, **settings):
    """The contest's tournament (blackjack under koth rules) with ``settings``."""
    blackjack = manager.games.get("blackjack")
    return TournamentConfig.of(blackjack, koth(manager).to_dict(), seed, **settings)


def strategies(manager, *names):
    return [StrategyEntry(n, manager.strategies.get(n)) for n in names]


def executables(*names):
    return [ExecutableEntry(n, (str(BOTS / n),)) for n in names]


@given(st.integers(1, 60), st.integers(1, 7))
def test_tables_are_balanced(bots, size):
    sizes = table_sizes(bots, size)
    assert sum(sizes) == bots
    assert len(sizes) == -(-bots // size)
    assert max(sizes) <= size and max(sizes) - min(sizes) <= 1


def test_table_sizes_examples():
    assert table_sizes(9) == [3, 3, 3]
    assert table_sizes(10) == [4, 3, 3]
    assert table_sizes(5) == [3, 2]
    assert table_sizes(8) == [4, 4]
    assert table_sizes(1) == [1]


def test_seating_seats_every_live_bot_once():
    tables = seat(Stream(3).child("x"), [0, 2, 3, 5, 6, 8, 9], 4)
    assert sorted(b for t in tables for b in t) == [0, 2, 3, 5, 6, 8, 9]
    assert [len(t) for t in tables] == [4, 3]
    assert tables == seat(Stream(3).child("x"), [0, 2, 3, 5, 6, 8, 9], 4)


def test_t_quantiles_match_the_textbook_values():
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(0.975, 4) == pytest.approx(2.7764, abs=1e-4)
    assert t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-4)
    assert t_quantile(0.975, 30) == pytest.approx(2.0423, abs=1e-4)
    assert t_quantile(0.975, 100_000) == pytest.approx(1.95996, abs=1e-4)


def test_interval():
    mean, _, high, sd = interval([100, 200, 300])
    assert (mean, sd) == (200.0, 100.0)
    assert high - mean == pytest.approx(t_quantile(0.975, 2) * 100 / 3**0.5)
    assert interval([150]) == (150.0, None, None, None)


def standings_of(names, scores):
    n = len(names)
    return rank(names, scores, [0] * n, [0] * n, [0] * n, [0] * n)


def test_equal_scores_are_a_tie_never_ranked_by_entry_order():
    # all broke: four bots at 0, in whatever order they were entered
    entered = ["basic", "lim17", "never-bust", "mimic"]
    for names in (entered, entered[::-1]):
        lines = standings_of(names, [[0, 0, 0]] * 4)
        assert [(s.place, s.name) for s in lines] == [
            ("1=", "basic"),
            ("1=", "lim17"),
            ("1=", "mimic"),
            ("1=", "never-bust"),
        ]
        assert all(len(s.unseparated) == 3 for s in lines)
    # competition ranking: two tied second, the next is fourth
    lines = standings_of(["d", "c", "b", "a"], [[9, 9], [5, 7], [6, 6], [1, 1]])
    assert [(s.place, s.name) for s in lines] == [("1", "d"), ("2=", "b"), ("2=", "c"), ("4", "a")]


def test_separation_pairs_the_runs():
    # a beats b by 20 chips every run: separated, though their own intervals overlap
    a, b = [200, 210, 205, 190], [180, 190, 185, 170]
    lines = {s.name: s for s in standings_of(["a", "b", "c"], [a, b, [150, 260, 100, 300]])}
    assert lines["a"].high > lines["b"].low  # overlapping intervals...
    assert "b" not in lines["a"].unseparated and "a" not in lines["b"].unseparated  # ...apart
    assert set(lines["c"].unseparated) == {"a", "b"}  # c's runs vary too much
    # one run: nothing is separated; equal scores never are
    assert separated([[1], [2]]).tolist() == [[False, False], [False, False]]
    assert not separated([[3, 4, 5], [3, 4, 5]])[0, 1]


@given(st.lists(st.lists(st.integers(0, 400), min_size=3, max_size=3), min_size=2, max_size=6))
def test_separation_matches_the_paired_t_interval(scores):
    apart = separated(scores)
    for i, x in enumerate(scores):
        for j, y in enumerate(scores):
            mean, low, high, sd = interval([p - q for p, q in zip(x, y, strict=True)])
            if sd == 0:  # the same gap every run: apart unless it is no gap
                assert apart[i, j] == (mean != 0)
            elif abs(low) > 1e-6 and abs(high) > 1e-6:  # not on the edge (float rounding)
                assert apart[i, j] == (not low <= 0 <= high)


@pytest.mark.slow
def test_same_seed_same_standings_and_conservation(manager):
    config = koth_config(manager, 11, tourneys=6, rounds=20)
    entries = strategies(manager, "lim17", "never-bust", "mimic-dealer", "lim17", "never-bust")
    first = run_tournament(manager, config, entries)
    again = run_tournament(manager, config, entries)
    assert first.standings == again.standings
    assert first.conserved
    other = run_tournament(manager, koth_config(manager, 12), entries)
    assert other.standings != first.standings
    assert all(len(s.scores) == 6 and s.hands <= 6 * 20 * 5 for s in first.standings)
    # 5 bots: tables of 3 + 2, and every bot plays 5 hands a round (none can go broke in
    # one round of flat buy-ins)
    short = run_tournament(manager, attrs.evolve(config, rounds=1), entries)
    assert short.tables == 6 * 2
    assert [s.hands for s in short.standings] == [6 * 5] * 5


def test_chips_are_conserved_in_the_log(manager):
    """Recount every run's chips from the log's chips events alone."""
    config = koth_config(manager, 4, tourneys=3, rounds=15)
    entries = strategies(manager, "lim17", "never-bust", "mimic-dealer", "lim17")
    lines = []
    result = run_tournament(manager, config, entries, write=lines.append)
    chips = {t: [200] * 4 for t in (1, 2, 3)}
    house = dict.fromkeys((1, 2, 3), 0)
    job = None
    for line in lines:
        if "table" in line:
            job = line["table"]
        elif line.get("kind") == "chips":
            bot = job["bots"][line["seat"] - 1]
            chips[job["tourney"]][bot] += line["amount"]
            house[job["tourney"]] -= line["amount"]
            assert chips[job["tourney"]][bot] >= 0
    for t in (1, 2, 3):
        assert sum(chips[t]) + house[t] == 800
    for s in result.standings:
        assert list(s.scores) == [chips[t][s.bot] for t in (1, 2, 3)]


def test_one_or_two_workers_same_standings(manager):
    config = koth_config(manager, 8, tourneys=2, rounds=2, hands=3)
    entries = [
        *strategies(manager, "lim17", "never-bust"),
        *executables("lim15.sh", "double.sh", "overbet.sh"),
    ]
    one = run_tournament(manager, config, entries)
    with open_executor(workers=2) as executor:
        two = run_tournament(manager, config, entries, executor=executor)
    assert one.to_dict() == two.to_dict()
    assert one.conserved


def test_misbehaving_bots_get_the_default_and_the_tournament_goes_on(manager):
    # a well-behaved executable is a fresh process per decision: give it time on a busy machine
    config = koth_config(manager, 2, tourneys=1, rounds=1, hands=2, decision_time=1.0)
    bad = ["sleeper.sh", "crash.py", "garbage.sh", "silent.sh", "flood.sh"]
    entries = [*executables(*bad, "lim15.sh", "overbet.sh"), *strategies(manager, "lim17")]
    lines = []
    result = run_tournament(manager, config, entries, write=lines.append)
    by_name = {s.name: s for s in result.standings}
    for name in bad:
        assert by_name[name].faults == by_name[name].hands == 2
    assert by_name["lim15.sh"].faults == by_name["lim17"].faults == 0
    # overbet raises by 15 (B -15) then over-bets (B 99999: it stands): never a fault
    assert by_name["overbet.sh"].faults == 0
    raises = [line for line in lines if line.get("action") == "raise"]
    assert {r["amount"] for r in raises} >= {-15, 99999}
    reasons = {line["reason"] for line in lines if line.get("kind") == "default"}
    assert "timeout after 1s" in reasons
    assert result.conserved
    assert (
        result.hands
        == sum(s.hands for s in result.standings)
        == 7 * 2 + by_name["overbet.sh"].hands
    )


def test_disqualification_forfeits_the_chips(manager):
    config = koth_config(manager, 5, tourneys=2, rounds=3, max_faults=3)
    entries = [*executables("garbage.sh"), *strategies(manager, "lim17", "never-bust")]
    lines = []
    result = run_tournament(manager, config, entries, write=lines.append)
    garbage = next(s for s in result.standings if s.name == "garbage.sh")
    assert garbage.disqualified == 2 and garbage.scores == (0, 0)
    assert garbage.hands == 10  # one round of five hands, then out
    notes = [line["disqualified"] for line in lines if "disqualified" in line]
    assert [(n["tourney"], n["round"], n["bot"]) for n in notes] == [(1, 1, 0), (2, 1, 0)]
    assert result.conserved


def test_broke_bots_leave(manager):
    config = koth_config(manager, 1, tourneys=3, rounds=4)
    entries = [*executables("overbet.sh"), *strategies(manager, "lim17")]
    result = run_tournament(manager, config, entries)
    overbet = next(s for s in result.standings if s.name == "overbet.sh")
    assert overbet.broke >= 1
    assert overbet.hands < 3 * 4 * 5
    assert result.conserved


def test_replay_reproduces_and_checks(manager, tmp_path):
    config = koth_config(manager, 21, tourneys=2, rounds=3)
    entries = [*executables("lim15.sh"), *strategies(manager, "lim17", "never-bust")]
    lines = []
    result = run_tournament(manager, config, entries, write=lines.append)
    text = [json.dumps(line) for line in lines]
    replayed = replay_tournament(manager, text)
    assert replayed.to_dict() == result.to_dict()
    i = next(i for i, line in enumerate(lines) if line.get("action") == "stand")
    edited = [*text[:i], json.dumps({**lines[i], "action": "hit"}), *text[i + 1 :]]
    with pytest.raises(CroupierError, match=r"replay differs|no answer|has"):
        replay_tournament(manager, edited)
    header = json.loads(text[0])
    header["seed"] = header["settings"]["seed"] = 22
    with pytest.raises(CroupierError, match="should be"):
        replay_tournament(manager, [json.dumps(header), *text[1:]])
    with pytest.raises(CroupierError, match="not a croupier tournament log"):
        replay_tournament(manager, text[1:])
    # the header's seed and the settings' seed must agree
    for seed in (2, "x", -1, None, True):
        header = {**json.loads(text[0]), "seed": seed}
        with pytest.raises(CroupierError, match="its seed is not the settings' seed"):
            replay_tournament(manager, [json.dumps(header), *text[1:]])
    # the standings line: present, last, once, and holding standings
    assert json.loads(text[-1]).keys() == {"standings"}
    cases = {
        "cut short": text[:-1],
        "holds no standings": [*text[:-1], json.dumps({"standings": None})],
        "goes on after": [*text, text[-1]],
    }
    for message, log in cases.items():
        with pytest.raises(CroupierError, match=message):
            replay_tournament(manager, log)
    # an action's seat of the wrong type is a one-line error (it was an internal error, 70)
    i = next(i for i, line in enumerate(lines) if line.get("kind") == "action")
    for bad_seat, shown in (("", "''"), ([], r"\[\]"), (1.5, "1.5"), (True, "True")):
        bad = [*text[:i], json.dumps({**lines[i], "seat": bad_seat}), *text[i + 1 :]]
        with pytest.raises(CroupierError, match=f"the log names seat {shown}, which does not"):
            replay_tournament(manager, bad)


def test_bookkeeping_refuses_foreign_results(manager):
    config = koth_config(manager, 1, tourneys=1, rounds=1)
    tournament = Tournament(config, ["a", "b"])
    jobs = tournament.next_jobs()
    assert len(jobs) == 1 and sorted(jobs[0].bots) == [0, 1]
    with pytest.raises(CroupierError):
        koth_config(manager, 1, tourneys=0)


class _Cautious:
    """An in-process Player that is not a Strategy: stands on 12 and up."""

    async def decide(self, observation):
        from croupier.plugins.blackjack.play import Action

        return Action("hit" if observation.total < 12 else "stand")


@attrs.frozen
class _CautiousEntry:
    name: str

    def player(self, stack):
        return _Cautious()


async def test_any_player_fills_a_seat_and_concurrency_changes_nothing(manager):
    from croupier.engine.tournament_run import play_tournament

    # a script may take seconds to start on a loaded machine: a default would change the
    # result, not the order of play this test is about
    config = koth_config(manager, 3, tourneys=3, rounds=4, decision_time=120.0)
    entries = [_CautiousEntry("cautious"), *strategies(manager, "lim17", "never-bust")]
    entries += executables("lim15.sh", "lim16.pl")
    one = await play_tournament(manager, config, entries, concurrency=1)
    many = await play_tournament(manager, config, entries, concurrency=8)
    assert one.to_dict() == many.to_dict()
    assert one.conserved and one.standings[0].hands > 0


@pytest.mark.slow
async def test_a_huge_round_runs_on_a_few_tasks_and_yields_while_it_is_built(manager):
    """A server's tournament of 10,000 tourneys spawned a task per table (160,000 at once,
    seconds of frozen loop, 650 MB, a slow cancel): now a fixed few tasks pull the tables,
    and building and booking them yields to the loop."""
    import trio

    from croupier.engine.tournament_run import play_tournament

    config = koth_config(manager, 5, tourneys=1_500, rounds=1, hands=1)
    entries = strategies(manager, *["lim17"] * 8)  # 2 tables a tourney: 3,000 a round
    most = 0
    ticks = 0

    async def watch() -> None:
        nonlocal most, ticks
        while True:
            most = max(most, trio.lowlevel.current_statistics().tasks_living)
            ticks += 1
            await trio.sleep(0)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch)
        result = await play_tournament(manager, config, entries, concurrency=8)
        nursery.cancel_scope.cancel()
    assert result.conserved and result.tables == 3_000
    assert most < 50  # the 8 tables (a task each, and one per decision), ours, trio's
    assert ticks >= 3_000 // 500  # it let others run while building and booking


def test_a_blackjack_tournament_log_from_before_games_still_replays(manager):
    """Written by croupier before blackjack tables were game tables (``croupier tournament
    lim17 basic tests/bots/lim15.sh --tourneys 1 --rounds 2 --hands 3 --seed 9 --log``):
    its settings hold blackjack's rules and its tables croupier-table logs."""
    path = Path(__file__).parent / "data" / "koth-tournament-before-games.jsonl"
    lines = path.read_text().splitlines()
    assert '"rules"' in lines[0] and '"game"' not in lines[0]
    result = replay_tournament(manager, lines)
    assert result.config.game == "blackjack" and result.config.options["overbet"] == "stand"
    logged = json.loads(lines[-1])["standings"]
    # what each bot did is the log's (its ranks are from before ties were shown)
    assert [s.facts() for s in result.standings] == [
        {k: v for k, v in line.items() if k != "rank"} for line in logged
    ]
    # the log ranked the tie (basic and lim15.sh: 220 each) by entry order; today it is 1=
    assert [(s.rank, s.tied, s.name) for s in result.standings] == [
        (1, True, "basic"),
        (1, True, "lim15.sh"),
        (3, False, "lim17"),
    ]
    # the same tournament played today: the same standings, from game tables
    rules = koth(manager).evolve(overbet="stand")
    basic = StrategyEntry("basic", local_strategy(manager, "basic", rules))
    entries = [*strategies(manager, "lim17"), basic, *executables("lim15.sh")]
    again = run_tournament(manager, result.config, entries)
    assert again.standings == result.standings
