"""Cost curves as functions of ``pc``.

Their value at given operating points, and their expected cost over uncertain operating
conditions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.frames import carry_grouping, describe_group
from costchart._io.groups import Group, combine_groups
from costchart._io.parameters import checked
from costchart._io.table_values import threshold_values
from costchart._io.tables import (
    curve_groups,
    curve_vertices,
    points_groups,
    read_table,
    table_kind,
)
from costchart._io.validation import probabilities, real_numbers

__all__ = ["cost_at", "expected_cost"]


def _vertices(table, by: list[str], group: Group, name: str = "curve"):
    """The group's vertices sorted by ``pc``; the curve must span [0, 1]."""
    where = describe_group(by, group.key) if by else ""
    return curve_vertices(table, group.positions, name, where=where)


def _lines(curve, by, name: str = "curve") -> pd.DataFrame | None:
    """A points or cost-lines table as one row per line (its ROC point), else ``None``.

    The rows keep the grouping columns and ``threshold`` (when present), then ``tpr`` and
    ``fpr``: each line is evaluated on its own, never replaced by an envelope.
    """
    table = read_table(curve, name)
    if table_kind(table) == "curve":
        return None
    points, by_columns, _ = points_groups(table, by, name=name, cloud=True)
    columns = [*by_columns, *([col.THRESHOLD] if col.THRESHOLD in points else [])]
    lines = points[[*columns, col.TPR, col.FPR]].reset_index(drop=True)  # roc_points' order
    if col.THRESHOLD in lines:  # float64 as in every costchart table (an int column too),
        # or exact Python integers past 2**53
        lines[col.THRESHOLD] = threshold_values(lines, name)
    return carry_grouping(lines, by_columns)


def _pc_values(pc) -> np.ndarray:
    at = np.atleast_1d(probabilities(real_numbers(pc, "pc"), "pc")).astype(np.float64)
    if at.ndim > 1:
        msg = (
            f"pc must be a number or a 1-D list of numbers, but has shape {at.shape}; "
            "flatten it (e.g. numpy.ravel) first"
        )
        raise CostchartError(msg)
    return at


