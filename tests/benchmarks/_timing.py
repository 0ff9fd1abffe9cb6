"""Timing helpers shared by the benchmark scripts.

Every figure in docs/performance.md is a ratio of two timings taken side by side in one
run: :func:`interleaved` runs the candidates round-robin (a, b, c, a, b, c, ...) and keeps
each one's median, so a burst of load from another process hits all of them alike.
:func:`machine_load` says how busy the machine was, for the printed report.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
import tracemalloc
from collections.abc import Callable, Mapping


def timed(function):
    """Run ``function`` once; return its result and the seconds it took."""
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def best_of(function, repeats: int = 3) -> float:
    """The shortest of ``repeats`` runs of ``function``, in seconds."""
    return min(timed(function)[1] for _ in range(repeats))


def interleaved(
    functions: Mapping[str, Callable[[], object]],
    *,
    rounds: int = 5,
    warmup: bool = True,
    number: int = 1,
    trim: bool = False,
    cpu: dict[str, float] | None = None,
) -> dict[str, float]:
    """Median seconds of each function over ``rounds`` round-robin runs.

    With ``cpu`` (a dict) the median CPU seconds of each run (``time.process_time``, all
    threads of this process) are stored in it too: on a machine other processes keep
    busy, what the code itself costs, where the wall clock also counts the waits.

    With ``warmup`` each function runs once first, untimed (imports, caches, first touch
    of memory). Each run calls a function ``number`` times and counts the mean: for calls
    of a few milliseconds, where one call's timing is mostly noise. With ``trim`` the C
    allocator returns its free memory to the system before each run (:func:`trim_memory`).
    """
    times, cpu_times = interleaved_rounds(
        functions, rounds=rounds, warmup=warmup, number=number, trim=trim, cpu=True
    )
    if cpu is not None:
        cpu.update({name: statistics.median(values) for name, values in cpu_times.items()})
    return {name: statistics.median(values) for name, values in times.items()}


def interleaved_rounds(
    functions: Mapping[str, Callable[[], object]],
    *,
    rounds: int = 5,
    warmup: bool = True,
    number: int = 1,
    trim: bool = False,
    cpu: bool = False,
):
    """:func:`interleaved`'s seconds of every round, in order, before taking medians.

    For ratios taken round by round (:func:`median_ratio`): the two sides of one round
    ran back to back, under the same load. With ``cpu`` also the CPU seconds of every
    round (``time.process_time``), as a second dict.
    """
    if warmup:
        for function in functions.values():
            function()
    times: dict[str, list[float]] = {name: [] for name in functions}
    cpu_times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(rounds):
        for name, function in functions.items():
            gc.collect()
            if trim:
                trim_memory()
            start = time.process_time()
            times[name].append(timed(lambda f=function: _repeat(f, number))[1] / number)
            cpu_times[name].append((time.process_time() - start) / number)
    return (times, cpu_times) if cpu else times


def median_ratio(numerators: list[float], denominators: list[float]) -> float:
    """The median over rounds of ``numerators[k] / denominators[k]``."""
    return statistics.median(a / b for a, b in zip(numerators, denominators, strict=True))


def trim_memory() -> bool:
    """Ask glibc's allocator to return free heap memory to the system (Linux; else no-op).

    Calls that allocate hundreds of megabytes run at different speeds depending on what
    the allocator kept from earlier calls (seen here: the same ``roc_points`` call on 10
    million scores took 0.52 s after a trim and 1.1-1.4 s after another large call).
    """
    try:
        import ctypes

        return bool(ctypes.CDLL("libc.so.6").malloc_trim(0))
    except (OSError, AttributeError):
        return False


def _repeat(function: Callable[[], object], number: int) -> None:
    for _ in range(number):
        function()


def peak_memory(function: Callable[[], object]) -> int:
    """Peak bytes allocated (numpy and Python, as tracemalloc sees them) by ``function``."""
    gc.collect()
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def machine_load() -> str:
    """One line on how loaded the machine is: load averages against the number of cores."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def ratio_line(label: str, seconds: float, reference: float, against: str, target: str = "") -> str:
    """A report line: ``label``, its median seconds and its ratio to ``reference``."""
    goal = f"   (target {target})" if target else ""
    return f"  {label:<38} {seconds:8.4f} s = {seconds / reference:6.2f} x {against}{goal}"
