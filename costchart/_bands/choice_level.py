"""The nominal level the band of the envelope's own thresholds is drawn at: a double bootstrap.

The smoothed bootstrap (:mod:`costchart._bands.choice`) sees about nine tenths of the
choice's optimism, and its band, drawn at the level asked for, held the true cost of its
thresholds in 0.86-0.88 of test sets at its worst ``pc`` (``docs/bands.md``). Prepivoting
(Beran 1987) finds the nominal level at which it holds. Each of the first 200 resamples
(``CALIBRATION_OUTER`` of :mod:`costchart._bands.simultaneous`) is taken as the test set,
and the smoothed scores it was drawn from as its truth. Its counts are smoothed again
(over at most :data:`INNER_CELLS` cells, from at most :data:`INNER_CENTRES` runs of cells)
and resampled 50 times (``CALIBRATION_INNER``), and its own studentized deviation, placed
among its inner resamples', gives ``u``: the least nominal level whose band holds its
truth. The calibrated level is the ``confidence_level`` quantile of ``u``: at each ``pc``
for the pointwise band (then averaged over the ``pc`` within :data:`WINDOW`), over the
whole curve for the simultaneous band. It is never below ``confidence_level``, and never
so high that fewer than 10 resamples lie beyond a quantile (0.99 for the pointwise band at
the default 2,000 resamples); where that cap binds, the band says so (:func:`shortfall`).
"""

from __future__ import annotations

import math

import numpy as np

from costchart._bands.resampled_choice import Drawn, World, resampled_deviations, studentized
from costchart._bands.simultaneous import CALIBRATION_INNER, placed_among
from costchart._bands.smoothing import smoothed_cells
from costchart._io.errors import warn

__all__ = ["INNER_CELLS", "INNER_CENTRES", "WINDOW", "calibrated_level", "shortfall", "warn_short"]

#: The most cells a resample's counts are smoothed over again.
INNER_CELLS = 256
#: The most runs of neighbouring cells a resample's density is summed from.
INNER_CENTRES = 128
#: The pointwise calibrated level at a ``pc`` is the mean of those within this distance of
#: it: each ``pc``'s own is the quantile of 200 values, too noisy alone.
WINDOW = 0.04


def calibrated_level(
    drawn: Drawn, d: np.ndarray, s: np.ndarray, pc: np.ndarray, options, simultaneous: bool
):
    """The calibrated level, and the one the resamples asked for before the cap.

    ``drawn``, ``d`` and ``s`` (resamples, ``pc``) are the first resamples' counts,
    deviations and standard errors. Returns an array over ``pc`` for the pointwise band
    and a number for the simultaneous one.
    """
    level = options.confidence_level
    usable = (drawn.n_pos > 0) & (drawn.n_neg > 0)  # "full" sampling may draw one class
    u = _least_levels(drawn, d, s, usable, pc, options, simultaneous)
    if simultaneous:
        wanted = float(np.quantile(u, level)) if len(u) else level
        cap = max(level, 1 - 10 / options.n_resamples)  # one side: max |deviation|
        return min(max(wanted, level), cap), wanted
    wanted = np.quantile(u, level, axis=0) if len(u) else np.full(len(pc), level)
    wanted = _averaged(wanted, pc)
    cap = max(level, 1 - 20 / options.n_resamples)  # two sides, 10 beyond each
    return np.clip(wanted, level, cap), wanted


