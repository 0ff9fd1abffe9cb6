"""Make the example predictions bundled in costchart/datasets/predictions.csv.

Three simple models (logistic regression, Gaussian naive Bayes, a shallow decision tree),
five-fold stratified cross-validation, on four public UCI data sets copied in
gallery/data/. Needs scikit-learn (a development dependency only):

    python gallery/make_predictions.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.tree import DecisionTreeClassifier

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "costchart" / "datasets" / "predictions.csv"
CREDIT_OUT = HERE.parent / "costchart" / "datasets" / "credit.csv"

# data set -> (file, class column, positive class), as listed in gallery/data/SOURCES.md
DATASETS = {
    "sonar": ("sonar.csv", "Class", "M"),
    "ionosphere": ("ionosphere.csv", "class", "g"),
    "diabetes": ("diabetes.csv", "class", "tested_positive"),
    "credit": ("credit-g.csv", "class", "good"),
}


def models(features: pd.DataFrame):
    categorical = [c for c in features.columns if features[c].dtype.kind not in "biuf"]
    numeric = [c for c in features.columns if c not in categorical]
    prepare = make_column_transformer(
        (StandardScaler(), numeric),
        (OneHotEncoder(handle_unknown="ignore", sparse_output=False), categorical),
    )
    return {
        "logistic": make_pipeline(prepare, LogisticRegression(C=0.5, max_iter=2000)),
        "naive bayes": make_pipeline(prepare, GaussianNB()),
        "tree": make_pipeline(
            prepare, DecisionTreeClassifier(max_depth=4, min_samples_leaf=8, random_state=0)
        ),
    }


def predictions() -> pd.DataFrame:
    frames = []
    for name, (file, class_column, positive) in DATASETS.items():
        data = pd.read_csv(HERE / "data" / file)
        label = (data[class_column] == positive).astype(int).to_numpy()
        features = data.drop(columns=[class_column])
        folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
        for fold, (train, test) in enumerate(folds.split(features, label)):
            for model_name, model in models(features).items():
                model.fit(features.iloc[train], label[train])
                score = model.predict_proba(features.iloc[test])[:, 1]
                frames.append(
                    pd.DataFrame(
                        {
                            "dataset": name,
                            "classifier": model_name,
                            "fold": fold,
                            "instance": test,
                            "label": label[test],
                            "score": np.round(score, 4),
                        }
                    )
                )
    table = pd.concat(frames, ignore_index=True)
    return table.sort_values(["dataset", "classifier", "instance"], kind="stable").reset_index(
        drop=True
    )


def credit_predictions() -> pd.DataFrame:
    """German credit with each loan's amount, for instance-varying costs (ROCIV).

    Three models: logistic regression, the same trained with every loan weighted by its
    amount (so it attends to the costly cases), and a shallow tree.
    """
    data = pd.read_csv(HERE / "data" / "credit-g.csv")
    label = (data["class"] == "good").astype(int).to_numpy()
    amount = data["credit_amount"].to_numpy()
    features = data.drop(columns=["class"])
    frames = []
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    for fold, (train, test) in enumerate(folds.split(features, label)):
        chosen = models(features)
        runs = {
            "logistic": (chosen["logistic"], None),
            "logistic, amount-weighted": (chosen["logistic"], amount[train] / amount[train].mean()),
            "tree": (chosen["tree"], None),
        }
        for name, (model, weight) in runs.items():
            fit_options = {} if weight is None else {model.steps[-1][0] + "__sample_weight": weight}
            model.fit(features.iloc[train], label[train], **fit_options)
            frames.append(
                pd.DataFrame(
                    {
                        "classifier": name,
                        "fold": fold,
                        "instance": test,
                        "label": label[test],
                        "score": np.round(model.predict_proba(features.iloc[test])[:, 1], 4),
                        "amount": amount[test],
                    }
                )
            )
    table = pd.concat(frames, ignore_index=True)
    return table.sort_values(["classifier", "instance"], kind="stable").reset_index(drop=True)


if __name__ == "__main__":
    OUT.parent.mkdir(parents=True, exist_ok=True)
    for path, table in ((OUT, predictions()), (CREDIT_OUT, credit_predictions())):
        table.to_csv(path, index=False)
        print(f"wrote {len(table):,} rows to {path.relative_to(HERE.parent)}")
