"""Check auc_ci and auc_test against pROC's own test values on its aSAH data.

pROC's tests (``tests/testthat/test-ci.auc.R`` and ``test-roc.test.R``) assert DeLong
intervals and paired tests on the aSAH data set that ships with pROC. The data is not
costchart's to redistribute, so this script reads it from a pROC checkout
(``data/aSAH.RData``, read with ``pyreadr``) and prints how far costchart's numbers are
from pROC's.

    pip install pyreadr
    python tests/benchmarks/check_against_proc.py path/to/pROC/data/aSAH.RData
"""

from __future__ import annotations

import sys

import costchart as cc

#: pROC's expected values (its tests): ci.auc(r.ndka) and roc.test(...) z and p.
CI_NDKA = (0.501244999271703, 0.611957994579946, 0.722670989888189)
TESTS = {
    ("wfns", "s100b"): (2.20898359144091, 0.0271757822291882),
    ("wfns", "ndka"): (2.79777591868904, 0.00514557970691098),
    ("ndka", "s100b"): (-1.39077002573558, 0.164295175223054),
}


def main(path: str) -> int:
    import pyreadr

    data = next(iter(pyreadr.read_r(path).values()))
    data["y"] = (data["outcome"].astype(str) == "Poor").astype(int)
    for marker in ("wfns", "ndka", "s100b"):
        data[marker] = data[marker].astype(float)
    ci = cc.auc_ci(data, score="ndka", label="y").iloc[0]
    worst = max(abs(a - b) for a, b in zip((ci.lower, ci.auc, ci.upper), CI_NDKA, strict=True))
    print(f"ci.auc(ndka): largest difference from pROC {worst:.2e}")
    long = data.reset_index().melt(
        id_vars=["index", "y"],
        value_vars=["wfns", "ndka", "s100b"],
        var_name="marker",
        value_name="score",
    )
    for (a, b), (z, p) in TESTS.items():
        row = cc.auc_test(
            long, score="score", label="y", classifier="marker", instance="index", a=a, b=b
        ).iloc[0]
        print(
            f"roc.test({a}, {b}): z off by {abs(row.z - z):.2e}, p off by {abs(row.p_value - p):.2e}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
