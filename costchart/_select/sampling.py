"""Training sets over- or under-sampled to class ratios, to draw one learner's cost curves.

Resampling the training set is a common way to make a learner cost-sensitive: with false
negatives ``r`` times as costly, train on ``r`` copies of each positive (oversampling) or
on ``1/r`` of the negatives (undersampling). Cost curves show the classifiers this gives,
one per ratio, against every operating condition -- and where each of them is worth using
at all (its operating range), which the ratio alone does not tell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import narwhals.stable.v2 as nw
import numpy as np
import pandas as pd

from costchart._io.data_checks import binary_labels
from costchart._io.deprecation import ABSENT, deprecated_names, renamed_value, take_alias
from costchart._io.errors import CostchartError
from costchart._io.frames import as_pandas, require_columns
from costchart._io.native import native_names
from costchart._io.parameters import RESAMPLINGS, checked
from costchart._io.validation import column_name, finite_number, random_generator

__all__ = ["resample_classes"]

#: Most rows one oversampled training set may have (about 0.8 GB of int64 row numbers).
MAX_ROWS = 100_000_000


def _aliases(function: str, kwargs: dict) -> None:
    """``method=`` (deprecated) as ``resampling=``, with the same values."""
    method = take_alias(function, kwargs, "method", "resampling")
    if method is not ABSENT:
        kwargs["resampling"] = renamed_value(
            function, "method", method, "resampling", {value: value for value in RESAMPLINGS}
        )


@deprecated_names(_aliases)
@checked
def resample_classes(
    data,
    *,
    label: str,
    ratios: Sequence[float],
    resampling: str = "over",
    pos_label=None,
    rng=None,
) -> pd.DataFrame:
    """Training sets with the classes re-weighted by resampling, one per ratio.

    A ratio ``r`` weights the positives ``r`` times as heavily as the negatives (``r < 1``
    weights the negatives ``1/r`` times as heavily):

    * ``resampling="over"`` duplicates the class to weight, ``floor(w)`` copies of each of its
      instances (``w = r`` or ``1/r``), and adds ``round((w - floor(w)) * count)`` of its
      instances drawn without replacement for the fraction;
    * ``resampling="under"`` keeps ``round(count / w)`` instances of the *other* class, drawn
      without replacement, and every instance of the weighted one.

    Parameters
    ----------
    data : DataFrame or dict of arrays
        The training set, one row per instance (pandas, polars, pyarrow or a dict). It is
        not modified.
    label : str
        Column of class labels (as in :func:`roc_points`).
    ratios : sequence of float
        Positive, finite ratios; ``1`` gives the training set unchanged.
    resampling : {"over", "under"}, default "over"
        How the classes are re-weighted: by oversampling the class to weight, or by
        undersampling the other one. (``method=`` is its deprecated old name.)
    pos_label : optional
        The positive class's label, as in :func:`roc_points`.
    rng : numpy.random.Generator or int, optional
        Seed for the fractional draws.

    Returns
    -------
    pandas.DataFrame
        ``ratio``, ``source_row`` (the row of ``data`` each row copies), then every column
        of ``data``; the ratios in the order given.

    Examples
    --------
    >>> import costchart as cc
    >>> data = {"x": [0.1, 0.4, 0.35, 0.8, 0.7], "y": [0, 0, 1, 1, 0]}
    >>> train = cc.resample_classes(data, label="y", ratios=[1, 2.5], rng=0)
    >>> train.groupby(["ratio", "y"]).size().to_dict()
    {(1.0, 0): 3, (1.0, 1): 2, (2.5, 0): 3, (2.5, 1): 5}
    >>> under = cc.resample_classes(data, label="y", ratios=[3], resampling="under", rng=0)
    >>> under.groupby("y").size().to_dict()
    {0: 1, 1: 2}
    """
    label = column_name(label, "label")
    values = _ratios(ratios)
    generator = random_generator(rng)
    frame = as_pandas(data, _columns(data, label))
    positive = binary_labels(frame[label].to_numpy(), f"column {label!r}", pos_label)
    classes = {True: np.flatnonzero(positive), False: np.flatnonzero(~positive)}
    for flag, rows in classes.items():
        if len(rows) == 0:
            name = "positive" if flag else "negative"
            msg = f"column {label!r} has no {name} instances; resampling needs both classes"
            raise CostchartError(msg)
    parts = []
    for ratio in values:
        rows = _rows(classes, ratio, resampling, generator)
        part = frame.iloc[rows].reset_index(drop=True)
        part.insert(0, "source_row", rows)
        part.insert(0, "ratio", ratio)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def _columns(data, label: str) -> list[str]:
    """Every column of ``data`` (checked to include ``label`` by ``as_pandas``)."""
    if isinstance(data, pd.DataFrame):
        names = list(data.columns)
    elif isinstance(data, Mapping):
        names = list(data)
    else:
        try:
            names = native_names(data) or list(nw.from_native(data, eager_only=True).columns)
        except TypeError:
            msg = (
                f"data of type {type(data).__name__} is not a table; pass a pandas, polars "
                "or pyarrow frame, or a dict of arrays"
            )
            raise CostchartError(msg) from None
    require_columns(names, [label], "data")
    if "ratio" in names or "source_row" in names:
        msg = "data has a column 'ratio' or 'source_row', which the result adds; rename it"
        raise CostchartError(msg)
    return names


def _ratios(ratios) -> list[float]:
    """The ratios as a non-empty list of positive finite floats."""
    if isinstance(ratios, (str, bytes)) or np.ndim(ratios) != 1 or len(ratios) == 0:
        msg = f"ratios={ratios!r} must be a non-empty list of numbers, e.g. [1, 2, 5, 10]"
        raise CostchartError(msg)
    return [finite_number(r, f"ratios[{i}]", positive=True) for i, r in enumerate(ratios)]


def _rows(classes: dict, ratio: float, resampling: str, rng: np.random.Generator) -> np.ndarray:
    """Rows of the training set at one ratio, in the order of ``data``."""
    weighted = ratio >= 1
    weight = ratio if weighted else 1 / ratio
    heavy, light = classes[weighted], classes[not weighted]
    if resampling == "over":
        rows = weight * len(heavy) + len(light)
        if rows > MAX_ROWS:
            msg = (
                f"oversampling at ratio {ratio:g} would make about {rows:.3g} rows, more than "
                f"{MAX_ROWS:,}; pass a ratio nearer 1, or resampling='under'"
            )
            raise CostchartError(msg)
        whole = int(np.floor(weight))
        extra = round((weight - whole) * len(heavy))
        chosen = [np.repeat(heavy, whole), rng.choice(heavy, extra, replace=False), light]
    else:
        kept = max(1, round(len(light) / weight))
        chosen = [heavy, rng.choice(light, kept, replace=False)]
    return np.sort(np.concatenate(chosen))
