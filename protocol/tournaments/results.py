"""A tournament table's result as the journal keeps it (without its log), and back: a
restarted server books the tables it finished instead of playing them again."""

from __future__ import annotations

from typing import Any

from croupier.engine.tournament import TableJob, TableResult


def result_to_dict(result: TableResult) -> dict[str, Any]:
    """A tournament table's result as the journal keeps it (without its log)."""
    return {
        "job": result.job.to_dict(),
        "chips": list(result.chips),
        "hands": list(result.hands),
        "faults": list(result.faults),
        "decisions": result.decisions,
        "conserved": result.conserved,
        **({"scores": list(result.scores)} if result.scores else {}),
    }


def result_from_dict(data: dict[str, Any]) -> TableResult:
    job = dict(data["job"])
    job["bots"], job["chips"] = tuple(job["bots"]), tuple(job["chips"])
    return TableResult(
        TableJob(**job),
        tuple(data["chips"]),
        tuple(data["hands"]),
        tuple(data["faults"]),
        int(data["decisions"]),
        bool(data["conserved"]),
        scores=tuple(dict(s) for s in data.get("scores", ())),
    )
