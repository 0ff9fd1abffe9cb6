"""Render the pictures of docs/charts.md: one per kind of chart, from the bundled data.

Run from the repository root: ``python docs/make_images.py`` (about half a minute).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import costchart as cc
from costchart.datasets import load_predictions

HERE = Path(__file__).resolve().parent / "images"


def charts() -> dict:
    """Every kind of chart, by the file stem its picture gets."""
    data = load_predictions()
    points = cc.roc_points(data, score="score", label="label", by=["dataset", "classifier"])
    colours = cc.palette(points.classifier)  # one colour per classifier in every picture
    sonar = points[points.dataset == "sonar"].drop(columns="dataset")
    two = data[data.dataset.isin(["sonar", "diabetes"])]
    folds = cc.roc_points(
        data[data.dataset == "diabetes"], score="score", label="label", by=["classifier", "fold"]
    )
    grid = np.linspace(0, 1, 201)
    band = cc.bootstrap_band(
        two, score="score", label="label", by=["dataset", "classifier"], pc=grid, rng=0
    )
    difference = cc.difference_band(
        two,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="logistic",
        b="tree",
        by="dataset",
        pc=grid,
    )
    return {
        "cost_chart": cc.cost_chart(
            sonar,
            classifier="classifier",
            markers={"FN cost 3x": cc.pc_from_cost_ratio(3)},
            palette=colours,
            title="Cost curves, sonar",
        ),
        "cost_chart_zoom": cc.cost_chart(
            points[points.dataset == "ionosphere"],
            classifier="classifier",
            y_max=0.1,
            cost_lines="hull",
            palette=colours,
            title="Zoomed to y_max=0.1, ionosphere",
            subtitle="every mark is cut at the top of the axis",
        ),
        "cost_chart_owners": cc.cost_chart(
            points,
            classifier="classifier",
            facet="dataset",
            show_owners=True,
            cost_lines="none",
            ranges=False,
            columns=2,
            size=220,
            palette=colours,
            title="Which classifier where",
            subtitle="each stretch of the envelope of all three in its owner's colour",
        ),
        "roc_chart": cc.roc_chart(
            sonar,
            classifier="classifier",
            iso=[0.3],
            show_auc=True,
            palette=colours,
            title="ROC, sonar",
        ),
        "roc_cost_chart": cc.roc_cost_chart(
            points, classifier="classifier", facet="dataset", columns=2, size=200, palette=colours
        ),
        "roc_cost_chart_combined": cc.roc_cost_chart(
            sonar,
            classifier="classifier",
            combined=True,
            palette=colours,
            title="The envelope of the classifiers shown, sonar",
            subtitle="click or shift-click the legend: it is recomputed for those picked",
        ),
        "cheapest_set_chart": cc.cheapest_set_chart(
            two,
            score="score",
            label="label",
            classifier="classifier",
            instance="instance",
            by="dataset",
            rng=0,
            size=220,
            palette=colours,
            title="Which classifier where, and which could be",
            subtitle="beneath each cost view: the 90 % confidence set of the cheapest at each pc",
        ),
        "band_chart": cc.band_chart(
            band, classifier="classifier", facet="dataset", palette=colours, y_max=0.4
        ),
        "difference_chart": cc.difference_chart(
            difference, facet="dataset", palette=colours, title="Logistic regression vs tree"
        ),
        "explorer": cc.explorer(sonar, classifier="classifier", pc=0.3, palette=colours),
        "average_chart": cc.average_chart(
            folds,
            over="fold",
            classifier="classifier",
            palette=colours,
            title="Five folds, diabetes",
        ),
        "decision_curve_chart": cc.decision_curve_chart(
            cc.net_benefit(
                data[data["dataset"] == "diabetes"],
                score="score",
                label="label",
                by="classifier",
            ),
            classifier="classifier",
            palette=colours,
            title="Decision curves, diabetes",
        ),
        "pr_chart": cc.pr_chart(
            sonar, classifier="classifier", palette=colours, title="Precision-recall, sonar"
        ),
        "threshold_choice_chart": cc.threshold_choice_chart(
            data[data["dataset"] == "diabetes"],
            score="score",
            label="label",
            classifier="classifier",
            palette=colours,
            title="Three ways to set the threshold, diabetes",
        ),
    }


def main(out: Path = HERE) -> list[Path]:
    """Render every picture into ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    return [
        cc.save(chart, out / f"{name}.png", scale_factor=1.5) for name, chart in charts().items()
    ]


if __name__ == "__main__":
    for path in main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(path)
