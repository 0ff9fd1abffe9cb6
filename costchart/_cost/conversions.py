"""Operating conditions and the duality between ROC space and cost space.

An operating condition is a class prior ``p_pos = p(+)`` and two misclassification costs,
``cost_fn = C(-|+)`` (a positive predicted negative) and ``cost_fp = C(+|-)``. Cost curves
summarise it by one number, the probability-cost value

``pc = p_pos * cost_fn / (p_pos * cost_fn + (1 - p_pos) * cost_fp)``,

and ROC analysis by the slope of the iso-performance lines,
``slope = (1 - p_pos) * cost_fp / (p_pos * cost_fn) = (1 - pc) / pc``.

Every function takes numbers or arrays (of any shape; they broadcast against each other)
and returns floats or arrays of that shape. Text (even ``"0.5"``), ``None``, booleans, NaN,
and infinities where they have no meaning raise :class:`~costchart.CostchartError` naming
the parameter; ``inf`` is accepted where it has one (``slope = inf`` is ``pc = 0``,
``cost_ratio = inf`` is ``pc = 1``).
"""

from __future__ import annotations

import numpy as np

from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.validation import matching_shapes, probabilities, real_numbers

__all__ = [
    "cost_line_to_roc_point",
    "cost_point_to_roc_line",
    "cost_ratio_from_pc",
    "p_pos_from_pc",
    "pc_from_cost_ratio",
    "pc_from_costs",
    "pc_from_slope",
    "roc_line_to_cost_point",
    "roc_point_to_cost_line",
    "slope_from_pc",
]


def _out(array):
    array = np.asarray(array, dtype=np.float64)
    return float(array) if array.ndim == 0 else array


def _probabilities(value, name: str, **open_ends: bool) -> np.ndarray:
    return probabilities(real_numbers(value, name), name, **open_ends)


def _positive(value, name: str) -> np.ndarray:
    array = real_numbers(value, name)
    bad = ~(np.isfinite(array) & (array > 0))
    if np.any(bad):
        first = float(array[bad].ravel()[0])
        msg = f"{name}={first!r} must be a positive, finite number"
        raise CostchartError(msg)
    return array


def _finite(value, name: str) -> np.ndarray:
    array = real_numbers(value, name)
    bad = ~np.isfinite(array)
    if np.any(bad):
        first = float(array[bad].ravel()[0])
        msg = f"{name}={first!r} must be a finite number"
        raise CostchartError(msg)
    return array


def _refuse_any(bad: np.ndarray, array: np.ndarray, name: str, problem: str) -> None:
    if np.any(bad):
        first = float(array[bad].ravel()[0])
        msg = f"{name}={first!r} {problem}"
        raise CostchartError(msg)


def _nonnegative_slope(value, name: str = "slope"):
    array = real_numbers(value, name)
    bad = (array < 0) | np.isnan(array)
    if np.any(bad):
        first = float(array[bad].ravel()[0])
        msg = f"{name}={first!r} must be a non-negative number (inf allowed)"
        raise CostchartError(msg)
    return array


@checked
def pc_from_costs(p_pos, cost_fn=1.0, cost_fp=1.0):
    """Operating point ``pc`` from the positive prior and the two error costs.

    Examples
    --------
    >>> from costchart import pc_from_costs
    >>> pc_from_costs(0.5, cost_fn=3.0, cost_fp=1.0)
    0.75
    >>> pc_from_costs(0.2)  # equal costs: pc is the prior
    0.2
    """
    p = _probabilities(p_pos, "p_pos")
    fn = _positive(cost_fn, "cost_fn")
    fp = _positive(cost_fp, "cost_fp")
    p, fn, fp = matching_shapes(p_pos=p, cost_fn=fn, cost_fp=fp)
    return _out(p * fn / (p * fn + (1 - p) * fp))


