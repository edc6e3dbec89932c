"""``croupier solve blackjack --indices COUNT --by-sim``: indices measured on the compiled
simulator, beside the exact generator's (docs/counting.md)."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from croupier.engine import (
    CommandKit,
    CountSystem,
    CroupierError,
    PluginManager,
    Printer,
    ReportTable,
    draw_seed,
)
from croupier.plugins.blackjack.indices import write_indices
from croupier.plugins.blackjack.sim_indices import READINGS

if TYPE_CHECKING:
    from croupier.plugins.blackjack.rules import BlackjackRules
    from croupier.plugins.blackjack.sim_indices import SimFound


def add_sim_arguments(group: argparse._ArgumentGroup, kit: CommandKit) -> None:
    """The options of the simulation route (``--workers`` is shared with the exact one)."""
    group.add_argument(
        "--by-sim",
        action="store_true",
        help="measure the indices on the compiled simulator (each decision played both "
        "ways at every occurrence) and compare them with the exact ones",
    )
    group.add_argument(
        "--hands",
        type=kit.count_type,
        help="--by-sim: rounds to deal, e.g. 1e8 (default: 10000000)",
    )
    group.add_argument(
        "--reading",
        choices=READINGS,
        help="--by-sim: read the true count at the decision, every card seen, as a player "
        "deviates (default), or at the round's start, as the exact generator's shoes",
    )
    group.add_argument(
        "--seed", type=kit.seed_type, help="--by-sim: the simulation's seed (default: draw one)"
    )


def check_sim_arguments(args: argparse.Namespace) -> None:
    """Refuse the simulation's options without ``--by-sim``."""
    if not args.by_sim and (args.hands or args.reading or args.seed is not None):
        raise CroupierError("--hands, --reading and --seed go with --by-sim")


def _decisions(solution: dict[str, Any]) -> tuple[tuple[str, str, str], ...]:
    """The exact solution's decisions: those with an index, then those unchanged."""
    out = [(x["decision"], x["hand"], x["upcard"]) for x in solution["indices"]]
    for label in solution["unchanged"]:
        kind, hand, _, up = label.split()
        out.append((kind, hand, up))
    return tuple(out)


def _seed(args: argparse.Namespace, kit: CommandKit) -> int:
    """``--seed``, or a fresh seed, reported on stderr."""
    if args.seed is not None:
        return int(args.seed)
    seed = draw_seed()
    kit.report_seed(seed)
    return seed


def run_by_sim(
    args: argparse.Namespace,
    kit: CommandKit,
    manager: PluginManager,
    rules: BlackjackRules,
    system: CountSystem,
    solution: dict[str, Any],
) -> int:
    """Measure the exact solution's decisions by simulation; show, write, compare."""
    from croupier.engine import chunk_count, default_workers, open_executor
    from croupier.plugins.blackjack.sim_indices import IndexSim, simulate_indices

    if args.rounding:
        system = attrs.evolve(system, rounding=args.rounding)
    sim = IndexSim(
        system,
        _decisions(solution),
        reading=args.reading or "decision",
        rows=args.rows or "all",
    )
    hands = args.hands or 10_000_000
    workers = min(max(1, args.workers or default_workers()), chunk_count(hands))
    with ExitStack() as stack:
        executor = stack.enter_context(open_executor(workers))
        seed = _seed(args, kit)
        with kit.progress("measuring indices", hands) as tick:
            run = simulate_indices(
                manager, rules, sim, hands, seed, executor=executor, progress=lambda n, _: tick(n)
            )
    exact = {(x["decision"], x["hand"], x["upcard"]): x for x in solution["indices"]}
    measured = [f for f in run.found if f.index is not None]
    r = solution["rules"]
    about = (
        f"{r['decks']} decks, {r['dealer']}, double {r['double']}, "
        f"{'DAS' if r['double_after_split'] else 'no DAS'}, surrender {r['surrender']}, "
        f"penetration {r['penetration']}; true count {system.rounding}, read at the "
        f"{sim.reading}; {sim.rows} rows"
    )
    if args.out:
        comments = [
            f"{system.name} indices measured by simulation (croupier solve blackjack "
            f"--indices {system.name} --by-sim --hands {run.rounds} --seed {seed}; each "
            "decision played both ways at every occurrence, one seat, the basic chart; "
            "docs/counting.md)",
            f"rules: {about}",
        ]
        Path(args.out).write_text(write_indices([f.entry() for f in measured], comments))
    if args.plot:
        kit.plot(
            "indices",
            args.plot,
            [f.to_dict() for f in measured],
            f"{system.name} indices by simulation ({run.rounds:,} rounds, seed {seed}): "
            f"{r['decks']} decks, {r['dealer']}",
        )
    result = {
        "count": system.name,
        "rounding": system.rounding,
        "reading": sim.reading,
        "rows": sim.rows,
        "rounds": run.rounds,
        "seed": seed,
        "partial": run.partial,
        "forks_dry": run.forks_dry,
        "rounds_dry": run.rounds_dry,
        "indices": [f.to_dict() for f in measured],
        "unchanged": [" ".join(f.key) for f in run.found if f.index is None],
    }
    if args.json:
        kit.print_json({"simulated": result, "exact": solution})
        return 130 if run.partial else 0
    printer = kit.printer()
    show(printer, run.found, exact, system, about, run.rounds, seed)
    if args.out:
        printer.text(f"wrote {args.out}")
    return 130 if run.partial else 0


def agrees(found: SimFound, exact: dict[str, Any] | None) -> str:
    """``yes`` when the exact crossing lies in the simulated 95% interval, ``no`` when not,
    ``-`` when either has none."""
    if exact is None or found.interval is None or exact.get("crossing") is None:
        return "-"
    low, high = found.interval
    return "yes" if low <= exact["crossing"] <= high else "no"


def show(
    printer: Printer,
    found: list[SimFound],
    exact: dict[tuple[str, str, str], dict[str, Any]],
    system: CountSystem,
    about: str,
    rounds: int,
    seed: int,
) -> None:
    """The simulated indices beside the exact ones."""
    table = ReportTable(f"{system.name} indices: exact and by simulation")
    for column in (
        "decision",
        "hand",
        "up",
        "exact",
        "crossing",
        "sim",
        "crossing",
        "95% CI",
        "in CI",
    ):
        table.add_column(
            column, justify="left" if column in ("decision", "hand", "up") else "right"
        )
    for f in found:
        e = exact.get(f.key)
        table.add_row(
            *f.key,
            f"{e['index']:+d} {e['direction']}" if e else "-",
            f"{e['crossing']:+.2f}" if e else "-",
            f"{f.index:+d} {f.direction}" if f.index is not None else "-",
            f"{f.crossing:+.2f}" if f.crossing is not None else "-",
            f"{f.interval[0]:+.2f} .. {f.interval[1]:+.2f}" if f.interval else "-",
            agrees(f, e),
        )
    printer.table(table)
    printer.text(
        f"{about}. Simulated: {rounds:,} rounds, seed {seed}; crossing: where the fitted "
        "gain is zero (unrounded true count), with its 95% interval; '-': unchanged over "
        "the counts measured."
    )
