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
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from costchart import _schema as col
from costchart._errors import CostchartError
from costchart._optimal import vertex_index
from costchart._parameters import RESPONSE_METHODS, checked
from costchart._tables import read_selection
from costchart._validation import one_of, probability

__all__ = ["expected_cost_scorer", "from_cv_results", "predictions", "threshold_classifier"]

#: The response methods a score can come from.


def _sklearn():
    try:
        import sklearn  # noqa: F401
    except ImportError:  # pragma: no cover - sklearn is in the test and docs extras
        msg = "this needs scikit-learn: pip install scikit-learn"
        raise CostchartError(msg) from None


def _positive(y, pos_label) -> tuple[np.ndarray, object]:
    """Which of ``y`` are positive (bool), and the positive class."""
    values = np.asarray(y)
    if values.ndim != 1:
        msg = f"y must be one label per instance (1-D); got shape {values.shape}"
        raise CostchartError(msg)
    classes = pd.unique(values)
    if len(classes) != 2:
        msg = f"y has {len(classes)} classes ({classes.tolist()[:5]}); costchart needs two"
        raise CostchartError(msg)
    if pos_label is None:
        known = {frozenset({0, 1}), frozenset({-1, 1}), frozenset({False, True})}
        if frozenset(classes.tolist()) not in known:
            msg = (
                f"y's classes are {sorted(map(str, classes))}; pass pos_label= the positive "
                "class (only 0/1, -1/1 and False/True default to 1 / True)"
            )
            raise CostchartError(msg)
        pos_label = True if values.dtype == bool else 1
    elif pos_label not in set(classes.tolist()):
        msg = f"pos_label={pos_label!r} is not a class of y ({classes.tolist()})"
        raise CostchartError(msg)
    return values == pos_label, pos_label


def _scores(estimator, X, pos_label, response_method: str) -> np.ndarray:
    """The estimator's score for the positive class of every row of ``X``."""
    methods = (
        ("predict_proba", "decision_function") if response_method == "auto" else (response_method,)
    )
    for method in methods:
        if hasattr(estimator, method):
            try:
                output = np.asarray(getattr(estimator, method)(X))
            except (ValueError, TypeError) as error:
                hint = _fix_for(error, "check that X has the features the estimator was fitted on")
                msg = (
                    f"{type(estimator).__name__}.{method} failed on X: {_first_line(error)}; {hint}"
                )
                raise CostchartError(msg) from None
            classes = np.asarray(estimator.classes_).tolist()
            if pos_label not in classes:
                msg = f"pos_label={pos_label!r} is not among the estimator's classes {classes}"
                raise CostchartError(msg)
            if method == "predict_proba":
                return output[:, classes.index(pos_label)].astype(np.float64)
            # decision_function scores the second class; flip it for the first.
            sign = 1.0 if classes.index(pos_label) == 1 else -1.0
            return sign * output.astype(np.float64)
    msg = (
        f"{type(estimator).__name__} has no {' or '.join(methods)}; pass an estimator that "
        "scores (a classifier with predict_proba or decision_function)"
    )
    raise CostchartError(msg)


def _named(estimators) -> dict[str, object]:
    """``estimators`` as a dict of name to estimator, each an estimator."""
    if isinstance(estimators, Mapping):
        if not estimators:
            msg = "estimators={} is empty; pass one estimator or a dict of name to estimator"
            raise CostchartError(msg)
        named = {str(name): estimator for name, estimator in estimators.items()}
        if len(named) < len(estimators):
            msg = (
                f"estimators has names that read alike as text ({list(estimators)}); give "
                "each estimator its own name"
            )
            raise CostchartError(msg)
    elif isinstance(estimators, (list, tuple)):
        msg = (
            f"estimators is a {type(estimators).__name__}; pass one estimator or a dict of "
            "name to estimator, e.g. {'logistic': LogisticRegression(), 'tree': ...}"
        )
        raise CostchartError(msg)
    else:
        named = {type(estimators).__name__: estimators}
    for name, estimator in named.items():
        if not (hasattr(estimator, "fit") and hasattr(estimator, "get_params")):
            msg = (
                f"estimators[{name!r}] is a {type(estimator).__name__}, not a scikit-learn "
                "estimator; pass classifiers such as LogisticRegression()"
            )
            raise CostchartError(msg)
    return named


