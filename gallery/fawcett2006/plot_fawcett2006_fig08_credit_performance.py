"""
ROC and ROCIV curves in the credit domain (fawcett2006, Fig. 8)
===============================================================

On German credit, with each loan's own amount and the paper's benefit matrix (Fig. 7),
three classifiers are drawn twice: as ROC curves, where every applicant counts alike, and
as ROCIV curves, where every good loan counts by what approving it earns and every bad
loan by what approving it loses. The two pictures rank the classifiers differently and
give them different regions of superiority.

What the paper shows
--------------------
Fawcett trained three scoring classifiers on half of German credit and drew, on the
other half, their ROC curves (a) and their ROCIV curves (b) under the transformed matrix
of Fig. 7b (a good loan of amount x brings 0.05 x + $20 when approved, a bad one costs
x + $20). On the ROC convex hull each classifier owns a range of false positive rates;
under ROCIV those regions move: one classifier becomes superior over a much larger part
of the graph and another is dominated almost everywhere. The ROC picture alone would
pick the wrong classifier for most operating conditions.

Here the same happens with the bundled cross-validated scores: naive Bayes, a depth-4
tree, and the same tree ranking loans by the expected net benefit of approving them
under Fig. 7b, p (0.05 x + 20) - (1 - p)(x + 20): a score that reflects each instance's
costs, of the kind the paper suggests when the amounts are known at decision time. By
ROC, naive Bayes has the largest area and the expected-benefit tree the smallest; by
ROCIV the expected-benefit tree has the largest and naive Bayes falls behind it. On the
hull of all three, the expected-benefit tree is optimal over about a third of the
operating conditions in ROC space and over half of them in ROCIV space, while the plain
tree, optimal over a fifth of them by ROC, is nearly dominated by ROCIV.
"""

import altair as alt
import pandas as pd

import costchart as cc
from costchart.datasets import load_credit, load_predictions

# %%
# German credit: the bundled naive Bayes and tree scores with each loan's amount, and a
# third classifier that ranks loans by the tree's expected net benefit of approving them.
amounts = load_credit().query("classifier == 'logistic'")[["instance", "amount"]]
scores = load_predictions().query("dataset == 'credit' and classifier != 'logistic'")
credit = scores.drop(columns="dataset").merge(amounts, on="instance")
tree = credit[credit["classifier"] == "tree"]
p, x = tree["score"], tree["amount"]
credit = pd.concat(
    [
        credit,
        tree.assign(
            classifier="tree, expected benefit", score=p * (0.05 * x + 20) - (1 - p) * (x + 20)
        ),
    ],
    ignore_index=True,
)

# %%
# The paper's benefit matrix for the credit domain (Fig. 7a); costs_from_benefits turns it
# into Fig. 7b: 0.05 x + 20 for a good loan, x + 20 for a bad one.
matrix = {
    ("Y", "p"): lambda amount: 0.05 * amount,  # approve a good loan: interest
    ("N", "p"): -20.0,  # refuse a good loan: an annoyed customer
    ("Y", "n"): lambda amount: -amount,  # approve a bad loan: the amount is lost
    ("N", "n"): 20.0,  # refuse a bad loan: loss prevented
}
credit["cost"] = cc.costs_from_benefits(credit, label="label", amount="amount", benefit=matrix)

# %%
# ROC and ROCIV points of the three classifiers, their areas, and the regions of
# superiority: on the convex hull of all three, the share of operating conditions
# (pc, from 0 to 1) over which each classifier's vertices are optimal.
plain = cc.roc_points(credit, score="score", label="label", by="classifier")
weighted = cc.rociv(credit, score="score", label="label", amount="cost", by="classifier")
areas = cc.auc(plain).merge(
    cc.auciv(credit, score="score", label="label", amount="cost", by="classifier"),
    on="classifier",
    suffixes=("", "iv"),
)


def regions(points):
    """Share of the pc range over which each classifier owns the pooled hull."""
    cheapest = cc.cheapest_regions(points, by=[])  # by=[]: one hull pooling the three curves
    owner = cheapest["classifier"].fillna("trivial")  # the trivial classifiers are no one's
    return (cheapest["pc_hi"] - cheapest["pc_lo"]).groupby(owner).sum()


superiority = pd.DataFrame({"roc": regions(plain), "rociv": regions(weighted)})
print(areas.round(3))
print(superiority.round(2))

# %%
# (a) ROC curves and (b) ROCIV curves, in the same colours; the legends give AUC and
# AUCIV. Below, each classifier's region of superiority on the hull of all three.
colours = cc.palette(sorted(credit["classifier"].unique()))
panel = {"classifier": "classifier", "show_auc": True, "palette": colours, "size": 300}
shares = (
    superiority.drop(index="trivial")
    .rename(columns={"roc": "(a) ROC", "rociv": "(b) ROCIV"})
    .rename_axis("classifier")
    .reset_index()
    .melt(id_vars="classifier", var_name="graph", value_name="share")
)
bars = (
    alt.Chart(shares)
    .mark_bar()
    .encode(
        x=alt.X(
            "share:Q",
            stack="zero",
            scale=alt.Scale(domain=[0, 1]),
            title="Share of operating conditions (pc) where it is optimal on the hull of all three",
        ),
        y=alt.Y("graph:N", title=None),
        color=alt.Color(
            "classifier:N",
            scale=alt.Scale(domain=list(colours), range=list(colours.values())),
            legend=None,
        ),
        tooltip=["graph", "classifier", alt.Tooltip("share:Q", format=".2f")],
    )
    .properties(width=640, height=60, title="Regions of superiority (the rest: trivial)")
)
chart = (
    alt.vconcat(
        alt.hconcat(
            cc.roc_chart(plain, title="(a) ROC curves: every loan alike", **panel),
            cc.roc_chart(weighted, title="(b) ROCIV curves: loans by their amounts", **panel),
        ).resolve_legend(color="independent"),
        bars,
    )
    .resolve_legend(color="independent")
    .properties(title="German credit with the benefit matrix of Fig. 7")
)
chart
