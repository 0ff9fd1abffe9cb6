"""The bands' coverage table: every band kind x threshold source x setting, with its own truth.

Binormal test sets (positives ``N(mu_pos, sd_pos)``, negatives ``N(mu_neg, sd_neg)``) are
banded by ``bootstrap_band`` at level 0.9 (or ``--level``) on 81 ``pc`` from 0.1 to 0.9,
and each band is checked against the true cost of the thresholds it follows, known in
closed form:

* threshold source ``envelope``: each test set's own lower envelope chooses the
  thresholds (the default band, ``inference="auto"``, which resamples the choice); the
  truth is the true cost of those thresholds. ``envelope, fixed`` is the same band with
  ``inference="exact_bootstrap"``, which treats the chosen thresholds as fixed (the
  default before the choice was resampled), for comparison;
* ``true-optimal``: the thresholds optimal under the true distributions, given with
  ``selection=``; the truth is the true optimal cost curve.

For each it prints, over the test sets: ``whole``, the share whose band held the truth at
every ``pc`` at once (the simultaneous band's claim); ``worst 0.2-0.8``, the smallest
pointwise coverage over the ``pc`` from 0.2 to 0.8; ``pc 0.1`` and ``pc 0.9``, the
pointwise coverage at the ends; ``mean``, the pointwise coverage averaged over ``pc``; the
Monte Carlo standard error of a share near the level, ``sqrt(level (1 - level) / sets)``;
and the band's mean width. The date of the run is printed first. ``docs/bands.md`` shows
the table.

    nice -n 10 python tests/benchmarks/bench_band_coverage.py [--sets 1000] [--only A,B] [--jobs 2]
        [--chart docs/measured/band_coverage.png]

The chart of ``docs/bands.md`` lives in ``docs/measured/`` (``docs/images/`` holds only the
pictures ``docs/make_images.py`` makes).
"""

from __future__ import annotations

import argparse
import datetime
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd
from scipy.stats import norm

import costchart as cc
from costchart._bands.coverage import _selection  # one selection table per test set

PC = np.linspace(0.1, 0.9, 81)
MIDDLE = (PC >= 0.2 - 1e-9) & (PC <= 0.8 + 1e-9)

#: name: (positives' mean, sd, negatives' mean, sd, positives, negatives, decimals kept)
SETTINGS = {
    "A": (1.5, 1.0, 0.0, 1.0, 200, 200, None),
    "B": (1.0, 1.0, 0.0, 1.0, 100, 100, None),
    "C": (1.5, 1.0, 0.0, 1.0, 50, 50, None),
    "D": (3.0, 3.0, -3.0, 3.0, 200, 200, None),
    "sep 0.5 (100)": (0.5, 1.0, 0.0, 1.0, 100, 100, None),
    "sep 3 (50)": (3.0, 1.0, 0.0, 1.0, 50, 50, None),
    "sep 1 (1000)": (1.0, 1.0, 0.0, 1.0, 1000, 1000, None),
    "unequal sd": (1.5, 2.0, 0.0, 1.0, 200, 200, None),
    "1:10": (1.5, 1.0, 0.0, 1.0, 50, 500, None),
    "rounded": (1.5, 1.0, 0.0, 1.0, 200, 200, 1),
}
HEADLINE = ("A", "B", "C", "D")


def test_sets(setting, sets: int, rng) -> pd.DataFrame:
    """``sets`` simulated test sets, stacked with a ``simulation`` column."""
    mu_pos, sd_pos, mu_neg, sd_neg, n_pos, n_neg, decimals = setting
    scores = np.concatenate(
        [rng.normal(mu_pos, sd_pos, (sets, n_pos)), rng.normal(mu_neg, sd_neg, (sets, n_neg))],
        axis=1,
    )
    if decimals is not None:
        scores = np.round(scores, decimals)
    labels = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    return pd.DataFrame(
        {
            "simulation": np.repeat(np.arange(sets), n_pos + n_neg),
            "score": scores.reshape(-1),
            "label": np.tile(labels, sets),
        }
    )


def true_cost(setting, threshold: np.ndarray) -> np.ndarray:
    """The true cost at each ``PC`` of "positive when score >= threshold" (sets, pc)."""
    mu_pos, sd_pos, mu_neg, sd_neg, _, _, decimals = setting
    # Rounded scores: score >= t exactly when the unrounded score >= t - half a unit.
    shift = 0.0 if decimals is None else 0.5 * 10.0**-decimals
    t = np.asarray(threshold, dtype=np.float64) - shift
    miss = norm.cdf((t - mu_pos) / sd_pos)
    alarm = norm.sf((t - mu_neg) / sd_neg)
    return PC * miss + (1 - PC) * alarm


def optimal_thresholds(setting) -> np.ndarray:
    """The threshold minimising the true cost at each ``PC`` (a fine search)."""
    mu_pos, sd_pos, mu_neg, sd_neg, _, _, decimals = setting
    grid = np.linspace(
        min(mu_neg, mu_pos) - 6 * max(sd_pos, sd_neg),
        max(mu_neg, mu_pos) + 6 * max(sd_pos, sd_neg),
        20001,
    )
    if decimals is not None:
        grid = np.unique(np.round(grid, decimals))
    costs = true_cost(setting, grid[:, None])  # (grid, pc)
    return grid[costs.argmin(axis=0)]


