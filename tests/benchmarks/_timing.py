"""Timing helpers shared by the benchmark scripts."""

from __future__ import annotations

import time


def timed(function):
    """Run ``function`` once; return its result and the seconds it took."""
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def best_of(function, repeats: int = 3) -> float:
    """The shortest of ``repeats`` runs of ``function``, in seconds."""
    return min(timed(function)[1] for _ in range(repeats))
