"""
A confusion matrix and its rates (dh2006, Fig. 1)
=================================================

Everything in ROC and cost space starts from a classifier's confusion matrix on a test
set: true positives, false negatives, false positives and true negatives. Drummond and
Holte normalise each row by its class total, which turns the counts into the rates that
ROC points and cost lines are made of.

What the paper shows
--------------------

Panel (a) of the paper's figure is a matrix of 30 test instances: 20 positives, of which
the classifier labels 16 correctly (4 false negatives), and 10 negatives, of which it
labels 6 correctly (4 false positives). Panel (b) divides each row by its total: the true
positive rate 16/20 = 0.8 and its complement, the false negative rate 0.2; the false
positive rate 4/10 = 0.4 and the true negative rate 0.6. Each row's two rates add up to
one, and they estimate how the classifier labels an instance of each class, whatever the
class proportions of the test set. The classifier is therefore the ROC point (0.4, 0.8)
and the cost line from 0.4 at PC(+) = 0 to 0.2 at PC(+) = 1.

The paper's own counts; the rates come from :func:`costchart.from_confusion`.
"""

import altair as alt
import pandas as pd

import costchart as cc

# %%
# The paper's matrix, and its rates as costchart reads them.
matrix = pd.DataFrame({"TP": [16], "FN": [4], "FP": [4], "TN": [6]})
points = cc.from_confusion(matrix, tp="TP", fn="FN", fp="FP", tn="TN")
row = points[points["threshold"] == 1].iloc[0]
tp, fn, fp, tn = (int(row[c]) for c in ("tp", "fn", "fp", "tn"))
cells = pd.DataFrame(
    {
        "actual": ["positive", "positive", "negative", "negative"],
        "predicted": ["positive", "negative", "positive", "negative"],
        "name": ["TP", "FN", "FP", "TN"],
        "count": [tp, fn, fp, tn],
        "rate": [row["tpr"], 1 - row["tpr"], row["fpr"], 1 - row["fpr"]],
        "rate_name": ["TPR", "FNR", "FPR", "TNR"],
        "correct": [True, False, False, True],
    }
)
cells["text"] = cells["name"] + " = " + cells["count"].astype(str)
cells["rate_text"] = cells["rate_name"] + " = " + cells["rate"].round(3).astype(str)
totals = cells.groupby("actual", as_index=False, sort=False)["count"].sum()
totals = totals.assign(predicted="row total", text="total " + totals["count"].astype(str))
print(cells[["actual", "predicted", "count", "rate_name", "rate"]])
print(totals[["actual", "count"]])

# %%
# The matrix: each cell with its count and its rate (the share of its row), and each row's
# total, the number of instances of that class.
x = alt.X(
    "predicted:N",
    title="Predicted class",
    sort=["positive", "negative", "row total"],
    scale=alt.Scale(domain=["positive", "negative", "row total"]),
    axis=alt.Axis(orient="top", labelAngle=0),
)
y = alt.Y("actual:N", title="Actual class", sort=["positive", "negative"])
base = alt.Chart(cells).encode(x=x, y=y)
boxes = base.mark_rect(stroke="#444444").encode(
    color=alt.Color(
        "correct:N",
        scale=alt.Scale(domain=[True, False], range=["#d9ecd9", "#f6d9cf"]),
        legend=alt.Legend(title="Correct decision", orient="bottom"),
    )
)
counts = base.mark_text(fontSize=18, fontWeight="bold", dy=-12).encode(text="text:N")
rates = base.mark_text(fontSize=14, dy=14).encode(text="rate_text:N")
row_totals = alt.Chart(totals).mark_text(fontSize=15).encode(x=x, y=y, text="text:N")
chart = (boxes + counts + rates + row_totals).properties(
    width=420,
    height=220,
    title=alt.Title(
        "Confusion matrix and rates",
        subtitle="The paper's example: each row divided by its total gives the rates",
    ),
)
chart
