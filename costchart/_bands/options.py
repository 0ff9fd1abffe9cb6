"""The band options, checked once, and the choice between discrete and normal quantiles.

Every band function validates its options here first (scipy's ``_iv`` step), with the
interval vocabulary of :mod:`costchart._io.intervals`. The choice of ``interval="auto"`` is
made here too (see :func:`exact_where`).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from costchart._io.errors import CostchartError
from costchart._io.intervals import check_interval
from costchart._io.validation import (
    finite_number,
    one_of,
    probabilities,
    probability,
    random_generator,
    whole_number,
)

#: Default operating points of a band.
DEFAULT_PC = np.linspace(0.0, 1.0, 501)
#: ``interval="auto"`` never takes the exact distribution at a ``pc`` whose distribution
#: has more than this many (value, probability) pairs -- the product of the kept ranges of
#: its two counts -- however the normal fit does there.
AUTO_EXACT_PAIRS = 20_000
#: Most terms an exact distribution may compute at one ``pc`` (values and probabilities
#: tabulated, and the sums of every bisection step): about half a GiB of work arrays.
MAX_EXACT_PAIRS = 10_000_000
#: Most instances a classifier's confusion counts may add up to: 2**53, beyond which
#: float64 (and scipy's binomial distribution) no longer hold whole numbers exactly.
MAX_INSTANCES = 2**53
#: Largest memory, in bytes, that ``inference="bootstrap"`` may use for one group's band.
RESAMPLE_MEMORY = 2 * 2**30
#: How many float64 arrays of resamples x operating points resampling holds at once (the
#: resampled costs, the copy the percentiles sort, and one temporary for the spread).
RESAMPLE_ARRAYS = 3
#: Elements of the temporary arrays made per chunk of resamples.
RESAMPLE_CHUNK = 2**22


@dataclass(frozen=True)
class Options:
    """Validated options shared by the band functions."""

    confidence_level: float
    inference: str
    sampling: str
    interval: str
    n_resamples: int
    rng: np.random.Generator
    pc: np.ndarray
    progress: Callable[[str], None] | None

    @property
    def levels(self) -> tuple[float, float]:
        """The lower and upper quantile levels of the band."""
        tail = (1 - self.confidence_level) / 2
        return tail, 1 - tail


def check_options(
    *,
    function,
    confidence_level,
    inference,
    sampling,
    interval,
    n_resamples,
    rng,
    pc,
    progress,
    per_resample: int = 0,
) -> Options:
    """Validate the band options (the ``_iv`` step); raise a clear error for each.

    ``per_resample`` is how many float64 values resampling holds per resample besides
    the resampled costs (for the memory estimate).
    """
    finite_number(confidence_level, "confidence_level")
    level = probability(confidence_level, "confidence_level", low_open=True, high_open=True)
    inference, interval = check_interval(function, inference, interval)
    one_of(sampling, "sampling", ("stratified", "full"))
    resamples = whole_number(n_resamples, "n_resamples", minimum=1)
    generator = random_generator(rng)
    grid = DEFAULT_PC if pc is None else _grid(pc)
    if inference in ("bootstrap", "smoothed_bootstrap"):
        minimum = math.ceil(10 / ((1 - level) / 2) - 1e-9)
        if resamples < minimum:
            msg = (
                f"n_resamples={n_resamples!r} is too few for a {level:g} band: each tail "
                f"needs at least 10 resamples, so pass n_resamples >= {minimum}"
            )
            raise CostchartError(msg)
    if inference == "bootstrap":
        check_resample_memory(resamples, RESAMPLE_ARRAYS * len(grid) + per_resample, len(grid))
    return Options(
        level, inference, sampling, interval, resamples, generator, grid, reporter(progress)
    )


#: The options every band function takes, by the same names (see the glossary).
OPTION_NAMES = (
    "confidence_level",
    "inference",
    "sampling",
    "interval",
    "n_resamples",
    "rng",
    "pc",
    "progress",
)


def options_from(
    function: str, arguments: Mapping[str, object], *, per_resample: int = 0
) -> Options:
    """:func:`check_options` of the band options among a band function's ``arguments``.

    Each band function passes its name and its ``locals()``: the options are named once, here.
    """
    return check_options(
        function=function,
        **{name: arguments[name] for name in OPTION_NAMES},
        per_resample=per_resample,
    )


def _grid(pc) -> np.ndarray:
    """The operating points: a number or a non-empty 1-D array of values in [0, 1]."""
    grid = probabilities(pc, "pc")
    if grid.ndim > 1:
        msg = f"pc must be a number or a 1-D array of operating points; got shape {grid.shape}"
        raise CostchartError(msg)
    grid = np.atleast_1d(grid).astype(np.float64)
    if grid.size == 0:
        msg = "pc=[] has no operating points; pass at least one value in [0, 1]"
        raise CostchartError(msg)
    return grid


def check_resample_memory(
    n_resamples: int, per_resample: int, n_pc: int, *, instead: str = "inference='exact_bootstrap'"
) -> None:
    """Refuse resampling that would hold more than :data:`RESAMPLE_MEMORY` bytes.

    It holds ``per_resample`` float64 values per resample (the resampled costs at each of
    the ``n_pc`` operating points, their copies, and any per-resample draws). ``instead``
    names what else the caller could pass (empty: nothing).
    """
    needed = 8 * n_resamples * per_resample
    if needed > RESAMPLE_MEMORY:
        fitting = RESAMPLE_MEMORY // (8 * per_resample)
        msg = (
            f"n_resamples={n_resamples:,} at {n_pc:,} operating points would need about "
            f"{needed / 2**30:,.1f} GiB of memory (at most {RESAMPLE_MEMORY / 2**30:g} GiB "
            f"is allowed); pass n_resamples <= {fitting:,}"
            + (f", fewer pc values, or {instead}" if instead else " or fewer pc values")
        )
        raise CostchartError(msg)


def reporter(progress) -> Callable[[str], None] | None:
    """``progress=`` (checked at the edge) as a callable taking a message, or None.

    ``True`` reports to standard error.
    """
    if progress is None or isinstance(progress, (bool, np.bool_)):
        return _stderr_progress if progress else None
    return progress


def of_group(told: Callable[[str], None] | None, k: int, count: int):
    """``told``, its messages prefixed with group ``k`` of ``count`` when there are several."""
    if told is None or count == 1:
        return told
    return lambda message: told(f"group {k + 1} of {count}: {message}")


def for_group(options: Options, k: int, count: int) -> Options:
    """``options`` whose progress messages name group ``k`` of ``count`` (see :func:`of_group`)."""
    return replace(options, progress=of_group(options.progress, k, count))


def _stderr_progress(message: str) -> None:
    print(f"costchart: {message}", file=sys.stderr, flush=True)


def exact_where(
    pairs, work, pc: np.ndarray, instances, interval: str, normal_misfits=None
) -> np.ndarray:
    """Which rows get exact quantiles (bool), refusing ``"discrete"`` beyond the work limit.

    ``pairs`` is the real size of each row's exact distribution (the product of its two
    counts' kept ranges), ``work`` the terms the exact path computes for it; ``pc`` and
    ``instances`` (per row) name the worst row in the message. ``"auto"`` takes the exact
    distribution where it has at most :data:`AUTO_EXACT_PAIRS` pairs and, when
    ``normal_misfits`` (bool per row) is given, only where it is true.
    """
    pairs = np.asarray(pairs, dtype=np.float64)
    if interval == "normal":
        return np.zeros(pairs.shape, dtype=bool)
    if interval == "auto":
        small = pairs <= AUTO_EXACT_PAIRS
        return small if normal_misfits is None else small & np.asarray(normal_misfits, bool)
    work = np.asarray(work, dtype=np.float64)
    if work.size and work.max() > MAX_EXACT_PAIRS:
        worst = int(np.argmax(work))
        msg = (
            f"interval='discrete' would need about {work[worst]:,.0f} terms at "
            f"pc={pc[worst]:g} ({int(np.broadcast_to(instances, work.shape)[worst]):,} "
            f"instances), more than the {MAX_EXACT_PAIRS:,} it may use; pass "
            "interval='normal' (or 'auto', which uses the normal fit wherever the "
            "exact distribution is large)"
        )
        raise CostchartError(msg)
    return np.ones(pairs.shape, dtype=bool)
