"""difference_band computed for all groups at once, against its per-group code.

The reference below is the implementation it replaced: a Python loop over groups that
paired each group's rows, counted its ROC points, chose each classifier's thresholds
(the per-group rows code) and banded the 3-D confusion matrix one ``pc`` at a time.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from strategies import key_series

import costchart as cc
from costchart._bands.binomial import normal_quantile, sample_quantiles, weighted_quantiles
from costchart._bands.describe import ATTRS, describe
from costchart._bands.difference import _selection_pair, significant
from costchart._bands.options import exact_where, options_from
from costchart._bands.paired import (
    RESAMPLE_DRAWS,
    _resample,
    _signed_counts,
    _variance,
    exact_sizes,
    no_evidence_chance,
)
from costchart._io import schema as col
from costchart._io.data_checks import binary_labels, finite_numbers
from costchart._io.errors import CostchartError, plain
from costchart._io.frames import as_pandas, describe_group, normalize_by
from costchart._io.groups import assemble, split_groups
from costchart._io.tables import read_selection
from costchart._io.validation import column_name, threshold_pair
from costchart._roc.hull import all_hulls
from costchart._roc.optimal import vertex_index
from costchart._roc.paired import instance_weights, is_scalar_name, paired

# --- the per-group reference ---------------------------------------------------------------


def _active_rows(points, pc, selection, threshold):
    own = points[col.THRESHOLD].to_numpy(np.float64)
    if threshold is not None:
        local = np.full(len(pc), int((own >= np.float64(threshold)).sum()) - 1)
    else:
        if selection is None:
            hulls = all_hulls(points, split_groups(points, []), list(col.ROC_COLUMNS)).frame
            lo, hi = hulls[col.PC_LO].to_numpy(float), hulls[col.PC_HI].to_numpy(float)
            fpr, tpr = hulls[col.FPR].to_numpy(float), hulls[col.TPR].to_numpy(float)
            threshold = hulls[col.THRESHOLD].to_numpy(float).copy()
            threshold[(fpr == 0) & (tpr == 0)] = np.inf
            threshold[(fpr == 1) & (tpr == 1)] = -np.inf
            active = np.flatnonzero(hi > lo)
            chosen = threshold[active[vertex_index(lo[active], pc)]]
        else:
            table, _, table_groups = read_selection(selection, None)
            positions = table_groups[0].positions
            starts = table[col.PC_LO].to_numpy(np.float64)[positions]
            order = np.argsort(starts, kind="stable")
            interval = vertex_index(starts[order], pc)
            chosen = table[col.THRESHOLD].to_numpy(np.float64)[positions[order[interval]]]
        local = np.searchsorted(-own, -chosen, side="right") - 1
    return np.clip(local, 0, len(points) - 1)


def _layers(predicted, positive, options, copies=None):
    (scores_a, t_a), (scores_b, t_b) = predicted
    counts = np.ones(len(positive), dtype=np.int64) if copies is None else copies.astype(np.int64)
    cells = np.empty((len(options.pc), 8), dtype=np.int64)
    memo = {}
    for i, key in enumerate(zip(t_a, t_b, strict=True)):
        if key not in memo:
            says_a, says_b = scores_a >= key[0], scores_b >= key[1]
            row = []
            for members in (positive, ~positive):
                row += [
                    int(counts[members & says_a & says_b].sum()),
                    int(counts[members & says_a & ~says_b].sum()),
                    int(counts[members & ~says_a & says_b].sum()),
                    int(counts[members & ~says_a & ~says_b].sum()),
                ]
            memo[key] = np.array(row)
        cells[i] = memo[key]
    return cells


def _weights(cells, pc, sampling):
    positives = cells[0, :4].sum()
    negatives = cells[0, 4:].sum()
    if sampling == "stratified":
        w_pos, w_neg = pc / positives, (1 - pc) / negatives
    else:
        n = positives + negatives
        w_pos, w_neg = pc / (positives / n) / n, (1 - pc) / (negatives / n) / n
    weights = np.zeros((len(pc), 8))
    weights[:, 2], weights[:, 1] = w_pos, -w_pos
    weights[:, 5], weights[:, 6] = w_neg, -w_neg
    return weights


def _exact_quantiles(cells, weights, options, lower, upper):
    pairs, work = exact_sizes(cells, options.sampling)
    instances = cells.sum(axis=1)
    chosen = np.flatnonzero(exact_where(pairs, work, options.pc, instances, options.interval))
    joints, done = {}, {}
    for i in chosen:
        row = tuple(cells[i].tolist())
        key = (*row, float(weights[i, 2]), float(weights[i, 5]))
        if key not in done:
            if row not in joints:
                pos_values, neg_values, joint = _signed_counts(cells[i], options.sampling)
                keep = joint > 0
                joints[row] = (pos_values, neg_values, keep, joint[keep])
            pos_values, neg_values, keep, probabilities = joints[row]
            values = weights[i, 2] * pos_values[:, None] + weights[i, 5] * neg_values[None, :]
            done[key] = tuple(weighted_quantiles(values[keep], probabilities, options.levels))
        lower[i], upper[i] = done[key]
    return lower, upper


def _paired_band(predicted, positive, options, copies=None):
    pc = options.pc
    cells = _layers(predicted, positive, options, copies)
    weights = _weights(cells, pc, options.sampling)
    difference = (weights * cells).sum(axis=1)
    if options.inference == "bootstrap":
        samples = _resample(cells, weights, options)
        lower, upper = sample_quantiles(samples, options.levels, axis=0)
        se = samples.std(axis=0, ddof=1)
    else:
        se = np.sqrt(np.maximum(_variance(cells, weights, options.sampling), 0.0))
        z = normal_quantile(options.levels[1])
        lower, upper = difference - z * se, difference + z * se
        if options.interval == "discrete":
            lower, upper = _exact_quantiles(cells, weights, options, lower, upper)
        elif options.interval == "auto":
            for i in range(len(pc)):
                one = (pc[i] > 0 and cells[i, :4].sum() < 2) or (
                    pc[i] < 1 and cells[i, 4:].sum() < 2
                )  # a class of one instance: no bootstrap spread, se may be 0
                a_calls, b_calls = cells[i, [0, 1, 4, 5]].sum(), cells[i, [0, 2, 4, 6]].sum()
                n = cells[i].sum()
                one = one and not (a_calls in (0, n) and b_calls in (0, n))  # both trivial
                if (se[i] > 0 or one) and _few_discordant(cells[i], pc[i]):
                    lower[i], upper[i] = _agresti_min(cells[i], pc[i], z, options.sampling)
    lower, upper = np.minimum(lower, difference), np.maximum(upper, difference)
    return difference, lower, upper, se, no_evidence_chance(cells, weights, options.sampling)


def _few_discordant(row, pc):
    """A class that counts at ``pc`` has fewer than 5 discordant instances."""
    return (pc > 0 and row[1] + row[2] < 5) or (pc < 1 and row[5] + row[6] < 5)


def _agresti_min(row, pc, z, sampling):
    """The normal interval of the table with 1/2 added to each cell (one row, by hand)."""
    cell = row + 0.5
    positives, negatives = row[:4].sum(), row[4:].sum()
    # The difference of rates: a's errors only minus b's errors only, per class.
    if sampling == "stratified":
        m_pos, m_neg = positives + 2, negatives + 2
        d_pos, d_neg = (cell[2] - cell[1]) / m_pos, (cell[5] - cell[6]) / m_neg
        var_pos = ((cell[2] + cell[1]) / m_pos - d_pos**2) / m_pos
        var_neg = ((cell[5] + cell[6]) / m_neg - d_neg**2) / m_neg
        centre = pc * d_pos + (1 - pc) * d_neg
        spread = np.sqrt(pc**2 * var_pos + (1 - pc) ** 2 * var_neg)
    else:  # one multinomial over the 8 cells, rates over n + 4, weighted by n / P, n / N
        n, adjusted = positives + negatives, row.sum() + 4
        c = np.zeros(8)
        c[2], c[1] = pc * n / positives, -pc * n / positives
        c[5], c[6] = (1 - pc) * n / negatives, -(1 - pc) * n / negatives
        q = cell / adjusted
        centre = (c * q).sum()
        spread = np.sqrt(((c**2 * q).sum() - centre**2) / adjusted)
    return centre - z * spread, centre + z * spread


def _selection_of(table, by, key):
    if not by:
        return table
    mask = np.ones(len(table), dtype=bool)
    for column, value in zip(by, key, strict=True):
        mask &= (table[column] == value).to_numpy(bool)
    if not mask.any():
        msg = f"a selection table has no rows for the group {describe_group(by, key)}"
        raise CostchartError(msg)
    return table.loc[mask].drop(columns=by).reset_index(drop=True)


def _difference_band_group_by_group(
    data,
    *,
    score,
    label,
    classifier,
    instance,
    a=None,
    b=None,
    by=None,
    pos_label=None,
    weight=None,
    confidence_level=0.9,
    inference="exact_bootstrap",
    sampling="stratified",
    interval="auto",
    n_resamples=2000,
    rng=None,
    threshold=None,
    selection=None,
    pc=None,
    progress=False,
):
    options = options_from("difference_band", locals(), per_resample=RESAMPLE_DRAWS)
    by = normalize_by(by)
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
    if not len(frame):
        msg = "data has no rows; ROC analysis needs scored instances of both classes"
        raise CostchartError(msg)
    for name, value in (("a", a), ("b", b)):
        if value is not None and not is_scalar_name(value):
            msg = f"{name}= must be one classifier name"
            raise CostchartError(msg)
    names = None if a is None and b is None else (a, b)
    if names is not None and (a is None or b is None):
        msg = "pass both a= and b= (the two classifiers to compare), or neither"
        raise CostchartError(msg)
    groups = split_groups(frame, by)
    parts = []
    compared = names
    for group in groups:
        part = frame.iloc[group.positions]
        pair, side_a, side_b = paired(part, classifier, instance, names, label)
        compared = compared or pair
        positive = binary_labels(side_a[label].to_numpy(), f"column {label!r}", pos_label)
        copies = instance_weights(side_a, side_b, weight, "difference_band's bootstrap")
        if copies is not None:
            if not copies.any():
                msg = (
                    f"all weights in column {weight!r} are 0 (group "
                    f"{describe_group(by, group.key) if by else 'of all rows'}); a difference "
                    "band needs instances of positive weight"
                )
                raise CostchartError(msg)
            keep = copies > 0
            side_a, side_b, positive, copies = (
                side_a[keep],
                side_b[keep],
                positive[keep],
                copies[keep],
            )
        if positive.all() or not positive.any():
            msg = f"column {label!r} has one class only; a difference band needs both"
            raise CostchartError(msg)
        predicted = []
        chosen_tables = (
            [_selection_of(table, by, group.key) for table in selection]
            if selection is not None
            else [None, None]
        )
        for side, fixed, chosen_table in zip(
            (side_a, side_b), threshold or (None, None), chosen_tables, strict=True
        ):
            scores = finite_numbers(side[score].to_numpy(), f"column {score!r}")
            counted = {"s": scores, "y": positive, **({"w": copies} if copies is not None else {})}
            points = cc.roc_points(
                counted, score="s", label="y", weight="w" if copies is not None else None
            )
            rows = _active_rows(points, options.pc, chosen_table, fixed)
            chosen = points[col.THRESHOLD].to_numpy(float)[rows]
            predicted.append((scores, chosen))
        parts.append(_paired_band(predicted, positive, options, copies))
    outputs = (col.DIFFERENCE, col.LOWER, col.UPPER, col.SE)
    columns = {col.PC: np.tile(options.pc, len(groups))}
    for i, name in enumerate(outputs):
        columns[name] = np.concatenate([part[i] for part in parts]) if parts else np.zeros(0)
    chance = np.concatenate([part[4] for part in parts]) if parts else np.zeros(0)
    columns[col.SIGNIFICANT] = significant(
        columns[col.LOWER], columns[col.UPPER], chance, options.confidence_level
    )
    band = assemble(groups, np.full(len(groups), len(options.pc)), columns)
    a_name, b_name = compared if compared else (None, None)
    band.attrs[ATTRS] = describe(
        options,
        fixed=threshold is not None or selection is not None,
        a=plain(a_name),
        b=plain(b_name),
        classifier=str(classifier),
    )
    return band


# --- random inputs -------------------------------------------------------------------------

KINDS = ["str", "int", "float", "category"]


def _random_data(rng, n_groups, kind, *, classifiers=("m", "n"), weights=False):
    """Long-format scores of two (or more) classifiers on the same instances, per group."""
    keys = key_series(rng, n_groups, kind)
    frames = []
    for g in range(n_groups):
        n = int(rng.choice([4, 5, 7, 12, 40]))  # two of each class: every option bands them
        y = rng.random(n) < 0.5
        y[:4] = [True, False, True, False]
        ids = rng.permutation(n) * 2 + 100
        w = rng.integers(0, 3, n).astype(float)
        w[:4] = 1
        grain = float(rng.choice([1, 4, 20]))
        for name in rng.permutation(classifiers):
            score = np.round((rng.normal(size=n) + y) * grain) / grain
            frames.append(
                pd.DataFrame({"row": g, "model": name, "id": ids, "y": y.astype(int), "s": score})
                .assign(w=w)
                .iloc[rng.permutation(n)]
            )
    frame = pd.concat(frames, ignore_index=True)
    frame = frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)
    frame.insert(0, "key", keys.iloc[frame.pop("row").to_numpy()].reset_index(drop=True))
    return frame if weights else frame.drop(columns="w")


def _outcome(function, data, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = function(
                data, score="s", label="y", classifier="model", instance="id", **kwargs
            )
        except CostchartError as error:
            result = error
    return result, [(w.category, str(w.message)) for w in caught]


def _same(data, **kwargs):
    rng = kwargs.pop("rng", None)
    new, new_warnings = _outcome(cc.difference_band, data, rng=rng, **kwargs)
    rng = None if rng is None else np.random.default_rng(rng)
    old, old_warnings = _outcome(_difference_band_group_by_group, data, rng=rng, **kwargs)
    assert new_warnings == old_warnings
    if isinstance(old, CostchartError):
        assert isinstance(new, CostchartError), new
        assert str(new) == str(old)
        return new
    assert isinstance(new, pd.DataFrame), new
    pd.testing.assert_frame_equal(new, old, check_exact=False, rtol=1e-12, atol=1e-15)
    pd.testing.assert_frame_equal(new[["pc", "significant"]], old[["pc", "significant"]])
    assert new.attrs == old.attrs
    return new


PC = np.linspace(0, 1, 21)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"sampling": "full"},
        {"interval": "discrete"},
        {"interval": "normal", "threshold": (0.5, 1.0)},
        {"threshold": (-np.inf, np.inf)},
        {"inference": "bootstrap", "n_resamples": 200, "rng": 7},
    ],
)
def test_difference_band_equals_the_per_group_code(kind, options):
    rng = np.random.default_rng(len(kind) + len(str(options)))
    for n_groups in (1, 4, 25):
        data = _random_data(rng, n_groups, kind)
        band = _same(data, by="key", pc=PC, **options)
        assert len(band) == n_groups * len(PC)


def test_weights_three_classifiers_and_no_grouping():
    rng = np.random.default_rng(11)
    data = _random_data(rng, 12, "int", classifiers=("m", "n", "o"), weights=True)
    _same(data, by="key", a="o", b="m", weight="w", pc=PC)
    _same(data, by="key", a="n", b="o", weight="w", pc=PC, sampling="full")
    one = data[data.key == data.key.iloc[0]].drop(columns="key")
    _same(one.drop(columns="w"), a="m", b="n", pc=PC)
    _same(one, a="m", b="n", weight="w")
    _same(one[one.model != "o"], weight="w", pc=PC, interval="discrete")


def test_classifier_order_differs_between_groups():
    # Without a= and b=, a is each group's first classifier: the sign may flip by group.
    rng = np.random.default_rng(12)
    data = _random_data(rng, 8, "str")
    flipped = data.iloc[::-1].reset_index(drop=True)
    _same(flipped, by="key", pc=PC)


def test_selection_tables_per_group():
    rng = np.random.default_rng(13)
    data = _random_data(rng, 10, "int")
    validation = _random_data(np.random.default_rng(14), 10, "int")
    validation["key"] = (
        data.key.drop_duplicates()
        .reset_index(drop=True)
        .iloc[validation.key.rank(method="dense").astype(int) - 1]
        .to_numpy()
    )

    def table(name):
        chosen = validation[validation.model == name]
        points = cc.roc_points(chosen, score="s", label="y", by="key")
        return cc.selection_table(cc.lower_envelope(points))

    tables = (table("m"), table("n"))
    _same(data, by="key", a="m", b="n", selection=tables, pc=PC)
    missing = (tables[0][tables[0].key != data.key.iloc[-1]], tables[1])
    _same(data, by="key", a="m", b="n", selection=missing, pc=PC)


def _group_of(data, row):
    """Rows of the group of ``row`` (missing keys are one group)."""
    key = data.key.iloc[row]
    return (data.key.isna() if pd.isna(key) else data.key == key).to_numpy()


def _break(data, rng, how):
    data = data.copy()
    row = int(rng.integers(len(data)))
    group = _group_of(data, row)
    if how == "one class":
        data.loc[group, "y"] = 1
    elif how == "duplicate":
        data = pd.concat([data, data.iloc[[row]]], ignore_index=True)
    elif how == "unshared":
        data = data.drop(index=row).reset_index(drop=True)
    elif how == "labels":
        data.loc[row, "y"] = 1 - data.loc[row, "y"]
    elif how == "label values":
        data["y"] = data.y.astype(object)
        data.loc[group, "y"] = data.y.map({0: "no", 1: "yes"})
    elif how == "score":
        data.loc[row, "s"] = np.nan
    elif how == "weight":
        data.loc[row, "w"] = 0.5
    elif how == "zero weights":
        data.loc[group, "w"] = 0.0
    elif how == "third classifier":
        data.loc[row, "model"] = "z"
    return data


@pytest.mark.parametrize(
    "how",
    [
        "one class",
        "duplicate",
        "unshared",
        "labels",
        "label values",
        "score",
        "weight",
        "zero weights",
        "third classifier",
    ],
)
def test_refusals_name_the_first_failing_group(how):
    rng = np.random.default_rng(len(how))
    for kind in KINDS:
        data = _random_data(rng, 9, kind, weights=True)
        broken = _break(_break(data, rng, how), rng, how)
        error = _same(broken, by="key", weight="w", pc=PC)
        assert isinstance(error, CostchartError)


def test_labels_coded_differently_by_group_and_empty_data():
    rng = np.random.default_rng(15)
    data = _random_data(rng, 6, "int")
    data["y"] = data.y.where(data.key != data.key.iloc[0], data.y * 2 - 1)  # -1/1 there
    _same(data, by="key", pc=PC)
    for empty, by in ((data.iloc[:0], "key"), (data.iloc[:0].drop(columns="key"), None)):
        error = _same(empty, by=by, pc=PC)  # refused, as by roc_points and bootstrap_band
        assert isinstance(error, CostchartError) and str(error).startswith("data has no rows")


def test_grouped_vertex_index_and_rows_equal_the_per_group_search():
    from costchart._bands.rows import grouped_vertex_index, rows_of_thresholds

    rng = np.random.default_rng(16)
    sizes = rng.integers(1, 6, 300)
    owner = np.repeat(np.arange(len(sizes)), sizes)
    starts = np.round(rng.random(len(owner)), 1)
    starts[np.cumsum(sizes) - sizes] = 0.0
    ones = rng.random(len(owner)) < 0.2  # trailing zero-width intervals [1, 1]
    starts = np.where(ones, 1.0, starts)
    starts = starts[np.lexsort((starts, owner))]
    pc = np.array([0.0, 0.05, 0.1, 0.5, 0.95, 1.0, 0.3, 1.0])
    found = grouped_vertex_index(starts, owner, len(sizes), pc)
    own = -np.sort(-np.round(rng.normal(size=len(owner)), 1))
    own = own[np.lexsort((-own, owner))]
    chosen = np.round(rng.normal(size=(len(sizes), len(pc))), 1)
    rows = rows_of_thresholds(own, owner, chosen)
    for g, start in enumerate(np.cumsum(sizes) - sizes):
        part = slice(start, start + sizes[g])
        np.testing.assert_array_equal(found[g] - start, vertex_index(starts[part], pc))
        expected = np.searchsorted(-own[part], -chosen[g], side="right") - 1
        np.testing.assert_array_equal(rows[g], expected)


def test_classifiers_named_twice_or_absent_are_refused_as_before():
    data = _random_data(np.random.default_rng(17), 5, "int")
    for a, b in (("m", "m"), ("zz", "m"), ("m", "zz"), ("zz", "yy")):
        error = _same(data, by="key", a=a, b=b, pc=PC)
        assert isinstance(error, CostchartError)
