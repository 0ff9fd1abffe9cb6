"""Reading instances; lazy frames are counted by score inside their own engine.

A ROC curve needs only, per group and distinct score, how many positives and negatives
have that score (or the sums of their weights or costs). For a lazy frame -- anything
narwhals reads lazily: a polars LazyFrame, a DuckDB relation, a Dask or PySpark frame --
that one aggregation runs in its engine, and only the per-score table reaches Python.
The checks that eager input gets (finite scores, two classes, valid weights) run on that
table, so their messages count instances, not rows of the aggregate.

:func:`read_instances` is the one entry point for functions that read instances by score
(:func:`costchart.roc_points`, :func:`costchart._roc.rociv`): eager input is validated row by
row, lazy input aggregated first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from costchart._io.data_checks import (
    binary_labels,
    exact_scores,
    frequency_weights,
    nonnegative_numbers,
    positive_costs,
)
from costchart._io.engine_bins import BAD, INSTANCES, engine_bins
from costchart._io.errors import CostchartError
from costchart._io.frames import (
    as_pandas,
    mapping_columns,
    pandas_columns,
    require_columns,
    rows_only,
)
from costchart._io.native import native_names, to_pandas, unique_names
from costchart._io.validation import column_name

__all__ = ["Instances", "PerScore", "is_lazy", "per_score_table", "read_instances"]


def is_lazy(data) -> bool:
    """True for a frame narwhals reads only lazily (not pandas, polars or pyarrow eager)."""
    if isinstance(data, (pd.DataFrame, Mapping)):
        return False
    import narwhals.stable.v2 as nw
    from narwhals.exceptions import DuplicateError

    try:
        frame = nw.from_native(data)
    except TypeError:
        return False
    except DuplicateError:  # an eager table repeating a name (pyarrow): as_pandas reads it
        return False
    return isinstance(frame, nw.LazyFrame)


@dataclass(frozen=True)
class Instances:
    """Validated input of a function that counts by score.

    One row per instance, or, for a lazy frame, per group, score and label, with
    ``instances`` saying how many instances each row stands for (None for eager input).
    ``frame`` carries the grouping columns; ``amounts`` are the weights or costs (summed
    per row for a lazy frame), or None.
    """

    frame: pd.DataFrame
    scores: np.ndarray
    positive: np.ndarray
    amounts: np.ndarray | None
    instances: np.ndarray | None
    #: True when the engine left out rows of weight 0 (a lazy frame binned by weight).
    dropped_zero_weights: bool = False
    #: Instance weights read besides costs (``read_instances(weight=...)``), or None.
    weights: np.ndarray | None = None
    #: When ``scores`` are ranks (Python integers past 64 bits): the scores they rank
    #: (:func:`costchart._io.exact.ranked_integers`), else None.
    score_values: np.ndarray | None = None


def read_instances(
    data,
    *,
    score: str,
    label: str,
    by: Sequence[str],
    pos_label=None,
    amount: str | None = None,
    strictly_positive: bool = False,
    bins: int | None = None,
    frequency: str | None = None,
    weight: str | None = None,
) -> Instances:
    """Read and check scores, labels and an optional amount column (weights or costs).

    ``strictly_positive`` says the amounts are costs (> 0) rather than weights (>= 0).
    ``frequency`` names what resamples instances when the weights must be whole numbers
    (:func:`~costchart._io.validation.frequency_weights`); a lazy frame, whose weights are
    only seen summed, is then refused. ``weight`` reads instance weights besides costs
    (ROCIV) into ``Instances.weights``, checked as weights are; eager input only.
    ``bins`` lets a lazy frame bin its scores in the engine (see :func:`per_score_table`).
    """
    column_name(score, "score")
    column_name(label, "label")
    column_name(amount, "weight" if not strictly_positive else "amount", optional=True)
    try:
        hash(pos_label)
    except TypeError:
        msg = f"pos_label={pos_label!r} must be one label value (e.g. 1 or 'spam'), not a list"
        raise CostchartError(msg) from None
    instances = None
    if frequency is not None and amount is not None and is_lazy(data):
        msg = (
            f"weight={amount!r} with a lazy frame: {frequency} needs whole-number weights, "
            "checked row by row, which a lazy frame only gives summed; collect the frame "
            "first (e.g. .collect() or .to_pandas())"
        )
        raise CostchartError(msg)
    column_name(weight, "weight", optional=True)
    if weight is not None and is_lazy(data):
        msg = (
            f"weight={weight!r} with a lazy frame: instance weights besides costs are read "
            "row by row; collect the frame first (e.g. .collect() or .to_pandas())"
        )
        raise CostchartError(msg)
    score_values = None
    if is_lazy(data):
        amounts_wanted = {amount: strictly_positive} if amount is not None else None
        aggregate = per_score_table(
            data, score=score, label=label, by=by, amounts=amounts_wanted, bins=bins
        )
        frame, instances = aggregate.table, aggregate.instances
        values_of = _reader(frame)
        scores, score_values = _score_array(frame[score])
        amounts = aggregate.sums[amount] if amount is not None else None
    else:
        extra = [c for c in (amount, weight) if c is not None]
        wanted = [*by, score, label, *dict.fromkeys(extra)]
        # Ungrouped numbers in a dict need no frame: their arrays are read as they are.
        arrays = mapping_columns(data, wanted) if isinstance(data, Mapping) and not by else None
        if arrays is not None:
            frame = rows_only(len(arrays[score]))  # no grouping
            values_of = arrays.__getitem__
        elif isinstance(data, pd.DataFrame) and not by:  # its columns, read as they are
            frame = rows_only(len(pandas_columns(data, wanted)))
            values_of = _reader(data)
        else:
            frame = as_pandas(data, wanted)
            values_of = _reader(frame)
        scores, score_values = exact_scores(values_of(score), f"column {score!r}")
        amounts = None
        if amount is not None:
            values, what = values_of(amount), f"column {amount!r}"
            if frequency is not None and not strictly_positive:
                amounts = frequency_weights(values, f"weight= {what}", frequency)
            else:
                check = positive_costs if strictly_positive else nonnegative_numbers
                amounts = check(values, what)
    positive = binary_labels(values_of(label), f"column {label!r}", pos_label)
    weights = None
    if weight is not None:
        weights = nonnegative_numbers(values_of(weight), f"column {weight!r}")
    dropped = instances is not None and bins is not None and amount is not None
    return Instances(
        frame,
        scores,
        positive,
        amounts,
        instances,
        dropped and not strictly_positive,
        weights,
        score_values,
    )


def _reader(frame: pd.DataFrame) -> Callable[[str], np.ndarray]:
    """A column of ``frame`` as ``Series.to_numpy()`` gives it, by name."""
    return lambda column: frame[column].to_numpy()


def _score_array(scores: pd.Series) -> tuple[np.ndarray, np.ndarray | None]:
    """The (checked) scores of an aggregate; integer scores stay exact integers.

    Integers beyond 64 bits come as ranks, with the scores they rank (as
    :func:`~costchart._io.data_checks.exact_scores` gives them).
    """
    dtype = scores.dtype
    if dtype.kind in "iu":  # numpy or pandas' nullable integers (checked: no missing)
        return scores.to_numpy(np.uint64 if dtype.kind == "u" else np.int64), None
    if dtype.kind == "O":  # decimals, or integers beyond 64 bits: exact, or refused
        return exact_scores(scores.to_numpy(), f"column {scores.name!r}")
    return scores.to_numpy(np.float64), None


@dataclass(frozen=True)
class PerScore:
    """The aggregate of a lazy frame: one row per group, distinct score and label.

    ``table`` holds the grouping, score and label columns (rows sorted by the grouping
    columns), ``instances`` how many instances each row stands for, and ``sums`` the
    summed amount columns, validated.
    """

    table: pd.DataFrame
    instances: np.ndarray
    sums: dict[str, np.ndarray]


def per_score_table(
    data,
    *,
    score: str,
    label: str,
    by: Sequence[str],
    amounts: Mapping[str, bool] | None = None,
    bins: int | None = None,
) -> PerScore:
    """Aggregate a lazy frame by ``by``, ``score`` and ``label`` in its own engine.

    ``amounts`` maps the columns to sum (weights, costs) to whether each value must be
    strictly positive (costs) or merely non-negative (weights; with ``bins``, rows of
    weight 0 are left out before binning). With ``bins``, scores are first cut into that
    many quantile bins per group (the rule of :func:`costchart._roc.counting.bin_by_rank`,
    applied by :mod:`costchart._io.engine_bins` with group-bys only) and each bin stands in for its
    lowest score. Boolean scores (two values at most) are counted per score, and the
    caller bins them.
    """
    import narwhals.stable.v2 as nw

    amounts = dict(amounts or {})
    names = native_names(data)  # DuckDB keeps one of two columns of one name, unsaid
    if names is not None:
        unique_names(names, [*by, score, label, *amounts], "data")
    frame = nw.from_native(data)
    schema = frame.collect_schema()
    require_columns(list(schema.names()), [*by, score, label, *amounts], "data")
    for column in (score, *amounts):
        dtype = schema[column]
        if not (dtype.is_numeric() or dtype == nw.Boolean):
            msg = f"column {column!r} must hold numbers, but has dtype {dtype}; cast it first"
            raise CostchartError(msg)
    if bins is not None:
        for column, strictly_positive in amounts.items():
            if not strictly_positive:
                # Instances of weight 0 are left out before binning, as eager input does;
                # missing and negative weights stay, to be refused below.
                frame = frame.filter((nw.col(column) != 0) | nw.col(column).is_null())
    table = None
    if bins is not None and schema[score] != nw.Boolean:
        table = _binned(nw, frame, schema, score, label, by, amounts, bins)
    if table is None:  # no bins, boolean scores, no rows, or an engine that disagreed
        table = _aggregate(nw, frame, schema, amounts, list(dict.fromkeys([*by, score, label])))
    if by:
        table = table.sort_values(list(by), kind="stable", na_position="last")
    table = table.reset_index(drop=True)
    instances = table[INSTANCES].to_numpy(np.int64)
    _check_scores(table[score], instances, score)
    _check_labels(table[label], instances, label)
    sums = {
        column: _checked_sums(table, column, strictly_positive)
        for column, strictly_positive in amounts.items()
    }
    columns = list(dict.fromkeys([*by, score, label]))
    return PerScore(table[columns], instances, sums)


def _aggregate(nw, frame, schema, amounts, keys, helpers=(), extra=()) -> pd.DataFrame:
    """Run one group-by in the engine and collect its (small) result as pandas.

    ``helpers`` are columns to add first, ``extra`` aggregations beyond the instance
    counts and the amount columns' sums and checks.
    """
    # Some engines (Dask) aggregate plain columns only: flags become columns first.
    helpers, aggregations = list(helpers), [nw.len().alias(INSTANCES), *extra]
    for column in amounts:
        helpers.append(nw.col(column).is_null().cast(nw.Int64).alias(f"{column}__missing"))
        # NaN and infinite values are counted apart, so a sum that overflows (finite
        # values near 1e308) is told from bad input.
        finite = nw.col(column).is_finite() if schema[column].is_float() else nw.lit(True)
        helpers.append((~finite).cast(nw.Int64).alias(f"{column}__nonfinite"))
        aggregations += [
            nw.col(column).sum().alias(f"{column}__sum"),
            nw.col(column).min().alias(f"{column}__min"),
            nw.col(f"{column}__missing").sum(),
            nw.col(f"{column}__nonfinite").sum(),
        ]
    if helpers:
        frame = frame.with_columns(*helpers)
    return to_pandas(frame.group_by(list(dict.fromkeys(keys))).agg(*aggregations).collect())


def _binned(nw, frame, schema, score, label, by, amounts, bins) -> pd.DataFrame | None:
    """The per-bin table of :func:`costchart._io.engine_bins.engine_bins`, after checking scores.

    None when there is nothing to bin (no rows) or a pass disagreed with the one before.
    """
    bad = nw.col(score).is_null()
    if schema[score].is_float():
        bad = bad | ~nw.col(score).is_finite()
    # The range alone is quick (parquet keeps each column's min and max); the bad scores
    # are counted in the first pass over the cells.
    summary = frame.select(
        nw.col(score).min().alias("low"), nw.col(score).max().alias("high")
    ).collect()
    low, high = summary.item(0, "low"), summary.item(0, "high")
    if low is None or high is None or not np.isfinite(float(low)) or not np.isfinite(float(high)):
        count = frame.select(bad.cast(nw.Int64).sum()).collect().item(0, 0)
        _check_no_bad_scores(float(count or 0), score)
        if low is None:
            return None

    def aggregate(part, keys, helpers, extra):
        return _aggregate(nw, part, schema, amounts, keys, helpers, extra)

    table = engine_bins(nw, frame, score, label, by, aggregate, bins, low, high, bad)
    if table is not None and BAD in table:
        _check_no_bad_scores(float(table[BAD].sum()), score)
    return table


def _check_no_bad_scores(count: float, column: str) -> None:
    if count:
        msg = (
            f"column {column!r} has {int(count)} missing, NaN or infinite values; "
            "drop or impute them"
        )
        raise CostchartError(msg)


def _check_scores(scores: pd.Series, instances: np.ndarray, column: str) -> None:
    values = scores.to_numpy(np.float64, na_value=np.nan)
    _check_no_bad_scores(instances[~np.isfinite(values)].sum(), column)


def _check_labels(labels: pd.Series, instances: np.ndarray, column: str) -> None:
    missing = labels.isna().to_numpy()
    if missing.any():
        msg = (
            f"column {column!r} has {int(instances[missing].sum())} missing values; "
            "drop those rows or fill in their labels"
        )
        raise CostchartError(msg)


def _checked_sums(table: pd.DataFrame, column: str, strictly_positive: bool) -> np.ndarray:
    missing = table[f"{column}__missing"].to_numpy(np.float64)
    if missing.any():
        msg = f"column {column!r} has {int(missing.sum())} missing values; drop or impute them"
        raise CostchartError(msg)
    nonfinite = table[f"{column}__nonfinite"].to_numpy(np.float64, na_value=0.0)
    if nonfinite.any():
        msg = (
            f"column {column!r} has {int(nonfinite.sum())} NaN or infinite values; "
            "pass finite numbers"
        )
        raise CostchartError(msg)
    sums = table[f"{column}__sum"].to_numpy(np.float64, na_value=np.nan)
    if not np.isfinite(sums).all():
        msg = (
            f"the values in column {column!r} sum to more than the largest float64 (about "
            f"{np.finfo(np.float64).max:.1e}); divide them by a constant (the rates do not "
            "change)"
        )
        raise CostchartError(msg)
    smallest = float(np.min(table[f"{column}__min"].to_numpy(np.float64), initial=np.inf))
    if strictly_positive and smallest <= 0:
        msg = (
            f"column {column!r} has values that are not positive (smallest {smallest}); "
            "ROCIV needs every cost and benefit > 0"
        )
        raise CostchartError(msg)
    if smallest < 0:
        msg = (
            f"column {column!r} has negative values (smallest {smallest}); "
            "pass non-negative numbers"
        )
        raise CostchartError(msg)
    return sums
