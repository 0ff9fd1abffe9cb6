"""tests/benchmarks/bench_peers.py on tiny data, so the script does not rot.

Each peer present here (scikit-learn, dcurves, R with pROC and ROCR) must compute the same
numbers as costchart to the script's tolerance; an absent peer is skipped.
"""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

# Runs the peer benchmark script against scikit-learn, dcurves and R: a slow test.
pytestmark = pytest.mark.slow

BENCHMARKS = Path(__file__).parent / "benchmarks"
TINY = {
    "sizes_sklearn": (50, 300),
    "sizes_dcurves": (200,),
    "sizes_r": (300,),
    "ecost_rows": 40,
    "rounds": 1,
    "rows_per_round": 1,  # one call a round
}


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module("bench_peers")
    finally:
        sys.path.remove(str(BENCHMARKS))


def rows_of(bench, peer: str) -> list:
    try:
        return list(bench.peers(TINY)[peer]())
    except bench.PeerMissing as missing:
        pytest.skip(str(missing))


def assert_all_agree(rows) -> None:
    assert rows
    for row in rows:
        assert row.agrees, bench_line(row)
        assert row.costchart > 0 and row.other > 0, bench_line(row)


def bench_line(row) -> str:
    return f"{row.peer} {row.task} at {row.n} rows: difference {row.difference}"


def test_sklearn_agrees(bench):
    pytest.importorskip("sklearn")
    rows = rows_of(bench, "scikit-learn")
    assert len(rows) == 4 * len(TINY["sizes_sklearn"])  # 3 tasks, and roc_curve on rounded scores
    assert_all_agree(rows)


@pytest.mark.slow  # starts a worker process that imports dcurves (a few seconds)
def test_dcurves_agrees(bench):
    pytest.importorskip("dcurves")
    rows = rows_of(bench, "dcurves")
    assert len(rows) == len(TINY["sizes_dcurves"])
    assert_all_agree(rows)


@pytest.mark.slow  # starts Rscript
@pytest.mark.skipif(shutil.which("Rscript") is None, reason="no Rscript")
def test_r_agrees(bench):
    rows = rows_of(bench, "R")
    if not rows:
        pytest.skip("neither pROC nor ROCR is installed in R")
    assert_all_agree(rows)
    assert {row.peer for row in rows} <= {"pROC", "ROCR"}


def test_a_disagreement_is_caught(bench):
    labels, scores = bench.instances(100)
    frame = bench.frame_of(labels, scores)
    tasks = bench.r_tasks(frame)
    points, auc = tasks["roc_auc"][2]()
    theirs = np.concatenate([auc["auc"], points["fpr"], points["tpr"]])
    assert bench.r_difference("roc_auc", (points, auc), theirs) == 0
    theirs[-2] += 1e-6
    assert bench.r_difference("roc_auc", (points, auc), theirs) > bench.TOLERANCE
    assert bench.r_difference("roc_auc", (points, auc), theirs[:-1]) == np.inf


def test_a_missing_peer_prints_one_line_and_is_skipped(bench, monkeypatch, capsys):
    monkeypatch.setattr(bench, "installed", lambda peer: False)
    assert bench.run(TINY) == []
    lines = capsys.readouterr().out.splitlines()
    skipped = [line for line in lines if "skipped" in line]
    assert len(skipped) == 3
    assert "pip install scikit-learn" in skipped[0]
    assert "pip install dcurves" in skipped[1]
    assert "apt-get install r-base-core" in skipped[2]


def test_a_worker_that_fails_is_a_missing_peer(bench, tmp_path):
    command = [sys.executable, "-c", "print('error no such peer')"]
    with pytest.raises(bench.PeerMissing, match="no such peer"):
        bench.Worker("nothing", command, tmp_path)
