"""Checks of what the scikit-learn bridge is given, and the scores estimators give.

Labels and the positive class, estimators (named, fitted, two-class), cross-validation
splits and folds, and each estimator's score for the positive class; scikit-learn's own
errors become :class:`CostchartError` naming the argument and the fix. Used by
:mod:`costchart._sklearn` and :mod:`costchart._sklearn.models`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

import numpy as np
import pandas as pd

from costchart._io.errors import CostchartError

# The response methods a score can come from, declared with the other words.
from costchart._io.parameters import RESPONSE_METHODS as RESPONSE_METHODS


def require_sklearn() -> None:
    """scikit-learn, or a CostchartError saying how to install it."""
    try:
        import sklearn  # noqa: F401
    except ImportError:  # pragma: no cover - sklearn is in the test and docs extras
        msg = "this needs scikit-learn: pip install scikit-learn"
        raise CostchartError(msg) from None


def positive_class(y, pos_label) -> tuple[np.ndarray, object]:
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


def n_rows(X) -> int:
    """How many rows ``X`` has: arrays, frames, lists and scipy sparse matrices alike."""
    from sklearn.utils.validation import _num_samples

    try:
        return int(_num_samples(X))
    except TypeError as error:
        msg = f"X is a {type(X).__name__} ({_first_line(error)}); pass an array or a table"
        raise CostchartError(msg) from None


def scores_of(estimator, X, pos_label, response_method: str, name: str = "") -> np.ndarray:
    """The estimator's score for the positive class of every row of ``X``, none NaN."""
    scores = _raw_scores(estimator, X, pos_label, response_method)
    missing = np.isnan(scores)
    if missing.any():
        called = name or type(estimator).__name__
        msg = (
            f"estimator {called!r} ({type(estimator).__name__}) gave NaN scores for "
            f"{int(missing.sum())} of {len(scores)} rows; it cannot score them (often a "
            "constant feature, or a smoothing or regularisation of 0): drop constant "
            "features or change the estimator's parameters (e.g. GaussianNB's var_smoothing)"
        )
        raise CostchartError(msg)
    return scores


def _raw_scores(estimator, X, pos_label, response_method: str) -> np.ndarray:
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


def named_estimators(estimators) -> dict[str, object]:
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


def check_fitted_classifier(estimator, name: str, argument: str, *, hint: str = "") -> None:
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
    if isinstance(cv, Iterator):
        return "<generator of splits>"
    text = repr(cv)
    return text if len(text) <= 80 else f"<{type(cv).__name__}>"


def check_cv(cv, n: int) -> None:
    """``cv`` an int of folds in [2, n], a splitter, or an iterable of splits."""
    if isinstance(cv, bool) or isinstance(cv, (str, bytes, float)):
        msg = f"cv={cv!r} must be a number of folds (at least 2), a splitter or a list of splits"
        raise CostchartError(msg)
    if isinstance(cv, (int, np.integer)) and not 2 <= cv <= n:
        msg = f"cv={cv!r} must be a number of folds from 2 to the number of rows ({n})"
        raise CostchartError(msg)


def read_once(cv):
    """``cv`` with an iterable of splits (a generator ...) read into a list, else as given."""
    if cv is None or isinstance(cv, (str, bytes, Mapping)) or hasattr(cv, "split"):
        return cv
    if not isinstance(cv, Iterable) or isinstance(cv, (list, tuple)):
        return cv
    try:
        return list(cv)
    except (ValueError, TypeError) as error:
        hint = (
            "pass groups= (the group of each row) to the splitter's split()"
            if "groups" in str(error)
            else "pass a number of folds, a scikit-learn splitter or a list of (train, test)"
        )
        msg = f"cv={_cv_name(cv)} cannot split the data: {_first_line(error)} {hint}"
        raise CostchartError(msg) from None


def cv_splits(cv, X, y, groups, estimator) -> list:
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


def fit_fold(estimator, name: str, fold: int, X, y):
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


def check_features(X) -> None:
    columns = getattr(X, "columns", None)
    if columns is not None and pd.Index(columns).duplicated().any():
        twice = pd.Index(columns)[pd.Index(columns).duplicated()][0]
        msg = f"X names column {twice!r} twice; give every feature its own name"
        raise CostchartError(msg)


def rows_of(X, index):
    """Rows ``index`` of a numpy array, pandas frame or other indexable ``X``."""
    if hasattr(X, "iloc"):  # pandas
        return X.iloc[index]
    if getattr(X, "format", None) == "coo" and hasattr(X, "tocsr"):
        return X.tocsr()[index]  # scipy's coo_matrix takes no row index
    if hasattr(X, "shape"):  # numpy arrays and scipy sparse matrices
        return X[index]
    return np.asarray(X)[index]  # lists
