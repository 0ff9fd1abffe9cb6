"""Example predictions bundled with costchart.

``predictions.csv`` holds five-fold cross-validated scores of three simple classifiers
(logistic regression, Gaussian naive Bayes, a depth-4 decision tree) on four public UCI
data sets (Dua & Graff, UCI Machine Learning Repository, CC BY 4.0): sonar (mines vs rocks;
positive class "M"), ionosphere (positive "g"), Pima Indians diabetes (positive
"tested_positive") and German credit (positive "good"). ``gallery/make_predictions.py``
makes it.
"""

from __future__ import annotations

from importlib import resources

import pandas as pd

__all__ = ["load_predictions"]


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
