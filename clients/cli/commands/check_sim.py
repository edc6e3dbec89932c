"""``croupier check-sim``: is a simulator's reported blackjack result consistent with the
exact value? The oracle for anyone's simulator, from the exact round distribution."""

from __future__ import annotations

import argparse
import math
from typing import Any

from croupier.clients.cli.common import add_json_argument, get_manager, print_json, working
from croupier.engine import CroupierError
from croupier.plugins.blackjack.charts import chart_strategy
from croupier.plugins.blackjack.cli_rules import add_rules_arguments, rules_from_args
from croupier.plugins.blackjack.rules import BlackjackRules
from croupier.plugins.blackjack.solver import solve_rules
from croupier.plugins.blackjack.solver.chart import Chart
from croupier.plugins.blackjack.solver.distribution import RoundDistribution, round_distribution

Z95 = 1.959963984540054  # two-sided 5% test
Z80 = 0.8416212335729143  # 80% power
ALPHA = 0.05
FRESH = "a full shoe, freshly shuffled every round"
CUT_CARD_NOTE = (
    "the exact value is for {shoe} (or an infinite deck with --decks inf); a simulator "
    "that deals a persistent shoe down to a cut card plays a slightly different game (the "
    "cut-card effect): check a run with a fresh shoe each round (croupier sim --shoe "
    "fresh-pack does this)"
)


def register(sub: argparse._SubParsersAction[Any]) -> None:
    parser = sub.add_parser(
        "check-sim",
        help="is a blackjack simulator's reported EV consistent with the exact value?",
        description=(
            "Take a simulator's reported result for a rule set and a strategy (EV per hand, "
            "its SD or 95% interval, hands played) and say whether it is consistent with "
            "the exact EV from croupier's solver: z-score, two-sided p-value, verdict, and "
            "how many hands would detect a given error. Amounts are per hand (per round, "
            "splits included) in units of the initial bet (-0.0034), or in percent with a "
            "% sign (-0.34%). See docs/check-sim.md."
        ),
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--strategy",
        default="basic",
        metavar="basic|FILE.csv",
        help="the strategy the simulator played: basic (the solver's chart for the rules) "
        "or a chart file (croupier solve blackjack --csv writes one) (default: basic)",
    )
    parser.add_argument("--ev", metavar="X", help="the reported EV per hand (units or N%%)")
    spread = parser.add_mutually_exclusive_group()
    spread.add_argument(
        "--sd", metavar="S", help="the reported SD of one hand's result (units or N%%)"
    )
    spread.add_argument(
        "--ci", metavar="LO,HI", help="the reported 95%% interval of the EV (units or N%%)"
    )
    parser.add_argument("--hands", metavar="N", help="hands (rounds) played, e.g. 1e6")
    parser.add_argument(
        "--detect",
        metavar="E",
        default="0.001",
        help="an error in the EV to size a run for (units or N%%; default 0.001 = 0.1%%)",
    )
    add_json_argument(parser)
    parser.set_defaults(func=run)


def amount(text: str | None, name: str, positive: bool = False) -> float:
    """A per-hand amount: units of the bet (``-0.0034``) or percent (``-0.34%``)."""
    if text is None:
        raise CroupierError(f"{name} is required")
    raw = text.strip()
    scale = 0.01 if raw.endswith("%") else 1.0
    try:
        value = float(raw.rstrip("%").strip()) * scale
    except ValueError:
        raise CroupierError(f"{name} is a number (units) or a percentage, not {text!r}") from None
    if not math.isfinite(value):
        raise CroupierError(f"{name} must be finite, not {text!r}")
    if positive and value <= 0:
        raise CroupierError(f"{name} must be positive, not {text!r}")
    return value


def hands_count(text: str | None) -> int:
    if text is None:
        raise CroupierError("--hands is required (the hands the simulator played)")
    try:
        value = float(text.replace("_", ""))
    except ValueError:
        raise CroupierError(
            f"--hands is a whole number such as 1000000 or 1e6, not {text!r}"
        ) from None
    if not math.isfinite(value) or value < 2 or value != int(value):
        raise CroupierError(f"--hands is a whole number of at least 2, not {text!r}")
    return int(value)


def interval(text: str) -> tuple[float, float]:
    parts = text.split(",")
    if len(parts) != 2:
        raise CroupierError(f"--ci is LO,HI (e.g. -0.6%,-0.1%), not {text!r}")
    low, high = (amount(p, "--ci") for p in parts)
    if not low < high:
        raise CroupierError(f"--ci needs LO < HI, not {text!r}")
    return low, high


def exact_chart(rules: BlackjackRules, strategy: str) -> tuple[str, Chart]:
    if strategy.lower().endswith(".csv"):
        table = chart_strategy(strategy).table
        assert table is not None
        return strategy, Chart(hard=table.hard, soft=table.soft, pairs=table.pairs)
    if strategy != "basic":
        raise CroupierError(f"--strategy is basic or a chart file FILE.csv, not {strategy!r}")
    return "basic", solve_rules(rules).chart


def p_value(z: float) -> float:
    """Two-sided p-value of a standard normal z."""
    return math.erfc(abs(z) / math.sqrt(2))


