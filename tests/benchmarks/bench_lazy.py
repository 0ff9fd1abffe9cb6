"""Benchmark of lazy input: counting by score in DuckDB or polars instead of in pandas.

Run from the repository root:  python tests/benchmarks/bench_lazy.py
Writes a 10-million-row parquet file to a temporary directory, then computes the ROC
points of it three ways and prints time and the peak memory Python allocates (tracemalloc
sees numpy and pandas buffers, not the engines' own memory).
"""

from __future__ import annotations

import tempfile
import tracemalloc
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import polars as pl
from _timing import timed

import costchart as cc


def measured(function):
    tracemalloc.start()
    result, seconds = timed(function)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, seconds, peak / 1e6


def main(n: int = 10_000_000) -> None:
    rng = np.random.default_rng(0)
    label = rng.random(n) < 0.1
    frame = pd.DataFrame(
        {
            "model": rng.choice(np.array(["a", "b", "c"]), n),
            "score": np.round(rng.normal(size=n) + label, 3),
            "label": label,
        }
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scores.parquet"
        frame.to_parquet(path)
        del frame
        print(f"roc_points by model of {n:,} rows in a parquet file (scores rounded to 3 decimals)")

        def eager():
            data = pd.read_parquet(path)
            return cc.roc_points(data, score="score", label="label", by="model")

        reference, t_eager, m_eager = measured(eager)
        print(f"  pandas: read, then count     {t_eager:6.2f} s   Python peak {m_eager:7.1f} MB")
        relation = duckdb.sql(f"select * from read_parquet('{path}')")
        points, t_duck, m_duck = measured(
            lambda: cc.roc_points(relation, score="score", label="label", by="model")
        )
        pd.testing.assert_frame_equal(
            points, reference.sort_values("model", kind="stable").reset_index(drop=True)
        )
        print(f"  DuckDB relation (pushdown)   {t_duck:6.2f} s   Python peak {m_duck:7.1f} MB")
        lazy = pl.scan_parquet(path)
        _, t_polars, m_polars = measured(
            lambda: cc.roc_points(lazy, score="score", label="label", by="model")
        )
        print(f"  polars LazyFrame (pushdown)  {t_polars:6.2f} s   Python peak {m_polars:7.1f} MB")
        print(f"  ({len(points):,} ROC points reach Python)")

        distinct = Path(folder) / "distinct.parquet"
        duckdb.sql(
            f"copy (select model, score + random() * 1e-3 as score, label "
            f"from read_parquet('{path}')) to '{distinct}'"
        )
        print("the same with all scores distinct")
        relation = duckdb.sql(f"select * from read_parquet('{distinct}')")
        full, t_full, m_full = measured(
            lambda: cc.roc_points(relation, score="score", label="label", by="model")
        )
        print(
            f"  DuckDB, every score          {t_full:6.2f} s   Python peak {m_full:7.1f} MB"
            f"   ({len(full):,} points)"
        )
        binned, t_bins, m_bins = measured(
            lambda: cc.roc_points(relation, score="score", label="label", by="model", bins=1000)
        )
        gap = cc.envelope_gap(binned)["max_gap"].max()
        print(
            f"  DuckDB, bins=1000            {t_bins:6.2f} s   Python peak {m_bins:7.1f} MB"
            f"   ({len(binned):,} points, envelope within {gap:.5f} of the true one)"
        )


if __name__ == "__main__":
    main()