@checked
def pc_from_cost_ratio(cost_ratio, p_pos=0.5):
    """Operating point from the cost ratio ``cost_fn / cost_fp`` and the positive prior.

    ``cost_ratio`` may be 0 (``pc = 0``) or ``inf`` (``pc = 1``), the two ends that
    :func:`cost_ratio_from_pc` returns; with ``p_pos`` 1 or 0 those ends are undefined.

    Examples
    --------
    >>> from costchart import pc_from_cost_ratio
    >>> pc_from_cost_ratio(3.0)
    0.75
    >>> pc_from_cost_ratio(float("inf"))
    1.0
    """
    ratio = real_numbers(cost_ratio, "cost_ratio")
    bad = (ratio < 0) | np.isnan(ratio)
    if np.any(bad):
        first = float(ratio[bad].ravel()[0])
        msg = f"cost_ratio={first!r} must be a non-negative number (inf allowed)"
        raise CostchartError(msg)
    p = _probabilities(p_pos, "p_pos")
    ratio, p = matching_shapes(cost_ratio=ratio, p_pos=p)
    undefined = ((ratio == 0) & (p == 1)) | (np.isinf(ratio) & (p == 0))
    if np.any(undefined):
        where = np.flatnonzero(undefined.ravel())[0]
        first_ratio, first_p = float(ratio.ravel()[where]), float(p.ravel()[where])
        msg = (
            f"cost_ratio={first_ratio!r} with p_pos={first_p!r} has no operating point "
            "(0 times inf); pass a prior strictly between 0 and 1"
        )
        raise CostchartError(msg)
    with np.errstate(invalid="ignore"):
        pc = p * ratio / (p * ratio + (1 - p))
    return _out(np.where(np.isinf(ratio), 1.0, pc))


@checked
def p_pos_from_pc(pc, cost_fn=1.0, cost_fp=1.0):
    """The positive prior at which the given costs make operating point ``pc``.

    Examples
    --------
    >>> from costchart import p_pos_from_pc
    >>> p_pos_from_pc(0.75, cost_fn=3.0, cost_fp=1.0)
    0.5
    """
    pc = _probabilities(pc, "pc")
    fn = _positive(cost_fn, "cost_fn")
    fp = _positive(cost_fp, "cost_fp")
    pc, fn, fp = matching_shapes(pc=pc, cost_fn=fn, cost_fp=fp)
    return _out(pc * fp / (pc * fp + (1 - pc) * fn))


@checked
def cost_ratio_from_pc(pc, p_pos=0.5):
    """The cost ratio ``cost_fn / cost_fp`` that makes operating point ``pc`` at a prior.

    ``pc = 1`` needs an infinite ratio and gives ``inf``.

    Examples
    --------
    >>> from costchart import cost_ratio_from_pc
    >>> cost_ratio_from_pc(0.75)
    3.0
    """
    pc = _probabilities(pc, "pc")
    p = _probabilities(p_pos, "p_pos", low_open=True, high_open=True)
    pc, p = matching_shapes(pc=pc, p_pos=p)
    with np.errstate(divide="ignore"):
        return _out(pc * (1 - p) / ((1 - pc) * p))


def pc_from_slope(slope):
    """Operating point of an iso-performance slope: ``pc = 1 / (1 + slope)``.

    Examples
    --------
    >>> from costchart import pc_from_slope
    >>> pc_from_slope(1.0), pc_from_slope(float("inf"))
    (0.5, 0.0)
    """
    slope = _nonnegative_slope(slope)
    return _out(1.0 / (1.0 + slope))


@checked
def slope_from_pc(pc):
    """Iso-performance slope of an operating point: ``slope = (1 - pc) / pc``.

    Examples
    --------
    >>> from costchart import slope_from_pc
    >>> slope_from_pc(0.25), slope_from_pc(0.0)
    (3.0, inf)
    """
    pc = _probabilities(pc, "pc")
    with np.errstate(divide="ignore"):
        return _out((1 - pc) / pc)


def roc_point_to_cost_line(fpr, tpr):
    """The cost line ``cost = slope * pc + intercept`` of a ROC point.

    Returns ``(slope, intercept)`` with ``slope = FNR - FPR`` and ``intercept = FPR``.

    Examples
    --------
    >>> from costchart import roc_point_to_cost_line
    >>> [round(v, 12) for v in roc_point_to_cost_line(0.09, 0.36)]
    [0.55, 0.09]
    """
    fpr, tpr = matching_shapes(fpr=_probabilities(fpr, "fpr"), tpr=_probabilities(tpr, "tpr"))
    return _out((1 - tpr) - fpr), _out(fpr)


