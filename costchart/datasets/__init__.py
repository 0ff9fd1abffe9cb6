"""Example predictions bundled with costchart.

``predictions.csv`` holds five-fold cross-validated scores of three simple classifiers
(logistic regression, Gaussian naive Bayes, a depth-4 decision tree) on four public UCI
data sets (Dua & Graff, UCI Machine Learning Repository, CC BY 4.0): sonar (mines vs rocks;
positive class "M"), ionosphere (positive "g"), Pima Indians diabetes (positive
"tested_positive") and German credit (positive "good"). ``credit.csv`` adds each loan's
amount for instance-varying costs. ``gallery/make_predictions.py`` makes both.
"""

from __future__ import annotations

from importlib import resources

import pandas as pd

from costchart._io.frames import carry_grouping

__all__ = ["crossing_roc_curves", "load_credit", "load_predictions"]


def load_predictions() -> pd.DataFrame:
    """Cross-validated predictions of three classifiers on four data sets.

    Returns
    -------
    pandas.DataFrame
        One row per data set, classifier and instance: ``dataset`` (str), ``classifier``
        (str), ``fold`` (int, 0-4: the fold in which the instance was tested),
        ``instance`` (int, row of the original data set), ``label`` (int, 1 = positive
        class) and ``score`` (float, the predicted probability of the positive class).

    Examples
    --------
    >>> from costchart.datasets import load_predictions
    >>> data = load_predictions()
    >>> sorted(data["dataset"].unique())
    ['credit', 'diabetes', 'ionosphere', 'sonar']
    >>> data.groupby("dataset")["instance"].nunique().to_dict()
    {'credit': 1000, 'diabetes': 768, 'ionosphere': 351, 'sonar': 208}
    """
    source = resources.files(__package__) / "predictions.csv"
    with source.open("r", encoding="utf-8") as handle:
        return pd.read_csv(handle)


def load_credit() -> pd.DataFrame:
    """Cross-validated predictions on the German credit data, with each loan's amount.

    For instance-varying costs (:func:`costchart._roc.rociv`): three classifiers (logistic
    regression; the same trained with every loan weighted by its amount; a depth-4 tree),
    positive class "good".

    Returns
    -------
    pandas.DataFrame
        One row per classifier and loan: ``classifier``, ``fold``, ``instance``, ``label``
        (1 = good), ``score`` and ``amount`` (the credit amount, in Deutsche Mark).

    Examples
    --------
    >>> from costchart.datasets import load_credit
    >>> credit = load_credit()
    >>> credit.groupby("classifier").size().to_dict()
    {'logistic': 1000, 'logistic, amount-weighted': 1000, 'tree': 1000}
    """
    source = resources.files(__package__) / "credit.csv"
    with source.open("r", encoding="utf-8") as handle:
        return pd.read_csv(handle)


def crossing_roc_curves() -> pd.DataFrame:
    """Four made-up ROC curves, A to D, that cross: none is best everywhere.

    They tell the story of Provost and Fawcett's (1997) Figs. 1-3: A dominates D (lies
    above it at every false positive rate), and only A and C have points on the convex
    hull of the four, A at few false positives and C at many, so B and D are never
    optimal. The iso-performance line of slope 10 touches the hull at a point of A, the
    one of slope 1/10 at a point of C. The gallery's figures of that paper use them.

    Returns
    -------
    pandas.DataFrame
        One row per ROC point: ``classifier`` ("A" to "D"), ``threshold`` (decreasing
        along each curve), ``fpr``, ``tpr``; each curve runs from (0, 0) to (1, 1).

    Examples
    --------
    >>> import costchart as cc
    >>> from costchart.datasets import crossing_roc_curves
    >>> curves = crossing_roc_curves()
    >>> curves.groupby("classifier").size().to_dict()
    {'A': 8, 'B': 7, 'C': 8, 'D': 7}
    >>> hull = cc.roc_hull(curves[["fpr", "tpr"]], by=[])
    >>> inner = curves[(curves["fpr"] > 0) & (curves["fpr"] < 1)]
    >>> sorted(inner.merge(hull[["fpr", "tpr"]])["classifier"].unique())
    ['A', 'C']
    """
    curves = {
        "A": [(0.02, 0.4), (0.06, 0.58), (0.15, 0.66), (0.3, 0.74), (0.5, 0.82), (0.75, 0.91)],
        "B": [(0.05, 0.25), (0.12, 0.5), (0.2, 0.7), (0.35, 0.82), (0.6, 0.92)],
        "C": [(0.05, 0.15), (0.12, 0.38), (0.2, 0.62), (0.3, 0.9), (0.45, 0.98), (0.75, 0.985)],
        "D": [(0.04, 0.2), (0.1, 0.45), (0.25, 0.62), (0.5, 0.78), (0.8, 0.88)],
    }
    rows = [
        {"classifier": name, "threshold": float(len(curve) - k), "fpr": fpr, "tpr": tpr}
        for name, curve in curves.items()
        for k, (fpr, tpr) in enumerate([(0.0, 0.0), *curve, (1.0, 1.0)])
    ]
    # ROC points of the four classifiers, grouped by classifier as roc_points makes them.
    return carry_grouping(pd.DataFrame(rows), ["classifier"])
