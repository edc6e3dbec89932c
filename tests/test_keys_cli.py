"""``croupier keys`` offline on a journal, and ``croupier serve --auth``'s refusals."""

from __future__ import annotations

import json

from croupier.protocol.journal import Journal


def test_keys_add_list_revoke_offline(cli, tmp_path):
    data = str(tmp_path / "j.db")
    status, out, err = cli("keys", "add", "alice", "--author", "Ann", "--data", data)
    assert status == 0, err
    key = out.splitlines()[-1]
    assert "shown this once" in out and len(key) >= 20
    status, out, err = cli("keys", "add", "alice", "--data", data)
    assert status == 1 and err == "croupier: error: a bot named 'alice' is already registered\n"
    status, out, _ = cli("keys", "list", "--data", data, "--json")
    listed = json.loads(out)
    assert [(e["name"], e["author"], e["revoked"]) for e in listed] == [("alice", "Ann", None)]
    assert key not in (tmp_path / "j.db").read_bytes().decode(errors="replace")
    assert cli("keys", "revoke", "alice", "--data", data)[0] == 0
    status, _, err = cli("keys", "revoke", "bob", "--data", data)
    assert status == 1 and err.count("\n") == 1 and "no registered bot 'bob'" in err
    status, out, _ = cli("keys", "list", "--data", data)
    assert "alice by Ann" in out and "revoked" in out


def test_keys_offline_refuse_a_journal_a_server_holds(cli, tmp_path):
    data = str(tmp_path / "j.db")
    held = Journal(data)  # as a running server holds it
    try:
        status, _, err = cli("keys", "add", "x", "--data", data)
        assert status == 1 and "in use by another croupier serve" in err and err.count("\n") == 1
    finally:
        held.close()


def test_keys_over_the_protocol_need_the_operator_key(cli, threaded_server):
    where = f"127.0.0.1:{threaded_server}"
    status, _, err = cli("keys", "list", "--connect", where)
    assert status == 1 and "--operator-key" in err
    status, _, err = cli("keys", "list", "--connect", where, "--operator-key", "wrong")
    assert status == 1 and err.startswith("croupier: error: the server refused: registering")


def test_serve_refuses_open_auth_beyond_loopback(cli):
    status, _, err = cli("serve", "--host", "0.0.0.0", "--port", "0")
    assert status == 1 and err.count("\n") == 1
    assert "--auth keys" in err and "--auth open-public" in err
    status, _, err = cli("serve", "--auth", "nobody")
    assert status == 2 and "invalid choice" in err
