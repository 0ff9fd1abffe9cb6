"""costchart: ROC and cost curves for two-class classifiers, as tidy tables and Altair charts.

Transformers turn predictions into long-format pandas tables:

- ROC space: :func:`roc_points`, :func:`from_confusion`, :func:`roc_hull`, :func:`auc`
  (also partial), :func:`auc_ci` and :func:`auc_test` (DeLong);
- cost space: :func:`to_cost_lines`, :func:`lower_envelope`, :func:`envelope_gap`,
  :func:`operating_range`, :func:`selection_table`, :func:`cost_at`, :func:`expected_cost`;
- averages: :func:`vertical_average` (cost space, exact), :func:`roc_average`;
- comparison and selection: :func:`compare`, :func:`cheapest_regions`, :func:`cheapest_set`
  (which classifiers could be the cheapest where, with confidence), :func:`iso_performance`,
  :func:`neyman_pearson`, :func:`workforce`, :func:`performance_independent`,
  :func:`apply_selection`;
- decision curves: :func:`net_benefit` (Vickers and Elkin), drawn by :func:`decision_curve_chart`;
- confidence bands: :func:`bootstrap_band` (by default of the envelope's own thresholds,
  their choice resampled), :func:`confusion_band` (exact bootstrap or resampling) and
  :func:`difference_band` (significance of a difference); their measured coverage on
  binormal simulations: :func:`band_coverage`, :func:`difference_coverage`,
  :func:`coverage_grid`, drawn by :func:`coverage_chart`;
- instance-varying costs: :func:`rociv`, :func:`auciv`, :func:`costs_from_benefits`;
- training sets over- or under-sampled to class ratios: :func:`resample_classes`;
- scikit-learn: :func:`predictions`, :func:`from_cv_results`, :func:`threshold_classifier`,
  :func:`expected_cost_scorer`;
- conversions between operating conditions (priors, costs, slopes) and ``pc``, and the
  ROC / cost duality maps.

Charts: :mod:`costchart.layers` (one Altair layer per function), the compositions
:func:`cost_chart`, :func:`roc_chart`, :func:`roc_cost_chart`, :func:`band_chart`,
:func:`difference_chart`, :func:`average_chart`, :func:`cheapest_set_chart` (stable
colours from :func:`palette`), the operating-point :func:`explorer`; :func:`chart_tables`
gives back the tables a chart draws, and :func:`save` / :func:`report` for JSON, offline
HTML, PNG, SVG and PDF (a report also shows tables and text, plain or :func:`markdown`);
:func:`enable_offline` draws charts in Jupyter with no network.
``alt.theme.enable("costchart")`` turns on the optional theme.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

from costchart._io.errors import CostchartError, CostchartWarning

__version__ = "0.1.0"

#: Where each public name lives: loaded on first use, so ``import costchart`` (and
#: ``costchart --help``) stays light; scipy, altair and the rest load when needed.
_HOMES = {
    "Band": "costchart._bands",
    "Comparison": "costchart._cost.compare",
    "PerformanceIndependent": "costchart._select.hybrids",
    "apply_selection": "costchart._select.hybrids",
    "auc": "costchart._roc.auc",
    "auc_ci": "costchart._roc.auc_ci",
    "auc_test": "costchart._roc.auc_test",
    "auciv": "costchart._roc.rociv",
    "average_chart": "costchart._charts",
    "band_at": "costchart._bands",
    "band_chart": "costchart._charts",
    "band_coverage": "costchart._bands.coverage",
    "band_label": "costchart._bands",
    "bootstrap_band": "costchart._bands",
    "brier_curve": "costchart._cost.brier",
    "chart_tables": "costchart._charts._registry",
    "cheapest_regions": "costchart._select.cheapest",
    "cheapest_set": "costchart._select.cheapest_set",
    "cheapest_set_chart": "costchart._charts",
    "compare": "costchart._cost.compare",
    "confusion_band": "costchart._bands",
    "cost_at": "costchart._cost.expected",
    "cost_chart": "costchart._charts",
    "cost_line_to_roc_point": "costchart._cost.conversions",
    "cost_point_to_roc_line": "costchart._cost.conversions",
    "cost_ratio_from_pc": "costchart._cost.conversions",
    "costs_from_benefits": "costchart._roc.rociv",
    "coverage_chart": "costchart._charts.coverage",
    "coverage_grid": "costchart._bands.coverage",
    "curve_points": "costchart._roc.average",
    "decision_curve_chart": "costchart._charts.decision",
    "difference_band": "costchart._bands",
    "difference_chart": "costchart._charts",
    "difference_coverage": "costchart._bands.coverage",
    "enable_offline": "costchart._export.notebook",
    "envelope_gap": "costchart._cost.envelope",
    "expected_cost": "costchart._cost.expected",
    "expected_cost_scorer": "costchart._sklearn",
    "expected_loss": "costchart._cost.expected_loss",
    "explorer": "costchart._charts.explorer",
    "from_confusion": "costchart._roc.confusion",
    "from_cv_results": "costchart._sklearn",
    "h_measure": "costchart._cost.hmeasure",
    "iso_performance": "costchart._select.criteria",
    "lower_envelope": "costchart._cost.envelope",
    "net_benefit": "costchart._cost.decision",
    "neyman_pearson": "costchart._select.criteria",
    "markdown": "costchart._export.markdown",
    "operating_range": "costchart._cost.envelope",
    "p_pos_from_pc": "costchart._cost.conversions",
    "rate_driven_curve": "costchart._cost.rate_driven",
    "palette": "costchart._palette",
    "pc_from_cost_ratio": "costchart._cost.conversions",
    "pc_from_costs": "costchart._cost.conversions",
    "pc_from_slope": "costchart._cost.conversions",
    "performance_independent": "costchart._select.hybrids",
    "pr_auc": "costchart._roc.pr",
    "pr_chart": "costchart._charts.pr",
    "pr_curve": "costchart._roc.pr",
    "pr_points": "costchart._roc.pr",
    "predictions": "costchart._sklearn",
    "report": "costchart._export",
    "resample_classes": "costchart._select.sampling",
    "roc_average": "costchart._roc.average",
    "roc_chart": "costchart._charts",
    "roc_cost_chart": "costchart._charts",
    "roc_hull": "costchart._roc.hull",
    "roc_line_to_cost_point": "costchart._cost.conversions",
    "roc_point_to_cost_line": "costchart._cost.conversions",
    "roc_points": "costchart._roc.points",
    "rociv": "costchart._roc.rociv",
    "rociv_condition": "costchart._roc.rociv",
    "save": "costchart._export",
    "selection_table": "costchart._cost.envelope",
    "significant_regions": "costchart._bands",
    "slope_from_pc": "costchart._cost.conversions",
    "thin_points": "costchart._roc.thin",
    "threshold_choice_chart": "costchart._charts.threshold_choice",
    "threshold_classifier": "costchart._sklearn",
    "to_cost_lines": "costchart._cost.lines",
    "vertical_average": "costchart._cost.average",
    "workforce": "costchart._select.criteria",
}
#: Public subpackages.
_SUBMODULES = ("datasets", "layers", "theme")

if TYPE_CHECKING:
    from costchart import layers, theme
    from costchart._bands import (
        Band,
        band_at,
        band_label,
        bootstrap_band,
        confusion_band,
        difference_band,
        significant_regions,
    )
    from costchart._bands.coverage import band_coverage, coverage_grid, difference_coverage
    from costchart._charts import (
        average_chart,
        band_chart,
        cheapest_set_chart,
        cost_chart,
        difference_chart,
        roc_chart,
        roc_cost_chart,
    )
    from costchart._charts._registry import chart_tables
    from costchart._charts.coverage import coverage_chart
    from costchart._charts.decision import decision_curve_chart
    from costchart._charts.explorer import explorer
    from costchart._charts.pr import pr_chart
    from costchart._charts.threshold_choice import threshold_choice_chart
    from costchart._cost.average import vertical_average
    from costchart._cost.brier import brier_curve
    from costchart._cost.compare import Comparison, compare
    from costchart._cost.conversions import (
        cost_line_to_roc_point,
        cost_point_to_roc_line,
        cost_ratio_from_pc,
        p_pos_from_pc,
        pc_from_cost_ratio,
        pc_from_costs,
        pc_from_slope,
        roc_line_to_cost_point,
        roc_point_to_cost_line,
        slope_from_pc,
    )
    from costchart._cost.decision import net_benefit
    from costchart._cost.envelope import (
        envelope_gap,
        lower_envelope,
        operating_range,
        selection_table,
    )
    from costchart._cost.expected import cost_at, expected_cost
    from costchart._cost.expected_loss import expected_loss
    from costchart._cost.hmeasure import h_measure
    from costchart._cost.lines import to_cost_lines
    from costchart._cost.rate_driven import rate_driven_curve
    from costchart._export import report, save
    from costchart._export.markdown import markdown
    from costchart._export.notebook import enable_offline
    from costchart._palette import palette
    from costchart._roc.auc import auc
    from costchart._roc.auc_ci import auc_ci
    from costchart._roc.auc_test import auc_test
    from costchart._roc.average import curve_points, roc_average
    from costchart._roc.confusion import from_confusion
    from costchart._roc.hull import roc_hull
    from costchart._roc.points import roc_points
    from costchart._roc.pr import pr_auc, pr_curve, pr_points
    from costchart._roc.rociv import auciv, costs_from_benefits, rociv, rociv_condition
    from costchart._roc.thin import thin_points
    from costchart._select.cheapest import cheapest_regions
    from costchart._select.cheapest_set import cheapest_set
    from costchart._select.criteria import iso_performance, neyman_pearson, workforce
    from costchart._select.hybrids import (
        PerformanceIndependent,
        apply_selection,
        performance_independent,
    )
    from costchart._select.sampling import resample_classes
    from costchart._sklearn import (
        expected_cost_scorer,
        from_cv_results,
        predictions,
        threshold_classifier,
    )

__all__ = [
    "Band",
    "Comparison",
    "CostchartError",
    "CostchartWarning",
    "PerformanceIndependent",
    "apply_selection",
    "auc",
    "auc_ci",
    "auc_test",
    "auciv",
    "average_chart",
    "band_at",
    "band_chart",
    "band_coverage",
    "band_label",
    "bootstrap_band",
    "brier_curve",
    "chart_tables",
    "cheapest_regions",
    "cheapest_set",
    "cheapest_set_chart",
    "compare",
    "confusion_band",
    "cost_at",
    "cost_chart",
    "cost_line_to_roc_point",
    "cost_point_to_roc_line",
    "cost_ratio_from_pc",
    "costs_from_benefits",
    "coverage_chart",
    "coverage_grid",
    "curve_points",
    "decision_curve_chart",
    "difference_band",
    "difference_chart",
    "difference_coverage",
    "enable_offline",
    "envelope_gap",
    "expected_cost",
    "expected_cost_scorer",
    "expected_loss",
    "explorer",
    "from_confusion",
    "from_cv_results",
    "h_measure",
    "iso_performance",
    "layers",
    "lower_envelope",
    "markdown",
    "net_benefit",
    "neyman_pearson",
    "operating_range",
    "p_pos_from_pc",
    "palette",
    "pc_from_cost_ratio",
    "pc_from_costs",
    "pc_from_slope",
    "performance_independent",
    "pr_auc",
    "pr_chart",
    "pr_curve",
    "pr_points",
    "predictions",
    "rate_driven_curve",
    "report",
    "resample_classes",
    "roc_average",
    "roc_chart",
    "roc_cost_chart",
    "roc_hull",
    "roc_line_to_cost_point",
    "roc_point_to_cost_line",
    "roc_points",
    "rociv",
    "rociv_condition",
    "save",
    "selection_table",
    "significant_regions",
    "slope_from_pc",
    "theme",
    "thin_points",
    "threshold_choice_chart",
    "threshold_classifier",
    "to_cost_lines",
    "vertical_average",
    "workforce",
]


def __getattr__(name: str):
    """Load a public name from its module on first use (PEP 562)."""
    if name in _HOMES:
        value = getattr(importlib.import_module(_HOMES[name]), name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f"costchart.{name}")
    msg = f"module 'costchart' has no attribute {name!r}"
    raise AttributeError(msg)


def __dir__() -> list[str]:
    return sorted([*__all__, "__version__"])


# The optional theme registers itself with Altair on import; when Altair is loaded
# already (the usual ``import altair as alt; import costchart``), register it now, so
# ``alt.theme.enable("costchart")`` works at once. Charts and layers register it too.
if "altair" in sys.modules:
    importlib.import_module("costchart.theme")
