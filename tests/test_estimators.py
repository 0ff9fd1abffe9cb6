"""The scikit-learn bridge: predictions, cv results, deployed thresholds and the scorer."""

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse
from sklearn.datasets import make_classification
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    StratifiedKFold,
    TunedThresholdClassifierCV,
    cross_val_predict,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

import costchart as cc


@pytest.fixture(scope="module")
def problem():
    X, y = make_classification(n_samples=240, n_features=6, random_state=4, flip_y=0.1)
    return X, y


def test_cross_validated_predictions_equal_cross_val_predict(problem):
    X, y = problem
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    models = {
        "logistic": LogisticRegression(),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
    }
    data = cc.predictions(models, X, y, cv=cv)
    assert list(data.columns) == ["classifier", "fold", "instance", "score", "label"]
    assert len(data) == 2 * len(y)
    for name, model in models.items():
        expected = cross_val_predict(model, X, y, cv=cv, method="predict_proba")[:, 1]
        own = data[data["classifier"] == name].sort_values("instance")
        np.testing.assert_allclose(own["score"], expected, rtol=1e-12)
        np.testing.assert_array_equal(own["label"], y)
        folds = [test for _, test in cv.split(X, y)]
        for fold, test in enumerate(folds):
            assert sorted(own.loc[own["fold"] == fold, "instance"]) == sorted(test)


def test_decision_function_string_labels_and_groups(problem):
    X, y = problem
    names = np.where(y == 1, "spam", "ham")
    groups = np.arange(len(y)) % 6
    data = cc.predictions(
        LinearSVC(),
        X,
        names,
        cv=GroupKFold(3),
        groups=groups,
        pos_label="spam",
        response_method="decision_function",
    )
    assert data["classifier"].unique().tolist() == ["LinearSVC"]
    assert (data["label"] == (names[data["instance"]] == "spam")).all()
    for fold in range(3):
        held_out = data.loc[data["fold"] == fold, "instance"]
        assert len(set(groups[held_out])) == 2  # whole groups in each test fold
    # ham as the positive class flips the decision function
    flipped = cc.predictions(
        LinearSVC(),
        X,
        names,
        cv=GroupKFold(3),
        groups=groups,
        pos_label="ham",
        response_method="decision_function",
    )
    np.testing.assert_allclose(flipped["score"], -data["score"])


def test_fitted_estimators_score_a_test_set(problem):
    X, y = problem
    model = LogisticRegression().fit(X[:160], y[:160])
    data = cc.predictions({"m": model}, X[160:], y[160:])
    assert (data["fold"] == 0).all() and data["instance"].tolist() == list(range(80))
    np.testing.assert_allclose(data["score"], model.predict_proba(X[160:])[:, 1])


def test_from_cv_results_matches_predictions(problem):
    X, y = problem
    cv = StratifiedKFold(3, shuffle=True, random_state=1)
    results = cross_validate(
        LogisticRegression(), X, y, cv=cv, return_estimator=True, return_indices=True
    )
    from_results = cc.from_cv_results(results, X, y, estimator_name="logistic")
    direct = cc.predictions({"logistic": LogisticRegression()}, X, y, cv=cv)
    pd.testing.assert_frame_equal(from_results, direct)


@pytest.mark.parametrize("pc", [0.0, 0.1, 0.35, 0.5, 0.8, 1.0])
def test_threshold_classifier_deploys_the_selected_threshold(problem, pc):
    X, y = problem
    model = LogisticRegression().fit(X[:160], y[:160])
    validation = cc.predictions({"m": model}, X[:160], y[:160]).drop(columns="classifier")
    selection = cc.selection_table(
        cc.roc_points(validation.drop(columns=["fold", "instance"]), score="score", label="label")
    )
    deployed = cc.threshold_classifier(model, selection, pc=pc)
    row = selection[
        (selection["pc_lo"] <= pc) & ((pc < selection["pc_hi"]) | (selection["pc_hi"] == 1))
    ].iloc[0]
    scores = model.predict_proba(X[160:])[:, 1]
    expected = (scores >= row["threshold"]).astype(int)
    np.testing.assert_array_equal(deployed.predict(X[160:]), expected)
    # the deployed classifier's test-set cost is the honest hybrid's at this pc
    test = pd.DataFrame({"score": scores, "label": y[160:]})
    honest = cc.apply_selection(test, selection, score="score", label="label")
    fnr = np.mean(expected[y[160:] == 1] == 0)
    fpr = np.mean(expected[y[160:] == 0] == 1)
    assert cc.cost_at(honest, [pc])["cost"].iat[0] == pytest.approx(
        pc * fnr + (1 - pc) * fpr, abs=1e-12
    )


