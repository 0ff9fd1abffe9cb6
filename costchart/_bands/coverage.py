"""Coverage of costchart's bands on binormal simulations, as in the exact-bootstrap paper.

The paper measures its bands on simulated test sets (see :mod:`costchart.datasets.binormal`):
at each ``pc`` the threshold that is optimal under the true distributions, and the band's
*coverage*: how often, over many simulated test sets, the band contains the true cost (or,
for :func:`difference_coverage`, the true difference of two classifiers' costs) at that
``pc``. :func:`band_coverage` and :func:`difference_coverage` run that experiment with
costchart's bands, every simulation at once (stacked with a ``simulation`` column and
banded with ``by=``); :func:`coverage_grid` repeats it over a grid of settings and
:func:`coverage_chart` draws the result.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from costchart._bands.bootstrap import bootstrap_band
from costchart._bands.difference import difference_band
from costchart._io.deprecation import deprecated_names
from costchart._io.errors import CostchartError
from costchart._io.intervals import coverage_aliases
from costchart._io.parameters import checked
from costchart._io.validation import finite_number
from costchart.datasets.binormal import binormal_cost, binormal_scores, binormal_threshold

__all__ = ["band_coverage", "coverage_grid", "difference_coverage"]


#: The columns a coverage experiment writes (a ``coverage_grid`` setting may not be one).
COVERAGE_COLUMNS = ("pc", "true_cost", "coverage", "degenerate")


def _grid(pc, sigma) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``pc`` in increasing order, and where each given ``pc`` is among them.

    The bands are computed on the sorted grid (as every band is); the table answers in the
    order the ``pc`` were given. ``pc`` itself was checked by ``@checked``; a dict (chart
    markers) is no grid. ``sigma`` must be a positive, finite number.
    """
    finite_number(sigma, "sigma", positive=True)
    if isinstance(pc, Mapping):
        msg = f"pc={pc!r} must be a number or a list of numbers in [0, 1], not a dict"
        raise CostchartError(msg)
    given = np.atleast_1d(np.asarray(pc, dtype=np.float64))
    if given.ndim != 1 or not len(given):
        msg = f"pc={pc!r} must be a number or a non-empty list of numbers in [0, 1]"
        raise CostchartError(msg)
    grid, where = np.unique(given, return_inverse=True)
    return grid, where


def _selection(thresholds: np.ndarray, pc: np.ndarray, simulations: int) -> pd.DataFrame:
    """One selection table per simulation: ``thresholds[k]`` around ``pc[k]``."""
    cuts = np.r_[0.0, (pc[1:] + pc[:-1]) / 2, 1.0]
    one = pd.DataFrame({"pc_lo": cuts[:-1], "pc_hi": cuts[1:], "threshold": thresholds})
    repeated = pd.concat([one] * simulations, ignore_index=True)
    repeated.insert(0, "simulation", np.repeat(np.arange(simulations), len(one)))
    return repeated


@deprecated_names(coverage_aliases)
@checked
def band_coverage(
    *,
    mu: float,
    n_per_class: int,
    simulations: int,
    pc: Sequence[float],
    sigma: float = 3.0,
    sampling: str = "stratified",
    interval: str = "auto",
    confidence_level: float = 0.9,
    rng=None,
) -> pd.DataFrame:
    """How often :func:`~costchart.bootstrap_band` covers the true cost, per ``pc``.

    Each simulated test set (:func:`~costchart.datasets.binormal.binormal_scores`) is
    banded at the thresholds that are optimal under the true distributions
    (:func:`~costchart.datasets.binormal.binormal_threshold`), all at once.

    Returns
    -------
    pandas.DataFrame
        ``pc``, ``true_cost``, ``coverage`` (share of simulations whose band holds the
        true cost) and ``degenerate`` (share whose band had no width).

    Examples
    --------
    >>> from costchart import band_coverage
    >>> table = band_coverage(mu=3, n_per_class=50, simulations=20, pc=[0.5], rng=1)
    >>> list(table.columns)
    ['pc', 'true_cost', 'coverage', 'degenerate']
    """
    grid, where = _grid(pc, sigma)
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
        interval=interval,
        confidence_level=confidence_level,
    )
    return _coverage(band, grid, true_cost, where)


