"""From scikit-learn estimators to costchart's tables, and from its choices back to models.

* :func:`predictions` -- scores of one or several estimators, cross-validated or not, as
  the long table every costchart transformer reads;
* :func:`from_cv_results` -- the same from ``cross_validate(..., return_estimator=True,
  return_indices=True)``;
* :func:`threshold_classifier` -- the threshold a selection table picks at a ``pc``, as
  scikit-learn's ``FixedThresholdClassifier`` ("positive when score >= threshold", as
  :func:`roc_points` counts);
* :func:`expected_cost_scorer` -- a scorer for ``GridSearchCV`` or
  ``TunedThresholdClassifierCV``: minus the normalized expected cost.

scikit-learn is imported only when these are called; it is not a dependency of costchart.
The last two are defined in :mod:`costchart._sklearn.models`, the checks of labels,
estimators and splits in :mod:`costchart._sklearn.checks`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from costchart._io.errors import CostchartError
from costchart._io.parameters import checked
from costchart._io.validation import one_of
from costchart._sklearn.checks import (
    RESPONSE_METHODS,
    check_cv,
    check_features,
    check_fitted_classifier,
    cv_splits,
    fit_fold,
    n_rows,
    named_estimators,
    positive_class,
    read_once,
    require_sklearn,
    rows_of,
    scores_of,
)
from costchart._sklearn.models import expected_cost_scorer, threshold_classifier

__all__ = ["expected_cost_scorer", "from_cv_results", "predictions", "threshold_classifier"]


@checked
def predictions(
    estimators,
    X,
    y,
    *,
    cv=None,
    groups=None,
    pos_label=None,
    response_method: str = "auto",
) -> pd.DataFrame:
    """Scores of scikit-learn estimators as costchart's long table of predictions.

    Parameters
    ----------
    estimators : estimator or dict of str to estimator
        Classifiers; a single one is named after its class.
    X, y : array-like
        Features and the two-class labels, one row per instance.
    cv : int, cross-validation generator or iterable, optional
        With ``cv``, each estimator is cloned, fitted on every training split and scores
        its test split (as ``cross_val_predict``; an int means stratified folds). Without
        it, the estimators must be fitted already and score ``X`` (a test set).
    groups : array-like, optional
        Group labels for a group-aware splitter (``GroupKFold`` ...).
    pos_label : optional
        The positive class; by default 1 (or True) when ``y`` is 0/1, -1/1 or boolean.
    response_method : {"auto", "predict_proba", "decision_function"}
        Where the score comes from; "auto" tries ``predict_proba`` then
        ``decision_function``. The positive class's probability, or the decision function
        signed so that higher means positive.

    Returns
    -------
    pandas.DataFrame
        ``classifier`` (str), ``fold`` (int: the test fold; 0 without ``cv``), ``instance``
        (int: the row of ``X``), ``score`` (float64), ``label`` (int: 1 for the positive
        class, else 0), one row per estimator and instance.

    Examples
    --------
    >>> import costchart as cc
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> data = cc.predictions({"logistic": LogisticRegression()}, X, y, cv=5)
    >>> data.groupby("fold").size().tolist()
    [40, 40, 40, 40, 40]
    >>> points = cc.roc_points(data, score="score", label="label", by=["classifier", "fold"])
    """
    require_sklearn()
    one_of(response_method, "response_method", RESPONSE_METHODS)
    named = named_estimators(estimators)
    positive, pos_label = positive_class(y, pos_label)
    n = len(positive)
    if n_rows(X) != n:
        msg = f"X has {n_rows(X)} rows and y {n}; pass one label per row of X"
        raise CostchartError(msg)
    check_features(X)
    cv = read_once(cv)  # a generator of splits is read once, for every estimator
    if cv is None:
        for name, estimator in named.items():
            check_fitted_classifier(
                estimator, name, f"estimators[{name!r}]", hint=", or pass cv= to fit it on folds"
            )
    else:
        check_cv(cv, n)
    labels = np.asarray(y)
    tables = []
    for name, estimator in named.items():
        if cv is None:
            splits = [(np.arange(0), np.arange(n))]
        else:
            splits = cv_splits(cv, X, y, groups, estimator)
        for fold, (train, test) in enumerate(splits):
            if cv is None:
                fitted = estimator
            else:
                fitted = fit_fold(estimator, name, fold, rows_of(X, train), labels[train])
            scores = scores_of(fitted, rows_of(X, test), pos_label, response_method, name)
            tables.append(
                pd.DataFrame(
                    {
                        "classifier": name,
                        "fold": np.full(len(test), fold, dtype=np.int64),
                        "instance": np.asarray(test, dtype=np.int64),
                        "score": scores,
                        "label": positive[test].astype(np.int64),
                    }
                )
            )
    return pd.concat(tables, ignore_index=True)


@checked
def from_cv_results(
    cv_results: Mapping,
    X,
    y,
    *,
    estimator_name: str | None = None,
    pos_label=None,
    response_method: str = "auto",
) -> pd.DataFrame:
    """:func:`predictions` from ``cross_validate(..., return_estimator=True, return_indices=True)``.

    Each fold's fitted estimator scores its own test indices; the table is that of
    :func:`predictions` with ``cv``. ``estimator_name`` names the classifier (by default the
    estimators' class).

    Examples
    --------
    >>> import costchart as cc
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_validate
    >>> X, y = make_classification(n_samples=120, random_state=1)
    >>> results = cross_validate(LogisticRegression(), X, y, cv=3,
    ...                          return_estimator=True, return_indices=True)
    >>> cc.from_cv_results(results, X, y).shape
    (120, 5)
    """
    require_sklearn()
    one_of(response_method, "response_method", RESPONSE_METHODS)
    if not isinstance(cv_results, Mapping) or "estimator" not in cv_results:
        msg = (
            "cv_results must be the dict cross_validate returns with return_estimator=True "
            "and return_indices=True"
        )
        raise CostchartError(msg)
    indices = cv_results.get("indices")
    if not isinstance(indices, Mapping) or "test" not in indices:
        msg = "cv_results has no test indices; call cross_validate with return_indices=True"
        raise CostchartError(msg)
    positive, pos_label = positive_class(y, pos_label)
    entries = {"estimator": cv_results["estimator"], "indices']['test": indices["test"]}
    for key, given in entries.items():
        if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, Iterable):
            msg = (
                f"cv_results['{key}'] is of type {type(given).__name__}, not a list (one entry per "
                "fold); pass the dict cross_validate returned, unchanged"
            )
            raise CostchartError(msg)
    fitted_models, tests = list(cv_results["estimator"]), list(indices["test"])
    if len(fitted_models) != len(tests):
        msg = (
            f"cv_results has {len(fitted_models)} estimators for {len(tests)} test folds; "
            "pass the dict cross_validate returned, unchanged"
        )
        raise CostchartError(msg)
    n = n_rows(X)
    if n != len(positive):
        msg = f"X has {n} rows and y {len(positive)}; pass the X and y cross_validate got"
        raise CostchartError(msg)
    for fold, (fitted, test) in enumerate(zip(fitted_models, tests, strict=True)):
        check_fitted_classifier(fitted, type(fitted).__name__, f"cv_results['estimator'][{fold}]")
        test = np.asarray(test)
        if test.ndim != 1:
            msg = (
                f"cv_results['indices']['test'][{fold}] is {test.tolist()!r}, not a list of row "
                "positions; pass the dict cross_validate returned, unchanged"
            )
            raise CostchartError(msg)
        if test.size and (
            not np.issubdtype(test.dtype, np.integer) or test.min() < 0 or test.max() >= n
        ):
            msg = (
                f"cv_results' test indices of fold {fold} run outside the rows of X "
                f"(0 to {n - 1}); pass the X and y cross_validate got"
            )
            raise CostchartError(msg)
    tested = np.concatenate([np.asarray(test) for test in tests]) if tests else np.zeros(0, int)
    twice = pd.Index(tested)[pd.Index(tested).duplicated()].unique()
    if len(twice):
        msg = (
            f"cv_results' test folds overlap: {len(twice)} rows (e.g. row {twice[0]}) are "
            "tested in more than one fold, so they would be scored twice; pass the results "
            "of a cross_validate whose test folds do not overlap (KFold, StratifiedKFold ...)"
        )
        raise CostchartError(msg)
    tables = []
    for fold, (fitted, test) in enumerate(zip(fitted_models, tests, strict=True)):
        test = np.asarray(test, dtype=np.int64)
        name = estimator_name or type(fitted).__name__
        tables.append(
            pd.DataFrame(
                {
                    "classifier": name,
                    "fold": np.full(len(test), fold, dtype=np.int64),
                    "instance": test,
                    "score": scores_of(fitted, rows_of(X, test), pos_label, response_method, name),
                    "label": positive[test].astype(np.int64),
                }
            )
        )
    return pd.concat(tables, ignore_index=True)
