"""The costs behind ROCIV: per-instance costs, and the operating condition they imply.

* :func:`costs_from_benefits` -- each instance's ROCIV amount from a benefit matrix whose
  cells depend on an amount (a loan's size ...);
* :func:`rociv_condition` -- the iso-performance slope and ``pc`` of ROCIV points' own
  data: the class priors weighed by the classes' average amounts.

Both are re-exported by :mod:`costchart._roc.rociv`, which makes the points.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.data_checks import binary_labels, finite_numbers
from costchart._io.errors import CostchartError
from costchart._io.frames import as_pandas
from costchart._io.groups import combine_groups
from costchart._io.parameters import checked
from costchart._io.validation import column_name

__all__ = ["costs_from_benefits", "rociv_condition"]


@checked
def rociv_condition(points: pd.DataFrame, *, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """The operating condition of ROCIV points' own data: iso-performance slope and ``pc``.

    In ROCIV space the expected cost of a point is ``C * fpr + B * (1 - tpr)``, with ``C``
    the negatives' total cost and ``B`` the positives' total benefit, so iso-performance
    lines have slope ``C / B = (N * mean cost of a negative) / (P * mean benefit of a
    positive)``: the class priors weighed by the classes' average amounts. The matching
    operating point is ``pc = 1 / (1 + slope) = B / (B + C)``.

    Parameters
    ----------
    points : pandas.DataFrame
        A table from :func:`rociv`.
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries (see the glossary).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``slope`` and ``pc`` (float64), one row per group.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"s": [0.9, 0.8, 0.4, 0.3], "y": [1, 0, 1, 0], "amount": [10.0, 1.0, 30.0, 3.0]}
    >>> cc.rociv_condition(cc.rociv(data, score="s", label="y", amount="amount"))
       slope        pc
    0    0.1  0.909091
    """
    from costchart._io.tables import numbers, points_groups

    table, by, groups = points_groups(points, by)
    missing = [c for c in (col.FP_COST, col.TP_BENEFIT) if c not in table.columns]
    if missing:
        msg = f"points has no column {missing[0]!r}; pass a table from rociv"
        raise CostchartError(msg)
    if len(table) == 0:
        msg = "points has no rows; pass a table from rociv"
        raise CostchartError(msg)
    cost = numbers(table, col.FP_COST, "points")  # lists or text refused, as every reader
    benefit = numbers(table, col.TP_BENEFIT, "points")
    parts = []
    for group in groups:
        total_cost = float(cost[group.positions].max())
        total_benefit = float(benefit[group.positions].max())
        if not (total_cost > 0 and total_benefit > 0 and np.isfinite(total_cost + total_benefit)):
            msg = (
                f"points has total fp_cost {total_cost!r} and tp_benefit {total_benefit!r}; "
                "both must be finite and above 0 (pass a table from rociv)"
            )
            raise CostchartError(msg)
        slope = total_cost / total_benefit
        parts.append(pd.DataFrame({col.SLOPE: [slope], col.PC: [1 / (1 + slope)]}))
    return combine_groups(table, by, groups, parts, [col.SLOPE, col.PC])


Amount = float | Callable[[np.ndarray], np.ndarray]


@checked
def costs_from_benefits(
    data,
    *,
    label: str,
    amount: str,
    benefit: Mapping[tuple[str, str], Amount],
    pos_label=None,
) -> pd.Series:
    """Per-instance ROCIV costs from a benefit matrix whose cells depend on an amount.

    ``benefit`` gives, for each (decision, true class) pair, the benefit of that outcome:
    keys ``("Y", "p")`` (predict positive, truly positive), ``("N", "p")``, ``("Y", "n")``,
    ``("N", "n")``; values are numbers or functions of the amount array. Missing cells
    count as 0. The ROCIV amount of a positive is ``b(Y,p) - b(N,p)`` (what classifying it
    positive gains), of a negative ``b(N,n) - b(Y,n)`` (what it loses). Both must be > 0.

    Parameters
    ----------
    data : DataFrame or dict of arrays
        One row per instance.
    label : str
        Column of true classes.
    amount : str
        Column of the per-instance amount (e.g. a loan's size).
    benefit : dict
        The benefit matrix, as above.
    pos_label : optional
        As in :func:`roc_points`.

    Returns
    -------
    pandas.Series
        The cost of each instance, aligned with ``data``'s rows, named ``"cost"``.

    Examples
    --------
    >>> import costchart as cc
    >>> loans = {"good": [1, 0], "amount": [1000.0, 500.0]}
    >>> matrix = {("Y", "p"): lambda a: 0.1 * a, ("Y", "n"): lambda a: -a}
    >>> cc.costs_from_benefits(loans, label="good", amount="amount", benefit=matrix).tolist()
    [100.0, 500.0]
    """
    column_name(label, "label")
    column_name(amount, "amount")
    if not isinstance(benefit, Mapping):
        msg = (
            f"benefit={benefit!r} must be a dict from (decision, true class) cells such as "
            "('Y', 'p') to a number or a function of the amount"
        )
        raise CostchartError(msg)
    unknown = set(benefit) - {("Y", "p"), ("N", "p"), ("Y", "n"), ("N", "n")}
    if unknown:
        msg = (
            f"benefit has cells {sorted(unknown)}; use keys ('Y', 'p'), ('N', 'p'), "
            "('Y', 'n'), ('N', 'n') (decision, true class)"
        )
        raise CostchartError(msg)
    frame = as_pandas(data, [label, amount])
    amounts = finite_numbers(frame[amount].to_numpy(), f"column {amount!r}")
    positive = binary_labels(frame[label].to_numpy(), f"column {label!r}", pos_label)

    def cell(key) -> np.ndarray:
        value = benefit.get(key, 0.0)
        try:
            result = value(amounts.copy()) if callable(value) else value
            return np.broadcast_to(np.asarray(result, dtype=np.float64), amounts.shape)
        except Exception as error:  # any failure of the user's cell is reported as such
            what = "a function of the amount that fails" if callable(value) else repr(value)
            msg = (
                f"benefit[{key!r}] is {what} ({type(error).__name__}: {error}); each cell "
                f"must be a number or a function returning one number per instance "
                f"({len(amounts)} here)"
            )
            raise CostchartError(msg) from None

    gain = cell(("Y", "p")) - cell(("N", "p"))
    loss = cell(("N", "n")) - cell(("Y", "n"))
    costs = np.where(positive, gain, loss)
    bad = ~((costs > 0) & np.isfinite(costs))
    if bad.any():
        where = np.flatnonzero(bad)
        first = int(where[0])
        kind = "positive" if positive[first] else "negative"
        formula = "b(Y,p) - b(N,p)" if positive[first] else "b(N,n) - b(Y,n)"
        msg = (
            f"the benefit matrix gives {len(where)} instances a cost that is not positive "
            "and finite; "
            f"the first, at position {first}, is a {kind} with {amount}={amounts[first]:g} and "
            f"{formula} = {costs[first]:g}. ROCIV needs every cost and benefit finite and > 0: "
            "check the matrix's signs"
        )
        raise CostchartError(msg)
    return pd.Series(costs, index=frame.index, name=col.COST)
