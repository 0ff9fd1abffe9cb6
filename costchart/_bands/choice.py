"""The band of the envelope's own thresholds, with their choice resampled.

By default a band follows, at each ``pc``, the threshold the lower envelope of the test set
chooses. That threshold was chosen on the same data its cost is measured on: among many
thresholds, the envelope picks the one whose errors happened to be fewest, so its
apparent cost is below its true cost (optimism), and a band that treats it as fixed holds
the true cost less often than it says (0.73-0.79 of test sets on average over ``pc`` at
level 0.9 in ``docs/bands.md``'s settings A-D).

``inference="smoothed_bootstrap"`` resamples the choice itself. Each class's scores are
smoothed (below); each resample draws both classes from the smoothed scores, chooses its
own envelope thresholds, and records ``D = apparent cost - true cost`` of those thresholds
(true under the smoothed scores, where it is known exactly). ``D`` carries the optimism
and the noise together, and the band is the test set's envelope cost corrected by it, as
a bootstrap-t: ``cost - mean(D) - q * s``, with ``q`` the quantiles of ``(D - mean(D)) /
s*`` and ``s`` (``s*``) the cost's standard error at the Jeffreys rates of the test set's
(the resample's) chosen counts
(:func:`~costchart._bands.resampled_choice.jeffreys_se`; ``s*`` at least
:data:`~costchart._bands.resampled_choice.FLOOR` times its median). The simultaneous band
takes one ``q``, the level quantile of ``max_pc |D - mean(D)| / s*``.

Why smoothed. Resampling the test set itself (the ordinary bootstrap) resamples the choice
among the test set's own scores, of which a resample holds about 63 %: it chooses among
fewer distinct thresholds than the test set did and sees about three quarters of the
optimism (in a diagnostic run: mean ``D`` -0.0137 against the true -0.0180 at
``pc = 0.2``, 100 per class). Smoothed scores are continuous, so each resample chooses
among as many thresholds as a fresh test set would, and the mean of ``D`` matched the
optimism to within 0.001 there.

The smoothing (:mod:`costchart._bands.smoothing`) does not depend on the scores' scale,
since a ROC curve depends only on their order; the resamples are drawn as counts over its
cells (:mod:`costchart._bands.resampled_choice`).

Elsewhere the smoothed resamples see about nine tenths of the optimism (mean ``D``
-0.0352 against the true -0.0385 at ``pc = 0.5`` in ``docs/bands.md``'s setting C), so
the band is drawn at a nominal level calibrated by a double bootstrap to hold at the level
asked for (:mod:`costchart._bands.choice_level`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from costchart._bands.choice_level import calibrated_level, shortfall, warn_short
from costchart._bands.counts import Counts, cost_weights
from costchart._bands.options import MAX_INSTANCES, Options, for_group
from costchart._bands.resampled_choice import (
    World,
    jeffreys_se,
    resampled_deviations,
    studentized,
)
from costchart._bands.simultaneous import CALIBRATION_OUTER, _quantiles
from costchart._bands.smoothing import smoothed_cells
from costchart._io.errors import CostchartError

__all__ = ["MAX_PC", "choice_band", "chosen_inference", "class_counts"]

#: The resampled choice is computed at most at this many ``pc`` evenly spread over the
#: requested range; the correction and quantiles between them are interpolated (they vary
#: smoothly with ``pc``).
MAX_PC = 101


def chosen_inference(inference, *, fixed: bool):
    """``inference="auto"``: the smoothed bootstrap for the envelope's own thresholds.

    Thresholds given by ``threshold=`` or ``selection=`` are fixed, and their band is the
    exact bootstrap's; the smoothed bootstrap has no choice to resample there.
    """
    if isinstance(inference, str) and inference == "auto":
        return "exact_bootstrap" if fixed else "smoothed_bootstrap"
    if fixed and isinstance(inference, str) and inference == "smoothed_bootstrap":
        msg = (
            "inference='smoothed_bootstrap' resamples the envelope's choice of thresholds, "
            "but threshold= or selection= fixes them; pass inference='exact_bootstrap' "
            "(or 'auto')"
        )
        raise CostchartError(msg)
    return inference


def class_counts(tp: np.ndarray, fp: np.ndarray, groups) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each group's positives and negatives at each of its scores, highest score first.

    They are the steps of its ROC points' cumulative ``tp`` and ``fp`` (in threshold order,
    as :func:`~costchart.roc_points` writes them).
    """
    steps = []
    for cumulative in (tp, fp):
        ordered = cumulative[groups.order].astype(np.float64)  # group after group
        step = np.diff(ordered, prepend=0.0)
        step[groups.starts] = ordered[groups.starts]  # each group starts from 0
        steps.append(np.split(step, groups.stops[:-1]))
    return list(zip(*steps, strict=True))


