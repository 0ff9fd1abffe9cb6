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

__all__ = ["load_credit", "load_predictions"]


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

    For instance-varying costs (:func:`costchart.rociv`): three classifiers (logistic
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
