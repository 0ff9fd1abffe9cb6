"""Where is one classifier significantly cheaper than another.

Two classifiers scored on the same instances make a 3-D confusion matrix: for each true
class, a 2x2 layer counting how the two jointly label its instances. Resampling each
layer as a four-valued multinomial with its class total fixed (stratified), or all eight
cells together (full), and subtracting the two cost lines gives a band on the
difference; where it excludes 0 -- and enough instances favour one side that a resample
without any of them is rarer than the band's tail (:func:`significant`) -- the difference
is significant. Because the layers keep the pairing, correlated classifiers get the
narrower band they deserve.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._bands.compact import DIFFERENCE_VALUES, check_grid, thinned
from costchart._bands.describe import ATTRS, describe
from costchart._bands.options import options_from
from costchart._bands.paired import RESAMPLE_DRAWS, band_of_cells, paired_cells
from costchart._bands.pairs import Columns, pair_groups
from costchart._bands.rows import grouped_rows, grouped_vertex_index, rows_of_thresholds
from costchart._bands.score import refuse_single_instances
from costchart._io import schema as col
from costchart._io.deprecation import deprecated_names
from costchart._io.errors import CostchartError, plain
from costchart._io.exact import exact_column, order_keys
from costchart._io.frames import as_pandas, check_by_names, normalize_by
from costchart._io.groups import assemble, split_groups
from costchart._io.intervals import band_aliases
from costchart._io.parameters import checked
from costchart._io.table_values import threshold_values
from costchart._io.tables import read_selection
from costchart._io.validation import column_name, threshold_pair
from costchart._roc.paired import is_scalar_name
from costchart._roc.points import require_rows, roc_points

__all__ = ["difference_band"]


@deprecated_names(band_aliases)
@checked
def difference_band(
    data,
    *,
    score: str,
    label: str,
    classifier: str,
    instance: str,
    a=None,
    b=None,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    confidence_level: float = 0.9,
    inference: str = "exact_bootstrap",
    sampling: str = "stratified",
    interval: str = "auto",
    n_resamples: int = 2000,
    rng=None,
    threshold: tuple[float, float] | None = None,
    selection: tuple[pd.DataFrame, pd.DataFrame] | None = None,
    pc=None,
    progress=False,
    compact: bool = False,
) -> pd.DataFrame:
    """A bootstrap band on the cost difference of two classifiers on the same instances.

    At each ``pc`` each classifier uses the threshold its own lower envelope selects on this
    data, the fixed ``threshold=(t_a, t_b)``, or the threshold its own selection table
    picks for that ``pc`` (``selection=(table_a, table_b)``, each from
    :func:`costchart.selection_table` on validation data): the difference of two honest
    hybrids. The difference is ``cost(a) - cost(b)``: negative where ``a`` is cheaper.

    With each classifier's own envelope thresholds (the default) the band treats them as
    fixed; the two choices' optimism largely cancels in the difference. In
    ``docs/bands.md``'s settings A-D (level 0.9, 1,000 test sets) it held the true
    difference of the chosen thresholds in 0.906-0.911 of test sets on average over ``pc``
    and at least 0.884 at every ``pc`` from 0.2 to 0.8, but only 0.830-0.849 at ``pc`` 0.1
    and 0.9 with 100 instances per class (setting B): keep ``pc`` inside 0.15-0.85 there,
    or pass ``selection=``.

    Parameters
    ----------
    data : DataFrame or dict of arrays
        Long format: one row per classifier and instance.
    score, label : str
        Columns of scores and true classes.
    classifier : str
        Column naming the classifier of each row.
    instance : str
        Column identifying the instance, to pair the two classifiers' rows.
    a, b : optional
        The two classifiers (values of ``classifier``); needed when there are more than two.
    by : str or list of str, optional
        Further grouping columns (e.g. ``"dataset"``): one band per group.
    pos_label, confidence_level, inference, sampling, n_resamples, rng, pc, progress
        As in :func:`bootstrap_band`.
    weight : str, optional
        Column of whole-number instance weights (frequency weights), as in
        :func:`bootstrap_band`: a weight ``k`` counts as ``k`` copies of the instance, in
        both classifiers' rows, which must therefore carry the same weight.
    interval : {"auto", "normal", "discrete", "percentile"}
        With ``inference="exact_bootstrap"``: ``"normal"``, a normal fit to the exact
        moments, or ``"discrete"``, the quantiles of the exact discrete distribution.
        ``"auto"`` (the default) is the normal fit (it covered at least as well as the
        discrete quantiles in every simulated setting), except at a ``pc`` where a class
        whose errors count there has fewer than 5 discordant instances: there the
        Agresti-Min interval, the normal fit to the 3-D confusion matrix with half an
        instance added to every cell; it is also taken wherever a class of one instance
        counts, and every other choice refuses such a group (a resample of one instance
        is that instance: no width from its class's rate); nor is such an instance
        evidence for ``significant``. At the true-optimal thresholds, level 0.9, 100
        instances per class (positives ``N(1, 1)`` and ``N(1.5, 1)``, negatives
        ``N(0, 1)``, within-class correlation 0.6), ``"auto"`` held the true difference
        at ``pc`` 0.1 and 0.9 in 0.967 and 0.969 of 1,000 test sets (the normal fit:
        0.785 and 0.767); see ``docs/bands.md``. With ``inference="bootstrap"``:
        ``"percentile"`` (also ``"auto"``). Was ``distribution=``, deprecated.
    threshold : (float, float), optional
        Fixed thresholds of ``a`` and ``b`` ("positive when score >= t") at every ``pc``;
        ``inf`` is the always-negative classifier, ``-inf`` the always-positive one. NaN
        is refused.
    selection : (DataFrame, DataFrame), optional
        The selection tables of ``a`` and ``b`` (``pc_lo``, ``pc_hi``, ``threshold``),
        chosen on other data; grouped by the same ``by`` columns when ``by`` is given.
    compact : bool
        Keep only the rows linear interpolation needs, as :func:`bootstrap_band` does:
        each group's first and last ``pc``, the grid points on both sides of every change
        of either threshold and of ``significant``, and where the bounds bend. Each kept
        row is the full band's own; between them ``difference``, ``lower``, ``upper`` and
        ``se`` interpolated linearly are within 1e-4 of the full band at every ``pc`` of
        the grid, and ``significant`` holds exactly where it holds at both neighbours, so
        :func:`significant_regions` finds the same regions. ``pc`` must increase.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per ``pc``: ``pc``, ``difference``, ``lower``,
        ``upper``, ``se`` (finite float64, ``lower <= difference <= upper``, ``se >= 0``)
        and ``significant`` (bool: the band excludes 0 under the minimum-evidence rule,
        see :func:`significant`). ``attrs["costchart"]`` records the options and the
        names ``a`` and ``b`` compared (see :func:`costchart.band_label`).

    Examples
    --------
    >>> import pandas as pd, costchart as cc
    >>> data = pd.DataFrame({
    ...     "model": ["a"] * 6 + ["b"] * 6, "id": list(range(6)) * 2,
    ...     "y": [1, 1, 1, 0, 0, 0] * 2, "p": [1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1]})
    >>> band = cc.difference_band(data, score="p", label="y", classifier="model", instance="id",
    ...                           threshold=(1, 1), pc=[0.5])
    >>> band.round(4)
        pc  difference   lower   upper      se  significant
    0  0.5     -0.3333 -0.5121  0.1121  0.1925        False

    A compact band keeps the rows interpolation needs, each the full band's own, and
    finds the same significant regions:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = np.tile(rng.random(400) < 0.4, 2)
    >>> s = rng.normal(size=800) + y * np.repeat([1.0, 2.0], 400)
    >>> data = pd.DataFrame({"model": np.repeat(["a", "b"], 400),
    ...                      "id": np.tile(np.arange(400), 2), "y": y, "p": s})
    >>> options = dict(score="p", label="y", classifier="model", instance="id")
    >>> full = cc.difference_band(data, **options)
    >>> compact = cc.difference_band(data, compact=True, **options)
    >>> len(full), len(compact), compact.merge(full).shape[0]
    (501, 56, 56)
    >>> cc.significant_regions(compact).equals(cc.significant_regions(full))
    True
    """
    options = options_from("difference_band", locals(), per_resample=RESAMPLE_DRAWS)
    if compact:
        check_grid(options.pc)
    by = normalize_by(by)
    check_by_names(by)  # the band's own columns would be written twice
    if threshold is not None:
        threshold = threshold_pair(threshold, "threshold")
    if selection is not None:
        if threshold is not None:
            msg = "pass selection= or threshold=, not both"
            raise CostchartError(msg)
        selection = _selection_pair(selection, by)
    for name, column in (("classifier", classifier), ("instance", instance)):
        column_name(column, name)
    column_name(score, "score")
    column_name(label, "label")
    if weight is not None:
        column_name(weight, "weight")
    frame = as_pandas(
        data, [*by, classifier, instance, score, label, *([weight] if weight else [])]
    )
    require_rows(frame[score].to_numpy())  # as roc_points and bootstrap_band
    for name, value in (("a", a), ("b", b)):
        if value is not None and not is_scalar_name(value):
            msg = (
                f"{name}= must be one classifier name (a value of column {classifier!r}), "
                f"not a {type(value).__name__}"
            )
            raise CostchartError(msg)
    names = None if a is None and b is None else (a, b)
    if names is not None and (a is None or b is None):
        msg = "pass both a= and b= (the two classifiers to compare), or neither"
        raise CostchartError(msg)
    groups = split_groups(frame, by)
    read = Columns(by, classifier, instance, score, label, weight, names, pos_label)
    pairs = pair_groups(frame, groups, read, selection)
    positives, negatives = pairs.class_totals(len(groups))
    refuse_single_instances(positives, negatives, groups, options)
    compared = pairs.names
    chosen = [
        _chosen_thresholds(pairs, k, groups, options.pc, fixed, table, by)
        for k, fixed, table in zip(
            (0, 1), threshold or (None, None), selection or (None, None), strict=True
        )
    ]
    # Scores and thresholds compared exactly (integers past 2**53 are not rounded).
    (score_a, chosen_a), (score_b, chosen_b) = (
        order_keys(scores, thresholds.reshape(-1))
        for scores, thresholds in zip((pairs.score_a, pairs.score_b), chosen, strict=True)
    )
    shape = (len(chosen[0]), len(options.pc))
    cells = paired_cells(
        pairs.group,
        (score_a, score_b),
        pairs.positive,
        pairs.copies,
        [chosen_a.reshape(shape), chosen_b.reshape(shape)],
    )
    difference, lower, upper, se, chance = band_of_cells(cells, len(groups), options)
    columns = {
        col.PC: np.tile(options.pc, len(groups)),
        col.DIFFERENCE: difference,
        col.LOWER: lower,
        col.UPPER: upper,
        col.SE: se,
    }
    columns[col.SIGNIFICANT] = significant(
        columns[col.LOWER], columns[col.UPPER], chance, options.confidence_level
    )
    if compact:
        runs = _runs((chosen_a, chosen_b), columns, len(options.pc))
        band = thinned(groups, columns, runs, len(options.pc), DIFFERENCE_VALUES, col.SIGNIFICANT)
    else:
        band = assemble(groups, np.full(len(groups), len(options.pc)), columns)
    a_name, b_name = compared if compared else (None, None)
    band.attrs[ATTRS] = describe(
        options,
        fixed=threshold is not None or selection is not None,
        a=plain(a_name),
        b=plain(b_name),
        classifier=str(classifier),
        compact=compact,
    )
    return band


def _runs(chosen, columns: dict[str, np.ndarray], n_pc: int) -> np.ndarray:
    """Flat run numbers of a difference band for :func:`~costchart._bands.compact.thinned`.

    A run starts where either classifier's threshold changes or ``significant`` does, so
    the grid points on both sides of each are kept (the difference is linear in ``pc``
    within a run, and a significant region's edges are those of the full band). A run of
    significant ``pc`` whose difference takes both signs keeps every row: the cheaper
    classifier of its region is the sign of its sum (:func:`significant_regions`).
    """
    flags, difference = columns[col.SIGNIFICANT], columns[col.DIFFERENCE]
    new = np.ones(len(flags), dtype=bool)
    new[1:] = (flags[1:] != flags[:-1]) | np.any([k[1:] != k[:-1] for k in chosen], axis=0)
    new[::n_pc] = True
    # Significant regions as significant_regions finds them, numbered from 1 (else 0).
    starts = flags.copy()
    starts[1:] &= ~flags[:-1]
    starts[::n_pc] = flags[::n_pc]
    region = np.cumsum(starts) * flags
    signs = [
        np.bincount(region, side.astype(float), 1) > 0 for side in (difference < 0, difference > 0)
    ]
    mixed = signs[0] & signs[1]
    mixed[0] = False
    new[mixed[region]] = True
    return np.cumsum(new)


def _selection_pair(selection, by: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The two selection tables, read and checked (grouped by ``by``, if any)."""
    if (
        isinstance(selection, (str, bytes, pd.DataFrame))
        or not isinstance(selection, Sequence)
        or len(selection) != 2
    ):
        msg = (
            "selection= must be a pair (table_a, table_b) of selection tables, one per "
            "classifier, e.g. (cc.selection_table(envelope_a), cc.selection_table(envelope_b))"
        )
        raise CostchartError(msg)
    tables = []
    for name, table in zip("ab", selection, strict=True):
        read, table_by, _ = read_selection(table, by or None)
        if table_by != by:
            msg = (
                f"the selection table of {name} is grouped by {table_by} but the band by {by}; "
                "make each selection table with the band's by= columns"
            )
            raise CostchartError(msg)
        tables.append(read)
    return tables[0], tables[1]


def _chosen_thresholds(pairs, side: int, groups, pc, fixed, selection, by) -> np.ndarray:
    """The threshold one classifier uses in each group at each ``pc``, shape (groups, pc).

    From the ROC points of every group's paired instances (one :func:`roc_points` call):
    the fixed threshold, the selection table's choice or the lower envelope's.
    """
    if not len(groups):  # no data: an empty band
        return np.zeros((0, len(pc)))
    scores = pairs.score_b if side else pairs.score_a
    counted = {"g": pairs.group, "s": scores, "y": pairs.positive}
    if pairs.copies is not None:
        counted["w"] = pairs.copies
    points = roc_points(
        counted, score="s", label="y", by="g", weight="w" if pairs.copies is not None else None
    )
    point_groups = split_groups(points, ["g"])
    thresholds = exact_column(points[col.THRESHOLD].to_numpy())  # exact past 2**53
    if selection is None:
        rows = grouped_rows(points, point_groups, pc, None, fixed, ["g"])
    else:
        selected = _selected(selection, groups, by, pc)
        own, keys = order_keys(thresholds, selected.reshape(-1))
        local = rows_of_thresholds(
            point_groups.take(own), point_groups.ids, keys.reshape(selected.shape)
        )
        local = np.clip(local, 0, point_groups.sizes[:, None] - 1)
        rows = point_groups.order[point_groups.starts[:, None] + local]
    return thresholds[rows]


def _selected(table: pd.DataFrame, groups, by: list[str], pc) -> np.ndarray:
    """Each group's threshold from a selection table at each ``pc``, shape (groups, pc)."""
    if by:
        keys = pd.MultiIndex.from_frame(groups.frame[by].iloc[groups.firsts])
        owner = keys.get_indexer(pd.MultiIndex.from_frame(table[by]))
    else:
        owner = np.zeros(len(table), dtype=np.int64)
    rows = np.flatnonzero(owner >= 0)
    starts = table[col.PC_LO].to_numpy(np.float64)
    rows = rows[np.lexsort((starts[rows], owner[rows]))]  # stable: ties keep table order
    index = grouped_vertex_index(starts[rows], owner[rows], len(groups), pc)
    return threshold_values(table, "selection")[rows[index]]


#: Band ends within this of 0 touch it: a cost difference is a sum of fractions of whole
#: counts, so anything nearer 0 than this is rounding.
ZERO = 1e-12


def significant(lower, upper, chance, confidence_level: float) -> np.ndarray:
    """The minimum-evidence rule: the band excludes 0, and not for want of instances.

    Significant where the band lies beyond 0 by more than rounding (:data:`ZERO`) and a
    resample holding none of the instances on the observed side is less likely than the
    band's tail, ``(1 - confidence_level) / 2`` (see
    :func:`costchart._bands.paired.no_evidence_chance`). A normal band of almost no width,
    e.g. at the ends of ``pc`` where both classifiers are nearly trivial, is then not
    taken for evidence.
    """
    excludes = (np.asarray(lower) > ZERO) | (np.asarray(upper) < -ZERO)
    return excludes & (np.asarray(chance) < (1 - confidence_level) / 2)