def hands_to_detect(error: float, sd: float, power_z: float) -> int:
    """Hands for a two-sided 5% test to flag an EV error of ``error`` with the power that
    ``power_z`` gives (0: half the time, Z80: 80%)."""
    return math.ceil(((Z95 + power_z) * sd / error) ** 2)


def check(
    dist: RoundDistribution,
    ev: float,
    hands: int,
    sd: float | None,
    ci: tuple[float, float] | None,
    detect: float,
) -> dict[str, Any]:
    """The comparison as plain data (see docs/check-sim.md for every key)."""
    if ci is not None:
        se = (ci[1] - ci[0]) / (2 * Z95)
        se_from = "the reported 95% interval"
    elif sd is not None:
        se = sd / math.sqrt(hands)
        se_from = "the reported SD"
    else:
        se = dist.sd / math.sqrt(hands)
        se_from = "the exact SD (no --sd or --ci given)"
    z = (ev - dist.mean) / se
    p = p_value(z)
    consistent = p >= ALPHA
    out: dict[str, Any] = {
        "exact": {"ev": dist.mean, "sd": dist.sd},
        "reported": {"ev": ev, "hands": hands, "se": se, "se_from": se_from},
        "difference": ev - dist.mean,
        "z": z,
        "p_value": p,
        "consistent": consistent,
        "verdict": (
            f"consistent with the exact value (p = {p:.3g} >= {ALPHA})"
            if consistent
            else f"INCONSISTENT with the exact value (p = {p:.3g} < {ALPHA}): "
            "the simulator or its inputs are likely wrong"
        ),
    }
    if sd is not None:
        fourth = math.fsum(q * (x - dist.mean) ** 4 for x, q in dist.outcomes.items())
        se_sd = math.sqrt(max(fourth - dist.variance**2, 0.0) / hands) / (2 * dist.sd)
        z_sd = (sd - dist.sd) / se_sd
        out["reported"]["sd"] = sd
        out["sd_check"] = {"se": se_sd, "z": z_sd, "p_value": p_value(z_sd)}
    out["detect"] = {
        "error": detect,
        "hands_50_power": hands_to_detect(detect, dist.sd, 0.0),
        "hands_80_power": hands_to_detect(detect, dist.sd, Z80),
    }
    return out


def run(args: argparse.Namespace) -> int:
    ev = amount(args.ev, "--ev")
    hands = hands_count(args.hands)
    sd = amount(args.sd, "--sd", positive=True) if args.sd is not None else None
    ci = interval(args.ci) if args.ci is not None else None
    detect = amount(args.detect, "--detect", positive=True)
    rules = rules_from_args(get_manager(), args)
    if rules.dealer == "classic" or rules.betting != "casino":
        raise CroupierError(
            "check-sim knows the casino game (s17 or h17 dealer, casino betting), "
            f"not dealer {rules.dealer!r} with {rules.betting!r} betting"
        )
    with working("solving the exact distribution"):
        name, chart = exact_chart(rules, args.strategy)
        dist = round_distribution(rules, chart)
    result = check(dist, ev, hands, sd, ci, detect)
    shoe = "an infinite deck" if rules.decks is None else f"{FRESH} ({rules.decks} decks)"
    result["exact"]["refers_to"] = shoe
    note = None if rules.decks is None or rules.shoe == "fresh-pack" else CUT_CARD_NOTE
    if note is not None:
        result["note"] = note.format(shoe=shoe)
    if args.json:
        print_json(
            {
                "rules": args.rules,
                "options": rules.to_dict(),
                "strategy": name,
                "units": "per hand (round), in units of the initial bet",
                **result,
            }
        )
        return 0
    render(args.rules, name, result)
    return 0


def pct(x: float) -> str:
    return f"{100 * x:+.4f}%"


def render(rules_name: str, strategy: str, r: dict[str, Any]) -> None:
    exact, reported = r["exact"], r["reported"]
    print(f"rules {rules_name}, strategy {strategy}; amounts per hand, in % of the initial bet")
    print(f"exact EV   {pct(exact['ev'])}   SD {100 * exact['sd']:.3f}%   ({exact['refers_to']})")
    print(
        f"reported   {pct(reported['ev'])}   over {reported['hands']:,} hands, "
        f"standard error {100 * reported['se']:.4f}% (from {reported['se_from']})"
    )
    print(
        f"difference {pct(r['difference'])}   z = {r['z']:+.2f}   two-sided p = {r['p_value']:.3g}"
    )
    if "sd_check" in r:
        c = r["sd_check"]
        print(
            f"SD check   reported {100 * reported['sd']:.3f}% against exact "
            f"{100 * exact['sd']:.3f}%: z = {c['z']:+.2f}, p = {c['p_value']:.3g}"
        )
    d = r["detect"]
    print(
        f"to detect an EV error of {100 * d['error']:.4g}% (two-sided 5% test): "
        f"{d['hands_50_power']:,} hands for 50% power, {d['hands_80_power']:,} for 80%"
    )
    if "note" in r:
        print(f"note: {r['note']}")
    print(f"verdict: {r['verdict']}")
