"""The tables service: tables created, joined, watched and played on the server, and
rebuilt from the journal after a restart.

:mod:`.service` answers the ``table.*`` methods, :mod:`.run` is one table as it plays,
:mod:`.recovery` rebuilds the journal's unfinished tables. Nothing here imports another
service; ``croupier serve`` puts them together (:mod:`croupier.protocol.services`).
"""

from croupier.protocol.tables.service import TableService

__all__ = ["TableService"]
