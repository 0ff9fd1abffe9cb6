"""The first chart of a fresh process: build and HTML save, with and without the cold-start work.

Run from the repository root:  python tests/benchmarks/bench_cold_save.py [--rounds 5]

Each round starts fresh Python processes, interleaved, each importing costchart and timing
its first chart and first ``cc.save(chart, "x.html")`` (the data are made before the
clock starts). Two charts:

* small: a cost chart of one four-point curve, where the save is mostly the offline
  page's JavaScript bundle (vega, vega-lite, vega-embed);
* 120 curves: issue 34's chart, ``roc_cost_chart(classifier=, facet=)`` of 4 data sets x
  3 classifiers x 10 folds, 10,000 instances each (1.2 million ROC points).

Two variants of each:

* ``now``: the bundle read from a warm disk cache (``COSTCHART_CACHE_DIR``) and the schema
  checked by the compiled validator (``_export/fast_schema.py``);
* ``before``: the cache off (``COSTCHART_CACHE_DIR=""``, vl-convert bundles) and the
  compiled validator off (every spec checked by ``jsonschema``), as every process did.

With ``--against PATH`` a third variant, ``base``, runs the package found at ``PATH`` (a
checkout of an earlier commit, e.g. made with ``git archive``) as ``now`` runs this one,
interleaved with the others: the same measurement of the code before a change.

Prints the median seconds of import (costchart and what a chart and a save import: Altair,
pandas, numpy), build and save of each, wall-clock and CPU (``time.process_time``: what
the process itself spent, which a machine other processes keep busy does not inflate as
much), and the ratios, with the machine's load before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import machine_load

HERE = Path(__file__).resolve().parent

CHILD = """
import time, sys, json
start, cpu = time.perf_counter(), time.process_time()
import costchart as cc
from costchart._export import fast_schema  # what a chart and a save import
cc.cost_chart, cc.roc_cost_chart, cc.save  # costchart's lazy attributes, loaded
imported, imported_cpu = time.perf_counter() - start, time.process_time() - cpu
if BEFORE:
    fast_schema._validator = lambda: None
if BIG:
    sys.path.insert(0, HERE)
    import numpy as np
    from bench_charts import fold_points
    points = fold_points(np.random.default_rng(0), per_fold=10_000)
else:
    points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
start, cpu = time.perf_counter(), time.process_time()
if BIG:
    chart = cc.roc_cost_chart(points, classifier="classifier", facet="dataset")
else:
    chart = cc.cost_chart(points)
built, built_cpu = time.perf_counter() - start, time.process_time() - cpu
start, cpu = time.perf_counter(), time.process_time()
cc.save(chart, OUT)
saved, saved_cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"import": imported, "build": built, "save": saved, "import CPU": imported_cpu,
                  "build CPU": built_cpu, "save CPU": saved_cpu}))
"""


def run_child(*, big: bool, before: bool, cache: str, out: Path, path: str | None = None) -> dict:
    """Import, build and save seconds of one fresh process (``path``: another checkout)."""
    env = {**os.environ, "COSTCHART_CACHE_DIR": "" if before else cache}
    # The package of this checkout (or ``path``) first; the child runs in the output's
    # folder, as ``python -c`` would find a costchart in its working folder first.
    package = str(HERE.parents[1]) if path is None else path
    env["PYTHONPATH"] = os.pathsep.join([package, env.get("PYTHONPATH", "")])
    code = (
        CHILD.replace("BEFORE", repr(before))
        .replace("BIG", repr(big))
        .replace("HERE", repr(str(HERE)))
        .replace("OUT", repr(str(out)))
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=out.parent,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", help="a checkout of an earlier commit, run as 'base'")
    args = parser.parse_args()
    against = f" --against {args.against}" if args.against else ""
    print(f"python tests/benchmarks/bench_cold_save.py --rounds {args.rounds}{against}")
    print(machine_load())
    work = Path(tempfile.mkdtemp())
    cache = str(work / "cache")
    run_child(big=False, before=False, cache=cache, out=work / "warm.html")  # fills the cache
    for big, name in ((False, "small chart"), (True, "120 curves")):
        runs: dict[str, list[dict]] = {"now": [], "before": []}
        if args.against:
            runs["base"] = []
        for _ in range(args.rounds):
            for variant in runs:
                path = args.against if variant == "base" else None
                before = variant == "before"
                runs[variant].append(
                    run_child(big=big, before=before, cache=cache, out=work / "x.html", path=path)
                )
        print(f"{name} (median of {args.rounds} fresh processes each, interleaved)")
        medians = {
            variant: {part: statistics.median(r[part] for r in rows) for part in rows[0]}
            for variant, rows in runs.items()
        }
        for part in ("import", "build", "save", "import CPU", "build CPU", "save CPU"):
            now, before = medians["now"][part], medians["before"][part]
            print(f"  {part:10s} now {now:6.3f} s   before {before:6.3f} s   {before / now:5.1f} x")
        total_now = medians["now"]["build"] + medians["now"]["save"]
        total_before = medians["before"]["build"] + medians["before"]["save"]
        print(
            f"  build + save, beyond the imports: now {total_now:.2f} s, before "
            f"{total_before:.2f} s ({total_before / total_now:.1f} x)"
        )
        if "base" in medians:
            for part in ("import", "build", "save", "import CPU", "build CPU", "save CPU"):
                now, base = medians["now"][part], medians["base"][part]
                print(f"  {part:10s} now {now:6.3f} s   base {base:6.3f} s     {base / now:5.1f} x")
            total_base = medians["base"]["build"] + medians["base"]["save"]
            print(
                f"  build + save, beyond the imports: now {total_now:.2f} s, base "
                f"{total_base:.2f} s ({total_base / total_now:.1f} x)"
            )
        cpu_now = medians["now"]["build CPU"] + medians["now"]["save CPU"]
        print(f"  build + save CPU, beyond the imports: now {cpu_now:.2f} s (target 1.0 s)")
    print(machine_load())


if __name__ == "__main__":
    main()
