"""The sample bots (basic plays the solver's chart for the table's rules) and ``croupier
bot`` against a real server: the table it makes and its seed, its one-line errors, the SDK's
warnings as croupier lines, the seats it waits for."""

from __future__ import annotations

import json

import pytest

from croupier.clients.bot.samples import Basic, sample_bot
from croupier.engine import UnknownNameError
from croupier.engine.cards import VALUES, card
from croupier.plugins.blackjack.play import Observation
from croupier.plugins.blackjack.strategy import local_strategy, strategy_action
from croupier.plugins.blackjack.values import total_of


def test_basic_plays_the_solvers_basic_strategy_for_the_tables_rules(manager):
    rules = manager.rule_sets.get("vegas-s17").rules
    bot = sample_bot("basic", manager)
    assert isinstance(bot, Basic)
    bot.setup({"rules": rules.to_dict()})
    expected = local_strategy(manager, "basic", rules)
    hands = (("TS", "6H"), ("AS", "7H"), ("8S", "8H"), ("5S", "6H"), ("TS", "2H"))
    for cards in hands:
        for up in ("2C", "6D", "9H", "AC"):
            observation = Observation(
                "play", 1, 1, ("hit", "stand", "double", "split", "surrender"), 990,
                hands=(cards,), total=total_of(VALUES[card(c)] for c in cards)[0],
                soft="AS" in cards, stake=10, dealer_upcard=up,
            )  # fmt: skip
            assert bot.decide(observation) == strategy_action(expected, observation)


def test_an_unknown_sample_bot_lists_the_known_ones(manager):
    with pytest.raises(UnknownNameError, match="Known: basic, hilo, lim17"):
        sample_bot("lim18", manager)


def test_croupier_bot_creates_a_table_and_reports_its_seed(cli, threaded_server):
    where = f"127.0.0.1:{threaded_server}"
    status, out, err = cli("bot", "hilo", "--connect", where, "--rounds", "5", "--seed", "4")
    assert status == 0, err
    assert "hilo sits at seat 1 of table 1 (vegas-s17, seed 4" in err
    assert out.startswith("table 1: 5 rounds (5 rounds played); hilo in seat 1: ")
    again = cli("bot", "hilo", "--connect", where, "--rounds", "5", "--seed", "4")
    assert again[1].replace("table 2", "table 1") == out
    status, out, err = cli(
        "bot", "lim17", "--connect", where, "--rounds", "3", "--seats", "2",
        "--fill", "-", "never-bust", "--h17", "--json",
    )  # fmt: skip
    assert status == 0, err
    assert '"net"' in out and '"dealer": "h17"' in out and '"never-bust"' in out
    # the server drew the seed: hidden while the table played, reported once it finished
    final = json.loads(out)["table"]
    assert "(vegas-s17, seed hidden until it finishes)" in err
    assert f"croupier: seed {final['seed']} (rerun with --seed {final['seed']}" in err


def test_croupier_bot_errors_are_one_line(cli, threaded_server):
    where = f"127.0.0.1:{threaded_server}"
    status, _, err = cli("bot", "nope", "--connect", where)
    assert status == 1 and "unknown bot 'nope'" in err and err.count("\n") == 1
    status, _, err = cli("bot", "lim17", "--connect", where, "--table", "9")
    assert status == 1 and "no table 9" in err and err.count("\n") == 1
    status, _, err = cli("bot", "lim17", "--connect", "127.0.0.1:1")
    assert status == 1 and "cannot connect to 127.0.0.1:1: Connection refused" in err
    status, _, err = cli("bot", "lim17", "--connect", "nowhere")
    assert status == 2 and "expected HOST:PORT" in err
    status, _, err = cli("bot", "lim17", "--connect", where, "--seat", "5")
    assert status == 1 and "--seat 5 is not a seat of a 1-seat table" in err
    assert err.count("\n") == 1  # refused before a table is made on the server


def test_croupier_bot_prints_the_sdks_warnings_as_croupier_lines(capsys):
    import logging

    from croupier.clients.cli.commands.bot import say_warnings

    say_warnings()
    say_warnings()  # once only, however often a command runs in one process
    logging.getLogger("croupier.bot").warning("connection lost (%s); reconnecting in %g s", "x", 1)
    assert capsys.readouterr().err == "croupier: connection lost (x); reconnecting in 1 s\n"


def test_croupier_bot_says_how_to_fill_the_seats_it_waits_for(threaded_server):
    import subprocess
    import sys

    where = f"127.0.0.1:{threaded_server}"
    argv = ["bot", "lim17", "--connect", where, "--seats", "2", "--rounds", "3", "--seed", "1"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier.clients.cli", *argv],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stderr is not None
        first, second = proc.stderr.readline(), proc.stderr.readline()
    finally:
        proc.kill()
        proc.wait()
    assert "lim17 sits at seat 1 of table" in first
    table = first.split("of table ")[1].split()[0]
    assert second == (
        f"croupier: table {table} waits for 1 more bot: croupier bot NAME --connect {where} "
        f"--table {table} (or croupier play --connect {where} --table {table})\n"
    )
