"""The King-of-the-Hill tournament: entries, seatings, tourneys and their bookkeeping.

A tournament is ``tourneys`` independent runs. In each run every bot starts with the rules'
``starting_chips`` (200 under ``koth``) and plays ``rounds`` rounds; a round seats the bots
that can still pay the buy-in at tables of at most ``table_size`` (4) plus a dealer, and each
table plays ``hands`` (5) hands. Seatings are a shuffle of the live bots drawn from
``Stream(seed).child("tourney-T", "round-R", "seating")``; when the number of bots is not a
multiple of the table size the tables are *balanced*: ``ceil(n / 4)`` tables whose sizes
differ by at most one (9 bots: 3 + 3 + 3; 10 bots: 4 + 3 + 3), so every live bot plays
every round and all play the same number of hands. Each table's cards come from its own
seed, ``Stream(seed).child("tourney-T", "round-R", "table-K").getrandbits(63)``, so a
table's play depends on nothing but the seed, its name and its seats' chips: not on the
order or the process in which tables are played.

In the ``duplicate`` format (as in duplicate bridge and the ACPC) every bot is dealt the same
cards: each tourney is played as ``rotations`` runs (the table size, or fewer bots), and in
every round all the tables of all of them are dealt from one seed,
``Stream(seed).child("tourney-T", "round-R", "deal")``; the bots are cut into tables by one
shuffle of all the entries (``"seating"``, the same in every rotation) and rotation ``r``
seats each table's bots shifted by ``r`` seats, so over the rotations each bot plays each
seat of the same deal (a table smaller than the largest repeats its first seatings; a bot
that has left a rotation's run leaves its seat empty there). A bot's score for the tourney is
its mean chips over the rotations: the luck of the cards is the same for every bot. Runs
are numbered ``(T - 1) * rotations + r + 1``; a job's ``tourney`` is its run.

A bot that cannot pay the buy-in leaves the run (its score is what it holds). A bot whose
faults (``default`` events: timeouts, crashes, garbage, refused answers) reach
``max_faults`` in one run is disqualified at the end of that round: it forfeits its chips to
the house (a score of 0) and sits out the rest of the run (``max_faults=0``: never).

:class:`Tournament` is the bookkeeping only (pure, no I/O): it hands out the :class:`TableJob`
of each round and takes back :class:`TableResult`; the drivers that play tables are in
:mod:`croupier.engine.tournament_run`.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from typing import Any, Protocol

import attrs

from croupier.engine.botnames import distinct_names
from croupier.engine.errors import CroupierError
from croupier.engine.gametable import GamePlayer
from croupier.engine.scoring import Scorecard
from croupier.engine.seeds import SEED_BITS, Stream
from croupier.engine.standings import Standing, rank
from croupier.engine.tournament_config import FORMATS as FORMATS
from croupier.engine.tournament_config import HANDS as HANDS
from croupier.engine.tournament_config import MAX_FAULTS as MAX_FAULTS
from croupier.engine.tournament_config import MAX_TOURNEYS as MAX_TOURNEYS
from croupier.engine.tournament_config import ROUNDS as ROUNDS
from croupier.engine.tournament_config import TABLE_SIZE as TABLE_SIZE
from croupier.engine.tournament_config import TOURNEYS as TOURNEYS
from croupier.engine.tournament_config import TournamentConfig as TournamentConfig


class Entry(Protocol):
    """A bot entered in a tournament: a name and a way to seat it at one table.

    ``player(stack)`` is called once per table the bot sits at (five hands) and may push
    clean-up onto ``stack`` (a working directory, a connection). Entries given to a process
    pool must pickle; any other :class:`~croupier.engine.gametable.GamePlayer` can still
    play through the in-process driver.
    """

    @property
    def name(self) -> str: ...

    def player(self, stack: ExitStack) -> GamePlayer: ...


def table_sizes(bots: int, size: int = TABLE_SIZE) -> list[int]:
    """``bots`` bots at ``ceil(bots / size)`` tables whose sizes differ by at most one."""
    if bots <= 0:
        return []
    tables = -(-bots // size)
    base, extra = divmod(bots, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def seat(stream: Stream, bots: Sequence[int], size: int = TABLE_SIZE) -> list[tuple[int, ...]]:
    """The tables of one round: a shuffle of ``bots`` cut into balanced tables, in seat order."""
    order = stream.shuffled(list(bots))
    tables = []
    start = 0
    for n in table_sizes(len(order), size):
        tables.append(tuple(order[start : start + n]))
        start += n
    return tables


@attrs.frozen
class TableJob:
    """One table of one round: which bots sit where (entry indices), their chips, its seed."""

    tourney: int
    round: int
    table: int
    seed: int
    bots: tuple[int, ...]
    chips: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["bots"], data["chips"] = list(self.bots), list(self.chips)
        return data


@attrs.frozen
class TableResult:
    """What a table's five hands did to its seats (indexed like ``job.bots``)."""

    job: TableJob
    chips: tuple[int, ...]
    hands: tuple[int, ...]
    faults: tuple[int, ...]
    decisions: int
    conserved: bool
    log: tuple[dict[str, Any], ...] = ()
    scores: tuple[dict[str, Any], ...] = ()
    """Each seat's :class:`~croupier.engine.scoring.Scorecard` (saved), when scored."""
    scored: tuple[dict[str, Any], ...] = ()
    """The log's lines of scored decisions (``{"scored": DecisionScore}``), when logged."""


