"""Where a difference band shows one classifier significantly cheaper, as ``pc`` ranges."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._bands.describe import pair_of, recorded_names
from costchart._bands.difference import ZERO
from costchart._io import schema as col
from costchart._io.deprecation import renamed_pair
from costchart._io.errors import CostchartError
from costchart._io.frames import check_by_names, infer_by, require_columns
from costchart._io.parameters import checked
from costchart._io.tables import check_unit, numbers, read_table

__all__ = ["significant_regions"]

#: The column naming the cheaper classifier of a region.
CHEAPER = col.CHEAPER


@renamed_pair()
@checked
def significant_regions(
    difference,
    *,
    a: str | None = None,
    b: str | None = None,
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """The ``pc`` ranges where a difference band finds one classifier significantly cheaper.

    Each run of consecutive ``pc`` flagged ``significant`` (a missing flag is not) becomes
    one region. A grid point's cell reaches halfway to its neighbours, and to its own
    ``pc`` at the ends of the grid; the cheaper classifier is ``a`` where the difference
    ``cost(a) - cost(b)`` is negative on average over the run, else ``b``. A compact band
    (``difference_band(..., compact=True)``) gives the regions of the full band: it keeps
    the rows on both sides of every change of ``significant``, and every row of a run
    whose difference takes both signs.

    Parameters
    ----------
    difference : pandas, polars or pyarrow table
        A table from :func:`costchart.difference_band` (``pc``, ``difference``,
        ``significant``, and any grouping columns).
    a, b : str, optional
        The names of the two classifiers compared (the band's ``a`` and ``b``); by
        default those the band recorded (else "a", "b").
    by : str or list of str, optional
        Grouping columns; by default the grouping the table carries.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per region in ``pc`` order: ``pc_lo``,
        ``pc_hi`` and ``cheaper`` (the name of the cheaper classifier).

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> band = pd.DataFrame({"pc": [0.0, 0.25, 0.5, 0.75, 1.0],
    ...                      "difference": [0.0, -0.1, -0.2, 0.05, 0.0],
    ...                      "significant": [False, True, True, False, False]})
    >>> cc.significant_regions(band, a="logistic", b="tree")
       pc_lo  pc_hi   cheaper
    0  0.125  0.625  logistic
    """
    names = pair_of(a, b)  # refuse bad names before any work
    table = read_table(difference, "difference")
    require_columns(
        table.columns,
        [col.PC, col.DIFFERENCE, col.SIGNIFICANT],
        "difference",
        "Pass a table from difference_band.",
    )
    by = [c for c in infer_by(table, by, name="difference") if c != col.SIGNIFICANT]
    check_by_names(by)  # the regions' own columns would be written twice
    check_unit(table, (col.PC,), "difference", "operating points")
    pc = numbers(table, col.PC, "difference")
    value = numbers(table, col.DIFFERENCE, "difference")
    # Only True is significant: a missing (NaN) or False flag shades nothing.
    flag = _flags(table)
    if np.isnan(value[flag]).any():
        msg = (
            "column 'difference' of difference is NaN where it is significant; pass the "
            "band difference_band returned"
        )
        raise CostchartError(msg)
    _check_flags(table, pc, flag)
    try:
        group = (
            table.groupby(by, sort=False, dropna=False).ngroup().to_numpy()
            if by and len(table)
            else np.zeros(len(table), dtype=np.int64)
        )
    except TypeError:  # unhashable cells, e.g. lists
        msg = (
            f"the grouping columns {by} of difference hold values that cannot group rows "
            "(e.g. lists); pass the table difference_band returns"
        )
        raise CostchartError(msg) from None
    order = np.lexsort((pc, group))
    pc, value, flag, group = pc[order], value[order], flag[order], group[order]
    first = np.ones(len(pc), dtype=bool)
    first[1:] = group[1:] != group[:-1]
    last = np.ones(len(pc), dtype=bool)
    last[:-1] = group[1:] != group[:-1]
    middle = (pc[1:] + pc[:-1]) / 2
    low_edge = np.where(first, pc, np.concatenate([[0.0], middle]))
    high_edge = np.where(last, pc, np.concatenate([middle, [0.0]]))
    before = np.concatenate([[False], flag[:-1]]) & ~first
    after = np.concatenate([flag[1:], [False]]) & ~last
    starts = np.flatnonzero(flag & ~before)
    ends = np.flatnonzero(flag & ~after)
    # Each run's sum of differences, over its own rows in pc order: the same sum from a
    # compact band (whose runs of one sign keep that sign, and of both keep every row).
    run = np.cumsum(flag & ~before)[flag] - 1
    totals = np.bincount(run, value[flag], minlength=len(starts))
    keys = table[by].iloc[order[starts]].reset_index(drop=True) if by else pd.DataFrame()
    regions = pd.DataFrame(
        {
            col.PC_LO: low_edge[starts],
            col.PC_HI: high_edge[ends],
            # The names are read (and a missing one warned about) only when a region needs them.
            CHEAPER: np.where(totals < 0, *recorded_names(difference, names))
            if len(starts)
            else np.zeros(0, dtype=object),
        }
    )
    return pd.concat([keys, regions], axis=1) if by else regions


def _flags(table: pd.DataFrame) -> np.ndarray:
    """The ``significant`` column as booleans: True, False or missing (not significant)."""
    column = table[col.SIGNIFICANT]
    allowed = column.isna() | column.isin([True, False])
    if not pd.api.types.is_bool_dtype(column.dtype) and not allowed.all():
        bad = column[~allowed].iloc[0]
        msg = (
            f"column 'significant' of difference must hold True or False, but has {bad!r}; "
            "pass the band difference_band returned"
        )
        raise CostchartError(msg)
    return column.eq(True).fillna(False).to_numpy(bool)


def _check_flags(table: pd.DataFrame, pc: np.ndarray, flag: np.ndarray) -> None:
    """A stored flag must agree with the band it came from, where the band is there.

    ``difference_band`` flags a ``pc`` only where the band excludes 0 (and adds a
    minimum-evidence rule that can unflag it), so a flag on a band that holds 0 was
    edited or belongs to another band; NaN bounds are no band at all.
    """
    if col.LOWER not in table.columns or col.UPPER not in table.columns:
        return
    lower = numbers(table, col.LOWER, "difference")
    upper = numbers(table, col.UPPER, "difference")
    for name, bound in ((col.LOWER, lower), (col.UPPER, upper)):
        if np.isnan(bound).any():
            position = int(np.flatnonzero(np.isnan(bound))[0])
            msg = (
                f"column {name!r} of difference is NaN at position {position}; pass the "
                "band difference_band returned, or drop the rows without a band"
            )
            raise CostchartError(msg)
    holds_zero = (lower <= ZERO) & (upper >= -ZERO)
    wrong = flag & holds_zero
    if wrong.any():
        position = int(np.flatnonzero(wrong)[0])
        msg = (
            f"difference flags pc={float(pc[position])!r} "
            f"significant, but its band [{float(lower[position])!r}, {float(upper[position])!r}] "
            "holds 0; "
            "the 'significant' column was edited or belongs to another band: pass the band "
            "difference_band returned"
        )
        raise CostchartError(msg)