def cost_line_to_roc_point(slope, intercept):
    """The ROC point ``(fpr, tpr) = (intercept, 1 - slope - intercept)`` of a cost line.

    ``slope`` and ``intercept`` are finite numbers; a classifier's cost line gives a point
    in the unit square (``intercept`` its FPR, ``slope + intercept`` its FNR).

    Examples
    --------
    >>> from costchart import cost_line_to_roc_point
    >>> [round(v, 12) for v in cost_line_to_roc_point(0.55, 0.09)]
    [0.09, 0.36]
    """
    slope, intercept = matching_shapes(
        slope=_finite(slope, "slope"), intercept=_finite(intercept, "intercept")
    )
    return _out(intercept), _out(1 - slope - intercept)


def roc_line_to_cost_point(slope, intercept):
    """The cost point of the ROC line ``tpr = slope * fpr + intercept``.

    Returns ``(pc, cost) = (1 / (1 + slope), (1 - intercept) / (1 + slope))``: the point
    every cost line of a ROC point on the line passes through. For a non-negative slope it
    lies in ``0 <= pc <= 1`` (``inf`` gives ``pc = 0``): the operating point where the
    line is an iso-performance line, and the cost of any classifier on it there.

    A negative slope is a constraint line, e.g. a workforce limit ``tp + fp = k`` (slope
    ``-n_neg / n_pos``). Its cost point is *virtual*: ``pc`` lies outside ``[0, 1]`` and
    the cost lines of the classifiers on the line all pass through it, so the ones inside
    the chart fan out from a point beyond its edge (a slope below -1 gives ``pc < 0``,
    between -1 and 0 gives ``pc > 1``). At slope ``-1`` the cost lines are parallel and no
    point exists. ``intercept`` may be any finite number for a negative slope; for a
    non-negative one it is at most 1, else no ROC point lies on the line.

    Examples
    --------
    >>> from costchart import roc_line_to_cost_point
    >>> roc_line_to_cost_point(1.0, 0.5)
    (0.5, 0.25)
    >>> roc_line_to_cost_point(-3.0, 1.5)  # 100 positives, 300 negatives, 150 flagged
    (-0.5, 0.25)
    """
    slope = real_numbers(slope, "slope")
    bad = np.isnan(slope) | (slope == -1) | np.isneginf(slope)
    if np.any(bad):
        first = float(slope[bad].ravel()[0])
        msg = (
            f"slope={first!r} has no cost point: at slope -1 the cost lines of the points on "
            "the line are parallel (and -inf or NaN is no line); pass another slope"
            if first == -1
            else f"slope={first!r} must be a number other than -1 (inf allowed, -inf not)"
        )
        raise CostchartError(msg)
    intercept = _finite(intercept, "intercept")
    slope, intercept = matching_shapes(slope=slope, intercept=intercept)
    problem = "is above 1: the line passes above every ROC point; pass intercept <= 1"
    _refuse_any((intercept > 1) & (slope >= 0), intercept, "intercept", problem)
    with np.errstate(divide="ignore", invalid="ignore"):
        pc = np.where(np.isinf(slope), 0.0, 1 / (1 + slope))
        cost = np.where(np.isinf(slope), 0.0, (1 - intercept) / (1 + slope))
    return _out(pc), _out(cost)


@checked
def cost_point_to_roc_line(pc, cost):
    """The ROC line ``tpr = slope * fpr + intercept`` of a cost point.

    Returns ``(slope, intercept) = (1 / pc - 1, 1 - cost / pc)``: every ROC point on it has
    cost ``cost`` at ``pc``. ``pc`` must be positive and ``cost`` finite and non-negative.

    Examples
    --------
    >>> from costchart import cost_point_to_roc_line
    >>> cost_point_to_roc_line(0.5, 0.25)
    (1.0, 0.5)
    """
    pc = _probabilities(pc, "pc", low_open=True)
    cost = _finite(cost, "cost")
    _refuse_any(cost < 0, cost, "cost", "is negative; an expected cost is at least 0")
    pc, cost = matching_shapes(pc=pc, cost=cost)
    return _out(1 / pc - 1), _out(1 - cost / pc)