def _averaged(wanted: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """Each ``pc``'s level averaged over the ``pc`` within :data:`WINDOW` of it.

    Level 1 (see :func:`shortfall`) stays 1 and is left out of its neighbours' means.
    """
    one = wanted >= 1 - 1e-12
    near = (np.abs(pc[:, None] - pc[None, :]) <= WINDOW + 1e-12) & ~one[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = near @ np.where(one, 0.0, wanted) / near.sum(axis=1)
    return np.where(one, 1.0, mean)


def _least_levels(drawn: Drawn, d, s, usable, pc, options, simultaneous) -> np.ndarray:
    """``u`` of each usable resample: at each ``pc``, or over the whole curve."""
    keep = int(usable.sum())
    if keep == 0:
        return np.zeros((0,) if simultaneous else (0, len(pc)))
    worlds = [
        smoothed_cells(p, n, cells=INNER_CELLS, centres=INNER_CENTRES)
        for p, n in zip(drawn.positives[usable], drawn.negatives[usable], strict=True)
    ]
    world = World(
        np.stack([w[1] for w in worlds]),
        np.stack([w[2] for w in worlds]),
        drawn.n_pos[usable],
        drawn.n_neg[usable],
    )
    progress = options.progress

    def report(done, total):
        if progress is not None:
            progress(f"calibrating the level: resampled {done:,} of {total:,}")

    inner_d, inner_s, _ = resampled_deviations(world, pc, CALIBRATION_INNER, options, report=report)
    shape = (keep, CALIBRATION_INNER, len(pc))
    shift, spread, inner = studentized(inner_d.reshape(shape), inner_s.reshape(shape))
    d, s = d[usable], s[usable]
    with np.errstate(divide="ignore", invalid="ignore"):
        own = np.where((spread > 0) & (s > 0), (d - shift) / s, 0.0)  # (keep, pc)
    if simultaneous:
        live = spread > 0
        own_worst = np.where(live, np.abs(own), 0.0).max(axis=1)
        inner_worst = np.where(live[:, None, :], np.abs(inner), 0.0).max(axis=2)
        return placed_among(inner_worst, own_worst[:, None], axis=1)
    placed = placed_among(inner, own[:, None, :], axis=1)  # (keep, pc)
    # The band holds the truth above it (D < 0) when the lower quantile, at (1 - u) / 2,
    # lies at or below the truth's place, and the truth below it when the upper one does;
    # it always reaches the test set's own cost, on whichever side the truth lies.
    for_truth_above = np.where(d < 0, 1 - 2 * placed, 0.0)
    for_truth_below = np.where(d > 0, 2 * placed - 1, 0.0)
    return np.maximum(np.maximum(for_truth_above, for_truth_below), 0.0)


def shortfall(taken, wanted, options, *, tails: int) -> list[tuple[int, float, float]]:
    """``[(n_resamples needed, level wanted, level taken)]`` if the cap kept the level short.

    A level below 1 is short where the cap kept it lower, and the ``n_resamples`` that
    resolves it is named. Level 1 (more than ``1 - confidence_level`` of the resamples
    taken as the test set placed their truth beyond all their own resamples) no number
    resolves: it is taken at the cap, which errs wide, and is short only where the cap is
    the level asked for itself; then the number named puts the cap halfway to 1. ``tails``
    is 2 for the pointwise band's two quantiles and 1 for the simultaneous band's one.
    """
    level = options.confidence_level
    taken, wanted = np.atleast_1d(taken), np.atleast_1d(wanted)
    below_one = (wanted < 1 - 1e-12) & (wanted > taken + 1e-12)
    bare_one = (wanted >= 1 - 1e-12) & (taken <= level + 1e-12)
    if not (below_one.any() or bare_one.any()):
        return []
    needed = np.where(below_one, 10 * tails / (1 - np.minimum(wanted, 1 - 1e-12)), 0.0)
    needed = np.where(bare_one, 20 * tails / (1 - level), needed)
    worst = int(np.argmax(needed))
    return [(math.ceil(needed[worst] - 1e-9), float(wanted[worst]), float(taken[worst]))]


def warn_short(short: list[tuple[int, float, float]], groups: int, n_resamples: int) -> None:
    """Warn that some groups' calibrated levels need more resamples than were drawn."""
    needed, wanted, taken = max(short)
    which = "its" if groups == 1 else f"{len(short)} of {groups} groups'"
    warn(
        f"bootstrap_band: the double bootstrap calibrated {which} band to level "
        f"{wanted:.3g}, but n_resamples={n_resamples:,} resolves levels up to {taken:.3g} "
        "only (10 resamples beyond a quantile): the band may hold the true cost of its "
        f"thresholds in fewer test sets than it says; pass n_resamples >= {needed:,}"
    )
