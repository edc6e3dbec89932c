"""croupier serve gives large freed buffers back to the system (glibc's mmap threshold)."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = r"""
import re, sys
import msgpack
from croupier.protocol.memory import return_large_buffers

def rss():
    return int(re.search(r"VmRSS:\s+(\d+)", open("/proc/self/status").read()).group(1))

if sys.argv[1] == "pinned":
    assert return_large_buffers()
# what 200 connections each holding an unfinished 1 MB message leave behind once closed
part = msgpack.packb([0, 1, "ping", ["x" * 1_000_000]])[:1_000_000]
base = rss()
held = []
for _ in range(200):
    unpacker = msgpack.Unpacker(max_buffer_size=2 << 20)
    for start in range(0, len(part), 65536):
        unpacker.feed(part[start : start + 65536])
    held.append(unpacker)
del held
print(rss() - base)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_freed_megabyte_buffers_go_back_to_the_system():
    def left(mode: str) -> int:
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, check=True
        )
        return int(out.stdout)

    assert left("pinned") < 20_000  # kB still resident after 200 MB came and went
