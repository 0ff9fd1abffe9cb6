"""Sweep cases of issue 31 item 1 (imported by ``tests/sweep_bad_inputs.py``).

Grouping values that are not plain numbers or strings (dates, decimals, periods,
intervals, bytes, time deltas, tuples, frozensets, complex numbers, infinities, integers
past 2**53, missing values) in a chart's colour or facet column must be drawn as their
text: the page's JSON holds each value's text, and nothing JSON cannot hold. Column names
Vega-Lite cannot draw are refused, naming the column; those it can (a quote) must draw.
"""

from __future__ import annotations

import datetime
import decimal
import json

ERROR, RESULT = "error", "result"

#: Two values of each kind, and the text a chart draws for each.
KINDS = {
    "date": ([datetime.date(2020, 1, 31), datetime.date(2021, 6, 1)], ["2020-01-31", "2021-06-01"]),
    "datetime": (
        [datetime.datetime(2020, 1, 31, 8, 30), datetime.datetime(2021, 6, 1)],
        ["2020-01-31 08:30:00", "2021-06-01 00:00:00"],
    ),
    "time": ([datetime.time(8, 30), datetime.time(9)], ["08:30:00", "09:00:00"]),
    "Decimal": ([decimal.Decimal("1.5"), decimal.Decimal("10")], ["1.5", "10"]),
    "bytes": ([b"tree", b"forest"], ["tree", "forest"]),
    "tuple": ([(1, 2), (3, 4)], ["(1, 2)", "(3, 4)"]),
    "frozenset": ([frozenset({1}), frozenset({2})], ["frozenset({1})", "frozenset({2})"]),
    "complex": ([1 + 2j, 3 + 0j], ["(1+2j)", "(3+0j)"]),
    "inf": ([float("inf"), 1.0], ["inf", "1.0"]),
    "-inf": ([float("-inf"), 1.0], ["-inf", "1.0"]),
    "int past 2**53": ([2**53 + 1, 2**53 + 2], [str(2**53 + 1), str(2**53 + 2)]),
}


def _typed_kinds():
    """Kinds that pandas stores in typed columns (made once pandas is imported)."""
    import pandas as pd

    return {
        "Period": (
            pd.Series(pd.period_range("2020-01", periods=2, freq="M")),
            ["2020-01", "2020-02"],
        ),
        "Interval": (pd.Series(pd.interval_range(0, 2)), ["(0, 1]", "(1, 2]"]),
        "Timedelta": (
            pd.Series(pd.to_timedelta(["1D", "2D"])),
            ["1 days 00:00:00", "2 days 00:00:00"],
        ),
        "datetime64": (
            pd.Series(pd.to_datetime(["2020-01-31", "2021-06-01"])),
            ["2020-01-31", "2021-06-01"],
        ),
    }


def chart_value_cases(add) -> None:
    """Hostile colour and facet values in every chart the issue names, and column names."""
    import numpy as np
    import pandas as pd

    import costchart as cc
    from costchart._export.html import safe_json
    from costchart._export.image import chart_spec

    rng = np.random.default_rng(31)
    n = 30
    scores, labels = rng.random(4 * n).round(2), rng.integers(0, 2, 4 * n)

    def data(values) -> pd.DataFrame:
        first, second = values[0], values[1]
        frame = pd.DataFrame({"s": scores, "y": labels})
        frame["g"] = pd.Series(([first] * n + [second] * n) * 2, dtype=object)
        frame["h"] = pd.Series([first] * (2 * n) + [second] * (2 * n), dtype=object)
        return frame

    def drawn_as(texts):
        def check(chart):
            spec = chart_spec(chart)
            safe_json(spec)  # what the page embeds: refuses NaN and Python objects
            rows = json.dumps(spec["datasets"])
            for text in texts:
                assert json.dumps(text) in rows, f"{text!r} is not drawn: {rows[:300]}"

        return check

    charts = {
        "cost_chart": lambda d: cc.cost_chart(_points(cc, d), classifier="g", facet="h"),
        "roc_chart": lambda d: cc.roc_chart(_points(cc, d), classifier="g", facet="h"),
        "roc_cost_chart facet": lambda d: cc.roc_cost_chart(_points(cc, d), facet="h"),
        "roc_cost_chart combined": lambda d: cc.roc_cost_chart(
            _points(cc, d), classifier="g", facet="h", combined=True
        ),
        "threshold_choice_chart": lambda d: cc.threshold_choice_chart(
            d, score="s", label="y", classifier="g", facet="h"
        ),
        "explorer": lambda d: cc.explorer(_points(cc, d, by=["g"]), classifier="g"),
    }
    kinds = {**KINDS, **_typed_kinds()}
    for kind, (values, texts) in kinds.items():
        frame = data(list(values))
        for name, chart in charts.items():
            add(
                f"{name}: colour and facet values of kind {kind}",
                lambda c=chart, f=frame: c(f),
                RESULT,
                drawn_as(texts),
            )
    # Missing values: null in the page, never NaN.
    for values, texts in (([float("nan"), 1.0], []), ([None, "a"], ["a"])):
        missing = data(values)
        add(
            f"explorer: a missing colour value ({values[0]!r})",
            lambda f=missing: cc.explorer(_points(cc, f, by=["g"]), classifier="g"),
            RESULT,
            drawn_as(texts),
        )
    # Values that differ but read the same would merge two curves: refused.
    add(
        "cost_chart: colour values Decimal('1') and '1'",
        lambda: cc.cost_chart(_points(cc, data([decimal.Decimal("1"), "1"])), classifier="g"),
        message_must=r"column 'g'.*read the same",
    )
    # Column names: a quote draws, a line break cannot (Vega-Lite writes it unescaped).
    quoted = data(["a", "b"]).rename(columns={"g": 'a"b'})
    add(
        "explorer: a quote in the colour column's name",
        lambda: cc.explorer(_points(cc, quoted, by=['a"b']), classifier='a"b'),
        RESULT,
        drawn_as(["a", "b"]),
    )
    for name in ("a\nb", "a\rb", "a\u2028b"):
        broken = data(["a", "b"]).rename(columns={"g": name})
        add(
            f"threshold_choice_chart: colour column named {name!r}",
            lambda f=broken, c=name: cc.threshold_choice_chart(
                f, score="s", label="y", classifier=c
            ),
            message_must=r"cannot be drawn.*line break.*rename the column",
        )
        add(
            f"cost_chart: facet column named {name!r}",
            lambda f=broken, c=name: cc.cost_chart(_points(cc, f, by=[c, "h"]), facet=c),
            message_must=r"cannot be drawn.*line break.*rename the column",
        )


def _points(cc, frame, by=("g", "h")):
    return cc.roc_points(frame, score="s", label="y", by=list(by))
