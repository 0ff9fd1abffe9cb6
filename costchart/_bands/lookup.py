"""Reading a band at one operating point: :func:`band_at` and its :class:`Band`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import narwhals.stable.v2 as nw
import numpy as np
import pandas as pd

from costchart._bands.describe import recorded_compact, recorded_level
from costchart._io import schema as col
from costchart._io.data_checks import finite_numbers
from costchart._io.errors import CostchartError, show, warn
from costchart._io.frames import as_pandas, own_columns, require_columns
from costchart._io.groups import split_groups
from costchart._io.native import native_names
from costchart._io.parameters import checked
from costchart._io.validation import finite_number, probability

__all__ = ["Band", "band_at"]


@dataclass(frozen=True)
class Band:
    """A band at one operating point (see :func:`band_at`).

    Attributes
    ----------
    pc, cost, lower, upper, se : float
        The operating point, the estimated cost, the band's ends and the bootstrap
        standard error.
    confidence_level : float
        The band's level.
    """

    pc: float
    cost: float
    lower: float
    upper: float
    se: float
    confidence_level: float


def _read_table(table, name: str, needed: list[str], fix: str) -> pd.DataFrame:
    """A non-empty pandas, polars or pyarrow table (or dict of arrays) with ``needed`` columns.

    ``fix`` ends every message, e.g. "pass the table selection_table returns".
    """
    if isinstance(table, pd.DataFrame):
        columns = list(table.columns)
    elif isinstance(table, Mapping):
        if not any(np.ndim(value) for value in table.values()):
            msg = f"{name}= is a dict of single values; {fix}"
            raise CostchartError(msg)
        columns = list(table)
    else:
        try:
            columns = native_names(table) or list(nw.from_native(table, eager_only=True).columns)
        except TypeError:
            msg = (
                f"{name}= must be a pandas, polars or pyarrow DataFrame, got "
                f"{type(table).__name__}; {fix}"
            )
            raise CostchartError(msg) from None
    require_columns(columns, needed, name, fix=fix[0].upper() + fix[1:] + ".")
    frame = as_pandas(table, columns, name=name)
    if frame.empty:
        msg = f"{name} has no rows; {fix}"
        raise CostchartError(msg)
    return frame


@checked
def band_at(
    table, pc: float, *, confidence_level: float | None = None, compact: bool | None = None
) -> Band:
    """The row of a one-group band table at (the grid point nearest to) ``pc``, as a :class:`Band`.

    Parameters
    ----------
    table : pandas, polars or pyarrow DataFrame
        A band table of one group, from :func:`bootstrap_band` or :func:`confusion_band`
        (filter a band of several groups first).
    pc : float
        The operating point, within the band's range of ``pc``.
    confidence_level : float, optional
        The band's level, recorded in the result; by default the level the band recorded
        (NaN, with a warning, when it recorded none). A level other than the one the band
        recorded is refused: the bounds are the band's, not recomputed.
    compact : bool, optional
        Whether the band is compact (``compact=True`` of :func:`bootstrap_band`,
        :func:`confusion_band`): read linearly between its rows, or at its nearest row.
        By default as the band recorded; a band that lost its record (through another
        library, a merge or a concatenation) is refused at a ``pc`` between its rows
        unless ``compact=`` says how it was made.

    Returns
    -------
    Band
        The row whose ``pc`` is nearest to ``pc`` (of two equally near, the lower); of a
        compact band (``compact=True``), the band interpolated linearly at ``pc`` between
        its rows, as its charts draw it (within 1e-4 of the full band at the full band's
        ``pc``).

    Examples
    --------
    >>> import costchart as cc
    >>> counts = {"TP": [16], "FN": [4], "FP": [4], "TN": [6]}
    >>> table = cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.5, 0.75])
    >>> cc.band_at(table, 0.7, confidence_level=0.9).cost
    0.25

    A compact band is read between its rows, as the full band's row:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.3
    >>> data = {"s": rng.normal(size=400) + y, "y": y}
    >>> options = dict(score="s", label="y", inference="exact_bootstrap", interval="normal")
    >>> full = cc.bootstrap_band(data, **options)
    >>> compact = cc.bootstrap_band(data, compact=True, **options)
    >>> round(cc.band_at(full, 0.3).upper, 4), round(cc.band_at(compact, 0.3).upper, 4)
    (0.2627, 0.2627)

    A band that lost its record is told how it was made:

    >>> lost = compact.to_dict("list")  # a dict of lists keeps no record
    >>> round(cc.band_at(lost, 0.3, confidence_level=0.9, compact=True).upper, 4)
    0.2627
    """
    fix = "pass a table from bootstrap_band or confusion_band"
    frame = _read_table(table, "table", list(col.BAND_NEEDED), fix)
    # One table is asked for: every column costchart did not write may tell bands apart.
    groups = own_columns(frame)
    # split_groups also refuses values that cannot label groups (e.g. lists).
    count = len(split_groups(frame, groups)) if groups else 1
    if count > 1:
        first = frame[groups[0]].iat[0]
        msg = (
            f"table holds {count} groups (grouping columns {groups}); band_at reads one: "
            f"filter the rows of one group first, e.g. table[table[{groups[0]!r}] == {first!r}]"
        )
        raise CostchartError(msg)
    grid = finite_numbers(frame[col.PC].to_numpy(), "column 'pc' of table")
    repeated = pd.Series(grid).duplicated().to_numpy()
    if repeated.any():
        msg = (
            f"table has several rows at pc={grid[repeated][0]:g}, as a band of several groups "
            "does; band_at reads one group: filter its rows first (keep its grouping columns)"
        )
        raise CostchartError(msg)
    point = probability(finite_number(pc, "pc"), "pc")
    low, high = float(grid.min()), float(grid.max())
    if not low - 1e-9 <= point <= high + 1e-9:
        msg = (
            f"pc={pc!r} is outside the band's range [{low:g}, {high:g}]; pass a pc in that "
            "range, or compute the band there (pc= of bootstrap_band)"
        )
        raise CostchartError(msg)
    recorded = recorded_level(table)
    if confidence_level is None:
        confidence_level = recorded
        if confidence_level is None:
            warn(
                "the band does not record its confidence level (it went through another "
                "library, a merge or a concatenation); pass confidence_level= to record it"
            )
    level = (
        float("nan")
        if confidence_level is None
        else probability(
            finite_number(confidence_level, "confidence_level"),
            "confidence_level",
            low_open=True,
            high_open=True,
        )
    )
    # Within float32's precision: a level given as np.float32(0.9) is recorded as such.
    if recorded is not None and abs(level - recorded) > 1e-6:
        msg = (
            f"confidence_level={show(confidence_level)}, but the band was made at {recorded:g}: "
            f"band_at reads a band's bounds, it does not recompute them; pass "
            f"confidence_level={recorded:g} (or leave it out), or make the band at "
            f"{show(confidence_level)} (confidence_level= of bootstrap_band or confusion_band)"
        )
        raise CostchartError(msg)
    # The nearest row; of two equally near, the one of lower pc (whatever the row order).
    distance = np.abs(grid - point)
    nearest_row = int(np.lexsort((grid, distance))[0])
    recorded_kind = recorded_compact(table)
    if compact is not None and recorded_kind is not None and bool(compact) != recorded_kind:
        made = "compact" if recorded_kind else "full"
        msg = (
            f"compact={compact!r}, but the band records that it is a {made} band: band_at "
            "reads a band as it was made; leave compact= out (it is for a band that lost its "
            "record)"
        )
        raise CostchartError(msg)
    if compact is None:
        compact = recorded_kind
    if compact is None and distance.min() > 1e-9:
        nearest = float(grid[nearest_row])
        msg = (
            f"pc={show(pc)} lies between the band's rows, and the band does not record whether it "
            "is compact (it went through another library, a merge or a concatenation): a "
            "compact band is read between its rows, a full band at its nearest row "
            f"(pc={nearest:g}); pass compact=True or compact=False as the band was made"
        )
        raise CostchartError(msg)
    if compact:
        # A compact band is read as it is drawn: linearly between its rows.
        order = np.argsort(grid, kind="stable")
        cost, lower, upper, se = (
            float(np.interp(point, grid[order], finite_numbers(frame[c].to_numpy()[order], c)))
            for c in (col.COST, col.LOWER, col.UPPER, col.SE)
        )
        grid, at = np.array([point]), 0
    else:
        at = nearest_row
        cost, lower, upper, se = (
            float(finite_numbers(frame[c].to_numpy()[at : at + 1], f"column {c!r} of table")[0])
            for c in (col.COST, col.LOWER, col.UPPER, col.SE)
        )
    if not lower <= upper or se < 0:
        msg = (
            f"the table's row at pc={grid[at]:g} has lower={lower!r}, upper={upper!r}, "
            f"se={se!r}: a table needs lower <= upper and se >= 0; pass the table "
            "bootstrap_band, confusion_band or difference_band returns"
        )
        raise CostchartError(msg)
    return Band(float(grid[at]), cost, lower, upper, se, level)
