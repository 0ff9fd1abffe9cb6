"""
A confusion matrix and its rates (dh2006, Fig. 1)
=================================================

Everything in ROC and cost space starts from a classifier's confusion matrix on a test
set: true positives, false negatives, false positives and true negatives. Drummond and
Holte normalise each row by its class total, giving the true positive rate ``TP / (TP +
FN)``, its complement the false negative rate, the false positive rate ``FP / (FP + TN)``
and the true negative rate. The rates do not depend on the class distribution of the test
set, which is why ROC and cost curves use them: the class distribution and the error costs
enter separately, as the operating condition.

The matrix is that of the bundled logistic regression on the Pima diabetes data at the
threshold 0.5 (268 positives, 500 negatives).
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart.datasets import load_predictions

# %%
# The ROC point of "positive when score >= 0.5": its counts are one confusion matrix.
data = load_predictions().query("dataset == 'diabetes' and classifier == 'logistic'")
points = cc.roc_points(data, score="score", label="label")
row = points[points["threshold"] >= 0.5].iloc[-1]
tp, fn, fp, tn = (int(row[c]) for c in ("tp", "fn", "fp", "tn"))
cells = pd.DataFrame(
    {
        "actual": ["positive", "positive", "negative", "negative"],
        "predicted": ["positive", "negative", "positive", "negative"],
        "name": ["TP", "FN", "FP", "TN"],
        "count": [tp, fn, fp, tn],
        "rate": [tp / (tp + fn), fn / (tp + fn), fp / (fp + tn), tn / (fp + tn)],
        "rate_name": ["TPR", "FNR", "FPR", "TNR"],
        "correct": [True, False, False, True],
    }
)
cells["text"] = cells["name"] + " = " + cells["count"].astype(str)
cells["rate_text"] = cells["rate_name"] + " = " + cells["rate"].round(3).astype(str)
print(cells[["actual", "predicted", "count", "rate_name", "rate"]])

# %%
# The matrix: each cell with its count and its rate (the share of its row).
base = alt.Chart(cells).encode(
    x=alt.X(
        "predicted:N",
        title="Predicted class",
        sort=["positive", "negative"],
        axis=alt.Axis(orient="top", labelAngle=0),
    ),
    y=alt.Y("actual:N", title="Actual class", sort=["positive", "negative"]),
)
boxes = base.mark_rect(stroke="#444444").encode(
    color=alt.Color(
        "correct:N",
        scale=alt.Scale(domain=[True, False], range=["#d9ecd9", "#f6d9cf"]),
        legend=alt.Legend(title="Correct decision", orient="bottom"),
    )
)
counts = base.mark_text(fontSize=18, fontWeight="bold", dy=-12).encode(text="text:N")
rates = base.mark_text(fontSize=14, dy=14).encode(text="rate_text:N")
chart = (boxes + counts + rates).properties(
    width=320,
    height=220,
    title=alt.Title(
        "Confusion matrix and rates", subtitle="Logistic regression on diabetes, threshold 0.5"
    ),
)
chart