@deprecated_names(coverage_aliases)
@checked
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
    interval: str = "auto",
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
    >>> from costchart import difference_coverage
    >>> table = difference_coverage(
    ...     mu=1, shift=2, correlation=0.6, n_per_class=50, simulations=20, pc=[0.5], rng=1
    ... )
    >>> bool(0 <= table["coverage"].iat[0] <= 1)
    True
    """
    grid, where = _grid(pc, sigma)
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
        interval=interval,
        confidence_level=confidence_level,
    )
    return _coverage(band, grid, true, where)


def _coverage(
    band: pd.DataFrame, pc: np.ndarray, truth: np.ndarray, where: np.ndarray
) -> pd.DataFrame:
    """Share of simulations whose band holds ``truth`` at each ``pc``, in the given order."""
    lower = band["lower"].to_numpy().reshape(-1, len(pc))
    upper = band["upper"].to_numpy().reshape(-1, len(pc))
    covered = (lower <= truth) & (truth <= upper)
    columns = (pc, truth, covered.mean(axis=0), (upper - lower <= 0).mean(axis=0))
    return pd.DataFrame({k: v[where] for k, v in zip(COVERAGE_COLUMNS, columns, strict=True)})


@checked
def coverage_grid(
    experiment: Callable[..., pd.DataFrame], *, settings: Mapping[str, Sequence], **fixed
) -> pd.DataFrame:
    """Run a coverage experiment for every combination of the ``settings``.

    Parameters
    ----------
    experiment : callable
        :func:`band_coverage` or :func:`difference_coverage`.
    settings : dict of str to sequence
        Keyword arguments of ``experiment`` and the values to try, e.g.
        ``{"mu": [0.75, 3], "interval": ["discrete", "normal"]}``.
    **fixed
        The experiment's other keyword arguments, the same in every run (pass ``rng`` as a
        seed so that every run simulates the same test sets).

    Returns
    -------
    pandas.DataFrame
        One column per ``settings`` key (the value of the run), then the experiment's columns.

    Examples
    --------
    >>> from costchart import band_coverage, coverage_grid
    >>> table = coverage_grid(
    ...     band_coverage, settings={"mu": [1.5, 3.0]},
    ...     n_per_class=50, simulations=10, pc=[0.5], rng=0,
    ... )
    >>> table[["mu", "pc"]].values.tolist()
    [[1.5, 0.5], [3.0, 0.5]]
    """
    names, runs = _check_grid(experiment, settings, fixed)
    tables = []
    for values in itertools.product(*runs):
        run = dict(zip(names, values, strict=True))
        table = experiment(**fixed, **run)
        for position, name in enumerate(names):
            table.insert(position, name, run[name])
        tables.append(table)
    return pd.concat(tables, ignore_index=True)


def _check_grid(experiment, settings, fixed) -> tuple[list[str], list[list]]:
    """The settings' names and values, refused when a run could not be made or told apart."""
    if not callable(experiment):
        msg = f"experiment={experiment!r} must be band_coverage or difference_coverage"
        raise CostchartError(msg)
    if not isinstance(settings, Mapping) or not settings:
        msg = f"settings={settings!r} must be a non-empty dict of argument name to values"
        raise CostchartError(msg)
    try:
        taken = set(inspect.signature(experiment).parameters)
    except (TypeError, ValueError):
        taken = None
    runs = []
    for name, values in settings.items():
        if name in COVERAGE_COLUMNS:
            msg = (
                f"settings names {name!r}, a column the experiment writes; pass {name}= "
                "with the other fixed arguments (each run covers every pc)"
            )
            raise CostchartError(msg)
        if taken is not None and name not in taken:
            what = getattr(experiment, "__name__", experiment)
            msg = f"settings names {name!r}, which {what} does not take"
            raise CostchartError(msg)
        if name in fixed:
            msg = f"{name}= is both a setting and a fixed argument; pass it in one place"
            raise CostchartError(msg)
        if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
            msg = f"settings[{name!r}]={values!r} must be a list of the values to try"
            raise CostchartError(msg)
        runs.append(list(values))
        if not runs[-1]:
            msg = f"settings[{name!r}] is empty; pass at least one value to try"
            raise CostchartError(msg)
    return list(settings), runs
