import os
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from hypothesis import settings

# CI runs each property test on the same examples every time (a failure there can be
# reproduced, never a fluke of the draw); locally every run draws new ones.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

# -- the quick loop ---------------------------------------------------------------------------
#
# ``pytest -m "not slow"`` must stay quick (CONTRIBUTING.md, "Running the checks"). A test is
# marked ``slow`` where it is defined when all of it is slow (a subprocess, a gallery script,
# millions of rows, a statistical or exhaustive check). The families below repeat one check
# on more inputs (grouped code against its per-group reference, more seeds, more operating
# points): the quick loop runs the fewest of their cases that still take every value of the
# parameters named once; the other cases are marked slow, so the full run runs them all.

#: ``file::test`` -> the parameters each of whose values the quick loop still takes.
QUICK_COVER: dict[str, tuple[str, ...]] = {
    "test_auc_groups.py::test_auc_of_many_groups_equals_each_group_alone": ("max_fpr",),
    "test_average_groups.py::test_roc_average_equals_the_per_group_code": ("method", "kind"),
    "test_bands_exact.py::test_grouped_band_equals_each_group_alone": ("chooser", "keys"),
    "test_brier.py::test_all_groups_at_once_equal_each_group_alone": ("key", "weight"),
    # One chart twice; every chart's spec is pinned by test_spec_snapshot in the quick loop.
    "test_charts.py::test_identical_calls_give_identical_json": (),
    # The same chart from either kind of frame; test_tables reads both kinds in the quick loop.
    "test_charts.py::test_compositions_take_polars_and_pyarrow_points": (),
    # The command writes each suffix with save(), whose suffixes test_export checks.
    "test_cli.py::test_plot": (),
    "test_combined.py::test_the_least_cost_of_any_classifiers_is_the_envelope_of_their_points": (),
    "test_combined.py::test_the_winners_of_the_intervals_are_the_hull_of_the_classifiers_shown": (),
    "test_counting.py::test_roc_points_of_many_groups_equal_each_group_alone": (),
    "test_decision.py::test_all_groups_at_once_equal_each_group_alone": ("key", "weight"),
    "test_difference_groups.py::test_difference_band_equals_the_per_group_code": (
        "options",
        "kind",
    ),
    # Each kind of grouping value drawn: the conversion's own tests run every kind quickly.
    "test_drawable.py::test_cost_chart_draws_each_kind_as_its_text": (),
    "test_drawable.py::test_every_chart_colours_each_kind_by_its_text": (),
    "test_expected_loss.py::test_rate_loss_equals_the_integral_of_its_definition": (),
    "test_explorer.py::test_the_chosen_point_is_the_optimal_hull_vertex": (),
    "test_grouped_geometry.py::test_many_groups_equal_each_group_alone": ("name",),
    "test_hmeasure.py::test_h_measure_equals_a_numerical_integral": ("severity_ratio",),
    "test_hull_groups.py::test_public_functions_equal_the_per_group_loop": ("name", "counts"),
    # Every option on some layer, every look option on some chart: the rest are slow (each
    # signature is read in the quick loop by the tests beside these).
    "test_options.py::test_every_shared_option_changes_the_layer": ("option", "name"),
    "test_options.py::test_every_look_option_changes_the_chart": ("option", "name"),
    "test_pointwise.py::test_random_tied_score_folds_equal_brute_force_in_any_order": (),
    "test_precision_recall.py::test_all_groups_at_once_equal_each_group_alone": ("key",),
    "test_report_charts.py::test_facetable_charts_take_columns": (),
    "test_thin.py::test_all_groups_at_once_equal_each_group_alone": (),
}


def quick_cases(cases: list, names: tuple[str, ...]) -> list:
    """The fewest ``cases`` (greedily) whose parameters ``names`` take every value once.

    ``cases`` are parametrized pytest items; with no ``names``, the first case.
    """
    wanted = set().union(*(_values(case, names) for case in cases))
    chosen = [] if wanted else cases[:1]
    while wanted:
        best = max(cases, key=lambda case: len(_values(case, names) & wanted))
        chosen.append(best)
        wanted -= _values(best, names)
    return chosen


def _values(case, names) -> set:
    """The case's values of parameters ``names`` (by repr: some are dicts)."""
    return {(name, repr(case.callspec.params[name])) for name in names}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the marks
def pytest_collection_modifyitems(config, items):
    families = defaultdict(list)
    for item in items:
        key = f"{item.path.name}::{getattr(item, 'originalname', item.name)}"
        if key in QUICK_COVER and hasattr(item, "callspec"):
            families[key].append(item)
    for key, cases in families.items():
        quick = {id(case) for case in quick_cases(cases, QUICK_COVER[key])}
        for case in cases:
            if id(case) not in quick:
                case.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def _bundle_cache(tmp_path_factory):
    """The Vega bundle's disk cache in a folder of the test session, not the user's."""
    import os

    folder = tmp_path_factory.mktemp("bundle-cache")
    before = os.environ.get("COSTCHART_CACHE_DIR")
    os.environ["COSTCHART_CACHE_DIR"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("COSTCHART_CACHE_DIR", None)
    else:
        os.environ["COSTCHART_CACHE_DIR"] = before


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)


def scored_data(rng, n=400, *, ties=20, classifiers=("a", "b"), folds=1):
    """Random scores with many ties for several classifiers (and folds)."""
    frames = []
    for name in classifiers:
        for fold in range(folds):
            label = rng.random(n) < 0.35
            score = np.round(rng.normal(size=n) + label * rng.uniform(0.5, 2), 1)
            score = np.floor(score * ties / 4) / (ties / 4)
            frames.append(pd.DataFrame({"model": name, "fold": fold, "score": score, "y": label}))
    return pd.concat(frames, ignore_index=True)


@pytest.fixture(scope="session")
def demo_points():
    """ROC points of the bundled predictions, by data set and classifier."""
    import costchart as cc
    from costchart.datasets import load_predictions

    data = load_predictions()
    return cc.roc_points(data, score="score", label="label", by=["dataset", "classifier"])


@pytest.fixture
def render(capfd):
    """Render a chart to SVG with vl-convert; fail on any Vega-Lite warning."""
    import vl_convert as vlc

    from costchart._export.image import vl_version

    def _render(chart):
        spec = chart.to_dict(validate=True)
        capfd.readouterr()
        svg = vlc.vegalite_to_svg(spec, vl_version=vl_version(), show_warnings=True)
        warnings = capfd.readouterr().err
        assert "WARN" not in warnings and "ERROR" not in warnings, warnings
        assert svg.startswith("<svg")
        return spec, svg

    return _render


def _java_runs() -> bool:
    import shutil
    import subprocess

    java = shutil.which("java")
    if java is None:
        return False
    return subprocess.run([java, "-version"], capture_output=True, check=False).returncode == 0


@pytest.fixture(scope="session")
def spark():
    """One local Spark session for the whole run (starting one takes seconds)."""
    pytest.importorskip("pyspark")
    if not _java_runs():
        pytest.skip("PySpark needs Java (a JRE, e.g. Debian's default-jre-headless)")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("costchart-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.ansi.enabled", "true")  # overflow raises instead of wrapping
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
