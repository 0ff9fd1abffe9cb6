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

from costchart._frames import carry_grouping

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

    For instance-varying costs (:func:`costchart._rociv`): three classifiers (logistic
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

    A is best at few false positives, B in the middle, D at many, and C is never on the
    convex hull of the four (it is beaten everywhere by a hull vertex or a mix of two).
    The gallery's figures of the ROC convex hull paper use them.

    Returns
    -------
    pandas.DataFrame
        One row per ROC point: ``classifier`` ("A" to "D"), ``threshold`` (decreasing
        along each curve), ``fpr``, ``tpr``; each curve runs from (0, 0) to (1, 1).

    Examples
    --------
    >>> from costchart.datasets import crossing_roc_curves
    >>> curves = crossing_roc_curves()
    >>> curves.groupby("classifier").size().to_dict()
    {'A': 7, 'B': 7, 'C': 7, 'D': 7}
    """
    curves = {
        "A": [(0.03, 0.35), (0.08, 0.55), (0.2, 0.66), (0.4, 0.76), (0.7, 0.87)],
        "B": [(0.05, 0.22), (0.15, 0.6), (0.25, 0.78), (0.4, 0.86), (0.7, 0.93)],
        "C": [(0.1, 0.3), (0.2, 0.52), (0.35, 0.7), (0.5, 0.8), (0.8, 0.92)],
        "D": [(0.1, 0.14), (0.3, 0.5), (0.45, 0.88), (0.6, 0.97), (0.8, 0.99)],
    }
    rows = [
        {"classifier": name, "threshold": float(len(curve) - k), "fpr": fpr, "tpr": tpr}
        for name, curve in curves.items()
        for k, (fpr, tpr) in enumerate([(0.0, 0.0), *curve, (1.0, 1.0)])
    ]
    # ROC points of the four classifiers, grouped by classifier as roc_points makes them.
    return carry_grouping(pd.DataFrame(rows), ["classifier"])
