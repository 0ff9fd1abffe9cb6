"""difference_band: the band on the cost difference of two paired classifiers.

The statistical tests (enumeration, Monte Carlo) live in test_bootstrap.py; this module
covers the edges of the inputs (issue 10).
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costchart as cc
from costchart._io import schema as _schema

N = 20
PAIR = pd.DataFrame(
    {
        "model": ["a"] * N + ["b"] * N,
        "id": list(range(N)) * 2,
        "y": [1, 0] * N,
        "p": np.r_[np.arange(N), np.arange(N)[::-1]].astype(float),
    }
)

#: Every (inference, interval) pair a band computes (``costchart._io.intervals.SUPPORTED``).
INTERVAL_PAIRS = [
    ("exact_bootstrap", "auto"),
    ("exact_bootstrap", "normal"),
    ("exact_bootstrap", "discrete"),
    ("bootstrap", "auto"),
    ("bootstrap", "percentile"),
]


def _difference(data=PAIR, **options):
    options.setdefault("pc", [0.5])
    return cc.difference_band(
        data, score="p", label="y", classifier="model", instance="id", **options
    )


@pytest.mark.parametrize(
    ("thresholds", "message"),
    [
        ((np.nan, 0.5), r"threshold\[0\]=nan is not a threshold; pass a number"),
        ((0.5, float("nan")), r"threshold\[1\]=nan is not a threshold"),
        ((0.5,), r"threshold=\(0\.5,\) must be a pair \(t_a, t_b\) of thresholds, one per"),
        (0.5, r"threshold=0\.5 must be a pair \(t_a, t_b\)"),
        ("ab", r"threshold='ab' must be a pair"),
        (("a", 1), r"threshold\[0\]='a' must be a number"),
    ],
)
def test_thresholds_must_be_a_pair_of_numbers(thresholds, message):
    with pytest.raises(cc.CostchartError, match=message):
        _difference(threshold=thresholds)


def test_infinite_thresholds_are_the_trivial_classifiers():
    pc = np.array([0.2, 0.7])
    band = _difference(threshold=(np.inf, -np.inf), pc=pc)
    # always negative (cost pc) minus always positive (cost 1 - pc), with no variance
    np.testing.assert_allclose(band["difference"], 2 * pc - 1, atol=1e-15)
    np.testing.assert_array_equal(band["se"], 0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"inference": "bootstrap", "n_resamples": "x"}, r"n_resamples='x' must be a whole number"),
        (
            {"inference": "bootstrap", "n_resamples": 10**9, "pc": None},
            r"n_resamples=1,000,000,000 at 501 operating points would need about [\d,.]+ GiB "
            r"of memory \(at most 2 GiB is allowed\); pass n_resamples <= 176,718",
        ),
        (
            # one pc: the eight cells drawn per resample dominate the estimate
            {"inference": "bootstrap", "n_resamples": 2 * 10**7},
            r"n_resamples=20,000,000 at 1 operating points would need about 2\.8 GiB of "
            r"memory \(at most 2 GiB is allowed\); pass n_resamples <= 14,128,181",
        ),
        ({"inference": "bootstrap", "rng": "seed"}, r"rng='seed' is not a seed"),
        ({"pc": []}, r"pc=\[\] has no operating points"),
        ({"confidence_level": "x"}, r"confidence_level='x' must be a number"),
        ({"sampling": "paired"}, r"sampling='paired' is not an option"),
    ],
)
def test_band_options_are_validated(options, message):
    with pytest.raises(cc.CostchartError, match=message):
        _difference(**options)


NUMBERED = PAIR.assign(model=np.where(PAIR["model"] == "a", 1, 2))


@pytest.mark.parametrize(
    ("data", "options", "message"),
    [
        (  # numbers listed as typed, not np.int64(1); the text '1' names the number 1
            NUMBERED,
            {"a": "1", "b": 2},
            r"^no rows with model == '1'; classifiers present: 1, 2; pass a=1, not '1'$",
        ),
        (NUMBERED, {"a": 1, "b": "2"}, r"classifiers present: 1, 2; pass b=2, not '2'$"),
        (NUMBERED, {"a": 1, "b": 3}, r"^no rows with model == 3; classifiers present: 1, 2$"),
        (
            pd.concat([NUMBERED, NUMBERED.assign(model=3)]),
            {},
            r"column 'model' has 3 classifiers \(1, 2, 3\); pass a= and b=",
        ),
        (NUMBERED, {"a": np.int64(1), "b": np.int64(1)}, r"^a= and b= both name 1;"),
    ],
)
def test_messages_list_classifiers_as_typed(data, options, message):
    with pytest.raises(cc.CostchartError, match=message):
        _difference(data, **options)


@pytest.mark.parametrize("sampling", ["stratified", "full"])
def test_resampled_difference_is_reproducible_and_brackets_the_estimate(sampling):
    options = {"inference": "bootstrap", "n_resamples": 4000, "sampling": sampling}
    first = _difference(threshold=(10, 10), pc=[0.2, 0.5, 0.9], rng=3, **options)
    second = _difference(
        threshold=(10, 10), pc=[0.2, 0.5, 0.9], rng=np.random.default_rng(3), **options
    )
    pd.testing.assert_frame_equal(first, second)
    assert (first["lower"] <= first["difference"]).all()
    assert (first["difference"] <= first["upper"]).all()
    exact = _difference(threshold=(10, 10), pc=[0.2, 0.5, 0.9], sampling=sampling)
    np.testing.assert_allclose(first["se"], exact["se"], rtol=0.1)


def test_exact_distribution_of_a_huge_test_set_is_refused_before_any_work():
    n = 200_000
    rng = np.random.default_rng(0)
    y = np.repeat([1, 0], n // 2)
    data = pd.DataFrame(
        {
            "model": ["a"] * n + ["b"] * n,
            "id": np.tile(np.arange(n), 2),
            "y": np.tile(y, 2),
            "p": (rng.random(2 * n) < 0.5).astype(int),
        }
    )
    with pytest.raises(
        cc.CostchartError,
        match=r"interval='discrete' would need about [\d,]+ terms at pc=0\.5 \(200,000 "
        r"instances\), more than the 10,000,000 it may use; pass interval='normal'",
    ):
        _difference(data, threshold=(1, 1), interval="discrete")
    auto = _difference(data, threshold=(1, 1))
    pd.testing.assert_frame_equal(auto, _difference(data, threshold=(1, 1), interval="normal"))


def test_repeated_instance_ids_suggest_by():
    folds = pd.concat([PAIR.assign(fold=0), PAIR.assign(fold=1)], ignore_index=True)
    with pytest.raises(
        cc.CostchartError,
        match=r"classifier 'a' scores instance 0 more than once; each instance needs one score "
        r"per classifier\. If the 'id' ids repeat across data sets or folds, pass by= the "
        r"columns that tell them apart \(e\.g\. by='fold'\)",
    ):
        _difference(folds)
    band = _difference(folds, by="fold")
    assert list(band["fold"]) == [0, 1]


@st.composite
def _pairs(draw):
    n = draw(st.integers(4, 30))
    y = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    y[0], y[-1] = True, False
    scores = draw(st.lists(st.integers(0, 6), min_size=2 * n, max_size=2 * n))
    data = pd.DataFrame(
        {
            "model": ["a"] * n + ["b"] * n,
            "id": list(range(n)) * 2,
            "y": y * 2,
            "p": np.array(scores, float) / 2,
        }
    )
    options = {
        **dict(
            zip(
                ("inference", "interval"),
                draw(st.sampled_from(INTERVAL_PAIRS)),
                strict=True,
            )
        ),
        "sampling": draw(st.sampled_from(["stratified", "full"])),
        "confidence_level": draw(st.sampled_from([0.05, 0.5, 0.9])),
        "pc": draw(st.lists(st.integers(0, 20).map(lambda v: v / 20), min_size=1, max_size=5)),
    }
    if draw(st.booleans()):
        options["threshold"] = (draw(st.sampled_from(scores)) / 2, np.inf)
    return data, options


@pytest.mark.slow  # hypothesis-heavy: 40 random pairs of classifiers, each banded
@settings(max_examples=40, deadline=None)
@given(_pairs())
def test_difference_band_is_finite_and_contains_the_estimate(case):
    data, options = case
    positives = int(data["y"].sum()) // 2
    single = 1 in (positives, len(data) // 2 - positives)
    if single and (options["inference"], options["interval"]) != ("exact_bootstrap", "auto"):
        with pytest.raises(cc.CostchartError, match="needs at least 2 of each class"):
            _difference(data, n_resamples=200, rng=0, **options)  # a class of one instance
        return
    band = _difference(data, n_resamples=200, rng=0, **options)
    assert list(band.columns) == list(_schema.DIFFERENCE_TABLE)
    values = band[["pc", "difference", "lower", "upper", "se"]].to_numpy(np.float64)
    assert np.isfinite(values).all()
    assert (band["lower"] <= band["difference"]).all()
    assert (band["difference"] <= band["upper"]).all()
    assert (band["se"] >= 0).all()
    assert band["significant"].dtype == bool
    # Significant only where the band excludes 0 (the minimum-evidence rule may say no more).
    excludes = (band["lower"] > 1e-12) | (band["upper"] < -1e-12)
    assert not (band["significant"] & ~excludes).any()


@pytest.mark.parametrize("bad", [("a", "b"), ["a"], pd.Series(["a"])])
def test_classifier_names_must_be_single_values(bad):
    data = pd.DataFrame(
        {
            "classifier": ["a"] * 4 + ["b"] * 4,
            "instance": [0, 1, 2, 3] * 2,
            "score": [0.9, 0.4, 0.6, 0.1, 0.8, 0.3, 0.7, 0.2],
            "y": [1, 0, 1, 0] * 2,
        }
    )
    with pytest.raises(
        cc.CostchartError,
        match=r"a= must be one classifier name \(a value of column .classifier.\), not a",
    ):
        cc.difference_band(
            data,
            score="score",
            label="y",
            classifier="classifier",
            instance="instance",
            a=bad,
            b="b",
        )


def _two_classifiers(n_pos, n_neg, a_only_caught):
    """Two classifiers equal on every instance but ``a_only_caught`` positives, which only
    ``a`` calls positive (so only ``b`` pays their false negatives)."""
    label = np.array([1] * n_pos + [0] * n_neg)
    rng = np.random.default_rng(0)
    score = np.where(label == 1, 0.6, 0.4) + rng.uniform(-0.05, 0.05, label.size)
    score_b = score.copy()
    score_b[:a_only_caught] = 0.1  # b misses these positives at every useful threshold
    return pd.DataFrame(
        {
            "m": ["a"] * label.size + ["b"] * label.size,
            "i": np.tile(np.arange(label.size), 2),
            "y": np.tile(label, 2),
            "s": np.concatenate([score, score_b]),
        }
    )


def _band(data, **options):
    return cc.difference_band(
        data,
        score="s",
        label="y",
        classifier="m",
        instance="i",
        a="a",
        b="b",
        threshold=(0.5, 0.5),
        pc=[0.5],
        **options,
    )


@pytest.mark.slow
@pytest.mark.parametrize(("n", "d"), [(40, 1), (40, 3), (200, 2), (25, 5)])
def test_no_evidence_chance_equals_the_chance_of_drawing_none(n, d):
    from costchart._bands.paired import no_evidence_chance

    cells = np.array([[n - d, d, 0, 0, 0, 0, 0, n]])  # positives a+b+, a+b-; negatives a-b-
    weights = np.array([[0.0, -1.0, 1.0, 0.0, 0.0, -1.0, 1.0, 0.0]])
    chance = no_evidence_chance(cells, weights, "stratified")[0]
    # Brute force: draw n of the n positives with replacement, count draws without any of
    # the d favouring ones (the negatives hold none).
    rng = np.random.default_rng(n * 100 + d)
    draws = rng.integers(0, n, size=(200_000, n))
    none = np.mean((draws >= d).all(axis=1))
    assert chance == pytest.approx(none, abs=4 * np.sqrt(none * (1 - none) / 200_000) + 1e-4)
    assert chance == pytest.approx((1 - d / n) ** n)


def test_a_normal_band_excluding_zero_on_two_instances_is_not_significant():
    band = _band(_two_classifiers(60, 60, 2), interval="normal", confidence_level=0.8)
    # The normal band excludes 0, but a resample misses both instances with chance
    # (1 - 2/60)**60 = 0.13 > 0.1, the band's tail: that is no evidence.
    assert band.upper.iat[0] < 0
    assert not band.significant.iat[0]
    exact = _band(_two_classifiers(60, 60, 2), interval="discrete", confidence_level=0.8)
    assert exact.upper.iat[0] >= 0  # the exact band agrees: it reaches 0


def test_many_discordant_instances_stay_significant():
    band = _band(_two_classifiers(60, 60, 20), confidence_level=0.9)
    assert band.upper.iat[0] < 0 and band.significant.iat[0]


def test_no_shading_where_the_difference_is_zero(demo_points):
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset in ['sonar', 'diabetes']")
    band = cc.difference_band(
        data,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="logistic",
        b="tree",
        by="dataset",
    )
    assert not band.significant[band.difference.abs() < 1e-9].any()
    assert band.significant.any()
    # Every significant pc has a band beyond 0 by more than rounding.
    flagged = band[band.significant]
    assert ((flagged.lower > 1e-12) | (flagged.upper < -1e-12)).all()


def _split_selection():
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset in ['sonar', 'diabetes']")
    validation, test = data[data.instance % 2 == 0], data[data.instance % 2 == 1]

    def table(name):
        chosen = validation[validation.classifier == name]
        points = cc.roc_points(chosen, score="score", label="label", by="dataset")
        return cc.selection_table(cc.lower_envelope(points))

    return test, table("logistic"), table("tree")


def _hybrid_cost(rows, table, pc):
    """Brute force: the cost at pc of the threshold the selection table picks there."""
    threshold = table[table.pc_lo <= pc].sort_values("pc_lo").threshold.iloc[-1]
    positive = rows.label.to_numpy() == 1
    score = rows.score.to_numpy()
    fnr = ((score < threshold) & positive).sum() / positive.sum()
    fpr = ((score >= threshold) & ~positive).sum() / (~positive).sum()
    return pc * fnr + (1 - pc) * fpr


def test_difference_of_two_honest_hybrids_matches_brute_force():
    test, table_a, table_b = _split_selection()
    grid = [0.1, 0.27, 0.5, 0.73, 0.9]
    band = cc.difference_band(
        test,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="logistic",
        b="tree",
        by="dataset",
        selection=(table_a, table_b),
        pc=grid,
    )
    for row in band.itertuples():
        rows = test[test.dataset == row.dataset]
        cost_a = _hybrid_cost(
            rows[rows.classifier == "logistic"], table_a[table_a.dataset == row.dataset], row.pc
        )
        cost_b = _hybrid_cost(
            rows[rows.classifier == "tree"], table_b[table_b.dataset == row.dataset], row.pc
        )
        assert row.difference == pytest.approx(cost_a - cost_b, abs=1e-12)
        assert row.lower <= row.difference <= row.upper


@pytest.mark.parametrize(
    ("selection", "extra", "message"),
    [
        ("both", {"threshold": (0.5, 0.5)}, r"pass selection= or threshold=, not both"),
        ("one", {}, r"selection= must be a pair \(table_a, table_b\)"),
        ("ungrouped", {}, r"selection has no column 'dataset'"),
    ],
)
def test_selection_pairs_are_checked(selection, extra, message):
    test, table_a, table_b = _split_selection()
    chosen = {
        "both": (table_a, table_b),
        "one": table_a,
        "ungrouped": (table_a.drop(columns="dataset"), table_b),
    }[selection]
    with pytest.raises(cc.CostchartError, match=message):
        cc.difference_band(
            test,
            score="score",
            label="label",
            classifier="classifier",
            instance="instance",
            a="logistic",
            b="tree",
            by="dataset",
            selection=chosen,
            pc=[0.5],
            **extra,
        )


def test_a_selection_without_the_group_is_refused():
    test, table_a, table_b = _split_selection()
    with pytest.raises(
        cc.CostchartError, match=r"has no rows for the group \{'dataset': 'sonar'\}"
    ):
        cc.difference_band(
            test,
            score="score",
            label="label",
            classifier="classifier",
            instance="instance",
            a="logistic",
            b="tree",
            by="dataset",
            selection=(table_a[table_a.dataset == "diabetes"], table_b),
            pc=[0.5],
        )


def test_data_without_rows_is_refused_as_roc_points_refuses_it():
    for empty, by in ((PAIR.iloc[:0], None), (PAIR.iloc[:0].assign(g=1), "g")):
        with pytest.raises(cc.CostchartError, match=r"^data has no rows; ROC analysis needs"):
            _difference(empty, by=by)


def _one_positive(n=20, seed=0):
    """a ranks the single positive first, b last: their one discordant positive."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    a[0], b[0] = 3.0, -3.0
    y = np.r_[1, np.zeros(n - 1, int)]
    return pd.DataFrame(
        {"model": ["a"] * n + ["b"] * n, "id": [*range(n)] * 2, "y": [*y] * 2, "p": np.r_[a, b]}
    )


