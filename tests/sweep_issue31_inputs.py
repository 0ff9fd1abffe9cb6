"""Sweep cases of issue 31 items 2 and 3 (imported by ``tests/sweep_bad_inputs.py``).

Input kinds (a repeated column name, 128-bit integers, decimals) and weights (the
instance column as the weight, weights of 1e9, ``weight=`` in ``h_measure`` and
``threshold_choice_chart``): each gives a clear ``CostchartError`` or an answer checked
against repeated rows.
"""

from __future__ import annotations

ERROR, RESULT = "error", "result"


def issue31_input_cases(add) -> None:
    """Repeated names, wide integers and decimals, weights counted as repeated rows."""
    from decimal import Decimal

    import numpy as np
    import pandas as pd
    import polars as pl
    import pyarrow as pa

    import costchart as cc

    rng = np.random.default_rng(5)
    n = 40
    data = pd.DataFrame(
        {
            "s": rng.integers(0, 11, n) / 10,
            "y": np.tile([0, 1], n // 2),
            "w": rng.integers(0, 4, n),
            "m": rng.choice(["a", "b"], n),
        }
    )

    def arrow(names):
        columns = [pa.array(data.iloc[:, k].tolist()) for k in range(len(names))]
        return pa.table(columns, names=names)

    calls = {
        "roc_points": lambda d: cc.roc_points(d, score="s", label="y"),
        "auc_ci": lambda d: cc.auc_ci(d, score="s", label="y"),
        "h_measure": lambda d: cc.h_measure(d, score="s", label="y"),
        "expected_loss": lambda d: cc.expected_loss(d, score="s", label="y"),
        "bootstrap_band": lambda d: cc.bootstrap_band(d, score="s", label="y", pc=[0.5], rng=0),
        "brier_curve": lambda d: cc.brier_curve(d, score="s", label="y", pc=[0.5]),
        "threshold_choice_chart": lambda d: cc.threshold_choice_chart(d, score="s", label="y"),
    }
    for name, call in calls.items():
        add(
            f"{name}: pyarrow table with the score column named twice",
            lambda c=call: c(arrow(["s", "y", "s"])),
            message_must=r"more than one column named 's'; rename",
        )
        expected = call(data[["s", "y"]])

        def same(result, expected=expected):
            if isinstance(expected, pd.DataFrame):
                pd.testing.assert_frame_equal(result, expected)

        add(
            f"{name}: pyarrow table repeating a name it does not read",
            lambda c=call: c(arrow(["s", "y", "note", "note"])),
            RESULT,
            same,
        )
        add(
            f"{name}: pandas frame repeating a text column it does not read",
            lambda c=call: c(data.set_axis(["s", "y", "note", "note"], axis=1)),
            RESULT,
            same,
        )

    # 128-bit integers and decimals: exact, or refused naming the column
    big = 2**53
    scores, labels = [big + 1, big, big + 3, big + 2], [1, 0, 1, 0]

    def exact(points):
        assert points["threshold"].tolist()[1:] == sorted(scores, reverse=True), points
        assert points["tpr"].tolist() == [0.0, 0.5, 0.5, 1.0, 1.0], points

    for kind, frame in {
        "polars Int128": pl.DataFrame({"s": pl.Series(scores, dtype=pl.Int128), "y": labels}),
        "polars UInt128": pl.DataFrame({"s": pl.Series(scores, dtype=pl.UInt128), "y": labels}),
        "polars Decimal": pl.DataFrame(
            {"s": pl.Series(scores, dtype=pl.Decimal(38, 0)), "y": labels}
        ),
        "pyarrow decimal128": pa.table(
            {"s": pa.array([Decimal(v) for v in scores], pa.decimal128(38, 0)), "y": labels}
        ),
        "pandas object ints": pd.DataFrame({"s": pd.Series(scores, dtype=object), "y": labels}),
    }.items():
        add(
            f"roc_points: {kind} scores above 2**53",
            lambda f=frame: cc.roc_points(f, score="s", label="y"),
            RESULT,
            exact,
        )
    add(
        "roc_points: lazy polars Int128 scores above 2**53",
        lambda: cc.roc_points(
            pl.LazyFrame({"s": pl.Series(scores, dtype=pl.Int128), "y": labels}),
            score="s",
            label="y",
        ),
        RESULT,
        exact,
    )
    huge = [2**70 + k for k in (1, 0, 3, 2)]

    def exact_huge(points):
        assert points["threshold"].tolist()[1:] == sorted(huge, reverse=True), points
        assert points["tpr"].tolist() == [0.0, 0.5, 0.5, 1.0, 1.0], points

    add(
        "roc_points: polars Int128 scores beyond 64 bits (counted exactly, by rank)",
        lambda: cc.roc_points(
            pl.DataFrame({"s": pl.Series(huge, dtype=pl.Int128), "y": labels}), score="s", label="y"
        ),
        RESULT,
        exact_huge,
    )
    add(
        "roc_points: decimals float64 would tie",
        lambda: cc.roc_points(
            {"s": [Decimal("0.10000000000000000001"), Decimal("0.1")], "y": [1, 0]},
            score="s",
            label="y",
        ),
        message_must=r"only 1 remain distinct as float64",
    )

    # weights: counted, never expanded into rows
    long = pd.DataFrame(
        {
            "m": ["a"] * n + ["b"] * n,
            "i": np.r_[np.arange(1, n + 1), np.arange(1, n + 1)],
            "y": np.r_[data["y"], data["y"]],
            "s": rng.integers(0, 11, 2 * n) / 10,
            "w": np.r_[data["w"], data["w"]],
        }
    )
    paired = {"score": "s", "label": "y", "classifier": "m", "instance": "i"}

    def repeated_pairs(frame, weight):
        copies = frame.loc[frame.index.repeat(frame[weight])].copy()
        copies["i"] = (
            copies["i"].astype(str) + "_" + copies.groupby(["m", "i"]).cumcount().astype(str)
        )
        return copies.reset_index(drop=True)

    def as_repeated(frame, weight):
        def check(result):
            expected = cc.auc_test(repeated_pairs(frame, weight), **paired)
            np.testing.assert_allclose(result.to_numpy(), expected.to_numpy(), atol=1e-12)

        return check

    add(
        "auc_test: weight= the instance column",
        lambda: cc.auc_test(long, weight="i", **paired),
        RESULT,
        as_repeated(long, "i"),
    )
    add(
        "auc_test: whole weights of 1000",
        lambda: cc.auc_test(long.assign(w=1000), weight="w", **paired),
        RESULT,
        as_repeated(long.assign(w=1000), "w"),
    )

    def same_aucs(result):
        once = cc.auc_test(long.assign(w=1), weight="w", **paired)
        np.testing.assert_allclose(result[["auc_a", "auc_b"]], once[["auc_a", "auc_b"]], atol=1e-12)
        assert 0 < result["se"].iat[0] < once["se"].iat[0] / 3e4, result

    add(
        "auc_test: whole weights of 1e9",
        lambda: cc.auc_test(long.assign(w=10**9), weight="w", **paired),
        RESULT,
        same_aucs,
    )
    add(
        "difference_band: weight= the instance column",
        lambda: cc.difference_band(long, weight="i", pc=[0.5], **paired),
        RESULT,
        lambda result: pd.testing.assert_frame_equal(
            result,
            cc.difference_band(repeated_pairs(long, "i"), pc=[0.5], **paired),
            check_exact=False,
            atol=1e-12,
        ),
    )
    repeated = data.loc[data.index.repeat(data["w"])].reset_index(drop=True)
    add(
        "h_measure: weight=, as repeated rows",
        lambda: cc.h_measure(data, score="s", label="y", by="m", weight="w"),
        RESULT,
        lambda result: np.testing.assert_allclose(
            result["h_measure"],
            cc.h_measure(repeated, score="s", label="y", by="m")["h_measure"],
            rtol=0,
            atol=1e-12,
        ),
    )
    add(
        "h_measure: negative weights",
        lambda: cc.h_measure(data.assign(w=-1), score="s", label="y", weight="w"),
        message_must=r"column 'w' has 40 negative values",
    )

    def same_losses(chart):
        drawn = cc.chart_tables(chart)["expected_loss"]
        expected = cc.expected_loss(
            cc.roc_points(repeated, score="s", label="y", by="m"),
            threshold_choice=["optimal", "score_driven", "rate_driven"],
        )
        np.testing.assert_allclose(
            drawn["expected_loss"], expected["expected_loss"], rtol=0, atol=1e-12
        )

    add(
        "threshold_choice_chart: weight=, as repeated rows",
        lambda: cc.threshold_choice_chart(data, score="s", label="y", classifier="m", weight="w"),
        RESULT,
        same_losses,
    )
    add(
        "threshold_choice_chart: text weights",
        lambda: cc.threshold_choice_chart(data.assign(w="x"), score="s", label="y", weight="w"),
        message_must=r"column 'w' must hold numbers",
    )
    add(
        "auc_test: weights whose total overflows float64",
        lambda: cc.auc_test(long.assign(w=1e308), weight="w", **paired),
        message_must=r"sums to more than the largest float64",
    )
    h_plain = cc.h_measure(data, score="s", label="y", by="m")["h_measure"]
    add(
        "h_measure: weights of 1e300 (hull turns of counts near 1e154 overflowed)",
        lambda: cc.h_measure(data.assign(w=1e300), score="s", label="y", by="m", weight="w"),
        RESULT,
        lambda result: np.testing.assert_allclose(result["h_measure"], h_plain, atol=1e-12),
    )