def _check_fitted_classifier(estimator, name: str, argument: str, *, hint: str = "") -> None:
    """A fitted two-class classifier, or a CostchartError naming ``argument``."""
    from sklearn.base import is_classifier
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    if not (hasattr(estimator, "fit") and hasattr(estimator, "get_params")):
        msg = (
            f"{argument} is a {type(estimator).__name__}, not a scikit-learn estimator; pass "
            "a fitted classifier"
        )
        raise CostchartError(msg)
    if not is_classifier(estimator):
        msg = (
            f"{argument} ({name}) is not a classifier; pass a classifier with predict_proba "
            "or decision_function"
        )
        raise CostchartError(msg)
    try:
        check_is_fitted(estimator)
    except NotFittedError:
        msg = f"{argument} ({name}) is not fitted; fit it first{hint}"
        raise CostchartError(msg) from None
    classes = getattr(estimator, "classes_", None)
    if classes is not None and len(classes) != 2:
        msg = (
            f"{argument} ({name}) was fitted on {len(classes)} classes "
            f"({np.asarray(classes).tolist()[:5]}); costchart needs a two-class classifier"
        )
        raise CostchartError(msg)


def _fix_for(error: BaseException, otherwise: str) -> str:
    """What to do about scikit-learn's ``error``: impute for NaN in X, else ``otherwise``."""
    if "NaN" in str(error):
        return "impute missing values first (e.g. SimpleImputer in a pipeline)"
    return otherwise


def _first_line(error: BaseException) -> str:
    """scikit-learn's message up to its first line (its advice runs on for lines)."""
    text = str(error).strip().splitlines()
    return text[0].rstrip(".;") + "." if text else type(error).__name__


def _cv_name(cv) -> str:
    """``cv`` as an error message shows it: short, even for a list of index arrays."""
    if isinstance(cv, (list, tuple)):
        return f"<{type(cv).__name__} of {len(cv)} splits>"
    text = repr(cv)
    return text if len(text) <= 80 else f"<{type(cv).__name__}>"


def _check_cv(cv, n: int) -> None:
    """``cv`` an int of folds in [2, n], a splitter, or an iterable of splits."""
    if isinstance(cv, bool) or isinstance(cv, (str, bytes, float)):
        msg = f"cv={cv!r} must be a number of folds (at least 2), a splitter or a list of splits"
        raise CostchartError(msg)
    if isinstance(cv, (int, np.integer)) and not 2 <= cv <= n:
        msg = f"cv={cv!r} must be a number of folds from 2 to the number of rows ({n})"
        raise CostchartError(msg)


def _splits(cv, X, y, groups, estimator) -> list:
    """The (train, test) splits of ``cv``, checked: test folds do not overlap."""
    from sklearn.base import is_classifier
    from sklearn.model_selection import check_cv

    try:
        splitter = check_cv(cv, np.asarray(y), classifier=is_classifier(estimator))
        splits = [(np.asarray(a), np.asarray(b)) for a, b in splitter.split(X, y, groups)]
    except (ValueError, TypeError) as error:
        hint = (
            "pass groups= (the group of each row) for a group splitter"
            if "groups" in str(error)
            else "pass a number of folds, a scikit-learn splitter or a list of (train, test)"
        )
        msg = f"cv={_cv_name(cv)} cannot split the data: {_first_line(error)} {hint}"
        raise CostchartError(msg) from None
    n = len(y)
    for train, test in splits:
        for part in (train, test):
            integer = np.issubdtype(part.dtype, np.integer) or part.size == 0
            if not integer or (part.size and (part.min() < 0 or part.max() >= n)):
                msg = (
                    f"cv={_cv_name(cv)} gives row indices that are not whole numbers from 0 "
                    f"to {n - 1}; pass (train, test) pairs of row positions of X"
                )
                raise CostchartError(msg)
    tested = np.concatenate([test for _, test in splits]) if splits else np.zeros(0, int)
    if len(np.unique(tested)) != len(tested):
        msg = (
            f"cv={_cv_name(cv)} tests some rows in more than one fold; pass splits whose test "
            "folds do not overlap (as cross_val_predict requires)"
        )
        raise CostchartError(msg)
    return splits


