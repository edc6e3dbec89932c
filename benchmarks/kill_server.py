"""The kill benchmark's server: a real ``croupier serve --data`` in its own process, SIGKILLed
and restarted on its journal, and calls that are asked again across kills
(``benchmarks/durability.py --kills``)."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import trio

from croupier.protocol import Code, RpcError, connect
from croupier.protocol.errors import ConnectionClosed


class Killed:
    """``croupier serve --data PATH`` in its own process, SIGKILLed and restarted."""

    def __init__(self, path: Path) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = int(sock.getsockname()[1])
        self.path = path
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = path.with_suffix(".log")  # the servers' stderr: why one did not start
        self.spawned = 0.0
        """When the running server's process was started (monotonic): no round it deals
        settles before."""

    async def start(self) -> None:
        with self.log.open("ab") as log:
            self.spawned = time.monotonic()
            self.proc = self._popen(log)
        while True:  # until it answers
            if self.proc.poll() is not None:  # it could not start: say why, never wait on
                last = self.log.read_text(errors="replace").strip().splitlines()[-3:]
                raise SystemExit(f"croupier serve exited {self.proc.returncode}: {last}")
            try:
                async with connect("127.0.0.1", self.port, name="probe") as client:
                    await client.call("ping")
                    return
            except (OSError, RpcError, Exception):
                await trio.sleep(0.05)

    def _popen(self, log: Any) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "croupier.clients.cli",
                "serve",
                "--seed",
                "1",
                "--port",
                str(self.port),
                "--data",
                str(self.path),
            ],
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**os.environ, "CROUPIER_DISABLE_PLUGIN_AUTOLOAD": "1"},
        )

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait()

    def committed(self) -> dict[int, int]:
        """Each table's last settled round in the journal (read while the server is down)."""
        conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            found = conn.execute(
                "SELECT table_id, max(round) FROM events GROUP BY table_id"
            ).fetchall()
        except sqlite3.OperationalError:  # no events table yet
            found = []
        finally:
            conn.close()
        return {table: last or 0 for table, last in found}


async def call_retrying(server: Killed, method: str, params: dict[str, Any]) -> Any:
    """``method`` on whichever server is up, asked again across kills and ``recovering``."""
    while True:
        try:
            async with connect("127.0.0.1", server.port, name="load") as client:
                return await client.call_named(method, params)
        except ConnectionClosed:  # the server was killed under the call (or the hello)
            pass
        except RpcError as exc:
            if exc.code not in (Code.RECOVERING,) and "closed" not in str(exc).lower():
                raise
        except Exception:  # the server was killed under the call: ask again
            pass
        await trio.sleep(0.05)
