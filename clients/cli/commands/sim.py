"""``croupier sim``: play many hands with a built-in strategy and report the result."""

from __future__ import annotations

import argparse
import json
import math
import sys
from contextlib import ExitStack
from decimal import Decimal, InvalidOperation
from typing import Any

from rich.markup import escape

from croupier.clients.cli.common import (
    add_json_argument,
    add_seed_argument,
    get_manager,
    load_plugins,
    positive_int,
    print_json,
    progress,
    resolve_seed,
    stdout_console,
)
from croupier.clients.cli.executing import add_executor_arguments, executor_for
from croupier.clients.cli.gameoptions import add_game_options, game_options
from croupier.clients.cli.shoenote import fresh_pack_note
from croupier.clients.cli.simcount import (
    count_play,
    counting_wanted,
    show_counting,
    write_csv,
)
from croupier.clients.cli.simgame import add_game_arguments, run_game
from croupier.clients.cli.simprogress import sim_progress
from croupier.clients.cli.stopping import stop_on_signals
from croupier.engine import CroupierError
from croupier.engine.chunks import chunk_count
from croupier.engine.executor import default_workers
from croupier.plugins.blackjack.charts import chart_strategy
from croupier.plugins.blackjack.cli_rules import rules_from_args
from croupier.plugins.blackjack.counting import ramp_text
from croupier.plugins.blackjack.simulate import (
    NotCompiled,
    compiled_job,
    simulate,
    simulate_compiled,
)
from croupier.plugins.blackjack.strategy import local_strategy

MAX_HANDS = 10**13


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "sim",
        help="simulate a strategy at a table of blackjack (or another game)",
        description=(
            "Deal HANDS rounds at a table of SEATS seats, every seat playing one built-in "
            "strategy with a flat minimum bet and an unlimited bankroll, and report the "
            "result per initial hand (a 95% confidence interval) and the rates of wins, "
            "pushes, losses, naturals, busts, doubles and splits. With --game, another "
            "game's table: --rules names its rule set, --set NAME=VALUE its options."
        ),
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--rules",
        default=None,
        metavar="NAME",
        help="rule set (default: vegas-s17; with --game, the game's standard rules)",
    )
    parser.add_argument(
        "--strategy",
        default=None,
        metavar="NAME",
        help="strategy (default: lim17; with --game, the game's first), or a chart file "
        "FILE.csv (croupier solve blackjack --csv writes one)",
    )
    parser.add_argument(
        "--hands",
        type=count_type,
        default=100_000,
        help="rounds to deal, e.g. 1000000 or 1e9 (default: 100000)",
    )
    parser.add_argument("--seats", type=positive_int, default=1, help="seats, 1-7 (default: 1)")
    parser.add_argument(
        "--engine",
        choices=("auto", "compiled", "python"),
        default="auto",
        help="compiled: the numba kernel (casino rules, strategies given as charts); python: "
        "the round engine; auto (default): compiled when it can play the table, else python",
    )
    add_executor_arguments(
        parser,
        "default: threads instead, see --threads; compiled engine only",
        "default: one per core, as many as there are chunks of a million hands; the "
        "compiled kernel releases the GIL, so threads start at once and load nothing again",
    )
    add_seed_argument(parser)
    add_json_argument(parser)
    add_game_options(parser, "sim", load_plugins())
    parser.set_defaults(func=run)


