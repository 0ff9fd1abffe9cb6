"""Sweep cases of issue 31 item 4 (imported by ``tests/sweep_bad_inputs.py``).

Integer scores past 2**53, where float64 rounds distinct integers into one: each case is
checked against the same data with every score replaced by its rank (the right rates,
costs and AUC), and thresholds must come back as the exact input values. A NaN or text
among big Python integers must give a clear ``CostchartError``.
"""

from __future__ import annotations

ERROR, RESULT = "error", "result"


def big_integer_cases(add) -> None:
    """One case per kind: bands, differences, selections, fixed thresholds, tables, AUC."""
    import bisect

    import numpy as np
    import pandas as pd

    import costchart as cc

    b = 2**53
    y = [1, 0, 1, 0]
    offsets = np.array([1, 0, 3, 2])
    kinds = {
        "int64": (b + offsets).astype(np.int64),
        "int64 2**60": (2**60 + offsets).astype(np.int64),
        "uint64": np.uint64(2**63) + offsets.astype(np.uint64),
        "python ints 2**64": np.array([2**64 + int(k) for k in offsets], dtype=object),
    }

    def ranks(scores):
        values = [v.item() if isinstance(v, np.generic) else v for v in scores]
        distinct = sorted(set(values))
        return np.array([distinct.index(v) for v in values], np.int64), distinct

    def equal_to(reference, *, drop=()):
        def check(result):
            expected = reference()
            pd.testing.assert_frame_equal(
                result.drop(columns=list(drop)), expected.drop(columns=list(drop))
            )

        return check

    def exact_thresholds(expected):
        def check(result):
            got = [v.item() if isinstance(v, np.generic) else v for v in result["threshold"]]
            assert got == expected and all(type(g) is type(e) for g, e in zip(got, expected)), (
                got,
                expected,
            )

        return check

    for name, s in kinds.items():
        rank, distinct = ranks(s)
        data = pd.DataFrame({"s": s, "y": y})
        ranked = data.assign(s=rank)
        t = distinct[1]  # the 2**53 + 1
        k = float(bisect.bisect_left(distinct, t))
        add(
            f"big integers ({name}): bootstrap_band(threshold=) compares exactly",
            lambda d=data, t=t: cc.bootstrap_band(d, score="s", label="y", threshold=t, pc=[0.75]),
            RESULT,
            equal_to(
                lambda r=ranked, k=k: cc.bootstrap_band(
                    r, score="s", label="y", threshold=k, pc=[0.75]
                )
            ),
        )
        long = pd.DataFrame(
            {
                "m": ["a"] * 4 + ["b"] * 4,
                "id": [0, 1, 2, 3] * 2,
                "s": np.r_[s, s[[1, 0, 3, 2]]],
                "y": y * 2,
            }
        )
        long_ranked = long.assign(s=np.r_[rank, rank[[1, 0, 3, 2]]])
        common = {"score": "s", "label": "y", "classifier": "m", "instance": "id", "pc": [0.5]}
        add(
            f"big integers ({name}): difference_band(threshold=) compares exactly",
            lambda d=long, t=t, c=common: cc.difference_band(d, threshold=(t, t), **c),
            RESULT,
            equal_to(
                lambda r=long_ranked, k=k, c=common: cc.difference_band(r, threshold=(k, k), **c)
            ),
        )
        add(
            f"big integers ({name}): expected_loss(threshold_choice='fixed')",
            lambda d=data, t=t: cc.expected_loss(
                d, score="s", label="y", threshold_choice="fixed", threshold=t
            ),
            RESULT,
            equal_to(
                lambda r=ranked, k=k: cc.expected_loss(
                    r, score="s", label="y", threshold_choice="fixed", threshold=k
                )
            ),
        )
        points = cc.roc_points(data, score="s", label="y")
        add(
            f"big integers ({name}): selection_table keeps the exact thresholds",
            lambda p=points: cc.selection_table(p),
            RESULT,
            exact_thresholds([distinct[3], distinct[1]]),
        )
        add(
            f"big integers ({name}): to_cost_lines keeps the exact thresholds",
            lambda p=points: cc.to_cost_lines(p).iloc[::2].reset_index(drop=True),
            RESULT,
            exact_thresholds([np.inf, *distinct[::-1]]),
        )
        add(
            f"big integers ({name}): bootstrap_band(selection=) applies them exactly",
            lambda d=data, p=points: cc.bootstrap_band(
                d, score="s", label="y", selection=cc.selection_table(p), pc=[0.3, 0.75]
            ),
            RESULT,
            equal_to(
                lambda r=ranked: cc.bootstrap_band(
                    r,
                    score="s",
                    label="y",
                    selection=cc.selection_table(cc.roc_points(r, score="s", label="y")),
                    pc=[0.3, 0.75],
                )
            ),
        )
        add(
            f"big integers ({name}): auc",
            lambda d=data: cc.auc(cc.roc_points(d, score="s", label="y")),
            RESULT,
            equal_to(lambda: pd.DataFrame({"auc": [0.75]})),
        )
    # threshold_classifier deploys the exact threshold (its predictions give the rates).
    from test_big_integers import score_is_the_feature

    ScoreIsTheFeature = score_is_the_feature()

    def deployed(X, selection, pc):
        """The deployed classifier's threshold and the rates its predictions give."""
        model = cc.threshold_classifier(
            ScoreIsTheFeature().fit(X, y), selection, pc=pc, response_method="decision_function"
        )
        predicted = model.fit(X, y).predict(X).astype(bool)
        rates = {"tpr": [predicted[[0, 2]].mean()], "fpr": [predicted[[1, 3]].mean()]}
        threshold = np.empty(1, dtype=object)
        threshold[0] = model.threshold
        return pd.DataFrame({"threshold": threshold, **rates})

    for name in ("int64 2**60", "python ints 2**64"):
        X = kinds[name].reshape(-1, 1)
        selection = cc.selection_table(cc.roc_points({"s": X[:, 0], "y": y}, score="s", label="y"))

        def same_row(result, selection=selection):
            row = selection.iloc[0]  # pc=0.2 lies in the first interval
            got = result.iloc[0]
            assert type(got["threshold"]) is int and got["threshold"] == row["threshold"], got
            assert (got["tpr"], got["fpr"]) == (row["tpr"], row["fpr"]), (got, row)

        add(
            f"big integers ({name}): threshold_classifier deploys the exact threshold",
            lambda X=X, selection=selection: deployed(X, selection, 0.2),
            RESULT,
            same_row,
        )
    for label, bad, message in (
        ("a NaN among Python integers", np.nan, "column 's' has 1 NaN values"),
        ("text among Python integers", "x", "column 's' must hold numbers"),
        ("an infinity among Python integers", np.inf, "column 's' has 1 infinite values"),
    ):
        add(
            f"big integers: {label}",
            lambda v=bad: cc.roc_points(
                {"s": np.array([2**70, v, 2**70 + 1], dtype=object), "y": [1, 0, 1]},
                score="s",
                label="y",
            ),
            message_must=message,
        )
