"""Which classifiers could be the cheapest where: a confidence set at every ``pc`` at once.

:func:`cheapest_set` pairs the classifiers' scores by instance
(:mod:`costchart._select.shared_instances`), lets each classifier choose its thresholds
along its own lower envelope (one :func:`~costchart.roc_points` call for every group and
classifier), and asks the kernel (:mod:`costchart._select.confidence_set`) which
classifiers no other is surely cheaper than. Runs of ``pc`` with the same set and the
same cheapest classifier become the table's intervals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from costchart._bands.options import (
    DEFAULT_PC,
    _grid,
    check_resample_memory,
    of_group,
    reporter,
)
from costchart._io import schema as col
from costchart._io.errors import CostchartError, warn
from costchart._io.frames import as_pandas, check_by_names, normalize_by
from costchart._io.groups import assemble, split_groups
from costchart._io.parameters import checked
from costchart._io.validation import column_name, random_generator, whole_number
from costchart._roc.points import require_rows
from costchart._select.confidence_set import ZERO, members
from costchart._select.shared_instances import align

__all__ = ["KIND", "cheapest_set"]

#: The kind :func:`cheapest_set` records.
KIND = "cheapest_set"
#: What :func:`_intervals` gives per group, the classifier as a row of the frame.
_PARTS = ("pc_lo", "pc_hi", "name_row", "cheapest", "pc", "difference", "lower", "upper")


@checked
def cheapest_set(
    data,
    *,
    score: str,
    label: str,
    classifier: str,
    instance: str,
    by: str | Sequence[str] | None = None,
    pos_label=None,
    confidence_level: float = 0.9,
    n_resamples: int = 2000,
    rng=None,
    pc=None,
    progress=False,
) -> pd.DataFrame:
    """The classifiers that could be the cheapest at each ``pc``, with confidence.

    Pass several classifiers scored on the same instances (the same test set): at each
    ``pc`` the table lists the classifiers the data cannot rule out as the cheapest, and
    the set holds the truly cheapest classifier at every ``pc`` at once with probability
    at least ``confidence_level``. Where the set is one classifier, the data can tell
    which to use; where it holds several, they cannot be told apart there.

    Each classifier's cost at a ``pc`` is its least cost there on these data: that of the
    threshold its own lower envelope chooses. For every pair of classifiers the cost
    difference gets bounds that hold at every ``pc`` and for every pair at once: the
    estimate plus or minus one critical value times its standard error. Both come from
    ``n_resamples`` paired resamples of the instances (stratified: each class's size kept),
    in which every classifier chooses its thresholds again (the choice is made on the same
    data, and its luck must be in the bounds): the standard errors are the resampled
    differences' standard deviations (at least half their median over ``pc``), and the
    critical value is a quantile of the largest deviation over pairs and ``pc`` in
    standard errors, at a level a double bootstrap calibrates so that the bounds hold at
    ``confidence_level`` (10,000 resamples of resamples on top of ``n_resamples``). A
    classifier leaves the set at a ``pc`` where another's cost is surely lower (the bound
    of their difference lies below 0): a multiple comparison with the best, in the spirit
    of a model confidence set.
    ``docs/cheapest_set.md`` gives its measured coverage and power: at level 0.9, two
    equal binormal classifiers stayed in the set over the whole ``pc`` range in 0.93-0.94
    of 1,000 test sets of 50-200 instances per class.

    Parameters
    ----------
    data : pandas, polars or pyarrow table, or dict of arrays
        Long format: one row per classifier and instance, every classifier scored on the
        same instances (in each group), with at least 2 instances of each class per group.
    score, label : str
        Columns of scores ("positive when score >= threshold") and true classes.
    classifier : str
        Column naming the classifier of each row.
    instance : str
        Column identifying the instance, to pair the classifiers' rows.
    by : str or list of str, optional
        Further grouping columns (e.g. ``"dataset"``): one set per group.
    pos_label : optional
        The positive class, as in :func:`roc_points`.
    confidence_level : float
        The probability that the set holds the cheapest classifier at every ``pc`` at once.
    n_resamples : int
        Paired resamples that find the critical value (at least ``10 / (1 -
        confidence_level)``).
    rng : None, int or numpy.random.Generator
        Seed or generator of the resamples.
    pc : array-like, optional
        The operating points (probability costs) examined, sorted and taken once each;
        by default 501 points from 0 to 1.
    progress : bool or callable
        Report resampling progress (to standard error, or to the callable), group by
        group: large data take seconds to minutes (``docs/cheapest_set.md``).

    Returns
    -------
    pandas.DataFrame
        The grouping columns, then one row per interval of ``pc`` and classifier in the set
        there, sorted by ``pc_lo`` and, within an interval, by the classifiers' first
        appearance:

        - ``pc_lo``, ``pc_hi`` (float64): the first and last ``pc`` examined of a run over
          which the set, and which classifier is the cheapest on these data, stay the same;
        - the ``classifier`` column (its name and dtype): a classifier in the set there;
        - ``cheapest`` (bool): its estimated cost is the least over the interval (ties all
          marked);
        - ``pc`` (float64): where over the interval its estimated cost is furthest above
          the least one;
        - ``difference`` (float64): that distance, its cost minus the least cost at ``pc``
          (0 for the cheapest);
        - ``lower``, ``upper`` (float64): the simultaneous bounds of that difference (of its
          cost minus the cheapest one's). ``lower <= 0`` in every row: a classifier whose
          cost is surely above the cheapest one's is not in the set.

        The table records its kind, ``"cheapest_set"``.

    Examples
    --------
    >>> import numpy as np, pandas as pd, costchart as cc
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([1, 0], 100)
    >>> data = pd.DataFrame({
    ...     "id": np.tile(np.arange(200), 3), "y": np.tile(y, 3),
    ...     "model": np.repeat(["sharp", "fair", "weak"], 200),
    ...     "s": np.concatenate([k * y + rng.normal(size=200) for k in (2.5, 2, 0.5)])})
    >>> table = cc.cheapest_set(data, score="s", label="y", classifier="model", instance="id",
    ...                         pc=np.linspace(0.1, 0.9, 9), rng=0)
    >>> table.round(3)
       pc_lo  pc_hi  model  cheapest   pc  difference  lower  upper
    0    0.1    0.3  sharp      True  0.1        0.00  0.000  0.000
    1    0.4    0.9  sharp      True  0.4        0.00  0.000  0.000
    2    0.4    0.9   fair     False  0.5        0.09 -0.001  0.181

    "weak" is surely dearer everywhere, and "fair" up to 0.3; from 0.4 the data cannot
    tell "fair" and "sharp" apart (at 0.5 only just: the lower bound is -0.001).
    """
    by = normalize_by(by)
    for name, value in (
        ("classifier", classifier),
        ("instance", instance),
        ("score", score),
        ("label", label),
    ):
        column_name(value, name)
    check_by_names(by)
    _check_columns(by, classifier, instance, score, label)
    level = float(confidence_level)
    n_resamples = whole_number(n_resamples, "n_resamples", minimum=1)  # 150.0 -> 150
    least = math.ceil(10 / (1 - level) - 1e-9)
    if n_resamples < least:
        msg = (
            f"n_resamples={n_resamples!r} is too few for a {level:g} set: its critical value "
            f"needs at least 10 resamples beyond it, so pass n_resamples >= {least}"
        )
        raise CostchartError(msg)
    generator = random_generator(rng)
    grid = np.unique(DEFAULT_PC if pc is None else _grid(pc))
    frame = as_pandas(data, [*by, classifier, instance, score, label])
    require_rows(frame[score].to_numpy())  # as roc_points and the bands: no rows, no set
    groups = split_groups(frame, by)  # refuses True beside 1 in a by= column
    aligned = align(
        frame,
        groups,
        classifier=classifier,
        instance=instance,
        score=score,
        label=label,
        pos_label=pos_label,
    )
    widest = max((one.scores.shape[1] for one in aligned), default=0)
    # Each resample holds every classifier's cost at each pc, and a pair's differences.
    check_resample_memory(n_resamples, (widest + 3) * len(grid), len(grid), instead="")
    parts, lengths, wanted = [], [], []
    told = reporter(progress)
    for k, one in enumerate(aligned):
        found = members(
            one.scores,
            one.positive,
            grid,
            confidence_level=level,
            n_resamples=n_resamples,
            rng=generator,
            progress=of_group(told, k, len(aligned)),
        )
        if found.level + 1e-12 < found.calibrated < 1:  # level 1: see _warn_uncalibrated
            wanted.append((found.calibrated, found.level))
        part = _intervals(found, grid)
        part["name_row"] = one.name_rows[part.pop("which")]
        parts.append(part)
        lengths.append(len(part["name_row"]))
    if wanted:
        _warn_uncalibrated(wanted, len(aligned), level, n_resamples)
    columns = {
        name: np.concatenate([p[name] for p in parts]) if parts else np.zeros(0) for name in _PARTS
    }
    names = frame[classifier].iloc[columns.pop("name_row").astype(np.int64)]
    table = {
        col.PC_LO: columns["pc_lo"],
        col.PC_HI: columns["pc_hi"],
        classifier: names.reset_index(drop=True),
        col.CHEAPEST: columns["cheapest"].astype(bool),
        col.PC: columns["pc"],
        col.DIFFERENCE: columns["difference"],
        col.LOWER: columns["lower"],
        col.UPPER: columns["upper"],
    }
    return assemble(groups, np.asarray(lengths, dtype=np.int64), table, kind=KIND)


def _warn_uncalibrated(
    wanted: list[tuple[float, float]], groups: int, level: float, n_resamples: int
):
    """Warn that some groups' critical values need more resamples than were drawn.

    A calibrated level below 1 that fewer than 10 resamples lie beyond is resolved by more
    resamples, and the warning names how many. Level 1 (in over a tenth of the resamples
    taken as the sample, the truth lay beyond all their own resamples) no number resolves;
    such a group's critical value is taken where 10 resamples lie beyond, and is not warned
    about (``docs/cheapest_set.md``: the calibration errs on the wide side).
    """
    highest, resolved = max(wanted)  # the calibrated level, and the level taken instead
    which = "its" if groups == 1 else f"{len(wanted)} of {groups} groups'"
    warn(
        f"cheapest_set: the double bootstrap calibrated {which} critical value to level "
        f"{highest:.3g}, but n_resamples={n_resamples:,} resolves levels up to "
        f"{resolved:.3g} only (10 resamples beyond the critical "
        f"value): the set may hold the cheapest classifier in fewer than {level:g} of test "
        f"sets; pass n_resamples >= {math.ceil(10 / (1 - highest) - 1e-9):,}"
    )


def _check_columns(by: list[str], classifier, instance, score, label) -> None:
    """Refuse a classifier column that is another column too, or named as an output column."""
    for name, other in (("instance", instance), ("score", score), ("label", label)):
        if classifier == other:
            msg = (
                f"classifier= and {name}= both name column {other!r}; the classifier column "
                "names the classifier of each row, a column of its own"
            )
            raise CostchartError(msg)
    if classifier in by:
        msg = (
            f"classifier={classifier!r} is one of the by= columns {by}; by= groups the sets "
            "(e.g. by data set), and the classifiers are compared within each group: take "
            f"{classifier!r} out of by="
        )
        raise CostchartError(msg)
    if classifier in col.CHEAPEST_SET_TABLE:
        msg = (
            f"the classifier column is named {classifier!r}, a column cheapest_set writes; "
            "rename it (e.g. to 'model')"
        )
        raise CostchartError(msg)


def _intervals(found, grid: np.ndarray) -> dict[str, np.ndarray]:
    """The rows of one group: runs of ``pc`` with the same set and cheapest classifiers.

    A row per run and classifier in the set there, read at the ``pc`` of the run where
    the classifier's cost is furthest above the least (the first such ``pc``).
    """
    least = found.cost.min(axis=0)
    cheapest = found.cost <= least + ZERO
    state = np.concatenate([found.member, cheapest])
    starts = np.flatnonzero(np.r_[True, (state[:, 1:] != state[:, :-1]).any(axis=0)])
    stops = np.r_[starts[1:], len(grid)] - 1
    gap = found.cost - least
    # Per classifier and run: the first pc of the run where the gap is largest.
    largest = np.maximum.reduceat(gap, starts, axis=1)
    run_of = np.repeat(np.arange(len(starts)), stops - starts + 1)
    where = np.where(gap == largest[:, run_of], np.arange(len(grid)), len(grid))
    first_largest = np.minimum.reduceat(where, starts, axis=1)
    run, which = np.nonzero(found.member[:, starts].T)  # runs in order, classifiers within
    at = first_largest[which, run]
    difference, lower, upper = found.bounds(which, _reference(found, cheapest, which, at), at)
    return {
        "pc_lo": grid[starts[run]],
        "pc_hi": grid[stops[run]],
        "which": which,
        "cheapest": cheapest[which, starts[run]],
        "pc": grid[at],
        "difference": difference,
        "lower": lower,
        "upper": upper,
    }


def _reference(found, cheapest: np.ndarray, which: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The classifier each row's difference is taken against: the cheapest at its ``pc``.

    A classifier among the cheapest is its own reference (difference 0). Of several
    classifiers tied for the cheapest, the one whose difference has the least standard
    error: the rows' order in the data does not matter.
    """
    tied = cheapest[:, at].T  # (rows, classifiers)
    spread = np.where(tied, found.se[which, :, at], np.inf)
    return np.where(cheapest[which, at], which, np.argmin(spread, axis=1))
