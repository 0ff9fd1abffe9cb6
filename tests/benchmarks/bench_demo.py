"""Benchmark of ``costchart demo``: the whole command, then where its time goes.

Run from the repository root:  python tests/benchmarks/bench_demo.py   (about a minute)

1. The command as a user runs it (a fresh process each round: imports, tables, nine PNGs
   and the HTML report), median of three rounds. Target: under 15 s.
2. In one process: computing the gallery's tables and charts, rendering each PNG, and the
   report page, so a slow part shows.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import machine_load

import costchart as cc

#: The ``costchart`` command, run by this interpreter.
COMMAND = "from costchart.cli import main; raise SystemExit(main())"


def whole_command(rounds: int = 3) -> list[float]:
    times = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", COMMAND, "demo", "--out", folder],
                check=True,
                capture_output=True,
            )
            times.append(time.perf_counter() - start)
    return times


def parts() -> dict[str, float]:
    from costchart.gallery import charts

    spent: dict[str, float] = {}
    start = time.perf_counter()
    gallery = charts()
    spent["tables and charts"] = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as folder:
        for name, chart in gallery.values():
            start = time.perf_counter()
            cc.save(chart, Path(folder) / f"{name}.png")
            spent[f"PNG {name}"] = time.perf_counter() - start
        start = time.perf_counter()
        cc.report({c: chart for c, (_, chart) in gallery.items()}, Path(folder) / "r.html")
        spent["HTML report"] = time.perf_counter() - start
    return spent


def main() -> None:
    print(machine_load())
    times = whole_command()
    print(
        f"costchart demo: median {statistics.median(times):.1f} s of "
        f"{', '.join(f'{t:.1f}' for t in times)} s   (target < 15 s)"
    )
    print("where the time goes (one process, after imports):")
    for name, seconds in parts().items():
        print(f"  {name:<28} {seconds:6.2f} s")
    print(machine_load())


if __name__ == "__main__":
    main()
