"""
Where each data set can tell which classifier to use, and where it cannot
=========================================================================

Three classifiers (logistic regression, naive Bayes and a decision tree) scored by
cross-validation on four UCI data sets (the bundled predictions: credit, 1,000 instances;
diabetes, 768; ionosphere, 351; sonar, 208). For each data set, the lower envelope of the
three classifiers' cost curves names the cheapest classifier at every operating point
``pc``; the strip beneath it shows, at each ``pc``, the classifiers the data cannot rule
out as the cheapest (:func:`costchart.cheapest_set`, level 0.9: the set holds the truly
cheapest classifier at every ``pc`` at once in nine test sets out of ten).

What the page shows
-------------------

The envelope always names an owner, but only the largest data set can name one classifier
with confidence. On credit, logistic regression is never ruled out, and over a stretch of
``pc`` from about 0.5 to 0.7 it is the only classifier left: there the data say to use it.
On diabetes and sonar the data rule out the tree over short stretches of high ``pc`` only,
and keep all three classifiers everywhere else. On ionosphere no classifier is ruled out
at any ``pc``, although the envelope passes from one classifier to another three times:
those switches are within the noise of 351 instances. Everywhere, the data's own
cheapest classifier is in the set.
"""

import costchart as cc
from costchart.datasets import load_predictions

# %%
# The cross-validated predictions: one row per data set, classifier and instance, each
# instance scored by all three classifiers (paired).
data = load_predictions()
print(data.groupby("dataset")["instance"].nunique())

# %%
# The point answer: which classifier the envelope of each data set names where, and how
# often it switches from one classifier to another (a ``"mixture"`` row at each switch).
points = cc.roc_points(data, score="score", label="label", by=["dataset", "classifier"])
regions = cc.cheapest_regions(points, by="dataset")
switches = regions[regions["choice"] == "mixture"].groupby("dataset").size()
print(switches)

# %%
# The confidence set: at each ``pc``, the classifiers no other is surely cheaper than.
# The chart below finds the same set from the same options.
paired = dict(
    score="score",
    label="label",
    classifier="classifier",
    instance="instance",
    by="dataset",
    rng=0,
)
sets = cc.cheapest_set(data, **paired)
size = sets.groupby(["dataset", "pc_lo", "pc_hi"])["classifier"].agg(["size", "first"])
alone = size[size["size"] == 1].reset_index()
print(alone)

# %%
# How much of ``pc`` each data set can decide anything about: the share of the examined
# ``pc`` where the set has fewer than three classifiers.
spans = sets.drop_duplicates(["dataset", "pc_lo"]).assign(width=lambda t: t["pc_hi"] - t["pc_lo"])
counts = sets.groupby(["dataset", "pc_lo"]).size().rename("in_set").reset_index()
spans = spans.merge(counts, on=["dataset", "pc_lo"])
decided = spans[spans["in_set"] < 3].groupby("dataset")["width"].sum()
print(decided.round(3))

# %%
# The chart: per data set, the ROC curves beside the cost view, whose pooled envelope is
# coloured by the classifier owning each stretch; beneath it, the strip of the confidence
# set (a bar wherever a classifier is in it, solid where it is the data's cheapest).
chart = cc.cheapest_set_chart(
    data,
    **paired,
    size=220,
    title="Which classifier where, and where the data cannot tell",
    subtitle="beneath each cost view: the classifiers that could be the cheapest (90 %)",
)
chart
