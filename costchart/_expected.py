"""Cost curves as functions of ``pc``.

Their value at given operating points, and their expected cost over uncertain operating
conditions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy import integrate

from costchart import _schema as col
from costchart._errors import CostchartError
from costchart._frames import describe_group
from costchart._groups import Group, Groups, combine_groups
from costchart._tables import curve_groups, curve_vertices, read_table, table_kind
from costchart._validation import probabilities, real_numbers
from costchart._envelope import envelope_of

__all__ = ["cost_at", "expected_cost"]


def _as_curve(curve, by, name: str = "curve") -> tuple[pd.DataFrame, list[str], Groups]:
    """A cost curve table: envelopes pass through, points and lines become envelopes."""
    table = read_table(curve, name)
    if table_kind(table) != "curve":
        table, by = envelope_of(table, by, name=name), None
    table, by_columns, groups = curve_groups(table, by, name=name)
    return table, by_columns, groups


def _vertices(table, by: list[str], group: Group, name: str = "curve"):
    """The group's vertices sorted by ``pc``; the curve must span [0, 1]."""
    where = describe_group(by, group.key) if by else ""
    return curve_vertices(table, group.positions, name, where=where)


def cost_at(curve, pc, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Evaluate cost curves at given operating points.

    Parameters
    ----------
    curve : pandas, polars or pyarrow table, or dict of arrays
        A cost curve with ``pc``, ``cost`` (e.g. from :func:`lower_envelope`), or ROC
        points / cost lines, whose lower envelope is used. ``pc`` must lie in [0, 1],
        ``cost`` be finite and non-negative, and each curve span ``pc`` from 0 to 1.
    pc : float or array-like
        Operating points in [0, 1].
    by : str or list of str, optional
        Grouping columns; by default every column that is not a costchart column.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``pc`` and ``cost`` (float64), one row per group and
        requested ``pc``, in the order given.

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> # the envelope of one classifier and the two trivial ones
    >>> cc.cost_at(pd.DataFrame({"fpr": [0.09], "tpr": [0.36]}), [0.0, 0.25, 1.0])
         pc    cost
    0  0.00  0.0000
    1  0.25  0.2275
    2  1.00  0.0000
    """
    at = np.atleast_1d(probabilities(real_numbers(pc, "pc"), "pc")).astype(np.float64)
    if at.ndim > 1:
        msg = (
            f"pc must be a number or a 1-D list of numbers, but has shape {at.shape}; "
            "flatten it (e.g. numpy.ravel) first"
        )
        raise CostchartError(msg)
    table, by, groups = _as_curve(curve, by)
    parts = []
    for group in groups:
        pcs, costs = _vertices(table, by, group)
        parts.append(pd.DataFrame({col.PC: at, col.COST: np.interp(at, pcs, costs)}))
    return combine_groups(table, by, groups, parts, [col.PC, col.COST])


def expected_cost(curve, *, density=None, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Expected normalized cost over uncertain operating conditions.

    ``TEC = integral of cost(pc) * density(pc) over [0, 1]``. With the default uniform
    density it is the area under the cost curve; the difference of two such areas is the
    expected advantage of one classifier over the other.

    Parameters
    ----------
    curve : pandas, polars or pyarrow table, or dict of arrays
        A cost curve with ``pc``, ``cost`` (e.g. from :func:`lower_envelope`), or ROC
        points / cost lines, whose lower envelope is used. ``pc`` must lie in [0, 1],
        ``cost`` be finite and non-negative, and each curve span ``pc`` from 0 to 1.
    density : scipy.stats frozen distribution or callable, optional
        The probability density of ``pc``. A frozen distribution (anything with a
        ``cdf``, e.g. ``scipy.stats.beta(2, 5)``) is integrated through its cdf, which
        copes with densities that are infinite at 0 or 1 or jump. A callable ``f(pc)``
        taking a numpy array is integrated adaptively. Either must put all its mass on
        [0, 1]. Results are accurate to about 1e-12 relative.
    by : str or list of str, optional
        Grouping columns; by default every column that is not a costchart column.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``expected_cost`` (float64), one row per group.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> cc.expected_cost(points)
       expected_cost
    0          0.125
    """
    integrate_segment = _segment_integrator(density)
    table, by, groups = _as_curve(curve, by)
    parts = []
    for group in groups:
        pcs, costs = _vertices(table, by, group)
        total = integrate_segment(pcs[:-1], pcs[1:], costs[:-1], costs[1:]).sum()
        parts.append(pd.DataFrame({col.EXPECTED_COST: [float(total)]}))
    return combine_groups(table, by, groups, parts, [col.EXPECTED_COST])


def _segment_integrator(density) -> Callable:
    """A function integrating ``cost * density`` over each linear segment ``[lo, hi]``."""
    if density is None:
        return lambda lo, hi, c_lo, c_hi: (hi - lo) * (c_lo + c_hi) / 2
    cdf = getattr(density, "cdf", None)
    if callable(cdf):
        return _cdf_integrator(density, cdf)
    if callable(density):
        return _callable_integrator(density)
    msg = (
        f"density={density!r} must be a scipy.stats frozen distribution (such as "
        "scipy.stats.beta(2, 5)), a callable density of pc, or None (uniform)"
    )
    raise CostchartError(msg)


def _check_mass(mass: float, what: str) -> None:
    if not np.isfinite(mass) or abs(mass - 1) > 1e-6:
        msg = (
            f"density puts mass {mass:.6g} on [0, 1] ({what}); it must integrate to 1 "
            "there: use a distribution on [0, 1] such as scipy.stats.beta, or normalize it"
        )
        raise CostchartError(msg)


def _evaluate(function, x: np.ndarray, what: str) -> np.ndarray:
    """``function(x)`` as float64 of ``x``'s shape, finite and non-negative, or a clear error."""
    try:
        values = np.asarray(function(x), dtype=np.float64)
    except CostchartError:
        raise
    except Exception as error:  # the user's function failed: say where, keep the cause
        msg = (
            f"{what} failed on a numpy array of pc values ({type(error).__name__}: {error}); "
            "it must take an array and return one value per pc (a scipy.stats distribution "
            "must be frozen, e.g. scipy.stats.beta(2, 5))"
        )
        raise CostchartError(msg) from error
    if values.shape != np.shape(x):
        msg = (
            f"{what} must return one value per pc: given an array of shape {np.shape(x)} it "
            f"returned shape {values.shape}; write it with numpy operations (e.g. "
            "lambda pc: 6 * pc * (1 - pc)) or wrap it in numpy.vectorize"
        )
        raise CostchartError(msg)
    bad = ~(np.isfinite(values) & (values >= 0))
    if bad.any():
        k = int(np.flatnonzero(bad.ravel())[0])
        msg = (
            f"{what} returned {float(values.ravel()[k])!r} at pc={float(np.ravel(x)[k])!r}; "
            "a density must be finite and non-negative on [0, 1]"
        )
        raise CostchartError(msg)
    return values


def _cdf_integrator(dist, cdf) -> Callable:
    ends = _evaluate(cdf, np.array([0.0, 1.0]), "density.cdf")
    _check_mass(float(ends[1] - ends[0]), "cdf(1) - cdf(0)")
    base = float(ends[0])

    def segment(lo, hi, c_lo, c_hi):
        # Integrate by parts: the cdf is bounded and continuous even where the density is
        # not (infinite at an end, or jumping), so adaptive quadrature of it is accurate.
        width = hi - lo
        at_lo = _evaluate(cdf, lo, "density.cdf")
        at_hi = _evaluate(cdf, hi, "density.cdf")
        if np.any(at_hi < at_lo):
            msg = f"density.cdf of {dist!r} decreases on [0, 1]; pass a distribution"
            raise CostchartError(msg)
        slope = np.divide(c_hi - c_lo, width, out=np.zeros_like(width), where=width > 0)
        cdf_integral = width * _adaptive(lambda t: cdf(lo + t * width) - base)
        return c_hi * (at_hi - base) - c_lo * (at_lo - base) - slope * cdf_integral

    return segment


def _callable_integrator(density) -> Callable:
    def values(x):
        return _evaluate(density, np.asarray(x, dtype=np.float64), "density")

    _check_mass(float(_adaptive(lambda t: values(np.atleast_1d(t)))[0]), "its integral")

    def segment(lo, hi, c_lo, c_hi):
        width = hi - lo
        return width * _adaptive(lambda t: values(lo + t * width) * (c_lo + t * (c_hi - c_lo)))

    return segment


def _adaptive(integrand) -> np.ndarray:
    """Integral over t in [0, 1] of a vector-valued integrand, adaptively (all at once)."""
    value, _ = integrate.quad_vec(integrand, 0.0, 1.0, epsabs=1e-13, epsrel=1e-12, limit=2000)
    return np.asarray(value, dtype=np.float64)
