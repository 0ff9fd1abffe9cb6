"""Benchmark of roc_points and ROCIV against an argsort of the scores, measured side by side.

Run from the repository root:  python tests/benchmarks/bench_rociv.py   (about 2 minutes)
``--no-huge-pages`` turns off numpy's huge-page requests first (see :func:`no_huge_pages`).

For tied (rounded) and all-distinct scores, ``np.argsort(scores)``, :func:`roc_points` and
:func:`rociv` run interleaved (median of the rounds, tests/benchmarks/_timing.py); each is
printed as a ratio to the argsort, with the machine's load before and after, then the
peak memory of each as a multiple of the input.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from _timing import interleaved, machine_load, peak_memory

import costchart as cc

#: The most each may take, as a multiple of the argsort of the same scores.
TARGET = 1.5


def frames(n: int) -> dict[str, pd.DataFrame]:
    """Tied (3 decimals) and all-distinct scores, 10% positive, amounts of money."""
    rng = np.random.default_rng(0)
    labels = rng.random(n) < 0.1
    costs = np.round(rng.lognormal(7, 1, size=n), 2)
    tied = np.round(rng.normal(size=n) + labels, 3)
    distinct = rng.normal(size=n) + labels
    return {
        kind: pd.DataFrame({"score": scores, "label": labels, "cost": costs})
        for kind, scores in (("tied", tied), ("distinct", distinct))
    }


def candidates(frame: pd.DataFrame) -> dict:
    """The three timed calls on one frame."""
    scores = frame["score"].to_numpy()
    return {
        "argsort": lambda: np.argsort(scores),
        "roc_points": lambda: cc.roc_points(frame, score="score", label="label"),
        "rociv": lambda: cc.rociv(frame, score="score", label="label", amount="cost"),
    }


def main(n: int = 10_000_000, rounds: int = 3) -> None:
    print(f"argsort, roc_points and rociv on {n:,} instances (10% positive), {rounds} rounds")
    data = frames(n)
    for kind, frame in data.items():
        for trim in (False, True):
            times = interleaved(candidates(frame), rounds=rounds, trim=trim)
            reference = times["argsort"]
            state = "allocator trimmed before each call" if trim else "as the calls leave it"
            print(f"  {kind} scores, {state}: argsort {reference:.3f} s")
            for name in ("roc_points", "rociv"):
                print(
                    f"    {name:<10} {times[name]:.3f} s = {times[name] / reference:.2f} x "
                    f"argsort (target <= {TARGET})"
                )
    for kind, frame in data.items():
        data_bytes = sum(frame[c].to_numpy().nbytes for c in frame.columns)
        for name, function in candidates(frame).items():
            if name != "argsort":
                peak = peak_memory(function)
                print(
                    f"  peak memory, {kind:<8} {name:<10} {peak / 1e6:7.1f} MB = "
                    f"{peak / data_bytes:.2f} x the input ({data_bytes / 1e6:.0f} MB)"
                )


def no_huge_pages() -> None:
    """Stop numpy asking the kernel for huge pages for large arrays.

    On a machine with transparent huge pages ("always", as here), a fresh huge page may
    need the kernel to compact memory first: the same ``roc_points`` call on 10 million
    scores then took anywhere from 0.53 s to 2.2 s, and argsort itself varied less. Without
    the request every call pays ordinary page faults, and the timings are steady.
    """
    np._core.multiarray._set_madvise_hugepage(False)


if __name__ == "__main__":
    import sys

    print("python tests/benchmarks/bench_rociv.py " + " ".join(sys.argv[1:]))
    if "--no-huge-pages" in sys.argv:
        no_huge_pages()
        print("numpy's huge-page requests off")
    print(machine_load())
    main()
    print(machine_load())
