"""Binormal score simulations and the coverage of costchart's bands on them.

The exact-bootstrap paper measures its bands on simulated test sets: scores of negatives
``N(-mu, sigma)``, of positives ``N(mu, sigma)`` (``sigma = 3``), the threshold at each
``pc`` the one that is optimal under those true distributions, and the band's *coverage*:
how often, over many simulated test sets, the band contains the true cost at that ``pc``.
These functions run that experiment with costchart's bands, every simulation at once
(stacked with a ``simulation`` column and banded with ``by=``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence

import altair as alt
import numpy as np
import pandas as pd
from scipy import stats

from costchart._errors import CostchartError

__all__ = [
    "band_coverage",
    "binormal_cost",
    "binormal_scores",
    "binormal_threshold",
    "coverage_chart",
    "coverage_grid",
    "difference_coverage",
]


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


def _selection(thresholds: np.ndarray, pc: np.ndarray, simulations: int) -> pd.DataFrame:
    """One selection table per simulation: ``thresholds[k]`` around ``pc[k]``."""
    cuts = np.r_[0.0, (pc[1:] + pc[:-1]) / 2, 1.0]
    one = pd.DataFrame({"pc_lo": cuts[:-1], "pc_hi": cuts[1:], "threshold": thresholds})
    repeated = pd.concat([one] * simulations, ignore_index=True)
    repeated.insert(0, "simulation", np.repeat(np.arange(simulations), len(one)))
    return repeated


def band_coverage(
    *,
    mu: float,
    n_per_class: int,
    simulations: int,
    pc: Sequence[float],
    sigma: float = 3.0,
    sampling: str = "stratified",
    distribution: str = "auto",
    confidence_level: float = 0.9,
    rng=None,
) -> pd.DataFrame:
    """How often :func:`~costchart.bootstrap_band` covers the true cost, per ``pc``.

    Each simulated test set (:func:`binormal_scores`) is banded at the thresholds that are
    optimal under the true distributions (:func:`binormal_threshold`), all at once.

    Returns
    -------
    pandas.DataFrame
        ``pc``, ``true_cost``, ``coverage`` (share of simulations whose band holds the
        true cost) and ``degenerate`` (share whose band had no width).

    Examples
    --------
    >>> from costchart.datasets.binormal import band_coverage
    >>> table = band_coverage(mu=3, n_per_class=50, simulations=20, pc=[0.5], rng=1)
    >>> list(table.columns)
    ['pc', 'true_cost', 'coverage', 'degenerate']
    """
    from costchart._bands.bootstrap import bootstrap_band

    grid = np.asarray(pc, dtype=np.float64)
    threshold = binormal_threshold(grid, mu_pos=mu, mu_neg=-mu, sigma=sigma)
    true_cost = binormal_cost(grid, threshold, mu_pos=mu, mu_neg=-mu, sigma=sigma)
    data = binormal_scores(
        n_pos=n_per_class, n_neg=n_per_class, mu=mu, sigma=sigma, simulations=simulations, rng=rng
    )
    band = bootstrap_band(
        data,
        score="score",
        label="label",
        by="simulation",
        selection=_selection(threshold, grid, simulations),
        pc=grid,
        sampling=sampling,
        distribution=distribution,
        confidence_level=confidence_level,
    )
    return _coverage(band, grid, true_cost)


def difference_coverage(
    *,
    mu: float,
    shift: float,
    correlation: float,
    n_per_class: int,
    simulations: int,
    pc: Sequence[float],
    sigma: float = 3.0,
    sampling: str = "stratified",
    distribution: str = "auto",
    confidence_level: float = 0.9,
    rng=None,
) -> pd.DataFrame:
    """How often :func:`~costchart.difference_band` covers the true difference, per ``pc``.

    Classifier "a" scores positives ``N(mu, sigma)``, "b" ``N(mu + shift, sigma)``, both
    negatives ``N(-mu, sigma)``, correlated within a class by ``correlation``; each is used
    at its own optimal threshold for each ``pc``. The true difference is a's true cost minus
    b's. Columns as in :func:`band_coverage` (``true_cost`` is the true difference).

    Examples
    --------
    >>> from costchart.datasets.binormal import difference_coverage
    >>> table = difference_coverage(
    ...     mu=1, shift=2, correlation=0.6, n_per_class=50, simulations=20, pc=[0.5], rng=1
    ... )
    >>> bool(0 <= table["coverage"].iat[0] <= 1)
    True
    """
    from costchart._bands.difference import difference_band

    grid = np.asarray(pc, dtype=np.float64)
    t_a = binormal_threshold(grid, mu_pos=mu, mu_neg=-mu, sigma=sigma)
    t_b = binormal_threshold(grid, mu_pos=mu + shift, mu_neg=-mu, sigma=sigma)
    true = binormal_cost(grid, t_a, mu_pos=mu, mu_neg=-mu, sigma=sigma) - binormal_cost(
        grid, t_b, mu_pos=mu + shift, mu_neg=-mu, sigma=sigma
    )
    data = binormal_scores(
        n_pos=n_per_class,
        n_neg=n_per_class,
        mu=mu,
        sigma=sigma,
        simulations=simulations,
        shift=shift,
        correlation=correlation,
        rng=rng,
    )
    band = difference_band(
        data,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="a",
        b="b",
        by="simulation",
        selection=(_selection(t_a, grid, simulations), _selection(t_b, grid, simulations)),
        pc=grid,
        sampling=sampling,
        distribution=distribution,
        confidence_level=confidence_level,
    )
    return _coverage(band, grid, true)


def _coverage(band: pd.DataFrame, pc: np.ndarray, truth: np.ndarray) -> pd.DataFrame:
    """Share of simulations whose band holds ``truth`` at each ``pc``."""
    lower = band["lower"].to_numpy().reshape(-1, len(pc))
    upper = band["upper"].to_numpy().reshape(-1, len(pc))
    covered = (lower <= truth) & (truth <= upper)
    return pd.DataFrame(
        {
            "pc": pc,
            "true_cost": truth,
            "coverage": covered.mean(axis=0),
            "degenerate": (upper - lower <= 0).mean(axis=0),
        }
    )


def coverage_grid(
    experiment: Callable[..., pd.DataFrame], *, grid: Mapping[str, Sequence], **fixed
) -> pd.DataFrame:
    """Run a coverage experiment for every combination of ``grid``'s values.

    Parameters
    ----------
    experiment : callable
        :func:`band_coverage` or :func:`difference_coverage`.
    grid : dict of str to sequence
        Keyword arguments of ``experiment`` and the values to try, e.g.
        ``{"mu": [0.75, 3], "distribution": ["exact", "normal"]}``.
    **fixed
        The experiment's other keyword arguments, the same in every run (pass ``rng`` as a
        seed so that every run simulates the same test sets).

    Returns
    -------
    pandas.DataFrame
        One column per ``grid`` key (the value of the run), then the experiment's columns.

    Examples
    --------
    >>> from costchart.datasets.binormal import band_coverage, coverage_grid
    >>> table = coverage_grid(
    ...     band_coverage, grid={"mu": [1.5, 3.0]},
    ...     n_per_class=50, simulations=10, pc=[0.5], rng=0,
    ... )
    >>> table[["mu", "pc"]].values.tolist()
    [[1.5, 0.5], [3.0, 0.5]]
    """
    if not isinstance(grid, Mapping) or not grid:
        msg = f"grid={grid!r} must be a non-empty dict of argument name to values"
        raise CostchartError(msg)
    names = list(grid)
    tables = []
    for values in itertools.product(*(list(grid[name]) for name in names)):
        run = dict(zip(names, values, strict=True))
        table = experiment(**fixed, **run)
        for position, name in enumerate(names):
            table.insert(position, name, run[name])
        tables.append(table)
    return pd.concat(tables, ignore_index=True)


def coverage_chart(
    table: pd.DataFrame,
    *,
    color: str,
    facet: str,
    level: float = 0.9,
    columns: int = 2,
    title: str | None = None,
    subtitle: str | None = None,
) -> alt.FacetChart:
    """Coverage against ``pc``: one line per value of ``color``, one panel per ``facet``.

    A dashed grey rule marks the target ``level``. ``table`` is a coverage table (from
    :func:`coverage_grid`, :func:`band_coverage` or :func:`difference_coverage`).

    Examples
    --------
    >>> from costchart.datasets.binormal import band_coverage, coverage_chart, coverage_grid
    >>> table = coverage_grid(
    ...     band_coverage, grid={"mu": [1.5, 3.0], "distribution": ["normal", "exact"]},
    ...     n_per_class=50, simulations=10, pc=[0.3, 0.5, 0.7], rng=0,
    ... )
    >>> chart = coverage_chart(table, color="distribution", facet="mu")
    """
    data = table.copy()
    for name in (color, facet):
        data[name] = data[name].map(
            lambda value: f"{value:g}" if isinstance(value, float) else str(value)
        )
    dashes = [[1, 0], [6, 3], [2, 2], [8, 3, 2, 3]]
    values = list(dict.fromkeys(data[color]))
    colours = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7"]
    legend = color.replace("_", " ")
    lines = (
        alt.Chart()
        .mark_line(strokeWidth=1.6)
        .encode(
            x=alt.X("pc:Q", title="Probability cost, PC(+)"),
            y=alt.Y(
                "coverage:Q",
                title=f"Coverage of the {100 * level:g} % band",
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color(
                f"{color}:N",
                title=legend,
                scale=alt.Scale(domain=values, range=colours[: len(values)]),
            ),
            strokeDash=alt.StrokeDash(
                f"{color}:N",
                title=legend,
                scale=alt.Scale(domain=values, range=[dashes[i % 4] for i in range(len(values))]),
            ),
        )
    )
    target = alt.Chart().mark_rule(color="#444444", strokeDash=[4, 4]).encode(y=alt.datum(level))
    chart = (
        alt.layer(lines, target, data=data)
        .properties(width=240, height=160)
        .facet(
            facet=alt.Facet(
                f"{facet}:N",
                title=facet.replace("_", " "),
                sort=list(dict.fromkeys(data[facet])),  # the order of the runs
            ),
            columns=columns,
        )
    )
    if title:
        chart = chart.properties(title=alt.Title(title, subtitle=subtitle or ""))
    return chart
