"""tests/benchmarks/bench_first_call.py on small data, so the script does not rot."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).parent / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module("bench_first_call")
    finally:
        sys.path.remove(str(BENCHMARKS))


@pytest.mark.parametrize("kind", ["argsort", "roc_points", "fill"])
def test_a_timed_call_reports_its_times(bench, kind):
    measured = bench.child(kind, 20_000)
    assert set(measured) == {"seconds", "user", "system"}
    assert measured["seconds"] > 0 and measured["user"] >= 0 and measured["system"] >= 0


def test_memory_counts_the_result_apart_from_the_temporaries(bench):
    measured = bench.child("memory", 20_000)
    assert measured["input"] == 20_000 * 9  # float64 scores and boolean labels
    assert measured["result"] == 7 * 20_001 * 8  # seven 8-byte columns, (0, 0) first
    assert measured["result"] <= measured["peak"] <= measured["result"] + 2 * measured["input"]


@pytest.mark.slow  # starts fresh processes, each importing numpy, pandas and costchart
def test_the_script_runs_a_round():
    run = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "bench_first_call.py"),
            "--rows",
            "20000",
            "--rounds",
            "1",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "median ratio" in run.stdout and "temporaries beyond it" in run.stdout
