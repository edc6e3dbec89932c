"""A game's dictionary for blocks, trained in a thread of its own, off the commit path.

Training zstandard's dictionary on a game's first blocks takes a fifth of a second or more
(185 ms of a 207 ms commit, measured by the kill benchmark), and the writer used to train
inside the commit that reached :data:`~croupier.protocol.journal.packing.BLOCK_TRAIN_AT`
rounds: every round waiting for that commit waited for the training too, past the 50 ms
the journal promises. Now the writer hands the samples to a :class:`BlockTraining` and goes
on compressing without a dictionary; it takes the dictionary at its next block of that game
once the training is done (zstandard trains in C without the interpreter lock, so neither
the writer nor the event loop waits for it). Which blocks use the dictionary then depends
on timing; what they decode to never does.
"""

from __future__ import annotations

import threading

import zstandard

DICTIONARY_SIZE = 64 * 1024
TRAINING_LEVEL = 6
"""The level the dictionary is tuned for: the blocks' (``BLOCK_LEVEL``)."""


def train_blocks(samples: list[bytes | bytearray | memoryview]) -> bytes:
    """A dictionary for blocks like ``samples``; :class:`zstandard.ZstdError` when they are
    too few to learn from. The parameters are fixed (``k=1024, d=8``): zstandard's search
    for them, on so few samples, chose worse dictionaries."""
    trained = zstandard.train_dictionary(
        DICTIONARY_SIZE, samples, level=TRAINING_LEVEL, k=1024, d=8
    )
    return trained.as_bytes()


class BlockTraining:
    """One game's dictionary being trained on ``samples`` (the blocks of its first ``seen``
    rounds) in a daemon thread: :meth:`done` says when ``data`` is ready (None: the samples
    were too few, try again on later blocks)."""

    def __init__(self, samples: list[bytes | bytearray | memoryview], seen: int) -> None:
        self.seen = seen
        self.data: bytes | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(samples,), name="croupier-journal-training", daemon=True
        )
        self._thread.start()

    def _run(self, samples: list[bytes | bytearray | memoryview]) -> None:
        try:
            self.data = train_blocks(samples)
        except zstandard.ZstdError:
            self.data = None
        finally:
            self._done.set()

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self) -> None:
        """Until the training is over (tests, and a packer asked to finish it)."""
        self._done.wait()
