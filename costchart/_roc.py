"""ROC points from scores or confusion counts, and the area under a ROC curve."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._counting import count_groups, cumulate_groups
from costchart._data_checks import nonnegative_numbers
from costchart._errors import CostchartError, warn
from costchart._frames import as_pandas, check_by_names, describe_group, normalize_by, table
from costchart._groups import Group, Groups, assemble, combine_groups, split_groups
from costchart._lazy import read_instances
from costchart._tables import points_groups
from costchart._validation import column_name, finite_number, probability, whole_number

__all__ = ["auc", "from_confusion", "roc_points", "row_of_threshold"]


def roc_points(
    data,
    *,
    score: str,
    label: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    weight: str | None = None,
    bins: int | None = None,
) -> pd.DataFrame:
    """ROC points of a scoring classifier: one point per distinct score.

    An instance is predicted positive when its score is at least the threshold. Instances
    with equal scores make one (possibly diagonal) step, so the curve never depends on row
    order. The first point is (0, 0) at threshold ``+inf``, the last is (1, 1).

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, dict of arrays, or lazy frame
        One row per instance. Not modified. A lazy frame (polars, DuckDB, ...) is
        counted by group and score in its own engine; its groups come back sorted.
    score : str
        Column of scores; higher means more likely positive. Finite numbers.
    label : str
        Column of true classes, two distinct values.
    by : str or list of str, optional
        Grouping columns (e.g. ``"classifier"``, ``"fold"``); one curve per group.
    pos_label : optional
        The label value of the positive class. Needed unless the labels are 0/1, -1/1 or
        False/True (then 1 / True is positive).
    weight : str, optional
        Column of non-negative instance weights; counts become sums of weights.
        Instances of weight 0 are ignored.
    bins : int, optional
        Keep only the points at (about) ``bins`` score quantiles per group: scores are cut
        into equal-count bins, never splitting a tie, and each bin's lowest score is a
        threshold. Every point is still exact, so the hull and envelope of binned points
        are conservative (the envelope can only be higher); :func:`envelope_gap` bounds
        by how much. For a lazy frame the binning runs in its engine too.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then

        - ``threshold`` (float64): predict positive when ``score >= threshold``;
          ``+inf`` for the first point. Integer scores are counted exactly; when some
          exceed 2**53 in size (where float64 would round distinct integers into one),
          the column has dtype object and holds them as Python integers;
        - ``tp``, ``fp``, ``tn``, ``fn``: counts (int64), or sums of weights (float64);
        - ``tpr``, ``fpr`` (float64): ``tp / (tp + fn)`` and ``fp / (fp + tn)``.

        Within a group, rows are sorted by decreasing threshold, so ``fpr`` and ``tpr``
        are non-decreasing. A group with one class only is dropped with a
        :class:`CostchartWarning`.

    Raises
    ------
    CostchartError
        Missing columns, non-numeric or non-finite scores, labels without exactly two
        classes (or one class in ungrouped data), negative or non-finite weights.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"score": [0.9, 0.8, 0.8, 0.3], "y": [1, 1, 0, 0]}
    >>> cc.roc_points(data, score="score", label="y")[["threshold", "tp", "fp", "tpr", "fpr"]]
       threshold  tp  fp  tpr  fpr
    0        inf   0   0  0.0  0.0
    1        0.9   1   0  0.5  0.0
    2        0.8   2   1  1.0  0.5
    3        0.3   2   2  1.0  1.0
    """
    by = normalize_by(by)
    check_by_names(by)
    bins = check_bins(bins)
    read = read_instances(
        data, score=score, label=label, by=by, pos_label=pos_label, amount=weight, bins=bins
    )
    frame = read.frame
    # A lazy frame binned in its engine drops the rows of weight 0 before counting.
    require_rows(
        read.scores, f" of weight above 0 in column {weight!r}" if read.dropped_zero_weights else ""
    )
    groups = split_groups(frame, by)
    many_small = len(groups) > 1 and len(read.scores) < SMALL_GROUPS * len(groups)
    if many_small and read.amounts is None and read.instances is None and bins is None:
        return _points_of_all_groups(read, groups, label)
    what = "counts" if weight is None else f"weights in column {weight!r}"
    parts = []
    for group in groups:
        positions = group.positions if by else slice(None)
        weights = None if read.amounts is None else read.amounts[positions]
        if weights is not None and not np.any(weights > 0):
            reason = f"all weights in column {weight!r} are 0"
            parts.append(left_out(group, by, reason, "ROC analysis needs positive weights"))
            continue
        counts = _count_by_score(
            read.scores[positions],
            read.positive[positions],
            weights,
            None if read.instances is None else read.instances[positions],
            bins,
        )
        parts.append(_points_or_nothing(counts, group, by, label, what))
    _require_some(parts, by, label)
    if not by:
        return parts[0]
    return combine_groups(frame, by, groups, parts, col.ROC_COLUMNS)


#: Below this many rows per group on average, all groups are counted in one sort; larger
#: groups are counted one by one, where sorting each class's scores by value (no argsort)
#: is faster and the per-group cost is negligible.
SMALL_GROUPS = 100_000


def _points_of_all_groups(read, groups: Groups, label: str) -> pd.DataFrame:
    """Unweighted ROC points of every group in one pass (:mod:`costchart._counting`)."""
    group_of_row = np.empty(len(read.scores), dtype=np.int64)
    group_of_row[groups.order] = groups.ids
    counts = count_groups(group_of_row, read.scores, read.positive, len(groups))
    tp = cumulate_groups(counts.pos, counts.lengths)
    fp = cumulate_groups(counts.neg, counts.lengths)
    lengths = counts.lengths + 1
    ends = np.cumsum(lengths) - 1
    total_pos, total_neg = tp[ends], fp[ends]
    both = (total_pos > 0) & (total_neg > 0)
    for g in np.flatnonzero(~both):
        missing = "positives" if total_pos[g] == 0 else "negatives"
        warn(f"group {describe_group(groups.by, groups.keys[g])} has no {missing}; it is left out")
    if not both.any():
        _require_some([], groups.by, label)
    keep = np.repeat(both, lengths)
    thresholds = _thresholds_of_groups(counts.scores, counts.lengths)
    pos_all, neg_all = np.repeat(total_pos, lengths)[keep], np.repeat(total_neg, lengths)[keep]
    tp, fp = tp[keep], fp[keep]
    return assemble(
        groups,
        np.where(both, lengths, 0),
        {
            col.THRESHOLD: thresholds[keep],
            col.TP: tp,
            col.FP: fp,
            col.TN: neg_all - fp,
            col.FN: pos_all - tp,
            col.TPR: tp / pos_all,
            col.FPR: fp / neg_all,
        },
    )


def _thresholds_of_groups(scores: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The ``threshold`` column of all groups: ``+inf`` then each group's scores."""
    column = threshold_column(scores)[1:]  # float64, or exact Python integers
    out = np.full(len(scores) + len(lengths), np.inf, dtype=column.dtype)
    if column.dtype == object:
        out[:] = np.inf
    first = np.cumsum(lengths + 1) - (lengths + 1)
    block = np.repeat(np.arange(len(lengths)), lengths)
    within = np.arange(len(scores)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    out[first[block] + within + 1] = column
    return out


def row_of_threshold(points: pd.DataFrame, thresholds) -> np.ndarray:
    """Row of one group's ROC points (decreasing thresholds) of "positive when score >= t".

    That is the last row whose threshold is at least ``t``: ``+inf`` gives the first row
    (always negative), anything at or below the lowest score the last (always positive).
    """
    own = points[col.THRESHOLD].to_numpy(float)
    index = np.searchsorted(-own, -np.asarray(thresholds, dtype=float), side="right") - 1
    return np.clip(index, 0, len(own) - 1)


def _run_starts(sorted_values: np.ndarray) -> np.ndarray:
    """Start positions of the runs of equal values in a sorted array."""
    if len(sorted_values) == 0:
        return np.zeros(0, dtype=np.intp)
    change = np.empty(len(sorted_values), dtype=bool)
    change[0] = True
    np.not_equal(sorted_values[1:], sorted_values[:-1], out=change[1:])
    return np.flatnonzero(change)


def _distinct_counts(sorted_values: np.ndarray):
    """Distinct values of a sorted array and how often each occurs."""
    starts = _run_starts(sorted_values)
    counts = np.diff(np.append(starts, len(sorted_values)))
    return sorted_values[starts], counts


def _count_by_score(scores, positive, weights, instances=None, bins=None):
    """Per distinct score, in decreasing order: (score, positive count, negative count).

    ``instances`` (rows of a per-score aggregate) says how many instances each row stands
    for; ``bins`` merges the scores into that many quantile bins (:func:`bin_by_rank`).
    """
    if weights is None and instances is None:
        lattice = _lattice_of(scores)
        if lattice is not None:  # rounded scores: a bincount, no sort
            values, ((pos, neg),) = _sums_on_lattice(scores, positive, [None], lattice)
        else:
            values, pos, neg = _count_instances(scores, positive)
        sizes = pos + neg
    else:
        if weights is not None:
            keep = weights > 0
            if not keep.all():
                scores, positive, weights = scores[keep], positive[keep], weights[keep]
                instances = None if instances is None else instances[keep]
        # Sum per score the instance counts (None counts rows), which bins and aggregates
        # need, then the weights if any.
        counting = instances is not None or bins is not None
        summed = ([instances] if counting else []) + ([weights] if weights is not None else [])
        values, sums = weighted_sums_by_score(scores, positive, summed)
        sizes = sum(as_counts(*sums[0])) if counting else None
        pos, neg = sums[-1] if weights is not None else as_counts(*sums[0])
    if bins is None:
        return values, pos, neg
    values, (pos, neg) = bin_by_rank(values, sizes, [pos, neg], bins)
    return values, pos, neg


#: The most ``bins=`` accepted: far more than any chart shows (more bins than instances
#: keep every distinct score anyway).
MAX_BINS = 10**9


def check_bins(bins) -> int | None:
    """Validate ``bins=``: None or a whole number from 1 to :data:`MAX_BINS`."""
    if bins is None:
        return None
    try:
        return whole_number(bins, "bins", minimum=1, maximum=MAX_BINS)
    except CostchartError as error:
        msg = (
            f"{error} (how many score quantiles to keep); pass e.g. bins=1000, or None for "
            "every distinct score"
        )
        raise CostchartError(msg) from None


def bin_by_rank(values: np.ndarray, sizes: np.ndarray, sums: list[np.ndarray], bins: int):
    """Merge per-score rows (decreasing score) into at most ``bins`` quantile bins.

    A score with ``above`` instances scoring higher, out of ``n``, goes to bin
    ``floor(above * bins / n)``, so ties stay together and bins hold about ``n / bins``
    instances each. Returns each bin's lowest score and the summed ``sums``.
    """
    if len(values) == 0:
        return values, sums
    sizes = np.asarray(sizes, dtype=np.int64)
    total = max(int(sizes.sum()), 1)
    # More bins than instances put every distinct score in its own bin already; fewer
    # keep ``above * bins`` below total**2, exact in int64 for any realistic count.
    bins = min(bins, total)
    above = np.cumsum(sizes) - sizes
    if total * bins <= np.iinfo(np.int64).max:
        index = above * bins // total
    else:  # Python integers never overflow; the per-score table is small
        index = np.array([int(a) * bins // total for a in above], dtype=np.int64)
    starts = _run_starts(index)
    ends = np.append(starts[1:], len(values)) - 1
    return values[ends], [np.add.reduceat(values_, starts) for values_ in sums]


def _count_instances(scores, positive):
    """Counts per distinct score without an argsort.

    The positives' and negatives' scores are sorted separately (a plain value sort is
    several times faster than an argsort), their distinct values merged with a stable
    sort (a linear merge of two sorted runs).
    """
    pos_scores = scores[positive]
    neg_scores = scores[~positive]
    pos_scores.sort()
    neg_scores.sort()
    pos_values, pos_counts = _distinct_counts(pos_scores)
    neg_values, neg_counts = _distinct_counts(neg_scores)
    merged = np.concatenate([pos_values, neg_values])
    order = np.argsort(merged, kind="stable")
    merged = merged[order]
    from_pos = order < len(pos_values)
    counts = np.concatenate([pos_counts, neg_counts])[order]
    starts = _run_starts(merged)
    if len(starts) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return merged, empty, empty
    pos = np.add.reduceat(np.where(from_pos, counts, 0), starts)
    neg = np.add.reduceat(np.where(from_pos, 0, counts), starts)
    return merged[starts][::-1], pos[::-1], neg[::-1]


#: Above this share of distinct scores (estimated on a sample), hashing the scores costs
#: more than sorting them.
_HASH_WHEN_DISTINCT_BELOW = 0.5


_MAX_DECIMALS = 6


def _lattice_codes(scores: np.ndarray):
    """Integer codes for scores that are all multiples of ``10**-d`` (rounded scores).

    Returns ``(codes, low, scale, span)`` with ``scores == (low + codes) / scale`` exactly
    (bit for bit) and ``0 <= codes < span``, or None when the scores are not on such a
    lattice or it would be too wide. Codes make summing by score a ``bincount``: no sort and
    no hash.
    """
    n = len(scores)
    if n < 10_000:
        return None
    sample = scores[:: max(n // 2_000, 1)]
    for decimals in range(_MAX_DECIMALS + 1):
        scale = 10.0**decimals
        if np.array_equal(np.rint(sample * scale) / scale, sample):
            break
    else:
        return None
    scaled = scores * scale
    np.rint(scaled, out=scaled)
    if not np.array_equal(scaled / scale, scores):
        return None
    low, high = scaled.min(), scaled.max()
    if high - low > 4 * n or high - low > 2**31:
        return None
    scaled -= low
    return scaled.astype(np.intp), low, scale, int(high - low) + 1


def _integer_codes(scores: np.ndarray):
    """Integer scores in a narrow range as codes ``scores - low``, like :func:`_lattice_codes`.

    Returns ``(codes, low, None, span)`` (``low`` of the scores' own dtype, so
    ``low + codes`` gives the scores back exactly), or None for a wide range.
    """
    n = len(scores)
    if n < 10_000:
        return None
    low, high = scores.min(), scores.max()
    span = int(high) - int(low)  # Python integers: no overflow for any int64 or uint64
    if span > 4 * n or span > 2**31:
        return None
    return (scores - low).astype(np.intp), low, None, span + 1


def _lattice_of(scores: np.ndarray):
    """Integer codes of rounded or narrow integer scores, or None (:func:`_lattice_codes`)."""
    return _integer_codes(scores) if scores.dtype.kind in "iu" else _lattice_codes(scores)


def _sums_on_lattice(scores, positive, weights, lattice):
    """:func:`weighted_sums_by_score` for scores with integer codes: one ``bincount`` each."""
    key, low, scale, span = lattice
    key *= 2  # the code's bin for negatives, the next one for positives
    key += positive
    counts = np.bincount(key, minlength=2 * span).reshape(-1, 2)
    sums: list[tuple[np.ndarray, np.ndarray]] = []
    for weight in weights:
        both = (
            counts
            if weight is None
            else np.bincount(key, weights=weight, minlength=2 * span).reshape(-1, 2)
        )
        sums.append((both[:, 1], both[:, 0]))
    present = np.flatnonzero(counts.sum(axis=1))[::-1]
    if scale is None:  # integer codes: back in the scores' own dtype (uint64 + intp is float)
        values = present.astype(scores.dtype) + low
    else:
        values = (low + present) / scale
    return values, [(p[present], q[present]) for p, q in sums]


def weighted_sums_by_score(
    scores: np.ndarray, positive: np.ndarray, weights: Sequence[np.ndarray | None]
):
    """Sum weights per distinct score, separately over positives and negatives.

    Returns the distinct scores in decreasing order and, for each weight array,
    ``(positive_sums, negative_sums)``; a weight of ``None`` counts instances (int64).

    Rounded scores (all multiples of ``10**-d``) become integer codes directly; other
    scores with many ties are hashed (pandas.factorize); either way a ``bincount`` sums
    them in linear time. Mostly distinct scores are argsorted and summed run by run.
    """
    n = len(scores)
    lattice = _lattice_of(scores)
    if lattice is not None:
        return _sums_on_lattice(scores, positive, weights, lattice)
    sums: list[tuple[np.ndarray, np.ndarray]]
    sample = scores[:: max(n // 20_000, 1)]
    if n and len(np.unique(sample)) < _HASH_WHEN_DISTINCT_BELOW * len(sample):
        codes, distinct = pd.factorize(scores, sort=False)
        key = 2 * codes + positive
        sums = []
        for weight in weights:
            both = np.bincount(key, weights=weight, minlength=2 * len(distinct)).reshape(-1, 2)
            sums.append((both[:, 1], both[:, 0]))  # counts stay int64 without weights
        order = np.argsort(distinct)[::-1]  # not -distinct: exact for any integer dtype
        return distinct[order], [(p[order], q[order]) for p, q in sums]
    order = np.argsort(scores)
    sorted_scores = scores[order]
    starts = _run_starts(sorted_scores)
    sorted_positive = positive[order]
    distinct = len(starts) == len(order)  # every run one row: nothing to sum
    sums = []
    for weight in weights:
        if len(starts) == 0:
            sums.append((np.zeros(0), np.zeros(0)))
            continue
        if weight is None:
            pos = sorted_positive.astype(np.int64)
            if not distinct:
                pos = np.add.reduceat(pos, starts)
            neg = np.diff(np.append(starts, len(order))) - pos
        else:
            sorted_weight = weight[order]
            pos = np.where(sorted_positive, sorted_weight, sorted_weight.dtype.type(0))
            neg = sorted_weight - pos  # exactly the weight or 0
            if not distinct:
                pos, neg = np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)
        sums.append((pos[::-1], neg[::-1]))
    return sorted_scores[starts][::-1], sums


def as_counts(*sums: np.ndarray) -> tuple[np.ndarray, ...]:
    """Sums of instance counts (float64 after a weighted ``bincount``) back as int64."""
    return tuple(np.rint(values).astype(np.int64) for values in sums)


#: Integers up to this size are exact in float64.
_EXACT_IN_FLOAT = 2**53


def threshold_column(thresholds: np.ndarray) -> np.ndarray:
    """The ``threshold`` column: ``+inf``, then the thresholds (decreasing).

    float64, except for integer scores beyond 2**53 in size, which float64 would round
    into false ties: those stay exact as Python integers in an object column.
    """
    exact = thresholds.dtype.kind not in "iu" or (
        len(thresholds) == 0
        or max(abs(int(thresholds.min())), abs(int(thresholds.max()))) <= _EXACT_IN_FLOAT
    )
    if exact:
        return np.concatenate([[np.inf], thresholds]).astype(np.float64)
    return np.array([np.inf, *thresholds.tolist()], dtype=object)


def _cumulated_from_zero(values: np.ndarray) -> np.ndarray:
    """``0`` then the running sums of ``values``, written in place (no temporary copy)."""
    values = np.asarray(values)
    summed = np.cumsum(values[:0]).dtype  # as np.concatenate([[0], np.cumsum(values)])
    out = np.empty(len(values) + 1, dtype=np.result_type(summed, np.int64))
    out[0] = 0
    np.cumsum(values, out=out[1:])
    return out


def _points_from_counts(thresholds, pos, neg) -> pd.DataFrame:
    """Cumulate per-score counts (decreasing score) into ROC points with (0, 0) first."""
    tp = _cumulated_from_zero(pos)
    fp = _cumulated_from_zero(neg)
    total_pos, total_neg = tp[-1], fp[-1]
    return table(
        {
            col.THRESHOLD: threshold_column(np.asarray(thresholds)),
            col.TP: tp,
            col.FP: fp,
            col.TN: total_neg - fp,
            col.FN: total_pos - tp,
            col.TPR: tp / total_pos,
            col.FPR: fp / total_neg,
        }
    )


#: Integer counts whose class totals reach this are summed as float64 instead of int64,
#: which would wrap around (and make a class look empty).
_INT64_SAFE_TOTAL = 2.0**62


def summable(pos: np.ndarray, neg: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-score counts or sums whose class totals are finite, ready to cumulate.

    Integer counts whose totals would overflow int64 become float64 (the rates stay
    right to the last bits). Float sums whose total passes the largest float64 (weights
    or costs near 1e308) are refused, naming ``what`` (e.g. ``"weights in column 'w'"``):
    their rates would be NaN.
    """
    if pos.dtype.kind in "iu" or neg.dtype.kind in "iu":
        too_big = max(pos.sum(dtype=np.float64), neg.sum(dtype=np.float64)) >= _INT64_SAFE_TOTAL
        if too_big:
            return pos.astype(np.float64), neg.astype(np.float64)
        return pos, neg
    with np.errstate(over="ignore"):
        totals = {"positives": pos.sum(), "negatives": neg.sum()}
    for kind, total in totals.items():
        if not np.isfinite(total):
            msg = (
                f"the {what} of the {kind} sum to more than the largest float64 (about "
                f"{np.finfo(np.float64).max:.1e}); divide them by a constant (the rates do "
                "not change)"
            )
            raise CostchartError(msg)
    return pos, neg


def left_out(group: Group, by, reason: str, fix: str) -> pd.DataFrame:
    """Refuse ungrouped data for ``reason``; in grouped data warn and leave the group out."""
    if not by:
        msg = f"{reason}; {fix}"
        raise CostchartError(msg)
    warn(f"group {describe_group(by, group.key)}: {reason}; it is left out")
    return pd.DataFrame(columns=list(col.ROC_COLUMNS))


def _points_or_nothing(counts, group: Group, by, label, what: str = "counts") -> pd.DataFrame:
    """ROC points of one group, or an empty frame (with a warning) when it has one class.

    ``what`` names the counted amounts in messages (e.g. ``"weights in column 'w'"``).
    """
    thresholds, pos, neg = counts
    pos, neg = summable(np.asarray(pos), np.asarray(neg), what)
    if pos.sum() > 0 and neg.sum() > 0:
        return _points_from_counts(thresholds, pos, neg)
    missing = "positives" if pos.sum() == 0 else "negatives"
    if not by:
        msg = (
            f"column {label!r} has no {missing}; ROC analysis needs both classes. "
            "Check pos_label and the data"
        )
        raise CostchartError(msg)
    warn(f"group {describe_group(by, group.key)} has no {missing}; it is left out")
    return pd.DataFrame(columns=list(col.ROC_COLUMNS))


def require_rows(scores: np.ndarray, what: str = "") -> None:
    """Refuse data without a single instance (``what`` adds e.g. " of weight above 0")."""
    if len(scores) == 0:
        msg = f"data has no rows{what}; ROC analysis needs scored instances of both classes"
        raise CostchartError(msg)


def _require_some(parts, by, label) -> None:
    if by and not any(len(part) for part in parts):
        msg = (
            f"no group of {by!r} has both classes in column {label!r}; "
            "ROC analysis needs positives and negatives in a group"
        )
        raise CostchartError(msg)


def from_confusion(
    data,
    *,
    tp: str,
    fn: str,
    fp: str,
    tn: str,
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """ROC points of crisp classifiers given as confusion-matrix counts.

    A crisp classifier is one ROC point; the trivial classifiers (0, 0) and (1, 1) are
    added, so each classifier has the same three rows that :func:`roc_points` gives for
    0/1 predictions: thresholds ``+inf`` (always negative), ``1`` (the classifier) and
    ``0`` (always positive).

    Parameters
    ----------
    data : pandas, polars or pyarrow DataFrame, or dict of arrays
        One row per classifier. Not modified.
    tp, fn, fp, tn : str
        Columns of true positives, false negatives, false positives, true negatives
        (non-negative numbers).
    by : str or list of str, optional
        Columns naming each classifier; required when ``data`` has several rows.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then ``threshold, tp, fp, tn, fn, tpr, fpr`` as in
        :func:`roc_points`: three rows per classifier, sorted by ``fpr, tpr``. Counts keep
        an integer dtype when all given counts are integers.

    Examples
    --------
    >>> import costchart as cc
    >>> counts = {"name": ["a"], "TP": [16], "FN": [4], "FP": [4], "TN": [6]}
    >>> cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN", by="name")
      name  threshold  tp  fp  tn  fn  tpr  fpr
    0    a        inf   0   0  10  20  0.0  0.0
    1    a        1.0  16   4   6   4  0.8  0.4
    2    a        0.0  20  10   0   0  1.0  1.0
    """
    by = normalize_by(by)
    check_by_names(by)
    for name, column in (("tp", tp), ("fn", fn), ("fp", fp), ("tn", tn)):
        column_name(column, name)
    frame = as_pandas(data, [*by, tp, fn, fp, tn])
    counts = {
        name: nonnegative_numbers(frame[column].to_numpy(), f"column {column!r}")
        for name, column in ((col.TP, tp), (col.FN, fn), (col.FP, fp), (col.TN, tn))
    }
    integer = all(frame[c].dtype.kind in "iu" for c in (tp, fn, fp, tn))
    if len(frame) == 0:
        msg = "data is empty; from_confusion takes one row of counts per classifier"
        raise CostchartError(msg)
    # Class totals must fit: int64 sums past 2**63 wrap (then "no negatives"), and float
    # sums past 1.8e308 are inf (then NaN rates).
    with np.errstate(over="ignore"):
        totals = np.concatenate([counts[col.TP] + counts[col.FN], counts[col.FP] + counts[col.TN]])
    if not np.isfinite(totals).all():
        msg = (
            "the class totals (tp + fn, fp + tn) of data exceed what float64 holds; divide "
            "the counts by a common factor (the rates depend only on their ratios)"
        )
        raise CostchartError(msg)
    if integer and totals.max(initial=0) >= 2.0**63:
        integer = False  # int64 would wrap; float64 keeps the totals (to 16 digits)
    groups = split_groups(frame, by)
    parts = []
    for group in groups:
        if len(group.positions) != 1:
            where = f"group {describe_group(by, group.key)}" if by else "data"
            msg = (
                f"{where} has {len(group.positions)} rows, but from_confusion takes one row "
                "per classifier; pass by= the columns that identify each classifier"
            )
            raise CostchartError(msg)
        row = {name: values[group.positions[0]] for name, values in counts.items()}
        pos = np.array([row[col.TP], row[col.FN]])
        neg = np.array([row[col.FP], row[col.TN]])
        if integer:
            pos, neg = pos.astype(np.int64), neg.astype(np.int64)
        parts.append(_points_or_nothing((np.array([1.0, 0.0]), pos, neg), group, by, f"{tp}/{fn}"))
    _require_some(parts, by, f"{tp}/{fn}")
    return combine_groups(frame, by, groups, parts, col.ROC_COLUMNS)


def auc(
    points: pd.DataFrame,
    *,
    by: str | Sequence[str] | None = None,
    max_fpr: float | None = None,
    standardized: bool = False,
) -> pd.DataFrame:
    """Area under each ROC curve of a points table (trapezoids between the points).

    Parameters
    ----------
    points : pandas, polars or pyarrow table, or dict of arrays
        A table with ``fpr`` and ``tpr`` columns, e.g. from :func:`roc_points`,
        :func:`from_confusion` or :func:`roc_hull`; each group's ``fpr`` must run from 0
        to 1. An empty table gives an empty result (no groups, no rows).
    by : str or list of str, optional
        Grouping columns; by default every column that is not a costchart column.
    max_fpr : float, optional
        In (0, 1]: the partial area for ``fpr`` from 0 to ``max_fpr`` (the curve is cut
        where it crosses ``max_fpr``, linearly between its points), as pROC's
        uncorrected ``partial.auc`` on specificity from 1 to ``1 - max_fpr``.
    standardized : bool
        With ``max_fpr``: McClish's correction, ``(1 + (pauc - min) / (max - min)) / 2``
        with ``min = max_fpr**2 / 2`` (the chance diagonal's area) and ``max = max_fpr``,
        so 0.5 is chance and 1 perfect -- scikit-learn's ``roc_auc_score(max_fpr=)``.

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then ``auc`` (float64): one row per group.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    >>> cc.auc(points)
       auc
    0  0.5
    >>> cc.auc(points, max_fpr=0.5)  # the first half of the FPR axis
        auc
    0  0.25
    >>> cc.auc(points, max_fpr=0.5, standardized=True)
            auc
    0  0.666667
    """
    cut = None if max_fpr is None else _max_fpr(max_fpr)
    if not isinstance(standardized, (bool, np.bool_)):
        msg = f"standardized={standardized!r} must be True or False"
        raise CostchartError(msg)
    if standardized and cut is None:
        msg = "standardized=True corrects a partial area; pass max_fpr= too"
        raise CostchartError(msg)
    table, by, groups = points_groups(points, by)
    parts = []
    for group in groups:
        fpr = table[col.FPR].to_numpy(np.float64)[group.positions]
        tpr = table[col.TPR].to_numpy(np.float64)[group.positions]
        if fpr.min() != 0 or fpr.max() != 1:
            where = f"group {describe_group(by, group.key)}" if by else "points"
            msg = (
                f"the ROC curve of {where} runs from fpr={fpr.min()} to fpr={fpr.max()}, so "
                "its area is not defined; auc needs a curve from fpr 0 to 1 (roc_points and "
                "from_confusion include both ends; roc_hull adds them)"
            )
            raise CostchartError(msg)
        order = np.lexsort((tpr, fpr))
        fpr, tpr = fpr[order], tpr[order]
        if cut is not None:
            fpr, tpr = _cut_at(fpr, tpr, cut)
        area = float(np.trapezoid(tpr, fpr))
        if standardized and cut is not None:
            least, most = cut * cut / 2, cut
            area = 0.5 * (1 + (area - least) / (most - least))
        parts.append(pd.DataFrame({col.AUC: [area]}))
    return combine_groups(table, by, groups, parts, [col.AUC])


def _max_fpr(value) -> float:
    """``max_fpr`` as a float in (0, 1]."""
    number = probability(finite_number(value, "max_fpr"), "max_fpr", low_open=True)
    return number


def _cut_at(fpr: np.ndarray, tpr: np.ndarray, cut: float):
    """The curve's points with ``fpr <= cut``, ending on the point where it crosses ``cut``.

    ``fpr`` and ``tpr`` are sorted by ``fpr`` then ``tpr``: at a vertical step at ``cut``
    the curve reaches its highest ``tpr`` there.
    """
    keep = fpr <= cut
    inside_f, inside_t = fpr[keep], tpr[keep]
    if inside_f[-1] < cut:  # interpolate on the segment that crosses cut
        after = int(np.argmax(fpr > cut))
        before = after - 1
        share = (cut - fpr[before]) / (fpr[after] - fpr[before])
        end = tpr[before] + share * (tpr[after] - tpr[before])
        inside_f = np.append(inside_f, cut)
        inside_t = np.append(inside_t, end)
    return inside_f, inside_t
