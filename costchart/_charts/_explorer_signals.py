"""The explorer's Vega parameters and expressions: its sliders and what they move.

This private module holds what :func:`costchart.explorer` computes in the browser: the
sliders over ``pc`` (or over the cost ratio and the prevalence that set it), the filter
keeping each classifier's hull vertex optimal at ``pc``, the iso-performance line through
that vertex, and the confusion matrix it gives per 1,000 cases.
"""

from __future__ import annotations

import altair as alt

from costchart._roc.optimal import vertex_expression

__all__ = [
    "RATIO_RANGE",
    "chosen_rule",
    "confusion_counts",
    "cost_params",
    "iso_line",
    "pc_params",
]

#: The range of the cost-ratio slider (``C(-|+) / C(+|-)``, false negative over false
#: positive cost).
RATIO_RANGE = (0.05, 20.0)


def chosen_rule(pc: str) -> str:
    """The Vega expression keeping each group's hull vertex used at ``pc``.

    Generated from :data:`costchart._roc.optimal.RULE`, the rule selection tables, bands and
    the iso-performance lines use in Python.
    """
    return vertex_expression(pc)


def pc_params(pc_name: str, pc: float) -> tuple[list[alt.Parameter], str]:
    """The slider over ``pc``, and the prevalence expression (the data's) it goes with."""
    params = [
        alt.param(
            name=pc_name,
            value=pc,
            bind=alt.binding_range(min=0, max=1, step=0.001, name="operating point pc "),
        )
    ]
    return params, "datum.costchart_prevalence"


def cost_params(name: str, ratio: float, prevalence: float) -> tuple[list[alt.Parameter], str]:
    """The cost-ratio and prevalence sliders and the ``pc`` they set, and the prevalence."""
    pc_name = f"{name}_pc"
    ratio_name, prevalence_name = f"{name}_ratio", f"{name}_prevalence"
    params = [
        alt.param(
            name=ratio_name,
            value=ratio,
            bind=alt.binding_range(
                min=RATIO_RANGE[0],
                max=RATIO_RANGE[1],
                step=0.05,
                name="cost ratio C(-|+)/C(+|-) ",
            ),
        ),
        alt.param(
            name=prevalence_name,
            value=prevalence,
            bind=alt.binding_range(min=0.01, max=0.99, step=0.01, name="prevalence p(+) "),
        ),
        alt.param(
            name=pc_name,
            expr=(
                f"{prevalence_name} * {ratio_name} / "
                f"({prevalence_name} * {ratio_name} + 1 - {prevalence_name})"
            ),
        ),
    ]
    return params, prevalence_name


def iso_line(chosen: alt.Chart, pc_name: str) -> alt.Chart:
    """The iso-performance line at ``pc`` through each chosen vertex, cut to the ROC square."""
    slope = f"(1 - {pc_name}) / {pc_name}"
    return chosen.transform_calculate(
        costchart_x0=(
            f"{pc_name} <= 0 ? datum.fpr : {pc_name} >= 1 ? 0 : "
            f"max(0, datum.fpr - datum.tpr / ({slope}))"
        ),
        costchart_x1=(
            f"{pc_name} <= 0 ? datum.fpr : {pc_name} >= 1 ? 1 : "
            f"min(1, datum.fpr + (1 - datum.tpr) / ({slope}))"
        ),
    ).transform_calculate(
        costchart_y0=(
            f"{pc_name} <= 0 ? 0 : {pc_name} >= 1 ? datum.tpr : "
            f"datum.tpr + ({slope}) * (datum.costchart_x0 - datum.fpr)"
        ),
        costchart_y1=(
            f"{pc_name} <= 0 ? 1 : {pc_name} >= 1 ? datum.tpr : "
            f"datum.tpr + ({slope}) * (datum.costchart_x1 - datum.fpr)"
        ),
    )


def confusion_counts(chosen: alt.Chart, prevalence_expr: str) -> alt.Chart:
    """The chosen vertex's confusion matrix per 1,000 cases, one row per cell."""
    return (
        chosen.transform_calculate(
            costchart_p=prevalence_expr,
        )
        .transform_calculate(
            **{
                "true positives": "round(1000 * datum.costchart_p * datum.tpr)",
                "false negatives": "round(1000 * datum.costchart_p * (1 - datum.tpr))",
                "false positives": "round(1000 * (1 - datum.costchart_p) * datum.fpr)",
                "true negatives": "round(1000 * (1 - datum.costchart_p) * (1 - datum.fpr))",
            }
        )
        .transform_fold(
            ["true positives", "false negatives", "false positives", "true negatives"],
            as_=["costchart_cell", "costchart_count"],
        )
        .transform_calculate(
            costchart_actual=(
                "indexof(['true positives', 'false negatives'], datum.costchart_cell) >= 0"
                " ? 'actual +' : 'actual -'"
            ),
            costchart_predicted=(
                "indexof(['true positives', 'false positives'], datum.costchart_cell) >= 0"
                " ? 'predicted +' : 'predicted -'"
            ),
        )
    )