def test_scorer_at_one_pc_and_tuned_threshold(problem):
    X, y = problem
    model = LogisticRegression().fit(X, y)
    scorer = cc.expected_cost_scorer(pc=0.3)
    predicted = model.predict(X)
    fnr, fpr = np.mean(predicted[y == 1] == 0), np.mean(predicted[y == 0] == 1)
    assert scorer(model, X, y) == pytest.approx(-(0.3 * fnr + 0.7 * fpr))
    scores = model.predict_proba(X)[:, 1]
    tuned = TunedThresholdClassifierCV(
        model, scoring=scorer, cv="prefit", refit=False, thresholds=np.unique(scores)
    ).fit(X, y)
    points = cc.roc_points({"s": scores, "y": y}, score="s", label="y")
    best = cc.iso_performance(points, pc=0.3)
    assert tuned.best_threshold_ in set(best["threshold"])
    assert -tuned.best_score_ == pytest.approx(
        cc.cost_at(cc.lower_envelope(points), [0.3])["cost"].iat[0], abs=1e-12
    )


def test_density_scorer_is_minus_the_envelope_expected_cost(problem):
    from scipy import stats

    X, y = problem
    model = LogisticRegression().fit(X, y)
    points = cc.roc_points({"s": model.predict_proba(X)[:, 1], "y": y}, score="s", label="y")
    for density in (None, stats.beta(2, 5)):
        scorer = cc.expected_cost_scorer(density=density)
        expected = cc.expected_cost(cc.lower_envelope(points), density=density)[
            "expected_cost"
        ].iat[0]
        assert scorer(model, X, y) == pytest.approx(-expected, abs=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda X, y: cc.predictions({}, X, y), r"estimators=\{\} is empty"),
        (
            lambda X, y: cc.predictions(LogisticRegression(), X, np.where(y, "a", "b"), cv=3),
            r"pass pos_label=",
        ),
        (
            lambda X, y: cc.predictions(LogisticRegression(), X, y, cv=3, response_method="x"),
            r"response_method='x' is not an option",
        ),
        (lambda X, y: cc.predictions(LogisticRegression(), X[:10], y, cv=3), r"X has 10 rows"),
        (lambda X, y: cc.from_cv_results({"fit_time": []}, X, y), r"return_estimator=True"),
        (lambda X, y: cc.expected_cost_scorer(pc=0.2, density=lambda p: 1), r"not both"),
        (lambda X, y: cc.expected_cost_scorer(pc=2), r"pc=2"),
        (
            lambda X, y: cc.predictions(LogisticRegression(), X, np.arange(len(y)) % 3, cv=3),
            r"y has 3 classes",
        ),
    ],
)
def test_refusals(problem, call, message):
    X, y = problem
    with pytest.raises(cc.CostchartError, match=message):
        call(X, y)


def _with_nan(X):
    X = X.copy()
    X[3, 1] = np.nan
    return X


def _constant_feature(X):
    X = X.copy()
    X[:, 0] = 1.0
    return X


def _overlapping(X, y):
    rows = np.arange(len(y))
    return [(rows[:160], rows[80:]), (rows[80:], rows[:160])]


def _cv_results(X, y, change):
    results = cross_validate(
        LogisticRegression(), X, y, cv=3, return_estimator=True, return_indices=True
    )
    return change(results)


