"""Column names of every costchart table, in one place.

Transformers return long-format pandas frames whose grouping columns come first,
followed by the columns listed here. Grouping columns may not reuse these names.
Each ``*_TABLE`` tuple is the exact column order of one function's output, after the
grouping columns; every name in any of them is in :data:`RESERVED`.
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
#: Columns of :func:`costchart.rate_driven_curve`, after the grouping columns.
RATE_DRIVEN_TABLE = (PC, COST, TPR, FPR, THRESHOLD)
#: Columns of :func:`costchart.selection_table`, after the grouping columns.
SELECTION_COLUMNS = (PC_LO, PC_HI, THRESHOLD, FPR, TPR)

#: Columns the chart tables add (see :func:`costchart._charts.drawn_tables`).
RANGE_LO, RANGE_HI, ON_HULL = "range_lo", "range_hi", "on_hull"
SLOPE, MARKER = "slope", "marker"
CHART_COLUMNS = (RANGE_LO, RANGE_HI, ON_HULL, SLOPE, MARKER)

#: Spread columns of averages (:func:`costchart.vertical_average`, :func:`costchart.roc_average`).
COST_LO, COST_HI, COST_SD, N_CURVES = "cost_lo", "cost_hi", "cost_sd", "n_curves"
AVERAGE_COLUMNS = (COST_LO, COST_HI, COST_SD, N_CURVES)
FPR_LO, FPR_HI, FPR_SD = "fpr_lo", "fpr_hi", "fpr_sd"
TPR_LO, TPR_HI, TPR_SD = "tpr_lo", "tpr_hi", "tpr_sd"
ROC_SPREAD_COLUMNS = (FPR_LO, FPR_HI, FPR_SD, TPR_LO, TPR_HI, TPR_SD)
#: Columns of :func:`costchart.vertical_average`, after the grouping columns.
AVERAGE_TABLE = (PC, COST, *AVERAGE_COLUMNS)
#: Columns of :func:`costchart.roc_average`, after the grouping columns.
ROC_AVERAGE_TABLE = (THRESHOLD, FPR, TPR, *ROC_SPREAD_COLUMNS, N_CURVES)

#: Columns of confidence bands (:func:`costchart.bootstrap_band` and
#: :func:`costchart.difference_band`).
LOWER, UPPER, SE = "lower", "upper", "se"
DIFFERENCE, SIGNIFICANT = "difference", "significant"
#: A band of no width: the bootstrap sees no variability there (see bootstrap_band).
DEGENERATE = "degenerate"
BAND_COLUMNS = (LOWER, UPPER, SE, DIFFERENCE, SIGNIFICANT, DEGENERATE)
#: Columns of :func:`costchart.bootstrap_band`, after the grouping columns.
BAND_TABLE = (PC, COST, LOWER, UPPER, SE, DEGENERATE)
#: The columns a band table needs to be read back (by band_at and the charts).
BAND_NEEDED = (PC, COST, LOWER, UPPER, SE)
#: Columns of :func:`costchart.difference_band`, after the grouping columns.
DIFFERENCE_TABLE = (PC, DIFFERENCE, LOWER, UPPER, SE, SIGNIFICANT)

#: Cumulative cost sums of ROCIV points (:func:`costchart._roc.rociv`).
FP_COST, TP_BENEFIT = "fp_cost", "tp_benefit"
#: Columns of :func:`costchart._roc.rociv`, after the grouping columns.
ROCIV_TABLE = (*ROC_COLUMNS, FP_COST, TP_BENEFIT)

#: Scalar result columns.
AUC = "auc"
H_MEASURE = "h_measure"
EXPECTED_COST = "expected_cost"
GAP = "max_gap"
#: Columns of :func:`costchart.expected_loss`, after the grouping columns.
THRESHOLD_CHOICE, EXPECTED_LOSS = "threshold_choice", "expected_loss"
EXPECTED_LOSS_TABLE = (THRESHOLD_CHOICE, EXPECTED_LOSS)

#: Every name costchart writes; a grouping column with one of these names is refused, and
#: only the columns not named here can be groupings (see :func:`costchart._io.frames.infer_by`).
RESERVED = frozenset(
    ROC_COLUMNS
    + HULL_COLUMNS
    + LINE_COLUMNS
    + ENVELOPE_COLUMNS
    + SELECTION_COLUMNS
    + CHART_COLUMNS
    + AVERAGE_TABLE
    + ROC_AVERAGE_TABLE
    + BAND_TABLE
    + DIFFERENCE_TABLE
    + ROCIV_TABLE
    + (AUC, H_MEASURE, EXPECTED_COST, GAP)
    + EXPECTED_LOSS_TABLE
)

#: What a selection criterion chose: :func:`costchart.iso_performance` names the kind of
#: classifier in ``choice``; :func:`costchart.neyman_pearson` and
#: :func:`costchart.workforce` mark each row's ``role`` (component or mixture) and its
#: mixing ``weight``.
CHOICE, ROLE, WEIGHT = "choice", "role", "weight"
#: Columns of :func:`costchart.iso_performance`, after the grouping columns.
ISO_TABLE = (CHOICE, THRESHOLD, FPR, TPR, PC_LO, PC_HI)
#: Columns of :func:`costchart.neyman_pearson` and :func:`costchart.workforce`.
CHOICE_TABLE = (ROLE, THRESHOLD, FPR, TPR, WEIGHT)
#: Columns of :func:`costchart.cheapest_regions`, after the grouping columns, leaving out
#: the owner columns (after ``choice``) and the second owner's (after ``threshold``).
THRESHOLD_2 = "threshold_2"
CHEAPEST_TABLE = (PC_LO, PC_HI, CHOICE, THRESHOLD, THRESHOLD_2, COST_LO, COST_HI)
#: Columns of :func:`costchart.cheapest_set`, after the grouping columns, leaving out the
#: classifier column (after ``pc_hi``).
CHEAPEST = "cheapest"
CHEAPEST_SET_TABLE = (PC_LO, PC_HI, CHEAPEST, PC, DIFFERENCE, LOWER, UPPER)
#: Columns of :func:`costchart.performance_independent`'s tables (besides the
#: user-named training ``pc`` column).
SEGMENT, EXTRA_COST = "segment", "extra_cost"
#: Columns of :func:`costchart._cost.compare`'s tables. ``name`` (the curves' names in the
#: ``advantage`` table) is not reserved: that table has no grouping columns, and
#: ``name`` is a common grouping column.
COST_A, COST_B, BETTER = "cost_a", "cost_b", "better"
NAME, MAX_ADVANTAGE = "name", "max_advantage"
COMPARE_DIFFERENCE_TABLE = (PC, COST_A, COST_B, DIFFERENCE)
COMPARE_BETTER_TABLE = (PC_LO, PC_HI, BETTER)
COMPARE_ADVANTAGE_TABLE = (NAME, MAX_ADVANTAGE, PC)

RESERVED = RESERVED | frozenset(
    ISO_TABLE
    + CHOICE_TABLE
    + CHEAPEST_TABLE
    + (CHEAPEST, SEGMENT, EXTRA_COST, COST_A, COST_B, BETTER, MAX_ADVANTAGE)
)

#: Tables of the ROC statistics, decision curves and precision-recall curves.
AUC_CI_TABLE = (AUC, LOWER, UPPER, SE)
AUC_TEST_TABLE = ("auc_a", "auc_b", DIFFERENCE, SE, "z", "p_value")
NET_BENEFIT_TABLE = (
    "strategy",
    THRESHOLD,
    "net_benefit",
    "standardized_net_benefit",
    "interventions_avoided",
    PC,
    LOWER,
    UPPER,
    SE,
)
#: The columns of decision curves and precision-recall curves the charts draw.
STRATEGY, NET_BENEFIT = "strategy", "net_benefit"
RECALL, PRECISION = "recall", "precision"
PR_TABLE = ("recall", "precision", "interpolated", "average_precision", "pr_auc")
#: What :func:`costchart.auc_ci` (``direction="auto"``) read a group's scores as, and
#: which classifier :func:`costchart.significant_regions` found cheaper.
DIRECTION, CHEAPER = "direction", "cheaper"
#: Columns of :func:`costchart.significant_regions`, after the grouping columns.
REGIONS_TABLE = (PC_LO, PC_HI, CHEAPER)
#: The column :func:`costchart.thin_points` adds when it drops points: True in the groups
#: that lost some. Unlike ``attrs``, it survives polars, pyarrow and dict round trips, so
#: the functions that need every threshold (the score-driven and fixed losses) refuse the
#: thinned points wherever they come from.
THINNED = "thinned"
RESERVED = RESERVED | frozenset(
    AUC_CI_TABLE
    + AUC_TEST_TABLE
    + NET_BENEFIT_TABLE
    + PR_TABLE
    + (DIRECTION, THINNED)
    + REGIONS_TABLE
)

#: Columns that hold text, flags or whole numbers rather than floats (their dtype in an
#: empty table).
TEXT_COLUMNS = frozenset({CHOICE, ROLE, BETTER, NAME, THRESHOLD_CHOICE, DIRECTION, CHEAPER})
FLAG_COLUMNS = frozenset({SIGNIFICANT, ON_HULL, THINNED})
INTEGER_COLUMNS = frozenset({SEGMENT, N_CURVES})
