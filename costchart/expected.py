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
from costchart._frames import Group, combine_groups
from costchart._tables import curve_groups, table_kind
from costchart._validation import probabilities
from costchart.envelope import lower_envelope

__all__ = ["cost_at", "expected_cost"]


def _as_curve(curve, by) -> tuple[pd.DataFrame, list[str], list[Group]]:
    """A cost curve table: envelopes pass through, points and lines become envelopes."""
    table = curve if isinstance(curve, pd.DataFrame) else pd.DataFrame(curve)
    if table_kind(table) != "curve":
        table, by = lower_envelope(table, by=by), None
    table, by_columns, groups = curve_groups(table, by)
    return table, by_columns, groups


def _vertices(table, positions):
    pc = table[col.PC].to_numpy(np.float64)[positions]
    cost = table[col.COST].to_numpy(np.float64)[positions]
    order = np.argsort(pc, kind="stable")
    pc, cost = pc[order], cost[order]
    if len(pc) == 0 or pc[0] != 0 or pc[-1] != 1:
        msg = (
            "a cost curve must span pc from 0 to 1, but one runs from "
            f"{pc[0] if len(pc) else 'nothing'} to {pc[-1] if len(pc) else 'nothing'}; "
            "pass a table from lower_envelope"
        )
        raise CostchartError(msg)
    return pc, cost


def cost_at(curve, pc, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Evaluate cost curves at given operating points.

    Parameters
    ----------
    curve : pandas.DataFrame
        A cost curve with ``pc``, ``cost`` (e.g. from :func:`lower_envelope`), or ROC
        points / cost lines, whose lower envelope is used.
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
    at = np.atleast_1d(probabilities(pc, "pc")).astype(np.float64)
    table, by, groups = _as_curve(curve, by)
    parts = []
    for group in groups:
        pcs, costs = _vertices(table, group.positions)
        parts.append(pd.DataFrame({col.PC: at, col.COST: np.interp(at, pcs, costs)}))
    return combine_groups(table, by, groups, parts, [col.PC, col.COST])


def expected_cost(curve, *, density=None, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Expected normalized cost over uncertain operating conditions.

    ``TEC = integral of cost(pc) * density(pc) over [0, 1]``. With the default uniform
    density it is the area under the cost curve; the difference of two such areas is the
    expected advantage of one classifier over the other.

    Parameters
    ----------
    curve : pandas.DataFrame
        A cost curve with ``pc``, ``cost`` (e.g. from :func:`lower_envelope`), or ROC
        points / cost lines, whose lower envelope is used.
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
        pcs, costs = _vertices(table, group.positions)
        total = integrate_segment(pcs[:-1], pcs[1:], costs[:-1], costs[1:]).sum()
        parts.append(pd.DataFrame({col.EXPECTED_COST: [float(total)]}))
    return combine_groups(table, by, groups, parts, [col.EXPECTED_COST])


def _segment_integrator(density) -> Callable:
    """A function integrating ``cost * density`` over each linear segment ``[lo, hi]``."""
    if density is None:
        return lambda lo, hi, c_lo, c_hi: (hi - lo) * (c_lo + c_hi) / 2
    if hasattr(density, "cdf"):
        return _cdf_integrator(density)
    if callable(density):
        return _callable_integrator(density)
    msg = (
        f"density={density!r} must be a scipy.stats frozen distribution or a callable density of pc"
    )
    raise CostchartError(msg)


def _check_mass(mass: float, what: str) -> None:
    if not np.isfinite(mass) or abs(mass - 1) > 1e-6:
        msg = (
            f"density puts mass {mass:.6g} on [0, 1] ({what}); it must integrate to 1 "
            "there: use a distribution on [0, 1] such as scipy.stats.beta, or normalize it"
        )
        raise CostchartError(msg)


def _cdf_integrator(dist) -> Callable:
    cdf = dist.cdf
    _check_mass(float(cdf(1.0) - cdf(0.0)), "cdf(1) - cdf(0)")
    base = float(cdf(0.0))

    def segment(lo, hi, c_lo, c_hi):
        # Integrate by parts: the cdf is bounded and continuous even where the density is
        # not (infinite at an end, or jumping), so adaptive quadrature of it is accurate.
        width = hi - lo
        slope = np.divide(c_hi - c_lo, width, out=np.zeros_like(width), where=width > 0)
        cdf_integral = width * _adaptive(lambda t: cdf(lo + t * width) - base)
        return c_hi * (cdf(hi) - base) - c_lo * (cdf(lo) - base) - slope * cdf_integral

    return segment


def _callable_integrator(density) -> Callable:
    def values(x):
        return np.asarray(density(x), dtype=np.float64).reshape(np.shape(x))

    _check_mass(float(_adaptive(lambda t: values(np.atleast_1d(t)))[0]), "its integral")

    def segment(lo, hi, c_lo, c_hi):
        width = hi - lo
        return width * _adaptive(lambda t: values(lo + t * width) * (c_lo + t * (c_hi - c_lo)))

    return segment


def _adaptive(integrand) -> np.ndarray:
    """Integral over t in [0, 1] of a vector-valued integrand, adaptively (all at once)."""
    value, _ = integrate.quad_vec(integrand, 0.0, 1.0, epsabs=1e-13, epsrel=1e-12, limit=2000)
    return np.asarray(value, dtype=np.float64)
