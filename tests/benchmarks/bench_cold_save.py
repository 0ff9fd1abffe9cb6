"""The first HTML save of a fresh process, with the Vega bundle's disk cache and without.

Run from the repository root:  python tests/benchmarks/bench_cold_save.py [--rounds 7]

Each round starts two fresh Python processes, interleaved: each imports costchart, builds a
small cost chart, and times its first ``cc.save(chart, "x.html")``, which is when the
offline page's JavaScript bundle (vega, vega-lite, vega-embed) is needed. One process
reads the bundle from a warm disk cache (``COSTCHART_CACHE_DIR``), the other has the cache
off (``COSTCHART_CACHE_DIR=""``) and has vl-convert bundle it, as every process did before.
Prints the median seconds of each and their ratio, with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import machine_load

CHILD = """
import time
import costchart as cc
points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
chart = cc.cost_chart(points)
start = time.perf_counter()
cc.save(chart, OUT)
print(time.perf_counter() - start)
"""


def first_save(folder: str, out: Path) -> float:
    """Seconds of the first HTML save in a fresh process with the cache folder ``folder``."""
    env = {**os.environ, "COSTCHART_CACHE_DIR": folder}
    code = CHILD.replace("OUT", repr(str(out)))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    print("python tests/benchmarks/bench_cold_save.py")
    print(machine_load())
    work = Path(tempfile.mkdtemp())
    cache = str(work / "cache")
    first_save(cache, work / "warm.html")  # fills the cache
    cached, uncached = [], []
    for _ in range(args.rounds):
        cached.append(first_save(cache, work / "a.html"))
        uncached.append(first_save("", work / "b.html"))
    a, b = statistics.median(cached), statistics.median(uncached)
    print(f"  first save, bundle from the disk cache  {a:6.3f} s")
    print(f"  first save, bundled by vl-convert       {b:6.3f} s")
    print(f"  ratio (uncached / cached)               {b / a:6.1f} x")


if __name__ == "__main__":
    main()
