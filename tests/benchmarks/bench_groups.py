"""Benchmark of the pipeline on many groups against one group of the same rows.

Run from the repository root:
    python tests/benchmarks/bench_groups.py            (G up to 1,000; both bands)
    python tests/benchmarks/bench_groups.py --full     (G up to 10,000; about 4 minutes)
    python tests/benchmarks/bench_groups.py --full --band compact --rounds 7

The same 1,000,000 instances with distinct scores are split into G groups (data set x
classifier x fold keys); each stage of roc_points -> roc_hull -> lower_envelope ->
selection_table -> bootstrap_band is timed on its own input, interleaved with G = 1, and
reported as a ratio to G = 1 (target: <= 3 for every stage and the whole).

The band stage uses the normal fit, so both sides do the same statistical work. The
default ``interval="auto"`` chooses exact quantiles where a group is small enough
for them to be cheap, so many small groups do more work than one large one (which gets
the normal fit); that cost is printed separately, for G up to 100.

The pipeline is timed twice: with the full band (a row per group and ``pc``: 501 per
group, 5 million at G = 10,000) and with the compact band (``compact=True``: the rows
linear interpolation needs, within 1e-4 of the full band), each against G = 1 with the
same band, in interleaved rounds (target: the whole pipeline <= 2x with the compact band).
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load

import costchart as cc

KEYS = ["dataset", "classifier", "fold"]


def instances(rows: int, groups: int, rng) -> pd.DataFrame:
    label = rng.random(rows) < 0.3
    group = np.repeat(np.arange(groups), rows // groups)
    return pd.DataFrame(
        {
            "dataset": (group // 30).astype(np.int64),
            "classifier": np.array(["logistic", "tree", "forest"])[group % 3],
            "fold": (group // 3 % 10).astype(np.int64),
            "score": rng.normal(size=rows) + label,
            "label": label,
        }
    )


def stages(data: pd.DataFrame, compact: bool = False):
    """Each stage as a function of its own (precomputed) input."""
    by = KEYS
    points = cc.roc_points(data, score="score", label="label", by=by)
    envelope = cc.lower_envelope(points)
    band = "band (compact)" if compact else "band (normal)"
    return {
        "roc_points": lambda: cc.roc_points(data, score="score", label="label", by=by),
        "roc_hull": lambda: cc.roc_hull(points),
        "lower_envelope": lambda: cc.lower_envelope(points),
        "selection_table": lambda: cc.selection_table(envelope),
        band: lambda: cc.bootstrap_band(
            data,
            score="score",
            label="label",
            by=by,
            inference="exact_bootstrap",
            interval="normal",
            compact=compact,
        ),
    }


def auto_band(data: pd.DataFrame):
    return cc.bootstrap_band(
        data, score="score", label="label", by=KEYS, inference="exact_bootstrap"
    )


def main(rows: int, group_counts: list[int], rounds: int, compact: bool) -> None:
    rng = np.random.default_rng(0)
    band = "compact band" if compact else "full band"
    print(f"pipeline on G groups of {rows:,} instances in all (distinct scores), {band}")
    print(machine_load())
    one = instances(rows, 1, rng).drop(columns=KEYS).assign(**{k: 0 for k in KEYS})
    single = stages(one, compact)
    band = list(single)[-1]
    header = "".join(f"{name:>17}" for name in single)
    print(f"  {'G':>7}{header}{'whole':>10}{'band rows':>12}")
    for groups in group_counts:
        data = instances(rows, groups, rng)
        many = stages(data, compact)
        row = []
        total_many = total_one = 0.0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", cc.CostchartWarning)
            for name in single:
                times = interleaved(
                    {"one": single[name], "many": many[name]}, rounds=rounds, warmup=False
                )
                total_many += times["many"]
                total_one += times["one"]
                row.append(f"{times['many']:7.3f}s {times['many'] / times['one']:5.2f}x")
            band_rows = [len(stage[band]()) for stage in (single, many)]
        print(f"  {groups:>7,}" + "".join(f"{cell:>17}" for cell in row), end="")
        print(f"{total_many / total_one:9.2f}x{band_rows[0]:>6,} {band_rows[1]:>9,}")
    print(
        "  (each cell: seconds for G groups, and the ratio to one group; band rows: G = 1, "
        "then G; target: the whole <= 2x with the compact band)"
    )
    if compact:
        return
    for groups in [g for g in group_counts if g <= 100]:
        one = instances(rows, 1, rng).drop(columns=KEYS).assign(**{k: 0 for k in KEYS})
        many = instances(rows, groups, rng)
        times = interleaved(
            {"one": lambda o=one: auto_band(o), "many": lambda m=many: auto_band(m)}, rounds=rounds
        )
        print(
            f"  bootstrap_band, interval='auto', G={groups:,}: {times['many']:.3f} s = "
            f"{times['many'] / times['one']:.2f} x one group (exact quantiles in small groups)"
        )
    print(machine_load())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--full", action="store_true", help="up to 10,000 groups")
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--band", choices=["full", "compact", "both"], default="both", help="which band"
    )
    args = parser.parse_args()
    counts = [10, 100, 1_000] + ([10_000] if args.full else [])
    print(
        "python tests/benchmarks/bench_groups.py"
        + (" --full" if args.full else "")
        + (f" --band {args.band}" if args.band != "both" else "")
        + (f" --rounds {args.rounds}" if args.rounds != 3 else "")
        + (f" --rows {args.rows}" if args.rows != 1_000_000 else "")
    )
    for compact in {"full": [False], "compact": [True], "both": [False, True]}[args.band]:
        main(args.rows, counts, rounds=args.rounds, compact=compact)
