"""Percentile bands from resampled confusion counts (``inference="bootstrap"``).

Resampling the test instances and recounting is the same, in distribution, as drawing
the confusion counts themselves: binomials with the class totals fixed (stratified) or
one multinomial over the cells (full). Each distinct classifier is drawn once per
resample and every ``pc`` using it reads the same draws.
"""

from __future__ import annotations

import numpy as np

from costchart._bands.binomial import sample_quantiles
from costchart._bands.counts import Counts, cost_weights
from costchart._bands.options import RESAMPLE_CHUNK, Options


def resampled_band(counts: Counts, pc: np.ndarray, options: Options):
    """Cost, lower, upper and se of one group (vectorized over resamples).

    ``counts`` are the group's counts at each ``pc``, as for
    :func:`~costchart._bands.counts.band_of_counts`.
    """
    w_fn, w_fp, cost = cost_weights(counts, pc, options.sampling)
    pairs = np.column_stack([counts.fn, counts.fp])
    distinct, which = np.unique(pairs, axis=0, return_inverse=True)
    which = which.ravel()
    positives, negatives = int(counts.positives[0]), int(counts.negatives[0])
    samples = np.empty((options.n_resamples, len(pc)))
    # Chunks of resamples keep the temporaries small next to ``samples``.
    chunk = max(1, min(2000, RESAMPLE_CHUNK // len(pc)))
    for start in range(0, options.n_resamples, chunk):
        size = min(chunk, options.n_resamples - start)
        if options.sampling == "stratified":
            draws_fn = options.rng.binomial(
                positives, distinct[:, 0] / positives, size=(size, len(distinct))
            )
            draws_fp = options.rng.binomial(
                negatives, distinct[:, 1] / negatives, size=(size, len(distinct))
            )
        else:
            n = positives + negatives
            q = np.column_stack([distinct[:, 0], distinct[:, 1], n - distinct.sum(axis=1)]) / n
            cells = options.rng.multinomial(n, q, size=(size, len(distinct)))
            draws_fn, draws_fp = cells[..., 0], cells[..., 1]
        samples[start : start + size] = draws_fn[:, which] * w_fn + draws_fp[:, which] * w_fp
        if options.progress is not None:
            options.progress(f"resampled {start + size:,} of {options.n_resamples:,}")
    lower, upper = sample_quantiles(samples, options.levels, axis=0)
    se = samples.std(axis=0, ddof=1)
    return cost, np.minimum(lower, cost), np.maximum(upper, cost), se
