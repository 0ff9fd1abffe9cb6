"""``import costchart`` stays light, and the command answers ``--help`` and ``--version``.

Each check runs in a fresh interpreter (this one has imported everything already). No
timings here, they are too noisy for a test: tests/benchmarks/bench_import.py measures them.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import costchart

# Each test starts a fresh interpreter (a subprocess): slow tests.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]

#: Packages that only some functions need, imported inside them. Some come with the
#: baseline ``import numpy, pandas, altair`` and are not held against costchart: altair
#: imports narwhals (and jsonschema, jinja2), pandas 3 imports pyarrow when installed.
HEAVY = {
    "scipy",
    "sklearn",
    "vl_convert",
    "polars",
    "pyarrow",
    "duckdb",
    "dask",
    "pyspark",
    "narwhals",
}

#: Must never load with ``import costchart``, whatever numpy, pandas and altair import.
NEVER = {"scipy", "sklearn", "vl_convert", "polars", "duckdb", "dask", "pyspark"}


def _env() -> dict[str, str]:
    """This checkout first on the path, as in the test process."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


def _python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=_env(), check=True
    )
    return done.stdout


def _command(*args: str) -> subprocess.CompletedProcess:
    """``costchart ARGS``: the installed script next to this Python, else its entry point."""
    script = shutil.which("costchart", path=str(Path(sys.executable).parent))
    if script is not None:
        argv = [script, *args]
    else:
        argv = [
            sys.executable,
            "-c",
            "import sys; from costchart._cli import main; sys.exit(main())",
        ]
        argv += list(args)
    return subprocess.run(argv, capture_output=True, text=True, env=_env(), check=False)


def _modules(imports: str) -> set[str]:
    """Top-level packages in ``sys.modules`` after ``import IMPORTS`` in a fresh process."""
    code = f"import {imports}, sys; print('\\n'.join(sorted(sys.modules)))"
    return {name.split(".")[0] for name in _python(code).split()}


def test_import_loads_only_the_api_names():
    # The API loads on first use (PEP 562): not even numpy, pandas or altair yet.
    loaded = _modules("costchart")
    assert loaded & {"numpy", "pandas", "altair", *HEAVY} == set()
    names = _python("import costchart; print(len(dir(costchart)), costchart.roc_points.__name__)")
    assert names.split() == [str(len(costchart.__all__) + 1), "roc_points"]


def test_the_theme_is_registered_when_altair_comes_first():
    code = "import altair as alt, costchart; alt.theme.enable('costchart'); print(alt.theme.active)"
    assert _python(code).strip() == "costchart"


def test_import_leaves_heavy_packages_alone():
    assert Path(_python("import costchart; print(costchart.__file__)").strip()).is_relative_to(ROOT)
    baseline = _modules("numpy, pandas, altair")
    loaded = _modules("costchart")
    assert loaded & NEVER == set()
    assert (loaded - baseline) & HEAVY == set()


@pytest.mark.parametrize("flag", ["--version", "-h", "--help"])
def test_command_answers_without_a_subcommand(flag):
    done = _command(flag)
    assert done.returncode == 0, done.stderr
    if flag == "--version":
        assert done.stdout.strip() == f"costchart {costchart.__version__}"
    else:
        assert done.stdout.startswith("usage: costchart")
        assert "--version" in done.stdout


def test_the_first_chart_and_its_save_leave_scipy_alone(tmp_path):
    # What a script drawing one chart loads: the charts and the export, not the band
    # engine or scipy (the hulls of long curves are found in numpy).
    code = (
        "import sys, costchart as cc\n"
        "data = {'s': [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2] * 4,\n"
        "        'y': [1, 1, 0, 1, 0, 1, 0, 0] * 4,\n"
        "        'model': ['a'] * 16 + ['b'] * 16, 'data': (['x'] * 8 + ['z'] * 8) * 2}\n"
        "points = cc.roc_points(data, score='s', label='y', by=['data', 'model'])\n"
        "chart = cc.roc_cost_chart(points, color='model', facet='data')\n"
        f"cc.save(chart, {str(tmp_path / 'chart.html')!r})\n"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    modules = _python(code).split()
    loaded = {name.split(".")[0] for name in modules}
    assert "altair" in loaded and "vl_convert" in loaded  # the chart was drawn and saved
    assert loaded & {"scipy", "sklearn"} == set()
    assert not any(name.startswith("costchart._bands") for name in modules)
