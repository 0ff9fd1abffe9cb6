"""What a costchart table is: its kind and its grouping, recorded when costchart writes it.

Every table costchart returns records two facts in ``DataFrame.attrs``:

- its **kind** (``attrs["costchart_kind"]``): ``"points"``, ``"hull"``, ``"lines"``,
  ``"envelope"``, ``"band"``, ... (:data:`KINDS`), named by the function that wrote it;
- its **grouping** (``attrs["costchart_by"]``): the columns telling its curves apart;
- where a set operation pooled curves (``roc_hull(points, by="dataset")`` of points grouped
  by data set and classifier), its **owner** columns (``attrs["costchart_owners"]``): the
  merged-away grouping columns, kept after the grouping columns to say whose point each
  row is (see :func:`costchart._io.owners.owner_columns`).

Readers read these facts; they never judge a table's kind or grouping from the values in
its columns. pandas keeps ``attrs`` through filtering, sorting, copying, column selection,
``reset_index``, a pyarrow round trip and the concatenation of tables that record the same
facts. A merge, polars and a dict of arrays drop them: such a table is read as one made by
hand (see :func:`costchart._io.frames.infer_by` and :func:`kind_of`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError

__all__ = [
    "FAMILIES",
    "GROUPING",
    "KIND",
    "OWNERS",
    "SETS",
    "THINNED",
    "kind_of",
    "record",
    "recorded_grouping",
    "recorded_owners",
    "refuse_thinned",
]

#: Where a table records its kind.
KIND = "costchart_kind"
#: Where a table records its grouping columns.
GROUPING = "costchart_by"
#: Where a table records its owner columns: grouping columns a set operation merged away,
#: kept to say whose point each row is (never a grouping).
OWNERS = "costchart_owners"

#: The columns each kind of table is written with (after its grouping columns), and the
#: kind it records. A table whose columns are none of these records no kind.
KINDS: dict[tuple[str, ...], str] = {
    col.ROC_COLUMNS: "points",
    col.ROC_COLUMNS + col.HULL_COLUMNS: "hull",
    col.ROCIV_TABLE: "rociv",
    col.ROC_AVERAGE_TABLE: "roc_average",
    col.LINE_COLUMNS: "lines",
    col.ENVELOPE_COLUMNS: "envelope",
    col.RATE_DRIVEN_TABLE: "rate_driven_curve",
    col.AVERAGE_TABLE: "vertical_average",
    col.BAND_TABLE: "band",
    col.DIFFERENCE_TABLE: "difference_band",
    col.SELECTION_COLUMNS: "selection",
    col.ISO_TABLE: "iso_performance",
    col.CHOICE_TABLE: "choice",
    col.EXPECTED_LOSS_TABLE: "expected_loss",
    (col.PC, col.COST): "curve",
    (col.PC_LO, col.PC_HI): "operating_range",
    (col.AUC,): "auc",
    (col.EXPECTED_COST,): "expected_cost",
    (col.GAP, col.PC): "envelope_gap",
}

#: How readers take each kind: as ROC points, as cost lines or as a cost curve.
FAMILIES: dict[str, str] = {
    "points": "points",
    "hull": "points",
    "rociv": "points",
    "roc_average": "points",
    "iso_performance": "points",  # chosen operating points: a set, read by set operations
    "choice": "points",
    "selection": "points",
    "lines": "lines",
    "envelope": "curve",
    "rate_driven_curve": "curve",
    "vertical_average": "curve",
    "band": "curve",
    "curve": "curve",
}

#: Kinds that hold a set of chosen operating points, not curves: a component and the
#: classifier used alone may share a threshold. Set operations read them as they are.
SETS = frozenset({"iso_performance", "choice", "selection"})

#: The columns a reader needs from each family.
NEEDED = {
    "points": (col.FPR, col.TPR),
    "lines": (col.LINE, col.PC, col.COST),
    "curve": (col.PC, col.COST),
}


def record(
    frame: pd.DataFrame,
    by: Sequence[str],
    kind: str | None = None,
    owners: Sequence[str] = (),
) -> pd.DataFrame:
    """Record ``by`` as ``frame``'s grouping, its kind and its owners (returns ``frame``).

    ``kind`` defaults to the kind whose columns (:data:`KINDS`) follow the grouping
    columns and the ``owners`` columns exactly; a table of other columns records no kind.
    ``owners`` (the columns saying whose point each row is: right after the grouping
    columns, or, in ``cheapest_regions``, after ``choice``) are recorded only when given.
    """
    by, owners = list(by), list(owners)
    if kind is None:
        kind = KINDS.get(tuple(frame.columns[len(by) + len(owners) :]))
    frame.attrs[GROUPING] = by
    if owners:
        frame.attrs[OWNERS] = owners
    else:
        frame.attrs.pop(OWNERS, None)
    if kind is None:
        frame.attrs.pop(KIND, None)
    else:
        frame.attrs[KIND] = kind
    return frame


def recorded_grouping(table: pd.DataFrame) -> list[str] | None:
    """The grouping ``table`` records, or None (made by hand, or through a merge or polars)."""
    carried = table.attrs.get(GROUPING)
    return list(carried) if isinstance(carried, list) else None


def recorded_owners(table: pd.DataFrame) -> list[str]:
    """The owner columns ``table`` records (see :data:`OWNERS`), or an empty list."""
    carried = table.attrs.get(OWNERS)
    return list(carried) if isinstance(carried, list) else []


def kind_of(table: pd.DataFrame, name: str) -> str:
    """How to read ``table``: ``"points"``, ``"lines"`` or ``"curve"``.

    A table costchart wrote is read as the kind it records, and refused if it lost a
    column that kind needs (``env[["fpr", "tpr"]]`` is an envelope without its costs,
    not ROC points). A table that records no kind (made by hand, or through a merge,
    polars or a dict) is read by its columns: ``line``, ``pc`` and ``cost`` are cost
    lines, ``pc`` and ``cost`` a cost curve, ``fpr`` and ``tpr`` ROC points; a table with
    both ``pc``/``cost`` and ``fpr``/``tpr`` but no ``line`` is a cost curve.
    """
    kind = table.attrs.get(KIND)
    columns = set(table.columns)
    if isinstance(kind, str) and kind in FAMILIES:
        family = FAMILIES[kind]
        missing = [c for c in NEEDED[family] if c not in columns]
        if missing:
            msg = (
                f"{name} is a {kind!r} table (as costchart wrote it) but has lost its "
                f"{missing[0]!r} column, which a {family} table needs; pass the table as "
                f"costchart returned it (it has {sorted(map(str, columns))})"
            )
            raise CostchartError(msg)
        return family
    if isinstance(kind, str):
        msg = (
            f"{name} is a {kind!r} table, which holds no ROC points, cost lines or cost "
            "curve; pass the ROC points it was made from (roc_points), their cost lines "
            "(to_cost_lines) or, where the function reads one, a cost curve (lower_envelope)"
        )
        raise CostchartError(msg)
    for family in ("lines", "curve", "points"):
        if set(NEEDED[family]) <= columns:
            return family
    msg = (
        "the table has none of the column sets costchart reads: 'fpr' and 'tpr' "
        "(ROC points), 'line', 'pc' and 'cost' (cost lines) or 'pc' and 'cost' (a cost "
        f"curve); it has {', '.join(repr(c) for c in table.columns)}"
    )
    raise CostchartError(msg)


#: Set on a points table that :func:`costchart.thin_points` dropped points from (``attrs``);
#: its ``thinned`` column says the same where ``attrs`` do not travel (polars, dicts).
THINNED = "costchart_thinned"


def refuse_thinned(table: pd.DataFrame, who: str) -> None:
    """Refuse points that :func:`costchart.thin_points` dropped points from.

    ``who`` says what needs every threshold of the classifier (the score-driven, fixed and
    rate-driven threshold choices: their costs lie between the ROC points, not only on the
    hull that thinning keeps).
    """
    marked = col.THINNED in table.columns and (table[col.THINNED].to_numpy() == True).any()  # noqa: E712
    if table.attrs.get(THINNED) or marked:
        msg = (
            f"{who} needs every threshold of the classifier, but these points were thinned "
            "(thin_points): the thresholds between the points kept are gone. Pass raw data "
            "with score= and label=, or roc_points' table"
        )
        raise CostchartError(msg)
