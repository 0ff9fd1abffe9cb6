"""Binormal score simulations: the exact-bootstrap paper's test sets and their true costs.

The exact-bootstrap paper measures its bands on simulated test sets: scores of negatives
``N(-mu, sigma)``, of positives ``N(mu, sigma)`` (``sigma = 3``), and at each ``pc`` the
threshold that is optimal under those true distributions. :func:`binormal_scores` draws the
test sets, :func:`binormal_threshold` gives the optimal thresholds and
:func:`binormal_cost` the true costs. The coverage experiments that band these test sets
are :func:`costchart.band_coverage`, :func:`costchart.difference_coverage`,
:func:`costchart.coverage_grid` and :func:`costchart.coverage_chart`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costchart._io.errors import CostchartError

__all__ = ["binormal_cost", "binormal_scores", "binormal_threshold"]


def binormal_threshold(pc, *, mu_pos: float, mu_neg: float, sigma: float = 3.0) -> np.ndarray:
    """The cost-minimizing threshold at each ``pc`` when both classes' scores are normal.

    With positives ``N(mu_pos, sigma)`` and negatives ``N(mu_neg, sigma)`` (``mu_pos >
    mu_neg``) and "positive when score >= t", the normalized expected cost
    ``pc * P(s < t | +) + (1 - pc) * P(s >= t | -)`` is least at
    ``t = (mu_pos + mu_neg) / 2 + sigma**2 / (mu_pos - mu_neg) * log((1 - pc) / pc)``
    (``+inf`` at ``pc = 0``, always negative; ``-inf`` at ``pc = 1``).

    Examples
    --------
    >>> from costchart.datasets.binormal import binormal_threshold
    >>> binormal_threshold([0.0, 0.5, 1.0], mu_pos=1.5, mu_neg=-1.5).tolist()
    [inf, 0.0, -inf]
    """
    pc = np.asarray(pc, dtype=np.float64)
    if not mu_pos > mu_neg:
        msg = f"mu_pos={mu_pos!r} must be greater than mu_neg={mu_neg!r}"
        raise CostchartError(msg)
    with np.errstate(divide="ignore"):
        odds = np.log1p(-pc) - np.log(pc)
    return (mu_pos + mu_neg) / 2 + sigma**2 / (mu_pos - mu_neg) * odds


def binormal_cost(pc, threshold, *, mu_pos: float, mu_neg: float, sigma: float = 3.0):
    """The true normalized expected cost of "positive when score >= threshold" at ``pc``.

    Examples
    --------
    >>> from costchart.datasets.binormal import binormal_cost
    >>> float(binormal_cost(0.5, 0.0, mu_pos=3.0, mu_neg=-3.0, sigma=3.0).round(4))
    0.1587
    """
    from scipy import stats

    pc = np.asarray(pc, dtype=np.float64)
    threshold = np.asarray(threshold, dtype=np.float64)
    fnr = stats.norm.cdf((threshold - mu_pos) / sigma)
    fpr = stats.norm.sf((threshold - mu_neg) / sigma)
    return pc * fnr + (1 - pc) * fpr


def binormal_scores(
    *,
    n_pos: int,
    n_neg: int,
    mu: float,
    sigma: float = 3.0,
    simulations: int = 1,
    shift: float | None = None,
    correlation: float = 0.0,
    rng=None,
) -> pd.DataFrame:
    """Simulated test sets: positives' scores ``N(mu, sigma)``, negatives' ``N(-mu, sigma)``.

    Parameters
    ----------
    n_pos, n_neg : int
        Instances of each class per test set.
    mu, sigma : float
        Location of the positives (the negatives are at ``-mu``) and the common scale.
    simulations : int
        Independent test sets, told apart by the ``simulation`` column.
    shift : float, optional
        Also score every instance with a second classifier whose positives are at
        ``mu + shift``; its score correlates with the first one's by ``correlation``
        within each class. The table is then long: a ``classifier`` column ("a", "b").
    correlation : float
        In [0, 1); the within-class correlation of the two classifiers' scores.
    rng : numpy.random.Generator or int, optional

    Returns
    -------
    pandas.DataFrame
        ``simulation``, (``classifier``,) ``instance``, ``label`` (1 = positive), ``score``.

    Examples
    --------
    >>> from costchart.datasets.binormal import binormal_scores
    >>> data = binormal_scores(n_pos=3, n_neg=2, mu=1.5, simulations=2, rng=0)
    >>> data.groupby("simulation")["label"].sum().tolist()
    [3, 3]
    """
    for name, value in (("n_pos", n_pos), ("n_neg", n_neg), ("simulations", simulations)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            msg = f"{name}={value!r} must be a whole number of at least 1"
            raise CostchartError(msg)
    if not 0 <= correlation < 1:
        msg = f"correlation={correlation!r} must be in [0, 1)"
        raise CostchartError(msg)
    rng = np.random.default_rng(rng)
    n = n_pos + n_neg
    label = np.tile(np.r_[np.ones(n_pos, np.int64), np.zeros(n_neg, np.int64)], simulations)
    centre = np.where(label == 1, mu, -mu)
    first = rng.standard_normal(n * simulations)
    columns = {
        "simulation": np.repeat(np.arange(simulations), n),
        "instance": np.tile(np.arange(n), simulations),
        "label": label,
    }
    if shift is None:
        return pd.DataFrame({**columns, "score": centre + sigma * first})
    noise = rng.standard_normal(n * simulations)
    second = correlation * first + np.sqrt(1 - correlation**2) * noise
    a = pd.DataFrame({**columns, "classifier": "a", "score": centre + sigma * first})
    b_centre = np.where(label == 1, mu + shift, -mu)
    b = pd.DataFrame({**columns, "classifier": "b", "score": b_centre + sigma * second})
    order = ["simulation", "classifier", "instance", "label", "score"]
    return pd.concat([a, b], ignore_index=True)[order]
