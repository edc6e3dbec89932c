"""``croupier randomize`` and ``croupier stats``: golden output, JSON, seeds and errors."""

from __future__ import annotations

import json

from test_example_plugin import coin_installed  # noqa: F401 - the fixture installs the example


def test_randomize_is_reproducible_from_a_seed(cli):
    status, out, err = cli("randomize", "7-bag", "-n", "14", "--seed", "1")
    assert status == 0
    assert out == "T J Z I O S L J L S O Z T I\n"
    assert err == ""


def test_randomize_reports_a_drawn_seed_that_reproduces_the_run(cli):
    status, out, err = cli("randomize", "bag of I,J,L", "-n", "9")
    assert status == 0
    seed = int(err.split("--seed ")[1].split()[0])
    assert cli("randomize", "bag of I,J,L", "-n", "9", "--seed", str(seed))[1] == out


def test_randomize_json(cli):
    status, out, _ = cli("randomize", "tgm3", "-n", "5", "--seed", "9", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["spec"] == "tgm3"
    assert data["seed"] == 9
    assert data["n"] == 5
    assert data["pieces"] == cli("randomize", "tgm3", "-n", "5", "--seed", "9")[1].split()


def test_randomize_in_batches_equals_one_run(cli, monkeypatch):
    from croupier.clients.cli.commands import randomize

    whole = cli("randomize", "tgm2", "-n", "2500", "--seed", "4")[1]
    monkeypatch.setattr(randomize, "BATCH", 1000)
    assert cli("randomize", "tgm2", "-n", "2500", "--seed", "4")[1] == whole


def test_bad_specs_and_names_are_one_line_errors(cli):
    status, out, err = cli("randomize", "I,J with 4 histroy")
    assert status == 1
    assert out == ""
    assert err.strip() == (
        "croupier: error: expected 'history', found 'histroy' at column 12 of 'I,J with 4 histroy'"
    )
    status, _, err = cli("stats", "8 bag of I,J", "-n", "10")
    assert status == 1
    assert err.count("\n") == 1
    assert "a bag of 2 can deal 1 to 2 pieces" in err
    status, _, err = cli("randomize", "7-bag", "-n", "0")
    assert status == 2
    assert "expected a positive integer" in err


def test_stats_json_matches_the_engine(cli):
    status, out, _ = cli("stats", "7-bag", "-n", "7000", "--seed", "2", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["pieces"] == 7000
    assert data["counts"] == {p: 1000 for p in "IJLOSTZ"}
    assert data["interval"]["max"] <= 13
    assert data["interval"]["longest_gap"] == data["interval"]["max"] - 1
    assert data["roll_failures"] is None


def test_stats_text_report(cli):
    status, out, _ = cli("stats", "tgm2", "-n", "20000", "--seed", "2")
    assert status == 0
    assert "tgm2: 20,000 pieces, seed 2" in out
    assert "repeats of the previous piece" in out
    assert "interval between copies: mean" in out
    assert "roll failures (every roll hit the history)" in out
    assert "interval histogram" in out


def test_third_party_coin_from_the_cli(coin_installed, cli, monkeypatch):  # noqa: F811
    monkeypatch.setenv("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "")
    status, out, _ = cli("randomize", "coin", "-n", "40", "--seed", "3")
    assert status == 0
    assert set(out.split()) == {"H", "T"}
    status, out, _ = cli("randomize", "coin 0.8", "-n", "4000", "--seed", "3")
    assert status == 0
    heads = out.split().count("H")
    assert abs(heads - 3200) < 150
    status, out, _ = cli("stats", "coin 0.8", "-n", "4000", "--seed", "3", "--json")
    assert json.loads(out)["counts"]["H"] == heads
    # without autoload the text falls to the Blackjack language: 'coin 0.8' is two pieces
    monkeypatch.setenv("CROUPIER_DISABLE_PLUGIN_AUTOLOAD", "1")
    status, _, err = cli("randomize", "coin 0.8")
    assert status == 1
    assert "at column 6 of 'coin 0.8'" in err


def test_one_word_is_a_name_and_an_unknown_one_is_an_error(cli):
    """'nope' dealt 'nope nope nope' and 'tgm4' a warning with exit 0: one word is a name."""
    for command in ("randomize", "stats"):
        status, out, err = cli(command, "7bag", "-n", "3", "--seed", "1")
        assert status == 1 and out == "" and err.count("\n") == 1
        assert "unknown randomizer '7bag'. Did you mean '7-bag'?" in err
        assert "one symbol for ever is spec text: 'sequence of 7bag'" in err
    status, _, err = cli("randomize", "nope", "-n", "5", "--seed", "1")
    assert status == 1 and "unknown randomizer 'nope'" in err and "Known: 14-bag" in err
    status, out, _ = cli("randomize", "sequence of nope", "-n", "3", "--seed", "1")
    assert status == 0 and out == "nope nope nope\n"


def test_stats_without_any_interval_is_strict_json(cli):
    def refuse(constant: str) -> object:
        raise AssertionError(f"{constant} is not JSON")

    for spec, n in (("sequence of I", "1"), ("7-bag", "3")):
        status, out, _ = cli("stats", spec, "-n", n, "--seed", "1", "--json")
        interval = json.loads(out, parse_constant=refuse)["interval"]
        assert status == 0 and interval["count"] == 0
        assert interval["mean"] is interval["variance"] is interval["max"] is None
