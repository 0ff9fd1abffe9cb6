"""From costchart's choices back to scikit-learn models.

* :func:`threshold_classifier` -- the threshold a selection table picks at a ``pc``, as
  scikit-learn's ``FixedThresholdClassifier``;
* :func:`expected_cost_scorer` -- a scorer for ``GridSearchCV`` or
  ``TunedThresholdClassifierCV``: minus the normalized expected cost.

Both are re-exported by :mod:`costchart._sklearn`; scikit-learn is imported only when they
are called.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.exact import exact_number
from costchart._io.parameters import checked
from costchart._io.table_values import threshold_values
from costchart._io.tables import read_selection
from costchart._io.validation import one_of, probability
from costchart._roc.optimal import vertex_index
from costchart._sklearn.checks import (
    RESPONSE_METHODS,
    check_fitted_classifier,
    positive_class,
    require_sklearn,
)

__all__ = ["expected_cost_scorer", "threshold_classifier"]


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
    require_sklearn()
    from sklearn.model_selection import FixedThresholdClassifier

    one_of(response_method, "response_method", RESPONSE_METHODS)
    check_fitted_classifier(estimator, type(estimator).__name__, "estimator")
    classes = np.asarray(estimator.classes_).tolist()
    if pos_label is None:
        _, pos_label = positive_class(np.asarray(classes), None)
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
    # Exact: a whole number past 2**53 stays an int (float64 would round it).
    threshold = exact_number(threshold_values(table, "selection")[at])
    return FixedThresholdClassifier(
        estimator, threshold=threshold, pos_label=pos_label, response_method=response_method
    )


def _cost_at_pc(y_true, y_pred, *, pc: float, pos_label=None) -> float:
    """Normalized expected cost of crisp predictions at one ``pc``."""
    positive, label = positive_class(y_true, pos_label)
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
    from costchart._cost.envelope import lower_envelope
    from costchart._cost.expected import expected_cost
    from costchart._roc.points import roc_points

    positive, _ = positive_class(y_true, pos_label)
    scores = np.asarray(y_score, dtype=np.float64)
    if np.isnan(scores).any():
        msg = (
            f"the estimator gave NaN scores for {int(np.isnan(scores).sum())} of {len(scores)} "
            "rows, so expected_cost_scorer cannot score it (often a constant feature, or a "
            "smoothing or regularisation of 0): drop constant features or change the "
            "estimator's parameters (e.g. GaussianNB's var_smoothing)"
        )
        raise CostchartError(msg)
    points = roc_points({"s": scores, "y": positive}, score="s", label="y")
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
        ``GridSearchCV``. It does not depend on a threshold, so
        ``TunedThresholdClassifierCV`` refuses it.
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
    require_sklearn()
    from sklearn.metrics import make_scorer

    if pc is not None and density is not None:
        msg = "pass density= (a model's envelope over many pc) or pc= (one pc), not both"
        raise CostchartError(msg)
    if pc is not None:
        point = probability(pc, "pc")
        crisp = make_scorer(_cost_at_pc, greater_is_better=False, pc=point, pos_label=pos_label)
        return _CheckedScorer(crisp, pos_label, tunes=True)
    envelope_scorer = make_scorer(
        _envelope_cost,
        greater_is_better=False,
        response_method=("predict_proba", "decision_function"),
        density=density,
        pos_label=pos_label,
    )

    return _CheckedScorer(envelope_scorer, pos_label, tunes=False)


class _CheckedScorer:
    """A scikit-learn scorer that checks the estimator and ``pos_label`` before scoring.

    ``TunedThresholdClassifierCV`` rebuilds a scorer from ``_score_func``, ``_sign`` and
    ``_kwargs`` to score crisp predictions at each threshold: the ``pc`` scorer (``tunes``)
    hands over its own; the density scorer scores the scores themselves, whatever the
    threshold, so it cannot tune one, and its ``_score_func`` says so.
    """

    def __init__(self, scorer, pos_label, *, tunes: bool) -> None:
        self._scorer = scorer
        self._pos_label = pos_label
        self._tunes = tunes

    @property
    def _score_func(self):
        if not self._tunes:
            msg = (
                "expected_cost_scorer(density=...) scores a model's scores over every pc, "
                "whatever its threshold, so it cannot tune a threshold; pass "
                "expected_cost_scorer(pc=...) (the pc to be cheapest at) to "
                "TunedThresholdClassifierCV, or use this one to compare models (GridSearchCV)"
            )
            raise CostchartError(msg)
        return self._scorer._score_func

    @property
    def _sign(self):
        return self._scorer._sign

    @property
    def _kwargs(self):
        return self._scorer._kwargs

    def get_metadata_routing(self):
        return self._scorer.get_metadata_routing()

    def __repr__(self) -> str:
        return repr(self._scorer)

    def __call__(self, estimator, X, y_true, **kwargs):
        scores = hasattr(estimator, "predict_proba") or hasattr(estimator, "decision_function")
        if not (self._tunes or scores):
            msg = (
                f"expected_cost_scorer scores the scores of a classifier, but "
                f"{type(estimator).__name__} has neither predict_proba nor decision_function"
            )
            raise CostchartError(msg)
        classes = np.asarray(getattr(estimator, "classes_", [])).tolist()
        if self._pos_label is not None and classes and self._pos_label not in classes:
            msg = (
                f"pos_label={self._pos_label!r} is not among the estimator's classes "
                f"{classes}; pass expected_cost_scorer(pos_label=) one of them"
            )
            raise CostchartError(msg)
        return self._scorer(estimator, X, y_true, **kwargs)
