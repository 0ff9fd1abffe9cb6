"""The charts of ``costchart demo``, made from the bundled example predictions.

Each function returns one chart; :func:`charts` returns them all with captions. They show
how the transformers and layers combine, and double as examples to copy.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

import costchart as cc
from costchart import layers
from costchart.datasets import load_credit, load_predictions

__all__ = ["charts"]


def _points(data: pd.DataFrame) -> pd.DataFrame:
    return cc.roc_points(data, score="score", label="label", by=["dataset", "classifier"])


def linked(points: pd.DataFrame) -> alt.HConcatChart | alt.ConcatChart:
    """Linked ROC and cost views of every data set and classifier."""
    return cc.roc_cost_chart(points, color="classifier", facet="dataset", size=240)


def sonar_costs(points: pd.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """Cost curves of the sonar classifiers with two marked operating conditions."""
    sonar = points[points["dataset"] == "sonar"].drop(columns="dataset")
    markers = {"FN costs 5x": cc.pc_from_cost_ratio(5, p_pos=0.3), "equal": 0.5}
    return cc.cost_chart(sonar, color="classifier", markers=markers, size=360)


def roc_with_iso_lines(points: pd.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """ROC curves, hulls and the iso-performance lines of two operating points."""
    return cc.roc_chart(points, color="classifier", facet="dataset", iso=[0.3, 0.7], columns=4)


def fold_average(data: pd.DataFrame) -> alt.TopLevelMixin:
    """Two averages of the same five folds.

    The ROC vertical average with its TPR range, beside the vertical cost average with its
    range over folds.
    """
    diabetes = data[data["dataset"] == "diabetes"]
    folds = cc.roc_points(diabetes, score="score", label="label", by=["classifier", "fold"])
    return cc.average_chart(
        folds, over="fold", color="classifier", size=320, title="Five folds (diabetes)"
    )


def comparison(points: pd.DataFrame) -> alt.VConcatChart:
    """Where logistic regression and the tree each win on the ionosphere data."""
    ionosphere = points[points["dataset"] == "ionosphere"]
    logistic = ionosphere[ionosphere["classifier"] == "logistic"].drop(
        columns=["dataset", "classifier"]
    )
    tree = ionosphere[ionosphere["classifier"] == "tree"].drop(columns=["dataset", "classifier"])
    result = cc.compare(logistic, tree, names=("logistic", "tree"))
    envelopes = cc.lower_envelope(
        ionosphere[ionosphere["classifier"].isin(["logistic", "tree"])].drop(columns="dataset")
    )
    crossovers = {f"{pc:.3f}": pc for pc in result.crossovers}
    colours = cc.palette(["logistic", "tree"])
    cost = (
        layers.better_regions(result.better, palette=colours)
        + layers.envelope(envelopes, color="classifier", palette=colours)
        + layers.trivial()
        + layers.pc_markers(crossovers)
        + layers.pc_labels(crossovers)
        + layers.key(
            [
                ("lower envelope", "bold line"),
                ("trivial classifiers", "trivial"),
                ("crossover (labelled with its pc)", "dotted line"),
            ]
        )
    ).properties(width=420, height=260, title="Ionosphere: where each classifier is cheaper")
    difference = (
        layers.better_regions(result.better, palette=colours)
        + layers.zero_rule()
        + layers.difference_curve(result.difference, name="logistic - tree")
    ).properties(width=420, height=160)
    return alt.vconcat(cost, difference)


def neyman_pearson(points: pd.DataFrame) -> alt.HConcatChart:
    """The best credit classifier allowed at most 10 % false positives."""
    credit = points[(points["dataset"] == "credit") & (points["classifier"] == "logistic")]
    credit = credit.drop(columns=["dataset", "classifier"])
    choice = cc.neyman_pearson(credit, max_fpr=0.1)
    hull = cc.roc_hull(credit)
    mixture = choice[choice["role"] == "mixture"]
    components = choice[choice["role"] == "component"]
    roc = (
        layers.roc_curve(credit)
        + layers.hull(hull)
        + layers.selected(components, space="roc")
        + layers.selected(
            mixture, space="roc", mark={"filled": True, "color": "#222222", "size": 60}
        )
    ).properties(width=300, height=300, title="Neyman-Pearson, FPR <= 0.1 (credit, logistic)")
    cost = (
        layers.trivial_region()
        + layers.envelope(cc.lower_envelope(credit))
        + layers.trivial()
        + layers.selected(mixture, space="cost")
        + layers.key(
            [
                ("ROC curve", "line"),
                ("ROC convex hull", "dashed line"),
                ("the two hull vertices mixed", "ring"),
                ("their mixture at FPR = 0.1", "dot"),
                ("lower envelope", "bold line"),
                ("cost line of the mixture", "highlight"),
                ("trivial classifiers", "trivial"),
                ("worse than a trivial classifier", "region"),
            ]
        )
    ).properties(width=300, height=300, title="Its cost line against the envelope")
    return alt.hconcat(roc, cost)


def bands(data: pd.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """Exact-bootstrap 90 % bands on the cost of each classifier's envelope."""
    two = data[data["dataset"].isin(["sonar", "diabetes"])]
    band = cc.bootstrap_band(two, score="score", label="label", by=["dataset", "classifier"])
    return cc.band_chart(band, color="classifier", facet="dataset")


