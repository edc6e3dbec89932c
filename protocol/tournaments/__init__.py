"""The tournaments service: King-of-the-Hill tournaments played on the server, their ``tcp``
seats taken by connected bots, and carried on from the journal after a restart.

:mod:`.service` answers the ``tournament.*`` methods, :mod:`.run` is one tournament as it
plays, :mod:`.live` what a watcher sees of it, :mod:`.recovery` carries on the journal's
unfinished tournaments. Nothing here imports another service; ``croupier serve`` puts them
together (:mod:`croupier.protocol.services`).
"""

from croupier.protocol.tournaments.service import TournamentService

__all__ = ["TournamentService"]
