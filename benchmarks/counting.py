"""Counting's cost on the compiled kernel: Hi-Lo with a 1-8 ramp and the I18 + Fab 4
against flat basic strategy, in the same run.

    .venv/bin/python benchmarks/counting.py [--rounds N] [--repeat R]

vegas-s17 (6 decks), one seat, the ``basic`` chart. Three jobs take turns ``--repeat``
times on one core: flat (the count-free kernel), Hi-Lo counted with a flat ramp and no
indices, and Hi-Lo with the ramp ``<=1:1,2:2,3:4,4:6,5+:8`` and the Illustrious 18 and
Fab 4 (insurance by its index); a fourth line, beside them, is the index kernel measuring
those 22 decisions by simulation (``solve blackjack --indices hilo --by-sim``: each
decision played both ways at every occurrence), which is not counting's cost but says
what a simulated index set costs a round. Each figure is the best of its runs in CPU time
(``time.process_time``; a shared machine steals less of it than of wall-clock time); the
ratio to flat is what to compare (target: counting costs at most 30%, a ratio >= 0.70).
"""

from __future__ import annotations

import argparse
import time

from croupier.engine import PluginManager
from croupier.plugins.blackjack.counting import CountPlay, parse_ramp
from croupier.plugins.blackjack.kernel.index_data import prepare_indices
from croupier.plugins.blackjack.sim_indices import IndexSim
from croupier.plugins.blackjack.simulate import compiled_job
from croupier.plugins.blackjack.strategy import local_strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="a tiny run, as CI makes to see that it still runs (its figures mean nothing)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.rounds, args.repeat = 20_000, 1
    manager = PluginManager()
    manager.load_all()
    rules = manager.rule_sets.get("vegas-s17").rules
    strategy = local_strategy(manager, "basic", rules).for_rules(rules)
    hilo = manager.count_systems.get("hilo")
    sets = manager.index_sets
    indices = sets.get("hilo-i18").entries + sets.get("hilo-fab4").entries
    ramp = parse_ramp("<=1:1,2:2,3:4,4:6,5+:8")
    jobs = {
        "flat basic": compiled_job(manager, rules, strategy, 1),
        "hilo, flat ramp, no indices": compiled_job(manager, rules, strategy, 1, CountPlay(hilo)),
        "hilo, 1-8 ramp, I18 + Fab 4": compiled_job(
            manager, rules, strategy, 1, CountPlay(hilo, ramp, indices=indices)
        ),
        "hilo, I18 + Fab 4 by simulation": prepare_indices(
            manager, rules, strategy, IndexSim(hilo, tuple(e.key for e in indices))
        ),
    }
    for job in jobs.values():  # compile (or load the cache) before timing
        job.run(job.data, 1, 1000)
    best = dict.fromkeys(jobs, float("inf"))
    for r in range(args.repeat):
        for name, job in jobs.items():
            t = time.process_time()
            job.run(job.data, 1000 + r, args.rounds)
            best[name] = min(best[name], time.process_time() - t)
    flat = args.rounds / best["flat basic"]
    print(f"vegas-s17, basic, 1 seat, {args.rounds:,} rounds, best of {args.repeat} (CPU time)")
    for name, seconds in best.items():
        rate = args.rounds / seconds
        print(f"{name:30s} {rate / 1e6:7.2f} M rounds/s  ratio to flat {rate / flat:.3f}")


if __name__ == "__main__":
    main()
