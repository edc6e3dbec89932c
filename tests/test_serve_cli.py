"""``croupier serve`` as a user runs it: a subprocess, a real port, a signal to stop it."""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys

import msgpack
import pytest

from croupier.clients.cli.commands.serve import register, server_limits
from croupier.clients.cli.datadir import writable_journal
from croupier.protocol.journal import SCHEMA_VERSION


def start(*argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "croupier.clients.cli", "serve", "--port", "0", *argv],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )


def wait_for_port(proc: subprocess.Popen[str]) -> tuple[int, list[str]]:
    lines = []
    assert proc.stderr is not None
    for line in proc.stderr:
        lines.append(line)
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if found:
            return int(found.group(1)), lines
    raise AssertionError("no 'listening on' line: " + "".join(lines))


def rpc(sock: socket.socket, unpacker: msgpack.Unpacker, message: list) -> object:
    sock.sendall(msgpack.packb(message))
    while True:
        for obj in unpacker:
            return obj
        unpacker.feed(sock.recv(65536))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_serve_answers_then_stops_gracefully_on_a_signal(signum):
    proc = start("--seed", "5", "--tables", "3")
    try:
        port, lines = wait_for_port(proc)
        assert "seed 5" in lines[-1]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            unpacker = msgpack.Unpacker(raw=False)
            assert rpc(sock, unpacker, [0, 1, "hello", [1, "cli-test", "client"]])[2] is None
            opened = rpc(sock, unpacker, [0, 2, "randomizer.open", ["bag of", None]])
            assert opened[2]["name"] == "bad-input"
            proc.send_signal(signum)
            reply = rpc(sock, unpacker, [0, 3, "ping", []])
            # depending on timing: answered, refused while draining, or told of the shutdown
            refused = {"code": 8, "name": "shutting-down", "message": "the server is shutting down"}
            # the tests' servers keep no journal (conftest sets CROUPIER_DATA=:memory:), so
            # nothing resumes
            told = [2, "shutdown", [{"resume": False}]]
            assert reply in ([1, 3, None, "pong"], [1, 3, refused, None], told)
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    log = "".join(lines) + err
    assert proc.returncode == 0, log
    assert f"received {signal.Signals(signum).name}" in log
    assert "connection #1 'cli-test'" in log
    assert log.rstrip().endswith("stopped")
    assert "Traceback" not in log


def test_serve_draws_and_reports_a_seed():
    proc = start()
    try:
        _, lines = wait_for_port(proc)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    finally:
        proc.kill()
    drawn = re.search(r"croupier: seed (\d+) \(rerun with --seed \1 to reproduce\)", lines[0])
    assert drawn and f"seed {drawn.group(1)})" in lines[-1]


def test_serve_keeps_its_journal_where_data_says(tmp_path):
    path = tmp_path / "j.db"
    proc = start("--data", str(path), "--keep-days", "30")
    try:
        _, lines = wait_for_port(proc)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert f"journal: {path} (schema {SCHEMA_VERSION})" in "".join(lines)
    assert proc.returncode == 0 and "Traceback" not in err
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_serve_data_in_a_missing_folder_is_a_one_line_error(cli, tmp_path):
    """A mistyped --data is said, not a new empty journal in a folder made for it."""
    path = tmp_path / "typo" / "j.db"
    status, _, err = cli("serve", "--data", str(path), "--port", "0", "--seed", "1")
    assert status == 1 and err.count("\n") == 1
    assert err.startswith(f"croupier: error: --data {path}: no folder {tmp_path / 'typo'}")
    assert not (tmp_path / "typo").exists()


def test_the_default_journal_folder_is_made_when_missing(tmp_path):
    environ = {"XDG_DATA_HOME": str(tmp_path / "data")}
    path = writable_journal(None, environ)
    assert path == str(tmp_path / "data" / "croupier" / "croupier.db")
    assert (tmp_path / "data" / "croupier").is_dir()


def test_serve_on_a_port_in_use_is_a_one_line_error(cli):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        status, _, err = cli("serve", "--port", str(port), "--seed", "1")
    assert status == 1
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"croupier: error: cannot listen on 127.0.0.1:{port}")


def test_serve_on_an_address_it_cannot_bind_says_so_in_one_line(cli):
    status, _, err = cli("serve", "--host", "nosuch.invalid", "--port", "0")
    assert status == 1 and err.count("\n") == 1  # no seed was drawn for a run that never was
    assert err.startswith("croupier: error: cannot listen on nosuch.invalid:0")


def test_serve_rejects_a_bad_port(cli):
    status, _, err = cli("serve", "--port", "70000")
    assert status == 2 and "a port is 0 to 65535" in err


def test_serve_connections_caps_the_connections():
    proc = start("--seed", "5", "--connections", "1")
    try:
        port, _ = wait_for_port(proc)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as first:
            unpacker = msgpack.Unpacker(raw=False)
            assert rpc(first, unpacker, [0, 1, "hello", [1, "first", "client"]])[2] is None
            with socket.create_connection(("127.0.0.1", port), timeout=10) as second:
                second_unpacker = msgpack.Unpacker(raw=False)
                hello = [0, 1, "hello", [1, "second", "client"]]
                assert rpc(second, second_unpacker, hello)[2] is None
                # the idle first connection made room for the second
                notice = rpc(first, unpacker, [0, 2, "ping", []])
                assert notice[:2] == [2, "error"] and "full" in notice[2][0]["message"]
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)
    finally:
        proc.kill()


def serve_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_serve_sets_the_request_budgets():
    limits = server_limits(serve_args())
    assert (limits.request_rate, limits.request_burst) == (200, 400)
    assert (limits.address_rate, limits.address_burst) == (1000, 2000)
    limits = server_limits(serve_args("--request-rate", "50", "--address-rate", "0"))
    assert (limits.request_rate, limits.request_burst) == (50, 100)
    assert limits.address_rate is None


def test_serve_sets_the_web_connections_cap(cli):
    assert server_limits(serve_args()).http_connections == 256
    assert server_limits(serve_args("--http-connections", "2048")).http_connections == 2048
    status, _, err = cli("serve", "--http-connections", "0")
    assert status == 2 and "--http-connections" in err


@pytest.mark.parametrize("value", ["-1", "fast", "nan", "inf"])
def test_serve_rejects_a_bad_rate(cli, value):
    status, _, err = cli("serve", "--request-rate", value)
    assert status == 2 and "tokens a second" in err
