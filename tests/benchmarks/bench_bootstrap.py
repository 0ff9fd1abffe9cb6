"""Benchmark of confidence bands: every target of issue 11, item 3, as interleaved ratios.

Run from the repository root:  python tests/benchmarks/bench_bootstrap.py [--full]

About 2 minutes (``--full``: about 6, adding 1e6 rows and 10,000 groups of 1e6 rows).
Each line is the median of interleaved rounds (``_timing.interleaved``), so load from
other processes hits every candidate alike.

* the exact bootstrap's band (``interval="auto"``) and the default band, which resamples
  the envelope's choice of thresholds, against ``roc_points`` on the same frame;
* the default band against a vectorized 1,000-resample instance bootstrap at 1e5 (resample
  the test instances, recount every threshold, read off the envelope's band);
* ``difference_band`` with ``auto`` against its normal fit;
* ``interval="discrete"`` for a whole 501-``pc`` band at 1e5;
* ``bootstrap_band`` on G groups against one group of the same rows (distinct scores),
  end to end and for the band stage alone (ROC points and the envelope's selection given).
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load, ratio_line, timed

import costchart as cc
from costchart._bands.bootstrap import _bands
from costchart._bands.options import check_options
from costchart._bands.rows import active_rows

N_RESAMPLES = 1000


def scored(n: int, seed: int = 0, decimals: int | None = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = rng.random(n) < 0.3
    score = rng.normal(size=n) + labels
    return pd.DataFrame(
        {"score": score if decimals is None else np.round(score, decimals), "label": labels}
    )


def instance_bootstrap_band(data, pc, n_resamples, rng, chunk=25):
    """A stratified instance bootstrap of the envelope's band, vectorized with numpy.

    Resamples the positives and the negatives (class totals fixed, as costchart's
    ``sampling="stratified"``), counts each resample's instances per distinct score, and
    reads the false negatives and false positives of the threshold the envelope selects at
    each pc; the band is the 5 % and 95 % percentiles of the resampled costs.
    """
    scores = data["score"].to_numpy()
    positive = data["label"].to_numpy().astype(bool)
    levels, codes = np.unique(scores, return_inverse=True)
    points = cc.roc_points(data, score="score", label="label")
    thresholds = points["threshold"].to_numpy()[active_rows(points, pc, None, None)]
    # Instances scoring >= threshold are predicted positive: those with code >= first.
    first = np.searchsorted(levels, thresholds, side="left")
    draws = {}
    for name, members in (("positives", codes[positive]), ("negatives", codes[~positive])):
        m, width = len(members), len(levels) + 1
        at_or_above = np.empty((n_resamples, len(pc)), dtype=np.int64)
        for start in range(0, n_resamples, chunk):
            size = min(chunk, n_resamples - start)
            picked = members[rng.integers(0, m, size=(size, m))]
            per_level = np.bincount(
                (picked + width * np.arange(size)[:, None]).ravel(), minlength=size * width
            ).reshape(size, width)
            suffix = np.cumsum(per_level[:, ::-1], axis=1)[:, ::-1]  # count with code >= k
            at_or_above[start : start + size] = suffix[:, first]
        draws[name] = (m, at_or_above)
    (n_pos, tp), (n_neg, fp) = draws["positives"], draws["negatives"]
    costs = pc * (n_pos - tp) / n_pos + (1 - pc) * fp / n_neg
    lower, upper = np.quantile(costs, [0.05, 0.95], axis=0, method="inverted_cdf")
    return pd.DataFrame({"pc": pc, "lower": lower, "upper": upper})


def band(data, **options):
    """The exact bootstrap's band, the chosen thresholds as if fixed (unless told otherwise).

    Its figures in ``docs/performance.md`` are of that band; the default band resamples the
    envelope's choice (``inference="auto"``) and is timed on its own line.
    """
    return cc.bootstrap_band(
        data, score="score", label="label", **{"inference": "exact_bootstrap", **options}
    )


def default_against_roc_points(sizes) -> None:
    print("default band (auto) against roc_points on the same frame (target <= 2 x)")
    for n in sizes:
        data = scored(n)
        times = interleaved(
            {
                "roc": lambda data=data: cc.roc_points(data, score="score", label="label"),
                "auto": lambda data=data: band(data),
                "normal": lambda data=data: band(data, interval="normal"),
                "choice": lambda data=data: band(data, inference="auto", rng=0),
            },
            rounds=5,
        )
        print(ratio_line(f"n={n:,} exact band", times["auto"], times["roc"], "roc_points", "<= 2"))
        print(ratio_line(f"n={n:,} normal fit", times["normal"], times["roc"], "roc_points"))
        print(
            ratio_line(
                f"n={n:,} default band (choice resampled)",
                times["choice"],
                times["roc"],
                "roc_points",
            )
        )


def default_against_resampling() -> None:
    n = 100_000
    data = scored(n)
    pc = np.linspace(0, 1, 501)
    print(f"default band against a {N_RESAMPLES:,}-resample instance bootstrap, n={n:,}")
    times = interleaved(
        {
            "auto": lambda: band(data, pc=pc),
            "instances": lambda: instance_bootstrap_band(
                data, pc, N_RESAMPLES, np.random.default_rng(1)
            ),
        },
        rounds=3,
    )
    print(
        ratio_line(
            "instance bootstrap", times["instances"], times["auto"], "the default band", ">= 50"
        )
    )
    reference = instance_bootstrap_band(data, pc, N_RESAMPLES, np.random.default_rng(1))
    exact = band(data, pc=pc)
    apart = np.max(
        np.abs(reference[["lower", "upper"]].to_numpy() - exact[["lower", "upper"]].to_numpy())
        / exact[["se"]].to_numpy().clip(1e-12)
    )
    print(f"    (the resampled band is within {apart:.2f} standard errors of the default one)")


def paired(n: int, seed: int = 2) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    labels = rng.random(n) < 0.4
    shared = rng.normal(size=n)
    frames = [
        pd.DataFrame(
            {
                "model": name,
                "id": np.arange(n),
                "y": labels,
                "p": np.round(shared + labels * lift + rng.normal(size=n) * 0.5, 2),
            }
        )
        for name, lift in (("a", 1.0), ("b", 1.2))
    ]
    return pd.concat(frames, ignore_index=True)


def difference_auto_against_normal(sizes) -> None:
    print("difference_band, auto against its normal fit (target <= 3 x)")
    for n in sizes:
        data = paired(n)

        def difference(data=data, **options):
            return cc.difference_band(
                data, score="p", label="y", classifier="model", instance="id", **options
            )

        times = interleaved(
            {"auto": difference, "normal": lambda: difference(interval="normal")}, rounds=5
        )
        print(ratio_line(f"n={n:,} auto", times["auto"], times["normal"], "normal fit", "<= 3"))


def exact_band() -> None:
    data = scored(100_000)
    _, seconds = timed(lambda: band(data, interval="discrete"))
    print(f"interval='discrete', 501 pc, n=100,000: {seconds:.3f} s   (target < 2 s)")


def grouped(total: int, group_counts, auto_counts) -> None:
    print(
        f"bootstrap_band on G groups against one group, {total:,} rows, distinct scores "
        "(target <= 3 x)"
    )
    base = scored(total, decimals=None)
    for count in group_counts:
        data = base.assign(g=np.arange(total) % count)
        distributions = ["normal", *(["auto"] if count in auto_counts else [])]
        for distribution in distributions:
            options = check_options(
                function="bootstrap_band",
                confidence_level=0.9,
                inference="exact_bootstrap",
                sampling="stratified",
                interval=distribution,
                n_resamples=2000,
                rng=None,
                pc=None,
                progress=False,
            )
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                points = cc.roc_points(data, score="score", label="label", by="g")
                selection = cc.selection_table(points, by="g")
                one = cc.roc_points(base, score="score", label="label")
                one_selection = cc.selection_table(one)
            times = interleaved(
                {
                    "one": lambda d=distribution: band(base, interval=d),
                    "many": lambda data=data, d=distribution: band(data, by="g", interval=d),
                    "stage one": lambda o=one, s=one_selection, op=options: _bands(
                        o, [], s, None, op
                    ),
                    "stage many": lambda p=points, s=selection, op=options: _bands(
                        p, ["g"], s, None, op
                    ),
                },
                rounds=3,
            )
            label = f"G={count:,} {distribution}"
            print(
                ratio_line(f"{label} end to end", times["many"], times["one"], "one group", "<= 3")
            )
            print(
                ratio_line(
                    f"{label} band stage", times["stage many"], times["stage one"], "one group"
                )
            )


def main() -> None:
    full = "--full" in sys.argv
    print("python tests/benchmarks/bench_bootstrap.py" + (" --full" if full else ""))
    print(machine_load())
    default_against_roc_points([1_000, 10_000, 100_000, *([1_000_000] if full else [])])
    default_against_resampling()
    difference_auto_against_normal([1_000, 10_000])
    exact_band()
    if full:
        grouped(1_000_000, [1, 100, 1_000, 10_000], auto_counts=[1, 100])
    else:
        grouped(100_000, [1, 10, 100, 1_000], auto_counts=[1, 10])
    print(machine_load())


if __name__ == "__main__":
    main()