def _shown(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def _digits(ci95: list[float] | None) -> int:
    """Decimals of a percentage that show the interval's half-width to two significant
    figures (2 at least, 4 at most): 1e9 hands resolve the third decimal."""
    if ci95 is None or ci95[1] <= ci95[0]:
        return 2
    half = (ci95[1] - ci95[0]) / 2 * 100
    return max(2, min(4, 1 - math.floor(math.log10(half))))


def _percent(value: float, digits: int) -> str:
    return f"{100 * value:+.{digits}f}%"


def count_type(text: str) -> int:
    """A positive whole number, written plainly or as ``1e9`` or ``1_000_000``."""
    try:
        value = Decimal(text.strip().replace("_", ""))
    except InvalidOperation:
        raise argparse.ArgumentTypeError(
            f"expected a positive whole number, not {text!r}"
        ) from None
    if not value.is_finite() or value != value.to_integral_value() or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, not {text!r}")
    if value > MAX_HANDS:
        raise argparse.ArgumentTypeError(f"at most {MAX_HANDS:.0e} hands, not {text!r}")
    return int(value)


def local_slots(args: argparse.Namespace, chunks: int) -> tuple[int, int]:
    """(worker processes, threads) for a compiled run of ``chunks`` chunks: what
    ``--workers`` or ``--threads`` asks for, else a thread per core. Threads by default:
    the kernel releases the GIL, and worker processes each import croupier and numba and
    load the kernel (2 workers were 0.80x of one at 10^8 hands), so a default run is
    never slower than one on this process."""
    if args.workers is not None:
        return min(args.workers, chunks), 0
    threads = args.threads if args.threads is not None else default_workers()
    return 1, min(threads, chunks)


def run(args: argparse.Namespace) -> int:
    manager = get_manager()
    if args.game != "blackjack":
        return run_game(manager, args)
    game_options(manager, "sim", manager.games.get("blackjack"), args)  # others' refused
    args.rules = args.rules or "vegas-s17"
    args.strategy = args.strategy or "lim17"
    if args.options:
        raise CroupierError("--set applies to other games; blackjack has an option per rule")
    if args.starting_chips is not None:
        raise CroupierError(
            "--chips does not apply to croupier sim: every seat has an unlimited bankroll "
            "and the result is per hand"
        )
    rules = rules_from_args(manager, args)
    base = manager.rule_sets.get(args.rules).rules.to_dict()
    changed = {k: v for k, v in rules.to_dict().items() if base.get(k) != v}
    if args.strategy.lower().endswith(".csv"):
        strategy = chart_strategy(args.strategy)
    else:
        strategy = local_strategy(manager, args.strategy, rules)
    if not 1 <= args.seats <= 7:
        raise CroupierError(f"a table has 1 to 7 seats, not {args.seats}")
    if args.cluster and args.engine == "python":
        raise CroupierError("--cluster runs the compiled engine only, not --engine python")
    play = count_play(manager, args, rules) if counting_wanted(args) else None
    if args.plot is not None:
        from croupier.clients.cli.countplot import check_plot_path

        check_plot_path(args.plot)  # before a seed is drawn or anything is played
    if play is not None and args.engine == "python":
        raise CroupierError("--count plays on the compiled engine, not --engine python")
    report = None
    if args.engine != "python":
        try:
            job_ok = compiled_job(manager, rules, strategy.for_rules(rules), args.seats, play)
        except NotCompiled as exc:
            if args.cluster:
                raise CroupierError(f"--cluster needs the compiled engine: {exc}") from None
            if args.engine == "compiled" or play is not None:
                raise CroupierError(f"the compiled engine cannot play this: {exc}") from None
            print(f"croupier: notice: simulating in Python: {exc}", file=sys.stderr)
            job_ok = None
    compiled = args.engine != "python" and job_ok is not None
    chunks = chunk_count(args.hands)  # never more local workers than chunks
    with ExitStack() as stack:
        where = executor_for(args, *local_slots(args, chunks))
        executor = stack.enter_context(where) if compiled else None
        seed = resolve_seed(args)  # once the cluster answered: an error is the only line
        if executor is not None:
            if rules.shoe == "fresh-pack" and job_ok is not None:
                note = fresh_pack_note(job_ok, args.hands, executor.slots, executor.where)
                if note is not None:
                    print(note, file=sys.stderr)
            with sim_progress(args.hands, rules.min_bet) as chunk_tick:
                report = simulate_compiled(
                    manager,
                    rules,
                    strategy,
                    args.hands,
                    args.seats,
                    seed,
                    executor=executor,
                    progress=chunk_tick,
                    play=play,
                    hands_per_hour=args.hands_per_hour,
                    bankroll=args.bankroll,
                )
            report.pop("totals", None)
            report["engine"] = "compiled"
            report["ran_on"] = executor.where
        else:
            with progress("simulating", args.hands) as tick, stop_on_signals():
                report = simulate(
                    manager, rules, strategy, args.hands, args.seats, seed, progress=tick
                )
            report["engine"] = "python"
    result: dict[str, Any] = {
        "rules": args.rules,
        "options": rules.to_dict(),
        "overrides": changed,
        "strategy": strategy.name,
        "seats": args.seats,
        "rounds": args.hands,
        "seed": seed,
        **report,
    }
    status = 130 if report.get("partial") else 0  # stopped by Ctrl-C: what was done
    if play is not None and args.csv:
        about = [
            f"croupier sim --rules {args.rules} --strategy {strategy.name} --count "
            f"{play.system.name} --ramp '{ramp_text(play.ramp)}' --seed {seed}"
            + "".join(
                f" --{name.replace('_', '-')} {value}"
                for name in ("wong_in", "wong_out", "indices", "spots_at")
                if (value := getattr(args, name)) is not None
            ),
            f"{args.hands} rounds, {args.seats} seat(s), options {json.dumps(changed)}; "
            "money in units of the minimum bet",
        ]
        write_csv(args.csv, report["counting"]["per_count"], about)
    if play is not None and args.plot is not None:
        from croupier.clients.cli.countplot import plot_counts

        plot_counts(
            args.plot,
            report["counting"]["per_count"],
            f"{args.rules}, {strategy.name}, {play.system.name} ramp "
            f"{ramp_text(play.ramp)}; {args.hands:,} rounds, seed {seed}",
        )
    if args.json:
        print_json(result)
        return status
    console = stdout_console()
    digits = _digits(report["ci95"])
    interval = (
        "95% CI needs 2 hands or more"
        if report["ci95"] is None
        else "95% CI {} .. {}".format(*(_percent(v, digits) for v in report["ci95"]))
    )
    seats = "seat" if args.seats == 1 else "seats"
    table = args.rules
    if changed:  # every option that differs from the rule set, as the table played it
        table += " with " + ", ".join(f"{k} {_shown(v)}" for k, v in changed.items())
    console.print(
        f"[bold]{escape(table)}[/], strategy {strategy.name}, {args.seats} {seats}, "
        f"{report['hands']:,} initial hands (seed {seed}, {report['engine']} engine"
        f"{' on ' + report['ran_on'] if 'ran_on' in report else ''})"
    )
    if report.get("partial"):
        console.print(
            f"[bold yellow]partial:[/] stopped after {report['rounds_played']:,} of "
            f"{args.hands:,} rounds, the same as --seed {seed} --hands {report['rounds_played']} "
            f"(rerun with --seed {seed} for the whole run)"
        )
    mean = _percent(report["mean"], digits)
    console.print(f"result per initial hand: {mean} of the bet ({interval})")
    if report.get("per_100_hands_ci95") is not None:
        low, high = report["per_100_hands_ci95"]
        console.print(
            f"per 100 hands {report['per_100_hands']:+.2f} bets (95% CI {low:+.2f} .. "
            f"{high:+.2f}), SD per hand {report['sd']:.3f} bets"
        )
    console.print(
        f"wins {report['win_rate']:.2%}  pushes {report['push_rate']:.2%}  "
        f"losses {report['loss_rate']:.2%}"
    )
    console.print(
        f"naturals {report['natural_rate']:.2%}  busts {report['bust_rate']:.2%}  "
        f"doubles {report['double_rate']:.2%}  splits {report['split_rate']:.2%}"
    )
    if play is not None:
        show_counting(console, play, report["counting"], seed)
    return status