def _fit(estimator, name: str, fold: int, X, y):
    """A clone of ``estimator`` fitted on one training fold, or a clear error."""
    from sklearn.base import clone

    if len(pd.unique(np.asarray(y))) < 2:
        msg = (
            f"training fold {fold} holds one class only, so {name} cannot learn; use "
            "stratified folds (cv=<int> is stratified) or fewer folds"
        )
        raise CostchartError(msg)
    try:
        return clone(estimator).fit(X, y)
    except (ValueError, TypeError) as error:
        hint = _fix_for(error, "check X and the estimator's parameters")
        msg = f"estimator {name!r} failed to fit training fold {fold}: {_first_line(error)}; {hint}"
        raise CostchartError(msg) from None


def _check_features(X) -> None:
    columns = getattr(X, "columns", None)
    if columns is not None and pd.Index(columns).duplicated().any():
        twice = pd.Index(columns)[pd.Index(columns).duplicated()][0]
        msg = f"X names column {twice!r} twice; give every feature its own name"
        raise CostchartError(msg)


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
    _sklearn()
    one_of(response_method, "response_method", RESPONSE_METHODS)
    named = _named(estimators)
    positive, pos_label = _positive(y, pos_label)
    n = len(positive)
    if len(X) != n:
        msg = f"X has {len(X)} rows and y {n}; pass one label per row of X"
        raise CostchartError(msg)
    _check_features(X)
    if cv is None:
        for name, estimator in named.items():
            _check_fitted_classifier(
                estimator, name, f"estimators[{name!r}]", hint=", or pass cv= to fit it on folds"
            )
    else:
        _check_cv(cv, n)
    labels = np.asarray(y)
    tables = []
    for name, estimator in named.items():
        if cv is None:
            splits = [(np.arange(0), np.arange(n))]
        else:
            splits = _splits(cv, X, y, groups, estimator)
        for fold, (train, test) in enumerate(splits):
            if cv is None:
                fitted = estimator
            else:
                fitted = _fit(estimator, name, fold, _rows(X, train), labels[train])
            scores = _scores(fitted, _rows(X, test), pos_label, response_method)
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


def _rows(X, index):
    """Rows ``index`` of a numpy array, pandas frame or other indexable ``X``."""
    if hasattr(X, "iloc"):  # pandas
        return X.iloc[index]
    if hasattr(X, "shape"):  # numpy arrays and scipy sparse matrices
        return X[index]
    return np.asarray(X)[index]  # lists


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
    _sklearn()
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
    positive, pos_label = _positive(y, pos_label)
    fitted_models, tests = list(cv_results["estimator"]), list(indices["test"])
    if len(fitted_models) != len(tests):
        msg = (
            f"cv_results has {len(fitted_models)} estimators for {len(tests)} test folds; "
            "pass the dict cross_validate returned, unchanged"
        )
        raise CostchartError(msg)
    if len(X) != len(positive):
        msg = f"X has {len(X)} rows and y {len(positive)}; pass the X and y cross_validate got"
        raise CostchartError(msg)
    for fold, (fitted, test) in enumerate(zip(fitted_models, tests, strict=True)):
        _check_fitted_classifier(fitted, type(fitted).__name__, f"cv_results['estimator'][{fold}]")
        test = np.asarray(test)
        if test.size and (
            not np.issubdtype(test.dtype, np.integer) or test.min() < 0 or test.max() >= len(X)
        ):
            msg = (
                f"cv_results' test indices of fold {fold} run outside the rows of X "
                f"(0 to {len(X) - 1}); pass the X and y cross_validate got"
            )
            raise CostchartError(msg)
    tables = []
    for fold, (fitted, test) in enumerate(zip(fitted_models, tests, strict=True)):
        test = np.asarray(test, dtype=np.int64)
        tables.append(
            pd.DataFrame(
                {
                    "classifier": estimator_name or type(fitted).__name__,
                    "fold": np.full(len(test), fold, dtype=np.int64),
                    "instance": test,
                    "score": _scores(fitted, _rows(X, test), pos_label, response_method),
                    "label": positive[test].astype(np.int64),
                }
            )
        )
    return pd.concat(tables, ignore_index=True)


