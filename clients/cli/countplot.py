"""``croupier sim --count ... --plot FILE.png|FILE.svg``: the per-count figures as a picture.

Two panels over the true count at the bet: how often each count comes (bars), and a flat
unit bet's EV at that count with its 95% interval (points and bars; from per-shoe batches,
``engine/batch_means.py``; every count dealt, its whole interval on the panel), with the
ramp's bet in units (a step line, right axis). matplotlib (``pip install 'croupier[plot]'``) is
imported only here, only when a picture is asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from croupier.engine import CroupierError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = (".png", ".svg")


def check_plot_path(path: str) -> None:
    """Refuse a picture that cannot be written, before anything is simulated."""
    if Path(path).suffix.lower() not in FORMATS:
        raise CroupierError(f"--plot writes a .png or .svg picture, not {path!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise CroupierError("--plot needs matplotlib: pip install 'croupier[plot]'") from None
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise CroupierError(f"--plot {path}: no folder {folder}")


def plot_counts(path: str, per_count: list[dict[str, Any]], title: str) -> None:
    """Draw the per-count table (``report["counting"]["per_count"]``) into ``path``."""
    from matplotlib import pyplot as plt

    figure = count_figure(per_count, title)
    try:
        figure.savefig(path)
    except OSError as exc:
        raise CroupierError(f"--plot {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(figure)


def count_figure(per_count: list[dict[str, Any]], title: str) -> Figure:
    """The picture of the per-count table. The EV panel shows every count dealt with its
    whole interval (a rare count's is wide: the panel grows to it rather than cut it)."""
    import matplotlib

    matplotlib.use("Agg")  # a file, never a window
    from matplotlib import pyplot as plt

    rows = [r for r in per_count if r["rounds"] > 0]
    if not rows:
        raise CroupierError("--plot: no round was dealt, nothing to draw")
    labels = [str(r["tc"]) for r in rows]
    x = list(range(len(rows)))
    ev = [100 * r["flat_ev"] for r in rows]
    half = [50 * (ci[1] - ci[0]) if (ci := r.get("flat_ev_ci95")) else 0.0 for r in rows]
    figure, (top, bottom) = plt.subplots(
        2, 1, figsize=(9, 6.5), sharex=True, gridspec_kw={"height_ratios": [1, 1.6]}
    )
    top.bar(x, [100 * r["frequency"] for r in rows], color="#4c72b0")
    top.set_ylabel("rounds at this count (%)")
    top.set_title(title, fontsize=10)
    bottom.axhline(0, color="#888888", linewidth=0.8)
    bottom.errorbar(x, ev, yerr=half, fmt="o", color="#c44e52", capsize=3, markersize=4)
    bottom.set_ylabel("flat 1-unit EV (% of the bet, 95% CI)")
    bottom.set_xlabel("true count at the bet")
    bottom.set_xticks(x, labels, rotation=45, fontsize=8)
    low = min(0.0, *(e - h for e, h in zip(ev, half, strict=True)))
    high = max(0.0, *(e + h for e, h in zip(ev, half, strict=True)))
    pad = 0.05 * (high - low) or 1.0
    bottom.set_ylim(low - pad, high + pad)  # every point and its whole interval
    ramp = bottom.twinx()
    ramp.step(x, [r["average_bet"] for r in rows], where="mid", color="#55a868")
    ramp.set_ylabel("the ramp's bet (units)", color="#55a868")
    ramp.set_ylim(bottom=0)
    figure.tight_layout()
    return figure