def _selection():
    points = cc.roc_points({"s": [1.0, 2.0, 3.0, 4.0], "y": [0, 1, 0, 1]}, score="s", label="y")
    return cc.selection_table(points)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        # predictions
        (
            lambda X, y: cc.predictions(LogisticRegression(), X, y),
            r"estimators\['LogisticRegression'\] \(LogisticRegression\) is not fitted; fit it "
            r"first, or pass cv=",
        ),
        (
            lambda X, y: cc.predictions([LogisticRegression()], X, y, cv=3),
            r"estimators is a list; pass one estimator or a dict",
        ),
        (lambda X, y: cc.predictions({"a": 3}, X, y, cv=3), r"estimators\['a'\] is a int, not"),
        (lambda X, y: cc.predictions(LogisticRegression(), X, y, cv=0), r"cv=0 must be a number"),
        (lambda X, y: cc.predictions(LogisticRegression(), X, y, cv=1), r"cv=1 must be a number"),
        (lambda X, y: cc.predictions(LogisticRegression(), X, y, cv="3"), r"cv='3' must be"),
        (lambda X, y: cc.predictions(LogisticRegression(), X, y, cv=241), r"from 2 to .* \(240\)"),
        (
            lambda X, y: cc.predictions(LogisticRegression(), X, np.sort(y), cv=KFold(2)),
            r"training fold 0 holds one class only",
        ),
        (
            lambda X, y: cc.predictions(LogisticRegression(), X, y, cv=GroupKFold(3)),
            r"cv=GroupKFold.* cannot split the data: .*\. pass groups=",
        ),
        (
            lambda X, y: cc.predictions(LogisticRegression(), _with_nan(X), y, cv=3),
            r"LogisticRegression\.predict_proba failed on X: .*NaN.*; impute missing values",
        ),
        (
            lambda X, y: cc.predictions(
                LogisticRegression(), pd.DataFrame(X, columns=list("aabcde")), y, cv=3
            ),
            r"X names column 'a' twice",
        ),
        (
            lambda X, y: cc.predictions(LogisticRegression(), X, y, cv=_overlapping(X, y)),
            r"cv=<list of 2 splits> tests some rows in more than one fold",
        ),
        # from_cv_results
        (
            lambda X, y: cc.from_cv_results(_cv_results(X, y, lambda r: r), X[:100], y[:100]),
            r"test indices of fold \d run outside the rows of X \(0 to 99\)",
        ),
        (
            lambda X, y: cc.from_cv_results(
                _cv_results(
                    X,
                    y,
                    lambda r: {**r, "indices": {"test": [-t - 1 for t in r["indices"]["test"]]}},
                ),
                X,
                y,
            ),
            r"test indices of fold 0 run outside the rows of X",
        ),
        (
            lambda X, y: cc.from_cv_results(
                _cv_results(X, y, lambda r: {**r, "estimator": r["estimator"][:2]}), X, y
            ),
            r"cv_results has 2 estimators for 3 test folds",
        ),
        (
            lambda X, y: cc.from_cv_results(
                _cv_results(X, y, lambda r: {**r, "estimator": [LogisticRegression()] * 3}), X, y
            ),
            r"cv_results\['estimator'\]\[0\] \(LogisticRegression\) is not fitted",
        ),
        # threshold_classifier
        (
            lambda X, y: cc.threshold_classifier(
                LinearRegression().fit(X, y), _selection(), pc=0.3
            ),
            r"estimator \(LinearRegression\) is not a classifier",
        ),
        (
            lambda X, y: cc.threshold_classifier("x", _selection(), pc=0.3),
            r"estimator is a str, not a scikit-learn estimator",
        ),
        (
            lambda X, y: cc.threshold_classifier(
                LogisticRegression().fit(X, np.arange(len(y)) % 3), _selection(), pc=0.3
            ),
            r"was fitted on 3 classes \(\[0, 1, 2\]\); costchart needs a two-class",
        ),
        (
            lambda X, y: cc.threshold_classifier(
                LogisticRegression().fit(X, y), _selection(), pc=0.3, pos_label=7
            ),
            r"pos_label=7 is not among the estimator's classes \[0, 1\]",
        ),
        (
            lambda X, y: cc.threshold_classifier(LogisticRegression(), _selection(), pc=0.3),
            r"estimator \(LogisticRegression\) is not fitted; fit it first$",
        ),
        # expected_cost_scorer
        (
            lambda X, y: cc.expected_cost_scorer(pc=0.3)(LinearRegression().fit(X, y), X, y),
            r"the estimator predicted .*, not a class of y",
        ),
        (
            lambda X, y: cc.expected_cost_scorer()(LinearRegression().fit(X, y), X, y),
            r"LinearRegression has neither predict_proba nor decision_function",
        ),
        (
            lambda X, y: cc.predictions(
                LogisticRegression(), X, y, cv=[(np.arange(60), np.arange(60, 300))]
            ),
            r"gives row indices that are not whole numbers from 0 to 239",
        ),
        (
            lambda X, y: cc.predictions(
                {1: LogisticRegression(), "1": DecisionTreeClassifier()}, X, y, cv=3
            ),
            r"names that read alike as text",
        ),
        (
            lambda X, y: cc.expected_cost_scorer(pos_label="p")(
                LogisticRegression().fit(X, y), X, y
            ),
            r"pos_label='p' is not among the estimator's classes \[0, 1\]",
        ),
        # issue 31, item 7
        (
            lambda X, y: cc.predictions(LogisticRegression(), X, y, cv=GroupKFold(3).split(X, y)),
            r"cv=<generator of splits> cannot split the data: .* pass groups= .* to the "
            r"splitter's split\(\)",
        ),
        (
            lambda X, y: cc.expected_cost_scorer()(
                GaussianNB(var_smoothing=0).fit(_constant_feature(X), y), _constant_feature(X), y
            ),
            r"the estimator gave NaN scores for 240 of 240 rows, so expected_cost_scorer cannot "
            r"score it .* drop constant features",
        ),
        (
            lambda X, y: TunedThresholdClassifierCV(
                LogisticRegression(), scoring=cc.expected_cost_scorer(), cv=3
            ).fit(X, y),
            r"expected_cost_scorer\(density=\.\.\.\) scores a model's scores over every pc, "
            r"whatever its threshold, so it cannot tune a threshold; pass "
            r"expected_cost_scorer\(pc=\.\.\.\)",
        ),
        (
            lambda X, y: TunedThresholdClassifierCV(
                LogisticRegression(), scoring=cc.expected_cost_scorer(pos_label=7), cv=3
            ).fit(X, y),
            r"expected_cost_scorer\(density=\.\.\.\) scores a model's scores over every pc",
        ),
        (
            lambda X, y: cc.expected_cost_scorer(pc=0.2, pos_label=7)(
                LogisticRegression().fit(X, y), X, y
            ),
            r"pos_label=7 is not among the estimator's classes \[0, 1\]; pass "
            r"expected_cost_scorer\(pos_label=\) one of them",
        ),
        (
            lambda X, y: cc.from_cv_results(
                _cv_results(X, y, lambda r: {**r, "estimator": 5}), X, y
            ),
            r"cv_results\['estimator'\] is of type int, not a list \(one entry per fold\); "
            r"pass the dict cross_validate returned, unchanged",
        ),
        (
            lambda X, y: cc.from_cv_results(
                _cv_results(X, y, lambda r: {**r, "indices": {"test": 7}}), X, y
            ),
            r"cv_results\['indices'\]\['test'\] is of type int, not a list",
        ),
        (
            lambda X, y: cc.from_cv_results(
                _cv_results(X, y, lambda r: {**r, "indices": {"test": [1, 2, 3]}}), X, y
            ),
            r"cv_results\['indices'\]\['test'\]\[0\] is 1, not a list of row positions",
        ),
        (
            lambda X, y: cc.from_cv_results(
                _cv_results(
                    X,
                    y,
                    lambda r: {
                        **r,
                        "indices": {
                            "test": [np.arange(100), np.arange(60, 160), np.arange(160, 240)]
                        },
                    },
                ),
                X,
                y,
            ),
            r"cv_results' test folds overlap: 40 rows \(e\.g\. row 60\) are tested in more "
            r"than one fold, so they would be scored twice; pass the results of a "
            r"cross_validate whose test folds do not overlap",
        ),
        (
            lambda X, y: cc.predictions(
                {"nb": GaussianNB(var_smoothing=0)}, _constant_feature(X), y, cv=3
            ),
            r"estimator 'nb' \(GaussianNB\) gave NaN scores for 80 of 80 rows; .* drop "
            r"constant features or change the estimator's parameters",
        ),
    ],
)
def test_the_bridge_refuses_what_scikit_learn_would_fail_on(problem, call, message):
    X, y = problem
    with pytest.raises(cc.CostchartError, match=message):
        call(X, y)