@checked
def threshold_classifier(
    estimator, selection, *, pc: float, pos_label=None, response_method: str = "auto"
):
    """The threshold ``selection`` picks at ``pc``, as a ``FixedThresholdClassifier``.

    Parameters
    ----------
    estimator : classifier
        A fitted two-class classifier.
    selection : table
        One group of :func:`selection_table` (``pc_lo``, ``pc_hi``, ``threshold``), made
        from scores of the same ``response_method`` (e.g. via :func:`predictions`).
    pc : float
        The operating condition, in [0, 1]; the interval ``pc_lo <= pc < pc_hi`` holding
        it (the last one also holds 1) gives the threshold.
    pos_label, response_method
        As in :func:`predictions` (``pos_label`` must be one of the estimator's classes);
        passed to the classifier.

    Returns
    -------
    sklearn.model_selection.FixedThresholdClassifier
        Predicts the positive class when the score is at least the threshold (``+inf``:
        never, ``-inf``: always), as :func:`roc_points` counts.

    Examples
    --------
    >>> import costchart as cc
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = make_classification(n_samples=300, random_state=2)
    >>> model = LogisticRegression().fit(X[:200], y[:200])
    >>> scores = cc.predictions({"m": model}, X[:200], y[:200])
    >>> selection = cc.selection_table(cc.roc_points(scores, score="score", label="label",
    ...                                              by="classifier").drop(columns="classifier"))
    >>> deployed = cc.threshold_classifier(model, selection, pc=0.3)
    >>> deployed.predict(X[200:]).shape
    (100,)
    """
    _sklearn()
    from sklearn.model_selection import FixedThresholdClassifier

    one_of(response_method, "response_method", RESPONSE_METHODS)
    _check_fitted_classifier(estimator, type(estimator).__name__, "estimator")
    classes = np.asarray(estimator.classes_).tolist()
    if pos_label is None:
        _, pos_label = _positive(np.asarray(classes), None)
    elif pos_label not in classes:
        msg = f"pos_label={pos_label!r} is not among the estimator's classes {classes}"
        raise CostchartError(msg)
    point = probability(pc, "pc")
    table, by, groups = read_selection(selection, None)
    if len(groups) != 1:
        msg = (
            f"selection holds {len(groups)} groups (grouping columns {by}); pass the rows of "
            "the one classifier to deploy"
        )
        raise CostchartError(msg)
    starts = table[col.PC_LO].to_numpy(np.float64)
    order = np.argsort(starts, kind="stable")
    at = order[vertex_index(starts[order], np.asarray(point))]
    threshold = float(table[col.THRESHOLD].to_numpy(np.float64)[at])
    return FixedThresholdClassifier(
        estimator, threshold=threshold, pos_label=pos_label, response_method=response_method
    )


