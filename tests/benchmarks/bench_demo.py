"""Benchmark of ``costchart demo``: the whole command, then where its time goes.

Run from the repository root:  python tests/benchmarks/bench_demo.py   (about a minute)

1. The command as a user runs it (a fresh process each round: imports, the demo's gallery
   scripts, their PNGs and the HTML report), median of three rounds. Target: under 15 s.
2. In one process: running each gallery script, rendering its PNG, and the report page,
   so a slow part shows.
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
COMMAND = "from costchart._cli import main; raise SystemExit(main())"


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
    from costchart._cli.demo import DEMO_FIGURES, run_figure

    spent: dict[str, float] = {}
    figures = []
    with tempfile.TemporaryDirectory() as folder:
        for name in DEMO_FIGURES:
            start = time.perf_counter()
            figures.append(run_figure(name))
            spent[f"run {name}"] = time.perf_counter() - start
            start = time.perf_counter()
            cc.save(figures[-1].chart, Path(folder) / f"{name}.png")
            spent[f"PNG {name}"] = time.perf_counter() - start
        start = time.perf_counter()
        cc.report({f.title: f.chart for f in figures}, Path(folder) / "r.html")
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
        print(f"  {name:<48} {seconds:6.2f} s")
    print(machine_load())


if __name__ == "__main__":
    main()