@pytest.mark.parametrize(
    "sparse", [scipy.sparse.csr_matrix, scipy.sparse.coo_matrix, scipy.sparse.csc_array]
)
def test_sparse_X_scores_as_the_dense_one(problem, sparse):
    X, y = problem
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    dense = cc.predictions(LogisticRegression(), X, y, cv=cv)
    pd.testing.assert_frame_equal(
        cc.predictions(LogisticRegression(), sparse(X), y, cv=cv), dense, rtol=1e-6
    )
    fitted = LogisticRegression().fit(X, y)
    pd.testing.assert_frame_equal(
        cc.predictions(fitted, sparse(X), y), cc.predictions(fitted, X, y)
    )
    results = cross_validate(
        LogisticRegression(), X, y, cv=3, return_estimator=True, return_indices=True
    )
    from_results = cc.from_cv_results(results, sparse(X), y)
    pd.testing.assert_frame_equal(from_results, cc.from_cv_results(results, X, y))


def test_a_generator_of_splits_serves_every_estimator(problem):
    X, y = problem
    models = {"logistic": LogisticRegression(), "nb": GaussianNB()}
    from_generator = cc.predictions(models, X, y, cv=KFold(3).split(X))
    from_list = cc.predictions(models, X, y, cv=list(KFold(3).split(X)))
    assert from_generator.groupby("classifier").size().to_dict() == {"logistic": 240, "nb": 240}
    pd.testing.assert_frame_equal(from_generator, from_list)


def test_scorer_pos_label_not_a_class_is_named_in_grid_search(problem):
    # GridSearchCV turns a failing scorer into NaN with a warning: the warning names the fix.
    from sklearn.model_selection import GridSearchCV

    X, y = problem
    search = GridSearchCV(
        LogisticRegression(), {"C": [1.0]}, scoring=cc.expected_cost_scorer(pc=0.2, pos_label=7)
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, y)
    named = "pos_label=7 is not among the estimator's classes [0, 1]; pass expected_cost_scorer"
    assert any(named in str(w.message) for w in caught)