def _cost_at_pc(y_true, y_pred, *, pc: float, pos_label=None) -> float:
    """Normalized expected cost of crisp predictions at one ``pc``."""
    positive, label = _positive(y_true, pos_label)
    outside = ~pd.Series(np.asarray(y_pred)).isin(pd.unique(np.asarray(y_true))).to_numpy()
    if outside.any():
        msg = (
            f"the estimator predicted {np.asarray(y_pred)[outside][0]!r}, not a class of y; "
            "expected_cost_scorer scores a classifier (with predict_proba or "
            "decision_function), not a regressor"
        )
        raise CostchartError(msg)
    predicted = np.asarray(y_pred) == label
    fnr = float(np.mean(~predicted[positive]))
    fpr = float(np.mean(predicted[~positive]))
    return pc * fnr + (1 - pc) * fpr


def _envelope_cost(y_true, y_score, *, density=None, pos_label=None) -> float:
    """Expected cost of the scores' lower envelope over ``density`` (uniform by default)."""
    from costchart._envelope import lower_envelope
    from costchart._expected import expected_cost
    from costchart._roc import roc_points

    positive, _ = _positive(y_true, pos_label)
    points = roc_points(
        {"s": np.asarray(y_score, dtype=np.float64), "y": positive}, score="s", label="y"
    )
    envelope = lower_envelope(points)
    return float(expected_cost(envelope, density=density)[col.EXPECTED_COST].iat[0])


@checked
def expected_cost_scorer(*, density=None, pc: float | None = None, pos_label=None):
    """A scikit-learn scorer: minus the normalized expected cost (greater is better).

    Parameters
    ----------
    density : scipy.stats frozen distribution or callable, optional
        Score a model by the expected cost of its best threshold at every ``pc``: the area
        under the lower envelope of its scores' cost lines, weighted by ``density`` (as
        :func:`expected_cost`; uniform when neither this nor ``pc`` is given). It reads
        ``predict_proba`` or ``decision_function``: use it to compare models, e.g. in
        ``GridSearchCV``.
    pc : float, optional
        Score crisp predictions by their cost at one operating condition,
        ``pc * FNR + (1 - pc) * FPR``: for ``TunedThresholdClassifierCV(scoring=...)``,
        which then picks the threshold that is cheapest at ``pc``.
    pos_label : optional
        The positive class, as in :func:`predictions`.

    Returns
    -------
    callable
        A scorer ``scorer(estimator, X, y)``.

    Examples
    --------
    >>> import costchart as cc
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import TunedThresholdClassifierCV
    >>> X, y = make_classification(n_samples=300, random_state=3)
    >>> tuned = TunedThresholdClassifierCV(
    ...     LogisticRegression(), scoring=cc.expected_cost_scorer(pc=0.2), cv=3
    ... ).fit(X, y)
    >>> bool(tuned.best_score_ <= 0)
    True
    """
    _sklearn()
    from sklearn.metrics import make_scorer

    if pc is not None and density is not None:
        msg = "pass density= (a model's envelope over many pc) or pc= (one pc), not both"
        raise CostchartError(msg)
    if pc is not None:
        point = probability(pc, "pc")
        return make_scorer(_cost_at_pc, greater_is_better=False, pc=point, pos_label=pos_label)
    envelope_scorer = make_scorer(
        _envelope_cost,
        greater_is_better=False,
        response_method=("predict_proba", "decision_function"),
        density=density,
        pos_label=pos_label,
    )

    def scorer(estimator, X, y_true, **kwargs):
        if not (hasattr(estimator, "predict_proba") or hasattr(estimator, "decision_function")):
            msg = (
                f"expected_cost_scorer scores the scores of a classifier, but "
                f"{type(estimator).__name__} has neither predict_proba nor decision_function"
            )
            raise CostchartError(msg)
        classes = np.asarray(getattr(estimator, "classes_", [])).tolist()
        if pos_label is not None and classes and pos_label not in classes:
            msg = f"pos_label={pos_label!r} is not among the estimator's classes {classes}"
            raise CostchartError(msg)
        return envelope_scorer(estimator, X, y_true, **kwargs)

    return scorer