def envelope_thresholds(data: pd.DataFrame, sets: int) -> np.ndarray:
    """The threshold each test set's lower envelope chooses at each ``PC`` (sets, pc)."""
    points = cc.roc_points(data, score="score", label="label", by="simulation")
    table = cc.selection_table(points)
    chosen = np.empty((sets, len(PC)))
    for s, part in table.groupby("simulation", sort=True):
        index = np.searchsorted(part["pc_lo"].to_numpy(), PC, side="right") - 1
        chosen[s] = part["threshold"].to_numpy(dtype=np.float64)[index]
    return chosen


def row(name, source, kind, band, truth, sets, level) -> dict:
    """Coverage figures of one band against its truth (sets, pc)."""
    lower = band["lower"].to_numpy().reshape(sets, -1)
    upper = band["upper"].to_numpy().reshape(sets, -1)
    held = (lower <= truth + 1e-12) & (truth <= upper + 1e-12)
    each = held.mean(axis=0)
    return {
        "setting": name,
        "thresholds": source,
        "band": kind,
        "whole": held.all(axis=1).mean(),
        "worst 0.2-0.8": each[MIDDLE].min(),
        "pc 0.1": each[0],
        "pc 0.9": each[-1],
        "mean": each.mean(),
        "mc se": np.sqrt(level * (1 - level) / sets),
        "width": (upper - lower).mean(),
        "by pc": each,  # the pointwise coverage at each PC, for the chart
    }


def run(name, setting, sets, level, seed, sources) -> list[dict]:
    """Every band kind and threshold source of one setting."""
    rng = np.random.default_rng(seed)
    data = test_sets(setting, sets, rng)
    options = dict(score="score", label="label", by="simulation", pc=PC, confidence_level=level)
    rows = []
    if "envelope" in sources:
        truth = true_cost(setting, envelope_thresholds(data, sets))
        for kind, simultaneous in (("pointwise", False), ("simultaneous", True)):
            band = cc.bootstrap_band(data, simultaneous=simultaneous, rng=seed, **options)
            rows.append(row(name, "envelope", kind, band, truth, sets, level))
        band = cc.bootstrap_band(data, inference="exact_bootstrap", **options)
        rows.append(row(name, "envelope, fixed", "pointwise", band, truth, sets, level))
    if "true-optimal" in sources:
        selection = _selection(optimal_thresholds(setting), PC, sets)
        truth = true_cost(setting, optimal_thresholds(setting))[None, :]
        for kind, simultaneous in (("pointwise", False), ("simultaneous", True)):
            band = cc.bootstrap_band(
                data, selection=selection, simultaneous=simultaneous, rng=seed, **options
            )
            rows.append(row(name, "true-optimal", kind, band, truth, sets, level))
    return rows


def _run(job) -> list[dict]:
    """:func:`run` of one job's arguments (a process pool maps one argument)."""
    return run(*job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=1000, help="test sets per setting")
    parser.add_argument("--level", type=float, default=0.9)
    parser.add_argument("--only", default="", help="comma-separated settings (default: all)")
    parser.add_argument(
        "--sources", default="envelope,true-optimal", help="envelope and/or true-optimal"
    )
    parser.add_argument("--chart", default="", help="also draw the coverage by pc (.png, .html)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="settings run at once, in processes (same results)"
    )
    args = parser.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(SETTINGS)
    sources = {s.strip() for s in args.sources.split(",")}
    print(f"run {datetime.date.today()}: {args.sets} test sets per setting, level {args.level}")
    pd.set_option("display.width", 200)
    rows = []
    start = time.perf_counter()
    jobs = [
        (n, SETTINGS[n], args.sets, args.level, 2026 + seed, sources)
        for seed, n in enumerate(names)
    ]
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        for seed, done in enumerate(pool.map(_run, jobs)):
            rows += done
            shown = pd.DataFrame(done).drop(columns="by pc").round(3)
            print(shown.to_string(index=False, header=seed == 0), flush=True)
            print(f"  ({time.perf_counter() - start:.0f} s since the start)", flush=True)
    if args.chart:
        draw(rows, args.level, args.sets, args.chart)


def draw(rows: list[dict], level: float, sets: int, path: str) -> None:
    """The pointwise coverage at each ``pc``, one panel per setting, drawn by costchart."""
    long = pd.concat(
        [
            pd.DataFrame(
                {
                    "pc": PC,
                    "coverage": r["by pc"],
                    "setting": r["setting"],
                    "band": f"{r['thresholds']}, {r['band']}",
                }
            )
            for r in rows
        ],
        ignore_index=True,
    )
    chart = cc.coverage_chart(
        long,
        color="band",
        facet="setting",
        confidence_level=level,
        title="Pointwise coverage of the bands",
        subtitle=f"{sets} binormal test sets per setting; the truth is the true cost of "
        "the thresholds each band follows",
    )
    cc.save(chart, path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