def choice_band(
    classes: list[tuple[np.ndarray, np.ndarray]],
    counts: Counts,
    cost: np.ndarray,
    options: Options,
    simultaneous: bool,
):
    """Lower, upper and standard error of the choice-aware band, flat (group-major).

    ``classes`` holds, per group, the instances of each class at each distinct score
    in decreasing score order (positives, negatives; the differences of the ROC points'
    ``tp`` and ``fp``). ``counts`` and ``cost`` are the test set's envelope choice at each
    (group, ``pc``).
    """
    _check_totals(classes)
    pc = options.pc
    n_pc = len(pc)
    lower, upper, se = np.empty(len(cost)), np.empty(len(cost)), np.empty(len(cost))
    grid = _subgrid(pc)
    # Each group draws from its own two streams (resamples, calibration), so neither its
    # calibration nor its band depends on n_resamples or on the other groups' sizes.
    seeds = options.rng.integers(0, 2**63, size=(len(classes), 2))
    short = []
    for g, (positives, negatives) in enumerate(classes):
        span = slice(g * n_pc, (g + 1) * n_pc)
        part = Counts(counts.tp[span], counts.fn[span], counts.fp[span], counts.tn[span])
        streams = [np.random.default_rng(seed) for seed in seeds[g]]
        group = replace(for_group(options, g, len(classes)), rng=streams[0])
        shift, low_q, high_q, spread, (level, wanted) = _resampled_choice(
            positives, negatives, grid, group, simultaneous, streams[1]
        )
        short += shortfall(level, wanted, options, tails=1 if simultaneous else 2)
        s_hat = _jeffreys(part, pc, options.sampling)
        if len(grid) != n_pc:
            shift, low_q, high_q, spread = (
                np.interp(pc, grid, v) for v in (shift, low_q, high_q, spread)
            )
        still = spread <= 0  # every resample chose thresholds of the same true cost
        centre = cost[span] - shift
        band_lower = np.where(still, cost[span], centre - high_q * s_hat)
        band_upper = np.where(still, cost[span], centre - low_q * s_hat)
        # The apparent cost is optimistic: widen to it where the band lies above it. A
        # normalized cost lies in [0, 1], and so does the band (tiny classes reach past 1).
        lower[span] = np.clip(np.minimum(band_lower, cost[span]), 0, None)
        upper[span] = np.clip(np.maximum(band_upper, cost[span]), None, 1)
        se[span] = spread
    if short:
        warn_short(short, len(classes), options.n_resamples)
    return lower, upper, se


def _check_totals(classes) -> None:
    """Refuse a group whose instances (sums of weights) exceed :data:`MAX_INSTANCES`.

    Its resamples are drawn as whole counts, exact in float64 only up to 2**53.
    """
    for positives, negatives in classes:
        total = float(positives.sum() + negatives.sum())
        if total > MAX_INSTANCES:
            msg = (
                f"the instances of a group add up to {total:.4g} (sums of weight=), more than "
                f"2**53 ({MAX_INSTANCES:,}), beyond which resampled counts are not exact; "
                "pass smaller whole weights, or inference='exact_bootstrap' with "
                "threshold= or selection="
            )
            raise CostchartError(msg)


def _subgrid(pc: np.ndarray) -> np.ndarray:
    """The ``pc`` the choice is resampled at: all of them, or :data:`MAX_PC` spread evenly."""
    if len(pc) <= MAX_PC:
        return pc
    return np.linspace(pc.min(), pc.max(), MAX_PC)


def _jeffreys(counts: Counts, pc: np.ndarray, sampling: str) -> np.ndarray:
    """The standard error ``s`` of the test set's chosen costs (Jeffreys rates)."""
    w_fn, w_fp, _ = cost_weights(counts, pc, sampling)
    n = (counts.positives + counts.negatives).astype(np.float64)
    return jeffreys_se(counts.fn, counts.fp, counts.positives, n, w_fn, w_fp, sampling)


def _resampled_choice(positives, negatives, pc, options: Options, simultaneous: bool, calibration):
    """Mean and studentized quantiles of ``D`` at each ``pc``, its spread, and the level.

    Returns ``mean(D)``; the lower and upper quantiles of ``(D - mean(D)) / s*`` at the
    calibrated level (both ``-q`` and ``q`` for the simultaneous band, ``q`` the quantile
    of ``max |D - mean(D)| / s*`` over the ``pc`` where ``D`` varies); the standard
    deviation of ``D``; and the calibrated level, as taken and as asked for. The
    calibration draws from the generator ``calibration``.
    """
    n_pos, n_neg = float(positives.sum()), float(negatives.sum())
    _, above_pos, above_neg = smoothed_cells(positives, negatives)
    world = World(above_pos[None, :], above_neg[None, :], np.array([n_pos]), np.array([n_neg]))
    progress = options.progress

    def report(done, total):
        if progress is not None:
            progress(f"resampled {done:,} of {total:,}")

    draws = options.n_resamples
    keep = min(CALIBRATION_OUTER, draws)
    d, s, drawn = resampled_deviations(world, pc, draws, options, keep=keep, report=report)
    shift, spread, ratio = studentized(d, s)
    own = replace(options, rng=calibration)
    level, wanted = calibrated_level(drawn, d[:keep], s[:keep], pc, own, simultaneous)
    if simultaneous:
        live = spread > 0
        worst = np.abs(ratio[:, live]).max(axis=1) if live.any() else np.zeros(draws)
        factor = float(np.quantile(worst, level))
        low_q, high_q = np.full(len(pc), -factor), np.full(len(pc), factor)
    else:
        tail = (1 - level) / 2
        low_q, high_q = _quantiles(ratio.T, tail), _quantiles(ratio.T, 1 - tail)
    return shift, low_q, high_q, spread, (level, wanted)