@checked
def cost_at(curve, pc, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Evaluate cost curves or cost lines at given operating points.

    Each curve gives its own cost: a cost curve (``pc``, ``cost``, e.g. a lower envelope)
    is interpolated between its vertices, and each ROC point or cost line gives the cost
    of that one classifier, ``FPR + pc·(FNR - FPR)``. No envelope is formed unless you
    pass one: ``cost_at(lower_envelope(points), pc)`` reads the best cost at ``pc``.

    Parameters
    ----------
    curve : pandas, polars or pyarrow table, or dict of arrays
        A cost curve with ``pc`` and ``cost`` (each curve spanning ``pc`` from 0 to 1),
        or ROC points (``fpr``, ``tpr``) or cost lines (``line``, ``pc``, ``cost``).
    pc : float or array-like
        Operating points in [0, 1].
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        For a cost curve: the grouping columns, then ``pc`` and ``cost`` (float64), one
        row per group and requested ``pc``, in the order given. For points or lines: the
        grouping columns, ``threshold`` (when the table has one), ``tpr``, ``fpr``, then
        ``pc`` and ``cost``: one row per line and requested ``pc``, line after line.

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> point = pd.DataFrame({"fpr": [0.09], "tpr": [0.36]})
    >>> cc.cost_at(point, [0.0, 0.8, 1.0])  # the classifier's own line
        tpr   fpr   pc  cost
    0  0.36  0.09  0.0  0.09
    1  0.36  0.09  0.8  0.53
    2  0.36  0.09  1.0  0.64
    >>> cc.cost_at(cc.lower_envelope(point), [0.8])  # the best of it and the trivial ones
        pc  cost
    0  0.8   0.2
    """
    at = _pc_values(pc)
    curve = read_table(curve, "curve")  # converted once, read by both paths
    lines = _lines(curve, by)
    if lines is not None:
        rows = np.repeat(np.arange(len(lines)), len(at))
        result = lines.iloc[rows].reset_index(drop=True)
        fpr = result[col.FPR].to_numpy(np.float64)
        fnr = 1.0 - result[col.TPR].to_numpy(np.float64)
        pcs = np.tile(at, len(lines))
        result[col.PC] = pcs
        result[col.COST] = fpr + pcs * (fnr - fpr)
        return result
    table, by_columns, groups = curve_groups(curve, by)
    parts = []
    for group in groups:
        pcs, costs = _vertices(table, by_columns, group)
        parts.append(pd.DataFrame({col.PC: at, col.COST: np.interp(at, pcs, costs)}))
    return combine_groups(table, by_columns, groups, parts, [col.PC, col.COST])


@checked
def expected_cost(curve, *, density=None, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Expected normalized cost over uncertain operating conditions.

    ``TEC = integral of cost(pc) * density(pc) over [0, 1]``. With the default uniform
    density it is the area under the cost curve; the difference of two such areas is the
    expected advantage of one classifier over the other. Each curve gives its own: a cost
    curve (e.g. a lower envelope) its area, and each ROC point or cost line the area
    under that one line. For the best a classifier can do, pass its envelope:
    ``expected_cost(lower_envelope(points))``.

    Parameters
    ----------
    curve : pandas, polars or pyarrow table, or dict of arrays
        A cost curve with ``pc`` and ``cost`` (each curve spanning ``pc`` from 0 to 1),
        or ROC points (``fpr``, ``tpr``) or cost lines (``line``, ``pc``, ``cost``).
    density : scipy.stats frozen distribution or callable, optional
        The probability density of ``pc``. A frozen distribution (anything with a
        ``cdf``, e.g. ``scipy.stats.beta(2, 5)``) is integrated through its cdf, which
        copes with densities that are infinite at 0 or 1 or jump. A callable ``f(pc)``
        taking a numpy array is integrated adaptively. Either must put all its mass on
        [0, 1]. Results are accurate to about 1e-12 relative.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        For a cost curve: the grouping columns, then ``expected_cost`` (float64), one row
        per group. For points or lines: the grouping columns, ``threshold`` (when the
        table has one), ``tpr``, ``fpr`` and ``expected_cost``, one row per line.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> cc.expected_cost(cc.lower_envelope(points))
       expected_cost
    0          0.125
    """
    integrate_segment = segment_integrator(density)
    curve = read_table(curve, "curve")  # converted once, read by both paths
    lines = _lines(curve, by)
    if lines is not None:
        fpr = lines[col.FPR].to_numpy(np.float64)
        fnr = 1.0 - lines[col.TPR].to_numpy(np.float64)
        ends = np.zeros(len(lines)), np.ones(len(lines))
        result = lines.copy()
        area = np.asarray(integrate_segment(*ends, fpr, fnr), np.float64)
        # An average of a line over a density lies between its ends: keep quadrature's
        # last-digit error from leaving them (and [0, 1]).
        result[col.EXPECTED_COST] = np.clip(area, np.minimum(fpr, fnr), np.maximum(fpr, fnr))
        return result
    table, by_columns, groups = curve_groups(curve, by)
    parts = []
    for group in groups:
        pcs, costs = _vertices(table, by_columns, group)
        total = integrate_segment(pcs[:-1], pcs[1:], costs[:-1], costs[1:]).sum()
        parts.append(pd.DataFrame({col.EXPECTED_COST: [float(total)]}))
    return combine_groups(table, by_columns, groups, parts, [col.EXPECTED_COST])


def segment_integrator(density) -> Callable:
    """A function integrating ``cost * density`` over each segment ``[lo, hi]``.

    The segment's cost runs from ``c_lo`` to ``c_hi``: the chord between them plus
    ``bend * (pc - lo) * (pc - hi)`` (0 by default: a straight segment; a rate-driven
    curve bends with ``bend = -2``). Its integral against the uniform density is the
    trapezoid less ``bend * width**3 / 6``.
    """
    if density is None:
        return lambda lo, hi, c_lo, c_hi, bend=0.0: (
            (hi - lo) * (c_lo + c_hi) / 2 - bend * (hi - lo) ** 3 / 6
        )
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

    def segment(lo, hi, c_lo, c_hi, bend=0.0):
        # Integrate by parts: the cdf is bounded and continuous even where the density is
        # not (infinite at an end, or jumping), so adaptive quadrature of it is accurate.
        # With t in [0, 1] across the segment, the cost's derivative is
        # slope + bend * width * (2t - 1).
        width = hi - lo
        at_lo = _evaluate(cdf, lo, "density.cdf")
        at_hi = _evaluate(cdf, hi, "density.cdf")
        if np.any(at_hi < at_lo):
            msg = f"density.cdf of {dist!r} decreases on [0, 1]; pass a distribution"
            raise CostchartError(msg)
        slope = np.divide(c_hi - c_lo, width, out=np.zeros_like(width), where=width > 0)
        by_parts = width * _adaptive(
            lambda t: (slope + bend * width * (2 * t - 1)) * (cdf(lo + t * width) - base)
        )
        area = c_hi * (at_hi - base) - c_lo * (at_lo - base) - by_parts
        return np.where(width > 0, area, 0.0)  # a jump (zero width) holds no mass

    return segment


def _callable_integrator(density) -> Callable:
    def values(x):
        return _evaluate(density, np.asarray(x, dtype=np.float64), "density")

    _check_mass(float(_adaptive(lambda t: values(np.atleast_1d(t)))[0]), "its integral")

    def segment(lo, hi, c_lo, c_hi, bend=0.0):
        width = hi - lo

        def cost(t):  # the chord plus the bend, at lo + t * width
            return c_lo + t * (c_hi - c_lo) + bend * width**2 * t * (t - 1)

        return width * _adaptive(lambda t: values(lo + t * width) * cost(t))

    return segment


def _adaptive(integrand) -> np.ndarray:
    """Integral over t in [0, 1] of a vector-valued integrand, adaptively (all at once)."""
    from scipy import integrate

    value, _ = integrate.quad_vec(integrand, 0.0, 1.0, epsabs=1e-13, epsrel=1e-12, limit=2000)
    return np.asarray(value, dtype=np.float64)