def significance(data: pd.DataFrame) -> alt.LayerChart | alt.FacetChart:
    """Where logistic regression is significantly cheaper than the tree (paired)."""
    two = data[data["dataset"].isin(["sonar", "diabetes"])]
    difference = cc.difference_band(
        two,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="logistic",
        b="tree",
        by="dataset",
    )
    return cc.difference_chart(difference, facet="dataset")


def roc_versus_rociv() -> alt.LayerChart | alt.FacetChart:
    """German credit: cost curves from plain ROC points beside those from ROCIV points.

    With every loan weighted by its amount (a good loan's benefit and a bad loan's cost both
    grow with the amount), the model trained with amount weights wins over a wider range.
    """
    credit = load_credit()
    plain = cc.roc_points(credit, score="score", label="label", by="classifier")
    weighted = cc.rociv(credit, score="score", label="label", cost="amount", by="classifier")
    both = pd.concat(
        [
            plain.assign(curve="ROC: every loan alike"),
            weighted.assign(curve="ROCIV: loans weighted by amount"),
        ],
        ignore_index=True,
    )
    both = both[["curve", *[c for c in both.columns if c != "curve"]]]
    return cc.cost_chart(both, color="classifier", facet="curve", ranges=False, size=320, columns=2)


def charts() -> dict[str, tuple[str, alt.TopLevelMixin]]:
    """Every demo chart: caption -> (file stem, chart)."""
    data = load_predictions()
    points = _points(data)
    return {
        "Linked ROC and cost curves. Hover a ROC point to see its cost line, hover a cost "
        "line to see its ROC point; click a legend entry to isolate a classifier.": (
            "roc_cost",
            linked(points),
        ),
        "Cost curves of the sonar classifiers: every threshold's cost line, the lower "
        "envelope (bold), the trivial classifiers and where the envelope beats them.": (
            "cost_sonar",
            sonar_costs(points),
        ),
        "ROC curves with their convex hulls and the iso-performance lines of pc = 0.3 and 0.7.": (
            "roc",
            roc_with_iso_lines(points),
        ),
        "Averaging five cross-validation folds: the ROC vertical average (left) and the "
        "vertical average of the cost curves (right, with the range over folds); only the "
        "latter's cost is the average cost.": ("fold_average", fold_average(data)),
        "Comparing two classifiers: shaded where each is cheaper, crossovers marked, and "
        "the difference of their cost curves.": ("comparison", comparison(points)),
        "A selection criterion: the Neyman-Pearson choice is a mixture of two hull "
        "vertices; its cost line is dashed.": ("neyman_pearson", neyman_pearson(points)),
        "90 % confidence bands (exact bootstrap, class totals fixed) on the cost of each "
        "classifier's lower envelope.": ("bands", bands(data)),
        "Cost of logistic regression minus the tree's, with its 90 % band from the paired "
        "3-D confusion matrix; shaded where the difference is significant.": (
            "significance",
            significance(data),
        ),
        "Instance-varying costs (German credit): the same classifiers' cost curves from ROC "
        "points (left) and from ROCIV points, each loan weighted by its amount (right). The "
        "amount-weighted model is cheapest over a wider range once amounts count.": (
            "rociv",
            roc_versus_rociv(),
        ),
    }
