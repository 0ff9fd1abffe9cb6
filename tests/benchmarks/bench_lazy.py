"""Benchmark of ``bins=`` on lazy frames against the plain count in the same engine.

Run from the repository root:

    python tests/benchmarks/bench_lazy.py            # 1e7 rows, about 2 minutes
    python tests/benchmarks/bench_lazy.py --full     # 1e8 rows (the issue's size), see below

Writes a parquet file to a temporary directory (3 models, 10 % positives; ``score`` all
distinct, ``rounded`` the same scores to 3 decimals), then runs each case in its own
subprocess, round-robin over ``--rounds`` rounds, and prints the median seconds (timed
inside the subprocess, imports excluded) and the largest peak RSS of the whole process
(``os.wait4``'s ``ru_maxrss``: the engines' own memory included, unlike tracemalloc).

Cases, per engine (DuckDB, polars, Dask):

- ``count``: ``roc_points(by="model")`` of the rounded scores without bins, the plain
  count in the engine (the reference);
- ``bins rounded``: the same with ``bins=1000``;
- ``bins distinct``: ``bins=1000`` on the distinct scores (their plain count would bring
  1e8 rows to Python, so the reference stays the count of the rounded scores);
- ``scan distinct``: not costchart, one group-by by model summing the distinct scores:
  reading 1e8 distinct float64 costs more than the rounded (dictionary-encoded) column,
  and any exact binning must read it at least once.

Target (issue #11, item 5): on 1e8 rows, binned <= 3x the plain count, and < 1 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import machine_load

ENGINES = ("duckdb", "polars", "dask")
CASES = {"count": ("rounded", None), "bins rounded": ("rounded", 1000)}
CASES["bins distinct"] = ("score", 1000)
CASES["scan distinct"] = ("score", "scan")

CHILD = """
import json, sys, time
engine, path, column, bins = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
scan = bins == "scan"
bins = None if bins in ("None", "scan") else int(bins)
import costchart as cc
if engine == "duckdb":
    import duckdb
    duckdb.execute("set enable_progress_bar = false")
    frame = duckdb.sql(f"select * from read_parquet('{path}')")
elif engine == "polars":
    import polars as pl
    pl.Config.set_engine_affinity("streaming")  # the in-memory engine loads every column
    frame = pl.scan_parquet(path)
else:
    import dask
    import dask.dataframe as dd
    dask.config.set(scheduler="threads", num_workers=2)
    frame = dd.read_parquet(path)
start = time.perf_counter()
if scan:  # one group-by that reads every score: what any exact binning must pay at least
    import narwhals.stable.v2 as nw
    points = nw.from_native(frame).group_by("model").agg(nw.col(column).sum()).collect()
else:
    points = cc.roc_points(frame, score=column, label="label", by="model", bins=bins)
print(json.dumps({"seconds": time.perf_counter() - start, "points": len(points)}))
"""


def write_data(path: Path, rows: int) -> None:
    import duckdb

    connection = duckdb.connect()
    connection.execute("set enable_progress_bar = false")
    connection.execute(
        f"""
        copy (
            select model, label, score, round(score, 3) as rounded from (
                select ['a', 'b', 'c'][1 + (i % 3)::int] as model,
                       hash(i) % 10 = 0 as label,
                       random() + random() + random() + random()
                           + (hash(i) % 10 = 0)::int as score
                from range({rows}) t(i)
            )
        ) to '{path}' (format parquet)
        """
    )


def run_case(engine: str, path: Path, column: str, bins) -> tuple[float, float, int]:
    """Seconds, peak RSS in MB of the whole subprocess, and the number of points."""
    env = {**os.environ, "PYTHONPATH": str(Path.cwd())}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, engine, str(path), column, str(bins)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        msg = f"{engine} {column} bins={bins} failed (exit {child.returncode})"
        raise RuntimeError(msg)
    result = json.loads(output.decode().strip().splitlines()[-1])
    return result["seconds"], usage.ru_maxrss / 1024, result["points"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="1e8 rows instead of 1e7")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engines", default=",".join(ENGINES))
    args = parser.parse_args()
    rows = 100_000_000 if args.full else 10_000_000
    engines = args.engines.split(",")
    command = "python tests/benchmarks/bench_lazy.py" + (" --full" if args.full else "")
    print(f"{command}   ({rows:,} rows, median of {args.rounds} interleaved rounds)")
    print(machine_load())
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scores.parquet"
        start = time.perf_counter()
        write_data(path, rows)
        print(f"wrote {path.stat().st_size / 1e9:.2f} GB in {time.perf_counter() - start:.0f} s")
        seconds: dict[tuple[str, str], list[float]] = {}
        memory: dict[tuple[str, str], float] = {}
        points: dict[tuple[str, str], int] = {}
        for _ in range(args.rounds):
            for engine in engines:
                for case, (column, bins) in CASES.items():
                    took, peak, count = run_case(engine, path, column, bins)
                    seconds.setdefault((engine, case), []).append(took)
                    memory[engine, case] = max(memory.get((engine, case), 0.0), peak)
                    points[engine, case] = count
        print("target: bins=1000 <= 3x the plain count, peak RSS < 1 GB")
        print("(the time per case is the median; 'points' is the rows returned)")
        for engine in engines:
            reference = statistics.median(seconds[engine, "count"])
            for case in CASES:
                median = statistics.median(seconds[engine, case])
                print(
                    f"  {engine:<7} {case:<14} {median:7.2f} s = {median / reference:5.2f} x "
                    f"count   peak RSS {memory[engine, case]:7.0f} MB   "
                    f"{points[engine, case]:,} points"
                )
    print(machine_load())


if __name__ == "__main__":
    main()