@attrs.define
class Run:
    """One tourney in progress."""

    chips: list[int]
    hands: list[int]
    faults: list[int]
    disqualified: list[bool]
    house: int = 0
    over: bool = False


class Tournament:
    """The bookkeeping of a tournament (no play, no I/O): jobs out, results in."""

    def __init__(self, config: TournamentConfig, names: Sequence[str]) -> None:
        if not names:
            raise CroupierError("a tournament needs at least one bot")
        self.config = config
        self.names = distinct_names(names)  # same-named entries told apart in the standings
        n = len(names)
        start = config.starting_chips
        self.rotations = config.rotations(n)
        self.runs = [
            Run([start] * n, [0] * n, [0] * n, [False] * n)
            for _ in range(config.tourneys * self.rotations)
        ]
        self.round = 0
        self.tables = 0
        self.decisions = 0
        self.conserved = True
        self.cards = [Scorecard() for _ in names]
        """Each bot's scorecard over every table (empty unless the tournament is scored)."""

    @property
    def finished(self) -> bool:
        return self.round >= self.config.rounds or all(run.over for run in self.runs)

    def live(self, run: Run) -> list[int]:
        """The bots of ``run`` that play its next round."""
        low = self.config.min_bet
        return [
            bot for bot, chips in enumerate(run.chips) if chips >= low and not run.disqualified[bot]
        ]

    def next_jobs(self) -> list[TableJob]:
        """The tables of the next round of every run still going (empty when finished)."""
        if not self.begin_round():
            return []
        return [job for t in range(1, len(self.runs) + 1) for job in self.tourney_jobs(t)]

    def begin_round(self) -> bool:
        """Start the next round; False when the tournament is finished."""
        if self.finished:
            return False
        self.round += 1
        return True

    def tourneys_of(self, jobs: Sequence[TableJob]) -> int:
        """The tourneys ``jobs`` belong to (a duplicate tourney's rotations count once)."""
        return len({(job.tourney - 1) // self.rotations for job in jobs})

    def tourney_jobs(self, t: int) -> list[TableJob]:
        """The tables of run ``t`` (1-based) in the current round: none once the run is
        over, which is decided here when nobody in it can play on."""
        run = self.runs[t - 1]
        if run.over:
            return []
        live = self.live(run)
        if not live:
            run.over = True
            return []
        if self.config.duplicate:
            return self._duplicate_jobs(t, run, live)
        config = self.config
        root = Stream(config.seed)
        names = (f"tourney-{t}", f"round-{self.round}")
        tables = seat(root.child(*names, "seating"), live, config.table_size)
        jobs = []
        for k, bots in enumerate(tables, 1):
            table_seed = root.child(*names, f"table-{k}").getrandbits(SEED_BITS)
            chips = tuple(run.chips[b] for b in bots)
            jobs.append(TableJob(t, self.round, k, table_seed, bots, chips))
        return jobs

    def _duplicate_jobs(self, t: int, run: Run, live: list[int]) -> list[TableJob]:
        """Run ``t``'s tables in a duplicate tourney: the tourney's one seating of all the
        entries, each table's seats shifted by the run's rotation, one deal for all."""
        tourney, rotation = divmod(t - 1, self.rotations)
        root = Stream(self.config.seed)
        names = (f"tourney-{tourney + 1}", f"round-{self.round}")
        deal = root.child(*names, "deal").getrandbits(SEED_BITS)
        everyone = range(len(self.names))
        playing = set(live)
        jobs = []
        for k, group in enumerate(
            seat(root.child(*names, "seating"), everyone, self.config.table_size), 1
        ):
            shift = rotation % len(group)
            bots = tuple(b for b in group[shift:] + group[:shift] if b in playing)
            if bots:
                chips = tuple(run.chips[b] for b in bots)
                jobs.append(TableJob(t, self.round, k, deal, bots, chips))
        return jobs

    def apply(self, results: Sequence[TableResult]) -> list[dict[str, Any]]:
        """Book results of the current round (in job order; a round may be booked in
        parts, since each bot sits at one table a round); the disqualifications they
        caused."""
        touched = set()
        for result in results:
            job = result.job
            run = self.runs[job.tourney - 1]
            if tuple(run.chips[b] for b in job.bots) != job.chips:
                raise CroupierError(f"table {job.to_dict()} does not match the tournament")
            before = sum(job.chips)
            for i, bot in enumerate(job.bots):
                if result.scores:
                    self.cards[bot].merge(Scorecard.load(result.scores[i]))
                run.chips[bot] = result.chips[i]
                run.hands[bot] += result.hands[i]
                run.faults[bot] += result.faults[i]
            run.house += before - sum(result.chips)
            self.tables += 1
            self.decisions += result.decisions
            self.conserved = self.conserved and result.conserved
            touched.add(job.tourney)
        notes = []
        limit = self.config.max_faults
        for t in sorted(touched):
            run = self.runs[t - 1]
            for bot, faults in enumerate(run.faults):
                if limit and faults >= limit and not run.disqualified[bot]:
                    run.disqualified[bot] = True
                    notes.append(
                        {"tourney": t, "round": self.round, "bot": bot, "forfeit": run.chips[bot]}
                    )
                    run.house += run.chips[bot]
                    run.chips[bot] = 0
        for t in touched:  # only a touched run's chips moved
            run = self.runs[t - 1]
            total = sum(run.chips) + run.house
            self.conserved = self.conserved and total == len(self.names) * (
                self.config.starting_chips
            )
        return notes

    def scores(self, bot: int) -> list[float]:
        """``bot``'s score in each tourney: its chips at the end of the run (in a duplicate
        tourney, the mean over its rotations)."""
        if self.rotations == 1:
            return [run.chips[bot] for run in self.runs]
        k = self.rotations
        return [
            sum(run.chips[bot] for run in self.runs[t : t + k]) / k
            for t in range(0, len(self.runs), k)
        ]

    def standings(self) -> list[Standing]:
        """The standings so far; scored, each line holds its bot's scorecard (``skill``)."""
        lines = self._ranked()
        if not self.config.scored or not any(card.rounds for card in self.cards):
            return lines  # (a replayed log: nothing was scored again)
        return [attrs.evolve(line, skill=self.cards[line.bot].to_dict()) for line in lines]

    def _ranked(self) -> list[Standing]:
        n = len(self.names)
        low = self.config.min_bet
        return rank(
            self.names,
            [self.scores(b) for b in range(n)],
            [sum(run.hands[b] for run in self.runs) for b in range(n)],
            [sum(run.faults[b] for run in self.runs) for b in range(n)],
            [
                sum(run.chips[b] < low and not run.disqualified[b] for run in self.runs)
                for b in range(n)
            ],
            [sum(run.disqualified[b] for run in self.runs) for b in range(n)],
        )

    def hands(self) -> int:
        """Hands played so far, counting each bot's hand once."""
        return sum(sum(run.hands) for run in self.runs)