@pytest.mark.parametrize(("inference", "interval"), INTERVAL_PAIRS[1:])
def test_a_class_of_one_instance_is_refused_where_the_band_resamples_it(inference, interval):
    with pytest.raises(cc.CostchartError) as caught:
        _difference(_one_positive(), inference=inference, interval=interval, pc=[0.3])
    message = str(caught.value)
    assert message.startswith(f'1 positive and 19 negatives: a band with inference="{inference}"')
    assert "needs at least 2 of each class" in message
    assert 'Add positives, or pass inference="exact_bootstrap", interval="auto"' in message


def test_a_class_of_one_instance_gets_width_and_no_significance_from_it():
    """Only the single positive is discordant at pc 0.3: the band has width, and is not
    significant at any level (the instance is in every resample: no evidence)."""
    for level in (0.5, 0.9):
        band = _difference(_one_positive(), pc=[0.3, 0.5], confidence_level=level)
        assert (band.upper - band.lower > 0.05).all()
        assert not band.significant.iat[0]
    # At pc 0.5 the 19 negatives are discordant too: that is evidence.
    assert band.significant.iat[1]


@pytest.mark.parametrize("function", ["difference_band", "auc_test"])
@pytest.mark.parametrize("column", ["m", "id"])
def test_a_bool_beside_an_equal_number_in_the_pairing_columns_is_named(function, column):
    # True == 1 to pandas: "one classifier (True)" or "instance 1 twice" hid the cause.
    n = 20
    data = pd.DataFrame(
        {
            "id": np.tile(np.arange(n), 2).astype(object),
            "y": np.tile([1, 0], n),
            "m": np.repeat(["a", "b"], n).astype(object),
            "s": np.r_[np.arange(n), np.arange(n)[::-1]] * 1.0,
        }
    )
    if column == "m":
        data["m"] = np.array([True] * n + [1] * n, dtype=object)
    else:
        data.loc[0, "id"] = True
    what = "the classifier names|a grouping column" if column == "m" else "the instance ids"
    with pytest.raises(cc.CostchartError, match=rf"column '{column}' \(({what})\) holds True"):
        getattr(cc, function)(data, score="s", label="y", classifier="m", instance="id")


@pytest.mark.parametrize("column", ["lower", "significant", "pc"])
def test_a_grouping_column_named_like_the_bands_own_is_refused(column):
    # It was written over by the band's column: the groups were lost without a word.
    n = 20
    data = pd.DataFrame(
        {
            column: np.repeat(["x", "y"], 2 * n),
            "m": np.tile(np.repeat(["a", "b"], n), 2),
            "id": np.tile(np.arange(n), 4),
            "y": np.tile([1, 0], 2 * n),
            "s": np.arange(4 * n) % 7 * 1.0,
        }
    )
    options = dict(score="s", label="y", classifier="m", instance="id", by=column)
    with pytest.raises(cc.CostchartError, match=rf"includes '{column}', a column name costchart"):
        cc.difference_band(data, **options)
