import os

import numpy as np
import pandas as pd
import pytest
from hypothesis import settings

# CI runs each property test on the same examples every time (a failure there can be
# reproduced, never a fluke of the draw); locally every run draws new ones.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


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
