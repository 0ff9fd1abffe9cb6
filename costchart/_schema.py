"""Column names of every costchart table, in one place.

Transformers return long-format pandas frames whose grouping columns come first,
followed by the columns listed here. Grouping columns may not reuse these names.
"""

from __future__ import annotations

THRESHOLD = "threshold"
TP, FP, TN, FN = "tp", "fp", "tn", "fn"
TPR, FPR = "tpr", "fpr"
PC, COST = "pc", "cost"
LINE = "line"
PC_LO, PC_HI = "pc_lo", "pc_hi"
SLOPE_LO, SLOPE_HI = "slope_lo", "slope_hi"

#: Columns of :func:`costchart.roc_points`, after the grouping columns.
ROC_COLUMNS = (THRESHOLD, TP, FP, TN, FN, TPR, FPR)
#: Columns :func:`costchart.roc_hull` adds to the points columns.
HULL_COLUMNS = (SLOPE_LO, SLOPE_HI, PC_LO, PC_HI)
#: Columns of :func:`costchart.to_cost_lines`, after the grouping columns.
LINE_COLUMNS = (LINE, THRESHOLD, FPR, TPR, PC, COST)
#: Columns of :func:`costchart.lower_envelope`, after the grouping columns.
ENVELOPE_COLUMNS = (PC, COST, THRESHOLD, FPR, TPR)
#: Columns of :func:`costchart.selection_table`, after the grouping columns.
SELECTION_COLUMNS = (PC_LO, PC_HI, THRESHOLD, FPR, TPR)

#: Columns the chart tables add (see :func:`costchart.charts.chart_tables`).
RANGE_LO, RANGE_HI, ON_HULL = "range_lo", "range_hi", "on_hull"
CHART_COLUMNS = (RANGE_LO, RANGE_HI, ON_HULL, "slope", "marker")

#: Columns of averages (:func:`costchart.vertical_average`, :func:`costchart.roc_average`).
AVERAGE_COLUMNS = ("cost_lo", "cost_hi", "cost_sd", "n_curves")
ROC_SPREAD_COLUMNS = ("fpr_lo", "fpr_hi", "fpr_sd", "tpr_lo", "tpr_hi", "tpr_sd")

#: Columns of confidence bands (:func:`costchart.bootstrap_band` and
#: :func:`costchart.difference_band`).
BAND_COLUMNS = ("lower", "upper", "se", "difference", "significant")

#: Cumulative cost sums of ROCIV points (:func:`costchart.rociv`).
FP_COST, TP_BENEFIT = "fp_cost", "tp_benefit"

#: Scalar result columns.
AUC = "auc"
EXPECTED_COST = "expected_cost"
GAP = "max_gap"

#: Every name costchart writes; a grouping column with one of these names is refused,
#: and a table's grouping columns are inferred as the columns not named here.
RESERVED = frozenset(
    ROC_COLUMNS
    + HULL_COLUMNS
    + LINE_COLUMNS
    + ENVELOPE_COLUMNS
    + SELECTION_COLUMNS
    + CHART_COLUMNS
    + AVERAGE_COLUMNS
    + ROC_SPREAD_COLUMNS
    + BAND_COLUMNS
    + (FP_COST, TP_BENEFIT)
    + (AUC, EXPECTED_COST, GAP)
)
