from decimal import Decimal

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._palette import COLORS, color_scale


def test_values_get_the_default_colours_in_sorted_order():
    mapping = cc.palette(["tree", "logistic", "naive bayes", "tree"])
    assert list(mapping) == ["logistic", "naive bayes", "tree"]
    assert list(mapping.values()) == list(COLORS[:3])


def test_the_same_values_get_the_same_colours_whatever_their_order():
    a = cc.palette(pd.Series(["b", "a", "c"]))
    b = cc.palette(np.array(["c", "b", "a"], dtype=object))
    assert a == b


def test_chosen_colours_are_kept_and_not_reused():
    mapping = cc.palette(["a", "b", "c"], colors={"b": COLORS[0]})
    assert mapping["b"] == COLORS[0]
    assert COLORS[0] not in (mapping["a"], mapping["c"])
    assert len(set(mapping.values())) == 3


def test_more_values_than_colours_repeat_them():
    mapping = cc.palette(range(len(COLORS) + 2))
    assert list(mapping.values())[: len(COLORS)] == list(COLORS)
    assert list(mapping.values())[len(COLORS)] == COLORS[0]


def test_missing_values_are_left_out_and_mixed_types_sorted_as_text():
    assert list(cc.palette(["b", None, np.nan, "a"])) == ["a", "b"]
    assert list(cc.palette([2, "a", 1])) == [1, 2, "a"]


def test_numpy_values_become_plain_values_for_vega_lite():
    mapping = cc.palette(np.array([2, 1]))
    assert all(type(v) is int for v in mapping)
    scale = color_scale(np.array([2, 1])).to_dict()
    assert scale["domain"] == [1, 2] and scale["range"] == list(COLORS[:2])


@pytest.mark.parametrize(
    ("values", "colors", "message"),
    [
        ("abc", None, r"values='abc' must be a list or column"),
        (3, None, r"values=3 must be a list or column"),
        (["a"], ["red"], r"colors=\['red'\] must be a dict"),
        (["a"], {"a": 3}, r"colors\['a'\]=3 is not a colour; pass a CSS colour name"),
        (["a"], {"a": " "}, r"colors\['a'\]=' ' is not a colour"),
        (
            ["A"],
            {"A": "notacolor"},
            r"^colors\['A'\]='notacolor' is not a colour; pass a CSS colour name \('black', "
            r"'steelblue'\), '#rgb' or '#rrggbb' \('#0072B2'; '#rrggbbaa' with opacity\), "
            r"'rgb\(0, 114, 178\)' or 'hsl\(202, 100%, 35%\)'$",
        ),
        (["a"], {"a": "#12345"}, r"colors\['a'\]='#12345' is not a colour"),
        (["a"], {"a": "rgb(1, 2)"}, r"colors\['a'\]='rgb\(1, 2\)' is not a colour"),
        ([1], {np.int64(1): "blu"}, r"^colors\[1\]='blu' is not a colour"),
        ([[1, 2], [3]], None, r"values such as \[1, 2\] \(list\) cannot be given colours"),
        (np.array([{"a": 1}], dtype=object), None, r"\(dict\) cannot be given colours"),
    ],
)
def test_bad_input_is_refused(values, colors, message):
    with pytest.raises(cc.CostchartError, match=message):
        cc.palette(values, colors=colors)


@pytest.mark.parametrize(
    "colour",
    [
        "black",
        "SteelBlue",
        " rebeccapurple ",
        "transparent",
        "#abc",
        "#abcd",
        "#0072B2",
        "#0072b280",
        "rgb(0, 114, 178)",
        "rgb(0%,45%,70%)",
        "rgba(0, 114, 178, 0.5)",
        "hsl(202, 100%, 35%)",
        "hsla(202, 100%, 35%, .5)",
    ],
)
def test_every_colour_vega_reads_is_accepted(colour):
    assert cc.palette(["a"], colors={"a": colour}) == {"a": colour}


@pytest.mark.parametrize(
    ("values", "colors", "meant"),
    [
        (["tree", "logistic"], {"Logistic": "red"}, "'logistic'"),
        ([1, 2], {"1": "red"}, "1"),
        (["1", "2"], {1: "red"}, "'1'"),
        ([1.0, 2.0], {"1": "red"}, "1.0"),  # pandas makes ints floats beside a NaN
        ([1, 2], {"1.0": "red"}, "1"),
    ],
)
def test_a_key_that_misses_a_value_only_by_case_or_type_is_refused(values, colors, meant):
    with pytest.raises(cc.CostchartError, match=f"colors= key .* names no value.*pass {meant} as"):
        cc.palette(values, colors=colors)


def test_keys_for_other_charts_values_are_kept():
    # One mapping for a whole report: keys this chart does not show are no mistake, and
    # neither is a key like another value in case when that value has its own colour.
    mapping = cc.palette(
        ["logistic"], colors={"tree": "black", "Logistic": "red", "logistic": "blue"}
    )
    assert mapping == {"Logistic": "red", "logistic": "blue", "tree": "black"}


def test_a_chart_names_its_palette_when_a_key_misses(rng):
    y = rng.random(100) < 0.5
    data = pd.DataFrame(
        {"m": np.repeat(["tree", "logistic"], 50), "s": rng.normal(size=100) + y, "y": y}
    )
    points = cc.roc_points(data, score="s", label="y", by="m")
    with pytest.raises(cc.CostchartError, match="palette= key 'Tree' names no value"):
        cc.roc_chart(points, classifier="m", palette={"Tree": "black"})


@pytest.mark.parametrize(
    ("values", "colors", "key"),
    [
        ([np.inf, 1.0], {1.0: "red"}, "1.0"),
        ([Decimal("1.5"), 2], {2: "red"}, "2"),
        ([1, ("a", 2)], {1: "red"}, "1"),
    ],
)
def test_keys_equal_to_values_drawn_as_text_are_drawn_alike(values, colors, key):
    # One value drawn as text draws the whole column as text; an equal key follows it.
    mapping = cc.palette(values, colors=colors)
    assert mapping[key] == "red"
    assert len(mapping) == 2


def test_a_text_keyed_report_palette_on_a_numeric_chart_says_why(rng):
    everyone = cc.palette([0.1, 1.0, np.inf])  # inf makes every key text
    y = rng.random(100) < 0.5
    data = pd.DataFrame({"clf": np.repeat([0.1, 1.0], 50), "s": rng.normal(size=100) + y, "y": y})
    points = cc.roc_points(data, score="s", label="y", by="clf")
    with pytest.raises(cc.CostchartError, match="keys every value as text when one of them"):
        cc.cost_chart(points, classifier="clf", palette=everyone)


def test_a_pyarrow_column_gives_the_palette_of_its_values():
    import pyarrow as pa

    assert cc.palette(pa.array([2, 1])) == cc.palette([2, 1])
    assert cc.palette(pa.chunked_array([[True], [False]])) == cc.palette([True, False])
    assert cc.palette(pa.array(["b", "a", None])) == cc.palette(["b", "a"])  # nulls left out
