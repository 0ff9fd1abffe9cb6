"""The first ``roc_points`` call of a fresh process on 10 million distinct scores, against
an argsort of the same scores, and the memory the call takes beyond its result.

Run from the repository root:
    python tests/benchmarks/bench_first_call.py              (about 2 minutes)
    python tests/benchmarks/bench_first_call.py --rounds 3 --rows 1000000

A script's first large call runs in a process whose memory is fresh: every new array of
tens of megabytes costs page faults, and with numpy's default request for transparent
huge pages (on a kernel set to ``always`` or ``madvise``) the kernel may first compact
memory to find them. Each round starts two fresh processes one after the other, with
numpy's defaults: one times ``np.argsort(scores)`` (the reference), the other
``cc.roc_points(frame, score=, label=)``, each once, on the same data (10 % positives,
normal scores shifted by the label; made in the process, outside the timing); a third
fills a fresh array the size of the result (7 columns), the floor that writing the
result sets. The ratio printed is the median over rounds of the call's time over the
argsort's in that round.
A third kind of process measures memory with ``tracemalloc`` (which sees numpy's
allocations): the peak allocated during the call, less the result (its columns), is
the call's temporaries, compared with the input (the scores and labels). The user and
system CPU times of each timed call are printed too (``resource.getrusage``): page
faults and huge-page work show as system time.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _timing import machine_load


def data(n: int):
    """The frame every process builds: scores (float64, distinct) and labels (bool)."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    labels = rng.random(n) < 0.1
    scores = rng.normal(size=n) + labels
    return pd.DataFrame({"score": scores, "label": labels})


def child(kind: str, n: int) -> dict:
    """One measurement in this (fresh) process: ``kind`` is argsort, roc_points or memory."""
    import numpy as np

    import costchart as cc

    frame = data(n)
    scores = frame["score"].to_numpy()
    cc.roc_points(frame.head(100), score="score", label="label")  # imports, not the call
    call = {
        "argsort": lambda: np.argsort(scores),
        "roc_points": lambda: cc.roc_points(frame, score="score", label="label"),
        # The floor the result sets: writing fresh memory of its size (7 columns).
        "fill": lambda: np.empty(7 * (n + 1)).fill(1.0),
    }
    if kind == "memory":
        import tracemalloc

        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        points = call["roc_points"]()
        peak = tracemalloc.get_traced_memory()[1] - before
        tracemalloc.stop()
        result = int(points.memory_usage(index=False, deep=False).sum())
        given = scores.nbytes + frame["label"].to_numpy().nbytes
        return {"peak": peak, "result": result, "input": given}
    usage = resource.getrusage(resource.RUSAGE_SELF)
    start = time.perf_counter()
    call[kind]()
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "seconds": seconds,
        "user": after.ru_utime - usage.ru_utime,
        "system": after.ru_stime - usage.ru_stime,
    }


def fresh(kind: str, n: int) -> dict:
    """:func:`child` in a new Python process."""
    script = Path(__file__).resolve()
    output = subprocess.run(
        [sys.executable, str(script), "--child", kind, "--rows", str(n)],
        check=True,
        capture_output=True,
        text=True,
        cwd=script.parent,
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--child", choices=["argsort", "roc_points", "fill", "memory"])
    options = parser.parse_args()
    if options.child:
        print(json.dumps(child(options.child, options.rows)))
        return
    n = options.rows
    print(f"python tests/benchmarks/bench_first_call.py --rows {n} --rounds {options.rounds}")
    import costchart

    print(f"costchart from {costchart.__file__}")  # the children import the same
    print(machine_load())
    print(f"the first call of a fresh process on {n:,} distinct scores (10 % positive)")
    runs: dict[str, list[dict]] = {"argsort": [], "roc_points": [], "fill": []}
    for round_ in range(options.rounds):
        for kind in runs:
            runs[kind].append(fresh(kind, n))
        a, r, f = runs["argsort"][-1], runs["roc_points"][-1], runs["fill"][-1]
        print(
            f"  round {round_ + 1}: argsort {a['seconds']:.3f} s (user {a['user']:.2f}, "
            f"system {a['system']:.2f}); roc_points {r['seconds']:.3f} s (user "
            f"{r['user']:.2f}, system {r['system']:.2f}) = {r['seconds'] / a['seconds']:.2f} x;"
            f" a fresh array the result's size filled {f['seconds']:.3f} s (system "
            f"{f['system']:.2f})",
            flush=True,
        )
    ratios = [r["seconds"] / a["seconds"] for a, r in zip(runs["argsort"], runs["roc_points"])]
    cpu = [
        (r["user"] + r["system"]) / (a["user"] + a["system"])
        for a, r in zip(runs["argsort"], runs["roc_points"])
    ]
    median = {kind: statistics.median(run["seconds"] for run in runs[kind]) for kind in runs}
    print(
        f"  median: argsort {median['argsort']:.3f} s, roc_points {median['roc_points']:.3f} s,"
        f" the result-sized fill {median['fill']:.3f} s; median ratio "
        f"{statistics.median(ratios):.2f} x argsort (target <= 1.5); of CPU time (user + "
        f"system) {statistics.median(cpu):.2f} x"
    )
    memory = fresh("memory", n)
    temporaries = memory["peak"] - memory["result"]
    print(
        f"  memory: peak {memory['peak'] / 1e6:.1f} MB during the call, of which the result "
        f"{memory['result'] / 1e6:.1f} MB ({memory['result'] / memory['input']:.2f} x the "
        f"input of {memory['input'] / 1e6:.0f} MB); temporaries beyond it "
        f"{temporaries / 1e6:.1f} MB = {temporaries / memory['input']:.2f} x the input "
        "(target <= 2)"
    )
    print(machine_load())


if __name__ == "__main__":
    main()
